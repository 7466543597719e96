"""Launching a compiled kernel: Triton's arguments -> storage buffers and push
constants, as described by the kernel's ABI metadata (written by
triton-spirv-opt next to the .spv).

Everything that does not depend on the arguments (the pipeline, the
push-constant layout, the argument and debug blocks) is made once per kernel;
a launch resolves its tensors' memory, packs the push constants with one
struct call and makes one runtime call."""

from __future__ import annotations

import atexit
import ctypes
import functools
import operator
import os
import re
import struct
import threading
import warnings
import weakref
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .. import vulkan
from .bindings import HostImports, Region, StagedStorages, binding_range
from .debug_buffer import DebugBuffer
from .kernel_abi import NUM_PROGRAMS, PROGRAM_ID_BASES, Role
from .kernel_metadata import KernelMetadata, Slot

__all__ = ["BindingTooLargeError", "KernelBinary", "SPIRVLauncher", "last_launch", "set_asynchronous",
           "synchronize"]

# Slot type -> its little-endian struct code and the mask of an integer slot.
_SLOT_FORMATS = {"i32": ("I", 0xFFFFFFFF), "i64": ("Q", 0xFFFFFFFFFFFFFFFF), "f32": ("f", None),
                 "f64": ("d", None)}

# Triton's largest grid on its GPU backends (CUDA's limits).
_MAX_GRID = (2**31 - 1, 65535, 65535)
# Kernels index buffers with 32-bit signed element indices.
_MAX_ELEMENTS = 2**31 - 1
# Bytes every binding's start is a multiple of (KernelABI.td's promise).
_BINDING_ALIGNMENT = 16

class _NeedsAddresses(Exception):
    """A tensor argument spans more than one binding can: the launch goes
    to a variant of the kernel that takes it by device address."""

    def __init__(self, position: int) -> None:
        super().__init__(position)
        self.position = position


def _as_tuples(value: Any) -> Any:
    """An option value read back from JSON metadata, lists made tuples again."""
    return tuple(_as_tuples(item) for item in value) if isinstance(value, list) else value


class BindingTooLargeError(ValueError):
    """A tensor argument larger than the device binds (maxStorageBufferRange)
    or than 32-bit element indices reach."""


class _InFlight:
    """A submitted launch: what must stay alive until it is done (its
    arguments), and what finishes it (staging copy-back, freeing the memory
    imported for address tables, the debug report)."""

    __slots__ = ("sequence", "arguments", "resources", "report")

    def __init__(self, sequence: int, arguments: Any, resources: list[_LaunchResource],
                 report: Callable[[], None] | None) -> None:
        self.sequence, self.arguments, self.report = sequence, arguments, report
        self.resources = resources

    def finish(self, report: bool = True) -> None:
        try:
            if report and self.report is not None:
                self.report()
        finally:
            _finish_resources(self.resources)


if TYPE_CHECKING:  # address_tables imports torch: only when a kernel needs it
    from .address_tables import AddressTables

    # What a launch holds until it is done.
    _LaunchResource = StagedStorages | AddressTables


def _finish_resources(resources: list[_LaunchResource], copy_back: bool = True) -> None:
    for resource in resources:
        resource.finish(copy_back)


class LaunchQueue:
    """The device's one queue as the launchers see it: the launches in flight
    and what finishes them, the mode, and the host-import cache. Launches are
    submitted one at a time, from any thread (`lock`); one queue per device
    (`_queue_for`)."""

    def __init__(self, device_index: int) -> None:
        self.device_index = device_index
        self.lock = threading.RLock()
        # Asynchronous mode: a launch returns once submitted, several are in
        # flight, and each is finished (copied back, its prints and
        # assertions reported) once the runtime has seen it done: at a later
        # launch or at synchronize().
        self.asynchronous = _asynchronous
        self.in_flight: deque[_InFlight] = deque()
        # The number of the latest launch submitted (the runtime numbers them).
        self.last_launch = 0
        # Launches that ran past TRITON_SPIRV_TIMEOUT_S: what they bind is
        # kept until the device is seen idle.
        self.abandoned: list[_InFlight] = []
        self.synchronize_at_exit = False
        # Launches on spirv tensors alone return once submitted, untracked
        # (see SPIRVLauncher._on_the_device); whether one was since the last
        # synchronize.
        self.device_work_pending = False
        # Kernels with assertions and no prints, launched since the last
        # synchronize: their debug blocks are read then, as CUDA reports a
        # device-side assertion at the next synchronization.
        self.unchecked_assertions: dict[SPIRVLauncher, None] = {}
        self.host_imports: HostImports | None = None

    def set_asynchronous(self, enabled: bool) -> None:
        with self.lock:
            try:
                self.synchronize()
            finally:
                self.asynchronous = enabled

    def synchronize(self) -> None:
        """Waits for the launches in flight and finishes them, in order;
        raises the first failure (a failed assertion, a launch past its
        timeout)."""
        with self.lock:
            if not (self.abandoned or self.in_flight or self.device_work_pending
                    or self.unchecked_assertions):
                return
            device = vulkan.device(self.device_index)
            self.device_work_pending = False
            if self.abandoned:
                device.synchronize()  # raises while a timed-out launch still runs
                for launch in self.abandoned:
                    _finish_resources(launch.resources, copy_back=False)
                self.abandoned.clear()
            try:
                device.synchronize()
            except vulkan.LaunchTimeoutError:
                self.abandoned.extend(self.in_flight)
                self.in_flight.clear()
                raise
            except BaseException:
                self.finish_all(report=False)
                self.unchecked_assertions.clear()
                raise
            failed = self.failed_assertion()
            self.finish_all(report=True)
            if failed is not None:
                raise failed

    def failed_assertion(self) -> AssertionError | None:
        """Reads (and clears) the debug blocks of the assertion-only kernels
        launched since the last check, with the device idle: the first
        failure."""
        failed: AssertionError | None = None
        while self.unchecked_assertions:
            launcher = next(iter(self.unchecked_assertions))
            del self.unchecked_assertions[launcher]
            try:
                launcher.report()
            except AssertionError as raised:
                failed = failed or raised
        return failed

    def finish_all(self, report: bool) -> None:
        error: BaseException | None = None
        while self.in_flight:
            try:
                self.in_flight.popleft().finish(report)
            except BaseException as raised:  # the others still finish
                error = error or raised
        if error is not None:
            raise error

    def finish_done(self, device: vulkan.Device) -> None:
        """Finishes the launches in flight that the runtime has seen done."""
        finished = device.finished_launch()
        while self.in_flight and self.in_flight[0].sequence <= finished:
            self.in_flight.popleft().finish()

    def imports(self, device: vulkan.Device) -> HostImports:
        if self.host_imports is None:
            self.host_imports = HostImports(device)
        return self.host_imports


def _pageable_host_tensors_taken() -> bool:
    """Whether every kernel takes CPU tensors in pageable memory: where
    TRITON_SPIRV_HOST_TENSORS=1 says so, and where there is no spirv torch
    device to make tensors on (CPU tensors are then all there is)."""
    setting = os.environ.get("TRITON_SPIRV_HOST_TENSORS")
    if setting is not None:
        return setting == "1"
    from .. import torch_device
    return not torch_device.registered()


def _is_pinned(tensor: Any) -> bool:
    """Whether a CPU tensor is page-locked by the spirv device's host
    allocator or, next to CUDA (which `pin_memory()` then uses), by CUDA's:
    either imports as it is."""
    if tensor.is_pinned():
        return True
    import torch
    if not torch.cuda.is_available():
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # is_pinned's device argument is deprecated
        return bool(tensor.is_pinned("cuda"))


_warned_host_memory = False


def _warn_host_memory(kernel: str) -> None:
    """Once per process: a discrete GPU reads CPU tensors over PCIe (a slow
    path users should know they take)."""
    global _warned_host_memory
    if not _warned_host_memory:
        _warned_host_memory = True
        warnings.warn(f"triton-spirv: {kernel} was given CPU tensors, which this discrete GPU "
                      f"reaches over PCIe (imported host memory); tensors made on the spirv "
                      f"device (device='spirv') are read at device-memory speed. Said once.",
                      RuntimeWarning, stacklevel=4)


# Asynchronous mode from the start (set_asynchronous changes it).
_asynchronous = os.environ.get("TRITON_SPIRV_ASYNC") == "1"
_queues: dict[int, LaunchQueue] = {}
_queues_lock = threading.Lock()


def _queue_for(device_index: int) -> LaunchQueue:
    """The launch queue of a device (each has its own launch numbers)."""
    queue = _queues.get(device_index)
    if queue is None:
        with _queues_lock:
            queue = _queues.setdefault(device_index, LaunchQueue(device_index))
    return queue


def last_launch(device_index: int | None = None) -> int:
    """The number of the latest launch submitted on a device (default: the
    current one), for timing events."""
    return _queue_for(vulkan.current_index() if device_index is None else device_index).last_launch


def set_asynchronous(enabled: bool) -> None:
    """Asynchronous launches (also TRITON_SPIRV_ASYNC=1): a launch returns as
    soon as it is submitted, and its results (and failed assertions) are
    there after `synchronize()` (or once a later launch has seen it done)."""
    global _asynchronous
    _asynchronous = enabled
    for queue in list(_queues.values()):
        queue.set_asynchronous(enabled)


def synchronize(device_index: int | None = None) -> None:
    """Waits for the launches in flight (on one device, or on every device)
    and finishes them, in order; raises the first failure (a failed
    assertion, a launch past its timeout)."""
    if device_index is not None:
        _queue_for(device_index).synchronize()
        return
    for queue in list(_queues.values()):
        queue.synchronize()


class KernelBinary:
    """The module and function handle `load_binary` returns (so Triton loads
    each kernel once): the .spv, made a pipeline on first launch (the pipeline
    layout needs the ABI metadata, which the launcher has)."""

    def __init__(self, code: bytes, device_index: int) -> None:
        self.code = code
        self.device_index = device_index  # the device Triton loaded it for
        self.kernel: vulkan.Kernel | None = None

    def pipeline(self, entry_point: str, num_bindings: int, push_constant_bytes: int) -> vulkan.Kernel:
        if self.kernel is None:
            self.kernel = vulkan.Kernel(vulkan.device(self.device_index), self.code, entry_point,
                                        num_bindings, push_constant_bytes)
        return self.kernel


class _Packer:
    """Packs a push-constant or argument block: each slot takes an element
    offset, a scalar argument, a grid size or a tensor's storage bounds; gaps
    and the program id bases (written by the runtime) are zero. `pack` is
    one generated expression and one struct call, since it runs at every
    launch."""

    def __init__(self, size: int, records: list[Slot]) -> None:
        fmt, position, sources = "<", 0, []
        for record in sorted(records, key=lambda r: r["offset"]):
            role = Role(record["role"])
            if role in PROGRAM_ID_BASES:
                continue
            code, mask = _SLOT_FORMATS[record["type"]]
            fmt += "x" * (record["offset"] - position) + code
            position = record["offset"] + struct.calcsize("<" + code)
            if role == Role.OFFSET:
                sources.append(f"offsets[{int(record['arg_index'])}]")
            elif role in (Role.BOUNDS_BEGIN, Role.BOUNDS_END):
                sources.append(f"bounds[{int(record['arg_index'])}][{int(role == Role.BOUNDS_END)}]")
            elif role == Role.ADDRESS:
                sources.append(f"addresses[{int(record['arg_index'])}]")
            elif role == Role.SCALAR:
                value = f"values[{int(record['arg_index'])}]"
                sources.append(f"float({value})" if mask is None else f"int({value}) & {mask}")
            else:
                sources.append(f"grid[{NUM_PROGRAMS.index(role)}]")
        fmt += "x" * (size - position)
        namespace = {"pack_struct": struct.Struct(fmt).pack}
        exec(f"def pack(values, offsets, grid, bounds, addresses):\n"
             f"    return pack_struct({', '.join(sources)})\n", namespace)
        self.pack: Callable[[Sequence[Any], dict[int, int], tuple[int, int, int],
                             dict[int, tuple[int, int]], dict[int, int]], bytes] = namespace["pack"]


def _runtime_paths(types: tuple[Any, ...], prefix: tuple[int, ...],
                   ) -> list[tuple[tuple[int, ...], bool]]:
    """Where each runtime argument is among a launch's arguments (its index,
    then its indices within tuples), and whether it is a tensor descriptor,
    from Triton's signature types (a tuple's type is the tuple of its
    elements' types)."""
    paths: list[tuple[tuple[int, ...], bool]] = []
    for index, type_ in enumerate(types):
        if isinstance(type_, tuple):
            paths += _runtime_paths(type_, prefix + (index,))
        elif type_ != "constexpr":
            paths.append((prefix + (index,), type_.startswith("tensordesc")))
    return paths


def _decompose_descriptor_3_6(descriptor: Any) -> list[Any]:
    shape, strides = list(descriptor.shape), list(descriptor.strides)
    return [descriptor.base, *shape, *strides, descriptor.padding == "nan", *shape, *strides]


def _descriptor_decomposition() -> Callable[[Any], list[Any]]:
    """How the front end expands a host TensorDescriptor into kernel
    arguments: Triton's own function where it has one (3.9 adds
    round_f32_to_tf32 after the padding flag), else 3.6's layout."""
    try:
        from triton.backends.driver import decompose_descriptor
    except ImportError:
        return _decompose_descriptor_3_6
    return lambda descriptor: list(decompose_descriptor(descriptor))


_decompose_descriptor = _descriptor_decomposition()


def _element_bytes(type_name: str) -> int:
    """Bytes of a scalar of a buffer element type named as in the ABI ("f32",
    "i8", ..., "vector<4xf32>": its f32 lanes)."""
    scalar = type_name.rpartition("x")[2] if type_name.startswith("vector<") else type_name
    bits = re.match(r"\D*(\d+)", scalar)
    return max(int(bits.group(1)) // 8, 1) if bits else 4


def _storage_tensor(value: Any) -> Any:
    """The torch tensor that holds an argument's storage: the argument, or the
    tensor a wrapper (such as Triton's TensorWrapper for unsigned types)
    stands for."""
    if hasattr(value, "untyped_storage"):
        return value
    base = getattr(value, "base", None)
    if base is not None and hasattr(base, "untyped_storage"):
        return base
    return None


class SPIRVLauncher:
    """`launcher_cls` of the driver: called as Triton's launchers are."""

    def __init__(self, src: Any, metadata: Any) -> None:
        # The TTIR function keeps the non-constexpr arguments, in order,
        # tuples flattened; a host TensorDescriptor stands for several (see
        # _flatten).
        self.runtime_args = _runtime_paths(tuple(src.signature.values()), ())
        self.plain_args = all(len(path) == 1 and not is_descriptor
                              for path, is_descriptor in self.runtime_args)
        runtime_indices = [path[0] for path, _ in self.runtime_args]
        self.select_runtime_args: Callable[[Sequence[Any]], Sequence[Any]] = (
            operator.itemgetter(*runtime_indices) if len(runtime_indices) > 1 else
            lambda args: [args[index] for index in runtime_indices])
        self.abi: KernelMetadata = metadata.spirv_abi
        abi = self.abi
        self.name = metadata.name
        self.takes_pageable = getattr(metadata, "pageable_host_tensors", False)
        # What a variant taking some tensors by address is compiled from.
        self.src, self.metadata = src, metadata
        # The tensor arguments (in binding order), the argument bound at
        # each binding, and for each tensor the smallest element it is read
        # as (which bounds the elements a binding can index).
        bindings = sorted(abi["bindings"], key=lambda record: record["binding"])
        self.tensor_args = list(dict.fromkeys(record["arg_index"] for record in bindings))
        self.binding_args = list({r["binding"]: r["arg_index"] for r in bindings}.values())
        self.one_binding_each = self.binding_args == self.tensor_args
        smallest_element: dict[int, int] = {}
        for record in bindings:
            size = _element_bytes(record["element_type"])
            index = record["arg_index"]
            smallest_element[index] = min(size, smallest_element.get(index, size))
        self.push_constant_bytes = abi["push_constant_bytes"]
        # debug=True: each access checks that it stays in its tensor's storage.
        argument_slots = abi.get("argument_buffer", {}).get("slots", [])
        slots = abi["push_constants"] + argument_slots
        self.checks_bounds = any(Role(record["role"]) == Role.BOUNDS_BEGIN for record in slots)
        # Tensor arguments passed by device address, not bound (a variant
        # for tensors larger than one binding spans), and the variants of
        # this kernel made so far, by the arguments they take by address.
        self.address_args = tuple(dict.fromkeys(record["arg_index"] for record in slots
                                                if Role(record["role"]) == Role.ADDRESS))
        self.address_variants: dict[tuple[int, ...], tuple[SPIRVLauncher, KernelBinary]] = {}
        self.push_constants = _Packer(self.push_constant_bytes, abi["push_constants"])
        # Scalars that did not fit in push constants go to an argument buffer,
        # bound after the tensors; kernels with device_print/device_assert
        # write a debug buffer, bound last.
        argument_buffer = abi.get("argument_buffer", {})
        self.argument_bytes = argument_buffer.get("bytes", 0)
        self.arguments = _Packer(self.argument_bytes, argument_buffer.get("slots", []))
        # Arguments whose elements the kernel reads as addresses.
        self.address_tables: tuple[int, ...] = tuple(abi.get("address_tables", ()))
        debug = abi.get("debug_buffer")
        self.debug = DebugBuffer(debug, self.name, 32 * metadata.num_warps) if debug else None
        self.num_bindings = (len(self.binding_args) + (1 if self.argument_bytes else 0) +
                             (1 if self.debug else 0))
        self.bindings = vulkan.binding_struct(self.num_bindings)
        bases = {Role(r["role"]): r["offset"] for r in abi["push_constants"]
                 if Role(r["role"]) in PROGRAM_ID_BASES}
        self.program_id_base_offset = bases.get(Role.PROGRAM_ID_BASE_X, 0xFFFFFFFF)
        if bases and [bases.get(role) for role in PROGRAM_ID_BASES] != \
                [self.program_id_base_offset + 4 * axis for axis in range(3)]:
            raise ValueError(f"{self.name}: the program id bases are not three consecutive words")
        # Triton makes a launcher per device, while that device is current.
        self.device_index = vulkan.current_index()
        self.device = vulkan.device(self.device_index)
        self.queue = _queue_for(self.device_index)
        import torch
        self.plain_tensor = torch.Tensor
        properties = self.device.properties
        if self.address_tables and not properties.buffer_device_address:
            raise ValueError(f"{self.name} reads pointers from memory, which needs buffer device "
                             f"addresses; this Vulkan device has none")
        # Staging is read at each launch (TRITON_SPIRV_STAGING may change).
        self.can_import = properties.host_import_alignment != 0
        self.discrete = properties.is_discrete
        # Bindings start 16-byte aligned (the kernel ABI's promise, at least
        # the device's own requirement): a tensor Triton marks 16-byte
        # aligned then sits at an element offset the kernel knows divides.
        self.offset_alignment = max(properties.min_storage_buffer_offset_alignment, _BINDING_ALIGNMENT)
        self.max_binding_bytes = properties.max_storage_buffer_range
        self.can_address = bool(properties.buffer_device_address)
        # The most bytes a kernel indexes in each tensor: _MAX_ELEMENTS of its
        # smallest element (a variant learns those of its address arguments
        # from the kernel it was made for; until then, bytes).
        self.max_indexed_bytes: dict[int, int] = {}
        self.max_bytes: dict[int, int] = {}
        self._set_indexed_bytes({**{index: _MAX_ELEMENTS for index in self.address_args},
                                 **{index: (_MAX_ELEMENTS + 1) * smallest - 1
                                    for index, smallest in smallest_element.items()}})
        # (storage start, bytes) -> the range binding it, for storages in
        # device memory; valid while the device has freed nothing more.
        self.device_ranges: dict[tuple[int, int], Region] = {}
        self.device_ranges_frees = self.device.frees
        # The argument and debug blocks: mapped device memory, made once and
        # rewritten by each launch (launches run one at a time).
        self.extra_bindings: list[tuple[int, int]] = []
        # A debug block with assertions alone is zeroed once, and again after
        # each read, so launches of the kernel need not wait for each other;
        # blocks that launches rewrite (arguments, prints) make them wait.
        self.asserts_only = self.debug is not None and not self.debug.prints
        self.rewrites_blocks = bool(self.argument_bytes) or (self.debug is not None
                                                              and not self.asserts_only)
        # Every argument that is a tensor, bound or by address (looked at
        # per launch by _on_the_device).
        self.tensor_and_address_args = (*self.tensor_args, *self.address_args)
        self.argument_address = self.debug_address = 0
        if self.argument_bytes:
            self.argument_address = self._own_block(self.argument_bytes)
        if self.debug:
            self.debug_address = self._own_block(self.debug.size)
        self.report: Callable[[], None] | None = None
        if self.asserts_only:
            ctypes.memset(self.debug_address, 0, self.debug.header_bytes)
            self.report = self._report_assertions
        elif self.debug:
            self.report = functools.partial(self.debug.report, self.debug_address)

    def _report_assertions(self) -> None:
        """Raises for a failed assertion in the launches since the last
        report (all done), and clears the block for the next ones."""
        assert self.debug is not None
        try:
            self.debug.report(self.debug_address)
        finally:
            ctypes.memset(self.debug_address, 0, self.debug.header_bytes)

    def _set_indexed_bytes(self, limits: dict[int, int]) -> None:
        """Records how many bytes of each tensor the kernel indexes, and from
        that `max_bytes`, the most each tensor may span: a bound one also at
        most maxStorageBufferRange."""
        self.max_indexed_bytes.update(limits)
        self.max_bytes = {index: limit if index in self.address_args else min(self.max_binding_bytes, limit)
                          for index, limit in self.max_indexed_bytes.items()}

    def _own_block(self, size: int) -> int:
        size = max(size, 4)
        address, handle = self.device.allocate(size)
        weakref.finalize(self, self.device.free, address, handle)
        self.extra_bindings.append((address, size))
        return address

    def _flatten(self, args: Sequence[Any]) -> Sequence[Any]:
        """The TTIR function's arguments: tuples flattened, constexprs left
        out. Triton's front end expands a host TensorDescriptor into its base,
        shape, strides, whether padding is NaN (and, from 3.9, whether f32
        rounds to tf32), then the shape (i32) and strides again (as its CUDA
        launcher passes them when there is no TMA descriptor)."""
        if self.plain_args:
            return self.select_runtime_args(args)
        values: list[Any] = []
        for path, is_descriptor in self.runtime_args:
            value = args[path[0]]
            for index in path[1:]:
                value = value[index]
            if not is_descriptor:
                values.append(value)
                continue
            values += _decompose_descriptor(value)
        return values

    def _unwrap(self, value: Any, position: int) -> tuple[Any, int]:
        """The CPU tensor holding a tensor-like argument's storage, and the
        size of the argument's elements."""
        tensor = _storage_tensor(value)
        if tensor is None:
            raise TypeError(f"argument {position} of {self.name} must be a tensor, "
                            f"got {type(value).__name__}")
        device = getattr(tensor, "device", None)
        if device is not None and getattr(device, "type", "cpu") not in ("cpu", "spirv"):
            raise TypeError(f"argument {position} of {self.name} is on {device}; the SPIR-V "
                            f"backend takes spirv tensors (bound in place) and CPU tensors "
                            f"(imported)")
        if tensor is value:
            return tensor, tensor.element_size()
        return tensor, max(getattr(value.dtype, "primitive_bitwidth", 8) // 8, 1)

    def _tensor_binding(self, value: Any, position: int, staged: StagedStorages | None,
                        ) -> tuple[int, int, int, tuple[int, int]]:
        """(address, size, element offset, storage bounds) of the range that
        binds a tensor argument that is not a plain tensor in device memory."""
        tensor, element_bytes = self._unwrap(value, position)
        if tensor.device.type == "spirv" and tensor.device.index != self.device_index:
            raise ValueError(f"argument {position} of {self.name} is on {tensor.device}, but the "
                             f"kernel launches on spirv:{self.device_index} (the current device): "
                             f"move the tensor, or make its device current (torch.spirv.device)")
        storage = tensor.untyped_storage()
        start, nbytes = storage.data_ptr(), storage.nbytes()
        data = tensor.data_ptr()
        bound = self._device_range(start, nbytes)
        if bound is not None:  # device memory: bound in place
            address, size = bound
        elif tensor.device.type == "cpu" and not (
                self.takes_pageable or _pageable_host_tensors_taken() or _is_pinned(tensor)):
            raise ValueError(f"argument {position} of {self.name} is a CPU tensor in pageable "
                             f"memory, which kernels do not reach (as on CUDA): make it on the "
                             f"spirv device (device='spirv' or .to('spirv')), pin it "
                             f"(.pin_memory()), or set TRITON_SPIRV_HOST_TENSORS=1 to import "
                             f"pageable CPU tensors for every launch")
        elif staged is not None:
            address, size = staged.region(start, nbytes)
            data, start = data + address - start, address
        else:
            # Imports are bound whole: the runtime imports page-aligned ranges.
            address, size = self.queue.imports(self.device).region(storage, start, nbytes)
            if self.discrete:
                _warn_host_memory(self.name)
        offset_bytes = data - address
        self._check_binding(offset_bytes, element_bytes, size, nbytes, position)
        return address, size, offset_bytes // element_bytes, (start - address, start - address + nbytes)

    def _check_binding(self, offset_bytes: int, element_bytes: int, size: int, nbytes: int,
                       position: int) -> None:
        """Raises for a tensor the kernel cannot index through its binding."""
        if offset_bytes % element_bytes:
            raise ValueError(f"argument {position} of {self.name} is not aligned to its element size")
        if size > self.max_bytes[position]:
            if self.can_address and size <= self.max_indexed_bytes[position]:
                raise _NeedsAddresses(position)
            if position in self.address_args:
                raise BindingTooLargeError(
                    f"argument {position} of {self.name} spans {nbytes} bytes; kernels index at "
                    f"most {_MAX_ELEMENTS} elements of a tensor")
            raise BindingTooLargeError(
                f"argument {position} of {self.name} spans {nbytes} bytes; this device binds at "
                f"most {self.max_binding_bytes} bytes per buffer (maxStorageBufferRange) and "
                f"kernels index at most {_MAX_ELEMENTS} elements of a buffer")

    def __call__(self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: KernelBinary,
                 packed_metadata: Any, launch_metadata: Any, enter_hook: Any, exit_hook: Any,
                 *args: Any) -> None:
        grid = (grid_x, grid_y, grid_z)
        if grid_x <= 0 or grid_y <= 0 or grid_z <= 0 or grid_x > _MAX_GRID[0] or \
                grid_y > _MAX_GRID[1] or grid_z > _MAX_GRID[2]:
            if min(grid) < 0 or any(g > limit for g, limit in zip(grid, _MAX_GRID)):
                raise ValueError(f"grid {grid} of {self.name}: each dimension must be at least 0 "
                                 f"and at most {_MAX_GRID} (Triton's grid limits)")
            grid = (0, 0, 0)  # an empty grid launches nothing, as on CUDA
        if enter_hook is not None:
            enter_hook(launch_metadata)
        with self.queue.lock:
            self._launch(grid, function, args)
        if exit_hook is not None:
            exit_hook(launch_metadata)

    def _launch(self, grid: tuple[int, int, int], function: KernelBinary, args: Sequence[Any]) -> None:
        queue = self.queue
        # The argument and debug blocks are rewritten only once the launches
        # before are done.
        if queue.abandoned or (queue.in_flight and self.rewrites_blocks):
            queue.synchronize()
        if grid[0] == 0:
            return
        values = self._flatten(args)
        resources: list[_LaunchResource] = []
        submitted = False
        try:
            if self.address_tables:
                values = self._with_device_addresses(values, resources)
            bindings, offsets, bounds, addresses = self._bind_tensors(values)
            if bindings is None:  # a tensor outside device memory
                staged = self._staging()
                resources.append(staged)
                bindings, offsets, bounds, addresses = self._bind_tensors(values, staged)
            if self.argument_bytes:
                ctypes.memmove(self.argument_address,
                               self.arguments.pack(values, offsets, grid, bounds, addresses),
                               self.argument_bytes)
            if self.debug and not self.asserts_only:  # records past the count are not read
                ctypes.memset(self.debug_address, 0, self.debug.header_bytes)
            kernel = function.kernel or function.pipeline(self.abi["entry_point"], self.num_bindings,
                                                          self.push_constant_bytes)
            grid_bytes = vulkan.GRID.pack(*grid)
            push_constants = self.push_constants.pack(values, offsets, grid, bounds, addresses)
            submitted = True
            wait = not (queue.asynchronous or self._on_the_device(values, resources))
            sequence = queue.last_launch = kernel.run(
                wait, grid_bytes, self.bindings.pack(*bindings), self.num_bindings,
                push_constants, self.program_id_base_offset)
        except vulkan.LaunchTimeoutError:
            queue.abandoned.append(_InFlight(0, values, resources, self.report))
            raise
        except _NeedsAddresses as needed:
            _finish_resources(resources, copy_back=False)
            launcher, binary = self._address_variant(values, needed.position)
            launcher._launch(grid, binary, args)
            return
        except BaseException:
            if submitted:  # it may have been submitted: its memory may be in use
                try:
                    self.device.synchronize()
                except vulkan.VulkanError:
                    pass
            _finish_resources(resources)
            raise
        if wait:
            # This launch and those before it are done.
            failed = queue.failed_assertion() if queue.unchecked_assertions else None
            if resources or self.report is not None:
                _InFlight(sequence, values, resources, self.report).finish()
            if failed is not None:
                raise failed
            return
        if self.asserts_only:
            queue.unchecked_assertions[self] = None
        if queue.asynchronous:
            queue.in_flight.append(_InFlight(sequence, values, resources,
                                        None if self.asserts_only else self.report))
        else:
            # Nothing to keep alive or finish: the caching allocator reuses
            # the memory of tensors freed meanwhile for work queued after
            # this launch, as CUDA's does on a stream.
            queue.device_work_pending = True
        if not queue.synchronize_at_exit:
            # Registered after the device's close, so it runs before it.
            atexit.register(synchronize)
            queue.synchronize_at_exit = True
        if len(queue.in_flight) > 16:  # bounded, without a runtime call per launch
            queue.finish_done(self.device)

    def _on_the_device(self, values: Sequence[Any], resources: list[_LaunchResource]) -> bool:
        """Whether the launch touches only spirv tensors and needs nothing done
        after it (no staging, address tables or assertion report) and no
        argument or debug block that the next launch rewrites: it then
        returns once submitted, as CUDA's launches do, and what reads its
        results (a copy to the CPU, `synchronize()`) runs after it on the
        device's queue. Launches that touch CPU tensors finish before they
        return, so that the CPU sees their results."""
        if resources or self.rewrites_blocks:
            return False
        for index in self.tensor_and_address_args:
            tensor = _storage_tensor(values[index])
            if tensor is None or tensor.device.type != "spirv":
                return False
        return True

    def _address_variant(self, values: Sequence[Any], position: int,
                         ) -> tuple["SPIRVLauncher", KernelBinary]:
        """The launcher and binary of this kernel compiled to take by device
        address the tensors of this launch that span more than one binding
        can (`position` and any other), and those this kernel already does;
        compiled (through Triton, so cached like any kernel) on first use."""
        larger = {index for index in self.tensor_args
                  if (tensor := _storage_tensor(values[index])) is not None and
                  tensor.untyped_storage().nbytes() > self.max_binding_bytes}
        key = tuple(sorted(larger | {position} | set(self.address_args)))
        variant = self.address_variants.get(key)
        if variant is None:
            import dataclasses

            import triton

            from ..options import SPIRVOptions
            options = {field.name: _as_tuples(getattr(self.metadata, field.name))
                       for field in dataclasses.fields(SPIRVOptions)
                       if hasattr(self.metadata, field.name)}
            options["address_arguments"] = key
            compiled = triton.compile(self.src, target=self.metadata.target, options=options)
            launcher = compiled.run
            launcher._set_indexed_bytes(self.max_indexed_bytes)
            variant = self.address_variants[key] = launcher, compiled.function
        return variant

    def _with_device_addresses(self, values: Sequence[Any],
                               resources: list[_LaunchResource]) -> list[Any]:
        """The arguments with each address table replaced by its copy holding
        device addresses (AddressTables)."""
        from .address_tables import AddressTables
        if self.queue.in_flight:  # the launches before may write the tables
            self.queue.synchronize()
        tables = AddressTables(self.device, self.name)
        resources.append(tables)
        values = list(values)
        for index in self.address_tables:
            table, _ = self._unwrap(values[index], index)
            values[index] = tables.translate(table, index)
        return values

    def _device_range(self, start: int, nbytes: int) -> Region | None:
        """The range that binds a storage in device memory, kept until an
        allocation is freed; None for other memory."""
        region = self.device.allocation_holding(start)
        if region is None:
            return None
        bound = self.device_ranges[start, nbytes] = binding_range(region, start, nbytes,
                                                                 self.offset_alignment)
        return bound

    def _staging_wanted(self) -> bool:
        # Read at each launch that needs it: TRITON_SPIRV_STAGING may change.
        return not self.can_import or os.environ.get("TRITON_SPIRV_STAGING") == "1"

    def _staging(self) -> StagedStorages:
        """Staging for this launch: the launches before are done first, since
        they may write what it copies (and copy back what they staged)."""
        if self.queue.in_flight:
            self.queue.synchronize()
        return StagedStorages(self.device)

    def _bind_tensors(self, values: Sequence[Any], staged: StagedStorages | None = None,
                      ) -> tuple[list[int] | None, dict[int, int], dict[int, tuple[int, int]],
                                 dict[int, int]]:
        """The packed (address, size) fields of every binding, each tensor
        argument's element offset, for kernels that check bounds the byte
        range of each tensor's storage in its binding, and the device address
        of the range of each tensor passed by address. Without `staged`,
        only plain tensors in device memory (the hot path): None for the
        fields where there is another."""
        fields: list[int] = []
        offsets: dict[int, int] = {}
        bounds: dict[int, tuple[int, int]] = {}
        checks_bounds = self.checks_bounds
        max_bytes, device_ranges = self.max_bytes, self.device_ranges
        if self.device.frees != self.device_ranges_frees:
            device_ranges.clear()
            self.device_ranges_frees = self.device.frees
        checked_staging = staged is not None
        for index in self.tensor_args:
            value = values[index]
            if type(value) is self.plain_tensor:
                storage = value.untyped_storage()
                key = storage.data_ptr(), storage.nbytes()
                bound = device_ranges.get(key) or self._device_range(*key)
                if bound is not None:
                    address, size = bound
                    nbytes = key[1]
                    offset_bytes, element_bytes = value.data_ptr() - address, value.element_size()
                    if offset_bytes % element_bytes or size > max_bytes[index]:
                        self._check_binding(offset_bytes, element_bytes, size, nbytes, index)
                    offsets[index] = offset_bytes // element_bytes
                    fields += address, size
                    if checks_bounds:
                        bounds[index] = key[0] - address, key[0] - address + nbytes
                    continue
            if not checked_staging:
                if self._staging_wanted():
                    return None, offsets, bounds, {}
                checked_staging = True
            address, size, offsets[index], bounds[index] = self._tensor_binding(value, index, staged)
            fields += address, size
        addresses: dict[int, int] = {}
        for index in self.address_args:
            value = values[index]
            if not checked_staging and self._staging_wanted():
                tensor, _ = self._unwrap(value, index)
                if self.device.allocation_holding(tensor.untyped_storage().data_ptr()) is None:
                    return None, offsets, bounds, {}
            address, size, offsets[index], bounds[index] = self._tensor_binding(value, index, staged)
            if checks_bounds and size > _MAX_ELEMENTS:
                raise ValueError(f"argument {index} of {self.name} spans {size} bytes; debug=True "
                                 f"bounds checks count at most {_MAX_ELEMENTS} bytes")
            addresses[index] = self.device.device_address(address)
        if not self.one_binding_each:  # aliasing bindings of one argument
            ranges = dict(zip(self.tensor_args, zip(fields[::2], fields[1::2])))
            fields = [field for index in self.binding_args for field in ranges[index]]
        for block in self.extra_bindings:
            fields += block
        return fields, offsets, bounds, addresses




