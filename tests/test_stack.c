/* test_stack.c — control flow of the executor (exec.c): the reconvergence
 * stack on if/else, nested ifs, loops that lanes leave at different
 * iterations, early returns, partial exits before a barrier, calls from
 * divergent code (direct, recursive, indirect), CTA barriers across warps,
 * bar.red, and the two ways a launch must stop: deadlock and the
 * instruction budget.
 *
 * Order of side effects is observed with an atomic counter: one warp
 * instruction serialises its lanes in lane order, so a path's lanes get
 * consecutive stamps, and a join point shows up as one block of stamps for
 * every lane after the stamps of both paths.
 */
#include <check.h>
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "exec_internal.h"
#include "testutil.h"

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

static void run_ok_at(const char *ptx, uint32_t gx, uint32_t bx, void *out, size_t out_size, int line)
{
    uint32_t dummy = 0;
    TuBuf bufs[2] = {{out, out_size}, {&dummy, sizeof dummy}};
    char *err = tu_run(ptx, "k", gx, bx, bufs, 2, NULL, 0);
    ck_assert_msg(err == NULL, "line %d: kernel failed: %s", line, err ? err : "");
}
#define run_ok(ptx, gx, bx, out, osz) run_ok_at(ptx, gx, bx, out, osz, __LINE__)

static char *run_err(const char *ptx, uint32_t gx, uint32_t bx, void *out, size_t out_size)
{
    uint32_t dummy = 0;
    TuBuf bufs[2] = {{out, out_size}, {&dummy, sizeof dummy}};
    return tu_run(ptx, "k", gx, bx, bufs, 2, NULL, 0);
}

#define EQ32(got, exp)                                                                             \
    do {                                                                                           \
        uint32_t g_ = (uint32_t)(got), e_ = (uint32_t)(exp);                                       \
        ck_assert_msg(g_ == e_, "line %d: %s = %u (0x%x), expected %u (0x%x)", __LINE__, #got, g_, \
                      g_, e_, e_);                                                                 \
    } while (0)

/* The lanes in `lanes` (a mask) got stamps that are consecutive, in lane
 * order, starting at *first; returns the stamp after the block. */
static uint32_t expect_block(const uint32_t *stamp, uint32_t lanes, uint32_t first, const char *what)
{
    uint32_t s = first;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(lanes >> l & 1))
            continue;
        ck_assert_msg(stamp[l] == s, "%s: lane %u has stamp %u, expected %u", what, l, stamp[l], s);
        s++;
    }
    return s;
}

/* Common kernel head: %r1 = tid.x, %rd1 = out, %rd9 = &out[0] (the stamp
 * counter), %rd2 = out + 4 * tid.x. */
#define KHEAD                                                                                     \
    HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                              \
           ".reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n.reg .pred %p<16>;\n"                          \
           "ld.param.u64 %rd1, [out];\nmov.u64 %rd9, %rd1;\nmov.u32 %r1, %tid.x;\n"             \
           "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd2, %rd1, %rd3;\n"

/* out layout (u32 words): [0] counter, then regions of 32 words */
#define REGION(i) (1 + 32 * (i))

START_TEST(test_if_else_order)
{
    const char *ptx = KHEAD
        "and.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 0;\n"
        "@%p1 bra EVEN;\n"
        /* odd lanes */
        "atom.global.add.u32 %r3, [%rd9], 1;\nst.global.u32 [%rd2+4], %r3;\n"
        "mul.lo.u32 %r4, %r1, 3;\n"
        "bra JOIN;\n"
        "EVEN:\n"
        "atom.global.add.u32 %r3, [%rd9], 1;\nst.global.u32 [%rd2+132], %r3;\n"
        "add.u32 %r4, %r1, 1000;\n"
        "JOIN:\n"
        "atom.global.add.u32 %r5, [%rd9], 1;\nst.global.u32 [%rd2+260], %r5;\n"
        "st.global.u32 [%rd2+388], %r4;\n"
        "activemask.b32 %r6;\nst.global.u32 [%rd2+516], %r6;\n"
        "ret;\n}\n";
    uint32_t out[1 + 5 * 32];
    memset(out, 0xFF, sizeof out);
    out[0] = 0;
    run_ok(ptx, 1, 32, out, sizeof out);
    const uint32_t *odd = &out[REGION(0)], *even = &out[REGION(1)], *join = &out[REGION(2)];
    uint32_t odd_stamps[32], even_stamps[32];
    for (int l = 0; l < 32; l++) {
        odd_stamps[l] = odd[l];
        even_stamps[l] = even[l];
    }
    /* one path entirely, then the other (either may go first), then all together */
    uint32_t next;
    if (odd[1] == 0) {
        next = expect_block(odd_stamps, 0xAAAAAAAA, 0, "odd path");
        next = expect_block(even_stamps, 0x55555555, next, "even path");
    } else {
        next = expect_block(even_stamps, 0x55555555, 0, "even path");
        next = expect_block(odd_stamps, 0xAAAAAAAA, next, "odd path");
    }
    EQ32(next, 32);
    /* the path not taken by a lane left its slot alone */
    for (int l = 0; l < 32; l++)
        EQ32((l & 1) ? even[l] : odd[l], 0xFFFFFFFF);
    expect_block(join, 0xFFFFFFFF, 32, "join");
    for (uint32_t l = 0; l < 32; l++) {
        EQ32(out[REGION(3) + l], (l & 1) ? l * 3 : l + 1000);
        EQ32(out[REGION(4) + l], 0xFFFFFFFF); /* reconverged */
    }
    EQ32(out[0], 64);
}
END_TEST

START_TEST(test_nested_if)
{
    /* lanes < 16: (lane < 8 ? A : B); lanes >= 16: C; then a join */
    const char *ptx = KHEAD
        "setp.ge.u32 %p1, %r1, 16;\n@%p1 bra C;\n"
        "setp.ge.u32 %p2, %r1, 8;\n@%p2 bra B;\n"
        "atom.global.add.u32 %r3, [%rd9], 1;\nst.global.u32 [%rd2+4], %r3;\nmov.u32 %r4, 1;\n"
        "activemask.b32 %r7;\n"
        "bra.uni INNER_JOIN;\n"
        "B:\n"
        "atom.global.add.u32 %r3, [%rd9], 1;\nst.global.u32 [%rd2+4], %r3;\nmov.u32 %r4, 2;\n"
        "activemask.b32 %r7;\n"
        "INNER_JOIN:\n"
        "atom.global.add.u32 %r5, [%rd9], 1;\nst.global.u32 [%rd2+132], %r5;\n"
        "activemask.b32 %r8;\n"
        "bra.uni JOIN;\n"
        "C:\n"
        "atom.global.add.u32 %r3, [%rd9], 1;\nst.global.u32 [%rd2+4], %r3;\nmov.u32 %r4, 3;\n"
        "activemask.b32 %r7;\nmov.u32 %r8, %r7;\n"
        "JOIN:\n"
        "atom.global.add.u32 %r6, [%rd9], 1;\nst.global.u32 [%rd2+260], %r6;\n"
        "st.global.u32 [%rd2+388], %r4;\nst.global.u32 [%rd2+516], %r7;\nst.global.u32 [%rd2+644], %r8;\n"
        "ret;\n}\n";
    uint32_t out[1 + 6 * 32];
    memset(out, 0, sizeof out);
    run_ok(ptx, 1, 32, out, sizeof out);
    const uint32_t *first = &out[REGION(0)], *inner = &out[REGION(1)], *join = &out[REGION(2)];
    for (uint32_t l = 0; l < 32; l++) {
        EQ32(out[REGION(3) + l], l < 8 ? 1 : l < 16 ? 2 : 3);
        EQ32(out[REGION(4) + l], l < 8 ? 0xFF : l < 16 ? 0xFF00 : 0xFFFF0000);
        EQ32(out[REGION(5) + l], l < 16 ? 0xFFFF : 0xFFFF0000);
    }
    /* A and B are consecutive blocks (either order) and the inner join
     * stamps all 16 low lanes together right after them, unless C ran in
     * between; the outer join comes last for all 32 lanes */
    uint32_t a0 = first[0], b0 = first[8], c0 = first[16];
    expect_block(first, 0x000000FF, a0, "A");
    expect_block(first, 0x0000FF00, b0, "B");
    expect_block(first, 0xFFFF0000, c0, "C");
    uint32_t i0 = inner[0];
    expect_block(inner, 0x0000FFFF, i0, "inner join");
    ck_assert_msg(i0 >= (a0 > b0 ? a0 : b0) + 8, "inner join before both inner paths finished");
    ck_assert_msg(c0 + 16 <= a0 || c0 >= i0 + 16, "C interleaved with the inner if");
    expect_block(join, 0xFFFFFFFF, 48, "outer join");
}
END_TEST

START_TEST(test_loop_leave_at_different_iterations)
{
    /* while (x > 0) { stamp; x--; iterations++ }  with x = lane; then a join */
    const char *ptx = KHEAD
        "mov.u32 %r2, %r1;\nmov.u32 %r3, 0;\nmov.u32 %r10, 0;\n"
        "LOOP:\n"
        "setp.eq.u32 %p1, %r2, 0;\n@%p1 bra DONE;\n"
        "activemask.b32 %r11;\npopc.b32 %r12, %r11;\nadd.u32 %r10, %r10, %r12;\n"
        "sub.u32 %r2, %r2, 1;\nadd.u32 %r3, %r3, 1;\n"
        "bra.uni LOOP;\n"
        "DONE:\n"
        "atom.global.add.u32 %r4, [%rd9], 1;\nst.global.u32 [%rd2+4], %r4;\n"
        "st.global.u32 [%rd2+132], %r3;\nst.global.u32 [%rd2+260], %r10;\n"
        "activemask.b32 %r5;\nst.global.u32 [%rd2+388], %r5;\n"
        /* a loop with a break in the middle: for (i = 0; i < 100; i++) { if (i == lane % 7) break; acc += i; } */
        "rem.u32 %r20, %r1, 7;\nmov.u32 %r21, 0;\nmov.u32 %r22, 0;\n"
        "L2:\n"
        "setp.eq.u32 %p2, %r21, %r20;\n@%p2 bra BRK;\n"
        "add.u32 %r22, %r22, %r21;\nadd.u32 %r21, %r21, 1;\n"
        "setp.lt.u32 %p3, %r21, 100;\n@%p3 bra L2;\n"
        "BRK:\n"
        "st.global.u32 [%rd2+516], %r22;\n"
        "activemask.b32 %r23;\nst.global.u32 [%rd2+644], %r23;\n"
        "ret;\n}\n";
    uint32_t out[1 + 6 * 32];
    memset(out, 0, sizeof out);
    run_ok(ptx, 1, 32, out, sizeof out);
    expect_block(&out[REGION(0)], 0xFFFFFFFF, 0, "after the loop");
    for (uint32_t l = 0; l < 32; l++) {
        EQ32(out[REGION(1) + l], l);
        /* iteration i (0-based) runs with the lanes whose x > i: 31 - i lanes;
         * lane l sees iterations 0..l-1 */
        uint32_t seen = 0;
        for (uint32_t i = 0; i < l; i++)
            seen += 31 - i;
        EQ32(out[REGION(2) + l], seen);
        EQ32(out[REGION(3) + l], 0xFFFFFFFF);
        uint32_t k = l % 7;
        EQ32(out[REGION(4) + l], k * (k - 1) / 2); /* 0 + 1 + ... + (k-1) */
        EQ32(out[REGION(5) + l], 0xFFFFFFFF);
    }
}
END_TEST

START_TEST(test_backward_divergent_branch_and_nested_break)
{
    /* do { n++; x--; } while (x > 0) with x = lane + 1: the divergent branch
     * is the backward one; then nested loops where the inner one breaks out of
     * both at a lane-dependent point */
    const char *ptx = KHEAD
        "add.u32 %r2, %r1, 1;\nmov.u32 %r3, 0;\n"
        "DO:\nadd.u32 %r3, %r3, 1;\nsub.u32 %r2, %r2, 1;\nsetp.gt.u32 %p1, %r2, 0;\n@%p1 bra DO;\n"
        "activemask.b32 %r4;\nst.global.u32 [%rd2+4], %r3;\nst.global.u32 [%rd2+132], %r4;\n"
        /* for i in 0..7: for j in 0..7: { if (i*8+j == lane) goto OUT; cnt++ } */
        "mov.u32 %r10, 0;\nmov.u32 %r5, 0;\n"
        "OUTER:\nmov.u32 %r6, 0;\n"
        "INNER:\nmad.lo.u32 %r7, %r5, 8, %r6;\nsetp.eq.u32 %p2, %r7, %r1;\n@%p2 bra OUT;\n"
        "add.u32 %r10, %r10, 1;\nadd.u32 %r6, %r6, 1;\nsetp.lt.u32 %p3, %r6, 8;\n@%p3 bra INNER;\n"
        "add.u32 %r5, %r5, 1;\nsetp.lt.u32 %p4, %r5, 8;\n@%p4 bra OUTER;\n"
        "OUT:\n"
        "activemask.b32 %r8;\nst.global.u32 [%rd2+260], %r10;\nst.global.u32 [%rd2+388], %r8;\n"
        "ret;\n}\n";
    uint32_t out[1 + 4 * 32];
    memset(out, 0, sizeof out);
    run_ok(ptx, 1, 32, out, sizeof out);
    for (uint32_t l = 0; l < 32; l++) {
        EQ32(out[REGION(0) + l], l + 1);
        EQ32(out[REGION(1) + l], 0xFFFFFFFF);
        EQ32(out[REGION(2) + l], l);
        EQ32(out[REGION(3) + l], 0xFFFFFFFF);
    }
}
END_TEST

START_TEST(test_early_return)
{
    /* lanes with tid % 3 == 0 return early; the rest see only themselves */
    const char *ptx = KHEAD
        "rem.u32 %r2, %r1, 3;\nsetp.ne.u32 %p1, %r2, 0;\n"
        "@%p1 bra REST;\n"
        "mov.u32 %r3, 1;\nst.global.u32 [%rd2+4], %r3;\n"
        "ret;\n"
        "REST:\n"
        "mov.u32 %r3, 2;\nst.global.u32 [%rd2+4], %r3;\n"
        "activemask.b32 %r4;\nst.global.u32 [%rd2+132], %r4;\n"
        "setp.lt.u32 %p2, %r1, 16;\n@%p2 bra LOW;\n"
        "mov.u32 %r5, 5;\nbra.uni J;\n"
        "LOW:\nmov.u32 %r5, 4;\n"
        "J:\n"
        "activemask.b32 %r6;\nst.global.u32 [%rd2+260], %r6;\nst.global.u32 [%rd2+388], %r5;\n"
        "@%p2 ret;\n" /* a guarded return of some of the remaining lanes */
        "activemask.b32 %r7;\nst.global.u32 [%rd2+516], %r7;\n"
        "ret;\n}\n";
    uint32_t out[1 + 5 * 32];
    memset(out, 0, sizeof out);
    run_ok(ptx, 1, 32, out, sizeof out);
    uint32_t rest = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (l % 3)
            rest |= 1u << l;
    for (uint32_t l = 0; l < 32; l++) {
        bool r = l % 3 != 0;
        EQ32(out[REGION(0) + l], r ? 2 : 1);
        EQ32(out[REGION(1) + l], r ? rest : 0);
        EQ32(out[REGION(2) + l], r ? rest : 0);
        EQ32(out[REGION(3) + l], r ? (l < 16 ? 4 : 5) : 0);
        EQ32(out[REGION(4) + l], r && l >= 16 ? (rest & 0xFFFF0000) : 0);
    }
}
END_TEST

START_TEST(test_partial_exit_then_barrier)
{
    /* 64 threads: every fourth exits; the others exchange through shared
     * memory across a barrier, which must not wait for the exited lanes */
    const char *ptx = KHEAD
        ".shared .align 4 .b32 sh[64];\n"
        "and.b32 %r2, %r1, 3;\nsetp.eq.u32 %p1, %r2, 0;\n"
        "@%p1 exit;\n"
        "mov.u64 %rd10, sh;\nadd.s64 %rd11, %rd10, %rd3;\n"
        "add.u32 %r3, %r1, 100;\nst.shared.u32 [%rd11], %r3;\n"
        "bar.sync 0;\n"
        "add.u32 %r4, %r1, 4;\nand.b32 %r4, %r4, 63;\nmul.wide.u32 %rd12, %r4, 4;\n"
        "add.s64 %rd13, %rd10, %rd12;\nld.shared.u32 %r5, [%rd13];\nst.global.u32 [%rd2+4], %r5;\n"
        "bar.sync 0;\n"
        "activemask.b32 %r6;\nst.global.u32 [%rd2+260], %r6;\n"
        "ret;\n}\n";
    uint32_t out[1 + 4 * 32];
    memset(out, 0, sizeof out);
    run_ok(ptx, 1, 64, out, sizeof out);
    for (uint32_t t = 0; t < 64; t++) {
        bool gone = t % 4 == 0;
        EQ32(out[REGION(0) + t], gone ? 0 : ((t + 4) & 63) + 100);
        EQ32(out[REGION(2) + t], gone ? 0 : 0xEEEEEEEE);
    }

    /* a whole warp exits; the other's barrier still completes */
    const char *ptx2 = KHEAD
        ".shared .align 4 .b32 sh[64];\n"
        "setp.ge.u32 %p1, %r1, 32;\n@%p1 exit;\n"
        "mov.u64 %rd10, sh;\nadd.s64 %rd11, %rd10, %rd3;\nst.shared.u32 [%rd11], %r1;\n"
        "bar.sync 0;\n"
        "xor.b32 %r4, %r1, 31;\nmul.wide.u32 %rd12, %r4, 4;\nadd.s64 %rd13, %rd10, %rd12;\n"
        "ld.shared.u32 %r5, [%rd13];\nst.global.u32 [%rd2+4], %r5;\n"
        "ret;\n}\n";
    memset(out, 0, sizeof out);
    run_ok(ptx2, 1, 64, out, sizeof out);
    for (uint32_t t = 0; t < 32; t++)
        EQ32(out[REGION(0) + t], t ^ 31);
}
END_TEST

static const char *const calls_ptx =
    HEADER
    ".func (.param .b32 func_retval0) addk(.param .b32 addk_param_0, .param .b32 addk_param_1)\n{\n"
    ".reg .b32 %r<4>;\n"
    "ld.param.u32 %r1, [addk_param_0];\nld.param.u32 %r2, [addk_param_1];\n"
    "mad.lo.s32 %r3, %r1, 10, %r2;\n"
    "st.param.b32 [func_retval0+0], %r3;\nret;\n}\n"
    ".func (.param .b32 func_retval0) fact(.param .b32 fact_param_0)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n"
    "ld.param.u32 %r1, [fact_param_0];\nsetp.lt.u32 %p1, %r1, 2;\n@%p1 bra BASE;\n"
    "add.s32 %r2, %r1, -1;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r2;\n.param .b32 retval0;\n"
    "call (retval0), fact, (param0);\nld.param.b32 %r3, [retval0+0];\n}\n"
    "mul.lo.s32 %r4, %r3, %r1;\nst.param.b32 [func_retval0+0], %r4;\nret;\n"
    "BASE:\nmov.u32 %r5, 1;\nst.param.b32 [func_retval0+0], %r5;\nret;\n}\n"
    ".func (.param .b32 func_retval0) inc1(.param .b32 p)\n{\n.reg .b32 %r<3>;\n"
    "ld.param.u32 %r1, [p];\nadd.s32 %r2, %r1, 1;\nst.param.b32 [func_retval0+0], %r2;\nret;\n}\n"
    ".func (.param .b32 func_retval0) dbl(.param .b32 p)\n{\n.reg .b32 %r<3>;\n"
    "ld.param.u32 %r1, [p];\nshl.b32 %r2, %r1, 1;\nst.param.b32 [func_retval0+0], %r2;\nret;\n}\n"
    /* sumloc(n) = n + sumloc(n - 1), keeping n in a .local of its own frame
     * across the recursive call */
    ".func (.param .b32 func_retval0) sumloc(.param .b32 p)\n{\n"
    ".local .align 4 .b8 keep[8];\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
    "ld.param.u32 %r1, [p];\nst.local.u32 [keep+4], %r1;\nmov.u32 %r3, 0;\n"
    "setp.eq.u32 %p1, %r1, 0;\n@%p1 bra Z;\n"
    "add.s32 %r2, %r1, -1;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r2;\n.param .b32 retval0;\n"
    "call (retval0), sumloc, (param0);\nld.param.b32 %r3, [retval0+0];\n}\n"
    "Z:\nld.local.u32 %r4, [keep+4];\nadd.u32 %r5, %r3, %r4;\nst.param.b32 [func_retval0+0], %r5;\nret;\n}\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n.reg .pred %p<16>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd2, %rd1, %rd3;\n"
    /* a direct call from the odd lanes only */
    "mov.u32 %r9, 0xFFFFFFFF;\n"
    "and.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 0;\n@%p1 bra SKIP;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 param1;\nmov.u32 %r13, 7;\nst.param.b32 [param1+0], %r13;\n"
    ".param .b32 retval0;\ncall (retval0), addk, (param0, param1);\nld.param.b32 %r9, [retval0+0];\n}\n"
    "activemask.b32 %r10;\nst.global.u32 [%rd2+128], %r10;\n"
    "SKIP:\n"
    "st.global.u32 [%rd2], %r9;\n"
    /* recursion to a different depth in every lane */
    "rem.u32 %r3, %r1, 13;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r3;\n.param .b32 retval0;\n"
    "call (retval0), fact, (param0);\nld.param.b32 %r4, [retval0+0];\n}\n"
    "st.global.u32 [%rd2+256], %r4;\n"
    "activemask.b32 %r11;\nst.global.u32 [%rd2+384], %r11;\n"
    /* indirect: uniform target, then a different target per lane parity */
    "mov.u64 %rd20, inc1;\nmov.u64 %rd21, dbl;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n"
    "prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "call (retval0), %rd20, (param0), prototype_0;\nld.param.b32 %r5, [retval0+0];\n}\n"
    "st.global.u32 [%rd2+512], %r5;\n"
    "selp.b64 %rd22, %rd20, %rd21, %p1;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n"
    "prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "call (retval0), %rd22, (param0), prototype_1;\nld.param.b32 %r6, [retval0+0];\n}\n"
    "st.global.u32 [%rd2+640], %r6;\n"
    "activemask.b32 %r12;\nst.global.u32 [%rd2+768], %r12;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n"
    "call (retval0), sumloc, (param0);\nld.param.b32 %r14, [retval0+0];\n}\n"
    "st.global.u32 [%rd2+896], %r14;\n"
    "ret;\n}\n";

START_TEST(test_calls)
{
    uint32_t out[8 * 32];
    memset(out, 0xEE, sizeof out);
    run_ok(calls_ptx, 1, 32, out, sizeof out);
    for (uint32_t l = 0; l < 32; l++) {
        EQ32(out[l], (l & 1) ? l * 10 + 7 : 0xFFFFFFFF);
        EQ32(out[32 + l], (l & 1) ? 0xAAAAAAAA : 0xEEEEEEEE);
        uint32_t f = 1;
        for (uint32_t i = 2; i <= l % 13; i++)
            f *= i;
        EQ32(out[64 + l], f);
        EQ32(out[96 + l], 0xFFFFFFFF);
        EQ32(out[128 + l], l + 1);
        EQ32(out[160 + l], (l & 1) ? 2 * l : l + 1);
        EQ32(out[192 + l], 0xFFFFFFFF);
        EQ32(out[224 + l], l * (l + 1) / 2);
    }
}
END_TEST

/* a guarded call (some lanes skip it), and a callee in which some lanes
 * exit: the survivors come back with their return value */
START_TEST(test_guarded_call_and_exit_in_callee)
{
    const char *ptx = HEADER
        ".func (.param .b32 func_retval0) maybe_exit(.param .b32 p)\n{\n"
        ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
        "ld.param.u32 %r1, [p];\nand.b32 %r2, %r1, 3;\nsetp.eq.u32 %p1, %r2, 3;\n"
        "@%p1 exit;\n"
        "add.u32 %r3, %r1, 500;\nst.param.b32 [func_retval0+0], %r3;\nret;\n}\n"
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        ".reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n.reg .pred %p<16>;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
        "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd2, %rd1, %rd3;\n"
        "mov.u32 %r5, 7;\nsetp.lt.u32 %p1, %r1, 20;\n"
        "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n"
        "@%p1 call (retval0), maybe_exit, (param0);\n@%p1 ld.param.b32 %r5, [retval0+0];\n}\n"
        "activemask.b32 %r6;\n"
        "st.global.u32 [%rd2], %r5;\nst.global.u32 [%rd2+128], %r6;\n"
        "ret;\n}\n";
    uint32_t out[64];
    memset(out, 0xEE, sizeof out);
    run_ok(ptx, 1, 32, out, sizeof out);
    uint32_t alive = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (!(l < 20 && (l & 3) == 3))
            alive |= 1u << l;
    for (uint32_t l = 0; l < 32; l++) {
        bool gone = !(alive >> l & 1);
        EQ32(out[l], gone ? 0xEEEEEEEE : l < 20 ? l + 500 : 7);
        EQ32(out[32 + l], gone ? 0xEEEEEEEE : alive);
    }
}
END_TEST

/* A struct passed by value is a .b8 array parameter: every byte of it
 * reaches the callee, however large (32 bytes here), and the callee's
 * struct return comes back whole. */
START_TEST(test_call_struct_by_value)
{
    const char *ptx = HEADER
        ".func (.param .align 8 .b8 func_retval0[24]) mix(.param .align 8 .b8 s[32])\n{\n"
        ".reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [s];\nld.param.u64 %rd2, [s+8];\nld.param.u64 %rd3, [s+16];\nld.param.u64 %rd4, [s+24];\n"
        "add.s64 %rd5, %rd1, %rd4;\n"
        "st.param.b64 [func_retval0+0], %rd5;\nst.param.b64 [func_retval0+8], %rd3;\n"
        "st.param.b64 [func_retval0+16], %rd2;\nret;\n}\n"
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<16>;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd2, %r1;\n"
        "mul.wide.u32 %rd3, %r1, 24;\nadd.s64 %rd4, %rd1, %rd3;\n"
        "add.s64 %rd5, %rd2, 1000;\nadd.s64 %rd6, %rd2, 2000;\nadd.s64 %rd7, %rd2, 3000;\n"
        "{\n.param .align 8 .b8 param0[32];\n"
        "st.param.b64 [param0+0], %rd2;\nst.param.b64 [param0+8], %rd5;\n"
        "st.param.b64 [param0+16], %rd6;\nst.param.b64 [param0+24], %rd7;\n"
        ".param .align 8 .b8 retval0[24];\n"
        "call (retval0), mix, (param0);\n"
        "ld.param.b64 %rd8, [retval0+0];\nld.param.b64 %rd9, [retval0+8];\nld.param.b64 %rd10, [retval0+16];\n}\n"
        "st.global.u64 [%rd4], %rd8;\nst.global.u64 [%rd4+8], %rd9;\nst.global.u64 [%rd4+16], %rd10;\n"
        "ret;\n}\n";
    uint64_t out[32 * 3];
    memset(out, 0xEE, sizeof out);
    run_ok(ptx, 1, 32, out, sizeof out);
    for (uint64_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(out[3 * l], l + (l + 3000));
        ck_assert_uint_eq(out[3 * l + 1], l + 2000);
        ck_assert_uint_eq(out[3 * l + 2], l + 1000);
    }
}
END_TEST

START_TEST(test_call_faults)
{
    /* unbounded recursion stops with a message, not a crash */
    const char *deep = HEADER
        ".func (.param .b32 func_retval0) down(.param .b32 p)\n{\n"
        ".reg .b32 %r<4>;\n"
        "ld.param.u32 %r1, [p];\nadd.u32 %r2, %r1, 1;\n"
        "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r2;\n.param .b32 retval0;\n"
        "call (retval0), down, (param0);\nld.param.b32 %r3, [retval0+0];\n}\n"
        "st.param.b32 [func_retval0+0], %r3;\nret;\n}\n"
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        ".reg .b32 %r<4>;\nmov.u32 %r1, 0;\n"
        "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n"
        "call (retval0), down, (param0);\nld.param.b32 %r2, [retval0+0];\n}\n"
        "ret;\n}\n";
    uint32_t out[4] = {0};
    char *err = run_err(deep, 1, 32, out, sizeof out);
    ck_assert_msg(err != NULL, "unbounded recursion reported success");
    ck_assert_msg(strstr(err, "call stack overflow") != NULL, "unexpected message: %s", err);
    g_free(err);

    /* an indirect call through something that is not a function */
    const char *bad = HEADER
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out];\n"
        "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n"
        "prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "call (retval0), %rd1, (param0), prototype_0;\nld.param.b32 %r2, [retval0+0];\n}\n"
        "ret;\n}\n";
    err = run_err(bad, 1, 32, out, sizeof out);
    ck_assert_msg(err != NULL, "a call through a data pointer reported success");
    ck_assert_msg(strstr(err, "not a function") != NULL, "unexpected message: %s", err);
    g_free(err);
}
END_TEST

START_TEST(test_named_barrier_producer_consumer)
{
    /* warps 0-1 produce and bar.arrive; warps 2-3 bar.sync on the same
     * barrier (count 128) and then read what the producers wrote */
    const char *ptx = KHEAD
        ".shared .align 4 .b32 sh[64];\n"
        "mov.u64 %rd10, sh;\n"
        "setp.ge.u32 %p1, %r1, 64;\n@%p1 bra CONSUME;\n"
        "add.s64 %rd11, %rd10, %rd3;\nmul.lo.u32 %r2, %r1, 7;\nst.shared.u32 [%rd11], %r2;\n"
        "bar.arrive 1, 128;\n"
        "ret;\n"
        "CONSUME:\n"
        "bar.sync 1, 128;\n"
        "sub.u32 %r3, %r1, 64;\nmul.wide.u32 %rd12, %r3, 4;\nadd.s64 %rd13, %rd10, %rd12;\n"
        "ld.shared.u32 %r4, [%rd13];\nst.global.u32 [%rd2], %r4;\n"
        "ret;\n}\n";
    uint32_t out[128];
    memset(out, 0, sizeof out);
    run_ok(ptx, 1, 128, out, sizeof out);
    for (uint32_t t = 64; t < 128; t++)
        EQ32(out[t], (t - 64) * 7);
}
END_TEST

START_TEST(test_barrier_four_warps)
{
    const char *ptx = KHEAD
        ".shared .align 4 .b32 sh[128];\n"
        "mov.u64 %rd10, sh;\nadd.s64 %rd11, %rd10, %rd3;\n"
        "mul.lo.u32 %r2, %r1, 3;\nst.shared.u32 [%rd11], %r2;\n"
        "bar.sync 0;\n"
        "sub.u32 %r3, 127, %r1;\nmul.wide.u32 %rd12, %r3, 4;\nadd.s64 %rd13, %rd10, %rd12;\n"
        "ld.shared.u32 %r4, [%rd13];\nst.global.u32 [%rd2+4], %r4;\n"
        "bar.sync 0;\n"
        /* phase 2: sh[t] += sh[(t + 32) % 128] — reads must see phase-1 values */
        "add.u32 %r5, %r1, 32;\nand.b32 %r5, %r5, 127;\nmul.wide.u32 %rd14, %r5, 4;\nadd.s64 %rd15, %rd10, %rd14;\n"
        "ld.shared.u32 %r6, [%rd15];\n"
        "barrier.sync 0;\n"
        "ld.shared.u32 %r7, [%rd11];\nadd.u32 %r7, %r7, %r6;\nst.shared.u32 [%rd11], %r7;\n"
        "bar.sync 0;\n"
        "ld.shared.u32 %r8, [%rd15];\nst.global.u32 [%rd2+516], %r8;\n"
        /* barrier 1 with an explicit thread count */
        "bar.sync 1, 128;\n"
        "ret;\n}\n";
    uint32_t out[1 + 8 * 32];
    memset(out, 0, sizeof out);
    run_ok(ptx, 1, 128, out, sizeof out);
    for (uint32_t t = 0; t < 128; t++) {
        EQ32(out[1 + t], (127 - t) * 3);
        uint32_t u = (t + 32) % 128, w = (u + 32) % 128;
        EQ32(out[129 + t], u * 3 + w * 3);
    }
}
END_TEST

/* barrier.cluster.arrive/.wait with a cluster of one CTA: the CTA's
 * barrier split in two.  A warp's wait ends once every live warp arrived,
 * wherever those warps are: warp 0 waits at a CTA barrier between its
 * arrival and its wait, which the others reach only after theirs (a wait
 * that also waited for every warp to reach a wait would deadlock). */
START_TEST(test_barrier_cluster)
{
    const char *ptx = KHEAD
        ".shared .align 4 .b32 sh[128];\n"
        "mov.u64 %rd10, sh;\nadd.s64 %rd11, %rd10, %rd3;\n"
        "mul.lo.u32 %r2, %r1, 5;\nst.shared.u32 [%rd11], %r2;\n"
        "barrier.cluster.arrive.release.aligned;\n"
        "setp.lt.u32 %p1, %r1, 32;\n@%p1 bra FIRST;\n"
        "barrier.cluster.wait.acquire.aligned;\n"
        "bar.sync 0;\nbra.uni READ;\n"
        "FIRST:\n"
        "bar.sync 0;\n"
        "barrier.cluster.wait.aligned;\n"
        "READ:\n"
        "sub.u32 %r3, 127, %r1;\nmul.wide.u32 %rd12, %r3, 4;\nadd.s64 %rd13, %rd10, %rd12;\n"
        "ld.shared.u32 %r4, [%rd13];\nst.global.u32 [%rd2], %r4;\n"
        /* a second phase: the barrier is used again */
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\n"
        "st.shared.u32 [%rd11], %r1;\n"
        "barrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\n"
        "ld.shared.u32 %r5, [%rd13];\nst.global.u32 [%rd2+512], %r5;\n"
        "ret;\n}\n";
    uint32_t out[256];
    memset(out, 0xEE, sizeof out);
    run_ok(ptx, 1, 128, out, sizeof out);
    for (uint32_t t = 0; t < 128; t++) {
        EQ32(out[t], (127 - t) * 5);
        EQ32(out[128 + t], 127 - t);
    }

    /* a warp that arrived and exited is not waited for, nor counted for another */
    const char *exits = KHEAD
        "barrier.cluster.arrive.aligned;\n"
        "setp.lt.u32 %p1, %r1, 32;\n@%p1 bra DONE;\n"
        "barrier.cluster.wait.aligned;\n"
        "barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\n"
        "st.global.u32 [%rd2], %r1;\n"
        "DONE:\nret;\n}\n";
    memset(out, 0xEE, sizeof out);
    run_ok(exits, 1, 96, out, sizeof out);
    for (uint32_t t = 0; t < 96; t++)
        EQ32(out[t], t < 32 ? 0xEEEEEEEE : t);

    /* a wait with no arrival before it, and two arrivals without a wait */
    const char *no_arrive = KHEAD "barrier.cluster.wait;\nret;\n}\n";
    char *err = run_err(no_arrive, 1, 32, out, sizeof out);
    ck_assert_msg(err && strstr(err, "without a barrier.cluster.arrive"), "got: %s", err ? err : "success");
    g_free(err);
    const char *twice = KHEAD "barrier.cluster.arrive;\nbarrier.cluster.arrive;\nret;\n}\n";
    err = run_err(twice, 1, 32, out, sizeof out);
    ck_assert_msg(err && strstr(err, "again before barrier.cluster.wait"), "got: %s", err ? err : "success");
    g_free(err);

    /* forms that are not PTX: each a clear error at its line */
    static const char *const bad[] = {
        "barrier.cluster.sync;", "barrier.wait;", "bar.wait 0;", "barrier.cluster.arrive 0;",
        "barrier.cluster.wait.release;", "barrier.cluster.arrive.acquire;", "barrier.gpu.arrive;",
        "barrier.sync.acquire 0;",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *text = g_strconcat(KHEAD, bad[i], "\nret;\n}\n", NULL);
        err = run_err(text, 1, 32, out, sizeof out);
        ck_assert_msg(err && strstr(err, ":14:"), "'%s' gave: %s", bad[i], err ? err : "success");
        g_free(err);
        g_free(text);
    }
}
END_TEST

START_TEST(test_bar_red)
{
    const char *ptx = KHEAD
        "rem.u32 %r2, %r1, 3;\nsetp.eq.u32 %p1, %r2, 0;\n"
        "bar.red.popc.u32 %r3, 0, %p1;\n"
        "setp.lt.u32 %p2, %r1, 200;\nbar.red.and.pred %p3, 0, %p2;\n"
        "setp.eq.u32 %p4, %r1, 77;\nbar.red.or.pred %p5, 1, %p4;\n"
        "setp.ne.u32 %p6, %r1, 5;\nbar.red.and.pred %p7, 0, %p6;\n"
        "bar.red.or.pred %p8, 0, !%p2;\n"
        "bar.red.popc.u32 %r9, 2, !%p1;\n"
        "selp.u32 %r4, 1, 0, %p3;\nselp.u32 %r5, 1, 0, %p5;\nselp.u32 %r6, 1, 0, %p7;\nselp.u32 %r7, 1, 0, %p8;\n"
        "mul.wide.u32 %rd4, %r1, 32;\nadd.s64 %rd5, %rd1, %rd4;\n"
        "st.global.v4.u32 [%rd5], {%r3, %r4, %r5, %r6};\nst.global.v2.u32 [%rd5+16], {%r7, %r9};\n"
        "ret;\n}\n";
    uint32_t out[96 * 8];
    memset(out, 0xEE, sizeof out);
    run_ok(ptx, 1, 96, out, sizeof out);
    uint32_t threes = 0;
    for (uint32_t t = 0; t < 96; t++)
        threes += t % 3 == 0;
    for (uint32_t t = 0; t < 96; t++) {
        const uint32_t *o = &out[t * 8];
        EQ32(o[0], threes);
        EQ32(o[1], 1);
        EQ32(o[2], 1);
        EQ32(o[3], 0);
        EQ32(o[4], 0);
        EQ32(o[5], 96 - threes);
    }
}
END_TEST

/* bar.red with the optional thread count: `bar.red.popc.u32 d, a, b, {!}c`
 * (four operands) is valid PTX. */
START_TEST(test_bar_red_thread_count)
{
    const char *ptx = KHEAD
        "rem.u32 %r2, %r1, 3;\nsetp.eq.u32 %p1, %r2, 0;\n"
        "bar.red.popc.u32 %r3, 2, 64, %p1;\n"
        "st.global.u32 [%rd2], %r3;\n"
        "ret;\n}\n";
    uint32_t out[64];
    memset(out, 0xEE, sizeof out);
    run_ok(ptx, 1, 64, out, sizeof out);
    for (uint32_t t = 0; t < 64; t++)
        EQ32(out[t], 22); /* 0, 3, ..., 63 */
}
END_TEST

START_TEST(test_deadlock)
{
    /* warp 0 waits at barrier 0 inside a branch, warp 1 at barrier 1:
     * neither can ever be released */
    const char *ptx = KHEAD
        "setp.ge.u32 %p1, %r1, 32;\n@%p1 bra OTHER;\n"
        "bar.sync 0;\n"
        "OTHER:\n"
        "bar.sync 1;\n"
        "ret;\n}\n";
    uint32_t out[4] = {0};
    char *err = run_err(ptx, 1, 64, out, sizeof out);
    ck_assert_msg(err != NULL, "a deadlocked launch reported success");
    ck_assert_msg(strstr(err, "deadlock") != NULL, "message does not say deadlock: %s", err);
    ck_assert_msg(strstr(err, "block (0,0,0)") != NULL, "message does not name the block: %s", err);
    ck_assert_msg(strstr(err, "warp 0") && strstr(err, "warp 1"), "message does not list the warps: %s", err);
    g_free(err);

    /* a barrier that only one of two warps reaches, while the other spins
     * waiting for a flag set after the barrier: a livelock, which the hang
     * detector finds (the spin repeats its state, nobody writes memory, the
     * other warp waits) before the instruction budget runs out */
    const char *ptx2 = KHEAD
        "setp.ge.u32 %p1, %r1, 32;\n@%p1 bra SPIN;\n"
        "bar.sync 0;\n"
        "mov.u32 %r3, 1;\nst.global.u32 [%rd1], %r3;\n"
        "ret;\n"
        "SPIN:\nld.volatile.global.u32 %r2, [%rd1];\nsetp.eq.u32 %p2, %r2, 0;\n@%p2 bra SPIN;\n"
        "ret;\n}\n";
    err = run_err(ptx2, 1, 64, out, sizeof out);
    ck_assert_msg(err != NULL, "a hung launch reported success");
    ck_assert_msg(strstr(err, "hang: every unfinished warp") != NULL && strstr(err, "warp 0: waiting at barrier") != NULL,
                  "unexpected message: %s", err);
    g_free(err);
}
END_TEST

START_TEST(test_instruction_budget)
{
    const char *ptx = KHEAD "LOOP:\nadd.u32 %r2, %r2, 1;\nbra.uni LOOP;\n"
                            "ret;\n}\n";
    uint32_t out[4] = {0};
    char *err = run_err(ptx, 1, 32, out, sizeof out);
    ck_assert_msg(err != NULL, "an infinite loop reported success");
    ck_assert_msg(strstr(err, "instruction budget of 10000000 warp instructions exhausted") != NULL,
                  "unexpected message: %s", err);
    ck_assert_msg(strstr(err, "block (0,0,0)") != NULL, "message does not name the block: %s", err);
    g_free(err);

    /* divergent: half the lanes finish, the other half spin */
    const char *ptx2 = KHEAD "setp.lt.u32 %p1, %r1, 16;\n@%p1 bra END;\n"
                             "LOOP:\nadd.u32 %r2, %r2, 1;\nbra LOOP;\n"
                             "END:\nret;\n}\n";
    err = run_err(ptx2, 1, 32, out, sizeof out);
    ck_assert_msg(err != NULL && strstr(err, "exhausted") != NULL, "unexpected: %s", err ? err : "(success)");
    g_free(err);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Straight stretches (InsnPlan.straight): run_steps executes the
 * instructions of a block that leave the stack alone one after the other,
 * settling only at the stretch's end.  Every effect, count and message
 * must be the single steps'. */

typedef struct {
    bool single_steps;    /* the hook cuts every stretch to single steps */
    const Module *m;      /* set by the hook */
    uint32_t longest;     /* the plan's longest stretch */
    uint64_t scalars[8];  /* the launch's totals */
    GArray *per_insn;     /* every function's per-instruction and per-block counts, in order */
} StretchRun;

static void stretch_hook(void *image, void *data)
{
    ModuleImage *img = image;
    StretchRun *r = data;
    r->m = img->module;
    for (uint32_t f = 0; f < img->module->funcs->len; f++)
        for (uint32_t i = 0; i < func_ninsns(module_func(img->module, f)); i++) {
            InsnPlan *ip = &img->plan->by_func[f][i];
            r->longest = MAX(r->longest, ip->straight);
            if (r->single_steps)
                ip->straight = MIN(ip->straight, 1u);
        }
}

static void stretch_stats(const LaunchStats *st, void *data)
{
    StretchRun *r = data;
    uint64_t totals[8] = {st->warp_insts, st->thread_insts, st->thread_insts_pred_on, st->branches,
                          st->divergent_branches, st->ctas, st->warps, st->threads};
    memcpy(r->scalars, totals, sizeof totals);
    r->per_insn = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (uint32_t f = 0; f < st->nfuncs; f++) {
        const Function *fn = module_func(r->m, f);
        if (st->insn_warp_count[f])
            g_array_append_vals(r->per_insn, st->insn_warp_count[f], func_ninsns(fn));
        if (fn->cfg && st->block_visits[f]) {
            g_array_append_vals(r->per_insn, st->block_visits[f], fn->cfg->nblocks);
            g_array_append_vals(r->per_insn, st->block_divergent[f], fn->cfg->nblocks);
            g_array_append_vals(r->per_insn, st->block_splits[f], fn->cfg->nblocks);
        }
    }
}

/* Runs `ptx` both ways (32 u32 words of output per thread region, `words`
 * in all) and checks that outputs, counts and any error agree; returns the
 * longest stretch, so that the caller can check some were long. */
static uint32_t expect_stretches_match(const char *ptx, uint32_t gx, uint32_t bx, size_t words, uint64_t budget,
                                       int line)
{
    StretchRun runs[2] = {{.single_steps = false}, {.single_steps = true}};
    uint32_t *out[2];
    char *err[2];
    for (int k = 0; k < 2; k++) {
        out[k] = g_new0(uint32_t, words);
        uint32_t dummy = 0;
        TuBuf bufs[2] = {{out[k], words * 4}, {&dummy, sizeof dummy}};
        TuOptions opt = {.hook = stretch_hook, .hook_data = &runs[k], .on_stats = stretch_stats,
                         .stats_data = &runs[k], .max_instructions = budget};
        err[k] = tu_run_with(ptx, "k", gx, bx, bufs, 2, NULL, 0, &opt);
    }
    ck_assert_msg((err[0] == NULL) == (err[1] == NULL) && (!err[0] || !strcmp(err[0], err[1])),
                  "line %d: stretches: %s; single steps: %s", line, err[0] ? err[0] : "ok", err[1] ? err[1] : "ok");
    ck_assert_msg(!memcmp(out[0], out[1], words * 4), "line %d: outputs differ", line);
    for (int i = 0; i < 8; i++)
        ck_assert_msg(runs[0].scalars[i] == runs[1].scalars[i],
                      "line %d: total %d: %" G_GUINT64_FORMAT " vs %" G_GUINT64_FORMAT, line, i,
                      runs[0].scalars[i], runs[1].scalars[i]);
    ck_assert_uint_eq(runs[0].per_insn->len, runs[1].per_insn->len);
    for (guint i = 0; i < runs[0].per_insn->len; i++)
        ck_assert_msg(g_array_index(runs[0].per_insn, uint64_t, i) == g_array_index(runs[1].per_insn, uint64_t, i),
                      "line %d: per-instruction/block count %u differs", line, i);
    ck_assert_msg(runs[0].scalars[0] > 0, "line %d: nothing ran", line);
    for (int k = 0; k < 2; k++) {
        g_free(out[k]);
        g_free(err[k]);
        g_array_free(runs[k].per_insn, TRUE);
    }
    return runs[0].longest;
}

START_TEST(test_straight_stretches)
{
    /* a guarded add, special registers and a store inside stretches; a
     * divergent branch into a stretch; a loop whose body is one stretch,
     * left by lanes at different trip counts */
    const char *mixed = KHEAD
        "and.b32 %r3, %r1, 3;\nsetp.eq.u32 %p1, %r3, 0;\n"
        "mov.u32 %r2, %r1;\n@%p1 add.u32 %r2, %r2, 100;\nmov.u32 %r4, %tid.x;\nadd.u32 %r2, %r2, %r4;\n"
        "st.global.u32 [%rd2+128], %r2;\n"
        "setp.lt.u32 %p2, %r1, 13;\n@%p2 bra SKIP;\n"
        "mul.lo.u32 %r2, %r2, 3;\nadd.u32 %r2, %r2, 1;\nxor.b32 %r2, %r2, %r1;\nst.global.u32 [%rd2+256], %r2;\n"
        "SKIP:\nmov.u32 %r5, 0;\nand.b32 %r6, %r1, 7;\nadd.u32 %r6, %r6, 1;\n"
        "LOOP:\nadd.u32 %r5, %r5, %r1;\nsub.u32 %r6, %r6, 1;\nshl.b32 %r7, %r5, 1;\nsetp.ne.u32 %p3, %r6, 0;\n"
        "@%p3 bra LOOP;\n"
        "ld.global.u32 %r8, [%rd2+128];\nadd.u32 %r8, %r8, %r5;\nadd.u32 %r8, %r8, %r7;\n"
        "st.global.u32 [%rd2+384], %r8;\nret;\n}\n";
    ck_assert_uint_ge(expect_stretches_match(mixed, 2, 64, 4 * 32 + 64, 0, __LINE__), 4);
    /* calls, recursion and indirect calls from divergent code */
    ck_assert_uint_ge(expect_stretches_match(calls_ptx, 1, 32, 8 * 32, 0, __LINE__), 3);
    /* the instruction budget running out inside a stretch: the same
     * instruction is the last, whatever the budget */
    for (uint64_t budget = 3; budget < 40; budget += 5)
        expect_stretches_match(mixed, 1, 32, 4 * 32 + 64, budget, __LINE__);
    /* a fault inside a stretch: the instructions before it count, it and
     * those after do not */
    const char *faulting = KHEAD
        "add.u32 %r2, %r1, 1;\nst.global.u32 [%rd2], %r2;\nmul.lo.u32 %r3, %r2, 5;\n"
        "setp.gt.u32 %p1, %r1, 20;\nselp.u64 %rd4, 4096, 0, %p1;\nadd.s64 %rd5, %rd2, %rd4;\n"
        "ld.global.u32 %r4, [%rd5];\nadd.u32 %r3, %r3, %r4;\nst.global.u32 [%rd2+128], %r3;\nret;\n}\n";
    expect_stretches_match(faulting, 1, 32, 64, 0, __LINE__);
}
END_TEST

static Suite *stack_suite(void)
{
    Suite *s = suite_create("stack");
    TCase *d = tcase_create("divergence");
    tcase_set_timeout(d, 120);
    tcase_add_test(d, test_if_else_order);
    tcase_add_test(d, test_nested_if);
    tcase_add_test(d, test_loop_leave_at_different_iterations);
    tcase_add_test(d, test_backward_divergent_branch_and_nested_break);
    tcase_add_test(d, test_early_return);
    tcase_add_test(d, test_partial_exit_then_barrier);
    suite_add_tcase(s, d);
    TCase *c = tcase_create("calls");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, test_calls);
    tcase_add_test(c, test_guarded_call_and_exit_in_callee);
    tcase_add_test(c, test_call_struct_by_value);
    tcase_add_test(c, test_call_faults);
    suite_add_tcase(s, c);
    TCase *b = tcase_create("barriers");
    tcase_set_timeout(b, 120);
    tcase_add_test(b, test_barrier_four_warps);
    tcase_add_test(b, test_barrier_cluster);
    tcase_add_test(b, test_bar_red);
    tcase_add_test(b, test_named_barrier_producer_consumer);
    tcase_add_test(b, test_bar_red_thread_count);
    tcase_add_test(b, test_deadlock);
    tcase_add_test(b, test_instruction_budget);
    suite_add_tcase(s, b);
    TCase *st = tcase_create("stretches");
    tcase_set_timeout(st, 120);
    tcase_add_test(st, test_straight_stretches);
    suite_add_tcase(s, st);
    return s;
}

int main(void)
{
    return tu_run_suite(stack_suite());
}
