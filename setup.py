"""Builds the C++ parts (triton-spirv-opt, the Vulkan runtime, the spirv torch
device where torch is installed) with CMake and
puts them inside the package (triton_spirv/_bin), so an installed wheel needs
no build tree. Metadata lives in pyproject.toml.

An editable install (`pip install -e .`, what scripts/setup.sh does) skips
this: the package then finds the binaries in the checkout's build tree.
TRITON_SPIRV_BUILD_DIR picks the CMake build directory (default: build/),
TRITON_SPIRV_JOBS the parallelism (default: 2)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parent
BINARIES = (("bin", "triton-spirv-opt"), ("lib", "libtriton_spirv_runtime.so"))
# Built against the installed torch's headers; left out where torch is not.
TORCH_DEVICE = ("lib", "libtriton_spirv_torch.so")


class BuildWithNativeParts(build_py):

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        build_dir = ROOT / os.environ.get("TRITON_SPIRV_BUILD_DIR", "build")
        if not (build_dir / "build.ninja").exists():
            for tool in ("cmake", "ninja"):
                if shutil.which(tool) is None:
                    raise RuntimeError(f"building triton-spirv needs {tool}: run scripts/setup.sh, "
                                       "which installs it and LLVM/MLIR 22")
            launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-G", "Ninja",
                            "-DCMAKE_BUILD_TYPE=Release", "-DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir",
                            "-DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit", *launcher], check=True)
        binaries = list(BINARIES)
        targets = ["triton-spirv-opt", "triton_spirv_runtime"]
        if "triton_spirv_torch" in (build_dir / "build.ninja").read_text():
            binaries.append(TORCH_DEVICE)
            targets.append("triton_spirv_torch")
        subprocess.run(["ninja", "-C", str(build_dir), f"-j{os.environ.get('TRITON_SPIRV_JOBS', '2')}",
                        *targets], check=True)
        target = Path(self.build_lib) / "triton_spirv" / "_bin"
        target.mkdir(parents=True, exist_ok=True)
        for folder, name in binaries:
            shutil.copy2(build_dir / folder / name, target / name)
        # The static tool carries its symbol table; the wheel does not need it.
        if shutil.which("strip"):
            subprocess.run(["strip", str(target / "triton-spirv-opt")], check=True)


class PlatformDistribution(Distribution):
    """The wheel holds Linux x86-64 binaries: it is not pure Python."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    """The binaries are reached through subprocess and ctypes, not Python's C
    API: any Python 3, this platform."""

    def get_tag(self) -> tuple[str, str, str]:
        return "py3", "none", super().get_tag()[2]


setup(cmdclass={"build_py": BuildWithNativeParts, "bdist_wheel": PlatformWheel},
      distclass=PlatformDistribution,
      # Not build/, which is the CMake build directory.
      options={"build": {"build_base": "build/python-package"}})
