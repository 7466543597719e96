"""Keys of spirv-sha256.json, shared by the corpus's lit format and
utils/spirv_fingerprints.py (no imports beyond the standard library)."""

import os


def manifest_key(path: str) -> str:
    """A kernel's key: its case name for the oldest Triton's corpus (ttir/),
    `<version>/<name>` for a newer one's (ttir-<version>/)."""
    folder = os.path.basename(os.path.dirname(path))
    name = os.path.splitext(os.path.basename(path))[0]
    return name if folder == "ttir" else f"{folder.removeprefix('ttir-')}/{name}"
