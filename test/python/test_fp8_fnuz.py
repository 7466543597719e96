"""fp8e4b8 and fp8e5b16 (AMD's float8_e4m3fnuz and float8_e5m2fnuz: biases 8
and 16, no infinity, 0x80 the one NaN and no negative zero) as PyTorch
converts them: every byte widens exactly, and narrowing rounds to nearest
even, keeps NaN, drops the sign of a zero and saturates past the largest
finite value (as the CUDA backend's narrowings do)."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

FORMATS = {"fp8e4b8": (tl.float8e4b8, torch.float8_e4m3fnuz),
           "fp8e5b16": (tl.float8e5b16, torch.float8_e5m2fnuz)}


@triton.jit
def _widen(x_ptr, y_ptr, N: tl.constexpr, FORMAT: tl.constexpr):
    offsets = tl.arange(0, N)
    x = tl.load(x_ptr + offsets).to(FORMAT, bitcast=True)
    tl.store(y_ptr + offsets, x.to(tl.float32))


@triton.jit
def _narrow(x_ptr, y_ptr, N: tl.constexpr, FORMAT: tl.constexpr):
    offsets = tl.program_id(0) * N + tl.arange(0, N)
    x = tl.load(x_ptr + offsets).to(FORMAT)
    tl.store(y_ptr + offsets, x.to(tl.uint8, bitcast=True))


@pytest.mark.parametrize("name", FORMATS)
def test_every_byte_widens_exactly(name: str) -> None:
    triton_type, torch_type = FORMATS[name]
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    y = torch.empty(256)
    _widen[(1, )](codes, y, 256, triton_type)
    expected = codes.view(torch_type).float()
    assert torch.isnan(y[0x80])
    torch.testing.assert_close(y, expected, rtol=0, atol=0, equal_nan=True)


@pytest.mark.parametrize("name", FORMATS)
def test_narrowing_rounds_to_nearest_even(name: str) -> None:
    triton_type, torch_type = FORMATS[name]
    largest = torch.finfo(torch_type).max
    generator = torch.Generator().manual_seed(0)
    # Every byte's value, the midpoints between neighbours (ties), random
    # values across the range (subnormals included), and signed zeros.
    values = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(torch_type).float()
    finite = values[~torch.isnan(values)].sort().values
    midpoints = (finite[1:] + finite[:-1]) / 2
    scale = torch.pow(2.0, torch.empty(4096).uniform_(-24, 17, generator=generator))
    random = (torch.randn(4096, generator=generator).sign() * scale).clamp(-largest, largest)
    x = torch.cat([finite, midpoints, random, torch.tensor([0.0, -0.0])])
    x = x[: (x.numel() // 256) * 256]
    z = torch.empty(x.numel(), dtype=torch.uint8)
    _narrow[(x.numel() // 256, )](x, z, 256, triton_type)
    expected = x.to(torch_type).view(torch.uint8)
    mismatched = (z != expected).nonzero().flatten()
    assert mismatched.numel() == 0, (
        f"{mismatched.numel()} of {x.numel()}; first: {x[mismatched[0]].item()!r} -> "
        f"{z[mismatched[0]].item():#04x}, expected {expected[mismatched[0]].item():#04x}")


@pytest.mark.parametrize("name", FORMATS)
def test_narrowing_keeps_nan_and_saturates(name: str) -> None:
    triton_type, torch_type = FORMATS[name]
    largest = torch.finfo(torch_type).max
    x = torch.tensor([float("nan"), float("inf"), float("-inf"), 2 * largest, -2 * largest, -0.0,
                      largest, -largest] * 32)
    z = torch.empty(x.numel(), dtype=torch.uint8)
    _narrow[(1, )](x, z, x.numel(), triton_type)
    widened = z.view(torch_type).float()
    assert torch.isnan(widened[0])
    assert widened[1:8].tolist() == [largest, -largest, largest, -largest, 0.0, largest, -largest]
    assert z[5].item() == 0  # no negative zero: 0x80 is NaN
