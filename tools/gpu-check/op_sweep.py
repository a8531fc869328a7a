#!/usr/bin/env python3
"""op_sweep.py — one small kernel per PTX instruction form, over edge-case operands.

  op_sweep.py OUT [NAME...]     write OUT/<name>/launch.json, kernel.ptx and inputs

Each kernel runs one instruction form for every combination of its operand
tables (zeros, signs, infinities, NaNs with several payloads, denormals,
shift counts and bit positions past the width, INT_MIN and -1, ...), one
thread per combination, and stores the result's bits.  Run the folders on a
GPU with gpucheck.py (prepare, gpu_run, compare) and in warpsim with
`warpsim run --dump`: every buffer is raw bits (u32 or u64), so the
comparison is bit for bit.  Forms with immediate operands (bfe, bfi, shf)
run one instruction per immediate instead, each thread on its own operand
values.  random_kernels.py checks the executor against its own evaluation;
this checks the evaluation's source, the PTX semantics as a GPU has them.
"""
import itertools, json, os, random, struct, sys

F32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fffffff,
       0xffc00000, 0x7f800001, 0xff812345, 0x00000001, 0x807fffff, 0x7f7fffff, 0x4b800001, 0x40490fdb]
F64 = [0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
       0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7fffffffffffffff,
       0xfff8000000000000, 0x7ff0000000000001, 0xfff0000123456789, 0x0000000000000001,
       0x7fefffffffffffff, 0x47efffffe0000000, 0x3810000000000000, 0x400921fb54442d18]
rng = random.Random(1)
I32 = [0, 1, 2, 7, 31, 32, 33, 63, 64, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe,
       0x80000001] + [rng.randrange(1 << 32) for _ in range(8)]
I64 = [0, 1, 63, 64, 65, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 0xfffffffffffffffe,
       0x00000000ffffffff, 0x0000000100000000] + [rng.randrange(1 << 64) for _ in range(5)]
POS = [0, 1, 5, 16, 31, 32, 33, 40, 63, 64, 200, 255, 256, 0x10001, 0xffffffff]
SEL = [0x3210, 0x7654, 0x0123, 0x4444, 0x8888, 0xba98, 0xfedc, 0x1234567f, 0x5, 0xfffff0f0]

# name: (instruction with %d and operands %a %b %c %e, operand types, operand tables, result type)
FORMS = {
    'add_f32': ('add.rn.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'sub_f32': ('sub.rn.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'mul_f32': ('mul.rn.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'fma_f32': ('fma.rn.f32', ['f32', 'f32', 'f32'], [F32, F32, F32], 'f32'),
    'div_rn_f32': ('div.rn.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'div_full_f32': ('div.full.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'sqrt_rn_f32': ('sqrt.rn.f32', ['f32'], [F32], 'f32'),
    'min_f32': ('min.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'max_f32': ('max.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'abs_f32': ('abs.f32', ['f32'], [F32], 'f32'),
    'neg_f32': ('neg.f32', ['f32'], [F32], 'f32'),
    'cvt_f64_f32': ('cvt.f64.f32', ['f32'], [F32], 'f64'),
    'cvt_rzi_s32_f32': ('cvt.rzi.s32.f32', ['f32'], [F32], 's32'),
    'cvt_rni_s32_f32': ('cvt.rni.s32.f32', ['f32'], [F32], 's32'),
    'cvt_rzi_u32_f32': ('cvt.rzi.u32.f32', ['f32'], [F32], 'u32'),
    'cvt_rn_f32_s32': ('cvt.rn.f32.s32', ['s32'], [I32], 'f32'),
    'add_f64': ('add.rn.f64', ['f64', 'f64'], [F64, F64], 'f64'),
    'mul_f64': ('mul.rn.f64', ['f64', 'f64'], [F64, F64], 'f64'),
    'fma_f64': ('fma.rn.f64', ['f64', 'f64', 'f64'], [F64, F64, F64], 'f64'),
    'sub_f64': ('sub.rn.f64', ['f64', 'f64'], [F64, F64], 'f64'),
    'neg_f64': ('neg.f64', ['f64'], [F64], 'f64'),
    'abs_f64': ('abs.f64', ['f64'], [F64], 'f64'),
    'rcp_rn_f64': ('rcp.rn.f64', ['f64'], [F64], 'f64'),
    'div_rn_f64': ('div.rn.f64', ['f64', 'f64'], [F64, F64], 'f64'),
    'sqrt_rn_f64': ('sqrt.rn.f64', ['f64'], [F64], 'f64'),
    'min_f64': ('min.f64', ['f64', 'f64'], [F64, F64], 'f64'),
    'max_f64': ('max.f64', ['f64', 'f64'], [F64, F64], 'f64'),
    'cvt_rn_f32_f64': ('cvt.rn.f32.f64', ['f64'], [F64], 'f32'),
    'cvt_rzi_s32_f64': ('cvt.rzi.s32.f64', ['f64'], [F64], 's32'),
    'shl_b32': ('shl.b32', ['b32', 'u32'], [I32, POS], 'b32'),
    'shr_u32': ('shr.u32', ['u32', 'u32'], [I32, POS], 'u32'),
    'shr_s32': ('shr.s32', ['s32', 'u32'], [I32, POS], 's32'),
    'shf_l_wrap': ('shf.l.wrap.b32', ['b32', 'b32', 'u32'], [I32[:12], I32[:12], POS], 'b32'),
    'shf_r_wrap': ('shf.r.wrap.b32', ['b32', 'b32', 'u32'], [I32[:12], I32[:12], POS], 'b32'),
    'shf_l_clamp': ('shf.l.clamp.b32', ['b32', 'b32', 'u32'], [I32[:12], I32[:12], POS], 'b32'),
    'shf_r_clamp': ('shf.r.clamp.b32', ['b32', 'b32', 'u32'], [I32[:12], I32[:12], POS], 'b32'),
    'bfe_u32': ('bfe.u32', ['u32', 'u32', 'u32'], [I32[:12], POS, POS], 'u32'),
    'bfe_s32': ('bfe.s32', ['s32', 'u32', 'u32'], [I32[:12], POS, POS], 's32'),
    'bfi_b32': ('bfi.b32', ['b32', 'b32', 'u32', 'u32'], [I32[:8], I32[8:16], POS, POS], 'b32'),
    'prmt_b32': ('prmt.b32', ['b32', 'b32', 'b32'], [I32[8:14], I32[14:20], SEL], 'b32'),
    'div_u32': ('div.u32', ['u32', 'u32'], [I32, I32], 'u32'),
    'div_s32': ('div.s32', ['s32', 's32'], [I32, I32], 's32'),
    'rem_u32': ('rem.u32', ['u32', 'u32'], [I32, I32], 'u32'),
    'rem_s32': ('rem.s32', ['s32', 's32'], [I32, I32], 's32'),
    'mul_hi_s32': ('mul.hi.s32', ['s32', 's32'], [I32, I32], 's32'),
    'mul24_lo_s32': ('mul24.lo.s32', ['s32', 's32'], [I32, I32], 's32'),
    'mul24_hi_s32': ('mul24.hi.s32', ['s32', 's32'], [I32, I32], 's32'),
    'mul24_hi_u32': ('mul24.hi.u32', ['u32', 'u32'], [I32, I32], 'u32'),
    'sad_s32': ('sad.s32', ['s32', 's32', 's32'], [I32[:16], I32[:16], I32[:8]], 's32'),
    'abs_s32': ('abs.s32', ['s32'], [I32], 's32'),
    'clz_b32': ('clz.b32', ['b32'], [I32], 'u32'),
    'bfind_s32': ('bfind.s32', ['s32'], [I32], 'u32'),
    'bfind_shiftamt_u32': ('bfind.shiftamt.u32', ['u32'], [I32], 'u32'),
    'cvt_sat_s8_s32': ('cvt.sat.s8.s32', ['s32'], [I32], 's32'),
    'cvt_sat_u16_s32': ('cvt.sat.u16.s32', ['s32'], [I32], 'u32'),
    'cvt_s16_u32': ('cvt.s16.u32', ['u32'], [I32], 's32'),
    'add_sat_s32': ('add.sat.s32', ['s32', 's32'], [I32, I32], 's32'),
    'sub_sat_s32': ('sub.sat.s32', ['s32', 's32'], [I32, I32], 's32'),
    'copysign_f32': ('copysign.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'copysign_f64': ('copysign.f64', ['f64', 'f64'], [F64, F64], 'f64'),
    'min_nan_f32': ('min.NaN.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'max_nan_f32': ('max.NaN.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'cvt_rni_f32_f32': ('cvt.rni.f32.f32', ['f32'], [F32], 'f32'),
    'cvt_sat_f32_f32': ('cvt.sat.f32.f32', ['f32'], [F32], 'f32'),
    'add_sat_f32': ('add.sat.f32', ['f32', 'f32'], [F32, F32], 'f32'),
    'fma_ftz_f32': ('fma.rn.ftz.f32', ['f32', 'f32', 'f32'], [F32, F32, F32], 'f32'),
    'shl_b64': ('shl.b64', ['b64', 'u32'], [I64, POS], 'b64'),
    'shr_u64': ('shr.u64', ['u64', 'u32'], [I64, POS], 'u64'),
    'shr_s64': ('shr.s64', ['s64', 'u32'], [I64, POS], 's64'),
    'bfe_u64': ('bfe.u64', ['u64', 'u32', 'u32'], [I64, POS, POS], 'u64'),
    'bfe_s64': ('bfe.s64', ['s64', 'u32', 'u32'], [I64, POS, POS], 's64'),
    'bfi_b64': ('bfi.b64', ['b64', 'b64', 'u32', 'u32'], [I64[:6], I64[6:12], POS, POS], 'b64'),
    'popc_b64': ('popc.b64', ['b64'], [I64], 'u32'),
    'clz_b64': ('clz.b64', ['b64'], [I64], 'u32'),
    'brev_b64': ('brev.b64', ['b64'], [I64], 'b64'),
    'mul_hi_s64': ('mul.hi.s64', ['s64', 's64'], [I64, I64], 's64'),
    'div_s64': ('div.s64', ['s64', 's64'], [I64, I64], 's64'),
    'rem_s64': ('rem.s64', ['s64', 's64'], [I64, I64], 's64'),
    'cvt_rzi_s64_f64': ('cvt.rzi.s64.f64', ['f64'], [F64], 's64'),
    'cvt_rn_f32_s64': ('cvt.rn.f32.s64', ['s64'], [I64], 'f32'),
}
# immediate forms: one instruction per immediate tuple, over the operand values
IMM_FORMS = {
    'bfe_u32_imm': ('bfe.u32', ['u32'], [(p, l) for p in range(34) for l in range(34)], 'u32'),
    'bfe_s32_imm': ('bfe.s32', ['s32'], [(p, l) for p in range(34) for l in range(34)], 's32'),
    'bfi_b32_imm': ('bfi.b32', ['b32', 'b32'], [(p, l) for p in range(34) for l in range(34)], 'b32'),
    'shf_l_wrap_imm': ('shf.l.wrap.b32', ['b32', 'b32'], [(s,) for s in range(70)], 'b32'),
    'shf_r_clamp_imm': ('shf.r.clamp.b32', ['b32', 'b32'], [(s,) for s in range(70)], 'b32'),
}

BITS = {'f32': 32, 's32': 32, 'u32': 32, 'b32': 32, 'f64': 64, 'b64': 64, 'u64': 64, 's64': 64}
HEAD = '.version 8.0\n.target sm_90\n.address_size 64\n\n'


def reg(t):
    return '.b64' if BITS[t] == 64 else '.b32'


def loads(types):
    """PTX that loads operand i of this thread into %o<i>, and the thread index checks."""
    params = ', '.join('.param .u64 p%d' % i for i in range(len(types)))
    lines = ['.visible .entry sweep(%s, .param .u64 pout, .param .u32 pn)' % params, '{',
             '\t.reg .pred %p;', '\t.reg .b32 %xtid, %xntid, %xctaid, %gid, %n;', '\t.reg .b64 %base, %addr;']
    lines += ['\t.reg %s %%o%d;' % (reg(t), i) for i, t in enumerate(types)]
    lines += ['\tmov.u32 %xtid, %tid.x;', '\tmov.u32 %xntid, %ntid.x;', '\tmov.u32 %xctaid, %ctaid.x;',
              '\tmad.lo.u32 %gid, %xctaid, %xntid, %xtid;', '\tld.param.u32 %n, [pn];',
              '\tsetp.ge.u32 %p, %gid, %n;', '\t@%p bra DONE;']
    for i, t in enumerate(types):
        size = BITS[t] // 8
        lines += ['\tld.param.u64 %%base, [p%d];' % i, '\tcvta.to.global.u64 %base, %base;',
                  '\tmul.wide.u32 %%addr, %%gid, %d;' % size, '\tadd.s64 %addr, %base, %addr;',
                  '\tld.global.b%d %%o%d, [%%addr];' % (BITS[t], i)]
    return lines


def store(res_t, value, index):
    size = BITS[res_t] // 8
    return ['\tld.param.u64 %base, [pout];', '\tcvta.to.global.u64 %base, %base;',
            '\tmul.wide.u32 %%addr, %s, %d;' % (index, size), '\tadd.s64 %addr, %base, %addr;',
            '\tst.global.b%d [%%addr], %s;' % (BITS[res_t], value)]


def write_case(out, name, ptx, columns, col_types, n, out_count, res_t):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'kernel.ptx'), 'w') as f:
        f.write(ptx)
    buffers, args = {}, []
    for i, (col, t) in enumerate(zip(columns, col_types)):
        fmt = '<%d%s' % (len(col), 'Q' if BITS[t] == 64 else 'I')
        with open(os.path.join(d, 'in%d.bin' % i), 'wb') as f:
            f.write(struct.pack(fmt, *col))
        buffers['in%d' % i] = {'type': 'u64' if BITS[t] == 64 else 'u32', 'count': len(col),
                               'init': {'kind': 'file', 'path': 'in%d.bin' % i}}
        args.append({'buffer': 'in%d' % i})
    buffers['out'] = {'type': 'u64' if BITS[res_t] == 64 else 'u32', 'count': out_count, 'init': {'kind': 'zeros'}}
    args += [{'buffer': 'out'}, {'u32': n}]
    block = 256
    man = {'name': 'sweep_' + name, 'ptx': 'kernel.ptx', 'kernel': 'sweep', 'grid': [(n + block - 1) // block],
           'block': [block], 'args': args, 'buffers': buffers}
    with open(os.path.join(d, 'launch.json'), 'w') as f:
        json.dump(man, f, indent=1)


def register_form(out, name, insn, types, tables, res_t):
    combos = list(itertools.product(*tables))
    columns = [[c[i] for c in combos] for i in range(len(types))]
    lines = loads(types)
    lines.append('\t.reg %s %%r;' % reg(res_t))
    ops = ', '.join('%%o%d' % i for i in range(len(types)))
    lines.append('\t%s %%r, %s;' % (insn, ops))
    lines += store(res_t, '%r', '%gid')
    lines += ['DONE:', '\tret;', '}', '']
    write_case(out, name, HEAD + '\n'.join(lines), columns, types, len(combos), len(combos), res_t)


def immediate_form(out, name, insn, types, imms, res_t):
    n = len(I32)
    columns = [I32[i % n:] + I32[:i % n] for i in range(len(types))]  # each operand its own order
    lines = loads(types)
    lines += ['\t.reg %s %%r;' % reg(res_t), '\t.reg .b32 %k;']
    ops = ', '.join('%%o%d' % i for i in range(len(types)))
    for k, imm in enumerate(imms):
        lines.append('\t%s %%r, %s, %s;' % (insn, ops, ', '.join(str(v) for v in imm)))
        lines.append('\tmad.lo.u32 %%k, %d, %%n, %%gid;' % k)
        lines += store(res_t, '%r', '%k')
    lines += ['DONE:', '\tret;', '}', '']
    write_case(out, name, HEAD + '\n'.join(lines), columns, types, n, n * len(imms), res_t)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out, names = sys.argv[1], sys.argv[2:] or list(FORMS) + list(IMM_FORMS)
    for name in names:
        if name in FORMS:
            register_form(out, name, *FORMS[name])
        elif name in IMM_FORMS:
            immediate_form(out, name, *IMM_FORMS[name])
        else:
            sys.exit('unknown form %s' % name)


if __name__ == '__main__':
    main()
