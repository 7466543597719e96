"""TTIR that Triton 3.6 produces for kernels outside the corpus parses and
prints back exactly. The kernels here exercise naming corner cases of the
printer: loop variables, repeated names, nested regions, early returns."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import pytest
import triton
import triton.language as tl

from triton_spirv.ttir import ttir_text

PRINT_FLAGS = ("--mlir-print-debuginfo", "--mlir-use-nameloc-as-prefix")


@triton.jit
def nested_loops(x_ptr, out_ptr, n, m, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    offs = tl.arange(0, BLOCK)
    for i in range(n):
        for j in range(0, m, 2):
            x = tl.load(x_ptr + i * m + j + offs, mask=offs < m - j, other=0.0)
            acc += x * j
            x_0 = x + 1.0
            acc += x_0
    tl.store(out_ptr + offs, acc)


@triton.jit
def while_and_return(x_ptr, out_ptr, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    value = tl.load(x_ptr + pid)
    steps = 0
    while value > 1:
        value = tl.where(value % 2 == 0, value // 2, 3 * value + 1)
        steps += 1
    tl.store(out_ptr + pid, steps)


@triton.jit
def argmax_rows(x_ptr, idx_ptr, stride, N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + row * stride + cols)
    best = tl.argmax(x, axis=0)
    total = tl.cumsum(x, axis=0)
    tl.store(idx_ptr + row, best)
    tl.store(x_ptr + row * stride + cols, total)


@triton.jit
def pointer_loop(a_ptr, c_ptr, K, stride_k, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    ptrs = a_ptr + offs[:, None] * stride_k + offs[None, :]
    acc = tl.zeros([BLOCK, BLOCK], dtype=tl.float32)
    for k in tl.range(0, K, BLOCK):
        tile = tl.load(ptrs, mask=offs[None, :] + k < K, other=0.0)
        acc = tl.dot(tile, tl.trans(tile), acc)
        ptrs += BLOCK
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc.to(tl.float16))


@triton.jit
def scaled_dot(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr):
    m = tl.arange(0, 32)
    k = tl.arange(0, 64)
    g = tl.arange(0, 2)
    a = tl.load(a_ptr + m[:, None] * 64 + k[None, :])
    b = tl.load(b_ptr + k[:, None] * 32 + m[None, :])
    a_scale = tl.load(as_ptr + m[:, None] * 2 + g[None, :])
    b_scale = tl.load(bs_ptr + m[:, None] * 2 + g[None, :])
    c = tl.dot_scaled(a, a_scale, "e4m3", b, b_scale, "e4m3")
    tl.store(c_ptr + m[:, None] * 32 + m[None, :], c)


@triton.jit
def inline_asm(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(y_ptr + offs, y)


@triton.jit
def _twice_plus(x, y):
    return x * 2 + y


@triton.jit
def mapped(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.map_elementwise(_twice_plus, x, x))


# Ops that the corpus does not run (PTX asm, fp8 scaled dot) still round-trip.
KERNELS = {
    "scaled_dot": (scaled_dot, {"a_ptr": "*fp8e4nv", "as_ptr": "*u8", "b_ptr": "*fp8e4nv",
                                "bs_ptr": "*u8", "c_ptr": "*fp32"}, {}),
    "inline_asm": (inline_asm, {"x_ptr": "*i32", "y_ptr": "*i32"}, {}),
    "mapped": (mapped, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {}),
    "nested_loops": (nested_loops, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                    "m": "i32", "BLOCK": "constexpr"}, {"BLOCK": 64}),
    "while_and_return": (while_and_return, {"x_ptr": "*i32", "out_ptr": "*i32", "n": "i32"},
                         {}),
    "argmax_rows": (argmax_rows, {"x_ptr": "*fp32", "idx_ptr": "*i32", "stride": "i32",
                                  "N": "constexpr"}, {"N": 128}),
    "pointer_loop": (pointer_loop, {"a_ptr": "*fp16", "c_ptr": "*fp16", "K": "i32",
                                    "stride_k": "i32", "BLOCK": "constexpr"}, {"BLOCK": 32}),
}


@functools.cache
def _ttir(name: str) -> str:
    """The kernel's TTIR, made once for all the tests that read it."""
    return ttir_text(*KERNELS[name])


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_fresh_kernel_round_trips(tool: Path, name: str) -> None:
    ttir = _ttir(name)
    proc = subprocess.run([str(tool), *PRINT_FLAGS, "-"], input=ttir,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip("\n") == ttir.rstrip("\n")


def test_generic_form_round_trips(tool: Path) -> None:
    """Printing generically and parsing again gives the same module."""
    ttir = _ttir("argmax_rows")
    generic = subprocess.run([str(tool), "--mlir-print-op-generic", "-"], input=ttir,
                             capture_output=True, text=True, check=True).stdout
    again = subprocess.run([str(tool), "-"], input=generic, capture_output=True,
                           text=True, check=True).stdout
    pretty = subprocess.run([str(tool), "-"], input=ttir, capture_output=True,
                            text=True, check=True).stdout
    assert again == pretty


# Kernels --triton-to-linalg rejects, with the start of the diagnostic.
LOWERING_REJECTS = {
    "inline_asm": "inline assembly (tl.inline_asm_elementwise) targets a specific GPU ISA",
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_fresh_kernel_lowers_to_linalg(tool: Path, name: str) -> None:
    """Kernels outside the corpus lower with no Triton op or type left, or are
    rejected with a diagnostic that names the unsupported feature."""
    ttir = _ttir(name)
    proc = subprocess.run([str(tool), "--triton-to-linalg", "-"], input=ttir,
                          capture_output=True, text=True, check=False)
    if name in LOWERING_REJECTS:
        assert proc.returncode != 0
        assert LOWERING_REJECTS[name] in proc.stderr
        assert "test_round_trip.py:" in proc.stderr  # the Python source line
        return
    assert proc.returncode == 0, proc.stderr
    assert "tt." not in proc.stdout.replace("tt.divisibility", "")
    assert "func.func" in proc.stdout
