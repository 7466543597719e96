"""The main job: the Triton tutorials' kernels (vector add, fused softmax,
matmul, layer norm forward and backward) compiled to SPIR-V and run on the
default Vulkan device through the triton_spirv backend, each checked against
PyTorch and timed with Triton's do_bench (device time from Vulkan
timestamps). Prints a table, saves it as a PNG plot, and exits non-zero if a
result is wrong.

    python3 utils/demo.py [--png demo.png]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "python"), str(REPO / "test")]
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import torch  # noqa: E402
import triton  # noqa: E402

from corpus.case import assert_outputs_close, clone_args  # noqa: E402
from corpus.cases import case_by_name  # noqa: E402
from run_corpus import args_on_device, launch_case  # noqa: E402

TUTORIAL_CASES = ("vector_add", "softmax", "matmul_fp16_leaky_relu", "layer_norm_fwd_fp16",
                  "layer_norm_bwd_dx", "layer_norm_bwd_dwdb")


def run(name: str) -> tuple[str, str, float, int]:
    """(status, detail, milliseconds, workgroup memory bytes) of one kernel."""
    case = case_by_name(name)
    args, expected, compiled = launch_case(case)
    try:
        assert_outputs_close(case, args, expected)
    except AssertionError as error:
        return "WRONG", str(error).splitlines()[0], 0.0, compiled.metadata.shared
    # Outputs that accumulate (atomics) are re-made for each timed launch.
    fresh = args_on_device(case, case.make_args(torch.Generator().manual_seed(0)))
    launch = case.kernel[case.grid(fresh)]
    ms = triton.testing.do_bench(
        lambda: launch(**clone_args(fresh), **case.constexprs, num_warps=case.num_warps,
                       debug=case.debug, enable_fp_fusion=case.enable_fp_fusion),
        warmup=5, rep=20)
    return "ok", "matches PyTorch", ms, compiled.metadata.shared


def save_plot(rows: list[tuple[str, str, str, float, int]], path: Path, device: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [row[0] for row in rows]
    times = [row[3] for row in rows]
    colors = ["tab:green" if row[1] == "ok" else "tab:red" for row in rows]
    fig, ax = plt.subplots(figsize=(8, 3.5))
    ax.barh(names, times, color=colors)
    ax.set_xlabel("time per launch (ms, Vulkan timestamps)")
    ax.set_title(f"Triton tutorial kernels through SPIR-V on {device}")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--png", type=Path, default=REPO / "demo.png")
    options = parser.parse_args()
    from triton_spirv import vulkan
    device = vulkan.device().properties.name
    print(f"Triton {triton.__version__} -> SPIR-V on Vulkan device: {device}")
    print(f"{'kernel':<24} {'result':<7} {'ms':>9} {'shared B':>9}  detail")
    rows = []
    for name in TUTORIAL_CASES:
        status, detail, ms, shared = run(name)
        rows.append((name, status, detail, ms, shared))
        print(f"{name:<24} {status:<7} {ms:9.3f} {shared:9d}  {detail}", flush=True)
    save_plot(rows, options.png, device)
    print(f"plot: {options.png}")
    wrong = [row[0] for row in rows if row[1] != "ok"]
    print(f"{len(rows) - len(wrong)}/{len(rows)} kernels correct" + (f"; wrong: {wrong}" if wrong else ""))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
