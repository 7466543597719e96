"""Where the compiled parts live: inside the package once installed, in the
CMake build tree when running from a checkout; environment variables win."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# The checkout's build tree: scripts/setup.sh builds in TRITON_SPIRV_BUILD_DIR
# (relative to the checkout) or build/.
_BUILD = _PACKAGE.parent.parent / os.environ.get("TRITON_SPIRV_BUILD_DIR", "build")


def _find(env: str, installed: Path, built: Path) -> Path:
    if os.environ.get(env):
        return Path(os.environ[env])
    for candidate in (installed, built):
        if candidate.exists():
            return candidate
    raise FileNotFoundError(
        f"{installed.name} not found (looked in {installed.parent} and {built.parent}); "
        f"build the project (scripts/setup.sh) or set {env}")


def tool_path() -> Path:
    """triton-spirv-opt."""
    return _find("TRITON_SPIRV_OPT", _PACKAGE / "_bin" / "triton-spirv-opt",
                 _BUILD / "bin" / "triton-spirv-opt")


def runtime_library_path() -> Path:
    """The Vulkan runtime (C API, see runtime/triton_spirv_runtime.h)."""
    return _find("TRITON_SPIRV_RUNTIME", _PACKAGE / "_bin" / "libtriton_spirv_runtime.so",
                 _BUILD / "lib" / "libtriton_spirv_runtime.so")


def torch_device_library_path() -> Path:
    """The spirv torch device (runtime/torch), built for the installed torch."""
    return _find("TRITON_SPIRV_TORCH_LIBRARY", _PACKAGE / "_bin" / "libtriton_spirv_torch.so",
                 _BUILD / "lib" / "libtriton_spirv_torch.so")
