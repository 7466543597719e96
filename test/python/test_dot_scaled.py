"""tl.dot_scaled (microscaled fp4/fp8 operands with e8m0 group scales)
against a reference decoded here."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

# e2m1 magnitudes by their 3 low bits (sign is bit 3).
FP4_VALUES = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


@triton.jit
def scaled_dot_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, out_ptr,
                      M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                      A_FORMAT: tl.constexpr, B_FORMAT: tl.constexpr):
    A_K: tl.constexpr = K // 2 if A_FORMAT == "e2m1" else K
    B_K: tl.constexpr = K // 2 if B_FORMAT == "e2m1" else K
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    a = tl.load(a_ptr + m[:, None] * A_K + tl.arange(0, A_K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, B_K)[:, None] * N + n[None, :])
    groups = tl.arange(0, K // 32)
    a_scale = tl.load(a_scale_ptr + m[:, None] * (K // 32) + groups[None, :])
    b_scale = tl.load(b_scale_ptr + n[:, None] * (K // 32) + groups[None, :])
    c = tl.dot_scaled(a, a_scale, A_FORMAT, b, b_scale, B_FORMAT)
    tl.store(out_ptr + m[:, None] * N + n[None, :], c)


def _decode(raw: torch.Tensor, fmt: str, packed_dim: int) -> torch.Tensor:
    """The operand's values in f64, from its stored bytes."""
    if fmt == "e4m3":
        return raw.view(torch.float8_e4m3fn).double()
    if fmt == "e5m2":
        return raw.view(torch.float8_e5m2).double()
    nibbles = torch.stack([raw & 15, raw >> 4], dim=packed_dim + 1).flatten(packed_dim, packed_dim + 1)
    magnitude = FP4_VALUES[(nibbles & 7).long()].double()
    return torch.where((nibbles & 8) != 0, -magnitude, magnitude)


def _random_bytes(shape: tuple[int, ...], fmt: str, gen: torch.Generator) -> torch.Tensor:
    raw = torch.randint(0, 256, shape, dtype=torch.uint8, generator=gen)
    if fmt == "e4m3":  # no NaN (S.1111.111)
        raw = torch.where(raw & 0x7F == 0x7F, raw & 0xF0, raw)
    if fmt == "e5m2":  # no Inf/NaN (S.11111.xx)
        raw = torch.where(raw & 0x7C == 0x7C, raw & 0x83, raw)
    return raw


@pytest.mark.parametrize("a_format, b_format, m, n, k", [
    ("e2m1", "e4m3", 32, 32, 64),
    ("e4m3", "e5m2", 32, 64, 64),
    ("e5m2", "e2m1", 64, 32, 128),
    # Operands over a third of workgroup memory: computed a chunk of K at a
    # time, scales included. (128 x 128 with both sides scaled still needs
    # 33-52 KiB: the broadcast scales take a buffer per chunk.)
    ("e4m3", "e5m2", 128, 64, 128),
])
def test_scaled_dot(a_format: str, b_format: str, m: int, n: int, k: int) -> None:
    gen = torch.Generator().manual_seed(0)
    a_raw = _random_bytes((m, k // 2 if a_format == "e2m1" else k), a_format, gen)
    b_raw = _random_bytes((k // 2 if b_format == "e2m1" else k, n), b_format, gen)
    # Scales 2^-8 .. 2^7 (bytes 119..134), and one NaN scale (0xFF).
    a_scale = torch.randint(119, 135, (m, k // 32), dtype=torch.uint8, generator=gen)
    b_scale = torch.randint(119, 135, (n, k // 32), dtype=torch.uint8, generator=gen)
    a_scale[1, 0] = 0xFF
    out = torch.empty(m, n, dtype=torch.float32)
    scaled_dot_kernel[(1,)](a_raw, a_scale, b_raw, b_scale, out, m, n, k, a_format, b_format)

    def scales(s: torch.Tensor) -> torch.Tensor:
        values = torch.exp2(s.double() - 127).repeat_interleave(32, dim=1)
        return torch.where(s.repeat_interleave(32, dim=1) == 0xFF, torch.nan, values)
    a = _decode(a_raw, a_format, packed_dim=1) * scales(a_scale)
    b = _decode(b_raw, b_format, packed_dim=0) * scales(b_scale).T
    expected = a @ b
    rows = torch.arange(m) != 1  # all but the NaN-scaled row
    assert torch.isnan(out[1]).all() and not torch.isnan(out[rows]).any()
    # f32 accumulation: the error is bounded relative to sum |a_ik * b_kj|.
    bound = 1e-5 * (a.abs() @ b.abs()) + 1e-6
    assert ((out.double() - expected).abs()[rows] <= bound[rows]).all()
