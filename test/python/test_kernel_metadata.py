"""The kernel metadata (kernel.spv.json) has one description,
triton_spirv/backend/kernel_metadata.py: kernels compiled with every optional
part have exactly its keys, every key it declares is written by some kernel
and read by the backend, and the backend reads no other key of it."""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

import torch
import triton
import triton.language as tl

from triton_spirv.backend import kernel_metadata

# Keys the backend's modules read that belong to Triton's own metadata,
# options and stages, or to the tool's diagnostics, not to the kernel
# metadata.
_TRITON_KEYS = {"address_arguments", "arch", "name", "num_ctas", "pack", "shared", "spirv_abi", "spv",
                "ttir",
                # the tool's --diagnostics-file records (DiagnosticsFile.cpp)
                "data", "limit", "needed", "resource"}
# Declared for tools and tests (test_launch.py reads it); the pipeline
# itself declares the workgroup size.
_NOT_READ_BY_THE_BACKEND = {"workgroup_size"}
_CONSUMERS = ("compiler", "launcher", "debug_buffer", "bindings", "address_tables", "driver")


@triton.jit
def _prints_and_asserts(x_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n)
    tl.device_print("x", x, hex=True)
    tl.device_assert(x == x, "no nan")


@triton.jit
def _many_scalars(x_ptr, scalars, BLOCK: tl.constexpr):
    total = 0
    for i in tl.static_range(len(scalars)):
        total += scalars[i]
    tl.store(x_ptr + tl.arange(0, BLOCK), total)


@triton.jit
def _through_addresses(table_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.load(table_ptr).to(tl.pointer_type(tl.float32))
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(row + offsets))


def _compiled_metadata() -> list[dict[str, Any]]:
    x, table = torch.zeros(32), torch.zeros(1, dtype=torch.int64)
    kernels = [
        _prints_and_asserts.warmup(x, 32, BLOCK=32, grid=(1, ), debug=True),
        _many_scalars.warmup(x, tuple(range(40)), BLOCK=32, grid=(1, )),
        _through_addresses.warmup(table, x, BLOCK=32, grid=(1, )),
    ]
    return [kernel.metadata.spirv_abi for kernel in kernels]


def _check(value: Any, expected: Any, path: str, seen: set[str]) -> None:
    """Raises where `value` does not have `expected`'s keys and types;
    records every key path met in `seen`."""
    if typing.is_typeddict(expected):
        assert isinstance(value, dict), path
        hints = typing.get_type_hints(expected)
        assert set(value) <= set(hints), f"{path}: keys not in the schema: {set(value) - set(hints)}"
        missing = expected.__required_keys__ - set(value)
        assert not missing, f"{path}: required keys missing: {missing}"
        for key, item in value.items():
            seen.add(f"{expected.__name__}.{key}")
            _check(item, hints[key], f"{path}.{key}", seen)
    elif typing.get_origin(expected) is list:
        assert isinstance(value, list), path
        for index, item in enumerate(value):
            _check(item, typing.get_args(expected)[0], f"{path}[{index}]", seen)
    else:
        assert isinstance(value, expected), f"{path}: {value!r} is not {expected.__name__}"


def _declared(schema: Any, found: set[str] | None = None) -> set[str]:
    """Every `Type.key` of the schema, nested types included."""
    found = set() if found is None else found
    for key, hint in typing.get_type_hints(schema).items():
        found.add(f"{schema.__name__}.{key}")
        inner = typing.get_args(hint)[0] if typing.get_origin(hint) is list else hint
        if typing.is_typeddict(inner):
            _declared(inner, found)
    return found


def test_kernels_write_exactly_the_schema() -> None:
    seen: set[str] = set()
    for metadata in _compiled_metadata():
        _check(metadata, kernel_metadata.KernelMetadata, "metadata", seen)
    assert _declared(kernel_metadata.KernelMetadata) == seen


def test_the_backend_reads_every_key_and_no_other(repo_root: Path) -> None:
    keys = {name.split(".")[1] for name in _declared(kernel_metadata.KernelMetadata)}
    read: set[str] = set()
    for module in _CONSUMERS:
        source = (repo_root / "python" / "triton_spirv" / "backend" / f"{module}.py").read_text()
        for subscript, get in re.findall(r"""\[\s*["']([a-z_]+)["']\s*\]|\.get\(\s*["']([a-z_]+)["']""",
                                         source):
            read.add(subscript or get)
    assert read - _TRITON_KEYS <= keys, f"read but not in the schema: {read - _TRITON_KEYS - keys}"
    assert keys - _NOT_READ_BY_THE_BACKEND <= read, f"never read: {keys - _NOT_READ_BY_THE_BACKEND - read}"
