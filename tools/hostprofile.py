#!/usr/bin/env python3
"""hostprofile.py — what a simulation costs the host, counted rather than timed.

Contract: runs bench.py's workloads once per mode (functional, timing; one
host thread) under Valgrind's callgrind with its cache and branch
simulation on a fixed model machine, and reports, for the simulation alone
(what the host does while `launch_run` or `timing_run` runs, what a
launch's `host.sim_seconds` times), the host instructions executed, the
branches mispredicted and the data-cache misses, each one's
timing/functional ratio, and how they split between warpsim's parts (the
functional core, the SMs and schedulers, the memory hierarchy).  The
counts do not depend on the machine's load: a shared machine whose speed
drifts by half from run to run (docs/performance.md's own runs) cannot
hide a 5 % change in instructions or mispredictions, which repeat
exactly, nor fake one; cache misses move by up to some 10 % from run to
run, with where the allocator puts things.  They are not times: they say
where timing mode's extra time goes (more work, or the same work waiting
on the host's caches and branch predictor), which wall-clock medians
cannot.

  tools/hostprofile.py [--warpsim build/src/warpsim] [--only NAMES] [--out docs/host-profile.md]
  tools/hostprofile.py --against OTHER_WARPSIM [--only NAMES]

--against profiles another build too and prints this build's counts over
the other's, per workload and mode.  Needs valgrind (callgrind and
callgrind_annotate); exits with 2 when they are missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the workload list, tables and machine description)

# A fixed model machine, so that the counts do not follow the host's CPUID:
# the L1 caches of most x86-64 cores and an LLC share such as a VM gets.
CACHES = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"]
EVENTS = ["Ir", "Bcm", "Bim", "D1mr", "D1mw", "DLmr", "DLmw"]
ENTRY = {"functional": "launch_run", "timing": "timing_run"}
MODES = [("functional", ["--functional"]), ("timing", [])]


# What each part of warpsim does for a simulation, by the source file that
# defines a function (inlined code counts for the function it is inlined
# into); the rest is the C library's and GLib's.
# (name, its source files, what they do: for the report's text)
PARTS = [
    ("functional core", ["exec.c", "exec_fast.c", "exec_ops.c", "fpconv.c", "sfu.c", "builtins.c", "memory.c",
                         "launch.c"],
     "executes instructions (in timing mode, the run-ahead and the instructions executed at issue)"),
    ("SMs and schedulers", ["timing.c", "timeline.c"],
     "dispatch, scoreboards, warp scheduling, stall accounting, the quanta"),
    ("memory hierarchy", ["memsys.c", "cache.c", "coalesce.c", "smem_banks.c"],
     "coalescing, banks, the caches and DRAM"),
]
OTHER_PART = "other (C library, GLib, the rest)"
PART_NAMES = [name for name, _, _ in PARTS] + [OTHER_PART]
FILE_PART = {f: name for name, files, _ in PARTS for f in files}


def function_parts():
    """Function name -> part, from the definitions at the start of a line in
    each part's source files."""
    parts = {}
    for name, files, _ in PARTS:
        for f in files:
            with open(os.path.join(bench.ROOT, "src", f)) as src:
                for m in re.finditer(r"^[A-Za-z_][^;=(){}]*?\b([A-Za-z_]\w*)\(", src.read(), re.M):
                    parts[m.group(1)] = name
    return parts


def counts_of(tokens):
    return {e: int(t.replace(",", "")) if t != "." else 0 for e, t in zip(EVENTS, tokens)}


def summary(c):
    return {
        "instructions": c["Ir"],
        "mispredicts": c["Bcm"] + c["Bim"],
        "l1_misses": c["D1mr"] + c["D1mw"],
        "ll_misses": c["DLmr"] + c["DLmw"],
    }


def profile(warpsim, manifest, mode, options, function_part):
    """The event counts of the mode's entry function, its callees included,
    summed over its calls (one per launch and repeat): callgrind collects
    only while it runs.  Also their split by part (PARTS)."""
    fd, out = tempfile.mkstemp(prefix="hostprofile-", suffix=".cg")
    os.close(fd)
    try:
        cmd = ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--branch-sim=yes", *CACHES,
               "--toggle-collect=" + ENTRY[mode], "--callgrind-out-file=" + out, warpsim, "run", "--quiet",
               "--threads", "1", *options, os.path.join(bench.ROOT, manifest)]
        run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            raise RuntimeError("%s exited with %d:\n%s" % (" ".join(cmd), run.returncode, run.stderr[-2000:]))
        text = subprocess.run(["callgrind_annotate", "--show-percs=no", "--threshold=100", "--auto=no",
                               "--show=" + ",".join(EVENTS), out],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True).stdout
    finally:
        os.unlink(out)
    # a row: one count per event ('.' for none), then file:function and its
    # object; the compiler may have suffixed a function's name (.isra.0, ...).
    # Code inlined from a header is listed under the header: its function
    # is then found by name (also one a macro defines, from its other rows).
    total = None
    rows = []
    for line in text.splitlines():
        tokens = line.split()
        if len(tokens) <= len(EVENTS) or not all(re.fullmatch(r"[\d,]+|\.", t) for t in tokens[:len(EVENTS)]):
            continue
        if tokens[len(EVENTS):len(EVENTS) + 2] == ["PROGRAM", "TOTALS"]:
            total = counts_of(tokens)
            continue
        where, _, function = tokens[len(EVENTS)].rpartition(":")
        rows.append((os.path.basename(where), function.split(".")[0], counts_of(tokens)))
    by_name = dict(function_part)
    by_name.update({function: FILE_PART[f] for f, function, _ in rows if f in FILE_PART})
    split = {name: dict.fromkeys(EVENTS, 0) for name in PART_NAMES}
    for f, function, counts in rows:
        part = FILE_PART.get(f) or by_name.get(function, OTHER_PART)
        for e in EVENTS:
            split[part][e] += counts[e]
    if total is None or total["Ir"] == 0:
        raise RuntimeError("callgrind collected nothing in %s for %s (%s)" % (ENTRY[mode], manifest, mode))
    result = summary(total)
    result["parts"] = {name: summary(c) for name, c in split.items()}
    return result


COUNTS = [("instructions", "host instructions (M)", 1e6), ("mispredicts", "mispredicted branches (K)", 1e3),
          ("l1_misses", "L1 data misses (K)", 1e3), ("ll_misses", "last-level misses (K)", 1e3)]


def fmt(v, scale):
    return "%.1f" % (v / scale) if v / scale >= 10 else "%.2f" % (v / scale)


def ratio(a, b, least=1):
    """a / b, or a dash where b is under `least` (a ratio to a handful of
    events says nothing)."""
    return "%.2fx" % (a / b) if b >= max(least, 1) else "—"


def counts_table(results):
    rows = []
    for w in bench.WORKLOADS:
        f, t = results[w.name]["functional"], results[w.name]["timing"]
        for mode, c in (("functional", f), ("timing", t)):
            rows.append([w.name, mode] + [fmt(c[k], s) for k, _, s in COUNTS] +
                        ["%.1f" % (1000.0 * c["mispredicts"] / c["instructions"]),
                         "%.1f" % (1000.0 * c["l1_misses"] / c["instructions"])])
    return bench.md_table(["workload", "mode"] + [label for _, label, _ in COUNTS] +
                          ["mispredicts per 1000 instructions", "L1 misses per 1000 instructions"], rows)


def ratio_table(results):
    rows = [[w.name, ", ".join(w.kinds)] +
            [ratio(results[w.name]["timing"][k], results[w.name]["functional"][k], 1000) for k, _, _ in COUNTS]
            for w in bench.WORKLOADS]
    return bench.md_table(["workload", "kinds"] + ["%s, timing / functional" % label.split(" (")[0]
                                                   for _, label, _ in COUNTS], rows)


def share(part, whole, least=1):
    """part / whole in percent, or a dash where whole is under `least`."""
    return "%.0f %%" % (100.0 * part / whole) if whole >= max(least, 1) else "—"


def parts_table(results):
    rows = []
    for w in bench.WORKLOADS:
        for mode, _ in MODES:
            c = results[w.name][mode]
            rows.append([w.name, mode] + ["%s / %s" % (share(c["parts"][p]["instructions"], c["instructions"]),
                                                      share(c["parts"][p]["ll_misses"], c["ll_misses"], 1000))
                                          for p in PART_NAMES])
    return bench.md_table(["workload", "mode"] + PART_NAMES, rows)


def against_table(results, other):
    rows = []
    for w in bench.WORKLOADS:
        for mode, _ in MODES:
            a, b = results[w.name][mode], other[w.name][mode]
            rows.append([w.name, mode] + [ratio(a[k], b[k]) for k, _, _ in COUNTS])
    return bench.md_table(["workload", "mode"] + ["%s, this / other" % label.split(" (")[0]
                                                  for _, label, _ in COUNTS], rows)


HEADER = """# Host profile: what simulating costs the host, counted

Generated by `tools/hostprofile.py`; do not edit by hand.
docs/performance.md times warpsim; this counts what it does, for the
simulation alone (what the host does while `launch_run` runs in
functional mode and `timing_run` in timing mode, callees included: what a
launch's `host.sim_seconds` times; callgrind collects only then, with
`--toggle-collect`, and simulates the caches and branch predictor
throughout), on one host thread, under Valgrind's callgrind with its cache
and branch simulation.  The counts do not depend on the machine's load, so a
change of a few percent in instructions or mispredicted branches, which
repeat exactly from run to run, shows here when wall-clock medians on a
shared machine cannot tell it from noise.  Cache misses move by up to
some 10 % between runs of one build (they depend on where the host's
allocator places things), so only larger differences in them mean
anything.  None of these are times.

## Columns

- **host instructions**: instructions the host executed (callgrind's `Ir`).
- **mispredicted branches**: conditional and indirect branches that
  Valgrind's model predictor (a table of 2-bit counters, and a branch
  target buffer for indirect jumps) got wrong (`Bcm + Bim`).  A real core
  loses some 15-20 cycles on each.
- **L1 data misses**: reads and writes that missed the model's first-level
  data cache, 32 KiB, 8 ways, 64 B lines (`D1mr + D1mw`).
- **last-level misses**: of those, the ones that missed its last level too,
  8 MiB, 16 ways (`DLmr + DLmw`): a trip to DRAM, or a page the process
  touches for the first time.
- **timing / functional**: timing mode's count over functional mode's, a
  dash where functional mode's is under 1000 (last-level misses: it
  touches almost nothing it has not touched before the launch).
- **per 1000 instructions**: the mispredictions and L1 misses over the
  host instructions, times 1000.  Where timing mode's are higher than
  functional mode's, its time grows faster than its instruction count.

The model machine is fixed (`--I1=32768,8,64 --D1=32768,8,64
--LL=8388608,16,64`) so that counts made on different hosts agree.
"""


PARTS_TEXT = ("Each cell: the part's share of the mode's host instructions / of its last-level misses "
              "(a dash where the mode has fewer than 1000).  A function counts for the part whose source "
              "files define it (code inlined into it counts for it):\n\n" +
              "\n".join("- **%s** (%s): %s." % (name, ", ".join(files), what) for name, files, what in PARTS) +
              "\n- **%s**: the C library's and GLib's code (copies, arrays) and anything else." % OTHER_PART)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--warpsim", default=os.path.join(bench.ROOT, "build", "src", "warpsim"))
    ap.add_argument("--only", help="comma-separated workload names (default: all of bench.py's)")
    ap.add_argument("--against", help="another warpsim build to profile the same way and compare")
    ap.add_argument("--out", help="write the report here (default: print it)")
    args = ap.parse_args()
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        print("hostprofile.py: needs valgrind and callgrind_annotate (apt-get install valgrind)", file=sys.stderr)
        return 2
    if args.only:
        try:
            bench.WORKLOADS = bench.select_workloads(args.only)
        except ValueError as e:
            print("hostprofile.py: %s" % e, file=sys.stderr)
            return 2
    builds = [os.path.abspath(b) for b in [args.warpsim] + ([args.against] if args.against else [])]
    for b in builds:
        if not os.access(b, os.X_OK):
            print("hostprofile.py: no warpsim binary at %s (build it, or pass --warpsim / --against)" % b,
                  file=sys.stderr)
            return 2
    results = [{} for _ in builds]
    function_part = function_parts()
    for w in bench.WORKLOADS:
        for mode, options in MODES:
            for k, b in enumerate(builds):
                print("%-16s %-10s %s" % (w.name, mode, "this build" if k == 0 else "other build"),
                      file=sys.stderr, flush=True)
                results[k].setdefault(w.name, {})[mode] = profile(b, w.manifest, mode, options, function_part)
    machine = bench.machine_description(builds[0])
    parts = [HEADER, "## Code", "- warpsim: %s\n- commit: %s\n- compiler: %s\n- date: %s" %
             (machine["warpsim_version"], machine["warpsim_commit"], machine["compiler"], machine["date"]),
             "## Counts", counts_table(results[0]),
             "## Timing mode over functional mode", ratio_table(results[0]),
             "## Where the work goes", PARTS_TEXT, parts_table(results[0])]
    if args.against:
        parts += ["## Against `%s`" % args.against, against_table(results[0], results[1])]
    report = "\n\n".join(parts) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
        print("report written to %s" % args.out, file=sys.stderr)
    else:
        print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
