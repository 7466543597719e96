"""ctypes binding of the Vulkan runtime (runtime/triton_spirv_runtime.h)."""

from __future__ import annotations

import ctypes
import os
import struct
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ._paths import runtime_library_path

__all__ = ["VulkanError", "LaunchTimeoutError", "Device", "Kernel", "DeviceProperties", "device",
           "load_library"]


class VulkanError(RuntimeError):
    """A Vulkan failure (out of memory, device lost, missing extension, a validation
    layer error, ...), with the runtime's explanation."""


class LaunchTimeoutError(VulkanError, TimeoutError):
    """A launch ran past TRITON_SPIRV_TIMEOUT_S. It stays in flight, keeping
    what it binds, until a later launch or synchronize sees it finish."""


# Status codes of triton_spirv_runtime.h.
_TSR_ERROR_TIMEOUT = 2


class _Properties(ctypes.Structure):
    """tsr_properties of runtime/triton_spirv_runtime.h, field for field: the
    runtime refuses a struct_size other than its own sizeof."""
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("name", ctypes.c_char * 256),
        ("vendor_id", ctypes.c_uint32),
        ("device_type", ctypes.c_uint32),
        ("api_version", ctypes.c_uint32),
        ("subgroup_size", ctypes.c_uint32),
        ("compute_units", ctypes.c_uint32),
        ("max_workgroup_invocations", ctypes.c_uint32),
        ("max_workgroup_count", ctypes.c_uint32 * 3),
        ("max_shared_memory", ctypes.c_uint32),
        ("max_push_constants", ctypes.c_uint32),
        ("host_import_alignment", ctypes.c_uint64),
        ("timestamps", ctypes.c_uint32),
        ("max_storage_buffer_range", ctypes.c_uint32),
        ("min_storage_buffer_offset_alignment", ctypes.c_uint32),
        ("robust_buffer_access", ctypes.c_uint32),
        ("buffer_device_address", ctypes.c_uint32),
        ("bfloat16_cooperative_matrix", ctypes.c_uint32),
        ("cooperative_matrix2", ctypes.c_uint32),
        ("max_allocation_bytes", ctypes.c_uint64),
        ("denorm_preserve_float32", ctypes.c_uint32),
        ("max_spanning_bytes", ctypes.c_uint64),
    ]


def binding_struct(count: int) -> struct.Struct:
    """The layout of `count` packed tsr_binding records (host pointer, size)."""
    return struct.Struct("<" + "QQ" * count)


GRID = struct.Struct("<3I")


@dataclass(frozen=True)
class DeviceProperties:
    name: str
    vendor_id: int
    is_cpu: bool
    # Its own memory, apart from the host's (CPU tensors cross PCIe).
    is_discrete: bool
    subgroup_size: int
    compute_units: int
    max_workgroup_invocations: int
    max_workgroup_count: tuple[int, int, int]
    max_shared_memory: int
    max_push_constants: int
    host_import_alignment: int
    timestamps: bool
    max_storage_buffer_range: int
    min_storage_buffer_offset_alignment: int
    robust_buffer_access: bool
    buffer_device_address: bool
    bfloat16_cooperative_matrix: bool
    cooperative_matrix2: bool
    # The most bytes of one allocation or host import.
    max_allocation_bytes: int
    # Shaders may keep f32 denormals (shaderDenormPreserveFloat32).
    denorm_preserve_float32: bool
    # The most bytes of an allocation spanning several (the spirv torch
    # device's tensors past max_allocation_bytes); 0: none can.
    max_spanning_bytes: int

    @property
    def target(self) -> str:
        """The triton-spirv-opt target preset that fits this device."""
        if self.vendor_id == 0x10DE:
            return "nvidia"
        if "llvmpipe" in self.name:
            return "lavapipe"
        return "generic"


_VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU = 2
_VK_PHYSICAL_DEVICE_TYPE_CPU = 4
_library: ctypes.CDLL | None = None
_library_lock = threading.Lock()


def _lib() -> ctypes.CDLL:
    global _library
    if _library is not None:  # every launch comes here: no lock once loaded
        return _library
    with _library_lock:
        if _library is None:
            lib = ctypes.CDLL(str(runtime_library_path()))
            lib.tsr_last_error.restype = ctypes.c_char_p
            lib.tsr_open_device.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
                                            ctypes.POINTER(ctypes.c_void_p)]
            lib.tsr_close_device.argtypes = [ctypes.c_void_p]
            lib.tsr_enumerate_devices.argtypes = [ctypes.POINTER(_DeviceSummary), ctypes.c_uint32,
                                                  ctypes.POINTER(ctypes.c_uint32)]
            lib.tsr_get_properties.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Properties)]
            lib.tsr_create_kernel.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                              ctypes.c_char_p, ctypes.c_uint32, ctypes.c_uint32,
                                              ctypes.POINTER(ctypes.c_void_p)]
            lib.tsr_destroy_kernel.argtypes = [ctypes.c_void_p]
            lib.tsr_allocate.argtypes = [ctypes.c_void_p, ctypes.c_uint64,
                                         ctypes.POINTER(ctypes.c_void_p),
                                         ctypes.POINTER(ctypes.c_void_p)]
            lib.tsr_import_host.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64,
                                            ctypes.POINTER(ctypes.c_void_p)]
            lib.tsr_device_address.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                ctypes.POINTER(ctypes.c_uint64)]
            lib.tsr_free.argtypes = [ctypes.c_void_p]
            lib.tsr_live_allocations.argtypes = [ctypes.c_void_p]
            lib.tsr_live_allocations.restype = ctypes.c_uint64
            lib.tsr_allocation_range.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64,
                                                 ctypes.POINTER(ctypes.c_void_p),
                                                 ctypes.POINTER(ctypes.c_uint64)]
            lib.tsr_released_allocations.argtypes = [ctypes.c_void_p]
            lib.tsr_released_allocations.restype = ctypes.c_uint64
            # The grid (3 x uint32) and the bindings (tsr_binding[]) travel as
            # packed bytes: no ctypes objects per launch.
            lib.tsr_submit.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                                       ctypes.c_uint32, ctypes.c_char_p, ctypes.c_uint32,
                                       ctypes.POINTER(ctypes.c_uint64)]
            lib.tsr_launch.argtypes = lib.tsr_submit.argtypes
            lib.tsr_enable_timing.argtypes = [ctypes.c_void_p]
            lib.tsr_synchronize.argtypes = [ctypes.c_void_p]
            lib.tsr_finished_launch.argtypes = [ctypes.c_void_p]
            lib.tsr_finished_launch.restype = ctypes.c_uint64
            lib.tsr_elapsed_between.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64,
                                                ctypes.POINTER(ctypes.c_uint64)]
            _library = lib
        return _library


def load_library() -> None:
    """Loads the runtime library (libraries linking it, such as the spirv
    torch device's, then share this copy)."""
    _lib()


class _Abandoned:
    """Launches that ran past TRITON_SPIRV_TIMEOUT_S may never end. Tearing
    the device down at exit (Python's finalizers, the driver's own exit
    handlers) would wait for them: on the H200 a never-ending kernel kept
    its process 80 s past the error. So after a timeout, unless a later
    synchronize (or one at exit, waiting 0.2 s) sees the device idle, the
    process leaves at exit without tearing anything down, with exit status
    1 after an uncaught exception and 0 otherwise."""

    pending = False
    uncaught = False

    @classmethod
    def timed_out(cls) -> None:
        if not cls.pending:
            import atexit
            import sys
            previous = sys.excepthook

            def hook(*args: object) -> None:
                cls.uncaught = True
                previous(*args)  # type: ignore[arg-type]

            sys.excepthook = hook
            # Registered last, so it runs first among the exit handlers.
            atexit.register(cls.leave)
        cls.pending = True

    @classmethod
    def leave(cls) -> None:
        if not cls.pending:
            return
        # Seen done within a moment (a launch that merely ran long): the
        # process ends as usual, with its own exit status.
        os.environ["TRITON_SPIRV_TIMEOUT_S"] = "0.2"
        try:
            for device in list(_devices.values()):
                if device.handle:
                    _check(_lib().tsr_synchronize(device.handle))
            return
        except VulkanError:
            pass
        import sys
        sys.stderr.write("triton-spirv: a launch that ran past TRITON_SPIRV_TIMEOUT_S may still be "
                         "running; exiting without waiting for it (the device is abandoned)\n")
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1 if cls.uncaught else 0)


def _check(status: int) -> None:
    if status != 0:
        message = _lib().tsr_last_error().decode(errors="replace")
        if status == _TSR_ERROR_TIMEOUT:
            _Abandoned.timed_out()
            raise LaunchTimeoutError(message + "; at exit the process will not wait for it")
        raise VulkanError(message)


class Kernel:
    """A compute pipeline for one SPIR-V binary."""

    def __init__(self, device: "Device", code: bytes, entry_point: str, num_bindings: int,
                 push_constant_bytes: int) -> None:
        self.device = device
        lib = _lib()
        handle = ctypes.c_void_p()
        _check(lib.tsr_create_kernel(device.handle, code, len(code), entry_point.encode(),
                                     num_bindings, push_constant_bytes, ctypes.byref(handle)))
        self.handle = handle
        # Launches are the hot path: what they call is looked up once.
        self._submit, self._launch = lib.tsr_submit, lib.tsr_launch
        self._result = ctypes.c_uint64()
        self._result_ref = ctypes.byref(self._result)

    def run(self, wait: bool, grid: bytes, bindings: bytes, num_bindings: int, push_constants: bytes,
            program_id_base_offset: int) -> int:
        """Runs the grid (3 packed uint32) with the bindings (packed
        tsr_binding records); returns the launch's number (0 for an empty
        grid) once it is submitted, or with `wait` once it (and the launches
        before it) is done. Otherwise the device's `synchronize` waits for it.
        Callers serialize launches (the result slot is the kernel's)."""
        _check((self._launch if wait else self._submit)(
            self.handle, grid, bindings, num_bindings, push_constants, program_id_base_offset,
            self._result_ref))
        return self._result.value

    def __del__(self) -> None:
        # After the device is closed (at exit) its pipelines are gone with it.
        if getattr(self, "handle", None) and _library is not None and self.device.handle:
            _library.tsr_destroy_kernel(self.handle)


class Device:
    """One opened Vulkan device."""

    def __init__(self, selector: str | None = None, pipeline_cache: Path | None = None,
                 validation: bool = False) -> None:
        handle = ctypes.c_void_p()
        cache = str(pipeline_cache).encode() if pipeline_cache else None
        _check(_lib().tsr_open_device((selector or "").encode(), cache, int(validation),
                                      ctypes.byref(handle)))
        self.handle = handle
        self._timing = False  # enable_timing() done
        raw = _Properties(struct_size=ctypes.sizeof(_Properties))
        _check(_lib().tsr_get_properties(handle, ctypes.byref(raw)))
        self.properties = DeviceProperties(
            name=raw.name.decode(), vendor_id=raw.vendor_id,
            is_cpu=raw.device_type == _VK_PHYSICAL_DEVICE_TYPE_CPU,
            is_discrete=raw.device_type == _VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
            subgroup_size=raw.subgroup_size, compute_units=raw.compute_units,
            max_workgroup_invocations=raw.max_workgroup_invocations,
            max_workgroup_count=tuple(raw.max_workgroup_count),
            max_shared_memory=raw.max_shared_memory, max_push_constants=raw.max_push_constants,
            host_import_alignment=raw.host_import_alignment, timestamps=bool(raw.timestamps),
            max_storage_buffer_range=raw.max_storage_buffer_range,
            min_storage_buffer_offset_alignment=raw.min_storage_buffer_offset_alignment,
            robust_buffer_access=bool(raw.robust_buffer_access),
            buffer_device_address=bool(raw.buffer_device_address),
            bfloat16_cooperative_matrix=bool(raw.bfloat16_cooperative_matrix),
            cooperative_matrix2=bool(raw.cooperative_matrix2),
            max_allocation_bytes=raw.max_allocation_bytes,
            denorm_preserve_float32=bool(raw.denorm_preserve_float32),
            max_spanning_bytes=raw.max_spanning_bytes)

    def synchronize(self) -> None:
        """Waits for the launches in flight."""
        _check(_lib().tsr_synchronize(self.handle))
        _Abandoned.pending = False

    def allocate(self, size: int) -> tuple[int, ctypes.c_void_p]:
        """Maps `size` bytes of device memory: (host address, allocation handle)."""
        address, handle = ctypes.c_void_p(), ctypes.c_void_p()
        _check(_lib().tsr_allocate(self.handle, size, ctypes.byref(address), ctypes.byref(handle)))
        return address.value or 0, handle

    def import_host(self, address: int, size: int) -> ctypes.c_void_p:
        """Imports `size` bytes of host memory at `address` (both aligned to
        host_import_alignment) until `free(address, handle)`: launches bind
        ranges inside it without importing them again."""
        handle = ctypes.c_void_p()
        _check(_lib().tsr_import_host(self.handle, address, size, ctypes.byref(handle)))
        return handle

    def enable_timing(self) -> None:
        """Launches from now on write GPU timestamps (they cost a few
        microseconds each, so they are off until timing is asked for)."""
        if not self._timing:
            _lib().tsr_enable_timing(self.handle)
            self._timing = True

    def finished_launch(self) -> int:
        """The number of the latest launch known done (and all before it)."""
        return int(_lib().tsr_finished_launch(self.handle))

    def elapsed_between(self, after: int, last: int) -> int:
        """GPU time in ns of the launches numbered after+1 .. last (waits
        for them)."""
        elapsed = ctypes.c_uint64()
        _check(_lib().tsr_elapsed_between(self.handle, after, last, ctypes.byref(elapsed)))
        return elapsed.value

    def live_allocations(self) -> int:
        """Allocations and imports alive in the runtime."""
        return int(_lib().tsr_live_allocations(self.handle))

    def free(self, address: int, handle: ctypes.c_void_p) -> None:
        """Frees an allocate()d allocation or an import."""
        if self.handle:
            _lib().tsr_free(handle)

    def device_address(self, address: int) -> int:
        """The device address of host `address`, which a live allocation or
        import holds (of those that do, the one reaching furthest; raises
        VulkanError otherwise)."""
        result = ctypes.c_uint64()
        _check(_lib().tsr_device_address(self.handle, ctypes.c_void_p(address),
                                         ctypes.byref(result)))
        return result.value

    def allocation_holding(self, address: int, size: int = 1) -> tuple[int, int] | None:
        """(start, size) of the live device memory allocation (allocate()d,
        by this package or by the spirv torch device's allocator) that
        holds the `size` bytes at `address`, if any."""
        start, bytes_ = ctypes.c_void_p(), ctypes.c_uint64()
        if _lib().tsr_allocation_range(self.handle, address, max(size, 1), ctypes.byref(start),
                                       ctypes.byref(bytes_)):
            return None
        return start.value or 0, bytes_.value

    @property
    def frees(self) -> int:
        """How many device memory allocations have been freed: what
        allocation_holding said stays true while this stays the same."""
        return int(_lib().tsr_released_allocations(self.handle)) if self.handle else 0

    def close(self) -> None:
        if self.handle:
            _lib().tsr_close_device(self.handle)
            self.handle = None


class _DeviceSummary(ctypes.Structure):
    """tsr_device_summary (triton_spirv_runtime.h)."""
    _fields_ = [("vulkan_index", ctypes.c_uint32), ("device_type", ctypes.c_uint32),
                ("name", ctypes.c_char * 256)]


# The most devices a process uses (the spirv torch device's kMaxDevices).
MAX_DEVICES = 16
_selectors: list[str] | None = None
_devices: dict[int, Device] = {}
_device_lock = threading.Lock()


def _device_selectors() -> list[str]:
    """What opens each device index: TRITON_SPIRV_DEVICE's one device where it
    is set (an index or part of the name), else every Vulkan device in the
    order the runtime prefers them (discrete GPUs, integrated, then the rest
    such as lavapipe)."""
    global _selectors
    if _selectors is None:
        chosen = os.environ.get("TRITON_SPIRV_DEVICE")
        if chosen:
            _selectors = [chosen]
        else:
            summaries = (_DeviceSummary * MAX_DEVICES)()
            count = ctypes.c_uint32()
            _check(_lib().tsr_enumerate_devices(summaries, MAX_DEVICES, ctypes.byref(count)))
            if count.value == 0:
                raise VulkanError("no Vulkan device found")
            _selectors = [str(summaries[i].vulkan_index)
                          for i in range(min(count.value, MAX_DEVICES))]
    return _selectors


def device_count() -> int:
    """How many Vulkan devices this process uses (index 0 to count - 1)."""
    return len(_device_selectors())


def _default_index() -> int:
    return 0


# The current device's index where a caller names none: the spirv torch
# device's current device once it is registered (it sets this), else 0.
current_index: Callable[[], int] = _default_index


def device(index: int | None = None) -> Device:
    """Vulkan device `index` of this process (default: the current one;
    device_count() says how many), opened on first use. TRITON_SPIRV_DEVICE
    selects one device alone (an index or part of the name); without it
    every Vulkan device is there, discrete GPUs first and lavapipe last.
    TRITON_SPIRV_VALIDATION=1 enables the validation layer."""
    if index is None:
        index = current_index()
    opened = _devices.get(index)
    if opened is not None:
        return opened
    with _device_lock:
        if index not in _devices:
            selectors = _device_selectors()
            if not 0 <= index < len(selectors):
                raise VulkanError(f"Vulkan device {index} does not exist: this process has "
                                  f"{len(selectors)}")
            cache_dir = Path(os.environ.get("TRITON_CACHE_DIR", Path.home() / ".triton" / "cache"))
            cache_dir.mkdir(parents=True, exist_ok=True)
            # A pipeline cache per device (a driver rejects another's).
            cache = cache_dir / ("spirv-pipeline-cache.bin" if index == 0
                                 else f"spirv-pipeline-cache-{index}.bin")
            opened = Device(selectors[index], cache, os.environ.get("TRITON_SPIRV_VALIDATION") == "1")
            import atexit
            atexit.register(opened.close)
            _devices[index] = opened
        return _devices[index]
