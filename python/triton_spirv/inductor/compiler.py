"""The compiler of the `cpu` backend: the SPIR-V compiler for Inductor's CPU
target."""

from __future__ import annotations

import dataclasses

from triton.backends.compiler import GPUTarget

# Modules, not classes: Triton takes the one concrete backend class it finds
# in this module's namespace.
from ..backend import compiler as spirv_compiler
from ..backend import driver as spirv_driver


class InductorCPUBackend(spirv_compiler.SPIRVBackend):

    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        return target.backend == "cpu"

    def __init__(self, target: GPUTarget) -> None:
        super().__init__(target)
        # Inductor's arch describes the host CPU; the code is for the Vulkan
        # device (and cached under its arch).
        self.target = spirv_driver.device_target()

    def parse_options(self, options: dict) -> spirv_compiler.SPIRVOptions:
        # Inductor's CPU kernels are written for CPU tensors.
        return dataclasses.replace(super().parse_options(options), pageable_host_tensors=True)
