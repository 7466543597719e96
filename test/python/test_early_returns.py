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
