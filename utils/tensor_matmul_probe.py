"""What a matmul reaches when the driver stages its operands: the GLSL
shader `ceilings/tensor_matmul.comp` (one workgroup-scope accumulator per
workgroup, operands loaded from global memory by VK_NV_cooperative_matrix2's
tensor-addressed loads, in the step that uses them or a step ahead) for
several tile shapes, timed through this project's runtime (steady state, as
`raw_shader.steady_launch_times`) and its first 256 rows checked against
PyTorch. It measures whether that path could beat this compiler's (KHR
subgroup-scope fragments, operands staged through registers and workgroup
memory by the shader itself).

Here, where glslang >= 15 is (not a dependency of this project: Debian 12's
is too old; `GLSLANG`, a command, may name it), into DIR (e.g. under the
git-excluded `.device/`):

    python3 utils/tensor_matmul_probe.py compile DIR

On the GPU machine:

    bash scripts/gpu_machine.sh python3 utils/tensor_matmul_probe.py run DIR OUT.json
"""

from __future__ import annotations

import json
import os
import shlex
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

SOURCE = Path(__file__).resolve().parent / "ceilings" / "tensor_matmul.comp"
# (BLOCK_M, BLOCK_N, BLOCK_K, invocations per workgroup, operands loaded a
# step ahead).
TILES = [(bm, bn, bk, wg, ahead) for bm, bn, bk, wg in
         [(128, 128, 32, 128), (128, 128, 32, 256), (128, 128, 64, 256), (128, 256, 32, 256),
          (256, 128, 32, 256), (128, 256, 64, 256), (64, 64, 32, 128), (64, 128, 32, 128)]
         for ahead in (False, True)]
SIZES = [(4096, 4096, 4096), (1024, 1024, 1024), (8192, 8192, 1024)]


def name(tile: tuple[int, int, int, int, bool]) -> str:
    bm, bn, bk, wg, ahead = tile
    return f"{bm}x{bn}x{bk}_{wg}" + ("_ahead" if ahead else "")


def compile_all(out: Path) -> None:
    glslang = shlex.split(os.environ.get("GLSLANG", "glslangValidator"))
    out.mkdir(parents=True, exist_ok=True)
    for tile in TILES:
        bm, bn, bk, wg, ahead = tile
        subprocess.run(glslang + ["--target-env", "vulkan1.3", f"-DWG={wg}", f"-DBM={bm}", f"-DBN={bn}",
                                  f"-DBK={bk}"] + (["-DAHEAD"] if ahead else []) + ["-S", "comp", str(SOURCE), "-o", str(out / f"{name(tile)}.spv")],
                       check=True, stdout=subprocess.DEVNULL)


def run_all(spv_dir: Path, out: Path) -> None:
    import torch

    import raw_shader
    from triton_spirv import vulkan

    device = vulkan.device()
    records = []
    for m, n, k in SIZES:
        gen = torch.Generator().manual_seed(0)
        a = torch.randn(m, k, generator=gen).mul(0.1).half()
        b = torch.randn(k, n, generator=gen).mul(0.1).half()
        rows = min(m, 256)
        expected = a[:rows].float() @ b.float()
        buffers = [raw_shader.Buffer(device, m * k * 2), raw_shader.Buffer(device, k * n * 2),
                   raw_shader.Buffer(device, m * n * 2)]
        buffers[0].write(a.numpy().tobytes())
        buffers[1].write(b.numpy().tobytes())
        try:
            for tile in TILES:
                bm, bn, bk, wg, _ = tile
                record: dict[str, Any] = {"size": f"{m}x{n}x{k}", "tile": name(tile)}
                try:
                    kernel = vulkan.Kernel(device, (spv_dir / f"{name(tile)}.spv").read_bytes(), "main",
                                           num_bindings=3, push_constant_bytes=16)
                    buffers[2].write(bytes(m * n * 2))
                    constants = b"".join(v.to_bytes(4, "little") for v in (m, n, k, 0))
                    grid = ((m // bm) * (n // bn), 1, 1)
                    times = raw_shader.steady_launch_times(kernel, grid, buffers, constants, 12)
                    got = torch.frombuffer(bytearray(buffers[2].read(rows * n * 2)), dtype=torch.float16)
                    error = (got.float().view(rows, n) - expected).abs().max().item()
                    ms = statistics.median(times)
                    record.update(ms=times, tflops=2 * m * n * k / ms / 1e9, max_error=error,
                                  correct=error < 2e-2)
                except Exception as failure:  # noqa: BLE001 - a tile the driver refuses is a result
                    record["error"] = str(failure)
                records.append(record)
                print(json.dumps({key: v for key, v in record.items() if key != "ms"}), flush=True)
        finally:
            for buffer in buffers:
                buffer.free()
    out.write_text(json.dumps({"device": device.properties.name, "records": records}, indent=2) + "\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["compile"] and len(sys.argv) == 3:
        compile_all(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["run"] and len(sys.argv) == 4:
        run_all(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
