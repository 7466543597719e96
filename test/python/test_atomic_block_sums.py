"""Row and column sums added atomically to memory, their old values kept
(split reductions, Triton's test_tensor_atomic_rmw): the block and its sums
stay in registers. The invocations that shared a row or column combine their
partial sums with shuffles where they are lanes of one subgroup, else
through a small workgroup buffer; one of them runs each atomic and the others
take its result the same way. A 128x128 block used to need 66 KiB of
workgroup memory (128 KiB in 64-bit types), a 64x64 block of int64 column
sums 34,304 bytes."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _add_sums(acc_ptr, x_ptr, old_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
              WIDEN: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    if WIDEN:
        sums = tl.sum(x.to(tl.float32), axis=AXIS).to(x.dtype)
    else:
        sums = tl.sum(x, axis=AXIS)
    kept = rows if AXIS == 1 else cols
    old = tl.atomic_add(acc_ptr + kept, sums)
    tl.store(old_ptr + kept, old)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.float64, torch.float16,
                                   torch.bfloat16])
@pytest.mark.parametrize("shape, axis", [((128, 128), 1), ((128, 128), 0), ((64, 64), 0),
                                         ((2, 8), 1), ((2, 8), 0)])
def test_sums_added_atomically(dtype: torch.dtype, shape: tuple[int, int], axis: int) -> None:
    gen = torch.Generator().manual_seed(0)
    kept = shape[1 - axis]
    if dtype.is_floating_point:
        x = torch.randint(-8, 8, shape, generator=gen).to(dtype) / 4
        acc = torch.randint(-8, 8, (kept, ), generator=gen).to(dtype)
    else:
        x = torch.randint(-1000, 1000, shape, generator=gen, dtype=dtype)
        acc = torch.randint(-1000, 1000, (kept, ), generator=gen, dtype=dtype)
    expected = acc + x.double().sum(axis).to(dtype)
    old = torch.empty_like(acc)
    before = acc.clone()
    compiled = _add_sums[(1, )](acc, x, old, *shape, axis, dtype in (torch.float16, torch.bfloat16))
    # Quarters sum exactly in every type here.
    torch.testing.assert_close(acc, expected, rtol=0, atol=0)
    torch.testing.assert_close(old, before, rtol=0, atol=0)
    assert compiled.metadata.shared <= 32768
