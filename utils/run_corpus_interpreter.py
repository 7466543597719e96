#!/usr/bin/env python3
"""Run every corpus case in Triton's CPU interpreter (TRITON_INTERPRET=1) and compare
with its PyTorch reference. Needs no GPU; it checks that the kernels, inputs, grids
and references of the corpus agree with each other before any backend runs them.

    python3 utils/run_corpus_interpreter.py [case ...]
"""

from __future__ import annotations

import os
import sys
import traceback

# Must be set before triton.jit decorates the corpus kernels.
os.environ["TRITON_INTERPRET"] = "1"

import torch  # noqa: E402
from triton.runtime import interpreter  # noqa: E402

from run_corpus import run_case  # noqa: E402  (puts the corpus on sys.path)
from corpus.cases import all_cases  # noqa: E402


# Known gaps of Triton 3.6's interpreter (not of the kernels): case -> reason.
INTERPRETER_GAPS: dict[str, str] = {
    "libdevice": "tt.extern_elementwise is not implemented by the interpreter",
    "dtype_arith_bf16": "the interpreter keeps bf16 as raw uint16 bits and cannot do bf16 arithmetic",
    "convert_fp16_to_bf16": "the interpreter keeps bf16 as raw uint16 bits",
    "dot_bf16_to_fp32": "the interpreter keeps bf16 as raw uint16 bits",
    "fp8_and_rounding_conversions": "the interpreter's fp8 round-to-nearest-even does not carry into the exponent",
}


def _allow_int_of_one_element_arrays() -> None:
    """Triton 3.6's interpreter turns a scalar into a Python int with int(array), which
    NumPy >= 2.? rejects for 1-element, 1-D arrays; make its tensor.__index__ take the item."""
    original = interpreter._patch_lang_tensor

    def patched(tensor: type, scope: interpreter._LangPatchScope) -> None:
        original(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))

    interpreter._patch_lang_tensor = patched


def main(names: list[str]) -> int:
    cases = [c for c in all_cases() if not names or c.name in names]
    failed: list[str] = []
    _allow_int_of_one_element_arrays()
    for index, case in enumerate(cases, 1):
        if case.name in INTERPRETER_GAPS:
            print(f"[{index:2}/{len(cases)}] {case.name:<32} skipped: {INTERPRETER_GAPS[case.name]}")
            continue
        try:
            run_case(case, torch.device("cpu"))  # the interpreter reads host memory
            status = "ok"
        except Exception:  # report every failing case, not just the first
            failed.append(case.name)
            status = "FAILED\n" + traceback.format_exc(limit=3)
        print(f"[{index:2}/{len(cases)}] {case.name:<32} {status}", flush=True)
    skipped = sum(case.name in INTERPRETER_GAPS for case in cases)
    passed = len(cases) - len(failed) - skipped
    print(f"\n{passed} passed, {skipped} skipped, {len(failed)} failed" + (f": {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
