#!/usr/bin/env python3
"""bench.py — how fast warpsim simulates, functional and timing mode.

Contract: runs a fixed set of workloads from traces/ (tagged ALU-bound,
memory-bound, divergent, shared-memory, barrier-heavy, small or large grid)
in every mode this build offers, several times each, and reports medians of
simulated instructions and cycles per second of simulation time (the
per-launch `host.sim_seconds` of the JSON report), whole-process wall time
and peak memory.  Prints the project's speed targets as PASS/FAIL for
information only: the exit status is non-zero only when warpsim itself
fails (a crash or a failed output check), never for speed.

  tools/bench.py [--warpsim build/src/warpsim] [--runs 5]
                 [--threads 1,2] [--save-baseline [FILE]] [--out docs/performance.md]
  tools/bench.py --memory-check [--memory-gib 1] [--no-workloads]
  tools/bench.py --against OTHER_WARPSIM [--only NAMES]

Speed numbers are only comparable on the same machine; the baseline file
(tools/bench-baseline.json) records the medians of an earlier run so that
the next one can print new/baseline ratios.  --against runs another build
side by side, alternating run by run, so that a machine whose speed drifts
(a shared one) slows both alike: the per-pair ratios are what to trust
when deciding whether a change made warpsim faster, and the metrics of the
two builds are compared too.
"""
import argparse
import dataclasses
import datetime
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BASELINE = os.path.join(ROOT, "tools", "bench-baseline.json")

# Workload kinds; the acceptance groups below select workloads by these tags.
ALU, MEMORY, DIVERGENT, SHARED, BARRIER = "alu", "memory", "divergent", "shared", "barrier"
SMALL, LARGE = "small-grid", "large-grid"


@dataclasses.dataclass(frozen=True)
class Workload:
    name: str
    manifest: str          # relative to the repository root
    kinds: tuple
    why: str


WORKLOADS = [
    Workload("ilp", "traces/ilp_full/kernel1.json", (ALU, SMALL),
             "8 blocks x 512 threads, long chains of dependent FMAs"),
    Workload("transcendentals", "traces/transcendentals/accurate.json", (ALU, SMALL),
             "16 x 256 threads, sinf/expf/logf/powf expanded to many ALU instructions"),
    Workload("stride", "traces/coalescing/stride_s8.json", (MEMORY, LARGE),
             "1024 x 256 threads, strided loads (8 sectors per request)"),
    Workload("saxpy", "traces/saxpy/launch.json", (MEMORY, LARGE),
             "256 x 256 threads, streaming y = a*x + y"),
    Workload("adj_diff", "traces/adj_diff/naive.json", (MEMORY, LARGE),
             "1024 x 256 threads, two overlapping global loads per thread"),
    Workload("stencil", "traces/stencil/sweep/base_r1_x512.json", (MEMORY, LARGE),
             "16x16x4 blocks of 32x16, 3-D 7-point stencil"),
    Workload("dec2zero", "traces/dec2zero/random.json", (DIVERGENT, SMALL),
             "25 x 256 threads, data-dependent loop trip counts"),
    Workload("divergence", "traces/divergence/divergence.json", (DIVERGENT, SMALL),
             "16 x 64 threads, branch on thread index"),
    Workload("banks", "traces/banks/tile.json", (SHARED, BARRIER, SMALL),
             "32 x 1024 threads, shared-memory tile with bank conflicts"),
    Workload("matmul_tiled", "traces/matmul_tiled/launch.json", (BARRIER, SHARED, SMALL),
             "8x8 blocks of 16x16, shared tiles with two barriers per step"),
    Workload("bitonic", "traces/bitonic/launch.json", (BARRIER, SHARED, SMALL),
             "one block of 512 threads, a barrier after every compare-exchange step"),
]

# Targets of the speed issue (rates in simulated warp instructions per second).
TARGET_FUNCTIONAL_GROUP = 30e6      # geomean of functional ALU-bound, and of memory-bound
TARGET_FUNCTIONAL_ALL = 15e6        # geomean of functional over the whole set
TARGET_TIMING_ALL = 3e6             # geomean of timing over the whole set
TARGET_SLOWDOWN = 3.0               # timing / functional simulation time, per workload
TARGET_MEMORY_RATIO = 1.2           # peak RSS / buffer bytes for the memory check
TARGET_THREAD_SPEEDUP = 1.6         # 2 threads over 1, timing mode, on workloads with ...
TARGET_THREAD_MIN_SMS = 2           # ... at least this many SMs' worth of CTAs


@dataclasses.dataclass(frozen=True)
class Mode:
    """One way of running warpsim: the extra command-line options, and the
    mode whose metrics it must reproduce exactly (None: nothing to compare)."""
    name: str
    options: tuple
    same_metrics_as: str = None


BASE_MODES = [Mode("functional", ("--functional",)), Mode("timing", ())]


def extra_modes(help_text, threads, notes):
    """Modes that depend on what this build's `warpsim run --help` offers.
    A new mode (sampling, say) is a few lines here."""
    modes = []
    if threads:
        if "--threads" in help_text:
            counts = sorted(set([1] + threads))
            modes += [Mode("timing-t%d" % n, ("--threads", str(n)),
                           None if n == 1 else "timing-t1") for n in counts]
        else:
            notes.append("threads: not supported by this build")
    return modes


def single_threaded(modes, help_text):
    """The acceptance rates are single-threaded: pin the base modes to one
    host thread when the build can use more."""
    if "--threads" not in help_text:
        return modes
    return [dataclasses.replace(m, options=m.options + ("--threads", "1")) if m in BASE_MODES else m
            for m in modes]


# ---------------------------------------------------------------- running


@dataclasses.dataclass
class Run:
    wall_s: float
    cpu_s: float
    sim_s: float
    warp_insts: int
    thread_insts: int
    cycles: int
    max_rss_bytes: int
    fingerprint: str       # metrics and checks of every launch, without "host"
    checks_ok: bool
    sms_worth: float       # most CTAs of a launch over the CTAs an SM holds at once (timing mode)


def run_warpsim(cmd):
    """Run cmd; return (exit code, wall seconds, CPU seconds, max RSS bytes
    of that child alone, stderr text).  os.wait4 gives the child's own resource usage,
    unlike RUSAGE_CHILDREN, which is the maximum over all children so far."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
    cpu = usage.ru_utime + usage.ru_stime
    return proc.returncode, wall, cpu, usage.ru_maxrss * 1024, text  # ru_maxrss is KiB on Linux


def run_once(warpsim, manifest, options):
    fd, report = tempfile.mkstemp(suffix=".json", prefix="bench-")
    os.close(fd)
    try:
        cmd = [warpsim, "run", "--quiet", "--json", report, *options, manifest]
        rc, wall, cpu, rss, err = run_warpsim(cmd)
        if rc != 0:
            raise RuntimeError("%s exited with %d:\n%s" % (" ".join(cmd), rc, err.strip()))
        with open(report) as f:
            launches = json.load(f)["launches"]
    finally:
        os.unlink(report)
    metrics = [l["metrics"] for l in launches]
    checks = [l.get("checks", {}) for l in launches]
    return Run(
        wall_s=wall,
        cpu_s=cpu,
        sim_s=sum(l["host"]["sim_seconds"] for l in launches),
        warp_insts=sum(m["smsp__inst_executed.sum"] for m in metrics),
        thread_insts=sum(m.get("smsp__thread_inst_executed.sum", 0) for m in metrics),
        cycles=sum(m.get("sm__cycles_elapsed.max", 0) for m in metrics),
        max_rss_bytes=rss,
        fingerprint=json.dumps([{"metrics": m, "checks": c} for m, c in zip(metrics, checks)],
                               sort_keys=True),
        checks_ok=all(v == "pass" for c in checks for v in c.values()),
        sms_worth=max((m.get("warpsim__ctas", 0) / m["warpsim__blocks_per_sm"]
                       for m in metrics if m.get("warpsim__blocks_per_sm")), default=0.0),
    )


def rate(count, seconds):
    return count / seconds if seconds > 0 else float("nan")


def summarise(runs, timing):
    """Medians over the runs of one workload in one mode."""
    med = lambda f: statistics.median(f(r) for r in runs)
    return {
        "warp_insts": runs[0].warp_insts,
        "thread_insts": runs[0].thread_insts,
        "cycles": runs[0].cycles if timing else None,
        "sim_s": med(lambda r: r.sim_s),
        "wall_s": med(lambda r: r.wall_s),
        "cpu_s": med(lambda r: r.cpu_s),
        "warp_inst_per_s": med(lambda r: rate(r.warp_insts, r.sim_s)),
        "thread_inst_per_s": med(lambda r: rate(r.thread_insts, r.sim_s)),
        "cycles_per_s": med(lambda r: rate(r.cycles, r.sim_s)) if timing else None,
        "max_rss_bytes": med(lambda r: r.max_rss_bytes),
        "checks_ok": all(r.checks_ok for r in runs),
        "deterministic": len({r.fingerprint for r in runs}) == 1,
        "sms_worth": runs[0].sms_worth,
    }


def geomean(values):
    values = [v for v in values if v and v > 0 and not math.isnan(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


# ---------------------------------------------------------------- machine


def read_first(path, key):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return line.split(":", 1)[1].strip() if ":" in line else line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def command_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=30)
        return out.stdout.strip() if out.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired):
        return None


def usable_cores():
    """The cores this process may run on (taskset narrows them)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def cores_text():
    """usable_cores() and, when fewer, the machine's count: the threads
    measured compete for the first."""
    usable, total = usable_cores(), os.cpu_count()
    return "%d" % usable if usable == total else "%d (pinned with taskset; the machine has %d)" % (usable, total)


def host_memory_text():
    """What can make first touches of memory slow, and runs of one binary
    differ: the transparent huge page mode warpsim's large blocks rely on
    (src/hostmem.h), and whether the VM hands freed memory back to its
    host (virtio-balloon free page reporting, feature bit 5): then every
    run first-touches memory the host must fault in again."""
    parts = []
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            mode = f.read().split("[", 1)[1].split("]", 1)[0]
        parts.append("transparent huge pages: %s" % mode)
    except (OSError, IndexError):
        parts.append("transparent huge pages: unknown")
    base = "/sys/bus/virtio/drivers/virtio_balloon"
    try:
        devices = [d for d in os.listdir(base) if d.startswith("virtio")]
    except OSError:
        devices = []
    for d in devices:
        try:
            with open(os.path.join(base, d, "features")) as f:
                bits = f.read().strip()
        except OSError:
            continue
        reporting = len(bits) > 5 and bits[5] == "1"
        parts.append("VM balloon free page reporting: %s" % ("on (freed memory goes back to the host)"
                                                            if reporting else "off"))
    return "; ".join(parts)


def machine_description(warpsim, commit=None):
    """The machine and the code measured; `commit` overrides the commit
    read from this checkout (for a binary built from another tree)."""
    mem_kib = read_first("/proc/meminfo", "MemTotal")
    if commit:
        return dict(machine_description(warpsim), warpsim_commit=commit)
    commit = command_line(["git", "rev-parse", "--short=12", "HEAD"])
    if commit and command_line(["git", "status", "--porcelain", "--untracked-files=no", "--", "src", "isa"]):
        commit += " (with uncommitted changes in src/ or isa/)"
    version = command_line([warpsim, "--version"])
    return {
        "cpu": read_first("/proc/cpuinfo", "model name") or platform.processor() or platform.machine(),
        "cores": cores_text(),
        "memory": "%.1f GiB" % (int(mem_kib.split()[0]) / 2**20) if mem_kib else "unknown",
        "os": (read_first("/etc/os-release", "PRETTY_NAME") or platform.system()) + ", kernel " + platform.release(),
        "compiler": (command_line(["cc", "--version"]) or "unknown").splitlines()[0],
        "host_memory": host_memory_text(),
        "python": platform.python_version(),
        "warpsim_commit": commit or "unknown",
        "warpsim_version": version.splitlines()[0] if version else "unknown",
        "date": datetime.date.today().isoformat(),
        "load_before": os.getloadavg()[0],
    }


# ---------------------------------------------------------------- reporting

def M(v):
    """A rate in millions: two decimals, or three significant digits below 1."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    v /= 1e6
    return "%.2f" % v if v >= 1 or v == 0 else "%.3g" % v



MIB = lambda v: "%.1f" % (v / 2**20)
VERDICT = lambda ok: "PASS" if ok else "FAIL"

COLUMN_DEFINITIONS = """\
Every number below is defined here; all rates divide by **simulation
time**, not by process time.

- **sim s**: simulation time, the sum over the manifest's launches of
  `launches[i].host.sim_seconds` in warpsim's JSON report: the wall-clock
  time warpsim spent executing each launch, without reading the PTX and
  manifest, allocating and initialising buffers, output checks or writing
  the report, nor starting the run's host threads (made when the run
  starts, before its buffers) or ending what a run keeps for all its
  launches (those threads, and the memory system's host state and the
  SMs' block, made in its first launch and ended after its last).  Median
  over the runs.
- **wall s**: wall-clock time of the whole `warpsim run` process, as seen
  by bench.py (includes start-up, parsing, buffer set-up and checks).
  Median over the runs.
- **cpu s**: user + system CPU time of the whole process (`ru_utime +
  ru_stime` from `os.wait4`), median over the runs.  Less sensitive than
  the wall times to other work on the machine: when cpu s is well below
  wall s, the machine was busy and the rates are understated.
- **warp insts**: simulated warp instructions, `smsp__inst_executed.sum`
  summed over launches (one per warp per issued instruction, as Nsight
  Compute counts them).  The same in every run and mode.
- **M warp inst/s**: warp insts / sim s, in millions; median of the per-run
  rates.  The rate the targets are stated in.
- **M thread inst/s**: `smsp__thread_inst_executed.sum` (instructions
  times active threads) / sim s, in millions; median of the per-run rates.
- **M cycles/s** (timing only): simulated GPU cycles per second of
  simulation time: `sm__cycles_elapsed.max` summed over launches / sim s,
  in millions; median of the per-run rates.
- **peak RSS MiB**: maximum resident set size of the warpsim process
  itself (`ru_maxrss` from `os.wait4` on that child), in MiB; median over
  the runs.
- **slowdown**: timing sim s / functional sim s of the same workload,
  median over the runs of each run's pair.  A workload's modes take turns
  run by run (functional, timing, then each thread count), so a pair
  shares the machine's state; **speed-up over 1 thread** is the same
  median of the 1-thread run's sim s / the N-thread run's.
- **SMs' worth of CTAs**: a launch's CTAs (`warpsim__ctas`) divided by
  the CTAs one SM holds at once (`warpsim__blocks_per_sm`, the occupancy
  limit), the largest over the manifest's launches: how many SMs the grid
  can fill.  The 2-thread target (speed issue: >= 1.6x) applies from 2 on.
- **geomean**: geometric mean of a rate over the workloads named.
- **ratio new/baseline**: this run's M warp inst/s divided by the
  baseline's, for the same workload and mode (> 1 is faster); the RSS
  ratio likewise (< 1 is smaller)."""


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def mode_table(results, mode):
    timing = mode.name != "functional"
    header = ["workload", "kinds", "warp insts", "sim s", "wall s", "cpu s", "M warp inst/s", "M thread inst/s"]
    header += ["M cycles/s"] if timing else []
    header += ["peak RSS MiB"]
    rows = []
    for w in WORKLOADS:
        s = results[w.name][mode.name]
        flags = ("" if s["checks_ok"] else " (checks FAILED)") + ("" if s["deterministic"] else " (metrics vary between runs)")
        row = [w.name + flags, ", ".join(w.kinds), s["warp_insts"], "%.3f" % s["sim_s"], "%.3f" % s["wall_s"],
               "%.3f" % s["cpu_s"], M(s["warp_inst_per_s"]), M(s["thread_inst_per_s"])]
        row += [M(s["cycles_per_s"])] if timing else []
        row += [MIB(s["max_rss_bytes"])]
        rows.append(row)
    return md_table(header, rows)


def paired_ratio(num, den):
    """Median over i of run num[i]'s sim s / run den[i]'s: two ways of
    running one workload took turns, so each pair shares the machine's state."""
    ratios = [a.sim_s / b.sim_s for a, b in zip(num, den) if b.sim_s > 0]
    return statistics.median(ratios) if ratios else float("nan")


def targets_section(results):
    """The acceptance numbers and their verdicts, as (markdown text, list of lines)."""
    def rates(mode, kind=None):
        return [results[w.name][mode]["warp_inst_per_s"] for w in WORKLOADS if kind is None or kind in w.kinds]

    rows = []
    for label, kind in (("ALU-bound", ALU), ("memory-bound", MEMORY)):
        if not rates("functional", kind):
            continue   # a subset chosen with --only
        g, lo = geomean(rates("functional", kind)), min(rates("functional", kind))
        rows.append(["functional %s geomean (slowest %s M)" % (label, M(lo)), M(g),
                     ">= %s" % M(TARGET_FUNCTIONAL_GROUP), VERDICT(g >= TARGET_FUNCTIONAL_GROUP)])
    g = geomean(rates("functional"))
    rows.append(["functional geomean, all workloads", M(g), ">= %s" % M(TARGET_FUNCTIONAL_ALL),
                 VERDICT(g >= TARGET_FUNCTIONAL_ALL)])
    g = geomean(rates("timing"))
    rows.append(["timing geomean, all workloads", M(g), ">= %s" % M(TARGET_TIMING_ALL), VERDICT(g >= TARGET_TIMING_ALL)])
    table = md_table(["target (M warp inst/s)", "measured", "target", "verdict"], rows)

    slow_rows = []
    for w in WORKLOADS:
        f, t = results[w.name]["functional"], results[w.name]["timing"]
        slowdown = paired_ratio(t["runs"], f["runs"])
        slow_rows.append([w.name, M(f["warp_inst_per_s"]), M(t["warp_inst_per_s"]), "%.2fx" % slowdown,
                          VERDICT(slowdown <= TARGET_SLOWDOWN)])
    slow = md_table(["workload", "functional M warp inst/s", "timing M warp inst/s",
                     "slowdown (target <= %gx)" % TARGET_SLOWDOWN, "verdict"], slow_rows)
    return table + "\n\n" + slow


def threads_section(results, modes):
    thread_modes = [m for m in modes if m.same_metrics_as]
    if not thread_modes:
        return None
    rows = []
    for w in WORKLOADS:
        for m in thread_modes:
            ref, s = results[w.name][m.same_metrics_as], results[w.name][m.name]
            speedup = paired_ratio(ref["runs"], s["runs"])
            worth = s.get("sms_worth", 0.0)
            if m.options[-1] != "2":
                verdict = "—"
            elif worth < TARGET_THREAD_MIN_SMS:
                verdict = "n/a (under %d SMs' worth)" % TARGET_THREAD_MIN_SMS
            else:
                verdict = VERDICT(speedup >= TARGET_THREAD_SPEEDUP)
            rows.append([w.name, m.options[-1], "%.3f" % s["sim_s"],
                         "%.2fx" % speedup if speedup == speedup else "—",
                         "%.1f" % worth, verdict,
                         "yes" if s["fingerprint"] == ref["fingerprint"] else "NO"])
    return md_table(["workload", "threads", "sim s", "speed-up over 1 thread", "SMs' worth of CTAs",
                     "target (2 threads: >= %gx from %d SMs' worth)" % (TARGET_THREAD_SPEEDUP, TARGET_THREAD_MIN_SMS),
                     "metrics identical to 1 thread"], rows)


def baseline_section(results, modes, baseline):
    if not baseline:
        return None
    rows = []
    for w in WORKLOADS:
        for m in modes:
            old = baseline.get("results", {}).get(w.name, {}).get(m.name)
            new = results[w.name][m.name]
            if not old:
                rows.append([w.name, m.name, "—", M(new["warp_inst_per_s"]), "(not in baseline)", ""])
                continue
            rows.append([w.name, m.name, M(old["warp_inst_per_s"]), M(new["warp_inst_per_s"]),
                         "%.2f" % (new["warp_inst_per_s"] / old["warp_inst_per_s"]),
                         "%.2f" % (new["max_rss_bytes"] / old["max_rss_bytes"])])
    bm = baseline.get("machine", {})
    head = "Baseline: commit %s, %s, %s." % (bm.get("warpsim_commit", "?"), bm.get("date", "?"), bm.get("cpu", "?"))
    return head + "\n\n" + md_table(["workload", "mode", "baseline M warp inst/s", "new M warp inst/s",
                                     "ratio new/baseline", "RSS ratio new/baseline"], rows)


def against_section(results, other, modes, other_path):
    """Side by side: per workload and mode, the median over the run pairs of
    other sim s / this sim s (> 1: this build is faster), its range, and
    whether both builds report the same metrics."""
    rows = []
    for w in WORKLOADS:
        for m in modes:
            s, o = results[w.name][m.name], other[w.name][m.name]
            ratios = sorted(b.sim_s / a.sim_s for a, b in zip(s["runs"], o["runs"]) if a.sim_s > 0)
            rows.append([w.name, m.name, "%.4f" % o["sim_s"], "%.4f" % s["sim_s"],
                         "%.2f" % statistics.median(ratios) if ratios else "—",
                         "%.2f–%.2f" % (ratios[0], ratios[-1]) if ratios else "—",
                         "yes" if s["fingerprint"] == o["fingerprint"] else "NO"])
    head = ("Against `%s`, run alternately with this build (pairs of runs).  speed-up: the median over "
            "the pairs of other sim s / this sim s (> 1: this build is faster); range: the smallest and "
            "largest pair." % other_path)
    return head + "\n\n" + md_table(["workload", "mode", "other sim s", "this sim s", "speed-up",
                                      "range", "metrics identical"], rows)


def machine_section(machine, runs):
    loads = [machine[k] for k in ("load_before", "load_after") if k in machine]
    load = "- load average (1 min), before%s the runs: %s\n" % (" / after" if len(loads) > 1 else "",
                                                              " / ".join("%.2f" % v for v in loads))
    keys = [("CPU", "cpu"), ("cores", "cores"), ("memory", "memory"), ("host memory", "host_memory"), ("OS", "os"),
            ("compiler", "compiler"),
            ("Python", "python"), ("warpsim", "warpsim_version"), ("commit", "warpsim_commit"), ("date", "date")]
    return "\n".join("- %s: %s" % (label, machine.get(k, "not recorded")) for label, k in keys) + "\n" + load + "- runs per workload and mode: %d (medians)" % runs


def render(machine, args, modes, results, notes, baseline, memory, sampling=None, other=None):
    machine["load_after"] = os.getloadavg()[0]
    if max(machine["load_before"], machine["load_after"]) > 0.75 * usable_cores() and usable_cores() == os.cpu_count():
        notes.append("the machine was busy (load average near or above its %d cores): "
                     "rates are understated and noisy; compare cpu s with wall s" % usable_cores())
    parts = ["## Machine", machine_section(machine, args.runs)]
    for m in modes if WORKLOADS else []:
        parts += ["## %s mode%s" % (m.name.capitalize(), " (`%s`)" % " ".join(m.options) if m.options else ""),
                  mode_table(results, m)]
    if WORKLOADS:
        parts += ["## Targets (information only)", targets_section(results)]
        t = threads_section(results, modes)
        if t:
            parts += ["## Threads", t]
        b = baseline_section(results, modes, baseline)
        parts += ["## Against the baseline", b if b else "No baseline file; record one with `--save-baseline`."]
        if other:
            parts += ["## Side by side", against_section(results, other, modes, args.against)]
    if memory:
        parts += ["## Memory check", memory]
    if sampling:
        parts += ["## Sampling", sampling]
    if notes:
        parts += ["## Notes", "\n".join("- " + n for n in notes)]
    return "\n\n".join(parts) + "\n"


def workload_list():
    return md_table(["workload", "manifest", "kinds", "what it stresses"],
                    [[w.name, "`%s`" % w.manifest, ", ".join(w.kinds), w.why] for w in WORKLOADS])


def write_markdown(path, body):
    intro = """# Simulation speed

Generated by `tools/bench.py --out docs/performance.md`; do not edit by
hand.  How fast warpsim simulates the fixed workload set below, in
functional mode (`--functional`: outputs and counts, no timing model) and
timing mode (the default).  Speed is only comparable on one machine, so
every table names it; compare runs through the saved baseline
(`tools/bench.py --save-baseline`, then a plain run prints new/baseline
ratios), or two builds side by side on one machine, alternating run by
run (`--against OTHER_WARPSIM`: speed-ups per pair of runs, and whether
their metrics are identical), which a machine whose speed drifts cannot
fool as easily.  Run it with `meson test -C build --benchmark` or
`python3 tools/bench.py --warpsim build/src/warpsim [--runs N] [--threads 1,2]`.
What a run costs the host in instructions, mispredicted branches and
cache misses, counted rather than timed (so that a few percent shows on a
noisy machine) and split between the two modes, is in
[host-profile.md](host-profile.md) (`tools/hostprofile.py`).

## Workloads

%s

## Columns

%s

""" % (workload_list(), COLUMN_DEFINITIONS)
    with open(path, "w") as f:
        f.write(intro + body)


# ---------------------------------------------------------------- memory check

MEMORY_KERNEL_PTX = os.path.join(ROOT, "traces", "saxpy", "saxpy.ptx")


def memory_check(warpsim, gib, mode):
    """Run saxpy (y = a*x + y) over two f32 buffers totalling `gib` GiB in
    `mode` and compare warpsim's peak RSS with the buffer bytes."""
    options = next(m.options for m in BASE_MODES if m.name == mode)
    count = int(gib * 2**30) // 8 // 256 * 256   # elements per buffer, whole blocks
    if count <= 0 or count >= 2**31:
        raise SystemExit("bench.py: --memory-gib must give between 256 and 2^31 - 1 elements per buffer")
    buffer_bytes = 2 * count * 4
    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp:
        shutil.copy(MEMORY_KERNEL_PTX, os.path.join(tmp, "saxpy.ptx"))
        manifest = {
            "name": "memory-check",
            "ptx": "saxpy.ptx",
            "kernel": "_Z5saxpyifPKfPf",
            "grid": [count // 256],
            "block": [256],
            "args": [{"s32": count}, {"f32": 2.0}, {"buffer": "x"}, {"buffer": "y"}],
            "buffers": {
                "x": {"type": "f32", "count": count, "init": {"kind": "random", "seed": 1, "min": -1.0, "max": 1.0}},
                "y": {"type": "f32", "count": count, "init": {"kind": "iota", "start": 0, "step": 1}},
            },
        }
        path = os.path.join(tmp, "memory.json")
        with open(path, "w") as f:
            json.dump(manifest, f)
        print("memory check: saxpy over 2 x %d f32 (%.3f GiB of buffers), grid %d x 256, %s mode ..."
              % (count, buffer_bytes / 2**30, count // 256, mode), flush=True)
        r = run_once(warpsim, path, options)
    idle = run_once(warpsim, os.path.join(ROOT, "traces", "saxpy", "launch.json"), options)
    ratio = r.max_rss_bytes / buffer_bytes
    table = md_table(["buffers MiB", "peak RSS MiB", "peak RSS / buffers", "target", "verdict",
                      "peak RSS of the 0.5 MiB saxpy, MiB", "warp insts", "sim s", "wall s"],
                     [[MIB(buffer_bytes), MIB(r.max_rss_bytes), "%.3f" % ratio, "<= %.1f" % TARGET_MEMORY_RATIO,
                       VERDICT(ratio <= TARGET_MEMORY_RATIO), MIB(idle.max_rss_bytes), r.warp_insts,
                       "%.1f" % r.sim_s, "%.1f" % r.wall_s]])
    text = ("`saxpy` (traces/saxpy/saxpy.ptx) in %s mode over two f32 buffers of %d elements "
            "(x random, y iota; no expected outputs), grid %d x 256, one run.  Peak RSS as in the "
            "tables; the target is the buffers plus 20 %%.\n\n%s" % (mode, count, count // 256, table))
    print(text + "\n", flush=True)
    return text


# ---------------------------------------------------------------- sampling check

TARGET_SAMPLING_SPEEDUP = 5.0       # full timing run / sampled run, on >= 16 waves
TARGET_SAMPLING_ERROR = 0.05        # |estimated - full cycles| / full cycles
SAMPLING_CASES = [
    # manifest, config, waves simulated in detail: the fewest for which the
    # reported error bound stays under the 5 % target (with 2 the first,
    # cold wave weighs too much: stride's bound is 43 %)
    ("traces/stencil/sweep/base_r1_x512.json", "gtx1060", 3),
    ("traces/coalescing/stride_s8.json", "8800gtx", 3),
]


def sampling_check(warpsim, runs, help_text):
    """Full timing runs against --sample-waves runs of grids of many waves:
    speed-up in simulation time and the error of the cycle estimate."""
    if "--sample-waves" not in help_text:
        return "sampling: not supported by this build"
    rows = []
    for manifest, config, waves in SAMPLING_CASES:
        path = os.path.join(ROOT, manifest)
        base = ("--config", config, "--threads", "1")
        modes = [("1 thread", base + ("--sample-waves", str(waves))),
                 ("all cores", ("--config", config, "--sample-waves", str(waves)))]
        # the full run and the sampled ones take turns, as the modes do, and
        # with them a functional run of the whole grid on one thread: the
        # sampled run runs the CTAs it does not time that way (expected)
        full, sampled, func = [], {label: [] for label, _ in modes}, []
        for _ in range(runs):
            full.append(run_once(warpsim, path, base))
            for label, options in modes:
                sampled[label].append(run_once(warpsim, path, options))
            func.append(run_once(warpsim, path, base + ("--functional",)))
        fd, report = tempfile.mkstemp(suffix=".json", prefix="bench-")
        os.close(fd)
        try:
            subprocess.run([warpsim, "run", "--quiet", "--json", report, *modes[0][1], path],
                           check=True, capture_output=True)
            with open(report) as f:
                launch = json.load(f)["launches"][0]
            info = launch.get("sampling", {})
            ctas = launch["metrics"].get("warpsim__ctas", 0)
        finally:
            os.unlink(report)
        # the shares of the grid's CTAs the sampled run times and leaves to functional mode
        timed = info.get("detailed_ctas", ctas) / ctas if ctas else float("nan")
        expected = [1 / (timed + (1 - timed) * f.sim_s / t.sim_s) for t, f in zip(full, func) if t.sim_s > 0]
        for label, _ in modes:
            speedup = paired_ratio(full, sampled[label])
            model = statistics.median(expected) if label == "1 thread" and expected else None
            error = abs(sampled[label][0].cycles - full[0].cycles) / full[0].cycles
            rows.append(["`%s`" % manifest, config, info.get("waves", "?"), waves, label,
                         full[0].cycles, sampled[label][0].cycles, "%.2f %%" % (100 * error),
                         "%.1f %%" % info.get("error_bound_pct", float("nan")),
                         "%.2fx" % speedup, "%.2fx" % model if model else "—",
                         VERDICT(speedup >= TARGET_SAMPLING_SPEEDUP and error <= TARGET_SAMPLING_ERROR)])
    table = md_table(["manifest", "config", "waves", "detailed waves", "sampled run", "full cycles",
                      "estimated cycles", "error", "reported bound", "speed-up (sim time)",
                      "expected (timed share + functional rest)",
                      "target (>= %.0fx, <= %.0f %%)" % (TARGET_SAMPLING_SPEEDUP, 100 * TARGET_SAMPLING_ERROR)],
                     rows)
    text = ("Full timing runs on one thread against `--sample-waves` runs (%d of each, taking turns): the "
            "sampled run times the first waves and runs the rest functionally, on one thread or on all "
            "cores.  The speed-up is the median over the turns of the ratio of simulation times; the error "
            "compares the estimated cycles with the full run's.  The **expected** speed-up (one thread) is "
            "what the sampled run gains if its detailed waves cost their share of CTAs of the full run's "
            "time and the CTAs it does not time, which it must run in functional mode for the outputs, "
            "their share of a functional run of the whole grid (on one thread, taking the same turns): "
            "1 / (d + (1 - d) F / T), with d the detailed CTAs' share of the grid, F and T the functional "
            "and full timing runs' sim s.  With timing mode at most 3x slower than functional mode (the "
            "timing issue's target), F / T >= 1/3 and that is at most 3 W / (W + 2 N) < 3 for N detailed "
            "waves of W: 5x on one thread needs the timing run 5 (1 - d) / (1 - 5 d) times slower than the "
            "functional one (10.5x for 3 of 26 waves, 11.7x for 2 of 16), or a fast-forward faster than "
            "functional mode.\n\n%s" % (runs, table))
    print(text + "\n", flush=True)
    return text


# ---------------------------------------------------------------- main


def parse_threads(text):
    try:
        counts = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("expected a comma-separated list of thread counts, e.g. 1,2")
    return counts


def select_workloads(only):
    """The workloads named in `only` (comma-separated), in WORKLOADS' order;
    ValueError naming any that do not exist."""
    names = set(only.split(","))
    unknown = names - {w.name for w in WORKLOADS}
    if unknown:
        raise ValueError("unknown workloads: %s" % ", ".join(sorted(unknown)))
    return [w for w in WORKLOADS if w.name in names]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build", "src", "warpsim"), help="the warpsim binary")
    ap.add_argument("--runs", type=int, default=5, help="runs per workload and mode (median reported; default 5)")
    ap.add_argument("--threads", type=parse_threads, metavar="LIST",
                    help="also run timing mode with --threads N for each N (e.g. 1,2)")
    ap.add_argument("--only", metavar="NAMES", help="comma-separated workload names (default: all)")
    ap.add_argument("--save-baseline", nargs="?", const=DEFAULT_BASELINE, metavar="FILE",
                    help="write the medians as JSON (default %s)" % os.path.relpath(DEFAULT_BASELINE, ROOT))
    ap.add_argument("--baseline", default=DEFAULT_BASELINE, metavar="FILE",
                    help="compare against this baseline when it exists")
    ap.add_argument("--compiler", metavar="TEXT",
                    help="the compiler that built the binary, when not this machine's cc (a carried binary)")
    ap.add_argument("--commit", metavar="TEXT",
                    help="the commit the binary was built from, when not this checkout's HEAD and tree")
    ap.add_argument("--out", metavar="FILE.md", help="also write the report as Markdown (docs/performance.md)")
    ap.add_argument("--memory-check", action="store_true",
                    help="also check peak memory of a kernel over --memory-gib GiB of buffers")
    ap.add_argument("--no-workloads", action="store_true",
                    help="run no workloads (with --memory-check: only the memory check)")
    ap.add_argument("--memory-gib", type=float, default=1.0, help="buffer size of the memory check (default 1)")
    ap.add_argument("--memory-mode", choices=[m.name for m in BASE_MODES], default="functional",
                    help="mode of the memory check (default functional)")
    ap.add_argument("--against", metavar="WARPSIM",
                    help="another warpsim build to run side by side, alternating run by run (speed-ups and "
                         "whether the metrics are identical)")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    warpsim = os.path.abspath(args.warpsim)
    if not os.access(warpsim, os.X_OK):
        ap.error("no warpsim binary at %s (build it, or pass --warpsim)" % warpsim)
    against = os.path.abspath(args.against) if args.against else None
    if against and not os.access(against, os.X_OK):
        ap.error("no warpsim binary at %s (--against)" % against)

    global WORKLOADS
    if args.no_workloads:
        WORKLOADS = []
    elif args.only:
        try:
            WORKLOADS = select_workloads(args.only)
        except ValueError as e:
            ap.error(str(e))

    help_text = subprocess.run([warpsim, "run", "--help"], capture_output=True, text=True).stdout
    notes = []
    modes = single_threaded(BASE_MODES, help_text) + extra_modes(help_text, args.threads, notes)
    machine = machine_description(warpsim, args.commit)
    if args.compiler:
        machine["compiler"] = args.compiler + " (built elsewhere)"
    print(machine_section(machine, args.runs) + "\n", flush=True)
    for n in notes:
        print(n, flush=True)

    results, other = {}, {}
    failed = False
    for w in WORKLOADS:
        results[w.name], other[w.name] = {}, {}
        path = os.path.join(ROOT, w.manifest)
        # the modes (and the other build) take turns run by run, so that the
        # ratios between them come from the same stretch of a drifting machine
        runs = {m.name: [] for m in modes}
        other_runs = {m.name: [] for m in modes}
        try:
            for _ in range(args.runs):
                for m in modes:
                    runs[m.name].append(run_once(warpsim, path, m.options))
                    if against:
                        other_runs[m.name].append(run_once(against, path, m.options))
        except RuntimeError as e:
            raise SystemExit("bench.py: %s: %s" % (w.name, e))
        for m in modes:
            for into, rs in ((results, runs[m.name]), (other, other_runs[m.name])):
                if not rs:
                    continue
                s = summarise(rs, timing=m.name != "functional")
                s["fingerprint"] = rs[0].fingerprint
                s["runs"] = rs
                into[w.name][m.name] = s
            s = results[w.name][m.name]
            failed |= not s["checks_ok"]
            print("  %-16s %-12s %8s M warp inst/s  sim %.3f s  wall %.3f s" %
                  (w.name, m.name, M(s["warp_inst_per_s"]), s["sim_s"], s["wall_s"]), flush=True)

    memory = memory_check(warpsim, args.memory_gib, args.memory_mode) if args.memory_check else None
    sampling = None if args.no_workloads else sampling_check(warpsim, args.runs, help_text)
    baseline = None
    if os.path.exists(args.baseline):
        with open(args.baseline) as f:
            baseline = json.load(f)
    body = render(machine, args, modes, results, notes, baseline, memory, sampling, other if against else None)
    print("\n" + body)

    if args.save_baseline and results:
        saved = {w: {m: {k: v for k, v in s.items() if k not in ("fingerprint", "runs")} for m, s in per.items()}
                 for w, per in results.items()}
        with open(args.save_baseline, "w") as f:
            json.dump({"machine": machine, "runs": args.runs, "results": saved}, f, indent=1, sort_keys=True)
            f.write("\n")
        print("baseline written to %s" % args.save_baseline)
    if args.out:
        write_markdown(args.out, body)
        print("report written to %s" % args.out)
    if failed:
        print("bench.py: some workloads failed their output checks (see the tables)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
