"""torch.compile through SPIR-V: Inductor's Triton kernels for CPU tensors,
compiled by this backend and run on the Vulkan device (lavapipe in CI),
compared with eager PyTorch. Each case also counts the SPIR-V launches, so a
model that Inductor ran another way cannot pass."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402
import triton  # noqa: E402


@pytest.fixture
def spirv_launches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """torch.compile switched to this backend, fresh compiles, and the names of
    the kernels launched through it. Pageable CPU tensors are refused as by
    default (conftest.py takes them): Inductor's CPU kernels must take them."""
    monkeypatch.delenv("TRITON_SPIRV_HOST_TENSORS", raising=False)
    import torch._dynamo
    import torch._inductor.config as inductor_config

    import triton_spirv

    launched: list[str] = []
    previous_hook = triton.knobs.runtime.launch_enter_hook
    triton.knobs.runtime.launch_enter_hook = lambda metadata: launched.append(metadata.get()["name"])
    # Whatever enable_torch_compile sets is undone after the test.
    with inductor_config.patch(cpu_backend=inductor_config.cpu_backend,
                               benchmark_epilogue_fusion=inductor_config.benchmark_epilogue_fusion):
        triton_spirv.enable_torch_compile()
        torch._dynamo.reset()
        try:
            yield launched
        finally:
            triton.knobs.runtime.launch_enter_hook = previous_hook
            torch._dynamo.reset()


def _compare(model: Callable[..., Any], launched: list[str], *inputs: Any, atol: float = 1e-4,
             rtol: float = 1e-4) -> None:
    expected = model(*inputs)
    actual = torch.compile(model)(*inputs)
    torch.testing.assert_close(actual, expected, atol=atol, rtol=rtol)
    assert launched, "no kernel ran through the SPIR-V backend"


def test_mlp_with_gelu(spirv_launches: list[str]) -> None:
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 16))
    with torch.no_grad():
        _compare(mlp, spirv_launches, torch.randn(8, 32))


def test_layer_norm_with_residual(spirv_launches: list[str]) -> None:
    torch.manual_seed(0)
    norm = torch.nn.LayerNorm(96)

    def block(x: Any, residual: Any) -> Any:
        return norm(x + residual) * 2.0

    with torch.no_grad():
        _compare(block, spirv_launches, torch.randn(4, 7, 96), torch.randn(4, 7, 96))


def test_softmax_attention_block(spirv_launches: list[str]) -> None:
    torch.manual_seed(0)
    projections = torch.nn.Linear(32, 96)

    def attention(x: Any) -> Any:
        q, k, v = projections(x).chunk(3, dim=-1)
        scores = (q @ k.transpose(-1, -2)) / 32**0.5
        causal = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool).tril()
        return scores.masked_fill(~causal, float("-inf")).softmax(-1) @ v

    with torch.no_grad():
        _compare(attention, spirv_launches, torch.randn(2, 24, 32))


def test_row_statistics(spirv_launches: list[str]) -> None:
    torch.manual_seed(0)

    def statistics(x: Any) -> tuple[Any, ...]:
        return x.mean(-1), x.var(-1), x.amax(-1), torch.logsumexp(x, -1), x.sum(0)

    _compare(statistics, spirv_launches, torch.randn(37, 300))


def test_elementwise_chain_broadcasting_and_promotion(spirv_launches: list[str]) -> None:
    torch.manual_seed(0)

    def chain(a: Any, b: Any, c: Any) -> tuple[Any, ...]:
        mixed = a * b + c  # int32 * fp16 + fp32 row: promoted to fp32
        return torch.where(mixed > 0, mixed.sqrt(), mixed.exp()), (a // 3) % 5, b.abs().to(torch.bfloat16)

    a = torch.randint(-50, 50, (16, 33), dtype=torch.int32)
    b = torch.randn(16, 33).half()
    c = torch.randn(33)
    _compare(chain, spirv_launches, a, b, c, atol=1e-2, rtol=1e-2)


def test_training_step(spirv_launches: list[str]) -> None:
    torch.manual_seed(0)
    reference = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.LayerNorm(32),
                                    torch.nn.Linear(32, 4))
    compiled = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.LayerNorm(32),
                                   torch.nn.Linear(32, 4))
    compiled.load_state_dict(reference.state_dict())
    x, target = torch.randn(64, 16), torch.randn(64, 4)

    def step(model: Any, optimizer: Any) -> Any:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), target)
        loss.backward()
        optimizer.step()
        return loss.detach()

    reference_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
    compiled_optimizer = torch.optim.SGD(compiled.parameters(), lr=0.1)
    compiled_step = torch.compile(step)
    for _ in range(3):
        torch.testing.assert_close(compiled_step(compiled, compiled_optimizer),
                                   step(reference, reference_optimizer), atol=1e-4, rtol=1e-4)
    for ours, theirs in zip(compiled.parameters(), reference.parameters()):
        torch.testing.assert_close(ours, theirs, atol=1e-4, rtol=1e-4)
    assert spirv_launches, "no kernel ran through the SPIR-V backend"


def test_looped_reduction_over_long_rows(spirv_launches: list[str]) -> None:
    # Rows longer than one block: Inductor loops over [1, 2048] blocks with
    # 16 warps, carrying five accumulators (max, argmax, sum) in registers.
    torch.manual_seed(0)

    def statistics(x: Any) -> tuple[Any, ...]:
        return x.sum(-1), x.amax(-1), x.argmax(-1)

    _compare(statistics, spirv_launches, torch.randn(37, 5000), atol=1e-3)
    assert any(name.startswith("triton_red_") for name in spirv_launches)


def test_dynamic_shapes(spirv_launches: list[str]) -> None:
    def scaled_sum(x: Any) -> Any:
        return (x * 2 + 1).sin().sum(0)

    compiled = torch.compile(scaled_sum, dynamic=True)
    for rows in (100, 77):
        x = torch.randn(rows, 33)
        torch.testing.assert_close(compiled(x), scaled_sum(x), atol=1e-4, rtol=1e-4)
    assert spirv_launches


def test_matmul_template_under_max_autotune(spirv_launches: list[str]) -> None:
    # Inductor's tl.dot templates, autotuned over its configurations (those
    # that do not fit the device's workgroup memory are dropped), with the
    # ReLU fused into the template's epilogue.
    import torch._inductor.config as inductor_config

    torch.manual_seed(0)
    a, b = torch.randn(128, 64), torch.randn(64, 96)
    with inductor_config.patch(max_autotune_gemm_backends="TRITON"):
        actual = torch.compile(lambda a, b: torch.relu(a @ b), mode="max-autotune")(a, b)
    torch.testing.assert_close(actual, torch.relu(a @ b), atol=1e-3, rtol=1e-3)
    assert any(name.startswith("triton_tem_") for name in spirv_launches)


def test_unsupported_op_names_the_generated_source(spirv_launches: list[str]) -> None:
    # float64 tangent has no Vulkan implementation here: the error names the
    # op and the line of Inductor's generated kernel.
    with pytest.raises(Exception, match=r"torchinductor.*\.py:\d+:\d+: error: double-precision 'math.tan'"):
        torch.compile(lambda x: torch.tan(x) * 2)(torch.randn(16, dtype=torch.float64))
