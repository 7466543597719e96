"""pytest plugin for running Triton's own test files against this backend.

Loaded by scripts/run_triton_tests.sh with `-p plugin`. It makes this
backend's driver the active one (also next to CUDA) and adds:
  --spirv-sample N --spirv-seed S   run a fixed, seeded sample of N collected
                                    cases (the same N cases for the same files,
                                    seed and Triton version);
  --spirv-skips FILE                skip the cases a skip-list file names;
  --spirv-report FILE               write every case's outcome and its first
                                    error line as JSON lines, for summary.py;
  --spirv-timeout S                 fail a case that runs longer than S
                                    seconds (a compile that never ends would
                                    otherwise stop the whole run).
With pytest-xdist, collection runs in every worker; sampling and skipping
sort by node id first, so all workers agree on the same cases.
"""

from __future__ import annotations

import fnmatch
import json
import random
import signal
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("triton-spirv")
    group.addoption("--spirv-sample", type=int, default=0,
                    help="run a seeded sample of this many collected cases")
    group.addoption("--spirv-seed", type=int, default=0)
    group.addoption("--spirv-skips", default=None,
                    help="skip list: 'node-id-glob  # reason' per line")
    group.addoption("--spirv-report", default=None,
                    help="JSON-lines file with each case's outcome")
    group.addoption("--spirv-timeout", type=int, default=0,
                    help="seconds a case may run (0: no limit)")


def read_skip_list(path: str) -> list[tuple[str, str]]:
    """(glob, reason) pairs; every entry must give its reason."""
    entries = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        pattern, _, reason = line.partition("#")
        if not reason.strip():
            raise pytest.UsageError(f"{path}:{number}: a skip needs a reason after '#'")
        entries.append((pattern.strip(), reason.strip()))
    return entries


@pytest.hookimpl(trylast=True)  # after -k/-m deselection
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    count = config.getoption("--spirv-sample")
    if count and count < len(items):
        ordered = sorted(items, key=lambda item: item.nodeid)
        chosen = {item.nodeid for item in random.Random(config.getoption("--spirv-seed")).sample(ordered, count)}
        deselected = [item for item in items if item.nodeid not in chosen]
        items[:] = [item for item in items if item.nodeid in chosen]
        config.hook.pytest_deselected(items=deselected)
    skips = config.getoption("--spirv-skips")
    if skips:
        entries = read_skip_list(skips)
        for item in items:
            name = short_id(item.nodeid)
            for pattern, reason in entries:
                if fnmatch.fnmatchcase(name, pattern):
                    item.add_marker(pytest.mark.skip(reason=f"skip list: {reason}"))
                    break


class CaseTimeout(Exception):
    pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """Under --spirv-timeout, an alarm interrupts the case (subprocess.run,
    which compiles, kills its child on the way out)."""
    limit = item.config.getoption("--spirv-timeout")
    if not limit:
        yield
        return

    def expire(signum, frame):
        raise CaseTimeout(f"the case ran longer than {limit} s (--spirv-timeout)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(limit)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def short_id(nodeid: str) -> str:
    """The node id without the file's folder ("test_core.py::test_x[...]");
    parameters may hold slashes, so only the part before "::" is a path."""
    path, _, rest = nodeid.partition("::")
    return path.rsplit("/", 1)[-1] + "::" + rest


def first_error_line(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr)
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


class Recorder:
    def __init__(self, path: str) -> None:
        self.file = open(path, "w")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # One record per case: the call phase, or the phase that ended it.
        if report.when == "call" or report.outcome != "passed":
            outcome = report.outcome
            if report.when != "call" and outcome == "failed":
                outcome = "error"
            record = {"id": short_id(report.nodeid), "outcome": outcome}
            if report.outcome == "failed":
                record["error"] = first_error_line(report)
            elif report.outcome == "skipped" and isinstance(report.longrepr, tuple):
                record["error"] = report.longrepr[2]
            self.file.write(json.dumps(record) + "\n")
            self.file.flush()

    def pytest_unconfigure(self) -> None:
        self.file.close()


def pytest_configure(config: pytest.Config) -> None:
    # In every process, pytest-xdist's workers included: this backend's
    # driver, also where CUDA would be Triton's default.
    from triton_spirv.run import activate
    activate()
    path = config.getoption("--spirv-report")
    # Only the controlling process writes (xdist workers send it their reports).
    if path and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(path), "spirv-report")
