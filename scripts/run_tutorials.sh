#!/usr/bin/env bash
# Run the official Triton tutorials, unmodified, through the SPIR-V backend
# and summarize their correctness checks. The files are not part of this
# repository: pass the python/tutorials folder of a Triton checkout.
#   bash scripts/run_tutorials.sh TUTORIALS_DIR [command prefix...]
# e.g. `... python3` where the SPIR-V driver is the active one (no CUDA), or
# `... python3 -m triton_spirv.run` to select it next to CUDA.
# Each file runs in a scratch folder (the tutorials write plots and CSVs)
# under a time limit, TUTORIAL_TIMEOUT_S (default 1800 s): their benchmark
# sections come after the checks and are long on CPU devices. TUTORIALS
# (names, space-separated) runs some of them.
set -uo pipefail
dir=$(cd "$1" && pwd)
shift
runner=("$@")
[ ${#runner[@]} -eq 0 ] && runner=(python3)
limit=${TUTORIAL_TIMEOUT_S:-1800}
scratch=$(mktemp -d)
status=0
pytest_main=$(python3 -c 'import os, pytest; print(os.path.dirname(pytest.__file__))')/__main__.py
names=${TUTORIALS:-01-vector-add 02-fused-softmax 03-matrix-multiplication 04-low-memory-dropout 05-layer-norm
  06-fused-attention 08-grouped-gemm}
for name in $names; do
  log=$scratch/$name.log
  start=$SECONDS
  if [ $name = 06-fused-attention ]; then
    # Its checks are pytest cases: the fp16 ones at Z 1, H 2 (the forward-only
    # variant skips itself; the backward one checks the forward output too).
    (cd "$scratch" && timeout "$limit" "${runner[@]}" "$pytest_main" -q -p no:cacheprovider "$dir/$name.py" \
      -k "test_op and fp16 and bwd and (128-2-1 or 1024-2-1)" >"$log" 2>&1)
  else
    (cd "$scratch" && timeout "$limit" "${runner[@]}" "$dir/$name.py" >"$log" 2>&1)
  fi
  rc=$?
  # Each tutorial's correctness check, by what it prints or raises.
  case $name in
    01-vector-add) grep -q "maximum difference between torch and triton is 0.0$" "$log" && check=ok || check=FAILED ;;
    03-matrix-multiplication) grep -q "✅ Triton and Torch match" "$log" && check=ok || check=FAILED ;;
    *) # an assertion: passed if no traceback came before the time limit
       if [ $rc -eq 0 ] || { [ $rc -eq 124 ] && ! grep -q Traceback "$log"; }; then check=ok; else check=FAILED; fi ;;
  esac
  [ $rc -eq 124 ] && ending="stopped at the ${limit}s limit" || ending="exit $rc"
  printf '%-26s check %-6s (%s, %ds)\n' "$name" "$check" "$ending" $((SECONDS - start))
  grep -E "maximum difference|Triton and Torch|Error|passed|failed" "$log" | head -3 | sed 's/^/    /'
  [ "$check" = ok ] || status=1
done
echo "logs: $scratch"
exit $status
