"""tl.dot beyond the matmul tutorial: other operand types (bf16, int8, fp16 with an
fp16 result, fp64), a 3-D batched dot, and an attention forward pass with a
transposed operand and an online softmax."""

from __future__ import annotations

import math

import torch
import triton
import triton.language as tl

from ..case import TORCH_DTYPES, Args, Case, fixed_grid, rand_floats, rand_ints


@triton.jit
def dot_tile_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # A single [M, K] x [K, N] product; the result type follows c's element type.
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b, out_dtype=c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def batched_dot_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    a_rows = tl.arange(0, M)[None, :, None]
    a_cols = tl.arange(0, K)[None, None, :]
    b_rows = tl.arange(0, K)[None, :, None]
    b_cols = tl.arange(0, N)[None, None, :]
    a = tl.load(a_ptr + rb * M * K + a_rows * K + a_cols)  # [B, M, K]
    b = tl.load(b_ptr + rb * K * N + b_rows * N + b_cols)  # [B, K, N]
    c = tl.dot(a, b, input_precision="ieee")  # [B, M, N]
    tl.store(c_ptr + rb * M * N + a_rows * N + b_cols, c)


@triton.jit
def attention_fwd_kernel(q_ptr, k_ptr, v_ptr, out_ptr, seq_len, scale, HEAD_DIM: tl.constexpr,
                         BLOCK_Q: tl.constexpr, BLOCK_KV: tl.constexpr, CAUSAL: tl.constexpr = False):
    # One program: BLOCK_Q queries of one head against all keys, streaming over key
    # blocks with a running max and running normaliser (online softmax). CAUSAL:
    # each query sees the keys up to its own position, so a program stops at the
    # key block holding its last query.
    head = tl.program_id(1)
    q_rows = tl.program_id(0) * BLOCK_Q + tl.arange(0, BLOCK_Q)
    dims = tl.arange(0, HEAD_DIM)
    head_base = head * seq_len * HEAD_DIM
    q = tl.load(q_ptr + head_base + q_rows[:, None] * HEAD_DIM + dims[None, :], mask=q_rows[:, None] < seq_len,
                other=0.0)
    running_max = tl.full([BLOCK_Q], -float("inf"), dtype=tl.float32)
    normaliser = tl.zeros([BLOCK_Q], dtype=tl.float32)
    acc = tl.zeros([BLOCK_Q, HEAD_DIM], dtype=tl.float32)
    kv_end = tl.minimum((tl.program_id(0) + 1) * BLOCK_Q, seq_len) if CAUSAL else seq_len
    for kv_start in range(0, kv_end, BLOCK_KV):
        kv_rows = kv_start + tl.arange(0, BLOCK_KV)
        kv_inside = kv_rows[:, None] < seq_len
        k = tl.load(k_ptr + head_base + kv_rows[:, None] * HEAD_DIM + dims[None, :], mask=kv_inside, other=0.0)
        v = tl.load(v_ptr + head_base + kv_rows[:, None] * HEAD_DIM + dims[None, :], mask=kv_inside, other=0.0)
        scores = tl.dot(q, tl.trans(k)) * scale
        if CAUSAL:
            scores = tl.where(kv_rows[None, :] <= q_rows[:, None], scores, -float("inf"))
        else:
            scores = tl.where(kv_rows[None, :] < seq_len, scores, -float("inf"))
        new_max = tl.maximum(running_max, tl.max(scores, axis=1))
        weights = tl.exp(scores - new_max[:, None])
        correction = tl.exp(running_max - new_max)
        normaliser = normaliser * correction + tl.sum(weights, axis=1)
        acc = acc * correction[:, None] + tl.dot(weights.to(v.dtype), v)
        running_max = new_max
    out = acc / normaliser[:, None]
    tl.store(out_ptr + head_base + q_rows[:, None] * HEAD_DIM + dims[None, :], out.to(out_ptr.dtype.element_ty),
             mask=q_rows[:, None] < seq_len)


_M, _N, _K = 16, 32, 32



def _dot_case(operand: str, result: str, tol: float) -> Case:

    def make(gen: torch.Generator) -> Args:
        if operand == "i8":
            a = rand_ints(gen, (_M, _K), torch.int8, -128, 128)
            b = rand_ints(gen, (_K, _N), torch.int8, -128, 128)
        else:
            a = rand_floats(gen, (_M, _K), TORCH_DTYPES[operand])
            b = rand_floats(gen, (_K, _N), TORCH_DTYPES[operand])
        return {"a_ptr": a, "b_ptr": b, "c_ptr": torch.zeros(_M, _N, dtype=TORCH_DTYPES[result])}

    def ref(a: Args) -> dict[str, torch.Tensor]:
        wide = torch.int64 if operand == "i8" else torch.float64
        return {"c_ptr": (a["a_ptr"].to(wide) @ a["b_ptr"].to(wide)).to(TORCH_DTYPES[result])}

    return Case(
        name=f"dot_{operand}_to_{result}",
        kernel=dot_tile_kernel,
        signature={"a_ptr": "*" + operand, "b_ptr": "*" + operand, "c_ptr": "*" + result, "M": "constexpr",
                   "N": "constexpr", "K": "constexpr"},
        constexprs={"M": _M, "N": _N, "K": _K},
        make_args=make,
        grid=fixed_grid(1),
        reference=ref,
        atol=tol,
        rtol=tol,
    )


_B = 2


def _batched_args(gen: torch.Generator) -> Args:
    return {"a_ptr": rand_floats(gen, (_B, _M, _K)), "b_ptr": rand_floats(gen, (_B, _K, _N)),
            "c_ptr": torch.zeros(_B, _M, _N)}


_HEADS, _SEQ, _HEAD_DIM, _BLOCK_Q, _BLOCK_KV = 2, 50, 32, 16, 16


def _attention_args(gen: torch.Generator) -> Args:
    shape = (_HEADS, _SEQ, _HEAD_DIM)
    return {"q_ptr": rand_floats(gen, shape, torch.float16), "k_ptr": rand_floats(gen, shape, torch.float16),
            "v_ptr": rand_floats(gen, shape, torch.float16), "out_ptr": torch.zeros(shape, dtype=torch.float16),
            "seq_len": _SEQ, "scale": 1.0 / math.sqrt(_HEAD_DIM)}


def attention_reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float,
                        causal: bool) -> torch.Tensor:
    """softmax(q k^T * scale) v per head, in fp32 (causal: no key after its query)."""
    q, k, v = q.float(), k.float(), v.float()
    scores = q @ k.transpose(1, 2) * scale
    if causal:
        seq = q.shape[1]
        scores = scores.masked_fill(torch.ones(seq, seq, dtype=torch.bool).triu(1), -float("inf"))
    return torch.softmax(scores, dim=-1) @ v


def _attention_reference(a: Args, causal: bool = False) -> dict[str, torch.Tensor]:
    out = attention_reference(a["q_ptr"], a["k_ptr"], a["v_ptr"], a["scale"], causal)
    return {"out_ptr": out.to(torch.float16)}


def _attention_case(causal: bool) -> Case:
    return Case(
        name="attention_causal_fwd_fp16" if causal else "attention_fwd_fp16",
        kernel=attention_fwd_kernel,
        signature={"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "out_ptr": "*fp16", "seq_len": "i32",
                   "scale": "fp32", "HEAD_DIM": "constexpr", "BLOCK_Q": "constexpr", "BLOCK_KV": "constexpr",
                   "CAUSAL": "constexpr"},
        constexprs={"HEAD_DIM": _HEAD_DIM, "BLOCK_Q": _BLOCK_Q, "BLOCK_KV": _BLOCK_KV, "CAUSAL": causal},
        make_args=_attention_args,
        grid=lambda a: ((a["seq_len"] + _BLOCK_Q - 1) // _BLOCK_Q, _HEADS),
        reference=lambda a: _attention_reference(a, causal),
        atol=1e-2,
        rtol=1e-2,
    )


CASES = [
    _dot_case("bf16", "fp32", 1e-2),
    _dot_case("i8", "i32", 0),
    _dot_case("fp16", "fp16", 1e-2),
    _dot_case("fp64", "fp64", 1e-12),
    Case(
        name="dot_batched_3d",
        kernel=batched_dot_kernel,
        signature={"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "B": "constexpr", "M": "constexpr",
                   "N": "constexpr", "K": "constexpr"},
        constexprs={"B": _B, "M": _M, "N": _N, "K": _K},
        make_args=_batched_args,
        grid=fixed_grid(1),
        reference=lambda a: {"c_ptr": a["a_ptr"] @ a["b_ptr"]},
        atol=1e-5,
        rtol=1e-5,
    ),
    _attention_case(causal=False),
    _attention_case(causal=True),
]
