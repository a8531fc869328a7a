#!/usr/bin/env python3
"""random_kernels.py — random PTX kernels, run in every mode, checked against
an evaluation of their own.

Each kernel is drawn from a seed: structured control flow (if/else on
thread-dependent values, loops whose trip counts differ lane by lane, so
warps diverge and reconverge, early exits), 32-bit integer, f32 and f64
arithmetic, guarded instructions, a per-thread local array, scattered
global loads, global reductions, and at the top level (where every thread
of the CTA is present) shared-memory exchanges between barriers, warp
shuffles and ballots; docs/fuzzing.md lists the operations.  The generator evaluates the same program for every thread in
Python, so the outputs are known without a GPU (where the ISA leaves it
open, as for f64 NaNs, the evaluation does what an H200 was measured to
do: docs/fuzzing.md, "Against the GPU").  warpsim then runs it

  - functionally on 1 and on 2 host threads,
  - in the timing model on 1 and 2 threads and in --lockstep, on the
    default GPU (h200) and on the 8800 GTX (cc 1.0: other coalescing,
    banks and units),

and every run must exit 0 with outputs equal to the evaluation's, and the
timed runs of one GPU must report identical metrics (docs/performance.md:
results never depend on the thread count or the quantum).  A failure
prints the seed and keeps the kernel's folder.

usage: random_kernels.py --warpsim PATH [--count N] [--seed S] [--keep DIR]
"""
import argparse
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

M32 = 0xFFFFFFFF
NREGS, NFREGS = 8, 4         # %r0..7 (b32), %f0..3 (f32): what the outputs hold
OUT_WORDS = NREGS + NFREGS   # words each thread stores
IN_WORDS = 1024              # the input buffer, read at data-dependent indices
COUNTERS = 16                # the reduction targets


# ---------------------------------------------------------------- f32 as the GPU computes it

CANONICAL_NAN = 0x7FFFFFFF


def f32_bits(x):
    """Bits of the f32 nearest x (round to nearest even), NaN canonical."""
    if x != x:
        return CANONICAL_NAN
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:  # beyond FLT_MAX after rounding: infinity
        return 0x7F800000 | (0x80000000 if x < 0 else 0)


def f32_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def s32(v):
    return v - (1 << 32) if v & 0x80000000 else v


def cvt_rzi_s32(bits):
    x = f32_value(bits)
    if x != x:
        return 0
    if x >= 2**31:
        return 0x7FFFFFFF
    if x <= -2**31:
        return 0x80000000
    return int(x) & M32


# ---------------------------------------------------------------- the program

# integer ops: (ptx, arity, evaluation); immediates are drawn where noted
INT_OPS = [
    ("add.u32", 2, lambda a, b: (a + b) & M32),
    ("sub.u32", 2, lambda a, b: (a - b) & M32),
    ("mul.lo.u32", 2, lambda a, b: (a * b) & M32),
    ("mul.hi.u32", 2, lambda a, b: (a * b) >> 32),
    ("xor.b32", 2, lambda a, b: a ^ b),
    ("and.b32", 2, lambda a, b: a & b),
    ("or.b32", 2, lambda a, b: a | b),
    ("min.u32", 2, lambda a, b: min(a, b)),
    ("max.s32", 2, lambda a, b: max(s32(a), s32(b)) & M32),
    ("mad.lo.u32", 3, lambda a, b, c: (a * b + c) & M32),
    ("popc.b32", 1, lambda a: bin(a).count("1")),
    ("brev.b32", 1, lambda a: int("{:032b}".format(a)[::-1], 2)),
    ("clz.b32", 1, lambda a: 32 - a.bit_length()),
    ("not.b32", 1, lambda a: ~a & M32),
    ("sad.u32", 3, lambda a, b, c: (abs(a - b) + c) & M32),
    ("mul24.lo.u32", 2, lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) & M32),
    ("mul.hi.s32", 2, lambda a, b: ((s32(a) * s32(b)) >> 32) & M32),
    ("min.s32", 2, lambda a, b: min(s32(a), s32(b)) & M32),
    ("max.u32", 2, lambda a, b: max(a, b)),
    ("abs.s32", 1, lambda a: abs(s32(a)) & M32),
    ("neg.s32", 1, lambda a: -a & M32),
    ("prmt.b32", 3, lambda a, b, c: prmt(a, b, c)),
    ("shf.l.wrap.b32", 3, lambda a, b, n: ((b << (n & 31)) | (a >> (32 - (n & 31)))) & M32),
    ("shf.r.wrap.b32", 3, lambda a, b, n: ((a >> (n & 31)) | (b << (32 - (n & 31)))) & M32),
]


def prmt(a, b, c):
    """prmt.b32 in its default mode: bytes of {b, a}, picked by c's nibbles."""
    data = [(a >> (8 * k)) & 0xFF for k in range(4)] + [(b >> (8 * k)) & 0xFF for k in range(4)]
    d = 0
    for i in range(4):
        sel = (c >> (4 * i)) & 0xF
        byte = data[sel & 7]
        if sel & 8:
            byte = 0xFF if byte & 0x80 else 0
        d |= byte << (8 * i)
    return d


def lop3(a, b, c, lut):
    d = 0
    for k in range(8):
        if lut >> k & 1:
            d |= (a if k & 4 else ~a) & (b if k & 2 else ~b) & (c if k & 1 else ~c)
    return d & M32


def f32_div(a, b):
    if b == 0:
        if a == 0 or a != a:
            return float("nan")
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def f32_sqrt(a):
    return float("nan") if a < 0 or a != a else math.sqrt(a)


SHIFT_OPS = [
    ("shl.b32", lambda a, k: (a << k) & M32),
    ("shr.u32", lambda a, k: a >> k),
    ("shr.s32", lambda a, k: (s32(a) >> k) & M32),
]
F_OPS = [
    ("add.rn.f32", lambda a, b: a + b),
    ("sub.rn.f32", lambda a, b: a - b),
    ("mul.rn.f32", lambda a, b: a * b),
    ("div.rn.f32", f32_div),
]


class Gen:
    """Draws a program: a list of statements (tuples), which emit() writes
    as PTX and run_one() evaluates."""

    def __init__(self, rng, block):
        self.rng = rng
        self.block = block
        self.labels = 0
        # a thread that exits is absent from later barriers and shuffles:
        # a kernel has either those or exits
        self.collective = rng.random() < 0.7

    def reg(self):
        return self.rng.randrange(NREGS)

    def statements(self, depth, n, top):
        out = []
        for _ in range(n):
            out.append(self.statement(depth, top))
        return out

    def statement(self, depth, top):
        r = self.rng.random()
        if top and self.collective and r < 0.08:
            return ("shared", self.reg(), self.reg(), self.rng.randrange(1, self.block))
        if top and self.collective and r < 0.14 and self.block % 32 == 0:
            if self.rng.random() < 0.3:
                return ("ballot", self.reg(), self.reg())
            return ("shfl", self.reg(), self.reg(), self.rng.choice(["bfly", "idx"]), self.rng.randrange(32))
        if not top and not self.collective and r < 0.03:
            return ("exit",)
        x = self.rng.random()
        if x < 0.05:
            return ("divrem", self.rng.choice(["div", "rem"]), self.reg(), self.reg(), self.reg())
        if x < 0.10:
            return ("local", self.reg(), self.reg(), self.reg(), self.reg())
        if x < 0.14:
            return ("wide", self.reg(), self.reg(), self.reg(), self.rng.randrange(64))
        if x < 0.18:
            return ("bits", self.rng.choice(["bfe", "bfi", "lop3"]), self.reg(), self.reg(), self.reg(),
                    self.rng.randrange(32), self.rng.randrange(33), self.rng.randrange(256))
        if x < 0.24:
            op = self.rng.randrange(len(INT_OPS))  # drawn first: the seeds recorded keep their kernels
            return ("guarded", self.rng.random() < 0.5, self.reg(), self.reg(), self.int_op(op))
        if x < 0.27:
            return ("narrow", self.rng.choice(["s8", "u16", "s16"]), self.reg(), self.reg())
        if x < 0.31:
            f = self.rng.randrange(NFREGS)
            return ("f64", f, self.rng.randrange(NFREGS), self.rng.randrange(NFREGS))
        if x < 0.33:
            return ("fsqrt", self.rng.randrange(NFREGS), self.rng.randrange(NFREGS))
        if depth < 3 and r < 0.24:
            body = self.statements(depth + 1, self.rng.randrange(1, 5), False)
            other = self.statements(depth + 1, self.rng.randrange(0, 4), False)
            return ("if", self.reg(), self.rng.randrange(1 << 32), body, other)
        if depth < 2 and r < 0.32:
            return ("loop", self.reg(), self.statements(depth + 1, self.rng.randrange(1, 5), False))
        if r < 0.38:
            return ("gload", self.reg(), self.reg())
        if r < 0.42:
            return ("red", self.reg(), self.reg())
        if r < 0.50:
            return ("shift", self.rng.randrange(len(SHIFT_OPS)), self.reg(), self.reg(), self.rng.randrange(32))
        if r < 0.56:
            return ("selp", self.reg(), self.reg(), self.reg(), self.reg(), self.reg())
        if r < 0.70:
            f = self.rng.randrange(NFREGS)
            if self.rng.random() < 0.25:  # between the register files
                return ("tof", f, self.reg()) if self.rng.random() < 0.5 else ("toi", self.reg(), f)
            return ("fop", self.rng.randrange(len(F_OPS)), f, self.rng.randrange(NFREGS), self.rng.randrange(NFREGS))
        return self.int_op()

    def int_op(self, op=None):
        if op is None:
            op = self.rng.randrange(len(INT_OPS))
        return ("op", op, self.reg(), [self.reg() for _ in range(INT_OPS[op][1])])

    def label(self, what):
        self.labels += 1
        return "$L_%s_%d" % (what, self.labels)


def element_address(reg, count, base):
    """PTX that leaves in %rd6 the address of word (reg mod count) of the
    array at base (count a power of two)."""
    return ["\tand.b32 \t%%t0, %%r%d, %d;" % (reg, count - 1),
            "\tmul.wide.u32 \t%rd5, %t0, 4;",
            "\tadd.s64 \t%%rd6, %s, %%rd5;" % base]


def emit(stmts, lines, gen, depth):
    """PTX for the statements; depth picks the predicate and loop counter."""
    p = "%%p%d" % depth
    for s in stmts:
        kind = s[0]
        if kind == "op":
            _, op, d, srcs = s
            lines.append("\t%s \t%%r%d, %s;" % (INT_OPS[op][0], d, ", ".join("%%r%d" % x for x in srcs)))
        elif kind == "shift":
            _, op, d, a, k = s
            lines.append("\t%s \t%%r%d, %%r%d, %d;" % (SHIFT_OPS[op][0], d, a, k))
        elif kind == "selp":
            _, d, a, b, x, y = s
            lines.append("\tsetp.lt.u32 \t%s, %%r%d, %%r%d;" % (p, x, y))
            lines.append("\tselp.b32 \t%%r%d, %%r%d, %%r%d, %s;" % (d, a, b, p))
        elif kind == "fop":
            _, op, d, a, b = s
            lines.append("\t%s \t%%f%d, %%f%d, %%f%d;" % (F_OPS[op][0], d, a, b))
        elif kind == "tof":
            _, d, a = s
            lines.append("\tcvt.rn.f32.s32 \t%%f%d, %%r%d;" % (d, a))
        elif kind == "toi":
            _, d, a = s
            lines.append("\tcvt.rzi.s32.f32 \t%%r%d, %%f%d;" % (d, a))
        elif kind == "gload":
            _, d, a = s
            lines += element_address(a, IN_WORDS, "%rd1") + ["\tld.global.u32 \t%%r%d, [%%rd6];" % d]
        elif kind == "red":
            _, a, v = s
            lines += element_address(a, COUNTERS, "%rd3") + ["\tred.global.add.u32 \t[%%rd6], %%r%d;" % v]
        elif kind == "shared":
            _, src, d, k = s
            lines += ["\tst.shared.u32 \t[%%rd7], %%r%d;" % src,
                      "\tbar.sync \t0;",
                      "\tadd.u32 \t%%t0, %%tx, %d;" % k,
                      "\trem.u32 \t%%t0, %%t0, %d;" % gen.block,
                      "\tmul.wide.u32 \t%rd5, %t0, 4;",
                      "\tadd.s64 \t%rd6, %rd4, %rd5;",
                      "\tld.shared.u32 \t%%r%d, [%%rd6];" % d,
                      "\tbar.sync \t0;"]
        elif kind == "shfl":
            _, d, a, mode, k = s
            lines.append("\tshfl.sync.%s.b32 \t%%r%d, %%r%d, %d, 31, -1;" % (mode, d, a, k))
        elif kind == "ballot":
            _, d, a = s
            lines += ["\tand.b32 \t%%t0, %%r%d, 1;" % a,
                      "\tsetp.ne.u32 \t%s, %%t0, 0;" % p,
                      "\tvote.sync.ballot.b32 \t%%r%d, %s, -1;" % (d, p)]
        elif kind == "exit":
            lines.append("\texit;")
        elif kind == "bits":
            _, op, d, a, b, pos, length, lut = s
            if op == "bfe":
                lines.append("\tbfe.u32 \t%%r%d, %%r%d, %d, %d;" % (d, a, pos, length))
            elif op == "bfi":
                lines.append("\tbfi.b32 \t%%r%d, %%r%d, %%r%d, %d, %d;" % (d, a, b, pos, length))
            else:
                lines.append("\tlop3.b32 \t%%r%d, %%r%d, %%r%d, %%r%d, %d;" % (d, a, b, d, lut))
        elif kind == "guarded":
            _, sense, x, y, inner = s
            lines.append("\tsetp.lt.u32 \t%s, %%r%d, %%r%d;" % (p, x, y))
            guarded = []
            emit([inner], guarded, gen, depth)
            lines.append("\t@%s%s %s" % ("" if sense else "!", p, guarded[0].lstrip("\t")))
        elif kind == "narrow":
            _, ty, d, a = s
            lines.append("\tcvt.%s.%s \t%%r%d, %%r%d;" % ("s32" if ty[0] == "s" else "u32", ty, d, a))
        elif kind == "f64":
            _, d, a, b = s
            lines += ["\tcvt.f64.f32 \t%%fd0, %%f%d;" % a, "\tcvt.f64.f32 \t%%fd1, %%f%d;" % b,
                      "\tfma.rn.f64 \t%fd0, %fd0, %fd1, %fd1;", "\tcvt.rn.f32.f64 \t%%f%d, %%fd0;" % d]
        elif kind == "fsqrt":
            _, d, a = s
            lines.append("\tsqrt.rn.f32 \t%%f%d, %%f%d;" % (d, a))
        elif kind == "divrem":
            _, op, d, a, b = s
            lines += ["\tor.b32 \t%%t0, %%r%d, 1;" % b, "\t%s.u32 \t%%r%d, %%r%d, %%t0;" % (op, d, a)]
        elif kind == "local":
            _, i, v, j, d = s
            lines += element_address(i, 16, "%rd9") + ["\tst.local.u32 \t[%%rd6], %%r%d;" % v]
            lines += element_address(j, 16, "%rd9") + ["\tld.local.u32 \t%%r%d, [%%rd6];" % d]
        elif kind == "wide":
            _, d, a, b, k = s
            lines += ["\tmul.wide.u32 \t%%rd5, %%r%d, %%r%d;" % (a, b),
                      "\tshr.u64 \t%%rd5, %%rd5, %d;" % k,
                      "\tcvt.u32.u64 \t%%r%d, %%rd5;" % d]
        elif kind == "if":
            _, x, c, body, other = s
            els, end = gen.label("else"), gen.label("endif")
            lines += ["\tsetp.ge.u32 \t%s, %%r%d, %d;" % (p, x, c), "\t@%s bra \t%s;" % (p, els)]
            emit(body, lines, gen, depth + 1)
            lines += ["\tbra.uni \t%s;" % end, "%s:" % els]
            emit(other, lines, gen, depth + 1)
            lines.append("%s:" % end)
        elif kind == "loop":
            _, x, body = s
            top, end, c = gen.label("loop"), gen.label("endloop"), "%%c%d" % depth
            lines += ["\tand.b32 \t%s, %%r%d, 7;" % (c, x), "%s:" % top,
                      "\tsetp.eq.u32 \t%s, %s, 0;" % (p, c), "\t@%s bra \t%s;" % (p, end)]
            emit(body, lines, gen, depth + 1)
            lines += ["\tsub.u32 \t%s, %s, 1;" % (c, c), "\tbra.uni \t%s;" % top, "%s:" % end]


def kernel_ptx(stmts, gen):
    lines = []
    emit(stmts, lines, gen, 0)
    body = "\n".join(lines)
    stores = []
    for j in range(OUT_WORDS):
        src = "%%r%d" % j if j < NREGS else "%%t%d" % (j - NREGS + 1)
        if j >= NREGS:
            stores.append("\tmov.b32 \t%s, %%f%d;" % (src, j - NREGS))
        stores.append("\t@!%%pn st.global.u32 \t[%%rd8+%d], %s;" % (4 * j, src))
    return """.version 8.0
.target sm_90
.address_size 64

.visible .entry random_kernel(
\t.param .u64 param_in,
\t.param .u64 param_out,
\t.param .u64 param_counters,
\t.param .u32 param_n
)
{
\t.reg .pred \t%%p<8>;
\t.reg .pred \t%%pn;
\t.reg .b32 \t%%r<%d>;
\t.reg .f32 \t%%f<%d>;
\t.reg .b32 \t%%c<4>;
\t.reg .b32 \t%%t<8>;
\t.reg .b32 \t%%tx, %%gid, %%n;
\t.reg .b64 \t%%rd<10>;
\t.reg .f64 \t%%fd<2>;
\t.shared .align 4 .b32 exchange[%d];
\t.local .align 4 .b32 scratch[16];

\tld.param.u64 \t%%rd1, [param_in];
\tld.param.u64 \t%%rd2, [param_out];
\tld.param.u64 \t%%rd3, [param_counters];
\tld.param.u32 \t%%n, [param_n];
\tcvta.to.global.u64 \t%%rd1, %%rd1;
\tcvta.to.global.u64 \t%%rd2, %%rd2;
\tcvta.to.global.u64 \t%%rd3, %%rd3;
\tmov.u32 \t%%tx, %%tid.x;
\tmov.u32 \t%%r2, %%ctaid.x;
\tmov.u32 \t%%t0, %%ntid.x;
\tmad.lo.u32 \t%%gid, %%r2, %%t0, %%tx;
\tsetp.ge.u32 \t%%pn, %%gid, %%n;
\tmov.u64 \t%%rd4, exchange;
\tmul.wide.u32 \t%%rd5, %%tx, 4;
\tadd.s64 \t%%rd7, %%rd4, %%rd5;
\tand.b32 \t%%t0, %%gid, %d;
\tmul.wide.u32 \t%%rd5, %%t0, 4;
\tadd.s64 \t%%rd6, %%rd1, %%rd5;
\tld.global.u32 \t%%r0, [%%rd6];
\tmov.u32 \t%%r1, %%tx;
\tmov.u32 \t%%r3, %%gid;
\tmov.u32 \t%%r4, %%laneid;
\txor.b32 \t%%r5, %%r0, 0x9e3779b9;
\tmul.lo.u32 \t%%r6, %%gid, 2654435761;
\tmov.u32 \t%%r7, 7;
\tand.b32 \t%%t0, %%r0, 4095;
\tcvt.rn.f32.s32 \t%%f0, %%t0;
\tcvt.rn.f32.u32 \t%%f1, %%tx;
\tmov.f32 \t%%f2, 0f3FC00000;
\tmov.f32 \t%%f3, 0fBF200000;
\tmov.u64 \t%%rd9, scratch;
%s
%s
\tmul.wide.u32 \t%%rd5, %%gid, %d;
\tadd.s64 \t%%rd8, %%rd2, %%rd5;
%s
\tret;
}
""" % (NREGS, NFREGS, gen.block, IN_WORDS - 1,
       "\n".join("\tst.local.u32 \t[%%rd9+%d], %%r%d;" % (4 * k, k % NREGS) for k in range(16)),
       body, 4 * OUT_WORDS, "\n".join(stores))


# ---------------------------------------------------------------- the evaluation

class Thread:
    def __init__(self, tx, cta, block, inp):
        gid = cta * block + tx
        self.tx, self.gid = tx, gid
        r0 = inp[gid & (IN_WORDS - 1)]
        self.r = [r0, tx, cta, gid, tx % 32, r0 ^ 0x9E3779B9, (gid * 2654435761) & M32, 7]
        self.f = [f32_bits(float(s32(r0 & 4095))), f32_bits(float(tx)), f32_bits(1.5), f32_bits(-0.625)]
        self.local = [self.r[k % NREGS] for k in range(16)]
        self.exited = False


class Exited(Exception):
    pass


def run_one(t, s, inp, counters):
    """A statement that involves no other thread."""
    kind = s[0]
    if kind == "op":
        _, op, d, srcs = s
        t.r[d] = INT_OPS[op][2](*[t.r[x] for x in srcs])
    elif kind == "shift":
        _, op, d, a, k = s
        t.r[d] = SHIFT_OPS[op][1](t.r[a], k)
    elif kind == "selp":
        _, d, a, b, x, y = s
        t.r[d] = t.r[a] if t.r[x] < t.r[y] else t.r[b]
    elif kind == "fop":
        _, op, d, a, b = s
        t.f[d] = f32_bits(F_OPS[op][1](f32_value(t.f[a]), f32_value(t.f[b])))
    elif kind == "tof":
        _, d, a = s
        t.f[d] = f32_bits(float(s32(t.r[a])))
    elif kind == "toi":
        _, d, a = s
        t.r[d] = cvt_rzi_s32(t.f[a])
    elif kind == "gload":
        _, d, a = s
        t.r[d] = inp[t.r[a] & (IN_WORDS - 1)]
    elif kind == "red":
        _, a, v = s
        k = t.r[a] & (COUNTERS - 1)
        counters[k] = (counters[k] + t.r[v]) & M32
    elif kind == "exit":
        t.exited = True
        raise Exited()
    elif kind == "bits":
        _, op, d, a, b, pos, length, lut = s
        if op == "bfe":
            t.r[d] = (t.r[a] >> pos) & ((1 << length) - 1)
        elif op == "bfi":
            mask = (((1 << length) - 1) << pos) & M32
            t.r[d] = (t.r[b] & ~mask & M32) | ((t.r[a] << pos) & mask)
        else:
            t.r[d] = lop3(t.r[a], t.r[b], t.r[d], lut)
    elif kind == "guarded":
        _, sense, x, y, inner = s
        if (t.r[x] < t.r[y]) == sense:
            run_one(t, inner, inp, counters)
    elif kind == "narrow":
        _, ty, d, a = s
        bits = 8 if ty == "s8" else 16
        v = t.r[a] & ((1 << bits) - 1)
        if ty[0] == "s" and v >> (bits - 1):
            v -= 1 << bits
        t.r[d] = v & M32
    elif kind == "f64":
        _, d, a, b = s
        x, y = f32_value(t.f[a]), f32_value(t.f[b])
        if y != y or x != x:
            # fma.f64 returns its first NaN operand of b, c, a, quieted; the
            # conversions keep its sign and (truncated) payload
            t.f[d] = (t.f[b] if y != y else t.f[a]) | 0x00400000
        else:
            # a product of two f32 is exact in f64, so fma = one rounding of
            # x * y + y; an invalid one (0 * inf, inf - inf) gives f64's
            # default NaN, sign set, which converts to 0xFFC00000
            r = x * y + y
            t.f[d] = 0xFFC00000 if r != r else f32_bits(r)
    elif kind == "fsqrt":
        _, d, a = s
        t.f[d] = f32_bits(f32_sqrt(f32_value(t.f[a])))
    elif kind == "divrem":
        _, op, d, a, b = s
        q = t.r[b] | 1
        t.r[d] = t.r[a] // q if op == "div" else t.r[a] % q
    elif kind == "local":
        _, i, v, j, d = s
        t.local[t.r[i] & 15] = t.r[v]
        t.r[d] = t.local[t.r[j] & 15]
    elif kind == "wide":
        _, d, a, b, k = s
        t.r[d] = ((t.r[a] * t.r[b]) >> k) & M32
    elif kind == "if":
        _, x, c, body, other = s
        for b in (other if t.r[x] >= c else body):
            run_one(t, b, inp, counters)
    elif kind == "loop":
        _, x, body = s
        for _ in range(t.r[x] & 7):
            for b in body:
                run_one(t, b, inp, counters)
    else:
        raise AssertionError(kind)


def evaluate(stmts, grid, block, n, inp):
    out = [0] * (grid * block * OUT_WORDS)
    counters = [0] * COUNTERS
    for cta in range(grid):
        threads = [Thread(tx, cta, block, inp) for tx in range(block)]
        for s in stmts:
            if s[0] == "shared":
                _, src, d, k = s
                vals = [t.r[src] for t in threads]
                for t in threads:
                    t.r[d] = vals[(t.tx + k) % block]
            elif s[0] == "ballot":
                _, d, a = s
                for w in range(0, block, 32):
                    ballot = sum(1 << k for k in range(32) if threads[w + k].r[a] & 1)
                    for k in range(32):
                        threads[w + k].r[d] = ballot
            elif s[0] == "shfl":
                _, d, a, mode, k = s
                vals = [t.r[a] for t in threads]
                for t in threads:
                    lane = t.tx % 32
                    t.r[d] = vals[t.tx - lane + (lane ^ k if mode == "bfly" else k)]
            else:
                for t in threads:
                    if not t.exited:
                        try:
                            run_one(t, s, inp, counters)
                        except Exited:
                            pass
        for t in threads:
            if t.gid < n and not t.exited:
                out[t.gid * OUT_WORDS:(t.gid + 1) * OUT_WORDS] = t.r + t.f
    return out, counters


# ---------------------------------------------------------------- running warpsim

MODES = [
    ("functional-t1", ["--functional", "--threads", "1"]),
    ("functional-t2", ["--functional", "--threads", "2"]),
    ("h200-t1", ["--threads", "1"]),
    ("h200-t2", ["--threads", "2"]),
    ("h200-lockstep", ["--lockstep"]),
    ("8800gtx-t1", ["--config", "8800gtx", "--threads", "1"]),
    ("8800gtx-t2", ["--config", "8800gtx", "--threads", "2"]),
    ("8800gtx-lockstep", ["--config", "8800gtx", "--lockstep"]),
]


def words(path):
    with open(path, "rb") as f:
        data = f.read()
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def check_kernel(warpsim, seed, folder):
    """Returns a list of problems (empty: all modes agree with the evaluation)."""
    rng = random.Random(seed)
    block = rng.choice([32, 64, 96, 128, 256, 48, 100])
    grid = rng.randrange(1, 24)
    n = grid * block - rng.choice([0, 0, 1, 17])
    gen = Gen(rng, block)
    stmts = gen.statements(0, rng.randrange(6, 30), True)
    inp = [rng.randrange(1 << 32) for _ in range(IN_WORDS)]
    with open(os.path.join(folder, "kernel.ptx"), "w") as f:
        f.write(kernel_ptx(stmts, gen))
    with open(os.path.join(folder, "in.bin"), "wb") as f:
        f.write(struct.pack("<%dI" % IN_WORDS, *inp))
    manifest = {
        "name": "random_%d" % seed, "ptx": "kernel.ptx", "kernel": "random_kernel",
        "grid": [grid], "block": [block],
        "args": [{"buffer": "in"}, {"buffer": "out"}, {"buffer": "counters"}, {"u32": n}],
        "buffers": {"in": {"type": "u32", "count": IN_WORDS, "init": {"kind": "file", "path": "in.bin"}},
                    "out": {"type": "u32", "count": grid * block * OUT_WORDS, "init": {"kind": "zeros"}},
                    "counters": {"type": "u32", "count": COUNTERS, "init": {"kind": "zeros"}}},
    }
    path = os.path.join(folder, "launch.json")
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1)
    want_out, want_counters = evaluate(stmts, grid, block, n, inp)
    problems, metrics = [], {}
    for name, options in MODES:
        dump, report = os.path.join(folder, name), os.path.join(folder, name + ".json")
        cmd = [warpsim, "run", "--quiet", "--dump", dump, "--json", report, *options, path]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            problems.append("%s: no answer in 120 s" % name)
            continue
        if proc.returncode != 0:
            problems.append("%s: exit %d: %s" % (name, proc.returncode, proc.stderr.strip()[-400:]))
            continue
        for buf, want in (("out", want_out), ("counters", want_counters)):
            got = words(os.path.join(dump, buf + ".bin"))
            bad = [i for i in range(len(want)) if got[i] != want[i]]
            if bad:
                i = bad[0]
                what = "thread %d word %d" % (i // OUT_WORDS, i % OUT_WORDS) if buf == "out" else "counter %d" % i
                problems.append("%s: %s differs in %d words; first %s: 0x%08x, want 0x%08x"
                                % (name, buf, len(bad), what, got[i], want[i]))
        with open(report) as f:
            launches = json.load(f)["launches"]
        for l in launches:
            l.pop("host", None)
        metrics[name] = launches
    for gpu in ("h200", "8800gtx"):
        runs = [m for m in metrics if m.startswith(gpu)]
        for other in runs[1:]:
            if metrics[other] != metrics[runs[0]]:
                problems.append("%s: metrics differ from %s's" % (other, runs[0]))
    if "functional-t1" in metrics and "h200-t1" in metrics:
        a = metrics["functional-t1"][0]["metrics"]["smsp__inst_executed.sum"]
        b = metrics["h200-t1"][0]["metrics"]["smsp__inst_executed.sum"]
        if a != b:
            problems.append("instructions: functional %d, timing %d" % (a, b))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--warpsim", required=True)
    ap.add_argument("--count", type=int, default=20, help="kernels (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="the first kernel's seed; the others follow")
    ap.add_argument("--keep", help="keep every kernel's folder under this one")
    args = ap.parse_args()
    warpsim = os.path.abspath(args.warpsim)
    failed = 0
    for seed in range(args.seed, args.seed + args.count):
        folder = tempfile.mkdtemp(prefix="random-kernel-%d-" % seed)
        problems = check_kernel(warpsim, seed, folder)
        if args.keep:
            dest = os.path.join(args.keep, "seed_%d" % seed)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(folder, dest)
        if problems:
            failed += 1
            print("seed %d: FAIL (kept in %s)" % (seed, folder))
            for p in problems:
                print("  " + p)
        else:
            print("seed %d: ok" % seed)
            shutil.rmtree(folder)
    print("%d of %d kernels agree in every mode" % (args.count - failed, args.count))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
