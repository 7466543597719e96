"""Tutorial 01 (vector addition), written from its logic."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..case import Args, Case, cdiv, rand_floats


@triton.jit
def vector_add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # One program sums one contiguous chunk; the tail chunk is masked.
    chunk_start = tl.program_id(axis=0) * BLOCK_SIZE
    offsets = chunk_start + tl.arange(0, BLOCK_SIZE)
    inside = offsets < n_elements
    lhs = tl.load(x_ptr + offsets, mask=inside)
    rhs = tl.load(y_ptr + offsets, mask=inside)
    tl.store(out_ptr + offsets, lhs + rhs, mask=inside)


@triton.jit
def fill_kernel(out_ptr, n, value, BLOCK_SIZE: tl.constexpr):
    # Every element of out set to value (int32): the launch tests' and
    # benchmark's kernel that reads nothing.
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets, tl.full([BLOCK_SIZE], 0, tl.int32) + value, mask=offsets < n)


_N = 1000
_BLOCK = 256


def _args(gen: torch.Generator) -> Args:
    return {
        "x_ptr": rand_floats(gen, (_N, )),
        "y_ptr": rand_floats(gen, (_N, )),
        "out_ptr": torch.zeros(_N),
        "n_elements": _N,
    }


CASES = [
    Case(
        name="vector_add",
        kernel=vector_add_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n_elements": "i32",
                   "BLOCK_SIZE": "constexpr"},
        constexprs={"BLOCK_SIZE": _BLOCK},
        make_args=_args,
        grid=lambda a: (cdiv(a["n_elements"], _BLOCK), ),
        reference=lambda a: {"out_ptr": a["x_ptr"] + a["y_ptr"]},
    ),
]
