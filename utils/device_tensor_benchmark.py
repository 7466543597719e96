"""Programs written the tutorials' way, side by side on one GPU: every tensor
is made on `DEVICE = triton.runtime.driver.active.get_active_torch_device()`
(`cuda` through Triton's CUDA backend, `spirv` through this one) and the
wrappers allocate their outputs with `torch.empty_like`, as the tutorials'
do; kernels are timed with `triton.testing.do_bench` as the tutorials time
them (median of five calls). Also: host<->device copy bandwidth from
pageable and pinned memory, and eager PyTorch operators on DEVICE, timed by
the wall clock around `synchronize`.

    bash scripts/gpu_machine.sh python3 utils/device_tensor_benchmark.py --side-by-side benchmarks/h200-device-tensors.json
    python3 utils/device_tensor_benchmark.py OUT.json --small     # here, on lavapipe
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
from corpus.kernels.vector_add import vector_add_kernel  # noqa: E402
from side_by_side import run_records_command_line  # noqa: E402


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    vector_add_kernel[(triton.cdiv(n_elements, 1024),)](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


# One row per program, as tutorial 02 first writes it (the corpus's softmax
# walks rows in a grid-stride loop).
@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row_values = tl.load(input_ptr + row * input_row_stride + col_offsets, mask=mask, other=-float("inf"))
    numerator = tl.exp(row_values - tl.max(row_values, axis=0))
    tl.store(output_ptr + row * output_row_stride + col_offsets, numerator / tl.sum(numerator, axis=0),
             mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols), num_warps=8)
    return y


def _bench(function: Callable[[], Any]) -> float:
    """Milliseconds: the median of five `do_bench` calls (after one)."""
    triton.testing.do_bench(function)
    return statistics.median(triton.testing.do_bench(function) for _ in range(5))


def _wall(function: Callable[[], Any], synchronize: Callable[[], None], budget_s: float) -> float:
    """Milliseconds per call by the wall clock, calls repeated until
    `budget_s` has passed (at least twice, the first not counted)."""
    function()
    synchronize()
    calls, start = 0, time.perf_counter()
    while calls < 1 or time.perf_counter() - start < budget_s:
        function()
        synchronize()
        calls += 1
    return (time.perf_counter() - start) / calls * 1e3


def measure(backend: str, small: bool) -> list[dict[str, Any]]:
    device = triton.runtime.driver.active.get_active_torch_device()
    assert device.type == backend, f"the active driver's device is {device}, not {backend}"
    synchronize = torch.cuda.synchronize if backend == "cuda" else torch.spirv.synchronize
    records: list[dict[str, Any]] = []

    def record(case: str, ms: float, moved_bytes: float | None = None, flops: float | None = None) -> None:
        entry: dict[str, Any] = {"case": case, "ms": ms}
        rate = ""
        if moved_bytes is not None:
            entry["gb_per_s"] = moved_bytes / ms / 1e6
            rate = f" {entry['gb_per_s']:8.1f} GB/s"
        if flops is not None:
            entry["tflop_per_s"] = flops / ms / 1e9
            rate = f" {entry['tflop_per_s']:8.2f} TFLOP/s"
        records.append(entry)
        print(f"  {backend:5s} {case:52s} {ms:9.3f} ms{rate}", flush=True)

    torch.manual_seed(0)
    n = 2**16 if small else 2**24
    x, y = torch.rand(n, device=device), torch.rand(n, device=device)
    assert torch.allclose(add(x, y).cpu(), x.cpu() + y.cpu())
    record(f"vector add fp32 {n}", _bench(lambda: add(x, y)), 3 * 4 * n)

    rows, cols = (256, 1024) if small else (4096, 4096)
    m = torch.randn(rows, cols, device=device)
    assert torch.allclose(softmax(m).cpu(), torch.softmax(m.cpu(), -1), atol=1e-6)
    record(f"softmax fp32 {rows}x{cols}", _bench(lambda: softmax(m)), 2 * 4 * rows * cols)

    if backend == "spirv":
        # Tensors past one binding (maxStorageBufferRange) go to kernels by
        # buffer device address: the same add with every tensor passed so (an
        # option of this backend).
        out = torch.empty_like(x)

        def by_address() -> None:
            vector_add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024,
                                                       address_arguments=(0, 1, 2))

        by_address()
        assert torch.equal(out.cpu(), x.cpu() + y.cpu())
        record(f"vector add fp32 {n}, tensors by device address", _bench(by_address), 3 * 4 * n)

    copy_bytes = 2**20 if small else 2**28
    for pinned in (False, True):
        host = torch.empty(copy_bytes, dtype=torch.uint8)
        if pinned:
            # Next to CUDA, torch's accelerator (which pin_memory() serves)
            # is CUDA's: this backend names its device.
            host = host.pin_memory(device) if backend == "spirv" else host.pin_memory()
        host.fill_(7)
        on_device = host.to(device)
        assert torch.equal(on_device.cpu(), host)
        kind = "pinned" if pinned else "pageable"
        record(f"copy host->device {kind} {copy_bytes >> 20} MiB",
               _wall(lambda: on_device.copy_(host), synchronize, 1.0), copy_bytes)
        record(f"copy device->host {kind} {copy_bytes >> 20} MiB",
               _wall(lambda: host.copy_(on_device), synchronize, 1.0), copy_bytes)

    size = 256 if small else 4096
    a = torch.randn(size, size, device=device)
    record(f"eager torch.softmax fp32 {size}x{size}",
           _wall(lambda: torch.softmax(a, -1), synchronize, 2.0), 2 * 4 * size * size)
    weight, bias = torch.randn(size, device=device), torch.randn(size, device=device)
    record(f"eager layer_norm fp32 {size}x{size}",
           _wall(lambda: torch.nn.functional.layer_norm(a, (size,), weight, bias), synchronize, 2.0),
           2 * 4 * size * size)
    h, g = a.half(), torch.randn(size, size, device=device).half()
    record(f"eager a @ b fp16 {size}^3",
           _wall(lambda: h @ g, synchronize, 2.0), flops=2 * size**3)
    if backend == "spirv":
        records.append({"case": "operators that ran on the CPU", "fallback_ops": torch.spirv.fallback_ops()})
    return records


def markdown(results: dict[str, Any]) -> str:
    sides = [side for side in ("cuda", "spirv") if side in results]
    lines = ["| case | " + " | ".join(sides) + (" | spirv / cuda |" if len(sides) == 2 else " |"),
             "|---" * (len(sides) + 1 + (len(sides) == 2)) + "|"]
    by_case = {side: {r["case"]: r for r in results[side]["records"] if "ms" in r} for side in sides}
    for case in dict.fromkeys(case for side in sides for case in by_case[side]):
        cells, rates = [], []
        for side in sides:
            entry = by_case[side].get(case)
            if entry is None:
                cells.append("—")
                continue
            if "gb_per_s" in entry:
                cells.append(f"{entry['gb_per_s']:.1f} GB/s")
                rates.append(entry["gb_per_s"])
            elif "tflop_per_s" in entry:
                cells.append(f"{entry['tflop_per_s']:.2f} TFLOP/s")
                rates.append(entry["tflop_per_s"])
            else:
                cells.append(f"{entry['ms']:.3f} ms")
                rates.append(1 / entry["ms"])
        ratio = f" | {rates[1] / rates[0]:.3f}" if len(rates) == 2 else (" | —" if len(sides) == 2 else "")
        lines.append(f"| {case} | " + " | ".join(cells) + ratio + " |")
    for side in sides:
        for entry in results[side]["records"]:
            if "fallback_ops" in entry:
                lines.append("")
                lines.append(f"{side}: operators that ran on the CPU: " +
                             ", ".join(f"{name} ({uses})" for name, uses in entry["fallback_ops"].items()))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    run_records_command_line(__file__, __doc__, measure, markdown)
