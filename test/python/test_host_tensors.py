"""Which CPU tensors kernels take, as on CUDA: tensors on the spirv device
and pinned CPU tensors; pageable CPU tensors only where asked for (a
kernel's `pageable_host_tensors=True`, TRITON_SPIRV_HOST_TENSORS=1,
Inductor's CPU kernels, or no spirv torch device at all). Inductor's CPU
kernels are checked by test_torch_compile.py, which runs under this rule."""

from __future__ import annotations

import pytest
import torch

import triton
from test_launch import _add
from triton_spirv import torch_device

torch_device.register()
N, BLOCK = 1000, 128
GRID = (triton.cdiv(N, BLOCK),)


@pytest.fixture(autouse=True)
def default_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    # conftest.py takes pageable tensors for the older tests; not here.
    monkeypatch.delenv("TRITON_SPIRV_HOST_TENSORS", raising=False)


def test_pageable_cpu_tensors_are_refused_with_what_to_do() -> None:
    x, out = torch.rand(N), torch.empty(N)
    with pytest.raises(ValueError, match=r"argument 0 of _add is a CPU tensor in pageable memory.*"
                                         r"device='spirv'.*pin_memory.*TRITON_SPIRV_HOST_TENSORS=1"):
        _add[GRID](x, x, out, N, BLOCK=BLOCK)
    # One pageable tensor among device tensors is refused too (argument 2).
    on_device = x.to("spirv")
    with pytest.raises(ValueError, match="argument 2 of _add"):
        _add[GRID](on_device, on_device, out, N, BLOCK=BLOCK)


def test_pinned_and_device_tensors_are_taken() -> None:
    x = torch.rand(N).pin_memory()
    out = torch.empty(N).pin_memory()
    _add[GRID](x, x, out, N, BLOCK=BLOCK)
    torch.testing.assert_close(out, x + x)
    on_device = torch.empty(N, device="spirv")
    _add[GRID](x, x, on_device, N, BLOCK=BLOCK)
    torch.testing.assert_close(on_device.cpu(), x + x)


def test_a_kernel_launch_may_take_pageable_tensors() -> None:
    x, out = torch.rand(N), torch.empty(N)
    _add[GRID](x, x, out, N, BLOCK=BLOCK, pageable_host_tensors=True)
    torch.testing.assert_close(out, x + x)


def test_the_setting_takes_pageable_tensors_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_SPIRV_HOST_TENSORS", "1")
    x, out = torch.rand(N), torch.empty(N)
    _add[GRID](x, x, out, N, BLOCK=BLOCK)
    torch.testing.assert_close(out, x + x)
