"""The SHA-256 of the SPIR-V that triton-spirv-opt makes of every TTIR corpus
kernel (test/corpus/ttir, and ttir-<version> for newer Triton releases) for
each target preset, kept in
test/corpus/spirv-sha256.json. The corpus's lit format compares each binary
it compiles with it, so a change that should not touch code generation (a
restructuring) shows that it did not, and one that does names the kernels
it changed.

    python3 utils/spirv_fingerprints.py            # list the kernels whose binary differs
    python3 utils/spirv_fingerprints.py --write    # record the binaries of this build
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


def fingerprint(tool: Path, source: Path, target: str) -> str:
    with tempfile.TemporaryDirectory(prefix="triton-spirv-fingerprint-") as workdir:
        binary = Path(workdir) / "kernel.spv"
        # The pipeline test/corpus/lit_corpus_format.py runs (its binaries
        # are compared with what this records).
        subprocess.run([str(tool), f"--triton-to-spirv=target={target} output={binary}", str(source),
                        "-o", os.devnull],
                       check=True, capture_output=True, text=True)
        return hashlib.sha256(binary.read_bytes()).hexdigest()


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
    args = parser.parse_args()
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
