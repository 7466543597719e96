"""`torch.spirv`: what torch.cuda offers, for the spirv device.

One device (index 0: the Vulkan device TRITON_SPIRV_DEVICE picks) with one
stream, its queue: kernel launches and copies run on it in order.
`torch.manual_seed` seeds its random numbers."""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
from typing import Any, Iterator

import torch

from .. import vulkan
from . import native

__all__ = [
    "is_available", "is_initialized", "init", "device_count", "current_device", "set_device",
    "get_device_name", "synchronize", "memory_allocated", "max_memory_allocated",
    "memory_reserved", "max_memory_reserved", "reset_peak_memory_stats", "empty_cache",
    "manual_seed", "manual_seed_all", "seed", "seed_all", "initial_seed", "fallback_ops",
    "reset_fallback_ops", "Stream", "Event", "current_stream", "default_stream", "set_stream", "stream",
    "device", "get_device_properties", "get_device_capability", "default_generators",
]

_init_lock = threading.Lock()
_initialized = False


def is_available() -> bool:
    """Whether a Vulkan device can be opened (opens it)."""
    try:
        vulkan.device()
    except (OSError, vulkan.VulkanError):
        return False
    return True


def is_initialized() -> bool:
    return _initialized


def _lazy_init() -> None:
    """torch calls this before the first tensor is made on the device: the
    allocator gets the Vulkan device that kernel launches use."""
    global _initialized
    if _initialized:
        return
    with _init_lock:
        if not _initialized:
            handle = vulkan.device().handle
            if native.library().tsd_initialize(handle):
                raise RuntimeError("the spirv device is bound to another Vulkan device")
            _initialized = True
            from . import operators
            operators.enable()


init = _lazy_init


def _index(device: Any) -> int:
    if device is None:
        return 0
    if isinstance(device, int):
        index = device
    else:
        device = torch.device(device)
        if device.type != "spirv":
            raise ValueError(f"expected a spirv device, got {device}")
        index = 0 if device.index is None else device.index
    if index != 0:
        raise ValueError(f"spirv: only device 0 exists in this process (got {index})")
    return index


def device_count() -> int:
    return 1


def current_device() -> int:
    return 0


def set_device(device: Any) -> None:
    _index(device)


def get_device_name(device: Any = None) -> str:
    _index(device)
    return vulkan.device().properties.name


@contextlib.contextmanager
def device(device: Any) -> Iterator[None]:
    """torch.cuda.device: there is one device, so nothing to switch."""
    _index(device)
    yield


_DeviceGuard = device


class _DeviceProperties:
    """torch.cuda.get_device_properties()'s fields that libraries read."""

    def __init__(self) -> None:
        properties = vulkan.device().properties
        self.name = properties.name
        # A compute capability below every CUDA feature test, so libraries
        # written for CUDA (FlagGems) take their portable paths.
        self.major, self.minor = 1, 0
        self.multi_processor_count = properties.compute_units or (os.cpu_count() or 1)
        # Vulkan reports neither; sizes a tuning heuristic may read.
        self.L2_cache_size = 4 << 20
        self.total_memory = 1 << 30


_properties: _DeviceProperties | None = None


def get_device_properties(device: Any = None) -> _DeviceProperties:
    global _properties
    _index(device)
    if _properties is None:
        _properties = _DeviceProperties()
    return _properties


def get_device_capability(device: Any = None) -> tuple[int, int]:
    properties = get_device_properties(device)
    return properties.major, properties.minor


def synchronize(device: Any = None) -> None:
    """Waits for every kernel launch and copy on the device, and finishes
    the launches (their prints and assertions are reported)."""
    _index(device)
    from ..backend.launcher import synchronize as finish_launches
    finish_launches()
    vulkan.device().synchronize()


class Stream(torch.Stream):
    """A stream of the spirv device. Every stream is the device's one queue:
    work runs in submission order, whichever stream it is given to."""

    def __new__(cls, device: Any = None, priority: int = 0) -> "Stream":
        _lazy_init()
        return super().__new__(cls, device=torch.device("spirv", _index(device)), priority=priority)


def Event(enable_timing: bool = False, blocking: bool = False,  # noqa: N802 - torch.cuda's name
          interprocess: bool = False) -> torch.Event:
    """An event of the spirv device (a torch.Event): done once the launches
    and copies before its record() are; elapsed_time() is their GPU time."""
    _lazy_init()
    return torch.Event(device=torch.device("spirv", 0), enable_timing=enable_timing,
                       blocking=blocking, interprocess=interprocess)


def current_stream(device: Any = None) -> Stream:
    return Stream(device)


default_stream = current_stream


def set_stream(stream: Any) -> None:
    """Streams are the one queue: nothing to switch."""


@contextlib.contextmanager
def stream(stream: Any) -> Iterator[None]:
    yield


def _stats() -> tuple[int, int, int, int]:
    values = (ctypes.c_uint64 * 4)()
    native.library().tsd_memory_stats(ctypes.byref(values))
    return tuple(values)  # type: ignore[return-value]


def memory_allocated(device: Any = None) -> int:
    """Bytes held by tensors (rounded to the allocator's 512-byte blocks)."""
    _index(device)
    return _stats()[0]


def max_memory_allocated(device: Any = None) -> int:
    _index(device)
    return _stats()[1]


def memory_reserved(device: Any = None) -> int:
    """Bytes the allocator holds from Vulkan (in use or cached)."""
    _index(device)
    return _stats()[2]


def max_memory_reserved(device: Any = None) -> int:
    _index(device)
    return _stats()[3]


def reset_peak_memory_stats(device: Any = None) -> None:
    _index(device)
    native.library().tsd_reset_peak_memory_stats()


def empty_cache() -> None:
    """Gives the cached memory no tensor uses back to Vulkan."""
    native.library().tsd_empty_cache()


class _PhiloxGenerator:
    """The device's generator: the (seed, offset) pair of a CUDA Philox
    generator's 16-byte state, which device kernels (FlagGems' random
    numbers) read and advance."""

    def __init__(self, seed: int) -> None:
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> "_PhiloxGenerator":
        # torch's seeds are 64-bit unsigned; the state holds int64.
        self._state = torch.tensor([int(seed) & (2**63 - 1), 0], dtype=torch.int64).view(torch.uint8)
        return self

    def initial_seed(self) -> int:
        return int(self._state.view(torch.int64)[0])

    def get_state(self) -> torch.Tensor:
        return self._state.clone()

    def set_state(self, state: torch.Tensor) -> None:
        self._state = state.clone()


default_generators = (_PhiloxGenerator(torch.initial_seed()),)


# Random numbers of spirv tensors come from the device's generator and, for
# operators that run on the CPU, the CPU's: seeding seeds both.
def manual_seed(seed: int) -> None:
    torch.default_generator.manual_seed(int(seed))
    for generator in default_generators:
        generator.manual_seed(int(seed))


manual_seed_all = manual_seed


def seed() -> None:
    manual_seed(torch.default_generator.seed())


seed_all = seed


def initial_seed() -> int:
    return torch.default_generator.initial_seed()


def _is_in_bad_fork() -> bool:
    return False


def fallback_ops() -> dict[str, int]:
    """The ATen operators that ran on the CPU for spirv tensors (no kernel
    on the device), with how often."""
    text = native.library().tsd_fallback_ops().decode()
    return {name: int(uses) for name, uses in (line.rsplit(" ", 1) for line in text.splitlines())}


def reset_fallback_ops() -> None:
    """Forgets the fallback log (and warns again at each operator's next
    fallback)."""
    native.library().tsd_reset_fallback_ops()


# What Inductor takes from an out-of-tree device's module to generate code
# for it (torch.compile): imported with Inductor, on first lookup.
_INDUCTOR_CODEGEN = ("Scheduling", "PythonWrapperCodegen", "CppWrapperCodegen", "WrapperFxCodegen")


def __getattr__(name: str) -> Any:
    if name in _INDUCTOR_CODEGEN:
        from ..inductor.codegen import register_codegen
        classes = register_codegen()
        globals().update(classes)
        if name in classes:
            return classes[name]
    raise AttributeError(f"module 'torch.spirv' has no attribute {name!r}")
