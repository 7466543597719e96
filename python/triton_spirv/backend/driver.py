"""Driver half of the backend: device, launcher, properties and timing."""

from __future__ import annotations

import os
import time
from typing import Any, Callable

from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase

from .. import vulkan
from ..run import chosen_by_environment
from ..versions import check_triton
from .arch import device_target
from .launcher import KernelBinary, SPIRVLauncher, last_launch, synchronize

__all__ = ["SPIRVDriver", "device_target"]

# Vulkan reports no register counts; kernels are described as using this many
# 32-bit registers per invocation (occupancy arithmetic in user code needs one).
_NOMINAL_REGISTERS = 32


def _other_gpu_backend_present() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()




class _Utils:
    """`driver.active.utils`."""

    @staticmethod
    def load_binary(name: str, kernel: bytes, shared: int, device: int) -> tuple:
        # A module that is not None tells Triton the kernel is loaded, so its
        # launcher and pipeline are made once, not at every launch.
        binary = KernelBinary(kernel, device)
        properties = vulkan.device(device).properties
        return (binary, binary, _NOMINAL_REGISTERS, 0, properties.max_workgroup_invocations)

    @staticmethod
    def unload_module(module: Any) -> None:
        """Triton 3.8 and later unload a kernel's module when its
        CompiledKernel goes: its pipeline goes (the runtime waits for the
        launches that use it)."""
        if isinstance(module, KernelBinary):
            module.kernel = None

    @staticmethod
    def get_device_properties(device: Any = None) -> dict:
        properties = vulkan.device(device if isinstance(device, int) else None).properties
        units = properties.compute_units or (os.cpu_count() if properties.is_cpu else 16)
        return {
            "max_shared_mem": properties.max_shared_memory,
            "multiprocessor_count": units,
            "max_num_regs": 65536,
            "warpSize": 32,
            "max_threads_per_block": properties.max_workgroup_invocations,
            "name": properties.name,
        }


class _Event:
    """`Event(enable_timing=True)`. Recording notes the latest launch; the
    time between two events is the GPU time of the launches between them,
    from the device's timestamps, so recording does not wait for the GPU
    (asynchronous launches stay queued, as CUDA's do). Making one turns GPU
    timestamps on for the launches that follow. Devices without timestamps
    get wall time, and recording synchronizes."""

    def __init__(self, enable_timing: bool = True) -> None:
        self.launch = 0
        self.wall_ns = 0
        self.device = vulkan.current_index()  # the device whose launches it counts
        vulkan.device(self.device).enable_timing()

    def record(self, stream: Any = None) -> None:
        if not vulkan.device(self.device).properties.timestamps:
            synchronize(self.device)
        self.launch = last_launch(self.device)
        self.wall_ns = time.perf_counter_ns()

    def synchronize(self) -> None:
        synchronize(self.device)

    def elapsed_time(self, end: "_Event") -> float:
        """Milliseconds from this event to `end`."""
        device = vulkan.device(self.device)
        if device.properties.timestamps:
            return device.elapsed_between(self.launch, end.launch) / 1e6
        return (end.wall_ns - self.wall_ns) / 1e6


class _DeviceInterface:
    """The torch.cuda-like object `triton.testing.do_bench` uses."""

    Event = _Event

    @staticmethod
    def synchronize(device: Any = None) -> None:
        synchronize(device if isinstance(device, int) else None)

    @staticmethod
    def current_device() -> int:
        return vulkan.current_index()

    @staticmethod
    def set_device(device: Any) -> None:
        _set_current_device(device)

    @staticmethod
    def device_count() -> int:
        return vulkan.device_count()


def _set_current_device(device: Any) -> None:
    """Through the spirv torch device (whose guards keep the current device)
    where it is there; without it only device 0 exists to launch on."""
    import torch

    from .. import torch_device
    if torch_device.try_register():
        torch.spirv.set_device(device)
    elif device not in (0, None):
        raise ValueError(f"spirv device {device}: without the spirv torch device only device 0 "
                         f"is used")


def _add_cpu_stream_api() -> None:
    """Kernels take CPU tensors, so programs written for GPUs call
    `getattr(torch, device.type).set_stream(...)` on `torch.cpu`, which has
    `Stream` and `current_stream` but no `set_stream`. The CPU has one stream,
    so setting it is a no-op."""
    import torch
    if not hasattr(torch.cpu, "set_stream"):
        torch.cpu.set_stream = lambda stream: None  # type: ignore[attr-defined]


class SPIRVDriver(DriverBase):
    """Active on machines without CUDA/HIP; elsewhere select it explicitly with
    `python -m triton_spirv.run` or `triton_spirv.run.activate()`."""

    def __init__(self) -> None:
        check_triton()
        super().__init__()
        self.utils = _Utils()
        self.launcher_cls = SPIRVLauncher
        _add_cpu_stream_api()

    @classmethod
    def is_active(cls) -> bool:
        return os.environ.get("TRITON_SPIRV_DISABLE") != "1" and (
            chosen_by_environment() or not _other_gpu_backend_present())

    def map_python_to_cpp_type(self, ty: str) -> str:
        return ty

    def get_current_target(self) -> GPUTarget:
        return device_target()

    def get_active_torch_device(self) -> Any:
        """The spirv torch device, whose tensors kernels bind in place;
        the CPU (with a warning) where its library cannot be loaded."""
        import torch

        from .. import torch_device
        if not torch_device.try_register():
            return torch.device("cpu")
        torch.spirv._lazy_init()
        return torch.device(torch_device.DEVICE_TYPE, vulkan.current_index())

    def get_current_device(self) -> int:
        return vulkan.current_index()

    def set_current_device(self, device: Any) -> None:
        _set_current_device(device)

    def get_current_stream(self, device: Any = None) -> int:
        return 0

    def get_device_interface(self) -> Any:
        return _DeviceInterface

    def get_benchmarker(self) -> Callable[..., Any]:
        from triton.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self) -> Any:
        from .cache_flush import empty_cache_buffer
        return empty_cache_buffer()

    def clear_cache(self, cache: Any) -> None:
        from .cache_flush import clear
        clear(cache)
