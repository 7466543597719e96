"""Philox random numbers (tl.randint/rand/randn, which use umulhi) and the debug
ops tl.device_print / tl.device_assert."""

from __future__ import annotations

import math

import torch
import triton
import triton.language as tl

from ..case import Args, Case, cdiv, rand_floats

# Philox-4x32 constants (the published algorithm; Triton uses 10 rounds).
_ROUND_A, _ROUND_B = 0xD2511F53, 0xCD9E8D57
_KEY_A, _KEY_B = 0x9E3779B9, 0xBB67AE85
_MASK32 = 0xFFFFFFFF


@triton.jit
def philox_kernel(seed, ints_ptr, uniform_ptr, normal_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    tl.store(ints_ptr + offsets, tl.randint(seed, offsets), mask=inside)
    tl.store(uniform_ptr + offsets, tl.rand(seed, offsets), mask=inside)
    tl.store(normal_ptr + offsets, tl.randn(seed, offsets), mask=inside)


@triton.jit
def print_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0)
    tl.device_print("pid", pid)
    tl.device_print("x=", x, hex=True)
    tl.store(out_ptr + offsets, x * 2, mask=offsets < n)


@triton.jit
def assert_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside, other=1.0)
    tl.device_assert(x > 0, "inputs must be positive")
    tl.device_assert(offsets < n, "masked lanes are skipped", mask=inside)
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    tl.store(out_ptr + offsets, tl.sqrt(x), mask=inside)


def _mulhilo(a: torch.Tensor, b: int) -> tuple[torch.Tensor, torch.Tensor]:
    """High and low 32-bit halves of a * b for 32-bit a (int64 tensor) and b."""
    b_lo, b_hi = b & 0xFFFF, b >> 16
    lo_part = a * b_lo
    hi_part = a * b_hi
    low = (lo_part + ((hi_part & 0xFFFF) << 16)) & _MASK32
    high = (hi_part + (lo_part >> 16)) >> 16
    return high & _MASK32, low


def philox_words(seed: int, offsets: torch.Tensor, rounds: int = 10) -> list[torch.Tensor]:
    """The four Philox-4x32 output words for counters (offset, 0, 0, 0) and key
    (seed low, seed high), as uint32 values held in int64 tensors."""
    c = [offsets.to(torch.int64) & _MASK32] + [torch.zeros(offsets.shape, dtype=torch.int64)] * 3
    k0, k1 = seed & _MASK32, (seed >> 32) & _MASK32
    for _ in range(rounds):
        hi_b, lo_b = _mulhilo(c[2], _ROUND_B)
        hi_a, lo_a = _mulhilo(c[0], _ROUND_A)
        c = [hi_b ^ c[1] ^ k0, lo_b, hi_a ^ c[3] ^ k1, lo_a]
        k0, k1 = (k0 + _KEY_A) & _MASK32, (k1 + _KEY_B) & _MASK32
    return c


def uniform_from_bits(bits: torch.Tensor) -> torch.Tensor:
    """Triton's mapping of 32 random bits to [0, 1): fold the sign, scale by ~2^-31."""
    signed = torch.where(bits >= 2**31, bits - 2**32, bits)
    folded = torch.where(signed < 0, -signed - 1, signed)
    return folded.to(torch.float32) * torch.tensor(4.6566127342e-10, dtype=torch.float32)


_N, _BLOCK, _SEED = 300, 128, 1234


def _philox_reference(a: Args) -> dict[str, torch.Tensor]:
    offsets = torch.arange(_N)
    words = philox_words(a["seed"], offsets)
    bits = words[0]
    # randn: Box-Muller on words 0 and 1 of the same counter.
    u1 = torch.clamp(uniform_from_bits(words[0]), min=1.0e-7)
    u2 = uniform_from_bits(words[1])
    normal = torch.sqrt(-2.0 * torch.log(u1)) * torch.cos(2 * math.pi * u2)
    signed_bits = torch.where(bits >= 2**31, bits - 2**32, bits).to(torch.int32)
    return {"ints_ptr": signed_bits, "uniform_ptr": uniform_from_bits(bits), "normal_ptr": normal}


CASES = [
    Case(
        name="philox_random",
        kernel=philox_kernel,
        signature={"seed": "i32", "ints_ptr": "*i32", "uniform_ptr": "*fp32", "normal_ptr": "*fp32", "n": "i32",
                   "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=lambda gen: {"seed": _SEED, "ints_ptr": torch.zeros(_N, dtype=torch.int32),
                               "uniform_ptr": torch.zeros(_N), "normal_ptr": torch.zeros(_N), "n": _N},
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_philox_reference,
        atol=1e-5,
        rtol=1e-5,
    ),
    Case(
        name="device_print",
        kernel=print_kernel,
        signature={"x_ptr": "*i32", "out_ptr": "*i32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": 16},
        make_args=lambda gen: {"x_ptr": torch.arange(20, dtype=torch.int32), "out_ptr": torch.zeros(20, dtype=torch.int32),
                               "n": 20},
        grid=lambda a: (cdiv(a["n"], 16), ),
        reference=lambda a: {"out_ptr": a["x_ptr"] * 2},
    ),
    Case(
        name="device_assert",
        kernel=assert_kernel,
        signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=lambda gen: {"x_ptr": rand_floats(gen, (_N, ), low=0.5, high=2.0), "out_ptr": torch.zeros(_N),
                               "n": _N},
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=lambda a: {"out_ptr": torch.sqrt(a["x_ptr"])},
        debug=True,
    ),
]
