"""Functions the backend writes itself, because Vulkan's GLSL.std.450 lacks
them (erfinv, atan2, double-precision exp/exp2/expm1/log/log2/tanh/erf/sin/cos) or
SPIR-V's instruction is not exact (the float remainder), checked against
PyTorch over their whole range, edges included."""

from __future__ import annotations

import math
from typing import Any

import pytest
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _double_functions(x_ptr, exp_ptr, expm1_ptr, tanh_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    tl.store(exp_ptr + offsets, libdevice.exp(x), mask=inside)
    tl.store(expm1_ptr + offsets, libdevice.expm1(x), mask=inside)
    tl.store(tanh_ptr + offsets, libdevice.tanh(x), mask=inside)


def test_double_precision_exp_expm1_tanh() -> None:
    x = torch.cat([
        torch.linspace(-760.0, 720.0, 4001, dtype=torch.float64),
        torch.linspace(-1.0, 1.0, 2001, dtype=torch.float64),
        torch.tensor([0.0, -0.0, 1e-300, -1e-20, 0.3465, -0.3466, 709.78, 709.79, -745.13, -745.14,
                      math.inf, -math.inf, math.nan], dtype=torch.float64),
    ])
    outputs = [torch.empty_like(x) for _ in range(3)]
    _double_functions[(triton.cdiv(x.numel(), 256), )](x, *outputs, x.numel(), BLOCK=256)
    for got, expected in zip(outputs, (torch.exp(x), torch.expm1(x), torch.tanh(x))):
        # A few ulp, and subnormal results (e^-740) to within their spacing.
        torch.testing.assert_close(got, expected, rtol=4e-15, atol=1e-320, equal_nan=True)
    assert math.copysign(1.0, outputs[2][x.numel() - 12].item()) == -1.0  # tanh(-0) = -0


@triton.jit
def _double_erf(x_ptr, erf_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    tl.store(erf_ptr + offsets, tl.math.erf(tl.load(x_ptr + offsets, mask=inside)), mask=inside)


def test_double_precision_erf() -> None:
    x = torch.cat([
        torch.linspace(-7.0, 7.0, 4001, dtype=torch.float64),
        torch.linspace(-1e-3, 1e-3, 201, dtype=torch.float64),
        torch.tensor([0.0, -0.0, 1e-300, 2.4999999, 2.5, 5.9999, 6.0, 30.0, math.inf, -math.inf, math.nan],
                     dtype=torch.float64),
    ])
    got = torch.empty_like(x)
    _double_erf[(triton.cdiv(x.numel(), 256), )](x, got, x.numel(), BLOCK=256)
    torch.testing.assert_close(got, torch.erf(x), rtol=4e-15, atol=0, equal_nan=True)
    assert math.copysign(1.0, got[x.numel() - 10].item()) == -1.0  # erf(-0) = -0


@triton.jit
def _double_exp2_log(x_ptr, exp2_ptr, log_ptr, log2_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    tl.store(exp2_ptr + offsets, tl.exp2(x), mask=inside)
    tl.store(log_ptr + offsets, tl.log(x), mask=inside)
    tl.store(log2_ptr + offsets, tl.log2(x), mask=inside)


def test_double_precision_exp2_log_log2() -> None:
    x = torch.cat([
        torch.linspace(-1080.0, 1030.0, 4001, dtype=torch.float64),
        torch.linspace(0.5, 2.0, 2001, dtype=torch.float64),
        torch.logspace(-310, 308, 2001, dtype=torch.float64),
        torch.tensor([0.0, -0.0, -1.0, 1.0, 2.0, 1024.0, 5e-324, 2.2250738585072014e-308, math.sqrt(2),
                      1.0 + 2**-52, math.inf, -math.inf, math.nan], dtype=torch.float64),
    ])
    outputs = [torch.empty_like(x) for _ in range(3)]
    _double_exp2_log[(triton.cdiv(x.numel(), 256), )](x, *outputs, x.numel(), BLOCK=256)
    for got, expected in zip(outputs, (torch.exp2(x), torch.log(x), torch.log2(x))):
        torch.testing.assert_close(got, expected, rtol=4e-15, atol=1e-320, equal_nan=True)


@triton.jit
def _single_functions(x_ptr, y_ptr, erfinv_ptr, atan2_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    y = tl.load(y_ptr + offsets, mask=inside)
    tl.store(erfinv_ptr + offsets, libdevice.erfinv(x), mask=inside)
    tl.store(atan2_ptr + offsets, libdevice.atan2(y, x), mask=inside)


def test_erfinv_and_atan2() -> None:
    x = torch.cat([torch.linspace(-1.0, 1.0, 4001), torch.tensor([1e-30, -0.9999, 0.99999, 1.5])])
    y = torch.linspace(-3.0, 3.0, x.numel()).flip(0)
    erfinv, atan2 = torch.empty_like(x), torch.empty_like(x)
    _single_functions[(triton.cdiv(x.numel(), 256), )](x, y, erfinv, atan2, x.numel(), BLOCK=256)
    torch.testing.assert_close(erfinv, torch.erfinv(x), rtol=2e-6, atol=0.0, equal_nan=True)
    # atan2 is MLIR's polynomial approximation: within 4e-6 relative.
    torch.testing.assert_close(atan2, torch.atan2(y, x), rtol=1e-5, atol=1e-6)


@triton.jit
def _double_tangent(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, libdevice.tan(tl.load(x_ptr + offsets)))


def test_unsupported_double_function_is_named() -> None:
    with pytest.raises(Exception, match=r"(?s)test_math\.py:\d+:\d+: error: double-precision 'math.tan'"):
        _double_tangent[(1, )](torch.zeros(16, dtype=torch.float64), BLOCK=16)


@triton.jit
def _double_sin_cos(x_ptr, sin_ptr, cos_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    tl.store(sin_ptr + offsets, tl.sin(x), mask=inside)
    tl.store(cos_ptr + offsets, tl.cos(x), mask=inside)


def test_double_precision_sin_cos() -> None:
    # Small and huge arguments (the reduction by pi/2 is exact at any
    # magnitude: Payne and Hanek's), one of the doubles closest to a
    # multiple of pi/2, zeros, infinities and NaN.
    gen = torch.Generator().manual_seed(0)
    x = torch.cat([
        torch.linspace(-10.0, 10.0, 2001, dtype=torch.float64),
        torch.randn(2000, generator=gen, dtype=torch.float64) * 1e4,
        torch.randn(500, generator=gen, dtype=torch.float64) * 1e16,
        torch.tensor([0.0, -0.0, 1e-300, math.pi / 4, math.pi / 2, 1e22, 1.7e308, -1.7e308,
                      6381956970095103 * 2.0**797, math.inf, -math.inf, math.nan],
                     dtype=torch.float64),
    ])
    sin, cos = torch.empty_like(x), torch.empty_like(x)
    _double_sin_cos[(triton.cdiv(x.numel(), 256), )](x, sin, cos, x.numel(), BLOCK=256)
    for got, expected in ((sin, torch.sin(x)), (cos, torch.cos(x))):
        finite = x.isfinite()
        assert got[~finite].isnan().all()
        ulp = torch.nextafter(expected[finite].abs(), torch.tensor(math.inf, dtype=torch.float64)) \
            - expected[finite].abs()
        assert ((got[finite] - expected[finite]).abs() <= 3 * ulp).all()
    assert torch.equal(torch.signbit(sin[x == 0]), torch.signbit(x[x == 0]))


@triton.jit
def _to_small_floats(x_ptr, e5m2_ptr, e4m3_ptr, bf16_rtz_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    tl.store(e5m2_ptr + offsets, x.to(tl.float8e5), mask=inside)
    tl.store(e4m3_ptr + offsets, x.to(tl.float8e4nv), mask=inside)
    tl.store(bf16_rtz_ptr + offsets, x.to(tl.bfloat16, fp_downcast_rounding="rtz"), mask=inside)


@triton.jit
def _from_small_floats(e5m2_ptr, e4m3_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(e5m2_ptr + offsets).to(tl.float32))
    tl.store(out_ptr + BLOCK + offsets, tl.load(e4m3_ptr + offsets).to(tl.float16).to(tl.float32))


def _f32_with_neighbours(values: torch.Tensor) -> torch.Tensor:
    """The values and the f32 numbers just below and above each."""
    bits = values.view(torch.int32)
    return torch.cat([values, (bits - 1).view(torch.float32), (bits + 1).view(torch.float32)])


def test_fp8_conversions_round_to_nearest_even_and_saturate() -> None:
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    e5m2_values = codes.view(torch.float8_e5m2).float()
    e4m3_values = codes.view(torch.float8_e4m3fn).float()
    finite = torch.cat([e5m2_values, e4m3_values])
    finite = finite[finite.isfinite() & (finite != 0)].abs()
    # Every fp8 value, the halfway points between neighbours (ties), values
    # beyond the largest finite ones, f32 subnormals, zeros, inf and NaN.
    midpoints = torch.cat([(finite.sort().values[1:] + finite.sort().values[:-1]) / 2])
    special = torch.tensor([0.0, 1e-30, 1e-42, 500.0, 6e4, 1e6, math.inf, math.nan])
    magnitudes = _f32_with_neighbours(torch.cat([finite, midpoints, special]))
    x = torch.cat([magnitudes, -magnitudes])
    e5m2 = torch.empty(x.numel(), dtype=torch.float8_e5m2)
    e4m3 = torch.empty(x.numel(), dtype=torch.float8_e4m3fn)
    bf16 = torch.empty(x.numel(), dtype=torch.bfloat16)
    _to_small_floats[(triton.cdiv(x.numel(), 256), )](x, e5m2, e4m3, bf16, x.numel(), BLOCK=256)
    # NVIDIA's .satfinite conversions: beyond the largest finite value (inf
    # included) is the largest finite value.
    for got, dtype in ((e5m2, torch.float8_e5m2), (e4m3, torch.float8_e4m3fn)):
        largest = torch.finfo(dtype).max
        expected = torch.where(x.isnan(), x, x.clamp(-largest, largest)).to(dtype)
        torch.testing.assert_close(got.float(), expected.float(), rtol=0, atol=0, equal_nan=True)
    rtz = torch.where(x.isnan(), x, (x.view(torch.int32) & ~0xFFFF).view(torch.float32)).to(torch.bfloat16)
    torch.testing.assert_close(bf16.float(), rtz.float(), rtol=0, atol=0, equal_nan=True)

    out = torch.empty(512)
    _from_small_floats[(1, )](codes.view(torch.float8_e5m2), codes.view(torch.float8_e4m3fn), out, BLOCK=256)
    torch.testing.assert_close(out, torch.cat([e5m2_values, e4m3_values]), rtol=0, atol=0, equal_nan=True)


@triton.jit
def _narrow_toward_zero(x_ptr, half_ptr, d_ptr, single_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    tl.store(half_ptr + offsets, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=inside)
    d = tl.load(d_ptr + offsets, mask=inside)
    tl.store(single_ptr + offsets, d.to(tl.float32, fp_downcast_rounding="rtz"), mask=inside)


def _toward_zero(x: torch.Tensor, dtype: torch.dtype, bits: torch.dtype) -> torch.Tensor:
    """x rounded toward zero: to nearest, then one step smaller where that grew."""
    nearest = x.to(dtype)
    smaller = (nearest.view(bits) - 1).view(dtype)
    return torch.where(nearest.to(x.dtype).abs() > x.abs(), smaller, nearest)


def test_narrowing_toward_zero() -> None:
    # Values beyond f16's largest, its subnormals, ties, zeros, inf and NaN.
    gen = torch.Generator().manual_seed(0)
    special = torch.tensor([65504.0, 65519.0, 65520.0, 1e6, 6e-5, 3e-8, 1e-8, 0.0, 1.0 + 2**-11,
                            math.inf, math.nan])
    x = torch.cat([torch.randn(2000, generator=gen) * 1000, special, -special])
    d = torch.cat([torch.randn(2000, generator=gen, dtype=torch.float64),
                   torch.tensor([3.5e38, 1e300, 1e-40, 1e-50, 1.0 + 2**-24, math.inf, math.nan],
                                dtype=torch.float64)])
    d = torch.cat([d, -d])[:x.numel()]
    half = torch.empty(x.numel(), dtype=torch.float16)
    single = torch.empty(x.numel())
    _narrow_toward_zero[(triton.cdiv(x.numel(), 256), )](x, half, d, single, x.numel(), BLOCK=256)
    torch.testing.assert_close(half, _toward_zero(x, torch.float16, torch.int16), rtol=0, atol=0,
                               equal_nan=True)
    torch.testing.assert_close(single, _toward_zero(d, torch.float32, torch.int32), rtol=0, atol=0,
                               equal_nan=True)


@triton.jit
def _remainder(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    y = tl.load(y_ptr + offsets, mask=inside, other=1)
    tl.store(out_ptr + offsets, x % y, mask=inside)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
def test_float_remainder_is_exact(dtype: torch.dtype) -> None:
    """fmod is exact; OpFRem computes x - y * trunc(x / y), wrong for large
    quotients (Triton's test_bin_op[uint16 % float16] failed on NVIDIA)."""
    gen = torch.Generator().manual_seed(3)
    n = 8192
    span = {torch.float16: 14, torch.bfloat16: 100, torch.float32: 100, torch.float64: 900}[dtype]
    scale = lambda: 2.0**torch.randint(-span, span, (n,), generator=gen, dtype=torch.float64)
    x = torch.randn(n, generator=gen, dtype=torch.float64) * scale()
    y = torch.randn(n, generator=gen, dtype=torch.float64) * scale()
    edges = torch.tensor([0.0, -0.0, 7.0, -7.5, math.inf, 3.0, math.nan, 1.0, 65504.0, 1e-3],
                         dtype=torch.float64)
    edge_divisors = torch.tensor([1.0, 2.0, -2.0, 2.0, 1.0, math.inf, 1.0, 0.0, 3e-3, 65504.0],
                                 dtype=torch.float64)
    x = torch.cat([x, edges]).to(dtype)
    y = torch.cat([y, edge_divisors]).to(dtype)
    out = torch.empty_like(x)
    _remainder[(triton.cdiv(x.numel(), 1024), )](x, y, out, x.numel(), BLOCK=1024)
    # C's fmod (torch.fmod divides: NaN where x / y overflows); exact, so
    # representable in `dtype`.
    expected = torch.tensor([math.fmod(a, b) if math.isfinite(a) and b != 0 and b == b else math.nan
                             for a, b in zip(x.double().tolist(), y.double().tolist())],
                            dtype=torch.float64).to(dtype)
    torch.testing.assert_close(out, expected, rtol=0, atol=0, equal_nan=True)
    assert torch.equal(torch.signbit(out[n:n + 2]), torch.tensor([False, True]))  # fmod(-0, y) = -0


@pytest.mark.parametrize("dtype", [torch.int8, torch.int16, torch.int32, torch.int64])
def test_signed_remainder_of_the_smallest_integer(dtype: torch.dtype) -> None:
    """C's `%` truncates: the remainder takes the dividend's sign. Upstream's
    SPIR-V lowering negated unless x == |x|, which INT_MIN also satisfies
    (Triton's test_bin_op[int8 % int8] on lavapipe: -128 % -127 gave 1)."""
    info = torch.iinfo(dtype)
    gen = torch.Generator().manual_seed(4)
    divisors = torch.randint(info.min, info.max, (4096,), generator=gen, dtype=torch.int64)
    divisors = torch.cat([divisors[divisors != 0],
                          torch.tensor([1, -1, 2, -2, 3, info.min, info.max], dtype=torch.int64)])
    dividends = torch.randint(info.min, info.max, divisors.shape, generator=gen, dtype=torch.int64)
    dividends[::2] = info.min
    x, y = dividends.to(dtype), divisors.to(dtype)
    out = torch.empty_like(x)
    _remainder[(triton.cdiv(x.numel(), 1024), )](x, y, out, x.numel(), BLOCK=1024)
    truncated = lambda a, b: -(abs(a) % abs(b)) if a < 0 else abs(a) % abs(b)
    expected = torch.tensor([truncated(a, b) for a, b in zip(x.tolist(), y.tolist())], dtype=torch.int64)
    torch.testing.assert_close(out.to(torch.int64), expected, rtol=0, atol=0)


def test_signed_remainder_of_a_widened_dividend() -> None:
    """int32 % int64 (the dividend sign-extended): Mesa 22.3's lavapipe took
    `x < 0` of such a value as false, so the sign test is written with
    equalities (Triton's test_bin_op[1-int32-int64-%])."""
    gen = torch.Generator().manual_seed(5)
    x = torch.randint(-2**31, 2**31 - 1, (1024,), generator=gen, dtype=torch.int64).to(torch.int32)
    y = torch.randint(-2**62, 2**62, (1024,), generator=gen, dtype=torch.int64)
    y[y == 0] = 7
    out = torch.empty(1024, dtype=torch.int64)
    _remainder[(1, )](x, y, out, x.numel(), BLOCK=1024)
    expected = torch.tensor([-(abs(a) % abs(b)) if a < 0 else abs(a) % abs(b)
                             for a, b in zip(x.tolist(), y.tolist())], dtype=torch.int64)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


@triton.jit
def _absolute(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    tl.store(out_ptr + offsets, tl.abs(tl.load(x_ptr + offsets, mask=inside)), mask=inside)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float8_e5m2, torch.float8_e4m3fn])
def test_abs_of_small_floats(dtype: torch.dtype) -> None:
    """|x| of the emulated formats clears the sign bit (rejected before:
    "cannot emulate 'bf16' through math.absf"); every bit pattern."""
    bits = torch.arange(-2**15, 2**15, dtype=torch.int32).to(torch.int16) if dtype == torch.bfloat16 \
        else torch.arange(-128, 128, dtype=torch.int16).to(torch.int8)
    x = bits.view(dtype)
    out = torch.empty_like(x)
    _absolute[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    sign = 1 << (bits.element_size() * 8 - 1)
    expected = (bits.to(torch.int32) & (sign - 1)).to(bits.dtype)
    assert torch.equal(out.view(bits.dtype), expected)


@triton.jit
def _min_max_num(x_ptr, y_ptr, hi_ptr, lo_ptr, row_max_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets)
    tl.store(hi_ptr + offsets, tl.maximum(x, y))
    tl.store(lo_ptr + offsets, tl.minimum(x, y))
    tl.store(row_max_ptr, tl.max(x, axis=0))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_minimum_maximum_return_the_operand_that_is_not_nan(dtype: torch.dtype) -> None:
    """tl.maximum, tl.minimum and tl.max (maxnumf/minnumf) as on CUDA: a NaN
    loses to a number (torch.fmax/fmin); NaN only where both are NaN."""
    nan = float("nan")
    x = torch.tensor([nan, 1.0, nan, -2.0, 3.0, -0.5, nan, 4.0] * 4, dtype=dtype)
    y = torch.tensor([2.0, nan, nan, -1.0, 3.0, 0.5, -7.0, -4.0] * 4, dtype=dtype)
    hi, lo, row_max = torch.empty_like(x), torch.empty_like(x), torch.empty(1, dtype=dtype)
    _min_max_num[(1, )](x, y, hi, lo, row_max, BLOCK=32)
    torch.testing.assert_close(hi, torch.fmax(x, y), equal_nan=True)
    torch.testing.assert_close(lo, torch.fmin(x, y), equal_nan=True)
    assert row_max.item() == 4.0


@triton.jit
def _correctly_rounded(x_ptr, y_ptr, sqrt_ptr, div_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    y = tl.load(y_ptr + offsets, mask=inside)
    tl.store(sqrt_ptr + offsets, tl.math.sqrt_rn(x), mask=inside)
    tl.store(div_ptr + offsets, tl.math.div_rn(x, y), mask=inside)


def test_sqrt_rn_and_div_rn_round_correctly() -> None:
    """Bit for bit the f64 result rounded to f32 (Triton's test_precise_math
    check); Vulkan drivers need not round Sqrt and OpFDiv correctly, and
    NVIDIA's did not."""
    gen = torch.Generator().manual_seed(3)
    n = 1 << 16
    x = torch.randn(n, generator=gen) * torch.exp2(torch.randint(-60, 60, (n,), generator=gen).float())
    y = torch.randn(n, generator=gen) * torch.exp2(torch.randint(-60, 60, (n,), generator=gen).float())
    edges = torch.tensor([0.0, -0.0, 1.0, 2.0, 3.0, float("inf"), -float("inf"), float("nan"), 1e-45, 3e38,
                          1.0 + 2.0**-23, 0.5, -1e-40, 2.0**-126])
    x[:len(edges)] = edges
    y[:len(edges)] = torch.tensor([0.0, 1.0, 3.0, 0.0, float("inf"), 2.0, -1.0, 1.0, 2.0, 1e-38, 2.0, 3.0, 1.0,
                                   4.0])
    sqrt_out, div_out = torch.empty(n), torch.empty(n)
    _correctly_rounded[(triton.cdiv(n, 1024),)](x, y, sqrt_out, div_out, n, BLOCK=1024)
    sqrt_ref = torch.sqrt(x.abs().double()).float() * torch.where(x < 0, float("nan"), 1.0)
    sqrt_ref[x == 0] = x[x == 0]  # sqrt(-0) is -0
    div_ref = (x.double() / y.double()).float()
    torch.testing.assert_close(sqrt_out, sqrt_ref, rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(div_out, div_ref, rtol=0, atol=0, equal_nan=True)
    # Zeros keep their signs (-0 / 1 is -0), subnormal operands their values.
    for out, ref in ((div_out, div_ref), (sqrt_out, sqrt_ref)):
        numbers = ~ref.isnan()
        assert torch.equal(torch.signbit(out[numbers]), torch.signbit(ref[numbers]))


@triton.jit
def _store_bf16_scalar(out_ptr, value: tl.bfloat16):
    tl.store(out_ptr, value)


@pytest.mark.parametrize("value", [42.0, -1.5, 1.00390625, 1.01171875, 3.0e38, float("inf"), float("-inf"),
                                   float("nan")])
def test_bf16_scalar_arguments_round_to_nearest_even(value: float) -> None:
    # bf16 scalars went in integer slots filled with the value as an integer
    # (42.0 arrived as 3.9e-39; inf and nan raised); they are f32 slots now,
    # rounded to bf16 in the kernel as PyTorch rounds (halfway: to even).
    out = torch.zeros(1, dtype=torch.bfloat16)
    _store_bf16_scalar[(1,)](out, value)
    torch.testing.assert_close(out, torch.tensor([value], dtype=torch.bfloat16), equal_nan=True, atol=0, rtol=0)


@triton.jit
def _round_to_integer(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    m = tl.load(x_ptr + offsets)
    m += 0x800000  # 2^23: float addition rounds to an integer here
    m -= 0x800000
    tl.store(out_ptr + offsets, m)


@pytest.mark.parametrize("fusion", [True, False])
def test_float_additions_are_not_reassociated(fusion: bool) -> None:
    # Triton's own conversion tests round this way; with fp fusion on, the
    # driver was free to fold (m + 2^23) - 2^23 into m (lavapipe did).
    x = torch.tensor([0.5, 1.5, 2.5, 0.75, 3.25, 0.0, 6.5, 7.5])
    out = torch.empty_like(x)
    _round_to_integer[(1,)](x, out, BLOCK=8, enable_fp_fusion=fusion)
    torch.testing.assert_close(out, (x + 0x800000) - 0x800000, atol=0, rtol=0)


@triton.jit
def _bessel_i(x_ptr, i0_ptr, i1_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    tl.store(i0_ptr + offsets, libdevice.cyl_bessel_i0(x), mask=inside)
    tl.store(i1_ptr + offsets, libdevice.cyl_bessel_i1(x), mask=inside)


# f32 above 15 is a product of exponentials, within 5e-6 relative (below,
# the series is within Triton's test's 1.3e-6).
@pytest.mark.parametrize("dtype, rtol", [(torch.float32, 5e-6), (torch.float64, 1e-13)])
def test_modified_bessel_functions_i0_i1(dtype: torch.dtype, rtol: float) -> None:
    # Both sides of the series/asymptotic switch (15 for f32, 30 for f64),
    # negative arguments (I0 even, I1 odd), zero, and Triton's test's randn.
    torch.manual_seed(0)
    x = torch.cat([torch.linspace(-60, 60, 481, dtype=torch.float64), torch.tensor([0.0, 1e-30]),
                   torch.randn(128, dtype=torch.float64)]).to(dtype)
    i0, i1 = torch.empty_like(x), torch.empty_like(x)
    _bessel_i[(triton.cdiv(x.numel(), 128),)](x, i0, i1, x.numel(), BLOCK=128)
    exact = x.double()
    torch.testing.assert_close(i0, torch.special.i0(exact).to(dtype), rtol=rtol, atol=0)
    torch.testing.assert_close(i1, torch.special.i1(exact).to(dtype), rtol=rtol, atol=1e-37)
    randn = slice(-128, None)
    torch.testing.assert_close(i0[randn], torch.special.i0(exact[randn]).to(dtype))
    torch.testing.assert_close(i1[randn], torch.special.i1(exact[randn]).to(dtype))


@triton.jit
def _bessel_jy(x_ptr, j0_ptr, j1_ptr, y0_ptr, y1_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    tl.store(j0_ptr + offsets, libdevice.j0(x), mask=inside)
    tl.store(j1_ptr + offsets, libdevice.j1(x), mask=inside)
    tl.store(y0_ptr + offsets, libdevice.y0(x), mask=inside)
    tl.store(y1_ptr + offsets, libdevice.y1(x), mask=inside)


# Absolute tolerances: near their zeros the functions' relative errors grow
# without bound. f32's series lose up to 2e-5 to cancellation between 4 and 8.
# The reference is mpmath's (torch's own f64 Bessel functions are off by
# up to 3e-7 above 5).
@pytest.mark.parametrize("dtype, atol", [(torch.float32, 3e-5), (torch.float64, 1e-12)])
def test_bessel_functions_j0_j1_y0_y1(dtype: torch.dtype, atol: float) -> None:
    mpmath = pytest.importorskip("mpmath")
    torch.manual_seed(0)
    x = torch.cat([torch.linspace(-50, 50, 401, dtype=torch.float64), torch.tensor([0.0]),
                   torch.randn(128, dtype=torch.float64)]).to(dtype)
    outs = [torch.empty_like(x) for _ in range(4)]
    _bessel_jy[(triton.cdiv(x.numel(), 128),)](x, *outs, x.numel(), BLOCK=128)

    def exact(function: Any, value: float) -> float:
        if function is mpmath.bessely and value <= 0:
            return -math.inf if value == 0 else math.nan
        return float(function(order, value))

    for out, (function, order) in zip(outs, [(mpmath.besselj, 0), (mpmath.besselj, 1),
                                             (mpmath.bessely, 0), (mpmath.bessely, 1)]):
        reference = torch.tensor([exact(function, value) for value in x.double().tolist()],
                                 dtype=torch.float64).to(dtype)
        torch.testing.assert_close(out, reference, rtol=1e-5 if dtype == torch.float32 else 1e-10,
                                   atol=atol, equal_nan=True, msg=f"{function.__name__} {order}")
