"""Tables of addresses for kernels that read pointers from memory (as the
grouped-GEMM tutorial does: `tl.load(ptrs + g).to(tl.pointer_type(...))`).

Such a table holds host addresses (`tensor.data_ptr()`), and the kernel
loads through what it reads as Vulkan buffer device addresses. For each
launch, the launcher binds a copy of each table (the kernel metadata's
`address_tables`) with every nonzero host address replaced by the device
address of the same byte: memory the runtime allocated has one; other host
memory (an ordinary CPU tensor) is imported for the launch, the whole
mapping around the address, since a table says where a tensor starts but not
where it ends.
"""

from __future__ import annotations

import bisect
from typing import Any

import torch

from .. import memory, vulkan

__all__ = ["AddressTables"]


def _host_mappings() -> tuple[list[int], list[tuple[int, int, str]]]:
    """The process's memory mappings, sorted: their starts, and (start, end,
    permissions) of each."""
    mappings = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            span, permissions = line.split(maxsplit=2)[:2]
            start, end = span.split("-")
            mappings.append((int(start, 16), int(end, 16), permissions))
    mappings.sort()
    return [start for start, _, _ in mappings], mappings


class AddressTables:
    """The translated tables of one launch, and the host memory imported for
    it (freed by `finish`, once the launch is done)."""

    def __init__(self, device: vulkan.Device, kernel: str) -> None:
        self.device = device
        self.kernel = kernel
        self._imports: dict[int, Any] = {}  # handles by start address
        self._mappings: tuple[list[int], list[tuple[int, int, str]]] | None = None

    def translate(self, table: torch.Tensor, position: int) -> torch.Tensor:
        """A copy of `table` (64-bit integers: the kernel reads them as
        addresses) in device memory, holding device addresses."""
        addresses = table.view(torch.int64).reshape(-1).tolist()
        translated = [self._device_address(address & 0xFFFFFFFFFFFFFFFF, position, index)
                      if address else 0 for index, address in enumerate(addresses)]
        signed = [address - (1 << 64) if address >> 63 else address for address in translated]
        return memory.to_device(torch.tensor(signed, dtype=torch.int64).view(table.shape))

    def _device_address(self, address: int, position: int, index: int) -> int:
        # An allocation of the runtime holds all of a tensor that starts in
        # it. Other memory is imported whole, its mapping, once per launch:
        # an import kept from an earlier launch (of a tensor argument) may
        # hold where the tensor starts but not all of it. The runtime gives
        # the address in the range that reaches furthest.
        if self.device.allocation_holding(address) is None:
            start, end = self._mapping(address, position, index)
            alignment = self.device.properties.host_import_alignment
            start -= start % alignment
            end += -end % alignment
            if start not in self._imports:
                self._imports[start] = self.device.import_host(start, end - start)
        return self.device.device_address(address)

    def _mapping(self, address: int, position: int, index: int) -> tuple[int, int]:
        """The readable and writable host mapping that holds `address`."""
        if self._mappings is None:
            self._mappings = _host_mappings()
        starts, mappings = self._mappings
        found = bisect.bisect_right(starts, address) - 1
        if found >= 0:
            start, end, permissions = mappings[found]
            if address < end and permissions.startswith("rw"):
                if not self.device.properties.host_import_alignment:
                    raise ValueError(
                        f"{self.kernel} reads address {address:#x} from element {index} of "
                        f"argument {position}: host memory, which this Vulkan device cannot "
                        f"import (VK_EXT_external_memory_host); put the tensor in "
                        f"triton_spirv.memory")
                return start, end
        raise ValueError(f"{self.kernel} reads address {address:#x} from element {index} of "
                         f"argument {position}, which is not in host memory the process can "
                         f"write nor in memory the Vulkan runtime allocated; a table of "
                         f"addresses holds tensors' data_ptr() values (or 0)")

    def finish(self, copy_back: bool = True) -> None:
        """Frees the host memory imported for the launch (once it is done)."""
        for start, handle in self._imports.items():
            self.device.free(start, handle)
        self._imports.clear()
