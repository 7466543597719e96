"""Blocks addressed or loaded flat and reshaped, then reduced along each
dimension: `arange(0, N).reshape(...)` offsets and transposed pointer
blocks are strided views (`--triton-structured-memory`), a reshaped load
is a load through reshaped pointers
(`--triton-reshape-pointers-before-loads`), and a mask computed from
indices is computed in the reshaped shape
(`--triton-reshape-index-computations`), so blocks of 128 KiB stay in
registers where before their reductions along an inner dimension needed
that much workgroup memory (lavapipe has 32 KiB). Checked against
PyTorch."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _sum_of_reshaped_offsets(x_ptr, out_ptr, D0: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr,
                             AXIS: tl.constexpr):
    offsets = tl.arange(0, D0 * D1 * D2).reshape(D0, D1, D2)
    total = tl.sum(tl.load(x_ptr + offsets), AXIS)
    tl.store(out_ptr + tl.arange(0, total.shape[0])[:, None] * total.shape[1]
             + tl.arange(0, total.shape[1])[None, :], total)


@triton.jit
def _sum_of_reshaped_load(x_ptr, out_ptr, D0: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr,
                          AXIS: tl.constexpr):
    block = tl.load(x_ptr + tl.arange(0, D0 * D1 * D2)).reshape(D0, D1, D2)
    total = tl.sum(block, AXIS)
    tl.store(out_ptr + tl.arange(0, total.shape[0])[:, None] * total.shape[1]
             + tl.arange(0, total.shape[1])[None, :], total)


@triton.jit
def _row_sums_of_a_masked_flat_load(x_ptr, out_ptr, n, M: tl.constexpr, N: tl.constexpr):
    offsets = tl.arange(0, M * N)
    # The mask ends inside a row: not a rectangle, so the load stays
    # element by element, computed in the reshaped shape.
    block = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).reshape(M, N)
    tl.store(out_ptr + tl.arange(0, M), tl.sum(block, 1))


@triton.jit
def _max_of_transposed_pointers(x_ptr, out_ptr, n, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    # The pointers are transposed, not the loaded block; columns past n are
    # masked off and read as -inf.
    pointers = tl.trans(x_ptr + rows * n + cols)
    inside = tl.trans((rows < M) & (cols < n))
    block = tl.load(pointers, mask=inside, other=float("-inf"))
    tl.store(out_ptr + tl.arange(0, M), tl.max(block, 0))


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("kernel", [_sum_of_reshaped_offsets, _sum_of_reshaped_load])
def test_reshaped_block_reduced_along_each_dimension(kernel: triton.JITFunction, axis: int) -> None:
    shape = (16, 64, 32)  # 32,768 int32: 128 KiB
    x = torch.randint(-1000, 1000, shape, generator=torch.Generator().manual_seed(axis), dtype=torch.int32)
    expected = x.sum(axis, dtype=torch.int32)
    out = torch.empty_like(expected)
    kernel[(1,)](x, out, *shape, AXIS=axis)
    torch.testing.assert_close(out, expected)


def test_masked_flat_load_reshaped() -> None:
    m, n = 256, 128
    valid = m * n - 1000
    x = torch.randn(m * n, generator=torch.Generator().manual_seed(4))
    out = torch.empty(m)
    _row_sums_of_a_masked_flat_load[(1,)](x, out, valid, M=m, N=n)
    expected = torch.where(torch.arange(m * n) < valid, x, 0.0).view(m, n).sum(1)
    torch.testing.assert_close(out, expected, atol=1e-4, rtol=1e-4)


def test_transposed_masked_pointers() -> None:
    m, n = 64, 100
    x = torch.randn(m, n, generator=torch.Generator().manual_seed(5))
    out = torch.empty(m)
    _max_of_transposed_pointers[(1,)](x, out, n, M=m, N=128)
    torch.testing.assert_close(out, x.max(1).values)
