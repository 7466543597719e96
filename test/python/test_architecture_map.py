"""docs/ARCHITECTURE.md stays a true map: its pass table is what the sources
say, every pass of the tool is in it with its file and a lit test, and the
paths it names exist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "utils"))
import pass_map  # noqa: E402


def test_pass_table_is_fresh(repo_root: Path) -> None:
    proc = subprocess.run([sys.executable, str(repo_root / "utils" / "pass_map.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_every_pass_has_its_file_and_a_lit_test(repo_root: Path) -> None:
    entries = [entry for _, pipeline in pass_map.pass_map() for entry in pipeline]
    assert len(entries) >= 30
    for entry in entries:
        assert entry.source and (repo_root / entry.source).is_file(), entry.flag
        assert entry.tests, f"--{entry.flag} has no lit test"


def test_every_project_pass_of_the_tool_is_mapped(repo_root: Path) -> None:
    from triton_spirv._paths import tool_path
    help_text = subprocess.run([str(tool_path()), "--help"], capture_output=True, text=True,
                               check=True).stdout
    offered = set(re.findall(r"^\s+--(triton-[\w-]+)\s", help_text, re.MULTILINE))
    mapped = {entry.flag for _, pipeline in pass_map.pass_map() for entry in pipeline}
    pipelines = {"triton-to-linalg", "triton-to-spirv"}
    assert offered - pipelines == mapped


def test_map_is_short_and_its_paths_exist(repo_root: Path) -> None:
    text = (repo_root / "docs" / "ARCHITECTURE.md").read_text()
    assert len(text.splitlines()) <= 400
    for path in re.findall(r"`((?:lib|include|python|runtime|utils|docs|test|tools|scripts)/[\w./-]+)`", text):
        assert (repo_root / path).exists(), path
