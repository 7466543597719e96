"""Exit 0 when every `name==version` / `name>=version` line of a requirements
file is satisfied by the installed distributions, 1 otherwise. Lets the setup
script skip pip (several seconds even when nothing changes)."""
import importlib.metadata
import re
import sys


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])


def satisfied(line: str) -> bool:
    match = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*(==|>=)\s*([0-9.]+)", line)
    if not match:
        return False
    name, op, wanted = match.groups()
    try:
        installed = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    if op == "==":
        return _version_tuple(installed) == _version_tuple(wanted)
    return _version_tuple(installed) >= _version_tuple(wanted)


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        lines = [line.split("#")[0].strip() for line in f]
    return 0 if all(satisfied(line) for line in lines if line) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
