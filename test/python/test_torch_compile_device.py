"""torch.compile on the spirv device: Inductor's GPU path for spirv tensors
(its buffers and intermediates on the device), its Triton kernels compiled
by this backend, compared with eager PyTorch on the CPU. Each case counts
the SPIR-V launches and checks that nothing ran through the CPU fallback."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402
import triton  # noqa: E402

# The models of utils/torch_compile_benchmark.py, small.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "utils"))
from torch_compile_benchmark import GPT2Block, MLPBlock  # noqa: E402

DEVICE = "spirv"
# Inductor takes one GPU type per process: next to CUDA (the GPU machine),
# run these with CUDA_VISIBLE_DEVICES= (register_codegen warns so).
pytestmark = pytest.mark.skipif(torch.cuda.is_available(),
                                reason="Inductor takes one GPU type per process: hide CUDA")


@pytest.fixture
def launches() -> Iterator[list[str]]:
    """Fresh compiles, the names of the kernels launched, and a clean
    fallback log."""
    import torch._dynamo

    launched: list[str] = []
    previous_hook = triton.knobs.runtime.launch_enter_hook
    triton.knobs.runtime.launch_enter_hook = lambda metadata: launched.append(metadata.get()["name"])
    torch._dynamo.reset()
    torch.spirv.reset_fallback_ops()
    try:
        yield launched
    finally:
        triton.knobs.runtime.launch_enter_hook = previous_hook
        torch._dynamo.reset()


def _on_the_device(module: torch.nn.Module) -> torch.nn.Module:
    """A copy of `module` (the CPU reference) with its parameters on the device."""
    return copy.deepcopy(module).to(DEVICE)


def _ran_on_the_device(launched: list[str], fallbacks_allowed: bool = False) -> None:
    """Inductor's kernels ran through this backend, and (unless allowed)
    no operator ran through the CPU fallback."""
    assert any(name.startswith("triton_") for name in launched), launched
    if not fallbacks_allowed:
        assert torch.spirv.fallback_ops() == {}


def _compare(model: Callable[..., Any], launched: list[str], *inputs: torch.Tensor,
             atol: float = 1e-4) -> None:
    expected = model(*inputs)
    actual = torch.compile(model)(*(x.to(DEVICE) for x in inputs))
    for got, want in zip(actual if isinstance(actual, tuple) else (actual,),
                         expected if isinstance(expected, tuple) else (expected,)):
        assert got.device.type == DEVICE
        torch.testing.assert_close(got.cpu(), want, atol=atol, rtol=atol)
    _ran_on_the_device(launched)


def test_row_statistics(launches: list[str]) -> None:
    torch.manual_seed(0)

    def statistics(x: Any) -> tuple[Any, ...]:
        return x.mean(-1), x.var(-1), x.amax(-1), torch.logsumexp(x, -1), x.sum(0)

    _compare(statistics, launches, torch.randn(37, 300))


def test_layer_norm_with_residual(launches: list[str]) -> None:
    torch.manual_seed(0)
    reference = torch.nn.LayerNorm(96)
    norm = _on_the_device(reference)
    x, residual = torch.randn(4, 7, 96), torch.randn(4, 7, 96)
    with torch.no_grad():
        actual = torch.compile(lambda x, r: norm(x + r) * 2.0)(x.to(DEVICE), residual.to(DEVICE))
        torch.testing.assert_close(actual.cpu(), reference(x + residual) * 2.0, atol=1e-4, rtol=1e-4)
    _ran_on_the_device(launches)


def test_mlp_block_layer_norm_fits(launches: list[str]) -> None:
    # The MLP block's layer norm (2048 rows of 2048): Inductor's only
    # configuration is a Welford reduction of XBLOCK 2 x R0_BLOCK 2048 with
    # 16 warps, which needed 63,512 bytes of workgroup memory (lavapipe has
    # 32 KiB) until its rows were reduced from registers.
    torch.manual_seed(0)
    reference = torch.nn.LayerNorm(2048)
    norm = _on_the_device(reference)
    x, residual = torch.randn(2048, 2048), torch.randn(2048, 2048)
    with torch.no_grad():
        actual = torch.compile(lambda x, r: norm(x + r))(x.to(DEVICE), residual.to(DEVICE))
        torch.testing.assert_close(actual.cpu(), reference(x + residual), atol=1e-4, rtol=1e-4)
    _ran_on_the_device(launches)


def test_training_step_gradients(launches: list[str]) -> None:
    torch.manual_seed(0)
    reference = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.LayerNorm(32),
                                    torch.nn.Linear(32, 4))
    model = _on_the_device(reference)
    x, target = torch.randn(64, 16), torch.randn(64, 4)

    def loss_and_gradients(model: Any, x: Any, target: Any) -> Any:
        loss = F.mse_loss(model(x), target)
        loss.backward()
        return loss.detach()

    loss = torch.compile(loss_and_gradients)(model, x.to(DEVICE), target.to(DEVICE))
    expected = loss_and_gradients(reference, x, target)
    torch.testing.assert_close(loss.cpu(), expected, atol=1e-5, rtol=1e-5)
    for ours, theirs in zip(model.parameters(), reference.parameters()):
        assert ours.grad.device.type == DEVICE
        torch.testing.assert_close(ours.grad.cpu(), theirs.grad, atol=1e-5, rtol=1e-4)
    _ran_on_the_device(launches, fallbacks_allowed=True)


def test_convolutions_train_on_the_device(launches: list[str]) -> None:
    # Inductor leaves convolutions to the device's own (its aten fallback:
    # convolution_overrideable here) and fuses around them; forward and
    # backward run on the device.
    torch.manual_seed(0)
    reference = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(),
                                    torch.nn.Conv2d(8, 4, 3, stride=2), torch.nn.Flatten(), torch.nn.Linear(196, 5))
    model = _on_the_device(reference)
    x = torch.randn(2, 3, 16, 16)
    actual = torch.compile(model)(x.to(DEVICE))
    actual.square().sum().backward()
    expected = reference(x)
    expected.square().sum().backward()
    torch.testing.assert_close(actual.detach().cpu(), expected, atol=1e-4, rtol=1e-4)
    for ours, theirs in zip(model.parameters(), reference.parameters()):
        torch.testing.assert_close(ours.grad.cpu(), theirs.grad, atol=1e-3, rtol=1e-4)
    _ran_on_the_device(launches)


@pytest.mark.parametrize("make, shape", [(lambda: MLPBlock(64), (32, 64)),
                                         (lambda: GPT2Block(64, 4), (2, 32, 64))], ids=["mlp", "gpt2"])
def test_block_forward(launches: list[str], make: Callable[[], torch.nn.Module], shape: tuple[int, ...]) -> None:
    torch.manual_seed(0)
    reference = make()
    block = _on_the_device(reference)
    x = torch.randn(*shape)
    with torch.no_grad():
        actual = torch.compile(block)(x.to(DEVICE))
        torch.testing.assert_close(actual.cpu(), reference(x), atol=1e-4, rtol=1e-4)
    _ran_on_the_device(launches)


def test_max_autotune(launches: list[str]) -> None:
    # Inductor's matmul templates need a device of 68 or more multiprocessors
    # (the H200's 132): on lavapipe the candidates are the device's mm,
    # with the ReLU fused after it.
    torch.manual_seed(0)
    a, b = torch.randn(128, 64), torch.randn(64, 96)
    actual = torch.compile(lambda a, b: torch.relu(a @ b), mode="max-autotune-no-cudagraphs")(
        a.to(DEVICE), b.to(DEVICE))
    torch.testing.assert_close(actual.cpu(), torch.relu(a @ b), atol=1e-4, rtol=1e-4)
    _ran_on_the_device(launches, fallbacks_allowed=True)


def test_max_autotune_matmul_templates(launches: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Inductor's Triton templates alone (no ATen choice), as on the H200:
    # lavapipe is made to pass for a big GPU. Without the device's template
    # heuristics (triton_spirv.inductor.templates) there was no choice at all.
    import torch._inductor.config as inductor_config

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("torch._inductor") and hasattr(module, "is_big_gpu"):
            monkeypatch.setattr(module, "is_big_gpu", lambda *args, **kwargs: True)
    monkeypatch.setattr(inductor_config, "max_autotune_gemm_backends", "TRITON")
    monkeypatch.setattr(inductor_config, "force_disable_caches", True)  # autotune here, now
    torch.manual_seed(0)
    a, b, bias = torch.randn(64, 32), torch.randn(32, 48), torch.randn(48)
    x, y = torch.randn(3, 16, 32), torch.randn(3, 32, 16)
    addmm = torch.compile(lambda a, b, c: torch.relu(torch.addmm(c, a, b)), mode="max-autotune-no-cudagraphs")
    bmm = torch.compile(lambda x, y: x @ y, mode="max-autotune-no-cudagraphs")
    torch.testing.assert_close(addmm(a.to(DEVICE), b.to(DEVICE), bias.to(DEVICE)).cpu(),
                               torch.relu(torch.addmm(bias, a, b)), atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(bmm(x.to(DEVICE), y.to(DEVICE)).cpu(), x @ y, atol=1e-4, rtol=1e-4)
    assert sum(name.startswith("triton_tem_") for name in launches) >= 2, launches
    _ran_on_the_device(launches)
