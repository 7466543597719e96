"""tl.map_elementwise with pack > 1: the function takes `pack` elements of
each input and returns `pack` of each output per call (which elements go
together is the backend's choice; here consecutive ones)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _divmod_pairs(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def _scaled_quads(x0, x1, x2, x3):
    return x0 * 2, x1 * 3, x2 * 4, x3 * 5


@triton.jit
def _divmod_kernel(a_ptr, b_ptr, q_ptr, r_ptr, M: tl.constexpr, N: tl.constexpr):
    offsets = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    q, r = tl.map_elementwise(_divmod_pairs, tl.load(a_ptr + offsets), tl.load(b_ptr + offsets),
                              pack=2)
    tl.store(q_ptr + offsets, q)
    tl.store(r_ptr + offsets, r)


@triton.jit
def _quads_kernel(x_ptr, y_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    # One output comes back as a tuple of one.
    y = tl.map_elementwise(_scaled_quads, tl.load(x_ptr + offsets), pack=4)[0]
    tl.store(y_ptr + offsets, y)


@pytest.mark.parametrize("shape", [(1, 512), (4, 8)])
def test_packed_divmod(shape: tuple[int, int]) -> None:
    gen = torch.Generator().manual_seed(0)
    a = torch.randint(0, 1 << 20, shape, generator=gen, dtype=torch.int32)
    b = torch.randint(1, 1000, shape, generator=gen, dtype=torch.int32)
    q, r = torch.empty_like(a), torch.empty_like(a)
    _divmod_kernel[(1, )](a, b, q, r, *shape)
    assert torch.equal(q, a // b)
    assert torch.equal(r, a % b)


def test_pack_of_four_keeps_positions() -> None:
    # Each position within a pack has its own factor: consecutive elements
    # are packed together, in order.
    x = torch.arange(64, dtype=torch.float32)
    y = torch.empty_like(x)
    _quads_kernel[(1, )](x, y, 64)
    assert torch.equal(y, x * torch.tensor([2.0, 3.0, 4.0, 5.0]).repeat(16))
