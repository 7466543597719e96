"""Elementwise math: float functions (math dialect, precise sqrt/div, clamp), integer
arithmetic and bit operations (signed and unsigned forms, umulhi), and libdevice
functions that stay tt.extern_elementwise calls in TTIR."""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

from ..case import Args, Case, cdiv, rand_floats, rand_ints

_N, _BLOCK = 200, 64


@triton.jit
def float_math_kernel(x_ptr, y_ptr, out_ptr, n, lo, hi, BLOCK: tl.constexpr):
    # Result r of function i goes to out_ptr[i * n + element].
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside, other=1.0)  # in (0.5, 4)
    y = tl.load(y_ptr + offsets, mask=inside, other=1.0)  # in (-4, 4)
    out = out_ptr + offsets
    tl.store(out + 0 * n, tl.exp(y), mask=inside)
    tl.store(out + 1 * n, tl.exp2(y), mask=inside)
    tl.store(out + 2 * n, tl.log(x), mask=inside)
    tl.store(out + 3 * n, tl.log2(x), mask=inside)
    tl.store(out + 4 * n, tl.sin(y), mask=inside)
    tl.store(out + 5 * n, tl.cos(y), mask=inside)
    tl.store(out + 6 * n, tl.sqrt(x), mask=inside)
    tl.store(out + 7 * n, tl.sqrt_rn(x), mask=inside)
    tl.store(out + 8 * n, tl.rsqrt(x), mask=inside)
    tl.store(out + 9 * n, tl.div_rn(y, x), mask=inside)
    tl.store(out + 10 * n, tl.fdiv(y, x), mask=inside)
    tl.store(out + 11 * n, tl.abs(y) + tl.floor(y) + tl.ceil(x), mask=inside)
    tl.store(out + 12 * n, tl.fma(x, y, 0.5), mask=inside)
    tl.store(out + 13 * n, tl.erf(y), mask=inside)
    tl.store(out + 14 * n, tl.clamp(y, lo, hi), mask=inside)
    tl.store(out + 15 * n, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL) + tl.minimum(x, y), mask=inside)
    tl.store(out + 16 * n, tl.where(y > 0, y % x, -y), mask=inside)
    tl.store(out + 17 * n, tl.sigmoid(y) + tl.softmax(y), mask=inside)


@triton.jit
def int_math_kernel(a_ptr, b_ptr, ua_ptr, ub_ptr, out_ptr, uout_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    a = tl.load(a_ptr + offsets, mask=inside, other=0)  # int32, any sign
    b = tl.load(b_ptr + offsets, mask=inside, other=1)  # int32, nonzero
    ua = tl.load(ua_ptr + offsets, mask=inside, other=0)  # uint32
    ub = tl.load(ub_ptr + offsets, mask=inside, other=1)  # uint32, nonzero
    out = out_ptr + offsets
    uout = uout_ptr + offsets
    tl.store(out + 0 * n, a // b, mask=inside)  # truncating, like C
    tl.store(out + 1 * n, a % b, mask=inside)  # sign of the dividend
    tl.store(out + 2 * n, (a << 3) ^ (a >> 2), mask=inside)  # arithmetic shift
    tl.store(out + 3 * n, (a & b) | (~a & 0xF0), mask=inside)
    tl.store(out + 4 * n, tl.abs(a) + tl.maximum(a, b) - tl.minimum(a, b), mask=inside)
    tl.store(out + 5 * n, tl.cdiv(tl.abs(a), tl.abs(b)), mask=inside)
    tl.store(out + 6 * n, tl.where(a < b, a, b * 2), mask=inside)
    tl.store(uout + 0 * n, ua // ub, mask=inside)
    tl.store(uout + 1 * n, ua % ub, mask=inside)
    tl.store(uout + 2 * n, ua >> 3, mask=inside)  # logical shift
    tl.store(uout + 3 * n, tl.umulhi(ua, ub), mask=inside)
    tl.store(uout + 4 * n, tl.maximum(ua, ub), mask=inside)


@triton.jit
def libdevice_kernel(x_ptr, y_ptr, d_ptr, i_ptr, out_ptr, dout_ptr, iout_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside, other=0.5)  # in (0, 1)
    y = tl.load(y_ptr + offsets, mask=inside, other=0.5)  # in (-2, 2)
    d = tl.load(d_ptr + offsets, mask=inside, other=0.5)  # fp64 in (-2, 2)
    i = tl.load(i_ptr + offsets, mask=inside, other=0)  # int32
    out = out_ptr + offsets
    tl.store(out + 0 * n, libdevice.tanh(y), mask=inside)
    tl.store(out + 1 * n, libdevice.atan2(y, x), mask=inside)
    tl.store(out + 2 * n, libdevice.pow(x, y), mask=inside)
    tl.store(out + 3 * n, libdevice.expm1(y), mask=inside)
    tl.store(out + 4 * n, libdevice.log1p(x), mask=inside)
    tl.store(out + 5 * n, libdevice.erfinv(x), mask=inside)
    tl.store(out + 6 * n, libdevice.asinh(y), mask=inside)
    tl.store(dout_ptr + offsets, libdevice.tanh(d) + libdevice.exp(d), mask=inside)
    tl.store(iout_ptr + offsets, libdevice.popc(i), mask=inside)
    tl.store(iout_ptr + n + offsets, libdevice.clz(i), mask=inside)


def _float_math_args(gen: torch.Generator) -> Args:
    return {"x_ptr": rand_floats(gen, (_N, ), low=0.5, high=4.0), "y_ptr": rand_floats(gen, (_N, ), low=-4.0, high=4.0),
            "out_ptr": torch.zeros(18, _N), "n": _N, "lo": -1.5, "hi": 2.5}


def _float_math_reference(a: Args) -> dict[str, torch.Tensor]:
    x, y = a["x_ptr"], a["y_ptr"]
    rows = [
        torch.exp(y), torch.exp2(y), torch.log(x), torch.log2(x), torch.sin(y), torch.cos(y), torch.sqrt(x),
        torch.sqrt(x), torch.rsqrt(x), y / x, y / x,
        torch.abs(y) + torch.floor(y) + torch.ceil(x),
        x * y + 0.5, torch.erf(y), torch.clamp(y, a["lo"], a["hi"]),
        torch.maximum(x, y) + torch.minimum(x, y),
        torch.where(y > 0, torch.fmod(y, x), -y),
        torch.sigmoid(y) + _block_softmax(y),
    ]
    return {"out_ptr": torch.stack(rows)}


def _block_softmax(y: torch.Tensor) -> torch.Tensor:
    """tl.softmax inside the kernel normalises over each BLOCK-sized program chunk,
    with the masked tail lanes holding the `other` value 1.0."""
    padded = torch.ones(cdiv(_N, _BLOCK) * _BLOCK)
    padded[:_N] = y
    return torch.softmax(padded.view(-1, _BLOCK), dim=1).reshape(-1)[:_N]


def _int_math_args(gen: torch.Generator) -> Args:
    b = rand_ints(gen, (_N, ), torch.int32, -50, 50)
    ub = rand_ints(gen, (_N, ), torch.int64, 1, 2**31)
    return {
        "a_ptr": rand_ints(gen, (_N, ), torch.int32, -10000, 10000),
        "b_ptr": torch.where(b == 0, torch.ones_like(b), b),
        "ua_ptr": rand_ints(gen, (_N, ), torch.uint32, 0, 2**32),
        "ub_ptr": ub.to(torch.uint32),
        "out_ptr": torch.zeros(7, _N, dtype=torch.int32),
        "uout_ptr": torch.zeros(5, _N, dtype=torch.uint32),
        "n": _N,
    }


def _int_math_reference(a: Args) -> dict[str, torch.Tensor]:
    x, y = a["a_ptr"].to(torch.int64), a["b_ptr"].to(torch.int64)
    ux, uy = a["ua_ptr"].to(torch.int64), a["ub_ptr"].to(torch.int64)
    wrap32 = (x << 3) & 0xFFFFFFFF
    wrap32 = torch.where(wrap32 >= 2**31, wrap32 - 2**32, wrap32)
    signed = [
        torch.div(x, y, rounding_mode="trunc"),
        torch.fmod(x, y),
        wrap32 ^ (x >> 2),
        (x & y) | (~x & 0xF0),
        x.abs() + torch.maximum(x, y) - torch.minimum(x, y),
        (x.abs() + y.abs() - 1) // y.abs(),
        torch.where(x < y, x, y * 2),
    ]
    # umulhi: high 32 bits of the 64-bit product, split to stay inside int64.
    low_product = (ux & 0xFFFF) * uy
    high_product = (ux >> 16) * uy
    umulhi = (high_product + (low_product >> 16)) >> 16
    unsigned = [ux // uy, ux % uy, ux >> 3, umulhi, torch.maximum(ux, uy)]
    return {"out_ptr": torch.stack(signed).to(torch.int32), "uout_ptr": torch.stack(unsigned).to(torch.uint32)}


def _libdevice_args(gen: torch.Generator) -> Args:
    return {
        "x_ptr": rand_floats(gen, (_N, ), low=0.01, high=0.99),
        "y_ptr": rand_floats(gen, (_N, ), low=-2.0, high=2.0),
        "d_ptr": rand_floats(gen, (_N, ), torch.float64, -2.0, 2.0),
        "i_ptr": rand_ints(gen, (_N, ), torch.int32, -2**31, 2**31),
        "out_ptr": torch.zeros(7, _N),
        "dout_ptr": torch.zeros(_N, dtype=torch.float64),
        "iout_ptr": torch.zeros(2, _N, dtype=torch.int32),
        "n": _N,
    }


def _popcount32(v: torch.Tensor) -> torch.Tensor:
    bits = (v.to(torch.int64) & 0xFFFFFFFF)[:, None] >> torch.arange(32)
    return (bits & 1).sum(dim=1)


def _clz32(v: torch.Tensor) -> torch.Tensor:
    u = v.to(torch.int64) & 0xFFFFFFFF
    # Number of leading zeros = 32 - bit length.
    length = torch.zeros_like(u)
    for bit in range(32):
        length = torch.where((u >> bit) != 0, torch.full_like(u, bit + 1), length)
    return 32 - length


def _libdevice_reference(a: Args) -> dict[str, torch.Tensor]:
    x, y, d, i = a["x_ptr"], a["y_ptr"], a["d_ptr"], a["i_ptr"]
    rows = [torch.tanh(y), torch.atan2(y, x), torch.pow(x, y), torch.expm1(y), torch.log1p(x), torch.erfinv(x),
            torch.asinh(y)]
    return {
        "out_ptr": torch.stack(rows),
        "dout_ptr": torch.tanh(d) + torch.exp(d),
        "iout_ptr": torch.stack([_popcount32(i), _clz32(i)]).to(torch.int32),
    }


CASES = [
    Case(
        name="float_math",
        kernel=float_math_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "lo": "fp32", "hi": "fp32",
                   "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=_float_math_args,
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_float_math_reference,
        atol=1e-5,
        rtol=1e-5,
    ),
    Case(
        name="int_math",
        kernel=int_math_kernel,
        signature={"a_ptr": "*i32", "b_ptr": "*i32", "ua_ptr": "*u32", "ub_ptr": "*u32", "out_ptr": "*i32",
                   "uout_ptr": "*u32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=_int_math_args,
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_int_math_reference,
    ),
    Case(
        name="libdevice",
        kernel=libdevice_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "d_ptr": "*fp64", "i_ptr": "*i32", "out_ptr": "*fp32",
                   "dout_ptr": "*fp64", "iout_ptr": "*i32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=_libdevice_args,
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_libdevice_reference,
        atol=1e-5,
        rtol=1e-5,
    ),
]
