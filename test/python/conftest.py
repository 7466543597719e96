"""Shared fixtures: the built triton-spirv-opt and import paths for the
in-repo Python package and the TTIR corpus. Kernels run with the Vulkan
validation layer on: its errors fail the launch."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "test"))
os.environ.setdefault("TRITON_SPIRV_VALIDATION", "1")
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
# Most kernel tests here launch on plain CPU tensors, imported for each
# launch (the import paths are what many of them test). Kernels refuse
# pageable CPU tensors by default, as on CUDA: test_host_tensors.py checks
# that rule without this setting.
os.environ.setdefault("TRITON_SPIRV_HOST_TENSORS", "1")


def pytest_configure(config: pytest.Config) -> None:
    # Kernels run through this backend also where CUDA is Triton's default
    # (the GPU machine), in pytest-xdist's workers too.
    from triton_spirv.run import activate
    activate()


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def tool() -> Path:
    from triton_spirv._paths import tool_path
    try:
        return tool_path()
    except FileNotFoundError as error:
        pytest.fail(str(error))
