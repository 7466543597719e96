"""Compiler half of the backend: Triton's TTIR passes, then triton-spirv-opt."""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import hashlib
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from triton.backends.compiler import BaseBackend, GPUTarget, Language

from .._paths import tool_path
from ..frontend import codegen_fns, module_map, run_ttir_passes
from ..options import SPIRVOptions
from ..versions import check_triton
from .arch import Arch

__all__ = ["SPIRVBackend", "SPIRVCompilationError", "Float64InFloat32Error", "refuse_float64_in_float32"]


class SPIRVCompilationError(RuntimeError):
    """triton-spirv-opt rejected the kernel; the message is its diagnostic, which
    names the op and the kernel's Python source line."""


class Float64InFloat32Error(SPIRVCompilationError):
    """The kernel computes float64 values to float32's precision
    (`float64_in_float32`) where `refuse_float64_in_float32` is set."""


# Set by the spirv device's operators while a library kernel serves them:
# where such a kernel computes float64 tensors in float32 (FlagGems' math
# functions do), it is refused, so that the operator answers in float64 on
# the CPU instead of silently to float32's precision. Kernels users write
# are compiled as they are.
refuse_float64_in_float32: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "refuse_float64_in_float32", default=False)

_NARROWS_FLOAT64 = re.compile(r"arith\.truncf [^\n]*: (?:tensor<(?:\d+x)*)?f64>? to (?:tensor<(?:\d+x)*)?f32\b")
_WIDENS_TO_FLOAT64 = re.compile(r"arith\.extf [^\n]*: (?:tensor<(?:\d+x)*)?f32>? to (?:tensor<(?:\d+x)*)?f64\b")
_FLOAT32_ARGUMENT = re.compile(r"(%[\w$.-]+): f32\b")
_WIDENED_SCALAR = re.compile(r"arith\.extf (%[\w$.-]+) : f32 to f64\b")


def float64_in_float32(ttir: str) -> str | None:
    """How TTIR computes float64 values to float32's precision, or None: it
    narrows float64 values to float32 and widens float32 values back (a
    conversion one way alone is an operator's meaning), or it widens a
    float32 argument into float64 arithmetic."""
    if _NARROWS_FLOAT64.search(ttir) and _WIDENS_TO_FLOAT64.search(ttir):
        return "computes float64 values in float32"
    # A float32 scalar argument (a Python float, which Triton passes as
    # fp32) taken into float64 arithmetic.
    signature = next((line for line in ttir.splitlines() if "tt.func public" in line), "")
    if set(_FLOAT32_ARGUMENT.findall(signature)) & set(_WIDENED_SCALAR.findall(ttir)):
        return "takes a float32 scalar argument into float64 arithmetic"
    return None


_KERNEL_NAME = re.compile(r"tt\.func (?:public )?@([\w$.]+)")


@functools.lru_cache(maxsize=None)
def _compiler_hash() -> str:
    """The tool and the Python that decides what it is given (its options,
    the TTIR passes, the front end's hooks): Triton's cache key hashes only
    its own package."""
    digest = hashlib.sha256(tool_path().read_bytes())
    package = Path(__file__).resolve().parent.parent
    for source in ("backend/compiler.py", "backend/arch.py", "options.py", "ttir.py", "frontend.py"):
        digest.update((package / source).read_bytes())
    return digest.hexdigest()


def _workgroup_memory_overrun(diagnostics: Path) -> dict[str, Any] | None:
    """The data of the tool's workgroup-memory overrun (its --diagnostics-file
    records), if that is why it failed."""
    if not diagnostics.exists():
        return None
    for line in diagnostics.read_text().splitlines():
        data = json.loads(line).get("data") or {}
        if data.get("resource") == "workgroup-memory":
            return data
    return None


class SPIRVBackend(BaseBackend):
    binary_ext = "spv"

    def __init__(self, target: GPUTarget) -> None:
        check_triton()
        super().__init__(target)

    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        return target.backend == "spirv"

    def hash(self) -> str:
        return f"spirv-{self.target.arch}-{_compiler_hash()}"

    def parse_options(self, options: dict) -> SPIRVOptions:
        fields = {f.name for f in dataclasses.fields(SPIRVOptions)}
        values = {k: v for k, v in options.items() if k in fields and v is not None}
        values["arch"] = self.target.arch
        values["refuse_float64_in_float32"] = refuse_float64_in_float32.get()
        if values.get("num_ctas", 1) != 1:
            raise ValueError("num_ctas > 1 is not supported by the SPIR-V backend")
        return SPIRVOptions(**values)

    def pack_metadata(self, metadata: Any) -> tuple:
        return (metadata.num_warps, metadata.num_ctas, metadata.shared)

    def get_codegen_implementation(self, options: SPIRVOptions) -> dict:
        return codegen_fns()

    def get_module_map(self) -> dict[str, ModuleType]:
        return module_map()

    def load_dialects(self, context: Any) -> None:
        pass

    def add_stages(self, stages: dict, options: SPIRVOptions, language: Language = Language.TRITON) -> None:
        if language != Language.TRITON:
            raise ValueError("the SPIR-V backend compiles Triton kernels only (not Gluon)")
        stages["ttir"] = lambda src, metadata: self.make_ttir(src, metadata, options)
        stages["spv"] = lambda src, metadata: self.make_spv(src, metadata, options)

    @staticmethod
    def make_ttir(mod: Any, metadata: dict, options: SPIRVOptions) -> Any:
        run_ttir_passes(mod)
        if options.refuse_float64_in_float32:
            text = str(mod)
            how = float64_in_float32(text)
            if how:
                kernel = _KERNEL_NAME.search(text)
                raise Float64InFloat32Error(f"{kernel.group(1) if kernel else 'the kernel'} {how}")
        return mod

    @staticmethod
    def make_spv(mod: Any, metadata: dict, options: SPIRVOptions) -> bytes:
        with tempfile.TemporaryDirectory(prefix="triton-spirv-") as workdir:
            source = Path(workdir) / "kernel.ttir"
            binary = Path(workdir) / "kernel.spv"
            diagnostics = Path(workdir) / "diagnostics.jsonl"
            # Locations stay in the text so that diagnostics name Python lines.
            text = str(mod)
            source.write_text(text)
            pipeline = (f"--triton-to-spirv={Arch.parse(options.arch).pipeline_options()} "
                        f"num-warps={options.num_warps} fp-fusion={int(options.enable_fp_fusion)} "
                        f"bounds-checks={int(options.bounds_checks)} output={binary}")
            if options.address_arguments:
                pipeline += f" address-arguments={','.join(map(str, options.address_arguments))}"
            seconds = float(os.environ.get("TRITON_SPIRV_COMPILE_TIMEOUT_S", "600"))
            try:
                # Diagnostics name the kernel's Python lines; the IR of the
                # op they are attached to (whole loops, whole kernels) would
                # bury them (run the tool by hand to see it).
                proc = subprocess.run([str(tool_path()), pipeline, "--mlir-print-op-on-diagnostic=false",
                                       f"--diagnostics-file={diagnostics}", str(source), "-o", "/dev/null"],
                                      capture_output=True, text=True, timeout=seconds)
            except subprocess.TimeoutExpired:
                kernel = _KERNEL_NAME.search(text)
                raise SPIRVCompilationError(
                    f"triton-spirv-opt did not finish compiling {kernel.group(1) if kernel else 'the kernel'} "
                    f"within {seconds:g} s (TRITON_SPIRV_COMPILE_TIMEOUT_S)") from None
            if proc.returncode != 0:
                overrun = _workgroup_memory_overrun(diagnostics)
                if overrun is not None:
                    # Imported here: triton.runtime imports the backends.
                    from triton.runtime.errors import OutOfResources
                    raise OutOfResources(overrun["needed"], overrun["limit"], "shared memory")
                raise SPIRVCompilationError(proc.stderr.strip())
            abi = json.loads((binary.parent / (binary.name + ".json")).read_text())
            spirv = binary.read_bytes()
        metadata["name"] = abi["entry_point"]
        metadata["shared"] = abi["workgroup_memory_bytes"]
        metadata["spirv_abi"] = abi
        return spirv
