"""The official tutorials' own benchmark functions at chosen points, side by
side: Triton's CUDA backend and this one on one GPU, every tensor made by the
tutorial on its `DEVICE` (`cuda`, or `spirv` through this backend).

Each tutorial file is run unmodified except that its top-level `X.run(...)`
calls (the benchmark sweeps, which plot every size for every provider) are
left out; its correctness checks run as written. Then the function its
`triton.testing.perf_report` decorates is called for the points below, with
provider "triton": the tutorial's own tensors, wrapper, autotune list and
`do_bench` call, and its own GB/s or TFLOP/s (the median of three calls,
after a second of calls not counted: side_by_side.WARMUP_S, the GPU's
clocks). `--only 01,05` picks tutorials. The tutorials are not part of
this repository: pass a Triton 3.6 checkout's python/tutorials folder.

    bash scripts/gpu_machine.sh python3 utils/tutorial_benchmark.py benchmarks/h200-tutorials.json .tt/tutorials --side-by-side
    python3 utils/tutorial_benchmark.py OUT.json .tt/tutorials --small    # here, on lavapipe
"""

from __future__ import annotations

import ast
import os
import statistics
import sys
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from side_by_side import WARMUP_S, argument_parser, device_name, run_command_line, warm_up  # noqa: E402

# (file, decorated function, unit, points)
POINTS: list[tuple[str, str, str, list[dict[str, Any]]]] = [
    ("01-vector-add.py", "benchmark", "GB/s", [{"size": 2**24}]),
    ("02-fused-softmax.py", "benchmark", "GB/s", [{"M": 4096, "N": 4096}]),
    ("03-matrix-multiplication.py", "benchmark", "TFLOP/s",
     [{"M": n, "N": n, "K": n, "fp8_inputs": False} for n in (1024, 4096)]),
    ("05-layer-norm.py", "bench_layer_norm", "GB/s",
     [{"M": 4096, "N": n, "dtype": torch.float16, "mode": mode}
      for mode in ("forward", "backward") for n in (4096, 8192)]),
]


# Sizes a CPU device (lavapipe) gets through in seconds.
SMALL_POINTS: list[tuple[str, str, str, list[dict[str, Any]]]] = [
    ("01-vector-add.py", "benchmark", "GB/s", [{"size": 2**16}]),
    ("02-fused-softmax.py", "benchmark", "GB/s", [{"M": 256, "N": 1024}]),
    ("03-matrix-multiplication.py", "benchmark", "TFLOP/s", [{"M": 256, "N": 256, "K": 256, "fp8_inputs": False}]),
    ("05-layer-norm.py", "bench_layer_norm", "GB/s",
     [{"M": 256, "N": 1024, "dtype": torch.float16, "mode": mode} for mode in ("forward", "backward")]),
]


def load_without_sweeps(path: Path) -> tuple[dict[str, Any], list[str]]:
    """Runs the tutorial, statement by statement, with its top-level
    `.run(...)` calls left out: its namespace, and the top-level statements
    (its checks) that raised, which do not stop the rest."""
    tree = ast.parse(path.read_text(), str(path))
    namespace: dict[str, Any] = {"__name__": "__tutorial__", "__file__": str(path)}
    failures: list[str] = []
    previous = os.getcwd()
    os.chdir(os.environ.get("TMPDIR", "/tmp"))  # tutorials may write files
    try:
        for node in tree.body:
            call = node.value if isinstance(node, ast.Expr) else None
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "run":
                continue
            try:
                exec(compile(ast.Module(body=[node], type_ignores=[]), str(path), "exec"), namespace)
            except Exception as error:  # noqa: BLE001 - a failed check is reported, not fatal
                if not isinstance(node, ast.Expr):
                    raise
                failures.append(f"line {node.lineno}: {type(error).__name__} {error}".strip())
                print(f"  check at line {node.lineno} failed: {type(error).__name__} {error}", flush=True)
    finally:
        os.chdir(previous)
    return namespace, failures


def describe(point: dict[str, Any]) -> str:
    return " ".join(f"{key}={str(value).replace('torch.', '')}" for key, value in point.items())


def measure(backend: str, tutorials: Path, small: bool, only: str | None) -> dict[str, Any]:
    records = []
    checks: dict[str, list[str]] = {}
    for file, function, unit, points in SMALL_POINTS if small else POINTS:
        if only and not any(part in file for part in only.split(",")):
            continue
        print(f"== {backend}: {file}", flush=True)
        namespace, failures = load_without_sweeps(tutorials / file)
        checks[file] = failures
        mark = namespace[function]
        for point in points:
            # The tutorial's function for a second (autotuning, caches, the
            # GPU's clocks), then the median of three calls.
            warm_up(lambda: mark.fn(provider="triton", **point), 0.0 if small else WARMUP_S)
            rates = [mark.fn(provider="triton", **point) for _ in range(3)]
            median = statistics.median(rate[0] if isinstance(rate, tuple) else rate for rate in rates)
            records.append({"tutorial": file, "point": describe(point), "unit": unit, "rate": median})
            print(f"  {describe(point)}: {median:.1f} {unit}", flush=True)
    return {"backend": backend, "device": device_name(backend), "torch_device": str(namespace["DEVICE"]),
            "records": records, "failed_checks": checks}


def markdown(results: dict[str, Any]) -> str:
    sides = [side for side in ("cuda", "spirv") if side in results]
    header = "| tutorial | point | " + " | ".join(
        f"{side} (DEVICE={results[side]['torch_device']})" for side in sides)
    lines = [header + (" | spirv / cuda |" if len(sides) == 2 else " |"),
             "|---|---|" + "---|" * (len(sides) + (len(sides) == 2))]
    rows = {side: {(r["tutorial"], r["point"]): r for r in results[side]["records"]} for side in sides}
    for key, first in rows[sides[0]].items():
        cells = [f"{rows[side][key]['rate']:.1f} {first['unit']}" for side in sides]
        ratio = (f" | {rows['spirv'][key]['rate'] / rows['cuda'][key]['rate']:.2f}"
                 if len(sides) == 2 else "")
        lines.append(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + ratio + " |")
    for side in sides:
        for file, failures in results[side]["failed_checks"].items():
            for failure in failures:
                lines.append(f"\n{side}: {file}'s check at {failure}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("tutorials", type=Path, help="a Triton checkout's python/tutorials folder")
    parser.add_argument("--small", action="store_true", help="small sizes, for a CPU device")
    parser.add_argument("--only", help="comma-separated parts of the tutorials' file names")
    args = parser.parse_args()
    tutorials = args.tutorials.resolve()
    forwarded = [str(tutorials)] + (["--small"] if args.small else []) + (["--only", args.only] if args.only else [])
    run_command_line(__file__, args, forwarded,
                     lambda backend: measure(backend, tutorials, args.small, args.only), markdown)


if __name__ == "__main__":
    main()
