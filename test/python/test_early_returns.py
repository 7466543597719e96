"""A return inside nested ifs leaves a region with several exits, which
lifting control flow to SCF writes as scf.index_switch (rejected before:
"failed to legalize operation 'scf.index_switch'"); it runs as a chain of
scf.if now."""

from __future__ import annotations

import itertools

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _pick(flags_ptr, values_ptr, out_ptr):
    result = -5
    if tl.load(flags_ptr) != 0:
        if tl.load(flags_ptr + 1) != 0:
            result = tl.load(values_ptr)
        else:
            return
    else:
        if tl.load(flags_ptr + 2) != 0:
            result = tl.load(values_ptr + 1)
        else:
            result = tl.load(values_ptr + 2)
    tl.store(out_ptr, result)


@pytest.mark.parametrize("first, second, third", list(itertools.product([0, 1], repeat=3)))
def test_return_inside_nested_ifs(first: int, second: int, third: int) -> None:
    flags = torch.tensor([first, second, third], dtype=torch.int32)
    values = torch.tensor([10, 20, 30], dtype=torch.int32)
    out = torch.full((1,), -1, dtype=torch.int32)
    _pick[(1,)](flags, values, out)
    expected = (10 if second else -1) if first else (20 if third else 30)
    assert out.item() == expected


@triton.jit
def _zero_skipped_rows(grads_ptr, logits_ptr, keep_ptr, N: tl.constexpr, BLOCK_N: tl.constexpr):
    """A gradient kernel's shape (Liger-Kernel's GRPO loss backward): rows
    that are masked out get zeros and return early, with a masked store of a
    splat; the others get a function of their logits."""
    row = tl.program_id(0).cast(tl.int64)
    grads_ptr += row * N
    if tl.load(keep_ptr + row) == 0:
        for start in range(0, N, BLOCK_N):
            cols = tl.arange(0, BLOCK_N) + start
            tl.store(grads_ptr + cols, 0.0, mask=cols < N)
        return
    logits_ptr += row * N
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        tl.store(grads_ptr + cols, tl.load(logits_ptr + cols, mask=cols < N) * 2, mask=cols < N)


@pytest.mark.parametrize("n, block", [(1000, 4096), (5000, 4096), (1000, 256)])
def test_masked_splat_store_before_an_early_return(n: int, block: int) -> None:
    # n < block: the masked zero-fill is one store of a splat over the
    # leading 1000 of 4096 columns ("failed to legalize operation
    # 'memref.reinterpret_cast'" before).
    logits = torch.randn(4, n)
    keep = torch.tensor([1, 0, 1, 0], dtype=torch.int32)
    grads = torch.full((4, n), 7.0)
    _zero_skipped_rows[(4,)](grads, logits, keep, N=n, BLOCK_N=block)
    torch.testing.assert_close(grads, torch.where(keep[:, None] == 1, 2 * logits, torch.zeros_like(logits)))
