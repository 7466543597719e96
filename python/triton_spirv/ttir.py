"""Produce Triton IR (TTIR) for a @triton.jit kernel with Triton's own front end.

Runs `triton.compiler.ASTSource.make_ir` and then the same TTIR pass pipeline as
Triton's NVIDIA backend, without touching CUDA, a GPU or Triton's driver. The
result is what triton-spirv-opt consumes.

Why not borrow the NVIDIA backend's options/codegen hooks: `CUDABackend` and
`CUDAOptions` tie the front end to CUDA details (sm_XX arch parsing, a libdevice
.bc path, PTX inline-asm fp8 conversions). The front end itself only reads a
handful of option fields and two codegen hooks, so we provide those directly.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Collection, Mapping

import triton
from triton._C.libtriton import ir
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.runtime.jit import JITFunction

from .frontend import codegen_fns, module_map, run_ttir_passes
from .options import SPIRVOptions

__all__ = ["make_ttir", "ttir_text", "relativize_locations", "TARGET"]

# The front end ignores the target; it only has to be a well-formed GPUTarget.
TARGET = GPUTarget("spirv", 0, 32)


def make_ttir(
    fn: JITFunction,
    signature: Mapping[str, str],
    constexprs: Mapping[str, object] | None = None,
    *,
    num_warps: int = 4,
    debug: bool = False,
    divisible_by_16: Collection[str] = (),
) -> Any:
    """Return the TTIR module (a `triton._C.libtriton.ir.module`) for `fn`.

    signature: every argument name -> Triton type string ("*fp32", "i32", "constexpr", ...).
    constexprs: values of the "constexpr" arguments.
    divisible_by_16: arguments to mark `tt.divisibility = 16`, as Triton's JIT does for
    16-byte aligned tensors and integers that are multiples of 16.
    The module owns its MLIR context; keep the module alive while using it.
    """
    constexprs = dict(constexprs or {})
    attrs = {(fn.arg_names.index(name), ): [["tt.divisibility", 16]] for name in divisible_by_16}
    src = ASTSource(fn, signature=dict(signature), constexprs=constexprs, attrs=attrs)
    options = SPIRVOptions(num_warps=num_warps, debug=debug)
    context = ir.context()
    ir.load_dialects(context)
    module = src.make_ir(TARGET, options, codegen_fns(), module_map(), context)
    run_ttir_passes(module)
    return module


def _spellings(path: str | os.PathLike[str]) -> list[str]:
    """The absolute path as given and with symlinks resolved (locations may use either)."""
    return sorted({os.path.abspath(path), str(Path(path).resolve())}, key=len, reverse=True)


def relativize_locations(text: str, root: str | os.PathLike[str] | None) -> str:
    """Make loc("...") file paths independent of where things are installed.

    Paths under `root` become relative to it; paths inside the Triton package become
    `triton/...` (their module path), so the text is the same on every checkout.
    """
    prefixes: list[str] = []
    if root is not None:
        prefixes += _spellings(root)
    prefixes += _spellings(Path(triton.__file__).parent.parent)
    for prefix in prefixes:
        text = text.replace('loc("' + prefix.rstrip(os.sep) + os.sep, 'loc("')
    return text


def ttir_text(
    fn: JITFunction,
    signature: Mapping[str, str],
    constexprs: Mapping[str, object] | None = None,
    *,
    num_warps: int = 4,
    debug: bool = False,
    divisible_by_16: Collection[str] = (),
    root: str | os.PathLike[str] | None = None,
) -> str:
    """TTIR as text, `str(module)`: with loc(...) debug info and name-based SSA names.
    File paths in locations are made relative to `root` (see relativize_locations)."""
    module = make_ttir(fn, signature, constexprs, num_warps=num_warps, debug=debug,
                       divisible_by_16=divisible_by_16)
    return relativize_locations(str(module), root)
