"""tl.device_print and tl.device_assert: kernels write to a debug buffer, the
launcher prints its records and raises for a failed assertion."""

from __future__ import annotations

import re

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _checked_sqrt(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside, other=1.0)
    tl.device_assert(x > 0, "inputs must be positive")
    tl.store(out_ptr + offsets, tl.sqrt(x), mask=inside)


def test_failed_assertion_raises_with_message_location_and_program() -> None:
    x = torch.rand(300) + 0.5
    out = torch.empty(300)
    _checked_sqrt[(3, )](x, out, 300, BLOCK=128, debug=True)
    torch.testing.assert_close(out, x.sqrt())
    x[200] = -1.0
    with pytest.raises(AssertionError, match=r"test_debug_ops\.py:\d+:\d+: device-side assertion failed "
                       r"in _checked_sqrt, program \(1, 0, 0\), element 72: inputs must be positive"):
        _checked_sqrt[(3, )](x, out, 300, BLOCK=128, debug=True)


def test_assertions_on_device_tensors_are_reported_at_synchronize() -> None:
    """As CUDA does: launches on spirv tensors of a kernel with assertions
    (and no prints) return once submitted; a failure is raised at the next
    synchronize, and the one after sees a clean block."""
    from triton_spirv.backend import launcher
    x = torch.rand(300, device="spirv") + 0.5
    out = torch.empty(300, device="spirv")
    for _ in range(3):  # launches of one kernel may be in flight together
        _checked_sqrt[(3, )](x, out, 300, BLOCK=128, debug=True)
    assert launcher._queue_for(0).unchecked_assertions  # not waited for
    torch.spirv.synchronize()
    torch.testing.assert_close(out.cpu(), x.cpu().sqrt())
    x[7] = -1.0
    _checked_sqrt[(3, )](x, out, 300, BLOCK=128, debug=True)
    with pytest.raises(AssertionError, match=r"in _checked_sqrt, program \(0, 0, 0\), element 7: "
                       r"inputs must be positive"):
        torch.spirv.synchronize()
    x[7] = 1.0
    _checked_sqrt[(3, )](x, out, 300, BLOCK=128, debug=True)
    torch.spirv.synchronize()


@triton.jit
def _prints(x_ptr, y_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, N: tl.constexpr):
    pid = tl.program_id(0)
    tile = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + tile)
    y = tl.load(y_ptr + tl.arange(0, N))
    tl.device_print("pid", pid)
    tl.device_print("x, y", x, y)
    tl.device_print("bits", y, hex=True)
    tl.device_print("p", y_ptr + 3)
    print("done")


def test_device_print_lines_as_cuda_prints_them(capfd: pytest.CaptureFixture[str]) -> None:
    # Triton's CUDA backend: `idx ()` for scalars, each index right-aligned
    # to its dimension's widest, floats as %f, hex digits by the type's
    # width, pointers in hex (here their element offsets).
    x = torch.tensor([[1.5, -2.0], [0.25, 3.0]])
    y = torch.arange(16, dtype=torch.int16)
    y[0], y[1] = -7, 255
    _prints[(2, )](x, y, ROWS=2, COLS=2, N=16)
    lines = capfd.readouterr().out.splitlines()
    expected = []
    for pid in range(2):
        expected += [f"pid ({pid}, 0, 0) idx () pid: {pid}"] * 128  # once per thread of 4 warps
        expected += [f"pid ({pid}, 0, 0) idx ({i}, {j}) x, y: (operand 0) {x[i, j].item():f}"
                     for i in range(2) for j in range(2)]
        expected += [f"pid ({pid}, 0, 0) idx ({j:2}) x, y: (operand 1) {y[j].item()}" for j in range(16)]
        expected += [f"pid ({pid}, 0, 0) idx ({j:2}) bits: 0x{y[j].item() & 0xffff:04x}" for j in range(16)]
        expected += [f"pid ({pid}, 0, 0) done"] * 128
    pointers = [line for line in lines if " p: " in line]
    assert [line for line in lines if " p: " not in line] == expected
    # An offset into the binding, whose start depends on the import.
    assert len(pointers) == 2 * 128 and all(re.fullmatch(r"pid \(\d, 0, 0\) idx \(\) p: 0x[0-9a-f]+", line)
                                      for line in pointers)


@triton.jit
def _print_many(x_ptr, BLOCK: tl.constexpr):
    tl.device_print("", tl.load(x_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)))


def test_device_print_beyond_the_buffer_says_how_many_were_dropped(capfd: pytest.CaptureFixture[str]) -> None:
    _print_many[(40, )](torch.zeros(40 * 512, dtype=torch.int32), BLOCK=512)
    lines = capfd.readouterr().out.splitlines()
    assert len(lines) == 16384 + 1
    assert lines[-1].startswith("(4096 more device_print values of _print_many were dropped")
