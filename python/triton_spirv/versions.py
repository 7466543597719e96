"""The Triton releases this backend supports, and the check that refuses
others with a clear message (their TTIR or plugin interface may differ in
ways that would fail obscurely, or compute something else)."""

from __future__ import annotations

__all__ = ["OLDEST", "NEWEST", "UnsupportedTritonError", "check_triton", "triton_release"]

# Both ends are tested (scripts/test.sh): the newest installed by
# requirements.txt, the oldest from a folder of its own.
OLDEST, NEWEST = (3, 6), (3, 9)


class UnsupportedTritonError(RuntimeError):
    pass


def triton_release(version: str | None = None) -> tuple[int, int]:
    """(major, minor) of a Triton version string (default: the installed
    Triton's), e.g. "3.9.0" or "3.7.0+git1234" -> (3, 9) or (3, 7)."""
    if version is None:
        import triton
        version = triton.__version__
    major, minor = version.split(".")[:2]
    return int(major), int("".join(c for c in minor if c.isdigit()) or 0)


def check_triton(version: str | None = None) -> None:
    """Raises UnsupportedTritonError for a release outside OLDEST..NEWEST."""
    release = triton_release(version)
    if not OLDEST <= release <= NEWEST:
        import triton
        shown = version or triton.__version__
        raise UnsupportedTritonError(
            f"triton-spirv supports Triton {OLDEST[0]}.{OLDEST[1]} to {NEWEST[0]}.{NEWEST[1]}; "
            f"this is Triton {shown}: install one of those (pip install 'triton>="
            f"{OLDEST[0]}.{OLDEST[1]},<{NEWEST[0]}.{NEWEST[1] + 1}'), or select another backend")
