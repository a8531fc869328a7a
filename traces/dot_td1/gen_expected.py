#!/usr/bin/env python3
"""c.expected.bin for traces/dot_td1/launch.json, independent of warpsim.

a[i] = i, b[i] = 2 i for i < N = 33 * 1024; each of the 132 x 256 threads
sums fma(a[i], b[i], temp) over its grid-stride elements (one each), then
each block adds cache[t] = cache[t + s] + cache[t] for s = 128, ..., 1.
Every product and sum is an integer below 2^53, so Python's separate
multiply and add give the fused result exactly.  Prints the host's sum of
the 132 partial sums, the course's "Result : 25723564731392.000000".
Usage: gen_expected.py [OUT]   (default c.expected.bin beside this file)
"""
import os
import struct
import sys

N = 33 * 1024
THREADS = 256
BLOCKS = 132


def partial_sums():
    c = []
    for blk in range(BLOCKS):
        cache = []
        for t in range(THREADS):
            temp = 0.0
            i = blk * THREADS + t
            while i < N:
                a, b = float(i), 2.0 * i
                assert a * b + temp < 2**53
                temp = a * b + temp
                i += THREADS * BLOCKS
            cache.append(temp)
        s = THREADS // 2
        while s:
            for t in range(s):
                cache[t] = cache[t + s] + cache[t]
            s //= 2
        c.append(cache[0])
    return c


def main(argv):
    out = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            "c.expected.bin")
    c = partial_sums()
    with open(out, "wb") as f:
        f.write(struct.pack("<%dd" % len(c), *c))
    total = 0.0
    for x in c:
        total += x
    print("Result : %f" % total)


if __name__ == "__main__":
    main(sys.argv[1:])
