"""Block sizes that real users and autotuners pick: matmul tiles of 128 x 128
and 128 x 256, and flash-attention blocks of 64 to 128 queries. They compile
within the device's workgroup memory (the accumulators live in registers,
operands are staged a chunk of K at a time; a kernel that did not fit would
raise OutOfResources) and match PyTorch."""

from __future__ import annotations

import math

import pytest
import torch
import triton
import triton.language as tl

from corpus.kernels.dots import attention_fwd_kernel, attention_reference
from corpus.kernels.matmul import launch_matmul


def _workgroup_memory_limit() -> int:
    from triton_spirv import vulkan
    return vulkan.device().properties.max_shared_memory


@pytest.mark.parametrize("block_m, block_n, block_k, dtype", [
    (128, 128, 32, torch.float32),
    (128, 128, 32, torch.float16),
    (128, 256, 64, torch.float16),
    # bf16 results: on GPUs with bf16 cooperative matrices, rounded as
    # fragments.
    (64, 64, 32, torch.bfloat16),
    (128, 128, 32, torch.bfloat16),
])
def test_large_matmul_tiles(block_m: int, block_n: int, block_k: int, dtype: torch.dtype) -> None:
    m, n, k = 256, 256, 160
    gen = torch.Generator().manual_seed(0)
    a = torch.randn(m, k, generator=gen).to(dtype)
    b = torch.randn(k, n, generator=gen).to(dtype)
    c = torch.empty(m, n, dtype=dtype)
    launch_matmul(a, b, c, block_m, block_n, block_k, group_m=2)
    expected = (a.double() @ b.double()).to(dtype)
    tolerance = 1e-4 if dtype == torch.float32 else 2e-2
    torch.testing.assert_close(c.double(), expected.double(), atol=tolerance * math.sqrt(k), rtol=tolerance)


@pytest.mark.parametrize("block_m, block_n, num_warps", [(64, 64, 4), (64, 64, 8), (128, 64, 2), (64, 128, 4)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_tile_major_operands(block_m: int, block_n: int, num_warps: int, dtype: torch.dtype) -> None:
    """Register tiles of 4 to 32 rows per invocation read A from a
    tile-major workgroup buffer with vector loads where lanes share its rows
    (padded where the tile is an even number of vectors); sizes that are not
    multiples of the blocks keep the masked staging in play."""
    m, n, k = 200, 136, 72
    gen = torch.Generator().manual_seed(2)
    a = torch.randn(m, k, generator=gen).to(dtype)
    b = torch.randn(k, n, generator=gen).to(dtype)
    c = torch.empty(m, n, dtype=dtype)
    launch_matmul(a, b, c, block_m, block_n, 32, num_warps=num_warps, group_m=2)
    expected = (a.double() @ b.double()).to(dtype)
    tolerance = 1e-4 if dtype == torch.float32 else 2e-2
    torch.testing.assert_close(c.double(), expected.double(), atol=tolerance * math.sqrt(k), rtol=tolerance)


@pytest.mark.parametrize("block_q, block_kv", [(64, 64), (128, 64), (128, 32)])
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_attention_blocks(block_q: int, block_kv: int, head_dim: int, causal: bool) -> None:
    """On NVIDIA the softmax runs on the dots' fragments (fragment families)."""
    heads, seq = 2, 160  # not a multiple of the blocks: the masks matter
    gen = torch.Generator().manual_seed(1)
    q, k, v = (torch.randn(heads, seq, head_dim, generator=gen).mul(0.5).half() for _ in range(3))
    out = torch.empty_like(q)
    scale = 1.0 / math.sqrt(head_dim)
    compiled = attention_fwd_kernel[(triton.cdiv(seq, block_q), heads)](
        q, k, v, out, seq, scale, HEAD_DIM=head_dim, BLOCK_Q=block_q, BLOCK_KV=block_kv, CAUSAL=causal)
    assert compiled.metadata.shared <= _workgroup_memory_limit()
    torch.testing.assert_close(out.float(), attention_reference(q, k, v, scale, causal=causal),
                               atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("block_q, block_kv, head_dim, num_warps", [(128, 32, 128, 8), (64, 16, 128, 4),
                                                                    (128, 16, 64, 8), (64, 32, 128, 4)])
@pytest.mark.parametrize("causal", [False, True])
def test_attention_held_queries(block_q: int, block_kv: int, head_dim: int, num_warps: int, causal: bool) -> None:
    """On NVIDIA the queries are held as A fragments across the loop, loaded
    before it a chunk of columns at a time (through the masked load of the
    last block too), their staging's memory taken over by the loop's."""
    heads, seq = 2, 176  # the last block of queries is partial
    gen = torch.Generator().manual_seed(4)
    q, k, v = (torch.randn(heads, seq, head_dim, generator=gen).mul(0.5).half() for _ in range(3))
    out = torch.empty_like(q)
    scale = 1.0 / math.sqrt(head_dim)
    attention_fwd_kernel[(triton.cdiv(seq, block_q), heads)](
        q, k, v, out, seq, scale, HEAD_DIM=head_dim, BLOCK_Q=block_q, BLOCK_KV=block_kv, CAUSAL=causal,
        num_warps=num_warps)
    torch.testing.assert_close(out.float(), attention_reference(q, k, v, scale, causal=causal),
                               atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("causal", [False, True])
def test_attention_keys_and_weights_of_one_shape(causal: bool) -> None:
    """HEAD_DIM == BLOCK_Q == BLOCK_KV on 2 warps: the staged keys and the
    weights have one shape (on NVIDIA the weights are fragments, the keys a
    workgroup buffer of their own)."""
    heads, seq, block = 2, 150, 32
    gen = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(heads, seq, block, generator=gen).mul(0.5).half() for _ in range(3))
    out = torch.empty_like(q)
    scale = 1.0 / math.sqrt(block)
    attention_fwd_kernel[(triton.cdiv(seq, block), heads)](
        q, k, v, out, seq, scale, HEAD_DIM=block, BLOCK_Q=block, BLOCK_KV=block, CAUSAL=causal, num_warps=2)
    torch.testing.assert_close(out.float(), attention_reference(q, k, v, scale, causal=causal),
                               atol=1e-2, rtol=1e-2)


@triton.jit
def _square_kernel(z_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :]
    z = tl.load(z_ptr + offsets)
    tl.store(out_ptr + offsets, tl.dot(z, z))


@pytest.mark.parametrize("block, num_warps", [(16, 1), (64, 4)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_dot_of_a_block_with_itself(block: int, num_warps: int, dtype: torch.dtype) -> None:
    """One staged block as both operands (Triton's test_noinline[shared]):
    laying A out again must leave B its data."""
    gen = torch.Generator().manual_seed(3)
    z = torch.randn(block, block, generator=gen).to(dtype)
    out = torch.empty(block, block, dtype=torch.float32)
    _square_kernel[(1,)](z, out, BLOCK=block, num_warps=num_warps)
    torch.testing.assert_close(out, z.float() @ z.float(), atol=1e-2, rtol=1e-3)
