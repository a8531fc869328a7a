#!/usr/bin/env python3
"""The sha256 of testKernel1's output for traces/ilp_loads/*.json.

Independent of warpsim and of tests/host_reference: the input is rebuilt
from the manifest's `random` definition (splitmix64, docs/manifest.md),
each thread's sum is ((0 + x0) + x1) + ... + x7 rounded to float32 after
every add, as the PTX's add.f32 chain does.  Pure Python: 45 s of CPU for
kernel1.json (8388608 threads), 1.5 s for kernel1_small.json.
Usage: gen_expected.py [--write] MANIFEST...   prints the hash of each;
--write stores it into the manifest's expect.output.sha256.
"""
import hashlib
import json
import struct
import sys

M64 = (1 << 64) - 1
_f32 = struct.Struct("<f")


def f32(x):
    """x rounded to the nearest float32 (ties to even), as a Python float."""
    return _f32.unpack(_f32.pack(x))[0]


def output_sha256(manifest):
    m = json.load(open(manifest))
    n = m["args"][2]["s32"]
    threads = m["grid"][0] * m["block"][0]
    init = m["buffers"]["input"]["init"]
    count = m["buffers"]["input"]["count"]
    out_count = m["buffers"]["output"]["count"]
    assert init["kind"] == "random" and m["buffers"]["output"]["init"]["kind"] == "zeros"
    lo, hi = float(init["min"]), float(init["max"])
    state = init["seed"]
    active = min(n, threads)
    assert 8 * active <= count and active <= out_count
    out = bytearray(4 * out_count)
    pack_into = _f32.pack_into
    for tid in range(active):
        accum = 0.0
        for _ in range(8):
            state = (state + 0x9E3779B97F4A7C15) & M64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            r = z ^ (z >> 31)
            x = f32(lo + (hi - lo) * ((r >> 11) * 2.0**-53))
            accum = f32(accum + x)  # float32 sum of two float32s: one rounding
        pack_into(out, 4 * tid, accum)
    return hashlib.sha256(out).hexdigest()


def main(argv):
    write = "--write" in argv
    for path in [a for a in argv if a != "--write"]:
        h = output_sha256(path)
        print(h, path)
        if write:
            m = json.load(open(path))
            m["expect"]["output"]["sha256"] = h
            with open(path, "w") as f:
                json.dump(m, f, indent=2)
                f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
