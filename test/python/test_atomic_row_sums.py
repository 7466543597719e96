"""Row sums added atomically to memory, their old values kept (split
reductions, Triton's test_tensor_atomic_rmw): the sums stay in registers,
held by the lanes that shared the row; one lane runs each atomic and the
others take its result with a subgroup shuffle. A 128x128 block used to
need 66 KiB of workgroup memory (128 KiB in 64-bit types)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _add_row_sums(acc_ptr, x_ptr, old_ptr, M: tl.constexpr, N: tl.constexpr, WIDEN: tl.constexpr):
    rows = tl.arange(0, M)
    x = tl.load(x_ptr + rows[:, None] * N + tl.arange(0, N)[None, :])
    if WIDEN:
        sums = tl.sum(x.to(tl.float32), axis=1).to(x.dtype)
    else:
        sums = tl.sum(x, axis=1)
    old = tl.atomic_add(acc_ptr + rows, sums)
    tl.store(old_ptr + rows, old)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.float64, torch.float16,
                                   torch.bfloat16])
@pytest.mark.parametrize("shape", [(128, 128), (2, 8)])
def test_row_sums_added_atomically(dtype: torch.dtype, shape: tuple[int, int]) -> None:
    gen = torch.Generator().manual_seed(0)
    if dtype.is_floating_point:
        x = torch.randint(-8, 8, shape, generator=gen).to(dtype) / 4
        acc = torch.randint(-8, 8, shape[:1], generator=gen).to(dtype)
    else:
        x = torch.randint(-1000, 1000, shape, generator=gen, dtype=dtype)
        acc = torch.randint(-1000, 1000, shape[:1], generator=gen, dtype=dtype)
    expected = acc + x.double().sum(1).to(dtype)
    old = torch.empty_like(acc)
    before = acc.clone()
    compiled = _add_row_sums[(1, )](acc, x, old, *shape, dtype in (torch.float16, torch.bfloat16))
    # Quarters sum exactly in every type here.
    torch.testing.assert_close(acc, expected, rtol=0, atol=0)
    torch.testing.assert_close(old, before, rtol=0, atol=0)
    assert compiled.metadata.shared <= 32768
