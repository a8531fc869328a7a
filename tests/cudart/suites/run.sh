#!/bin/sh
# run.sh — build every tests/cudart/suites/*.cu with nvcc -cudart shared and run
# it under `warpsim exec`, printing a pass/fail table (one row per program and
# build variant).  Skips cleanly (exit 77, meson's "skipped") without nvcc.
#
# usage: tests/cudart/suites/run.sh [WARPSIM_BINARY]
#   WARPSIM_BINARY  default: $WARPSIM, else build/src/warpsim
# environment:
#   NVCC        nvcc to use (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   OUT         where binaries and logs go (default: <warpsim dir>/../suites)
#   ARCHS       space-separated nvcc arch flags, "default" meaning none
#               (default: "default -arch=sm_90")
#   MODES       "functional timing" (default) or a subset
#   TIMEOUT     seconds per run (default 300)
#   ONLY        space-separated program names to restrict to
#   REPRO=1     also run the reduced reproductions in repro/ (they fail
#               until the bugs they reproduce are fixed; see README.md)
set -u
here=$(cd "$(dirname "$0")" && pwd)
warpsim=${1:-${WARPSIM:-build/src/warpsim}}
if [ ! -x "$warpsim" ]; then
    echo "run.sh: warpsim binary '$warpsim' not found (pass it as the first argument)" >&2
    exit 2
fi
if [ -n "${NVCC:-}" ]; then
    nvcc=$(command -v "$NVCC" || true)
else
    nvcc=$(command -v nvcc || true)
    [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ]; then
    echo "run.sh: nvcc not found; skipping the suite programs"
    exit 77
fi
out=${OUT:-$(dirname "$warpsim")/../suites}
mkdir -p "$out"
archs=${ARCHS:-"default -arch=sm_90"}
modes=${MODES:-"functional timing"}
timeout_s=${TIMEOUT:-300}

progs=${ONLY:-$(cd "$here" && ls *.cu | sed 's/\.cu$//')}
[ -z "${ONLY:-}" ] && [ "${REPRO:-0}" = 1 ] && progs="$progs $(cd "$here" && ls repro/*.cu | sed 's/\.cu$//')"
mkdir -p "$out/repro"
pass=0; fail=0
printf '%-24s %-14s %-10s %-6s %s\n' program build mode result note
for p in $progs; do
    for a in $archs; do
        tag=$(echo "$a" | sed 's/^-arch=//')
        bin="$out/$p.$tag"
        flags=""; [ "$a" != default ] && flags="$a"
        if ! "$nvcc" -cudart shared -O3 $flags -o "$bin" "$here/$p.cu" >"$bin.build.log" 2>&1; then
            printf '%-24s %-14s %-10s %-6s %s\n' "$p" "$tag" - BUILD "see $bin.build.log"
            fail=$((fail + 1)); continue
        fi
        for m in $modes; do
            mflag=""; [ "$m" = functional ] && mflag=--functional
            log="$bin.$m.log"
            start=$(date +%s)
            timeout "$timeout_s" "$warpsim" exec $mflag "$bin" >"$log" 2>&1
            rc=$?
            secs=$(( $(date +%s) - start ))
            if [ $rc -eq 0 ] && grep -qx PASS "$log"; then
                res=PASS; pass=$((pass + 1)); note="${secs}s"
            else
                res=FAIL; fail=$((fail + 1))
                [ $rc -eq 124 ] && note="timeout" || note="rc=$rc: $(grep -m1 -i 'error' "$log" | cut -c1-70)"
            fi
            printf '%-24s %-14s %-10s %-6s %s\n' "$p" "$tag" "$m" "$res" "$note"
        done
    done
done
echo "passed $pass, failed $fail"
[ $fail -eq 0 ]
