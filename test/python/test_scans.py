"""tl.associative_scan runs in place: the scan overwrites its input block
slice by slice, so it needs no second block of workgroup memory. A cummax
over (value, int64 index) pairs of 2048 elements used to need 45,056 bytes
(lavapipe has 32 KiB) and raised OutOfResources."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _max_with_index(v0, i0, v1, i1):
    gt = v0 > v1
    return tl.where(gt, v0, v1), tl.where(gt, i0, i1)


@triton.jit
def _cummax_indices(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
                    REVERSE: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    offsets = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offsets)
    along = rows[:, None] if AXIS == 0 else cols[None, :]
    index = tl.broadcast_to(along.to(tl.int64), [M, N])
    _, z = tl.associative_scan((x, index), axis=AXIS, combine_fn=_max_with_index,
                               reverse=REVERSE)
    tl.store(z_ptr + offsets, z)


@triton.jit
def _cumsum_keeps_input(x_ptr, z_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    x = tl.load(x_ptr + offsets)
    # x is read after the scan: its block must not be the one overwritten.
    tl.store(z_ptr + offsets, tl.cumsum(x, axis=0) * 1000 + x)


@pytest.mark.parametrize("shape, axis", [((2, 1024), 1), ((1024, 2), 0)])
@pytest.mark.parametrize("reverse", [False, True])
def test_cummax_of_large_block_fits_workgroup_memory(shape: tuple[int, int], axis: int,
                                                     reverse: bool) -> None:
    gen = torch.Generator().manual_seed(0)
    # Distinct values: torch.cummax and the combiner pick different indices
    # among ties.
    x = torch.randperm(shape[0] * shape[1], generator=gen).to(torch.int32).reshape(shape)
    z = torch.empty(shape, dtype=torch.int64)
    compiled = _cummax_indices[(1, )](x, z, *shape, axis, reverse)
    source = x.flip(axis) if reverse else x
    expected = torch.cummax(source, dim=axis).indices
    if reverse:
        # Positions in the flipped block back to positions in x.
        expected = (shape[axis] - 1 - expected).flip(axis)
    torch.testing.assert_close(z, expected, rtol=0, atol=0)
    assert compiled.metadata.shared <= 32768


def test_input_read_after_scan_is_unchanged() -> None:
    x = torch.arange(64, dtype=torch.int32) % 7
    z = torch.empty_like(x)
    _cumsum_keeps_input[(1, )](x, z, 64)
    torch.testing.assert_close(z, torch.cumsum(x, 0).to(torch.int32) * 1000 + x, rtol=0, atol=0)
