"""lit test format for the TTIR corpus (see lit.local.cfg)."""
import difflib
import subprocess

import lit.formats
import lit.Test


def _without_header(text: str) -> str:
    """The module as Triton printed it: the generator's leading `//` comment
    lines and the final newline are not part of it."""
    lines = text.split("\n")
    while lines and lines[0].startswith("//"):
        lines.pop(0)
    return "\n".join(lines).rstrip("\n")


class CorpusRoundTrip(lit.formats.FileBasedTest):
    """Parses a .ttir file and compares the printed module with the file."""

    def __init__(self, tool: str) -> None:
        super().__init__()
        self.tool = tool

    def execute(self, test, lit_config):
        path = test.getSourcePath()
        with open(path, encoding="utf-8") as f:
            expected = _without_header(f.read())
        proc = subprocess.run(
            [self.tool, "--mlir-print-debuginfo", "--mlir-use-nameloc-as-prefix", path],
            capture_output=True, text=True)
        if proc.returncode != 0:
            return lit.Test.FAIL, f"triton-spirv-opt failed:\n{proc.stderr}"
        if proc.stdout.rstrip("\n") != expected:
            diff = difflib.unified_diff(expected.splitlines(), proc.stdout.splitlines(),
                                        "triton", "triton-spirv-opt", lineterm="", n=1)
            return lit.Test.FAIL, "printed module differs:\n" + "\n".join(list(diff)[:60])
        return lit.Test.PASS, ""

