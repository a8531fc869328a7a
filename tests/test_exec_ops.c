/* test_exec_ops.c — the semantics of each data-processing opcode (exec_ops.c),
 * run as small PTX kernels through the whole pipeline (parser, cfg, launch,
 * executor) and compared with values worked out by hand from the PTX ISA
 * (or, for the comparison matrix and the atomics' serial order, with a few
 * lines of plain C that model the documented semantics independently).
 *
 * Most cases use run_ops(): one thread, the four 64-bit input words a, b, c, d
 * preloaded as %rd3..%rd6, their low halves as %r1..%r4, %f1..%f4 (bits),
 * %fd1..%fd4 and %h1..%h4; the body stores results to [%rd1 + 8*i]; output
 * words start as SENTINEL so that a missing store shows.
 */
#include <check.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "launch.h"
#include "memory.h"
#include "ptx_parser.h"
#include "sfu.h"
#include "testutil.h"

#define SENTINEL 0xA5A5A5A5A5A5A5A5ull
#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

typedef struct {
    uint64_t w[8];
} Words;

static const char *const prologue =
    ".reg .pred %p<16>;\n.reg .b16 %h<16>;\n.reg .b32 %r<48>;\n.reg .b64 %rd<48>;\n"
    ".reg .f32 %f<48>;\n.reg .f64 %fd<48>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
    "ld.global.u64 %rd3, [%rd2];\nld.global.u64 %rd4, [%rd2+8];\n"
    "ld.global.u64 %rd5, [%rd2+16];\nld.global.u64 %rd6, [%rd2+24];\n"
    "cvt.u32.u64 %r1, %rd3;\ncvt.u32.u64 %r2, %rd4;\ncvt.u32.u64 %r3, %rd5;\ncvt.u32.u64 %r4, %rd6;\n"
    "mov.b32 %f1, %r1;\nmov.b32 %f2, %r2;\nmov.b32 %f3, %r3;\nmov.b32 %f4, %r4;\n"
    "mov.b64 %fd1, %rd3;\nmov.b64 %fd2, %rd4;\nmov.b64 %fd3, %rd5;\nmov.b64 %fd4, %rd6;\n"
    "cvt.u16.u32 %h1, %r1;\ncvt.u16.u32 %h2, %r2;\ncvt.u16.u32 %h3, %r3;\ncvt.u16.u32 %h4, %r4;\n";

static Words run_ops_at(const char *body, uint64_t a, uint64_t b, uint64_t c, uint64_t d, int line)
{
    uint64_t in[4] = {a, b, c, d};
    Words out;
    for (int i = 0; i < 8; i++)
        out.w[i] = SENTINEL;
    TuBuf bufs[2] = {{out.w, sizeof out.w}, {in, sizeof in}};
    char *ptx = g_strdup_printf(HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n%s%s\nret;\n}\n",
                                prologue, body);
    char *err = tu_run(ptx, "k", 1, 1, bufs, 2, NULL, 0);
    ck_assert_msg(err == NULL, "line %d: kernel failed: %s\nbody:\n%s", line, err ? err : "", body);
    g_free(ptx);
    return out;
}
#define run_ops(body, a, b, c, d) run_ops_at(body, a, b, c, d, __LINE__)

/* Run a whole kernel `k(out, in)` over gx blocks of bx threads. */
static void run_kernel_at(const char *ptx, uint32_t gx, uint32_t bx, void *out, size_t out_size,
                          const void *in, size_t in_size, int line)
{
    /* never a zero-sized buffer: tu_run copies through its host pointer */
    uint8_t none[8] = {0};
    void *in_copy = g_memdup2(in_size ? in : none, in_size ? in_size : sizeof none);
    TuBuf bufs[2] = {{out, out_size}, {in_copy, in_size ? in_size : sizeof none}};
    char *err = tu_run(ptx, "k", gx, bx, bufs, 2, NULL, 0);
    ck_assert_msg(err == NULL, "line %d: kernel failed: %s", line, err ? err : "");
    g_free(in_copy);
}
#define run_kernel(ptx, gx, bx, out, osz, in, isz) run_kernel_at(ptx, gx, bx, out, osz, in, isz, __LINE__)

#define EQ32(got, exp)                                                                             \
    do {                                                                                           \
        uint32_t g_ = (uint32_t)(got), e_ = (uint32_t)(exp);                                       \
        ck_assert_msg(g_ == e_, "line %d: %s = 0x%08x, expected 0x%08x", __LINE__, #got, g_, e_);  \
    } while (0)
#define EQ64(got, exp)                                                                             \
    do {                                                                                           \
        uint64_t g_ = (uint64_t)(got), e_ = (uint64_t)(exp);                                       \
        ck_assert_msg(g_ == e_, "line %d: %s = 0x%016llx, expected 0x%016llx", __LINE__, #got,     \
                      (unsigned long long)g_, (unsigned long long)e_);                            \
    } while (0)
#define EQ16(got, exp) EQ32((uint16_t)(got), (uint16_t)(exp))
#define NEAR(got, exp, tol)                                                                        \
    do {                                                                                           \
        double g_ = (got), e_ = (exp);                                                             \
        ck_assert_msg(fabs(g_ - e_) <= (tol), "line %d: %s = %.9g, expected %.9g +- %g", __LINE__, \
                      #got, g_, e_, (double)(tol));                                                \
    } while (0)

static uint64_t F(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint64_t D(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static float asf(uint64_t w)
{
    uint32_t u = (uint32_t)w;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static double asd(uint64_t w)
{
    double d;
    memcpy(&d, &w, 8);
    return d;
}
#define NEG32(v) ((uint64_t)(uint32_t)(int32_t)(v))
#define NAN32 0x7FC00000ull

/* ================================================================ integer add/sub */

/* nvcc's shared addresses: a 32-bit register holding `array - 64*tid`
 * (negative, wrapped) plus an immediate that brings it back in range; the
 * sum is 32-bit.  And WARP_SZ, PTX's constant for warpSize. */
START_TEST(test_shared_address_wraps_in_32_bits)
{
    const char *ptx =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
        "  .shared .align 4 .b8 tile[256];\n"
        "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
        "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, tile;\n"
        "  mul.lo.s32 %r3, %r1, -64;\n  add.s32 %r4, %r2, %r3;\n"
        "  shl.b32 %r5, %r1, 6;\n  add.s32 %r6, %r5, WARP_SZ;\n"
        "  st.shared.u32 [%r4+68], %r6;\n  bar.sync 0;\n"
        "  ld.shared.u32 %r7, [%r4+68];\n"
        "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r7;\n"
        "  ret;\n}\n";
    uint32_t out[2] = {0, 0};
    TuBuf bufs[] = {{out, sizeof out}};
    char *err = tu_run(ptx, "k", 1, 1, bufs, 1, NULL, 0);
    ck_assert_msg(err == NULL, "%s", err);
    ck_assert_uint_eq(out[0], 32);   /* thread 0 wrote 0*64 + WARP_SZ */
    out[0] = out[1] = 0;
    err = tu_run(ptx, "k", 1, 2, bufs, 1, NULL, 0);
    ck_assert_msg(err == NULL, "%s", err);   /* thread 1: tile - 64 wraps, + 68 is tile + 4 */
    ck_assert_uint_eq(out[0], 32);
    ck_assert_uint_eq(out[1], 96);
}
END_TEST

START_TEST(test_add_sub_wrap_sat)
{
    const char *body = "add.u32 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                       "add.s32 %r11, %r1, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                       "add.sat.s32 %r12, %r1, %r2;\nst.global.u32 [%rd1+16], %r12;\n"
                       "sub.sat.s32 %r13, %r1, %r3;\nst.global.u32 [%rd1+24], %r13;\n"
                       "sub.u32 %r14, %r2, %r1;\nst.global.u32 [%rd1+32], %r14;\n"
                       "add.u64 %rd10, %rd3, %rd4;\nst.global.u64 [%rd1+40], %rd10;\n"
                       "add.u16 %h10, %h1, %h2;\nst.global.u16 [%rd1+48], %h10;\n"
                       "sub.s64 %rd11, %rd4, %rd3;\nst.global.u64 [%rd1+56], %rd11;\n";
    Words o = run_ops(body, 0x7FFFFFFF, 1, NEG32(-1), 0);
    EQ32(o.w[0], 0x80000000);           /* wraps */
    EQ32(o.w[1], 0x80000000);
    EQ32(o.w[2], 0x7FFFFFFF);           /* saturates at INT_MAX */
    EQ32(o.w[3], 0x7FFFFFFF);           /* INT_MAX - (-1) saturates */
    EQ32(o.w[4], 0x80000002);           /* 1 - 0x7FFFFFFF */
    EQ64(o.w[5], 0x80000000ull);        /* 64-bit: no wrap */
    EQ16(o.w[6], 0x0000);               /* 0xFFFF + 1 in 16 bits */
    EQ64(o.w[7], 0xFFFFFFFF80000002ull);/* 1 - 0x7FFFFFFF in 64 bits */
    EQ64(o.w[6] >> 16, SENTINEL >> 16); /* the u16 store wrote two bytes only */

    o = run_ops(body, 0x80000000, NEG32(-1), 1, 0);
    EQ32(o.w[0], 0x7FFFFFFF);
    EQ32(o.w[2], 0x80000000);           /* INT_MIN + -1 saturates at INT_MIN */
    EQ32(o.w[3], 0x80000000);           /* INT_MIN - 1 saturates */

    o = run_ops(body, 0xFFFFFFFFFFFFFFFFull, 1, 0, 0);
    EQ64(o.w[5], 0);                    /* u64 wrap */
    EQ32(o.w[0], 0);
    EQ16(o.w[6], 0);
}
END_TEST

/* 16-bit floats as the H200 computes them (tools/gpu-check/op_sweep.py,
 * 2026-11-25): a NaN result is 0x7FFF whatever made it; .ftz flushes f16
 * subnormal operands to the zero of their sign; .relu makes -0 +0; bf16
 * to f32 keeps a NaN's bits, f16 to f64 its payload (quieted). */
START_TEST(test_half_h200_rules)
{
    const char *body = "add.rn.f16x2 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                       "neg.f16x2 %r11, %r3;\nst.global.u32 [%rd1+8], %r11;\n"
                       "mov.b32 %r16, 0x3C003C00;\nmul.rn.ftz.f16x2 %r12, %r4, %r16;\nst.global.u32 [%rd1+16], %r12;\n"
                       "sub.rn.ftz.f16x2 %r13, 0, %r4;\nst.global.u32 [%rd1+24], %r13;\n"
                       "mov.b32 %r14, 0xC000C000;\n"
                       "fma.rn.relu.f16x2 %r15, %r14, 0, 0x80008000;\nst.global.u32 [%rd1+32], %r15;\n"
                       "cvt.u16.u32 %h5, %r3;\ncvt.f64.f16 %rd10, %h5;\nst.global.u64 [%rd1+40], %rd10;\n"
                       "mov.b16 %h6, 0x7F81;\ncvt.f32.bf16 %f10, %h6;\nst.global.f32 [%rd1+48], %f10;\n";
    /* (inf, -inf) + (-inf, inf); NaNs (0x7E00, 0x7C01); subnormals (1, 0x83FF) */
    Words o = run_ops(body, 0xFC007C00u, 0x7C00FC00u, 0x7E007C01u, 0x83FF0001u);
    EQ32(o.w[0], 0x7FFF7FFF);
    EQ32(o.w[1], 0x7FFF7FFF);
    EQ32(o.w[2], 0x80000000); /* times 1: flushed to the zero of its sign */
    EQ32(o.w[3], 0x00000000); /* 0 - (+0), 0 - (-0) */
    EQ32(o.w[4], 0x00000000); /* -2 * 0 + -0 = -0, made +0 */
    EQ64(o.w[5], 0x7FF8040000000000ull);
    EQ32(o.w[6], 0x7F810000);
    /* bf16 NaNs and an invalid product */
    o = run_ops("add.rn.bf16x2 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                "mul.rn.bf16x2 %r11, %r3, %r4;\nst.global.u32 [%rd1+8], %r11;\n",
                0x7F817FC0u, 0x3F803F80u, 0x7F803F80u, 0x00004000u);
    EQ32(o.w[0], 0x7FFF7FFF);
    EQ32(o.w[1], 0x7FFF4000);
}
END_TEST

/* cvt.rna.tf32.f32: the H200's results for the sweep's operands
 * (op_sweep.py cvt_rna_tf32_f32, 2026-11-25); other forms are refused. */
START_TEST(test_cvt_tf32)
{
    const char *body = "cvt.rna.tf32.f32 %r10, %r1;\nst.global.u32 [%rd1], %r10;\n"
                       "cvt.rna.tf32.f32 %r11, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                       "cvt.rna.tf32.f32 %r12, %r3;\nst.global.u32 [%rd1+16], %r12;\n"
                       "cvt.rna.tf32.f32 %r13, %r4;\nst.global.u32 [%rd1+24], %r13;\n";
    Words o = run_ops(body, 0x7FFFFFFFu, 0x7F800001u, 0x807FFFFFu, 0x7F7FFFFFu);
    EQ32(o.w[0], 0x7FFFE000); /* a NaN's payload truncated */
    EQ32(o.w[1], 0x7F800000); /* ... even into infinity */
    EQ32(o.w[2], 0x80800000); /* rounded up into the normals */
    EQ32(o.w[3], 0x7F800000); /* and past the largest finite */
    o = run_ops(body, 0x40490FDBu, 0xFF812345u, 0x00000001u, 0x3F801000u);
    EQ32(o.w[0], 0x40490000);
    EQ32(o.w[1], 0xFF812000);
    EQ32(o.w[2], 0x00000000);
    EQ32(o.w[3], 0x3F802000); /* a tie, away from zero */
    uint32_t out[2] = {0};
    TuBuf bufs[1] = {{out, sizeof out}};
    char *err = tu_run(HEADER ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\nmov.b32 %r1, 0x3F800000;\n"
                              "cvt.rn.tf32.f32 %r2, %r1;\nret;\n}\n",
                       "k", 1, 1, bufs, 1, NULL, 0);
    ck_assert_msg(err && strstr(err, "only cvt.rna.tf32.f32 is supported"), "%s", err ? err : "(ran)");
    g_free(err);
}
END_TEST

/* CC.CF read by the other kind of instruction: the flag is the carry of
 * a + ~b + 1, so a subtraction that borrowed leaves 0.  Expected values
 * are what an H200 gave for the same sequences (inline PTX, 2026-11-25);
 * nvcc's 128-bit division reads sub.cc's flag with addc. */
START_TEST(test_carry_flag_mixed)
{
    const char *body = "sub.cc.u32 %r10, %r1, %r2;\naddc.u32 %r11, 0, 0;\nst.global.u32 [%rd1], %r11;\n"
                       "add.cc.u32 %r10, %r1, %r2;\nsubc.u32 %r11, 0, 0;\nst.global.u32 [%rd1+8], %r11;\n"
                       "sub.cc.u32 %r10, %r1, %r2;\nsubc.u32 %r11, 5, 3;\nst.global.u32 [%rd1+16], %r11;\n"
                       "sub.cc.u32 %r10, %r1, %r2;\nsubc.cc.u32 %r10, %r1, %r2;\naddc.u32 %r11, 0, 0;\n"
                       "st.global.u32 [%rd1+24], %r11;\n"
                       "sub.cc.u64 %rd10, %rd3, %rd4;\naddc.u64 %rd11, 0, 0;\nst.global.u64 [%rd1+32], %rd11;\n";
    static const struct {
        uint32_t a, b, sub_addc, add_subc, sub_subc53, subc_cc_addc;
    } h200[] = {
        {1, 2, 0, 0xFFFFFFFF, 1, 0},
        {2, 1, 1, 0xFFFFFFFF, 2, 1},
        {5, 5, 1, 0xFFFFFFFF, 2, 1},
        {0, 1, 0, 0xFFFFFFFF, 1, 0},
        {0xFFFFFFFF, 1, 1, 0, 2, 1},
        {1, 0xFFFFFFFF, 0, 0, 1, 0},
        {0x80000000, 0x80000000, 1, 0, 2, 1},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(h200); i++) {
        Words o = run_ops(body, h200[i].a, h200[i].b, 0, 0);
        EQ32(o.w[0], h200[i].sub_addc);
        EQ32(o.w[1], h200[i].add_subc);
        EQ32(o.w[2], h200[i].sub_subc53);
        EQ32(o.w[3], h200[i].subc_cc_addc);
        EQ64(o.w[4], h200[i].a >= h200[i].b ? 1 : 0);
    }
}
END_TEST

START_TEST(test_carry_chains)
{
    /* 64-bit add and subtract out of 32-bit halves */
    const char *body32 = "mov.b64 {%r10, %r11}, %rd3;\nmov.b64 {%r12, %r13}, %rd4;\n"
                         "add.cc.u32 %r14, %r10, %r12;\naddc.u32 %r15, %r11, %r13;\n"
                         "mov.b64 %rd10, {%r14, %r15};\nst.global.u64 [%rd1], %rd10;\n"
                         "sub.cc.u32 %r16, %r10, %r12;\nsubc.u32 %r17, %r11, %r13;\n"
                         "mov.b64 %rd11, {%r16, %r17};\nst.global.u64 [%rd1+8], %rd11;\n";
    Words o = run_ops(body32, 0x00000001FFFFFFFFull, 1, 0, 0);
    EQ64(o.w[0], 0x0000000200000000ull);
    EQ64(o.w[1], 0x00000001FFFFFFFEull);
    o = run_ops(body32, 0x0000000100000000ull, 1, 0, 0);
    EQ64(o.w[0], 0x0000000100000001ull);
    EQ64(o.w[1], 0x00000000FFFFFFFFull); /* borrow out of the low half */
    o = run_ops(body32, 0, 1, 0, 0);
    EQ64(o.w[1], 0xFFFFFFFFFFFFFFFFull);
    o = run_ops(body32, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 0, 0);
    EQ64(o.w[0], 0xFFFFFFFFFFFFFFFEull);
    EQ64(o.w[1], 0);

    /* 96-bit: the carry must travel through addc.cc into the third word */
    const char *body96 = "mov.u32 %r20, 0;\n"
                         "add.cc.u32 %r10, %r1, %r2;\naddc.cc.u32 %r11, %r1, %r20;\naddc.u32 %r12, %r20, %r20;\n"
                         "st.global.u32 [%rd1], %r10;\nst.global.u32 [%rd1+8], %r11;\nst.global.u32 [%rd1+16], %r12;\n"
                         "sub.cc.u32 %r13, %r20, %r2;\nsubc.cc.u32 %r14, %r20, %r20;\nsubc.u32 %r15, %r20, %r20;\n"
                         "st.global.u32 [%rd1+24], %r13;\nst.global.u32 [%rd1+32], %r14;\nst.global.u32 [%rd1+40], %r15;\n";
    o = run_ops(body96, 0xFFFFFFFF, 1, 0, 0);
    EQ32(o.w[0], 0);
    EQ32(o.w[1], 0);
    EQ32(o.w[2], 1);
    EQ32(o.w[3], 0xFFFFFFFF); /* 0 - 1 across 96 bits: all ones */
    EQ32(o.w[4], 0xFFFFFFFF);
    EQ32(o.w[5], 0xFFFFFFFF);
    /* no carry: addc adds nothing */
    o = run_ops(body96, 5, 6, 0, 0);
    EQ32(o.w[0], 11);
    EQ32(o.w[1], 5);
    EQ32(o.w[2], 0);

    /* 128-bit through u64 halves: (a=lo1, b=hi1) + (c=lo2, d=hi2) */
    const char *body128 = "add.cc.u64 %rd10, %rd3, %rd5;\naddc.u64 %rd11, %rd4, %rd6;\n"
                          "st.global.u64 [%rd1], %rd10;\nst.global.u64 [%rd1+8], %rd11;\n"
                          "sub.cc.u64 %rd12, %rd3, %rd5;\nsubc.u64 %rd13, %rd4, %rd6;\n"
                          "st.global.u64 [%rd1+16], %rd12;\nst.global.u64 [%rd1+24], %rd13;\n";
    o = run_ops(body128, 0xFFFFFFFFFFFFFFFFull, 5, 1, 7);
    EQ64(o.w[0], 0);
    EQ64(o.w[1], 13);
    EQ64(o.w[2], 0xFFFFFFFFFFFFFFFEull);
    EQ64(o.w[3], 0xFFFFFFFFFFFFFFFEull); /* 5 - 7, no borrow */
    o = run_ops(body128, 0, 5, 1, 2);
    EQ64(o.w[2], 0xFFFFFFFFFFFFFFFFull);
    EQ64(o.w[3], 2); /* 5 - 2 - borrow */

    /* mad.lo.cc / madc.hi: a*b + c over 64 bits out of 32-bit pieces */
    const char *bodymad = "mov.u32 %r20, 0;\n"
                          "mad.lo.cc.u32 %r10, %r1, %r2, %r3;\nmadc.hi.cc.u32 %r11, %r1, %r2, %r4;\n"
                          "addc.u32 %r12, %r20, %r20;\n"
                          "st.global.u32 [%rd1], %r10;\nst.global.u32 [%rd1+8], %r11;\nst.global.u32 [%rd1+16], %r12;\n";
    /* 0xFFFFFFFF^2 = 0xFFFFFFFE_00000001; lo + 0xFFFFFFFF carries; hi + 0 + 1 */
    o = run_ops(bodymad, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0);
    EQ32(o.w[0], 0);
    EQ32(o.w[1], 0xFFFFFFFF);
    EQ32(o.w[2], 0);
    /* hi + 0xFFFFFFFF + 1 = 0x1_FFFFFFFE carries out too */
    o = run_ops(bodymad, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF);
    EQ32(o.w[1], 0xFFFFFFFE);
    EQ32(o.w[2], 1);
    o = run_ops(bodymad, 3, 4, 5, 6);
    EQ32(o.w[0], 17);
    EQ32(o.w[1], 6);
    EQ32(o.w[2], 0);
}
END_TEST

/* ================================================================ multiply */

START_TEST(test_mul_all_types)
{
    const char *b32 = "mul.lo.u32 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                      "mul.hi.u32 %r11, %r1, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                      "mul.wide.u32 %rd10, %r1, %r2;\nst.global.u64 [%rd1+16], %rd10;\n"
                      "mul.lo.s32 %r12, %r1, %r2;\nst.global.u32 [%rd1+24], %r12;\n"
                      "mul.hi.s32 %r13, %r1, %r2;\nst.global.u32 [%rd1+32], %r13;\n"
                      "mul.wide.s32 %rd11, %r1, %r2;\nst.global.u64 [%rd1+40], %rd11;\n";
    Words o = run_ops(b32, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0);
    EQ32(o.w[0], 1);
    EQ32(o.w[1], 0xFFFFFFFE);
    EQ64(o.w[2], 0xFFFFFFFE00000001ull);
    EQ32(o.w[3], 1);
    EQ32(o.w[4], 0);          /* (-1)*(-1) = 1: high half 0 */
    EQ64(o.w[5], 1);
    o = run_ops(b32, NEG32(-3), 5, 0, 0);
    EQ32(o.w[0], NEG32(-15));
    EQ32(o.w[1], 4);          /* 0xFFFFFFFD * 5 = 0x4_FFFFFFF1 */
    EQ64(o.w[2], 0x4FFFFFFF1ull);
    EQ32(o.w[3], NEG32(-15));
    EQ32(o.w[4], 0xFFFFFFFF);
    EQ64(o.w[5], 0xFFFFFFFFFFFFFFF1ull);
    o = run_ops(b32, 0x80000000, 0x80000000, 0, 0);
    EQ32(o.w[1], 0x40000000);
    EQ32(o.w[4], 0x40000000); /* (-2^31)^2 = 2^62 */

    const char *b16 = "mul.lo.u16 %h10, %h1, %h2;\nst.global.u16 [%rd1], %h10;\n"
                      "mul.hi.u16 %h11, %h1, %h2;\nst.global.u16 [%rd1+8], %h11;\n"
                      "mul.wide.u16 %r10, %h1, %h2;\nst.global.u32 [%rd1+16], %r10;\n"
                      "mul.lo.s16 %h12, %h1, %h2;\nst.global.u16 [%rd1+24], %h12;\n"
                      "mul.hi.s16 %h13, %h1, %h2;\nst.global.u16 [%rd1+32], %h13;\n"
                      "mul.wide.s16 %r11, %h1, %h2;\nst.global.u32 [%rd1+40], %r11;\n";
    o = run_ops(b16, 0xFFFF, 0xFFFF, 0, 0);
    EQ16(o.w[0], 0x0001);
    EQ16(o.w[1], 0xFFFE);
    EQ32(o.w[2], 0xFFFE0001);
    EQ16(o.w[3], 0x0001);
    EQ16(o.w[4], 0x0000);
    EQ32(o.w[5], 1);
    o = run_ops(b16, 0xFFFE, 3, 0, 0); /* -2 * 3 */
    EQ16(o.w[0], 0xFFFA);
    EQ16(o.w[1], 0x0002);  /* 0xFFFE*3 = 0x2FFFA */
    EQ32(o.w[2], 0x0002FFFA);
    EQ16(o.w[3], 0xFFFA);
    EQ16(o.w[4], 0xFFFF);
    EQ32(o.w[5], 0xFFFFFFFA);

    const char *b64 = "mul.lo.u64 %rd10, %rd3, %rd4;\nst.global.u64 [%rd1], %rd10;\n"
                      "mul.hi.u64 %rd11, %rd3, %rd4;\nst.global.u64 [%rd1+8], %rd11;\n"
                      "mul.lo.s64 %rd12, %rd3, %rd4;\nst.global.u64 [%rd1+16], %rd12;\n"
                      "mul.hi.s64 %rd13, %rd3, %rd4;\nst.global.u64 [%rd1+24], %rd13;\n";
    o = run_ops(b64, 0xFFFFFFFFFFFFFFFFull, 2, 0, 0);
    EQ64(o.w[0], 0xFFFFFFFFFFFFFFFEull);
    EQ64(o.w[1], 1);
    EQ64(o.w[2], 0xFFFFFFFFFFFFFFFEull);
    EQ64(o.w[3], 0xFFFFFFFFFFFFFFFFull); /* -1 * 2 = -2: high half all ones */
    /* -0x123456789 * 2^44: high half = floor(-0x123456789 / 2^20) = -0x1235 */
    o = run_ops(b64, (uint64_t)-0x123456789ll, 0x100000000000ull, 0, 0);
    EQ64(o.w[3], 0xFFFFFFFFFFFFEDCBull);
    EQ64(o.w[2], (uint64_t)-0x123456789ll << 44);
    /* INT64_MIN * INT64_MAX = -2^126 + 2^63: high half 0xC000000000000000 */
    o = run_ops(b64, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull, 0, 0);
    EQ64(o.w[3], 0xC000000000000000ull);
    EQ64(o.w[1], 0x3FFFFFFFFFFFFFFFull); /* unsigned: 2^63*(2^63-1) >> 64 */
    o = run_ops(b64, 0x8000000000000000ull, 0x8000000000000000ull, 0, 0);
    EQ64(o.w[3], 0x4000000000000000ull);
    EQ64(o.w[1], 0x4000000000000000ull);
}
END_TEST

START_TEST(test_mad_variants)
{
    const char *body = "mad.lo.s32 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n"
                       "mad.hi.u32 %r11, %r1, %r2, %r3;\nst.global.u32 [%rd1+8], %r11;\n"
                       "mad.wide.u32 %rd10, %r1, %r2, %rd5;\nst.global.u64 [%rd1+16], %rd10;\n"
                       "mad.wide.s32 %rd11, %r1, %r2, %rd5;\nst.global.u64 [%rd1+24], %rd11;\n"
                       "mad.hi.sat.s32 %r12, %r1, %r2, %r3;\nst.global.u32 [%rd1+32], %r12;\n"
                       "mad.lo.u64 %rd12, %rd3, %rd4, %rd5;\nst.global.u64 [%rd1+40], %rd12;\n";
    Words o = run_ops(body, 3, 4, 5, 0);
    EQ32(o.w[0], 17);
    EQ32(o.w[1], 5);
    EQ64(o.w[2], 17);
    EQ64(o.w[3], 17);
    EQ32(o.w[4], 5);
    EQ64(o.w[5], 17);
    o = run_ops(body, 0xFFFFFFFF, 0xFFFFFFFF, 3, 0);
    EQ32(o.w[0], 4);                      /* (-1)(-1)+3 */
    EQ32(o.w[1], 1);                      /* 0xFFFFFFFE + 3 wraps */
    EQ64(o.w[2], 0xFFFFFFFE00000004ull);
    EQ64(o.w[3], 4);
    o = run_ops(body, NEG32(-3), 5, 100, 0);
    EQ32(o.w[0], 85);
    EQ64(o.w[3], 85);
    EQ64(o.w[2], 0xFFFFFFFDull * 5 + 100);
    /* hi(0x7FFFFFFF^2) = 0x3FFFFFFF, + 0x7FFFFFFF overflows: saturates */
    o = run_ops(body, 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF, 0);
    EQ32(o.w[4], 0x7FFFFFFF);
    o = run_ops(body, 0x7FFFFFFF, 0x80000000, 0x80000000, 0);
    /* hi(0x7FFFFFFF * -2^31) = hi(-0x3FFFFFFF80000000) = 0xC0000000; + INT_MIN saturates low */
    EQ32(o.w[4], 0x80000000);
}
END_TEST

START_TEST(test_mul24_mad24_sad)
{
    const char *body = "mul24.lo.u32 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                       "mul24.hi.u32 %r11, %r1, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                       "mul24.lo.s32 %r12, %r1, %r2;\nst.global.u32 [%rd1+16], %r12;\n"
                       "mul24.hi.s32 %r13, %r1, %r2;\nst.global.u32 [%rd1+24], %r13;\n"
                       "mad24.lo.u32 %r14, %r1, %r2, %r3;\nst.global.u32 [%rd1+32], %r14;\n"
                       "mad24.hi.u32 %r15, %r1, %r2, %r3;\nst.global.u32 [%rd1+40], %r15;\n";
    /* 0xFFFFFF^2 = 0xFFFFFE000001: lo 0xFE000001, hi (bits 47..16) 0xFFFFFE00 */
    Words o = run_ops(body, 0xFFFFFF, 0xFFFFFF, 1, 0);
    EQ32(o.w[0], 0xFE000001);
    EQ32(o.w[1], 0xFFFFFE00);
    EQ32(o.w[2], 1);           /* as s24 both are -1 */
    EQ32(o.w[3], 0);
    EQ32(o.w[4], 0xFE000002);
    EQ32(o.w[5], 0xFFFFFE01);
    /* bits above 24 are ignored */
    o = run_ops(body, 0xFF000002, 0x7F000003, 4, 0);
    EQ32(o.w[0], 6);
    EQ32(o.w[2], 6);
    EQ32(o.w[4], 10);
    /* signed: -1 * 2 = -2 (48-bit 0xFFFFFFFFFFFE) */
    o = run_ops(body, 0xFFFFFF, 2, 0, 0);
    EQ32(o.w[2], 0xFFFFFFFE);
    EQ32(o.w[3], 0xFFFFFFFF);
    EQ32(o.w[0], 0x01FFFFFE);
    /* -2^23 * -2^23 = 2^46: hi = 2^30 */
    o = run_ops(body, 0x800000, 0x800000, 0, 0);
    EQ32(o.w[3], 0x40000000);
    EQ32(o.w[2], 0);

    const char *sad = "sad.u32 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n"
                      "sad.s32 %r11, %r1, %r2, %r3;\nst.global.u32 [%rd1+8], %r11;\n";
    o = run_ops(sad, 3, 10, 100, 0);
    EQ32(o.w[0], 107);
    EQ32(o.w[1], 107);
    o = run_ops(sad, NEG32(-3), 4, 1, 0);
    EQ32(o.w[0], 0xFFFFFFFDu - 4 + 1);  /* unsigned: |0xFFFFFFFD - 4| + 1 */
    EQ32(o.w[1], 8);                    /* signed: |-7| + 1 */
}
END_TEST

/* ================================================================ div / rem */

START_TEST(test_div_rem)
{
    const char *body = "div.u32 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                       "rem.u32 %r11, %r1, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                       "div.s32 %r12, %r1, %r2;\nst.global.u32 [%rd1+16], %r12;\n"
                       "rem.s32 %r13, %r1, %r2;\nst.global.u32 [%rd1+24], %r13;\n"
                       "div.u64 %rd10, %rd3, %rd4;\nst.global.u64 [%rd1+32], %rd10;\n"
                       "div.s64 %rd11, %rd3, %rd4;\nst.global.u64 [%rd1+40], %rd11;\n"
                       "rem.s64 %rd12, %rd3, %rd4;\nst.global.u64 [%rd1+48], %rd12;\n"
                       "rem.u64 %rd13, %rd3, %rd4;\nst.global.u64 [%rd1+56], %rd13;\n";
    Words o = run_ops(body, 7, 2, 0, 0);
    EQ32(o.w[0], 3);
    EQ32(o.w[1], 1);
    EQ32(o.w[2], 3);
    EQ32(o.w[3], 1);
    o = run_ops(body, (uint64_t)-7ll, (uint64_t)2, 0, 0);
    EQ32(o.w[2], NEG32(-3)); /* truncates toward zero */
    EQ32(o.w[3], NEG32(-1)); /* remainder has the sign of the dividend */
    EQ32(o.w[0], 0xFFFFFFF9u / 2);
    EQ64(o.w[5], (uint64_t)-3ll);
    EQ64(o.w[6], (uint64_t)-1ll);
    o = run_ops(body, 7, NEG32(-2), 0, 0);
    EQ32(o.w[2], NEG32(-3));
    EQ32(o.w[3], 1);
    /* INT_MIN / -1 overflows: the quotient wraps to INT_MIN, remainder 0 */
    o = run_ops(body, 0xFFFFFFFF80000000ull, 0xFFFFFFFFFFFFFFFFull, 0, 0);
    EQ32(o.w[2], 0x80000000);
    EQ32(o.w[3], 0);
    o = run_ops(body, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull, 0, 0);
    EQ64(o.w[5], 0x8000000000000000ull);
    EQ64(o.w[6], 0);
    /* division by zero: the PTX ISA leaves the result unspecified; warpsim
     * follows what an H200 gives (measured with tools/gpu-check, see
     * tests/gpu-probe): all ones for div and rem, signed or not, whatever
     * the dividend. */
    o = run_ops(body, 5, 0, 0, 0);
    EQ32(o.w[0], 0xFFFFFFFF);
    EQ32(o.w[1], 0xFFFFFFFF);
    EQ32(o.w[2], 0xFFFFFFFF);
    EQ32(o.w[3], 0xFFFFFFFF);
    EQ64(o.w[4], 0xFFFFFFFFFFFFFFFFull);
    EQ64(o.w[5], 0xFFFFFFFFFFFFFFFFull);
    EQ64(o.w[6], 0xFFFFFFFFFFFFFFFFull);
    EQ64(o.w[7], 0xFFFFFFFFFFFFFFFFull);
    o = run_ops(body, (uint64_t)-5ll, 0, 0, 0);
    EQ32(o.w[2], 0xFFFFFFFF);
    EQ32(o.w[3], 0xFFFFFFFF);
    EQ64(o.w[5], 0xFFFFFFFFFFFFFFFFull);
}
END_TEST

START_TEST(test_abs_neg_min_max)
{
    const char *body = "abs.s32 %r10, %r1;\nst.global.u32 [%rd1], %r10;\n"
                       "neg.s32 %r11, %r1;\nst.global.u32 [%rd1+8], %r11;\n"
                       "min.s32 %r12, %r1, %r2;\nst.global.u32 [%rd1+16], %r12;\n"
                       "max.s32 %r13, %r1, %r2;\nst.global.u32 [%rd1+24], %r13;\n"
                       "min.u32 %r14, %r1, %r2;\nst.global.u32 [%rd1+32], %r14;\n"
                       "max.u32 %r15, %r1, %r2;\nst.global.u32 [%rd1+40], %r15;\n"
                       "abs.s64 %rd10, %rd3;\nst.global.u64 [%rd1+48], %rd10;\n"
                       "neg.s64 %rd11, %rd3;\nst.global.u64 [%rd1+56], %rd11;\n";
    Words o = run_ops(body, 0x80000000, 1, 0, 0);
    EQ32(o.w[0], 0x80000000); /* |INT_MIN| = INT_MIN */
    EQ32(o.w[1], 0x80000000);
    EQ32(o.w[2], 0x80000000);
    EQ32(o.w[3], 1);
    EQ32(o.w[4], 1);
    EQ32(o.w[5], 0x80000000);
    o = run_ops(body, 0xFFFFFFFFFFFFFFFBull, 0x7FFFFFFF, 0, 0);
    EQ32(o.w[0], 5);
    EQ32(o.w[1], 5);
    EQ32(o.w[2], NEG32(-5));
    EQ32(o.w[3], 0x7FFFFFFF);
    EQ32(o.w[4], 0x7FFFFFFF);
    EQ32(o.w[5], 0xFFFFFFFB);
    EQ64(o.w[6], 5);
    EQ64(o.w[7], 5);
    o = run_ops(body, 0x8000000000000000ull, 0, 0, 0);
    EQ64(o.w[6], 0x8000000000000000ull);
    EQ64(o.w[7], 0x8000000000000000ull);

    const char *fbody = "min.f32 %f10, %f1, %f2;\nst.global.f32 [%rd1], %f10;\n"
                        "max.f32 %f11, %f1, %f2;\nst.global.f32 [%rd1+8], %f11;\n"
                        "min.NaN.f32 %f12, %f1, %f2;\nst.global.f32 [%rd1+16], %f12;\n"
                        "abs.f32 %f13, %f1;\nst.global.f32 [%rd1+24], %f13;\n"
                        "neg.f32 %f14, %f1;\nst.global.f32 [%rd1+32], %f14;\n"
                        "min.f64 %fd10, %fd3, %fd4;\nst.global.f64 [%rd1+40], %fd10;\n"
                        "max.f64 %fd11, %fd3, %fd4;\nst.global.f64 [%rd1+48], %fd11;\n";
    o = run_ops(fbody, NAN32, F(2.0f), D(NAN), D(1.0));
    EQ32(o.w[0], F(2.0f)); /* one NaN: the other operand */
    EQ32(o.w[1], F(2.0f));
    EQ32(o.w[2], 0x7FFFFFFF); /* .NaN: canonical NaN */
    ck_assert(isnan(asf(o.w[3])) && isnan(asf(o.w[4])));
    EQ64(o.w[5], D(1.0));
    EQ64(o.w[6], D(1.0));
    o = run_ops(fbody, F(3.0f), NAN32, D(-2.0), D(NAN));
    EQ32(o.w[0], F(3.0f));
    EQ32(o.w[1], F(3.0f));
    EQ64(o.w[5], D(-2.0));
    o = run_ops(fbody, NAN32, NAN32, 0, 0);
    ck_assert(isnan(asf(o.w[0])) && isnan(asf(o.w[1])));
    /* -0 is below +0, in both operand orders */
    o = run_ops(fbody, 0x80000000, 0, D(0.0), D(-0.0));
    EQ32(o.w[0], 0x80000000);
    EQ32(o.w[1], 0x00000000);
    EQ32(o.w[3], 0x00000000);
    EQ32(o.w[4], 0x00000000);
    EQ64(o.w[5], D(-0.0));
    EQ64(o.w[6], D(0.0));
    o = run_ops(fbody, 0, 0x80000000, 0, 0);
    EQ32(o.w[0], 0x80000000);
    EQ32(o.w[1], 0x00000000);
    EQ32(o.w[4], 0x80000000);
    o = run_ops(fbody, F(-1.5f), F(-2.5f), 0, 0);
    EQ32(o.w[0], F(-2.5f));
    EQ32(o.w[1], F(-1.5f));
    EQ32(o.w[3], F(1.5f));
}
END_TEST

/* NaN results as the H200 gives them (tools/gpu-check/op_sweep.py,
 * 2026-11-22): f64 arithmetic returns its first NaN operand, quieted with
 * sign and payload kept (add, sub, mul: b before a; fma: b, c, a; div: a,
 * b), and an invalid operation the default NaN with its sign set; f32 neg
 * and abs of a NaN give the canonical NaN, as f32 arithmetic does. */
START_TEST(test_nan_results_as_h200)
{
    const char *body = "add.f64 %fd10, %fd1, %fd2;\nst.global.f64 [%rd1], %fd10;\n"
                       "fma.rn.f64 %fd11, %fd1, %fd2, %fd3;\nst.global.f64 [%rd1+8], %fd11;\n"
                       "div.rn.f64 %fd12, %fd1, %fd2;\nst.global.f64 [%rd1+16], %fd12;\n"
                       "neg.f64 %fd13, %fd1;\nst.global.f64 [%rd1+24], %fd13;\n"
                       "abs.f64 %fd14, %fd2;\nst.global.f64 [%rd1+32], %fd14;\n"
                       "sqrt.rn.f64 %fd15, %fd3;\nst.global.f64 [%rd1+40], %fd15;\n"
                       "mul.f64 %fd16, %fd3, %fd2;\nst.global.f64 [%rd1+48], %fd16;\n"
                       "neg.f32 %f10, %f1;\nst.global.f32 [%rd1+56], %f10;\n";
    /* a, b signalling NaNs (b negative), c = -1 */
    Words o = run_ops(body, 0x7FF0000000000001ull, 0xFFF0000123456789ull, D(-1.0), 0);
    EQ64(o.w[0], 0xFFF8000123456789ull); /* b before a */
    EQ64(o.w[1], 0xFFF8000123456789ull); /* b, c, a */
    EQ64(o.w[2], 0x7FF8000000000001ull); /* a before b */
    EQ64(o.w[3], 0x7FF8000000000001ull); /* neg keeps a NaN's sign */
    EQ64(o.w[4], 0xFFF8000123456789ull); /* abs too */
    EQ64(o.w[5], 0xFFF8000000000000ull); /* sqrt(-1): the default NaN */
    EQ64(o.w[6], 0xFFF8000123456789ull);
    /* a = 0, b = inf, c a quiet NaN: fma takes c's NaN over computing 0 * inf */
    o = run_ops(body, D(0.0), D(INFINITY), 0x7FF8000000000000ull, 0);
    EQ64(o.w[0], D(INFINITY));
    EQ64(o.w[1], 0x7FF8000000000000ull);
    EQ64(o.w[2], D(0.0));
    /* 0 * inf with no NaN operand: invalid */
    o = run_ops(body, D(0.0), D(INFINITY), D(0.0), 0);
    EQ64(o.w[1], 0xFFF8000000000000ull);
    EQ64(o.w[6], 0xFFF8000000000000ull);
    /* f32: neg and abs of any NaN give 0x7FFFFFFF */
    o = run_ops(body, 0xFFC00000ull, 0, 0, 0);
    EQ32(o.w[7], 0x7FFFFFFF);
    o = run_ops("abs.f32 %f10, %f1;\nst.global.f32 [%rd1], %f10;\n", 0xFF812345ull, 0, 0, 0);
    EQ32(o.w[0], 0x7FFFFFFF);
}
END_TEST

START_TEST(test_misc_integer_edges)
{
    const char *body = "mov.u64 %rd20, 0;\n"
                       "mad.lo.cc.u64 %rd10, %rd3, %rd4, %rd5;\nmadc.hi.u64 %rd11, %rd3, %rd4, %rd20;\n"
                       "st.global.u64 [%rd1], %rd10;\nst.global.u64 [%rd1+8], %rd11;\n"
                       "min.u64 %rd12, %rd3, %rd4;\nst.global.u64 [%rd1+16], %rd12;\n"
                       "max.s64 %rd13, %rd3, %rd4;\nst.global.u64 [%rd1+24], %rd13;\n"
                       "sad.u64 %rd14, %rd4, %rd3, %rd5;\nst.global.u64 [%rd1+32], %rd14;\n"
                       "cvt.u16.u32 %h10, %r6;\n"
                       "shr.s16 %h11, %h4, 20;\nst.global.u16 [%rd1+40], %h11;\n"
                       "neg.s16 %h12, %h4;\nst.global.u16 [%rd1+48], %h12;\n"
                       "mul.lo.s16 %h13, %h4, %h4;\nst.global.u16 [%rd1+56], %h13;\n";
    Words o = run_ops(body, 0xFFFFFFFFFFFFFFFFull, 2, 5, 0x8000);
    EQ64(o.w[0], 3);    /* lo(2^65 - 2) + 5 carries */
    EQ64(o.w[1], 2);    /* hi = 1, + carry */
    EQ64(o.w[2], 2);
    EQ64(o.w[3], 2);    /* max(-1, 2) */
    EQ64(o.w[4], 0xFFFFFFFFFFFFFFFDull + 5); /* |2 - (2^64-1)| + 5, unsigned */
    EQ16(o.w[5], 0xFFFF);
    EQ16(o.w[6], 0x8000);
    EQ16(o.w[7], 0x0000); /* 0x8000^2 = 2^30: low 16 bits 0 */
}
END_TEST

/* ================================================================ shifts and bits */

START_TEST(test_shifts)
{
    const char *body = "shl.b32 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                       "shr.s32 %r11, %r1, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                       "shr.u32 %r12, %r1, %r2;\nst.global.u32 [%rd1+16], %r12;\n"
                       "shr.b32 %r13, %r1, %r2;\nst.global.u32 [%rd1+24], %r13;\n"
                       "shl.b64 %rd10, %rd5, %r2;\nst.global.u64 [%rd1+32], %rd10;\n"
                       "shr.u64 %rd11, %rd5, %r2;\nst.global.u64 [%rd1+40], %rd11;\n"
                       "shr.s64 %rd12, %rd5, %r2;\nst.global.u64 [%rd1+48], %rd12;\n"
                       "shr.s32 %r14, %r4, %r2;\nst.global.u32 [%rd1+56], %r14;\n";
    struct {
        uint32_t n;
        uint32_t shl, sar, shr;
        uint64_t shl64, shr64, sar64;
        uint32_t sar_pos;
    } cases[] = {
        /* a = 0x80000010, c = 0x8000000000000001, d = 0x40000000 */
        {0, 0x80000010, 0x80000010, 0x80000010, 0x8000000000000001ull, 0x8000000000000001ull,
         0x8000000000000001ull, 0x40000000},
        {31, 0x00000000, 0xFFFFFFFF, 0x00000001, 0x0000000080000000ull, 0x0000000100000000ull,
         0xFFFFFFFF00000000ull, 0},
        {32, 0, 0xFFFFFFFF, 0, 0x0000000100000000ull, 0x0000000080000000ull, 0xFFFFFFFF80000000ull, 0},
        {33, 0, 0xFFFFFFFF, 0, 0x0000000200000000ull, 0x0000000040000000ull, 0xFFFFFFFFC0000000ull, 0},
        {63, 0, 0xFFFFFFFF, 0, 0x8000000000000000ull, 1, 0xFFFFFFFFFFFFFFFFull, 0},
        {64, 0, 0xFFFFFFFF, 0, 0, 0, 0xFFFFFFFFFFFFFFFFull, 0},
        {1000, 0, 0xFFFFFFFF, 0, 0, 0, 0xFFFFFFFFFFFFFFFFull, 0},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        Words o = run_ops(body, 0x80000010, cases[i].n, 0x8000000000000001ull, 0x40000000);
        ck_assert_msg((uint32_t)o.w[0] == cases[i].shl, "shl.b32 by %u: 0x%08x", cases[i].n, (uint32_t)o.w[0]);
        ck_assert_msg((uint32_t)o.w[1] == cases[i].sar, "shr.s32 by %u: 0x%08x", cases[i].n, (uint32_t)o.w[1]);
        ck_assert_msg((uint32_t)o.w[2] == cases[i].shr, "shr.u32 by %u: 0x%08x", cases[i].n, (uint32_t)o.w[2]);
        ck_assert_msg((uint32_t)o.w[3] == cases[i].shr, "shr.b32 by %u: 0x%08x", cases[i].n, (uint32_t)o.w[3]);
        ck_assert_msg(o.w[4] == cases[i].shl64, "shl.b64 by %u: 0x%016llx", cases[i].n,
                      (unsigned long long)o.w[4]);
        ck_assert_msg(o.w[5] == cases[i].shr64, "shr.u64 by %u: 0x%016llx", cases[i].n,
                      (unsigned long long)o.w[5]);
        ck_assert_msg(o.w[6] == cases[i].sar64, "shr.s64 by %u: 0x%016llx", cases[i].n,
                      (unsigned long long)o.w[6]);
        ck_assert_msg((uint32_t)o.w[7] == cases[i].sar_pos, "shr.s32 positive by %u: 0x%08x", cases[i].n,
                      (uint32_t)o.w[7]);
    }
}
END_TEST

START_TEST(test_bit_counts)
{
    const char *body = "popc.b32 %r10, %r1;\nst.global.u32 [%rd1], %r10;\n"
                       "clz.b32 %r11, %r1;\nst.global.u32 [%rd1+8], %r11;\n"
                       "brev.b32 %r12, %r1;\nst.global.u32 [%rd1+16], %r12;\n"
                       "popc.b64 %r13, %rd4;\nst.global.u32 [%rd1+24], %r13;\n"
                       "clz.b64 %r14, %rd4;\nst.global.u32 [%rd1+32], %r14;\n"
                       "brev.b64 %rd10, %rd4;\nst.global.u64 [%rd1+40], %rd10;\n"
                       "cnot.b32 %r15, %r1;\nst.global.u32 [%rd1+48], %r15;\n"
                       "not.b32 %r16, %r1;\nst.global.u32 [%rd1+56], %r16;\n";
    Words o = run_ops(body, 0xF0F0F0F1, 0xFFFFFFFFFFFFFFFFull, 0, 0);
    EQ32(o.w[0], 17);
    EQ32(o.w[1], 0);
    EQ32(o.w[2], 0x8F0F0F0F);
    EQ32(o.w[3], 64);
    EQ32(o.w[4], 0);
    EQ64(o.w[5], 0xFFFFFFFFFFFFFFFFull);
    EQ32(o.w[6], 0);
    EQ32(o.w[7], 0x0F0F0F0E);
    o = run_ops(body, 0, 0, 0, 0);
    EQ32(o.w[0], 0);
    EQ32(o.w[1], 32);
    EQ32(o.w[2], 0);
    EQ32(o.w[3], 0);
    EQ32(o.w[4], 64);
    EQ32(o.w[6], 1);
    EQ32(o.w[7], 0xFFFFFFFF);
    o = run_ops(body, 0x12345678, 1, 0, 0);
    EQ32(o.w[1], 3);
    EQ32(o.w[2], 0x1E6A2C48);
    EQ32(o.w[3], 1);
    EQ32(o.w[4], 63);
    EQ64(o.w[5], 0x8000000000000000ull);
    EQ32(o.w[6], 0);
    o = run_ops(body, 1, 0x0000000100000000ull, 0, 0);
    EQ32(o.w[1], 31);
    EQ32(o.w[2], 0x80000000);
    EQ32(o.w[4], 31);
}
END_TEST

START_TEST(test_bfind)
{
    const char *body = "bfind.u32 %r10, %r1;\nst.global.u32 [%rd1], %r10;\n"
                       "bfind.shiftamt.u32 %r11, %r1;\nst.global.u32 [%rd1+8], %r11;\n"
                       "bfind.s32 %r12, %r1;\nst.global.u32 [%rd1+16], %r12;\n"
                       "bfind.shiftamt.s32 %r13, %r1;\nst.global.u32 [%rd1+24], %r13;\n"
                       "bfind.u64 %r14, %rd4;\nst.global.u32 [%rd1+32], %r14;\n"
                       "bfind.shiftamt.u64 %r15, %rd4;\nst.global.u32 [%rd1+40], %r15;\n"
                       "bfind.s64 %r16, %rd4;\nst.global.u32 [%rd1+48], %r16;\n";
    Words o = run_ops(body, 0x00010000, 0x8000000000000000ull, 0, 0);
    EQ32(o.w[0], 16);
    EQ32(o.w[1], 15);
    EQ32(o.w[2], 16);
    EQ32(o.w[3], 15);
    EQ32(o.w[4], 63);
    EQ32(o.w[5], 0);
    EQ32(o.w[6], 62); /* negative: ~a = 0x7FF..F, whose msb is 62 */
}
END_TEST

START_TEST(test_bfind_signed)
{
    const char *body = "bfind.s32 %r12, %r1;\nst.global.u32 [%rd1], %r12;\n"
                       "bfind.shiftamt.s32 %r13, %r1;\nst.global.u32 [%rd1+8], %r13;\n"
                       "bfind.u32 %r14, %r1;\nst.global.u32 [%rd1+16], %r14;\n"
                       "bfind.s64 %r15, %rd4;\nst.global.u32 [%rd1+24], %r15;\n"
                       "bfind.shiftamt.u32 %r16, %r1;\nst.global.u32 [%rd1+32], %r16;\n";
    /* negative: the highest bit that differs from the sign */
    Words o = run_ops(body, 0xFFFF0000, 0xFFFFFFFFFFFFFF00ull, 0, 0);
    EQ32(o.w[0], 15);
    EQ32(o.w[1], 16);
    EQ32(o.w[2], 31);
    EQ32(o.w[3], 7);
    EQ32(o.w[4], 0);
    o = run_ops(body, 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFFull, 0, 0);
    EQ32(o.w[0], 0xFFFFFFFF); /* -1 has no non-sign bit */
    EQ32(o.w[1], 0xFFFFFFFF); /* shiftamt keeps "not found" */
    EQ32(o.w[3], 0xFFFFFFFF);
    o = run_ops(body, 0, 5, 0, 0);
    EQ32(o.w[0], 0xFFFFFFFF);
    EQ32(o.w[2], 0xFFFFFFFF);
    EQ32(o.w[4], 0xFFFFFFFF);
    EQ32(o.w[3], 2);
    o = run_ops(body, 5, 0, 0, 0);
    EQ32(o.w[0], 2);
    EQ32(o.w[1], 29);
}
END_TEST

START_TEST(test_bfe_bfi)
{
    const char *body = "bfe.u32 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n"
                       "bfe.s32 %r11, %r1, %r2, %r3;\nst.global.u32 [%rd1+8], %r11;\n"
                       "bfe.u64 %rd10, %rd6, %r2, %r3;\nst.global.u64 [%rd1+16], %rd10;\n"
                       "bfe.s64 %rd11, %rd6, %r2, %r3;\nst.global.u64 [%rd1+24], %rd11;\n";
    struct {
        uint32_t a, pos, len;
        uint64_t d;
        uint32_t bfe_u, bfe_s;
        uint64_t bfe_u64, bfe_s64;
    } cases[] = {
        {0x12345678, 8, 8, 0x123456789ABCDEF0ull, 0x56, 0x56, 0xDE, 0xFFFFFFFFFFFFFFDEull},
        /* sign bit of the field set */
        {0x0000F000, 12, 4, 0xFEDCBA9876543210ull, 0xF, 0xFFFFFFFF, 0x3, 0x3},
        {0x0000F000, 12, 5, 0x8000000000000000ull, 0xF, 0xF, 0, 0},
        /* field beyond the width: the sign comes from the msb */
        {0x80000000, 28, 8, 0x8000000000000000ull, 0x8, 0xFFFFFFF8, 0, 0},
        {0x80000000, 60, 8, 0x8000000000000000ull, 0, 0xFFFFFFFF, 0x8, 0xFFFFFFFFFFFFFFF8ull},
        /* length 0: zero, for signed too */
        {0xFFFFFFFF, 4, 0, 0xFFFFFFFFFFFFFFFFull, 0, 0, 0, 0},
        /* position beyond the width */
        {0x80000000, 40, 4, 0x8000000000000000ull, 0, 0xFFFFFFFF, 0, 0},
        {0x80000000, 70, 4, 0x8000000000000000ull, 0, 0xFFFFFFFF, 0, 0xFFFFFFFFFFFFFFFFull},
        /* the whole register, and a length past it */
        {0x87654321, 0, 32, 0x8765432112345678ull, 0x87654321, 0x87654321, 0x12345678, 0x12345678},
        {0x87654321, 0, 40, 0x8765432112345678ull, 0x87654321, 0x87654321, 0x2112345678ull, 0x2112345678ull},
        {0x87654321, 0, 40, 0x876543A112345678ull, 0x87654321, 0x87654321, 0xA112345678ull,
         0xFFFFFFA112345678ull},
        /* the 32-bit forms take the low 8 bits of pos and len, the 64-bit
         * forms the whole values (the H200, op_sweep.py): pos 264 is past
         * the msb, and a length of 256 takes every bit from pos on */
        {0x12345678, 0x108, 0x208, 0x923456789ABCDEF0ull, 0x56, 0x56, 0, 0xFFFFFFFFFFFFFFFFull},
        {0x12345678, 4, 0x100, 0x123456789ABCDEF0ull, 0, 0, 0x0123456789ABCDEFull, 0x0123456789ABCDEFull},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        Words o = run_ops(body, cases[i].a, cases[i].pos, cases[i].len, cases[i].d);
        ck_assert_msg((uint32_t)o.w[0] == cases[i].bfe_u, "case %zu bfe.u32: 0x%08x", i, (uint32_t)o.w[0]);
        ck_assert_msg((uint32_t)o.w[1] == cases[i].bfe_s, "case %zu bfe.s32: 0x%08x", i, (uint32_t)o.w[1]);
        ck_assert_msg(o.w[2] == cases[i].bfe_u64, "case %zu bfe.u64: 0x%016llx", i, (unsigned long long)o.w[2]);
        ck_assert_msg(o.w[3] == cases[i].bfe_s64, "case %zu bfe.s64: 0x%016llx", i, (unsigned long long)o.w[3]);
    }
    /* bfi: insert a's low len bits into b at pos */
    const char *bfi = "bfi.b32 %r12, %r1, %r2, %r3, %r4;\nst.global.u32 [%rd1], %r12;\n"
                      "bfi.b64 %rd12, %rd3, %rd4, %r3, %r4;\nst.global.u64 [%rd1+8], %rd12;\n";
    Words o = run_ops(bfi, 0xAB, 0x12345678, 8, 8);
    EQ32(o.w[0], 0x1234AB78);
    EQ64(o.w[1], 0x1234AB78);
    o = run_ops(bfi, 0xFF, 0x12345678, 28, 8); /* clipped at the msb */
    EQ32(o.w[0], 0xF2345678);
    EQ64(o.w[1], 0xFF2345678ull);
    o = run_ops(bfi, 0xFF, 0x12345678, 4, 0); /* len 0: b unchanged */
    EQ32(o.w[0], 0x12345678);
    o = run_ops(bfi, 0xFFFF, 0, 56, 16);
    EQ64(o.w[1], 0xFF00000000000000ull);
    o = run_ops(bfi, 0xF, 0, 0x104, 0x102); /* 32-bit: the low 8 bits, pos 4, len 2 */
    EQ32(o.w[0], 0x30);
    EQ64(o.w[1], 0); /* 64-bit: pos 260 is past the msb */
    o = run_ops(bfi, 0xF, 0, 4, 0x100);
    EQ32(o.w[0], 0); /* 32-bit: len 0 */
    EQ64(o.w[1], 0xF0); /* 64-bit: len 256 */
}
END_TEST

START_TEST(test_prmt)
{
    /* a = bytes 0..3, b = bytes 4..7 */
    const uint64_t a = 0x44332211, b = 0x88776655;
    const char *def = "prmt.b32 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n";
    struct {
        uint32_t sel, want;
    } dcases[] = {
        {0x3210, 0x44332211}, {0x7654, 0x88776655}, {0x0123, 0x11223344}, {0x4567, 0x55667788},
        /* bit 3 of a selector replicates the selected byte's sign */
        {0x8F07, 0x00FF1188}, {0xBA98, 0x00000000}, {0xFEDC, 0xFF000000}, {0x1111, 0x22222222},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(dcases); i++) {
        Words o = run_ops(def, a, b, dcases[i].sel, 0);
        ck_assert_msg((uint32_t)o.w[0] == dcases[i].want, "prmt 0x%04x: 0x%08x, expected 0x%08x", dcases[i].sel,
                      (uint32_t)o.w[0], dcases[i].want);
    }
    const char *modes = "prmt.b32.f4e %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n"
                        "prmt.b32.b4e %r11, %r1, %r2, %r3;\nst.global.u32 [%rd1+8], %r11;\n"
                        "prmt.b32.rc8 %r12, %r1, %r2, %r3;\nst.global.u32 [%rd1+16], %r12;\n"
                        "prmt.b32.ecl %r13, %r1, %r2, %r3;\nst.global.u32 [%rd1+24], %r13;\n"
                        "prmt.b32.ecr %r14, %r1, %r2, %r3;\nst.global.u32 [%rd1+32], %r14;\n"
                        "prmt.b32.rc16 %r15, %r1, %r2, %r3;\nst.global.u32 [%rd1+40], %r15;\n";
    const uint32_t want[4][6] = {
        /*   f4e         b4e         rc8         ecl         ecr         rc16 */
        {0x44332211, 0x66778811, 0x11111111, 0x44332211, 0x11111111, 0x22112211},
        {0x55443322, 0x77881122, 0x22222222, 0x44332222, 0x22222211, 0x44334433},
        {0x66554433, 0x88112233, 0x33333333, 0x44333333, 0x33332211, 0x22112211},
        {0x77665544, 0x11223344, 0x44444444, 0x44444444, 0x44332211, 0x44334433},
    };
    for (uint32_t s = 0; s < 4; s++) {
        Words o = run_ops(modes, a, b, s | 0xFFFC0, 0); /* only c[1:0] counts */
        for (int k = 0; k < 6; k++)
            ck_assert_msg((uint32_t)o.w[k] == want[s][k], "prmt mode %d sel %u: 0x%08x, expected 0x%08x", k, s,
                          (uint32_t)o.w[k], want[s][k]);
    }
}
END_TEST

START_TEST(test_lop3_shf)
{
    const char *lop = "lop3.b32 %r10, %r1, %r2, %r3, 0x96;\nst.global.u32 [%rd1], %r10;\n"
                      "lop3.b32 %r11, %r1, %r2, %r3, 0xE8;\nst.global.u32 [%rd1+8], %r11;\n"
                      "lop3.b32 %r12, %r1, %r2, %r3, 0x80;\nst.global.u32 [%rd1+16], %r12;\n"
                      "lop3.b32 %r13, %r1, %r2, %r3, 0x3C;\nst.global.u32 [%rd1+24], %r13;\n"
                      "lop3.b32 %r14, %r1, %r2, %r3, 0x00;\nst.global.u32 [%rd1+32], %r14;\n"
                      "lop3.b32 %r15, %r1, %r2, %r3, 0xFF;\nst.global.u32 [%rd1+40], %r15;\n";
    /* with a=0xF0, b=0xCC, c=0xAA in every byte the result is the LUT itself */
    Words o = run_ops(lop, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0);
    EQ32(o.w[0], 0x96969696);
    EQ32(o.w[1], 0xE8E8E8E8);
    EQ32(o.w[2], 0x80808080);
    EQ32(o.w[3], 0x3C3C3C3C);
    EQ32(o.w[4], 0);
    EQ32(o.w[5], 0xFFFFFFFF);
    o = run_ops(lop, 0x12345678, 0x0F0F0F0F, 0xFFFF0000, 0);
    EQ32(o.w[0], 0x12345678u ^ 0x0F0F0F0Fu ^ 0xFFFF0000u);
    EQ32(o.w[2], 0x12345678u & 0x0F0F0F0Fu & 0xFFFF0000u);

    const char *shf = "shf.l.wrap.b32 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n"
                      "shf.l.clamp.b32 %r11, %r1, %r2, %r3;\nst.global.u32 [%rd1+8], %r11;\n"
                      "shf.r.wrap.b32 %r12, %r1, %r2, %r3;\nst.global.u32 [%rd1+16], %r12;\n"
                      "shf.r.clamp.b32 %r13, %r1, %r2, %r3;\nst.global.u32 [%rd1+24], %r13;\n";
    /* a = low word, b = high word */
    o = run_ops(shf, 0x89ABCDEF, 0x01234567, 4, 0);
    EQ32(o.w[0], 0x12345678);
    EQ32(o.w[1], 0x12345678);
    EQ32(o.w[2], 0x789ABCDE);
    EQ32(o.w[3], 0x789ABCDE);
    o = run_ops(shf, 0x89ABCDEF, 0x01234567, 36, 0); /* wrap: 36 & 31 = 4; clamp: 32 */
    EQ32(o.w[0], 0x12345678);
    EQ32(o.w[1], 0x89ABCDEF);
    EQ32(o.w[2], 0x789ABCDE);
    EQ32(o.w[3], 0x01234567);
    o = run_ops(shf, 0x89ABCDEF, 0x01234567, 0, 0);
    EQ32(o.w[0], 0x01234567);
    EQ32(o.w[1], 0x01234567);
    EQ32(o.w[2], 0x89ABCDEF);
    EQ32(o.w[3], 0x89ABCDEF);
    o = run_ops(shf, 0x89ABCDEF, 0x01234567, 32, 0); /* wrap: 0 */
    EQ32(o.w[0], 0x01234567);
    EQ32(o.w[1], 0x89ABCDEF);
    EQ32(o.w[2], 0x89ABCDEF);
    EQ32(o.w[3], 0x01234567);
}
END_TEST

START_TEST(test_pred_logic)
{
    const char *body = "setp.ne.u32 %p1, %r1, 0;\nsetp.ne.u32 %p2, %r2, 0;\n"
                       "and.pred %p3, %p1, %p2;\nor.pred %p4, %p1, %p2;\nxor.pred %p5, %p1, %p2;\n"
                       "not.pred %p6, %p1;\n"
                       "selp.u32 %r10, 1, 0, %p3;\nst.global.u32 [%rd1], %r10;\n"
                       "selp.u32 %r11, 1, 0, %p4;\nst.global.u32 [%rd1+8], %r11;\n"
                       "selp.u32 %r12, 1, 0, %p5;\nst.global.u32 [%rd1+16], %r12;\n"
                       "selp.u32 %r13, 1, 0, %p6;\nst.global.u32 [%rd1+24], %r13;\n"
                       "and.b32 %r14, %r1, %r2;\nst.global.u32 [%rd1+32], %r14;\n"
                       "or.b32 %r15, %r1, %r2;\nst.global.u32 [%rd1+40], %r15;\n"
                       "xor.b32 %r16, %r1, %r2;\nst.global.u32 [%rd1+48], %r16;\n"
                       "mov.u32 %r17, 7;\n@!%p1 bra SKIP;\nst.global.u32 [%rd1+56], %r17;\nSKIP:\n";
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            Words o = run_ops(body, a ? 0x0C : 0, b ? 0x0A : 0, 0, 0);
            EQ32(o.w[0], a && b);
            EQ32(o.w[1], a || b);
            EQ32(o.w[2], a != b);
            EQ32(o.w[3], !a);
            EQ32(o.w[4], (a ? 0xCu : 0) & (b ? 0xAu : 0));
            EQ32(o.w[5], (a ? 0xCu : 0) | (b ? 0xAu : 0));
            EQ32(o.w[6], (a ? 0xCu : 0) ^ (b ? 0xAu : 0));
            EQ32(o.w[7], a ? 7 : (uint32_t)SENTINEL);
        }
}
END_TEST

/* ================================================================ comparisons */

static const char *const int_cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};

static bool int_cmp_model(const char *op, uint32_t a, uint32_t b, bool sgn)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    if (!strcmp(op, "eq")) return a == b;
    if (!strcmp(op, "ne")) return a != b;
    if (!strcmp(op, "lt")) return sgn ? sa < sb : a < b;
    if (!strcmp(op, "le")) return sgn ? sa <= sb : a <= b;
    if (!strcmp(op, "gt")) return sgn ? sa > sb : a > b;
    if (!strcmp(op, "ge")) return sgn ? sa >= sb : a >= b;
    if (!strcmp(op, "lo")) return a < b;
    if (!strcmp(op, "ls")) return a <= b;
    if (!strcmp(op, "hi")) return a > b;
    return a >= b;
}

START_TEST(test_setp_int)
{
    const uint32_t pairs[][2] = {{0xFFFFFFFF, 1}, {1, 0xFFFFFFFF}, {5, 5}, {0x80000000, 0x7FFFFFFF}, {3, 4}};
    for (size_t c = 0; c < G_N_ELEMENTS(int_cmps); c++) {
        const char *op = int_cmps[c];
        bool signed_ok = c < 6; /* lo/ls/hi/hs are the unsigned spellings */
        char *sgn = signed_ok ? g_strdup_printf("setp.%s.s32 %%p2, %%r1, %%r2;\nselp.u32 %%r11, 1, 0, %%p2;\n"
                                                "st.global.u32 [%%rd1+8], %%r11;\n", op)
                              : g_strdup("");
        char *fixed = g_strdup_printf("setp.%s.u32 %%p1, %%r1, %%r2;\nselp.u32 %%r10, 1, 0, %%p1;\n"
                                      "st.global.u32 [%%rd1], %%r10;\n%s"
                                      "setp.%s.u64 %%p3, %%rd3, %%rd4;\nselp.u32 %%r12, 1, 0, %%p3;\n"
                                      "st.global.u32 [%%rd1+16], %%r12;\n",
                                      op, sgn, op);
        g_free(sgn);
        for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++) {
            uint32_t a = pairs[i][0], b = pairs[i][1];
            Words o = run_ops(fixed, a, b, 0, 0);
            /* the u64 operands are the zero-extended pairs */
            ck_assert_msg((uint32_t)o.w[0] == int_cmp_model(op, a, b, false), "setp.%s.u32 0x%x 0x%x", op, a, b);
            if (signed_ok)
                ck_assert_msg((uint32_t)o.w[1] == int_cmp_model(op, a, b, true), "setp.%s.s32 0x%x 0x%x", op,
                              a, b);
            ck_assert_msg((uint32_t)o.w[2] == int_cmp_model(op, a, b, false), "setp.%s.u64 0x%x 0x%x", op, a, b);
        }
        g_free(fixed);
    }
    /* s64 with negative numbers */
    const char *s64 = "setp.lt.s64 %p1, %rd3, %rd4;\nselp.u32 %r10, 1, 0, %p1;\nst.global.u32 [%rd1], %r10;\n"
                      "setp.lt.u64 %p2, %rd3, %rd4;\nselp.u32 %r11, 1, 0, %p2;\nst.global.u32 [%rd1+8], %r11;\n";
    Words o = run_ops(s64, (uint64_t)-1ll, 1, 0, 0);
    EQ32(o.w[0], 1);
    EQ32(o.w[1], 0);
}
END_TEST

static const char *const f_cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu",
                                     "ltu", "leu", "gtu", "geu", "num", "nan"};

static bool f_cmp_model(const char *op, float a, float b)
{
    bool u = isnan(a) || isnan(b);
    if (!strcmp(op, "eq")) return !u && a == b;
    if (!strcmp(op, "ne")) return !u && a != b;
    if (!strcmp(op, "lt")) return !u && a < b;
    if (!strcmp(op, "le")) return !u && a <= b;
    if (!strcmp(op, "gt")) return !u && a > b;
    if (!strcmp(op, "ge")) return !u && a >= b;
    if (!strcmp(op, "equ")) return u || a == b;
    if (!strcmp(op, "neu")) return u || a != b;
    if (!strcmp(op, "ltu")) return u || a < b;
    if (!strcmp(op, "leu")) return u || a <= b;
    if (!strcmp(op, "gtu")) return u || a > b;
    if (!strcmp(op, "geu")) return u || a >= b;
    if (!strcmp(op, "num")) return !u;
    return u;
}

START_TEST(test_setp_float)
{
    const float pairs[][2] = {{1.0f, 2.0f}, {2.0f, 1.0f}, {2.0f, 2.0f}, {NAN, 1.0f}, {1.0f, NAN},
                              {-0.0f, 0.0f}, {INFINITY, 1.0f}, {NAN, NAN}};
    for (size_t c = 0; c < G_N_ELEMENTS(f_cmps); c++) {
        const char *op = f_cmps[c];
        char *body = g_strdup_printf("setp.%s.f32 %%p1, %%f1, %%f2;\nselp.u32 %%r10, 1, 0, %%p1;\n"
                                     "st.global.u32 [%%rd1], %%r10;\n"
                                     "setp.%s.f64 %%p2, %%fd3, %%fd4;\nselp.u32 %%r11, 1, 0, %%p2;\n"
                                     "st.global.u32 [%%rd1+8], %%r11;\n",
                                     op, op);
        for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++) {
            float a = pairs[i][0], b = pairs[i][1];
            Words o = run_ops(body, F(a), F(b), D(a), D(b));
            ck_assert_msg((uint32_t)o.w[0] == f_cmp_model(op, a, b), "setp.%s.f32 %g %g", op, a, b);
            ck_assert_msg((uint32_t)o.w[1] == f_cmp_model(op, a, b), "setp.%s.f64 %g %g", op, a, b);
        }
        g_free(body);
    }
}
END_TEST

START_TEST(test_setp_bool_and_pair)
{
    /* p = (a<b) BOOL c, q = !(a<b) BOOL c; c = (%r3 != 0) */
    const char *body = "setp.ne.u32 %p9, %r3, 0;\n"
                       "setp.lt.and.s32 %p1|%p2, %r1, %r2, %p9;\n"
                       "setp.lt.or.s32 %p3|%p4, %r1, %r2, %p9;\n"
                       "setp.lt.xor.s32 %p5|%p6, %r1, %r2, %p9;\n"
                       "setp.lt.and.s32 %p7|%p8, %r1, %r2, !%p9;\n"
                       "selp.u32 %r10, 1, 0, %p1;\nselp.u32 %r11, 1, 0, %p2;\n"
                       "selp.u32 %r12, 1, 0, %p3;\nselp.u32 %r13, 1, 0, %p4;\n"
                       "selp.u32 %r14, 1, 0, %p5;\nselp.u32 %r15, 1, 0, %p6;\n"
                       "selp.u32 %r16, 1, 0, %p7;\nselp.u32 %r17, 1, 0, %p8;\n"
                       "st.global.u32 [%rd1], %r10;\nst.global.u32 [%rd1+4], %r11;\n"
                       "st.global.u32 [%rd1+8], %r12;\nst.global.u32 [%rd1+12], %r13;\n"
                       "st.global.u32 [%rd1+16], %r14;\nst.global.u32 [%rd1+20], %r15;\n"
                       "st.global.u32 [%rd1+24], %r16;\nst.global.u32 [%rd1+28], %r17;\n"
                       "setp.gt.s32 %p10|%p11, %r1, %r2;\n"
                       "selp.u32 %r18, 1, 0, %p10;\nselp.u32 %r19, 1, 0, %p11;\n"
                       "st.global.u32 [%rd1+32], %r18;\nst.global.u32 [%rd1+36], %r19;\n";
    for (int lt = 0; lt < 2; lt++)
        for (int c = 0; c < 2; c++) {
            Words o = run_ops(body, lt ? NEG32(-4) : 4, 2, c ? 9 : 0, 0);
            uint32_t *v = (uint32_t *)o.w;
            EQ32(v[0], lt && c);
            EQ32(v[1], !lt && c);
            EQ32(v[2], lt || c);
            EQ32(v[3], !lt || c);
            EQ32(v[4], lt != c);
            EQ32(v[5], (!lt) != c);
            EQ32(v[6], lt && !c);
            EQ32(v[7], !lt && !c);
            EQ32(v[8], !lt); /* 4 > 2 or -4 > 2 */
            EQ32(v[9], lt);
        }
}
END_TEST

START_TEST(test_set_setp_half_pairs)
{
    /* a = (hi 1.0, lo 2.0), b = (hi 2.0, lo 1.0) in f16; c = (hi NaN, lo 1.0)
     * and d = (1.0, 1.0) in bf16 */
    Words o = run_ops("set.lt.f16x2.f16x2 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                      "set.ge.u32.f16x2 %r11, %r1, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                      "setp.lt.f16x2 %p1|%p2, %r1, %r2;\nselp.u32 %r12, 1, 0, %p1;\nselp.u32 %r13, 2, 0, %p2;\n"
                      "or.b32 %r12, %r12, %r13;\nst.global.u32 [%rd1+16], %r12;\n"
                      "set.eq.f16.f16 %h5, %h1, %h2;\nset.eq.f16.f16 %h6, %h1, %h1;\n"
                      "st.global.v2.u16 [%rd1+24], {%h5, %h6};\n"
                      "set.neu.bf16x2.bf16x2 %r14, %r3, %r4;\nst.global.u32 [%rd1+32], %r14;\n"
                      "setp.eq.and.bf16x2 %p3|%p4, %r3, %r4, %p2;\nselp.u32 %r15, 1, 0, %p3;\nselp.u32 %r16, 2, 0, %p4;\n"
                      "or.b32 %r15, %r15, %r16;\nst.global.u32 [%rd1+40], %r15;\n",
                      0x3C004000, 0x40003C00, 0x7FC03F80, 0x3F803F80);
    EQ32(o.w[0], 0x3C000000); /* only the high halves compare less */
    EQ32(o.w[1], 0x0000FFFF);
    EQ32(o.w[2], 2);          /* p: low halves, false; q: high halves, true */
    EQ32(o.w[3], 0x3C000000); /* 2.0 == 1.0 is 0, 2.0 == 2.0 is 1.0 */
    EQ32(o.w[4], 0x3F800000); /* NaN != 1.0 unordered: true in the high half */
    EQ32(o.w[5], 1);          /* low halves equal (and q of before); NaN == 1.0 is false */
}
END_TEST

START_TEST(test_set_selp_slct)
{
    const char *body = "set.lt.u32.f32 %r10, %f1, %f2;\nst.global.u32 [%rd1], %r10;\n"
                       "set.lt.f32.s32 %f10, %r3, %r4;\nst.global.f32 [%rd1+8], %f10;\n"
                       "set.nan.u32.f32 %r11, %f1, %f2;\nst.global.u32 [%rd1+16], %r11;\n"
                       "set.ge.s32.s32 %r12, %r3, %r4;\nst.global.u32 [%rd1+24], %r12;\n"
                       "setp.ne.u32 %p1, %r3, 0;\n"
                       "set.eq.and.u32.u32 %r13, %r3, %r3, %p1;\nst.global.u32 [%rd1+32], %r13;\n";
    Words o = run_ops(body, F(1.0f), F(2.0f), NEG32(-1), 1);
    EQ32(o.w[0], 0xFFFFFFFF);
    EQ32(o.w[1], F(1.0f));
    EQ32(o.w[2], 0);
    EQ32(o.w[3], 0);
    EQ32(o.w[4], 0xFFFFFFFF);
    o = run_ops(body, F(2.0f), NAN32, 1, NEG32(-1));
    EQ32(o.w[0], 0);
    EQ32(o.w[1], 0);
    EQ32(o.w[2], 0xFFFFFFFF);
    EQ32(o.w[3], 0xFFFFFFFF);
    o = run_ops(body, 0, 0, 0, 0);
    EQ32(o.w[4], 0); /* eq true but the predicate is false */

    const char *sel = "setp.ne.u32 %p1, %r3, 0;\n"
                      "selp.b32 %r10, %r1, %r2, %p1;\nst.global.u32 [%rd1], %r10;\n"
                      "selp.f64 %fd10, %fd1, %fd2, %p1;\nst.global.f64 [%rd1+8], %fd10;\n"
                      "selp.u64 %rd10, %rd3, %rd4, !%p1;\nst.global.u64 [%rd1+16], %rd10;\n"
                      "slct.u32.s32 %r11, %r1, %r2, %r4;\nst.global.u32 [%rd1+24], %r11;\n"
                      "slct.u32.f32 %r12, %r1, %r2, %f4;\nst.global.u32 [%rd1+32], %r12;\n"
                      "slct.f32.f32 %f12, %f1, %f2, %f4;\nst.global.f32 [%rd1+40], %f12;\n"
                      "slct.u64.s32 %rd11, %rd3, %rd4, %r4;\nst.global.u64 [%rd1+48], %rd11;\n";
    o = run_ops(sel, 111, 222, 1, 0);
    EQ32(o.w[0], 111);
    EQ64(o.w[1], 111);
    EQ64(o.w[2], 222);
    EQ32(o.w[3], 111); /* c = 0 >= 0 */
    EQ32(o.w[4], 111); /* +0.0 >= 0 */
    EQ64(o.w[6], 111);
    o = run_ops(sel, 111, 222, 0, NEG32(-1));
    EQ32(o.w[0], 222);
    EQ64(o.w[2], 111);
    EQ32(o.w[3], 222);
    EQ64(o.w[6], 222);
    o = run_ops(sel, F(1.5f), F(2.5f), 0, 0x80000000); /* -0.0 counts as >= 0 */
    EQ32(o.w[4], F(1.5f));
    EQ32(o.w[5], F(1.5f));
    EQ32(o.w[3], F(2.5f)); /* as s32, 0x80000000 is negative */
    o = run_ops(sel, F(1.5f), F(2.5f), 0, F(-1.0f));
    EQ32(o.w[4], F(2.5f));
    o = run_ops(sel, F(1.5f), F(2.5f), 0, F(7.0f));
    EQ32(o.w[4], F(1.5f));
    o = run_ops(sel, 1, 2, 0, 0x7FFFFFFF);
    EQ32(o.w[3], 1);
    o = run_ops(sel, 1, 2, 0, NAN32); /* NaN >= 0 is false */
    EQ32(o.w[4], 2);
}
END_TEST

/* ================================================================ floating point */

START_TEST(test_copysign_testp)
{
    const char *body = "copysign.f32 %f10, %f1, %f2;\nst.global.f32 [%rd1], %f10;\n"
                       "copysign.f64 %fd10, %fd3, %fd4;\nst.global.f64 [%rd1+8], %fd10;\n";
    Words o = run_ops(body, F(-1.0f), F(2.0f), D(-1.0), D(2.0));
    EQ32(o.w[0], F(-2.0f)); /* |b| with the sign of a */
    EQ64(o.w[1], D(-2.0));
    o = run_ops(body, F(1.0f), F(-3.0f), D(1.0), D(-3.0));
    EQ32(o.w[0], F(3.0f));
    EQ64(o.w[1], D(3.0));

    const char *tp = "testp.finite.f32 %p1, %f1;\ntestp.infinite.f32 %p2, %f1;\n"
                     "testp.number.f32 %p3, %f1;\ntestp.notanumber.f32 %p4, %f1;\n"
                     "testp.normal.f32 %p5, %f1;\ntestp.subnormal.f32 %p6, %f1;\n"
                     "testp.finite.f64 %p7, %fd2;\ntestp.infinite.f64 %p8, %fd2;\n"
                     "testp.number.f64 %p9, %fd2;\ntestp.notanumber.f64 %p10, %fd2;\n"
                     "testp.normal.f64 %p11, %fd2;\ntestp.subnormal.f64 %p12, %fd2;\n"
                     "selp.u32 %r10, 1, 0, %p1;\nselp.u32 %r11, 2, 0, %p2;\nselp.u32 %r12, 4, 0, %p3;\n"
                     "selp.u32 %r13, 8, 0, %p4;\nselp.u32 %r14, 16, 0, %p5;\nselp.u32 %r15, 32, 0, %p6;\n"
                     "or.b32 %r10, %r10, %r11;\nor.b32 %r10, %r10, %r12;\nor.b32 %r10, %r10, %r13;\n"
                     "or.b32 %r10, %r10, %r14;\nor.b32 %r10, %r10, %r15;\nst.global.u32 [%rd1], %r10;\n"
                     "selp.u32 %r20, 1, 0, %p7;\nselp.u32 %r21, 2, 0, %p8;\nselp.u32 %r22, 4, 0, %p9;\n"
                     "selp.u32 %r23, 8, 0, %p10;\nselp.u32 %r24, 16, 0, %p11;\nselp.u32 %r25, 32, 0, %p12;\n"
                     "or.b32 %r20, %r20, %r21;\nor.b32 %r20, %r20, %r22;\nor.b32 %r20, %r20, %r23;\n"
                     "or.b32 %r20, %r20, %r24;\nor.b32 %r20, %r20, %r25;\nst.global.u32 [%rd1+8], %r20;\n";
    /* bits: 1 finite, 2 infinite, 4 number, 8 notanumber, 16 normal, 32 subnormal */
    struct {
        uint64_t f, d;
        uint32_t want;
    } cases[] = {
        {F(1.0f), D(1.0), 1 | 4 | 16},
        /* zero is "normal" on sm_90 (finite and not subnormal): measured */
        {F(-0.0f), D(0.0), 1 | 4 | 16},
        {0x7F800000, D(-INFINITY), 2 | 4},
        {0xFF800000, D(INFINITY), 2 | 4},
        {NAN32, D(NAN), 8},
        {0x00000001, 0x0000000000000001ull, 1 | 4 | 32},
        {0x807FFFFF, 0x800FFFFFFFFFFFFFull, 1 | 4 | 32},
        {0x00800000, 0x0010000000000000ull, 1 | 4 | 16},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        o = run_ops(tp, cases[i].f, cases[i].d, 0, 0);
        ck_assert_msg((uint32_t)o.w[0] == cases[i].want, "testp f32 case %zu: 0x%x, expected 0x%x", i,
                      (uint32_t)o.w[0], cases[i].want);
        ck_assert_msg((uint32_t)o.w[1] == cases[i].want, "testp f64 case %zu: 0x%x, expected 0x%x", i,
                      (uint32_t)o.w[1], cases[i].want);
    }
}
END_TEST

START_TEST(test_fma_and_rounding)
{
    const char *fma = "fma.rn.f32 %f10, %f1, %f2, %f3;\nst.global.f32 [%rd1], %f10;\n"
                      "mul.rn.f32 %f11, %f1, %f2;\nadd.rn.f32 %f12, %f11, %f3;\nst.global.f32 [%rd1+8], %f12;\n"
                      "mad.rn.f32 %f13, %f1, %f2, %f3;\nst.global.f32 [%rd1+16], %f13;\n";
    /* (1+2^-12)^2 - 1 = 2^-11 + 2^-24 exactly, once fused; unfused the 2^-24 is lost */
    Words o = run_ops(fma, 0x3F800800, 0x3F800800, F(-1.0f), 0);
    EQ32(o.w[0], 0x3A000400);
    EQ32(o.w[1], 0x3A000000);
    EQ32(o.w[2], 0x3A000400);
    const char *fma64 = "fma.rn.f64 %fd10, %fd1, %fd2, %fd3;\nst.global.f64 [%rd1], %fd10;\n";
    /* (1+2^-30)^2 - 1 = 2^-29 + 2^-60 */
    o = run_ops(fma64, D(1.0 + 0x1p-30), D(1.0 + 0x1p-30), D(-1.0), 0);
    EQ64(o.w[0], 0x3E20000000200000ull);

    const char *add = "add.rn.f32 %f10, %f1, %f2;\nst.global.f32 [%rd1], %f10;\n"
                      "add.rz.f32 %f11, %f1, %f2;\nst.global.f32 [%rd1+8], %f11;\n"
                      "add.rm.f32 %f12, %f1, %f2;\nst.global.f32 [%rd1+16], %f12;\n"
                      "add.rp.f32 %f13, %f1, %f2;\nst.global.f32 [%rd1+24], %f13;\n"
                      "mul.rz.f32 %f14, %f3, %f3;\nst.global.f32 [%rd1+32], %f14;\n"
                      "mul.rp.f32 %f15, %f3, %f3;\nst.global.f32 [%rd1+40], %f15;\n"
                      "sub.rm.f32 %f16, %f2, %f1;\nst.global.f32 [%rd1+48], %f16;\n"
                      "fma.rp.f32 %f17, %f3, %f3, %f1;\nst.global.f32 [%rd1+56], %f17;\n";
    /* 1 + 2^-24: exactly half an ulp above 1 */
    o = run_ops(add, F(1.0f), F(0x1p-24f), F(1.0f + 0x1p-23f), 0);
    EQ32(o.w[0], 0x3F800000); /* tie to even */
    EQ32(o.w[1], 0x3F800000);
    EQ32(o.w[2], 0x3F800000);
    EQ32(o.w[3], 0x3F800001);
    /* (1+2^-23)^2 = 1 + 2^-22 + 2^-46 */
    EQ32(o.w[4], 0x3F800002);
    EQ32(o.w[5], 0x3F800003);
    /* 2^-24 - 1 rounded down: -(1 - 2^-24) is exact (ulp below 1 is 2^-24) */
    EQ32(o.w[6], 0xBF7FFFFF);
    /* (1+2^-23)^2 + 1 = 2 + 2^-22 + 2^-46: ulp 2^-22 at 2, rounded up */
    EQ32(o.w[7], 0x40000002);
    /* negative: -1 - 2^-24 */
    o = run_ops(add, F(-1.0f), F(-0x1p-24f), F(1.0f), 0);
    EQ32(o.w[0], 0xBF800000);
    EQ32(o.w[1], 0xBF800000);
    EQ32(o.w[2], 0xBF800001);
    EQ32(o.w[3], 0xBF800000);
    EQ32(o.w[4], F(1.0f));
    /* 1 + 1.5*2^-24: above the tie */
    o = run_ops(add, F(1.0f), F(0x1.8p-24f), F(1.0f), 0);
    EQ32(o.w[0], 0x3F800001);
    EQ32(o.w[1], 0x3F800000);
    EQ32(o.w[2], 0x3F800000);
    EQ32(o.w[3], 0x3F800001);

    const char *add64 = "add.rn.f64 %fd10, %fd1, %fd2;\nst.global.f64 [%rd1], %fd10;\n"
                        "add.rz.f64 %fd11, %fd1, %fd2;\nst.global.f64 [%rd1+8], %fd11;\n"
                        "add.rm.f64 %fd12, %fd1, %fd2;\nst.global.f64 [%rd1+16], %fd12;\n"
                        "add.rp.f64 %fd13, %fd1, %fd2;\nst.global.f64 [%rd1+24], %fd13;\n";
    o = run_ops(add64, D(1.0), D(0x1p-60), 0, 0);
    EQ64(o.w[0], 0x3FF0000000000000ull);
    EQ64(o.w[1], 0x3FF0000000000000ull);
    EQ64(o.w[2], 0x3FF0000000000000ull);
    EQ64(o.w[3], 0x3FF0000000000001ull);
}
END_TEST

START_TEST(test_ftz_sat)
{
    const char *body = "add.ftz.f32 %f10, %f1, %f2;\nst.global.f32 [%rd1], %f10;\n"
                       "add.f32 %f11, %f1, %f2;\nst.global.f32 [%rd1+8], %f11;\n"
                       "mul.ftz.f32 %f12, %f3, %f4;\nst.global.f32 [%rd1+16], %f12;\n"
                       "mul.f32 %f13, %f3, %f4;\nst.global.f32 [%rd1+24], %f13;\n"
                       "setp.eq.ftz.f32 %p1, %f1, 0f00000000;\nselp.u32 %r10, 1, 0, %p1;\nst.global.u32 [%rd1+32], %r10;\n"
                       "setp.eq.f32 %p2, %f1, 0f00000000;\nselp.u32 %r11, 1, 0, %p2;\nst.global.u32 [%rd1+40], %r11;\n"
                       "neg.ftz.f32 %f14, %f1;\nst.global.f32 [%rd1+48], %f14;\n";
    /* a = b = smallest subnormal; c = 2^-100, d = 2^-40: product 2^-140 is subnormal */
    Words o = run_ops(body, 0x00000001, 0x00000001, 0x0D800000, 0x2B800000);
    EQ32(o.w[0], 0x00000000);
    EQ32(o.w[1], 0x00000002);
    EQ32(o.w[2], 0x00000000);
    EQ32(o.w[3], 0x00000200);
    EQ32(o.w[4], 1);
    EQ32(o.w[5], 0);
    EQ32(o.w[6], 0x80000000); /* flushed to +0, then negated */
    o = run_ops(body, 0x80000001, 0, 0, 0);
    EQ32(o.w[0], 0x00000000); /* -subnormal flushes to -0; -0 + +0 = +0 */

    const char *sat = "add.sat.f32 %f10, %f1, %f2;\nst.global.f32 [%rd1], %f10;\n"
                      "mul.sat.f32 %f11, %f1, %f2;\nst.global.f32 [%rd1+8], %f11;\n"
                      "fma.rn.sat.f32 %f12, %f1, %f2, %f3;\nst.global.f32 [%rd1+16], %f12;\n"
                      "cvt.sat.f32.f32 %f13, %f1;\nst.global.f32 [%rd1+24], %f13;\n"
                      "sub.sat.f32 %f14, %f1, %f2;\nst.global.f32 [%rd1+32], %f14;\n";
    o = run_ops(sat, F(0.5f), F(0.75f), F(-1.0f), 0);
    EQ32(o.w[0], F(1.0f));
    EQ32(o.w[1], F(0.375f));
    EQ32(o.w[2], F(0.0f)); /* 0.375 - 1 clamps to 0 */
    EQ32(o.w[3], F(0.5f));
    EQ32(o.w[4], F(0.0f));
    o = run_ops(sat, F(-2.0f), F(1.0f), F(5.0f), 0);
    EQ32(o.w[0], F(0.0f));
    EQ32(o.w[1], F(0.0f));
    EQ32(o.w[2], F(1.0f));
    EQ32(o.w[3], F(0.0f));
    o = run_ops(sat, NAN32, F(1.0f), F(1.0f), 0); /* NaN saturates to +0 */
    EQ32(o.w[0], 0);
    EQ32(o.w[1], 0);
    EQ32(o.w[2], 0);
    EQ32(o.w[3], 0);
    o = run_ops(sat, F(3.0f), F(1.0f), 0, 0);
    EQ32(o.w[3], F(1.0f));
    EQ32(o.w[4], F(1.0f));
}
END_TEST

/* The f64 approximations, against the H200 (probe kernels run through
 * rcp.approx.ftz.f64 and rsqrt.approx{.ftz}.f64 on 6 M inputs): rsqrt is
 * rounded once (1.0 / sqrt(2.0) rounds twice, to ...BCC); the .ftz forms
 * read the upper 32 bits of the operand only and zero the lower 32 of the
 * result. */
START_TEST(test_f64_approx_like_the_gpu)
{
    const char *body = "rsqrt.approx.f64 %fd10, %fd1;\nst.global.f64 [%rd1], %fd10;\n"
                       "rcp.approx.ftz.f64 %fd11, %fd2;\nst.global.f64 [%rd1+8], %fd11;\n"
                       "rsqrt.approx.ftz.f64 %fd12, %fd2;\nst.global.f64 [%rd1+16], %fd12;\n"
                       "rcp.approx.ftz.f64 %fd13, %fd3;\nst.global.f64 [%rd1+24], %fd13;\n"
                       "rsqrt.approx.ftz.f64 %fd14, %fd4;\nst.global.f64 [%rd1+32], %fd14;\n"
                       "rcp.approx.ftz.f64 %fd15, %fd4;\nst.global.f64 [%rd1+40], %fd15;\n";
    /* measured: 2.0 -> 0x3FE6A09E667F3BCD; 0x3FFBDE319F1FBA69 -> 0x3FE25F53_00000000
     * and 0x3FE83F39_00000000; 0x7FE00000_00000000 -> 0 (subnormal result) */
    Words o = run_ops(body, D(2.0), 0x3FFBDE319F1FBA69ull, 0x7FE0000000000000ull, D(-1.0));
    EQ64(o.w[0], 0x3FE6A09E667F3BCDull);
    EQ64(o.w[1], 0x3FE25F5300000000ull);
    EQ64(o.w[2], 0x3FE83F3900000000ull);
    EQ64(o.w[3], 0);
    EQ64(o.w[4], 0x7FFFFFFF00000000ull); /* rsqrt(-1): NaN */
    EQ64(o.w[5], D(-1.0));
    /* an sNaN whose payload is all in the lower half reads as +inf (-> 0); a
     * NaN gives 0x7FFFFFFF00000000 whatever its sign; a subnormal is 0 */
    o = run_ops(body, D(11.854428686111854), 0x7FF0000000000001ull, 0xFFF8000000000000ull, 0x000BDE319F1FBA69ull);
    EQ64(o.w[1], 0);
    EQ64(o.w[3], 0x7FFFFFFF00000000ull);
    EQ64(o.w[4], D(INFINITY));
    EQ64(o.w[5], D(INFINITY));
}
END_TEST

/* The f32 SFU approximations are the H200's bits (sfu.h), not the host
 * libm's: operand -> result pairs measured on the H200 (probe kernels over
 * 262 144 random operands), each one where the correctly rounded value
 * differs, or where subnormals take ptxas's paths. */
START_TEST(test_sfu_approx_like_the_gpu)
{
    const char *body = "rcp.approx.ftz.f32 %f10, %f1;\nst.global.f32 [%rd1], %f10;\n"
                       "rcp.approx.f32 %f11, %f2;\nst.global.f32 [%rd1+8], %f11;\n"
                       "rsqrt.approx.ftz.f32 %f12, %f3;\nst.global.f32 [%rd1+16], %f12;\n"
                       "ex2.approx.ftz.f32 %f13, %f4;\nst.global.f32 [%rd1+24], %f13;\n"
                       "div.approx.f32 %f14, %f4, %f1;\nst.global.f32 [%rd1+32], %f14;\n"
                       "rcp.approx.ftz.f32 %f15, %f2;\nst.global.f32 [%rd1+40], %f15;\n";
    Words o = run_ops(body, 0x4474C582, 0x00715AE4, 0x4D601D4A, 0xC18A8F70);
    EQ32(o.w[0], 0x3A85DF2E); /* 1/979.086: correctly rounded is 0x3A85DF2D */
    EQ32(o.w[1], 0x7E90897A); /* a subnormal operand, scaled */
    EQ32(o.w[2], 0x3888CD85);
    EQ32(o.w[3], 0x36CD1189); /* 2^-17.32 */
    EQ32(o.w[5], 0x7F800000); /* .ftz: the subnormal is +0 */
    /* div.approx: -28.197322 / -1.0574293e-35 is 0x7C006447 (correctly
     * rounded 0x7C006448); a subnormal divisor scales both operands */
    o = run_ops("div.approx.f32 %f10, %f1, %f2;\nst.global.f32 [%rd1], %f10;\n"
                "div.approx.f32 %f11, %f3, %f4;\nst.global.f32 [%rd1+8], %f11;\n",
                0xC1E1941E, 0x8560E3EE, 0x2F67BC41, 0x804045EA);
    EQ32(o.w[0], 0x7C006447);
    EQ32(o.w[1], 0xEEE6C02E);
    o = run_ops("ex2.approx.f32 %f10, %f1;\nst.global.f32 [%rd1], %f10;\n"
                "ex2.approx.ftz.f32 %f11, %f1;\nst.global.f32 [%rd1+8], %f11;\n"
                "ex2.approx.f32 %f12, %f2;\nst.global.f32 [%rd1+16], %f12;\n"
                "rcp.approx.f32 %f13, %f2;\nst.global.f32 [%rd1+24], %f13;\n",
                0xC30B8112, 0x7FC00001, 0, 0);
    EQ32(o.w[0], 0x000002D2); /* 2^-139.504: a subnormal, as the square of 2^(x/2) */
    EQ32(o.w[1], 0);          /* .ftz */
    EQ32(o.w[2], 0x7FFFFFFF); /* a NaN: the canonical one */
    EQ32(o.w[3], 0x7FFFFFFF);
    o = run_ops("sqrt.approx.ftz.f32 %f10, %f1;\nst.global.f32 [%rd1], %f10;\n"
                "sqrt.approx.f32 %f11, %f2;\nst.global.f32 [%rd1+8], %f11;\n"
                "sqrt.approx.ftz.f32 %f12, %f2;\nst.global.f32 [%rd1+16], %f12;\n"
                "div.approx.ftz.f32 %f13, %f3, %f4;\nst.global.f32 [%rd1+24], %f13;\n"
                "div.approx.f32 %f14, %f3, %f4;\nst.global.f32 [%rd1+32], %f14;\n",
                0x645671A0, 0x00715AE4, 0x11E70001, 0x537968AA);
    EQ32(o.w[0], 0x51EA4D6B); /* correctly rounded: 0x51EA4D6C */
    EQ32(o.w[1], 0x1FF0E90A); /* a subnormal operand, scaled */
    EQ32(o.w[2], 0);
    EQ32(o.w[3], 0);          /* .ftz flushes the subnormal quotient */
    EQ32(o.w[4], 0x0003B46B);
}
END_TEST

/* sfu_lanes() takes the common operands of a warp through an inline path
 * and the rest through the scalar functions: every lane's bits must be the
 * scalar function's, for operands of every kind (random bits, and values
 * at the edges of each function's common case) under partial masks. */
START_TEST(test_sfu_lanes_match_scalar)
{
    static const uint32_t edges[] = {
        0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x80800000, 0x3f800000, 0xbf800000,
        0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x42fc0000, 0xc2fc0000,
        0x42fbffff, 0xc2fbffff, 0x42fe0000, 0xc2fe0000, 0x43000000, 0xc3000000, 0x42ff0000, 0xc2fd0000,
        0x3effffff, 0x40000000, 0x40800000, 0x7e800000, 0x7f000000, 0x00ffffff, 0x01000000, 0x3f7fffff,
    };
    GRand *rng = g_rand_new_with_seed(20261125);
    static const SfuFn fns[] = {SFU_RCP, SFU_RSQRT, SFU_SQRT, SFU_EX2};
    for (int round = 0; round < 600; round++) {
        uint32_t a[32], out[32], lanes = round % 3 ? g_rand_int(rng) : 0xffffffffu;
        for (int l = 0; l < 32; l++) {
            uint32_t r = g_rand_int(rng);
            /* random bits, then ex2's range (|a| < 150), then the edges */
            a[l] = round < 200   ? r
                   : round < 400 ? (uint32_t)F((float)g_rand_double_range(rng, -150, 150))
                                 : edges[(l + round) % 32];
        }
        for (int f = 0; f < 4; f++)
            for (int ftz = 0; ftz < 2; ftz++) {
                for (int l = 0; l < 32; l++)
                    out[l] = 0xdeadbeef;
                sfu_lanes(fns[f], ftz, lanes, a, out);
                for (int l = 0; l < 32; l++) {
                    uint32_t want = !(lanes >> l & 1) ? 0xdeadbeef
                                    : fns[f] == SFU_RCP   ? sfu_rcp(a[l], ftz)
                                    : fns[f] == SFU_RSQRT ? sfu_rsqrt(a[l], ftz)
                                    : fns[f] == SFU_SQRT  ? sfu_sqrt(a[l], ftz)
                                                          : sfu_ex2(a[l], ftz);
                    ck_assert_msg(out[l] == want, "fn %d ftz %d operand 0x%08x: lanes 0x%08x, scalar 0x%08x", f,
                                  ftz, a[l], out[l], want);
                }
            }
    }
    g_rand_free(rng);
}
END_TEST

START_TEST(test_div_special)
{
    const char *body = "div.rn.f32 %f10, %f1, %f2;\nst.global.f32 [%rd1], %f10;\n"
                       "div.rz.f32 %f11, %f1, %f2;\nst.global.f32 [%rd1+8], %f11;\n"
                       "div.full.f32 %f12, %f1, %f2;\nst.global.f32 [%rd1+16], %f12;\n"
                       "div.approx.f32 %f13, %f1, %f2;\nst.global.f32 [%rd1+24], %f13;\n"
                       "div.rn.f64 %fd10, %fd3, %fd4;\nst.global.f64 [%rd1+32], %fd10;\n"
                       "div.rm.f64 %fd11, %fd3, %fd4;\nst.global.f64 [%rd1+40], %fd11;\n";
    Words o = run_ops(body, F(1.0f), F(3.0f), D(1.0), D(3.0));
    EQ32(o.w[0], 0x3EAAAAAB);
    EQ32(o.w[1], 0x3EAAAAAA);
    NEAR(asf(o.w[2]), 1.0 / 3.0, 2e-7);
    NEAR(asf(o.w[3]), 1.0 / 3.0, 2e-7);
    EQ64(o.w[4], 0x3FD5555555555555ull);
    EQ64(o.w[5], 0x3FD5555555555555ull); /* 1/3 in f64 rounds down under RN already */
    o = run_ops(body, F(1.0f), F(0.0f), D(-1.0), D(0.0));
    EQ32(o.w[0], 0x7F800000);
    EQ64(o.w[4], D(-INFINITY));
    o = run_ops(body, F(2.0f), F(3.0f), D(2.0), D(3.0));
    EQ64(o.w[4], 0x3FE5555555555555ull);
    EQ64(o.w[5], 0x3FE5555555555555ull);

    const char *sf = "rcp.rn.f32 %f10, %f1;\nst.global.f32 [%rd1], %f10;\n"
                     "rcp.approx.f32 %f11, %f1;\nst.global.f32 [%rd1+8], %f11;\n"
                     "sqrt.rn.f32 %f12, %f2;\nst.global.f32 [%rd1+16], %f12;\n"
                     "sqrt.approx.f32 %f13, %f2;\nst.global.f32 [%rd1+24], %f13;\n"
                     "rsqrt.approx.f32 %f14, %f3;\nst.global.f32 [%rd1+32], %f14;\n"
                     "rcp.rn.f64 %fd10, %fd4;\nst.global.f64 [%rd1+40], %fd10;\n"
                     "sqrt.rn.f64 %fd11, %fd4;\nst.global.f64 [%rd1+48], %fd11;\n";
    o = run_ops(sf, F(3.0f), F(2.0f), F(4.0f), D(2.0));
    EQ32(o.w[0], 0x3EAAAAAB);
    NEAR(asf(o.w[1]), 1.0 / 3.0, 1e-7);
    EQ32(o.w[2], 0x3FB504F3);
    NEAR(asf(o.w[3]), 1.41421356, 3e-7);
    NEAR(asf(o.w[4]), 0.5, 1e-7);
    EQ64(o.w[5], D(0.5));
    EQ64(o.w[6], 0x3FF6A09E667F3BCDull);
    o = run_ops(sf, 0x80000000, F(-1.0f), F(0.0f), D(-0.0));
    EQ32(o.w[0], 0xFF800000); /* 1 / -0 */
    ck_assert(isnan(asf(o.w[2])));
    EQ32(o.w[4], 0x7F800000); /* rsqrt(+0) */
    EQ64(o.w[5], D(-INFINITY));
    EQ64(o.w[6], D(-0.0));    /* sqrt(-0) = -0 */

    const char *tr = "sin.approx.f32 %f10, %f1;\nst.global.f32 [%rd1], %f10;\n"
                     "cos.approx.f32 %f11, %f1;\nst.global.f32 [%rd1+8], %f11;\n"
                     "lg2.approx.f32 %f12, %f2;\nst.global.f32 [%rd1+16], %f12;\n"
                     "ex2.approx.f32 %f13, %f3;\nst.global.f32 [%rd1+24], %f13;\n"
                     "tanh.approx.f32 %f14, %f4;\nst.global.f32 [%rd1+32], %f14;\n"
                     "ex2.approx.ftz.f32 %f15, %f4;\nst.global.f32 [%rd1+40], %f15;\n";
    o = run_ops(tr, F(1.0f), F(8.0f), F(3.0f), F(0.5f));
    NEAR(asf(o.w[0]), 0.8414709848, 1e-6); /* sin(1) */
    NEAR(asf(o.w[1]), 0.5403023059, 1e-6); /* cos(1) */
    NEAR(asf(o.w[2]), 3.0, 1e-6);
    NEAR(asf(o.w[3]), 8.0, 1e-5);
    NEAR(asf(o.w[4]), 0.4621171573, 1e-3); /* tanh(0.5); hardware is good to ~2^-11 */
    NEAR(asf(o.w[5]), 1.4142135624, 1e-6);
}
END_TEST

START_TEST(test_half_arithmetic)
{
    const char *body = "add.f16 %h10, %h1, %h2;\nst.global.u16 [%rd1], %h10;\n"
                       "mul.f16 %h11, %h1, %h2;\nst.global.u16 [%rd1+8], %h11;\n"
                       "fma.rn.f16 %h12, %h1, %h2, %h3;\nst.global.u16 [%rd1+16], %h12;\n"
                       "fma.rn.f16x2 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1+24], %r10;\n"
                       "max.f16 %h13, %h1, %h4;\nst.global.u16 [%rd1+32], %h13;\n"
                       "neg.f16 %h14, %h2;\nst.global.u16 [%rd1+40], %h14;\n"
                       "sub.f16 %h15, %h1, %h1;\nst.global.u16 [%rd1+48], %h15;\n"
                       "add.f16x2 %r11, %r1, %r1;\nst.global.u32 [%rd1+56], %r11;\n";
    /* fma, low halves: 0x1001 = 2^-11 (1 + 2^-10), 0x3BFE = 1 - 2^-10, 0x3C01 = 1 + 2^-10;
     * a*b + c = 1 + 3*2^-11 - 2^-31, just below the tie between 0x3C01 and
     * 0x3C02: correctly rounded, 0x3C01 (an f32 intermediate would make it an
     * exact tie and round to even, 0x3C02).  High halves: 2*3 + 1 = 7. */
    Words o = run_ops(body, 0x40001001, 0x42003BFE, 0x3C003C01, 0x7E00);
    EQ16(o.w[2], 0x3C01);
    EQ32(o.w[3], 0x47003C01);
    EQ16(o.w[4], 0x1001);  /* max with NaN: the number */
    EQ16(o.w[5], 0xBBFE);
    EQ16(o.w[6], 0x0000);
    EQ32(o.w[7], 0x44001401); /* 2+2 and 2*(2^-11 (1+2^-10)) */
    o = run_ops(body, 0x3C00, 0x3C00, 0, 0x3800);
    EQ16(o.w[0], 0x4000);
    EQ16(o.w[1], 0x3C00);
    EQ16(o.w[4], 0x3C00);
    o = run_ops(body, 0x4200, 0x3800, 0, 0);
    EQ16(o.w[0], 0x4300); /* 3 + 0.5 */
    EQ16(o.w[1], 0x3E00); /* 3 * 0.5 */
    o = run_ops(body, 0x7BFF, 0x7BFF, 0, 0);
    EQ16(o.w[0], 0x7C00); /* overflow to inf */
}
END_TEST

/* ================================================================ conversions */

START_TEST(test_cvt_float_to_int)
{
    const char *body = "cvt.rni.s32.f32 %r10, %f1;\nst.global.u32 [%rd1], %r10;\n"
                       "cvt.rzi.s32.f32 %r11, %f1;\nst.global.u32 [%rd1+8], %r11;\n"
                       "cvt.rmi.s32.f32 %r12, %f1;\nst.global.u32 [%rd1+16], %r12;\n"
                       "cvt.rpi.s32.f32 %r13, %f1;\nst.global.u32 [%rd1+24], %r13;\n"
                       "cvt.rzi.u32.f32 %r14, %f1;\nst.global.u32 [%rd1+32], %r14;\n"
                       "cvt.rni.s64.f64 %rd10, %fd2;\nst.global.u64 [%rd1+40], %rd10;\n"
                       "cvt.rzi.s64.f64 %rd11, %fd2;\nst.global.u64 [%rd1+48], %rd11;\n"
                       "cvt.rni.u64.f64 %rd12, %fd2;\nst.global.u64 [%rd1+56], %rd12;\n";
    struct {
        float f;
        double d;
        int32_t rni, rzi, rmi, rpi;
        uint32_t u;
        int64_t rni64, rzi64;
        uint64_t u64;
    } cases[] = {
        {2.5f, 2.5, 2, 2, 2, 3, 2, 2, 2, 2},
        {-2.5f, -2.5, -2, -2, -3, -2, 0, -2, -2, 0},
        {3.5f, 3.5, 4, 3, 3, 4, 3, 4, 3, 4},
        {-0.5f, 0.5, 0, 0, -1, 0, 0, 0, 0, 0},
        {3e9f, 1e20, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, 3000000000u, INT64_MAX, INT64_MAX, UINT64_MAX},
        {-3e9f, -1e20, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, 0, INT64_MIN, INT64_MIN, 0},
        /* NaN: 0 from f32 into 32 bits, the sign-bit pattern into 64 bits
         * (what the H200 does; the ISA says 0) */
        {NAN, NAN, 0, 0, 0, 0, 0, INT64_MIN, INT64_MIN, 0x8000000000000000ull},
        {INFINITY, -INFINITY, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, UINT32_MAX, INT64_MIN, INT64_MIN, 0},
        {5e9f, 2.0, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, UINT32_MAX, 2, 2, 2},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        Words o = run_ops(body, F(cases[i].f), D(cases[i].d), 0, 0);
        ck_assert_msg((int32_t)o.w[0] == cases[i].rni, "rni %g: %d", cases[i].f, (int32_t)o.w[0]);
        ck_assert_msg((int32_t)o.w[1] == cases[i].rzi, "rzi %g: %d", cases[i].f, (int32_t)o.w[1]);
        ck_assert_msg((int32_t)o.w[2] == cases[i].rmi, "rmi %g: %d", cases[i].f, (int32_t)o.w[2]);
        ck_assert_msg((int32_t)o.w[3] == cases[i].rpi, "rpi %g: %d", cases[i].f, (int32_t)o.w[3]);
        ck_assert_msg((uint32_t)o.w[4] == cases[i].u, "rzi.u32 %g: %u", cases[i].f, (uint32_t)o.w[4]);
        ck_assert_msg((int64_t)o.w[5] == cases[i].rni64, "rni.s64 %g: %lld", cases[i].d, (long long)o.w[5]);
        ck_assert_msg((int64_t)o.w[6] == cases[i].rzi64, "rzi.s64 %g: %lld", cases[i].d, (long long)o.w[6]);
        ck_assert_msg(o.w[7] == cases[i].u64, "rni.u64 %g: %llu", cases[i].d, (unsigned long long)o.w[7]);
    }
}
END_TEST

START_TEST(test_cvt_int_to_int)
{
    const char *body = "cvt.sat.u8.s32 %h10, %r1;\nst.global.u16 [%rd1], %h10;\n"
                       "cvt.s64.s32 %rd10, %r1;\nst.global.u64 [%rd1+8], %rd10;\n"
                       "cvt.u64.u32 %rd11, %r1;\nst.global.u64 [%rd1+16], %rd11;\n"
                       "cvt.u16.u32 %h11, %r1;\nst.global.u16 [%rd1+24], %h11;\n"
                       "cvt.s32.s16 %r10, %h1;\nst.global.u32 [%rd1+32], %r10;\n"
                       "cvt.u32.u16 %r11, %h1;\nst.global.u32 [%rd1+40], %r11;\n"
                       "cvt.sat.s16.s32 %h12, %r1;\nst.global.u16 [%rd1+48], %h12;\n"
                       "cvt.s32.s8 %r12, %h1;\nst.global.u32 [%rd1+56], %r12;\n";
    Words o = run_ops(body, 300, 0, 0, 0);
    EQ16(o.w[0], 255);
    EQ64(o.w[1], 300);
    EQ64(o.w[2], 300);
    EQ16(o.w[3], 300);
    EQ32(o.w[4], 300);
    EQ32(o.w[5], 300);
    EQ16(o.w[6], 300);
    EQ32(o.w[7], 0x2C); /* low byte of 300 */
    o = run_ops(body, NEG32(-5), 0, 0, 0);
    EQ16(o.w[0], 0);
    EQ64(o.w[1], 0xFFFFFFFFFFFFFFFBull);
    EQ64(o.w[2], 0x00000000FFFFFFFBull);
    EQ16(o.w[3], 0xFFFB);
    EQ32(o.w[4], NEG32(-5));
    EQ32(o.w[5], 0xFFFB);
    EQ16(o.w[6], 0xFFFB);
    EQ32(o.w[7], NEG32(-5));
    o = run_ops(body, 0x00018080, 0, 0, 0);
    EQ16(o.w[0], 255);
    EQ16(o.w[3], 0x8080);  /* truncation */
    EQ32(o.w[4], 0xFFFF8080);
    EQ32(o.w[5], 0x8080);
    EQ16(o.w[6], 0x7FFF);  /* saturates */
    EQ32(o.w[7], 0xFFFFFF80);
    o = run_ops(body, 100, 0, 0, 0);
    EQ16(o.w[0], 100);
    const char *narrow = "cvt.u8.u32 %h10, %r1;\nst.global.u16 [%rd1], %h10;\n"
                         "cvt.s8.s32 %h11, %r1;\nst.global.u16 [%rd1+8], %h11;\n"
                         "cvt.rzi.s16.f32 %h12, %f2;\nst.global.u16 [%rd1+16], %h12;\n"
                         "cvt.rzi.s8.f32 %h13, %f3;\nst.global.u16 [%rd1+24], %h13;\n"
                         "cvt.rn.f32.u32 %f10, %r4;\nst.global.f32 [%rd1+32], %f10;\n"
                         "cvt.rzi.u8.f32 %h14, %f2;\nst.global.u16 [%rd1+40], %h14;\n";
    o = run_ops(narrow, 0x180, F(-40000.0f), F(200.0f), 0xFFFFFFFF);
    EQ16(o.w[0], 0x0080);  /* truncated to 8 bits, zero-extended */
    EQ16(o.w[1], 0xFF80);  /* truncated to 8 bits, sign-extended */
    EQ16(o.w[2], 0x8000);  /* -40000 saturates at -32768 */
    EQ16(o.w[3], 0x007F);  /* 200 saturates at 127 */
    EQ32(o.w[4], 0x4F800000); /* 2^32 - 1 rounds to 2^32 */
    EQ16(o.w[5], 0x0000);  /* negative into u8 */
    o = run_ops(body, 0x80000000, 0, 0, 0);
    EQ16(o.w[6], 0x8000);
    EQ64(o.w[1], 0xFFFFFFFF80000000ull);
}
END_TEST

START_TEST(test_cvt_float_formats)
{
    const char *body = "cvt.rn.f32.f64 %f10, %fd1;\nst.global.f32 [%rd1], %f10;\n"
                       "cvt.rz.f32.f64 %f11, %fd1;\nst.global.f32 [%rd1+8], %f11;\n"
                       "cvt.rm.f32.f64 %f12, %fd1;\nst.global.f32 [%rd1+16], %f12;\n"
                       "cvt.rp.f32.f64 %f13, %fd1;\nst.global.f32 [%rd1+24], %f13;\n"
                       "cvt.f64.f32 %fd10, %f3;\nst.global.f64 [%rd1+32], %fd10;\n";
    Words o = run_ops(body, D(1.0 / 3.0), 0, F(0.1f), 0);
    EQ32(o.w[0], 0x3EAAAAAB);
    EQ32(o.w[1], 0x3EAAAAAA);
    EQ32(o.w[2], 0x3EAAAAAA);
    EQ32(o.w[3], 0x3EAAAAAB);
    EQ64(o.w[4], 0x3FB99999A0000000ull);
    o = run_ops(body, D(-1.0 / 3.0), 0, 0, 0);
    EQ32(o.w[0], 0xBEAAAAAB);
    EQ32(o.w[1], 0xBEAAAAAA);
    EQ32(o.w[2], 0xBEAAAAAB);
    EQ32(o.w[3], 0xBEAAAAAA);
    o = run_ops(body, D(1e300), 0, 0, 0);
    EQ32(o.w[0], 0x7F800000);
    EQ32(o.w[1], 0x7F7FFFFF);
    EQ32(o.w[2], 0x7F7FFFFF);
    EQ32(o.w[3], 0x7F800000);

    const char *i2f = "cvt.rn.f32.s64 %f10, %rd3;\nst.global.f32 [%rd1], %f10;\n"
                      "cvt.rz.f32.s64 %f11, %rd3;\nst.global.f32 [%rd1+8], %f11;\n"
                      "cvt.rn.f32.u64 %f12, %rd4;\nst.global.f32 [%rd1+16], %f12;\n"
                      "cvt.rn.f32.s32 %f13, %r1;\nst.global.f32 [%rd1+24], %f13;\n"
                      "cvt.rn.f64.s64 %fd10, %rd3;\nst.global.f64 [%rd1+32], %fd10;\n"
                      "cvt.rp.f32.u64 %f14, %rd4;\nst.global.f32 [%rd1+40], %f14;\n";
    o = run_ops(i2f, (1ull << 24) + 3, 0xFFFFFFFFFFFFFFFFull, 0, 0);
    EQ32(o.w[0], 0x4B800002); /* 2^24+3: tie between 2^24+2 and 2^24+4, even is +4 */
    EQ32(o.w[1], 0x4B800001);
    EQ32(o.w[2], 0x5F800000); /* 2^64 */
    EQ32(o.w[3], 0x4B800002);
    EQ64(o.w[4], D(16777219.0));
    EQ32(o.w[5], 0x5F800000);
    o = run_ops(i2f, (uint64_t)-1ll, 1, 0, 0);
    EQ32(o.w[0], F(-1.0f));
    EQ32(o.w[2], F(1.0f));
    EQ32(o.w[3], F(-1.0f));
    o = run_ops(i2f, (1ull << 24) + 1, (1ull << 24) + 1, 0, 0);
    EQ32(o.w[0], 0x4B800000);
    EQ32(o.w[5], 0x4B800001); /* rp rounds up */

    const char *half = "cvt.rn.f16.f32 %h10, %f1;\nst.global.u16 [%rd1], %h10;\n"
                       "cvt.f32.f16 %f10, %h2;\nst.global.f32 [%rd1+8], %f10;\n"
                       "cvt.rn.bf16.f32 %h11, %f3;\nst.global.u16 [%rd1+16], %h11;\n"
                       "cvt.rn.f16x2.f32 %r10, %f1, %f3;\nst.global.u32 [%rd1+24], %r10;\n"
                       "cvt.rz.f16.f32 %h12, %f1;\nst.global.u16 [%rd1+32], %h12;\n";
    struct {
        float in;
        uint16_t f16, f16rz;
        uint16_t h;
        uint32_t back;
        float bin;
        uint16_t bf16;
    } hc[] = {
        {1.0f, 0x3C00, 0x3C00, 0x3C00, 0x3F800000, 1.0f, 0x3F80},
        {65504.0f, 0x7BFF, 0x7BFF, 0x7BFF, 0x477FE000, 1.0f / 3.0f, 0x3EAB},
        {65520.0f, 0x7C00, 0x7BFF, 0x0001, 0x33800000, 0x1.01p0f, 0x3F80},  /* bf16 tie: even */
        {1.0f / 3.0f, 0x3555, 0x3555, 0xFC00, 0xFF800000, 0x1.03p0f, 0x3F82}, /* tie: up to even */
        {0x1p-24f, 0x0001, 0x0001, 0x8000, 0x80000000, -2.0f, 0xC000},
        {-0x1p-26f, 0x8000, 0x8000, 0x7BFF, 0x477FE000, INFINITY, 0x7F80},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(hc); i++) {
        o = run_ops(half, F(hc[i].in), hc[i].h, F(hc[i].bin), 0);
        ck_assert_msg((uint16_t)o.w[0] == hc[i].f16, "cvt.rn.f16.f32 %g: 0x%04x", hc[i].in, (uint16_t)o.w[0]);
        ck_assert_msg((uint32_t)o.w[1] == hc[i].back, "cvt.f32.f16 0x%04x: 0x%08x", hc[i].h, (uint32_t)o.w[1]);
        ck_assert_msg((uint16_t)o.w[2] == hc[i].bf16, "cvt.rn.bf16.f32 %g: 0x%04x", hc[i].bin, (uint16_t)o.w[2]);
        ck_assert_msg((uint16_t)o.w[4] == hc[i].f16rz, "cvt.rz.f16.f32 %g: 0x%04x", hc[i].in, (uint16_t)o.w[4]);
    }
    /* f16x2: the first source goes to the upper half */
    o = run_ops(half, F(1.0f), 0, F(2.0f), 0);
    EQ32(o.w[3], 0x3C004000);

    const char *integral = "cvt.rni.f32.f32 %f10, %f1;\nst.global.f32 [%rd1], %f10;\n"
                           "cvt.rzi.f32.f32 %f11, %f1;\nst.global.f32 [%rd1+8], %f11;\n"
                           "cvt.rmi.f32.f32 %f12, %f1;\nst.global.f32 [%rd1+16], %f12;\n"
                           "cvt.rpi.f32.f32 %f13, %f1;\nst.global.f32 [%rd1+24], %f13;\n"
                           "cvt.rni.f64.f64 %fd10, %fd2;\nst.global.f64 [%rd1+32], %fd10;\n";
    struct {
        float in;
        float rni, rzi, rmi, rpi;
    } ic[] = {
        {2.5f, 2.0f, 2.0f, 2.0f, 3.0f},
        {-2.7f, -3.0f, -2.0f, -3.0f, -2.0f},
        {-0.3f, -0.0f, -0.0f, -1.0f, -0.0f},
        {2.1f, 2.0f, 2.0f, 2.0f, 3.0f},
        {3.5f, 4.0f, 3.0f, 3.0f, 4.0f},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(ic); i++) {
        o = run_ops(integral, F(ic[i].in), D(ic[i].in), 0, 0);
        ck_assert_msg((uint32_t)o.w[0] == F(ic[i].rni), "rni %g: %g", ic[i].in, asf(o.w[0]));
        ck_assert_msg((uint32_t)o.w[1] == F(ic[i].rzi), "rzi %g: %g", ic[i].in, asf(o.w[1]));
        ck_assert_msg((uint32_t)o.w[2] == F(ic[i].rmi), "rmi %g: %g", ic[i].in, asf(o.w[2]));
        ck_assert_msg((uint32_t)o.w[3] == F(ic[i].rpi), "rpi %g: %g", ic[i].in, asf(o.w[3]));
        ck_assert_msg(o.w[4] == D(ic[i].rni), "rni.f64 %g: %g", ic[i].in, asd(o.w[4]));
    }
}
END_TEST

/* ================================================================ moves, addresses */

START_TEST(test_mov_pack_cvta)
{
    const char *body = "mov.b64 %rd10, {%r1, %r2};\nst.global.u64 [%rd1], %rd10;\n"
                       "mov.b64 {%r10, %r11}, %rd5;\nst.global.u32 [%rd1+8], %r10;\nst.global.u32 [%rd1+16], %r11;\n"
                       "mov.b32 {%h10, %h11}, %r1;\nst.global.u16 [%rd1+24], %h10;\nst.global.u16 [%rd1+32], %h11;\n"
                       "mov.b32 %r12, {%h2, %h1};\nst.global.u32 [%rd1+40], %r12;\n"
                       "mov.u32 %r13, %r1;\nst.global.u32 [%rd1+48], %r13;\n"
                       "mov.f32 %f10, 0f3F800000;\nst.global.f32 [%rd1+56], %f10;\n";
    Words o = run_ops(body, 0x11112222, 0x33334444, 0xAAAABBBBCCCCDDDDull, 0);
    EQ64(o.w[0], 0x3333444411112222ull);
    EQ32(o.w[1], 0xCCCCDDDD);
    EQ32(o.w[2], 0xAAAABBBB);
    EQ16(o.w[3], 0x2222);
    EQ16(o.w[4], 0x1111);
    EQ32(o.w[5], 0x22224444);
    EQ32(o.w[6], 0x11112222);
    EQ32(o.w[7], F(1.0f));

    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<20>;\n.reg .b64 %rd<30>;\n.reg .pred %p<8>;\n"
               ".shared .align 8 .b32 sh[4];\n"
               ".local .align 8 .b8 depot[16];\n"
               "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
               /* shared: generic store, shared load */
               "mov.u64 %rd10, sh;\ncvta.shared.u64 %rd11, %rd10;\n"
               "mov.u32 %r15, 42;\nst.u32 [%rd11+4], %r15;\nld.shared.u32 %r1, [sh+4];\nst.global.u32 [%rd1], %r1;\n"
               "cvta.to.shared.u64 %rd12, %rd11;\nsetp.eq.u64 %p1, %rd12, %rd10;\n"
               "selp.u32 %r2, 1, 0, %p1;\nst.global.u32 [%rd1+4], %r2;\n"
               /* local: generic store, local load, and the reverse */
               "mov.u64 %rd13, depot;\ncvta.local.u64 %rd14, %rd13;\n"
               "mov.u32 %r16, 77;\nst.u32 [%rd14+8], %r16;\nld.local.u32 %r3, [%rd13+8];\nst.global.u32 [%rd1+8], %r3;\n"
               "mov.u32 %r17, 88;\nst.local.u32 [depot], %r17;\nld.u32 %r4, [%rd14];\nst.global.u32 [%rd1+12], %r4;\n"
               "cvta.to.local.u64 %rd15, %rd14;\nsetp.eq.u64 %p2, %rd15, %rd13;\n"
               "selp.u32 %r5, 1, 0, %p2;\nst.global.u32 [%rd1+16], %r5;\n"
               /* global: generic and .global addresses are the same */
               "cvta.to.global.u64 %rd16, %rd2;\ncvta.global.u64 %rd17, %rd16;\n"
               "ld.global.u32 %r6, [%rd16];\nld.u32 %r7, [%rd17];\n"
               "st.global.u32 [%rd1+20], %r6;\nst.global.u32 [%rd1+24], %r7;\n"
               "setp.eq.u64 %p3, %rd16, %rd2;\nselp.u32 %r8, 1, 0, %p3;\nst.global.u32 [%rd1+28], %r8;\n"
               /* isspacep */
               "isspacep.shared %p4, %rd11;\nselp.u32 %r9, 1, 0, %p4;\nst.global.u32 [%rd1+32], %r9;\n"
               "isspacep.global %p5, %rd11;\nselp.u32 %r10, 1, 0, %p5;\nst.global.u32 [%rd1+36], %r10;\n"
               "isspacep.local %p6, %rd14;\nselp.u32 %r11, 1, 0, %p6;\nst.global.u32 [%rd1+40], %r11;\n"
               "isspacep.global %p7, %rd17;\nselp.u32 %r12, 1, 0, %p7;\nst.global.u32 [%rd1+44], %r12;\n"
               "ret;\n}\n";
    uint32_t out[12] = {0};
    uint32_t in[2] = {0xC0FFEE, 0};
    run_kernel(ptx, 1, 1, out, sizeof out, in, sizeof in);
    EQ32(out[0], 42);
    EQ32(out[1], 1);
    EQ32(out[2], 77);
    EQ32(out[3], 88);
    EQ32(out[4], 1);
    EQ32(out[5], 0xC0FFEE);
    EQ32(out[6], 0xC0FFEE);
    EQ32(out[7], 1);
    EQ32(out[8], 1);
    EQ32(out[9], 0);
    EQ32(out[10], 1);
    EQ32(out[11], 1);
}
END_TEST

/* ================================================================ loads and stores */

START_TEST(test_ld_st_widths)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b16 %h<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<30>;\n.reg .f32 %f<8>;\n.reg .f64 %fd<4>;\n"
               "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
               "ld.global.u8 %r1, [%rd2];\nst.global.u32 [%rd1], %r1;\n"
               "ld.global.s8 %r2, [%rd2];\nst.global.u32 [%rd1+4], %r2;\n"
               "ld.global.u16 %r3, [%rd2+2];\nst.global.u32 [%rd1+8], %r3;\n"
               "ld.global.s16 %r4, [%rd2+2];\nst.global.u32 [%rd1+12], %r4;\n"
               "ld.global.s8 %h1, [%rd2+1];\nst.global.u16 [%rd1+16], %h1;\n"
               "ld.global.s32 %rd3, [%rd2+4];\nst.global.u64 [%rd1+24], %rd3;\n"
               "ld.global.u32 %rd4, [%rd2+4];\nst.global.u64 [%rd1+32], %rd4;\n"
               "ld.global.v2.u32 {%r5, %r6}, [%rd2+8];\n"
               "st.global.u32 [%rd1+40], %r6;\nst.global.u32 [%rd1+44], %r5;\n"
               "ld.global.v4.u32 {%r7, %r8, %r9, %r10}, [%rd2+16];\n"
               "st.global.v4.u32 [%rd1+48], {%r10, %r9, %r8, %r7};\n"
               "ld.global.v2.u64 {%rd5, %rd6}, [%rd2+16];\n"
               "st.global.v2.u64 [%rd1+64], {%rd6, %rd5};\n"
               "ld.global.v4.u16 {%h2, %h3, %h4, %h5}, [%rd2+32];\n"
               "st.global.v4.u16 [%rd1+80], {%h5, %h4, %h3, %h2};\n"
               "ld.global.v2.f32 {%f1, %f2}, [%rd2+8];\nadd.f32 %f3, %f1, %f2;\nst.global.f32 [%rd1+88], %f3;\n"
               "ld.global.f64 %fd1, [%rd2+40];\nst.global.f64 [%rd1+96], %fd1;\n"
               "ld.global.u8 %r11, [%rd2+3];\nst.global.u8 [%rd1+104], %r11;\n"
               "st.global.u8 [%rd1+105], %r11;\n"
               "st.global.u16 [%rd1+106], %r4;\n"
               "ld.global.nc.u32 %r12, [%rd2+4];\nst.global.u32 [%rd1+108], %r12;\n"
               "ldu.global.u32 %r13, [%rd2+4];\nst.global.u32 [%rd1+112], %r13;\n"
               "ld.global.nc.v2.u32 {%r14, %r15}, [%rd2+8];\nst.global.u32 [%rd1+116], %r15;\n"
               "ret;\n}\n";
    uint8_t in[48] = {0x80, 0xF0, 0x34, 0x92, /* u8 0x80, s16 at 2 = 0x9234 */
                      0xFE, 0xFF, 0xFF, 0xFF, /* s32 -2 */
                      0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, /* 1.0f, 2.0f */
                      1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, /* 1,2,3,4 */
                      0x11, 0x11, 0x22, 0x22, 0x33, 0x33, 0x44, 0x44,
                      0, 0, 0, 0, 0, 0, 0xF8, 0x3F}; /* 1.5 as f64 (at 40) */
    uint8_t out[120];
    memset(out, 0xA5, sizeof out);
    run_kernel(ptx, 1, 1, out, sizeof out, in, sizeof in);
    uint32_t u32[30];
    uint64_t u64[15];
    memcpy(u32, out, sizeof u32);
    memcpy(u64, out, sizeof u64);
    EQ32(u32[0], 0x80);
    EQ32(u32[1], 0xFFFFFF80); /* ld.s8 into a 32-bit register sign-extends */
    EQ32(u32[2], 0x9234);
    EQ32(u32[3], 0xFFFF9234);
    EQ16(u32[4], 0xFFF0);
    EQ64(u64[3], 0xFFFFFFFFFFFFFFFEull);
    EQ64(u64[4], 0x00000000FFFFFFFEull);
    EQ32(u32[10], F(2.0f));
    EQ32(u32[11], F(1.0f));
    EQ32(u32[12], 4);
    EQ32(u32[13], 3);
    EQ32(u32[14], 2);
    EQ32(u32[15], 1);
    EQ64(u64[8], 0x0000000400000003ull);
    EQ64(u64[9], 0x0000000200000001ull);
    EQ64(u64[10], 0x1111222233334444ull);
    EQ32(u32[22], F(3.0f));
    EQ64(u64[12], D(1.5));
    EQ32(out[104], 0x92);
    EQ32(out[105], 0x92);
    EQ32(out[106] | out[107] << 8, 0x9234);
    EQ32(u32[27], 0xFFFFFFFE);
    EQ32(u32[28], 0xFFFFFFFE);
    EQ32(u32[29], F(2.0f));
}
END_TEST

START_TEST(test_shared_local_const)
{
    /* every thread writes its tid to shared, then reads its neighbour's;
     * and keeps a private local array it reads back; and reads a const table */
    const char *ptx =
        HEADER ".const .align 4 .b32 tab[4] = {10, 20, 30, 40};\n"
               ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<30>;\n.reg .b64 %rd<30>;\n.reg .pred %p<4>;\n"
               ".shared .align 4 .b32 sh[64];\n"
               ".local .align 4 .b8 __local_depot0[32];\n"
               ".reg .b64 %SP;\n.reg .b64 %SPL;\n"
               "mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\n"
               "ld.param.u64 %rd1, [out];\n"
               "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\n"
               "mov.u64 %rd2, sh;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
               "st.shared.u32 [%rd4], %r1;\n"
               /* local: 8 words of tid*100 + i, through the generic and the local view */
               "mov.u32 %r3, 0;\n"
               "LOOP:\nmad.lo.s32 %r4, %r1, 100, %r3;\nmul.wide.u32 %rd5, %r3, 4;\n"
               "add.s64 %rd6, %SP, %rd5;\nst.u32 [%rd6], %r4;\nadd.s32 %r3, %r3, 1;\n"
               "setp.lt.u32 %p1, %r3, 8;\n@%p1 bra LOOP;\n"
               "bar.sync 0;\n"
               "add.s32 %r5, %r1, 1;\nrem.u32 %r6, %r5, %r2;\nmul.wide.u32 %rd7, %r6, 4;\n"
               "add.s64 %rd8, %rd2, %rd7;\nld.shared.u32 %r7, [%rd8];\n"
               "mul.wide.u32 %rd9, %r1, 16;\nadd.s64 %rd10, %rd1, %rd9;\n"
               "st.global.u32 [%rd10], %r7;\n"
               "add.u64 %rd11, %SPL, 12;\nld.local.u32 %r8, [%rd11];\nld.local.u32 %r9, [__local_depot0+28];\n"
               "add.s32 %r10, %r8, %r9;\nst.global.u32 [%rd10+4], %r10;\n"
               "and.b32 %r11, %r1, 3;\nmul.wide.u32 %rd12, %r11, 4;\nmov.u64 %rd13, tab;\n"
               "add.s64 %rd14, %rd13, %rd12;\nld.const.u32 %r12, [%rd14];\n"
               "ld.const.u32 %r13, [tab+8];\nadd.s32 %r14, %r12, %r13;\nst.global.u32 [%rd10+8], %r14;\n"
               "ret;\n}\n";
    enum { N = 64 };
    uint32_t out[N * 4];
    memset(out, 0, sizeof out);
    run_kernel(ptx, 1, N, out, sizeof out, NULL, 0);
    static const uint32_t tab[4] = {10, 20, 30, 40};
    for (uint32_t t = 0; t < N; t++) {
        EQ32(out[t * 4], (t + 1) % N);
        EQ32(out[t * 4 + 1], (t * 100 + 3) + (t * 100 + 7));
        EQ32(out[t * 4 + 2], tab[t & 3] + 30);
    }
}
END_TEST

/* ================================================================ atomics */

static const char *atom_kernel_fmt =
    HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
           ".reg .b32 %%r<20>;\n.reg .b64 %%rd<20>;\n.reg .f32 %%f<8>;\n.reg .f64 %%fd<8>;\n.reg .pred %%p<4>;\n"
           "ld.param.u64 %%rd1, [out];\nld.param.u64 %%rd2, [in];\n"
           "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd3, %%r1, 8;\nadd.s64 %%rd4, %%rd1, %%rd3;\n"
           "add.s64 %%rd5, %%rd4, 8;\n" /* out[0] is the target, out[1 + tid] the returned old value */
           "%s\n"
           "ret;\n}\n";

/* independent serial model: lanes in order */
typedef uint64_t (*AtomModel)(uint64_t old, uint64_t v, uint64_t c);
static uint64_t m_add32(uint64_t o, uint64_t v, uint64_t c) { (void)c; return (uint32_t)(o + v); }
static uint64_t m_min_s32(uint64_t o, uint64_t v, uint64_t c)
{
    (void)c;
    return (uint32_t)((int32_t)o < (int32_t)v ? (int32_t)o : (int32_t)v);
}
static uint64_t m_max_u32(uint64_t o, uint64_t v, uint64_t c) { (void)c; return (uint32_t)o > (uint32_t)v ? o : v; }
static uint64_t m_inc(uint64_t o, uint64_t v, uint64_t c) { (void)c; return o >= v ? 0 : o + 1; }
static uint64_t m_dec(uint64_t o, uint64_t v, uint64_t c) { (void)c; return (o == 0 || o > v) ? v : o - 1; }
static uint64_t m_exch(uint64_t o, uint64_t v, uint64_t c) { (void)o; (void)c; return v; }
static uint64_t m_cas(uint64_t o, uint64_t v, uint64_t c) { return o == v ? c : o; }
static uint64_t m_and(uint64_t o, uint64_t v, uint64_t c) { (void)c; return o & v; }
static uint64_t m_or(uint64_t o, uint64_t v, uint64_t c) { (void)c; return o | v; }
static uint64_t m_xor(uint64_t o, uint64_t v, uint64_t c) { (void)c; return o ^ v; }
static uint64_t m_add64(uint64_t o, uint64_t v, uint64_t c) { (void)c; return o + v; }
static uint64_t m_min_s64(uint64_t o, uint64_t v, uint64_t c)
{
    (void)c;
    return (int64_t)o < (int64_t)v ? o : v;
}
static uint64_t m_max_u64(uint64_t o, uint64_t v, uint64_t c) { (void)c; return o > v ? o : v; }

/* Runs `body` (which computes %r2/%rd6 = v and %r3/%rd7 = c from %r1 = tid
 * and performs the atomic on [%rd1] returning into %r4 or %rd8, stored by
 * the body) over nthreads, and checks final value and old values against the
 * serial model in thread order. */
static void check_atomic(const char *what, const char *body, int nthreads, bool wide, uint64_t init,
                         uint64_t (*val)(int), uint64_t (*cmpv)(int), AtomModel model)
{
    char *ptx = g_strdup_printf(atom_kernel_fmt, body);
    uint64_t out[1 + 64];
    for (int i = 0; i < 1 + 64; i++)
        out[i] = SENTINEL;
    out[0] = init;
    run_kernel(ptx, 1, (uint32_t)nthreads, out, sizeof out, NULL, 0);
    uint64_t mask = wide ? ~0ull : 0xFFFFFFFFull;
    /* lanes of a warp serialise in lane order; which warp goes first is the
     * launch's business, so both orders of the (at most two) warps pass */
    char *why = NULL;
    for (int order = 0; order < (nthreads > 32 ? 2 : 1); order++) {
        uint64_t cur = init & mask;
        g_free(why);
        why = NULL;
        for (int k = 0; k < nthreads && !why; k++) {
            int t = order == 0 ? k : (k + 32) % nthreads;
            uint64_t got = out[1 + t] & mask;
            if (got != cur)
                why = g_strdup_printf("%s: thread %d got old 0x%llx, expected 0x%llx", what, t,
                                      (unsigned long long)got, (unsigned long long)cur);
            cur = model(cur, val(t) & mask, cmpv ? cmpv(t) & mask : 0) & mask;
        }
        if (!why && (out[0] & mask) != cur)
            why = g_strdup_printf("%s: final 0x%llx, expected 0x%llx", what, (unsigned long long)(out[0] & mask),
                                  (unsigned long long)cur);
        if (!why)
            break;
    }
    ck_assert_msg(why == NULL, "%s", why);
    g_free(ptx);
}

static uint64_t v_one(int t) { (void)t; return 1; }
static uint64_t v_tid(int t) { return (uint64_t)t; }
static uint64_t v_tid_plus1(int t) { return (uint64_t)t + 1; }
static uint64_t v_tid_minus40(int t) { return (uint64_t)(uint32_t)(t * 7 % 64 - 40); }
static uint64_t v_bit(int t) { return 1ull << (t % 32); }
static uint64_t v_notbit(int t) { return (uint32_t)~(1u << (t % 32)); }
static uint64_t v_five(int t) { (void)t; return 5; }
static uint64_t v_big(int t) { return 0x100000001ull * (uint64_t)(t + 1); }
static uint64_t v_s64(int t) { return (uint64_t)((int64_t)(t * 37 % 64) - 32) * 0x10000000000ll; }

START_TEST(test_atomics_global)
{
    /* 64 threads = 2 warps contend on one word */
    check_atomic("atom.add.u32", "atom.global.add.u32 %r4, [%rd1], 1;\nst.global.u32 [%rd5], %r4;", 64, false,
                 0, v_one, NULL, m_add32);
    check_atomic("atom.add.u32 tid", "atom.global.add.u32 %r4, [%rd1], %r1;\nst.global.u32 [%rd5], %r4;", 64,
                 false, 0xFFFFFF00, v_tid, NULL, m_add32);
    check_atomic("atom.min.s32",
                 "mul.lo.u32 %r2, %r1, 7;\nrem.u32 %r2, %r2, 64;\nsub.s32 %r2, %r2, 40;\n"
                 "atom.global.min.s32 %r4, [%rd1], %r2;\nst.global.u32 [%rd5], %r4;",
                 64, false, 10, v_tid_minus40, NULL, m_min_s32);
    check_atomic("atom.max.u32",
                 "mul.lo.u32 %r2, %r1, 7;\nrem.u32 %r2, %r2, 64;\nsub.s32 %r2, %r2, 40;\n"
                 "atom.global.max.u32 %r4, [%rd1], %r2;\nst.global.u32 [%rd5], %r4;",
                 64, false, 10, v_tid_minus40, NULL, m_max_u32);
    check_atomic("atom.inc.u32", "atom.global.inc.u32 %r4, [%rd1], 5;\nst.global.u32 [%rd5], %r4;", 64, false, 0,
                 v_five, NULL, m_inc);
    check_atomic("atom.dec.u32", "atom.global.dec.u32 %r4, [%rd1], 5;\nst.global.u32 [%rd5], %r4;", 64, false, 2,
                 v_five, NULL, m_dec);
    check_atomic("atom.dec.u32 above", "atom.global.dec.u32 %r4, [%rd1], 5;\nst.global.u32 [%rd5], %r4;", 8,
                 false, 9, v_five, NULL, m_dec);
    check_atomic("atom.exch.b32", "atom.global.exch.b32 %r4, [%rd1], %r1;\nst.global.u32 [%rd5], %r4;", 64,
                 false, 777, v_tid, NULL, m_exch);
    check_atomic("atom.cas.b32",
                 "add.s32 %r3, %r1, 1;\natom.global.cas.b32 %r4, [%rd1], %r1, %r3;\nst.global.u32 [%rd5], %r4;",
                 64, false, 0, v_tid, v_tid_plus1, m_cas);
    check_atomic("atom.cas.b32 miss",
                 "add.s32 %r3, %r1, 1;\natom.global.cas.b32 %r4, [%rd1], %r1, %r3;\nst.global.u32 [%rd5], %r4;",
                 64, false, 5, v_tid, v_tid_plus1, m_cas);
    check_atomic("atom.or.b32",
                 "and.b32 %r5, %r1, 31;\nshl.b32 %r2, 1, %r5;\natom.global.or.b32 %r4, [%rd1], %r2;\n"
                 "st.global.u32 [%rd5], %r4;",
                 64, false, 0, v_bit, NULL, m_or);
    check_atomic("atom.and.b32",
                 "and.b32 %r5, %r1, 31;\nshl.b32 %r2, 1, %r5;\nnot.b32 %r2, %r2;\n"
                 "atom.global.and.b32 %r4, [%rd1], %r2;\nst.global.u32 [%rd5], %r4;",
                 32, false, 0xFFFFFFFF, v_notbit, NULL, m_and);
    check_atomic("atom.xor.b32", "atom.global.xor.b32 %r4, [%rd1], %r1;\nst.global.u32 [%rd5], %r4;", 64, false,
                 0x5A5A, v_tid, NULL, m_xor);
    check_atomic("atom.add.u64",
                 "add.s32 %r2, %r1, 1;\ncvt.u64.u32 %rd6, %r2;\nmul.lo.u64 %rd6, %rd6, 0x100000001;\n"
                 "atom.global.add.u64 %rd8, [%rd1], %rd6;\nst.global.u64 [%rd5], %rd8;",
                 64, true, 0xFFFFFFFF00000000ull, v_big, NULL, m_add64);
    check_atomic("atom.min.s64",
                 "mul.lo.u32 %r2, %r1, 37;\nrem.u32 %r2, %r2, 64;\nsub.s32 %r2, %r2, 32;\n"
                 "cvt.s64.s32 %rd6, %r2;\nshl.b64 %rd6, %rd6, 40;\n"
                 "atom.global.min.s64 %rd8, [%rd1], %rd6;\nst.global.u64 [%rd5], %rd8;",
                 64, true, 0, v_s64, NULL, m_min_s64);
    check_atomic("atom.max.u64",
                 "mul.lo.u32 %r2, %r1, 37;\nrem.u32 %r2, %r2, 64;\nsub.s32 %r2, %r2, 32;\n"
                 "cvt.s64.s32 %rd6, %r2;\nshl.b64 %rd6, %rd6, 40;\n"
                 "atom.global.max.u64 %rd8, [%rd1], %rd6;\nst.global.u64 [%rd5], %rd8;",
                 64, true, 0, v_s64, NULL, m_max_u64);
    check_atomic("atom.exch.b64",
                 "cvt.u64.u32 %rd6, %r1;\natom.global.exch.b64 %rd8, [%rd1], %rd6;\nst.global.u64 [%rd5], %rd8;",
                 64, true, 0xFFFFFFFFFFFFFFFFull, v_tid, NULL, m_exch);
}
END_TEST

/* 16-bit float atomics (atomicAdd on __half, __half2, __nv_bfloat16 and
 * __nv_bfloat162 compile to these): each half rounded to nearest. 32 lanes
 * each add 1.0 to a pair of halves holding (1, 0.5), 0.25 to a bf16, and
 * 1.0 to a bf16x2 pair; lane 0 sees the initial values. */
START_TEST(test_atomics_half)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b16 %h<8>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .pred %p<2>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
               "mov.b32 %r2, 0x3C003C00;\n"                              /* (1.0, 1.0) f16 */
               "atom.global.add.noftz.f16x2 %r3, [%rd1], %r2;\n"
               "mov.b16 %h1, 0x3E80;\n"                                   /* 0.25 bf16 */
               "atom.global.add.noftz.bf16 %h2, [%rd1+4], %h1;\n"
               "mov.b32 %r4, 0x3F803F80;\n"                              /* (1.0, 1.0) bf16 */
               "red.global.add.noftz.bf16x2 [%rd1+8], %r4;\n"
               "mov.b16 %h3, 0x3C00;\n"
               "atom.global.add.noftz.f16 %h4, [%rd1+12], %h3;\n"
               "setp.eq.u32 %p1, %r1, 0;\n"
               "@%p1 st.global.u32 [%rd1+16], %r3;\n@%p1 st.global.u16 [%rd1+20], %h2;\n"
               "ret;\n}\n";
    uint32_t out[8] = {0};
    out[0] = 0x38003C00; /* (1.0, 0.5) */
    out[1] = 0x3F80;     /* 1.0 bf16 */
    out[2] = 0;
    out[3] = 0xFC00;     /* -inf f16: stays -inf */
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    EQ32(out[0], 0x50105020); /* (33.0, 32.5) */
    EQ32(out[1], 0x4110);     /* 1 + 32 * 0.25 = 9.0 bf16 */
    EQ32(out[2], 0x42004200); /* 32.0, 32.0 bf16 */
    EQ32(out[3], 0xFC00);
    EQ32(out[4], 0x38003C00); /* lane 0 went first: the initial pair */
    EQ32(out[5] & 0xFFFF, 0x3F80);
}
END_TEST

/* The reserved shared memory cooperative groups use for tiles wider than
 * a warp: after the CTA's own 100 bytes, at 128, 1 KiB of it, usable by
 * every warp (here: each warp ors its bit into the word at offset_1, as
 * tiled_partition<64>'s barrier does); %total_smem_size stays the CTA's. */
START_TEST(test_reserved_smem)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .pred %p<2>;\n"
               ".shared .align 4 .b8 own[100];\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
               "mov.u32 %r2, %reserved_smem_offset_1;\n"
               "setp.eq.u32 %p1, %r1, 0;\n"
               "@%p1 st.shared.u32 [%r2], 0;\n"
               "bar.sync 0;\n"
               "shr.u32 %r3, %r1, 5;\nmov.u32 %r4, 1;\nshl.b32 %r4, %r4, %r3;\n"
               "cvt.u64.u32 %rd2, %r2;\ncvta.shared.u64 %rd3, %rd2;\n"
               "red.or.b32 [%rd3], %r4;\n"                      /* generic address into the region */
               "bar.sync 0;\n"
               "ld.shared.u32 %r5, [%r2+1020];\n"               /* its last word is there too */
               "ld.shared.u32 %r6, [%r2];\n"
               "mov.u32 %r7, %reserved_smem_offset_begin;\nmov.u32 %r8, %reserved_smem_offset_cap;\n"
               "mov.u32 %r9, %total_smem_size;\n"
               "@%p1 st.global.u32 [%rd1], %r6;\n@%p1 st.global.u32 [%rd1+4], %r7;\n"
               "@%p1 st.global.u32 [%rd1+8], %r8;\n@%p1 st.global.u32 [%rd1+12], %r9;\n"
               "@%p1 st.global.u32 [%rd1+16], %r2;\n@%p1 st.global.u32 [%rd1+20], %r5;\n"
               "ret;\n}\n";
    uint32_t out[8] = {0};
    run_kernel(ptx, 2, 128, out, sizeof out, NULL, 0);
    EQ32(out[0], 0xF);   /* the four warps' bits */
    EQ32(out[1], 128);   /* after the CTA's 100 bytes, aligned */
    EQ32(out[2], 1024);
    EQ32(out[3], 100);
    EQ32(out[4], 128);
    EQ32(out[5], 0);     /* zeroed with the CTA's shared memory */
}
END_TEST

/* Vector atomics (atomicAdd on float2 and float4, sm_90): one access,
 * each element added; lane 0 sees the initial vector. */
START_TEST(test_atomics_vector)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .f32 %f<20>;\n.reg .pred %p<2>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
               "mov.f32 %f1, 0f3F800000;\nmov.f32 %f2, 0f40000000;\nmov.f32 %f3, 0f3F000000;\nmov.f32 %f4, 0fBF800000;\n"
               "atom.global.add.v4.f32 {%f5, %f6, %f7, %f8}, [%rd1], {%f1, %f2, %f3, %f4};\n"
               "red.global.add.v2.f32 [%rd1+16], {%f2, %f3};\n"
               "setp.eq.u32 %p1, %r1, 0;\n"
               "@%p1 st.global.v4.f32 [%rd1+32], {%f5, %f6, %f7, %f8};\n"
               "ret;\n}\n";
    float out[12] = {10, 20, 30, 40, 1, 2, 0, 0, 0, 0, 0, 0};
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    const float want[12] = {42, 84, 46, 8, 65, 18, 0, 0, 10, 20, 30, 40};
    for (int i = 0; i < 12; i++)
        ck_assert_msg(out[i] == want[i], "element %d: %g, expected %g", i, out[i], want[i]);
}
END_TEST

START_TEST(test_atomics_float_shared_red)
{
    /* f32/f64 adds of exactly representable values: a deterministic sum */
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .f32 %f<8>;\n.reg .f64 %fd<8>;\n.reg .pred %p<2>;\n"
               ".shared .align 8 .b32 cnt;\n.shared .align 8 .b64 cnt64;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
               "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\n"
               "atom.global.add.f32 %f1, [%rd1], 0f3FC00000;\n"          /* += 1.5 */
               "st.global.f32 [%rd4+64], %f1;\n"
               "atom.global.add.f64 %fd1, [%rd1+8], 0d3FD0000000000000;\n" /* += 0.25 */
               "red.global.add.u32 [%rd1+16], %r1;\n"
               "red.global.max.s32 [%rd1+20], %r1;\n"
               "red.global.add.f32 [%rd1+24], 0f3F000000;\n"
               "setp.eq.u32 %p1, %r1, 0;\n"
               "@%p1 st.shared.u32 [cnt], 100;\n@%p1 st.shared.u64 [cnt64], 0;\n"
               "bar.sync 0;\n"
               "atom.shared.add.u32 %r2, [cnt], 2;\n"
               "atom.shared.add.u64 %rd5, [cnt64], 3;\n"
               "atom.shared.max.s32 %r3, [cnt], 0;\n"
               "bar.sync 0;\n"
               "st.global.u32 [%rd4+192], %r2;\n"
               "ld.shared.u32 %r4, [cnt];\nld.shared.u64 %rd6, [cnt64];\n"
               "cvt.u32.u64 %r5, %rd6;\n"
               "@%p1 st.global.u32 [%rd1+28], %r4;\n@%p1 st.global.u32 [%rd1+32], %r5;\n"
               "ret;\n}\n";
    enum { N = 32 };
    uint32_t out[48 + N] = {0};
    out[5] = (uint32_t)-5;
    run_kernel(ptx, 1, N, out, sizeof out, NULL, 0);
    float f;
    memcpy(&f, &out[0], 4);
    ck_assert_msg(f == 48.0f, "atom.add.f32 total %g", f);
    double d;
    memcpy(&d, &out[2], 8);
    ck_assert_msg(d == 8.0, "atom.add.f64 total %g", d);
    EQ32(out[4], N * (N - 1) / 2);
    EQ32(out[5], N - 1);
    memcpy(&f, &out[6], 4);
    ck_assert_msg(f == 16.0f, "red.add.f32 total %g", f);
    EQ32(out[7], 100 + 2 * N);
    EQ32(out[8], 3 * N);
    for (int t = 0; t < N; t++) {
        memcpy(&f, &out[16 + t], 4);
        ck_assert_msg(f == 1.5f * (float)t, "old value seen by thread %d: %g", t, f);
        EQ32(out[48 + t], 100 + 2 * t);
    }
}
END_TEST

/* ================================================================ warp-wide operations */

START_TEST(test_vote_divergent)
{
    /* only odd lanes enter the region; predicates mention even lanes too */
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .pred %p<12>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\n"
               "mul.wide.u32 %rd2, %r1, 32;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "and.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 0;\n"
               "@%p1 bra DONE;\n"
               "setp.lt.u32 %p2, %r1, 8;\n"
               "vote.sync.ballot.b32 %r3, %p2, 0xAAAAAAAA;\nst.global.u32 [%rd3], %r3;\n"
               "vote.sync.all.pred %p3, %p2, 0xAAAAAAAA;\nselp.u32 %r4, 1, 0, %p3;\nst.global.u32 [%rd3+4], %r4;\n"
               "vote.sync.any.pred %p4, %p2, 0xAAAAAAAA;\nselp.u32 %r5, 1, 0, %p4;\nst.global.u32 [%rd3+8], %r5;\n"
               "setp.eq.u32 %p5, %r1, 4;\n" /* true only in an inactive lane */
               "vote.sync.any.pred %p6, %p5, 0xAAAAAAAA;\nselp.u32 %r6, 1, 0, %p6;\nst.global.u32 [%rd3+12], %r6;\n"
               "setp.ne.u32 %p7, %r2, 0;\n" /* true in every active lane */
               "vote.sync.all.pred %p8, %p7, 0xAAAAAAAA;\nselp.u32 %r7, 1, 0, %p8;\nst.global.u32 [%rd3+16], %r7;\n"
               "vote.sync.uni.pred %p9, %p7, 0xAAAAAAAA;\nselp.u32 %r8, 1, 0, %p9;\nst.global.u32 [%rd3+20], %r8;\n"
               "vote.sync.uni.pred %p10, %p2, 0xAAAAAAAA;\nselp.u32 %r9, 1, 0, %p10;\nst.global.u32 [%rd3+24], %r9;\n"
               "vote.sync.ballot.b32 %r10, !%p2, 0xAAAAAAAA;\nst.global.u32 [%rd3+28], %r10;\n"
               "DONE:\nret;\n}\n";
    uint32_t out[32 * 8];
    memset(out, 0xEE, sizeof out);
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *o = &out[l * 8];
        if (!(l & 1)) {
            EQ32(o[0], 0xEEEEEEEE);
            continue;
        }
        EQ32(o[0], 0x000000AA); /* lanes 1,3,5,7 */
        EQ32(o[1], 0);
        EQ32(o[2], 1);
        EQ32(o[3], 0);
        EQ32(o[4], 1);
        EQ32(o[5], 1);
        EQ32(o[6], 0);
        EQ32(o[7], 0xAAAAAA00);
    }
}
END_TEST

/* Each half-warp is a group of its own (a tile of 16, as cooperative
 * groups makes it) in one converged instruction: every lane's vote and
 * match see only the executing lanes of its own member mask. */
START_TEST(test_vote_match_own_mask)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .pred %p<12>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\n"
               "mul.wide.u32 %rd2, %r1, 32;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "setp.lt.u32 %p1, %r1, 16;\nselp.b32 %r2, 0x0000FFFF, 0xFFFF0000, %p1;\n" /* own half's mask */
               "setp.ge.u32 %p2, %r1, 16;\n"                                               /* true in the upper half */
               "vote.sync.ballot.b32 %r3, %p2, %r2;\nst.global.u32 [%rd3], %r3;\n"
               "vote.sync.any.pred %p3, %p2, %r2;\nselp.u32 %r4, 1, 0, %p3;\nst.global.u32 [%rd3+4], %r4;\n"
               "vote.sync.all.pred %p4, %p1, %r2;\nselp.u32 %r5, 1, 0, %p4;\nst.global.u32 [%rd3+8], %r5;\n"
               "vote.sync.uni.pred %p5, %p2, %r2;\nselp.u32 %r6, 1, 0, %p5;\nst.global.u32 [%rd3+12], %r6;\n"
               "and.b32 %r7, %r1, 17;\n" /* lanes 0-15: 0 or 1; lanes 16-31: 16 or 17 */
               "match.any.sync.b32 %r8, %r7, %r2;\nst.global.u32 [%rd3+16], %r8;\n"
               "shr.u32 %r9, %r1, 4;\n" /* the same within each half */
               "match.all.sync.b32 %r10|%p6, %r9, %r2;\nst.global.u32 [%rd3+20], %r10;\n"
               "selp.u32 %r11, 1, 0, %p6;\nst.global.u32 [%rd3+24], %r11;\n"
               "ret;\n}\n";
    uint32_t out[32 * 8];
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *o = &out[l * 8];
        bool upper = l >= 16;
        uint32_t half = upper ? 0xFFFF0000u : 0x0000FFFFu;
        EQ32(o[0], upper ? 0xFFFF0000u : 0);
        EQ32(o[1], upper);
        EQ32(o[2], !upper);
        EQ32(o[3], 1);
        EQ32(o[4], half & ((l & 1) ? 0xAAAAAAAAu : 0x55555555u));
        EQ32(o[5], half);
        EQ32(o[6], 1);
    }
}
END_TEST

/* griddepcontrol (programmatic dependent launch) has nothing to wait for
 * when launches run one after another; brkpt stops the launch, but only
 * when executed. */
START_TEST(test_griddepcontrol_brkpt)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
               "griddepcontrol.wait;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "setp.gt.u32 %p1, %r1, 40;\n@%p1 brkpt;\n"
               "add.u32 %r2, %r1, 9;\nst.global.u32 [%rd3], %r2;\n"
               "griddepcontrol.launch_dependents;\nret;\n}\n";
    uint32_t out[32];
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    for (uint32_t l = 0; l < 32; l++)
        EQ32(out[l], l + 9);
    uint32_t wide[64];
    TuBuf bufs[2] = {{wide, sizeof wide}, {out, sizeof out}};
    char *err = tu_run(ptx, "k", 1, 64, bufs, 2, NULL, 0);
    ck_assert_msg(err && strstr(err, "brkpt executed") && strstr(err, "thread (41,0,0)"), "got: %s",
                  err ? err : "success");
    g_free(err);
}
END_TEST

/* A fault names the CUDA source line too when the PTX carries line info
 * (.file and .loc, as nvcc -lineinfo writes them). */
START_TEST(test_fault_source_line)
{
    const char *ptx =
        HEADER ".file 1 \"/src/kern.cu\"\n"
               ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
               ".loc 1 7 3\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4096;\nadd.s64 %rd3, %rd1, %rd2;\n"
               ".loc 1 12 5\n"
               "st.global.u32 [%rd3], %r1;\nret;\n}\n";
    uint32_t out[32], in[1];
    TuBuf bufs[2] = {{out, sizeof out}, {in, sizeof in}};
    char *err = tu_run(ptx, "k", 1, 32, bufs, 2, NULL, 0);
    ck_assert_msg(err && strstr(err, "invalid global write") && strstr(err, "from /src/kern.cu:12"), "got: %s",
                  err ? err : "success");
    g_free(err);
}
END_TEST

START_TEST(test_shfl)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<30>;\n.reg .b64 %rd<20>;\n.reg .pred %p<12>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\n"
               "mul.wide.u32 %rd2, %r1, 64;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "mul.lo.u32 %r2, %r1, 10;\n"
               "shfl.sync.up.b32 %r3|%p1, %r2, 1, 0, -1;\n"
               "shfl.sync.down.b32 %r4|%p2, %r2, 1, 0x1f, -1;\n"
               "shfl.sync.bfly.b32 %r5|%p3, %r2, 1, 0x1f, -1;\n"
               "shfl.sync.idx.b32 %r6|%p4, %r2, 5, 0x1f, -1;\n"
               "shfl.sync.down.b32 %r7|%p5, %r2, 1, 0x101f, -1;\n" /* width 16 */
               "shfl.sync.up.b32 %r8|%p6, %r2, 1, 0x1000, -1;\n"
               "shfl.sync.idx.b32 %r9, %r2, 3, 0x101f, -1;\n"
               "shfl.sync.bfly.b32 %r10, %r2, 4, 0x181f, -1;\n"    /* width 8 */
               "shfl.sync.down.b32 %r11|%p7, %r2, 16, 0x1f, -1;\n"
               "shfl.sync.idx.b32 %r12|%p8, %r2, 40, 0x1f, -1;\n"  /* only b[4:0] counts: lane 8 */
               "st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
               "st.global.v4.u32 [%rd3+16], {%r7, %r8, %r9, %r10};\n"
               "st.global.v2.u32 [%rd3+32], {%r11, %r12};\n"
               "selp.u32 %r20, 1, 0, %p1;\nselp.u32 %r21, 2, 0, %p2;\nselp.u32 %r22, 4, 0, %p3;\n"
               "selp.u32 %r23, 8, 0, %p4;\nselp.u32 %r24, 16, 0, %p5;\nselp.u32 %r25, 32, 0, %p6;\n"
               "selp.u32 %r26, 64, 0, %p7;\n"
               "or.b32 %r20, %r20, %r21;\nor.b32 %r20, %r20, %r22;\nor.b32 %r20, %r20, %r23;\n"
               "or.b32 %r20, %r20, %r24;\nor.b32 %r20, %r20, %r25;\nor.b32 %r20, %r20, %r26;\n"
               "st.global.u32 [%rd3+40], %r20;\n"
               "ret;\n}\n";
    uint32_t out[32 * 16];
    memset(out, 0, sizeof out);
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *o = &out[l * 16];
        uint32_t v = l * 10;
        EQ32(o[0], l == 0 ? v : (l - 1) * 10);
        EQ32(o[1], l == 31 ? v : (l + 1) * 10);
        EQ32(o[2], (l ^ 1) * 10);
        EQ32(o[3], 50);
        EQ32(o[4], (l % 16) == 15 ? v : (l + 1) * 10);
        EQ32(o[5], (l % 16) == 0 ? v : (l - 1) * 10);
        EQ32(o[6], ((l & 16) | 3) * 10);
        EQ32(o[7], (l ^ 4) * 10);
        EQ32(o[8], l + 16 > 31 ? v : (l + 16) * 10);
        EQ32(o[9], 80);
        uint32_t preds = (l != 0) | (l != 31) << 1 | 4 | 8 | ((l % 16) != 15) << 4 | ((l % 16) != 0) << 5 |
                         (l < 16) << 6;
        ck_assert_msg(o[10] == preds, "lane %u predicates 0x%x, expected 0x%x", l, o[10], preds);
    }
}
END_TEST

START_TEST(test_activemask_match)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<30>;\n.reg .b64 %rd<20>;\n.reg .pred %p<12>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\n"
               "mul.wide.u32 %rd2, %r1, 32;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "activemask.b32 %r2;\nst.global.u32 [%rd3], %r2;\n"
               "shr.u32 %r3, %r1, 2;\n"
               "match.any.sync.b32 %r4, %r3, -1;\nst.global.u32 [%rd3+4], %r4;\n"
               "match.all.sync.b32 %r5|%p1, %r3, -1;\nselp.u32 %r6, 1, 0, %p1;\n"
               "st.global.u32 [%rd3+8], %r5;\nst.global.u32 [%rd3+12], %r6;\n"
               "mov.u32 %r7, 7;\nmatch.all.sync.b32 %r8|%p2, %r7, -1;\nselp.u32 %r9, 1, 0, %p2;\n"
               "st.global.u32 [%rd3+16], %r8;\nst.global.u32 [%rd3+20], %r9;\n"
               "setp.ge.u32 %p3, %r1, 5;\n@%p3 bra SKIP;\n"
               "activemask.b32 %r10;\nst.global.u32 [%rd3+24], %r10;\n"
               "match.any.sync.b32 %r11, %r3, 0x1f;\nst.global.u32 [%rd3+28], %r11;\n"
               "SKIP:\nret;\n}\n";
    uint32_t out[32 * 8];
    memset(out, 0xEE, sizeof out);
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *o = &out[l * 8];
        EQ32(o[0], 0xFFFFFFFF);
        EQ32(o[1], 0xFu << (4 * (l / 4)));
        EQ32(o[2], 0);
        EQ32(o[3], 0);
        EQ32(o[4], 0xFFFFFFFF);
        EQ32(o[5], 1);
        EQ32(o[6], l < 5 ? 0x1F : 0xEEEEEEEE);
        EQ32(o[7], l < 4 ? 0x0F : l == 4 ? 0x10 : 0xEEEEEEEE);
    }
}
END_TEST

/* ================================================================ register rows */

/* Registers that are never live together share a row of the register file
 * (cfg.h).  Each case below breaks under a wrong sharing rule: a guarded
 * write that ended a live range, a row shared across divergent paths by
 * value rather than per lane, a shuffle whose destination shares its
 * source's row, and .reg parameters and return values of a .func. */
START_TEST(test_register_rows_shared_safely)
{
    const char *ptx =
        HEADER ".func (.reg .b32 ret) addmul(.reg .b32 a, .reg .b32 b)\n{\n"
               ".reg .b32 %t<4>;\nadd.u32 %t1, a, b;\nmul.lo.u32 %t2, %t1, 3;\n"
               "mov.u32 %t3, 5;\nadd.u32 ret, %t2, %t3;\nret;\n}\n"
               ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .pred %p<4>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\n"
               "mul.wide.u32 %rd2, %r1, 20;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "mov.u32 %r2, 7;\nmov.u32 %r3, 3;\nst.global.u32 [%rd3], %r3;\n"
               "setp.lt.u32 %p1, %r1, 16;\n@%p1 mov.u32 %r2, 9;\nst.global.u32 [%rd3+4], %r2;\n"
               "mov.u32 %r4, 100;\n@%p1 bra A;\n"
               "mov.u32 %r5, 200;\nadd.u32 %r6, %r5, %r1;\nst.global.u32 [%rd3+8], %r6;\nbra J;\n"
               "A:\nadd.u32 %r7, %r4, %r1;\nst.global.u32 [%rd3+8], %r7;\n"
               "J:\nadd.u32 %r8, %r1, 1000;\nshfl.sync.up.b32 %r9, %r8, 1, 0, -1;\n"
               "st.global.u32 [%rd3+12], %r9;\n"
               "call.uni (%r10), addmul, (%r1, %r3);\nst.global.u32 [%rd3+16], %r10;\n"
               "ret;\n}\n";
    /* few registers, so greedy colouring would give the (dead) %r3 the row
     * of %r2 unless the guarded write keeps %r2 live across it */
    const char *guarded =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
               "mov.u32 %r1, %laneid;\nmov.u32 %r2, 7;\nsetp.lt.u32 %p1, %r1, 16;\n"
               "mov.u32 %r3, 3;\n@%p1 mov.u32 %r2, 9;\n"
               "ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "st.global.u32 [%rd3], %r2;\nret;\n}\n";
    uint32_t kept[32];
    run_kernel(guarded, 1, 32, kept, sizeof kept, NULL, 0);
    for (uint32_t l = 0; l < 32; l++)
        EQ32(kept[l], l < 16 ? 9 : 7);

    uint32_t out[32 * 5];
    memset(out, 0xEE, sizeof out);
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *o = &out[l * 5];
        EQ32(o[0], 3);
        EQ32(o[1], l < 16 ? 9 : 7);
        EQ32(o[2], l < 16 ? 100 + l : 200 + l);
        EQ32(o[3], l == 0 ? 1000 : 999 + l);
        EQ32(o[4], (l + 3) * 3 + 5);
    }
}
END_TEST

/* A kernel may pass its own parameter straight to a call: the argument is
 * the launch's value (kernel parameters have no per-lane copy), whether or
 * not the kernel's body declares .param variables of its own. */
START_TEST(test_kernel_parameter_as_call_argument)
{
    const char *store =
        HEADER ".func put(.param .b64 src, .param .b64 dst)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
               "ld.param.b64 %rd1, [src];\nld.param.b64 %rd2, [dst];\n"
               "ld.global.u32 %r1, [%rd1];\nst.global.u32 [%rd2], %r1;\nret;\n}\n"
               ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<5>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\nmul.wide.u32 %rd2, %r1, 4;\n"
               "add.s64 %rd3, %rd1, %rd2;\ncall.uni put, (in, %rd3);\nret;\n}\n";
    const char *returned =
        HEADER ".func (.param .b32 r) first(.param .b64 src)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
               "ld.param.b64 %rd1, [src];\nld.global.u32 %r1, [%rd1];\nst.param.b32 [r], %r1;\nret;\n}\n"
               ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<4>;\n"
               ".param .b32 got;\ncall.uni (got), first, (in);\nld.param.b32 %r2, [got];\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\nmul.wide.u32 %rd2, %r1, 4;\n"
               "add.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r2;\nret;\n}\n";
    const uint32_t in[1] = {0x1234abcd};
    const char *cases[] = {store, returned};
    for (int c = 0; c < 2; c++) {
        uint32_t out[32];
        memset(out, 0xEE, sizeof out);
        run_kernel(cases[c], 1, 32, out, sizeof out, in, sizeof in);
        for (uint32_t l = 0; l < 32; l++)
            EQ32(out[l], 0x1234abcd);
    }
}
END_TEST

/* ================================================================ special registers */

/* tu_run launches 1-D grids only: this runs a kernel k(out) on any grid. */
static char *run_grid(const char *ptx, Dim3 grid, Dim3 block, void *out, size_t out_size)
{
    GError *error = NULL;
    char *msg = NULL;
    GlobalMemory *g = gmem_new();
    ModuleImage *img = NULL;
    uint8_t *params = NULL;
    LaunchStats stats;
    bool have_stats = false;
    Module *m = ptx_parse_string(ptx, "grid.ptx", &error);
    if (!m || !cfg_build_all(m, &error))
        goto done;
    img = image_load(m, g, &error);
    if (!img)
        goto done;
    uint32_t k = module_find_kernel(m, "k", &error);
    if (k == NO_INDEX)
        goto done;
    params = g_malloc0(module_func(m, k)->frame_param_bytes + 8);
    uint64_t addr = gmem_alloc(g, out_size, "out", &error);
    if (!addr)
        goto done;
    memcpy(gmem_ptr(g, addr, out_size), out, out_size);
    if (!launch_pack_param(m, k, 0, addr, params, &error))
        goto done;
    LaunchSpec spec = {.kernel = k, .grid = grid, .block = block, .params = params, .nsm = 4,
                       .max_instructions = 10000000};
    launch_stats_init(&stats, m);
    have_stats = true;
    if (launch_run(img, &spec, &stats, &error))
        memcpy(out, gmem_ptr(g, addr, out_size), out_size);
done:
    if (have_stats)
        launch_stats_clear(&stats);
    if (error) {
        msg = g_strdup(error->message);
        g_error_free(error);
    }
    g_free(params);
    image_free(img);
    module_free(m);
    gmem_free(g);
    return msg;
}

START_TEST(test_special_registers_3d)
{
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out)\n{\n"
               ".reg .b32 %r<40>;\n.reg .b64 %rd<20>;\n"
               "ld.param.u64 %rd1, [out];\n"
               "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\nmov.u32 %r3, %tid.z;\n"
               "mov.u32 %r4, %ntid.x;\nmov.u32 %r5, %ntid.y;\nmov.u32 %r6, %ntid.z;\n"
               "mov.u32 %r7, %ctaid.x;\nmov.u32 %r8, %ctaid.y;\nmov.u32 %r9, %ctaid.z;\n"
               "mov.u32 %r10, %nctaid.x;\nmov.u32 %r11, %nctaid.y;\nmov.u32 %r12, %nctaid.z;\n"
               "mov.u32 %r13, %laneid;\nmov.u32 %r14, %lanemask_lt;\nmov.u32 %r15, %lanemask_le;\n"
               "mov.u32 %r16, %lanemask_eq;\nmov.u32 %r17, %lanemask_ge;\nmov.u32 %r18, %lanemask_gt;\n"
               "mov.u32 %r19, %nsmid;\nmov.u32 %r20, %smid;\n"
               /* linear thread id and block id */
               "mad.lo.u32 %r21, %r3, %r5, %r2;\nmad.lo.u32 %r21, %r21, %r4, %r1;\n"
               "mad.lo.u32 %r22, %r9, %r11, %r8;\nmad.lo.u32 %r22, %r22, %r10, %r7;\n"
               "mul.lo.u32 %r23, %r4, %r5;\nmul.lo.u32 %r23, %r23, %r6;\n"
               "mad.lo.u32 %r24, %r22, %r23, %r21;\n"
               "mul.wide.u32 %rd2, %r24, 80;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
               "st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
               "st.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r12};\n"
               "st.global.v4.u32 [%rd3+48], {%r13, %r14, %r15, %r16};\n"
               "st.global.v4.u32 [%rd3+64], {%r17, %r18, %r19, %r20};\n"
               "ret;\n}\n";
    const Dim3 grid = {2, 3, 2}, block = {8, 3, 2}; /* 48 threads: a full and a partial warp */
    const uint32_t nblk = 12, nthr = 48;
    uint32_t *out = g_new0(uint32_t, nblk * nthr * 20);
    char *err = run_grid(ptx, grid, block, out, nblk * nthr * 20 * 4);
    ck_assert_msg(err == NULL, "%s", err ? err : "");
    for (uint32_t b = 0; b < nblk; b++)
        for (uint32_t t = 0; t < nthr; t++) {
            const uint32_t *o = &out[(b * nthr + t) * 20];
            uint32_t lane = t % 32;
            uint32_t want[20] = {t % 8, (t / 8) % 3, t / 24, 8, 3, 2, b % 2, (b / 2) % 3, b / 6, 2, 3, 2,
                                 lane, (1u << lane) - 1, (uint32_t)((2ull << lane) - 1), 1u << lane,
                                 ~((1u << lane) - 1), (uint32_t)~((2ull << lane) - 1), 4, b % 4};
            for (int i = 0; i < 20; i++)
                ck_assert_msg(o[i] == want[i], "block %u thread %u field %d: %u (0x%x), expected %u (0x%x)", b, t,
                              i, o[i], o[i], want[i], want[i]);
        }
    g_free(out);
}
END_TEST

/* A CTA's warps reuse the register rows the CTA before them left (only the
 * rows of registers some path reads before writing start zeroed:
 * Cfg.entry_rows).  CTA 0 writes, in every lane, a register that later
 * CTAs write in half of them (a guarded write, so it is live at entry),
 * and a register that later CTAs' upper lanes never write but a shuffle
 * reads from them as inactive source lanes.  Both must read as a fresh
 * CTA's zeros, not CTA 0's values. */
START_TEST(test_register_rows_fresh_per_cta)
{
    /* every register defined before %r5 stays live to DONE, so %r5 has a
     * row of its own (an inactive lane's value there would otherwise be
     * whatever register shared it, in this CTA) */
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out)\n{\n"
               ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %laneid;\n"
               "mad.lo.u32 %r11, %r1, 32, %r2;\nmul.wide.u32 %rd2, %r11, 16;\n"
               "setp.lt.u32 %p2, %r2, 16;\nsetp.eq.u32 %p1, %r1, 0;\nor.pred %p3, %p2, %p1;\n"
               /* live at entry: CTA 0 writes every lane, the others the lower half */
               "@%p1 mov.u32 %r3, 5;\n@%p2 mov.u32 %r3, 7;\n"
               /* not live at entry: CTA 0's upper lanes write %r5, the others' leave first */
               "@!%p3 bra DONE;\nadd.u32 %r5, %r2, 100;\n@!%p2 bra DONE;\n"
               "add.u32 %r7, %r2, 16;\nshfl.sync.idx.b32 %r6, %r5, %r7, 31, 0xffff;\n"
               "selp.u32 %r8, 1, 0, %p1;\nselp.u32 %r9, 10, 0, %p3;\nadd.u32 %r10, %r8, %r9;\n"
               "add.s64 %rd3, %rd1, %rd2;\nst.global.v2.u32 [%rd3+8], {%r6, %r10};\n"
               "DONE:\nadd.s64 %rd3, %rd1, %rd2;\nadd.u32 %r4, %r11, %r1;\n"
               "st.global.v2.u32 [%rd3], {%r3, %r4};\nret;\n}\n";
    const uint32_t nblk = 8;
    uint32_t *out = g_new(uint32_t, nblk * 32 * 4);
    memset(out, 0xEE, nblk * 32 * 4 * 4);
    char *err = run_grid(ptx, (Dim3){nblk, 1, 1}, (Dim3){32, 1, 1}, out, nblk * 32 * 4 * 4);
    ck_assert_msg(err == NULL, "%s", err ? err : "");
    for (uint32_t b = 0; b < nblk; b++)
        for (uint32_t l = 0; l < 32; l++) {
            const uint32_t *o = &out[(b * 32 + l) * 4];
            ck_assert_msg(o[0] == (l < 16 ? 7u : b == 0 ? 5u : 0u), "CTA %u lane %u: guarded %u", b, l, o[0]);
            EQ32(o[1], b * 33 + l);
        }
    for (uint32_t b = 0; b < nblk; b++)
        for (uint32_t l = 0; l < 16; l++) {
            const uint32_t *o = &out[(b * 32 + l) * 4];
            ck_assert_msg(o[2] == (b == 0 ? l + 116 : 0u), "CTA %u lane %u: shuffled %u", b, l, o[2]);
            EQ32(o[3], b == 0 ? 11 : 10);
        }
    g_free(out);
}
END_TEST

/* ================================================================ dot products, bit fields */

START_TEST(test_dp4a_dp2a)
{
    /* a bytes 03 7F FE 80, halves 7F03 80FE; b bytes 81 03 FE 02; c = -10 */
    Words o = run_ops("dp4a.u32.u32 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n"
                      "dp4a.s32.s32 %r11, %r1, %r2, %r3;\nst.global.u32 [%rd1+8], %r11;\n"
                      "dp4a.s32.u32 %r12, %r1, %r2, %r3;\nst.global.u32 [%rd1+16], %r12;\n"
                      "dp4a.u32.s32 %r13, %r1, %r2, %r3;\nst.global.u32 [%rd1+24], %r13;\n"
                      "dp2a.lo.u32.u32 %r14, %r1, %r2, %r3;\nst.global.u32 [%rd1+32], %r14;\n"
                      "dp2a.hi.s32.s32 %r15, %r1, %r2, %r3;\nst.global.u32 [%rd1+40], %r15;\n"
                      "dp2a.lo.s32.u32 %r16, %r1, %r2, %r3;\nst.global.u32 [%rd1+48], %r16;\n"
                      "dp2a.hi.u32.s32 %r17, %r1, %r2, %r3;\nst.global.u32 [%rd1+56], %r17;\n",
                      0x80FE7F03, 0x02FE0381, 0xFFFFFFF6, 0);
    /* 3*129 + 127*3 + 254*254 + 128*2 = 65540, minus 10 (wrapping) */
    EQ32(o.w[0], 0x0000FFFA);
    /* 3*-127 + 127*3 + -2*-2 + -128*2 = -252 */
    EQ32(o.w[1], (uint32_t)-262);
    /* 3*129 + 127*3 + -2*254 + -128*2 = 4 */
    EQ32(o.w[2], (uint32_t)-6);
    /* 3*-127 + 127*3 + 254*-2 + 128*2 = -252 */
    EQ32(o.w[3], (uint32_t)-262);
    /* 32515*129 + 33022*3 = 4293501 */
    EQ32(o.w[4], 4293491);
    /* 32515*-2 + -32514*2 = -130058 */
    EQ32(o.w[5], (uint32_t)-130068);
    /* 32515*129 + -32514*3 = 4096893 */
    EQ32(o.w[6], 4096883);
    /* 32515*-2 + 33022*2 = 1014 */
    EQ32(o.w[7], 1004);
    /* the accumulator wraps: c = 0xFFFFFFFF plus 255*255*4 */
    o = run_ops("dp4a.u32.u32 %r10, %r1, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                "dp4a.s32.s32 %r11, %r1, %r1, 7;\nst.global.u32 [%rd1+8], %r11;\n",
                0xFFFFFFFF, 0xFFFFFFFF, 0, 0);
    EQ32(o.w[0], 255u * 255u * 4u - 1u);
    EQ32(o.w[1], 4 + 7); /* (-1)*(-1) four times */
}
END_TEST

START_TEST(test_packed_16x2)
{
    /* halves: a = (hi 0xFFFF, lo 0x0001), b = (hi 0x0002, lo 0x8000) */
    Words o = run_ops("add.u16x2 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                      "add.s16x2 %r11, %r1, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                      "min.u16x2 %r12, %r1, %r2;\nst.global.u32 [%rd1+16], %r12;\n"
                      "min.s16x2 %r13, %r1, %r2;\nst.global.u32 [%rd1+24], %r13;\n"
                      "max.u16x2 %r14, %r1, %r2;\nst.global.u32 [%rd1+32], %r14;\n"
                      "max.s16x2 %r15, %r1, %r2;\nst.global.u32 [%rd1+40], %r15;\n",
                      0xFFFF0001, 0x00028000, 0, 0);
    EQ32(o.w[0], 0x00018001); /* the high half wraps on its own: no carry between halves */
    EQ32(o.w[1], 0x00018001);
    EQ32(o.w[2], 0x00020001);
    EQ32(o.w[3], 0xFFFF8000); /* -1 < 2, -32768 < 1 */
    EQ32(o.w[4], 0xFFFF8000);
    EQ32(o.w[5], 0x00020001);
    /* .relu clamps each signed half at 0 on its own (__vimax_s16x2_relu) */
    o = run_ops("max.relu.s16x2 %r10, %r1, %r2;\nst.global.u32 [%rd1], %r10;\n"
                "min.relu.s16x2 %r11, %r1, %r2;\nst.global.u32 [%rd1+8], %r11;\n"
                "max.s16x2.relu %r12, %r2, %r1;\nst.global.u32 [%rd1+16], %r12;\n",
                0xFFFF0001, 0x8000FFFE, 0, 0);
    EQ32(o.w[0], 0x00000001); /* max(-1, -32768) = -1 -> 0; max(1, -2) = 1 */
    EQ32(o.w[1], 0x00000000); /* min(-1, -32768) -> 0; min(1, -2) -> 0 */
    EQ32(o.w[2], 0x00000001);
    char *ptx = g_strdup_printf(HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n%s"
                                "add.sat.s16x2 %%r10, %%r1, %%r2;\nret;\n}\n", prologue);
    uint64_t out[8] = {0}, in[4] = {0};
    TuBuf bufs[2] = {{out, sizeof out}, {in, sizeof in}};
    char *err = tu_run(ptx, "k", 1, 1, bufs, 2, NULL, 0);
    ck_assert_msg(err && strstr(err, "add.s16x2 takes no"), "%s", err ? err : "(accepted)");
    g_free(err);
    g_free(ptx);
}
END_TEST

START_TEST(test_dot_rejects_bad_forms)
{
    const char *bodies[] = {
        "dp2a.u32.u32 %r10, %r1, %r2, %r3;\n",     /* no .lo/.hi */
        "dp2a.wide.u32.u32 %r10, %r1, %r2, %r3;\n",
        "bmsk.b32 %r10, %r1, %r2;\n",               /* neither .clamp nor .wrap */
        "bmsk.l.wrap.b32 %r10, %r1, %r2;\n",
        "szext.clamp.u64 %rd10, %rd3, %r2;\n",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bodies); i++) {
        char *ptx = g_strdup_printf(HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n%s%sret;\n}\n",
                                    prologue, bodies[i]);
        uint64_t out[8] = {0}, in[4] = {0};
        TuBuf bufs[2] = {{out, sizeof out}, {in, sizeof in}};
        char *err = tu_run(ptx, "k", 1, 1, bufs, 2, NULL, 0);
        ck_assert_msg(err != NULL, "accepted: %s", bodies[i]);
        ck_assert_msg(strstr(err, bodies[i][1] == 'p' ? "dp2a" : bodies[i][0] == 'b' ? "bmsk" : "szext"),
                      "message for %s: %s", bodies[i], err);
        g_free(err);
        g_free(ptx);
    }
}
END_TEST

START_TEST(test_fns)
{
    /* the ISA's examples, then the edges: offset 0, counting past the top
     * or the bottom, and the last set bit downwards from 31 */
    Words o = run_ops("fns.b32 %r10, %r1, 3, 1;\nfns.b32 %r11, %r1, 3, -1;\n"
                      "fns.b32 %r12, %r1, 2, 1;\nfns.b32 %r13, %r1, 2, -1;\n"
                      "st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};\n"
                      "fns.b32 %r14, %r1, 1, 0;\nfns.b32 %r15, %r1, 0, 0;\n"
                      "fns.b32 %r16, %r1, 0, 3;\nfns.b32 %r17, %r1, 0, 17;\n"
                      "st.global.v4.u32 [%rd1+16], {%r14, %r15, %r16, %r17};\n"
                      "fns.b32 %r18, %r1, 31, -2;\nfns.b32 %r19, %r1, 4, -3;\n"
                      "fns.b32 %r20, %r2, %r3, %r4;\nfns.b32 %r21, %r2, 31, -32;\n"
                      "st.global.v4.u32 [%rd1+32], {%r18, %r19, %r20, %r21};\n",
                      0xAAAAAAAA, 0xFFFFFFFF, 5, (uint32_t)-6);
    EQ32(o.w[0], 3ull | 3ull << 32);
    EQ32(o.w[0] >> 32, 3);
    EQ32(o.w[1], 3);
    EQ32(o.w[1] >> 32, 1);
    EQ32(o.w[2], 1);
    EQ32(o.w[2] >> 32, 0xFFFFFFFF);
    EQ32(o.w[3], 5);                /* bits 1, 3, 5 */
    EQ32(o.w[3] >> 32, 0xFFFFFFFF); /* only 16 bits are set */
    EQ32(o.w[4], 29);
    EQ32(o.w[4] >> 32, 0xFFFFFFFF); /* bits 3, 1 and then nothing */
    EQ32(o.w[5], 0);                /* sixth set bit downwards from 5 is bit 0 */
    EQ32(o.w[5] >> 32, 0);
}
END_TEST

START_TEST(test_bmsk_szext)
{
    Words o = run_ops("bmsk.wrap.b32 %r10, 1, 2;\nbmsk.clamp.b32 %r11, %r1, %r2;\n"
                      "bmsk.wrap.b32 %r12, %r1, %r2;\nbmsk.clamp.b32 %r13, %r2, %r3;\n"
                      "st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};\n"
                      "bmsk.wrap.b32 %r14, %r2, %r3;\nbmsk.wrap.b32 %r15, 30, 5;\n"
                      "bmsk.wrap.b32 %r16, 7, 0;\nbmsk.clamp.b32 %r17, 0, 32;\n"
                      "st.global.v4.u32 [%rd1+16], {%r14, %r15, %r16, %r17};\n",
                      4, 40, 3, 0);
    EQ32(o.w[0], 0x6);
    EQ32(o.w[0] >> 32, 0xFFFFFFF0); /* width 40 clamps: every bit from 4 up */
    EQ32(o.w[1], 0x00000FF0);       /* width 40 wraps to 8 */
    EQ32(o.w[1] >> 32, 0);          /* position 40 clamps: nothing */
    EQ32(o.w[2], 0x700);            /* position 40 wraps to 8 */
    EQ32(o.w[2] >> 32, 0xC0000000); /* runs off the top */
    EQ32(o.w[3], 0);
    EQ32(o.w[3] >> 32, 0xFFFFFFFF);

    o = run_ops("szext.wrap.s32 %r10, %r1, 8;\nszext.wrap.u32 %r11, %r1, 8;\n"
                "szext.clamp.s32 %r12, %r1, 40;\nszext.wrap.s32 %r13, %r1, 40;\n"
                "st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};\n"
                "szext.wrap.u32 %r14, %r2, 0;\nszext.clamp.s32 %r15, %r1, 32;\n"
                "szext.wrap.s32 %r16, %r1, 32;\nszext.clamp.s32 %r17, %r3, 7;\n"
                "st.global.v4.u32 [%rd1+16], {%r14, %r15, %r16, %r17};\n",
                0x123456F0, 0xFFFFFFFF, 0xFFFFFF35, 0);
    EQ32(o.w[0], 0xFFFFFFF0);
    EQ32(o.w[0] >> 32, 0xF0);
    EQ32(o.w[1], 0x123456F0);       /* N of 40 clamps to 32: unchanged */
    EQ32(o.w[1] >> 32, 0xFFFFFFF0); /* N of 40 wraps to 8 */
    EQ32(o.w[2], 0);                /* N = 0 */
    EQ32(o.w[2] >> 32, 0x123456F0);
    EQ32(o.w[3], 0);                /* 32 wraps to 0 */
    EQ32(o.w[3] >> 32, 0x35);       /* 0110101: bit 6 is clear, positive */
}
END_TEST

/* ================================================================ redux.sync, elect.sync */

/* Lane l's value: mixed signs and magnitudes, so that signed and unsigned
 * orders and wrapping sums all differ. */
static uint32_t redux_value(uint32_t l) { return (l * 0x9E3779B9u) ^ (l << 28); }

START_TEST(test_redux)
{
    /* per lane: 8 reductions over the full warp, 2 over its half warp's
     * mask, 1 over the odd lanes only (the even ones branched away) */
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<40>;\n.reg .b64 %rd<20>;\n.reg .pred %p<12>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\n"
               "mul.wide.u32 %rd2, %r1, 64;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "mul.lo.u32 %r2, %r1, -1640531527;\nshl.b32 %r3, %r1, 28;\nxor.b32 %r2, %r2, %r3;\n"
               "redux.sync.add.u32 %r10, %r2, -1;\nredux.sync.add.s32 %r11, %r2, 0xffffffff;\n"
               "redux.sync.min.s32 %r12, %r2, -1;\nredux.sync.max.s32 %r13, %r2, -1;\n"
               "st.global.v4.u32 [%rd3], {%r10, %r11, %r12, %r13};\n"
               "redux.sync.min.u32 %r14, %r2, -1;\nredux.sync.max.u32 %r15, %r2, -1;\n"
               "redux.sync.and.b32 %r16, %r2, -1;\nredux.sync.or.b32 %r17, %r2, -1;\n"
               "st.global.v4.u32 [%rd3+16], {%r14, %r15, %r16, %r17};\n"
               "redux.sync.xor.b32 %r18, %r2, -1;\n"
               "setp.lt.u32 %p1, %r1, 16;\nselp.b32 %r4, 0x0000ffff, 0xffff0000, %p1;\n"
               "redux.sync.add.u32 %r19, %r2, %r4;\nredux.sync.min.s32 %r20, %r2, %r4;\n"
               "st.global.v2.u32 [%rd3+32], {%r18, %r19};\nst.global.u32 [%rd3+40], %r20;\n"
               "and.b32 %r5, %r1, 1;\nsetp.eq.u32 %p2, %r5, 0;\n@%p2 bra DONE;\n"
               "redux.sync.max.u32 %r21, %r2, 0xaaaaaaaa;\nst.global.u32 [%rd3+44], %r21;\n"
               "redux.sync.add.s32 %r21, %r21, 0xaaaaaaaa;\nst.global.u32 [%rd3+48], %r21;\n"
               "DONE:\nret;\n}\n";
    uint32_t out[32 * 16];
    memset(out, 0xEE, sizeof out);
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    /* the documented semantics, independently */
    uint32_t sum = 0, and_ = ~0u, or_ = 0, xor_ = 0, umin = ~0u, umax = 0, half_sum[2] = {0, 0}, odd_max = 0;
    int32_t smin = INT32_MAX, smax = INT32_MIN, half_min[2] = {INT32_MAX, INT32_MAX};
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t v = redux_value(l);
        sum += v;
        and_ &= v;
        or_ |= v;
        xor_ ^= v;
        umin = v < umin ? v : umin;
        umax = v > umax ? v : umax;
        smin = (int32_t)v < smin ? (int32_t)v : smin;
        smax = (int32_t)v > smax ? (int32_t)v : smax;
        half_sum[l / 16] += v;
        half_min[l / 16] = (int32_t)v < half_min[l / 16] ? (int32_t)v : half_min[l / 16];
        if (l & 1)
            odd_max = v > odd_max ? v : odd_max;
    }
    ck_assert_uint_ne((uint32_t)smin, umin); /* the inputs tell the orders apart */
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *o = &out[l * 16];
        EQ32(o[0], sum);
        EQ32(o[1], sum);
        EQ32(o[2], smin);
        EQ32(o[3], smax);
        EQ32(o[4], umin);
        EQ32(o[5], umax);
        EQ32(o[6], and_);
        EQ32(o[7], or_);
        EQ32(o[8], xor_);
        EQ32(o[9], half_sum[l / 16]);
        EQ32(o[10], half_min[l / 16]);
        EQ32(o[11], (l & 1) ? odd_max : 0xEEEEEEEE);
        EQ32(o[12], (l & 1) ? odd_max * 16 : 0xEEEEEEEE);
    }
}
END_TEST

START_TEST(test_redux_elect_contract)
{
    /* a lane outside its own member mask: undefined in the ISA, reported */
    const char *fmt = HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .b32 %%r<10>;\n.reg .pred %%p<4>;\n%s\nret;\n}\n";
    const char *bodies[] = {"redux.sync.add.u32 %r1, 5, 0xfffffffe;", "elect.sync %r1|%p1, 0x7ffffffe;",
                            "redux.sync.add.b32 %r1, 5, -1;", "redux.sync.and.u32 %r1, 5, -1;"};
    const char *want[] = {"membermask 0xfffffffe does not include", "membermask 0x7ffffffe does not include",
                          "redux.sync takes", "redux.sync takes"};
    for (size_t i = 0; i < G_N_ELEMENTS(bodies); i++) {
        char *ptx = g_strdup_printf(fmt, bodies[i]);
        uint64_t out = 0;
        TuBuf bufs[2] = {{&out, sizeof out}, {&out, sizeof out}};
        char *err = tu_run(ptx, "k", 1, 32, bufs, 2, NULL, 0);
        ck_assert_msg(err != NULL && strstr(err, want[i]), "%s: %s", bodies[i], err ? err : "(no error)");
        g_free(err);
        g_free(ptx);
    }
}
END_TEST

START_TEST(test_elect)
{
    /* full warp; per half-warp masks; lanes 4..7 alone (the others branched
     * away) with the mask that names exactly them */
    const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<30>;\n.reg .b64 %rd<20>;\n.reg .pred %p<12>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %laneid;\n"
               "mul.wide.u32 %rd2, %r1, 32;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "elect.sync %r2|%p1, -1;\nselp.u32 %r3, 1, 0, %p1;\n"
               "setp.lt.u32 %p2, %r1, 16;\nselp.b32 %r4, 0x0000ffff, 0xffff0000, %p2;\n"
               "elect.sync %r5|%p3, %r4;\nselp.u32 %r6, 1, 0, %p3;\n"
               "st.global.v4.u32 [%rd3], {%r2, %r3, %r5, %r6};\n"
               "setp.lt.u32 %p4, %r1, 4;\nsetp.gt.u32 %p5, %r1, 7;\nor.pred %p6, %p4, %p5;\n@%p6 bra DONE;\n"
               "elect.sync %r7|%p7, 0xf0;\nselp.u32 %r8, 1, 0, %p7;\n"
               "st.global.v2.u32 [%rd3+16], {%r7, %r8};\n"
               "DONE:\nret;\n}\n";
    uint32_t out[32 * 8];
    memset(out, 0xEE, sizeof out);
    run_kernel(ptx, 1, 32, out, sizeof out, NULL, 0);
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *o = &out[l * 8];
        EQ32(o[0], 0);
        EQ32(o[1], l == 0);
        EQ32(o[2], l < 16 ? 0 : 16);
        EQ32(o[3], l == 0 || l == 16);
        bool in4to7 = l >= 4 && l <= 7;
        EQ32(o[4], in4to7 ? 4 : 0xEEEEEEEE);
        EQ32(o[5], in4to7 ? (l == 4) : 0xEEEEEEEE);
    }
}
END_TEST

/* ================================================================ device malloc and free */

#define MALLOC_DECLS                                                                               \
    ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"               \
    ".extern .func free(.param .b64 free_param_0);\n"
/* %rd<dst> = malloc(%rd<size>) and free(%rd<ptr>), the way nvcc calls them */
#define CALL_MALLOC(dst, size)                                                                     \
    "{\n.param .b64 param0;\nst.param.b64 [param0], " size ";\n.param .b64 retval0;\n"             \
    "call.uni (retval0), malloc, (param0);\nld.param.b64 " dst ", [retval0];\n}\n"
#define CALL_FREE(ptr)                                                                             \
    "{\n.param .b64 param0;\nst.param.b64 [param0], " ptr ";\ncall.uni free, (param0);\n}\n"

START_TEST(test_device_malloc)
{
    /* 64 threads: each allocates 8 + 8*tid bytes, writes its id through
     * the block, reads it back and publishes the address; thread 0 also
     * tries malloc(0), malloc(9 MiB) and free(NULL) */
    const char *ptx =
        HEADER MALLOC_DECLS ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b32 %r<10>;\n.reg .b64 %rd<20>;\n.reg .pred %p<4>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
               "mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\n"
               "add.s64 %rd4, %rd2, 8;\n" CALL_MALLOC("%rd5", "%rd4")
               "add.s64 %rd6, %rd5, %rd2;\nst.u64 [%rd6], %rd2;\nst.u32 [%rd5], %r1;\n"
               "ld.u32 %r2, [%rd5];\nld.u64 %rd7, [%rd6];\n"
               "setp.ne.u32 %p1, %r2, %r1;\nsetp.ne.u64 %p2, %rd7, %rd2;\nor.pred %p1, %p1, %p2;\n"
               "selp.u64 %rd8, 1, 0, %p1;\nor.b64 %rd5, %rd5, %rd8;\n" /* a wrong read-back shows as an odd address */
               "st.global.u64 [%rd3], %rd5;\n"
               "setp.ne.u32 %p3, %r1, 0;\n@%p3 bra DONE;\n"
               "mov.u64 %rd9, 0;\n" CALL_MALLOC("%rd10", "%rd9")
               "st.global.u64 [%rd1+512], %rd10;\n"
               "mov.u64 %rd11, 9437184;\n" CALL_MALLOC("%rd12", "%rd11")
               "st.global.u64 [%rd1+520], %rd12;\n"
               CALL_FREE("%rd9")
               "DONE:\nret;\n}\n";
    uint64_t out[66];
    memset(out, 0xEE, sizeof out);
    run_kernel(ptx, 1, 64, out, sizeof out, NULL, 0);
    for (uint32_t t = 0; t < 64; t++) {
        ck_assert_msg(out[t] != 0 && out[t] % 16 == 0, "thread %u got 0x%llx", t, (unsigned long long)out[t]);
        for (uint32_t k = 0; k < t; k++) /* no two blocks overlap */
            ck_assert_msg(out[t] >= out[k] + 8 + 8 * k || out[k] >= out[t] + 8 + 8 * t,
                          "blocks of threads %u and %u overlap", k, t);
    }
    /* malloc(0): a pointer of its own (an H200 returns one too) */
    ck_assert(out[64] != 0 && out[64] % 16 == 0);
    for (uint32_t k = 0; k < 64; k++)
        ck_assert(out[64] >= out[k] + 8 + 8 * k || out[64] < out[k]);
    EQ64(out[65], 0); /* more than the 8 MiB heap */
}
END_TEST

START_TEST(test_device_malloc_exhaustion_and_reuse)
{
    /* the whole 8 MiB heap in one block, then nothing more fits; after
     * free, the space is there again */
    const char *ptx =
        HEADER MALLOC_DECLS ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
               ".reg .b64 %rd<20>;\n"
               "ld.param.u64 %rd1, [out];\nmov.u64 %rd2, 8388608;\nmov.u64 %rd3, 16;\n"
               CALL_MALLOC("%rd4", "%rd2") CALL_MALLOC("%rd5", "%rd3")
               "st.u8 [%rd4+8388607], 1;\n"
               CALL_FREE("%rd4") CALL_MALLOC("%rd6", "%rd3") CALL_MALLOC("%rd7", "%rd2")
               "st.global.v2.u64 [%rd1], {%rd4, %rd5};\nst.global.v2.u64 [%rd1+16], {%rd6, %rd7};\n"
               "ret;\n}\n";
    uint64_t out[4];
    memset(out, 0xEE, sizeof out);
    run_kernel(ptx, 1, 1, out, sizeof out, NULL, 0);
    ck_assert(out[0] != 0 && out[0] % 16 == 0);
    EQ64(out[1], 0);
    ck_assert(out[2] >= out[0] && out[2] < out[0] + 8388608);
    EQ64(out[3], 0); /* 16 bytes are taken again */
}
END_TEST

START_TEST(test_device_free_faults)
{
    /* freeing what malloc did not return names the pointer and why */
    const char *fmt = HEADER MALLOC_DECLS ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                                          ".reg .b64 %%rd<20>;\nld.param.u64 %%rd1, [out];\nmov.u64 %%rd2, 64;\n"
                                          CALL_MALLOC("%%rd3", "%%rd2") "%s\nret;\n}\n";
    const char *bodies[] = {
        "cvta.to.global.u64 %rd4, %rd1;\n" CALL_FREE("%rd4"),          /* a cudaMalloc'd buffer */
        "add.s64 %rd4, %rd3, 32;\n" CALL_FREE("%rd4"),                  /* inside a block */
        CALL_FREE("%rd3") CALL_FREE("%rd3"),                            /* twice */
        "mov.u64 %rd4, 0x123450;\n" CALL_FREE("%rd4"),                  /* nowhere */
    };
    const char *want[] = {"which malloc did not allocate", "points 32 bytes into the 64-byte block",
                          "freed twice", "not an address malloc returned"};
    for (size_t i = 0; i < G_N_ELEMENTS(bodies); i++) {
        char *ptx = g_strdup_printf(fmt, bodies[i]);
        uint64_t out[2] = {0};
        TuBuf bufs[2] = {{out, sizeof out}, {out, sizeof out}};
        char *err = tu_run(ptx, "k", 1, 1, bufs, 2, NULL, 0);
        ck_assert_msg(err != NULL && strstr(err, "of a pointer malloc did not return") && strstr(err, want[i]),
                      "case %zu: %s", i, err ? err : "(no error)");
        g_free(err);
        g_free(ptx);
    }
}
END_TEST

/* ================================================================ video SIMD, .relu, cp.async, mbarrier */

START_TEST(test_video_simd)
{
    /* a bytes (low first) 03 7F FE 80, halves 7F03 80FE; b bytes 81 03 FE 02, halves 0381 02FE */
    Words o = run_ops("vabsdiff4.u32.u32.u32 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n"
                      "vabsdiff4.u32.u32.u32.add %r11, %r1, %r2, %r3;\nst.global.u32 [%rd1+8], %r11;\n"
                      "vadd4.s32.s32.s32.sat %r12, %r1, %r2, %r3;\nst.global.u32 [%rd1+16], %r12;\n"
                      "vadd4.u32.u32.u32 %r13, %r1, %r2, %r3;\nst.global.u32 [%rd1+24], %r13;\n"
                      "vsub2.u32.u32.u32.sat %r14, %r1, %r2, %r3;\nst.global.u32 [%rd1+32], %r14;\n"
                      "vsub2.u32.u32.u32.sat %r15, %r2, %r1, %r3;\nst.global.u32 [%rd1+40], %r15;\n"
                      "vmin4.s32.s32.s32 %r16, %r1, %r2, %r3;\nst.global.u32 [%rd1+48], %r16;\n"
                      "vavrg4.u32.u32.u32 %r17, %r1, %r2, %r3;\nst.global.u32 [%rd1+56], %r17;\n",
                      0x80FE7F03, 0x02FE0381, 10, 0);
    EQ32(o.w[0], 0x7E007C7E);      /* |3-129| |127-3| |254-254| |128-2| */
    EQ32(o.w[1], 126 + 124 + 0 + 126 + 10);
    EQ32(o.w[2], 0x82FC7F84);      /* 3-127=-124, 127+3 clamps to 127, -2-2=-4, -128+2=-126 */
    EQ32(o.w[3], 0x82FC8284);      /* unsigned, each byte wraps */
    EQ32(o.w[4], 0x7E007B82);      /* 0x7F03-0x0381, 0x80FE-0x02FE */
    EQ32(o.w[5], 0);               /* both halves below zero clamp to 0 */
    EQ32(o.w[6], 0x80FE0381);      /* signed minimum: -127 3 -2 -128 */
    EQ32(o.w[7], 0x41FE4142);      /* (a+b+1)>>1 per byte */
    o = run_ops("vmax2.s32.s32.s32 %r10, %r1, %r2, %r3;\nst.global.u32 [%rd1], %r10;\n"
                "vmax4.u32.u32.u32 %r11, %r1, %r2, %r3;\nst.global.u32 [%rd1+8], %r11;\n"
                "vabsdiff2.s32.s32.s32.add %r12, %r1, %r2, %r3;\nst.global.u32 [%rd1+16], %r12;\n",
                0x80FE7F03, 0x02FE0381, 0xFFFFFFFF, 0);
    EQ32(o.w[0], 0x02FE7F03);      /* max(32515, 897), max(-32514, 766) */
    EQ32(o.w[1], 0x80FE7F81);
    EQ32(o.w[2], (32515 - 897) + (766 + 32514) - 1);
}
END_TEST

START_TEST(test_relu_and_nan_modes)
{
    /* f16: h1 = 2.0, h2 = -1.0, h3 = 0.5, h4 = 3.0 */
    Words o = run_ops("fma.rn.relu.f16 %h10, %h1, %h2, %h3;\nst.global.u16 [%rd1], %h10;\n"
                      "fma.rn.relu.f16 %h11, %h1, %h2, %h4;\nst.global.u16 [%rd1+8], %h11;\n"
                      "mov.b16 %h5, 0x7E00;\n"
                      "max.NaN.f16 %h12, %h1, %h5;\nst.global.u16 [%rd1+16], %h12;\n"
                      "max.f16 %h13, %h1, %h5;\nst.global.u16 [%rd1+24], %h13;\n"
                      "mov.b32 %r10, {%h1, %h2};\nmov.b32 %r11, {%h3, %h3};\n"
                      "fma.rn.relu.f16x2 %r12, %r10, %r10, %r11;\nst.global.u32 [%rd1+32], %r12;\n"
                      "min.NaN.f16x2 %r13, %r10, 0x7E007E00;\nst.global.u32 [%rd1+40], %r13;\n"
                      "max.relu.s32 %r14, -5, -3;\nst.global.u32 [%rd1+48], %r14;\n"
                      "min.relu.s32 %r15, 7, 4;\nst.global.u32 [%rd1+56], %r15;\n",
                      0x4000, 0xBC00, 0x3800, 0x4200);
    EQ16(o.w[0], 0x0000);          /* 2 * -1 + 0.5 < 0 */
    EQ16(o.w[1], 0x3C00);          /* 2 * -1 + 3 = 1 */
    ck_assert_msg((o.w[2] & 0x7C00) == 0x7C00 && (o.w[2] & 0x3FF), "max.NaN gave 0x%04x", (unsigned)(o.w[2] & 0xFFFF));
    EQ16(o.w[3], 0x4000);          /* without .NaN the number wins */
    EQ32(o.w[4], 0x3E004480);      /* lo 2*2+0.5 = 4.5, hi -1*-1+0.5 = 1.5 */
    ck_assert_msg((o.w[5] & 0x7C007C00) == 0x7C007C00, "min.NaN.f16x2 gave 0x%08x", (unsigned)o.w[5]);
    EQ32(o.w[6], 0);               /* max(-5, -3) = -3, clamped */
    EQ32(o.w[7], 4);
    /* cvt: .relu and .satfinite to 16-bit floats */
    o = run_ops("cvt.rn.relu.f16.f32 %h10, %f1;\nst.global.u16 [%rd1], %h10;\n"
                "cvt.rn.relu.f16.f32 %h11, %f2;\nst.global.u16 [%rd1+8], %h11;\n"
                "cvt.rn.satfinite.f16.f32 %h12, %f3;\nst.global.u16 [%rd1+16], %h12;\n"
                "cvt.rn.satfinite.f16.f32 %h13, %f4;\nst.global.u16 [%rd1+24], %h13;\n"
                "cvt.rn.relu.bf16x2.f32 %r10, %f1, %f2;\nst.global.u32 [%rd1+32], %r10;\n"
                "cvt.rn.f16.f32 %h14, %f3;\nst.global.u16 [%rd1+40], %h14;\n"
                "cvt.rn.satfinite.relu.bf16x2.f32 %r11, %f4, %f3;\nst.global.u32 [%rd1+48], %r11;\n",
                F(-2.5f), F(1.5f), F(1e6f), F(-1e6f));
    EQ16(o.w[0], 0x0000);
    EQ16(o.w[1], 0x3E00);
    EQ16(o.w[2], 0x7BFF);          /* 65504 rather than infinity */
    EQ16(o.w[3], 0xFBFF);
    EQ32(o.w[4], 0x00003FC0);      /* hi relu(-2.5) = 0, lo 1.5 */
    EQ16(o.w[5], 0x7C00);          /* without .satfinite: infinity */
    EQ32(o.w[6], 0x00004974);      /* hi relu(-1e6) = 0, lo 1e6 in bf16 (finite) */
}
END_TEST

START_TEST(test_cp_async)
{
    /* in: w0 = 0x1122334455667788, w1 = 0x99AABBCCDDEEFF00, w2 = 0x0102030405060708 */
    Words o = run_ops(".shared .align 16 .b8 tile[64];\n"
                      "mov.u32 %r10, tile;\nsetp.eq.u32 %p1, 1, 1;\nsetp.eq.u32 %p2, 1, 0;\n"
                      "cp.async.cg.shared.global.L2::128B [%r10], [%rd2], 16, 16;\n"
                      "cp.async.ca.shared.global [%r10+16], [%rd2+16], 8, 3;\n"
                      "cp.async.ca.shared::cta.global [%r10+24], [%rd2], 4, %p1;\n"
                      "cp.async.ca.shared.global [%r10+28], [%rd2], 4, %p2;\n"
                      "cp.async.commit_group;\ncp.async.wait_group 0;\ncp.async.wait_all;\n"
                      "ld.shared.v2.u64 {%rd10, %rd11}, [%r10];\nld.shared.v2.u64 {%rd12, %rd13}, [%r10+16];\n"
                      "st.global.u64 [%rd1], %rd10;\nst.global.u64 [%rd1+8], %rd11;\n"
                      "st.global.u64 [%rd1+16], %rd12;\nst.global.u64 [%rd1+24], %rd13;\n",
                      0x1122334455667788ull, 0x99AABBCCDDEEFF00ull, 0x0102030405060708ull, 0);
    EQ64(o.w[0], 0x1122334455667788ull);
    EQ64(o.w[1], 0x99AABBCCDDEEFF00ull);
    EQ64(o.w[2], 0x0000000000060708ull); /* 3 bytes copied, 5 zero-filled */
    EQ64(o.w[3], 0x5566778800000000ull); /* ignore-src true: zeros; false: the 4 bytes */
    /* sizes outside the ISA's are faults that name the instruction */
    const char *bad[] = {"cp.async.ca.shared.global [%r10], [%rd2], 12;", "cp.async.ca.shared.global [%r10], [%rd2], 4, 8;"};
    const char *why[] = {"4, 8 or 16 bytes, not 12", "src-size 8 exceeds cp-size 4"};
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *ptx = g_strdup_printf(HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                                    ".reg .b32 %%r<16>;\n.reg .b64 %%rd<8>;\n.shared .align 16 .b8 tile[64];\n"
                                    "ld.param.u64 %%rd2, [in];\nmov.u32 %%r10, tile;\n%s\nret;\n}\n", bad[i]);
        uint64_t buf[4] = {0};
        TuBuf bufs[2] = {{buf, sizeof buf}, {buf, sizeof buf}};
        char *err = tu_run(ptx, "k", 1, 1, bufs, 2, NULL, 0);
        ck_assert_msg(err && strstr(err, why[i]), "case %zu: %s", i, err ? err : "(no error)");
        g_free(err);
        g_free(ptx);
    }
}
END_TEST

START_TEST(test_mbarrier_single_thread)
{
    /* count 2: one arrival leaves the phase open, cp.async.mbarrier.arrive.noinc
     * is the second; without .noinc it changes nothing */
    Words o = run_ops(".shared .align 8 .b64 bar;\nmov.u32 %r10, bar;\n"
                      "mbarrier.init.shared.b64 [%r10], 2;\n"
                      "mbarrier.arrive.shared.b64 %rd10, [%r10];\n"
                      "mbarrier.pending_count.b64 %r11, %rd10;\nst.global.u32 [%rd1], %r11;\n"
                      "mbarrier.test_wait.shared.b64 %p1, [%r10], %rd10;\nselp.u32 %r12, 1, 0, %p1;\n"
                      "st.global.u32 [%rd1+8], %r12;\n"
                      "cp.async.mbarrier.arrive.noinc.shared.b64 [%r10];\n"
                      "mbarrier.test_wait.shared.b64 %p2, [%r10], %rd10;\nselp.u32 %r13, 1, 0, %p2;\n"
                      "st.global.u32 [%rd1+16], %r13;\n"
                      "cp.async.mbarrier.arrive.shared.b64 [%r10];\n"
                      "mbarrier.arrive.shared::cta.b64 %rd11, [%r10], 2;\n"
                      "mbarrier.pending_count.b64 %r14, %rd11;\nst.global.u32 [%rd1+24], %r14;\n"
                      /* two phases done: parity 0 and 1 have both completed once */
                      "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p3, [%r10], 1;\nselp.u32 %r15, 1, 0, %p3;\n"
                      "st.global.u32 [%rd1+32], %r15;\n"
                      "mbarrier.arrive.shared.b64 _, [%r10];\n"
                      "mbarrier.test_wait.parity.shared.b64 %p4, [%r10], 0;\nselp.u32 %r16, 1, 0, %p4;\n"
                      "st.global.u32 [%rd1+40], %r16;\n"
                      /* transactions: the phase waits for the bytes as well */
                      "mbarrier.init.shared.b64 [%r10], 1;\n"
                      "mbarrier.arrive.expect_tx.shared.b64 %rd12, [%r10], 16;\n"
                      "mbarrier.test_wait.shared.b64 %p5, [%r10], %rd12;\nselp.u32 %r17, 1, 0, %p5;\n"
                      "st.global.u32 [%rd1+48], %r17;\n"
                      "mbarrier.complete_tx.shared.b64 [%r10], 16;\n"
                      "mbarrier.test_wait.shared.b64 %p6, [%r10], %rd12;\nselp.u32 %r18, 1, 0, %p6;\n"
                      "st.global.u32 [%rd1+56], %r18;\nmbarrier.inval.shared.b64 [%r10];\n",
                      0, 0, 0, 0);
    EQ32(o.w[0], 2);   /* the state before the arrival */
    EQ32(o.w[1], 0);   /* one of two arrived */
    EQ32(o.w[2], 1);   /* the noinc arrival completed phase 0 */
    EQ32(o.w[3], 2);   /* phase 1 was untouched by the counted-and-uncounted arrival */
    EQ32(o.w[4], 1);   /* the count-2 arrival completed phase 1 (parity 1) */
    EQ32(o.w[5], 0);   /* phase 2 (parity 0) has one arrival of two */
    EQ32(o.w[6], 0);   /* arrivals done, 16 bytes outstanding */
    EQ32(o.w[7], 1);
}
END_TEST

/* 96 threads (three warps) arrive on one barrier and spin in try_wait
 * until the last has arrived, twice; what each saw is checked after. */
START_TEST(test_mbarrier_across_warps)
{
    static const char *ptx =
        HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.shared .align 8 .b64 bar;\n"
        ".shared .align 4 .b32 flag[96];\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\n"
        "setp.eq.u32 %p1, %r1, 0;\n@%p1 mbarrier.init.shared.b64 [%r2], 96;\nbar.sync 0;\n"
        "mov.u32 %r3, flag;\nshl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r3, %r4;\nst.shared.u32 [%r5], 1;\n"
        "mbarrier.arrive.shared.b64 %rd2, [%r2];\n"
        "WAIT1:\nmbarrier.try_wait.shared.b64 %p2, [%r2], %rd2;\n@!%p2 bra WAIT1;\n"
        /* every flag is set once the phase is over */
        "mov.u32 %r6, 0;\nmov.u32 %r7, 0;\n"
        "SUM:\nshl.b32 %r8, %r7, 2;\nadd.u32 %r9, %r3, %r8;\nld.shared.u32 %r10, [%r9];\nadd.u32 %r6, %r6, %r10;\n"
        "add.u32 %r7, %r7, 1;\nsetp.lt.u32 %p3, %r7, 96;\n@%p3 bra SUM;\n"
        "mbarrier.pending_count.b64 %r11, %rd2;\n"
        "mbarrier.arrive.shared.b64 %rd3, [%r2];\n"
        "WAIT2:\nmbarrier.try_wait.parity.shared.b64 %p4, [%r2], 1;\n@!%p4 bra WAIT2;\n"
        "mul.wide.u32 %rd4, %r1, 8;\nadd.u64 %rd5, %rd1, %rd4;\n"
        "st.global.u32 [%rd5], %r6;\nst.global.u32 [%rd5+4], %r11;\nret;\n}\n";
    uint32_t out[96 * 2];
    memset(out, 0xA5, sizeof out);
    run_kernel(ptx, 1, 96, out, sizeof out, NULL, 0);
    bool seen[97] = {false};
    for (int t = 0; t < 96; t++) {
        EQ32(out[2 * t], 96); /* nobody left the wait before every flag was set */
        uint32_t pending = out[2 * t + 1];
        ck_assert_msg(pending >= 1 && pending <= 96 && !seen[pending], "thread %d saw pending %u", t, pending);
        seen[pending] = true; /* one arrival per count: 96, 95, ... 1 */
    }
}
END_TEST

START_TEST(test_mbarrier_faults)
{
    /* an arrival on a barrier nobody initialised is reported, not counted */
    char *ptx = g_strdup(HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                         ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.shared .align 8 .b64 bar;\n"
                         "mov.u32 %r1, bar;\nmbarrier.arrive.shared.b64 %rd1, [%r1];\nret;\n}\n");
    uint64_t buf[2] = {0};
    TuBuf bufs[2] = {{buf, sizeof buf}, {buf, sizeof buf}};
    char *err = tu_run(ptx, "k", 1, 1, bufs, 2, NULL, 0);
    ck_assert_msg(err && strstr(err, "1 arrivals on an mbarrier with 0 pending"), "%s", err ? err : "(no error)");
    g_free(err);
    g_free(ptx);
}
END_TEST

static Suite *ops_suite(void)
{
    Suite *s = suite_create("exec_ops");
    TCase *i = tcase_create("integer");
    tcase_set_timeout(i, 120);
    tcase_add_test(i, test_add_sub_wrap_sat);
    tcase_add_test(i, test_shared_address_wraps_in_32_bits);
    tcase_add_test(i, test_carry_chains);
    tcase_add_test(i, test_carry_flag_mixed);
    tcase_add_test(i, test_cvt_tf32);
    tcase_add_test(i, test_half_h200_rules);
    tcase_add_test(i, test_mul_all_types);
    tcase_add_test(i, test_mad_variants);
    tcase_add_test(i, test_mul24_mad24_sad);
    tcase_add_test(i, test_div_rem);
    tcase_add_test(i, test_abs_neg_min_max);
    tcase_add_test(i, test_nan_results_as_h200);
    tcase_add_test(i, test_misc_integer_edges);
    tcase_add_test(i, test_dp4a_dp2a);
    tcase_add_test(i, test_dot_rejects_bad_forms);
    tcase_add_test(i, test_packed_16x2);
    suite_add_tcase(s, i);
    TCase *b = tcase_create("bits");
    tcase_set_timeout(b, 120);
    tcase_add_test(b, test_shifts);
    tcase_add_test(b, test_bit_counts);
    tcase_add_test(b, test_bfind);
    tcase_add_test(b, test_bfind_signed);
    tcase_add_test(b, test_bfe_bfi);
    tcase_add_test(b, test_prmt);
    tcase_add_test(b, test_lop3_shf);
    tcase_add_test(b, test_pred_logic);
    tcase_add_test(b, test_fns);
    tcase_add_test(b, test_bmsk_szext);
    suite_add_tcase(s, b);
    TCase *c = tcase_create("compare");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, test_setp_int);
    tcase_add_test(c, test_setp_float);
    tcase_add_test(c, test_setp_bool_and_pair);
    tcase_add_test(c, test_set_selp_slct);
    tcase_add_test(c, test_set_setp_half_pairs);
    suite_add_tcase(s, c);
    TCase *f = tcase_create("float");
    tcase_set_timeout(f, 120);
    tcase_add_test(f, test_copysign_testp);
    tcase_add_test(f, test_fma_and_rounding);
    tcase_add_test(f, test_ftz_sat);
    tcase_add_test(f, test_div_special);
    tcase_add_test(f, test_f64_approx_like_the_gpu);
    tcase_add_test(f, test_sfu_approx_like_the_gpu);
    tcase_add_test(f, test_sfu_lanes_match_scalar);
    tcase_add_test(f, test_half_arithmetic);
    suite_add_tcase(s, f);
    TCase *v = tcase_create("convert");
    tcase_set_timeout(v, 120);
    tcase_add_test(v, test_cvt_float_to_int);
    tcase_add_test(v, test_cvt_int_to_int);
    tcase_add_test(v, test_cvt_float_formats);
    tcase_add_test(v, test_mov_pack_cvta);
    suite_add_tcase(s, v);
    TCase *m = tcase_create("memory");
    tcase_set_timeout(m, 120);
    tcase_add_test(m, test_ld_st_widths);
    tcase_add_test(m, test_shared_local_const);
    tcase_add_test(m, test_atomics_global);
    tcase_add_test(m, test_atomics_float_shared_red);
    tcase_add_test(m, test_atomics_half);
    tcase_add_test(m, test_reserved_smem);
    tcase_add_test(m, test_atomics_vector);
    tcase_add_test(m, test_device_malloc);
    tcase_add_test(m, test_device_malloc_exhaustion_and_reuse);
    tcase_add_test(m, test_device_free_faults);
    suite_add_tcase(s, m);
    TCase *w = tcase_create("warp");
    tcase_set_timeout(w, 120);
    tcase_add_test(w, test_vote_divergent);
    tcase_add_test(w, test_vote_match_own_mask);
    tcase_add_test(w, test_griddepcontrol_brkpt);
    tcase_add_test(w, test_fault_source_line);
    tcase_add_test(w, test_shfl);
    tcase_add_test(w, test_register_rows_shared_safely);
    tcase_add_test(w, test_kernel_parameter_as_call_argument);
    tcase_add_test(w, test_register_rows_fresh_per_cta);
    tcase_add_test(w, test_activemask_match);
    tcase_add_test(w, test_special_registers_3d);
    tcase_add_test(w, test_redux);
    tcase_add_test(w, test_redux_elect_contract);
    tcase_add_test(w, test_elect);
    suite_add_tcase(s, w);
    TCase *a = tcase_create("async");
    tcase_set_timeout(a, 120);
    tcase_add_test(a, test_video_simd);
    tcase_add_test(a, test_relu_and_nan_modes);
    tcase_add_test(a, test_cp_async);
    tcase_add_test(a, test_mbarrier_single_thread);
    tcase_add_test(a, test_mbarrier_across_warps);
    tcase_add_test(a, test_mbarrier_faults);
    suite_add_tcase(s, a);
    return s;
}

int main(void)
{
    return tu_run_suite(ops_suite());
}
