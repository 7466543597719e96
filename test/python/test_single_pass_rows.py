"""Row kernels that walk a row in several loops: where the loops run once
(BLOCK >= N) the kernel runs a version without them that reads the row once
(--triton-version-single-iteration-loops, --triton-reuse-loads); the results
are the same either way."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

from corpus.kernels.layer_norm import layer_norm_fwd_kernel


@pytest.mark.parametrize("cols, block", [(1000, 1024), (1024, 1024), (1, 16), (3000, 1024)])
def test_layer_norm_rows_in_one_or_several_blocks(cols: int, block: int) -> None:
    rows = 6
    x = torch.randn(rows, cols)
    w, b = torch.rand(cols), torch.rand(cols)
    y = torch.empty_like(x)
    mean, rstd = torch.empty(rows), torch.empty(rows)
    layer_norm_fwd_kernel[(rows, )](x, y, w, b, mean, rstd, x.stride(0), cols, 1e-5, BLOCK_SIZE=block)
    torch.testing.assert_close(y, torch.nn.functional.layer_norm(x, (cols, ), w, b, 1e-5), atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(mean, x.mean(dim=1), atol=1e-5, rtol=1e-5)


@triton.jit
def _scale_then_sum(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    """Writes x between two reads of it: the second read sees the write."""
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N)
        tl.store(x_ptr + cols, 2 * x, mask=cols < N)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        total += tl.load(x_ptr + cols, mask=cols < N, other=0.0)
    tl.store(out_ptr, tl.sum(total, axis=0))


@pytest.mark.parametrize("n", [100, 300])
def test_a_write_between_reads_is_seen(n: int) -> None:
    x = torch.rand(n)
    out = torch.empty(1)
    expected = 2 * x.sum()
    _scale_then_sum[(1, )](x, out, n, BLOCK=128)
    torch.testing.assert_close(out[0], expected)
