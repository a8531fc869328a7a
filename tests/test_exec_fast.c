/* test_exec_fast.c — the fast instruction forms (exec_fast.c) against the
 * general handlers (exec_ops.c): the same kernel runs once with its
 * pre-decoded plan and once with every instruction on the general path,
 * on operands full of edge cases (NaNs, infinities, subnormals, -0, shift
 * amounts past the width, sign bits), under a guard that leaves some warps
 * full and others ragged.  Every result must agree to the bit, and the
 * plan must really have used fast forms for the instructions tested. */
#include <check.h>
#include <glib.h>
#include <string.h>

#include "exec_internal.h"
#include "testutil.h"

#define THREADS 128

/* One instruction under test: its text (%r9/%rd9/%f9/%fd9/%p9 the
 * destination, sources %r1-3, %rd1-3, %f1-3, %fd1-3, %p1-2, shift %r4) and
 * the class of its destination. */
typedef struct {
    const char *insn;
    char dst; /* 'r' u32, 'd' u64, 'f' f32, 'D' f64, 'p' predicate, 'q' p|q pair */
} Form;

static const Form forms[] = {
    {"add.u32 %r9, %r1, %r2;", 'r'},          {"add.s32 %r9, %r1, 7;", 'r'},
    {"sub.s32 %r9, %r1, %r2;", 'r'},          {"add.u64 %rd9, %rd1, %rd2;", 'd'},
    {"sub.s64 %rd9, %rd1, %rd2;", 'd'},       {"mul.lo.u32 %r9, %r1, %r2;", 'r'},
    {"mul.lo.s32 %r9, %r1, -3;", 'r'},        {"mul.lo.u64 %rd9, %rd1, %rd2;", 'd'},
    {"mul.wide.s32 %rd9, %r1, %r2;", 'd'},    {"mul.wide.u32 %rd9, %r1, %r2;", 'd'},
    {"mad.lo.s32 %r9, %r1, %r2, %r3;", 'r'},  {"mad.lo.u64 %rd9, %rd1, %rd2, %rd3;", 'd'},
    {"mad.wide.s32 %rd9, %r1, %r2, %rd3;", 'd'}, {"mad.wide.u32 %rd9, %r1, %r2, %rd3;", 'd'},
    {"and.b32 %r9, %r1, %r2;", 'r'},          {"or.b32 %r9, %r1, %r2;", 'r'},
    {"xor.b32 %r9, %r1, %r2;", 'r'},          {"and.b64 %rd9, %rd1, %rd2;", 'd'},
    {"or.b64 %rd9, %rd1, %rd2;", 'd'},        {"xor.b64 %rd9, %rd1, %rd2;", 'd'},
    {"shl.b32 %r9, %r1, %r4;", 'r'},          {"shl.b64 %rd9, %rd1, %r4;", 'd'},
    {"shr.u32 %r9, %r1, %r4;", 'r'},          {"shr.s32 %r9, %r1, %r4;", 'r'},
    {"shr.u64 %rd9, %rd1, %r4;", 'd'},        {"shr.s64 %rd9, %rd1, %r4;", 'd'},
    {"neg.s32 %r9, %r1;", 'r'},               {"neg.s64 %rd9, %rd1;", 'd'},
    {"abs.s32 %r9, %r1;", 'r'},               {"abs.s64 %rd9, %rd1;", 'd'},
    {"min.s32 %r9, %r1, %r2;", 'r'},          {"max.u32 %r9, %r1, %r2;", 'r'},
    {"min.u64 %rd9, %rd1, %rd2;", 'd'},       {"max.s64 %rd9, %rd1, %rd2;", 'd'},
    {"neg.f32 %f9, %f1;", 'f'},               {"neg.ftz.f32 %f9, %f1;", 'f'},
    {"abs.f32 %f9, %f1;", 'f'},               {"abs.ftz.f32 %f9, %f1;", 'f'},
    {"neg.f64 %fd9, %fd1;", 'D'},             {"abs.f64 %fd9, %fd1;", 'D'},
    {"mov.u32 %r9, %r1;", 'r'},               {"mov.u32 %r9, %tid.x;", 'r'},
    {"mov.u64 %rd9, %rd2;", 'd'},             {"cvta.to.global.u64 %rd9, %rd1;", 'd'},
    {"cvta.shared.u64 %rd9, %rd2;", 'd'},     {"cvta.to.shared.u32 %r9, %r1;", 'r'},
    {"mov.u32 %r9, %tid.y;", 'r'},             {"mov.f32 %f9, 0f3F800000;", 'f'},
    {"selp.b32 %r9, %r1, %r2, %p1;", 'r'},    {"selp.b64 %rd9, %rd1, %rd2, %p2;", 'd'},
    {"cvt.s64.s32 %rd9, %r1;", 'd'},          {"cvt.u64.u32 %rd9, %r1;", 'd'},
    {"cvt.u32.u64 %r9, %rd1;", 'r'},          {"cvt.s32.s64 %r9, %rd1;", 'r'},
    {"cvt.rn.f32.s32 %f9, %r1;", 'f'},        {"cvt.rn.f32.u32 %f9, %r1;", 'f'},
    {"cvt.rn.f32.s64 %f9, %rd1;", 'f'},       {"cvt.rn.f32.u64 %f9, %rd1;", 'f'},
    {"cvt.rn.f64.s32 %fd9, %r1;", 'D'},       {"cvt.rn.f64.u32 %fd9, %r1;", 'D'},
    {"cvt.rn.f64.s64 %fd9, %rd1;", 'D'},      {"cvt.rn.f64.u64 %fd9, %rd1;", 'D'},
    {"cvt.rzi.f32.f32 %f9, %f1;", 'f'},       {"cvt.rmi.f32.f32 %f9, %f1;", 'f'},
    {"cvt.rpi.f32.f32 %f9, %f1;", 'f'},       {"cvt.rni.f32.f32 %f9, %f1;", 'f'},
    {"cvt.rzi.s32.f32 %r9, %f1;", 'r'},       {"cvt.rmi.s32.f32 %r9, %f1;", 'r'},
    {"cvt.rpi.s32.f32 %r9, %f1;", 'r'},       {"cvt.rni.s32.f32 %r9, %f1;", 'r'},
    {"cvt.rzi.u32.f32 %r9, %f1;", 'r'},       {"cvt.rmi.u32.f32 %r9, %f1;", 'r'},
    {"cvt.rpi.u32.f32 %r9, %f1;", 'r'},       {"cvt.rni.u32.f32 %r9, %f1;", 'r'},
    {"setp.lt.s32 %p9, %r1, %r2;", 'p'},      {"setp.lo.u32 %p9, %r1, %r2;", 'p'},
    {"setp.ge.u64 %p9, %rd1, %rd2;", 'p'},    {"setp.ne.s64 %p9, %rd1, %rd2;", 'p'},
    {"setp.hs.s32 %p9, %r1, %r2;", 'p'},      {"setp.lt.s32 %p9|%p10, %r1, %r2;", 'q'},
    {"setp.eq.f32 %p9, %f1, %f2;", 'p'},      {"setp.ne.f32 %p9, %f1, %f2;", 'p'},
    {"setp.ltu.f32 %p9, %f1, %f2;", 'p'},     {"setp.neu.f32 %p9, %f1, %f2;", 'p'},
    {"setp.gt.ftz.f32 %p9, %f1, %f2;", 'p'},  {"setp.geu.f32 %p9, %f1, %f2;", 'p'},
    {"setp.nan.f32 %p9, %f1, %f2;", 'p'},     {"setp.num.f64 %p9, %fd1, %fd2;", 'p'},
    {"setp.le.f64 %p9, %fd1, %fd2;", 'p'},    {"setp.equ.f64 %p9, %fd1, %fd2;", 'p'},
    {"and.pred %p9, %p1, %p2;", 'p'},         {"or.pred %p9, %p1, %p2;", 'p'},
    {"xor.pred %p9, %p1, %p2;", 'p'},
    {"add.f32 %f9, %f1, %f2;", 'f'},          {"add.rn.f32 %f9, %f1, %f2;", 'f'},
    {"sub.f32 %f9, %f1, %f2;", 'f'},          {"mul.f32 %f9, %f1, %f2;", 'f'},
    {"div.rn.f32 %f9, %f1, %f2;", 'f'},       {"div.approx.f32 %f9, %f1, %f2;", 'f'},
    {"fma.rn.f32 %f9, %f1, %f2, %f3;", 'f'},  {"mad.rn.f32 %f9, %f1, %f2, %f3;", 'f'},
    {"add.ftz.f32 %f9, %f1, %f2;", 'f'},      {"mul.ftz.f32 %f9, %f1, %f2;", 'f'},
    {"fma.rn.ftz.f32 %f9, %f1, %f2, %f3;", 'f'}, {"div.full.ftz.f32 %f9, %f1, %f2;", 'f'},
    {"rcp.approx.f32 %f9, %f1;", 'f'},       {"rcp.approx.ftz.f32 %f9, %f1;", 'f'},
    {"sqrt.approx.f32 %f9, %f1;", 'f'},      {"sqrt.approx.ftz.f32 %f9, %f1;", 'f'},
    {"rsqrt.approx.f32 %f9, %f1;", 'f'},     {"rsqrt.approx.ftz.f32 %f9, %f1;", 'f'},
    {"ex2.approx.f32 %f9, %f1;", 'f'},       {"ex2.approx.ftz.f32 %f9, %f1;", 'f'},
    {"add.f64 %fd9, %fd1, %fd2;", 'D'},       {"sub.f64 %fd9, %fd1, %fd2;", 'D'},
    {"mul.f64 %fd9, %fd1, %fd2;", 'D'},       {"div.rn.f64 %fd9, %fd1, %fd2;", 'D'},
    {"fma.rn.f64 %fd9, %fd1, %fd2, %fd3;", 'D'},
    {"fma.rm.f32 %f9, %f1, %f2, %f3;", 'f'},  {"fma.rp.ftz.f32 %f9, %f1, %f2, %f3;", 'f'},
    {"add.rz.f32 %f9, %f1, %f2;", 'f'},       {"mul.rm.ftz.f32 %f9, %f1, %f2;", 'f'},
    {"sub.rp.f32 %f9, %f1, %f2;", 'f'},       {"div.rz.f32 %f9, %f1, %f2;", 'f'},
    {"fma.rz.f64 %fd9, %fd1, %fd2, %fd3;", 'D'}, {"add.rm.f64 %fd9, %fd1, %fd2;", 'D'},
    {"div.rp.f64 %fd9, %fd1, %fd2;", 'D'},    {"mul.rz.f64 %fd9, %fd1, %fd2;", 'D'},
    {"copysign.f32 %f9, %f1, %f2;", 'f'},     {"copysign.f64 %fd9, %fd1, %fd2;", 'D'},
    {"sqrt.rn.f32 %f9, %f1;", 'f'},           {"sqrt.rn.ftz.f32 %f9, %f1;", 'f'},
    {"rcp.rn.f32 %f9, %f1;", 'f'},            {"rcp.rn.ftz.f32 %f9, %f1;", 'f'},
    {"sqrt.rn.f64 %fd9, %fd1;", 'D'},         {"rcp.rn.f64 %fd9, %fd1;", 'D'},
    {"cvt.sat.f32.f32 %f9, %f1;", 'f'},       {"cvt.ftz.sat.f32.f32 %f9, %f1;", 'f'},
    {"cvt.rn.f32.f64 %f9, %fd1;", 'f'},       {"cvt.rz.ftz.f32.f64 %f9, %fd1;", 'f'},
    {"cvt.rm.f32.f64 %f9, %fd1;", 'f'},       {"cvt.rp.f32.f64 %f9, %fd1;", 'f'},
};
#define NFORMS (sizeof forms / sizeof forms[0])
/* slots per thread: one per form, plus the memory forms' results */
#define NMEM 9
#define SLOTS (NFORMS + NMEM)

/* The kernel: load a, b, c, derive the sources, then per form preset the
 * destination, run the form under %p0 and store the destination. */
static char *forms_kernel(void)
{
    GString *s = g_string_new(
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".const .align 8 .u64 cvals[4] = {11, 22, 33, 44};\n.global .align 8 .u64 gvals[2] = {55, 66};\n"
        ".visible .entry forms(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pout)\n{\n"
        "  .reg .b32 %r<12>;\n  .reg .b64 %rd<20>;\n  .reg .f32 %f<12>;\n  .reg .f64 %fd<12>;\n"
        "  .reg .pred %p<12>;\n  .shared .align 8 .b8 tile[1024];\n"
        "  ld.param.u64 %rd10, [pa];\n  ld.param.u64 %rd11, [pb];\n  ld.param.u64 %rd12, [pc];\n"
        "  ld.param.u64 %rd13, [pout];\n"
        "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd14, %r0, 8;\n"
        "  add.u64 %rd15, %rd10, %rd14;\n  ld.global.u64 %rd1, [%rd15];\n"
        "  add.u64 %rd15, %rd11, %rd14;\n  ld.global.u64 %rd2, [%rd15];\n"
        "  add.u64 %rd15, %rd12, %rd14;\n  ld.global.u64 %rd3, [%rd15];\n"
        "  cvt.u32.u64 %r1, %rd1;\n  cvt.u32.u64 %r2, %rd2;\n  cvt.u32.u64 %r3, %rd3;\n"
        "  and.b32 %r4, %r2, 127;\n"
        "  mov.b32 %f1, %r1;\n  mov.b32 %f2, %r2;\n  mov.b32 %f3, %r3;\n"
        "  mov.b64 %fd1, %rd1;\n  mov.b64 %fd2, %rd2;\n  mov.b64 %fd3, %rd3;\n"
        "  setp.ne.u32 %p1, %r3, 0;\n  and.b32 %r5, %r3, 2;\n  setp.ne.u32 %p2, %r5, 0;\n"
        /* the guard: warp 0 whole, the others ragged */
        "  and.b32 %r5, %r3, 256;\n  setp.ne.u32 %p0, %r5, 0;\n  setp.lt.u32 %p3, %r0, 32;\n"
        "  or.pred %p0, %p0, %p3;\n"
        "  mul.wide.u32 %rd16, %r0, %r11;\n");
    /* %r11 = slots * 8, set before use */
    g_string_replace(s, "  mul.wide.u32 %rd16, %r0, %r11;\n", "", 1);
    g_string_append_printf(s, "  mul.wide.u32 %%rd16, %%r0, %u;\n  add.u64 %%rd16, %%rd13, %%rd16;\n",
                           (unsigned)(SLOTS * 8));
    for (unsigned i = 0; i < NFORMS; i++) {
        const Form *f = &forms[i];
        unsigned off = i * 8;
        switch (f->dst) {
        case 'r':
            g_string_append_printf(s, "  mov.u32 %%r9, 1515870810;\n  @%%p0 %s\n  st.global.u32 [%%rd16+%u], %%r9;\n",
                                   f->insn, off);
            break;
        case 'd':
            g_string_append_printf(s, "  mov.u64 %%rd9, 6510615555426900570;\n  @%%p0 %s\n  st.global.u64 [%%rd16+%u], %%rd9;\n",
                                   f->insn, off);
            break;
        case 'f':
            g_string_append_printf(s, "  mov.f32 %%f9, 0f5A5A5A5A;\n  @%%p0 %s\n  st.global.f32 [%%rd16+%u], %%f9;\n",
                                   f->insn, off);
            break;
        case 'D':
            g_string_append_printf(s, "  mov.f64 %%fd9, 0d5A5A5A5A5A5A5A5A;\n  @%%p0 %s\n  st.global.f64 [%%rd16+%u], %%fd9;\n",
                                   f->insn, off);
            break;
        default: /* predicates, stored as 0/1 (q in the upper word) */
            g_string_append_printf(s, "  setp.eq.u32 %%p9, %%r0, 5;\n  setp.eq.u32 %%p10, %%r0, 6;\n  @%%p0 %s\n"
                                      "  selp.u32 %%r9, 1, 0, %%p9;\n  selp.u32 %%r10, 1, 0, %%p10;\n"
                                      "  st.global.u32 [%%rd16+%u], %%r9;\n  st.global.u32 [%%rd16+%u], %%r10;\n",
                                   f->insn, off, off + 4);
            break;
        }
    }
    /* memory forms: a gathered global load, shared store/load through a
     * permutation, a vector load, a generic load of shared, a guarded store */
    unsigned m = (unsigned)NFORMS * 8;
    g_string_append_printf(s,
        "  xor.b32 %%r5, %%r0, 37;\n  and.b32 %%r5, %%r5, 127;\n  mul.wide.u32 %%rd17, %%r5, 8;\n"
        "  add.u64 %%rd18, %%rd10, %%rd17;\n  ld.global.u64 %%rd9, [%%rd18];\n  st.global.u64 [%%rd16+%u], %%rd9;\n"
        "  mov.u64 %%rd18, tile;\n  add.u64 %%rd18, %%rd18, %%rd17;\n  @%%p0 st.shared.u64 [%%rd18], %%rd2;\n"
        "  bar.sync 0;\n  mov.u64 %%rd18, tile;\n  add.u64 %%rd18, %%rd18, %%rd14;\n"
        "  ld.shared.u64 %%rd9, [%%rd18];\n  st.global.u64 [%%rd16+%u], %%rd9;\n"
        "  and.b64 %%rd17, %%rd14, -16;\n  add.u64 %%rd18, %%rd11, %%rd17;\n"
        "  ld.global.v2.u32 {%%r9, %%r10}, [%%rd18+8];\n  st.global.v2.u32 [%%rd16+%u], {%%r9, %%r10};\n"
        "  mov.u64 %%rd18, tile;\n  cvta.shared.u64 %%rd18, %%rd18;\n  add.u64 %%rd18, %%rd18, %%rd14;\n"
        "  ld.s32 %%r9, [%%rd18+4];\n  cvt.s64.s32 %%rd9, %%r9;\n  st.global.u64 [%%rd16+%u], %%rd9;\n"
        "  ld.global.s8 %%r9, [%%rd15+3];\n  @%%p0 st.global.u16 [%%rd16+%u], %%r9;\n"
        "  ld.global.nc.f32 %%f9, [%%rd15];\n  st.global.f32 [%%rd16+%u], %%f9;\n"
        /* addresses by variable name: one address for the whole warp */
        "  ld.const.u64 %%rd9, [cvals+16];\n  st.global.u64 [%%rd16+%u], %%rd9;\n"
        "  ld.global.u64 %%rd9, [gvals+8];\n  st.global.u64 [%%rd16+%u], %%rd9;\n"
        "  bar.sync 0;\n  setp.eq.u32 %%p9, %%r0, 7;\n  @%%p9 st.shared.u64 [tile+24], %%rd3;\n  bar.sync 0;\n"
        "  ld.shared.u64 %%rd9, [tile+24];\n  st.global.u64 [%%rd16+%u], %%rd9;\n"
        "  ret;\n}\n",
        m, m + 8, m + 16, m + 24, m + 32, m + 40, m + 48, m + 56, m + 64);
    return g_string_free(s, FALSE);
}

/* Operand values: edge cases in both words and as f64, then random bits. */
static void fill_operands(uint64_t *v, unsigned n, uint64_t seed)
{
    static const uint32_t f32_edges[] = {
        0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0x7F800000u, 0xFF800000u, 0x00000001u, 0x80000001u,
        0x00000000u, 0x80000000u, 0x3F800000u, 0x007FFFFFu, 0x7F7FFFFFu, 0xFFFFFFFFu, 0x80000000u,
        0x0000001Fu, 0x00000020u, 0x0000003Fu, 0x00000040u, 0x7FFFFFFFu, 0x00800000u,
        /* float to integer: ties (0.5, 1.5, 2.5, -0.5, -1.5) and the ends of
         * the s32 and u32 ranges (2^31 - 128, 2^31, -2^31, below it,
         * 2^32 - 256, 2^32) */
        0x3F000000u, 0x3FC00000u, 0x40200000u, 0xBF000000u, 0xBFC00000u,
        0x4EFFFFFFu, 0x4F000000u, 0xCF000000u, 0xCF000001u, 0x4F7FFFFFu, 0x4F800000u,
    };
    static const uint64_t f64_edges[] = {
        0x7FF8000000000000ull, 0xFFF0000000000001ull, 0x7FF0000000000000ull, 0x0000000000000001ull,
        0x8000000000000000ull, 0x3FF0000000000000ull, 0x7FEFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull,
    };
    GRand *rng = g_rand_new_with_seed((guint32)seed); /* a fixed sequence per seed */
    for (unsigned i = 0; i < n; i++) {
        uint64_t r = (uint64_t)g_rand_int(rng) << 32 | g_rand_int(rng);
        if (i % 4 == 1)
            r = (r & ~0xFFFFFFFFull) | f32_edges[(r >> 40) % G_N_ELEMENTS(f32_edges)];
        else if (i % 8 == 2)
            r = f64_edges[(r >> 40) % G_N_ELEMENTS(f64_edges)];
        else if (i % 8 == 6)
            r &= 0x80000000000000FFull; /* small values, some negative */
        v[i] = r;
    }
    g_rand_free(rng);
}

typedef struct {
    bool general_only;
    unsigned fast_bound; /* instructions bound to a fast form */
    unsigned total;
} PlanProbe;

static void probe_plan(void *image, void *data)
{
    ModuleImage *img = image;
    PlanProbe *p = data;
    const Function *fn = module_func(img->module, 0);
    for (uint32_t i = 0; i < func_ninsns(fn); i++) {
        p->total++;
        if (img->plan->by_func[0][i].handler != exec_handlers[func_insn(fn, i)->op])
            p->fast_bound++;
    }
    if (p->general_only) {
        exec_plan_free(img->plan);
        img->plan = NULL;
    }
}

static void run_forms(bool general_only, uint64_t seed, uint64_t *out, PlanProbe *probe)
{
    static uint64_t a[THREADS], b[THREADS], c[THREADS];
    fill_operands(a, THREADS, seed);
    fill_operands(b, THREADS, seed * 3 + 1);
    fill_operands(c, THREADS, seed * 7 + 2);
    memset(out, 0, THREADS * SLOTS * 8);
    TuBuf bufs[] = {{a, sizeof a}, {b, sizeof b}, {c, sizeof c}, {out, THREADS * SLOTS * 8}};
    char *ptx = forms_kernel();
    *probe = (PlanProbe){.general_only = general_only};
    char *err = tu_run_hooked(ptx, "forms", 1, THREADS, bufs, 4, NULL, 0, probe_plan, probe);
    ck_assert_msg(err == NULL, "%s", err);
    g_free(ptx);
}

START_TEST(fast_forms_match_general_handlers)
{
    uint64_t *fast = g_new(uint64_t, THREADS * SLOTS), *general = g_new(uint64_t, THREADS * SLOTS);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        PlanProbe pf, pg;
        run_forms(false, seed, fast, &pf);
        run_forms(true, seed, general, &pg);
        for (unsigned t = 0; t < THREADS; t++)
            for (unsigned i = 0; i < SLOTS; i++)
                ck_assert_msg(fast[t * SLOTS + i] == general[t * SLOTS + i],
                              "seed %u thread %u: %s gives 0x%016" G_GINT64_MODIFIER "x fast, 0x%016"
                              G_GINT64_MODIFIER "x general", (unsigned)seed, t,
                              i < NFORMS ? forms[i].insn : "a memory form", fast[t * SLOTS + i],
                              general[t * SLOTS + i]);
        /* every form under test, and most of the scaffolding, took a fast path */
        ck_assert_uint_ge(pf.fast_bound, NFORMS + NMEM);
        ck_assert_uint_ge(pf.fast_bound * 10, pf.total * 8);
    }
    /* the guard really left lanes untouched somewhere */
    bool preset_seen = false;
    for (unsigned t = 32; t < THREADS && !preset_seen; t++)
        preset_seen = (uint32_t)fast[t * SLOTS + 0] == 1515870810u;
    ck_assert(preset_seen);
    g_free(fast);
    g_free(general);
}
END_TEST

/* A fault found by the warp-wide check is reported by the general handler,
 * with the same lane and words as without the plan. */
START_TEST(fast_load_faults_like_general)
{
    const char *ptx =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry oob(.param .u64 p)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
        "  add.u64 %rd2, %rd1, %rd2;\n  ld.global.u32 %r2, [%rd2];\n  ret;\n}\n";
    uint32_t data[20] = {0};
    TuBuf b1[] = {{data, sizeof data}}, b2[] = {{data, sizeof data}};
    PlanProbe pf = {0}, pg = {.general_only = true};
    char *e1 = tu_run_hooked(ptx, "oob", 1, 32, b1, 1, NULL, 0, probe_plan, &pf);
    char *e2 = tu_run_hooked(ptx, "oob", 1, 32, b2, 1, NULL, 0, probe_plan, &pg);
    ck_assert_ptr_nonnull(e1);
    ck_assert_ptr_nonnull(e2);
    ck_assert_str_eq(e1, e2);
    ck_assert_msg(strstr(e1, "lane 20") != NULL, "%s", e1);
    g_free(e1);
    g_free(e2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("exec_fast");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fast_forms_match_general_handlers);
    tcase_add_test(tc, fast_load_faults_like_general);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
