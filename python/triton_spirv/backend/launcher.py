"""Launching a compiled kernel: Triton's arguments -> storage buffers and push
constants, as described by the kernel's ABI metadata (written by
triton-spirv-opt next to the .spv)."""

from __future__ import annotations

import atexit
import ctypes
import os
import struct
from typing import Any, Callable, Sequence

from .. import vulkan
from .debug_buffer import DebugBuffer

__all__ = ["KernelBinary", "SPIRVLauncher", "device_time_ns", "set_asynchronous", "synchronize"]

# Slot type -> its little-endian layout, and the mask of an integer slot.
_SLOT_FORMATS = {"i32": ("<I", 0xFFFFFFFF), "i64": ("<Q", 0xFFFFFFFFFFFFFFFF), "f32": ("<f", None),
                 "f64": ("<d", None)}

# Device time of all launches so far (for timing a Python callable).
_device_time_ns = 0

# Asynchronous mode: a launch returns once submitted; the launch in flight is
# finished (copied back, its prints and assertions reported) by the next
# launch or by synchronize().
_asynchronous = os.environ.get("TRITON_SPIRV_ASYNC") == "1"
_pending: tuple["_LaunchMemory", Callable[[], None] | None] | None = None
_synchronize_at_exit = False


def device_time_ns() -> int:
    synchronize()
    return _device_time_ns


def set_asynchronous(enabled: bool) -> None:
    """Asynchronous launches (also TRITON_SPIRV_ASYNC=1): a launch returns as
    soon as it is submitted, and its results (and failed assertions) are
    there after `synchronize()` or the next launch."""
    global _asynchronous
    try:
        synchronize()
    finally:
        _asynchronous = enabled


def synchronize() -> None:
    """Waits for the launch in flight, if any, and finishes it."""
    global _pending, _device_time_ns
    if _pending is None:
        return
    memory, report = _pending
    _pending = None
    try:
        _device_time_ns += memory.device.synchronize()
        if report is not None:
            report()
    finally:
        memory.finish()


class KernelBinary:
    """What `load_binary` returns: the .spv, made a pipeline on first launch (the
    pipeline layout needs the ABI metadata, which the launcher has)."""

    def __init__(self, code: bytes) -> None:
        self.code = code
        self.kernel: vulkan.Kernel | None = None

    def pipeline(self, entry_point: str, num_bindings: int, push_constant_bytes: int) -> vulkan.Kernel:
        if self.kernel is None:
            self.kernel = vulkan.Kernel(vulkan.device(), self.code, entry_point, num_bindings,
                                        push_constant_bytes)
        return self.kernel


class _HostBlock:
    """Host memory the device can import: at least `size` bytes at an address
    aligned for import, zeroed, then `data` at its start; kept alive as long as
    this object."""

    def __init__(self, size: int, data: bytes, alignment: int) -> None:
        self.size = (max(size, 1) + alignment - 1) // alignment * alignment
        self._storage = ctypes.create_string_buffer(self.size + alignment)
        start = ctypes.addressof(self._storage)
        self.address = (start + alignment - 1) // alignment * alignment
        ctypes.memmove(self.address, data, len(data))


class _LaunchMemory:
    """The memory one launch binds. Where the device imports host memory,
    tensors are bound in place and the launcher's own blocks (arguments,
    debug records) are imported host memory. Elsewhere (or with
    TRITON_SPIRV_STAGING=1) every tensor storage is staged: copied into mapped
    device memory before the launch and back after it, once per storage, so
    arguments that share a storage still alias."""

    def __init__(self, device: vulkan.Device) -> None:
        self.device = device
        self.alignment = device.properties.host_import_alignment
        self.staging = self.alignment == 0 or os.environ.get("TRITON_SPIRV_STAGING") == "1"
        self._host_blocks: list[_HostBlock] = []
        # storage start -> (staged address, allocation handle, size)
        self._staged: dict[int, tuple[int, Any, int]] = {}
        self._blocks: list[tuple[int, Any]] = []
        # The launch's arguments, alive until it has finished.
        self.arguments: list[Any] = []

    def block(self, size: int, data: bytes = b"") -> tuple[int, int]:
        """(address, size) of `size` zeroed bytes, `data` at their start, that
        the device can bind."""
        if not self.staging:
            host = _HostBlock(size, data, self.alignment)
            self._host_blocks.append(host)
            return host.address, host.size
        size = max(size, 4)
        address, handle = self.device.allocate(size)
        ctypes.memset(address, 0, size)
        ctypes.memmove(address, data, len(data))
        self._blocks.append((address, handle))
        return address, size

    def storage(self, start: int, size: int) -> tuple[int, int, int]:
        """(address to bind, bound size, bytes from that address to `start`)
        for a tensor storage of `size` bytes at host address `start`."""
        if not self.staging:
            base = start & ~(self.alignment - 1)
            end = (start + max(size, 1) + self.alignment - 1) & ~(self.alignment - 1)
            return base, end - base, start - base
        if start not in self._staged:
            address, handle = self.device.allocate(max(size, 4))
            ctypes.memmove(address, start, size)
            self._staged[start] = (address, handle, size)
        address, _, _ = self._staged[start]
        return address, max(size, 4), 0

    def finish(self) -> None:
        """Copies staged storages back and frees the staging memory."""
        for start, (address, handle, size) in self._staged.items():
            ctypes.memmove(start, address, size)
            self.device.free(address, handle)
        for address, handle in self._blocks:
            self.device.free(address, handle)
        self._staged.clear()
        self._blocks.clear()


# One push-constant or argument-buffer slot the launcher writes: its offset,
# layout, integer mask (None for floats), role, and argument index or grid
# axis.
_Slot = tuple[int, struct.Struct, "int | None", str, int]


def _slots(records: list[dict[str, Any]]) -> list[_Slot]:
    grid_axes = {"num_programs_x": 0, "num_programs_y": 1, "num_programs_z": 2}
    slots = []
    for r in records:
        if r["role"].startswith("program_id_base"):
            continue  # written by the runtime, per dispatch
        layout, mask = _SLOT_FORMATS[r["type"]]
        slots.append((r["offset"], struct.Struct(layout), mask, r["role"],
                      grid_axes.get(r["role"], r.get("arg_index"))))
    return slots


class SPIRVLauncher:
    """`launcher_cls` of the driver: called as Triton's launchers are."""

    def __init__(self, src: Any, metadata: Any) -> None:
        signature = dict(src.signature)
        # The TTIR function keeps the non-constexpr arguments, in order; a
        # host TensorDescriptor stands for several (see _flatten).
        self.runtime_args = [(i, ty.startswith("tensordesc"))
                             for i, ty in enumerate(signature.values()) if ty != "constexpr"]
        self.abi = metadata.spirv_abi
        self.name = metadata.name
        # What each launch fills in, worked out once from the ABI: the tensor
        # arguments (in binding order), the argument bound at each binding,
        # and the push-constant slots the launcher writes; the runtime writes
        # the program id bases.
        bindings = sorted(self.abi["bindings"], key=lambda record: record["binding"])
        self.tensor_args = list(dict.fromkeys(record["arg_index"] for record in bindings))
        self.binding_args = list({r["binding"]: r["arg_index"] for r in bindings}.values())
        self.slots = _slots(self.abi["push_constants"])
        # Scalars that did not fit in push constants go to an argument buffer,
        # bound after the tensors.
        argument_buffer = self.abi.get("argument_buffer", {})
        self.argument_slots = _slots(argument_buffer.get("slots", []))
        self.argument_bytes = argument_buffer.get("bytes", 0)
        self.push_constant_bytes = self.abi["push_constant_bytes"]
        # Kernels with device_print/device_assert write to a debug buffer,
        # bound last.
        debug = self.abi.get("debug_buffer")
        self.debug = DebugBuffer(debug, self.name) if debug else None
        self.num_bindings = (len(self.binding_args) + (1 if self.argument_bytes else 0) +
                             (1 if self.debug else 0))
        bases = [r["offset"] for r in self.abi["push_constants"] if r["role"] == "program_id_base_x"]
        self.program_id_base_offset = bases[0] if bases else 0xFFFFFFFF
        self.device = vulkan.device()

    def _buffer(self, value: Any, position: int, memory: _LaunchMemory) -> tuple[int, int, int]:
        """(address, size, element offset) of the buffer that binds a tensor argument."""
        if not hasattr(value, "data_ptr"):
            raise TypeError(f"argument {position} of {self.name} must be a tensor, "
                            f"got {type(value).__name__}")
        device = getattr(value, "device", None)
        if device is not None and getattr(device, "type", "cpu") != "cpu":
            raise TypeError(f"argument {position} of {self.name} is on {device}; the SPIR-V "
                            f"backend takes CPU tensors (the GPU reads them in place)")
        storage = value.untyped_storage()
        start, size = storage.data_ptr(), storage.nbytes()
        element_bytes = value.element_size()
        allocation = self.device.allocation_holding(start)
        if allocation is not None:  # device memory: bound as it is
            base, whole = allocation
            return base, whole, (value.data_ptr() - base) // element_bytes
        address, bound, skipped = memory.storage(start, size)
        # Triton types a pointer argument by its tensor's dtype, so the offset
        # counts elements of that size.
        offset_bytes = skipped + value.data_ptr() - start
        if offset_bytes % element_bytes:
            raise ValueError(f"argument {position} of {self.name} is not aligned to its element size")
        return address, bound, offset_bytes // element_bytes

    def _flatten(self, args: Sequence[Any]) -> list[Any]:
        """The TTIR function's arguments. Triton's front end expands a host
        TensorDescriptor into its base, shape, strides, whether padding is
        NaN, then the shape (i32) and strides again (as its CUDA launcher
        passes them when there is no TMA descriptor)."""
        values: list[Any] = []
        for index, is_descriptor in self.runtime_args:
            value = args[index]
            if not is_descriptor:
                values.append(value)
                continue
            shape, strides = list(value.shape), list(value.strides)
            values += [value.base, *shape, *strides, value.padding == "nan", *shape, *strides]
        return values

    def __call__(self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: KernelBinary,
                 packed_metadata: Any, launch_metadata: Any, enter_hook: Any, exit_hook: Any,
                 *args: Any) -> None:
        global _pending, _synchronize_at_exit
        synchronize()  # launches run one after the other
        if enter_hook is not None:
            enter_hook(launch_metadata)
        values = self._flatten(args)
        memory = _LaunchMemory(self.device)
        asynchronous = _asynchronous
        try:
            report = self._launch(grid_x, grid_y, grid_z, function, values, memory, asynchronous)
        except BaseException:
            if asynchronous:  # it may have been submitted: its memory is in use
                try:
                    self.device.synchronize()
                except vulkan.VulkanError:
                    pass
            memory.finish()
            raise
        if asynchronous:
            memory.arguments = values
            _pending = (memory, report)
            if not _synchronize_at_exit:
                # Registered after the device's close, so it runs before it.
                atexit.register(synchronize)
                _synchronize_at_exit = True
        else:
            memory.finish()
        if exit_hook is not None:
            exit_hook(launch_metadata)

    def _launch(self, grid_x: int, grid_y: int, grid_z: int, function: KernelBinary, values: list[Any],
                memory: _LaunchMemory, asynchronous: bool) -> Callable[[], None] | None:
        """Binds and launches; returns what reports the kernel's prints and
        assertions once it has finished (when it has any)."""
        global _device_time_ns
        buffers = {index: self._buffer(values[index], index, memory) for index in self.tensor_args}
        grid = (grid_x, grid_y, grid_z)

        def pack(size: int, slots: list[_Slot]) -> bytes:
            block = bytearray(size)
            for offset, layout, mask, role, index in slots:
                if role == "offset":
                    value = buffers[index][2]
                elif role == "scalar":
                    value = values[index]
                else:  # num_programs_*
                    value = grid[index]
                layout.pack_into(block, offset, float(value) if mask is None else int(value) & mask)
            return bytes(block)

        bindings = [buffers[index][:2] for index in self.binding_args]
        if self.argument_bytes:
            bindings.append(memory.block(self.argument_bytes, pack(self.argument_bytes, self.argument_slots)))
        debug_block = None
        if self.debug:
            debug_block = memory.block(self.debug.size)
            bindings.append(debug_block)
        constants = pack(self.push_constant_bytes, self.slots)
        kernel = function.pipeline(self.abi["entry_point"], self.num_bindings, self.push_constant_bytes)
        _device_time_ns += kernel.launch(grid, bindings, constants, self.program_id_base_offset,
                                         wait=not asynchronous)
        if debug_block is None:
            return None
        debug, address = self.debug, debug_block[0]
        report = lambda: debug.report(address)  # noqa: E731
        if asynchronous:
            return report
        report()
        return None
