"""64-bit offsets (tensor descriptors build their addresses and range
checks in int64) against PyTorch: the range check `x >= 0 && x < n` on
sign-extended offsets, which Mesa 22.3's lavapipe miscompiles unless the
compiler narrows it to 32 bits, and a descriptor load permuted in 4-D.
Loops over int64 bounds, which lavapipe miscompiled the same way until
their induction variables were narrowed too
(--triton-spirv-narrow-loop-indices)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def masked_copy_int64(src_ptr, dst_ptr, N: tl.constexpr):
    # The range check that tensor descriptors emit, on sign-extended offsets.
    offs = tl.arange(0, N).to(tl.int64)
    mask = (offs >= 0) & (offs < N)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def test_int64_range_check() -> None:
    src = torch.arange(2048, dtype=torch.int32)
    dst = torch.zeros_like(src)
    masked_copy_int64[(1,)](src, dst, 2048)
    assert torch.equal(dst, src)


@triton.jit
def permute_4d(in_ptr, out_ptr, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr,
               S3: tl.constexpr):
    src = tl.make_tensor_descriptor(in_ptr, shape=[S0, S1, S2, S3], strides=[S1 * S2 * S3, S2 * S3, S3, 1],
                                    block_shape=[S0, S1, S2, S3])
    dst = tl.make_tensor_descriptor(out_ptr, shape=[S0 * S1 * S2 * S3], strides=[1],
                                    block_shape=[S0 * S1 * S2 * S3])
    block = src.load([0, 0, 0, 0]).permute((1, 3, 2, 0))
    dst.store([0], block.reshape(S0 * S1 * S2 * S3))


def test_descriptor_permute_4d() -> None:
    from triton._internal_testing import default_alloc_fn
    triton.set_allocator(default_alloc_fn)
    shape = (2, 2, 8, 64)
    x = torch.arange(2048, dtype=torch.int8).reshape(shape)
    out = torch.zeros(2048, dtype=torch.int8)
    permute_4d[(1,)](x, out, *shape)
    assert torch.equal(out, x.permute(1, 3, 2, 0).flatten())


@triton.jit
def _rows_by_program(X, DX, DA, M, N: tl.constexpr, BLOCK_N: tl.constexpr):
    """Liger-Kernel's pattern: each program takes rows start, start + P, ...
    of M, summing them into a scalar, with int64 row indices."""
    col = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = col < N
    start = tl.cast(tl.program_id(1), tl.int64)
    total = 0.0
    for r in range(start, M, tl.num_programs(1)):
        x = tl.load(X + r * N + col, mask=mask, other=0.0)
        total += tl.sum(x, 0)
        tl.store(DX + r * N + col, x * 2, mask=mask)
    tl.store(DA + start, total)


@pytest.mark.parametrize("rows", [1, 2, 9])
def test_int64_loop_over_rows_by_program(rows: int) -> None:
    # rows == 1 is specialized (M is then the constant 1): a 64-bit loop from
    # the sign-extended program id to 1, which ran no iteration on lavapipe
    # (DX never written, the sums 0) before the loop was narrowed.
    x = torch.randn(rows, 1023)
    dx, sums = torch.zeros(rows, 1023), torch.zeros(8)
    _rows_by_program[(1, 8)](x, dx, sums, rows, N=1023, BLOCK_N=1024)
    torch.testing.assert_close(dx, 2 * x)
    expected = torch.zeros(8)
    for program in range(8):
        expected[program] = x[program::8].sum()
    torch.testing.assert_close(sums, expected, atol=1e-4, rtol=1e-4)
