"""`pip wheel .` builds the C++ parts into the package: installed from the
wheel alone (no checkout, no build tree), a kernel compiles and runs."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import REPO

_USE_WHEEL = r"""
import os, sys, torch, triton, triton.language as tl
import triton_spirv
from triton_spirv import _paths
site = sys.argv[1]
assert triton_spirv.__file__.startswith(site), triton_spirv.__file__
assert str(_paths.tool_path()).startswith(site) and str(_paths.runtime_library_path()).startswith(site)

@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=inside) + tl.load(y_ptr + offsets, mask=inside),
             mask=inside)

x, y = torch.rand(1000), torch.rand(1000)
out = torch.empty(1000)
add[(8, )](x, y, out, 1000, BLOCK=128)
torch.testing.assert_close(out, x + y)
print("ran from the wheel")
"""


def test_wheel_carries_the_binaries(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path / "dist")], check=True, env=dict(os.environ, PIP_ROOT_USER_ACTION="ignore"))
    [wheel] = (tmp_path / "dist").glob("*.whl")
    assert wheel.name.endswith("-py3-none-linux_x86_64.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {"triton_spirv/_bin/triton-spirv-opt", "triton_spirv/_bin/libtriton_spirv_runtime.so"} <= names

    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, env=dict(os.environ, PIP_ROOT_USER_ACTION="ignore"))
    env = dict(os.environ, PYTHONPATH=str(site), TRITON_CACHE_DIR=str(tmp_path / "cache"))
    for variable in ("TRITON_SPIRV_OPT", "TRITON_SPIRV_RUNTIME"):
        env.pop(variable, None)
    script = tmp_path / "use_wheel.py"  # Triton reads @jit sources from files
    script.write_text(_USE_WHEEL)
    run = subprocess.run([sys.executable, str(script), str(site)], env=env, cwd=tmp_path,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ran from the wheel" in run.stdout
