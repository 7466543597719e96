"""Summarize a plugin.py report: counts per file and failures grouped by
their first error line (numbers and quoted names folded, so one cause that
shows with many shapes or dtypes is one group).

    python3 utils/triton_suite/summary.py REPORT.jsonl [--top N]
"""

from __future__ import annotations

import argparse
import collections
import json
import re


def error_group(line: str) -> str:
    line = re.sub(r"0x[0-9a-fA-F]+", "0x…", line)
    line = re.sub(r"\d+", "N", line)
    return line[:160]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    records = [json.loads(line) for line in open(args.report) if line.strip()]
    by_file: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for record in records:
        by_file[record["id"].split("::")[0]][record["outcome"]] += 1
        if record["outcome"] in ("failed", "error"):
            groups[error_group(record.get("error", ""))].append(record["id"])
    total = collections.Counter()
    for name, counts in sorted(by_file.items()):
        total.update(counts)
        print(f"{name}: " + ", ".join(f"{counts[k]} {k}" for k in ("passed", "failed", "error", "skipped") if counts[k]))
    ran = sum(total.values())
    passed = total["passed"]
    print(f"total: {passed} passed, {total['failed'] + total['error']} failed, {total['skipped']} skipped"
          f" of {ran}: {100.0 * passed / max(ran, 1):.1f}% passed")
    print(f"\nfailures by first error line ({len(groups)} groups):")
    for line, ids in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:args.top]:
        tests = collections.Counter(i.split("::")[-1].split("[")[0] for i in ids)
        print(f"{len(ids):5d}  {line}\n       in " + ", ".join(f"{t} ({n})" for t, n in tests.most_common(6)))


if __name__ == "__main__":
    main()
