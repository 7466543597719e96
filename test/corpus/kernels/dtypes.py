"""Every Triton scalar type: one arithmetic kernel instantiated per dtype, a bool
logic kernel, and a conversion kernel instantiated per (source, destination) pair."""

from __future__ import annotations

from typing import Callable

import torch
import triton
import triton.language as tl

from ..case import TORCH_DTYPES, TRITON_VERSION, Args, Case, cdiv, rand_floats, rand_ints


@triton.jit
def dtype_arith_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside, other=0)
    y = tl.load(y_ptr + offsets, mask=inside, other=1)
    # |x - y| without negative intermediates (valid for unsigned types), plus x * y.
    distance = tl.maximum(x, y) - tl.minimum(x, y)
    tl.store(out_ptr + offsets, distance + x * y, mask=inside)


@triton.jit
def bool_logic_kernel(a_ptr, b_ptr, c_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    a = tl.load(a_ptr + offsets, mask=inside, other=False)
    b = tl.load(b_ptr + offsets, mask=inside, other=False)
    c = tl.load(c_ptr + offsets, mask=inside, other=True)
    mixed = (a & ~b) | (b ^ c)
    tl.store(out_ptr + offsets, tl.where(a, mixed, c == b), mask=inside)


@triton.jit
def convert_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    value = tl.load(src_ptr + offsets, mask=inside)
    tl.store(dst_ptr + offsets, value.to(dst_ptr.dtype.element_ty), mask=inside)


_N, _BLOCK = 300, 128

def _sample(gen: torch.Generator, ty: str) -> torch.Tensor:
    """Small values: products and sums stay in range for every integer type."""
    dtype = TORCH_DTYPES[ty]
    if ty == "i1":
        return rand_ints(gen, (_N, ), torch.int64, 0, 2).to(torch.bool)
    if ty.startswith("u"):
        return rand_ints(gen, (_N, ), dtype, 0, 11)
    if ty.startswith("i"):
        return rand_ints(gen, (_N, ), dtype, -5, 6)
    return rand_floats(gen, (_N, ), dtype, -4.0, 4.0)


def _arith_reference(a: Args) -> dict[str, torch.Tensor]:
    dtype = a["out_ptr"].dtype
    # Unsigned types lack torch arithmetic: compute in a wide type and convert back.
    wide = torch.float64 if dtype.is_floating_point else torch.int64
    x, y = a["x_ptr"].to(wide), a["y_ptr"].to(wide)
    if dtype.is_floating_point:
        # Round each step to the kernel's type, as the kernel does; for bf16,
        # Triton 3.6 to 3.8 compute maximum/minimum (and so the distance) in
        # fp32, 3.9 in bf16.
        def rnd(t: torch.Tensor) -> torch.Tensor:
            return t.to(dtype).to(wide)
        distance = torch.maximum(x, y) - torch.minimum(x, y)
        if dtype != torch.bfloat16 or TRITON_VERSION >= (3, 9):
            distance = rnd(distance)
        out = rnd(distance + rnd(x * y))
    else:
        out = (torch.maximum(x, y) - torch.minimum(x, y)) + x * y
    return {"out_ptr": out.to(dtype)}


def _arith_case(ty: str) -> Case:
    dtype = TORCH_DTYPES[ty]
    ptr = "*" + ty
    tol = {"fp16": 1e-3, "bf16": 1e-2}.get(ty, 1e-6)
    return Case(
        name=f"dtype_arith_{ty}",
        kernel=dtype_arith_kernel,
        signature={"x_ptr": ptr, "y_ptr": ptr, "out_ptr": ptr, "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=lambda gen: {"x_ptr": _sample(gen, ty), "y_ptr": _sample(gen, ty),
                               "out_ptr": torch.zeros(_N, dtype=dtype), "n": _N},
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_arith_reference,
        # The reference rounds x * y before adding it.
        enable_fp_fusion=False,
        atol=tol,
        rtol=tol,
    )


def _bool_args(gen: torch.Generator) -> Args:
    return {"a_ptr": _sample(gen, "i1"), "b_ptr": _sample(gen, "i1"), "c_ptr": _sample(gen, "i1"),
            "out_ptr": torch.zeros(_N, dtype=torch.bool), "n": _N}


def _bool_reference(a: Args) -> dict[str, torch.Tensor]:
    x, y, z = a["a_ptr"], a["b_ptr"], a["c_ptr"]
    mixed = (x & ~y) | (y ^ z)
    return {"out_ptr": torch.where(x, mixed, z == y)}


def _convert_case(src: str, dst: str, sample: Callable[[torch.Generator], torch.Tensor]) -> Case:
    return Case(
        name=f"convert_{src}_to_{dst}",
        kernel=convert_kernel,
        signature={"src_ptr": "*" + src, "dst_ptr": "*" + dst, "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=lambda gen: {"src_ptr": sample(gen), "dst_ptr": torch.zeros(_N, dtype=TORCH_DTYPES[dst]), "n": _N},
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=lambda a: {"dst_ptr": a["src_ptr"].to(TORCH_DTYPES[dst])},
    )


def _floats(dtype: torch.dtype, low: float, high: float) -> Callable[[torch.Generator], torch.Tensor]:
    return lambda gen: rand_floats(gen, (_N, ), dtype, low, high)


def _ints(dtype: torch.dtype, low: int, high: int) -> Callable[[torch.Generator], torch.Tensor]:
    return lambda gen: rand_ints(gen, (_N, ), dtype, low, high)


CASES = [
    *(_arith_case(ty) for ty in ("fp32", "fp16", "bf16", "fp64", "i8", "i16", "i32", "i64", "u8", "u16", "u32",
                                 "u64")),
    Case(
        name="dtype_logic_i1",
        kernel=bool_logic_kernel,
        signature={"a_ptr": "*i1", "b_ptr": "*i1", "c_ptr": "*i1", "out_ptr": "*i1", "n": "i32",
                   "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=_bool_args,
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_bool_reference,
    ),
    # Values stay in range of the destination, so every conversion is exact or RTNE.
    _convert_case("fp32", "fp16", _floats(torch.float32, -100.0, 100.0)),  # truncf
    _convert_case("bf16", "fp32", _floats(torch.bfloat16, -100.0, 100.0)),  # extf
    _convert_case("fp16", "bf16", _floats(torch.float16, -100.0, 100.0)),  # via fp32
    _convert_case("fp64", "fp32", _floats(torch.float64, -100.0, 100.0)),
    _convert_case("fp32", "i32", _floats(torch.float32, -1000.0, 1000.0)),  # fptosi, truncating
    _convert_case("fp32", "u8", _floats(torch.float32, 0.0, 255.0)),  # fptoui
    _convert_case("u16", "fp32", _ints(torch.uint16, 0, 65536)),  # uitofp
    _convert_case("i8", "i64", _ints(torch.int8, -128, 128)),  # extsi
    _convert_case("u32", "u64", _ints(torch.uint32, 0, 2**32)),  # extui
    _convert_case("i64", "i16", _ints(torch.int64, -2**40, 2**40)),  # trunci, wrapping
    _convert_case("fp32", "i1", _ints(torch.float32, -2, 3)),  # != 0
    _convert_case("i1", "fp32", _ints(torch.bool, 0, 2)),
]
