#!/usr/bin/env bash
# Run Triton's own language tests against this backend and summarize them.
#   bash scripts/run_triton_tests.sh TRITON_TEST_DIR [options] [-- pytest args...]
# TRITON_TEST_DIR is a Triton 3.6.0 checkout's python/test folder (obtained
# for testing only; never part of this repository). Options:
#   --files "a b"    files under unit/language (default: test_core.py
#                    test_standard.py test_random.py)
#   --sample N       a seeded sample of N collected cases (default: all)
#   --seed S         the sample's seed (default 0)
#   --workers N      pytest-xdist workers (default: the number of cores)
#   --runner "CMD"   the Python command (default python3); the plugin
#                    makes this backend's driver active, also next to CUDA
#   --report FILE    where the JSON-lines report goes (default: a temp file)
#   --timeout S      seconds one case may take (default 600)
# Cases in utils/triton_suite/skip_list.txt are skipped with their reason.
# Each launch is bounded by TRITON_SPIRV_TIMEOUT_S (default here 120 s).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tests=$(cd "$1" && pwd)
shift
files="test_core.py test_standard.py test_random.py"
sample=0 seed=0 workers=$(nproc) runner=python3 report="" timeout=600
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --files) files=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --runner) runner=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$report" ] || report=$(mktemp --suffix=.jsonl)
# pytest runs in the test folder; a stale report must not pass for this run's.
report=$(realpath -m "$report")
rm -f "$report"
paths=()
for f in $files; do paths+=("$tests/unit/language/$f"); done
parallel=()
# pytest-xdist comes with requirements.txt (scripts/setup.sh).
if [ "$workers" -gt 1 ]; then parallel=(-n "$workers"); fi
export TRITON_SPIRV_TIMEOUT_S=${TRITON_SPIRV_TIMEOUT_S:-120}
export PYTHONPATH=$root/utils/triton_suite${PYTHONPATH:+:$PYTHONPATH}
pytest_main=$(python3 -c 'import os, pytest; print(os.path.dirname(pytest.__file__))')/__main__.py
# Processes the tests start (test_subprocess.py) use this backend too
# (utils/triton_suite/sitecustomize.py).
export TRITON_SPIRV_SUITE_ACTIVATE=1
sampled="all cases"
if [ "$sample" -gt 0 ]; then sampled="a sample of $sample, seed $seed"; fi
echo "== Triton's tests ($files): $sampled; report $report"
# Run from the test folder so Triton's conftest.py (its --device option) applies.
set +e
(cd "$tests" && $runner "$pytest_main" -q -p no:cacheprovider -p plugin "${parallel[@]}" --rootdir "$tests" \
  --device spirv --spirv-sample "$sample" --spirv-seed "$seed" \
  --spirv-skips "$root/utils/triton_suite/skip_list.txt" --spirv-report "$report" \
  --spirv-timeout "$timeout" \
  "${paths[@]}" "${extra[@]}" | tail -n 3)
set -e
python3 "$root/utils/triton_suite/summary.py" "$report"
