"""Reductions and scans: built-in and custom combine functions, multi-operand
reductions (argmin/argmax, value+index, sum with sum of squares), prefix scans,
histograms, sorting and gathering."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..case import TORCH_DTYPES, Args, Case, cdiv, fixed_grid, rand_floats, rand_ints


@triton.jit
def reduce_2d_kernel(x_ptr, row_sum_ptr, row_max_ptr, row_min_ptr, col_sum_ptr, M, N, stride_m, stride_n,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # One program reduces one [BLOCK_M, BLOCK_N] tile of a strided matrix.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :] * stride_n, mask=inside, other=0)
    low = tl.full(x.shape, -1000, x.dtype)
    high = tl.full(x.shape, 1000, x.dtype)
    tl.store(row_sum_ptr + rows, tl.sum(x, axis=1), mask=rows < M)
    tl.store(row_max_ptr + rows, tl.max(tl.where(inside, x, low), axis=1), mask=rows < M)
    tl.store(row_min_ptr + rows, tl.min(tl.where(inside, x, high), axis=1), mask=rows < M)
    # keep_dims leaves a [1, BLOCK_N] tile; partial column sums of every program add up.
    col_sums = tl.sum(x, axis=0, keep_dims=True)
    tl.atomic_add(col_sum_ptr + cols[None, :], col_sums, mask=cols[None, :] < N)


@triton.jit
def argminmax_kernel(x_ptr, argmax_ptr, argmin_ptr, max_ptr, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"))
    tl.store(argmax_ptr + row, tl.argmax(x, axis=0))
    finite = tl.where(cols < N, x, float("inf"))
    tl.store(argmin_ptr + row, tl.argmin(finite, axis=0, tie_break_left=True))
    best, where = tl.max(x, axis=0, return_indices=True)
    tl.store(max_ptr + row, best + where.to(tl.float32) * 0.0)


@triton.jit
def _product(a, b):
    return a * b


@triton.jit
def _sum_and_squares(sum_a, sq_a, sum_b, sq_b):
    return sum_a + sum_b, sq_a + sq_b


@triton.jit
def _abs_max_keep_sign(a, b):
    return tl.where(tl.abs(a) >= tl.abs(b), a, b)


@triton.jit
def custom_reduce_kernel(x_ptr, prod_ptr, mean_ptr, var_ptr, absmax_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * N + tl.arange(0, N))
    tl.store(prod_ptr + row, tl.reduce(x, 0, _product))
    total, squares = tl.reduce((x, x * x), 0, _sum_and_squares)
    mean = total / N
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, squares / N - mean * mean)
    tl.store(absmax_ptr + row, tl.reduce(x, 0, _abs_max_keep_sign))


@triton.jit
def _running_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def _linear_recurrence(decay_a, value_a, decay_b, value_b):
    # Composes h -> decay_a * h + value_a with h -> decay_b * h + value_b.
    return decay_a * decay_b, value_a * decay_b + value_b


@triton.jit
def scan_kernel(x_ptr, decay_ptr, cumsum_ptr, cumprod_ptr, runmax_ptr, recur_ptr, revsum_ptr, icount_ptr,
                BLOCK_M: tl.constexpr, N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offsets = rows[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offsets)
    decay = tl.load(decay_ptr + offsets)
    tl.store(cumsum_ptr + offsets, tl.cumsum(x, axis=1))
    tl.store(cumprod_ptr + offsets, tl.cumprod(decay, axis=1))
    tl.store(runmax_ptr + offsets, tl.associative_scan(x, 1, _running_max))
    _, state = tl.associative_scan((decay, x), 1, _linear_recurrence)
    tl.store(recur_ptr + offsets, state)
    tl.store(revsum_ptr + offsets, tl.cumsum(x, axis=1, reverse=True))
    # Integer scan down the columns: how many positive values so far.
    tl.store(icount_ptr + offsets, tl.cumsum((x > 0).to(tl.int32), axis=0))


@triton.jit
def histogram_kernel(x_ptr, bins_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    values = tl.load(x_ptr + offsets, mask=offsets < n, other=0)
    counts = tl.histogram(values, NUM_BINS, mask=offsets < n)
    tl.atomic_add(bins_ptr + tl.arange(0, NUM_BINS), counts)


@triton.jit
def sort_gather_kernel(x_ptr, idx_ptr, sorted_ptr, desc_ptr, flipped_ptr, gathered_ptr, N: tl.constexpr,
                       M: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + cols)
    tl.store(sorted_ptr + row * N + cols, tl.sort(x))
    tl.store(desc_ptr + row * N + cols, tl.sort(x, descending=True))
    tl.store(flipped_ptr + row * N + cols, tl.flip(x, 0))
    # Gather along axis 1 of a [M, N] tile with per-element indices.
    tile_rows = tl.arange(0, M)
    tile = tl.load(x_ptr + tile_rows[:, None] * N + cols[None, :])
    index = tl.load(idx_ptr + tile_rows[:, None] * N + cols[None, :])
    tl.store(gathered_ptr + row * M * N + tile_rows[:, None] * N + cols[None, :], tl.gather(tile, index, axis=1))


def _reduce_2d_case(ty: str) -> Case:
    dtype = TORCH_DTYPES[ty]
    M, N, BM, BN = 50, 40, 16, 64

    def make(gen: torch.Generator) -> Args:
        # Column-major storage: stride_m = 1, stride_n = M.
        base = rand_ints(gen, (N, M), torch.int64, -100, 100).to(dtype) if ty == "i32" else \
            rand_floats(gen, (N, M), dtype, -10.0, 10.0)
        x = base.t()
        return {"x_ptr": x, "row_sum_ptr": torch.zeros(M, dtype=dtype), "row_max_ptr": torch.zeros(M, dtype=dtype),
                "row_min_ptr": torch.zeros(M, dtype=dtype), "col_sum_ptr": torch.zeros(N, dtype=dtype), "M": M,
                "N": N, "stride_m": x.stride(0), "stride_n": x.stride(1)}

    def ref(a: Args) -> dict[str, torch.Tensor]:
        x = a["x_ptr"]
        return {"row_sum_ptr": x.sum(dim=1).to(dtype), "row_max_ptr": x.amax(dim=1), "row_min_ptr": x.amin(dim=1),
                "col_sum_ptr": x.sum(dim=0).to(dtype)}

    ptr = "*" + ty
    return Case(
        name=f"reduce_2d_{ty}",
        kernel=reduce_2d_kernel,
        signature={"x_ptr": ptr, "row_sum_ptr": ptr, "row_max_ptr": ptr, "row_min_ptr": ptr, "col_sum_ptr": ptr,
                   "M": "i32", "N": "i32", "stride_m": "i32", "stride_n": "i32", "BLOCK_M": "constexpr",
                   "BLOCK_N": "constexpr"},
        constexprs={"BLOCK_M": BM, "BLOCK_N": BN},
        make_args=make,
        grid=lambda a: (cdiv(a["M"], BM), ),
        reference=ref,
        atol=1e-4,
        rtol=1e-5,
    )


_ARG_ROWS, _ARG_N, _ARG_BLOCK = 6, 50, 64


def _argminmax_args(gen: torch.Generator) -> Args:
    # A permutation per row: no ties, so every index is well defined.
    x = torch.stack([torch.randperm(_ARG_N, generator=gen) for _ in range(_ARG_ROWS)]).float() * 0.5 - 7.0
    return {"x_ptr": x, "argmax_ptr": torch.zeros(_ARG_ROWS, dtype=torch.int32),
            "argmin_ptr": torch.zeros(_ARG_ROWS, dtype=torch.int32), "max_ptr": torch.zeros(_ARG_ROWS),
            "N": _ARG_N}


def _argminmax_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"]
    return {"argmax_ptr": x.argmax(dim=1).to(torch.int32), "argmin_ptr": x.argmin(dim=1).to(torch.int32),
            "max_ptr": x.amax(dim=1)}


_CR_ROWS, _CR_N = 4, 32


def _custom_reduce_args(gen: torch.Generator) -> Args:
    # Magnitudes near 1 keep the product in range; alternating signs exercise the abs-max pick.
    signs = torch.tensor([1.0, -1.0]).repeat(_CR_N // 2)
    return {"x_ptr": rand_floats(gen, (_CR_ROWS, _CR_N), low=0.8, high=1.2) * signs,
            "prod_ptr": torch.zeros(_CR_ROWS), "mean_ptr": torch.zeros(_CR_ROWS), "var_ptr": torch.zeros(_CR_ROWS),
            "absmax_ptr": torch.zeros(_CR_ROWS)}


def _custom_reduce_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"]
    pick = x.abs().argmax(dim=1, keepdim=True)
    return {"prod_ptr": x.prod(dim=1), "mean_ptr": x.mean(dim=1), "var_ptr": x.var(dim=1, unbiased=False),
            "absmax_ptr": x.gather(1, pick).squeeze(1)}


_SCAN_M, _SCAN_BM, _SCAN_N = 8, 4, 32


def _scan_args(gen: torch.Generator) -> Args:
    shape = (_SCAN_M, _SCAN_N)
    return {"x_ptr": rand_floats(gen, shape), "decay_ptr": rand_floats(gen, shape, low=0.5, high=1.0),
            **{name: torch.zeros(shape) for name in ("cumsum_ptr", "cumprod_ptr", "runmax_ptr", "recur_ptr",
                                                      "revsum_ptr")},
            "icount_ptr": torch.zeros(shape, dtype=torch.int32)}


def _scan_reference(a: Args) -> dict[str, torch.Tensor]:
    x, decay = a["x_ptr"], a["decay_ptr"]
    state = torch.zeros(x.shape[0])
    recur = []
    for j in range(x.shape[1]):
        state = decay[:, j] * state + x[:, j]
        recur.append(state)
    # The column count restarts in every program (each holds _SCAN_BM rows).
    positive = (x > 0).to(torch.int32).view(-1, _SCAN_BM, _SCAN_N)
    return {"cumsum_ptr": x.cumsum(dim=1), "cumprod_ptr": decay.cumprod(dim=1), "runmax_ptr": x.cummax(dim=1).values,
            "recur_ptr": torch.stack(recur, dim=1), "revsum_ptr": x.flip(1).cumsum(dim=1).flip(1),
            "icount_ptr": positive.cumsum(dim=1).view(_SCAN_M, _SCAN_N).to(torch.int32)}


_HIST_N, _HIST_BINS, _HIST_BLOCK = 1000, 16, 256

_SORT_ROWS, _SORT_N, _SORT_M = 4, 32, 4  # the gather tile is rows [0, M) of x


def _sort_args(gen: torch.Generator) -> Args:
    return {
        "x_ptr": rand_floats(gen, (_SORT_ROWS, _SORT_N), low=-100.0, high=100.0),
        "idx_ptr": rand_ints(gen, (_SORT_M, _SORT_N), torch.int32, 0, _SORT_N),
        "sorted_ptr": torch.zeros(_SORT_ROWS, _SORT_N),
        "desc_ptr": torch.zeros(_SORT_ROWS, _SORT_N),
        "flipped_ptr": torch.zeros(_SORT_ROWS, _SORT_N),
        "gathered_ptr": torch.zeros(_SORT_ROWS, _SORT_M, _SORT_N),
    }


def _sort_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"]
    gathered = x[:_SORT_M].gather(1, a["idx_ptr"].long())
    return {"sorted_ptr": x.sort(dim=1).values, "desc_ptr": x.sort(dim=1, descending=True).values,
            "flipped_ptr": x.flip(1), "gathered_ptr": gathered.expand(_SORT_ROWS, -1, -1)}


CASES = [
    _reduce_2d_case("fp32"),
    _reduce_2d_case("i32"),
    Case(
        name="argminmax",
        kernel=argminmax_kernel,
        signature={"x_ptr": "*fp32", "argmax_ptr": "*i32", "argmin_ptr": "*i32", "max_ptr": "*fp32", "N": "i32",
                   "BLOCK_N": "constexpr"},
        constexprs={"BLOCK_N": _ARG_BLOCK},
        make_args=_argminmax_args,
        grid=fixed_grid(_ARG_ROWS),
        reference=_argminmax_reference,
    ),
    Case(
        name="custom_reduce",
        kernel=custom_reduce_kernel,
        signature={"x_ptr": "*fp32", "prod_ptr": "*fp32", "mean_ptr": "*fp32", "var_ptr": "*fp32",
                   "absmax_ptr": "*fp32", "N": "constexpr"},
        constexprs={"N": _CR_N},
        make_args=_custom_reduce_args,
        grid=fixed_grid(_CR_ROWS),
        reference=_custom_reduce_reference,
        atol=1e-5,
        rtol=1e-4,
    ),
    Case(
        name="scan",
        kernel=scan_kernel,
        signature={"x_ptr": "*fp32", "decay_ptr": "*fp32", "cumsum_ptr": "*fp32", "cumprod_ptr": "*fp32",
                   "runmax_ptr": "*fp32", "recur_ptr": "*fp32", "revsum_ptr": "*fp32", "icount_ptr": "*i32",
                   "BLOCK_M": "constexpr", "N": "constexpr"},
        constexprs={"BLOCK_M": _SCAN_BM, "N": _SCAN_N},
        make_args=_scan_args,
        grid=fixed_grid(_SCAN_M // _SCAN_BM),
        reference=_scan_reference,
        atol=1e-5,
        rtol=1e-4,
    ),
    Case(
        name="histogram",
        kernel=histogram_kernel,
        signature={"x_ptr": "*i32", "bins_ptr": "*i32", "n": "i32", "NUM_BINS": "constexpr", "BLOCK": "constexpr"},
        constexprs={"NUM_BINS": _HIST_BINS, "BLOCK": _HIST_BLOCK},
        make_args=lambda gen: {"x_ptr": rand_ints(gen, (_HIST_N, ), torch.int32, 0, _HIST_BINS),
                               "bins_ptr": torch.zeros(_HIST_BINS, dtype=torch.int32), "n": _HIST_N},
        grid=lambda a: (cdiv(a["n"], _HIST_BLOCK), ),
        reference=lambda a: {"bins_ptr": torch.bincount(a["x_ptr"].long(), minlength=_HIST_BINS).to(torch.int32)},
    ),
    Case(
        name="sort_flip_gather",
        kernel=sort_gather_kernel,
        signature={"x_ptr": "*fp32", "idx_ptr": "*i32", "sorted_ptr": "*fp32", "desc_ptr": "*fp32",
                   "flipped_ptr": "*fp32", "gathered_ptr": "*fp32", "N": "constexpr", "M": "constexpr"},
        constexprs={"N": _SORT_N, "M": _SORT_M},
        make_args=_sort_args,
        grid=fixed_grid(_SORT_ROWS),
        reference=_sort_reference,
    ),
]
