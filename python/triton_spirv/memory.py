"""Tensors in Vulkan device memory that the host can map: ordinary CPU torch
tensors whose storage kernels bind directly, with no import or copy. On a
discrete GPU with resizable BAR (the H200) this memory is the GPU's own, so
kernels run at its memory bandwidth; host reads of it are slow.

Tensors of up to 1 MiB share 4 MiB blocks (drivers cap the number of live
Vulkan allocations: 4096 on NVIDIA); larger ones get an allocation each."""

from __future__ import annotations

import ctypes
import math
import threading
import weakref
from typing import Sequence

import torch

from . import vulkan

__all__ = ["empty", "zeros", "to_device"]

_BLOCK_BYTES = 4 * 2**20
_LARGEST_SLOT = 2**20
_SMALLEST_SLOT = 256  # keeps every slot aligned for any storage-buffer offset


class _SlotPool:
    """Power-of-two slots carved from device-memory blocks; a freed slot is
    reused by the next tensor of its size class (blocks are kept)."""

    def __init__(self, device: vulkan.Device) -> None:
        self.device = device
        self._free: dict[int, list[int]] = {}
        self._lock = threading.Lock()  # finalizers free slots from any thread

    def take(self, size: int) -> tuple[int, int]:
        """(address, slot size) of a free slot of at least `size` bytes."""
        slot = max(_SMALLEST_SLOT, 1 << (size - 1).bit_length())
        with self._lock:
            free = self._free.setdefault(slot, [])
            if not free:
                address, _ = self.device.allocate(_BLOCK_BYTES)  # kept for the process
                free.extend(range(address + _BLOCK_BYTES - slot, address - 1, -slot))
            return free.pop(), slot

    def give_back(self, address: int, slot: int) -> None:
        with self._lock:
            self._free[slot].append(address)


_pools: dict[int, _SlotPool] = {}  # by device index


def empty(shape: Sequence[int] | int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """An uninitialized tensor in the current device's memory."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    size = math.prod(shape) * dtype.itemsize
    if size == 0:
        return torch.empty(shape, dtype=dtype)
    index = vulkan.current_index()
    device = vulkan.device(index)
    if size <= _LARGEST_SLOT:
        pool = _pools.get(index) or _pools.setdefault(index, _SlotPool(device))
        address, slot = pool.take(size)
        release = (pool.give_back, address, slot)
    else:
        address, handle = device.allocate(size)
        release = (device.free, address, handle)
    memory = (ctypes.c_uint8 * size).from_address(address)
    # The tensor keeps `memory` alive; its slot or allocation goes with it.
    weakref.finalize(memory, *release)
    return torch.frombuffer(memory, dtype=torch.uint8).view(dtype).reshape(shape)


def zeros(shape: Sequence[int] | int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return empty(shape, dtype).zero_()


def to_device(tensor: torch.Tensor) -> torch.Tensor:
    """A copy of `tensor` in device memory."""
    return empty(tensor.shape, tensor.dtype).copy_(tensor)
