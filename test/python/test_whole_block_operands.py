"""Matmul operands loaded through masks or wrapped rows get a version for
blocks wholly in bounds, chosen at run time per load: one unmasked copy.
Shapes here mix both versions in one launch (interior tiles whole, edge
tiles partial; the last K step partial while the others are whole; rows
wrapping past M), and the results must match PyTorch either way."""

from __future__ import annotations

import math

import pytest
import torch
import triton
import triton.language as tl

from corpus.kernels.matmul import launch_matmul


@pytest.mark.parametrize("m, n, k", [
    (128, 128, 128),  # every block whole
    (128, 128, 80),   # the last K step masked, the others whole
    (96, 160, 64),    # rows and columns wrap in the edge tiles
])
@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_matmul_whole_and_partial_blocks(m: int, n: int, k: int, dtype: torch.dtype) -> None:
    gen = torch.Generator().manual_seed(3)
    a = torch.randn(m, k, generator=gen).to(dtype)
    b = torch.randn(k, n, generator=gen).to(dtype)
    c = torch.empty(m, n, dtype=dtype)
    launch_matmul(a, b, c, 64, 64, 32, num_warps=4, group_m=2)
    expected = (a.double() @ b.double()).to(dtype)
    tolerance = 1e-4 if dtype == torch.float32 else 2e-2
    torch.testing.assert_close(c.double(), expected.double(), atol=tolerance * math.sqrt(k), rtol=tolerance)


@triton.jit
def _converted_operand_kernel(x_ptr, y_ptr, out_ptr, rows, BLOCK: tl.constexpr):
    # A masked fp32 load that reaches the dot through a conversion.
    offs = tl.arange(0, BLOCK)
    mask = offs[:, None] < rows
    x = tl.load(x_ptr + offs[:, None] * BLOCK + offs[None, :], mask=mask, other=0.0)
    y = tl.load(y_ptr + offs[:, None] * BLOCK + offs[None, :])
    z = tl.dot(x.to(tl.float16), y)
    tl.store(out_ptr + offs[:, None] * BLOCK + offs[None, :], z)


@pytest.mark.parametrize("rows", [32, 20])
def test_converted_operand(rows: int) -> None:
    gen = torch.Generator().manual_seed(4)
    x = torch.randn(32, 32, generator=gen)
    y = torch.randn(32, 32, generator=gen).half()
    out = torch.empty(32, 32)
    _converted_operand_kernel[(1,)](x, y, out, rows, BLOCK=32)
    kept = x.clone()
    kept[rows:] = 0
    expected = kept.half().double() @ y.double()
    torch.testing.assert_close(out.double(), expected, atol=2e-2 * math.sqrt(32), rtol=2e-2)
