"""The launch path on the default Vulkan device (lavapipe in CI): kernels are
loaded once, grids are checked, timeouts raise instead of hanging, oversized
buffers are refused, CPU tensor imports live as long as their storage, and
launches from many threads or with many fresh tensors stay correct."""

from __future__ import annotations

import dataclasses
import os
import re
import resource
import subprocess
import sys
import warnings
import threading
import time
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl

import triton_spirv
from corpus.kernels.vector_add import fill_kernel
from corpus.kernels.vector_add import vector_add_kernel as _add
from triton_spirv import memory, vulkan


@triton.jit
def _spin(out_ptr, scale_ptr, iterations, BLOCK_SIZE: tl.constexpr):
    """Takes time in proportion to the programs launched."""
    acc = tl.load(out_ptr + tl.arange(0, BLOCK_SIZE))
    scale = tl.load(scale_ptr + tl.arange(0, BLOCK_SIZE))
    for j in range(iterations):
        acc = acc * scale + j.to(tl.float32)
    tl.store(out_ptr + tl.arange(0, BLOCK_SIZE), acc)


# lavapipe (Mesa 22.3) ends a loop after 65535 iterations in total per
# invocation, so longer runs take more programs, not more iterations.
_SPIN_ITERATIONS = 60000


def _spin_grid(programs: int) -> tuple[int, int]:
    """At least `programs` programs, as a grid Triton accepts."""
    return min(programs, 65535), triton.cdiv(programs, 65535)


def _spin_grid_for(seconds: float, out: torch.Tensor, scale: torch.Tensor) -> tuple[int, int]:
    """A grid of _spin that runs about `seconds` on this device, from a timed
    run of a fraction of it."""
    _spin[(1,)](out, scale, _SPIN_ITERATIONS, BLOCK_SIZE=128)  # compiled before timing
    programs = 1
    while True:
        start = time.monotonic()
        _spin[_spin_grid(programs)](out, scale, _SPIN_ITERATIONS, BLOCK_SIZE=128)
        elapsed = time.monotonic() - start
        if elapsed > 0.2:
            break
        programs *= 4
    return _spin_grid(int(programs * seconds / elapsed) + 1)


def _device() -> vulkan.Device:
    return vulkan.device()


def test_kernel_is_loaded_once() -> None:
    x, y, out = torch.rand(300), torch.rand(300), torch.empty(300)
    compiled = _add[(3,)](x, y, out, 300, BLOCK_SIZE=128)
    launcher, pipeline = compiled._run, compiled.module.kernel
    assert compiled.module is not None and pipeline is not None
    for _ in range(3):
        _add[(3,)](x, y, out, 300, BLOCK_SIZE=128)
    assert compiled._run is launcher and compiled.module.kernel is pipeline
    torch.testing.assert_close(out, x + y)


@pytest.mark.parametrize("grid", [(-1,), (2, -3), (2**31,), (1, 65536), (1, 1, 65536)])
def test_grids_beyond_tritons_limits_raise(grid: tuple[int, ...]) -> None:
    out = torch.zeros(16, dtype=torch.int32)
    start = time.monotonic()
    with pytest.raises(ValueError, match="grid"):
        fill_kernel[grid](out, 16, 7, BLOCK_SIZE=16)
    assert time.monotonic() - start < 5
    assert not out.any()


@pytest.mark.parametrize("grid", [(0,), (4, 0), (1, 1, 0)])
def test_empty_grids_launch_nothing(grid: tuple[int, ...]) -> None:
    out = torch.zeros(16, dtype=torch.int32)
    fill_kernel[grid](out, 16, 7, BLOCK_SIZE=16)
    assert not out.any()


def test_launch_past_timeout_raises_and_the_device_recovers(monkeypatch: pytest.MonkeyPatch) -> None:
    out, scale = torch.zeros(128), torch.full((128,), 0.5)
    grid = _spin_grid_for(5.0, out, scale)
    monkeypatch.setenv("TRITON_SPIRV_TIMEOUT_S", "1")
    start = time.monotonic()
    with pytest.raises(vulkan.LaunchTimeoutError, match="TRITON_SPIRV_TIMEOUT_S"):
        _spin[grid](out, scale, _SPIN_ITERATIONS, BLOCK_SIZE=128)
    assert time.monotonic() - start < 3
    # The next wait sees it finish; then the device runs the next launch.
    monkeypatch.setenv("TRITON_SPIRV_TIMEOUT_S", "120")
    triton_spirv.synchronize()
    x, y, result = torch.rand(500), torch.rand(500), torch.empty(500)
    _add[(4,)](x, y, result, 500, BLOCK_SIZE=128)
    torch.testing.assert_close(result, x + y)


def test_split_grid_past_timeout_stops_between_dispatches(monkeypatch: pytest.MonkeyPatch) -> None:
    # Triton's largest grid is 32769 dispatches of lavapipe's 65535 workgroups.
    if _device().properties.max_workgroup_count[0] >= 2**31 - 1:
        pytest.skip("the device dispatches Triton's largest grid at once")
    out = torch.zeros(16, dtype=torch.int32)
    fill_kernel[(1,)](out, 16, 7, BLOCK_SIZE=16)
    monkeypatch.setenv("TRITON_SPIRV_TIMEOUT_S", "1")
    start = time.monotonic()
    with pytest.raises(vulkan.LaunchTimeoutError, match="dispatches"):
        fill_kernel[(2**31 - 1,)](out, 16, 7, BLOCK_SIZE=16)
    assert time.monotonic() - start < 3
    monkeypatch.setenv("TRITON_SPIRV_TIMEOUT_S", "60")
    triton_spirv.synchronize()
    assert (out == 7).all()


def test_buffers_beyond_the_device_range_are_refused_without_device_addresses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Devices with buffer device addresses take such tensors by address
    # (test_large_tensors.py); this one pretends to have none.
    device = _device()
    limit = device.properties.max_storage_buffer_range
    if limit > 512 * 2**20:
        pytest.skip("the device binds buffers larger than this test allocates")
    monkeypatch.setattr(device, "properties",
                        dataclasses.replace(device.properties, buffer_device_address=False))

    @triton.jit
    def fill(out_ptr, n, value, BLOCK_SIZE: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        tl.store(out_ptr + offsets, tl.full([BLOCK_SIZE], value, tl.int32), mask=offsets < n)

    inside = limit // 4 - 1024  # int32 elements
    out = torch.zeros(inside, dtype=torch.int32)
    fill[(triton.cdiv(inside, 1024),)](out, inside, 5, BLOCK_SIZE=1024)
    assert out[0] == 5 and out[-1] == 5 and int((out == 5).sum()) == inside
    del out
    beyond = limit // 4 + 1024
    out = torch.zeros(beyond, dtype=torch.int32)
    with pytest.raises(ValueError, match="maxStorageBufferRange"):
        fill[(triton.cdiv(beyond, 1024),)](out, beyond, 5, BLOCK_SIZE=1024)
    device_out = memory.zeros(beyond, torch.int32)
    with pytest.raises(ValueError, match="maxStorageBufferRange"):
        fill[(triton.cdiv(beyond, 1024),)](device_out, beyond, 5, BLOCK_SIZE=1024)


def test_cpu_tensors_on_a_discrete_gpu_warn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from triton_spirv.backend import launcher
    device = _device()
    monkeypatch.setattr(device, "properties", dataclasses.replace(device.properties, is_discrete=True))
    monkeypatch.setattr(launcher, "_warned_host_memory", False)

    @triton.jit
    def twice(x_ptr, n, BLOCK_SIZE: tl.constexpr):
        offsets = tl.arange(0, BLOCK_SIZE)
        tl.store(x_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < n) * 2, mask=offsets < n)

    x = torch.ones(100)
    with pytest.warns(RuntimeWarning, match="reaches over PCIe"):
        twice[(1,)](x, 100, BLOCK_SIZE=128)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        twice[(1,)](x, 100, BLOCK_SIZE=128)  # said once
    assert torch.equal(x, torch.full((100,), 4.0))


def test_cpu_storages_are_imported_once_while_they_live() -> None:
    device = _device()
    x, y = torch.rand(100_000), torch.rand(100_000)
    out = torch.empty(100_000)
    grid = (triton.cdiv(100_000, 1024),)
    _add[grid](x, y, out, 100_000, BLOCK_SIZE=1024)
    live = device.live_allocations()
    for _ in range(5):
        _add[grid](x, y, out, 100_000, BLOCK_SIZE=1024)
    assert device.live_allocations() == live
    torch.testing.assert_close(out, x + y)
    del x, y, out
    assert device.live_allocations() == live - 3


def test_views_of_imported_storages_and_wrapped_tensors() -> None:
    base = torch.arange(4096, dtype=torch.int32)
    out = torch.zeros(4096, dtype=torch.int32)
    _add[(2,)](base[7:], base[:-7], out[100:], 256, BLOCK_SIZE=128)
    torch.testing.assert_close(out[100:356], base[7:263] + base[:256])
    # Triton's tests wrap unsigned tensors (TensorWrapper); its launchers take them.
    unsigned = triton.reinterpret(torch.zeros(64, dtype=torch.int32), tl.uint32)
    fill_kernel[(1,)](unsigned, 64, 3, BLOCK_SIZE=64)
    assert (unsigned.base == 3).all()


def test_concurrent_launches_from_threads() -> None:
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            generator = torch.Generator().manual_seed(seed)
            for _ in range(40):
                n = int(torch.randint(1, 3000, (1,), generator=generator))
                x, y = torch.rand(n, generator=generator), torch.rand(n, generator=generator)
                out = torch.empty(n)
                _add[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK_SIZE=256)
                torch.testing.assert_close(out, x + y)
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]


def test_ten_thousand_launches_with_fresh_tensors_keep_memory_flat() -> None:
    device = _device()

    def launch_fresh() -> None:
        x, y = torch.rand(1000), torch.rand(1000)
        out = torch.empty(1000)
        _add[(4,)](x, y, out, 1000, BLOCK_SIZE=256)
        assert torch.equal(out, x + y)

    for _ in range(200):
        launch_fresh()
    live, rss = device.live_allocations(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(10_000):
        launch_fresh()
    assert device.live_allocations() <= live + 3
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss
    assert grown_kib < 32 * 1024, f"resident memory grew by {grown_kib} KiB"


def test_benchmark_cache_is_overwritten_by_the_device() -> None:
    driver = triton.runtime.driver.active
    cache = driver.get_empty_cache_for_benchmark()
    assert _device().allocation_holding(cache.data_ptr()) is not None  # device memory
    cache.fill_(-1)
    driver.clear_cache(cache)
    assert torch.equal(cache, torch.arange(cache.numel(), dtype=torch.int32))


def test_asynchronous_launches_run_in_order_and_events_time_them() -> None:
    from triton_spirv.backend import launcher
    ones = torch.ones(4096)
    a, b = torch.zeros(4096), torch.empty(4096)
    interface = triton.runtime.driver.active.get_device_interface()
    start, end = interface.Event(enable_timing=True), interface.Event(enable_timing=True)
    triton_spirv.set_asynchronous(True)
    try:
        start.record()
        for _ in range(50):  # each launch reads what the one before wrote
            _add[(4,)](a, ones, b, 4096, BLOCK_SIZE=1024)
            a, b = b, a
        end.record()
        assert launcher._queue_for(0).in_flight  # recording an event does not wait
        assert start.elapsed_time(end) > 0
        triton_spirv.synchronize()
        assert not launcher._queue_for(0).in_flight
        assert torch.equal(a, torch.full((4096,), 50.0))
    finally:
        triton_spirv.set_asynchronous(False)


def test_small_device_tensors_share_allocations() -> None:
    device = _device()
    live = device.live_allocations()
    tensors = [memory.empty(100) for _ in range(5000)]
    assert device.live_allocations() - live <= 1  # one 4 MiB block of 512-byte slots
    x, y, out = tensors[1], tensors[2], tensors[4999]
    x.copy_(torch.rand(100))
    y.copy_(torch.rand(100))
    _add[(1,)](x, y, out, 100, BLOCK_SIZE=128)
    torch.testing.assert_close(out, x + y)
    address = tensors[3].data_ptr()
    del tensors[3]
    assert memory.empty(100).data_ptr() == address  # the freed slot is reused


def test_out_of_bounds_writes_are_contained() -> None:
    if not _device().properties.robust_buffer_access:
        pytest.skip("the device has no robust buffer access")
    small = memory.zeros(16, torch.int32)
    neighbour = memory.zeros(16, torch.int32)  # the next slot of the same block
    fill_kernel[(1024,)](small, 1024 * 1024, 5, BLOCK_SIZE=1024)  # a million writes, 16 in bounds
    assert (small == 5).all()
    assert not neighbour.any()
    x = torch.rand(100)
    _add[(1,)](x, x, x, 100, BLOCK_SIZE=128)  # the device still works
    assert torch.isfinite(x).all()


@triton.jit
def _store_zeros(out_ptr, n, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets, tl.zeros([BLOCK_SIZE], tl.int32), mask=offsets < n)


@triton.jit
def _store_full_rows(out_ptr, stride, ROWS: tl.constexpr, COLUMNS: tl.constexpr):
    rows, columns = tl.arange(0, ROWS)[:, None], tl.arange(0, COLUMNS)[None, :]
    tl.store(out_ptr + rows * stride + columns, tl.full([ROWS, COLUMNS], 2.5, tl.float32))


@triton.jit
def _store_count(out_ptr, n):
    count = tl.zeros([32], tl.int32)
    for _ in range(n):
        count += 1  # carried as a scalar: the block stored is uniform
    tl.store(out_ptr + tl.arange(0, 32), count)


def test_constant_blocks_are_stored() -> None:
    """Stores of blocks with one value (zero-filling an output) compile."""
    out = torch.ones(3000, dtype=torch.int32)
    _store_zeros[(3,)](out, 2900, BLOCK_SIZE=1024)
    assert not out[:2900].any() and (out[2900:] == 1).all()
    matrix = torch.zeros(64, 40)
    _store_full_rows[(1,)](matrix, 40, ROWS=64, COLUMNS=32)
    assert (matrix[:, :32] == 2.5).all() and not matrix[:, 32:].any()
    counts = torch.zeros(32, dtype=torch.int32)
    _store_count[(1,)](counts, 1000)
    assert (counts == 1000).all()


@triton.jit
def _scaled_by_tuple(out_ptr, pair, scale_and_in: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(pair[1] + offsets)
    tl.store(out_ptr + offsets, x * pair[0] + scale_and_in[0])


def test_tuple_arguments_are_flattened() -> None:
    """A tuple argument is its elements, in order (constexpr elements left
    out), as Triton's own launchers pass it."""
    x = torch.arange(16, dtype=torch.float32)
    out = torch.empty(16)
    _scaled_by_tuple[(1, )](out, (3.0, x), (1.0, 2), BLOCK=16)
    assert torch.equal(out, x * 3 + 1)


_ABANDONING_SCRIPT = """
import sys, time, os
sys.path[:0] = [{tests!r}, {test_root!r}]
import torch
from triton_spirv import vulkan
from test_launch_path import _SPIN_ITERATIONS, _spin, _spin_grid_for

out, scale = torch.zeros(128), torch.full((128,), 0.5)
grid = _spin_grid_for(30.0, out, scale)
os.environ["TRITON_SPIRV_TIMEOUT_S"] = "1"
try:
    _spin[grid](out, scale, _SPIN_ITERATIONS, BLOCK_SIZE=128)
except vulkan.LaunchTimeoutError as error:
    print("raised at", time.time(), error, flush=True)
"""


def test_a_process_does_not_wait_at_exit_for_a_launch_past_its_timeout(tmp_path: Path) -> None:
    # A never-ending kernel kept its process 80 s past the LaunchTimeoutError
    # on the H200, tearing the device down at exit (lavapipe does not wait
    # there). After a timeout the process now leaves at exit without
    # waiting, and says so.
    script = tmp_path / "abandon.py"
    here = Path(__file__).resolve().parent
    script.write_text(_ABANDONING_SCRIPT.format(tests=str(here), test_root=str(here.parent)))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "TRITON_SPIRV_HOST_TENSORS": "1"})
    ended = time.time()
    assert run.returncode == 0, run.stderr[-2000:]
    raised = re.search(r"raised at (\S+) .*at exit the process will not wait for it", run.stdout)
    assert raised, run.stdout + run.stderr[-2000:]
    assert "exiting without waiting for it (the device is abandoned)" in run.stderr
    assert ended - float(raised.group(1)) < 10  # the launch had about 30 s left
