"""Pointers chosen between two kernel arguments (`tl.where(c, a_ptr,
b_ptr)`, by a scalar or element by element): each access becomes one masked
access of each argument (--triton-split-pointer-selects). They used to be
rejected: a kernel argument is a buffer binding, and a selected pointer has
no single one."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _copy_chosen(choice_ptr, a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    source = tl.where(tl.load(choice_ptr) != 0, a_ptr, b_ptr)
    tl.store(out_ptr + offsets, tl.load(source + offsets, mask=inside), mask=inside)


@triton.jit
def _per_element(choice_ptr, a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    chosen = tl.load(choice_ptr + offsets, mask=inside) != 0
    value = tl.load(tl.where(chosen, a_ptr + offsets, b_ptr + offsets), mask=inside)
    # Chosen elements go to the first half of out, the others to the second.
    tl.store(tl.where(chosen, out_ptr + offsets, out_ptr + n + offsets), value * 2, mask=inside)
    tl.atomic_add(tl.where(chosen, a_ptr + offsets, b_ptr + offsets), 1, mask=inside)


@pytest.mark.parametrize("choice", [1, 0])
def test_pointer_chosen_by_a_scalar(choice: int) -> None:
    n = 1000
    a = torch.arange(n, dtype=torch.int32)
    b = -torch.arange(n, dtype=torch.int32)
    out = torch.zeros(n, dtype=torch.int32)
    _copy_chosen[(triton.cdiv(n, 256), )](torch.tensor([choice], dtype=torch.int32), a, b, out, n,
                                          BLOCK=256)
    assert torch.equal(out, a if choice else b)


def test_pointers_chosen_per_element() -> None:
    n = 1000
    gen = torch.Generator().manual_seed(0)
    chosen = torch.randint(0, 2, (n, ), generator=gen, dtype=torch.int32)
    a = torch.arange(n, dtype=torch.int32)
    b = -torch.arange(n, dtype=torch.int32)
    a_before, b_before = a.clone(), b.clone()
    out = torch.zeros(2 * n, dtype=torch.int32)
    _per_element[(triton.cdiv(n, 256), )](chosen, a, b, out, n, BLOCK=256)
    picked = chosen != 0
    doubled = torch.where(picked, a_before, b_before) * 2
    assert torch.equal(out[:n], torch.where(picked, doubled, 0))
    assert torch.equal(out[n:], torch.where(picked, 0, doubled))
    assert torch.equal(a, a_before + picked.int())
    assert torch.equal(b, b_before + (~picked).int())
