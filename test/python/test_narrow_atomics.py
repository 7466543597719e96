"""16-bit atomics (fp16, bf16), which Vulkan lacks: compare-and-swap loops on
the 32-bit word holding the element. Neighbouring elements of one word are
updated concurrently and must not disturb each other."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def scatter_add(x_ptr, v_ptr, N: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, N)
    tl.atomic_add(x_ptr + offs % BINS, tl.load(v_ptr + offs))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_atomic_add_16bit(dtype: torch.dtype) -> None:
    # 7 bins of 8 elements: the last element of the words is never written.
    x = torch.full((8,), 0.5, dtype=dtype)
    values = (torch.arange(256) % 3 + 1).to(dtype)
    scatter_add[(1,)](x, values, 256, 7)
    expected = torch.full((8,), 0.5, dtype=torch.float64)
    expected.index_add_(0, torch.arange(256) % 7, values.double())
    assert torch.equal(x.double(), expected)


@triton.jit
def swap_zeros(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    new = (offs + 1).to(tl.bfloat16) * 0.5
    old = tl.atomic_cas(x_ptr + offs, tl.zeros([N], tl.bfloat16), new)
    tl.store(x_ptr + N + offs, old)


def test_atomic_cas_bf16() -> None:
    before = torch.tensor([0, 7, 0, 0, -3, 0, 0, 0.0])
    x = torch.zeros(16, dtype=torch.bfloat16)
    x[:8] = before
    swap_zeros[(1,)](x, 8)
    new = (torch.arange(8) + 1) * 0.5
    assert torch.equal(x[:8].float(), torch.where(before != 0, before, new))
    assert torch.equal(x[8:].float(), before)
