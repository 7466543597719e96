"""`torch.spirv`: what torch.cuda offers, for the spirv device.

spirv:i is Vulkan device i of `triton_spirv.vulkan` (TRITON_SPIRV_DEVICE
picks one alone; otherwise every device, discrete GPUs first, lavapipe
last), each with one stream, its queue: kernel launches and copies run on
it in order. `torch.manual_seed` seeds their random numbers."""

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
    """torch calls this before the first tensor is made on the device: every
    Vulkan device opens, and the allocator gets the ones kernel launches
    use."""
    global _initialized
    if _initialized:
        return
    with _init_lock:
        if not _initialized:
            library = native.library()
            count = vulkan.device_count()
            if library.tsd_set_device_count(count):
                raise RuntimeError(f"the spirv device cannot have {count} devices")
            for index in range(count):
                if library.tsd_register_device(index, vulkan.device(index).handle):
                    raise RuntimeError(f"spirv:{index} is bound to another Vulkan device")
            # Kernels launch on the current device, which torch's guards set.
            vulkan.current_index = library.tsd_current_device
            _initialized = True
            from . import operators
            operators.enable()


init = _lazy_init


def _index(device: Any) -> int:
    """The index of a spirv device (an int, a torch.device or its string;
    None: the current one); ValueError for one that does not exist."""
    if device is None:
        return current_device()
    if isinstance(device, int):
        index = device
    else:
        device = torch.device(device)
        if device.type != "spirv":
            raise ValueError(f"expected a spirv device, got {device}")
        index = current_device() if device.index is None else device.index
    if not 0 <= index < device_count():
        raise ValueError(f"spirv:{index} does not exist: this process has {device_count()} "
                         f"spirv device(s)")
    return index


def device_count() -> int:
    return vulkan.device_count()


def current_device() -> int:
    return native.library().tsd_current_device() if _initialized else 0


def set_device(device: Any) -> None:
    index = _index(device)
    _lazy_init()
    if native.library().tsd_set_current_device(index):
        raise ValueError(f"spirv:{index} cannot be made the current device")


def get_device_name(device: Any = None) -> str:
    return vulkan.device(_index(device)).properties.name


@contextlib.contextmanager
def device(device: Any) -> Iterator[None]:
    """torch.cuda.device: the current device within the block."""
    if device is None or (isinstance(device, int) and device < 0):
        yield  # torch.cuda.device(None) and (-1) keep the current device
        return
    index, previous = _index(device), current_device()
    if index == previous:  # compiled code enters this at every call
        yield
        return
    set_device(index)
    try:
        yield
    finally:
        set_device(previous)


_DeviceGuard = device


class _DeviceProperties:
    """torch.cuda.get_device_properties()'s fields that libraries read."""

    def __init__(self, index: int) -> None:
        properties = vulkan.device(index).properties
        self.name = properties.name
        # A compute capability below every CUDA feature test, so libraries
        # written for CUDA (FlagGems) take their portable paths.
        self.major, self.minor = 1, 0
        self.multi_processor_count = properties.compute_units or (os.cpu_count() or 1)
        # Vulkan reports neither; sizes a tuning heuristic may read.
        self.L2_cache_size = 4 << 20
        self.total_memory = 1 << 30


_properties: dict[int, _DeviceProperties] = {}


def get_device_properties(device: Any = None) -> _DeviceProperties:
    index = _index(device)
    if index not in _properties:
        _properties[index] = _DeviceProperties(index)
    return _properties[index]


def get_device_capability(device: Any = None) -> tuple[int, int]:
    properties = get_device_properties(device)
    return properties.major, properties.minor


def synchronize(device: Any = None) -> None:
    """Waits for every kernel launch and copy on the device, and finishes
    the launches (their prints and assertions are reported)."""
    index = _index(device)
    from ..backend.launcher import synchronize as finish_launches
    finish_launches(index)
    vulkan.device(index).synchronize()


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
    return torch.Event(device=torch.device("spirv", current_device()), enable_timing=enable_timing,
                       blocking=blocking, interprocess=interprocess)


def current_stream(device: Any = None) -> Stream:
    return Stream(device)


default_stream = current_stream


def set_stream(stream: Any) -> None:
    """Streams are the one queue: nothing to switch."""


@contextlib.contextmanager
def stream(stream: Any) -> Iterator[None]:
    yield


def _stats(device: Any) -> tuple[int, int, int, int]:
    values = (ctypes.c_uint64 * 4)()
    native.library().tsd_memory_stats(_index(device), ctypes.byref(values))
    return tuple(values)  # type: ignore[return-value]


def memory_allocated(device: Any = None) -> int:
    """Bytes held by tensors (rounded to the allocator's 512-byte blocks)."""
    return _stats(device)[0]


def max_memory_allocated(device: Any = None) -> int:
    return _stats(device)[1]


def memory_reserved(device: Any = None) -> int:
    """Bytes the allocator holds from Vulkan (in use or cached)."""
    return _stats(device)[2]


def max_memory_reserved(device: Any = None) -> int:
    return _stats(device)[3]


def reset_peak_memory_stats(device: Any = None) -> None:
    native.library().tsd_reset_peak_memory_stats(_index(device))


def empty_cache() -> None:
    """Gives the cached memory no tensor uses back to Vulkan (every
    device's)."""
    for index in range(device_count()):
        native.library().tsd_empty_cache(index)


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


# One per device torch may name.
default_generators = tuple(_PhiloxGenerator(torch.initial_seed())
                           for _ in range(vulkan.MAX_DEVICES))


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
