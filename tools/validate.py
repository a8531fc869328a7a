#!/usr/bin/env python3
"""validate.py — run the reference documents' experiments on warpsim and
write docs/validation.md: each claim, the seed's number, warpsim's number.

Usage: tools/validate.py [--warpsim build/src/warpsim] [--out docs/validation.md] [--check]

Every claim runs manifests from traces/ with the configuration of the GPU
the seed measured on and reduces warpsim's JSON reports to one number that
is compared with the seed's.  A second part compares warpsim on the h200
config with the Nsight Compute measurements stored in
traces/*/hw/*.h200.json (written by tools/hw-measure).  --check exits 1 when
a claim fails.
"""
import argparse
import functools
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@functools.lru_cache(maxsize=None)
def run(warpsim, manifest, config, extra=()):
    """Runs one manifest; returns its report's launches (once per arguments:
    the bitonic claim and its paragraph share runs; callers only read them)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        cmd = [warpsim, "run", "--quiet", "--config", config, "--json", path, os.path.join(ROOT, manifest)]
        cmd += list(extra)
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
        with open(path) as f:
            return json.load(f)["launches"]
    finally:
        os.unlink(path)


def cycles(launches):
    return sum(l["metrics"]["sm__cycles_elapsed.max"] for l in launches)


def metric(launches, name):
    return sum(l["metrics"].get(name, 0) for l in launches)


def speedups_vs_original(ws, config, variants):
    """Speed-up in % of each bitonic variant manifest over traces/bitonic's original."""
    base = cycles(run(ws, "traces/bitonic/launch.json", config))
    return [round(100 * (base / cycles(run(ws, m, config)) - 1), 1) for m in variants]


def measured_cycles(stem):
    """sm__cycles_elapsed.max of traces/bitonic/hw/<stem>.h200.json, as a string."""
    with open(os.path.join(ROOT, "traces/bitonic/hw", stem + ".h200.json")) as f:
        return "{:,}".format(int(json.load(f)["kernels"][0]["metrics"]["sm__cycles_elapsed.max"]))


class Claim:
    def __init__(self, title, seed, config, seed_value, measure, judge, note=""):
        self.title, self.seed, self.config = title, seed, config
        self.seed_value, self.measure, self.judge, self.note = seed_value, measure, judge, note


def within_factor(x, ref, factor=2.0):
    return ref / factor <= x <= ref * factor


def claims():
    out = []

    def matmul(ws):
        names = ["matmul", "matmul_coalesced", "matmul_tiled", "matmul_unroll"]
        c = [cycles(run(ws, "traces/%s/launch.json" % n, "9400m")) for n in names]
        return [round(c[0] / x, 2) for x in c]

    out.append(Claim(
        "Matrix product series: speed-up over matMul (matMul, Coalesced, Tiled, Unroll)",
        "000 Table 1.1 (GeForce 9400M)", "9400m", [1, 9.54, 11.75, 26.28], matmul,
        lambda v, s: all(v[i] < v[i + 1] for i in range(3)) and all(within_factor(v[i] / v[i - 1], s[i] / s[i - 1]) for i in range(1, 4)),
        "ordered, and each step's ratio within a factor of two of the seed's"))

    def dec2zero(ws):
        names = ["inc", "cons", "alt", "random", "half"]
        c = {n: cycles(run(ws, "traces/dec2zero/%s.json" % n, "9400m")) for n in names}
        base = (c["inc"] + c["cons"] + c["half"]) / 3
        return [round(c[n] / base, 2) for n in names]

    out.append(Claim(
        "dec2zero: time per input kind relative to the mean of inc/cons/half (inc, cons, alt, random, half)",
        "002 (DCC888 notes; GPU not named, the course era's 9400M assumed)", "9400m", [1.0, 0.99, 1.98, 1.86, 0.99], dec2zero,
        lambda v, s: 1.4 <= v[2] <= 2.8 and 1.3 <= v[3] <= 2.8 and all(0.8 <= v[i] <= 1.25 for i in (0, 1, 4)),
        "alternating and random inputs near 2x the others"))

    def divergence(ws):
        d = cycles(run(ws, "traces/divergence/divergence.json", "gtx1060"))
        n = cycles(run(ws, "traces/divergence/no_divergence.json", "gtx1060"))
        return round(d / n, 2)

    out.append(Claim("divergence / noDivergence time", "004 (GTX 1060)", "gtx1060", 1.88, divergence,
                     lambda v, s: 1.5 <= v <= 2.3, "near 1.9x"))

    def ilp(ws):
        c = [cycles(run(ws, "traces/ilp_full/kernel%d.json" % k, "gtx1060")) for k in range(3)]
        return [round(x / c[1], 2) for x in c]

    out.append(Claim("ILP kernel0/1/2 time relative to kernel1", "004 (GTX 1060): 45.7 / 44.3 / 85.8 us", "gtx1060",
                     [round(45.7 / 44.3, 2), 1.0, round(85.8 / 44.3, 2)], ilp,
                     lambda v, s: v[1] <= v[0] * 1.05 and v[1] < v[2] and 1.5 <= v[2] <= 2.6,
                     "kernel1 no slower than kernel0, kernel2 near 2x kernel1"))

    def adj(ws):
        speedup = {}
        for config in ("gtx280", "gtx1060"):
            naive = cycles(run(ws, "traces/adj_diff/naive.json", config))
            shared = cycles(run(ws, "traces/adj_diff/shared.json", config))
            speedup[config] = round(naive / shared, 2)
        return speedup

    # The course quotes the figures without saying where they were measured
    # (see the note on it below the table): judged on
    # a GPU without a cache for global loads, the GTX 1060 shown beside it.
    out.append(Claim("adjacent difference: speed-up of the shared-memory version over the naive one",
                     "004: 57.5 / 36.8 GB/s (GPU not named; GT200-era figures)", "gtx280 (gtx1060 beside)",
                     round(57.5 / 36.8, 2), adj,
                     lambda v, s: v["gtx280"] > 1.0 and within_factor(v["gtx280"], s),
                     "shared faster than naive where global loads are not cached"))

    # The documents rewrote the PTX of the original (their Figs. 1.29, 1.33,
    # 1.34); the same two rewrites are applied by hand to nvcc 13's PTX of
    # the original source (traces/bitonic/rewrite_*.ptx, README there).
    out.append(Claim("bitonic sort rewrites of the PTX: speed-up in % (blocks L5/L6 merged, then the direction "
                     "branch replaced by a select)", "000 / 002 (8800 GTX)", "8800gtx", [6.75, 9.2],
                     lambda ws: speedups_vs_original(ws, "8800gtx", ["traces/bitonic/rewrite_merged.json",
                                                         "traces/bitonic/rewrite_branchfree.json"]),
                     lambda v, s: 0 < v[0] < v[1] and all(within_factor(x, y) for x, y in zip(v, s)),
                     "both faster than the original, the branch-free one fastest"))

    def regpress(ws):
        plain = cycles(run(ws, "traces/regpress/occupancy_nonshared1.json", "9400m"))
        shared = cycles(run(ws, "traces/regpress/occupancy_regpress2.json", "9400m"))
        return round(100 * (plain / shared - 1), 1)

    # At the occupancy the seed describes (traces/regpress/README.md: 256-thread
    # blocks, the seed's 11 registers against at most 10 once two variables
    # are shared).
    out.append(Claim("register sharing: regPress2's speed-up over nonShared1 in %", "000 Fig. 1.41 (GeForce 9400M)",
                     "9400m", 10, regpress, lambda v, s: v > 0 and within_factor(v, s),
                     "regPress2 faster, by about the seed's share"))

    def ilp_loads(ws):
        l = run(ws, "traces/ilp_loads/kernel1.json", "gtx1060")
        return [round(metric(l, "sm__inst_executed.avg.per_cycle_active"), 3),
                round(metric(l, "sm__warps_active.avg.pct_of_peak_sustained_active") / 100, 3)]

    # nvprof's ipc counts the Pascal machine instructions, warpsim the PTX's
    # (the course prints the PTX: 34 a warp, one per machine instruction
    # but for the address arithmetic ptxas folds).
    out.append(Claim("testKernel1 (8 loads, one add chain): IPC and achieved occupancy", "004 (GTX 1060), nvprof",
                     "gtx1060", [0.203, 0.756], ilp_loads,
                     lambda v, s: within_factor(v[0], s[0]) and abs(v[1] - s[1]) <= 0.1,
                     "IPC within a factor of two, achieved occupancy within 10 points"))

    def dot_td1(ws):
        return round(metric(run(ws, "traces/dot_td1/launch.json", "gtx1060"), "gpu__time_duration.sum") / 1e3, 2)

    # The gtx1060 config has no launch overhead (configs/gtx1060.json), which
    # nvprof's kernel duration includes: a few microseconds on Pascal.
    out.append(Claim("TD1 dot product (132 x 256, doubles): kernel time in us", "004 (GTX 1060), nvprof",
                     "gtx1060", 7.49, dot_td1, lambda v, s: within_factor(v, s),
                     "within a factor of two (the config counts no launch overhead)"))

    def opencl_vs_cuda(ws):
        opencl = cycles(run(ws, "traces/opencl_vs_cuda/p4.json", "gtx460"))
        cuda = cycles(run(ws, "traces/opencl_vs_cuda/p5.json", "gtx460"))
        return round(opencl / cuda, 2)

    # The listings are the document's own PTX (P4: the OpenCL driver's, P5:
    # nvcc's), run as printed; "about ten times" is the document's summary
    # over its matrix sizes, which it does not list.
    out.append(Claim("matrix product, OpenCL (P4) time over CUDA (P5)", "003 (GTX 460)", "gtx460", 10,
                     opencl_vs_cuda, lambda v, s: v > 1 and within_factor(v, s),
                     "CUDA several times faster, within a factor of two of the document's ~10x"))

    @functools.lru_cache(maxsize=None)
    def fig3(ws):
        """Per code, per radius 1..5: GFLOPS on the k80 config (the paper's count,
        N multiplies and N - 1 adds a point for N = 6R + 1 points), achieved
        and theoretical occupancy in %."""
        out = {}
        for code in ("base", "comp", "csl"):
            for r in range(1, 6):
                manifest = "traces/stencil/fig3/%s_r%d.manifest" % (code, r)
                l = run(ws, manifest, "k80")
                m = l[0]["metrics"]
                with open(os.path.join(ROOT, manifest)) as f:
                    dx, dy, dz = (a["s32"] for a in json.load(f)["args"][2:5])
                flops = (2 * (6 * r + 1) - 1) * dx * dy * dz
                out[(code, r)] = (flops / metric(l, "gpu__time_duration.sum"),
                                  m["sm__warps_active.avg.pct_of_peak_sustained_active"],
                                  m["sm__maximum_warps_per_active_cycle_pct"])
        return out

    def gflops(ws, code):
        return [round(fig3(ws)[(code, r)][0], 1) for r in range(1, 6)]

    def speedups(ws, code, over):
        return [round(a / b, 2) for a, b in zip(gflops(ws, code), gflops(ws, over))]

    out.append(Claim("3D stencils (256 x 256 x 96, r = 1..5): BASE's GFLOPS independent of the stencil's size",
                     "001 Figure 3 (K80, one GK210)", "k80", "flat", lambda ws: gflops(ws, "base"),
                     lambda v, s: max(v) <= 1.25 * min(v), "BASE's GFLOPS within 25 % of each other"))
    out.append(Claim("3D stencils: COMP's speed-up over BASE, r = 1..5",
                     "001 Figure 3 (K80, one GK210)", "k80", "< 1 at r = 1, > 1 from r = 2",
                     lambda ws: speedups(ws, "comp", "base"),
                     lambda v, s: v[0] < 1 and all(x > 1 for x in v[1:]),
                     "COMP faster than BASE except for the 7-point stencil"))
    out.append(Claim("3D stencils: CSL's speed-up over COMP, r = 1..5",
                     "001 Figure 3 (K80, one GK210)", "k80", "> 1 at every r",
                     lambda ws: speedups(ws, "csl", "comp"),
                     lambda v, s: all(x > 1 for x in v), "CSL faster than COMP for every stencil"))

    def occupancy_range(ws):
        vals = fig3(ws).values()
        return {"theoretical": sorted({round(t, 1) for _, _, t in vals}),
                "achieved": [round(min(a for _, a, _ in vals), 1), round(max(a for _, a, _ in vals), 1)]}

    out.append(Claim("3D stencils: theoretical and achieved occupancy over the 15 runs (%)", "001 Table 1 (K80)",
                     "k80", {"theoretical": [100], "achieved": [84.2, 97.7]}, occupancy_range,
                     lambda v, s: v["theoretical"] == [100.0] and s["achieved"][0] - 10 <= v["achieved"][0]
                     and v["achieved"][1] <= 100,
                     "theoretical 100 % everywhere, achieved within 10 points of the paper's range"))

    def stencil(ws):
        pts = []
        for path in sorted(glob.glob(os.path.join(ROOT, "traces/stencil/sweep/base_r1_x*.json")),
                           key=lambda p: int(p.rsplit("_x", 1)[1].split(".")[0])):
            dx = int(path.rsplit("_x", 1)[1].split(".")[0])
            l = run(ws, os.path.relpath(path, ROOT), "k80")
            pts.append((dx, metric(l, "lts__t_sector_hit_rate.pct") / len(l)))
        # the cliff: the first Dx whose L2 hit rate falls more than 10 points below the first point's
        first = pts[0][1] if pts else 0
        cliff = next((dx for dx, h in pts if h < first - 10), None)
        return {"cliff_dx": cliff, "hit_rate": [(dx, round(h, 1)) for dx, h in pts]}

    out.append(Claim("3D stencil (r = 1) L2 cliff: first Dx where the L2 hit rate drops", "001 (K80, one GK210)",
                     "k80", 510, stencil,
                     lambda v, s: v["cliff_dx"] is not None and s / 1.5 <= v["cliff_dx"] <= s * 1.5,
                     "within 50 % of the Dx the paper derives (the sweep is sparse)"))
    return out


def occupancy_claims(ws):
    rows = []
    cases = [("8800gtx", 256, 9, 0, "9 regs x 768 threads fit: 3 blocks, occupancy 1", lambda o: o["blocks_per_sm"] == 3 and o["occupancy"] == 1.0),
             ("8800gtx", 256, 11, 0, "11 regs, 256-thread blocks: 2 blocks, 2/3", lambda o: o["blocks_per_sm"] == 2 and abs(o["occupancy"] - 2 / 3) < 1e-9),
             ("gtx1060", 512, 12, 0, "register block limit 8", lambda o: o["launch__occupancy_limit_registers"] == 8),
             ("gtx1060", 512, 20, 0, "register block limit 5", lambda o: o["launch__occupancy_limit_registers"] == 5),
             ("gtx1060", 512, 30, 0, "register block limit 4", lambda o: o["launch__occupancy_limit_registers"] == 4)]
    for cfg, block, regs, smem, what, ok in cases:
        p = subprocess.run([ws, "occupancy", "--json", "--config", cfg, "--block", str(block), "--regs", str(regs),
                            "--smem", str(smem)], capture_output=True, text=True, check=True)
        o = json.loads(p.stdout)
        rows.append((cfg, block, regs, what, "%d blocks, occupancy %.3f, register limit %d" %
                     (o["blocks_per_sm"], o["occupancy"], o["launch__occupancy_limit_registers"]), ok(o)))
    return rows


H200_EXACT = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
              "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
              "smsp__inst_executed_op_shared_atom.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"]


def h200_rows(ws, extra=()):
    rows = []
    for hw in sorted(glob.glob(os.path.join(ROOT, "traces/*/hw/*.h200.json")) +
                     glob.glob(os.path.join(ROOT, "traces/*/sweep/hw/*.h200.json"))):
        folder = os.path.dirname(os.path.dirname(hw))
        stem = os.path.basename(hw)[:-len(".h200.json")]
        manifest = None
        for cand in (os.path.join(folder, stem + ".json"), os.path.join(folder, "sweep", stem + ".json")):
            if os.path.exists(cand):
                manifest = cand
        if not manifest:
            continue
        with open(hw) as f:
            meas = json.load(f)
        try:
            sim = run(ws, os.path.relpath(manifest, ROOT), "h200", extra)
        except RuntimeError as e:
            rows.append((os.path.relpath(manifest, ROOT), None, None, str(e)))
            continue
        kernels = meas.get("kernels", [])
        for i, l in enumerate(sim):
            if i >= len(kernels):
                break
            mk = kernels[i]["metrics"]
            rows.append((os.path.relpath(manifest, ROOT) + ("" if len(sim) == 1 else "#%d" % i), l["metrics"], mk, None))
    return rows


STALL_PREFIX, STALL_SUFFIX = "smsp__warp_issue_stalled_", "_per_warp_active.pct"


def mean_median(xs):
    """Mean and median of a non-empty list, in per cent."""
    return 100 * sum(xs) / len(xs), 100 * sorted(xs)[len(xs) // 2]


def stall_shares(metrics):
    """The warp states (stall reasons) of a launch as shares of their sum."""
    st = {k[len(STALL_PREFIX):-len(STALL_SUFFIX)]: float(v) for k, v in metrics.items()
          if k.startswith(STALL_PREFIX) and k.endswith(STALL_SUFFIX)}
    total = sum(st.values())
    return {k: v / total for k, v in st.items()} if total > 0 else {}


def stall_section(rows):
    """Warpsim's warp states beside Nsight's, launch by launch."""
    lines = ["", "### Stall reasons", "",
             "Each launch's warp states (`smsp__warp_issue_stalled_<reason>_per_warp_active.pct`,",
             "docs/metrics.md) as shares of their sum, measured and modelled: the largest of each, and the",
             "distance between the two (half the sum of the absolute differences over all reasons: 0 when",
             "they agree, 1 when they share nothing).  Nsight also counts reasons warpsim does not model",
             "(`no_instruction` and `imc_miss`: instruction fetch; `dispatch_stall`; `drain`; `sleeping`;",
             "`tex_throttle`; `misc`), so a launch that spends much time in those cannot come",
             "close to 0.", "",
             "| workload | measured: largest | warpsim: largest | distance |", "| --- | --- | --- | --- |"]
    dists, agree = [], 0
    for name, sim, meas, err in rows:
        if err:
            continue
        hs, ss = stall_shares(meas), stall_shares(sim)
        if not hs or not ss:
            continue
        d = 0.5 * sum(abs(hs.get(k, 0.0) - ss.get(k, 0.0)) for k in set(hs) | set(ss))
        dists.append(d)
        htop, stop = max(hs, key=hs.get), max(ss, key=ss.get)
        agree += htop == stop
        lines.append("| %s | %s %.0f %% | %s %.0f %% | %.2f |" % (name, htop, 100 * hs[htop], stop, 100 * ss[stop], d))
    if dists:
        lines += ["", "Mean distance over %d launches: %.2f; the largest reason agrees in %d." %
                  (len(dists), sum(dists) / len(dists), agree)]
    lines += ["", "`traces/mio_queue` measures the queue in front of the memory pipe, which sets where a",
              "warp waits for a bank-conflicted or many-line load: at issue (`mio_throttle`,",
              "`lg_throttle`) once the queue is full, else for the result (`short_scoreboard`,",
              "`long_scoreboard`).  The h200 configuration's `scheduler.lsu_queue_depth` (16) comes from",
              "it.  Where warpsim shows `short_scoreboard` and the H200 `mio_throttle` (16 warps, K = 4",
              "and 8), the difference is the loop: ptxas unrolls it and issues four rounds' loads ahead",
              "(the SASS loop of `sharedLoads1` starts with four LDS), so each warp holds four times as",
              "many loads in the queue as it does in warpsim, which reorders a round's instructions",
              "(src/schedule.h) but keeps the PTX's loop."]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build", "src", "warpsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "validation.md"))
    ap.add_argument("--check", action="store_true", help="exit 1 if a seed claim fails")
    ap.add_argument("--no-h200", action="store_true", help="skip the comparison with H200 measurements")
    args = ap.parse_args()
    ws = os.path.abspath(args.warpsim)

    lines = ["# Validation: warpsim against the reference documents and the H200", "",
             "Generated by `tools/validate.py` (do not edit by hand).  Each claim runs the",
             "workloads of `traces/` on the configuration of the GPU the seed measured on.", "",
             "## The seeds' experiments", "",
             "| claim | seed | config | seed's number | warpsim | holds |", "| --- | --- | --- | --- | --- | --- |"]
    bitonic_other = speedups_vs_original(ws, "8800gtx", ["traces/bitonic/rewrite_selp.json",
                                                        "traces/bitonic_merged/launch.json",
                                                        "traces/bitonic_selp/launch.json"])
    bitonic_insts = [int(metric(run(ws, m, "8800gtx"), "smsp__inst_executed.sum"))
                     for m in ("traces/bitonic_merged/launch.json", "traces/bitonic/launch.json")]
    failed = 0
    for c in claims():
        try:
            v = c.measure(ws)
            ok = c.judge(v, c.seed_value)
        except (RuntimeError, OSError, KeyError, ZeroDivisionError) as e:
            v, ok = "error: %s" % e, False
        failed += not ok
        lines.append("| %s | %s | %s | %s | %s | %s — %s |" % (c.title, c.seed, c.config, c.seed_value,
                                                            json.dumps(v) if not isinstance(v, str) else v,
                                                            "yes" if ok else "**no**", c.note))
        print("%-4s %s: seed %s, warpsim %s" % ("ok" if ok else "FAIL", c.title, c.seed_value, v), flush=True)
    lines += ["", "## Occupancy", "", "| config | block | regs | seed's statement | warpsim | holds |",
              "| --- | --- | --- | --- | --- | --- |"]
    for cfg, block, regs, what, got, ok in occupancy_claims(ws):
        failed += not ok
        lines.append("| %s | %d | %d | %s | %s | %s |" % (cfg, block, regs, what, got, "yes" if ok else "**no**"))
    lines += ["", "### The adjacent-difference and bitonic-sort claims", "",
              "- **Adjacent difference.** The course (a GTX 1060 course) quotes 36.8 and 57.5 GB/s without",
              "  saying on which GPU, array size or timing method they were measured; the example and its",
              "  figures appear to come from NVIDIA's CUDA training material of the GT200 era.  The effect",
              "  needs a GPU that does not cache global loads: there the naive kernel reads every input",
              "  element twice from DRAM (`dram__bytes_read.sum` 2.36 MB against 1.08 MB on the `gtx280`",
              "  config), and warpsim finds the shared version faster by about the quoted ratio.  From",
              "  Fermi on, L2 serves the second read and both versions move the same DRAM bytes, so the",
              "  naive one, with fewer instructions (no barrier, no shared stores), is as fast or faster:",
              "  warpsim's `gtx1060` figure, and the real H200 agrees (Nsight Compute: 5389 cycles naive,",
              "  5883 shared; `traces/adj_diff/hw`).",
              "- **Bitonic-sort rewrites.** The documents rewrote the PTX of the original kernel (Fig. 1.29):",
              "  first the two compare-and-swap blocks L5 and L6 become one, with the direction branch only",
              "  choosing the comparison (Fig. 1.33, \"3 branches -> 2\"); then the direction branch goes, the",
              "  ternary `p ? a > b : a < b` taking its place (Fig. 1.34, \"2 -> 1\").  The claim applies the",
              "  same two rewrites by hand to nvcc 13's PTX of the original (`traces/bitonic/rewrite_merged.ptx`,",
              "  `rewrite_branchfree.ptx`, where the ternary is one `setp.gt.xor`).  Beside them, on the same",
              "  config: the ternary written as two `selp.b32` of the values (`rewrite_selp.ptx`, two more ALU",
              "  instructions per exchange) %+.1f %%, and nvcc 13's PTX of the documents' rewritten *sources*" % bitonic_other[0],
              "  (`traces/bitonic_merged`, `traces/bitonic_selp`: nvcc selects the indices and recomputes both",
              "  addresses, {:,} warp instructions against {:,}) {:+.1f} % and {:+.1f} %.  On the real H200".format(
                  *bitonic_insts, *bitonic_other[1:]),
              "  (`traces/bitonic/hw`, Nsight Compute) every rewrite is faster than the original: %s" % measured_cycles("launch"),
              "  cycles against %s merged, %s branch-free and %s selp, because ptxas if-converts" %
              tuple(measured_cycles(s) for s in ("rewrite_merged", "rewrite_branchfree", "rewrite_selp")),
              "  what is left of the direction choice and keeps a divergent branch only in the original.", ""]
    lines += ["### Register sharing, OpenCL against CUDA, the course's nvprof figures, the stencil codes", "",
              "- **Register sharing (000 Fig. 1.41).** The 10 % comes from occupancy, which needs blocks",
              "  larger than the one warp that keeps `regPress2`'s listing free of its race; the claim runs",
              "  256-thread blocks with the seed's 11 registers against at most 10 (traces/regpress/README.md:",
              "  every count from 1 to 10 gives the same 3 blocks an SM and the same cycles).",
              "- **OpenCL against CUDA (003).** The two matrix-product listings as printed; the document's",
              "  other figure, OpenCL with a private accumulator 62 % faster, has no listing to run.",
              "- **testKernel1 and TD1 (004).** nvprof's `ipc` counts Pascal machine instructions and",
              "  warpsim the PTX's; the gtx1060 config charges no launch overhead, which nvprof's kernel",
              "  duration includes (a few microseconds on Pascal).  testKernel2-4 are not printed.",
              "- **Stencil codes (001 Figure 3, Table 1; `traces/stencil/fig3`, Z cut from 256 to 96",
              "  planes: the figures are per plane).**  COMP slower than BASE at 7 points is not",
              "  reproduced: on the k80 config BASE r = 1 waits on L2 (68 % of its warps' cycles in",
              "  `long_scoreboard`; the config's L2 bandwidth, 512 B a cycle, is an estimate no GK210 was",
              "  there to measure) and COMP's tile saves 43 % of its L2 sectors.  On the measured H200 the",
              "  direction is the paper's and warpsim's alike: `comp_r1` 6328 cycles against `base_r1`'s",
              "  5063 (warpsim 6936 and 4927).  Theoretical occupancy is 100 % everywhere since the",
              "  register estimate keeps the PTX order's peak (it was 75 % at r = 5, from 68 registers",
              "  in the reordered issue order; docs/analysis.md).  Achieved occupancy is not: CSL comes to",
              "  65-76 % where the paper has 84-91 %, its warps held up by the issue slots and the",
              "  memory pipe (30 % `math_pipe_throttle`, 22 % `lg_throttle` at r = 1), so a CTA's",
              "  warps end apart and its slot waits for the last.",
              "- **Not turned into claims.** 000's GFLOPS estimate for `matMulCoalesced` (21.6 estimated,",
              "  10.58 measured on the 8800 GTX) is a bound for the seed's 16-instruction inner loop; nvcc",
              "  13's loop is shorter, and warpsim runs it at 30 GFLOPS on the 8800gtx config (N = 128),",
              "  above that code's bound, so the figures describe different code.  001's INTZ codes are",
              "  described in prose only.", ""]
    if not args.no_h200:
        rows = h200_rows(ws)
        lines += ["", "## H200: warpsim against Nsight Compute", "",
                  "Measured with `tools/hw-measure` (ncu 2025.3, `--clock-control none`: the kernels ran at",
                  "1.93-1.98 GHz) and stored in",
                  "`traces/*/hw/*.h200.json`.  Address-determined metrics should match exactly where",
                  "the SASS performs the PTX's accesses; cycles are `sm__cycles_elapsed.max`.", "",
                  "| workload | cycles measured | cycles warpsim | error | exact metrics equal | differing |",
                  "| --- | --- | --- | --- | --- | --- |"]
        errs, signed = [], {}
        for name, sim, meas, err in rows:
            if err:
                lines.append("| %s | | | | | error: %s |" % (name, err))
                continue
            mc, sc = meas.get("sm__cycles_elapsed.max"), sim.get("sm__cycles_elapsed.max")
            e = (sc - mc) / mc if mc else None
            if e is not None:
                errs.append(abs(e))
                signed[name] = e
            same, diff = 0, []
            for k in H200_EXACT:
                if k in meas and k in sim:
                    if abs(float(meas[k]) - float(sim[k])) < 0.5:
                        same += 1
                    else:
                        diff.append("%s %s vs %s" % (k.replace("l1tex__", "").replace(".sum", ""), sim[k], meas[k]))
            lines.append("| %s | %s | %s | %s | %d | %s |" % (name, mc, sc, "%+.0f %%" % (100 * e) if e is not None else "",
                                                              same, "; ".join(diff)))
        if errs:
            lines += ["", "Mean absolute cycle error over %d launches: %.1f %%; median %.1f %%." %
                      (len(errs), *mean_median(errs))]
        lines += stall_section(rows)
        lines += ["", "### Where the SASS is not the PTX", "",
                  "warpsim runs the PTX; the GPU runs what ptxas makes of it.  Some errors above come from",
                  "that rather than from the model's parameters:", "",
                  "- **dec2zero (%+.0f to %+.0f %%).** ptxas unrolls the PTX's 4-step loop 4 times more (the SASS" %
                  tuple(100 * f(e for n, e in signed.items() if n.startswith("traces/dec2zero/")) for f in (min, max)),
                  "  loop steps by -16: `cuobjdump -sass`), so the GPU takes one loop branch where the PTX takes",
                  "  four, and one add and compare where the PTX has four.  `tools/hw-measure/branch_loop.cu`",
                  "  measures that loop alone on the H200 (2026-11-22): over 1000 iterations, 7.17 cycles per",
                  "  PTX iteration with 2 to 8 warps (7.4-7.8 with one), i.e. 29 cycles per SASS iteration of",
                  "  VIADD, ISETP and a taken BRA, where 4-cycle ALU latencies leave about 20 for the branch.",
                  "  warpsim charges each PTX iteration a quarter of that branch and of the add's and the",
                  "  compare's latencies (`scheduler.loop_unroll`, docs/config.md), but still issues all of",
                  "  them, and times the remainder loop nvcc wrote (kept rolled by its pragma) in full.",
                  "- **Branches back.** ptxas unrolls most loops of the traces, so a PTX-level model that",
                  "  charged every taken branch 20 cycles would charge it for branches the SASS no longer has",
                  "  (`--set latency.branch=20` gave a mean error of 20.1 % against 11.9 % with 6 on 92",
                  "  launches, 2026-11-22).  So `latency.branch` stays 6 for forward branches, and a branch back",
                  "  to a loop's header costs `latency.loop_branch` (20) where ptxas keeps the loop rolled (a",
                  "  `.pragma \"nounroll\"`: matmul_tiled's and bitonic's inner loops; a barrier in the loop; a",
                  "  branch decided by data) and a quarter of it where ptxas unrolls it (docs/config.md).",
                  "- **opencl_vs_cuda p5 (%+.0f %%).** The loop stores its running sum to C on every iteration," %
                  (100 * signed.get("traces/opencl_vs_cuda/p5.json", float("nan"))),
                  "  and C may alias A and B, so ptxas keeps each iteration's two loads behind the last store",
                  "  (it unrolls the loop 4 times but every LDG still follows an STG); each iteration then",
                  "  waits for B's next line, which no warp has fetched yet.  `tools/hw-measure/store_loop.cu`",
                  "  runs that dot product alone on the H200 (2026-11-22, warm L2, cycles per iteration per",
                  "  warp): stored each iteration 317-335, stored into a buffer the loads never touch 308-334",
                  "  (the same: it is the code's order, not the addresses), as p5's PTX inline 300-323, with",
                  "  its loads replaced by arithmetic 42-45, stored once after the loop 69-76, and with",
                  "  `__restrict__` 81-88 (there ptxas issues up to 16 loads ahead).  In warpsim a warp",
                  "  that finds a line in L1 while the miss that brought it is on its way waits for it, but",
                  "  only as long as the miss plus L2's latency: the SM's side of the model cannot know when",
                  "  the miss's data will be back (L2 and DRAM are worked out after each quantum of SM",
                  "  cycles), so the CTA's other warps still wait less than the first one.  Timing those hits",
                  "  with the miss's own return (a prototype, 2026-11-21) brought p5 to -11 %.  L2 hits on",
                  "  sectors whose DRAM fill is on its way wait for that fill (since 2026-11-24; before, the",
                  "  requests after the miss were served at L2's latency): that moved p5 only from -53 % to -51 %",
                  "  (the L1 side above is the rest), and the table's mean from 7.1 % to 6.3 %.  Timing the",
                  "  L1 hits with the miss's own return where it is known at issue (`--lockstep`, a prototype,",
                  "  2026-11-25) brought p5 to -3 %, but matmul to +61 %, matmul_coalesced to +64 % and the",
                  "  mean to 6.8 %.  In matmul the loads that wait for a miss also queue in the memory pipe",
                  "  behind the other warps' 16-transaction row loads, and warpsim adds that queueing after",
                  "  the data's return; taking the later of the two instead (the sectors leave for L2 at",
                  "  issue, the data waits for the pipe) brought matmul to +3 % and the mean to 6.5 %, but",
                  "  matmul_coalesced stayed at +58 %.  ptxas unrolls that loop (4 steps an iteration in the",
                  "  PTX) 4 times more and issues the 32 loads of those 16 steps before their FFMAs",
                  "  (`cuobjdump -sass`, 2026-11-25; matmul's SASS likewise), so on the H200 one DRAM access",
                  "  serves 4 PTX iterations (at most 540 cycles an iteration: 17290 cycles over 32, less than",
                  "  one DRAM access, 677), while warpsim issues each PTX iteration's loads after the last",
                  "  one's arithmetic.  Until loads are hoisted across the iterations ptxas unrolls, the L1",
                  "  side keeps its estimate."]
        # the same table with the PTX issued in its own order (schedule.h)
        sched = {name: (sim, meas) for name, sim, meas, err in h200_rows(ws, ("--issue-order", "ptx")) if not err}
        serrs, moved = [], []
        for name, sim, meas, err in rows:
            if err or name not in sched:
                continue
            mc = meas.get("sm__cycles_elapsed.max")
            sc = sched[name][0].get("sm__cycles_elapsed.max")
            if mc and sc is not None:
                serrs.append(abs(sc - mc) / mc)
                before = (sim["sm__cycles_elapsed.max"] - mc) / mc
                if abs((sc - mc) / mc - before) >= 0.10:
                    moved.append("%s %+.0f %% -> %+.0f %%" % (name.replace("traces/", ""), 100 * before,
                                                                100 * (sc - mc) / mc))
        if serrs:
            lines += ["- **Issue order (`warpsim run --issue-order`).** nvcc's PTX interleaves each global",
                      "  load with its use and keeps an unrolled loop's iterations one after another; ptxas",
                      "  issues a stretch's loads first (transpose tiled: four LDGs, then four STS, in the",
                      "  SASS) and interleaves independent chains.  warpsim issues each straight-line stretch",
                      "  as a list scheduler would (src/schedule.h), unless told `--issue-order ptx`.  In the",
                      "  PTX's order the mean absolute error of this table is %.1f %% (median %.1f %%), against"
                      % mean_median(serrs),
                      "  the %.1f %% above; the launches it moves by 10 points or more: %s." %
                      (mean_median(errs)[0], "; ".join(moved) or "none"),
                      "  The scheduled order makes matmul_tiled and matmul_unroll faster than measured",
                      "  (their shared-memory loads all go first, and what then limits the GPU is not in the",
                      "  model yet), and p5 stays far too fast (above)."]
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s" % args.out)
    sys.exit(1 if (args.check and failed) else 0)


if __name__ == "__main__":
    main()
