"""Kernels past what SPIR-V can express are rejected by triton-spirv-opt
with a message naming the limit, not written as modules that drivers
reject or crash on."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl

from triton_spirv.backend.compiler import SPIRVCompilationError


def _on_lavapipe() -> bool:
    return triton.runtime.driver.active.get_current_target().arch.startswith("lavapipe")


@triton.jit
def _count(out, N: tl.constexpr):
    total = 0
    for _ in range(N):
        total += 1
    tl.store(out, total)


@triton.jit
def _accumulate(x, out, ITERATIONS: tl.constexpr, BLOCK: tl.constexpr):
    total = tl.zeros([BLOCK], tl.float32)
    for _ in range(ITERATIONS):
        total += tl.load(x + tl.arange(0, BLOCK))
    tl.store(out + tl.arange(0, BLOCK), total)


@triton.jit
def _wide_dot(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * BN + rn[None, :], acc)


def _nested_loops(depth: int) -> str:
    """TTIR of a kernel whose `depth` loops nest, the innermost storing."""
    lines = ["module {",
             "  tt.func public @deep(%out: !tt.ptr<i32>, %n: i32) {",
             "    %c0 = arith.constant 0 : i32",
             "    %c1 = arith.constant 1 : i32"]
    for level in range(depth):
        lines.append(f"    scf.for %i{level} = %c0 to %n step %c1 : i32 {{")
    lines.append(f"    tt.store %out, %i{depth - 1} : !tt.ptr<i32>")
    lines += ["    }"] * depth
    lines += ["    tt.return", "  }", "}"]
    return "\n".join(lines) + "\n"


def _compile(tool: Path, directory: Path, depth: int) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Runs the pipeline on `depth` nested loops; the run and the binary path."""
    source, binary = directory / "deep.ttir", directory / "deep.spv"
    source.write_text(_nested_loops(depth))
    run = subprocess.run([str(tool), f"--triton-to-spirv=target=lavapipe output={binary}", str(source),
                          "-o", "/dev/null"], capture_output=True, text=True, timeout=600)
    return run, binary


def test_control_flow_nested_past_spirv_limit_is_rejected(tool: Path, tmp_path: Path) -> None:
    # SPIR-V allows structured control flow nested 1023 deep; 1,023 loops
    # compiled (exit 0) to a module spirv-val rejected.
    run, binary = _compile(tool, tmp_path, 1100)
    assert run.returncode != 0
    assert "SPIR-V allows at most 1023" in run.stderr
    assert not binary.exists()


def test_control_flow_within_the_limit_compiles(tool: Path, tmp_path: Path) -> None:
    run, binary = _compile(tool, tmp_path, 100)
    assert run.returncode == 0, run.stderr[-2000:]
    assert binary.stat().st_size > 0


def test_loops_past_lavapipes_loop_limit_are_rejected() -> None:
    # Mesa's llvmpipe ends every loop after 65,535 iterations per invocation
    # (counted over all of the loop's entries), whatever its condition: a
    # loop of 70,000 returned 65,535 here. Known counts past it are refused
    # at the loop's source line; on other devices they run.
    out = torch.zeros(1, dtype=torch.int32)
    _count[(1,)](out, 65535)
    assert int(out) == 65535
    if not _on_lavapipe():
        pytest.skip("only lavapipe limits loops")
    with pytest.raises(SPIRVCompilationError, match=r"runs 70000 iterations .* lavapipe ends every loop after 65535"):
        _count[(1,)](out, 70000)


def test_block_loops_inside_long_loops_are_unrolled_within_lavapipes_limit() -> None:
    # A block of 65,536 over 128 invocations is a loop of 128 runs per
    # invocation, entered once per iteration of the program's loop: 600 of
    # those summed 600 x 128 past the limiter, and lavapipe returned 504
    # instead of 600 in every element. triton-spirv-unroll-for-loop-limit
    # now unrolls it by 2 (600 x 64).
    x, out = torch.ones(65536), torch.zeros(65536)
    _accumulate[(1,)](x, out, 600, 65536, num_warps=4)
    assert bool((out == 600).all())


def test_matmuls_whose_stagings_cannot_fit_are_refused_before_distribution() -> None:
    # A 1024x1024 accumulator stepping 16 deep stages 32 KiB of each operand:
    # more than lavapipe's 32 KiB and the H200's 48 KiB together. It was
    # refused only by the final workgroup-memory check, after the
    # distribution of a block that large (14 s here; 2048x2048 in TTIR took
    # minutes); triton-spirv-check-matmul-stagings refuses it at the dot.
    from triton.runtime.errors import OutOfResources
    a, b = torch.zeros(1024, 64, dtype=torch.float16), torch.zeros(64, 1024, dtype=torch.float16)
    c = torch.empty(1024, 1024)
    with pytest.raises(OutOfResources, match="shared memory"):
        _wide_dot[(1,)](a, b, c, 64, BM=1024, BN=1024, BK=16)
