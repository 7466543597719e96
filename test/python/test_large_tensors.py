"""Tensors larger than one binding spans (maxStorageBufferRange: 128 MiB on
lavapipe): the launcher passes them by buffer device address, through a
variant of the kernel compiled for it, CPU tensors and spirv tensors alike.
One allocation is at most maxMemoryAllocationSize; the spirv device's tensors
past it span several where the device binds sparse buffers (NVIDIA, not
lavapipe)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

from corpus.kernels.vector_add import vector_add_kernel
from triton_spirv import vulkan


def _limit() -> int:
    properties = vulkan.device().properties
    if not properties.buffer_device_address:
        pytest.skip("the device has no buffer device addresses")
    if properties.max_storage_buffer_range > 2**28:
        pytest.skip("the device binds more than 256 MiB")
    return properties.max_storage_buffer_range


def _variants(kernel: triton.JITFunction) -> dict:
    """The address variants made for the kernel's compiled versions."""
    variants: dict = {}
    for cache in kernel.device_caches.values():
        for compiled in cache[0].values():
            variants.update(compiled.run.address_variants)
    return variants


@triton.jit
def _gather_ends(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """The first and last BLOCK elements of x, then the BLOCK before those,
    read through an int64 view (a bitcast pointer: a second element type)."""
    first = tl.arange(0, BLOCK)
    tl.store(out_ptr + first, tl.load(x_ptr + first))
    tl.store(out_ptr + BLOCK + first, tl.load(x_ptr + n - BLOCK + first))
    wide = (x_ptr + n - 2 * BLOCK).to(tl.pointer_type(tl.int64), bitcast=True)
    halves = tl.load(wide + tl.arange(0, BLOCK // 2))
    tl.store(out_ptr.to(tl.pointer_type(tl.int64), bitcast=True) + BLOCK + tl.arange(0, BLOCK // 2),
             halves)


@pytest.mark.parametrize("device", ["cpu", "spirv"])
def test_vector_add_past_one_binding(device: str) -> None:
    n = _limit() // 4 + 4096  # float32 elements: past one binding
    x = torch.arange(n, dtype=torch.float32, device=device)
    y = torch.full((n,), 0.5, device=device)
    out = torch.empty(n, device=device)
    grid = (triton.cdiv(n, 1024),)
    vector_add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    result = out.cpu()
    assert result[0] == 0.5 and result[-1] == (n - 1) + 0.5
    assert torch.equal(result[::4099], torch.arange(n, dtype=torch.float32)[::4099] + 0.5)
    variants = _variants(vector_add_kernel)
    assert (0, 1, 2) in variants
    # A second launch reuses the variant.
    vector_add_kernel[grid](y, y, out, n, BLOCK_SIZE=1024)
    assert out[-1].item() == 1.0 and len(_variants(vector_add_kernel)) == len(variants)


def test_one_large_argument_beside_bound_ones() -> None:
    n = _limit() // 4 + 4096
    x = torch.arange(n, dtype=torch.int32, device="spirv")[8:]  # a view at an offset
    out = torch.zeros(3072, dtype=torch.int32, device="spirv")
    _gather_ends[(1,)](x, out, x.numel(), BLOCK=1024)
    expected = torch.cat([torch.arange(8, 8 + 1024), torch.arange(n - 1024, n),
                          torch.arange(n - 2048, n - 1024)]).to(torch.int32)
    assert torch.equal(out.cpu(), expected)
    assert list(_variants(_gather_ends)) == [(0,)]


def test_operators_on_tensors_past_one_binding_stay_on_the_device() -> None:
    import warnings

    from triton_spirv.torch_device import operators
    n = _limit() // 4 + 4096
    big = torch.ones(n, device="spirv")
    if not operators.enabled():
        pytest.skip("FlagGems is not enabled")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        total = (big * 2).sum()
    assert total.item() == 2 * n
    assert not [w for w in caught if "on the CPU" in str(w.message)]


@triton.jit
def _sum_rounds(x_ptr, out_ptr, n, rounds, BLOCK: tl.constexpr):
    """Each lane's sum of `rounds` elements of x, BLOCK apart, from its end."""
    acc = tl.zeros((BLOCK, ), tl.float32)
    for r in range(rounds):
        acc += tl.load(x_ptr + (n - 1 - r.to(tl.int64) * BLOCK - tl.arange(0, BLOCK)))
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


def test_freeing_memory_waits_for_kernels_that_read_it_by_address() -> None:
    # A tensor past one binding is passed by address, which no submission
    # lists among what it binds: giving its memory back to the driver
    # (empty_cache) while the kernel still reads it waits for the kernel,
    # as cudaFree does.
    n = _limit() // 4 + 4096
    x = torch.ones(n, device="spirv")
    out = torch.zeros(1024, device="spirv")
    rounds = 30000  # BLOCK apart: within the n elements
    _sum_rounds[(1, )](x, out, n, rounds, BLOCK=1024)
    assert list(_variants(_sum_rounds)) == [(0, )]
    del x
    torch.spirv.empty_cache()
    torch.testing.assert_close(out.cpu(), torch.full((1024, ), float(rounds)))


def test_allocations_past_the_device_limit_are_refused() -> None:
    # Past maxMemoryAllocationSize (2 GiB on lavapipe, 4 GiB on NVIDIA), a
    # driver may accept an allocation whose end the GPU never writes.
    properties = vulkan.device().properties
    limit = max(properties.max_allocation_bytes, properties.max_spanning_bytes)
    if limit > 2**33:
        pytest.skip("the device allocates more than 8 GiB")
    with pytest.raises(torch.OutOfMemoryError, match="maxMemoryAllocationSize") as refused:
        torch.empty(limit + 2**20, dtype=torch.uint8, device="spirv")
    if not properties.max_spanning_bytes:
        assert "sparse binding" in str(refused.value)


@triton.jit
def _fill_with_index(out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, (offsets % 1000003).to(tl.int32), mask=offsets < n)


def test_tensors_past_one_allocation_span_several() -> None:
    # NVIDIA allocates at most 4 GiB at once: a 6 GiB tensor is one sparse
    # buffer over two allocations, which kernels and copies see as one.
    properties = vulkan.device().properties
    if properties.max_spanning_bytes <= properties.max_allocation_bytes:
        pytest.skip("the device cannot span several allocations (no sparse binding)")
    n = max(6 * 2**30, properties.max_allocation_bytes + 2**30) // 4
    before = torch.spirv.memory_allocated()
    x = torch.empty(n, dtype=torch.int32, device="spirv")
    _fill_with_index[(triton.cdiv(n, 1024),)](x, n, BLOCK=1024)
    seam = properties.max_allocation_bytes // 4  # about where the second allocation starts
    for start, end in [(0, 4096), (seam - 65536, seam + 65536), (n - 4096, n)]:
        expected = (torch.arange(start, end) % 1000003).to(torch.int32)
        assert torch.equal(x[start:end].cpu(), expected)  # a copy to the host
        assert torch.equal(x[start:end].clone().cpu(), expected)  # on the device first
    sample = torch.randint(0, n, (4096,))
    assert torch.equal(x[sample.to("spirv")].cpu(), (sample % 1000003).to(torch.int32))
    x.fill_(3)
    assert torch.equal(x[seam - 8:seam + 8].cpu(), torch.full((16,), 3, dtype=torch.int32))
    assert x[-1].item() == 3
    del x
    assert torch.spirv.memory_allocated() == before
