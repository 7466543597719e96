"""Time the tutorial kernels through the active backend with Triton's own
`do_bench` (device timestamps on the SPIR-V backend) and write the results
as JSON. Sizes are DESIGN.md's reference points for the H200.

    python3 utils/benchmark.py OUT.json [--small] [--device-memory]
    python3 -m triton_spirv.run utils/benchmark.py OUT.json   # next to CUDA

--device-memory puts the tensors in device memory the host maps
(`triton_spirv.memory`) instead of host memory the device imports.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Callable

import torch
import triton

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
from corpus.kernels.matmul import launch_matmul  # noqa: E402
from corpus.kernels.softmax import softmax_kernel  # noqa: E402
from corpus.kernels.vector_add import vector_add_kernel  # noqa: E402


_placed: Callable[[torch.Tensor], torch.Tensor] = lambda tensor: tensor
# Without --device-memory the kernels take pageable CPU tensors (imported).
os.environ.setdefault("TRITON_SPIRV_HOST_TENSORS", "1")


Candidate = tuple[str, Callable[[], None]]


def vector_add(n: int) -> tuple[list[Candidate], float]:
    x, y, out = _placed(torch.rand(n)), _placed(torch.rand(n)), _placed(torch.empty(n))
    grid = (triton.cdiv(n, 1024),)
    return [("BLOCK 1024", lambda: vector_add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024))], 3 * 4 * n


def softmax(rows: int, cols: int) -> tuple[list[Candidate], float]:
    x = _placed(torch.randn(rows, cols))
    out = _placed(torch.empty_like(x))
    block = triton.next_power_of_2(cols)
    warps = 8 if block >= 2048 else 4
    return [(f"BLOCK {block}, {warps} warps",
             lambda: softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), rows, cols,
                                             BLOCK_SIZE=block, num_warps=warps))], 2 * 4 * rows * cols


# (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_warps), tried in turn like an
# autotuner would; configurations the device cannot hold are skipped.
MATMUL_CONFIGS = [(32, 32, 32, 4), (64, 64, 32, 4), (64, 64, 32, 8), (64, 64, 64, 4), (128, 64, 32, 8),
                  (64, 128, 32, 8), (128, 128, 32, 8)]


def matmul(size: int, dtype: torch.dtype) -> tuple[list[Candidate], float]:
    a, b = _placed(torch.randn(size, size, dtype=dtype)), _placed(torch.randn(size, size, dtype=dtype))
    c = _placed(torch.empty(size, size, dtype=dtype))
    precision = "ieee" if dtype == torch.float32 else "tf32"

    def launch(bm: int, bn: int, bk: int, warps: int) -> Callable[[], None]:
        return lambda: launch_matmul(a, b, c, bm, bn, bk, warps, precision)

    return [(f"BLOCK {bm}x{bn}x{bk}, {warps} warps", launch(bm, bn, bk, warps))
            for bm, bn, bk, warps in MATMUL_CONFIGS], 2 * size ** 3


def main() -> None:
    out_path = Path(sys.argv[1])
    small = "--small" in sys.argv
    if "--device-memory" in sys.argv:
        from triton_spirv.memory import to_device
        global _placed
        _placed = to_device
    cases = [
        ("vector add fp32", "2^24" if not small else "2^20", "GB/s", lambda: vector_add(2 ** (20 if small else 24))),
        ("fused softmax fp32", "4096x1024" if not small else "256x1024", "GB/s",
         lambda: softmax(256 if small else 4096, 1024)),
    ]
    for size in ([256] if small else [1024, 4096]):
        for label, dtype in (("matmul fp32 ieee", torch.float32), ("matmul fp16", torch.float16)):
            cases.append((label, f"{size}^3", "TFLOP/s", lambda size=size, dtype=dtype: matmul(size, dtype)))
    device = triton.runtime.driver.active.utils.get_device_properties()["name"]
    results = []
    for name, size, unit, make in cases:
        candidates, amount = make()
        best: tuple[float, str] | None = None
        for config, run in candidates:
            try:
                ms = triton.testing.do_bench(run, warmup=5, rep=50)
            except Exception as error:  # a configuration the device cannot hold
                print(f"{name:20s} {config}: skipped ({str(error).splitlines()[0]})", flush=True)
                continue
            if best is None or ms < best[0]:
                best = (ms, config)
        if best is None:
            continue
        ms, config = best
        rate = amount / (ms * 1e-3) / (1e9 if unit == "GB/s" else 1e12)
        results.append({"kernel": name, "size": size, "config": config, "ms": ms, unit: rate})
        print(f"{name:20s} {size:10s} {ms:9.3f} ms {rate:9.2f} {unit}  ({config})", flush=True)
    memory = "device" if "--device-memory" in sys.argv else "host"
    out_path.write_text(json.dumps({"device": device, "tensors_in": memory, "results": results},
                                   indent=2) + "\n")


if __name__ == "__main__":
    main()
