"""The arch string of the backend's GPUTarget: one encoding (backend/arch.py)
that the driver writes and the compiler reads."""

from __future__ import annotations

import pytest

from triton_spirv.backend.arch import Arch


@pytest.mark.parametrize("text", ["nvidia:32:49152:1024", "nvidia:32:49152:1024:-cooperative-matrix2",
                                  "lavapipe:8:32768:1024:-bfloat16-cooperative-matrix:+int64"])
def test_round_trip(text: str) -> None:
    assert str(Arch.parse(text)) == text


def test_fields_and_pipeline_options() -> None:
    arch = Arch.parse("nvidia:32:49152:1024:-cooperative-matrix2:-int8")
    assert (arch.preset, arch.subgroup_size, arch.workgroup_memory, arch.max_workgroup) == \
        ("nvidia", 32, 49152, 1024)
    assert arch.pipeline_options() == ("target=nvidia subgroup-size=32 features=-cooperative-matrix2,-int8 "
                                       "max-workgroup-memory=49152 max-workgroup-size=1024")
    # A bare preset (the options' default) takes every limit from it.
    assert Arch.parse("generic").pipeline_options() == \
        "target=generic subgroup-size=0 max-workgroup-memory=0 max-workgroup-size=0"
