#!/usr/bin/env python3
"""check_timeline.py — `warpsim run --timeline` (docs/timeline.md).

For a few workloads (barriers and shared memory, divergence, two launches
in one manifest, a memory-bound grid) the trace is checked against itself
and against the JSON report of the same run:
  * every event has ph, ts, pid, tid; spans have a duration;
  * spans of one track (warp slot, CTA slot, memory lane) never overlap;
  * CTA spans and memory requests lie inside their launch's span, and the
    launches follow each other;
  * instructions in issue spans sum to smsp__inst_executed.sum, and with
    issue width 1 each warp's issue-span cycles equal its instructions;
  * issue and stall spans per warp state reproduce the report's warp-state
    percentages (the same attribution, cycle for cycle);
  * global load requests and their sectors match the report's counters;
  * the file is byte-identical for --threads 1 and 2, also when truncated
    by --timeline-limit, which keeps at most that many events and says so;
  * --timeline with --functional is a usage error.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def run(warpsim, manifest, out_dir, tag, threads, extra=()):
    trace = os.path.join(out_dir, f"{tag}.t{threads}.json")
    report = os.path.join(out_dir, f"{tag}.t{threads}.report.json")
    cmd = [warpsim, "run", manifest, "-q", "--threads", str(threads), "--timeline", trace, "--json", report, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    with open(report) as f:
        rep = json.load(f)
    return trace, rep


def spans_disjoint(events, what):
    by_track = collections.defaultdict(list)
    for e in events:
        by_track[(e["pid"], e["tid"])].append(e)
    for track, evs in by_track.items():
        evs.sort(key=lambda e: (e["ts"], e["dur"]))
        for a, b in zip(evs, evs[1:]):
            if a["ts"] + a["dur"] > b["ts"]:
                check(False, f"{what}: track {track}: {a} overlaps {b}")
                break


def check_trace(path, rep, name):
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    other = doc["otherData"]
    check(doc.get("displayTimeUnit") in ("ms", "ns"), f"{name}: displayTimeUnit")
    check(other["time_unit"] == "cycle", f"{name}: otherData.time_unit")
    for e in events:
        if not all(k in e for k in ("ph", "ts", "pid", "tid")):
            check(False, f"{name}: event without ph/ts/pid/tid: {e}")
            return
        if e["ph"] == "X" and not (isinstance(e.get("dur"), int) and e["dur"] >= 0):
            check(False, f"{name}: span without a duration: {e}")
            return
    spans = [e for e in events if e["ph"] == "X"]
    check(len(spans) == other["events"], f"{name}: otherData.events {other['events']} != {len(spans)} spans")
    named = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    for e in spans:
        if (e["pid"], e["tid"]) not in named:
            check(False, f"{name}: track {(e['pid'], e['tid'])} has no thread_name")
            break

    launches = sorted((e for e in spans if e["cat"] == "launch"), key=lambda e: e["ts"])
    check(len(launches) == len(rep["launches"]), f"{name}: {len(launches)} launch spans, report has {len(rep['launches'])}")
    start = 0
    for k, (span, entry) in enumerate(zip(launches, rep["launches"])):
        check(span["ts"] == start, f"{name}: launch {k} starts at {span['ts']}, expected {start}")
        check(span["dur"] == entry["metrics"]["sm__cycles_elapsed.max"],
              f"{name}: launch {k} lasts {span['dur']}, report says {entry['metrics']['sm__cycles_elapsed.max']}")
        check(span["name"] == entry["kernel"], f"{name}: launch {k} named {span['name']}")
        start += span["dur"]

    def launch_of(e):
        for k, span in enumerate(launches):
            if span["ts"] <= e["ts"] and e["ts"] + e["dur"] <= span["ts"] + span["dur"]:
                return k
        return None

    warp_tracks = [e for e in spans if e["cat"] in ("issue", "stall", "barrier")]
    cta = [e for e in spans if e["cat"] == "cta"]
    mem = [e for e in spans if e["cat"] == "memory"]
    check(all(e["pid"] >= 1 and e["tid"] < 1000 for e in warp_tracks), f"{name}: warp spans on SM warp-slot tracks")
    check(all(1000 <= e["tid"] < 2000 for e in cta), f"{name}: CTA spans on CTA-slot tracks")
    check(all(e["tid"] >= 2000 for e in mem), f"{name}: memory requests on memory lanes")
    spans_disjoint(warp_tracks, f"{name} warp slots")
    spans_disjoint(cta, f"{name} CTA slots")
    spans_disjoint(mem, f"{name} memory lanes")
    check(all(launch_of(e) is not None for e in cta), f"{name}: a CTA span outside every launch")
    check(all(launch_of(e) is not None for e in mem), f"{name}: a memory request outside every launch")
    if other["truncated"]:
        return doc

    states = {e["name"] for e in warp_tracks if e["cat"] != "issue"}
    for k, entry in enumerate(rep["launches"]):
        mx = entry["metrics"]
        mine = [e for e in warp_tracks if launch_of(e) == k]
        issues = [e for e in mine if e["cat"] == "issue"]
        n_issued = sum(e.get("args", {}).get("n", e["dur"]) for e in issues)
        check(n_issued == mx["smsp__inst_executed.sum"],
              f"{name} launch {k}: {n_issued} instructions in issue spans, report {mx['smsp__inst_executed.sum']}")
        check(sum(e["dur"] for e in issues) == n_issued, f"{name} launch {k}: issue cycles != instructions (width 1)")
        # CTAs: one span each, as many as the report ran
        check(sum(1 for e in cta if launch_of(e) == k) == mx["warpsim__ctas"], f"{name} launch {k}: CTA spans")
        # warp states: the same split of warp-cycles as the report's percentages
        cycles = collections.Counter()
        for e in mine:
            if e["cat"] == "issue":
                cycles["selected"] += e.get("args", {}).get("n", e["dur"])
            else:
                cycles[e["name"]] += e["dur"]
        total = sum(cycles.values())
        for state in states | {"selected"}:
            want = mx[f"smsp__warp_issue_stalled_{state}_per_warp_active.pct"]
            got = 100.0 * cycles[state] / total if total else 0.0
            check(abs(got - want) <= 1e-6 * max(1.0, want),
                  f"{name} launch {k}: {state} {got:.6f}% in the trace, {want:.6f}% in the report")
        loads = [e for e in mem if launch_of(e) == k and e["name"] == "ld.global"]
        check(len(loads) == mx["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
              f"{name} launch {k}: {len(loads)} ld.global requests, report "
              f"{mx['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum']}")
        check(sum(e["args"]["sectors"] for e in loads) == mx["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
              f"{name} launch {k}: ld.global sectors")
        check(all(e["dur"] >= 1 and e["args"]["bytes"] > 0 for e in loads), f"{name} launch {k}: load durations/bytes")
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpsim", required=True)
    ap.add_argument("--source-root", required=True)
    a = ap.parse_args()
    root = a.source_root
    workloads = [
        ("matmul_tiled", "traces/matmul_tiled/launch.json", ()),
        ("divergence", "traces/divergence/divergence.json", ()),
        ("reduce_two_launches", "traces/reduce/shared.json", ()),
        ("saxpy", "traces/saxpy/launch.json", ()),
    ]
    with tempfile.TemporaryDirectory(prefix="warpsim-timeline-") as tmp:
        for tag, rel, extra in workloads:
            manifest = os.path.join(root, rel)
            t1, rep = run(a.warpsim, manifest, tmp, tag, 1, extra)
            t2, _ = run(a.warpsim, manifest, tmp, tag, 2, extra)
            with open(t1, "rb") as f1, open(t2, "rb") as f2:
                check(f1.read() == f2.read(), f"{tag}: timeline differs between --threads 1 and 2")
            doc = check_trace(t1, rep, tag)
            check(not doc["otherData"]["truncated"], f"{tag}: truncated under the default limit")
            print(f"{tag}: {doc['otherData']['events']} events, {os.path.getsize(t1)} bytes")

        # a bound: at most N events, the earliest kept, identical for any thread count
        limit = 5000
        manifest = os.path.join(root, "traces/matmul_tiled/launch.json")
        extra = ("--timeline-limit", str(limit))
        t1, rep = run(a.warpsim, manifest, tmp, "limited", 1, extra)
        t2, _ = run(a.warpsim, manifest, tmp, "limited", 2, extra)
        with open(t1, "rb") as f1, open(t2, "rb") as f2:
            check(f1.read() == f2.read(), "limited: timeline differs between --threads 1 and 2")
        doc = check_trace(t1, rep, "limited")
        other = doc["otherData"]
        check(other["truncated"] is True and other["dropped_events"] > 0, f"limited: otherData {other}")
        check(0 < other["events"] <= limit, f"limited: {other['events']} events for a limit of {limit}")

        # functional mode has no timing model to trace
        p = subprocess.run([a.warpsim, "run", manifest, "-q", "--functional", "--timeline", os.path.join(tmp, "f.json")],
                           capture_output=True, text=True)
        check(p.returncode == 2 and "needs the timing model" in p.stderr,
              f"--functional --timeline: exit {p.returncode}, {p.stderr.strip()}")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("timeline: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
