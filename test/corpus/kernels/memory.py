"""Addressing and memory access: cache/eviction modifiers, 64-bit offsets, block pointers,
tensor descriptors (both rewritten to plain pointers in TTIR), pointer casts (bitcast,
ptr_to_int, int_to_ptr, tables of addresses) and fp8/rounding conversions (tt.fp_to_fp)."""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from ..case import Args, Case, cdiv, fixed_grid, rand_floats


@triton.jit
def load_store_modifiers_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    # Modifiers are hints; results must not depend on them.
    a = tl.load(x_ptr + offsets, mask=inside, other=0.0, cache_modifier=".cg", eviction_policy="evict_first")
    b = tl.load(y_ptr + offsets, mask=inside, other=1.0, cache_modifier=".ca", eviction_policy="evict_last")
    c = tl.load(x_ptr + offsets, mask=inside, other=2.0, volatile=True)
    tl.store(out_ptr + offsets, a * b, mask=inside, cache_modifier=".cs")
    tl.store(out_ptr + n + offsets, c - b, mask=inside, eviction_policy="evict_last", cache_modifier=".wb")


@triton.jit
def i64_offsets_kernel(x_ptr, out_ptr, n, row_stride, BLOCK: tl.constexpr):
    # Offsets computed in 64 bits from a 64-bit stride (as kernels do for huge tensors).
    pid = tl.program_id(0).to(tl.int64)
    offsets = pid * row_stride + tl.arange(0, BLOCK).to(tl.int64)
    inside = tl.arange(0, BLOCK) < n
    values = tl.load(x_ptr + offsets, mask=inside, other=0.0)
    tl.store(out_ptr + pid * n + tl.arange(0, BLOCK), values * 3.0, mask=inside)


@triton.jit
def block_ptr_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                            stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                                offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_block = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                                offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        # Out-of-bounds parts of the edge tiles read as zero.
        a = tl.load(a_block, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(a, b, input_precision="ieee")
        a_block = tl.advance(a_block, (0, BLOCK_K))
        b_block = tl.advance(b_block, (BLOCK_K, 0))
    c_block = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                                offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N),
                                order=(1, 0))
    tl.store(c_block, acc, boundary_check=(0, 1))


@triton.jit
def tensor_descriptor_kernel(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Device-side descriptors; y = 2 * x tile by tile, edges clipped by the descriptor.
    src = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    dst = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    row = tl.program_id(0) * BLOCK_M
    col = tl.program_id(1) * BLOCK_N
    tile = src.load([row, col])
    dst.store([row, col], tile * 2.0)


@triton.jit
def tensor_descriptor_arg_kernel(in_desc, out_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Host-side descriptors: each expands into base pointer, shape, strides and padding arguments.
    row = tl.program_id(0) * BLOCK_M
    col = tl.program_id(1) * BLOCK_N
    tile = in_desc.load([row, col])
    out_desc.store([row, col], tile + 1.0)


@triton.jit
def pointer_casts_kernel(x_ptr, bits_ptr, shifted_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    # Read fp32 storage through an int32 pointer (pointer bitcast) and through a value bitcast.
    as_int = tl.load(x_ptr.to(tl.pointer_type(tl.int32)) + offsets, mask=inside, other=0)
    value = tl.load(x_ptr + offsets, mask=inside, other=0.0)
    tl.store(bits_ptr + offsets, as_int, mask=inside)
    tl.store(bits_ptr + n + offsets, value.to(tl.int32, bitcast=True), mask=inside)
    # Round-trip the base address through an integer, 4 bytes (one element) further on.
    address = x_ptr.to(tl.int64) + 4
    next_ptr = address.to(tl.pointer_type(tl.float32))
    tl.store(shifted_ptr + offsets, tl.load(next_ptr + offsets, mask=offsets < n - 1, other=0.0), mask=inside)


@triton.jit
def fp_conversions_kernel(x_ptr, e5m2_ptr, e4m3_ptr, roundtrip_ptr, bf16_rtz_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside, other=0.0)
    e5m2 = x.to(tl.float8e5)
    e4m3 = x.to(tl.float8e4nv)
    tl.store(e5m2_ptr + offsets, e5m2, mask=inside)
    tl.store(e4m3_ptr + offsets, e4m3, mask=inside)
    tl.store(roundtrip_ptr + offsets, e5m2.to(tl.float32) + e4m3.to(tl.float16).to(tl.float32), mask=inside)
    # Non-default rounding (toward zero) also becomes tt.fp_to_fp.
    tl.store(bf16_rtz_ptr + offsets, x.to(tl.bfloat16, fp_downcast_rounding="rtz"), mask=inside)


_N, _BLOCK = 300, 128


def _modifier_args(gen: torch.Generator) -> Args:
    return {"x_ptr": rand_floats(gen, (_N, )), "y_ptr": rand_floats(gen, (_N, )), "out_ptr": torch.zeros(2, _N),
            "n": _N}


_I64_ROWS, _I64_N, _I64_STRIDE, _I64_BLOCK = 5, 100, 160, 128


def _i64_args(gen: torch.Generator) -> Args:
    return {"x_ptr": rand_floats(gen, (_I64_ROWS, _I64_STRIDE)), "out_ptr": torch.zeros(_I64_ROWS, _I64_N),
            "n": _I64_N, "row_stride": _I64_STRIDE}


_BM, _BN, _BK = 32, 32, 16
_MM_M, _MM_N, _MM_K = 50, 40, 36


def _block_ptr_args(gen: torch.Generator) -> Args:
    a = rand_floats(gen, (_MM_M, _MM_K))
    b = rand_floats(gen, (_MM_K, _MM_N))
    c = torch.zeros(_MM_M, _MM_N)
    return {"a_ptr": a, "b_ptr": b, "c_ptr": c, "M": _MM_M, "N": _MM_N, "K": _MM_K, "stride_am": a.stride(0),
            "stride_ak": a.stride(1), "stride_bk": b.stride(0), "stride_bn": b.stride(1), "stride_cm": c.stride(0),
            "stride_cn": c.stride(1)}


_DM, _DN, _DBM, _DBN = 40, 48, 16, 32  # rows of 48 fp32 = 192 bytes: 16-byte aligned strides


def _descriptor_arg_args(gen: torch.Generator) -> Args:
    x = rand_floats(gen, (_DM, _DN))
    y = torch.zeros(_DM, _DN)
    return {"in_desc": TensorDescriptor.from_tensor(x, [_DBM, _DBN]),
            "out_desc": TensorDescriptor.from_tensor(y, [_DBM, _DBN])}


def _pointer_cast_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"]
    shifted = torch.zeros_like(x)
    shifted[:-1] = x[1:]
    return {"bits_ptr": torch.stack([x.view(torch.int32)] * 2), "shifted_ptr": shifted}


def _fp_conversion_args(gen: torch.Generator) -> Args:
    return {"x_ptr": rand_floats(gen, (_N, ), low=-200.0, high=200.0),
            "e5m2_ptr": torch.zeros(_N, dtype=torch.float8_e5m2),
            "e4m3_ptr": torch.zeros(_N, dtype=torch.float8_e4m3fn), "roundtrip_ptr": torch.zeros(_N),
            "bf16_rtz_ptr": torch.zeros(_N, dtype=torch.bfloat16), "n": _N}


def _fp_conversion_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"]
    e5m2 = x.to(torch.float8_e5m2)
    e4m3 = x.to(torch.float8_e4m3fn)
    # Round toward zero to bf16 = drop the low 16 bits of the fp32 pattern.
    rtz = (x.view(torch.int32) & ~0xFFFF).view(torch.float32).to(torch.bfloat16)
    return {"e5m2_ptr": e5m2, "e4m3_ptr": e4m3, "roundtrip_ptr": e5m2.float() + e4m3.float(), "bf16_rtz_ptr": rtz}


@triton.jit
def grouped_matmul_addresses_kernel(a_table, b_table, c_table, sizes, group_size, a_storage, b_storage,
                                    c_storage, BLOCK: tl.constexpr):
    # The grouped-GEMM tutorial's scheme: each problem's matrices are found
    # through tables of addresses (here, of square blocks of the storages).
    tile = tl.program_id(0)
    first = 0
    for g in range(group_size):
        size = tl.load(sizes + g)
        tiles_per_row = size // BLOCK
        tiles = tiles_per_row * tiles_per_row
        if tile >= first and tile < first + tiles:
            a = tl.load(a_table + g).to(tl.pointer_type(tl.float16))
            b = tl.load(b_table + g).to(tl.pointer_type(tl.float16))
            c = tl.load(c_table + g).to(tl.pointer_type(tl.float16))
            rows = (tile - first) // tiles_per_row * BLOCK + tl.arange(0, BLOCK)
            columns = (tile - first) % tiles_per_row * BLOCK + tl.arange(0, BLOCK)
            ks = tl.arange(0, BLOCK)
            acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
            for k in range(0, size, BLOCK):
                x = tl.load(a + rows[:, None] * size + (k + ks)[None, :])
                y = tl.load(b + (k + ks)[:, None] * size + columns[None, :])
                acc += tl.dot(x, y)
            tl.store(c + rows[:, None] * size + columns[None, :], acc.to(tl.float16))
        first += tiles


_GROUP_SIZES = (64, 32)
_GROUP_BLOCK = 32


def _grouped_args(gen: torch.Generator) -> Args:
    # Each storage holds the group's matrices one after another; the tables
    # hold their addresses (the storages, kernel arguments too, keep them).
    total = sum(s * s for s in _GROUP_SIZES)
    storages = {name: rand_floats(gen, (total,)).half() for name in ("a_storage", "b_storage")}
    storages["c_storage"] = torch.zeros(total, dtype=torch.float16)
    return _grouped_tables({"sizes": torch.tensor(_GROUP_SIZES, dtype=torch.int32),
                            "group_size": len(_GROUP_SIZES), **storages})


def _grouped_tables(args: Args) -> Args:
    """The arguments with address tables of their storages, where they are."""
    starts = [sum(s * s for s in _GROUP_SIZES[:i]) for i in range(len(_GROUP_SIZES))]

    def table(storage: torch.Tensor) -> torch.Tensor:
        addresses = [storage[start:].data_ptr() for start in starts]
        return torch.tensor(addresses, dtype=torch.int64, device=storage.device)

    return {**args, "a_table": table(args["a_storage"]), "b_table": table(args["b_storage"]),
            "c_table": table(args["c_storage"])}


def _grouped_reference(a: Args) -> dict[str, torch.Tensor]:
    products, start = [], 0
    for s in _GROUP_SIZES:
        x = a["a_storage"][start:start + s * s].view(s, s).float()
        y = a["b_storage"][start:start + s * s].view(s, s).float()
        products.append((x @ y).half().reshape(-1))
        start += s * s
    return {"c_storage": torch.cat(products)}


CASES = [
    Case(
        name="load_store_modifiers",
        kernel=load_store_modifiers_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=_modifier_args,
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=lambda a: {"out_ptr": torch.stack([a["x_ptr"] * a["y_ptr"], a["x_ptr"] - a["y_ptr"]])},
    ),
    Case(
        name="i64_offsets",
        kernel=i64_offsets_kernel,
        signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i64", "row_stride": "i64", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _I64_BLOCK},
        make_args=_i64_args,
        grid=fixed_grid(_I64_ROWS),
        reference=lambda a: {"out_ptr": a["x_ptr"][:, :_I64_N] * 3.0},
    ),
    Case(
        name="block_ptr_matmul",
        kernel=block_ptr_matmul_kernel,
        removed_in=(3, 8),
        signature={"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                   "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32",
                   "stride_cm": "i32", "stride_cn": "i32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
                   "BLOCK_K": "constexpr"},
        constexprs={"BLOCK_M": _BM, "BLOCK_N": _BN, "BLOCK_K": _BK},
        make_args=_block_ptr_args,
        grid=lambda a: (cdiv(a["M"], _BM), cdiv(a["N"], _BN)),
        reference=lambda a: {"c_ptr": a["a_ptr"] @ a["b_ptr"]},
        atol=1e-4,
        rtol=1e-4,
    ),
    Case(
        name="tensor_descriptor",
        kernel=tensor_descriptor_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "M": "i32", "N": "i32", "BLOCK_M": "constexpr",
                   "BLOCK_N": "constexpr"},
        constexprs={"BLOCK_M": _DBM, "BLOCK_N": _DBN},
        make_args=lambda gen: {"x_ptr": rand_floats(gen, (_DM, _DN)), "y_ptr": torch.zeros(_DM, _DN), "M": _DM,
                               "N": _DN},
        grid=lambda a: (cdiv(a["M"], _DBM), cdiv(a["N"], _DBN)),
        reference=lambda a: {"y_ptr": a["x_ptr"] * 2.0},
    ),
    Case(
        name="tensor_descriptor_args",
        kernel=tensor_descriptor_arg_kernel,
        signature={"in_desc": f"tensordesc<fp32[{_DBM}, {_DBN}]>", "out_desc": f"tensordesc<fp32[{_DBM}, {_DBN}]>",
                   "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"},
        constexprs={"BLOCK_M": _DBM, "BLOCK_N": _DBN},
        make_args=_descriptor_arg_args,
        grid=lambda a: (cdiv(_DM, _DBM), cdiv(_DN, _DBN)),
        reference=lambda a: {"out_desc": a["in_desc"].base + 1.0},
    ),
    Case(
        name="pointer_casts",
        kernel=pointer_casts_kernel,
        signature={"x_ptr": "*fp32", "bits_ptr": "*i32", "shifted_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=lambda gen: {"x_ptr": rand_floats(gen, (_N, )), "bits_ptr": torch.zeros(2, _N, dtype=torch.int32),
                               "shifted_ptr": torch.zeros(_N), "n": _N},
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_pointer_cast_reference,
    ),
    Case(
        name="fp8_and_rounding_conversions",
        kernel=fp_conversions_kernel,
        signature={"x_ptr": "*fp32", "e5m2_ptr": "*fp8e5", "e4m3_ptr": "*fp8e4nv", "roundtrip_ptr": "*fp32",
                   "bf16_rtz_ptr": "*bf16", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=_fp_conversion_args,
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_fp_conversion_reference,
        atol=0.0,
        rtol=0.0,
    ),
    Case(
        name="grouped_matmul_addresses",
        kernel=grouped_matmul_addresses_kernel,
        signature={"a_table": "*i64", "b_table": "*i64", "c_table": "*i64", "sizes": "*i32", "group_size": "i32",
                   "a_storage": "*fp16", "b_storage": "*fp16", "c_storage": "*fp16", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _GROUP_BLOCK},
        make_args=_grouped_args,
        readdress=_grouped_tables,
        grid=fixed_grid(sum((s // _GROUP_BLOCK)**2 for s in _GROUP_SIZES)),
        reference=_grouped_reference,
        atol=5e-2,
        rtol=1e-2,
    ),
]
