"""lit test format for the TTIR corpus (see lit.local.cfg)."""
import difflib
import os
import re
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


_TT_LEFT = re.compile(r'^\s*(?:%[^=]*= )?"?tt\.[a-z_.]+|!tt\.', re.MULTILINE)


class CorpusRoundTrip(lit.formats.FileBasedTest):
    """Per .ttir file: triton-spirv-opt prints it back byte for byte, and
    --triton-to-linalg lowers it with no tt op or type left (or, for kernels
    listed in `unsupported`, rejects it with the listed diagnostic)."""

    def __init__(self, tool: str, unsupported: dict[str, str]) -> None:
        super().__init__()
        self.tool = tool
        self.unsupported = unsupported

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
        return self._check_lowering(path)

    def _check_lowering(self, path: str):
        name = os.path.splitext(os.path.basename(path))[0]
        proc = subprocess.run([self.tool, "--triton-to-linalg", path],
                              capture_output=True, text=True)
        expected_error = self.unsupported.get(name)
        if expected_error is not None:
            if proc.returncode == 0 or expected_error not in proc.stderr:
                return lit.Test.FAIL, (f"expected --triton-to-linalg to fail with "
                                       f"'{expected_error}', got rc={proc.returncode}:\n"
                                       f"{proc.stderr}")
            return lit.Test.PASS, ""
        if proc.returncode != 0:
            return lit.Test.FAIL, f"--triton-to-linalg failed:\n{proc.stderr}"
        left = _TT_LEFT.search(proc.stdout)
        if left:
            return lit.Test.FAIL, f"--triton-to-linalg left Triton IR: {left.group(0)}"
        return lit.Test.PASS, ""

