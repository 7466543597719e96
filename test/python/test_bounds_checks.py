"""debug=True: every load, store and atomic asserts that its pointers stay in
the storage of the tensor they derive from, and the launcher reports the
first that does not (--triton-insert-bounds-checks). Without debug, robust
buffer access contains them (test_launch_path.py)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

from triton_spirv import memory

_NOT_IN_BOUNDS = r"out-of-bounds {} through '{}': a pointer outside the tensor's storage"


@triton.jit
def _shifted_copy(x_ptr, y_ptr, n, shift, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets + shift, mask=inside)
    tl.store(y_ptr + offsets, x, mask=inside)


@triton.jit
def _shifted_store(y_ptr, n, shift, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offsets + shift, offsets.to(tl.float32), mask=offsets < n)


@triton.jit
def _count(counts_ptr, index):
    tl.atomic_add(counts_ptr + index, 1)


@pytest.mark.parametrize("place", ["host", "device memory"])
def test_out_of_bounds_load_is_reported(place: str) -> None:
    x = torch.arange(100, dtype=torch.float32)
    y = torch.empty(100)
    if place == "device memory":
        x, y = memory.to_device(x), memory.empty(100)
    _shifted_copy[(2, )](x, y, 100, 0, BLOCK=64, debug=True)
    assert torch.equal(y.cpu(), torch.arange(100, dtype=torch.float32))
    # Program 1's element 35 reads x[100], one past the end.
    with pytest.raises(AssertionError, match=r"test_bounds_checks\.py:\d+:\d+: device-side assertion failed in "
                       r"_shifted_copy, program \(1, 0, 0\), element 35: " + _NOT_IN_BOUNDS.format("load", "x_ptr")):
        _shifted_copy[(2, )](x, y, 100, 1, BLOCK=64, debug=True)
    with pytest.raises(AssertionError, match=r"program \(0, 0, 0\), element 0: " +
                       _NOT_IN_BOUNDS.format("load", "x_ptr")):
        _shifted_copy[(2, )](x, y, 100, -1, BLOCK=64, debug=True)


def test_sanitize_overflow_off_keeps_assertions_without_bounds_checks() -> None:
    """debug=True with sanitize_overflow=False (what Inductor compiles with,
    for its own indexing assertions) checks no pointer: the read one past the
    end is contained, as without debug."""
    x, y = torch.arange(100, dtype=torch.float32), torch.empty(100)
    compiled = _shifted_copy[(2, )](x, y, 100, 1, BLOCK=64, debug=True, sanitize_overflow=False)
    torch.testing.assert_close(y[:99], x[1:])
    assert "debug_buffer" not in compiled.metadata.spirv_abi


def test_masked_off_lanes_and_views_are_in_bounds() -> None:
    """Lanes the mask turns off access nothing; a view may reach anywhere in
    its storage, before its first element too."""
    storage = torch.arange(200, dtype=torch.float32)
    view = storage[50:150]
    y = torch.empty(100)
    _shifted_copy[(4, )](view, y, 100, -50, BLOCK=64, debug=True)
    assert torch.equal(y, storage[:100])
    _shifted_copy[(4, )](view, y, 100, 50, BLOCK=64, debug=True)
    assert torch.equal(y, storage[100:])
    with pytest.raises(AssertionError, match=r"program \(1, 0, 0\), element 35: " +
                       _NOT_IN_BOUNDS.format("load", "x_ptr")):
        _shifted_copy[(4, )](view, y, 100, 51, BLOCK=64, debug=True)


def test_out_of_bounds_store_and_atomic_are_reported() -> None:
    y = memory.zeros(64)
    with pytest.raises(AssertionError, match=r"program \(0, 0, 0\), element 60: " +
                       _NOT_IN_BOUNDS.format("store", "y_ptr")):
        _shifted_store[(1, )](y, 64, 4, BLOCK=64, debug=True)
    counts = torch.zeros(8, dtype=torch.int32)
    _count[(1, )](counts, 7, debug=True)
    assert counts.tolist() == [0] * 7 + [1]
    with pytest.raises(AssertionError, match=_NOT_IN_BOUNDS.format("atomic", "counts_ptr")):
        _count[(1, )](counts, 8, debug=True)


def test_staged_storages_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_SPIRV_STAGING", "1")
    x, y = torch.arange(100, dtype=torch.float32), torch.empty(100)
    _shifted_copy[(2, )](x, y, 100, 0, BLOCK=64, debug=True)
    assert torch.equal(y, x)
    with pytest.raises(AssertionError, match=_NOT_IN_BOUNDS.format("load", "x_ptr")):
        _shifted_copy[(2, )](x, y, 100, 1, BLOCK=64, debug=True)


@triton.jit
def _many_scalars(x_ptr, y_ptr, scalars, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    total = 0
    for i in tl.static_range(len(scalars)):
        total += scalars[i]
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets + total))


def test_bounds_in_the_argument_buffer() -> None:
    """Too many scalars for push constants (32 i64: 256 bytes, NVIDIA's and
    lavapipe's limits are 256 and 128): the bounds move to the argument
    buffer with the offsets and scalars."""
    x, y = torch.arange(64, dtype=torch.int64), torch.empty(32, dtype=torch.int64)
    wide = (2**33 + 32, -2**33) + (2**33, -2**33) * 15  # sums to 32
    compiled = _many_scalars[(1, )](x, y, wide, BLOCK=32, debug=True)
    assert torch.equal(y, x[32:])
    slots = compiled.metadata.spirv_abi["argument_buffer"]["slots"]
    assert {"bounds_begin", "bounds_end"} <= {slot["role"] for slot in slots}
    with pytest.raises(AssertionError, match=r"element 31: " + _NOT_IN_BOUNDS.format("load", "x_ptr")):
        _many_scalars[(1, )](x, y, (wide[0] + 1, ) + wide[1:], BLOCK=32, debug=True)

