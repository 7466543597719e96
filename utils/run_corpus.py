#!/usr/bin/env python3
"""Launch corpus cases through Triton's active backend (triton_spirv on a machine
without CUDA; `python -m triton_spirv.run utils/run_corpus.py` elsewhere) and
compare each with its PyTorch reference. Prints one line per case and a summary;
exits non-zero if a case fails.

    python3 utils/run_corpus.py [case ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "python"), str(REPO / "test")]

import torch  # noqa: E402
import triton  # noqa: E402

from corpus.case import Args, Case, assert_outputs_close, clone_args, to_device  # noqa: E402
from corpus.cases import all_cases  # noqa: E402


def args_on_device(case: Case, args: Args, device: torch.device | None = None) -> Args:
    """The arguments moved to `device`, by default the active driver's torch
    device (the spirv device, or CUDA's), where programs keep the tensors
    they launch on."""
    if device is None:
        device = triton.runtime.driver.active.get_active_torch_device()
    moved = to_device(args, device)
    return case.readdress(moved) if case.readdress is not None else moved


def launch_case(case: Case, device: torch.device | None = None,
                ) -> tuple[Args, dict[str, torch.Tensor], Any]:
    """Launches the case once on its seeded arguments, on `device` (see
    args_on_device): (the arguments after the launch, the reference outputs,
    the compiled kernel)."""
    host_args = case.make_args(torch.Generator().manual_seed(0))
    expected = case.reference(clone_args(host_args))
    args = args_on_device(case, host_args, device)
    compiled = case.kernel[case.grid(args)](**args, **case.constexprs, num_warps=case.num_warps,
                                            debug=case.debug, enable_fp_fusion=case.enable_fp_fusion)
    # Launches may be asynchronous (TRITON_SPIRV_ASYNC=1, or another backend).
    triton.runtime.driver.active.get_device_interface().synchronize()
    return args, expected, compiled


def run_case(case: Case, device: torch.device | None = None) -> None:
    args, expected, _ = launch_case(case, device)
    assert_outputs_close(case, args, expected)


def main(names: list[str]) -> int:
    cases = [c for c in all_cases() if not names or c.name in names]
    passed, failed = 0, []
    for index, case in enumerate(cases, 1):
        start = time.perf_counter()
        try:
            run_case(case)
            status = "ok"
            passed += 1
        except Exception as error:  # report every case, not just the first failure
            status = f"FAILED {type(error).__name__}: {error}"[:2000]
            failed.append(case.name)
        print(f"[{index:2}/{len(cases)}] {case.name:<30} {time.perf_counter() - start:6.2f}s {status}",
              flush=True)
    print(f"\n{passed} passed, {len(failed)} failed"
          + (f": {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
