"""The workgroup-memory probe (utils/workgroup_memory_probe.py), a shader
written by hand and run through the runtime without Triton (utils/raw_shader.py):
it serializes, runs under the validation layer, and every invocation's
index chase ends where it should, whatever workgroup memory it declares."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(scope="module")
def probe(repo_root):
    sys.path.insert(0, str(repo_root / "utils"))
    import workgroup_memory_probe
    return workgroup_memory_probe


def test_chases_end_where_they_should(probe) -> None:
    results = probe.measure([512, 4096, 16384], steps=33, waves=1)
    assert [r["bytes"] for r in results] == [512, 4096, 16384]
    assert all(r["correct"] for r in results)
    assert all(r["steps_per_ns"] > 0 for r in results)


def test_shader_declares_the_memory(probe) -> None:
    assert "!spirv.array<2048 x i32>" in probe.shader(2048)
