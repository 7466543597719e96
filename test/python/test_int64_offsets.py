"""64-bit offsets (tensor descriptors build their addresses and range
checks in int64) against PyTorch: the range check `x >= 0 && x < n` on
sign-extended offsets, which Mesa 22.3's lavapipe miscompiles unless the
compiler narrows it to 32 bits, and a descriptor load permuted in 4-D."""

from __future__ import annotations

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
