"""float8e4b15 (1 sign bit, 4 exponent bits with bias 15, 3 mantissa bits)
converts through the front end's `convert_custom_types` hook, with the
results of Triton's CUDA backend: every byte widens exactly, narrowing
clamps to ±1.75 and rounds half up, and tl.dot takes fp8e4b15 operands."""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def _widen(x_ptr, y_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    x = tl.load(x_ptr + offsets).to(tl.float8e4b15, bitcast=True)
    tl.store(y_ptr + offsets, x.to(tl.float32))


@triton.jit
def _narrow(x_ptr, y_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    x = tl.load(x_ptr + offsets).to(tl.float8e4b15)
    tl.store(y_ptr + offsets, x.to(tl.uint8, bitcast=True))


@triton.jit
def _dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)[:, None]
    n = tl.arange(0, N)[None, :]
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m * K + k[None, :]).to(tl.float8e4b15, bitcast=True)
    b = tl.load(b_ptr + k[:, None] * N + n).to(tl.float8e4b15, bitcast=True)
    tl.store(c_ptr + m * N + n, tl.dot(a, b))


def _values(codes: torch.Tensor) -> torch.Tensor:
    """The real number each float8e4b15 byte stands for."""
    codes = codes.to(torch.int64)
    sign = torch.where(codes >= 128, -1.0, 1.0).double()
    exponent = (codes >> 3) & 0xF
    mantissa = (codes & 7).double()
    normal = (1 + mantissa / 8) * torch.pow(2.0, exponent.double() - 15)
    subnormal = mantissa / 8 * 2.0**-14
    return sign * torch.where(exponent == 0, subnormal, normal)


def test_every_byte_widens_exactly() -> None:
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    y = torch.empty(256)
    _widen[(1, )](codes, y, 256)
    torch.testing.assert_close(y.double(), _values(codes), rtol=0, atol=0)


def test_narrowing_rounds_half_up_and_clamps() -> None:
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    exact = _values(codes).float()
    z = torch.empty(256, dtype=torch.uint8)
    _narrow[(1, )](exact, z, 256)
    # Every byte but ±1.875 (clamped to ±1.75, as on CUDA) comes back.
    expected = codes.clone()
    expected[127], expected[255] = 126, 254
    torch.testing.assert_close(z, expected, rtol=0, atol=0)
    # Halfway between two neighbours rounds away from zero; beyond the
    # largest magnitude clamps; NaN narrows to 1.75 too.
    x = torch.tensor([1.0625, -1.0625, 1.06, 100.0, -3.0, float("nan")] + [0.0] * 26)
    _narrow[(1, )](x, z[:32], 32)
    assert z[:6].tolist() == [0x79, 0xF9, 0x78, 0x7E, 0xFE, 0x7E]


def test_dot_of_fp8e4b15_operands() -> None:
    gen = torch.Generator().manual_seed(0)
    # Magnitudes below 1.75 in both operands: bytes 0x00-0x7D and 0x80-0xFD.
    a = torch.randint(0, 126, (16, 32), generator=gen, dtype=torch.int32)
    b = torch.randint(0, 126, (32, 16), generator=gen, dtype=torch.int32)
    a = (a + 128 * torch.randint(0, 2, a.shape, generator=gen, dtype=torch.int32)).to(torch.uint8)
    b = (b + 128 * torch.randint(0, 2, b.shape, generator=gen, dtype=torch.int32)).to(torch.uint8)
    c = torch.empty(16, 16)
    _dot[(1, )](a, b, c, 16, 16, 32)
    expected = _values(a) @ _values(b)
    torch.testing.assert_close(c.double(), expected, rtol=1e-5, atol=1e-6)
