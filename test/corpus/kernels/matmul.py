"""Tutorial 03 (matrix multiplication), written from its logic: grouped program
ordering for L2 reuse, wrapped (`% M`) row/column offsets, a K loop that advances
the A/B pointer tiles, an fp32 accumulator and an optional fused activation."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..case import TORCH_DTYPES, Args, Case, cdiv, rand_floats


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr, INPUT_PRECISION: tl.constexpr):
    # Map the flat program id to a C tile so that GROUP_SIZE_M consecutive programs
    # share the same B column panel.
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    programs_per_group = GROUP_SIZE_M * tiles_n
    group = pid // programs_per_group
    group_first_m = group * GROUP_SIZE_M
    group_height = min(tiles_m - group_first_m, GROUP_SIZE_M)
    pid_in_group = pid % programs_per_group
    pid_m = group_first_m + (pid_in_group % group_height)
    pid_n = pid_in_group // group_height

    # Non-negativity facts that let later integer analysis simplify addressing.
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    tl.assume(stride_am > 0)
    tl.assume(stride_ak > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_bn > 0)

    # Rows/columns past the edge wrap around (% M, % N): loads stay in bounds and the
    # store mask below drops the duplicates.
    rows = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    cols = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    ks = tl.arange(0, BLOCK_SIZE_K)
    a_tile = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_tile = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k_step in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - k_step * BLOCK_SIZE_K
        a = tl.load(a_tile, mask=ks[None, :] < k_left, other=0.0)
        b = tl.load(b_tile, mask=ks[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc, input_precision=INPUT_PRECISION)
        a_tile += BLOCK_SIZE_K * stride_ak
        b_tile += BLOCK_SIZE_K * stride_bk

    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    result = acc.to(c_ptr.dtype.element_ty)

    out_rows = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    out_cols = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_tile = c_ptr + stride_cm * out_rows[:, None] + stride_cn * out_cols[None, :]
    tl.store(c_tile, result, mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


def launch_matmul(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, block_m: int, block_n: int, block_k: int,
                  num_warps: int = 4, precision: str = "ieee", group_m: int = 8) -> None:
    """c = a @ b with the given block sizes (benchmarks and size tests)."""
    (m, k), n = a.shape, b.shape[1]
    grid = (triton.cdiv(m, block_m) * triton.cdiv(n, block_n),)
    matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                        c.stride(1), BLOCK_SIZE_M=block_m, BLOCK_SIZE_N=block_n, BLOCK_SIZE_K=block_k,
                        GROUP_SIZE_M=group_m, ACTIVATION="", INPUT_PRECISION=precision, num_warps=num_warps)


# Sizes that are not multiples of the blocks exercise the wrap-around and the masks.
_M, _N, _K = 96, 80, 72
_BM, _BN, _BK, _GROUP = 32, 32, 32, 2


def _make_args(dtype: torch.dtype):

    def make(gen: torch.Generator) -> Args:
        a = rand_floats(gen, (_M, _K), dtype)
        b = rand_floats(gen, (_K, _N), dtype)
        c = torch.zeros((_M, _N), dtype=dtype)
        return {
            "a_ptr": a, "b_ptr": b, "c_ptr": c, "M": _M, "N": _N, "K": _K,
            "stride_am": a.stride(0), "stride_ak": a.stride(1),
            "stride_bk": b.stride(0), "stride_bn": b.stride(1),
            "stride_cm": c.stride(0), "stride_cn": c.stride(1),
        }

    return make


def _reference(activation: str | None):

    def ref(a: Args) -> dict[str, torch.Tensor]:
        c = a["a_ptr"].float() @ a["b_ptr"].float()
        if activation == "leaky_relu":
            c = torch.where(c >= 0, c, 0.01 * c)
        return {"c_ptr": c.to(a["c_ptr"].dtype)}

    return ref


def _case(name: str, dtype: str, activation: str | None, precision: str | None, tol: float) -> Case:
    torch_dtype = TORCH_DTYPES[dtype]
    ptr = "*" + dtype
    return Case(
        name=name,
        kernel=matmul_kernel,
        signature={"a_ptr": ptr, "b_ptr": ptr, "c_ptr": ptr, "M": "i32", "N": "i32", "K": "i32",
                   "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32",
                   "stride_cm": "i32", "stride_cn": "i32", "BLOCK_SIZE_M": "constexpr",
                   "BLOCK_SIZE_N": "constexpr", "BLOCK_SIZE_K": "constexpr", "GROUP_SIZE_M": "constexpr",
                   "ACTIVATION": "constexpr", "INPUT_PRECISION": "constexpr"},
        constexprs={"BLOCK_SIZE_M": _BM, "BLOCK_SIZE_N": _BN, "BLOCK_SIZE_K": _BK, "GROUP_SIZE_M": _GROUP,
                    "ACTIVATION": activation, "INPUT_PRECISION": precision},
        make_args=_make_args(torch_dtype),
        grid=lambda a: (cdiv(a["M"], _BM) * cdiv(a["N"], _BN), ),
        reference=_reference(activation),
        atol=tol,
        rtol=tol,
    )


CASES = [
    # fp16 inputs, fp32 accumulation, fp16 output, fused leaky_relu (the tutorial's setup).
    _case("matmul_fp16_leaky_relu", "fp16", "leaky_relu", None, 1e-2),
    # fp32 on plain FMA units: exact IEEE products.
    _case("matmul_fp32_ieee", "fp32", None, "ieee", 1e-4),
    # fp32 with TF32 allowed: a backend may round inputs to 10 mantissa bits.
    _case("matmul_fp32_tf32", "fp32", None, "tf32", 2e-2),
]
