"""SPIR-V shaders written by hand (as MLIR's spirv dialect), run through this
project's Vulkan runtime without Triton: what the device's ceilings and
limits are measured with, where this compiler's code generation must not be
in the way. `triton-spirv-opt --triton-spirv-write-binary` serializes them
(the module carries a `triton_spirv.abi` dictionary, which only has to
exist)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from kernel_benchmark import MAX_WARMUP_CALLS, MEASURED_CALLS, STEADY, STEADY_CALLS


def serialize(mlir: str) -> bytes:
    """The SPIR-V binary of `mlir`, a module holding one spirv.module."""
    from triton_spirv import _paths

    with tempfile.TemporaryDirectory() as scratch:
        source, binary = Path(scratch) / "shader.mlir", Path(scratch) / "shader.spv"
        source.write_text(mlir)
        subprocess.run([str(_paths.tool_path()), str(source), f"--triton-spirv-write-binary=output={binary}",
                        "-o", os.devnull], check=True)
        return binary.read_bytes()


class Buffer:
    """Device memory the host maps, bound whole as one storage buffer."""

    def __init__(self, device: Any, nbytes: int) -> None:
        self.device = device
        self.size = -(-nbytes // 65536) * 65536  # whole pages of any import alignment
        self.address, self.handle = device.allocate(self.size)

    def write(self, data: bytes) -> None:
        ctypes.memmove(self.address, data, len(data))

    def read(self, nbytes: int) -> bytes:
        return ctypes.string_at(self.address, nbytes)

    def free(self) -> None:
        self.device.free(self.address, self.handle)


def steady_launch_times(kernel: Any, grid: tuple[int, int, int], buffers: list[Buffer], constants: bytes,
                        program_id_offset: int, launches: int = 20) -> list[float]:
    """Milliseconds per launch of `kernel`, from the runtime's GPU timestamps,
    over `launches` launches in a row, once three such measurements agree (as
    kernel_benchmark.py's steady state), MEASURED_CALLS times; the launches
    are done when it returns. The runtime writes the first workgroup's id at
    `program_id_offset` in `constants`."""
    from triton_spirv import vulkan

    device = kernel.device
    device.enable_timing()
    bindings = vulkan.binding_struct(len(buffers)).pack(*(f for b in buffers for f in (b.address, b.size)))
    packed_grid = vulkan.GRID.pack(*grid)

    def measure() -> float:
        first = last = kernel.run(False, packed_grid, bindings, len(buffers), constants, program_id_offset)
        for _ in range(launches - 1):
            last = kernel.run(False, packed_grid, bindings, len(buffers), constants, program_id_offset)
        return device.elapsed_between(first - 1, last) / 1e6 / launches

    recent: list[float] = []
    for _ in range(MAX_WARMUP_CALLS):
        recent = (recent + [measure()])[-STEADY_CALLS:]
        if len(recent) == STEADY_CALLS and max(recent) <= (1 + STEADY) * min(recent):
            break
    times = [measure() for _ in range(MEASURED_CALLS)]
    device.synchronize()
    return times
