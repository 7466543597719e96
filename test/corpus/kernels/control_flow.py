"""Program ids on three axes, non-inlined calls, scf.if/for/while and early returns."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..case import Args, Case, cdiv, fixed_grid, rand_floats, rand_ints


@triton.jit
def program_ids_kernel(out_ptr):
    x = tl.program_id(0)
    y = tl.program_id(1)
    z = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    linear = x + nx * (y + ny * z)
    tl.store(out_ptr + linear, x + 10 * y + 100 * z + 1000 * (nx * ny * nz))


@triton.jit(noinline=True)
def scale_block(src_ptr, dst_ptr, start, n, scale, shift, BLOCK: tl.constexpr):
    # Kept as a separate tt.func reached through tt.call (Triton only lets scalars,
    # pointers included, cross a non-inlined call).
    offsets = start + tl.arange(0, BLOCK)
    inside = offsets < n
    y = tl.load(src_ptr + offsets, mask=inside, other=0.0) * scale + shift
    tl.store(dst_ptr + offsets, y, mask=inside)
    return tl.sum(tl.where(inside, y, 0.0), axis=0)


@triton.jit(noinline=True)
def blend(a, b):
    return a * 0.5 + b


@triton.jit
def noinline_call_kernel(x_ptr, first_ptr, second_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * BLOCK
    first_total = scale_block(x_ptr, first_ptr, start, n, 2.0, 1.0, BLOCK)
    second_total = scale_block(x_ptr, second_ptr, start, n, 0.5, -3.0, BLOCK)
    tl.store(sums_ptr + pid, blend(first_total, second_total))


@triton.jit
def scf_if_kernel(x_ptr, flags_ptr, out_ptr, mode, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside, other=0.0)
    # A branch on a kernel argument, yielding a tensor.
    if mode == 0:
        y = x + 1.0
    elif mode == 1:
        y = x * x
    else:
        y = -x
    # A branch on a value loaded from memory, nested.
    flag = tl.load(flags_ptr + pid)
    if flag > 0:
        if flag > 1:
            y = y * 10.0
        else:
            y = y + 100.0
    tl.store(out_ptr + offsets, y, mask=inside)


@triton.jit
def collatz_kernel(start_ptr, steps_ptr, peak_ptr):
    # A `while` whose trip count depends on the data (scf.while with an scf.if inside).
    pid = tl.program_id(0)
    value = tl.load(start_ptr + pid)
    steps = 0
    peak = value
    while value != 1:
        if value % 2 == 0:
            value = value // 2
        else:
            value = 3 * value + 1
        peak = tl.maximum(peak, value)
        steps += 1
    tl.store(steps_ptr + pid, steps)
    tl.store(peak_ptr + pid, peak)


@triton.jit
def early_return_kernel(x_ptr, out_ptr, n_active, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    # Programs past n_active leave their part of out untouched.
    if pid >= n_active:
        return
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside, other=0.0)
    tl.store(out_ptr + offsets, x + 1.0, mask=inside)


@triton.jit
def loops_kernel(x_ptr, out_ptr, rows, ROW_LEN: tl.constexpr, CHUNK: tl.constexpr, REPEAT: tl.constexpr):
    # Nested loops; the inner one carries a pointer tile as an iteration argument
    # and asks for 2x unrolling; the REPEAT loop is unrolled by the front end.
    pid = tl.program_id(0)
    acc = tl.zeros([CHUNK], dtype=tl.float32)
    for row in range(pid, rows, tl.num_programs(0)):
        chunk_ptrs = x_ptr + row * ROW_LEN + tl.arange(0, CHUNK)
        for _ in tl.range(0, ROW_LEN // CHUNK, loop_unroll_factor=2):
            acc += tl.load(chunk_ptrs)
            chunk_ptrs += CHUNK
    for i in tl.static_range(REPEAT):
        acc = acc * 0.5 + i
    tl.store(out_ptr + pid * CHUNK + tl.arange(0, CHUNK), acc)


_N, _BLOCK = 300, 128


def _program_ids_reference(a: Args) -> dict[str, torch.Tensor]:
    nx, ny, nz = 2, 3, 4
    z, y, x = torch.meshgrid(torch.arange(nz), torch.arange(ny), torch.arange(nx), indexing="ij")
    return {"out_ptr": (x + 10 * y + 100 * z + 1000 * nx * ny * nz).reshape(-1).to(torch.int32)}


def _noinline_reference(a: Args) -> dict[str, torch.Tensor]:
    first = a["x_ptr"] * 2.0 + 1.0
    second = a["x_ptr"] * 0.5 - 3.0
    padded = cdiv(_N, _BLOCK) * _BLOCK - _N
    block_sums = [torch.nn.functional.pad(t, (0, padded)).view(-1, _BLOCK).sum(dim=1) for t in (first, second)]
    return {"first_ptr": first, "second_ptr": second, "sums_ptr": block_sums[0] * 0.5 + block_sums[1]}


def _scf_if_args(gen: torch.Generator) -> Args:
    programs = cdiv(_N, _BLOCK)
    return {"x_ptr": rand_floats(gen, (_N, )), "flags_ptr": torch.tensor([0, 1, 2], dtype=torch.int32)[:programs],
            "out_ptr": torch.zeros(_N), "mode": 1, "n": _N}


def _scf_if_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"]
    y = {0: x + 1.0, 1: x * x}.get(a["mode"], -x)
    flags = a["flags_ptr"].repeat_interleave(_BLOCK)[:_N]
    y = torch.where(flags > 1, y * 10.0, torch.where(flags > 0, y + 100.0, y))
    return {"out_ptr": y}


def _collatz(start: int) -> tuple[int, int]:
    steps, peak = 0, start
    while start != 1:
        start = start // 2 if start % 2 == 0 else 3 * start + 1
        peak = max(peak, start)
        steps += 1
    return steps, peak


_COLLATZ_STARTS = 16


def _collatz_reference(a: Args) -> dict[str, torch.Tensor]:
    results = [_collatz(int(v)) for v in a["start_ptr"]]
    return {"steps_ptr": torch.tensor([s for s, _ in results], dtype=torch.int32),
            "peak_ptr": torch.tensor([p for _, p in results], dtype=torch.int32)}


def _early_return_reference(a: Args) -> dict[str, torch.Tensor]:
    out = a["out_ptr"].clone()
    active = min(a["n"], a["n_active"] * _BLOCK)
    out[:active] = a["x_ptr"][:active] + 1.0
    return {"out_ptr": out}


_LOOP_ROWS, _ROW_LEN, _CHUNK, _REPEAT, _LOOP_PROGRAMS = 7, 64, 16, 3, 3


def _loops_reference(a: Args) -> dict[str, torch.Tensor]:
    x = a["x_ptr"].view(_LOOP_ROWS, _ROW_LEN // _CHUNK, _CHUNK)
    out = []
    for pid in range(_LOOP_PROGRAMS):
        acc = x[pid::_LOOP_PROGRAMS].sum(dim=(0, 1))
        for i in range(_REPEAT):
            acc = acc * 0.5 + i
        out.append(acc)
    return {"out_ptr": torch.stack(out)}


CASES = [
    Case(
        name="program_ids_3d",
        kernel=program_ids_kernel,
        signature={"out_ptr": "*i32"},
        constexprs={},
        make_args=lambda gen: {"out_ptr": torch.zeros(2 * 3 * 4, dtype=torch.int32)},
        grid=fixed_grid(2, 3, 4),
        reference=_program_ids_reference,
        num_warps=1,
    ),
    Case(
        name="noinline_call",
        kernel=noinline_call_kernel,
        signature={"x_ptr": "*fp32", "first_ptr": "*fp32", "second_ptr": "*fp32", "sums_ptr": "*fp32", "n": "i32",
                   "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=lambda gen: {"x_ptr": rand_floats(gen, (_N, )), "first_ptr": torch.zeros(_N),
                               "second_ptr": torch.zeros(_N), "sums_ptr": torch.zeros(cdiv(_N, _BLOCK)), "n": _N},
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_noinline_reference,
        atol=1e-4,
        rtol=1e-5,
    ),
    Case(
        name="scf_if",
        kernel=scf_if_kernel,
        signature={"x_ptr": "*fp32", "flags_ptr": "*i32", "out_ptr": "*fp32", "mode": "i32", "n": "i32",
                   "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=_scf_if_args,
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_scf_if_reference,
    ),
    Case(
        name="while_collatz",
        kernel=collatz_kernel,
        signature={"start_ptr": "*i32", "steps_ptr": "*i32", "peak_ptr": "*i32"},
        constexprs={},
        make_args=lambda gen: {"start_ptr": rand_ints(gen, (_COLLATZ_STARTS, ), torch.int32, 1, 1000),
                               "steps_ptr": torch.zeros(_COLLATZ_STARTS, dtype=torch.int32),
                               "peak_ptr": torch.zeros(_COLLATZ_STARTS, dtype=torch.int32)},
        grid=fixed_grid(_COLLATZ_STARTS),
        reference=_collatz_reference,
        num_warps=1,
    ),
    Case(
        name="early_return",
        kernel=early_return_kernel,
        signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n_active": "i32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": _BLOCK},
        make_args=lambda gen: {"x_ptr": rand_floats(gen, (_N, )), "out_ptr": torch.full((_N, ), -7.0),
                               "n_active": 2, "n": _N},
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_early_return_reference,
    ),
    Case(
        name="loops",
        kernel=loops_kernel,
        signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "rows": "i32", "ROW_LEN": "constexpr", "CHUNK": "constexpr",
                   "REPEAT": "constexpr"},
        constexprs={"ROW_LEN": _ROW_LEN, "CHUNK": _CHUNK, "REPEAT": _REPEAT},
        make_args=lambda gen: {"x_ptr": rand_floats(gen, (_LOOP_ROWS, _ROW_LEN)),
                               "out_ptr": torch.zeros(_LOOP_PROGRAMS, _CHUNK), "rows": _LOOP_ROWS},
        grid=fixed_grid(_LOOP_PROGRAMS),
        reference=_loops_reference,
        atol=1e-5,
        rtol=1e-5,
    ),
]
