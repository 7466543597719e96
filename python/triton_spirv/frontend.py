"""What Triton's front end needs from a backend: codegen hooks, the libdevice module
map and the TTIR pass list. Imports nothing of `triton.compiler`/`triton.runtime`,
since Triton imports the backend while those are being initialized."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from triton._C.libtriton import ir, passes

__all__ = ["codegen_fns", "module_map", "run_ttir_passes"]


def _min_dot_size(lhs_type: Any, rhs_type: Any) -> tuple[int, int, int]:
    """Smallest (M, N, K) accepted by tl.dot; same bounds as Triton's CUDA backend,
    so a kernel that compiles for CUDA compiles here and vice versa."""
    return (1, 1, 32) if lhs_type.scalar.primitive_bitwidth == 8 else (1, 1, 16)


def codegen_fns() -> dict[str, Callable[..., Any]]:
    # No "convert_custom_types": it only serves fp8e4b15, which we do not support.
    return {"min_dot_size": _min_dot_size}


def module_map() -> dict[str, ModuleType]:
    """Route the portable `triton.language.extra.libdevice` stubs to the CUDA libdevice
    wrappers, which only name functions (`__nv_expf`, ...) as tt.extern_elementwise
    symbols; the SPIR-V lowering maps those names to its own implementations."""
    from triton.language.extra.cuda import libdevice

    return {"triton.language.extra.libdevice": libdevice}


def run_ttir_passes(module: Any) -> None:
    """Triton's TTIR pipeline, as the NVIDIA backend's make_ttir runs it, in place.
    Tensor descriptors are always lowered to plain pointers (CUDA keeps them for
    TMA on sm_90+; SPIR-V has no TMA)."""
    pm = ir.pass_manager(module.context)
    pm.enable_debug()  # honours Triton's MLIR_ENABLE_DUMP & co. for debugging
    passes.common.add_inliner(pm)
    passes.ttir.add_rewrite_tensor_pointer(pm)
    passes.ttir.add_rewrite_tensor_descriptor_to_pointer(pm)
    passes.common.add_canonicalizer(pm)
    passes.ttir.add_combine(pm)
    passes.ttir.add_reorder_broadcast(pm)
    passes.common.add_cse(pm)
    passes.common.add_symbol_dce(pm)
    passes.ttir.add_loop_unroll(pm)
    pm.run(module, "make_ttir")


