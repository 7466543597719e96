"""Integers cast to pointers and back (`.to(tl.pi32_t)`, then stored as
int64) are the integers: a pointer here is a buffer and an element offset,
and the round trip through one lost the high bits (Triton's
test_where[*int32] gave wrong values)."""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def _select_as_pointers(cond_ptr, a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    choose = tl.load(cond_ptr + offsets, mask=inside)
    a = tl.load(a_ptr + offsets, mask=inside).to(tl.pi32_t)
    b = tl.load(b_ptr + offsets, mask=inside).to(tl.pi32_t)
    tl.store(out_ptr + offsets, tl.where(choose, a, b), mask=inside)


def test_integers_through_pointers_come_back_whole() -> None:
    gen = torch.Generator().manual_seed(7)
    n = 1000
    cond = torch.rand(n, generator=gen) < 0.5
    a = torch.randint(-2**62, 2**62, (n,), generator=gen)
    b = torch.randint(-2**62, 2**62, (n,), generator=gen)
    b[:8] = torch.tensor([-1, 1, 2, 3, 2**40 + 1, -(2**40) - 3, 2**63 - 1, -2**63])
    out = torch.zeros(n, dtype=torch.int64)
    _select_as_pointers[(triton.cdiv(n, 256),)](cond, a, b, out, n, BLOCK=256)
    assert torch.equal(out, torch.where(cond, a, b))


@triton.jit
def _copy_if_given(out_ptr, in_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    if in_ptr:  # a pointer argument is never null
        tl.store(out_ptr + offsets, tl.load(in_ptr + offsets, mask=offsets < n), mask=offsets < n)


def test_pointer_arguments_are_not_null() -> None:
    # A tensor at the start of its binding has address (byte offset) 0 in
    # the lowered kernel: `if in_ptr:` must still hold.
    source = torch.arange(16.0, device="spirv")
    out = torch.zeros(16, device="spirv")
    _copy_if_given[(1,)](out, source, 16, BLOCK=16)
    assert torch.equal(out.cpu(), torch.arange(16.0))
