"""Where a launch's tensors live for the device: the memory range each tensor
argument binds, and the element offset of its data in that range.

- Tensors in device memory (`triton_spirv.memory`) are bound in place.
- CPU tensors are imported once (VK_EXT_external_memory_host) and the import
  is kept while their storage lives (`HostImports`); a storage whose pages
  another live import already covers shares it.
- Devices without host import (or TRITON_SPIRV_STAGING=1) stage every storage
  through mapped device memory for each launch (`StagedStorages`).
"""

from __future__ import annotations

import ctypes
import weakref
from typing import Any

from .. import vulkan

__all__ = ["HostImports", "StagedStorages", "Region", "binding_range"]

# (start address, size in bytes) of a range the runtime binds.
Region = tuple[int, int]


def binding_range(region: Region, start: int, nbytes: int, alignment: int) -> Region:
    """The part of `region` that a storage of `nbytes` at `start` binds: from
    `start` rounded down to the device's storage-buffer offset alignment
    (within the region) to the storage's end rounded up to 4 bytes."""
    base, size = region
    first = base + (start - base) // alignment * alignment
    end = min(base + size, start + (nbytes + 3) // 4 * 4)
    return first, max(end - first, 4)


class _Import:
    """One host range imported for as long as a storage in it lives."""

    __slots__ = ("base", "size", "handle", "owners", "count")

    def __init__(self, base: int, size: int, handle: Any) -> None:
        self.base, self.size, self.handle = base, size, handle
        self.owners: weakref.WeakSet[Any] = weakref.WeakSet()
        self.count = 0  # live owners (the WeakSet forgets them lazily)


class HostImports:
    """CPU tensor storages imported once and kept while they live, keyed by
    the first page of their range. Correctness never depends on this cache:
    a binding the runtime finds no import for is imported for that launch."""

    # Drivers cap the number of live Vulkan allocations (4096 on NVIDIA).
    MAX_IMPORTS = 1024

    def __init__(self, device: vulkan.Device) -> None:
        self.device = device
        self.alignment = device.properties.host_import_alignment
        self._imports: dict[int, _Import] = {}

    def region(self, storage: Any, start: int, nbytes: int) -> Region:
        """The imported range that holds the storage, importing it if needed.
        A storage that starts in the first page of a smaller import replaces
        it with its own, larger one: the runtime keeps one import per start
        address (and waits for launches in flight on the one it frees), and
        the smaller storages fit in the larger import."""
        mask = self.alignment - 1
        base = start & ~mask
        end = (start + max(nbytes, 1) + mask) & ~mask
        entry = self._imports.get(base)
        if entry is not None:
            if end > entry.base + entry.size:
                self._drop(base, entry)
            else:
                if storage not in entry.owners:
                    self._own(storage, entry)
                return entry.base, entry.size
        if len(self._imports) >= self.MAX_IMPORTS:
            oldest = next(iter(self._imports))
            self._drop(oldest, self._imports[oldest])
        entry = _Import(base, end - base, self.device.import_host(base, end - base))
        self._imports[base] = entry
        self._own(storage, entry)
        return base, entry.size

    def _own(self, storage: Any, entry: _Import) -> None:
        entry.owners.add(storage)
        entry.count += 1
        weakref.finalize(storage, self._owner_gone, entry)

    def _owner_gone(self, entry: _Import) -> None:
        entry.count -= 1
        if entry.count == 0 and self._imports.get(entry.base) is entry:
            self._drop(entry.base, entry)

    def _drop(self, base: int, entry: _Import) -> None:
        del self._imports[base]
        entry.count = 0
        # The runtime waits for the launch in flight if it binds the import.
        self.device.free(entry.base, entry.handle)


class StagedStorages:
    """One launch's tensor storages copied into mapped device memory, once per
    storage (so arguments sharing a storage still alias), and copied back
    when the launch has finished."""

    def __init__(self, device: vulkan.Device) -> None:
        self.device = device
        # storage start -> (staged address, allocation handle, size)
        self._staged: dict[int, tuple[int, Any, int]] = {}

    def region(self, start: int, nbytes: int) -> Region:
        if start not in self._staged:
            address, handle = self.device.allocate(max(nbytes, 4))
            ctypes.memmove(address, start, nbytes)
            self._staged[start] = (address, handle, nbytes)
        address, _, _ = self._staged[start]
        return address, max(nbytes, 4)

    def finish(self, copy_back: bool = True) -> None:
        """Copies the storages back (unless the launch was abandoned) and
        frees the staging memory."""
        for start, (address, handle, size) in self._staged.items():
            if copy_back:
                ctypes.memmove(start, address, size)
            self.device.free(address, handle)
        self._staged.clear()
