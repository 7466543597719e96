"""The checked-in TTIR corpus is exactly what Triton 3.6 produces today."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_corpus_matches_fresh_generation(repo_root: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(repo_root / "utils" / "generate_ttir_corpus.py"), "--check"],
        capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def test_corpus_references_agree_with_triton_interpreter(repo_root: Path) -> None:
    """Each case's PyTorch reference matches what Triton's own CPU interpreter
    computes for the kernel, so later end-to-end tests compare against truth."""
    proc = subprocess.run(
        [sys.executable, str(repo_root / "utils" / "run_corpus_interpreter.py")],
        capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert " 0 failed" in proc.stdout
