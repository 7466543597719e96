"""torch.compile on the spirv device, Inductor's side: Inductor writes Triton
kernels for spirv tensors (its GPU path: buffers, intermediates and
gradients allocated on the device) and this backend compiles and launches
them. Inductor takes an out-of-tree device's scheduling and wrapper classes
from its torch module (`torch.spirv.Scheduling`, ...: `register_codegen`
gives them, on first lookup); the wrapper's device operations are
registered, and "spirv" is made one of Inductor's GPU types, so that it
takes its GPU path. Nothing in torch's files is changed."""

from __future__ import annotations

import warnings
from typing import Any

import torch

__all__ = ["register_codegen"]

DEVICE_TYPE = "spirv"


def _benchmark(benchmarker: Any, function: Any, warmup: int, rep: int, **kwargs: Any) -> float:
    from torch._inductor.runtime.benchmarking import TritonBenchmarker
    return TritonBenchmarker.benchmark_gpu(benchmarker, function, warmup=warmup, rep=rep, **kwargs)


def register_codegen() -> dict[str, Any]:
    """Inductor's code generation for the device: the wrapper's device
    operations registered, "spirv" made one of Inductor's GPU types; returns
    the classes Inductor takes from the torch.spirv module."""
    from torch._inductor import utils as inductor_utils
    from torch._inductor.codegen.common import DeviceOpOverrides, register_device_op_overrides
    from torch._inductor.codegen.cpp_wrapper_gpu import CppWrapperGpu
    from torch._inductor.codegen.triton import TritonScheduling
    from torch._inductor.codegen.wrapper import PythonWrapperCodegen
    from torch._inductor.codegen.wrapper_fxir import WrapperFxCodegen

    class SpirvDeviceOpOverrides(DeviceOpOverrides):
        def import_get_raw_stream_as(self, name: str) -> str:
            return f"from triton_spirv.inductor.interface import get_raw_stream as {name}"

        def set_device(self, device_idx: int) -> str:
            return f"torch.spirv.set_device({device_idx})"

        def synchronize(self) -> str:
            return "torch.spirv.synchronize()"

        def device_guard(self, device_idx: int) -> str:
            return f"torch.spirv.device({device_idx})"

        def current_stream(self) -> str:
            return "torch.spirv.current_stream()"

    if torch.cuda.is_available():
        # Inductor asserts that one GPU type is available per process.
        warnings.warn("triton-spirv: torch.compile of spirv tensors needs CUDA hidden from this "
                      "process (CUDA_VISIBLE_DEVICES=): Inductor takes one GPU type per process",
                      RuntimeWarning, stacklevel=2)
        return {}
    register_device_op_overrides(DEVICE_TYPE, SpirvDeviceOpOverrides())
    # Autotuning times configurations with Triton's do_bench (the device's
    # events), not with CUDA's. Torch before 2.13 has no such registry: it
    # times them with do_bench where CUDA is absent, with CUDA's events (which
    # do not see this device's work) where it is present.
    from torch._inductor.runtime import benchmarking
    register = getattr(benchmarking, "register_benchmarker", None)
    if register is not None and DEVICE_TYPE not in benchmarking._BENCHMARK_DISPATCH:
        register(DEVICE_TYPE, _benchmark)
    if DEVICE_TYPE not in inductor_utils.GPU_TYPES:
        inductor_utils.GPU_TYPES.append(DEVICE_TYPE)
    from .templates import register_matmul_templates
    register_matmul_templates()
    return {"Scheduling": TritonScheduling, "PythonWrapperCodegen": PythonWrapperCodegen,
            "CppWrapperCodegen": CppWrapperGpu, "WrapperFxCodegen": WrapperFxCodegen}
