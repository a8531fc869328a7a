/* test_cta_overlap.c — which launches' CTAs may touch each other's global
 * bytes (cta_overlap.h): the own-element, neighbour, aliasing, loaded-index
 * and wrapping cases, each with the launch values that decide it. */
#include <check.h>
#include <glib.h>
#include <string.h>

#include "cfg.h"
#include "cta_overlap.h"
#include "ptx_parser.h"
#include "testutil.h"

/* A kernel k(a, b, n): a and b are 4 KiB buffers (b the same as a when
 * `alias`), n a u32.  `body` follows the prologue, which leaves a in %rd1,
 * b in %rd2, n in %r1 and the global thread index along x in %r2 (with
 * its byte offset as 4-byte elements in %rd3). */
typedef struct {
    const char *body;
    const char *extra; /* functions before the kernel, or NULL */
    Dim3 grid, block;
    bool alias;
    uint32_t n;
    uint32_t b0; /* b's first word before the launch */
} Case;

static char *ptx_of(const Case *c)
{
    return g_strdup_printf(
        ".version 8.0\n.target sm_90\n.address_size 64\n%s"
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u32 pn)\n{\n"
        " .reg .b64 %%rd<20>;\n .reg .b32 %%r<20>;\n .reg .pred %%p<4>;\n .reg .f32 %%f<4>;\n"
        " ld.param.u64 %%rd1, [pa];\n ld.param.u64 %%rd2, [pb];\n ld.param.u32 %%r1, [pn];\n"
        " mov.u32 %%r10, %%ntid.x;\n mov.u32 %%r11, %%ctaid.x;\n mov.u32 %%r12, %%tid.x;\n"
        " mad.lo.s32 %%r2, %%r11, %%r10, %%r12;\n mul.wide.s32 %%rd3, %%r2, 4;\n"
        "%s ret;\n}\n",
        c->extra ? c->extra : "", c->body);
}

/* The PTX line of the first `what` in the case's kernel. */
static uint32_t line_of(const Case *c, const char *what)
{
    char *ptx = ptx_of(c);
    const char *at = strstr(ptx, what);
    ck_assert(at);
    uint32_t line = 1;
    for (const char *p = ptx; p < at; p++)
        line += *p == '\n';
    g_free(ptx);
    return line;
}

static bool overlap(const Case *c, uint32_t *line)
{
    char *ptx = ptx_of(c);
    GError *e = NULL;
    Module *m = ptx_parse_string(ptx, "t.ptx", &e);
    ck_assert_msg(m != NULL, "%s", e ? e->message : "?");
    ck_assert(cfg_build_all(m, &e));
    GlobalMemory *g = gmem_new();
    ModuleImage *img = image_load(m, g, &e);
    ck_assert(img);
    uint32_t k = module_find_kernel(m, "k", &e);
    ck_assert(k != NO_INDEX);
    uint64_t a = gmem_alloc(g, 4096, "a", &e), b = c->alias ? a : gmem_alloc(g, 4096, "b", &e);
    ck_assert(a && b);
    memcpy(gmem_ptr(g, b, 4), &c->b0, 4);
    uint8_t *params = g_malloc0(module_func(m, k)->frame_param_bytes + 8);
    ck_assert(launch_pack_param(m, k, 0, a, params, &e));
    ck_assert(launch_pack_param(m, k, 1, b, params, &e));
    ck_assert(launch_pack_param(m, k, 2, c->n, params, &e));
    LaunchSpec spec = {.kernel = k, .grid = c->grid, .block = c->block, .params = params, .nsm = 1};
    bool r = cta_overlap_possible(img, &spec, line);
    g_free(params);
    image_free(img);
    module_free(m);
    gmem_free(g);
    g_free(ptx);
    return r;
}

#define GRID(x) ((Dim3){(x), 1, 1})

START_TEST(own_elements_do_not_overlap)
{
    /* a[i] += 1: each thread loads and stores its own word */
    Case c = {" add.s64 %rd4, %rd1, %rd3;\n ld.global.f32 %f1, [%rd4];\n st.global.f32 [%rd4], %f1;\n",
              NULL, GRID(8), GRID(64), false, 0, 0};
    ck_assert(!overlap(&c, NULL));
    /* reading b[i + 1], writing a[i]: other buffers, unless they are one */
    c.body = " add.s64 %rd4, %rd2, %rd3;\n ld.global.f32 %f1, [%rd4+4];\n"
             " add.s64 %rd5, %rd1, %rd3;\n st.global.f32 [%rd5], %f1;\n";
    ck_assert(!overlap(&c, NULL));
    c.alias = true;
    uint32_t line = 0;
    ck_assert(overlap(&c, &line));
    ck_assert_uint_eq(line, line_of(&c, "st.global"));
}
END_TEST

START_TEST(a_neighbours_element_overlaps_at_cta_edges)
{
    /* a[i] = a[i + 1]: the last thread of a CTA reads the next CTA's first word */
    Case c = {" add.s64 %rd4, %rd1, %rd3;\n ld.global.f32 %f1, [%rd4+4];\n"
              " st.global.f32 [%rd4], %f1;\n",
              NULL, GRID(8), GRID(64), false, 0, 0};
    ck_assert(overlap(&c, NULL));
    /* one CTA has nobody to race with */
    c.grid = GRID(1);
    ck_assert(!overlap(&c, NULL));
}
END_TEST

START_TEST(halves_and_tiles_are_told_apart)
{
    /* a[i] and a[i + n / 2] for i < n / 2 (the ILP seed's two outputs):
     * apart while n / 2 covers the grid, not when it is smaller */
    Case c = {" shr.u32 %r3, %r1, 1;\n mul.wide.u32 %rd6, %r3, 4;\n add.s64 %rd4, %rd1, %rd3;\n"
              " add.s64 %rd5, %rd4, %rd6;\n st.global.u32 [%rd4], 1;\n st.global.u32 [%rd5], 2;\n",
              NULL, GRID(4), GRID(64), false, 512, 0};
    ck_assert(!overlap(&c, NULL));
    c.n = 256;
    ck_assert(overlap(&c, NULL));
    /* a 2-D tile: a[(16 ctaid.y + tid.y) * n + 16 ctaid.x + tid.x] */
    Case t = {" mov.u32 %r3, %ctaid.y;\n mov.u32 %r4, %tid.y;\n mad.lo.s32 %r5, %r3, 16, %r4;\n"
              " mov.u32 %r6, %tid.x;\n mad.lo.s32 %r7, %r11, 16, %r6;\n mad.lo.s32 %r8, %r5, %r1, %r7;\n"
              " mul.wide.u32 %rd6, %r8, 4;\n add.s64 %rd7, %rd1, %rd6;\n st.global.u32 [%rd7], %r8;\n",
              NULL, {2, 2, 1}, {16, 16, 1}, false, 32, 0};
    ck_assert(!overlap(&t, NULL));
    /* rows shorter than the grid's width: row r's end is row r + 1's start */
    t.n = 16;
    ck_assert(overlap(&t, NULL));
    /* a CTA reversing its own 64 words: its threads meet, CTAs do not */
    Case r = {" mul.wide.u32 %rd4, %r11, 256;\n add.s64 %rd5, %rd1, %rd4;\n mul.wide.u32 %rd6, %r12, 4;\n"
              " add.s64 %rd7, %rd5, %rd6;\n ld.global.u32 %r3, [%rd7];\n sub.s32 %r4, 63, %r12;\n"
              " mul.wide.u32 %rd8, %r4, 4;\n add.s64 %rd9, %rd5, %rd8;\n st.global.u32 [%rd9], %r3;\n",
              NULL, GRID(8), GRID(64), false, 0, 0};
    ck_assert(!overlap(&r, NULL));
    /* ... unless the CTAs' blocks are closer than 64 words */
    r.body = " mul.wide.u32 %rd4, %r11, 128;\n add.s64 %rd5, %rd1, %rd4;\n mul.wide.u32 %rd6, %r12, 4;\n"
             " add.s64 %rd7, %rd5, %rd6;\n ld.global.u32 %r3, [%rd7];\n sub.s32 %r4, 63, %r12;\n"
             " mul.wide.u32 %rd8, %r4, 4;\n add.s64 %rd9, %rd5, %rd8;\n st.global.u32 [%rd9], %r3;\n";
    ck_assert(overlap(&r, NULL));
    /* each CTA reads one word of a's upper half (a[512 + ctaid]) and
     * writes its threads' words of the lower half */
    Case u = {" mul.wide.u32 %rd4, %r11, 4;\n add.s64 %rd5, %rd1, %rd4;\n ld.global.u32 %r3, [%rd5+2048];\n"
              " add.s64 %rd6, %rd1, %rd3;\n st.global.u32 [%rd6], %r3;\n",
              NULL, GRID(8), GRID(64), false, 0, 0};
    ck_assert(!overlap(&u, NULL));
    u.grid = GRID(9); /* the ninth CTA's words reach a[512] */
    ck_assert(overlap(&u, NULL));
}
END_TEST

START_TEST(loaded_indices_overlap_unless_the_value_is_one)
{
    /* bfs: if (cost[u] == 0) cost[u] = 1 with u loaded: CTAs race */
    Case c = {" add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r3, [%rd4];\n mul.wide.u32 %rd5, %r3, 4;\n"
              " add.s64 %rd6, %rd2, %rd5;\n ld.global.u32 %r4, [%rd6];\n setp.ne.u32 %p1, %r4, 0;\n"
              " @%p1 bra DONE;\n st.global.u32 [%rd6], 1;\nDONE:\n",
              NULL, GRID(8), GRID(64), false, 0, 0};
    ck_assert(overlap(&c, NULL));
    /* flags[u] = 1 without reading flags: any order leaves the same bytes */
    c.body = " add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r3, [%rd4];\n mul.wide.u32 %rd5, %r3, 4;\n"
             " add.s64 %rd6, %rd2, %rd5;\n st.global.u32 [%rd6], 1;\n";
    ck_assert(!overlap(&c, NULL));
    /* ... but flags[u] = i does not */
    c.body = " add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r3, [%rd4];\n mul.wide.u32 %rd5, %r3, 4;\n"
             " add.s64 %rd6, %rd2, %rd5;\n st.global.u32 [%rd6], %r2;\n";
    ck_assert(overlap(&c, NULL));
}
END_TEST

START_TEST(unknown_pointers_and_wrapping_overlap)
{
    /* a pointer loaded from memory may point anywhere */
    Case c = {" ld.global.u64 %rd4, [%rd1];\n add.s64 %rd5, %rd4, %rd3;\n st.global.u32 [%rd5], %r2;\n"
              " add.s64 %rd6, %rd2, %rd3;\n ld.global.u32 %r3, [%rd6];\n",
              NULL, GRID(8), GRID(64), false, 0, 0};
    ck_assert(overlap(&c, NULL));
    /* i * 2^30 in 32 bits wraps: threads 0 and 4 write one word */
    c.body = " mul.lo.s32 %r3, %r2, 1073741824;\n mul.wide.u32 %rd4, %r3, 4;\n add.s64 %rd5, %rd1, %rd4;\n"
             " st.global.u32 [%rd5], %r2;\n";
    ck_assert(overlap(&c, NULL));
    /* the same without wrapping (64-bit arithmetic) is one word each */
    c.body = " cvt.u64.u32 %rd4, %r2;\n mul.lo.s64 %rd5, %rd4, 1073741824;\n add.s64 %rd6, %rd1, %rd5;\n"
             " st.global.u32 [%rd6], %r2;\n";
    ck_assert(!overlap(&c, NULL));
}
END_TEST

/* a[word] = %f1, with the word's index in `reg` (u32) */
#define STORE_A(reg) " mul.wide.u32 %rd4, " reg ", 4;\n add.s64 %rd5, %rd1, %rd4;\n st.global.f32 [%rd5], %f1;\n"
/* %r5 = ctaid * (ntid / 32) + warp, %r6 = lane, with the warp and lane
 * worked out by `split` into %r4 and `lane_of` into %r6 */
#define WARP_ROW(split, lane_of) \
    " shr.u32 %r3, %r10, 5;\n " split "\n " lane_of "\n mad.lo.s32 %r5, %r11, %r3, %r4;\n"
#define PER_WARP WARP_ROW("shr.u32 %r4, %r12, 5;", "and.b32 %r6, %r12, 31;")

/* y[row] with a warp per row (gemv): %tid.x / 32 and % 32 are the warp
 * and the lane, and bits that do not meet add up */
START_TEST(warps_and_lanes_are_terms)
{
    Case c = {PER_WARP STORE_A("%r5"), NULL, GRID(4), GRID(256), false, 0, 0};
    ck_assert(!overlap(&c, NULL));
    c.body = WARP_ROW("div.u32 %r4, %r12, 32;", "rem.u32 %r6, %r12, 32;") STORE_A("%r5");
    ck_assert(!overlap(&c, NULL));
    c.body = PER_WARP STORE_A("%r6"); /* a[lane] in every CTA: they meet */
    ck_assert(overlap(&c, NULL));
    c.body = PER_WARP STORE_A("%r4"); /* a[warp] likewise */
    ck_assert(overlap(&c, NULL));
    /* (i & ~31) + (i & 31) is i itself: each thread's own word */
    c.block = GRID(64);
    c.body = " and.b32 %r3, %r2, -32;\n and.b32 %r4, %r2, 31;\n add.s32 %r5, %r3, %r4;\n" STORE_A("%r5");
    ck_assert(!overlap(&c, NULL));
    /* out[ctaid << 5 | lane], the same 32 words for every warp of a CTA */
    c.body = " shl.b32 %r3, %r11, 5;\n and.b32 %r4, %r12, 31;\n or.b32 %r5, %r3, %r4;\n" STORE_A("%r5");
    ck_assert(!overlap(&c, NULL));
    /* ctaid << 4 | lane: the lane's bits reach the CTA's */
    c.body = " shl.b32 %r3, %r11, 4;\n and.b32 %r4, %r12, 31;\n or.b32 %r5, %r3, %r4;\n" STORE_A("%r5");
    ck_assert(overlap(&c, NULL));
    /* i & 15: CTAs share a[0..15] */
    c.body = " and.b32 %r4, %r2, 15;\n" STORE_A("%r4");
    ck_assert(overlap(&c, NULL));
}
END_TEST

/* a[(16 ctaid.y + tid.x / 16) * n + 16 ctaid.x + tid.x % 16]: a 16 x 16
 * tile of a 1-D block of 256 (sgemm's), shifts and masks below the warp */
#define TILE_OF(shift, mask) \
    " mov.u32 %r3, %ctaid.y;\n shr.u32 %r4, %r12, " shift ";\n mad.lo.s32 %r5, %r3, 16, %r4;\n" \
    " and.b32 %r6, %r12, " mask ";\n mad.lo.s32 %r7, %r11, 16, %r6;\n mad.lo.s32 %r8, %r5, %r1, %r7;\n"

START_TEST(thread_indices_split_into_binary_digits)
{
    Case c = {TILE_OF("4", "15") STORE_A("%r8"), NULL, {2, 2, 1}, GRID(256), false, 32, 0};
    ck_assert(!overlap(&c, NULL));
    /* tid.x % 32 for the column reaches the next CTA's tile */
    c.body = TILE_OF("4", "31") STORE_A("%r8");
    ck_assert(overlap(&c, NULL));
    /* a block of 3 warps: tid.x / 32 is the odd part of 96, a warp per row */
    c.body = PER_WARP STORE_A("%r5");
    c.grid = GRID(4);
    c.block = GRID(96);
    ck_assert(!overlap(&c, NULL));
    /* 48 threads: tid.x / 32 is 0 or 1 over 16 and 32 threads, unknown */
    c.block = GRID(48);
    ck_assert(overlap(&c, NULL));
}
END_TEST

/* Each read takes the writes that reach it: a register reused as a loop
 * variable after it served as the index of a store (nvcc's habit) */
START_TEST(reads_see_the_writes_that_reach_them)
{
    Case c = {" mov.u32 %r5, %r2;\n" STORE_A("%r5")
              "LOOP:\n add.s32 %r5, %r5, %r1;\n setp.lt.u32 %p1, %r5, 100;\n @%p1 bra LOOP;\n",
              NULL, GRID(8), GRID(64), false, 7, 0};
    ck_assert(!overlap(&c, NULL));
    /* the store inside the loop sees the loop's writes too */
    c.body = " mov.u32 %r5, %r2;\nLOOP:\n" STORE_A("%r5")
             " add.s32 %r5, %r5, %r1;\n setp.lt.u32 %p1, %r5, 100;\n @%p1 bra LOOP;\n";
    ck_assert(overlap(&c, NULL));
    /* threads past n skip the write and store a[0], the register's start */
    c.body = " setp.ge.u32 %p1, %r2, %r1;\n @%p1 bra SKIP;\n mov.u32 %r5, %r2;\nSKIP:\n" STORE_A("%r5");
    c.n = 300;
    ck_assert(overlap(&c, NULL));
}
END_TEST

/* a[ctaid * w + tid] with the width w loaded from b[0]: what b holds
 * when no store touches b */
START_TEST(loads_of_unstored_memory_are_its_values)
{
    Case c = {" ld.global.u32 %r3, [%rd2];\n mad.lo.s32 %r4, %r11, %r3, %r12;\n" STORE_A("%r4"),
              NULL, GRID(8), GRID(64), false, 0, 64};
    ck_assert(!overlap(&c, NULL));
    c.b0 = 32; /* rows of 32 for 64 threads: a CTA's second half is the next one's first */
    ck_assert(overlap(&c, NULL));
    /* a store to b, even past its first word, leaves w unknown */
    c.b0 = 64;
    c.body = " ld.global.u32 %r3, [%rd2];\n mad.lo.s32 %r4, %r11, %r3, %r12;\n" STORE_A("%r4")
             " add.s64 %rd6, %rd2, %rd3;\n st.global.f32 [%rd6+4], %f1;\n";
    ck_assert(overlap(&c, NULL));
}
END_TEST

START_TEST(callees_that_touch_memory_overlap)
{
    Case c = {" add.s64 %rd4, %rd1, %rd3;\n { .param .b64 arg; st.param.b64 [arg], %rd4;\n"
              " call.uni f, (arg); }\n",
              ".func f(.param .b64 p)\n{\n .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [p];\n"
              " st.global.u32 [%rd1], 1;\n ret;\n}\n",
              GRID(8), GRID(64), false, 0, 0};
    ck_assert(overlap(&c, NULL));
    c.extra = ".func f(.param .b64 p)\n{\n ret;\n}\n";
    ck_assert(!overlap(&c, NULL));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cta_overlap");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, own_elements_do_not_overlap);
    tcase_add_test(tc, a_neighbours_element_overlaps_at_cta_edges);
    tcase_add_test(tc, halves_and_tiles_are_told_apart);
    tcase_add_test(tc, loaded_indices_overlap_unless_the_value_is_one);
    tcase_add_test(tc, unknown_pointers_and_wrapping_overlap);
    tcase_add_test(tc, callees_that_touch_memory_overlap);
    tcase_add_test(tc, warps_and_lanes_are_terms);
    tcase_add_test(tc, thread_indices_split_into_binary_digits);
    tcase_add_test(tc, reads_see_the_writes_that_reach_them);
    tcase_add_test(tc, loads_of_unstored_memory_are_its_values);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
