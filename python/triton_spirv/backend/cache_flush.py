"""What `do_bench` clears between repetitions: a device-memory buffer larger
than the GPU's last-level cache, overwritten by a kernel on the GPU (as
Triton's CUDA backend does with a 256 MB `zero_()`), so the next repetition
reads its inputs from memory, not from a warm L2."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .. import memory, torch_device, vulkan

_BLOCK = 1024
# Triton's CUDA backend clears 256 MB; a CPU device (lavapipe) has no GPU
# cache to evict and pays for the fill in CPU time, so it gets a small one.
_GPU_BYTES = 256 * 10**6
_CPU_BYTES = 8 * 2**20


@triton.jit
def _overwrite(buffer_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    # Any values do; the offsets are at hand.
    tl.store(buffer_ptr + offsets, offsets, mask=offsets < n)


def empty_cache_buffer() -> torch.Tensor:
    """The current device's buffer: a spirv tensor where that device is
    registered (its allocator does not need host-mapped memory, which a
    small BAR may refuse), else mapped device memory."""
    index = vulkan.current_index()
    size = _CPU_BYTES if vulkan.device(index).properties.is_cpu else _GPU_BYTES
    if torch_device.registered():
        return torch.empty(size // 4, dtype=torch.int32, device=torch.device("spirv", index))
    return memory.empty(size // 4, torch.int32)


def clear(buffer: torch.Tensor) -> None:
    n = buffer.numel()
    _overwrite[(triton.cdiv(n, _BLOCK),)](buffer, n, BLOCK=_BLOCK)
