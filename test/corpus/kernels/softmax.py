"""Tutorial 02 (fused softmax), written from its logic: each program walks rows
with a grid-stride loop and keeps one whole row in a block."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..case import Args, Case, fixed_grid, rand_floats


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    first_row = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row in tl.range(first_row, n_rows, row_step):
        cols = tl.arange(0, BLOCK_SIZE)
        in_row = cols < n_cols
        # Padding lanes read -inf so they neither win the max nor add to the sum.
        x = tl.load(in_ptr + row * in_row_stride + cols, mask=in_row, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        numerator = tl.exp(x)
        denominator = tl.sum(numerator, axis=0)
        tl.store(out_ptr + row * out_row_stride + cols, numerator / denominator, mask=in_row)


_ROWS, _COLS, _BLOCK, _PROGRAMS = 37, 100, 128, 4


def _args(gen: torch.Generator) -> Args:
    # A padded input (row stride 112) checks that strides are honoured.
    padded = rand_floats(gen, (_ROWS, 112), low=-4.0, high=4.0)
    return {
        "out_ptr": torch.zeros(_ROWS, _COLS),
        "in_ptr": padded,
        "in_row_stride": 112,
        "out_row_stride": _COLS,
        "n_rows": _ROWS,
        "n_cols": _COLS,
    }


CASES = [
    Case(
        name="softmax",
        kernel=softmax_kernel,
        signature={"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32", "out_row_stride": "i32",
                   "n_rows": "i32", "n_cols": "i32", "BLOCK_SIZE": "constexpr"},
        constexprs={"BLOCK_SIZE": _BLOCK},
        make_args=_args,
        grid=fixed_grid(_PROGRAMS),
        reference=lambda a: {"out_ptr": torch.softmax(a["in_ptr"][:, :_COLS], dim=1)},
        atol=1e-6,
        num_warps=8,
    ),
]
