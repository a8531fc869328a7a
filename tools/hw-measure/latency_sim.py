#!/usr/bin/env python3
"""latency_sim.py — latency.cu's microbenchmarks run in warpsim.

Runs each kernel of latency.ptx (nvcc -arch=sm_90 -ptx latency.cu, committed
beside it so that no CUDA toolkit is needed) in warpsim, one block, and
prints the same figure the GPU program prints: the kernel's own clock64()
difference, less the empty kernel's, per step of its 64-step chain.  Putting
the two side by side is how a latency in configs/ is set: to the value that
makes warpsim's figure the GPU's.

Usage: tools/hw-measure/latency_sim.py WARPSIM [warpsim run options, e.g. --config h200 --set KEY=VALUE]
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PTX = os.path.join(HERE, "latency.ptx")


def run(warpsim, extra, tmp, kernel, threads, memory):
    if memory:
        args = [{"buffer": "words"}, {"buffer": "cycles"}, {"buffer": "out"}]
    else:
        args = [{"f32": 1.0001}, {"f32": 0.9999}, {"s32": 1000003}, {"s32": 7}, {"buffer": "cycles"}, {"buffer": "out"}]
    # words: latency.cu's 64 * SPREAD + WARP (the spread chases' ring)
    manifest = {"name": kernel, "ptx": PTX, "kernel": kernel, "grid": [1], "block": [threads], "args": args,
                "buffers": {"words": {"type": "u64", "count": 64 * 2048 + 32, "init": {"kind": "zeros"}},
                            "cycles": {"type": "s64", "count": 1, "init": {"kind": "zeros"}},
                            "out": {"type": "f32", "count": 1024, "init": {"kind": "zeros"}}}}
    path = os.path.join(tmp, "m.json")
    with open(path, "w") as f:
        json.dump(manifest, f)
    p = subprocess.run([warpsim, "run", path, "--quiet", "--dump", tmp] + extra, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("latency_sim: %s failed: %s" % (kernel, p.stderr.strip()))
    with open(os.path.join(tmp, "cycles.bin"), "rb") as f:
        return struct.unpack("<q", f.read(8))[0]


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__.strip())
    warpsim, extra = sys.argv[1], sys.argv[2:]
    with open(PTX) as f:
        kernels = re.findall(r"^\.visible \.entry (\w+)\(", f.read(), re.M)
    empty = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in kernels:
            if not re.search(r"(ffiiPxPf|PyPxPf)$", k):
                continue  # k_bar_staggered: timed per warp, not as a chain
            memory = re.match(r"_Z\d+m_", k) is not None
            name = re.sub(r"(ffiiPxPf|PyPxPf)$", "", re.sub(r"^_Z\d+", "", k))
            for threads in ((32, 64, 128, 256, 512, 1024) if name == "k_bar_sync" else (32,)):
                c = run(warpsim, extra, tmp, k, threads, memory)
                if name.endswith("_empty"):
                    empty[memory] = c
                label = name + ("" if threads == 32 else ", %d warps" % (threads // 32))
                print("%-28s %6d cycles for 64, %.1f per step" % (label, c, (c - empty[memory]) / 64.0))


if __name__ == "__main__":
    main()
