#!/usr/bin/env python3
"""check_labs.py — the lab exercises of traces/labs run, and say what they teach.

Usage: check_labs.py --warpsim BUILD/src/warpsim [--source-root DIR]

(a) Every command in a ```sh block of each lab's README.md runs from the
    repository root and exits 0.  A command is one line (a trailing
    backslash continues it); `./build/` is replaced by the build directory
    that holds the given warpsim.  Commands run in a scratch folder that
    links `traces` to the source tree, so what they write lands there.
(b) Each lab's manifests run with --json and every observation its
    TEACHER.md states holds in the report: relations between variants
    (divergent costs more, the padded tile has no conflicts, ...) and, where
    they follow from addresses alone, exact values computed here from the
    kernels' index expressions (sectors per request, wavefronts per shared
    access) rather than copied from a run.
Prints one line per failed claim; exit status 1 if any failed, else 0.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

LABS = ["divergence", "coalescing", "banks", "occupancy", "ilp_tlp"]
# The configuration each lab's README uses (the seed's GPU).
LAB_CONFIG = {"divergence": "gtx1060", "coalescing": "gtx1060", "banks": "gtx1060",
              "occupancy": "9400m", "ilp_tlp": "gtx1060"}


class Checker:
    def __init__(self, warpsim, root, scratch):
        self.warpsim = warpsim
        self.root = root
        self.scratch = scratch
        self.failures = []
        self.claims = 0

    def claim(self, ok, what):
        self.claims += 1
        if not ok:
            self.failures.append(what)
        return ok

    # ------------------------------------------------------------ running

    def run(self, lab, manifest, config=None, extra=()):
        """Run one manifest with --json; return launches[0]'s metrics."""
        config = config or LAB_CONFIG[lab]
        path = os.path.join(self.root, "traces", "labs", lab, manifest + ".json")
        report = os.path.join(self.scratch, "%s-%s-%s.json" % (lab, manifest, config))
        cmd = [self.warpsim, "run", path, "--config", config, "--quiet", "--json", report]
        cmd += list(extra)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if not self.claim(proc.returncode == 0,
                          "%s: exit %d: %s" % (" ".join(cmd), proc.returncode, proc.stderr.strip())):
            raise RuntimeError("run failed")
        with open(report) as f:
            doc = json.load(f)
        launch = doc["launches"][-1]
        for buf, verdict in launch.get("checks", {}).items():
            self.claim(verdict == "pass", "%s/%s on %s: check %s is %s" % (lab, manifest, config, buf, verdict))
        self.claim(bool(launch.get("checks")), "%s/%s: the report holds no checks" % (lab, manifest))
        return doc["launches"][0]["metrics"]

    def occupancy_cmd(self, config, block, regs, smem):
        cmd = [self.warpsim, "occupancy", "--config", config, "--block", str(block),
               "--regs", str(regs), "--smem", str(smem), "--json"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if not self.claim(proc.returncode == 0, "%s: exit %d" % (" ".join(cmd), proc.returncode)):
            raise RuntimeError("occupancy failed")
        return json.loads(proc.stdout)

    # ------------------------------------------------------------ (a) READMEs

    def readme_commands(self, lab):
        text = open(os.path.join(self.root, "traces", "labs", lab, "README.md")).read()
        commands = []
        for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
            pending = ""
            for line in block.splitlines():
                if line.rstrip().endswith("\\"):
                    pending += line.rstrip()[:-1] + " "
                    continue
                line = (pending + line).strip()
                pending = ""
                if line and not line.startswith("#"):
                    commands.append(line)
        return commands

    def check_readme(self, lab, build_dir):
        commands = self.readme_commands(lab)
        self.claim(len(commands) >= 3, "%s/README.md: fewer than 3 commands in ```sh blocks" % lab)
        workdir = os.path.join(self.scratch, "readme-" + lab)
        os.makedirs(workdir, exist_ok=True)
        link = os.path.join(workdir, "traces")
        if not os.path.exists(link):
            os.symlink(os.path.join(self.root, "traces"), link)
        ran_config = False
        for cmd in commands:
            real = cmd.replace("./build/", build_dir.rstrip("/") + "/")
            ran_config |= ("--config " + LAB_CONFIG[lab]) in cmd
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", real], cwd=workdir,
                                  capture_output=True, text=True, timeout=300)
            self.claim(proc.returncode == 0, "%s/README.md: `%s` exited %d: %s"
                       % (lab, cmd, proc.returncode, (proc.stderr or proc.stdout).strip()[-400:]))
        self.claim(ran_config, "%s/README.md: no command uses --config %s" % (lab, LAB_CONFIG[lab]))

    # ------------------------------------------------------------ (b) divergence

    def lab_divergence(self):
        nd = self.run("divergence", "no_divergence")
        dv = self.run("divergence", "divergence")
        self.claim(nd["branch_efficiency"] == 100 and nd["divergent_branch"] == 0,
                   "divergence: the warp-aligned branch should never split a warp")
        self.claim(nd["warp_execution_efficiency"] == 100,
                   "divergence: noDivergence should run every instruction with 32 lanes")
        # One data-independent if on the lane index: every warp splits exactly once.
        self.claim(dv["divergent_branch"] == dv["warpsim__warps"],
                   "divergence: lane 0's branch should split each of the %d warps once, got %d"
                   % (dv["warpsim__warps"], dv["divergent_branch"]))
        self.claim(dv["branch_efficiency"] < 100, "divergence: branch efficiency should be below 100 %")
        self.claim(abs(dv["smsp__thread_inst_executed.sum"] / nd["smsp__thread_inst_executed.sum"] - 1) < 0.02,
                   "divergence: both kernels should do the same thread work")
        self.claim(dv["smsp__inst_executed.sum"] > 1.8 * nd["smsp__inst_executed.sum"],
                   "divergence: a split warp should issue both loops (about 2x the warp instructions)")
        self.claim(dv["sm__cycles_elapsed.max"] > 1.5 * nd["sm__cycles_elapsed.max"],
                   "divergence: the divergent kernel should take well over 1.5x the cycles (seed: 1.88x)")
        self.claim(all(b["delta"] == 0 for b in nd["warpsim__divergence_map"]),
                   "divergence: noDivergence's map should show no divergent visit")
        self.claim(any(b["delta"] > 0 for b in dv["warpsim__divergence_map"]),
                   "divergence: divergence's map should show divergent visits")

        d = {v: self.run("divergence", "dec2zero_" + v) for v in ("cons", "alt", "half", "random")}
        for v in ("cons", "half"):
            self.claim(d[v]["divergent_branch"] == 0 and d[v]["warp_execution_efficiency"] == 100,
                       "dec2zero %s: whole warps agree, so nothing should diverge" % v)
        for v in ("alt", "random"):
            self.claim(d[v]["divergent_branch"] >= d[v]["warpsim__warps"],
                       "dec2zero %s: every warp should split at least once" % v)
        self.claim(d["alt"]["warp_execution_efficiency"] < 60,
                   "dec2zero alt: half the lanes idle, warp execution efficiency should be near 50 %")
        # Branch efficiency hides it: the loop's own branch is taken by every active lane.
        self.claim(d["alt"]["branch_efficiency"] > 95,
                   "dec2zero alt: only the loop entry splits, branch efficiency should stay above 95 %")
        self.claim(abs(d["alt"]["smsp__thread_inst_executed.sum"] / d["cons"]["smsp__thread_inst_executed.sum"] - 1) < 0.1,
                   "dec2zero: cons and alt hold the same total count (the same thread work)")
        self.claim(d["alt"]["sm__cycles_elapsed.max"] > 1.5 * d["cons"]["sm__cycles_elapsed.max"],
                   "dec2zero: alt should take well over 1.5x cons's cycles (seed 002: 1.99x)")
        self.claim(d["half"]["sm__cycles_elapsed.max"] < d["alt"]["sm__cycles_elapsed.max"],
                   "dec2zero: half (no split warp) should be faster than alt")

    # ------------------------------------------------------------ (b) coalescing

    @staticmethod
    def per_request(addresses_of_warp, unit, warps):
        """Σ over warps of the distinct `unit`-byte blocks their lanes touch."""
        return sum(len({a // unit for a in addresses_of_warp(w)}) for w in range(warps))

    @staticmethod
    def cc10_transactions(addresses_of_warp, warps):
        """cc 1.0: a half-warp whose thread k reads word k of one aligned 64-byte
        segment is one transaction; any other half-warp is 16."""
        total = 0
        for w in range(warps):
            a = addresses_of_warp(w)
            for half in (a[:16], a[16:]):
                ok = half[0] % 64 == 0 and all(half[k] == half[0] + 4 * k for k in range(16))
                total += 1 if ok else 16
        return total

    def lab_coalescing(self):
        n = 1 << 18
        warps = n // 32
        # Buffers are 256-byte aligned (docs/manifest.md), so offset 0 of `a` is.
        def offset_addrs(s):
            return lambda w: [4 * (32 * w + k + s) for k in range(32)]

        def stride_addrs(s):
            return lambda w: [4 * (32 * w + k) * s for k in range(32)]

        cycles = []
        for s in (1, 2, 4, 8, 16, 32):
            m = self.run("coalescing", "stride_s%d" % s)
            want = self.per_request(stride_addrs(s), 32, warps)
            self.claim(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == want,
                       "coalescing stride %d: load sectors %s, the addresses give %d"
                       % (s, m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], want))
            self.claim(m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] == want,
                       "coalescing stride %d: store sectors should equal load sectors" % s)
            self.claim(m["gld_transactions"] == self.per_request(stride_addrs(s), 128, warps),
                       "coalescing stride %d: one transaction per 128-byte line touched" % s)
            spr = m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] / m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]
            self.claim(spr == min(4 * s, 32), "coalescing stride %d: %.2f sectors per request" % (s, spr))
            cycles.append(m["sm__cycles_elapsed.max"])
        self.claim(all(b >= a * 0.98 for a, b in zip(cycles, cycles[1:])),
                   "coalescing: cycles should not fall as the stride grows: %s" % cycles)
        self.claim(cycles[-1] > 4 * cycles[0], "coalescing: stride 32 should cost several times stride 1")
        for s in (0, 1, 2, 4, 8, 16, 32):
            m = self.run("coalescing", "offset_s%d" % s)
            want = self.per_request(offset_addrs(s), 32, warps)
            self.claim(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == want,
                       "coalescing offset %d: load sectors %s, the addresses give %d"
                       % (s, m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], want))
            self.claim(want == warps * (4 if s % 8 == 0 else 5), "coalescing offset %d: model" % s)
            g = self.run("coalescing", "offset_s%d" % s, config="8800gtx")
            want = self.cc10_transactions(offset_addrs(s), warps)
            self.claim(g["gld_transactions"] == want,
                       "coalescing offset %d on the 8800 GTX: %s transactions, the half-warp rule gives %d"
                       % (s, g["gld_transactions"], want))

    # ------------------------------------------------------------ (b) banks

    @staticmethod
    def wavefronts(word_addresses, banks=32):
        """Passes through the banks: the most distinct words any bank must give."""
        per_bank = {}
        for w in word_addresses:
            per_bank.setdefault(w % banks, set()).add(w)
        return max(len(v) for v in per_bank.values())

    def lab_banks(self):
        cycles = {}
        for s in (1, 2, 3, 4, 8, 16, 32, 33):
            m = self.run("banks", "stride_s%d" % s)
            want = self.wavefronts([t * s for t in range(32)])
            self.claim(want == math.gcd(s, 32), "banks: model for stride %d" % s)
            for op in ("ld", "st"):
                req = m["smsp__inst_executed_op_shared_%s.sum" % op]
                wf = m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % op]
                bc = m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum" % op]
                self.claim(wf == want * req, "banks stride %d: %s wavefronts %d, want %d per request x %d"
                           % (s, op, wf, want, req))
                self.claim(bc == wf - req, "banks stride %d: %s conflicts should be the extra wavefronts" % (s, op))
            cycles[s] = m["sm__cycles_elapsed.max"]
        by_ways = sorted(cycles, key=lambda s: (math.gcd(s, 32), s))
        self.claim(all(cycles[b] >= 0.98 * cycles[a] for a, b in zip(by_ways, by_ways[1:])
                       if math.gcd(b, 32) > math.gcd(a, 32)),
                   "banks: more ways of conflict should never be faster: %s" % cycles)
        self.claim(max(cycles[s] for s in (1, 3, 33)) <= 1.02 * min(cycles[s] for s in (1, 3, 33)),
                   "banks: odd strides are conflict-free and should cost the same as stride 1")

        t = self.run("banks", "tile")
        p = self.run("banks", "tile_padded")
        for name, m, width in (("tile", t, 32), ("tile_padded", p, 33)):
            # Warp = one row ty of the 32 x 32 block: lanes tx = 0..31.
            read = self.wavefronts([tx * width + 5 for tx in range(32)])
            write = self.wavefronts([5 * width + tx for tx in range(32)])
            req = m["smsp__inst_executed_op_shared_ld.sum"]
            self.claim(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == read * req,
                       "banks %s: column reads should take %d wavefronts each" % (name, read))
            self.claim(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == (read - 1) * req,
                       "banks %s: %d-way conflicts on the column reads" % (name, read))
            self.claim(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] == (write - 1) * m["smsp__inst_executed_op_shared_st.sum"],
                       "banks %s: row writes are conflict-free" % name)
        self.claim(p["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 0,
                   "banks: the padded tile should have no bank conflict")
        self.claim(t["sm__cycles_elapsed.max"] > 2 * p["sm__cycles_elapsed.max"],
                   "banks: the 32-way conflicts should make the unpadded tile far slower")

    # ------------------------------------------------------------ (b) occupancy

    def lab_occupancy(self):
        root = os.path.join(self.root, "traces", "labs", "occupancy")
        static_smem = {"matMulTiled": 2 * 16 * 16 * 4, "matMulCoalesced": 0}
        runs = {}
        for name in sorted(f[:-5] for f in os.listdir(root) if f.endswith(".json")):
            with open(os.path.join(root, name + ".json")) as f:
                man = json.load(f)
            m = self.run("occupancy", name)
            threads = man["block"][0] * man["block"][1]
            smem = man.get("dynamic_shared_bytes", 0) + static_smem[man["kernel"]]
            calc = self.occupancy_cmd("9400m", threads, man["regs_per_thread"], smem)
            self.claim(calc["blocks_per_sm"] == m["warpsim__blocks_per_sm"]
                       and calc["limiter"] == m["warpsim__occupancy_limiter"],
                       "occupancy %s: run says %s blocks (%s), `warpsim occupancy` %s (%s)"
                       % (name, m["warpsim__blocks_per_sm"], m["warpsim__occupancy_limiter"],
                          calc["blocks_per_sm"], calc["limiter"]))
            self.claim(abs(calc["occupancy"] * 100 - m["sm__maximum_warps_per_active_cycle_pct"]) < 1e-6,
                       "occupancy %s: theoretical occupancy differs from `warpsim occupancy`" % name)
            self.claim(m["sm__warps_active.avg.pct_of_peak_sustained_active"]
                       <= m["sm__maximum_warps_per_active_cycle_pct"] + 1e-6,
                       "occupancy %s: achieved occupancy above the theoretical one" % name)
            runs[name] = m
        blocks = {k: v["warpsim__blocks_per_sm"] for k, v in runs.items()}
        limiter = {k: v["warpsim__occupancy_limiter"] for k, v in runs.items()}
        # Seed 000: 9 x 768 < 8192 fits three 256-thread blocks; 256 x 11 x 3 = 8448 > 8192 only two.
        self.claim(blocks["b256_r9"] == 3 and limiter["b256_r9"] == "warps",
                   "occupancy: 9 registers x 256 threads should fit 3 blocks (seed 000)")
        self.claim(blocks["b256_r10"] == 3, "occupancy: 10 registers still fit 768 threads (seed 000)")
        self.claim(blocks["b256_r11"] == 2 and limiter["b256_r11"] == "registers",
                   "occupancy: 11 registers should leave 2 blocks, limited by registers (seed 000)")
        self.claim(blocks["tiled_r11"] == 2, "occupancy: matMulTiled at 11 registers: 2/3 (seed 000 Table 1.1)")
        self.claim(blocks["b256_r24"] == 1 and limiter["b256_r24"] == "registers",
                   "occupancy: 24 registers should leave one block")
        self.claim(limiter["b256_r9_smem6k"] == "shared memory" and blocks["b256_r9_smem6k"] == 2,
                   "occupancy: 6 KiB of shared memory per block should allow 2 blocks of 16 KiB")
        self.claim(limiter["b256_r9_smem12k"] == "shared memory" and blocks["b256_r9_smem12k"] == 1,
                   "occupancy: 12 KiB per block should allow one block")
        self.claim(limiter["b64_r9"] == "blocks", "occupancy: 64-thread blocks hit the 8-block limit")
        self.claim(limiter["b512_r9"] == "warps" and blocks["b512_r9"] == 1,
                   "occupancy: one 512-thread block fills 16 of 24 warps")
        cyc = {k: v["sm__cycles_elapsed.max"] for k, v in runs.items()}
        # Issued as ptxas schedules it, each warp has the eight loads of its unrolled
        # loop in flight: 8 warps still hide the DRAM latency.  In the PTX's order
        # each load waits for the FMA before it, one at a time, and 1/3 does not.
        self.claim(cyc["b256_r24"] < 1.15 * cyc["b256_r9"],
                   "occupancy: at 1/3 occupancy the scheduled loads (ILP) should still hide the memory latency")
        ptx = {k: self.run("occupancy", k, extra=("--issue-order", "ptx"))["sm__cycles_elapsed.max"]
               for k in ("b256_r9", "b256_r24")}
        self.claim(ptx["b256_r24"] > 1.5 * ptx["b256_r9"],
                   "occupancy: in PTX order (one load in flight per warp) 1/3 occupancy no longer hides the latency")
        self.claim(cyc["b256_r11"] < 1.15 * cyc["b256_r9"],
                   "occupancy: 2/3 occupancy should cost little on this bandwidth-bound kernel")
        for a, b in (("b256_r9_smem6k", "b256_r11"), ("b256_r9_smem12k", "b256_r24")):
            self.claim(abs(cyc[a] / cyc[b] - 1) < 0.01,
                       "occupancy: %s and %s reach the same occupancy and should take the same time" % (a, b))
        self.claim(cyc["tiled_r11"] < cyc["b256_r9"],
                   "occupancy: matMulTiled at 2/3 occupancy should still beat matMulCoalesced at full")
        # Seed 004's profiler: 512-thread blocks with 12 / 20 / 30 registers on the GTX 1060
        # have register block limits 8 / 5 / 4.
        for regs, want in ((12, 8), (20, 5), (30, 4)):
            got = self.occupancy_cmd("gtx1060", 512, regs, 0)["launch__occupancy_limit_registers"]
            self.claim(got == want, "occupancy: GTX 1060, 512 threads, %d registers: register limit %s, "
                       "seed 004 says %d" % (regs, got, want))

    # ------------------------------------------------------------ (b) ilp_tlp

    def lab_ilp_tlp(self):
        m = {v: self.run("ilp_tlp", v) for v in ("tlp", "ilp2", "ilp4", "serial")}
        cyc = {k: v["sm__cycles_elapsed.max"] for k, v in m.items()}
        occ = {k: v["sm__warps_active.avg.pct_of_peak_sustained_active"] for k, v in m.items()}
        inst = {k: v["smsp__inst_executed.sum"] for k, v in m.items()}
        self.claim(max(inst.values()) < 1.1 * min(inst.values()),
                   "ilp_tlp: all variants should issue about the same instructions: %s" % inst)
        self.claim(occ["ilp4"] < 0.5 * occ["tlp"],
                   "ilp_tlp: four chains use a quarter of the warps, so far lower achieved occupancy")
        for v in ("ilp2", "ilp4"):
            self.claim(cyc[v] < 1.25 * cyc["tlp"],
                       "ilp_tlp: %s should reach about the cycles of many warps (%d vs %d)" % (v, cyc[v], cyc["tlp"]))
        self.claim(cyc["serial"] > 2 * cyc["ilp4"],
                   "ilp_tlp: the same chains one after another on as few warps should be latency-bound")
        wait = "smsp__warp_issue_stalled_wait_per_warp_active.pct"
        self.claim(m["serial"][wait] > m["ilp4"][wait],
                   "ilp_tlp: the dependent chain should stall more on fixed-latency results")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpsim", required=True, help="the built warpsim executable")
    ap.add_argument("--source-root", default=os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), help="the repository root")
    ap.add_argument("--lab", action="append", choices=LABS, help="only this lab (repeatable)")
    args = ap.parse_args()
    warpsim = os.path.abspath(args.warpsim)
    build_dir = os.path.dirname(os.path.dirname(warpsim))   # BUILD/src/warpsim
    with tempfile.TemporaryDirectory(prefix="warpsim-labs-") as scratch:
        c = Checker(warpsim, os.path.abspath(args.source_root), scratch)
        for lab in args.lab or LABS:
            before = len(c.failures)
            try:
                c.check_readme(lab, build_dir)
                getattr(c, "lab_" + lab)()
            except (RuntimeError, KeyError, OSError, ValueError, subprocess.TimeoutExpired) as e:
                c.failures.append("%s: stopped: %s: %s" % (lab, type(e).__name__, e))
            print("%-10s %s" % (lab, "ok" if len(c.failures) == before else "FAILED"))
        for f in c.failures:
            print("FAIL: " + f)
        print("%d claims, %d failed" % (c.claims, len(c.failures)))
        return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
