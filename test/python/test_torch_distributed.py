"""torch.distributed on spirv tensors through the `spirv-gloo` backend: two
processes on lavapipe run an all-reduce and one DistributedDataParallel
step; the parent checks what each rank saved against the same work on the
CPU."""

from __future__ import annotations

import copy
import warnings
from datetime import timedelta
from pathlib import Path

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F

from triton_spirv import torch_device

pytestmark = pytest.mark.skipif(not (dist.is_available() and dist.is_gloo_available()),
                                reason="torch has no Gloo")

WORLD = 2
LR = 0.5


def _model_and_data() -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    """The model every rank starts from (rank 0's), and each rank's batch."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
    return model, torch.randn(WORLD, 5, 4), torch.randn(WORLD, 5, 2)


def _flat(model: torch.nn.Module) -> torch.Tensor:
    return torch.cat([p.detach().flatten() for p in model.parameters()])


def _worker(rank: int, store: str, out: str) -> None:
    warnings.simplefilter("ignore")  # the CPU fallback's warnings, once per operator
    torch_device.register()
    dist.init_process_group("spirv-gloo", init_method=f"file://{store}", rank=rank,
                            world_size=WORLD, timeout=timedelta(seconds=60))
    try:
        # (a) all_reduce, in place: a whole tensor and a column of a matrix.
        x = (torch.tensor([1.0, 2.0, 3.0]) * (rank + 1)).to("spirv")
        address = x.data_ptr()
        matrix = torch.full((3, 2), -1.0, device="spirv")
        matrix[:, 1] = rank + 1.0
        dist.all_reduce(x)
        dist.all_reduce(matrix[:, 1])

        # (b) one DDP step from different weights: DDP broadcasts rank 0's.
        model, inputs, targets = _model_and_data()
        if rank == 1:
            with torch.no_grad():
                for p in model.parameters():
                    p.add_(1.0)
        ddp = torch.nn.parallel.DistributedDataParallel(model.to("spirv"))
        optimizer = torch.optim.SGD(ddp.parameters(), lr=LR)
        F.mse_loss(ddp(inputs[rank].to("spirv")), targets[rank].to("spirv")).backward()
        optimizer.step()
        torch.spirv.synchronize()
        torch.save({"x": x.cpu(), "in_place": x.data_ptr() == address and x.device.type == "spirv",
                    "matrix": matrix.cpu(), "parameters": _flat(model).cpu()},
                   f"{out}/rank{rank}.pt")
    finally:
        dist.destroy_process_group()


@pytest.fixture(scope="module")
def ranks(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, torch.Tensor]]:
    """What each rank saved (one run of both processes for every test)."""
    tmp: Path = tmp_path_factory.mktemp("spirv_gloo")
    mp.start_processes(_worker, args=(str(tmp / "store"), str(tmp)), nprocs=WORLD,
                       start_method="spawn")
    return [torch.load(tmp / f"rank{rank}.pt") for rank in range(WORLD)]


def test_all_reduce_sums_spirv_tensors_in_place(ranks: list[dict[str, torch.Tensor]]) -> None:
    for saved in ranks:
        assert saved["in_place"]
        assert torch.equal(saved["x"], torch.tensor([3.0, 6.0, 9.0]))
        # Into a strided view: the other column is kept.
        assert torch.equal(saved["matrix"], torch.tensor([[-1.0, 3.0]] * 3))


def test_a_ddp_step_matches_the_averaged_gradient_on_the_cpu(
        ranks: list[dict[str, torch.Tensor]]) -> None:
    model, inputs, targets = _model_and_data()
    reference = copy.deepcopy(model)
    for rank in range(WORLD):
        (F.mse_loss(reference(inputs[rank]), targets[rank]) / WORLD).backward()
    torch.optim.SGD(reference.parameters(), lr=LR).step()
    assert not torch.equal(_flat(reference), _flat(model))  # the step moved them
    assert torch.equal(ranks[0]["parameters"], ranks[1]["parameters"])
    torch.testing.assert_close(ranks[0]["parameters"], _flat(reference))
