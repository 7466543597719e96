"""Which TTIR operations (and op variants) a set of .ttir files contains."""

from __future__ import annotations

import re
from collections import Counter
from typing import Mapping

# An op name as it appears in MLIR's generic ("tt.reduce"(...)) or custom form: after
# start of line/space/quote, never after "!" (types such as !tt.ptr) or "{" (attributes).
_OP_NAME = re.compile(r'(?:(?<=^)|(?<=[\s"]))((?:tt|arith|math|scf|cf|gpu|llvm)\.[a-z_][a-z0-9_.]*)(?=[\s"(]|$)',
                      re.MULTILINE)

# What the corpus must exercise: a label -> a regex over the TTIR text.
REQUIRED: Mapping[str, str] = {
    **{op: re.escape(op) + r'(?=[\s"(])' for op in (
        "tt.func", "tt.return", "tt.call", "tt.get_program_id", "tt.get_num_programs", "tt.make_range",
        "tt.splat", "tt.broadcast", "tt.expand_dims", "tt.addptr", "tt.load", "tt.store", "tt.dot", "tt.reduce",
        "tt.reduce.return", "tt.scan", "tt.scan.return", "tt.trans", "tt.reshape", "tt.join", "tt.split", "tt.cat",
        "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int", "tt.fp_to_fp", "tt.clampf", "tt.precise_sqrt",
        "tt.precise_divf", "tt.mulhiui", "tt.atomic_rmw", "tt.atomic_cas", "tt.extern_elementwise",
        "tt.histogram", "tt.gather", "tt.print", "tt.assert", "scf.for", "scf.while", "scf.if", "cf.cond_br")},
    "tt.get_program_id y": r"tt\.get_program_id y",
    "tt.get_program_id z": r"tt\.get_program_id z",
    "tt.get_num_programs y": r"tt\.get_num_programs y",
    "tt.get_num_programs z": r"tt\.get_num_programs z",
    # ieee is the default, which the printer leaves out.
    "tt.dot ieee": r"tt\.dot (?![^\n]*inputPrecision)",
    "tt.dot tf32": r"tt\.dot .*inputPrecision = tf32",
    "tt.dot 3-D (batched)": r"tt\.dot .*: tensor<\d+x\d+x\d+x",
    "tt.load with other": r"tt\.load %\S+, %\S+, %\S+",
    # Triton 3.9 prints both as one attribute: cachePolicy = #tt.cache_policy<...>.
    "tt.load cache modifier": r"tt\.load .*(cacheModifier|cache_modifier = (?!none))",
    "tt.load eviction policy": r"tt\.load .*(evictionPolicy|eviction_policy = evict_(first|last))",
    "tt.store cache modifier": r"tt\.store .*(cacheModifier|cache_modifier = (?!none))",
    "tt.reduce multi-operand": r'"tt\.reduce"\(%[^,)]+, %',
    "tt.scan multi-operand": r'"tt\.scan"\(%[^,)]+, %',
    "tt.fp_to_fp rounding": r"tt\.fp_to_fp .*rounding",
    **{f"tt.atomic_rmw {kind}": rf"tt\.atomic_rmw {kind}," for kind in (
        "add", "fadd", "max", "min", "umax", "umin", "and", "or", "xor", "exch")},
    "arith (any)": r"\barith\.\w+",
    "math (any)": r"\bmath\.\w+",
    "i64 offsets (addptr by i64)": r"tt\.addptr .*xi64>|tt\.addptr %\S+, %\S+ : !tt\.ptr<\w+>, i64",
    "fp64": r"\bf64\b",
    "bf16": r"\bbf16\b",
    "f16": r"\bf16\b",
    "i1 pointer data (bool)": r"!tt\.ptr<i1>",
    "i8": r"\bi8\b",
    "i16": r"\bi16\b",
}


def op_names(text: str) -> Counter[str]:
    return Counter(_OP_NAME.findall(text))


def files_per_op(texts: Mapping[str, str]) -> Counter[str]:
    """op name -> number of files in which it appears."""
    counts: Counter[str] = Counter()
    for text in texts.values():
        counts.update(set(op_names(text)))
    return counts


# Requirements the TTIR of a Triton release and later cannot meet: 3.9
# folds the corpus's pointer round trip (ptr_to_int, add, int_to_ptr) into a
# tt.addptr.
NOT_REQUIRED_FROM: Mapping[str, tuple[int, int]] = {"tt.ptr_to_int": (3, 9)}


def files_per_requirement(texts: Mapping[str, str], version: tuple[int, ...]) -> dict[str, list[str]]:
    """requirement label -> names of the files that satisfy it, for the TTIR
    of Triton `version`."""
    return {label: sorted(name for name, text in texts.items() if re.search(pattern, text, re.MULTILINE))
            for label, pattern in REQUIRED.items()
            if label not in NOT_REQUIRED_FROM or version < NOT_REQUIRED_FROM[label]}


def format_summary(texts: Mapping[str, str], version: tuple[int, ...]) -> tuple[str, list[str]]:
    """A printable summary and the list of unmet requirements."""
    lines: list[str] = ["", f"TTIR op coverage over {len(texts)} files (op: files containing it)"]
    per_op = files_per_op(texts)
    for dialect in ("tt", "arith", "math", "scf", "cf", "gpu", "llvm"):
        ops = sorted(op for op in per_op if op.startswith(dialect + "."))
        if ops:
            lines.append(f"  {dialect}: " + ", ".join(f"{op.split('.', 1)[1]} {per_op[op]}" for op in ops))
    lines.append("Required features (files containing it):")
    missing: list[str] = []
    for label, files in files_per_requirement(texts, version).items():
        shown = ", ".join(files[:3]) + (", ..." if len(files) > 3 else "")
        lines.append(f"  {'ok ' if files else 'MISSING'} {label}: {len(files)}  [{shown}]")
        if not files:
            missing.append(label)
    lines.append("Missing: " + (", ".join(missing) if missing else "none"))
    return "\n".join(lines), missing
