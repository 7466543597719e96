"""`python -m triton_spirv.run script.py [args...]`: run a Triton program with the
SPIR-V backend active, also where another backend (CUDA) would be chosen."""

from __future__ import annotations

import os
import runpy
import sys


def chosen_by_environment() -> bool:
    """Whether TRITON_DEFAULT_BACKEND=spirv asks for this backend (Triton 3.7
    and later read it to choose among active drivers): then its driver is
    active, and the spirv torch device loads, also next to CUDA or ROCm."""
    return os.environ.get("TRITON_DEFAULT_BACKEND") == "spirv"


def activate() -> None:
    """Make the SPIR-V driver Triton's active driver in this process, and
    `spirv` a torch device (torch loads it by itself where CUDA is absent)."""
    from triton.runtime import driver

    from . import torch_device
    from .backend.driver import SPIRVDriver
    driver.set_active(SPIRVDriver())
    torch_device.try_register()


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python -m triton_spirv.run script.py [args...]")
    activate()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
