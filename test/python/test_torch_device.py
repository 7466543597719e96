"""The `spirv` torch device on lavapipe: allocation and reuse, copies in
every direction and layout, views, resizing, fills, the CPU fallback and its
warning, autograd and an AdamW step, random numbers, and Triton kernels
binding its tensors in place. Every result is compared with the same work
on the CPU."""

from __future__ import annotations

import warnings

import pytest
import torch

import triton
from test_launch import _add
from triton_spirv import torch_device, vulkan

torch_device.register()
DEVICE = torch.device("spirv")


def test_torch_knows_the_device_and_triton_makes_tensors_there() -> None:
    assert torch._C._get_privateuse1_backend_name() == "spirv"
    assert triton.runtime.driver.active.get_active_torch_device() == torch.device("spirv", 0)
    x = torch.empty(4, device="spirv")
    assert x.device == torch.device("spirv", 0) and x.is_spirv
    assert torch.spirv.device_count() == 1 and torch.spirv.is_initialized()
    # Device memory the launcher binds in place.
    assert vulkan.device().allocation_holding(x.data_ptr()) is not None


def test_allocations_are_counted_and_reused() -> None:
    torch.spirv.synchronize()
    before = torch.spirv.memory_allocated()
    x = torch.empty(1000, device=DEVICE)
    address = x.data_ptr()
    assert torch.spirv.memory_allocated() - before == 4096  # rounded to 512 bytes
    assert torch.spirv.max_memory_allocated() >= torch.spirv.memory_allocated()
    del x
    assert torch.spirv.memory_allocated() == before
    assert torch.empty(1000, device=DEVICE).data_ptr() == address  # the cached block
    big = torch.empty(64 * 2**20, dtype=torch.uint8, device=DEVICE)
    reserved = torch.spirv.memory_reserved()
    del big
    torch.spirv.empty_cache()
    assert torch.spirv.memory_reserved() <= reserved - 64 * 2**20


def test_many_small_tensors_share_segments() -> None:
    live = vulkan.device().live_allocations()
    tensors = [torch.empty(100, device=DEVICE) for _ in range(2000)]
    # 2000 Vulkan allocations would approach NVIDIA's cap of 4096.
    assert vulkan.device().live_allocations() - live <= 2
    assert len({t.data_ptr() for t in tensors}) == 2000


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int64,
                                   torch.int8, torch.uint8, torch.bool, torch.complex64])
def test_round_trip(dtype: torch.dtype) -> None:
    cpu = (torch.randn(37, 53) * 10).to(dtype)
    on_device = cpu.to(DEVICE)
    assert on_device.dtype == dtype and on_device.device.type == "spirv"
    assert torch.equal(on_device.cpu(), cpu)
    assert torch.equal(on_device.clone().cpu(), cpu)  # device to device


def test_copies_between_layouts_and_dtypes() -> None:
    cpu = torch.arange(24 * 16, dtype=torch.float32).reshape(24, 16)
    on_device = cpu.to(DEVICE)
    # Non-contiguous sources, both directions.
    assert torch.equal(on_device.t().cpu(), cpu.t())
    assert torch.equal(on_device[::3, 1::2].contiguous().cpu(), cpu[::3, 1::2])
    assert torch.equal(cpu.t().to(DEVICE).cpu(), cpu.t().contiguous())
    # Conversions.
    assert torch.equal(on_device.to(torch.float16).cpu(), cpu.to(torch.float16))
    assert torch.equal(cpu.to(DEVICE, torch.int32).cpu(), cpu.to(torch.int32))
    # Into part of a device tensor: the rest is kept.
    target = torch.zeros(24, 16, device=DEVICE)
    target[:, 3] = torch.ones(24)
    expected = torch.zeros(24, 16)
    expected[:, 3] = 1
    assert torch.equal(target.cpu(), expected)
    target.copy_(on_device.t().t())
    assert torch.equal(target.cpu(), cpu)
    # Broadcast.
    row = torch.zeros(5, 4, device=DEVICE)
    row.copy_(torch.arange(4.0))
    assert torch.equal(row.cpu(), torch.arange(4.0).expand(5, 4))


def test_views_share_storage() -> None:
    base = torch.zeros(6, 8, device=DEVICE)
    view = base.view(48)[8:16]
    view.add_(1)  # an in-place op through the fallback, written back
    expected = torch.zeros(6, 8)
    expected[1] = 1
    assert torch.equal(base.cpu(), expected)
    strided = base.as_strided((3, 2), (16, 1), 2)
    strided.fill_(5)
    expected.view(48).as_strided((3, 2), (16, 1), 2).fill_(5)
    assert torch.equal(base.cpu(), expected)
    assert torch.equal(base.unfold(1, 4, 2).cpu(), expected.unfold(1, 4, 2))
    assert torch.equal(base.transpose(0, 1).reshape(-1).cpu(),
                       expected.transpose(0, 1).reshape(-1))
    complex_ = torch.randn(3, 2).to(DEVICE)
    assert torch.equal(torch.view_as_complex(complex_).cpu(),
                       torch.view_as_complex(complex_.cpu()))


def test_resize_and_set() -> None:
    x = torch.arange(6.0).to(DEVICE)
    x.resize_(2, 5)
    assert x.shape == (2, 5)
    assert torch.equal(x.view(-1)[:6].cpu(), torch.arange(6.0))  # contents kept
    y = torch.empty(0, device=DEVICE)
    y.set_(x.untyped_storage(), 2, (2, 2), (1, 2))
    assert torch.equal(y.cpu(), x.view(-1).cpu().as_strided((2, 2), (1, 2), 2))
    z = torch.empty(0, device=DEVICE).set_(x)
    assert z.data_ptr() == x.data_ptr() and z.shape == x.shape


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int8, torch.int64,
                                   torch.bool, torch.float64])
def test_fills(dtype: torch.dtype) -> None:
    for value in (0, 1, 3):
        expected = torch.full((7, 9), value, dtype=dtype)
        assert torch.equal(torch.full((7, 9), value, dtype=dtype, device=DEVICE).cpu(), expected)
    part = torch.zeros(7, 9, dtype=dtype, device=DEVICE)
    part[:, 2].fill_(1)  # strided: through the CPU
    expected = torch.zeros(7, 9, dtype=dtype)
    expected[:, 2] = 1
    assert torch.equal(part.cpu(), expected)


def test_scalars_and_printing() -> None:
    x = torch.tensor([1.5, -2.0, 3.25], device=DEVICE)
    assert x[2].item() == 3.25
    assert x.sum().item() == 2.75
    assert "3.2500" in str(x) and "device='spirv:0'" in str(x)


def test_fallback_warns_once_per_operator_and_is_listed() -> None:
    torch.spirv.reset_fallback_ops()
    x = torch.randn(10).to(DEVICE)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # No kernel on the device (neither its own nor FlagGems').
        first = torch.cumprod(x, 0)
        torch.cumprod(x, 0)
    messages = [str(w.message) for w in caught if "cumprod" in str(w.message)]
    assert len(messages) == 1 and "runs on the CPU" in messages[0]
    uses = {name: count for name, count in torch.spirv.fallback_ops().items() if "cumprod" in name}
    assert uses == {"aten::cumprod.out": 2}
    assert first.device.type == "spirv"
    assert torch.allclose(first.cpu(), torch.cumprod(x.cpu(), 0))


_A, _B = torch.randn(33, 65, generator=torch.Generator().manual_seed(0)), \
    torch.randn(65, 17, generator=torch.Generator().manual_seed(1))
_INDEX = torch.tensor([3, 1, 4, 1])
F = torch.nn.functional
# name -> (the operation on (a, b, index), tolerance, operators allowed to
# run on the CPU). Each runs on spirv tensors and on CPU tensors.
_EAGER = {
    "arithmetic": (lambda a, b, i: (a + 2 * a - a / 3) * a.abs().sqrt(), 1e-5, ()),
    "compare and where": (lambda a, b, i: torch.where(a > 0.5, a, -a), 0, ()),
    "masked_fill": (lambda a, b, i: a.masked_fill(a < 0, 7.0), 0, ()),
    "casts": (lambda a, b, i: (a.half(), a.to(torch.int32), a.bfloat16()), 0, ()),
    "full and arange": (lambda a, b, i: (torch.full((3, 5), 2.5, device=a.device),
                                         torch.arange(3, 50, 2, device=a.device)), 0, ()),
    "sum, mean, max, min": (lambda a, b, i: (a.sum(0), a.mean(1), a.max(1).values, a.min()), 1e-5, ()),
    "argmax and var": (lambda a, b, i: (a.argmax(1), a.var(1)), 1e-5, ()),
    "softmax and log_softmax": (lambda a, b, i: (a.softmax(-1), a.log_softmax(0)), 1e-5, ()),
    "logsumexp": (lambda a, b, i: a.logsumexp(-1), 1e-5, ("aten::log.out",)),
    "cumsum": (lambda a, b, i: a.cumsum(1), 1e-4, ()),
    "mm, addmm, linear": (lambda a, b, i: (a @ b, torch.addmm(b[0], a, b), F.linear(a, b.t(), b[0])),
                          1e-3, ()),
    "bmm": (lambda a, b, i: torch.bmm(a[:32].reshape(4, 8, 65), b.expand(4, 65, 17).contiguous()), 1e-3, ()),
    "layer_norm": (lambda a, b, i: F.layer_norm(a, (65,), b[:, 0], b[:, 1]), 1e-4, ()),
    "rms_norm": (lambda a, b, i: F.rms_norm(a, (65,), b[:, 0]), 1e-4, ()),
    "embedding": (lambda a, b, i: F.embedding(i, a), 0, ()),
    "index and gather": (lambda a, b, i: (a[i], a.gather(1, i.expand(33, 4).contiguous())), 0, ()),
    "scatter": (lambda a, b, i: torch.zeros_like(a).scatter(1, i[:3].expand(33, 3).contiguous(), a[:, :3]),
                0, ()),
    "index_add": (lambda a, b, i: torch.zeros(5, 65, device=a.device).index_add(0, i, a[:4]), 1e-5,
                  ()),
    "cat and stack": (lambda a, b, i: (torch.cat([a, a[:2]], 0), torch.stack([a, a], 1)), 0, ()),
}


@pytest.mark.parametrize("name", list(_EAGER))
def test_eager_operators_run_on_the_device(name: str) -> None:
    from triton_spirv.torch_device import operators
    operation, tolerance, allowed = _EAGER[name]
    torch.spirv.reset_fallback_ops()
    got = operation(_A.to(DEVICE), _B.to(DEVICE), _INDEX.to(DEVICE))
    expected = operation(_A, _B, _INDEX)
    for value, reference in zip(got if isinstance(got, tuple) else (got,),
                                expected if isinstance(expected, tuple) else (expected,)):
        assert value.device.type == "spirv" and value.dtype == reference.dtype
        torch.testing.assert_close(value.cpu(), reference, atol=tolerance, rtol=tolerance)
    if operators.enabled():  # FlagGems' kernels, compiled by this backend
        assert set(torch.spirv.fallback_ops()) <= set(allowed)


def test_a_kernel_that_does_not_compile_runs_on_the_cpu() -> None:
    from triton_spirv.torch_device import operators
    values = torch.arange(200, dtype=torch.uint8)
    on_device = values.to(DEVICE)
    if not operators.enabled():
        pytest.skip("FlagGems is not enabled")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # FlagGems 5.0.2's remainder asks Triton for uint8 % int32, which
        # Triton's front end refuses.
        rest = on_device % 7
        on_device.remainder_(5)
    assert any("remainder" in str(w.message) and "runs on the CPU" in str(w.message) for w in caught)
    assert rest.device.type == "spirv" and torch.equal(rest.cpu(), values % 7)
    assert torch.equal(on_device.cpu(), values % 5)  # written back in place


@pytest.mark.parametrize("dtype", [torch.int8, torch.uint8, torch.int16, torch.int32])
def test_integer_comparisons_take_the_scalar_in_the_tensors_type(dtype: torch.dtype) -> None:
    # PyTorch converts an integer scalar to the tensor's type (int8 == 0x80
    # holds for -128); Triton's test_conversions relies on it.
    values = torch.tensor([-128, -1, 0, 5, 127], dtype=torch.int8).to(dtype)
    on_device = values.to(DEVICE)
    for scalar in (0x80, -1, 255, 5, 2**40 + 5, 0.5):
        for compare in (torch.eq, torch.ne, torch.lt, torch.le, torch.gt, torch.ge):
            assert torch.equal(compare(on_device, scalar).cpu(), compare(values, scalar)), \
                (compare.__name__, scalar)


def test_fp16_layer_norm_keeps_fp32_statistics_as_cuda_does() -> None:
    torch.manual_seed(3)
    # Rows around 40, where fp16 statistics would be 0.03 coarse: the weight
    # gradient 0.044 off, not 0.002.
    x = (torch.randn(256, 1024) + 40).half()
    weight, bias = torch.rand(1024, dtype=torch.float16), torch.rand(1024, dtype=torch.float16)
    dy = torch.randn(256, 1024, dtype=torch.float16) * 0.1
    _, mean, rstd = torch.native_layer_norm(x.to(DEVICE), (1024,), weight.to(DEVICE), bias.to(DEVICE),
                                            1e-5)
    assert mean.dtype == rstd.dtype == torch.float32 and mean.shape == (256, 1)
    leaves = [t.to(DEVICE).requires_grad_() for t in (x, weight, bias)]
    F.layer_norm(leaves[0], (1024,), leaves[1], leaves[2]).backward(dy.to(DEVICE))
    exact = [t.double().requires_grad_() for t in (x, weight, bias)]
    F.layer_norm(exact[0], (1024,), exact[1], exact[2]).backward(dy.double())
    for got, want in zip(leaves, exact):
        torch.testing.assert_close(got.grad.cpu().double(), want.grad, atol=0.01, rtol=0)


def test_random_operators_on_the_device() -> None:
    torch.manual_seed(5)
    uniform = torch.rand(100_000, device=DEVICE)
    normal = torch.randn(100_000, device=DEVICE)
    kept = F.dropout(torch.ones(100_000, device=DEVICE), 0.3)
    assert abs(uniform.mean().item() - 0.5) < 0.01 and abs(normal.std().item() - 1) < 0.01
    assert abs((kept == 0).float().mean().item() - 0.3) < 0.01
    torch.manual_seed(5)
    assert torch.equal(torch.rand(100_000, device=DEVICE).cpu(), uniform.cpu())


def test_norm_backward_on_the_device() -> None:
    torch.manual_seed(2)
    x, weight, bias = torch.randn(32, 257), torch.randn(257), torch.randn(257)
    grads = []
    for device in (DEVICE, torch.device("cpu")):
        leaves = [t.to(device).requires_grad_() for t in (x, weight, bias)]
        out = F.layer_norm(leaves[0], (257,), leaves[1], leaves[2]) + F.rms_norm(leaves[0], (257,), leaves[1])
        out.square().sum().backward()
        grads.append([leaf.grad.cpu() for leaf in leaves])
    for got, expected in zip(*grads):
        torch.testing.assert_close(got, expected, atol=1e-3, rtol=1e-4)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_backward_on_the_device(reduction: str) -> None:
    torch.manual_seed(4)
    x, target = torch.randn(6, 5), torch.randn(6, 5)
    grads = []
    for device in ("cpu", DEVICE):
        leaf = x.to(device).detach().requires_grad_()
        loss = F.mse_loss(leaf, target.to(device), reduction=reduction)
        (loss if reduction != "none" else loss.sum()).backward()
        grads.append(leaf.grad.cpu())
    torch.testing.assert_close(grads[1], grads[0])


@pytest.mark.parametrize("shape, options", [
    ((2, 4, 9, 11), dict(stride=1, padding=1)),
    ((2, 4, 9, 11), dict(stride=2, padding=0)),
    ((1, 4, 10, 10), dict(stride=1, padding=2, dilation=2)),
    ((2, 4, 9, 11), dict(stride=2, padding=1, groups=2)),
    ((2, 4, 20), dict(stride=2, padding=1)),  # 1-d
])
def test_convolutions_and_their_gradients_on_the_device(shape: tuple[int, ...], options: dict) -> None:
    # PyTorch sends an out-of-tree device's convolutions to
    # convolution_overrideable (FlagGems has none): windows times weights.
    torch.manual_seed(len(shape) + options["stride"])
    groups = options.get("groups", 1)
    x, bias = torch.randn(shape), torch.randn(6)
    weight = torch.randn(6, shape[1] // groups, *([3] * (len(shape) - 2)))
    convolve = F.conv2d if len(shape) == 4 else F.conv1d
    torch.spirv.reset_fallback_ops()
    results = []
    for device in (DEVICE, torch.device("cpu")):
        leaves = [t.to(device).requires_grad_() for t in (x, weight, bias)]
        out = convolve(*leaves, **options)
        out.square().sum().backward()
        results.append([out.detach().cpu()] + [leaf.grad.cpu() for leaf in leaves])
    for got, expected in zip(*results):
        torch.testing.assert_close(got, expected, atol=1e-3, rtol=1e-4)
    assert torch.spirv.fallback_ops() == {}


def test_transposed_convolutions_run_on_the_cpu_with_a_warning() -> None:
    from triton_spirv.torch_device.operators import convolution

    convolution._warned.clear()
    x, weight = torch.randn(1, 4, 5, 5), torch.randn(4, 3, 3, 3)
    with pytest.warns(RuntimeWarning, match="transposed .* runs on the CPU"):
        out = F.conv_transpose2d(x.to(DEVICE), weight.to(DEVICE), stride=2)
    assert out.device.type == "spirv"
    torch.testing.assert_close(out.cpu(), F.conv_transpose2d(x, weight, stride=2))


def test_autograd_and_an_adamw_step() -> None:
    torch.manual_seed(1)
    reference = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4))
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4))
    model.load_state_dict(reference.state_dict())
    model = model.to(DEVICE)
    x, target = torch.randn(8, 16), torch.randn(8, 4)
    torch.spirv.reset_fallback_ops()
    for net, inputs, goal in ((reference, x, target), (model, x.to(DEVICE), target.to(DEVICE))):
        optimizer = torch.optim.AdamW(net.parameters(), lr=0.01, foreach=False)
        loss = torch.nn.functional.mse_loss(net(inputs), goal)
        loss.backward()
        optimizer.step()
    for expected, got in zip(reference.parameters(), model.parameters()):
        assert got.device.type == "spirv"
        assert torch.allclose(got.detach().cpu(), expected.detach(), atol=1e-6)
    from triton_spirv.torch_device import operators
    if operators.enabled():  # the step's in-place updates (addcdiv.out, ...) on the device too
        assert torch.spirv.fallback_ops() == {}


def test_triton_binds_device_tensors_in_place() -> None:
    n = 10_000
    x, y = torch.randn(n), torch.randn(n)
    dx, dy = x.to(DEVICE), y.to(DEVICE)
    out = torch.empty_like(dx)
    imports = vulkan.device().live_allocations()
    _add[(triton.cdiv(n, 1024),)](dx, dy, out, n, BLOCK=1024)
    assert vulkan.device().live_allocations() == imports  # nothing imported
    assert torch.equal(out.cpu(), x + y)
    # Views at an offset, and CPU tensors beside device ones.
    half = torch.empty(n // 2, device=DEVICE)
    _add[(triton.cdiv(n // 2, 1024),)](dx[n // 2:], y[n // 2:], half, n // 2, BLOCK=1024)
    assert torch.equal(half.cpu(), (x + y)[n // 2:])


def test_pinned_memory() -> None:
    host = torch.arange(1 << 16, dtype=torch.float32).pin_memory()
    assert host.is_pinned()
    on_device = torch.empty_like(host, device=DEVICE)
    on_device.copy_(host, non_blocking=True)
    back = torch.empty_like(host).pin_memory()
    back.copy_(on_device, non_blocking=True)
    torch.spirv.synchronize()
    assert torch.equal(back, host)
    del host, back  # freeing pinned memory waits for the copies using it


def test_reductions_of_empty_tensors() -> None:
    # FlagGems' `all` divided by zero sizing its grid for a 0 x 78 block
    # (Triton's test_pipeline_epilogue with no rows): empty inputs are
    # answered on the CPU, without a warning (there is nothing to compute).
    x = torch.zeros(0, 78, device="spirv")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bool((x == torch.ones_like(x)).all())
        assert float(x.sum()) == 0.0
    assert (x + 1).shape == (0, 78) and (x + 1).device.type == "spirv"


def test_operators_flaggems_serves_only_for_cuda_fall_back_to_the_cpu() -> None:
    # FlagGems' special_i1, special_i0e, t_copy and zero assert CUDA tensors
    # (AssertionError); they are not registered, so the device's CPU fallback
    # serves them, with its warning.
    x = torch.randn(64)
    on_device = x.to("spirv")
    with pytest.warns(UserWarning, match="runs on the CPU"):
        torch.testing.assert_close(torch.special.i1(on_device).cpu(), torch.special.i1(x))
    torch.testing.assert_close(torch.special.i0e(on_device).cpu(), torch.special.i0e(x))
    torch.testing.assert_close(torch.ops.aten.t_copy(on_device.view(8, 8)).cpu(), x.view(8, 8).t())
    assert not torch.ops.aten.zero(on_device).cpu().any()


def test_float64_operators_keep_float64_precision() -> None:
    # FlagGems' kernels compute some float64 operators in float32 (i0, cos,
    # gelu: a conversion to float32 and back) or take a Python float as an
    # fp32 argument (x * 0.3): those are refused for float64, so the CPU
    # answers them in float64, with the fallback's warning. Kernels that
    # compute in float64 (add, mul, sum) stay on the device.
    from triton_spirv.torch_device import operators
    x = torch.randn(256, dtype=torch.float64)
    on_device = x.to("spirv")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for function in (torch.special.i0, torch.cos, torch.nn.functional.gelu, lambda t: t * 0.3,
                         lambda t: torch.lerp(t, t * 2, 0.3), torch.std, lambda t: t.sigmoid().logit()):
            torch.testing.assert_close(function(on_device).cpu(), function(x), rtol=1e-13, atol=0)
    assert {"i0", "cos", "gelu", "mul.Tensor"} & operators._float64_on_the_cpu
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.testing.assert_close((on_device * on_device + on_device).sum().cpu(), (x * x + x).sum())
    # float32 tensors still take FlagGems' kernels on the device.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.testing.assert_close(torch.cos(on_device.float()).cpu(), torch.cos(x.float()))


def test_operators_flaggems_refuses_fall_back_to_the_cpu() -> None:
    # FlagGems' i0_ asserts a CUDA tensor; its vector_norm lacks float64.
    x = torch.randn(64, dtype=torch.float64)
    on_device = x.to("spirv")
    with pytest.warns(RuntimeWarning, match="runs on the CPU"):
        torch.testing.assert_close(on_device.clone().i0_().cpu(), x.clone().i0_())
    with pytest.warns(RuntimeWarning, match="NotImplementedError"):
        torch.testing.assert_close(on_device.norm().cpu(), x.norm())


def test_float64_in_float32_is_read_from_the_ttir() -> None:
    from triton_spirv.backend.compiler import float64_in_float32
    signature = "tt.func public @k(%x: !tt.ptr<f64>, %val0: f32, %n: i32) {\n"
    narrow = "%a = arith.truncf %v : tensor<4x8xf64> to tensor<4x8xf32>\n"
    widen = "%b = arith.extf %r : tensor<4x8xf32> to tensor<4x8xf64>\n"
    assert float64_in_float32(signature + narrow + widen) == "computes float64 values in float32"
    # One way only is a conversion the operator means (x.float(), x.double()).
    assert float64_in_float32(signature + narrow) is None
    assert float64_in_float32(signature + widen) is None
    scalar = "%s = arith.extf %val0 : f32 to f64\n"
    assert float64_in_float32(signature + scalar) == "takes a float32 scalar argument into float64 arithmetic"
    # A float32 value the kernel computes (not an argument) is no scalar argument.
    assert float64_in_float32(signature + "%t = arith.extf %val1 : f32 to f64\n") is None
