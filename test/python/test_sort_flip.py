"""tl.sort, tl.topk and tl.flip: Triton writes them as networks of pair swaps
(`x ^ xor_sum(x, axis, keep_dims=True)` over size-2 axes of a reshaped block).
They are recognized as swaps, each stage stays in registers and partners are
reached by the invocation's own registers, subgroup shuffles or one exchange
copy in workgroup memory. Blocks of 4096 elements used to need up to 96 KiB
of workgroup memory (lavapipe has 32 KiB) and raised OutOfResources."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _sort_rows(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               DESCENDING: tl.constexpr, TOPK: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    x = tl.load(x_ptr + rows * N + tl.arange(0, N)[None, :])
    if TOPK:
        z = tl.topk(x, K)
    else:
        z = tl.sort(x, descending=DESCENDING)
    tl.store(z_ptr + rows * K + tl.arange(0, K)[None, :], z)


@triton.jit
def _flip(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, DIM: tl.constexpr):
    offsets = (tl.arange(0, M)[:, None, None] * N * K + tl.arange(0, N)[None, :, None] * K +
               tl.arange(0, K)[None, None, :])
    tl.store(z_ptr + offsets, tl.flip(tl.load(x_ptr + offsets), DIM))


def _random(shape: tuple[int, ...], dtype: torch.dtype, seed: int) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return torch.randn(shape, generator=gen).to(dtype)
    return torch.randint(-1000, 1000, shape, generator=gen, dtype=dtype)


@pytest.mark.parametrize("m, n, warps", [(256, 16, 8), (512, 8, 8), (1, 512, 2), (8, 64, 1)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.float16])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_rows(m: int, n: int, warps: int, dtype: torch.dtype, descending: bool) -> None:
    x = _random((m, n), dtype, seed=m + n)
    z = torch.empty_like(x)
    _sort_rows[(1,)](x, z, M=m, N=n, K=n, DESCENDING=descending, TOPK=False, num_warps=warps)
    torch.testing.assert_close(z, torch.sort(x, descending=descending).values, atol=0, rtol=0)


@pytest.mark.parametrize("m, n", [(256, 16), (1, 512)])
def test_topk_rows(m: int, n: int) -> None:
    x = _random((m, n), torch.float32, seed=7)
    z = torch.empty(m, 8)
    _sort_rows[(1,)](x, z, M=m, N=n, K=8, DESCENDING=True, TOPK=True, num_warps=8)
    torch.testing.assert_close(z, torch.topk(x, 8).values, atol=0, rtol=0)


@pytest.mark.parametrize("dim", [0, 1, 2])
@pytest.mark.parametrize("dtype", [torch.int32, torch.bfloat16])
def test_flip(dim: int, dtype: torch.dtype) -> None:
    x = _random((8, 2, 256), dtype, seed=dim)
    z = torch.empty_like(x)
    _flip[(1,)](x, z, M=8, N=2, K=256, DIM=dim, num_warps=8)
    torch.testing.assert_close(z, torch.flip(x, (dim,)), atol=0, rtol=0)
