"""Tutorial 05 (layer norm), written from its logic: the forward kernel, the
backward dx kernel that folds partial dw/db sums into GROUP_SIZE_M buffers under a
spin lock (atomic_cas/atomic_xchg), and the kernel reducing those partial sums."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..case import TORCH_DTYPES, Args, Case, cdiv, fixed_grid, rand_floats


@triton.jit
def layer_norm_fwd_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, row_stride, N, eps,
                          BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * row_stride
    y_row = y_ptr + row * row_stride
    # Rows may be longer than a block: three passes over block-sized chunks.
    partial = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        partial += tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(partial, axis=0) / N

    partial_sq = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        centered = tl.where(cols < N, x - mean, 0.0)
        partial_sq += centered * centered
    variance = tl.sum(partial_sq, axis=0) / N
    rstd = 1 / tl.sqrt(variance + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)

    for start in range(0, N, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        inside = cols < N
        w = tl.load(w_ptr + cols, mask=inside)
        b = tl.load(b_ptr + cols, mask=inside)
        x = tl.load(x_row + cols, mask=inside, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_row + cols, y, mask=inside)


@triton.jit
def layer_norm_bwd_dx_kernel(dx_ptr, dy_ptr, partial_dw_ptr, partial_db_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr,
                             lock_ptr, row_stride, N, GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    inside = cols < N
    x_ptr += row * row_stride
    dy_ptr += row * row_stride
    dx_ptr += row * row_stride
    # Rows are spread over GROUP_SIZE_M partial buffers; lock_ptr[g] guards buffer g and
    # lock_ptr[GROUP_SIZE_M + g] records whether it already holds data.
    group = row % GROUP_SIZE_M
    lock_ptr += group
    filled_ptr = lock_ptr + GROUP_SIZE_M
    partial_dw_ptrs = partial_dw_ptr + group * N + cols
    partial_db_ptrs = partial_db_ptr + group * N + cols

    x = tl.load(x_ptr + cols, mask=inside, other=0).to(tl.float32)
    dy = tl.load(dy_ptr + cols, mask=inside, other=0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=inside).to(tl.float32)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    x_hat = tl.where(inside, (x - mean) * rstd, 0.0)
    w_dy = tl.where(inside, w * dy, 0.0)
    c1 = tl.sum(x_hat * w_dy, axis=0) / N
    c2 = tl.sum(w_dy, axis=0) / N
    dx = (w_dy - (x_hat * c1 + c2)) * rstd
    tl.store(dx_ptr + cols, dx, mask=inside)

    row_dw = (dy * x_hat).to(w.dtype)
    row_db = dy.to(w.dtype)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    filled = tl.load(filled_ptr)
    if filled == 0:
        tl.atomic_xchg(filled_ptr, 1)
    else:
        row_dw += tl.load(partial_dw_ptrs, mask=inside)
        row_db += tl.load(partial_db_ptrs, mask=inside)
    tl.store(partial_dw_ptrs, row_dw, mask=inside)
    tl.store(partial_db_ptrs, row_db, mask=inside)
    # Every lane's store must be done before the lock is released.
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def layer_norm_bwd_dwdb_kernel(partial_dw_ptr, partial_db_ptr, dw_ptr, db_ptr, M, N, BLOCK_SIZE_M: tl.constexpr,
                               BLOCK_SIZE_N: tl.constexpr):
    # Each program sums one column strip of the [M, N] partial buffers.
    cols = tl.program_id(0) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for first_row in range(0, M, BLOCK_SIZE_M):
        rows = first_row + tl.arange(0, BLOCK_SIZE_M)
        inside = (rows[:, None] < M) & (cols[None, :] < N)
        offsets = rows[:, None] * N + cols[None, :]
        dw += tl.load(partial_dw_ptr + offsets, mask=inside, other=0.0)
        db += tl.load(partial_db_ptr + offsets, mask=inside, other=0.0)
    tl.store(dw_ptr + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(db_ptr + cols, tl.sum(db, axis=0), mask=cols < N)


_EPS = 1e-5


def _fwd_args(dtype: torch.dtype, rows: int, cols: int):

    def make(gen: torch.Generator) -> Args:
        return {
            "x_ptr": rand_floats(gen, (rows, cols), dtype, -2.0, 2.0),
            "y_ptr": torch.zeros((rows, cols), dtype=dtype),
            "w_ptr": rand_floats(gen, (cols, ), dtype, 0.5, 1.5),
            "b_ptr": rand_floats(gen, (cols, ), dtype),
            "mean_ptr": torch.zeros(rows),
            "rstd_ptr": torch.zeros(rows),
            "row_stride": cols,
            "N": cols,
            "eps": _EPS,
        }

    return make


def _fwd_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"].float()
    mean = x.mean(dim=1)
    rstd = 1.0 / torch.sqrt(x.var(dim=1, unbiased=False) + a["eps"])
    y = (x - mean[:, None]) * rstd[:, None] * a["w_ptr"].float() + a["b_ptr"].float()
    return {"y_ptr": y.to(a["y_ptr"].dtype), "mean_ptr": mean, "rstd_ptr": rstd}


def _fwd_case(name: str, dtype: str, rows: int, cols: int, block: int, tol: float) -> Case:
    torch_dtype = TORCH_DTYPES[dtype]
    ptr = "*" + dtype
    return Case(
        name=name,
        kernel=layer_norm_fwd_kernel,
        signature={"x_ptr": ptr, "y_ptr": ptr, "w_ptr": ptr, "b_ptr": ptr, "mean_ptr": "*fp32",
                   "rstd_ptr": "*fp32", "row_stride": "i32", "N": "i32", "eps": "fp32", "BLOCK_SIZE": "constexpr"},
        constexprs={"BLOCK_SIZE": block},
        make_args=_fwd_args(torch_dtype, rows, cols),
        grid=lambda a: (a["x_ptr"].shape[0], ),
        reference=_fwd_reference,
        atol=tol,
        rtol=tol,
    )


_BWD_ROWS, _BWD_COLS, _BWD_GROUP, _BWD_BLOCK = 24, 200, 4, 256


def _bwd_dx_args(gen: torch.Generator) -> Args:
    rows, cols = _BWD_ROWS, _BWD_COLS
    x = rand_floats(gen, (rows, cols), low=-2.0, high=2.0)
    mean = x.mean(dim=1)
    rstd = 1.0 / torch.sqrt(x.var(dim=1, unbiased=False) + _EPS)
    return {
        "dx_ptr": torch.zeros(rows, cols),
        "dy_ptr": rand_floats(gen, (rows, cols)),
        "partial_dw_ptr": torch.zeros(_BWD_GROUP, cols),
        "partial_db_ptr": torch.zeros(_BWD_GROUP, cols),
        "x_ptr": x,
        "w_ptr": rand_floats(gen, (cols, ), low=0.5, high=1.5),
        "mean_ptr": mean,
        "rstd_ptr": rstd,
        "lock_ptr": torch.zeros(2 * _BWD_GROUP, dtype=torch.int32),
        "row_stride": cols,
        "N": cols,
    }


def _bwd_dx_reference(a: Args) -> dict[str, torch.Tensor]:
    x, dy, w = a["x_ptr"], a["dy_ptr"], a["w_ptr"]
    x_hat = (x - a["mean_ptr"][:, None]) * a["rstd_ptr"][:, None]
    w_dy = w * dy
    c1 = (x_hat * w_dy).mean(dim=1, keepdim=True)
    c2 = w_dy.mean(dim=1, keepdim=True)
    dx = (w_dy - (x_hat * c1 + c2)) * a["rstd_ptr"][:, None]
    groups = torch.arange(x.shape[0]) % _BWD_GROUP
    partial_dw = torch.zeros(_BWD_GROUP, x.shape[1]).index_add_(0, groups, dy * x_hat)
    partial_db = torch.zeros(_BWD_GROUP, x.shape[1]).index_add_(0, groups, dy)
    # All locks released, every group marked as filled.
    locks = torch.tensor([0] * _BWD_GROUP + [1] * _BWD_GROUP, dtype=torch.int32)
    return {"dx_ptr": dx, "partial_dw_ptr": partial_dw, "partial_db_ptr": partial_db, "lock_ptr": locks}


_DWDB_M, _DWDB_N, _DWDB_BM, _DWDB_BN = 12, 200, 8, 64


def _bwd_dwdb_args(gen: torch.Generator) -> Args:
    return {
        "partial_dw_ptr": rand_floats(gen, (_DWDB_M, _DWDB_N)),
        "partial_db_ptr": rand_floats(gen, (_DWDB_M, _DWDB_N)),
        "dw_ptr": torch.zeros(_DWDB_N),
        "db_ptr": torch.zeros(_DWDB_N),
        "M": _DWDB_M,
        "N": _DWDB_N,
    }


CASES = [
    _fwd_case("layer_norm_fwd_fp32", "fp32", 8, 300, 128, 1e-4),
    _fwd_case("layer_norm_fwd_fp16", "fp16", 8, 256, 256, 1e-2),
    Case(
        name="layer_norm_bwd_dx",
        kernel=layer_norm_bwd_dx_kernel,
        signature={"dx_ptr": "*fp32", "dy_ptr": "*fp32", "partial_dw_ptr": "*fp32", "partial_db_ptr": "*fp32",
                   "x_ptr": "*fp32", "w_ptr": "*fp32", "mean_ptr": "*fp32", "rstd_ptr": "*fp32",
                   "lock_ptr": "*i32", "row_stride": "i32", "N": "i32", "GROUP_SIZE_M": "constexpr",
                   "BLOCK_SIZE_N": "constexpr"},
        constexprs={"GROUP_SIZE_M": _BWD_GROUP, "BLOCK_SIZE_N": _BWD_BLOCK},
        make_args=_bwd_dx_args,
        grid=fixed_grid(_BWD_ROWS),
        reference=_bwd_dx_reference,
        num_warps=8,
        atol=1e-4,
        rtol=1e-4,
    ),
    Case(
        name="layer_norm_bwd_dwdb",
        kernel=layer_norm_bwd_dwdb_kernel,
        signature={"partial_dw_ptr": "*fp32", "partial_db_ptr": "*fp32", "dw_ptr": "*fp32", "db_ptr": "*fp32",
                   "M": "i32", "N": "i32", "BLOCK_SIZE_M": "constexpr", "BLOCK_SIZE_N": "constexpr"},
        constexprs={"BLOCK_SIZE_M": _DWDB_BM, "BLOCK_SIZE_N": _DWDB_BN},
        make_args=_bwd_dwdb_args,
        grid=lambda a: (cdiv(a["N"], _DWDB_BN), ),
        reference=lambda a: {"dw_ptr": a["partial_dw_ptr"].sum(dim=0), "db_ptr": a["partial_db_ptr"].sum(dim=0)},
        atol=1e-5,
        rtol=1e-5,
    ),
]
