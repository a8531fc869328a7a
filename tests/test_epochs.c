/* test_epochs.c — barrier epochs (epochs.c): which shared loads no other
 * warp's write can race, on kernels written here and on nvcc's. */
#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "epochs.h"
#include "module.h"
#include "ptx_parser.h"
#include "testutil.h"

/* One character per shared load of f in program order: '1' unraced, '0'
 * not; no other instruction may be called unraced. */
static char *marks_of(const Function *f)
{
    bool *unraced = epochs_unraced_shared_loads(f);
    GString *s = g_string_new(NULL);
    for (uint32_t i = 0; i < func_ninsns(f); i++) {
        const Insn *in = func_insn(f, i);
        if (in->op == OP_LD && in->space == SPACE_SHARED)
            g_string_append_c(s, unraced[i] ? '1' : '0');
        else
            ck_assert_msg(!unraced[i], "instruction %u is no shared load, yet unraced", i);
    }
    g_free(unraced);
    return g_string_free(s, FALSE);
}

/* The kernel `k` around `body` (registers and a shared tile declared; %r1
 * holds a shared address, %rd1 a global one, %p1 a predicate), parsed, and
 * one character per shared load in program order: '1' unraced, '0' not. */
static char *unraced_of(const char *body, const char *extra_funcs)
{
    char *ptx = g_strdup_printf(".version 8.0\n.target sm_90\n.address_size 64\n%s"
                                ".visible .entry k(.param .u64 p)\n{\n"
                                ".reg .b32 %%r<16>;\n.reg .b64 %%rd<8>;\n.reg .pred %%p<4>;\n"
                                ".shared .align 4 .u32 tile[256];\n"
                                "mov.u32 %%r1, tile;\nld.param.u64 %%rd1, [p];\n"
                                "mov.u32 %%r2, %%tid.x;\nsetp.eq.u32 %%p1, %%r2, 0;\n%s\nret;\n}\n",
                                extra_funcs ? extra_funcs : "", body);
    GError *err = NULL;
    Module *m = ptx_parse_string(ptx, "epochs.ptx", &err);
    ck_assert_msg(m != NULL, "parse failed: %s", err ? err->message : "?");
    ck_assert_msg(cfg_build_all(m, &err), "cfg failed: %s", err ? err->message : "?");
    char *marks = marks_of(module_func(m, module_find_func(m, "k")));
    module_free(m);
    g_free(ptx);
    return marks;
}

#define ASSERT_UNRACED(body, want)                                                                                    \
    do {                                                                                                              \
        char *got_ = unraced_of(body, NULL);                                                                          \
        ck_assert_str_eq(got_, want);                                                                                 \
        g_free(got_);                                                                                                 \
    } while (0)

/* Written before the barrier, read after it: the tile is read-only there. */
START_TEST(reads_after_the_writes_barrier_are_unraced)
{
    ASSERT_UNRACED("st.shared.u32 [%r1], %r2;\nbar.sync 0;\n"
                   "ld.volatile.shared.u32 %r3, [%r1];\nld.shared.u32 %r4, [%r1+4];",
                   "11");
    /* the PTX 6.0 spelling, aligned: the same */
    ASSERT_UNRACED("st.shared.u32 [%r1], %r2;\nbarrier.sync.aligned 0;\nld.volatile.shared.u32 %r3, [%r1];", "1");
    /* a reduction waits too */
    ASSERT_UNRACED("st.shared.u32 [%r1], %r2;\nbar.red.popc.u32 %r5, 0, %p1;\nld.volatile.shared.u32 %r3, [%r1];",
                   "1");
    /* stores elsewhere than shared memory never race a shared load */
    ASSERT_UNRACED("bar.sync 0;\nld.volatile.shared.u32 %r3, [%r1];\nst.global.u32 [%rd1], %r3;\n"
                   "atom.global.add.u32 %r4, [%rd1], 1;",
                   "1");
}
END_TEST

/* A write that can happen in the load's epoch races it. */
START_TEST(a_write_in_the_same_epoch_races)
{
    /* warp-synchronous code: no barrier between another warp's store and the load */
    ASSERT_UNRACED("ld.volatile.shared.u32 %r3, [%r1+4];\nst.volatile.shared.u32 [%r1], %r3;", "0");
    /* before the load in program order, but another warp may be behind */
    ASSERT_UNRACED("bar.sync 0;\nst.shared.u32 [%r1], %r2;\nld.volatile.shared.u32 %r3, [%r1+4];", "0");
    /* the first load shares epoch 1 with the store after it; the second has epoch 2 to itself */
    ASSERT_UNRACED("st.shared.u32 [%r1], %r2;\nbar.sync 0;\nld.volatile.shared.u32 %r3, [%r1];\n"
                   "st.shared.u32 [%r1+4], %r3;\nbar.sync 0;\nld.volatile.shared.u32 %r4, [%r1+4];",
                   "01");
    /* a generic store may be to shared memory; atomics and copies write it */
    ASSERT_UNRACED("bar.sync 0;\nld.volatile.shared.u32 %r3, [%r1];\nst.u32 [%rd1], %r3;", "0");
    ASSERT_UNRACED("bar.sync 0;\nld.volatile.shared.u32 %r3, [%r1];\natom.shared.add.u32 %r4, [%r1], 1;", "0");
    ASSERT_UNRACED("bar.sync 0;\nld.volatile.shared.u32 %r3, [%r1];\n"
                   "cp.async.ca.shared.global [%r1], [%rd1], 4;",
                   "0");
    /* an atomic in another epoch does not */
    ASSERT_UNRACED("atom.shared.add.u32 %r4, [%r1], 1;\nbar.sync 0;\nld.volatile.shared.u32 %r3, [%r1];", "1");
}
END_TEST

/* A load some path reaches with fewer barriers behind it is in both
 * epochs; a loop with a barrier in it runs through every epoch from its
 * first on, ending in "63 or more". */
START_TEST(epochs_follow_every_path)
{
    /* a branch around the barrier: the load is in epoch 0 too, where the store is */
    ASSERT_UNRACED("st.shared.u32 [%r1], %r2;\n@%p1 bra SKIP;\nbar.sync 0;\nSKIP:\n"
                   "ld.volatile.shared.u32 %r3, [%r1];",
                   "0");
    /* a loop that writes, waits and reads: each iteration's read shares
     * nothing with its writes until 63 or more, where both are */
    ASSERT_UNRACED("mov.u32 %r9, 0;\nLOOP:\nst.shared.u32 [%r1], %r9;\nbar.sync 0;\n"
                   "ld.volatile.shared.u32 %r3, [%r1];\nbar.sync 0;\nadd.u32 %r9, %r9, 1;\n"
                   "setp.lt.u32 %p2, %r9, 100;\n@%p2 bra LOOP;",
                   "0");
    /* written once before the loop, read in every iteration after a barrier */
    ASSERT_UNRACED("st.shared.u32 [%r1], %r2;\nmov.u32 %r9, 0;\nLOOP:\nbar.sync 0;\n"
                   "ld.volatile.shared.u32 %r3, [%r1];\nadd.u32 %r9, %r9, 1;\n"
                   "setp.lt.u32 %p2, %r9, 100;\n@%p2 bra LOOP;",
                   "1");
}
END_TEST

/* Barriers the argument does not cover, and calls, leave every load raced. */
START_TEST(other_synchronisation_gives_up)
{
    static const char *const barriers[] = {
        "bar.arrive 1, 64;",        /* a warp that does not wait moves on alone */
        "bar.sync 1, 64;",          /* some warps only */
        "@%p1 bar.sync 1;",         /* a guarded barrier may not be reached */
        "barrier.sync 1;",          /* unaligned: a divergent warp arrives once per path */
    };
    for (size_t i = 0; i < G_N_ELEMENTS(barriers); i++) {
        char *body = g_strdup_printf("st.shared.u32 [%%r1], %%r2;\nbar.sync 0;\n%s\n"
                                     "ld.volatile.shared.u32 %%r3, [%%r1];",
                                     barriers[i]);
        char *got = unraced_of(body, NULL);
        ck_assert_msg(strcmp(got, "0") == 0, "with %s: %s", barriers[i], got);
        g_free(got);
        g_free(body);
    }
    char *got = unraced_of("st.shared.u32 [%r1], %r2;\nbar.sync 0;\ncall f;\nld.volatile.shared.u32 %r3, [%r1];",
                           ".func f()\n{\nret;\n}\n");
    ck_assert_str_eq(got, "0");
    g_free(got);
}
END_TEST

/* nvcc's output for the bank-conflict microbenchmarks (traces/banks):
 * the tile kernels write their tile, wait, then only read it, so every read
 * is unraced; bankFloat reads and writes one word per thread with no
 * barrier between, which only the addresses (a parameter's stride) keep
 * apart, so none is. */
START_TEST(the_bank_kernels_of_the_traces)
{
    static const struct {
        const char *kernel;
        char each; /* every shared load's mark */
    } cases[] = {
        {"tileColumns", '1'},
        {"tileColumnsPadded", '1'},
        {"bankFloat", '0'},
    };
    char *path = tu_source_path("traces/banks/banks.ptx");
    GError *err = NULL;
    Module *m = ptx_parse_file(path, &err);
    ck_assert_msg(m != NULL, "parse failed: %s", err ? err->message : "?");
    ck_assert_msg(cfg_build_all(m, &err), "cfg failed: %s", err ? err->message : "?");
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        uint32_t k = module_find_func(m, cases[c].kernel);
        ck_assert_uint_ne(k, NO_INDEX);
        char *got = marks_of(module_func(m, k));
        ck_assert_msg(got[0] != '\0', "%s: no shared load", cases[c].kernel);
        for (size_t i = 0; got[i]; i++)
            ck_assert_msg(got[i] == cases[c].each, "%s: %s", cases[c].kernel, got);
        g_free(got);
    }
    module_free(m);
    g_free(path);
}
END_TEST

static Suite *epochs_suite(void)
{
    Suite *s = suite_create("epochs");
    TCase *t = tcase_create("unraced");
    tcase_add_test(t, reads_after_the_writes_barrier_are_unraced);
    tcase_add_test(t, a_write_in_the_same_epoch_races);
    tcase_add_test(t, epochs_follow_every_path);
    tcase_add_test(t, other_synchronisation_gives_up);
    tcase_add_test(t, the_bank_kernels_of_the_traces);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(epochs_suite());
}
