"""The command line both side-by-side benchmarks share: `OUTPUT --backend B`
measures one backend in this process; `OUTPUT --side-by-side` runs the script
once per backend, each in its own process (Triton picks one driver per
process): Triton's CUDA backend, then this one."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import torch


# Seconds of work before anything is timed, on both sides: through Vulkan the
# H200 idles at 345 MHz and reaches its 1980 MHz only after some 0.1-0.3 s of
# load, where CUDA keeps its clocks up (rounds right after a compile measured
# up to 5 times as long).
WARMUP_S = 1.0


def warm_up(step: Callable[[], Any], seconds: float = WARMUP_S) -> None:
    """Runs `step` (at least once) until `seconds` have passed."""
    start = time.perf_counter()
    step()
    while time.perf_counter() - start < seconds:
        step()


def argument_parser(description: str | None) -> argparse.ArgumentParser:
    """OUTPUT, --backend (one side, in this process) and --side-by-side."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=Path)
    parser.add_argument("--backend", choices=["cuda", "spirv"], default="spirv")
    parser.add_argument("--side-by-side", action="store_true")
    return parser


def device_name(backend: str) -> str:
    if backend == "cuda":
        return torch.cuda.get_device_name()
    from triton_spirv import vulkan
    return vulkan.device().properties.name


class Backend:
    """Tensors and synchronization of one backend."""

    def __init__(self, name: str) -> None:
        self.name = name
        if name == "cuda":
            self.synchronize: Callable[[], None] = torch.cuda.synchronize
            self.tensor: Callable[[torch.Tensor], torch.Tensor] = lambda t: t.cuda()
            self.empty: Callable[[int, torch.dtype], torch.Tensor] = \
                lambda n, dtype: torch.empty(n, dtype=dtype, device="cuda")
        else:
            import triton_spirv
            from triton_spirv import memory
            self.synchronize = triton_spirv.synchronize
            self.tensor = memory.to_device
            self.empty = lambda n, dtype: memory.empty(n, dtype)

    def set_asynchronous(self, enabled: bool) -> None:
        if self.name == "spirv":
            import triton_spirv
            triton_spirv.set_asynchronous(enabled)


def run_command_line(script: str, args: argparse.Namespace, forwarded: list[str],
                     measure: Callable[[str], dict[str, Any]], markdown: Callable[[dict[str, Any]], str],
                     figure: Callable[[dict[str, Any], Path], None] | None = None,
                     spirv_without_cuda: bool = False) -> None:
    """One backend: `measure(backend)` here, written to OUTPUT (and, for this
    backend, its Markdown table next to it). Side by side: the script with
    `forwarded` options once per backend, the results by backend in OUTPUT and
    the table in OUTPUT.md (printed too) and, with `figure`, a plot in
    OUTPUT.png."""
    if not args.side_by_side:
        if args.backend == "spirv":
            from triton_spirv.run import activate
            activate()
        result = measure(args.backend)
        args.output.write_text(json.dumps(result, indent=2) + "\n")
        if args.backend == "spirv":
            args.output.with_suffix(".md").write_text(markdown({"spirv": result}))
        return
    results: dict[str, Any] = {}
    # Each side's file stays until the results are written whole: a run cut
    # short (a time limit) leaves what each side had measured.
    parts = [args.output.with_suffix(f".{backend}.json") for backend in ("cuda", "spirv")]
    for backend, part in zip(("cuda", "spirv"), parts):
        command = [sys.executable, script, str(part), "--backend", backend, *forwarded]
        print("==", " ".join(command), flush=True)
        environment = dict(os.environ)
        if backend == "spirv" and spirv_without_cuda:
            # The spirv device as the process's one GPU (Inductor's premise).
            environment["CUDA_VISIBLE_DEVICES"] = ""
        subprocess.run(command, check=True, env=environment)
        results[backend] = json.loads(part.read_text())
    args.output.write_text(json.dumps(results, indent=2) + "\n")
    for part in parts:
        part.unlink()
        part.with_suffix(".md").unlink(missing_ok=True)
    table = markdown(results)
    args.output.with_suffix(".md").write_text(table)
    print(table)
    if figure is not None:
        figure(results, args.output.with_suffix(".png"))


def run_records_command_line(script: str, description: str | None,
                             measure: Callable[[str, bool], list[dict[str, Any]]],
                             markdown: Callable[[dict[str, Any]], str]) -> None:
    """The command line of a script whose results are `measure(backend,
    small)`'s records, with `--small` (sizes for a CPU device) forwarded to
    each side."""
    parser = argument_parser(description)
    parser.add_argument("--small", action="store_true", help="small sizes, for a CPU device")
    args = parser.parse_args()
    run_command_line(script, args, ["--small"] if args.small else [],
                     lambda backend: {"backend": backend, "device": device_name(backend),
                                      "records": measure(backend, args.small)},
                     markdown)
