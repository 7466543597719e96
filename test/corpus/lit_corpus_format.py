"""lit test format for the TTIR corpus (see lit.local.cfg)."""
import difflib
import hashlib
import json
import os
import re
import subprocess

import lit.formats
import lit.Test

from manifest import manifest_key


def _without_header(text: str) -> str:
    """The module as Triton printed it: the generator's leading `//` comment
    lines and the final newline are not part of it."""
    lines = text.split("\n")
    while lines and lines[0].startswith("//"):
        lines.pop(0)
    return "\n".join(lines).rstrip("\n")


# An op (generic or custom form) outside the spirv dialect.
_NON_SPIRV_OP = re.compile(r'^\s*(?:%[^=]*= )?"?(?!spirv\.)([a-z_]+\.[a-z_.]+)', re.MULTILINE)
_TT_LEFT = re.compile(r'^\s*(?:%[^=]*= )?"?tt\.[a-z_.]+|!tt\.', re.MULTILINE)


class CorpusRoundTrip(lit.formats.FileBasedTest):
    """Per .ttir file: triton-spirv-opt prints it back byte for byte,
    --triton-to-linalg lowers it with no tt op or type left, and
    --triton-to-spirv compiles it for each target into a binary spirv-val
    accepts and whose SHA-256 is the one recorded (byte-identical code:
    utils/spirv_fingerprints.py)."""

    # Each target preset, with the Vulkan version spirv-val checks against.
    TARGETS = (("lavapipe", "vulkan1.3"), ("nvidia", "vulkan1.3"))
    # The SHA-256 of each kernel's binary per target, as recorded by
    # utils/spirv_fingerprints.py --write.
    MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "spirv-sha256.json")

    def __init__(self, tool: str) -> None:
        super().__init__()
        self.tool = tool
        with open(self.MANIFEST, encoding="utf-8") as f:
            self.recorded = json.load(f)

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
        name = manifest_key(path)
        proc = subprocess.run([self.tool, "--triton-to-linalg", path],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            return lit.Test.FAIL, f"--triton-to-linalg failed:\n{proc.stderr}"
        left = _TT_LEFT.search(proc.stdout)
        if left:
            return lit.Test.FAIL, f"--triton-to-linalg left Triton IR: {left.group(0)}"
        for target, vulkan in self.TARGETS:
            failure = self._check_spirv(path, name, target, vulkan)
            if failure:
                return lit.Test.FAIL, failure
        return lit.Test.PASS, ""

    def _check_spirv(self, path: str, name: str, target: str, vulkan: str) -> str:
        """Empty when --triton-to-spirv gives a valid binary for `target`;
        otherwise what went wrong."""
        spv = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                           f"triton-spirv-corpus-{os.getpid()}-{name.replace('/', '-')}-{target}.spv")
        try:
            failure = self._compile_and_validate(path, spv, target, vulkan)
            if not failure or self._COOPERATIVE_MATRIX_UNKNOWN in failure:
                with open(spv, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                if self.recorded.get(name, {}).get(target) != digest:
                    return (f"the {target} binary differs from test/corpus/spirv-sha256.json: "
                            f"run utils/spirv_fingerprints.py --write if code generation was "
                            f"meant to change")
            if self._COOPERATIVE_MATRIX_UNKNOWN in failure:
                # Debian 12's spirv-val (2023.1) predates SPV_KHR_cooperative_matrix:
                # validate the kernel compiled without cooperative matrices.
                return self._compile_and_validate(path, spv, target, vulkan,
                                                  "cooperative-matrix=0")
            return failure
        finally:
            for leftover in (spv, spv + ".json"):
                if os.path.exists(leftover):
                    os.remove(leftover)

    # What a validator that does not know SPV_KHR_cooperative_matrix says of
    # its capability (CooperativeMatrixKHR = 6022).
    _COOPERATIVE_MATRIX_UNKNOWN = "Invalid capability operand: 6022"

    def _compile_and_validate(self, path: str, spv: str, target: str, vulkan: str,
                              options: str = "") -> str:
        """Compiles `path` for `target` (with extra pipeline `options`) into
        `spv` and runs spirv-val on it: empty, or what went wrong."""
        what = f"target={target}" + (f" {options}" if options else "")
        proc = subprocess.run([self.tool, f"--triton-to-spirv={what} output={spv}", path],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            return f"--triton-to-spirv ({what}) failed:\n{proc.stderr}"
        left = _NON_SPIRV_OP.search(proc.stdout)
        if left:
            return f"--triton-to-spirv left a non-SPIR-V op: {left.group(1)}"
        val = subprocess.run(["spirv-val", "--target-env", vulkan, spv],
                             capture_output=True, text=True)
        if val.returncode != 0:
            return f"spirv-val ({what}, {vulkan}) rejects the binary:\n{val.stderr}"
        return ""

