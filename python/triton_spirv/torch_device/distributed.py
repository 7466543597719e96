"""torch.distributed for spirv tensors: the `spirv-gloo` c10d backend.

Vulkan has no collective library, so each collective copies the spirv
tensors it is given to the CPU, runs on Gloo there and copies the results
back into them (in place); CPU tensors go to Gloo as they are.

`init_process_group("spirv-gloo")`, or `init_process_group()` (spirv is then
torch's accelerator), makes a group that takes CPU and spirv tensors alike;
so does `"cpu:gloo,spirv:spirv-gloo"` (the Gloo backend torch makes for
"cpu" first then goes unused). Plain `"gloo"` does not take spirv tensors:
torch hands them to the group's spirv backend, which it lacks ("No backend
type associated with device type spirv").

The backend is a Python ProcessGroup (torch's way for a backend written in
Python: c10d's Backend class cannot be subclassed there), so it stands for
the whole group. Collectives with spirv tensors finish before they return
(their Work is done at once); those without return Gloo's own Work."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Callable

import torch
import torch.distributed as dist

from . import DEVICE_TYPE

__all__ = ["BACKEND", "register", "StagedProcessGroup"]

BACKEND = "spirv-gloo"


def register() -> None:
    """Makes `spirv-gloo` a c10d backend, and spirv's default one (what
    `init_process_group()` picks). Nothing where torch lacks Gloo."""
    if dist.is_available() and dist.is_gloo_available():
        dist.Backend.register_backend(BACKEND, StagedProcessGroup, devices=["cpu", DEVICE_TYPE])


def _to_cpu(value: Any, moved: list[tuple[torch.Tensor, torch.Tensor]]) -> Any:
    """`value` (a collective's argument) with its spirv tensors replaced by
    CPU copies, each pair added to `moved`."""
    if isinstance(value, torch.Tensor) and value.device.type == DEVICE_TYPE:
        copy = value.detach().cpu()
        moved.append((value, copy))
        return copy
    if isinstance(value, (list, tuple)):
        return type(value)(_to_cpu(item, moved) for item in value)
    return value


class _Done(dist.Work):
    """A collective that finished before returning; its future holds its
    outputs (the spirv tensors), as Gloo's holds the CPU ones."""

    def __init__(self, outputs: Any) -> None:
        super().__init__()
        self._future: torch.futures.Future[Any] = torch.futures.Future()
        self._future.set_result(outputs if isinstance(outputs, list) else [outputs])

    def wait(self, timeout: timedelta | None = None) -> bool:
        return True

    def is_completed(self) -> bool:
        return True

    def get_future(self) -> torch.futures.Future[Any]:
        return self._future


def _staged(name: str, *, writes: bool = True) -> Callable[..., dist.Work]:
    """ProcessGroup's collective `name`, run on Gloo; where `writes`, the
    first argument holds its outputs."""

    def collective(self: StagedProcessGroup, *args: Any, **kwargs: Any) -> dist.Work:
        return self._run(name, writes, args, kwargs)

    collective.__name__ = collective.__qualname__ = name
    return collective


class StagedProcessGroup(dist.ProcessGroup):
    """A process group whose collectives run on Gloo, those of spirv tensors
    on CPU copies. `init_process_group` makes it from the group's store
    (`register_backend`'s creator: store, rank, size, timeout)."""

    def __init__(self, store: dist.Store, rank: int, size: int, timeout: timedelta) -> None:
        super().__init__(rank, size)
        gloo = dist.ProcessGroupGloo(dist.PrefixStore("gloo/", store), rank, size, timeout)
        self._gloo = dist.ProcessGroup(store, rank, size)
        self._gloo._set_default_backend(dist.ProcessGroup.BackendType.GLOO)
        # Gloo answers for spirv too: barrier() makes its placeholder tensor
        # on the device its options name. Every other spirv tensor is staged.
        for device in ("cpu", DEVICE_TYPE):
            self._gloo._register_backend(torch.device(device), dist.ProcessGroup.BackendType.GLOO,
                                         gloo)

    def getBackendName(self) -> str:  # noqa: N802 - the C++ name torch calls
        return BACKEND

    def _run(self, name: str, writes: bool, args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> dist.Work:
        moved: list[tuple[torch.Tensor, torch.Tensor]] = []
        cpu_args = [_to_cpu(args[0], moved)] if args else []
        written = len(moved) if writes else 0
        cpu_args += [_to_cpu(arg, moved) for arg in args[1:]]
        cpu_kwargs = {key: _to_cpu(value, moved) for key, value in kwargs.items()}
        work = getattr(self._gloo, name)(*cpu_args, **cpu_kwargs)
        if not moved:
            return work
        work.wait()
        with torch.no_grad():
            for tensor, copy in moved[:written]:
                tensor.copy_(copy)
        return _Done(args[0])

    allreduce = _staged("allreduce")
    allreduce_coalesced = _staged("allreduce_coalesced")
    broadcast = _staged("broadcast")
    reduce = _staged("reduce")
    allgather = _staged("allgather")
    allgather_coalesced = _staged("allgather_coalesced")
    all_gather_single = _staged("all_gather_single")
    _allgather_base = _staged("_allgather_base")
    all_gather_single_coalesced = _staged("all_gather_single_coalesced")
    allgather_into_tensor_coalesced = _staged("allgather_into_tensor_coalesced")
    gather = _staged("gather")
    scatter = _staged("scatter")
    reduce_scatter = _staged("reduce_scatter")
    reduce_scatter_single = _staged("reduce_scatter_single")
    _reduce_scatter_base = _staged("_reduce_scatter_base")
    reduce_scatter_single_coalesced = _staged("reduce_scatter_single_coalesced")
    reduce_scatter_tensor_coalesced = _staged("reduce_scatter_tensor_coalesced")
    alltoall = _staged("alltoall")
    all_to_all_single = _staged("all_to_all_single")
    alltoall_base = _staged("alltoall_base")
    send = _staged("send", writes=False)
    recv = _staged("recv")
    recv_anysource = _staged("recv_anysource")
    barrier = _staged("barrier", writes=False)
