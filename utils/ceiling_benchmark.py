"""What the GPU reaches at all, through each backend: copy bandwidth, fp32
multiply-add throughput and fp16 dot throughput, measured by three small
Triton kernels on Triton's CUDA backend and on this one, side by side (each
in its own process, `do_bench`, steady state as in kernel_benchmark.py).
The kernel table's figures are put next to these ceilings in the README.

    bash scripts/gpu_machine.sh python3 utils/ceiling_benchmark.py --side-by-side benchmarks/h200-ceilings.json
    python3 utils/ceiling_benchmark.py OUT.json --backend spirv --small   # lavapipe

- copy: y = x over 1 GiB (fp32), bytes read plus written per second.
- fma: each program keeps a block of fp32 values in registers and updates
  every element `iters` times by x = x * a + b (one multiply-add each,
  independent across elements); 2 flops per update.
- dot: each program loads a 128x64 and a 64x128 fp16 tile once, then
  accumulates `iters` dots of them into a 128x128 fp32 accumulator. Triton's
  CUDA backend keeps the tiles in registers. This backend stages its
  operands into workgroup memory in chunks of K, and the chunking moves the
  tiles' loads into the loop: at every dot it loads them again (from the
  cache) and stages them for its cooperative matrices. Its figure is the
  ceiling of fp16 dots as it emits them, not of the tensor cores alone.
- cooperative-matrix multiply-add (this backend only, on devices of the
  nvidia preset): the tensor cores through Vulkan, without this compiler's
  code generation: SPIR-V shaders written by hand
  (`ceilings/cooperative_matrix.py`), serialized by `triton-spirv-opt` and
  launched through the runtime. Each subgroup multiplies fragments into
  eight accumulators: fp16 and bf16 16x16x16 products into fp32, int8
  16x16x32 ones into int32 (a kind the device lacks is skipped). fp16 with
  the operands in registers (loaded once), and loaded again from workgroup
  memory before every step's eight multiply-adds (as a matmul's are).
  Timed with the runtime's GPU timestamps (they are no Triton kernels, so
  `do_bench` does not see them), in steady state as the others.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any, Callable

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent))
import raw_shader  # noqa: E402
from ceilings import cooperative_matrix  # noqa: E402
from kernel_benchmark import steady_times  # noqa: E402
from side_by_side import Backend, run_records_command_line  # noqa: E402


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


@triton.jit
def fma_kernel(out_ptr, iters, a, b, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = offsets.to(tl.float32) * 1e-6
    for _ in range(iters):
        x = x * a + b
    tl.store(out_ptr + offsets, x)


@triton.jit
def dot_kernel(a_ptr, b_ptr, out_ptr, iters, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rows, cols, ks = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    a = tl.load(a_ptr + rows[:, None] * BK + ks[None, :])
    b = tl.load(b_ptr + ks[:, None] * BN + cols[None, :])
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for _ in range(iters):
        acc = tl.dot(a, b, acc)
    tile = tl.program_id(0) * BM * BN
    tl.store(out_ptr + tile + rows[:, None] * BN + cols[None, :], acc)


# The hand-written shaders: (kind, feed), by what they measure.
SHADERS = {"fp16 -> fp32, operands in registers": ("f16", "registers"),
           "fp16 -> fp32, operands from workgroup memory": ("f16", "workgroup"),
           "bf16 -> fp32, operands in registers": ("bf16", "registers"),
           "int8 -> int32, operands in registers": ("i8", "registers")}


def shader_tiles(kind: cooperative_matrix.Kind, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, bytes]:
    """Two A and four B tiles of `kind` (as fp32 or int64 values for the
    reference) and their bytes as the shader reads them."""
    a_shape, b_shape = (2, kind.m, kind.k), (4, kind.k, kind.n)
    if kind.name == "i8":
        a, b = (torch.randint(-8, 8, shape, generator=gen, dtype=torch.int8) for shape in (a_shape, b_shape))
        data = torch.cat([a.flatten(), b.flatten()]).numpy().tobytes()
        return a.long(), b.long(), data
    dtype = torch.float16 if kind.name == "f16" else torch.bfloat16
    a, b = (torch.randn(shape, generator=gen).mul(0.1).to(dtype) for shape in (a_shape, b_shape))
    data = torch.cat([a.flatten(), b.flatten()]).view(torch.int16).numpy().tobytes()
    return a.float(), b.float(), data


def cooperative_matrix_muladd(kind: cooperative_matrix.Kind, feed: str,
                              small: bool) -> tuple[list[float], int, bool]:
    """Milliseconds per launch of the hand-written shader of `kind` fed from
    `feed` (steady state), its multiply-add operations per launch and
    whether its sums were right."""
    from triton_spirv import vulkan

    device = vulkan.device()
    kernel = vulkan.Kernel(device, raw_shader.serialize(cooperative_matrix.shader(kind, feed)),
                           cooperative_matrix.entry_point(kind, feed), num_bindings=2, push_constant_bytes=16)
    workgroups = 4 if small else device.properties.compute_units * 8
    iterations = 16 if small else 4096
    a, b, data = shader_tiles(kind, torch.Generator().manual_seed(0))
    subgroups = workgroups * cooperative_matrix.SUBGROUPS
    sums_count = subgroups * cooperative_matrix.TILES_OUT * kind.m * kind.n
    inputs, outputs = raw_shader.Buffer(device, len(data)), raw_shader.Buffer(device, sums_count * 4)
    try:
        inputs.write(data)
        # The iterations, then room for the first workgroup's id.
        constants = iterations.to_bytes(4, "little") + bytes(12)
        times = raw_shader.steady_launch_times(kernel, (workgroups, 1, 1), [inputs, outputs], constants, 4)
        sums = torch.frombuffer(bytearray(outputs.read(sums_count * 4)),
                                dtype=torch.int32 if kind.name == "i8" else torch.float32)
    finally:
        inputs.free()
        outputs.free()
    expected = torch.stack([a[i] @ b[j] for i in range(2) for j in range(4)]) * iterations
    sums = sums.view(subgroups, cooperative_matrix.TILES_OUT, kind.m, kind.n)
    if kind.name == "i8":
        correct = bool((sums.long() == expected).all())
    else:
        correct = torch.allclose(sums, expected.expand_as(sums), rtol=1e-3, atol=1e-3 * iterations)
    operations = 2 * kind.m * kind.n * kind.k * cooperative_matrix.TILES_OUT * subgroups * iterations
    return times, operations, correct


def measure(backend: str, small: bool) -> list[dict[str, Any]]:
    side = Backend(backend)
    records = []

    def add(name: str, unit: str, times: list[float], amount: float, correct: bool) -> None:
        rates = sorted(amount / (ms * 1e-3) / (1e9 if unit == "GB/s" else 1e12) for ms in times)
        entry = {"kernel": name, "unit": unit, "ms": times, "rate": statistics.median(rates),
                 "rate_spread": (rates[-1] - rates[0]) / 2, "correct": correct}
        records.append(entry)
        print(f"{name:34s} {entry['rate']:9.2f} ±{entry['rate_spread']:.2f} {unit}"
              f"{'' if correct else '  WRONG RESULT'}", flush=True)

    def record(name: str, unit: str, run: Callable[[], None], amount: float, check: Callable[[], bool]) -> None:
        run()
        times = steady_times(run)
        add(name, unit, times, amount, bool(check()))

    # Copy.
    n = 2 ** 20 if small else 2 ** 28
    x = side.tensor(torch.rand(n))
    y = side.tensor(torch.empty(n))
    record(f"copy fp32 ({4 * n >> 20} MiB)", "GB/s",
           lambda: copy_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096, num_warps=8),
           2 * 4 * n, lambda: torch.equal(y.cpu(), x.cpu()))

    # Multiply-adds in registers.
    block, programs, iters = 1024, (64 if small else 132 * 64), (256 if small else 4096)
    out = side.tensor(torch.empty(programs * block))
    a, b = 0.999, 1e-3
    def expected_fma() -> torch.Tensor:
        values = torch.arange(programs * block, dtype=torch.float64) * 1e-6
        power = a ** iters
        return values * power + b * (1 - power) / (1 - a)
    record("fma fp32 (registers)", "TFLOP/s",
           lambda: fma_kernel[(programs,)](out, iters, a, b, BLOCK=block, num_warps=4),
           2 * programs * block * iters,
           lambda: torch.allclose(out.cpu().double(), expected_fma(), rtol=1e-3, atol=1e-3))

    # fp16 dots on resident tiles.
    bm, bn, bk = 128, 128, 64
    programs, iters = (4 if small else 132 * 4), (16 if small else 1024)
    gen = torch.Generator().manual_seed(0)
    tile_a = torch.randn(bm, bk, generator=gen).mul(0.1).half()
    tile_b = torch.randn(bk, bn, generator=gen).mul(0.1).half()
    a_dev, b_dev = side.tensor(tile_a), side.tensor(tile_b)
    acc = side.tensor(torch.empty(programs * bm * bn))
    expected_dot = (tile_a.float() @ tile_b.float()) * iters
    record(f"dot fp16 -> fp32 ({bm}x{bn}x{bk}, resident)", "TFLOP/s",
           lambda: dot_kernel[(programs,)](a_dev, b_dev, acc, iters, BM=bm, BN=bn, BK=bk, num_warps=8),
           2 * programs * bm * bn * bk * iters,
           lambda: torch.allclose(acc.cpu()[:bm * bn].view(bm, bn), expected_dot, rtol=1e-2, atol=1e-1 * iters ** 0.5))

    # The tensor cores through Vulkan, without this compiler (devices of the
    # nvidia preset: those with cooperative matrices here).
    if backend == "spirv" and vulkan_target() == "nvidia":
        from triton_spirv import vulkan
        for what, (kind, feed) in SHADERS.items():
            name = f"cooperative-matrix muladd {what}"
            if kind == "bf16" and not vulkan.device().properties.bfloat16_cooperative_matrix:
                print(f"{name}: skipped (no bf16 cooperative matrices)", flush=True)
                continue
            try:
                result = cooperative_matrix_muladd(cooperative_matrix.KINDS[kind], feed, small)
            except vulkan.VulkanError as error:  # a kind the device lacks
                print(f"{name}: skipped ({str(error).splitlines()[0]})", flush=True)
                continue
            add(name, "TOPS" if kind == "i8" else "TFLOP/s", *result)
    return records


def vulkan_target() -> str:
    from triton_spirv import vulkan
    return vulkan.device().properties.target


def markdown(results: dict[str, Any]) -> str:
    cuda = {r["kernel"]: r for r in results.get("cuda", {}).get("records", [])}
    devices = ", ".join(f"{name}: {result['device']}" for name, result in results.items())
    lines = [f"Devices: {devices}", "", "| ceiling | unit | Triton-CUDA | this backend | ratio |", "|---|---|---|---|---|"]
    for record in results["spirv"]["records"]:
        theirs = cuda.get(record["kernel"])

        def cell(r: dict[str, Any] | None) -> str:
            if not r:
                return "–"
            return f"{r['rate']:.2f} ±{r['rate_spread']:.2f}" + ("" if r["correct"] else " (WRONG)")

        ratio = f"{record['rate'] / theirs['rate']:.2f}" if theirs else "–"
        lines.append(f"| {record['kernel']} | {record['unit']} | {cell(theirs)} | {cell(record)} | {ratio} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    run_records_command_line(__file__, __doc__, measure, markdown)


if __name__ == "__main__":
    main()
