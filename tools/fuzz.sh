#!/usr/bin/env bash
# fuzz.sh — fuzz warpsim's input front ends with libFuzzer (docs/fuzzing.md).
#
# usage: tools/fuzz.sh [SECONDS] [HARNESS...]
#   SECONDS   per harness (default 60)
#   HARNESS   ptx, manifest, config, fatbin (default: all four)
# environment:
#   FUZZ_BUILD     clang build folder (default build-fuzz-clang)
#   FUZZ_WORK      corpora, logs and findings (default FUZZ_BUILD/fuzz)
#   FUZZ_PARALLEL  1: run the harnesses at the same time (one core each)
#
# Installs nothing (tools/install-deps.sh installs clang).  Configures the
# clang build with ASan+UBSan and -Dfuzzing=true when needed, gathers seed
# corpora from the repository, runs each harness with a total time limit,
# a 10 s per-input timeout and a 2 GiB memory limit, and prints executions
# and the result per harness.  Exits 1 when any harness found a crash, leak,
# timeout or memory blow-up; the input that triggered it is left in
# FUZZ_WORK/findings/HARNESS/.  Corpora grow across runs (FUZZ_WORK/corpus).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
[ $# -gt 0 ] && shift
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(ptx manifest config fatbin)
build=${FUZZ_BUILD:-build-fuzz-clang}
case "$build" in /*) ;; *) build="$root/$build" ;; esac
work=${FUZZ_WORK:-$build/fuzz}

die() { echo "fuzz.sh: $*" >&2; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || die "SECONDS must be a positive integer, not '$seconds'"
for h in "${harnesses[@]}"; do
  case "$h" in ptx|manifest|config|fatbin) ;; *) die "unknown harness '$h' (ptx, manifest, config, fatbin)" ;; esac
done
command -v clang >/dev/null || die "clang not found; run tools/install-deps.sh"
command -v meson >/dev/null && command -v ninja >/dev/null || die "meson/ninja not found; run tools/install-deps.sh"

# ---- the clang build
if [ ! -f "$build/build.ninja" ]; then
  (cd "$root" && CC=clang meson setup "$build" -Dfuzzing=true \
     -Db_sanitize=address,undefined -Db_lundef=false >/dev/null) || die "meson setup $build failed"
elif ! grep -q "fuzzing.*true" <(meson configure "$build" 2>/dev/null | grep '^ *fuzzing'); then
  meson configure "$build" -Dfuzzing=true >/dev/null || die "cannot enable fuzzing in $build"
fi
targets=()
for h in "${harnesses[@]}"; do targets+=("tests/fuzz/fuzz_$h"); done
ninja -C "$build" "${targets[@]}" >/dev/null || die "building the harnesses failed (ninja -C $build)"

# ---- seed corpora: every input of that kind the repository holds
seed() { # seed HARNESS FILE...: copy files under names that keep their origin
  local dir="$work/corpus/$1" f; shift
  for f in "$@"; do
    [ -f "$f" ] || continue
    local rel=${f#"$root"/}
    cp -n "$f" "$dir/seed_${rel//\//_}" 2>/dev/null || true
  done
}
shopt -s nullglob globstar
for h in "${harnesses[@]}"; do
  mkdir -p "$work/corpus/$h" "$work/findings/$h" "$work/logs"
  case "$h" in
    ptx) seed ptx "$root"/traces/**/*.ptx "$root"/tests/ptx/valid/*.ptx "$root"/tests/ptx/malformed/* \
                  "$root"/tests/manifests/*.ptx "$root"/tests/gpu-probe/**/*.ptx ;;
    manifest) seed manifest "$root"/traces/**/*.json "$root"/tests/manifests/**/*.json \
                  "$root"/tests/gpu-probe/**/*.json ;;
    config) seed config "$root"/configs/*.json ;;
    fatbin) seed fatbin "$root"/tests/fatbin/*.fatbin "$root"/tests/fatbin/*.bin ;;
  esac
  seed "$h" "$root"/tests/fuzz/regressions/"$h"/*  # not pending/: known findings would stop the run
done

# ---- running
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

run_one() { # run_one HARNESS: fuzz it, leave its log
  local h=$1 dict=()
  [ -f "$root/tests/fuzz/$h.dict" ] && dict=(-dict="$root/tests/fuzz/$h.dict")
  "$build/tests/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "${dict[@]}" -artifact_prefix="$work/findings/$h/" \
    "$work/corpus/$h" >"$work/logs/$h.log" 2>&1
}

echo "fuzz.sh: ${seconds}s per harness: ${harnesses[*]} (work folder $work)"
declare -A status
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
  declare -A pids
  for h in "${harnesses[@]}"; do run_one "$h" & pids[$h]=$!; done
  for h in "${harnesses[@]}"; do
    if wait "${pids[$h]}"; then status[$h]=0; else status[$h]=$?; fi
  done
else
  for h in "${harnesses[@]}"; do
    if run_one "$h"; then status[$h]=0; else status[$h]=$?; fi
  done
fi

# ---- report
failed=0
for h in "${harnesses[@]}"; do
  log="$work/logs/$h.log"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  corpus=$(find "$work/corpus/$h" -type f | wc -l)
  if [ "${status[$h]}" -eq 0 ]; then
    result="ok"
  else
    failed=1
    case "$(cat "$log")" in
      *"ERROR: libFuzzer: timeout"*) result="TIMEOUT" ;;
      *"ERROR: LeakSanitizer"*) result="LEAK" ;;
      *"out-of-memory"*) result="OUT OF MEMORY" ;;
      *"runtime error:"*) result="UNDEFINED BEHAVIOUR" ;;
      *"ERROR: AddressSanitizer"*) result="MEMORY ERROR" ;;
      *) result="CRASH (exit ${status[$h]})" ;;
    esac
    found=$(grep -oE "Test unit written to .*" "$log" | tail -1 | sed 's/Test unit written to //' || true)
    result="$result: ${found:-see $log}"
  fi
  printf '%-9s %12s execs  %6s corpus  %s\n' "$h" "${execs:-?}" "$corpus" "$result"
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: findings above; logs in $work/logs; reproduce with" >&2
  echo "  $build/tests/fuzz/fuzz_replay_HARNESS FINDING   (docs/fuzzing.md)" >&2
fi
exit "$failed"
