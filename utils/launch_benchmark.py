"""Launch overhead and sustained throughput, measured the same way on Triton's
CUDA backend and on this one, and large device-memory tensors filled and
checked (right or refused, never silently wrong).

    # on the GPU machine, both backends in one run (JSON + Markdown):
    bash scripts/gpu_machine.sh python3 utils/launch_benchmark.py --side-by-side benchmarks/h200-launch.json
    # one backend, the active one (lavapipe here):
    python3 utils/launch_benchmark.py --backend spirv OUT.json

Per launch: wall clock of a 4096-element vector add launched 2000 times,
synchronizing after each launch, or once at the end (this backend: in its
default synchronous mode and in asynchronous mode); the median of 5 rounds.
Sustained: `triton.testing.do_bench` of a 2^24-element vector add called ten
times in a row in one process. LAUNCHES=N changes the 2000.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import torch
import triton

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
from corpus.kernels.vector_add import fill_kernel, vector_add_kernel  # noqa: E402
from side_by_side import Backend, argument_parser, device_name, run_command_line  # noqa: E402

LAUNCHES = int(os.environ.get("LAUNCHES", 2000))
ROUNDS = 5


def per_launch_us(backend: Backend, sync_each: bool) -> list[float]:
    n = 4096
    x, y, out = (backend.tensor(torch.rand(n)) for _ in range(3))
    grid = (triton.cdiv(n, 1024),)
    for _ in range(100):
        vector_add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    backend.synchronize()
    rounds = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(LAUNCHES):
            vector_add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
            if sync_each:
                backend.synchronize()
        backend.synchronize()
        rounds.append((time.perf_counter() - start) / LAUNCHES * 1e6)
    assert torch.equal(out.cpu(), (x + y).cpu()) if backend.name == "cuda" else torch.equal(out, x + y)
    return rounds


def runtime_floor_us(synchronize_each: bool) -> list[float]:
    """This backend's runtime alone: the runtime calls of a 4096-element
    vector add launch, arguments packed once (what is left when Python's
    share of a launch is taken away)."""
    from triton_spirv import vulkan
    n = 4096
    x, y, out = torch.rand(n), torch.rand(n), torch.empty(n)
    grid = (triton.cdiv(n, 1024),)
    compiled = vector_add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    kernel, device = compiled.module.kernel, vulkan.device()
    captured: list[tuple] = []
    run = kernel.run
    kernel.run = lambda wait, *arguments: captured.append(arguments) or run(wait, *arguments)  # type: ignore
    vector_add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    del kernel.run
    arguments = captured[0]
    rounds = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(LAUNCHES):
            kernel.run(synchronize_each, *arguments)
        device.synchronize()
        rounds.append((time.perf_counter() - start) / LAUNCHES * 1e6)
    return rounds


def sustained_gbps(backend: Backend) -> list[float]:
    n = 2**24
    x, y, out = (backend.tensor(torch.rand(n)) for _ in range(3))
    grid = (triton.cdiv(n, 1024),)
    run = lambda: vector_add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)  # noqa: E731
    return [3 * 4 * n / (triton.testing.do_bench(run) * 1e-3) / 1e9 for _ in range(10)]


def large_fills(backend: Backend) -> list[dict[str, Any]]:
    """Fills int32 tensors around 4 GiB and checks their first, last and a
    sample of other elements."""
    results = []
    for label, nbytes in [("4 GiB - 4 KiB", 2**32 - 4096), ("4 GiB + 16 KiB", 2**32 + 16384),
                          ("6 GiB", 6 * 2**30)]:
        n = nbytes // 4
        record: dict[str, Any] = {"size": label, "bytes": nbytes}
        try:
            # Each backend's torch device (the spirv one spans allocations).
            out = torch.zeros(n, dtype=torch.int32, device=backend.name)
            fill_kernel[(triton.cdiv(n, 1024),)](out, n, 7, BLOCK_SIZE=1024)
            backend.synchronize()
            sample = torch.cat([torch.tensor([0, n - 1]), torch.randint(0, n, (1000,))])
            values = out[sample.to(out.device)].cpu()
            record["result"] = "correct" if bool((values == 7).all()) else "WRONG"
            del out
        except Exception as error:  # a refusal is a result here
            record["result"] = f"refused: {type(error).__name__}: {str(error).splitlines()[0]}"
        results.append(record)
    return results


def measure(backend_name: str, large: bool) -> dict[str, Any]:
    backend = Backend(backend_name)
    result: dict[str, Any] = {"backend": backend_name, "device": device_name(backend_name)}
    result["sync_each_us"] = per_launch_us(backend, sync_each=True)
    result["sync_at_end_us"] = per_launch_us(backend, sync_each=False)
    if backend_name == "spirv":
        result["runtime_only_sync_each_us"] = runtime_floor_us(synchronize_each=True)
        result["runtime_only_sync_at_end_us"] = runtime_floor_us(synchronize_each=False)
        backend.set_asynchronous(True)
        try:
            result["sync_at_end_asynchronous_us"] = per_launch_us(backend, sync_each=False)
            if large:
                result["sustained_vector_add_gbps_asynchronous"] = sustained_gbps(backend)
        finally:
            backend.set_asynchronous(False)
    if large:
        result["sustained_vector_add_gbps"] = sustained_gbps(backend)
        result["large_fills"] = large_fills(backend)
    return result


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} (±{(max(values) - min(values)) / 2:.1f})"


def markdown(results: dict[str, dict[str, Any]]) -> str:
    cuda, spirv = results.get("cuda"), results["spirv"]
    lines = ["| per launch, 4096-element vector add (µs, median of 5 rounds of 2000) | Triton-CUDA | "
             "this backend | ratio |", "|---|---|---|---|"]
    for key, label in [("sync_each_us", "synchronize after each launch"),
                       ("sync_at_end_us", "one synchronize at the end"),
                       ("sync_at_end_asynchronous_us", "one synchronize at the end, asynchronous mode")]:
        ours = spirv.get(key)
        if ours is None:
            continue
        theirs = cuda["sync_at_end_us" if key.startswith("sync_at_end") else key] if cuda else None
        ratio = f"{statistics.median(ours) / statistics.median(theirs):.2f}×" if theirs else "–"
        lines.append(f"| {label} | {_median(theirs) if theirs else '–'} | {_median(ours)} | {ratio} |")
    for key, label in [("runtime_only_sync_each_us", "this backend's runtime calls alone, synchronize after each"),
                       ("runtime_only_sync_at_end_us", "this backend's runtime calls alone, one synchronize at the end")]:
        if key in spirv:
            lines.append(f"| {label} | – | {_median(spirv[key])} | – |")
    if "sustained_vector_add_gbps" in spirv:
        lines += ["", "Ten consecutive `do_bench` calls, vector add 2^24 fp32 (GB/s):", ""]
        for name, key in [("Triton-CUDA", ("cuda", "sustained_vector_add_gbps")),
                          ("this backend", ("spirv", "sustained_vector_add_gbps")),
                          ("this backend, asynchronous mode", ("spirv", "sustained_vector_add_gbps_asynchronous"))]:
            values = results.get(key[0], {}).get(key[1])
            if not values:
                continue
            spread = (max(values) - min(values)) / max(values) * 100
            lines.append(f"- {name}: {', '.join(f'{v:.0f}' for v in values)} (spread {spread:.1f}%)")
        lines += ["", "| int32 tensor filled in device memory | " + " | ".join(results) + " |",
                  "|---|" + "---|" * len(results)]
        for index, record in enumerate(spirv["large_fills"]):
            lines.append(f"| {record['size']} | " +
                         " | ".join(r["large_fills"][index]["result"] for r in results.values()) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--no-large", action="store_true", help="only the per-launch figures")
    args = parser.parse_args()
    run_command_line(__file__, args, ["--no-large"] if args.no_large else [],
                     lambda backend: measure(backend, large=not args.no_large), markdown)


if __name__ == "__main__":
    main()
