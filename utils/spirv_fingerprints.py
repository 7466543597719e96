"""The SHA-256 of the SPIR-V that triton-spirv-opt makes of every TTIR corpus
kernel (test/corpus/ttir, and ttir-<version> for newer Triton releases) for
each target preset, kept in
test/corpus/spirv-sha256.json. The corpus's lit format compares each binary
it compiles with it, so a change that should not touch code generation (a
restructuring) shows that it did not, and one that does names the kernels
it changed.

    python3 utils/spirv_fingerprints.py            # list the kernels whose binary differs
    python3 utils/spirv_fingerprints.py --write    # record the binaries of this build
    python3 utils/spirv_fingerprints.py --against OLD_TOOL
        # compare with another build's binaries: for each that differs, say
        # whether only the order of its instructions changed (spirv-dis)
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "corpus"
sys.path.insert(0, str(CORPUS))
from manifest import manifest_key  # noqa: E402
MANIFEST = ROOT / "test" / "corpus" / "spirv-sha256.json"
TARGETS = ("lavapipe", "nvidia")


def compile_binary(tool: Path, source: Path, target: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="triton-spirv-fingerprint-") as workdir:
        binary = Path(workdir) / "kernel.spv"
        # The pipeline test/corpus/lit_corpus_format.py runs (its binaries
        # are compared with what this records).
        subprocess.run([str(tool), f"--triton-to-spirv=target={target} output={binary}", str(source),
                        "-o", os.devnull],
                       check=True, capture_output=True, text=True)
        return binary.read_bytes()


def fingerprint(tool: Path, source: Path, target: str) -> str:
    return hashlib.sha256(compile_binary(tool, source, target)).hexdigest()


def disassembly(binary: bytes) -> list[str]:
    with tempfile.NamedTemporaryFile(suffix=".spv") as file:
        file.write(binary)
        file.flush()
        return subprocess.run(["spirv-dis", file.name], check=True, capture_output=True,
                              text=True).stdout.splitlines()


def compare(tool: Path, other: Path) -> int:
    """Prints how the binaries of `tool` differ from those of `other`: a
    reordering (the same disassembled lines, by spirv-dis's value-named ids,
    in another order) or a change of content."""
    sources = sorted(CORPUS.glob("ttir*/*.ttir"))
    jobs = [(source, target) for source in sources for target in TARGETS]

    def verdict(job: tuple[Path, str]) -> str | None:
        ours, theirs = (compile_binary(t, *job) for t in (tool, other))
        if ours == theirs:
            return None
        a, b = disassembly(ours), disassembly(theirs)
        what = "reordered" if sorted(a) == sorted(b) else "changed"
        moved = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
        return f"{manifest_key(str(job[0]))} ({job[1]}): {what}, {moved} lines differ in place"

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        differences = [v for v in pool.map(verdict, jobs) if v]
    print(f"{len(differences)} of {len(jobs)} binaries differ from {other}'s"
          + (":\n  " + "\n  ".join(differences) if differences else ""))
    return 1 if any(", changed," in d for d in differences) else 0


def fingerprints(tool: Path) -> dict[str, dict[str, str]]:
    sources = sorted(CORPUS.glob("ttir*/*.ttir"))
    jobs = [(source, target) for source in sources for target in TARGETS]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        digests = list(pool.map(lambda job: fingerprint(tool, *job), jobs))
    result: dict[str, dict[str, str]] = {}
    for (source, target), digest in zip(jobs, digests):
        result.setdefault(manifest_key(str(source)), {})[target] = digest
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="record this build's binaries")
    parser.add_argument("--tool", type=Path, default=ROOT / "build" / "bin" / "triton-spirv-opt")
    parser.add_argument("--against", type=Path, help="another build's triton-spirv-opt to compare with")
    args = parser.parse_args()
    if args.against:
        return compare(args.tool, args.against)
    current = fingerprints(args.tool)
    if args.write:
        MANIFEST.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n")
        print(f"{MANIFEST.relative_to(ROOT)}: {len(current)} kernels x {len(TARGETS)} targets")
        return 0
    recorded = json.loads(MANIFEST.read_text())
    changed = [f"{name} ({target})" for name, targets in sorted(current.items())
               for target, digest in targets.items() if recorded.get(name, {}).get(target) != digest]
    print(f"{len(changed)} of {len(current) * len(TARGETS)} binaries differ from the record"
          + (":\n  " + "\n  ".join(changed) if changed else ""))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
