"""The pass map of docs/ARCHITECTURE.md: every pass declared in TableGen, in
pipeline order, with the file that defines it and the lit tests that run it.

    python3 utils/pass_map.py            # print the table
    python3 utils/pass_map.py --write    # put it into docs/ARCHITECTURE.md
    python3 utils/pass_map.py --check    # exit 1 if the file's table is stale

Made from the sources (`Passes.td`, `GEN_PASS_DEF_*` in lib/, the
`create*` calls of each `Pipeline.cpp`, lit RUN lines), so a pass added,
moved or renamed shows up here and test_architecture_map.py fails until the
map is written again.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "docs" / "ARCHITECTURE.md"
BEGIN, END = "<!-- pass map: utils/pass_map.py --write -->", "<!-- end of pass map -->"
# The pipelines, in the order a kernel goes through them.
PIPELINES = (("--triton-to-linalg", "lib/Conversion/TritonToLinalg"),
             ("--triton-to-spirv", "lib/Conversion/LinalgToSPIRV"))

_DEFINITION = re.compile(r'^def (\w+)\s*:\s*Pass<"([\w-]+)"', re.MULTILINE)
_SUMMARY = re.compile(r'let summary = ((?:"[^"]*"\s*)+);')


@dataclasses.dataclass
class PassEntry:
    name: str  # the TableGen record
    flag: str
    summary: str
    source: str = ""
    tests: list[str] = dataclasses.field(default_factory=list)


def _declared(folder: str) -> list[PassEntry]:
    text = (ROOT / "include" / "triton-spirv" / "Conversion" / Path(folder).name / "Passes.td").read_text()
    text = re.sub(r"\n\s*:", " :", text)  # `def X\n    : Pass<...>` on one line
    entries = []
    for match in _DEFINITION.finditer(text):
        summary = _SUMMARY.search(text, match.end())
        words = "".join(re.findall(r'"([^"]*)"', summary.group(1))) if summary else ""
        entries.append(PassEntry(match.group(1), match.group(2), words))
    return entries


def _pipeline_order(folder: str, entries: list[PassEntry]) -> list[PassEntry]:
    """The entries in the order the folder's Pipeline.cpp adds them; passes
    it does not add (run by hand or by another pass) last."""
    calls = re.findall(r"create(\w+)\(", (ROOT / folder / "Pipeline.cpp").read_text())
    position = {name: index for index, name in reversed(list(enumerate(calls)))}
    return sorted(entries, key=lambda entry: position.get(entry.name, len(calls)))


def _pass_chains() -> dict[str, str]:
    """The lit substitutions that stand for chains of passes (`PASS_CHAINS`
    in test/lit.cfg.py: each a " ".join of a list of flags)."""
    tree = ast.parse((ROOT / "test" / "lit.cfg.py").read_text())
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
                and any(isinstance(target, ast.Name) and target.id == "PASS_CHAINS" for target in node.targets)):
            return {ast.literal_eval(key): " ".join(ast.literal_eval(value.args[0]))
                    for key, value in zip(node.value.keys, node.value.values)}
    return {}


def _lit_tests() -> dict[str, str]:
    """Each lit test's RUN lines, by path from the repository root, with
    the chains of passes written out."""
    chains = _pass_chains()
    runs = {}
    for path in sorted((ROOT / "test").rglob("*")):
        if path.suffix in (".mlir", ".test", ".ttir") and path.is_file():
            lines = [line for line in path.read_text(errors="replace").splitlines() if "RUN:" in line]
            if lines:
                text = "\n".join(lines)
                for name, flags in chains.items():
                    text = text.replace(name, flags)
                runs[str(path.relative_to(ROOT))] = text
    return runs


def pass_map() -> list[tuple[str, list[PassEntry]]]:
    runs = _lit_tests()
    sources = {}
    for path in (ROOT / "lib").rglob("*.cpp"):
        for name in re.findall(r"#define GEN_PASS_DEF_(\w+)", path.read_text()):
            sources[name] = str(path.relative_to(ROOT))
    result = []
    for pipeline, folder in PIPELINES:
        entries = _pipeline_order(folder, _declared(folder))
        for entry in entries:
            entry.source = sources.get(entry.name.upper(), "")
            flag = re.compile(rf"(?<![\w-])-?-?{re.escape(entry.flag)}(?![\w-])")
            entry.tests = [path for path, lines in runs.items() if flag.search(lines)]
        result.append((pipeline, entries))
    return result


def _named_tests(entry: PassEntry) -> str:
    """The tests named after the pass (else its first three), and how many
    more run it."""
    stem = entry.flag.removeprefix("triton-spirv-").removeprefix("triton-")
    names = [Path(test).name for test in entry.tests]
    shown = [name for name in names if name.startswith(stem)] or names[:3]
    more = len(names) - len(shown)
    return ", ".join(f"`{name}`" for name in shown) + (f" (+{more} more)" if more else "")


def markdown() -> str:
    lines = [BEGIN, "", "| pass | what it does | file | lit tests |", "|---|---|---|---|"]
    for pipeline, entries in pass_map():
        lines.append(f"| **{pipeline}** | | | |")
        for entry in entries:
            tests = _named_tests(entry) or "–"
            lines.append(f"| `--{entry.flag}` | {entry.summary} | `{entry.source}` | {tests} |")
    lines += ["", END]
    return "\n".join(lines)


def _replaced(document: str, table: str) -> str:
    start, end = document.index(BEGIN), document.index(END) + len(END)
    return document[:start] + table + document[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    table = markdown()
    if not (args.write or args.check):
        print(table)
        return 0
    document = DOCUMENT.read_text()
    updated = _replaced(document, table)
    if args.check:
        if updated != document:
            print(f"{DOCUMENT.relative_to(ROOT)}: the pass map is stale; run utils/pass_map.py --write",
                  file=sys.stderr)
            return 1
        return 0
    DOCUMENT.write_text(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
