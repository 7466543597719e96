"""Shape manipulation: strided 2-D tiles with transposition, 3-D permute/reshape,
broadcasting, join/split/interleave and concatenation."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..case import Args, Case, cdiv, fixed_grid, rand_floats


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym, stride_yn, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr):
    # Program (i, j) moves tile (i, j) of x [M, N] to tile (j, i) of y [N, M].
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=inside, other=0.0)
    flipped = tl.trans(tile)
    out = y_ptr + cols[:, None] * stride_ym + rows[None, :] * stride_yn
    tl.store(out, flipped, mask=tl.trans(inside))


@triton.jit
def permute_reshape_kernel(x_ptr, perm_ptr, flat_ptr, bcast_ptr, A: tl.constexpr, B: tl.constexpr,
                           C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + a * B * C + b * C + c)  # x[A, B, C], contiguous
    # permute to [C, A, B] and store contiguously
    p = tl.permute(x, (2, 0, 1))
    pc = tl.arange(0, C)[:, None, None]
    pa = tl.arange(0, A)[None, :, None]
    pb = tl.arange(0, B)[None, None, :]
    tl.store(perm_ptr + pc * A * B + pa * B + pb, p)
    # Merge the leading dims into [A * B, C]; store each row's sum of squares.
    flat = tl.reshape(x, (A * B, C))
    ab = tl.arange(0, A * B)
    tl.store(flat_ptr + ab, tl.sum(flat * flat, axis=1))
    # Broadcast a [1, C] row against an [A, 1] column.
    column = tl.sum(tl.sum(x, axis=2), axis=1)  # [A]
    row = tl.max(tl.max(x, axis=0), axis=0)  # [C]
    grid = tl.broadcast_to(column[:, None], (A, C)) + row[None, :]
    tl.store(bcast_ptr + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], grid)


@triton.jit
def join_split_kernel(a_ptr, b_ptr, pairs_ptr, swapped_ptr, inter_ptr, cat_sum_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    pairs = tl.join(a, b)  # [N, 2]
    tl.store(pairs_ptr + i[:, None] * 2 + tl.arange(0, 2)[None, :], pairs)
    first, second = tl.split(pairs * 2.0)
    tl.store(swapped_ptr + i * 2, second)
    tl.store(swapped_ptr + i * 2 + 1, first)
    tl.store(inter_ptr + tl.arange(0, 2 * N), tl.interleave(a, b + 1.0))
    # tl.cat may reorder elements; only an order-independent result is checked.
    both = tl.cat(a, b, can_reorder=True)
    tl.store(cat_sum_ptr, tl.sum(both, axis=0))


_TM, _TN, _TBM, _TBN = 45, 70, 16, 32


def _transpose_args(gen: torch.Generator) -> Args:
    # x is a strided view (every other column of a wider matrix); y is column-major.
    wide = rand_floats(gen, (_TM, 2 * _TN))
    x = wide[:, ::2]
    y = torch.zeros(_TM, _TN).t()
    return {"x_ptr": x, "y_ptr": y, "M": _TM, "N": _TN, "stride_xm": x.stride(0), "stride_xn": x.stride(1),
            "stride_ym": y.stride(0), "stride_yn": y.stride(1)}


_A, _B, _C = 2, 4, 8


def _permute_args(gen: torch.Generator) -> Args:
    return {"x_ptr": rand_floats(gen, (_A, _B, _C)), "perm_ptr": torch.zeros(_C, _A, _B),
            "flat_ptr": torch.zeros(_A * _B), "bcast_ptr": torch.zeros(_A, _C)}


def _permute_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"]
    column = x.sum(dim=(1, 2))
    row = x.amax(dim=(0, 1))
    return {"perm_ptr": x.permute(2, 0, 1), "flat_ptr": (x.reshape(_A * _B, _C)**2).sum(dim=1),
            "bcast_ptr": column[:, None] + row[None, :]}


_JN = 16


def _join_args(gen: torch.Generator) -> Args:
    return {"a_ptr": rand_floats(gen, (_JN, )), "b_ptr": rand_floats(gen, (_JN, )), "pairs_ptr": torch.zeros(_JN, 2),
            "swapped_ptr": torch.zeros(_JN, 2), "inter_ptr": torch.zeros(2 * _JN), "cat_sum_ptr": torch.zeros(1)}


def _join_reference(a: Args) -> dict[str, torch.Tensor]:
    x, y = a["a_ptr"], a["b_ptr"]
    return {"pairs_ptr": torch.stack([x, y], dim=1), "swapped_ptr": torch.stack([y * 2, x * 2], dim=1),
            "inter_ptr": torch.stack([x, y + 1], dim=1).reshape(-1), "cat_sum_ptr": (x.sum() + y.sum()).reshape(1)}


CASES = [
    Case(
        name="transpose_2d_strided",
        kernel=transpose_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "M": "i32", "N": "i32", "stride_xm": "i32",
                   "stride_xn": "i32", "stride_ym": "i32", "stride_yn": "i32", "BLOCK_M": "constexpr",
                   "BLOCK_N": "constexpr"},
        constexprs={"BLOCK_M": _TBM, "BLOCK_N": _TBN},
        make_args=_transpose_args,
        grid=lambda a: (cdiv(a["M"], _TBM), cdiv(a["N"], _TBN)),
        reference=lambda a: {"y_ptr": a["x_ptr"].t()},
    ),
    Case(
        name="permute_reshape_broadcast",
        kernel=permute_reshape_kernel,
        signature={"x_ptr": "*fp32", "perm_ptr": "*fp32", "flat_ptr": "*fp32", "bcast_ptr": "*fp32",
                   "A": "constexpr", "B": "constexpr", "C": "constexpr"},
        constexprs={"A": _A, "B": _B, "C": _C},
        make_args=_permute_args,
        grid=fixed_grid(1),
        reference=_permute_reference,
    ),
    Case(
        name="join_split_interleave_cat",
        kernel=join_split_kernel,
        signature={"a_ptr": "*fp32", "b_ptr": "*fp32", "pairs_ptr": "*fp32", "swapped_ptr": "*fp32",
                   "inter_ptr": "*fp32", "cat_sum_ptr": "*fp32", "N": "constexpr"},
        constexprs={"N": _JN},
        make_args=_join_args,
        grid=fixed_grid(1),
        reference=_join_reference,
    ),
]
