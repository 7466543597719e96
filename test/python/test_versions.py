"""Which Triton releases the backend takes: 3.6 to 3.9; any other is
refused with a message naming the supported range, before it compiles."""

from __future__ import annotations

import pytest
import triton

from triton_spirv.backend.compiler import SPIRVBackend
from triton_spirv.versions import UnsupportedTritonError, check_triton, triton_release


@pytest.mark.parametrize("version, release", [("3.6.0", (3, 6)), ("3.9.0", (3, 9)),
                                              ("3.7.0+git1234abc", (3, 7)), ("3.10.1", (3, 10)),
                                              ("3.8.0rc1", (3, 8))])
def test_releases_are_read_from_version_strings(version: str, release: tuple[int, int]) -> None:
    assert triton_release(version) == release


@pytest.mark.parametrize("version", ["3.6.0", "3.7.1", "3.8.0", "3.9.0"])
def test_supported_releases_pass(version: str) -> None:
    check_triton(version)


@pytest.mark.parametrize("version", ["3.5.1", "3.10.0", "4.0.0"])
def test_other_releases_are_refused_with_the_range(version: str) -> None:
    with pytest.raises(UnsupportedTritonError, match=rf"supports Triton 3\.6 to 3\.9; this is Triton {version}"):
        check_triton(version)


def test_the_backend_refuses_an_unsupported_triton(monkeypatch: pytest.MonkeyPatch) -> None:
    target = triton.runtime.driver.active.get_current_target()
    monkeypatch.setattr(triton, "__version__", "3.5.0")
    with pytest.raises(UnsupportedTritonError, match="this is Triton 3.5.0"):
        SPIRVBackend(target)
