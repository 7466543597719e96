"""Element-wise kernels whose blocks W runs of 4 tile: each invocation takes 4
consecutive elements, and their loads and stores become 16-byte accesses
(8-byte ones for 16-bit elements) where the 4 are inside the mask and
aligned (scalar ones otherwise). Checked
against PyTorch with data at aligned and unaligned offsets, full and partial
blocks, through reductions of rows held in those runs."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

from corpus.kernels.layer_norm import layer_norm_fwd_kernel
from corpus.kernels.softmax import softmax_kernel


@triton.jit
def _add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    y = tl.load(y_ptr + offsets, mask=inside)
    tl.store(out_ptr + offsets, x + y, mask=inside)


def _vector_bindings(compiled, prefix: str = "vector<4x") -> int:
    return sum(record["element_type"].startswith(prefix)
               for record in compiled.metadata.spirv_abi["bindings"])


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.float16, torch.bfloat16, torch.int16])
@pytest.mark.parametrize("shift", [0, 1, 2])
def test_vector_add_in_runs(dtype: torch.dtype, shift: int) -> None:
    """Shifts of one or two elements put every run off its vector's boundary
    (16 bytes for 32-bit elements; 8 for 16-bit ones, which move as two
    32-bit words). Small integers, exact in every type, so the sums are too."""
    n = 3000  # two full blocks of 1024 and a partial one
    gen = torch.Generator().manual_seed(shift)
    x_all = torch.randint(-60, 60, (n + 2,), generator=gen).to(dtype)
    y_all = torch.randint(-60, 60, (n + 2,), generator=gen).to(dtype)
    out_all = torch.zeros(n + 2, dtype=dtype)
    x, y, out = x_all[shift:shift + n], y_all[shift:shift + n], out_all[shift:shift + n]
    compiled = _add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, num_warps=4)
    assert _vector_bindings(compiled, "vector<2xi32>" if dtype.itemsize == 2 else "vector<4x") == 3
    torch.testing.assert_close(out, x + y, atol=0, rtol=0)
    assert not out_all[:shift].any() and not out_all[shift + n:].any()  # nothing written beside


@pytest.mark.parametrize("cols,row_stride", [(1024, 1024), (1000, 1000), (1024, 1031)])
def test_softmax_rows_in_runs(cols: int, row_stride: int) -> None:
    rows = 6
    gen = torch.Generator().manual_seed(cols + row_stride)
    padded = torch.randn(rows, row_stride, generator=gen)
    out = torch.zeros(rows, row_stride)
    compiled = softmax_kernel[(rows,)](out, padded, row_stride, row_stride, rows, cols, BLOCK_SIZE=1024,
                                       num_warps=4)
    assert _vector_bindings(compiled) == 2
    torch.testing.assert_close(out[:, :cols], torch.softmax(padded[:, :cols], dim=1), atol=1e-6, rtol=1e-5)
    assert not out[:, cols:].any()


@pytest.mark.parametrize("cols", [2048, 2000])
def test_layer_norm_rows_in_runs(cols: int) -> None:
    rows = 5
    gen = torch.Generator().manual_seed(cols)
    x = torch.randn(rows, cols, generator=gen)
    w, b = torch.rand(cols, generator=gen), torch.rand(cols, generator=gen)
    y, mean, rstd = torch.empty(rows, cols), torch.empty(rows), torch.empty(rows)
    compiled = layer_norm_fwd_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols, 1e-5, BLOCK_SIZE=1024,
                                              num_warps=4)
    assert _vector_bindings(compiled) >= 3
    torch.testing.assert_close(y, torch.nn.functional.layer_norm(x, (cols,), w, b, 1e-5), atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(mean, x.mean(dim=1), atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("shift", [0, 4, 2])
def test_hinted_runs_with_a_partial_block(shift: int) -> None:
    """n a multiple of 16 and 16-byte aligned data (shift 0 or 4 elements):
    Triton's hints prove each run aligned and inside or outside the mask as
    a whole, so it is one vector access under one mask; shift 2 leaves the
    data 8-byte aligned, without the hint. The last block is partial."""
    n = 3008
    x_all = torch.arange(n + shift, dtype=torch.float32)
    y_all = torch.ones(n + shift)
    out_all = torch.zeros(n + shift + 8)
    x, y, out = x_all[shift:], y_all[shift:], out_all[shift:shift + n]
    _add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, num_warps=4)
    torch.testing.assert_close(out, x + y)
    assert not out_all[shift + n:].any() and not out_all[:shift].any()


@triton.jit
def _larger(a, b):
    # No identity, so the reduction is seeded with the block's first element
    # (triton-spirv-seed-reductions), as Inductor's max and Welford are.
    return tl.where(a > b, a, b)


@triton.jit
def _looped_row_statistics(x_ptr, sum_ptr, max_ptr, lse_ptr, n, R: tl.constexpr):
    """Inductor's looped reduction: a row of one program, R columns a step,
    masks made from `tl.arange(0, R)[None, :]`, a seeded maximum, then a
    second pass over the row."""
    row = tl.program_id(0) + tl.arange(0, 1)[:, None]
    columns = tl.arange(0, R)[None, :]
    total = tl.zeros([1, R], tl.float32)
    largest = tl.full([1, R], float("-inf"), tl.float32)
    for start in range(0, n, R):
        inside = start + columns < n
        x = tl.load(x_ptr + row * n + start + columns, inside, other=0.0)
        total = tl.where(inside, total + x, total)
        largest = tl.where(inside, tl.maximum(largest, x), largest)
    top = tl.reduce(largest, 1, _larger)[:, None]
    exps = tl.zeros([1, R], tl.float32)
    for start in range(0, n, R):
        inside = start + columns < n
        x = tl.load(x_ptr + row * n + start + columns, inside, other=0.0)
        exps = tl.where(inside, exps + tl.exp(x - top), exps)
    tl.store(sum_ptr + row, tl.sum(total, 1)[:, None])
    tl.store(max_ptr + row, top)
    tl.store(lse_ptr + row, tl.log(tl.sum(exps, 1)[:, None]) + top)


@pytest.mark.parametrize("n", [4096, 3000])
def test_looped_row_reductions_in_runs(n: int) -> None:
    """The reshaped column indices, the seeded maximum (its seed in
    invocation 0's first run, the rest folded register by register) and
    the plain sums keep the blocks in runs: 16-byte loads."""
    rows = 6
    x = torch.randn(rows, n, generator=torch.Generator().manual_seed(n))
    x[2, 0] = 9.0  # the seed is the maximum
    x[3, -1] = 9.0  # the last element is
    total, top, lse = torch.empty(rows, 1), torch.empty(rows, 1), torch.empty(rows, 1)
    compiled = _looped_row_statistics[(rows,)](x, total, top, lse, n, R=1024, num_warps=4)
    assert _vector_bindings(compiled) >= 1
    torch.testing.assert_close(total.flatten(), x.sum(1), atol=1e-3, rtol=1e-5)
    torch.testing.assert_close(top.flatten(), x.amax(1), atol=0, rtol=0)
    torch.testing.assert_close(lse.flatten(), torch.logsumexp(x, 1), atol=1e-5, rtol=1e-5)
