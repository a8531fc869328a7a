#!/usr/bin/env bash
# leak-check.sh BUILD_DIR — runs warpsim under Valgrind's memcheck over
# workloads that exercise every path a launch can end on: success
# (functional, timed, several threads, sampled) and each kind of failure
# (fault, race, hang, budget, rejected launch).  Fails on any definite or
# indirect leak or memory error.  CI runs it after the sanitizer builds.
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build}/src/warpsim"
command -v valgrind >/dev/null || { echo "leak-check: valgrind is not installed" >&2; exit 2; }
runs=(
  "traces/saxpy/launch.json --functional"
  "traces/bitonic/launch.json"
  "traces/local_array/launch.json"
  "traces/reduce/shared.json --threads 2"
  "traces/matmul_tiled/launch.json --config gtx1060 --functional"
  "traces/saxpy/launch.json --config gtx1060 --sample-waves 2"
  "tests/planted/off_by_one.json"
  "tests/planted/unsynced.json --racecheck --functional"
  "tests/planted/uninit.json --initcheck"
  "tests/planted/divergent_barrier.json"
  "tests/planted/spin.json --functional"
  "tests/planted/count_forever.json --max-cycles 5000"
  "tests/planted/count_forever.json --functional --max-instructions 20000"
  "tests/manifests/bad_run/shape_dyn_smem_over.json"
  "tests/manifests/bad_run/arg_count.json"
)
failed=0
for args in "${runs[@]}"; do
  # shellcheck disable=SC2086
  out=$(valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 -q \
        "$bin" run --quiet $args 2>&1 >/dev/null)
  if [ $? -eq 99 ]; then
    echo "leak-check: FAIL $args"; echo "$out" | head -40; failed=1
  else
    echo "leak-check: ok   $args"
  fi
done
exit $failed
