"""Tensors in Vulkan device memory that the host can map: ordinary CPU torch
tensors whose storage kernels bind directly, with no import or copy. On a
discrete GPU with resizable BAR (the H200) this memory is the GPU's own, so
kernels run at its memory bandwidth; host reads of it are slow."""

from __future__ import annotations

import ctypes
import math
import weakref
from typing import Sequence

import torch

from . import vulkan

__all__ = ["empty", "zeros", "to_device"]


def empty(shape: Sequence[int] | int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """An uninitialized tensor in device memory."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    size = math.prod(shape) * dtype.itemsize
    if size == 0:
        return torch.empty(shape, dtype=dtype)
    device = vulkan.device()
    address, handle = device.allocate(size)
    memory = (ctypes.c_uint8 * size).from_address(address)
    # The tensor keeps `memory` alive; the allocation goes with it.
    weakref.finalize(memory, device.free, address, handle)
    return torch.frombuffer(memory, dtype=torch.uint8).view(dtype).reshape(shape)


def zeros(shape: Sequence[int] | int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return empty(shape, dtype).zero_()


def to_device(tensor: torch.Tensor) -> torch.Tensor:
    """A copy of `tensor` in device memory."""
    return empty(tensor.shape, tensor.dtype).copy_(tensor)
