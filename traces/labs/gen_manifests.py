#!/usr/bin/env python3
"""gen_manifests.py — writes the launch manifests of the five labs.

Usage: python3 traces/labs/gen_manifests.py [--host-reference BUILD/tests/host_reference]

Writes every lab's *.json manifests (and the input files they read) from
the tables below.  The expected outputs are not computed here except where
a one-line model suffices (the coalescing sweeps, whose buffers are too
large to commit, are expected by sha256 computed below); with
--host-reference, the project's independent C models of the kernels
(tests/host_reference) write every `*.expected.bin` the manifests name.
"""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def to_json(value, indent=0):
    """JSON with one key per line, but arrays and small objects of scalars
    on one line (the style of the other workloads' manifests)."""
    flat = json.dumps(value)
    if not isinstance(value, (dict, list)) or (len(flat) <= 72 and "{" not in flat[1:]):
        return flat
    pad = "  " * (indent + 1)
    if isinstance(value, list):
        items = [pad + to_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    items = [pad + json.dumps(k) + ": " + to_json(v, indent + 1) for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"


def write_json(lab, name, manifest):
    with open(os.path.join(HERE, lab, name), "w") as f:
        f.write(to_json(manifest) + "\n")


def f32(count, init):
    return {"type": "f32", "count": count, "init": init}


# ---------------------------------------------------------------- divergence

DEC2ZERO_N = 16384         # 64 blocks of 256 threads, 512 warps: enough to keep the SMs busy
DEC2ZERO_MAX = 1024


def divergence_lab():
    a = f32(1024, {"kind": "iota", "start": 0, "step": 0.5})
    for name, kernel in (("divergence", "divergence"), ("no_divergence", "noDivergence")):
        write_json("divergence", name + ".json", {
            "name": name,
            "description": "seed 004: 16 blocks x 64 threads, the branch taken by "
                           + ("lane 0 of every warp" if kernel == "divergence"
                              else "whole warps (threadIdx.x >= 32)"),
            "ptx": "divergence.ptx", "kernel": kernel, "grid": [16], "block": [64],
            "args": [{"buffer": "A"}, {"buffer": "B"}],
            "buffers": {"A": a, "B": f32(1024, {"kind": "zeros"})},
            "expect": {"B": {"file": name + ".B.expected.bin"}},
        })
    # dec2zero inputs: cons, alt and half all hold the same total count (the
    # same thread work); only how it is spread over the lanes differs.
    n = DEC2ZERO_N
    alt = [0 if i % 2 == 0 else DEC2ZERO_MAX for i in range(n)]
    half = [0 if i < n // 2 else DEC2ZERO_MAX for i in range(n)]
    for fname, values in (("alt.v.bin", alt), ("half.v.bin", half)):
        with open(os.path.join(HERE, "divergence", fname), "wb") as f:
            f.write(struct.pack("<%di" % n, *values))
    top = DEC2ZERO_MAX
    inits = {
        "cons": ({"kind": "const", "value": top // 2},
                 "every element %d: no lane waits for another" % (top // 2)),
        "alt": ({"kind": "file", "path": "alt.v.bin"},
                "0, %d, 0, %d, ...: half of every warp has nothing to do" % (top, top)),
        "half": ({"kind": "file", "path": "half.v.bin"},
                 "%d zeros then %d x %d: whole warps agree, no warp splits" % (n // 2, n // 2, top)),
        "random": ({"kind": "random", "seed": 2002, "min": 0, "max": top - 1},
                   "uniform in [0, %d]" % (top - 1)),
    }
    for name, (init, what) in inits.items():
        write_json("divergence", "dec2zero_%s.json" % name, {
            "name": "dec2zero_" + name,
            "description": "seed 002's dec2zero, input " + what,
            "ptx": "divergence.ptx", "kernel": "dec2zero", "grid": [n // 256], "block": [256],
            "args": [{"buffer": "v"}, {"s32": n}],
            "buffers": {"v": {"type": "s32", "count": n, "init": init}},
            # every element ends at 0 (all inputs are >= 0)
            "expect": {"v": {"sha256": hashlib.sha256(bytes(4 * n)).hexdigest()}},
        })


# ---------------------------------------------------------------- coalescing

COALESCING_N = 1 << 18     # threads: 1024 blocks of 256 (1 MiB of floats, beyond the 1.5 MiB L2 read and written)
COALESCING_FILL = 1.5
OFFSETS = [0, 1, 2, 4, 8, 16, 32]
STRIDES = [1, 2, 4, 8, 16, 32]


def plus_one_sha256(count, touched):
    """sha256 of `count` floats of COALESCING_FILL with 1 added at `touched`."""
    values = [COALESCING_FILL] * count
    for i in touched:
        values[i] += 1.0
    return hashlib.sha256(struct.pack("<%df" % count, *values)).hexdigest()


def coalescing_lab():
    n = COALESCING_N
    for s in OFFSETS:
        count = n + s
        write_json("coalescing", "offset_s%d.json" % s, {
            "name": "offset_s%d" % s,
            "description": "seed 004 offset(a, s): a[gid + %d] += 1" % s,
            "ptx": "coalescing.ptx", "kernel": "offsetFloat", "grid": [n // 256], "block": [256],
            "args": [{"buffer": "a"}, {"s32": s}],
            "buffers": {"a": f32(count, {"kind": "const", "value": COALESCING_FILL})},
            "expect": {"a": {"sha256": plus_one_sha256(count, range(s, s + n))}},
        })
    for s in STRIDES:
        count = n * s
        write_json("coalescing", "stride_s%d.json" % s, {
            "name": "stride_s%d" % s,
            "description": "seed 004 stride(a, s): a[gid * %d] += 1" % s,
            "ptx": "coalescing.ptx", "kernel": "strideFloat", "grid": [n // 256], "block": [256],
            "args": [{"buffer": "a"}, {"s32": s}],
            "buffers": {"a": f32(count, {"kind": "const", "value": COALESCING_FILL})},
            "expect": {"a": {"sha256": plus_one_sha256(count, range(0, n * s, s))}},
        })


# ---------------------------------------------------------------- banks

BANK_STRIDES = [1, 2, 3, 4, 8, 16, 32, 33]
BANK_BLOCK, BANK_GRID, BANK_ITERS = 128, 40, 32
TILE_GRID, TILE_ITERS = 20, 32


def banks_lab():
    for s in BANK_STRIDES:
        write_json("banks", "stride_s%d.json" % s, {
            "name": "stride_s%d" % s,
            "description": "thread t reads and writes tile[t * %d] %d times" % (s, BANK_ITERS),
            "ptx": "banks.ptx", "kernel": "bankFloat", "grid": [BANK_GRID], "block": [BANK_BLOCK],
            "dynamic_shared_bytes": BANK_BLOCK * s * 4,
            "args": [{"buffer": "out"}, {"s32": s}, {"s32": BANK_ITERS}],
            "buffers": {"out": f32(BANK_GRID * BANK_BLOCK, {"kind": "zeros"})},
            "expect": {"out": {"file": "stride.out.expected.bin"}},
        })
    n = TILE_GRID * 1024
    for name, kernel in (("tile", "tileColumns"), ("tile_padded", "tileColumnsPadded")):
        write_json("banks", name + ".json", {
            "name": name,
            "description": "32 x 32 tile written by rows, read by columns %d times, %s"
                           % (TILE_ITERS, "[32][33] (padded)" if "Padded" in kernel else "[32][32]"),
            "ptx": "banks.ptx", "kernel": kernel, "grid": [TILE_GRID], "block": [32, 32],
            "args": [{"buffer": "in"}, {"buffer": "out"}, {"s32": TILE_ITERS}],
            "buffers": {"in": f32(n, {"kind": "random", "seed": 61, "min": -1.0, "max": 1.0}),
                        "out": f32(n, {"kind": "zeros"})},
            "expect": {"out": {"file": "tile.out.expected.bin"}},
        })


# ---------------------------------------------------------------- occupancy

MATMUL_W = 96             # every variant then runs whole waves on the 9400M's 2 SMs
# name: (kernel, block, regs_per_thread, dynamic_shared_bytes)
OCCUPANCY_VARIANTS = {
    "b256_r9": ("matMulCoalesced", [16, 16], 9, 0),
    "b256_r10": ("matMulCoalesced", [16, 16], 10, 0),
    "b256_r11": ("matMulCoalesced", [16, 16], 11, 0),
    "b256_r24": ("matMulCoalesced", [16, 16], 24, 0),
    "b64_r9": ("matMulCoalesced", [8, 8], 9, 0),
    "b512_r9": ("matMulCoalesced", [32, 16], 9, 0),
    "b256_r9_smem6k": ("matMulCoalesced", [16, 16], 9, 6144),
    "b256_r9_smem12k": ("matMulCoalesced", [16, 16], 9, 12288),
    "tiled_r11": ("matMulTiled", [16, 16], 11, 0),
}


def occupancy_lab():
    w = MATMUL_W
    for name, (kernel, block, regs, smem) in OCCUPANCY_VARIANTS.items():
        m = {
            "name": name,
            "description": "%s, %d x %d threads, %d registers, %d bytes of dynamic shared memory"
                           % (kernel, block[0], block[1], regs, smem),
            "ptx": "occupancy.ptx", "kernel": kernel,
            "grid": [w // block[0], w // block[1]], "block": block,
            "regs_per_thread": regs,
        }
        if smem:
            m["dynamic_shared_bytes"] = smem
        m.update({
            "args": [{"buffer": "B"}, {"buffer": "C"}, {"buffer": "A"}, {"s32": w}],
            "buffers": {
                "B": f32(w * w, {"kind": "random", "seed": 11, "min": -1.0, "max": 1.0}),
                "C": f32(w * w, {"kind": "random", "seed": 12, "min": -1.0, "max": 1.0}),
                "A": f32(w * w, {"kind": "zeros"}),
            },
            "expect": {"A": {"file": "A.expected.bin"}},
        })
        write_json("occupancy", name + ".json", m)


# ---------------------------------------------------------------- ilp_tlp

ILP_N = 10240              # 80 blocks of 128 threads: 8 per SM of a GTX 1060
ILP_BLOCK = 128
# name: (kernel, elements N, threads, repeat)
ILP_VARIANTS = {
    "tlp": ("kernel0", ILP_N, ILP_N, 1),
    "ilp2": ("kernel1", ILP_N, ILP_N // 2, 1),
    "ilp4": ("kernel2", ILP_N, ILP_N // 4, 1),
    "serial": ("kernel0", ILP_N // 4, ILP_N // 4, 4),
}


def ilp_lab():
    for name, (kernel, n, threads, repeat) in ILP_VARIANTS.items():
        m = {
            "name": name,
            "description": "%s over %d elements with %d threads%s"
                           % (kernel, n, threads, ", run %d times" % repeat if repeat > 1 else ""),
            "ptx": "ilp_tlp.ptx", "kernel": kernel,
            "grid": [threads // ILP_BLOCK], "block": [ILP_BLOCK],
        }
        if repeat > 1:
            m["repeat"] = repeat
        m.update({
            "args": [{"buffer": "d_a"}, {"buffer": "d_b"}, {"buffer": "d_c"}, {"s32": n}],
            "buffers": {
                "d_a": f32(n, {"kind": "random", "seed": 31, "min": -1.0, "max": 1.0}),
                "d_b": f32(n, {"kind": "random", "seed": 32, "min": -0.9, "max": 0.9}),
                "d_c": f32(n, {"kind": "random", "seed": 33, "min": -1.0, "max": 1.0}),
            },
            "expect": {"d_a": {"file": ("serial" if repeat > 1 else "chains") + ".d_a.expected.bin"}},
        })
        write_json("ilp_tlp", name + ".json", m)


def host_reference_outputs(binary):
    """Let tests/host_reference write every expected file of every lab."""
    for lab in ("divergence", "coalescing", "banks", "occupancy", "ilp_tlp"):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([binary, os.path.join(HERE, lab), tmp], check=True)
            for name in os.listdir(tmp):
                os.replace(os.path.join(tmp, name), os.path.join(HERE, lab, name))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host-reference", help="path of the built tests/host_reference")
    args = ap.parse_args()
    divergence_lab()
    coalescing_lab()
    banks_lab()
    occupancy_lab()
    ilp_lab()
    if args.host_reference:
        host_reference_outputs(args.host_reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
