/* test_contract.c — ptxas's multiply-add contraction (contract.h): which
 * pairs fuse, into what, and the value the fused instruction computes.
 * Each case is one of the probe kernels whose SASS (ptxas 13, sm_90)
 * settled the rule; the comment says what ptxas made of it. */
#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "contract.h"
#include "isa.h"
#include "launch.h"
#include "memory.h"
#include "ptx_parser.h"
#include "testutil.h"

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n" \
               ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n" \
               ".reg .pred %p<4>;\n.reg .f32 %f<16>;\n.reg .f64 %fd<16>;\n.reg .b64 %rd<4>;\n" \
               "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n" \
               "ld.global.f32 %f1, [%rd2];\nld.global.f32 %f2, [%rd2+4];\n" \
               "ld.global.f32 %f3, [%rd2+8];\nld.global.f32 %f4, [%rd2+12];\n" \
               "ld.global.f64 %fd1, [%rd2+16];\nld.global.f64 %fd2, [%rd2+24];\n" \
               "ld.global.f64 %fd3, [%rd2+32];\nld.global.f64 %fd4, [%rd2+40];\n"
#define HEADER_INSNS 10 /* 2 ld.param + 8 loads */

static Module *contracted(const char *body)
{
    char *ptx = g_strconcat(HEADER, body, "\nret;\n}\n", NULL);
    GError *error = NULL;
    Module *m = ptx_parse_string(ptx, "contract.ptx", &error);
    ck_assert_msg(m != NULL, "%s", error ? error->message : "?");
    g_free(ptx);
    contract_module(m);
    return m;
}

/* the instruction at `index` counted from the body's first */
static const Insn *body_insn(const Module *m, uint32_t index)
{
    const Function *f = module_func(m, 0);
    return &g_array_index(f->insns, Insn, HEADER_INSNS + index);
}

static uint32_t reg(const Module *m, const char *name)
{
    const Function *f = module_func(m, 0);
    for (guint i = 0; i < f->regs->len; i++)
        if (strcmp(g_array_index(f->regs, RegInfo, i).name, name) == 0)
            return i;
    ck_abort_msg("no register %s", name);
    return NO_INDEX;
}

static void assert_fma(const Module *m, uint32_t index, const char *a, const char *b, const char *c, uint32_t neg)
{
    const Insn *in = body_insn(m, index);
    ck_assert_int_eq(in->op, OP_FMA);
    ck_assert_int_eq(in->nopd, 4);
    ck_assert_uint_eq(in->opd[1].reg, reg(m, a));
    ck_assert_uint_eq(in->opd[2].reg, reg(m, b));
    ck_assert_uint_eq(in->opd[3].reg, reg(m, c));
    ck_assert_uint_eq(in->flags & (FL_NEG_PRODUCT | FL_NEG_ADDEND), neg);
}

START_TEST(fuses_as_ptxas_does)
{
    /* FFMA R, f1, f2, f3 */
    Module *m = contracted("mul.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f5, %f3;\nst.global.f32 [%rd1], %f6;");
    assert_fma(m, 1, "%f1", "%f2", "%f3", 0);
    module_free(m);
    /* both adds fused: the product has no other use */
    m = contracted("mul.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f5, %f3;\nadd.f32 %f7, %f4, %f5;\n"
                   "st.global.f32 [%rd1], %f6;\nst.global.f32 [%rd1+4], %f7;");
    assert_fma(m, 1, "%f1", "%f2", "%f3", 0);
    assert_fma(m, 2, "%f1", "%f2", "%f4", 0);
    module_free(m);
    /* z - x*y: FFMA -x, y, z; x*y - z: FFMA x, y, -z */
    m = contracted("mul.f32 %f5, %f1, %f2;\nsub.f32 %f6, %f3, %f5;\nst.global.f32 [%rd1], %f6;");
    assert_fma(m, 1, "%f1", "%f2", "%f3", FL_NEG_PRODUCT);
    module_free(m);
    m = contracted("mul.f32 %f5, %f1, %f2;\nsub.f32 %f6, %f5, %f3;\nst.global.f32 [%rd1], %f6;");
    assert_fma(m, 1, "%f1", "%f2", "%f3", FL_NEG_ADDEND);
    module_free(m);
    /* two products: the first, also when the second comes later */
    m = contracted("mul.f32 %f5, %f1, %f2;\nmul.f32 %f6, %f3, %f4;\nadd.f32 %f7, %f6, %f5;\n"
                   "st.global.f32 [%rd1], %f7;");
    assert_fma(m, 2, "%f3", "%f4", "%f5", 0);
    module_free(m);
    m = contracted("mul.f32 %f5, %f1, %f2;\nadd.rn.f32 %f8, %f3, %f4;\nmul.f32 %f6, %f8, %f4;\n"
                   "sub.f32 %f7, %f5, %f6;\nst.global.f32 [%rd1], %f7;");
    assert_fma(m, 3, "%f1", "%f2", "%f6", FL_NEG_ADDEND);
    module_free(m);
    /* .ftz on both: FFMA.FTZ */
    m = contracted("mul.ftz.f32 %f5, %f1, %f2;\nadd.ftz.f32 %f6, %f5, %f3;\nst.global.f32 [%rd1], %f6;");
    assert_fma(m, 1, "%f1", "%f2", "%f3", 0);
    ck_assert(body_insn(m, 1)->flags & FL_FTZ);
    module_free(m);
}
END_TEST

START_TEST(fuses_f64_as_f32)
{
    /* DFMA R, d1, d2, d3 */
    Module *m = contracted("mul.f64 %fd5, %fd1, %fd2;\nadd.f64 %fd6, %fd5, %fd3;\nst.global.f64 [%rd1], %fd6;");
    assert_fma(m, 1, "%fd1", "%fd2", "%fd3", 0);
    module_free(m);
    /* DFMA -d1, d2, d3 and DFMA d1, d2, -d3 */
    m = contracted("mul.f64 %fd5, %fd1, %fd2;\nsub.f64 %fd6, %fd3, %fd5;\nst.global.f64 [%rd1], %fd6;");
    assert_fma(m, 1, "%fd1", "%fd2", "%fd3", FL_NEG_PRODUCT);
    module_free(m);
    m = contracted("mul.f64 %fd5, %fd1, %fd2;\nsub.f64 %fd6, %fd5, %fd3;\nst.global.f64 [%rd1], %fd6;");
    assert_fma(m, 1, "%fd1", "%fd2", "%fd3", FL_NEG_ADDEND);
    module_free(m);
    /* two products: the first */
    m = contracted("mul.f64 %fd5, %fd1, %fd2;\nmul.f64 %fd7, %fd3, %fd4;\nsub.f64 %fd6, %fd5, %fd7;\n"
                   "st.global.f64 [%rd1], %fd6;");
    assert_fma(m, 2, "%fd1", "%fd2", "%fd7", FL_NEG_ADDEND);
    module_free(m);
    /* an f32 product does not fuse into an f64 add, nor the reverse */
    m = contracted("mul.f32 %f5, %f1, %f2;\ncvt.f64.f32 %fd5, %f5;\nadd.f64 %fd6, %fd5, %fd3;\nst.global.f64 [%rd1], %fd6;");
    ck_assert_int_eq(body_insn(m, 2)->op, OP_ADD);
    module_free(m);
}
END_TEST

START_TEST(folds_a_negated_product)
{
    /* -(x*y) + z: FFMA -x, y, z */
    Module *m = contracted("mul.f32 %f5, %f1, %f2;\nneg.f32 %f6, %f5;\nadd.f32 %f7, %f6, %f3;\n"
                           "st.global.f32 [%rd1], %f7;");
    assert_fma(m, 2, "%f1", "%f2", "%f3", FL_NEG_PRODUCT);
    module_free(m);
    /* z - -(x*y): FFMA x, y, z */
    m = contracted("mul.f32 %f5, %f1, %f2;\nneg.f32 %f6, %f5;\nsub.f32 %f7, %f3, %f6;\nst.global.f32 [%rd1], %f7;");
    assert_fma(m, 2, "%f1", "%f2", "%f3", 0);
    module_free(m);
    /* -(x*y) - z: FFMA -x, y, -z */
    m = contracted("mul.f32 %f5, %f1, %f2;\nneg.f32 %f6, %f5;\nsub.f32 %f7, %f6, %f3;\nst.global.f32 [%rd1], %f7;");
    assert_fma(m, 2, "%f1", "%f2", "%f3", FL_NEG_PRODUCT | FL_NEG_ADDEND);
    module_free(m);
    /* the neg used by two adds: both */
    m = contracted("mul.f32 %f5, %f1, %f2;\nneg.f32 %f6, %f5;\nadd.f32 %f7, %f6, %f3;\nadd.f32 %f8, %f6, %f4;\n"
                   "st.global.f32 [%rd1], %f7;\nst.global.f32 [%rd1+4], %f8;");
    assert_fma(m, 2, "%f1", "%f2", "%f3", FL_NEG_PRODUCT);
    assert_fma(m, 3, "%f1", "%f2", "%f4", FL_NEG_PRODUCT);
    module_free(m);
    /* DFMA -x, y, z */
    m = contracted("mul.f64 %fd5, %fd1, %fd2;\nneg.f64 %fd6, %fd5;\nadd.f64 %fd7, %fd6, %fd3;\n"
                   "st.global.f64 [%rd1], %fd7;");
    assert_fma(m, 2, "%fd1", "%fd2", "%fd3", FL_NEG_PRODUCT);
    module_free(m);
    /* a plain neg between .ftz ones: FFMA.FTZ -x, y, z */
    m = contracted("mul.ftz.f32 %f5, %f1, %f2;\nneg.f32 %f6, %f5;\nadd.ftz.f32 %f7, %f6, %f3;\n"
                   "st.global.f32 [%rd1], %f7;");
    assert_fma(m, 2, "%f1", "%f2", "%f3", FL_NEG_PRODUCT);
    ck_assert(body_insn(m, 2)->flags & FL_FTZ);
    module_free(m);
}
END_TEST

START_TEST(keeps_what_ptxas_keeps)
{
    static const char *const kept[] = {
        /* a rounding modifier on either */
        "mul.rn.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f5, %f3;\nst.global.f32 [%rd1], %f6;",
        "mul.f32 %f5, %f1, %f2;\nadd.rn.f32 %f6, %f5, %f3;\nst.global.f32 [%rd1], %f6;",
        /* .ftz on one only */
        "mul.ftz.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f5, %f3;\nst.global.f32 [%rd1], %f6;",
        /* the product stored as well */
        "mul.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f5, %f3;\nst.global.f32 [%rd1], %f6;\nst.global.f32 [%rd1+4], %f5;",
        /* the product is an fma's addend */
        "mul.f32 %f5, %f1, %f2;\nfma.rn.f32 %f6, %f3, %f4, %f5;\nst.global.f32 [%rd1], %f6;",
        /* another block */
        "mul.f32 %f5, %f1, %f2;\nsetp.gt.f32 %p1, %f3, 0f00000000;\n@%p1 bra L1;\n"
        "add.f32 %f4, %f4, 0f3F800000;\nL1:\nadd.f32 %f6, %f5, %f4;\nst.global.f32 [%rd1], %f6;",
        /* f64: a rounding modifier; the product stored as well */
        "mul.rn.f64 %fd5, %fd1, %fd2;\nadd.f64 %fd6, %fd5, %fd3;\nst.global.f64 [%rd1], %fd6;",
        "mul.f64 %fd5, %fd1, %fd2;\nadd.f64 %fd6, %fd5, %fd3;\nst.global.f64 [%rd1], %fd6;\n"
        "st.global.f64 [%rd1+8], %fd5;",
        /* a neg: stored as well; its product stored as well */
        "mul.f32 %f5, %f1, %f2;\nneg.f32 %f6, %f5;\nadd.f32 %f7, %f6, %f3;\nst.global.f32 [%rd1], %f7;\n"
        "st.global.f32 [%rd1+4], %f6;",
        "mul.f32 %f5, %f1, %f2;\nneg.f32 %f6, %f5;\nadd.f32 %f7, %f6, %f3;\nst.global.f32 [%rd1], %f7;\n"
        "st.global.f32 [%rd1+4], %f5;",
        /* abs does not fold (FADD z, |p|) */
        "mul.f32 %f5, %f1, %f2;\nabs.f32 %f6, %f5;\nadd.f32 %f7, %f6, %f3;\nst.global.f32 [%rd1], %f7;",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(kept); i++) {
        Module *m = contracted(kept[i]);
        const Function *f = module_func(m, 0);
        for (guint k = HEADER_INSNS; k < f->insns->len; k++) {
            const Insn *in = &g_array_index(f->insns, Insn, k);
            ck_assert_msg(in->op != OP_FMA || strstr(kept[i], "fma.rn") != NULL, "case %zu fused at %u", i, k - HEADER_INSNS);
        }
        module_free(m);
    }
}
END_TEST

/* The fused instruction rounds once: (1 + 2^-12)^2 - 1 is 2^-11 + 2^-24
 * fused and 2^-11 when the product is rounded first. */
START_TEST(fused_rounds_once)
{
    Module *m = contracted("mul.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f5, %f3;\nst.global.f32 [%rd1], %f6;\n"
                           "mul.f32 %f7, %f1, %f2;\nsub.f32 %f8, %f4, %f7;\nst.global.f32 [%rd1+4], %f8;\n"
                           "mul.f32 %f9, %f1, %f2;\nneg.f32 %f10, %f9;\nadd.f32 %f11, %f10, %f4;\n"
                           "st.global.f32 [%rd1+8], %f11;\n"
                           "mul.f64 %fd5, %fd1, %fd2;\nadd.f64 %fd6, %fd5, %fd3;\nst.global.f64 [%rd1+16], %fd6;\n"
                           "mul.f64 %fd7, %fd1, %fd2;\nneg.f64 %fd8, %fd7;\nsub.f64 %fd9, %fd8, %fd3;\n"
                           "st.global.f64 [%rd1+24], %fd9;");
    GError *error = NULL;
    ck_assert_msg(cfg_build_all(m, &error), "%s", error ? error->message : "?");
    GlobalMemory *g = gmem_new();
    ModuleImage *img = image_load(m, g, &error);
    ck_assert_msg(img != NULL, "%s", error ? error->message : "?");
    /* f32 1 + 2^-12, 1 + 2^-12, -1, 1; f64 1 + 2^-30, 1 + 2^-30, -1, 0 */
    uint32_t in_f32[4] = {0x3F800800u, 0x3F800800u, 0xBF800000u, 0x3F800000u};
    uint64_t in_f64[4] = {0x3FF0000000400000u, 0x3FF0000000400000u, 0xBFF0000000000000u, 0};
    uint8_t in_bytes[48], out_bytes[32] = {0};
    memcpy(in_bytes, in_f32, sizeof in_f32);
    memcpy(in_bytes + 16, in_f64, sizeof in_f64);
    uint64_t out = gmem_alloc(g, sizeof out_bytes, "out", &error), in = gmem_alloc(g, sizeof in_bytes, "in", &error);
    memcpy(gmem_ptr(g, in, sizeof in_bytes), in_bytes, sizeof in_bytes);
    uint8_t params[16];
    ck_assert(launch_pack_param(m, 0, 0, out, params, &error));
    ck_assert(launch_pack_param(m, 0, 1, in, params, &error));
    LaunchSpec spec = {.kernel = 0, .grid = {1, 1, 1}, .block = {1, 1, 1}, .params = params, .nsm = 1,
                       .max_instructions = 1000};
    LaunchStats stats;
    launch_stats_init(&stats, m);
    ck_assert_msg(launch_run(img, &spec, &stats, &error), "%s", error ? error->message : "?");
    launch_stats_clear(&stats);
    memcpy(out_bytes, gmem_ptr(g, out, sizeof out_bytes), sizeof out_bytes);
    uint32_t out_f32[3];
    uint64_t out_f64[2];
    memcpy(out_f32, out_bytes, sizeof out_f32);
    memcpy(out_f64, out_bytes + 16, sizeof out_f64);
    ck_assert_uint_eq(out_f32[0], 0x3A000400u); /* 2^-11 + 2^-24 */
    ck_assert_uint_eq(out_f32[1], 0xBA000400u); /* 1 - (1 + 2^-11 + 2^-24) */
    ck_assert_uint_eq(out_f32[2], 0xBA000400u); /* -(1 + 2^-11 + 2^-24) + 1 */
    ck_assert_uint_eq(out_f64[0], 0x3E20000000200000u); /* 2^-29 + 2^-60 */
    ck_assert_uint_eq(out_f64[1], 0xBE20000000200000u); /* -(1 + 2^-29 + 2^-60) + 1 */
    image_free(img);
    gmem_free(g);
    module_free(m);
}
END_TEST

static Suite *contract_suite(void)
{
    Suite *s = suite_create("contract");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, fuses_as_ptxas_does);
    tcase_add_test(tc, fuses_f64_as_f32);
    tcase_add_test(tc, folds_a_negated_product);
    tcase_add_test(tc, keeps_what_ptxas_keeps);
    tcase_add_test(tc, fused_rounds_once);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(contract_suite());
}
