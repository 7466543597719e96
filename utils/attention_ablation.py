"""Where the attention forward loop spends its time: the loop of
`corpus.kernels.dots.attention_fwd_kernel` (N_CTX 4096, HEAD_DIM 64, 32
heads, fp16) cut down to parts of it, each timed with `do_bench` (median of
three calls after three discarded), on one backend or on both side by side.

    bash scripts/gpu_machine.sh python3 utils/attention_ablation.py --side-by-side OUT.json
    python3 utils/attention_ablation.py /tmp/out.json --small   # here, on lavapipe

Parts (each loop iteration loads its K and V blocks, masked as the kernel's):
- loads: K and V only, added into the accumulator;
- QK^T, row max: the first dot and the running maximum;
- QK^T from K^T, row max: the same with K stored transposed in memory, so
  that the dot's right operand is read along rows (coalesced);
- two dots: QK^T, then its fp16 product with V, no softmax;
- softmax, no PV: everything but the second dot (its operand added instead);
- whole loop; whole loop from K^T.
The time of each part is reported as the whole kernel's FLOP count over the
part's time, to compare parts with each other and with the whole.
"""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path
from typing import Any

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from side_by_side import Backend, run_records_command_line  # noqa: E402

HEADS, SEQ, HEAD_DIM = 32, 4096, 64
# (BLOCK_Q, BLOCK_KV, num_warps), BLOCK_KV == HEAD_DIM (the parts that swap one
# for the other need it); the loads part only where BLOCK_Q == BLOCK_KV.
CONFIGS = [(64, 64, 4), (128, 64, 4)]
PARTS = ["loads", "QK^T, row max", "QK^T from K^T, row max", "two dots", "softmax, no PV", "whole loop",
         "whole loop from K^T"]


@triton.jit
def attention_part(q_ptr, k_ptr, kt_ptr, v_ptr, out_ptr, seq_len, scale, HEAD_DIM: tl.constexpr,
                   BLOCK_Q: tl.constexpr, BLOCK_KV: tl.constexpr, PART: tl.constexpr):
    head = tl.program_id(1)
    q_rows = tl.program_id(0) * BLOCK_Q + tl.arange(0, BLOCK_Q)
    dims = tl.arange(0, HEAD_DIM)
    head_base = head * seq_len * HEAD_DIM
    q = tl.load(q_ptr + head_base + q_rows[:, None] * HEAD_DIM + dims[None, :], mask=q_rows[:, None] < seq_len,
                other=0.0)
    running_max = tl.full([BLOCK_Q], -float("inf"), dtype=tl.float32)
    normaliser = tl.zeros([BLOCK_Q], dtype=tl.float32)
    acc = tl.zeros([BLOCK_Q, HEAD_DIM], dtype=tl.float32)
    for kv_start in range(0, seq_len, BLOCK_KV):
        kv_rows = kv_start + tl.arange(0, BLOCK_KV)
        kv_inside = kv_rows[:, None] < seq_len
        k = tl.load(k_ptr + head_base + kv_rows[:, None] * HEAD_DIM + dims[None, :], mask=kv_inside, other=0.0)
        v = tl.load(v_ptr + head_base + kv_rows[:, None] * HEAD_DIM + dims[None, :], mask=kv_inside, other=0.0)
        if PART == 2 or PART == 6:
            k_t = tl.load(kt_ptr + head_base + dims[:, None] * seq_len + kv_rows[None, :],
                          mask=kv_rows[None, :] < seq_len, other=0.0)
        else:
            k_t = tl.trans(k)
        if PART == 0:
            acc += k.to(tl.float32) + v.to(tl.float32)
        elif PART == 1 or PART == 2:
            scores = tl.dot(q, k_t) * scale
            running_max = tl.maximum(running_max, tl.max(scores, axis=1))
        elif PART == 3:
            acc += tl.dot(tl.dot(q, k_t).to(v.dtype), v)
        else:
            scores = tl.where(kv_rows[None, :] < seq_len, tl.dot(q, k_t) * scale, -float("inf"))
            new_max = tl.maximum(running_max, tl.max(scores, axis=1))
            weights = tl.exp(scores - new_max[:, None])
            correction = tl.exp(running_max - new_max)
            normaliser = normaliser * correction + tl.sum(weights, axis=1)
            if PART == 4:
                acc = acc * correction[:, None] + weights.to(v.dtype).to(tl.float32)
            else:
                acc = acc * correction[:, None] + tl.dot(weights.to(v.dtype), v)
            running_max = new_max
    out = acc / (normaliser[:, None] + 1.0) + running_max[:, None]
    tl.store(out_ptr + head_base + q_rows[:, None] * HEAD_DIM + dims[None, :], out.to(out_ptr.dtype.element_ty),
             mask=q_rows[:, None] < seq_len)


def measure(backend: str, small: bool) -> list[dict[str, Any]]:
    side = Backend(backend)
    heads, seq = (1, 128) if small else (HEADS, SEQ)
    gen = torch.Generator().manual_seed(1)
    q, k, v = (side.tensor(torch.randn(heads, seq, HEAD_DIM, generator=gen).mul(0.5).half()) for _ in range(3))
    k_t = side.tensor(torch.randn(heads, HEAD_DIM, seq, generator=gen).mul(0.5).half())
    out = side.tensor(torch.empty(heads, seq, HEAD_DIM, dtype=torch.float16))
    flops = 4 * heads * seq * seq * HEAD_DIM
    records = []
    for bq, bkv, warps in CONFIGS:
        for part, name in enumerate(PARTS):
            if part == 0 and bq != bkv:  # the loads are added into a BLOCK_Q x HEAD_DIM accumulator
                continue
            def run(bq: int = bq, bkv: int = bkv, warps: int = warps, part: int = part) -> None:
                attention_part[(triton.cdiv(seq, bq), heads)](q, k, k_t, v, out, seq, 1 / math.sqrt(HEAD_DIM),
                                                              HEAD_DIM=HEAD_DIM, BLOCK_Q=bq, BLOCK_KV=bkv,
                                                              PART=part, num_warps=warps)
            run()
            for _ in range(0 if small else 3):
                triton.testing.do_bench(run, warmup=10, rep=50)
            ms = statistics.median(triton.testing.do_bench(run, warmup=10, rep=50) for _ in range(1 if small else 3))
            record = {"config": f"BLOCK {bq}x{bkv}, {warps} warps", "part": name, "ms": ms,
                      "rate": flops / (ms * 1e-3) / 1e12}
            records.append(record)
            print(f"{record['config']:22s} {name:24s} {ms * 1e3:9.1f} us {record['rate']:7.1f} TFLOP/s", flush=True)
    return records


def markdown(results: dict[str, Any]) -> str:
    sides = [side for side in ("cuda", "spirv") if side in results]
    header = " | ".join(f"{side} µs | {side} TFLOP/s" for side in sides)
    devices = ", ".join(f"{side}: {results[side]['device']}" for side in sides)
    lines = [f"Devices: {devices}", "",
             f"| configuration | part | {header} |", "|---|---|" + "---|---|" * len(sides)]
    for index, record in enumerate(results[sides[0]]["records"]):
        cells = " | ".join(f"{results[side]['records'][index]['ms'] * 1e3:.0f} | "
                           f"{results[side]['records'][index]['rate']:.1f}" for side in sides)
        lines.append(f"| {record['config']} | {record['part']} | {cells} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    run_records_command_line(__file__, __doc__, measure, markdown)


if __name__ == "__main__":
    main()
