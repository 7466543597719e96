"""Runs a benchmark script once per backend, each in its own process (Triton
picks one driver per process): Triton's CUDA backend, then this one."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_both_backends(script: str, output: Path, extra: list[str]) -> dict[str, Any]:
    """`script OUTPUT.<backend>.json --backend <backend> *extra` for "cuda" and
    "spirv"; returns what each wrote, by backend (the part files removed)."""
    results: dict[str, Any] = {}
    for backend in ("cuda", "spirv"):
        part = output.with_suffix(f".{backend}.json")
        command = [sys.executable, script, str(part), "--backend", backend, *extra]
        print("==", " ".join(command), flush=True)
        subprocess.run(command, check=True, env=os.environ)
        results[backend] = json.loads(part.read_text())
        part.unlink()
        part.with_suffix(".md").unlink(missing_ok=True)
    return results


def argument_parser(description: str | None) -> argparse.ArgumentParser:
    """OUTPUT, --backend (one side, in this process) and --side-by-side."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=Path)
    parser.add_argument("--backend", choices=["cuda", "spirv"], default="spirv")
    parser.add_argument("--side-by-side", action="store_true")
    return parser


def activate_backend(backend: str) -> str:
    """Makes `backend` Triton's driver in this process; returns the device's name."""
    if backend == "cuda":
        import torch
        return torch.cuda.get_device_name()
    from triton_spirv.run import activate
    activate()
    from triton_spirv import vulkan
    return vulkan.device().properties.name
