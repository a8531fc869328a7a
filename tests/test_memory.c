/* test_memory.c — memory faults of the executor (exec.c mem_access): each
 * bad access stops the launch with a WS_ERR_FAULT message that names what
 * happened (space, read/write, size, address, the buffer it missed), who
 * did it (thread and block) and where (PTX file and line); and the process
 * stays healthy: the next launch runs normally.
 *
 * Faulting kernels store the address they are about to use into out[0]
 * first, so the test can check that the message names that very address
 * (global memory keeps what a faulting kernel wrote).
 */
#include <check.h>
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "memory.h"
#include "testutil.h"

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Kernel head: thread (%r1 = tid.x, %r2 = ctaid.x), %rd1 = out, %rd2 = in,
 * %p1 = "this is the thread that misbehaves" (tid 5 of block 1). */
#define KHEAD                                                                                       \
    HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                \
           ".reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .pred %p<8>;\n"                             \
           "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"                                  \
           "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"                                         \
           "setp.eq.u32 %p2, %r1, 5;\nsetp.eq.u32 %p3, %r2, 1;\nand.pred %p1, %p2, %p3;\n"

typedef struct {
    char *err;
    uint64_t addr; /* what the kernel stored to out[0] */
} Fault;

static Fault run_fault(const char *ptx)
{
    uint64_t out[4] = {0, 0, 0, 0};
    uint8_t in[16];
    memset(in, 7, sizeof in);
    TuBuf bufs[2] = {{out, sizeof out}, {in, sizeof in}};
    Fault f;
    f.err = tu_run(ptx, "k", 2, 32, bufs, 2, NULL, 0);
    f.addr = out[0];
    return f;
}

/* 1-based line of the first line of `ptx` containing `needle` */
static unsigned line_of(const char *ptx, const char *needle)
{
    const char *at = strstr(ptx, needle);
    ck_assert_msg(at != NULL, "'%s' not in the kernel", needle);
    unsigned line = 1;
    for (const char *p = ptx; p < at; p++)
        line += *p == '\n';
    return line;
}

static void expect_has(const char *msg, const char *what)
{
    ck_assert_msg(strstr(msg, what) != NULL, "message lacks \"%s\":\n%s", what, msg);
}

/* the common parts of every fault message */
static void expect_fault(const Fault *f, const char *ptx, const char *insn, bool by_thread5_block1)
{
    ck_assert_msg(f->err != NULL, "the bad access was not reported");
    char *where = g_strdup_printf("test.ptx:%u:", line_of(ptx, insn));
    expect_has(f->err, where);
    g_free(where);
    expect_has(f->err, "error:");
    if (by_thread5_block1) {
        expect_has(f->err, "thread (5,0,0)");
        expect_has(f->err, "block (1,0,0)");
    }
}

/* after any fault, the library still runs kernels correctly */
static void expect_healthy(void)
{
    const char *ptx = HEADER ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                             ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                             "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
                             "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n"
                             "add.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
                             "mul.lo.u32 %r3, %r2, %r2;\nadd.s64 %rd5, %rd1, %rd3;\nst.global.u32 [%rd5], %r3;\n"
                             "ret;\n}\n";
    uint32_t in[64], out[64];
    for (uint32_t i = 0; i < 64; i++) {
        in[i] = i + 3;
        out[i] = 0;
    }
    TuBuf bufs[2] = {{out, sizeof out}, {in, sizeof in}};
    char *err = tu_run(ptx, "k", 1, 64, bufs, 2, NULL, 0);
    ck_assert_msg(err == NULL, "a good kernel failed after a fault: %s", err);
    for (uint32_t i = 0; i < 64; i++)
        ck_assert_uint_eq(out[i], (i + 3) * (i + 3));
}

START_TEST(test_global_read_past_end)
{
    /* `in` is 16 bytes: reading 4 bytes at in+16 is just past its end */
    const char *ptx = KHEAD "@!%p1 bra OK;\n"
                            "add.s64 %rd3, %rd2, 16;\nst.global.u64 [%rd1], %rd3;\n"
                            "ld.global.u32 %r3, [%rd3];\n"
                            "st.global.u32 [%rd1+8], %r3;\n"
                            "OK:\nret;\n}\n";
    Fault f = run_fault(ptx);
    expect_fault(&f, ptx, "ld.global.u32 %r3", true);
    expect_has(f.err, "global");
    expect_has(f.err, "read");
    expect_has(f.err, "size 4");
    char *addr = g_strdup_printf("0x%" G_GINT64_MODIFIER "x", f.addr);
    expect_has(f.err, addr);
    g_free(addr);
    expect_has(f.err, "end of 'buf'");  /* the buffer it ran past */
    expect_has(f.err, "16 bytes at");   /* and that buffer's size */
    g_free(f.err);
    expect_healthy();
}
END_TEST

START_TEST(test_global_write_past_end_and_before)
{
    const char *ptx = KHEAD "@!%p1 bra OK;\n"
                            "add.s64 %rd3, %rd2, 20;\nst.global.u64 [%rd1], %rd3;\n"
                            "st.global.u32 [%rd3], %r1;\n"
                            "OK:\nret;\n}\n";
    Fault f = run_fault(ptx);
    expect_fault(&f, ptx, "st.global.u32 [%rd3]", true);
    expect_has(f.err, "global write");
    expect_has(f.err, "size 4");
    char *addr = g_strdup_printf("0x%" G_GINT64_MODIFIER "x", f.addr);
    expect_has(f.err, addr);
    g_free(addr);
    expect_has(f.err, "4 bytes after the end of 'buf'");
    g_free(f.err);

    const char *before = KHEAD "@!%p1 bra OK;\n"
                               "add.s64 %rd3, %rd2, -8;\nst.global.u64 [%rd1], %rd3;\n"
                               "ld.global.u64 %rd4, [%rd3];\n"
                               "OK:\nret;\n}\n";
    f = run_fault(before);
    expect_fault(&f, before, "ld.global.u64 %rd4", true);
    expect_has(f.err, "size 8");
    expect_has(f.err, "8 bytes before 'buf'");
    g_free(f.err);

    /* an aligned access that starts inside a 12-byte buffer and runs over its end */
    const char *straddle = KHEAD "@!%p1 bra OK;\n"
                                 "ld.global.u64 %rd4, [%rd2+8];\n"
                                 "OK:\nret;\n}\n";
    uint64_t out[4] = {0};
    uint8_t in12[12] = {0};
    TuBuf bufs[2] = {{out, sizeof out}, {in12, sizeof in12}};
    char *err = tu_run(straddle, "k", 2, 32, bufs, 2, NULL, 0);
    ck_assert_msg(err != NULL, "an 8-byte read at in+8 of a 12-byte buffer was not reported");
    expect_has(err, "global read of size 8");
    expect_has(err, "end of 'buf'");
    g_free(err);
    expect_healthy();
}
END_TEST

START_TEST(test_misaligned_and_null)
{
    const char *ptx = KHEAD "@!%p1 bra OK;\n"
                            "add.s64 %rd3, %rd2, 2;\nst.global.u64 [%rd1], %rd3;\n"
                            "ld.global.u32 %r3, [%rd3];\n"
                            "OK:\nret;\n}\n";
    Fault f = run_fault(ptx);
    expect_fault(&f, ptx, "ld.global.u32 %r3", true);
    expect_has(f.err, "misaligned");
    expect_has(f.err, "size 4");
    char *addr = g_strdup_printf("0x%" G_GINT64_MODIFIER "x", f.addr);
    expect_has(f.err, addr);
    g_free(addr);
    g_free(f.err);

    const char *v2 = KHEAD "@!%p1 bra OK;\n"
                           "add.s64 %rd3, %rd2, 4;\n"
                           "ld.global.v2.u32 {%r3, %r4}, [%rd3];\n" /* 8-byte access, 4-aligned */
                           "OK:\nret;\n}\n";
    f = run_fault(v2);
    expect_fault(&f, v2, "ld.global.v2.u32", true);
    expect_has(f.err, "misaligned");
    g_free(f.err);

    const char *null = KHEAD "@!%p1 bra OK;\n"
                             "mov.u64 %rd3, 0;\n"
                             "st.global.u32 [%rd3], %r1;\n"
                             "OK:\nret;\n}\n";
    f = run_fault(null);
    expect_fault(&f, null, "st.global.u32 [%rd3]", true);
    expect_has(f.err, "null pointer");
    g_free(f.err);

    const char *generic_null = KHEAD "@!%p1 bra OK;\n"
                                     "mov.u64 %rd3, 0;\n"
                                     "ld.u32 %r3, [%rd3+4];\n"
                                     "OK:\nret;\n}\n";
    f = run_fault(generic_null);
    expect_fault(&f, generic_null, "ld.u32 %r3", true);
    expect_has(f.err, "0x4");
    g_free(f.err);
    expect_healthy();
}
END_TEST

START_TEST(test_shared_local_const_faults)
{
    const char *shared = KHEAD ".shared .align 4 .b32 sh[4];\n"
                               "@!%p1 bra OK;\n"
                               "ld.shared.u32 %r3, [sh+16];\n"
                               "OK:\nret;\n}\n";
    Fault f = run_fault(shared);
    expect_fault(&f, shared, "ld.shared.u32", true);
    expect_has(f.err, "shared");
    expect_has(f.err, "read");
    expect_has(f.err, "0x10");
    g_free(f.err);

    /* a generic address far into the shared window */
    const char *shared_generic = KHEAD ".shared .align 4 .b32 sh[4];\n"
                                       "@!%p1 bra OK;\n"
                                       "mov.u64 %rd3, sh;\ncvta.shared.u64 %rd4, %rd3;\n"
                                       "add.s64 %rd5, %rd4, 4096;\n"
                                       "st.u32 [%rd5], %r1;\n"
                                       "OK:\nret;\n}\n";
    f = run_fault(shared_generic);
    expect_fault(&f, shared_generic, "st.u32 [%rd5]", true);
    expect_has(f.err, "shared write");
    g_free(f.err);

    const char *local = KHEAD ".local .align 4 .b8 loc[16];\n"
                              "@!%p1 bra OK;\n"
                              "mov.u32 %r3, 1;\nst.local.u32 [loc+12], %r3;\n" /* fine */
                              "st.local.u32 [loc+16], %r3;\n"                  /* one past */
                              "OK:\nret;\n}\n";
    f = run_fault(local);
    expect_fault(&f, local, "st.local.u32 [loc+16]", true);
    expect_has(f.err, "local write");
    g_free(f.err);

    const char *local_generic = KHEAD ".local .align 4 .b8 loc[16];\n"
                                      "@!%p1 bra OK;\n"
                                      "mov.u64 %rd3, loc;\ncvta.local.u64 %rd4, %rd3;\n"
                                      "ld.u32 %r3, [%rd4+64];\n"
                                      "OK:\nret;\n}\n";
    f = run_fault(local_generic);
    expect_fault(&f, local_generic, "ld.u32 %r3", true);
    expect_has(f.err, "local read");
    g_free(f.err);

    /* constant memory is read-only: through a generic address */
    const char *cwrite = HEADER ".const .align 4 .b32 tab[4] = {1, 2, 3, 4};\n"
                         ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                         ".reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .pred %p<8>;\n"
                         "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
                         "setp.eq.u32 %p2, %r1, 5;\nsetp.eq.u32 %p3, %r2, 1;\nand.pred %p1, %p2, %p3;\n"
                         "@!%p1 bra OK;\n"
                         "mov.u64 %rd3, tab;\ncvta.const.u64 %rd4, %rd3;\n"
                         "ld.u32 %r3, [%rd4+8];\n" /* reading is fine */
                         "st.u32 [%rd4+8], %r3;\n"
                         "OK:\nret;\n}\n";
    f = run_fault(cwrite);
    expect_fault(&f, cwrite, "st.u32 [%rd4+8]", true);
    expect_has(f.err, "const");
    expect_has(f.err, "read-only");
    g_free(f.err);

    /* const out of bounds */
    const char *cread = HEADER ".const .align 4 .b32 tab[4] = {1, 2, 3, 4};\n"
                        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                        ".reg .b32 %r<20>;\n"
                        "ld.const.u32 %r3, [tab+16];\n"
                        "ret;\n}\n";
    f = run_fault(cread);
    expect_fault(&f, cread, "ld.const.u32", false);
    expect_has(f.err, "const");
    expect_has(f.err, "thread (0,0,0) in block (0,0,0)");
    g_free(f.err);
    expect_healthy();
}
END_TEST

START_TEST(test_fault_stops_launch_keeps_earlier_writes)
{
    /* block 0 completes its stores; block 1's thread 5 faults: block 0's
     * writes are kept, and nothing after the fault in block 1 happened */
    const char *ptx = KHEAD "mul.wide.u32 %rd3, %r2, 8;\nadd.s64 %rd4, %rd1, %rd3;\n"
                            "setp.eq.u32 %p4, %r1, 0;\n"
                            "@%p1 ld.global.u32 %r3, [%rd2+64];\n"
                            "@%p4 st.global.u32 [%rd4+8], %r2;\n"
                            "ret;\n}\n";
    uint64_t out[4] = {0, 0xAA, 0xAA, 0xAA};
    uint8_t in[16] = {0};
    TuBuf bufs[2] = {{out, sizeof out}, {in, sizeof in}};
    char *err = tu_run(ptx, "k", 2, 32, bufs, 2, NULL, 0);
    ck_assert_msg(err != NULL, "fault not reported");
    expect_has(err, "thread (5,0,0) in block (1,0,0)");
    g_free(err);
    ck_assert_uint_eq(out[1] & 0xFFFFFFFF, 0);   /* block 0 wrote its id */
    ck_assert_uint_eq(out[2], 0xAA);             /* block 1 stopped first */

    /* trap: the same kind of error */
    const char *trap = KHEAD "@%p1 trap;\nret;\n}\n";
    Fault f = run_fault(trap);
    expect_fault(&f, trap, "@%p1 trap", true);
    expect_has(f.err, "trap");
    g_free(f.err);
    expect_healthy();
}
END_TEST

/* ---- borrowed buffers (cudaHostRegister) ------------------------------------ */

START_TEST(test_map_host_borrowed)
{
    GlobalMemory *g = gmem_new();
    size_t n = 3000;
    uint8_t *buf = malloc(n + 64);
    memset(buf, 0x5A, n + 64);
    GError *e = NULL;
    uint64_t base = gmem_map_host(g, buf, n, "reg", &e);
    ck_assert_msg(base == (uint64_t)(uintptr_t)buf, "%s", e ? e->message : "?");
    /* in place: the device bytes are the host's, contents kept */
    ck_assert_ptr_eq(gmem_ptr(g, base + 100, 4), buf + 100);
    ck_assert_uint_eq(gmem_ptr(g, base + 100, 1)[0], 0x5A);
    ck_assert_ptr_null(gmem_ptr(g, base + n - 2, 4)); /* past its end */
    /* overlapping ranges are refused, naming the buffer they hit */
    ck_assert_uint_eq(gmem_map_host(g, buf + 8, 16, "inner", &e), 0);
    ck_assert_int_eq(e->code, WS_ERR_INPUT);
    ck_assert_msg(strstr(e->message, "overlaps 'reg'") != NULL, "%s", e->message);
    g_clear_error(&e);
    /* a buffer right after it (no guard gap needed) is fine */
    ck_assert_uint_eq(gmem_map_host(g, buf + n, 64, "next", &e), base + n);
    /* addresses of the device heap and the windows cannot be mapped */
    ck_assert_uint_eq(gmem_map_host(g, (void *)(uintptr_t)0x20000000u, 64, "low", &e), 0);
    ck_assert_int_eq(e->code, WS_ERR_UNSUPPORTED);
    g_clear_error(&e);

    /* device allocations in the high region step over mapped buffers */
    g->next_low = GENERIC_WINDOWS_BASE;
    g->next_high = base - 512;
    uint64_t dev = gmem_alloc(g, 4096, "dev", &e);
    ck_assert_uint_ne(dev, 0);
    ck_assert_msg(dev >= base + n + 64 + ALLOC_GUARD, "device buffer 0x%" G_GINT64_MODIFIER "x inside the mapped range",
                  dev);
    ck_assert_ptr_nonnull(gmem_lookup(g, NULL, dev, 4096));

    /* release unmaps without freeing (the sanitizers would see a double free) */
    ck_assert(gmem_release(g, base));
    ck_assert_ptr_null(gmem_lookup(g, NULL, base, 1));
    buf[0] = 1;
    gmem_free(g); /* still holds "next": not freed either */
    buf[n] = 2;
    free(buf);
}
END_TEST

static Suite *memory_suite(void)
{
    Suite *s = suite_create("memory");
    TCase *t = tcase_create("faults");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_global_read_past_end);
    tcase_add_test(t, test_global_write_past_end_and_before);
    tcase_add_test(t, test_misaligned_and_null);
    tcase_add_test(t, test_shared_local_const_faults);
    tcase_add_test(t, test_fault_stops_launch_keeps_earlier_writes);
    tcase_add_test(t, test_map_host_borrowed);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(memory_suite());
    /* the faults must leave the process healthy: run in one process too */
    srunner_set_fork_status(r, CK_NOFORK);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
