"""Makes this backend's driver Triton's active one in the Python processes
that Triton's tests start themselves (test_subprocess.py runs print_helper.py
with sys.executable), as plugin.py does in pytest's: without it, where CUDA is
present, those processes would compile for CUDA. run_triton_tests.sh puts
this folder on PYTHONPATH and sets TRITON_SPIRV_SUITE_ACTIVATE=1."""

import importlib.util
import os
import sys


def _run_shadowed_sitecustomize() -> None:
    """Runs the environment's own sitecustomize, which this one shadows."""
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        if os.path.abspath(entry or ".") == here:
            continue
        candidate = os.path.join(entry, "sitecustomize.py")
        if os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("_shadowed_sitecustomize", candidate)
            if spec and spec.loader:
                spec.loader.exec_module(importlib.util.module_from_spec(spec))
            return


_run_shadowed_sitecustomize()
if os.environ.get("TRITON_SPIRV_SUITE_ACTIVATE") == "1":
    from triton_spirv.run import activate

    activate()
