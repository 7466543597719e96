"""Kernels timed side by side: Triton's CUDA backend and this backend, each in
its own process on the same GPU, with Triton's `do_bench` on both (the L2
flushed by a GPU-side fill on both sides), the median of five `do_bench`
calls with their spread, once three calls in a row agree within 2% (steady
state: up to twelve calls are discarded). Each side checks its result against PyTorch on its
device. Writes JSON (with every configuration's median rate next to the
best one's figures) and a Markdown table. Each side writes its records
after every case (side by side, to OUT.cuda.json and OUT.spirv.json, which
go once OUT.json is written), so that a run cut short by a time limit
leaves what it measured.

    bash scripts/gpu_machine.sh python3 utils/kernel_benchmark.py --side-by-side benchmarks/h200-kernels.json
    python3 utils/kernel_benchmark.py OUT.json --backend spirv --small   # here, on lavapipe

`--only softmax,layer` runs the cases whose kernel name and size contain one
of the comma-separated parts (`--only "N_CTX 4096"`: attention at N_CTX 4096;
a size's own comma separates parts too, so name one of its halves).
`--attention-configs wide` tries BLOCK_Q 64 and 128, BLOCK_KV 16 to 128 and 4
or 8 warps on both sides (tutorial 06's autotune space and BLOCK_KV 16, its
num_stages aside) instead of the five configurations below.

Cases: the memory-bound kernels of the layouts issue (vector add, fused
softmax, layer-norm forward) and matmuls (fp32 ieee, fp16, bf16 at 1024^3,
4096^3 and 8192x8192x1024) and attention (causal and not) at the block
sizes that now fit (best of a fixed configuration list on each side; this
backend skips what its device cannot hold). Side by side, a PNG plot of the
ratios goes next to the table.
"""

from __future__ import annotations

import gc
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

import torch
import triton

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
from corpus.kernels.dots import attention_fwd_kernel, attention_reference  # noqa: E402
from corpus.kernels.layer_norm import layer_norm_fwd_kernel  # noqa: E402
from corpus.kernels.matmul import launch_matmul  # noqa: E402
from corpus.kernels.softmax import softmax_kernel  # noqa: E402
from corpus.kernels.vector_add import vector_add_kernel  # noqa: E402
from side_by_side import Backend, argument_parser, device_name, run_command_line  # noqa: E402

# `do_bench` calls discarded at most before the ones that count, and how
# close the last STEADY_CALLS must be for the state to count as steady.
MAX_WARMUP_CALLS = 12
STEADY_CALLS = 3
STEADY = 0.02
MEASURED_CALLS = 5
# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps) for matmuls, as an autotuner would try.
MATMUL_CONFIGS = [(64, 64, 32, 4), (64, 64, 32, 8), (128, 64, 32, 4), (128, 128, 32, 4), (128, 128, 32, 8),
                  (128, 256, 64, 8)]
# (BLOCK_Q, BLOCK_KV, num_warps) for attention. The default list holds each
# side's best configurations of the wide sweep at N_CTX 4096 (H100 and H200):
# 64x64/4 and 128x64/8 for Triton-CUDA, 128x32 on 4 and 8 warps for this
# backend, and 128x64/4 (this backend's best at N_CTX 1024, HEAD_DIM 64).
ATTENTION_CONFIGS = {
    "default": [(64, 64, 4), (128, 64, 4), (128, 32, 4), (128, 32, 8), (128, 64, 8)],
    "wide": [(q, kv, w) for q in (64, 128) for kv in (16, 32, 64, 128) for w in (4, 8)],
}


def host(tensor: torch.Tensor) -> torch.Tensor:
    """A result, back on the CPU in fp32, to check."""
    return tensor.cpu().float()


Case = tuple[str, str, str, Callable[[Backend], tuple[list[tuple[str, Callable[[], None]]], Callable[[], bool], float]]]


def vector_add(n: int):
    def make(side: Backend):
        x, y = side.tensor(torch.rand(n)), side.tensor(torch.rand(n))
        out = side.tensor(torch.empty(n))
        run = lambda: vector_add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
        check = lambda: torch.equal(host(out), host(x) + host(y))
        return [("BLOCK 1024", run)], check, 3 * 4 * n
    return make


def softmax(rows: int, cols: int):
    def make(side: Backend):
        x = side.tensor(torch.randn(rows, cols))
        out = side.tensor(torch.empty(rows, cols))
        block = triton.next_power_of_2(cols)
        warps = 16 if block >= 16384 else 8 if block >= 2048 else 4
        run = lambda: softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), rows, cols, BLOCK_SIZE=block,
                                              num_warps=warps)
        check = lambda: torch.allclose(host(out), torch.softmax(host(x), dim=1), atol=1e-5)
        return [(f"BLOCK {block}, {warps} warps", run)], check, 2 * 4 * rows * cols
    return make


def layer_norm(rows: int, cols: int):
    def make(side: Backend):
        x = side.tensor(torch.randn(rows, cols))
        w, b = side.tensor(torch.rand(cols)), side.tensor(torch.rand(cols))
        y = side.tensor(torch.empty(rows, cols))
        mean, rstd = side.tensor(torch.empty(rows)), side.tensor(torch.empty(rows))
        block = min(16384, triton.next_power_of_2(cols))
        warps = min(max(block // 256, 1), 8)
        run = lambda: layer_norm_fwd_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols, 1e-5,
                                                     BLOCK_SIZE=block, num_warps=warps)
        expected = lambda: torch.nn.functional.layer_norm(host(x), (cols,), host(w), host(b), 1e-5)
        check = lambda: torch.allclose(host(y), expected(), atol=1e-4)
        return [(f"BLOCK {block}, {warps} warps", run)], check, 2 * 4 * rows * cols
    return make


def matmul(m: int, n: int, k: int, dtype: torch.dtype):
    def make(side: Backend):
        gen = torch.Generator().manual_seed(0)
        a = side.tensor(torch.randn(m, k, generator=gen).to(dtype))
        b = side.tensor(torch.randn(k, n, generator=gen).to(dtype))
        c = side.tensor(torch.empty(m, n, dtype=dtype))
        precision = "ieee" if dtype == torch.float32 else "tf32"

        def launch(bm: int, bn: int, bk: int, warps: int) -> Callable[[], None]:
            return lambda: launch_matmul(a, b, c, bm, bn, bk, warps, precision)

        def check() -> bool:
            rows = slice(0, 256)  # a band of rows, checked in double precision
            expected = host(a)[rows].double() @ host(b).double()
            tolerance = {torch.float32: 1e-3, torch.float16: 2e-2, torch.bfloat16: 1e-1}[dtype]
            return torch.allclose(host(c)[rows].double(), expected, atol=tolerance * math.sqrt(k),
                                  rtol=tolerance)

        return ([(f"BLOCK {bm}x{bn}x{bk}, {w} warps", launch(bm, bn, bk, w)) for bm, bn, bk, w in MATMUL_CONFIGS],
                check, 2 * m * n * k)
    return make


def attention(seq: int, head_dim: int, configs: list[tuple[int, int, int]], heads: int = 32,
              causal: bool = False):
    def make(side: Backend):
        gen = torch.Generator().manual_seed(1)
        q, k, v = (side.tensor(torch.randn(heads, seq, head_dim, generator=gen).mul(0.5).half()) for _ in range(3))
        out = side.tensor(torch.empty(heads, seq, head_dim, dtype=torch.float16))
        scale = 1.0 / math.sqrt(head_dim)

        def launch(bq: int, bkv: int, warps: int) -> Callable[[], None]:
            grid = (triton.cdiv(seq, bq), heads)
            return lambda: attention_fwd_kernel[grid](q, k, v, out, seq, scale, HEAD_DIM=head_dim, BLOCK_Q=bq,
                                                      BLOCK_KV=bkv, CAUSAL=causal, num_warps=warps)

        def check() -> bool:
            qh, kh, vh = (host(t[:2]) for t in (q, k, v))  # two heads
            expected = attention_reference(qh, kh, vh, scale, causal)
            return torch.allclose(host(out)[:2], expected, atol=1e-2, rtol=1e-2)

        # A causal pass does half the products (as Triton's tutorial counts).
        flops = 4 * heads * seq * seq * head_dim // (2 if causal else 1)
        return ([(f"BLOCK {bq}x{bkv}, {w} warps", launch(bq, bkv, w)) for bq, bkv, w in configs],
                check, flops)
    return make


def cases(small: bool, attention_configs: str = "default") -> list[Case]:
    configs = ATTENTION_CONFIGS[attention_configs]
    if small:
        return [("vector add fp32", "2^20", "GB/s", vector_add(2 ** 20)),
                ("fused softmax fp32", "256x1024", "GB/s", softmax(256, 1024)),
                ("layer norm fwd fp32", "256x1024", "GB/s", layer_norm(256, 1024)),
                ("matmul fp32 ieee", "256^3", "TFLOP/s", matmul(256, 256, 256, torch.float32)),
                ("matmul fp16", "256^3", "TFLOP/s", matmul(256, 256, 256, torch.float16)),
                ("matmul bf16", "256^3", "TFLOP/s", matmul(256, 256, 256, torch.bfloat16)),
                ("attention fwd fp16", "N_CTX 256, HEAD_DIM 64", "TFLOP/s", attention(256, 64, configs, heads=2)),
                ("attention fwd fp16 causal", "N_CTX 256, HEAD_DIM 64", "TFLOP/s",
                 attention(256, 64, configs, heads=2, causal=True))]
    result: list[Case] = [("vector add fp32", f"2^{e}", "GB/s", vector_add(2 ** e)) for e in (24, 27)]
    result += [("fused softmax fp32", f"4096x{c}", "GB/s", softmax(4096, c)) for c in (1024, 4096, 16384)]
    result += [("layer norm fwd fp32", f"4096x{c}", "GB/s", layer_norm(4096, c)) for c in (4096, 8192)]
    for name, dtype in (("matmul fp32 ieee", torch.float32), ("matmul fp16", torch.float16),
                        ("matmul bf16", torch.bfloat16)):
        result += [(name, f"{size}^3", "TFLOP/s", matmul(size, size, size, dtype)) for size in (1024, 4096)]
        result.append((name, "8192x8192x1024", "TFLOP/s", matmul(8192, 8192, 1024, dtype)))
    for causal in (False, True):
        result += [(f"attention fwd fp16{' causal' if causal else ''}", f"N_CTX {n}, HEAD_DIM {d}", "TFLOP/s",
                    attention(n, d, configs, causal=causal)) for n in (1024, 4096) for d in (64, 128)]
    return result


def steady_times(run: Callable[[], None]) -> list[float]:
    """`do_bench` times of `run` in steady state. The first calls on fresh
    device memory run up to 3x slower on this backend, and kernels that
    follow a long compile may start before the GPU's clocks are up."""
    recent: list[float] = []
    for _ in range(MAX_WARMUP_CALLS):
        recent = (recent + [triton.testing.do_bench(run, warmup=10, rep=100)])[-STEADY_CALLS:]
        if len(recent) == STEADY_CALLS and max(recent) <= (1 + STEADY) * min(recent):
            break
    return [triton.testing.do_bench(run, warmup=10, rep=100) for _ in range(MEASURED_CALLS)]


def measure(backend: str, small: bool, wanted: list[str], attention_configs: str,
            progress: Callable[[list[dict[str, Any]]], None] = lambda records: None) -> list[dict[str, Any]]:
    """The records of the `wanted` cases; `progress` gets the records so far
    after each case."""
    side = Backend(backend)
    records = []
    for name, size, unit, make in cases(small, attention_configs):
        if wanted and not any(part in f"{name} {size}" for part in wanted):
            continue
        gc.collect()  # the last case's tensors go before this one's are timed
        side.synchronize()
        candidates, check, amount = make(side)

        def rate(ms: float) -> float:
            return amount / (ms * 1e-3) / (1e9 if unit == "GB/s" else 1e12)

        best: tuple[list[float], str, Callable[[], None]] | None = None
        # Every configuration's median rate, to compare code generation changes
        # per configuration, not only through the best one.
        config_rates: dict[str, float] = {}
        for config, run in candidates:
            try:
                run()
                times = steady_times(run)
            except Exception as error:  # a configuration the device cannot hold
                print(f"{name:22s} {config}: skipped ({str(error).splitlines()[0][:100]})", flush=True)
                continue
            config_rates[config] = rate(statistics.median(times))
            if best is None or config_rates[config] > config_rates[best[1]]:
                best = (times, config, run)
        if best is None:
            records.append({"kernel": name, "size": size, "unit": unit, "config": None})
            progress(records)
            continue
        times, config, run = best
        run()  # the checked result is the best configuration's
        rates = sorted(rate(ms) for ms in times)
        record = {"kernel": name, "size": size, "unit": unit, "config": config, "ms": times,
                  "rate": statistics.median(rates), "rate_spread": (rates[-1] - rates[0]) / 2,
                  "correct": bool(check()), "config_rates": config_rates}
        records.append(record)
        print(f"{name:22s} {size:24s} {record['rate']:9.2f} ±{record['rate_spread']:.2f} {unit}  ({config})"
              f"{'' if record['correct'] else '  WRONG RESULT'}", flush=True)
        progress(records)
    return records


def paired_records(results: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any] | None, float | None]]:
    """This backend's records with Triton-CUDA's for the same case and the
    ratio of their rates (None where either side has no result)."""
    cuda = {(r["kernel"], r["size"]): r for r in results.get("cuda", {}).get("records", [])}
    pairs = []
    for record in results["spirv"]["records"]:
        theirs = cuda.get((record["kernel"], record["size"]))
        ratio = (record["rate"] / theirs["rate"]
                 if theirs and theirs.get("config") and record.get("config") else None)
        pairs.append((record, theirs, ratio))
    return pairs


def markdown(results: dict[str, Any]) -> str:
    devices = ", ".join(f"{name}: {result['device']}" for name, result in results.items())
    lines = [f"Devices: {devices}", "",
             "| kernel | size | unit | Triton-CUDA | this backend | ratio | configurations (CUDA / this) |",
             "|---|---|---|---|---|---|---|"]

    def cell(r: dict[str, Any] | None) -> str:
        if not r or r.get("config") is None:
            return "–"
        return f"{r['rate']:.2f} ±{r['rate_spread']:.2f}" + ("" if r["correct"] else " (WRONG)")

    for record, theirs, ratio in paired_records(results):
        configs = f"{theirs.get('config') if theirs else '–'} / {record.get('config') or 'none fits'}"
        lines.append(f"| {record['kernel']} | {record['size']} | {record['unit']} | {cell(theirs)} | "
                     f"{cell(record)} | {'–' if ratio is None else f'{ratio:.2f}'} | {configs} |")
    return "\n".join(lines) + "\n"


def plot(results: dict[str, Any], path: Path) -> None:
    """A bar per case: this backend's rate as a fraction of Triton-CUDA's."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no plot", flush=True)
        return
    pairs = [(record, ratio) for record, _, ratio in paired_records(results) if ratio is not None]
    labels = [f"{record['kernel']} {record['size']}" for record, _ in pairs]
    ratios = [ratio for _, ratio in pairs]
    figure, axes = plt.subplots(figsize=(10, 0.3 * len(labels) + 1.5))
    bars = axes.barh(labels[::-1], ratios[::-1])
    axes.bar_label(bars, fmt="%.2f", padding=2, fontsize=8)
    axes.axvline(1.0, color="black", linewidth=0.8)
    axes.set_xlabel("this backend / Triton-CUDA (same GPU, same run)")
    axes.set_title(results["spirv"]["device"], fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--small", action="store_true", help="small sizes, for a CPU device")
    parser.add_argument("--only", default="",
                        help="comma-separated parts of kernel names and sizes to run (default: all)")
    parser.add_argument("--attention-configs", choices=sorted(ATTENTION_CONFIGS), default="default",
                        help="attention configurations tried on both sides")
    args = parser.parse_args()
    forwarded = ((["--small"] if args.small else []) + (["--only", args.only] if args.only else [])
                 + ["--attention-configs", args.attention_configs])
    wanted = [part for part in args.only.split(",") if part]

    def measured(backend: str) -> dict[str, Any]:
        result: dict[str, Any] = {"backend": backend, "device": device_name(backend), "records": []}

        def save(records: list[dict[str, Any]]) -> None:
            # The cases so far, so that a run cut short leaves them.
            result["records"] = records
            args.output.write_text(json.dumps(result, indent=2) + "\n")

        measure(backend, args.small, wanted, args.attention_configs, save)
        return result

    run_command_line(__file__, args, forwarded, measured, markdown, figure=plot)


if __name__ == "__main__":
    main()
