"""Kernels launched through the installed backend on the default Vulkan device
(lavapipe in CI), with the validation layer on: its errors fail the launch."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

from conftest import REPO

sys.path.insert(0, str(REPO / "utils"))
from corpus.cases import all_cases  # noqa: E402
from corpus.kernels.random_debug import assert_kernel  # noqa: E402
from run_corpus import run_case  # noqa: E402

# Wrong answers or limits not fixed yet; strict, so a fix shows up as a failure here.
KNOWN_BUGS: dict[str, str] = {}


def test_backend_is_active() -> None:
    driver = triton.runtime.driver.active
    assert type(driver).__name__ == "SPIRVDriver"
    assert driver.get_current_target().backend == "spirv"


def test_triton_default_backend_selects_it_next_to_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    # Next to CUDA the driver steps aside, unless TRITON_DEFAULT_BACKEND=spirv
    # (read by Triton 3.7 and later) asks for it.
    from triton_spirv.backend import driver
    monkeypatch.setattr(driver, "_other_gpu_backend_present", lambda: True)
    monkeypatch.delenv("TRITON_DEFAULT_BACKEND", raising=False)
    assert not driver.SPIRVDriver.is_active()
    monkeypatch.setenv("TRITON_DEFAULT_BACKEND", "spirv")
    assert driver.SPIRVDriver.is_active()
    monkeypatch.setenv("TRITON_SPIRV_DISABLE", "1")
    assert not driver.SPIRVDriver.is_active()


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.name)
def test_corpus_case(case) -> None:
    if case.name in KNOWN_BUGS:
        pytest.xfail(KNOWN_BUGS[case.name])
    run_case(case)


@triton.jit
def _add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
             mask=mask)


def test_offset_views() -> None:
    base = torch.arange(1000, dtype=torch.float32)
    x, y = base[3:503], base[500:]
    out = torch.zeros(600)[7:507]
    _add[(triton.cdiv(500, 128),)](x, y, out, 500, BLOCK=128)
    torch.testing.assert_close(out, x + y)


def test_grid_beyond_device_limit() -> None:
    # lavapipe allows 65535 workgroups per dimension: the runtime splits the grid.
    n = 70000 * 16
    x, y = torch.rand(n), torch.rand(n)
    out = torch.empty(n)
    _add[(70000,)](x, y, out, n, BLOCK=16)
    torch.testing.assert_close(out, x + y)


def test_zero_size_grid() -> None:
    out = torch.full((16,), 7.0)
    _add[(0,)](out, out, out, 16, BLOCK=16)
    assert torch.all(out == 7.0)


def test_bad_argument_types() -> None:
    from triton.compiler.errors import CompilationError
    # Triton's front end rejects a scalar where the kernel dereferences a pointer.
    with pytest.raises(CompilationError, match="Unsupported ptr type"):
        _add[(1,)](3, torch.zeros(16), torch.zeros(16), 16, BLOCK=16)
    # The launcher rejects tensors that live neither on the spirv device nor
    # on the CPU.
    with pytest.raises(TypeError, match="takes spirv tensors"):
        _add[(1,)](torch.zeros(16, device="meta"), torch.zeros(16), torch.zeros(16), 16, BLOCK=16)


@triton.jit
def _double_in_place(ptr):
    pid = tl.program_id(axis=0)
    tl.store(ptr + pid, tl.load(ptr + pid) * 2)


def test_scalar_kernel_runs_on_one_subgroup() -> None:
    # Only invocation 0 works in a kernel without blocks: its workgroups are
    # one subgroup, not the 1024 invocations of 32 warps.
    x = torch.arange(65536, dtype=torch.float32)
    compiled = _double_in_place[(65536, )](x, num_warps=32)
    assert torch.equal(x, torch.arange(65536, dtype=torch.float32) * 2)
    assert compiled.metadata.spirv_abi["workgroup_size"][0] <= 64


def test_num_warps_must_be_a_power_of_two() -> None:
    # As on Triton's GPU backends; 1, 2 and 8 compile.
    with pytest.raises(AssertionError, match="num_warps must be a power of 2"):
        _add.warmup(torch.zeros(16), torch.zeros(16), torch.zeros(16), 16, BLOCK=16, grid=(1, ),
                    num_warps=3)
    for num_warps in (1, 2, 8):
        _add.warmup(torch.zeros(16), torch.zeros(16), torch.zeros(16), 16, BLOCK=16, grid=(1, ),
                    num_warps=num_warps)


@triton.jit
def _scale_tiles(in_desc, out_ptr, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    tile = in_desc.load([tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N])
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], tile * 3.0)


def test_host_tensor_descriptor_argument() -> None:
    # The launcher expands the descriptor as Triton's front end expects; the
    # descriptor's shape clips the last tiles (padding with zeros).
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = torch.randn(40, 24)
    out = torch.full((48, 32), -1.0)
    descriptor = TensorDescriptor.from_tensor(x, [16, 16])
    _scale_tiles[(3, 2)](descriptor, out, 32, BLOCK_M=16, BLOCK_N=16)
    expected = torch.zeros(48, 32)
    expected[:40, :24] = x * 3.0
    torch.testing.assert_close(out, expected)


@triton.jit
def _uses_lgamma(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, libdevice.lgamma(tl.load(x_ptr + offsets)))


def test_unsupported_op_names_the_python_line() -> None:
    with pytest.raises(Exception, match=r"(?s)test_launch\.py:\d+:\d+: error: .*__nv_lgammaf"):
        _uses_lgamma[(1,)](torch.zeros(16), BLOCK=16)


@triton.jit
def _scaled_copy(x_ptr, out_ptr, SCALE: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) * SCALE)


def test_compile_time_limit_names_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    # A compile that does not finish in TRITON_SPIRV_COMPILE_TIMEOUT_S fails
    # with the kernel's name instead of hanging. (An unused SCALE value
    # keeps the kernel out of Triton's cache.)
    monkeypatch.setenv("TRITON_SPIRV_COMPILE_TIMEOUT_S", "0.001")
    x = torch.rand(16)
    with pytest.raises(Exception, match=r"did not finish compiling _scaled_copy within 0\.001 s"):
        _scaled_copy[(1,)](x, torch.empty_like(x), SCALE=float(time.time()), BLOCK=16)


@triton.jit
def _gather_tile(x_ptr, index_ptr, out_ptr, BLOCK: tl.constexpr):
    # Rows picked by loaded indices: the whole computed block is read across
    # invocations, so it must sit in workgroup memory (64 KiB at 128 x 128).
    offsets = tl.arange(0, BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :]
    x = tl.load(x_ptr + offsets) * 2.0
    rows = tl.load(index_ptr + offsets)
    tl.store(out_ptr + offsets, tl.gather(x, rows, axis=0))


def test_out_of_shared_memory_is_out_of_resources() -> None:
    from triton.runtime.errors import OutOfResources
    x = torch.rand(128, 128)
    rows = torch.randint(0, 128, (128, 128), dtype=torch.int32)
    with pytest.raises(OutOfResources, match="shared memory"):
        _gather_tile[(1,)](x, rows, torch.empty_like(x), BLOCK=128)


def test_relaunch_from_cache_in_a_fresh_process(tmp_path) -> None:
    script = (
        "import sys, torch, triton, triton.language as tl\n"
        f"sys.path.insert(0, {str(REPO / 'test' / 'python')!r})\n"
        "from triton_spirv.run import activate\n"
        "activate()\n"
        "from test_launch import _add\n"
        "x = torch.rand(256); out = torch.empty(256)\n"
        "_add[(2,)](x, x, out, 256, BLOCK=128)\n"
        "assert torch.equal(out, x + x)\n")
    env = dict(os.environ, TRITON_CACHE_DIR=str(tmp_path))
    for _ in range(2):  # the second run loads the kernel from the cache
        subprocess.run([sys.executable, "-c", script], check=True, env=env, cwd=REPO)
    assert any(p.suffix == ".spv" for p in tmp_path.rglob("*"))


def test_device_memory_tensors_are_bound_in_place() -> None:
    from triton_spirv import memory, vulkan
    x = memory.to_device(torch.rand(5000))
    out = memory.zeros(5000)
    # A view at an element offset inside the allocation, and a whole one.
    _add[(triton.cdiv(4993, 128),)](x[7:], x[7:], out[3:], 4993, BLOCK=128)
    assert torch.equal(out[3:4996], x[7:] + x[7:])
    assert torch.equal(out[:3], torch.zeros(3))
    assert vulkan.device().allocation_holding(out.data_ptr()) is not None


@pytest.mark.parametrize("name", ["vector_add", "softmax", "layer_norm_bwd_dwdb", "atomic_rmw", "join_split_interleave_cat",
                                  "device_print", "i64_offsets"])
def test_staged_tensors(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the device cannot import host memory, tensors are copied into
    device memory for the launch and back (forced here on lavapipe)."""
    monkeypatch.setenv("TRITON_SPIRV_STAGING", "1")
    [case] = [c for c in all_cases() if c.name == name]
    run_case(case)


@triton.jit
def _shift_in_place(x_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets + 1, mask=offsets + 1 < n)
    tl.store(x_ptr + offsets, x, mask=offsets + 1 < n)


def test_staged_views_of_one_storage_alias(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_SPIRV_STAGING", "1")
    base = torch.arange(10, dtype=torch.float32)
    view = base[2:]  # same storage, element offset 2
    _shift_in_place[(1, )](view, 8, BLOCK=8)
    torch.testing.assert_close(base, torch.tensor([0, 1, 3, 4, 5, 6, 7, 8, 9, 9], dtype=torch.float32))


@triton.jit
def _matmul_without_wraparound(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                               stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # Rows and columns masked instead of wrapped (no `%`): every load and store
    # goes through the structured path, the A and B blocks carried by the loop.
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BK) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def test_structured_blocks_carried_by_a_loop() -> None:
    M, N, K = 45, 37, 70
    a, b = torch.randn(M, K), torch.randn(N, K).t()  # B column-major: strided rows
    c = torch.full((M, N), -7.0)
    _matmul_without_wraparound[(triton.cdiv(M, 16), triton.cdiv(N, 16))](
        a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(), BM=16, BN=16, BK=16)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)


@triton.jit
def _wrapped_rows(x_ptr, out_ptr, M, stride, BLOCK: tl.constexpr, COLS: tl.constexpr):
    # The matmul tutorial's wrap-around: rows (pid * BLOCK + i) % M.
    rows = (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)) % M
    cols = tl.arange(0, COLS)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :])
    out_rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + out_rows[:, None] * COLS + cols[None, :], x)


@pytest.mark.parametrize("rows", [5, 16, 45])
def test_wrapped_block_loads(rows: int) -> None:
    """Two copies split at the wrap when the block wraps once (16, 45 rows);
    element by element when it wraps more often (5 rows, blocks of 16)."""
    x = torch.randn(rows, 8)
    programs = triton.cdiv(rows, 16) + 1  # the last program starts past the end
    out = torch.empty(programs * 16, 8)
    _wrapped_rows[(programs, )](x, out, rows, x.stride(0), BLOCK=16, COLS=8)
    torch.testing.assert_close(out, x[torch.arange(programs * 16) % rows])


def test_asynchronous_launches() -> None:
    """A launch returns once submitted; launches run in order, each seeing
    the writes of those before; synchronize() finishes them (results, device
    time, failed assertions)."""
    import triton_spirv
    x = torch.rand(4096)
    y, z = torch.empty_like(x), torch.empty_like(x)
    triton_spirv.set_asynchronous(True)
    try:
        _add[(4, )](x, x, y, 4096, BLOCK=1024)
        from triton_spirv.backend import launcher
        assert launcher._queue_for(0).in_flight  # submitted, not waited for
        _add[(4, )](y, x, z, 4096, BLOCK=1024)  # runs after the first, reads y
        triton_spirv.synchronize()
        torch.testing.assert_close(z, 3 * x)
        ms = triton.testing.do_bench(lambda: _add[(4, )](x, x, y, 4096, BLOCK=1024), warmup=1, rep=5)
        assert ms > 0
        x[5] = float("nan")
        assert_kernel[(1, )](x, y, 128, BLOCK=128, debug=True)
        with pytest.raises(AssertionError, match="inputs must be positive"):
            triton_spirv.synchronize()
    finally:
        triton_spirv.set_asynchronous(False)


@triton.jit
def _increment(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets) + 1)


def test_unloading_a_module_releases_its_pipeline() -> None:
    # Triton 3.8 and later call the driver's unload_module when a compiled
    # kernel goes; a launch after that makes the pipeline again.
    from triton_spirv.backend.driver import _Utils

    x = torch.zeros(64)
    compiled = _increment[(1,)](x, BLOCK=64)
    binary = compiled.module
    assert binary.kernel is not None
    _Utils.unload_module(binary)
    assert binary.kernel is None
    _increment[(1,)](x, BLOCK=64)
    assert binary.kernel is not None and torch.equal(x, torch.full((64,), 2.0))
