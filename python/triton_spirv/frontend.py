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


def _convert_fp8e4b15(arg: Any, dst_ty: Any, fp_downcast_rounding: Any = None, _semantic: Any = None) -> Any:
    """Conversions to and from float8e4b15 (1 sign, 4 exponent bits with bias 15,
    3 mantissa bits; an i8 in the IR), the hook Triton's front end calls for them.
    Same results as Triton's CUDA backend: fp16 has the same exponent bias, so an
    fp8e4b15 is an fp16 with 7 more mantissa bits; narrowing clamps magnitudes to
    1.75, rounds the dropped bits half up, and goes through fp16 rounded toward zero."""
    import triton.language as tl

    sem = _semantic
    src = arg.type.scalar
    if src.is_fp8e4b15():
        byte = sem.cast(tl.tensor(arg.handle, arg.type.with_element_ty(tl.uint8)), tl.int32)
        sign = sem.shl(sem.and_(byte, sem.to_tensor(0x80)), sem.to_tensor(8))
        magnitude = sem.shl(sem.and_(byte, sem.to_tensor(0x7F)), sem.to_tensor(7))
        half = sem.bitcast(sem.cast(sem.or_(sign, magnitude), tl.int16), tl.float16)
        return half if dst_ty.scalar.is_fp16() else sem.cast(half, dst_ty.scalar)
    if not src.is_floating():
        raise ValueError(f"cannot convert {src} to float8e4b15: convert it to float16 or float32 first")
    half = arg if src.is_fp16() else sem.cast(arg, tl.float16, fp_downcast_rounding="rtz")
    bits = sem.cast(sem.bitcast(half, tl.uint16), tl.int32)
    magnitude = sem.minimum(sem.and_(bits, sem.to_tensor(0x7FFF)), sem.to_tensor(0x3F00),
                            tl.PropagateNan.NONE)
    rounded = sem.lshr(sem.add(magnitude, sem.to_tensor(0x40), True), sem.to_tensor(7))
    byte = sem.or_(sem.and_(sem.lshr(bits, sem.to_tensor(8)), sem.to_tensor(0x80)), rounded)
    narrowed = sem.cast(byte, tl.uint8)
    return tl.tensor(narrowed.handle, narrowed.type.with_element_ty(tl.float8e4b15))


def codegen_fns() -> dict[str, Callable[..., Any]]:
    return {"min_dot_size": _min_dot_size, "convert_custom_types": _convert_fp8e4b15}


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
    # Triton 3.8 and later rewrite block pointers in the front end and have
    # no such pass.
    if hasattr(passes.ttir, "add_rewrite_tensor_pointer"):
        passes.ttir.add_rewrite_tensor_pointer(pm)
    passes.ttir.add_rewrite_tensor_descriptor_to_pointer(pm)
    passes.common.add_canonicalizer(pm)
    passes.ttir.add_combine(pm)
    passes.ttir.add_reorder_broadcast(pm)
    passes.common.add_cse(pm)
    passes.common.add_symbol_dce(pm)
    passes.ttir.add_loop_unroll(pm)
    pm.run(module, "make_ttir")


