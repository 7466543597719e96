"""Registry of every corpus case, in a stable order (the order of KERNEL_MODULES)."""

from __future__ import annotations

import importlib

from .case import TRITON_VERSION, Case

# Each module under corpus.kernels defines CASES: list[Case].
KERNEL_MODULES: tuple[str, ...] = (
    "vector_add",
    "softmax",
    "matmul",
    "layer_norm",
    "dtypes",
    "math_ops",
    "reductions",
    "shapes",
    "memory",
    "control_flow",
    "atomics",
    "dots",
    "random_debug",
)


def all_cases() -> list[Case]:
    """The cases the installed Triton can compile."""
    cases: list[Case] = []
    for module_name in KERNEL_MODULES:
        module = importlib.import_module(f"{__package__}.kernels.{module_name}")
        cases.extend(case for case in module.CASES
                     if case.removed_in is None or TRITON_VERSION < case.removed_in)
    names = [case.name for case in cases]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"duplicate corpus case names: {duplicates}")
    return cases


def case_by_name(name: str) -> Case:
    for case in all_cases():
        if case.name == name:
            return case
    raise KeyError(name)
