"""3-D `tl.dot` (a batched matmul): its accumulator is held in registers
(cyclic over the batch, row and column space), so that only the operands
take workgroup memory. The shapes below stage 32 KiB of operands, all of
lavapipe's workgroup memory: with the accumulator in workgroup memory too
they raised OutOfResources. Larger operands are staged a chunk of K at a
time, also where they are loaded flat and reshaped (a 6-D dot of 64 KiB of
operands)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _batched_dot(a_ptr, b_ptr, c_ptr, BATCH: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                 K: tl.constexpr):
    batch = tl.arange(0, BATCH)[:, None, None]
    rows = tl.arange(0, M)[None, :, None]
    cols = tl.arange(0, N)[None, None, :]
    inner = tl.arange(0, K)
    a = tl.load(a_ptr + batch * M * K + rows * K + inner[None, None, :])
    b = tl.load(b_ptr + batch * K * N + inner[None, :, None] * N + cols)
    tl.store(c_ptr + batch * M * N + rows * N + cols, tl.dot(a, b, input_precision="ieee"))


@pytest.mark.parametrize("dtype, batch, m, n, k, warps", [
    (torch.float16, 8, 32, 32, 32, 16),
    (torch.float16, 4, 32, 32, 64, 1),
    (torch.float32, 4, 32, 32, 32, 4),
])
def test_batched_dot_fits_with_registers(dtype: torch.dtype, batch: int, m: int, n: int, k: int,
                                         warps: int) -> None:
    gen = torch.Generator().manual_seed(5)
    a = torch.randn(batch, m, k, generator=gen).to(dtype)
    b = torch.randn(batch, k, n, generator=gen).to(dtype)
    c = torch.empty(batch, m, n, dtype=torch.float32)
    _batched_dot[(1,)](a, b, c, BATCH=batch, M=m, N=n, K=k, num_warps=warps)
    torch.testing.assert_close(c, torch.bmm(a.float(), b.float()), atol=1e-3, rtol=1e-3)


@triton.jit
def _strided_batched_dot(a_ptr, b_ptr, c_ptr, a_batch, a_row, b_batch, b_row, c_batch, c_row,
                         BATCH: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                         OUT: tl.constexpr):
    batch = tl.arange(0, BATCH)[:, None, None]
    rows = tl.program_id(0) * M + tl.arange(0, M)[None, :, None]
    cols = tl.program_id(1) * N + tl.arange(0, N)[None, None, :]
    inner = tl.arange(0, K)
    a = tl.load(a_ptr + batch * a_batch + rows * a_row + inner[None, None, :])
    b = tl.load(b_ptr + batch * b_batch + inner[None, :, None] * b_row + cols)
    tl.store(c_ptr + batch * c_batch + rows * c_row + cols, tl.dot(a, b, out_dtype=OUT))


@pytest.mark.parametrize("batch, warps, out_dtype", [(4, 1, torch.float16), (8, 2, torch.float32)])
def test_many_accumulators_per_invocation(batch: int, warps: int, out_dtype: torch.dtype) -> None:
    # 128 accumulators per invocation, with runtime strides. One reduction
    # loop per accumulator made lavapipe's shader compiler (which splits
    # shaders at barriers into coroutines) run for minutes: the launch
    # seemed to hang. Now one loop carries all of them.
    gen = torch.Generator().manual_seed(6)
    a = torch.randn(batch, 32, 32, generator=gen).half()
    b = torch.randn(batch, 32, 32, generator=gen).half()
    c = torch.empty(batch, 32, 32, dtype=out_dtype)
    _strided_batched_dot[(1, 1)](a, b, c, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                 c.stride(1), BATCH=batch, M=32, N=32, K=32,
                                 OUT=tl.float16 if out_dtype == torch.float16 else tl.float32, num_warps=warps)
    expected = torch.bmm(a.float(), b.float()).to(out_dtype)
    torch.testing.assert_close(c, expected, atol=1e-2, rtol=1e-2)


@triton.jit
def _reshaped_dot(x_ptr, y_ptr, z_ptr, RANK: tl.constexpr, TRANS_A: tl.constexpr,
                  TRANS_B: tl.constexpr):
    offsets = tl.arange(0, 256 << RANK)
    shape: tl.constexpr = [2] * (RANK - 2) + [32, 32]
    x = tl.load(x_ptr + offsets).reshape(shape)
    y = tl.load(y_ptr + offsets).reshape(shape)
    if TRANS_A:
        x = tl.trans(x)
    if TRANS_B:
        y = tl.trans(y)
    tl.store(z_ptr + offsets, tl.dot(x, y).reshape([256 << RANK]))


@pytest.mark.parametrize("rank", [5, 6])
@pytest.mark.parametrize("trans_a, trans_b", [(False, False), (True, False), (True, True)])
def test_dot_of_flat_loads_reshaped(rank: int, trans_a: bool, trans_b: bool) -> None:
    shape = (2, ) * (rank - 2) + (32, 32)
    gen = torch.Generator().manual_seed(rank)
    a = torch.randint(-4, 5, shape, generator=gen).to(torch.bfloat16)
    b = torch.randint(-4, 5, shape, generator=gen).to(torch.bfloat16)
    c = torch.empty(shape)
    compiled = _reshaped_dot[(1, )](a, b, c, rank, trans_a, trans_b)
    if trans_a:
        a = a.transpose(-1, -2)
    if trans_b:
        b = b.transpose(-1, -2)
    assert torch.equal(c, a.float() @ b.float())
    assert compiled.metadata.shared <= 32768
