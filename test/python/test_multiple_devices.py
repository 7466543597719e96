"""spirv:0 and spirv:1 in one process: every Vulkan device is a spirv
device. Lavapipe listed twice (two copies of its driver manifest) makes two
Vulkan devices; a child process sees them, and checks copies between them,
kernels, FlagGems operators and torch.compile on the second, the current
device, per-device memory statistics and the error for a tensor on another
device."""

from __future__ import annotations

import glob
import os
import subprocess
import sys
from pathlib import Path

import pytest

_CHILD = r'''
import torch, triton, triton.language as tl
from triton_spirv import vulkan

@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + tl.load(y_ptr + offsets, mask=mask), mask=mask)

assert torch.spirv.device_count() == 2 == vulkan.device_count()
expected = torch.arange(1000, dtype=torch.float32)
x0 = expected.to("spirv:0")
x1 = x0.to("spirv:1")  # through the host: the devices share no memory
assert (x0.device, x1.device) == (torch.device("spirv", 0), torch.device("spirv", 1))
assert vulkan.device(0).handle.value != vulkan.device(1).handle.value
assert torch.equal(x1.cpu(), expected)
assert torch.spirv.memory_allocated(1) == torch.spirv.memory_allocated(0) == 4096

with torch.spirv.device(1):
    assert torch.spirv.current_device() == 1
    out1 = torch.empty_like(x1)
    add[(4,)](x1, x1, out1, 1000, BLOCK=256)
    assert torch.empty(1, device="spirv").device.index == 1  # the current device
assert torch.spirv.current_device() == 0
assert out1.device.index == 1 and torch.equal(out1.cpu(), 2 * expected)
assert torch.equal(out1.to("spirv:0").cpu(), 2 * expected)

# A kernel launches on the current device; a tensor on another is an error.
try:
    add[(4,)](x1, x1, torch.empty_like(x0), 1000, BLOCK=256)
    raise SystemExit("a spirv:1 tensor was taken by a launch on spirv:0")
except ValueError as error:
    assert "spirv:1" in str(error) and "spirv:0" in str(error), error

# Eager operators (FlagGems' Triton kernels) run on the tensors' device.
total = (x1 * 2).sum()
assert total.device.index == 1 and total.item() == 999000.0
assert torch.spirv.fallback_ops() == {}, torch.spirv.fallback_ops()
del total
torch.spirv.synchronize(1)

try:
    torch.empty(1, device="spirv:2")
    raise SystemExit("spirv:2 was made")
except RuntimeError as error:
    assert "spirv:2 does not exist" in str(error), error
# torch.compile's wrapper allocates and launches under the inputs' device.
compiled = torch.compile(lambda t: torch.softmax(t * 2, -1) + 1)
on1 = torch.randn(16, 32).to("spirv:1")
result = compiled(on1)
assert result.device.index == 1 and torch.spirv.current_device() == 0
assert torch.allclose(result.cpu(), torch.softmax(on1.cpu() * 2, -1) + 1, atol=1e-5)
del x1, out1, on1, result
torch.spirv.empty_cache()
assert torch.spirv.memory_reserved(1) == 0 and torch.spirv.memory_allocated(0) == 4096
print("ok")
'''


def test_two_vulkan_devices_are_spirv_0_and_spirv_1(tmp_path: Path) -> None:
    manifests = sorted(glob.glob("/usr/share/vulkan/icd.d/lvp_icd*.json"))
    if not manifests:
        pytest.skip("no lavapipe driver manifest")
    copies = []
    for name in ("first", "second"):
        copy = tmp_path / f"{name}.json"
        copy.write_text(Path(manifests[0]).read_text())
        copies.append(str(copy))
    env = {key: value for key, value in os.environ.items() if key != "TRITON_SPIRV_DEVICE"}
    env["VK_ICD_FILENAMES"] = os.pathsep.join(copies)
    env["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"  # the code made here, not a cached one
    script = tmp_path / "two_devices.py"  # Triton reads a kernel's source file
    script.write_text(_CHILD)
    child = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                           text=True, timeout=600)
    assert child.returncode == 0 and child.stdout.strip().endswith("ok"), child.stderr[-3000:]
