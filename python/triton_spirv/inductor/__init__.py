"""torch.compile through SPIR-V. Inductor, with `cpu_backend = "triton"`,
writes Triton kernels for CPU tensors, compiles them for a
`GPUTarget("cpu", ...)` and asks Triton for the backend named `cpu`. This
package is that backend (entry point `cpu`): the SPIR-V backend, retargeted to
the active Vulkan device. Registering it as an entry point, not at run time,
makes it visible to Inductor's compile worker processes too.

Kept free of torch imports: Triton imports this package when it discovers
its backends."""

from __future__ import annotations

__all__ = ["enable_torch_compile"]


def enable_torch_compile() -> None:
    """Makes torch.compile generate Triton kernels for CPU tensors and compile
    and launch them through SPIR-V on the active Vulkan device."""
    import torch._inductor.config as inductor_config
    import triton.backends

    from .compiler import InductorCPUBackend
    registered = triton.backends.backends.get("cpu")
    if registered is None:
        raise RuntimeError("Triton has no backend named 'cpu': install triton-spirv with its entry "
                           "points (scripts/setup.sh, or pip install .)")
    if registered.compiler is not InductorCPUBackend:
        raise RuntimeError(f"Triton's 'cpu' backend is {registered.compiler.__module__}, not "
                           "triton-spirv's: uninstall it to run torch.compile's CPU kernels "
                           "through SPIR-V")
    inductor_config.cpu_backend = "triton"
    # With mode="max-autotune", Inductor benchmarks fusing epilogues into its
    # matmul templates through a module it writes for the purpose, whose
    # imports torch 2.13 indents wrongly for CPU devices (the module does not
    # load). The templates themselves, and their autotuning, are unaffected.
    inductor_config.benchmark_epilogue_fusion = False
