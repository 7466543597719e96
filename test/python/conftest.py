"""Shared fixtures: the built triton-spirv-opt and import paths for the
in-repo Python package and the TTIR corpus."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "test"))


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def tool() -> Path:
    build_dir = Path(os.environ.get("TRITON_SPIRV_BUILD_DIR", REPO / "build"))
    path = build_dir / "bin" / "triton-spirv-opt"
    if not path.exists():
        pytest.fail(f"{path} is missing: run scripts/setup.sh first")
    return path
