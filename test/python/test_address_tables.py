"""Pointers read from memory (`tl.load(ptrs + g).to(tl.pointer_type(...))`),
as the grouped-GEMM tutorial reads its matrices' addresses: the launcher
binds each table of addresses with device addresses in place of host ones,
and kernels load and store through them (Vulkan buffer device addresses)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

from corpus.kernels.memory import grouped_matmul_addresses_kernel
from triton_spirv import memory, vulkan
from triton_spirv.backend import launcher
from triton_spirv.backend.address_tables import AddressTables
from triton_spirv.backend.compiler import SPIRVCompilationError


@triton.jit
def _scale_rows(table_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    source = tl.load(table_ptr + row).to(tl.pointer_type(tl.float32))
    offsets = tl.arange(0, BLOCK)
    inside = offsets < n
    values = tl.load(source + offsets, mask=inside, other=0.0)
    tl.store(out_ptr + row * n + offsets, values * 2.0, mask=inside)


@triton.jit
def _write_through_table(table_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    target = tl.load(table_ptr + row).to(tl.pointer_type(tl.int32))
    offsets = tl.arange(0, BLOCK)
    tl.store(target + offsets, offsets + row * 100, mask=offsets < n)


@triton.jit
def _address_from_scalar(address, out_ptr):
    # Triton passes an integer that fits 32 bits as i32: widen it first.
    source = address.to(tl.int64).to(tl.pointer_type(tl.float32))
    tl.store(out_ptr, tl.load(source))


def _table(tensors: list[torch.Tensor]) -> torch.Tensor:
    return torch.tensor([t.data_ptr() if t is not None else 0 for t in tensors], dtype=torch.int64)


def test_rows_read_through_a_table_of_addresses() -> None:
    n = 100
    gen = torch.Generator().manual_seed(0)
    heap = torch.rand(n, generator=gen)  # small: in the allocator's heap
    mapped = torch.rand(1 << 20, generator=gen)  # large: a mapping of its own
    device = memory.empty(n)  # device memory the runtime allocated
    device.copy_(torch.rand(n, generator=gen))
    view = mapped[12345:12345 + n]  # starts inside its storage
    sources = [heap, view, device, mapped[:n]]
    out = torch.full((len(sources), n), -1.0)
    _scale_rows[(len(sources),)](_table(sources), out, n, BLOCK=128)
    assert torch.equal(out, torch.stack(sources) * 2.0)


def test_stores_through_addresses_reach_host_and_device_memory() -> None:
    n = 37
    targets = [torch.zeros(n, dtype=torch.int32), memory.zeros(n, torch.int32),
               torch.zeros(3 * n, dtype=torch.int32)[n:2 * n]]
    # A null entry the grid never reaches is left alone.
    _write_through_table[(len(targets),)](_table(targets + [None]), n, BLOCK=64)
    for row, target in enumerate(targets):
        assert torch.equal(target, torch.arange(n, dtype=torch.int32) + row * 100)


def test_grouped_matmul_through_addresses() -> None:
    """The corpus's grouped matmul (the tutorial's scheme), here with every
    matrix a tensor of its own."""
    gen = torch.Generator().manual_seed(1)
    sizes = [64, 32, 96]
    a = [torch.randn(s, s, generator=gen).half() for s in sizes]
    b = [torch.randn(s, s, generator=gen).half() for s in sizes]
    c = [torch.empty(s, s, dtype=torch.float16) for s in sizes]
    tiles = sum((s // 32) ** 2 for s in sizes)
    # The storage arguments only keep the corpus case's matrices alive.
    grouped_matmul_addresses_kernel[(tiles,)](_table(a), _table(b), _table(c),
                                              torch.tensor(sizes, dtype=torch.int32), len(sizes),
                                              a[0], b[0], c[0], BLOCK=32)
    for x, y, z in zip(a, b, c):
        torch.testing.assert_close(z.float(), x.float() @ y.float(), atol=5e-2, rtol=1e-2)


def test_memory_imported_for_a_launch_is_freed_with_it() -> None:
    n = 64
    sources = [torch.rand(n), torch.rand(n)]
    out = memory.empty((2, n))
    table = _table(sources)
    _scale_rows[(2,)](table, out, n, BLOCK=64)  # compiled, pools filled
    live = vulkan.device().live_allocations()
    _scale_rows[(2,)](table, out, n, BLOCK=64)
    assert vulkan.device().live_allocations() == live
    launcher.set_asynchronous(True)
    try:
        sources[0].fill_(3.0)
        _scale_rows[(2,)](table, out, n, BLOCK=64)
        launcher.synchronize()
    finally:
        launcher.set_asynchronous(False)
    assert vulkan.device().live_allocations() == live
    assert torch.equal(out, torch.stack(sources) * 2.0)


@triton.jit
def _touch(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr) + 1.0)


def test_addresses_above_many_imports_in_one_mapping() -> None:
    """Small CPU tensors bound by earlier launches stay imported; an address
    above them in the same host mapping is reached through the mapping's
    import, which starts below them all."""
    held = [torch.zeros(16) for _ in range(64)]
    for tensor in held:
        _touch[(1,)](tensor)
    sources = [torch.rand(100) for _ in range(4)]
    out = torch.zeros(len(sources), 100)
    _scale_rows[(len(sources),)](_table(sources), out, 100, BLOCK=128)
    assert torch.equal(out, torch.stack(sources) * 2.0)
    assert all(float(tensor[0]) == 1.0 for tensor in held)


def test_an_address_outside_any_memory_is_named() -> None:
    out = torch.zeros(1, 16)
    table = torch.tensor([16], dtype=torch.int64)  # the first page is never mapped
    with pytest.raises(ValueError, match=r"reads address 0x10 from element 0 of argument 0"):
        _scale_rows[(1,)](table, out, 16, BLOCK=16)


def test_an_address_passed_as_an_integer_is_rejected_at_compile_time() -> None:
    source = torch.ones(1)
    with pytest.raises(SPIRVCompilationError, match="not read from a kernel pointer argument") as raised:
        _address_from_scalar[(1,)](source.data_ptr() % 2**31, torch.zeros(1))
    # The message names the kernel's line, without the IR of the op.
    assert "test_address_tables.py" in str(raised.value)
    assert "see current operation" not in str(raised.value)


@triton.jit
def _negate_bits_through_table(table_ptr, n, BLOCK: tl.constexpr):
    # The address is read as floats and written as their bits, negated.
    values_ptr = tl.load(table_ptr).to(tl.pointer_type(tl.float32))
    offsets = tl.arange(0, BLOCK)
    inside = offsets < n
    values = tl.load(values_ptr + offsets, mask=inside)
    bits_ptr = values_ptr.to(tl.pointer_type(tl.int32), bitcast=True)
    tl.store(bits_ptr + offsets, values.to(tl.int32, bitcast=True) ^ (-2147483648), mask=inside)


def test_one_address_accessed_as_two_element_types() -> None:
    n = 100
    values = memory.to_device(torch.linspace(-2.0, 3.0, n))
    expected = -values.cpu()
    _negate_bits_through_table[(1,)](_table([values]), n, BLOCK=128)
    assert torch.equal(values.cpu(), expected)


@triton.jit
def _last_element(table_ptr, out_ptr, n):
    source = tl.load(table_ptr).to(tl.pointer_type(tl.float32))
    tl.store(out_ptr, tl.load(source + n - 1))


def test_a_tensor_whose_start_an_earlier_import_holds() -> None:
    """A launch that binds the first elements of a CPU tensor leaves them
    imported. A table entry for the whole tensor must not resolve through
    that smaller import (reads past it would reach other memory on NVIDIA):
    the launch imports the mapping that holds all of it."""
    big = torch.rand(1 << 20)  # large: a mapping of its own
    _touch[(1,)](big[:16])  # imports the first page only
    tables = AddressTables(vulkan.device(), "test")
    try:
        tables.translate(_table([big]), 0)
        assert len(tables._imports) == 1
    finally:
        tables.finish()
    out = torch.zeros(1)
    _last_element[(1,)](_table([big]), out, big.numel())
    assert float(out[0]) == float(big[-1])
