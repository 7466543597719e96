"""The driver of the `cpu` backend: the SPIR-V driver, made active by Inductor
when it compiles kernels for CPU tensors."""

from __future__ import annotations

from ..backend import driver as spirv_driver


class InductorCPUDriver(spirv_driver.SPIRVDriver):

    @classmethod
    def is_active(cls) -> bool:
        # Never Triton's default driver: the `spirv` backend's driver is that,
        # where it is active at all; two active drivers are an error.
        return False
