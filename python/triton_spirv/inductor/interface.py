"""torch.compile on the spirv device, Dynamo's side: the device interface
(current device, streams, events, synchronize, device properties and the
compile target), registered once Dynamo's device_interface module is
imported (`triton_spirv.torch_device.register` hooks that import: Dynamo
takes seconds to import, which programs that never compile do not pay).
Inductor's side is `codegen`."""

from __future__ import annotations

from typing import Any

import torch
from torch._dynamo.device_interface import DeviceInterface, register_interface_for_device

__all__ = ["SpirvInterface", "get_raw_stream", "register_interface"]

DEVICE_TYPE = "spirv"


def get_raw_stream(device_index: int) -> int:
    """The generated wrapper's stream handle: every stream is the device's
    one queue, which the launcher submits to."""
    return 0


class SpirvInterface(DeviceInterface):
    device = torch.spirv.device  # type: ignore[attr-defined]
    Event = torch.Event  # the accelerator's: spirv's where it is registered
    Stream = torch.spirv.Stream  # type: ignore[attr-defined]

    class Worker:
        """What Inductor's compile workers ask (without initialising the
        device where they can)."""

        _current = 0

        @staticmethod
        def set_device(device: int) -> None:
            SpirvInterface.Worker._current = device

        @staticmethod
        def current_device() -> int:
            return SpirvInterface.Worker._current

        @staticmethod
        def get_device_properties(device: torch.types.Device = None) -> Any:
            return torch.spirv.get_device_properties(device)  # type: ignore[attr-defined]

    @staticmethod
    def current_device() -> int:
        return torch.spirv.current_device()  # type: ignore[attr-defined]

    @staticmethod
    def set_device(device: torch.types.Device) -> None:
        torch.spirv.set_device(device)  # type: ignore[attr-defined]

    @staticmethod
    def maybe_exchange_device(device: int) -> int:
        previous = torch.spirv.current_device()  # type: ignore[attr-defined]
        if device >= 0 and device != previous:
            torch.spirv.set_device(device)  # type: ignore[attr-defined]
        return previous

    @staticmethod
    def exchange_device(device: int) -> int:
        return SpirvInterface.maybe_exchange_device(device)

    @staticmethod
    def device_count() -> int:
        return torch.spirv.device_count()  # type: ignore[attr-defined]

    @staticmethod
    def is_available() -> bool:
        return torch.spirv.is_available()  # type: ignore[attr-defined]

    @staticmethod
    def stream(stream: torch.Stream) -> Any:
        return torch.spirv.stream(stream)  # type: ignore[attr-defined]

    @staticmethod
    def current_stream() -> torch.Stream:
        return torch.spirv.current_stream()  # type: ignore[attr-defined]

    @staticmethod
    def set_stream(stream: torch.Stream) -> None:
        pass

    @staticmethod
    def _set_stream_by_id(stream_id: int, device_index: int, device_type: int) -> None:
        pass

    @staticmethod
    def get_raw_stream(device_idx: int) -> int:
        return get_raw_stream(device_idx)

    @staticmethod
    def synchronize(device: torch.types.Device = None) -> None:
        torch.spirv.synchronize(device)  # type: ignore[attr-defined]

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> str:
        """The Triton target's arch (Inductor compiles for
        GPUTarget("spirv", this, 32)): the device's preset and limits."""
        from ..backend.arch import device_target
        index = torch.spirv._index(device)  # type: ignore[attr-defined]
        return device_target(index).arch

    @staticmethod
    def is_bf16_supported(including_emulation: bool = False) -> bool:
        return True

    @staticmethod
    def memory_allocated(device: torch.types.Device = None) -> int:
        return torch.spirv.memory_allocated(device)  # type: ignore[attr-defined]

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return True


def register_interface() -> None:
    """Dynamo's device interface for spirv (idempotent)."""
    for name in (DEVICE_TYPE, f"{DEVICE_TYPE}:0"):
        register_interface_for_device(name, SpirvInterface)
