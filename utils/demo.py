"""Demo of the pipeline as far as it goes today: the official tutorials'
kernels (vector add, fused softmax, matmul, layer norm) are compiled by
Triton 3.6's own front end to TTIR, then parsed, verified and printed back by
triton-spirv-opt. Prints one row per kernel and exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "test"))
sys.path.insert(0, str(REPO / "python"))

from corpus.cases import case_by_name  # noqa: E402
from triton_spirv.ttir import ttir_text  # noqa: E402

TUTORIAL_CASES = ("vector_add", "softmax", "matmul_fp16_leaky_relu",
                  "layer_norm_fwd_fp32", "layer_norm_bwd_dx")
PRINT_FLAGS = ("--mlir-print-debuginfo", "--mlir-use-nameloc-as-prefix")


def tt_op_counts(text: str) -> collections.Counter[str]:
    # Op names stand at the start of a statement, after `=` or indentation.
    return collections.Counter(
        re.findall(r'^\s*(?:%[^=]*= )?"?(tt\.[a-z_.]+)', text, re.MULTILINE))


def run_case(tool: Path, name: str) -> tuple[bool, str]:
    case = case_by_name(name)
    start = time.perf_counter()
    ttir = ttir_text(case.kernel, case.signature, case.constexprs,
                     num_warps=case.num_warps, divisible_by_16=case.pointer_args(),
                     root=REPO)
    front_end_s = time.perf_counter() - start
    start = time.perf_counter()
    proc = subprocess.run([str(tool), *PRINT_FLAGS, "-"], input=ttir,
                          capture_output=True, text=True)
    tool_s = time.perf_counter() - start
    if proc.returncode != 0:
        return False, f"{name:24} FAILED: {proc.stderr.strip()}"
    same = proc.stdout.rstrip("\n") == ttir.rstrip("\n")
    counts = tt_op_counts(ttir)
    top = ", ".join(f"{op}x{n}" for op, n in counts.most_common(4))
    status = "round trip exact" if same else "PRINTED TEXT DIFFERS"
    return same, (f"{name:24} {sum(counts.values()):4d} tt ops  front end {front_end_s:5.2f}s  "
                  f"tool {tool_s * 1000:5.0f} ms  {status}  [{top}]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tool", type=Path, default=REPO / "build/bin/triton-spirv-opt")
    args = parser.parse_args()
    print(f"TTIR of the Triton tutorials through {args.tool}:")
    results = [run_case(args.tool, name) for name in TUTORIAL_CASES]
    for _, line in results:
        print("  " + line)
    failed = sum(not ok for ok, _ in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
