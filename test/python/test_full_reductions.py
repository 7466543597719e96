"""Full reductions of a block by every invocation of a workgroup: partials of
types without subgroup shuffles (fp16, int8) are halved in workgroup memory
down to 32 and then folded by every invocation alike; argmax's ties keep
the first index whichever invocation folds them. Checked against PyTorch on
blocks of 4096 with 16 warps (512 invocations)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _max_then_shift(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    # The maximum is read again by every invocation after the reduction.
    tl.store(out_ptr + offsets, x - tl.max(x, axis=0))


@triton.jit
def _argmax(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(out_ptr, tl.argmax(x, axis=0))


@pytest.mark.parametrize("dtype", [torch.float16, torch.int8, torch.float32])
def test_max_of_a_block_then_shift(dtype: torch.dtype) -> None:
    gen = torch.Generator().manual_seed(3)
    x = torch.randint(-100, 100, (4096,), generator=gen).to(dtype)
    out = torch.empty_like(x)
    _max_then_shift[(1,)](x, out, BLOCK=4096, num_warps=16)
    torch.testing.assert_close(out, x - x.max())


def test_argmax_ties_keep_the_first_index() -> None:
    x = torch.zeros(4096)
    x[[7, 900, 2049, 4000]] = 5.0  # the maximum, four times
    out = torch.empty(1, dtype=torch.int32)
    _argmax[(1,)](x, out, BLOCK=4096, num_warps=16)
    assert int(out) == 7


@triton.jit
def _row_statistics(x_ptr, mean_ptr, var_ptr, XBLOCK: tl.constexpr, R: tl.constexpr):
    """Inductor's persistent-reduction shape: XBLOCK rows of R elements."""
    rows = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    x = tl.load(x_ptr + rows * R + tl.arange(0, R)[None, :])
    mean = tl.sum(x, 1)[:, None] / R
    centred = x - mean
    tl.store(mean_ptr + rows, mean)
    tl.store(var_ptr + rows, tl.sum(centred * centred, 1)[:, None] / R)


@pytest.mark.parametrize("rows_per_program, warps", [(2, 16), (4, 16), (2, 8)])
def test_blocks_of_a_few_long_rows_reduce_from_registers(rows_per_program: int, warps: int) -> None:
    # Each row reduced on its own (--triton-spirv-split-row-reductions) reads
    # the block from registers: 2 x 2048 fp32 over 512 invocations took
    # 34,832 bytes of workgroup memory before, past lavapipe's 32 KiB.
    x = torch.randn(64, 2048)
    mean, var = torch.empty(64, 1), torch.empty(64, 1)
    kernel = _row_statistics[(64 // rows_per_program,)](x, mean, var, XBLOCK=rows_per_program, R=2048,
                                                       num_warps=warps)
    torch.testing.assert_close(mean.flatten(), x.mean(1), atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(var.flatten(), x.var(1, unbiased=False), atol=1e-4, rtol=1e-4)
    assert kernel.metadata.shared <= 8192


@triton.jit
def _merge_moments(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    # Chan et al.'s pairwise update of (mean, sum of squared deviations, count).
    n = n_a + n_b
    share_b = tl.where(n == 0.0, 0.0, n_b / n)
    delta = mean_b - mean_a
    return mean_a + delta * share_b, m2_a + m2_b + delta * delta * n_a * share_b, n


@triton.jit
def _welford_rows(x_ptr, mean_ptr, m2_ptr, XBLOCK: tl.constexpr, R: tl.constexpr):
    """Inductor's single-iteration Welford reduction: every element starts as
    its own mean with a splat zero m2 and a count of one."""
    rows = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    x = tl.load(x_ptr + rows * R + tl.arange(0, R)[None, :])
    mean, m2, _ = tl.reduce((x, tl.zeros([XBLOCK, R], tl.float32), tl.full([XBLOCK, R], 1.0, tl.float32)), 1,
                            _merge_moments)
    tl.store(mean_ptr + rows, mean[:, None])
    tl.store(m2_ptr + rows, m2[:, None])


@pytest.mark.parametrize("rows_per_program", [1, 2, 4])
def test_welford_rows_merge_partial_moments(rows_per_program: int) -> None:
    # The combiner also merges partial results across invocations, where the
    # splat m2 is no longer zero. Row reductions of a reduction without an
    # identity seed from the first column; with the seed copies and the
    # splat split per row, the [2, 2048] block stays in registers (Inductor's
    # XBLOCK 2 x R0_BLOCK 2048 layer norm needed 63,512 bytes before).
    x = torch.randn(16, 2048) + 3.0
    mean, m2 = torch.empty(16, 1), torch.empty(16, 1)
    kernel = _welford_rows[(16 // rows_per_program,)](x, mean, m2, XBLOCK=rows_per_program, R=2048, num_warps=16)
    torch.testing.assert_close(mean.flatten(), x.mean(1), atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(m2.flatten(), x.var(1, unbiased=False) * 2048, atol=1e-2, rtol=1e-4)
    # The three [4, 2048] blocks alone would take 96 KiB.
    assert kernel.metadata.shared <= 16384
