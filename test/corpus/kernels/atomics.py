"""Atomic read-modify-write of every kind (integer, unsigned, float; several memory
orders and scopes) and compare-and-swap, with results that do not depend on the
order in which programs run."""

from __future__ import annotations

import functools
import operator
from typing import Callable

import torch
import triton
import triton.language as tl

from ..case import Args, Case, cdiv, fixed_grid, rand_floats, rand_ints


@triton.jit
def atomic_rmw_kernel(vals_ptr, uvals_ptr, fvals_ptr, ints_ptr, uints_ptr, floats_ptr, xchg_ptr, old_ptr, n,
                      SLOTS: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    # Many elements (from every program) update each slot.
    slot = offsets % SLOTS
    v = tl.load(vals_ptr + offsets, mask=inside, other=0)
    u = tl.load(uvals_ptr + offsets, mask=inside, other=0)
    f = tl.load(fvals_ptr + offsets, mask=inside, other=0.0)
    tl.atomic_add(ints_ptr + 0 * SLOTS + slot, v, mask=inside)
    tl.atomic_max(ints_ptr + 1 * SLOTS + slot, v, mask=inside, sem="relaxed")
    tl.atomic_min(ints_ptr + 2 * SLOTS + slot, v, mask=inside, sem="acquire", scope="cta")
    tl.atomic_and(ints_ptr + 3 * SLOTS + slot, v, mask=inside, sem="release")
    tl.atomic_or(ints_ptr + 4 * SLOTS + slot, v, mask=inside, scope="sys")
    tl.atomic_xor(ints_ptr + 5 * SLOTS + slot, v, mask=inside)
    tl.atomic_max(uints_ptr + 0 * SLOTS + slot, u, mask=inside)
    tl.atomic_min(uints_ptr + 1 * SLOTS + slot, u, mask=inside)
    tl.atomic_add(floats_ptr + 0 * SLOTS + slot, f, mask=inside)
    tl.atomic_max(floats_ptr + 1 * SLOTS + slot, f, mask=inside)
    tl.atomic_min(floats_ptr + 2 * SLOTS + slot, f, mask=inside)
    # Exchange on slots owned by one element each, so the old values are defined.
    old = tl.atomic_xchg(xchg_ptr + offsets, v, mask=inside)
    tl.store(old_ptr + offsets, old, mask=inside)


@triton.jit
def atomic_cas_kernel(slots_ptr, expected_ptr, old_ptr, counter_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    # Element-wise compare-and-swap on slots owned by one element each.
    expected = tl.load(expected_ptr + offsets)
    old = tl.atomic_cas(slots_ptr + offsets, expected, offsets + 1000, sem="acq_rel", scope="gpu")
    tl.store(old_ptr + offsets, old)
    # A contended counter: retry until this program's increment lands.
    seen = tl.load(counter_ptr, volatile=True)
    current = tl.atomic_cas(counter_ptr, seen, seen + 1)
    while current != seen:
        seen = current
        current = tl.atomic_cas(counter_ptr, seen, seen + 1)


_N, _BLOCK, _SLOTS = 300, 64, 16


def _rmw_args(gen: torch.Generator) -> Args:
    return {
        "vals_ptr": rand_ints(gen, (_N, ), torch.int32, -1000, 1000),
        "uvals_ptr": rand_ints(gen, (_N, ), torch.uint32, 0, 2**32),
        "fvals_ptr": rand_floats(gen, (_N, ), low=-8.0, high=8.0),
        "ints_ptr": rand_ints(gen, (6, _SLOTS), torch.int32, -1000, 1000),
        "uints_ptr": rand_ints(gen, (2, _SLOTS), torch.uint32, 0, 2**32),
        "floats_ptr": rand_floats(gen, (3, _SLOTS), low=-8.0, high=8.0),
        "xchg_ptr": rand_ints(gen, (_N, ), torch.int32, -1000, 1000),
        "old_ptr": torch.zeros(_N, dtype=torch.int32),
        "n": _N,
    }


def _fold_slots(init: torch.Tensor, values: torch.Tensor, combine: Callable[[int, int], int]) -> torch.Tensor:
    slot_of = torch.arange(values.numel()) % _SLOTS
    folded = [functools.reduce(combine, values[slot_of == s].tolist(), int(init[s])) for s in range(_SLOTS)]
    return torch.tensor(folded, dtype=torch.int64)


def _rmw_reference(a: Args) -> dict[str, torch.Tensor]:
    v = a["vals_ptr"].to(torch.int64)
    u = a["uvals_ptr"].to(torch.int64)
    f = a["fvals_ptr"]
    ints = a["ints_ptr"].to(torch.int64)
    uints = a["uints_ptr"].to(torch.int64)
    floats = a["floats_ptr"].clone()
    int_rows = [_fold_slots(ints[i], v, op) for i, op in enumerate(
        (operator.add, max, min, operator.and_, operator.or_, operator.xor))]
    uint_rows = [_fold_slots(uints[0], u, max), _fold_slots(uints[1], u, min)]
    slot_of = torch.arange(_N) % _SLOTS
    floats[0].index_add_(0, slot_of, f)
    floats[1].scatter_reduce_(0, slot_of, f, "amax")
    floats[2].scatter_reduce_(0, slot_of, f, "amin")
    return {
        "ints_ptr": torch.stack(int_rows).to(torch.int32),
        "uints_ptr": torch.stack(uint_rows).to(torch.uint32),
        "floats_ptr": floats,
        "xchg_ptr": a["vals_ptr"],
        "old_ptr": a["xchg_ptr"],
    }


_CAS_PROGRAMS, _CAS_BLOCK = 8, 32


def _cas_args(gen: torch.Generator) -> Args:
    n = _CAS_PROGRAMS * _CAS_BLOCK
    slots = rand_ints(gen, (n, ), torch.int32, 0, 4)
    # About half of the expected values match the current slot contents.
    expected = torch.where(rand_ints(gen, (n, ), torch.int32, 0, 2) == 1, slots, slots + 7)
    return {"slots_ptr": slots, "expected_ptr": expected, "old_ptr": torch.zeros(n, dtype=torch.int32),
            "counter_ptr": torch.tensor([5], dtype=torch.int32)}


def _cas_reference(a: Args) -> dict[str, torch.Tensor]:
    slots, expected = a["slots_ptr"], a["expected_ptr"]
    new = torch.arange(slots.numel(), dtype=torch.int32) + 1000
    return {"slots_ptr": torch.where(slots == expected, new, slots), "old_ptr": slots,
            "counter_ptr": a["counter_ptr"] + _CAS_PROGRAMS}


CASES = [
    Case(
        name="atomic_rmw",
        kernel=atomic_rmw_kernel,
        signature={"vals_ptr": "*i32", "uvals_ptr": "*u32", "fvals_ptr": "*fp32", "ints_ptr": "*i32",
                   "uints_ptr": "*u32", "floats_ptr": "*fp32", "xchg_ptr": "*i32", "old_ptr": "*i32", "n": "i32",
                   "SLOTS": "constexpr", "BLOCK": "constexpr"},
        constexprs={"SLOTS": _SLOTS, "BLOCK": _BLOCK},
        make_args=_rmw_args,
        grid=lambda a: (cdiv(a["n"], _BLOCK), ),
        reference=_rmw_reference,
        atol=1e-4,
        rtol=1e-5,
    ),
    Case(
        name="atomic_cas",
        kernel=atomic_cas_kernel,
        signature={"slots_ptr": "*i32", "expected_ptr": "*i32", "old_ptr": "*i32", "counter_ptr": "*i32",
                   "BLOCK": "constexpr"},
        constexprs={"BLOCK": _CAS_BLOCK},
        make_args=_cas_args,
        grid=fixed_grid(_CAS_PROGRAMS),
        reference=_cas_reference,
        num_warps=2,
    ),
]
