#!/usr/bin/env python3
"""op_sweep.py — one small kernel per PTX instruction form, over edge-case operands.

  op_sweep.py OUT [NAME...]     write OUT/<name>/launch.json, kernel.ptx and inputs

Each kernel runs one instruction form (or a short sequence: SEQ_FORMS) for
every combination of its operand
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
# 16-bit floats as bits: zeros, ones, infinities, quiet and signalling NaNs,
# the smallest subnormal, the largest subnormal and finite, 1/3, pi, -2;
# pairs (f16x2, bf16x2) put the list's values against its reverse
H16 = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x0001, 0x03FF, 0x7BFF, 0x3555,
       0x4248, 0xC000]
BF16 = [0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x0001, 0x007F, 0x7F7F, 0x3EAB,
        0x4049, 0xC000]
H2 = [lo | hi << 16 for lo, hi in zip(H16, reversed(H16))]
BF2 = [lo | hi << 16 for lo, hi in zip(BF16, reversed(BF16))]

# name: (PTX lines with {o0}.. {r}, operand types, operand tables, result type);
# temporaries %t0-3 (.b32), %u0-3 (.b64), %h0-3 (.b16), %q0-3 (.pred).
# Sequences: what one instruction cannot show (the carry flag read by the
# other kind of instruction, predicates, 16-bit results).
SEQ_FORMS = {
    'sub_cc_addc': (['sub.cc.u32 %t0, {o0}, {o1};', 'addc.u32 {r}, 0, 0;'], ['u32', 'u32'], [I32, I32], 'u32'),
    'add_cc_subc': (['add.cc.u32 %t0, {o0}, {o1};', 'subc.u32 {r}, 0, 0;'], ['u32', 'u32'], [I32, I32], 'u32'),
    'sub_cc_subc': (['sub.cc.u32 %t0, {o0}, {o1};', 'subc.u32 {r}, {o1}, {o0};'], ['u32', 'u32'], [I32, I32], 'u32'),
    'subc_cc_addc': (['sub.cc.u32 %t0, {o0}, {o1};', 'subc.cc.u32 %t1, {o1}, {o0};', 'addc.u32 {r}, %t1, 0;'],
                     ['u32', 'u32'], [I32, I32], 'u32'),
    'addc_cc_subc': (['add.cc.u32 %t0, {o0}, {o1};', 'addc.cc.u32 %t1, {o0}, {o1};', 'subc.u32 {r}, %t1, 0;'],
                     ['u32', 'u32'], [I32, I32], 'u32'),
    'mad_cc_madc': (['mad.lo.cc.u32 %t0, {o0}, {o1}, {o0};', 'madc.hi.u32 {r}, {o0}, {o1}, {o1};'],
                    ['u32', 'u32'], [I32, I32], 'u32'),
    'sub_cc_subc_u64': (['sub.cc.u64 %u0, {o0}, {o1};', 'subc.u64 {r}, {o1}, 0;'], ['u64', 'u64'], [I64, I64], 'u64'),
    'add_cc_addc_u64': (['add.cc.u64 %u0, {o0}, {o1};', 'addc.u64 {r}, 0, 0;'], ['u64', 'u64'], [I64, I64], 'u64'),
    'cvt_rn_f16_f32': (['cvt.rn.f16.f32 %h0, {o0};', 'cvt.u32.u16 {r}, %h0;'], ['f32'], [F32], 'u32'),
    'cvt_rz_f16_f32': (['cvt.rz.f16.f32 %h0, {o0};', 'cvt.u32.u16 {r}, %h0;'], ['f32'], [F32], 'u32'),
    'cvt_rm_f16_f32': (['cvt.rm.f16.f32 %h0, {o0};', 'cvt.u32.u16 {r}, %h0;'], ['f32'], [F32], 'u32'),
    'cvt_rn_bf16_f32': (['cvt.rn.bf16.f32 %h0, {o0};', 'cvt.u32.u16 {r}, %h0;'], ['f32'], [F32], 'u32'),
    'cvt_f32_f16': (['cvt.u16.u32 %h0, {o0};', 'cvt.f32.f16 {r}, %h0;'], ['u32'], [H16], 'f32'),
    'cvt_f32_bf16': (['cvt.u16.u32 %h0, {o0};', 'cvt.f32.bf16 {r}, %h0;'], ['u32'], [BF16], 'f32'),
    'cvt_f64_f16': (['cvt.u16.u32 %h0, {o0};', 'cvt.f64.f16 {r}, %h0;'], ['u32'], [H16], 'f64'),
    'cvt_rn_f16_f64': (['cvt.rn.f16.f64 %h0, {o0};', 'cvt.u32.u16 {r}, %h0;'], ['f64'], [F64], 'u32'),
    'cvt_rzi_s32_f16': (['cvt.u16.u32 %h0, {o0};', 'cvt.rzi.s32.f16 {r}, %h0;'], ['u32'], [H16], 's32'),
    'cvt_rn_f16_s32': (['cvt.rn.f16.s32 %h0, {o0};', 'cvt.u32.u16 {r}, %h0;'], ['s32'], [I32], 'u32'),
    'neg_f16': (['cvt.u16.u32 %h0, {o0};', 'neg.f16 %h1, %h0;', 'cvt.u32.u16 {r}, %h1;'], ['u32'], [H16], 'u32'),
    'abs_bf16': (['cvt.u16.u32 %h0, {o0};', 'abs.bf16 %h1, %h0;', 'cvt.u32.u16 {r}, %h1;'], ['u32'], [BF16], 'u32'),
}
for _c in ['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal']:
    SEQ_FORMS['testp_%s_f32' % _c] = (['testp.%s.f32 %%q0, {o0};' % _c, 'selp.u32 {r}, 1, 0, %q0;'], ['f32'], [F32], 'u32')
    SEQ_FORMS['testp_%s_f64' % _c] = (['testp.%s.f64 %%q0, {o0};' % _c, 'selp.u32 {r}, 1, 0, %q0;'], ['f64'], [F64], 'u32')
for _c in ['lt', 'ne', 'ltu', 'equ', 'neu', 'geu', 'nan', 'num']:
    SEQ_FORMS['setp_%s_f32' % _c] = (['setp.%s.f32 %%q0, {o0}, {o1};' % _c, 'selp.u32 {r}, 1, 0, %q0;'],
                                     ['f32', 'f32'], [F32, F32], 'u32')
    SEQ_FORMS['setp_%s_f16x2' % _c] = (['setp.%s.f16x2 %%q0|%%q1, {o0}, {o1};' % _c, 'selp.u32 %t0, 1, 0, %q0;',
                                        'selp.u32 %t1, 2, 0, %q1;', 'or.b32 {r}, %t0, %t1;'],
                                       ['b32', 'b32'], [H2, H2], 'u32')
for _op in ['add', 'sub', 'mul']:
    FORMS['%s_f16x2' % _op] = ('%s.rn.f16x2' % _op, ['b32', 'b32'], [H2, H2], 'b32')
    FORMS['%s_bf16x2' % _op] = ('%s.rn.bf16x2' % _op, ['b32', 'b32'], [BF2, BF2], 'b32')
    FORMS['%s_ftz_f16x2' % _op] = ('%s.rn.ftz.f16x2' % _op, ['b32', 'b32'], [H2, H2], 'b32')
FORMS.update({
    'fma_f16x2': ('fma.rn.f16x2', ['b32', 'b32', 'b32'], [H2, H2, H2], 'b32'),
    'fma_relu_f16x2': ('fma.rn.relu.f16x2', ['b32', 'b32', 'b32'], [H2, H2, H2], 'b32'),
    'fma_sat_f16x2': ('fma.rn.sat.f16x2', ['b32', 'b32', 'b32'], [H2, H2, H2], 'b32'),
    'fma_bf16x2': ('fma.rn.bf16x2', ['b32', 'b32', 'b32'], [BF2, BF2, BF2], 'b32'),
    'min_f16x2': ('min.f16x2', ['b32', 'b32'], [H2, H2], 'b32'),
    'max_f16x2': ('max.f16x2', ['b32', 'b32'], [H2, H2], 'b32'),
    'min_nan_f16x2': ('min.NaN.f16x2', ['b32', 'b32'], [H2, H2], 'b32'),
    'min_bf16x2': ('min.bf16x2', ['b32', 'b32'], [BF2, BF2], 'b32'),
    'max_bf16x2': ('max.bf16x2', ['b32', 'b32'], [BF2, BF2], 'b32'),
    'neg_f16x2': ('neg.f16x2', ['b32'], [H2], 'b32'),
    'abs_f16x2': ('abs.f16x2', ['b32'], [H2], 'b32'),
    'neg_bf16x2': ('neg.bf16x2', ['b32'], [BF2], 'b32'),
    'cvt_rn_f16x2_f32': ('cvt.rn.f16x2.f32', ['f32', 'f32'], [F32, F32], 'b32'),
    'cvt_rn_relu_f16x2_f32': ('cvt.rn.relu.f16x2.f32', ['f32', 'f32'], [F32, F32], 'b32'),
    'cvt_rn_bf16x2_f32': ('cvt.rn.bf16x2.f32', ['f32', 'f32'], [F32, F32], 'b32'),
    'cvt_rna_tf32_f32': ('cvt.rna.tf32.f32', ['f32'], [F32], 'b32'),
    'dp4a_s32': ('dp4a.s32.s32', ['s32', 's32', 's32'], [I32[:14], I32[:14], I32[:8]], 's32'),
    'dp4a_u32': ('dp4a.u32.u32', ['u32', 'u32', 'u32'], [I32[:14], I32[:14], I32[:8]], 'u32'),
    'dp4a_us': ('dp4a.u32.s32', ['u32', 's32', 'u32'], [I32[:14], I32[:14], I32[:8]], 'u32'),
    'dp2a_lo': ('dp2a.lo.s32.s32', ['s32', 's32', 's32'], [I32[:14], I32[:14], I32[:8]], 's32'),
    'dp2a_hi': ('dp2a.hi.u32.u32', ['u32', 'u32', 'u32'], [I32[:14], I32[:14], I32[:8]], 'u32'),
    'mul_wide_s32': ('mul.wide.s32', ['s32', 's32'], [I32, I32], 's64'),
    'mul_wide_u32': ('mul.wide.u32', ['u32', 'u32'], [I32, I32], 'u64'),
    'mad_hi_u32': ('mad.hi.u32', ['u32', 'u32', 'u32'], [I32[:16], I32[:16], I32[:8]], 'u32'),
    'mad_hi_sat_s32': ('mad.hi.sat.s32', ['s32', 's32', 's32'], [I32[:16], I32[:16], I32[:8]], 's32'),
    'slct_s32_f32': ('slct.s32.f32', ['s32', 's32', 'f32'], [I32[:6], I32[6:12], F32], 's32'),
    'bmsk_clamp': ('bmsk.clamp.b32', ['u32', 'u32'], [POS, POS], 'b32'),
    'bmsk_wrap': ('bmsk.wrap.b32', ['u32', 'u32'], [POS, POS], 'b32'),
    'szext_clamp_s32': ('szext.clamp.s32', ['s32', 'u32'], [I32, POS], 's32'),
    'szext_wrap_u32': ('szext.wrap.u32', ['u32', 'u32'], [I32, POS], 'u32'),
    'cvt_rni_s64_f32': ('cvt.rni.s64.f32', ['f32'], [F32], 's64'),
    'cvt_rzi_u64_f64': ('cvt.rzi.u64.f64', ['f64'], [F64], 'u64'),
    'cvt_rn_f64_u64': ('cvt.rn.f64.u64', ['u64'], [I64], 'f64'),
    'cvt_rz_f32_f64': ('cvt.rz.f32.f64', ['f64'], [F64], 'f32'),
    'cvt_rp_f32_s32': ('cvt.rp.f32.s32', ['s32'], [I32], 'f32'),
    'cvt_rmi_f32_f32': ('cvt.rmi.f32.f32', ['f32'], [F32], 'f32'),
    'cvt_rpi_f64_f64': ('cvt.rpi.f64.f64', ['f64'], [F64], 'f64'),
    'cvt_rn_f32_u64': ('cvt.rn.f32.u64', ['u64'], [I64], 'f32'),
    'tanh_approx_f32': ('tanh.approx.f32', ['f32'], [F32], 'f32'),
})
for _m in ['f4e', 'b4e', 'rc8', 'ecl', 'ecr', 'rc16']:
    FORMS['prmt_%s' % _m] = ('prmt.b32.%s' % _m, ['b32', 'b32', 'b32'], [I32[8:14], I32[14:20], SEL], 'b32')

# immediate forms: one instruction per immediate tuple, over the operand values
IMM_FORMS = {
    'bfe_u32_imm': ('bfe.u32', ['u32'], [(p, l) for p in range(34) for l in range(34)], 'u32'),
    'bfe_s32_imm': ('bfe.s32', ['s32'], [(p, l) for p in range(34) for l in range(34)], 's32'),
    'bfi_b32_imm': ('bfi.b32', ['b32', 'b32'], [(p, l) for p in range(34) for l in range(34)], 'b32'),
    'shf_l_wrap_imm': ('shf.l.wrap.b32', ['b32', 'b32'], [(s,) for s in range(70)], 'b32'),
    'shf_r_clamp_imm': ('shf.r.clamp.b32', ['b32', 'b32'], [(s,) for s in range(70)], 'b32'),
    'lop3_imm': ('lop3.b32', ['b32', 'b32', 'b32'], [(k,) for k in range(256)], 'b32'),
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


def sequence_form(out, name, body, types, tables, res_t):
    combos = list(itertools.product(*tables))
    columns = [[c[i] for c in combos] for i in range(len(types))]
    lines = loads(types)
    lines += ['\t.reg %s %%r;' % reg(res_t), '\t.reg .b32 %t<4>;', '\t.reg .b64 %u<4>;', '\t.reg .b16 %h<4>;',
              '\t.reg .pred %q<4>;']
    names = {'o%d' % i: '%%o%d' % i for i in range(len(types))}
    lines += ['\t' + b.format(r='%r', **names) for b in body]
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
    out, names = sys.argv[1], sys.argv[2:] or list(FORMS) + list(IMM_FORMS) + list(SEQ_FORMS)
    for name in names:
        if name in FORMS:
            register_form(out, name, *FORMS[name])
        elif name in SEQ_FORMS:
            sequence_form(out, name, *SEQ_FORMS[name])
        elif name in IMM_FORMS:
            immediate_form(out, name, *IMM_FORMS[name])
        else:
            sys.exit('unknown form %s' % name)


if __name__ == '__main__':
    main()
