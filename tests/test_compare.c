/* test_compare.c — warpsim compare: output checks, metric deltas, block
 * matching, --fail-if rules, exit statuses, and that runs do not depend on
 * the number of host threads.
 *
 * Expected values come from the test's own data (synthetic buffers and
 * reports built here) or, for the kernel fixtures under tests/compare/, from
 * the manifest's initial buffers recomputed in C (out_i = x ± y).
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "config.h"
#include "errors.h"
#include "fpconv.h"
#include "manifest.h"
#include "testutil.h"

#define WARPSIM_BIN BUILD_ROOT "/src/warpsim"

/* ------------------------------------------------------------ helpers */

static GPtrArray *bufs_new(void)
{
    return g_ptr_array_new_with_free_func((GDestroyNotify)manifest_buffer_free);
}

static void bufs_add(GPtrArray *bufs, const char *name, PtxType type, const void *data, uint64_t count)
{
    ManifestBuffer *b = g_new0(ManifestBuffer, 1);
    b->name = g_strdup(name);
    b->type = type;
    b->count = count;
    b->data = g_bytes_new(data, count * isa_type_size(type));
    g_ptr_array_add(bufs, b);
}

static json_t *empty_report(void)
{
    return json_pack("{s:s,s:[]}", "config", "test", "launches");
}

/* a one-launch report whose metrics object is `metrics` (stolen) */
static json_t *report_with(const char *kernel, json_t *metrics)
{
    return json_pack("{s:s,s:[{s:s,s:[iii],s:[iii],s:o}]}", "config", "test", "launches", "kernel", kernel, "grid",
                     1, 1, 1, "block", 32, 1, 1, "metrics", metrics);
}

static const CompareOptions exact = {.rtol = 0, .atol = 0, .max_shown = 5};

/* compares two buffer sets with empty reports */
static json_t *compare_bufs(GPtrArray *a, GPtrArray *b, const CompareOptions *opt, GError **error)
{
    json_t *ra = empty_report(), *rb = empty_report();
    CompareRun x = {.report = ra, .buffers = a, .label = "A"}, y = {.report = rb, .buffers = b, .label = "B"};
    json_t *cmp = compare_runs(&x, &y, opt, error);
    json_decref(ra);
    json_decref(rb);
    return cmp;
}

static json_t *buffer_row(json_t *cmp, const char *name)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(cmp, "buffers"), i, row)
        if (strcmp(json_string_value(json_object_get(row, "name")), name) == 0)
            return row;
    return NULL;
}

static json_int_t row_int(json_t *row, const char *key)
{
    json_t *v = json_object_get(row, key);
    ck_assert_msg(json_is_integer(v), "%s is not an integer", key);
    return json_integer_value(v);
}

/* ------------------------------------------------------ output checks */

START_TEST(integers_compare_exactly)
{
    int32_t a[6] = {1, 2, 3, -4, 5, 6}, b[6] = {1, 2, 4, -4, 5, 7};
    GPtrArray *ba = bufs_new(), *bb = bufs_new();
    bufs_add(ba, "v", PTX_TYPE_S32, a, 6);
    bufs_add(bb, "v", PTX_TYPE_S32, b, 6);
    /* a float tolerance does not apply to integers */
    CompareOptions loose = {.rtol = 0.5, .atol = 10, .max_shown = 5};
    GError *error = NULL;
    json_t *cmp = compare_bufs(ba, bb, &loose, &error);
    ck_assert_msg(cmp, "%s", error ? error->message : "");
    json_t *row = buffer_row(cmp, "v");
    ck_assert_int_eq(row_int(row, "mismatches"), 2);
    ck_assert_int_eq(row_int(row, "not_bitwise_equal"), 2);
    json_t *first = json_object_get(row, "first");
    ck_assert_int_eq(json_array_size(first), 2);
    ck_assert_int_eq(row_int(json_array_get(first, 0), "index"), 2);
    ck_assert_int_eq(row_int(json_array_get(first, 0), "a"), 3);
    ck_assert_int_eq(row_int(json_array_get(first, 0), "b"), 4);
    ck_assert_int_eq(row_int(json_array_get(first, 1), "index"), 5);
    ck_assert(!compare_outputs_equal(cmp));
    ck_assert(strstr(json_string_value(json_object_get(cmp, "verdict")), "outputs DIFFER (2 elements in 1 buffer)"));
    json_decref(cmp);
    g_ptr_array_free(ba, TRUE);
    g_ptr_array_free(bb, TRUE);
}
END_TEST

START_TEST(floats_use_the_tolerance)
{
    float nan_a = fp_f32_from_bits(0x7fc00000u), nan_b = fp_f32_from_bits(0x7fc00123u);
    float one_up = nextafterf(1.0f, 2.0f);
    float a[8] = {1.0f, 1.0f, nan_a, nan_a, 0.0f, INFINITY, INFINITY, 100.0f};
    float b[8] = {1.0f, one_up, nan_b, 1.0f, -0.0f, INFINITY, -INFINITY, 100.5f};
    GPtrArray *ba = bufs_new(), *bb = bufs_new();
    bufs_add(ba, "f", PTX_TYPE_F32, a, 8);
    bufs_add(bb, "f", PTX_TYPE_F32, b, 8);
    GError *error = NULL;
    /* exact: one_up, NaN vs 1, inf vs -inf, 100 vs 100.5 differ; NaN
     * payloads and the sign of zero do not matter */
    json_t *cmp = compare_bufs(ba, bb, &exact, &error);
    ck_assert_ptr_nonnull(cmp);
    json_t *row = buffer_row(cmp, "f");
    ck_assert_int_eq(row_int(row, "mismatches"), 4);
    ck_assert_int_eq(row_int(row, "not_bitwise_equal"), 6);
    json_t *first = json_object_get(row, "first");
    ck_assert_int_eq(row_int(json_array_get(first, 0), "index"), 1);
    ck_assert_int_eq(row_int(json_array_get(first, 1), "index"), 3);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(first, 1), "a")), "nan");
    ck_assert_int_eq(row_int(json_array_get(first, 2), "index"), 6);
    ck_assert_int_eq(row_int(json_array_get(first, 3), "index"), 7);
    ck_assert(fabs(json_number_value(json_object_get(row, "max_abs_diff")) - 0.5) < 1e-12);
    json_decref(cmp);
    /* rtol 1e-6 absorbs the one-ulp difference, 1e-2 also 100 vs 100.5 */
    CompareOptions r6 = {.rtol = 1e-6, .max_shown = 5}, r2 = {.rtol = 1e-2, .max_shown = 5};
    cmp = compare_bufs(ba, bb, &r6, &error);
    ck_assert_int_eq(row_int(buffer_row(cmp, "f"), "mismatches"), 3);
    json_decref(cmp);
    cmp = compare_bufs(ba, bb, &r2, &error);
    ck_assert_int_eq(row_int(buffer_row(cmp, "f"), "mismatches"), 2); /* NaN vs 1, inf vs -inf stay */
    json_decref(cmp);
    g_ptr_array_free(ba, TRUE);
    g_ptr_array_free(bb, TRUE);

    /* only tolerated differences: "equal within tolerance" */
    double da[2] = {1.0, 2.0}, db[2] = {1.0 + 1e-12, 2.0};
    ba = bufs_new();
    bb = bufs_new();
    bufs_add(ba, "d", PTX_TYPE_F64, da, 2);
    bufs_add(bb, "d", PTX_TYPE_F64, db, 2);
    CompareOptions abs = {.atol = 1e-9, .max_shown = 5};
    cmp = compare_bufs(ba, bb, &abs, &error);
    ck_assert(compare_outputs_equal(cmp));
    ck_assert_int_eq(row_int(buffer_row(cmp, "d"), "not_bitwise_equal"), 1);
    ck_assert(strstr(json_string_value(json_object_get(cmp, "verdict")), "within tolerance (1 element not bit-identical)"));
    json_decref(cmp);
    g_ptr_array_free(ba, TRUE);
    g_ptr_array_free(bb, TRUE);
}
END_TEST

START_TEST(first_elements_are_the_first)
{
    uint16_t a[100], b[100];
    unsigned differing = 0;
    for (unsigned i = 0; i < 100; i++) {
        a[i] = (uint16_t)i;
        b[i] = (uint16_t)(i % 7 == 3 ? i + 1000 : i);
        differing += i % 7 == 3;
    }
    GPtrArray *ba = bufs_new(), *bb = bufs_new();
    bufs_add(ba, "h", PTX_TYPE_U16, a, 100);
    bufs_add(bb, "h", PTX_TYPE_U16, b, 100);
    CompareOptions three = {.max_shown = 3};
    GError *error = NULL;
    json_t *cmp = compare_bufs(ba, bb, &three, &error);
    json_t *row = buffer_row(cmp, "h");
    ck_assert_int_eq(row_int(row, "mismatches"), differing);
    json_t *first = json_object_get(row, "first");
    ck_assert_int_eq(json_array_size(first), 3);
    for (unsigned k = 0; k < 3; k++) {
        ck_assert_int_eq(row_int(json_array_get(first, k), "index"), 3 + 7 * k);
        ck_assert_int_eq(row_int(json_array_get(first, k), "b"), 3 + 7 * k + 1000);
    }
    json_decref(cmp);
    g_ptr_array_free(ba, TRUE);
    g_ptr_array_free(bb, TRUE);
}
END_TEST

START_TEST(buffers_must_agree_in_shape)
{
    int32_t v[4] = {0};
    GPtrArray *ba = bufs_new(), *bb = bufs_new();
    bufs_add(ba, "v", PTX_TYPE_S32, v, 4);
    bufs_add(ba, "only_a", PTX_TYPE_S32, v, 4);
    bufs_add(bb, "v", PTX_TYPE_S32, v, 4);
    bufs_add(bb, "only_b", PTX_TYPE_S32, v, 4);
    GError *error = NULL;
    json_t *cmp = compare_bufs(ba, bb, &exact, &error);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(cmp, "buffers_only_in_a"), 0)), "only_a");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(cmp, "buffers_only_in_b"), 0)), "only_b");
    ck_assert_int_eq(json_array_size(json_object_get(cmp, "buffers")), 1);
    json_decref(cmp);
    g_ptr_array_free(bb, TRUE);

    bb = bufs_new();
    bufs_add(bb, "v", PTX_TYPE_U32, v, 4);
    ck_assert_ptr_null(compare_bufs(ba, bb, &exact, &error));
    ck_assert_int_eq(error->code, WS_ERR_INPUT);
    ck_assert(strstr(error->message, "\"v\" is s32"));
    g_clear_error(&error);
    g_ptr_array_free(bb, TRUE);

    bb = bufs_new();
    bufs_add(bb, "w", PTX_TYPE_S32, v, 4);
    ck_assert_ptr_null(compare_bufs(ba, bb, &exact, &error));
    ck_assert(strstr(error->message, "no buffer name in common"));
    g_clear_error(&error);
    g_ptr_array_free(ba, TRUE);
    g_ptr_array_free(bb, TRUE);
}
END_TEST

/* ---------------------------------------------------- metrics, rules */

static json_t *cycles_metrics(double cycles, double ipc, double reads, double writes)
{
    return json_pack("{s:f,s:f,s:f,s:f,s:i}", "sm__cycles_elapsed.max", cycles, "ipc", ipc,
                     "dram__bytes_read.sum", reads, "dram__bytes_write.sum", writes, "smsp__inst_executed.sum", 50);
}

/* a comparison of two one-launch runs with these metrics (stolen) */
static json_t *compare_metrics(json_t *ma, json_t *mb)
{
    int32_t v = 1;
    GPtrArray *ba = bufs_new(), *bb = bufs_new();
    bufs_add(ba, "v", PTX_TYPE_S32, &v, 1);
    bufs_add(bb, "v", PTX_TYPE_S32, &v, 1);
    json_t *ra = report_with("k", ma), *rb = report_with("k", mb);
    CompareRun x = {.report = ra, .buffers = ba}, y = {.report = rb, .buffers = bb};
    GError *error = NULL;
    json_t *cmp = compare_runs(&x, &y, &exact, &error);
    ck_assert_msg(cmp, "%s", error ? error->message : "");
    json_decref(ra);
    json_decref(rb);
    g_ptr_array_free(ba, TRUE);
    g_ptr_array_free(bb, TRUE);
    return cmp;
}

static json_t *metric_row(json_t *cmp, const char *name)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(json_array_get(json_object_get(cmp, "launches"), 0), "metrics"), i, row)
        if (strcmp(json_string_value(json_object_get(row, "name")), name) == 0)
            return row;
    return NULL;
}

START_TEST(metric_deltas)
{
    json_t *cmp = compare_metrics(cycles_metrics(1000, 0.5, 300, 100), cycles_metrics(900, 0.6, 300, 164));
    json_t *row = metric_row(cmp, "cycles");
    ck_assert_int_eq(row_int(row, "delta"), -100);
    ck_assert(fabs(json_number_value(json_object_get(row, "change_pct")) + 10.0) < 1e-9);
    row = metric_row(cmp, "dram_bytes"); /* derived: read + write */
    ck_assert_int_eq(row_int(row, "a"), 400);
    ck_assert_int_eq(row_int(row, "b"), 464);
    ck_assert_ptr_null(metric_row(cmp, "time_ns")); /* in neither report */
    json_t *l = json_array_get(json_object_get(cmp, "launches"), 0);
    ck_assert(!json_is_true(json_object_get(l, "metrics_identical")));
    ck_assert_int_eq(json_array_size(json_object_get(l, "differing_metrics")), 3);
    ck_assert(strstr(json_string_value(json_object_get(cmp, "verdict")),
                     "outputs identical; B is 10.0% faster (cycles 1000 -> 900"));
    json_decref(cmp);

    cmp = compare_metrics(cycles_metrics(1000, 0.5, 300, 100), cycles_metrics(1000, 0.5, 300, 100));
    ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(cmp, "launches"), 0), "metrics_identical")));
    json_decref(cmp);
}
END_TEST

START_TEST(rule_grammar)
{
    const char *good[] = {"cycles>+2%", "dram_bytes>+0", "ipc<-5%", "outputs", " instructions >= 10 ",
                          "smsp__inst_executed.sum<=0", "cycles>2.5 %", "time_ns>.5"};
    const char *bad[] = {"cycles", "cycles>", "cycles>>2", ">2", "cycle>2", "cycles>2%%", "cycles>abc",
                         "cycles>2x", "cy cles>2", "cycles=2", "outputs>0", "cycles>inf", ""};
    GError *error = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(good); i++) {
        CompareRule *r = compare_rule_parse(good[i], &error);
        ck_assert_msg(r, "'%s' rejected: %s", good[i], error ? error->message : "");
        compare_rule_free(r);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        CompareRule *r = compare_rule_parse(bad[i], &error);
        ck_assert_msg(!r, "'%s' accepted", bad[i]);
        ck_assert_int_eq(error->code, WS_ERR_USAGE);
        g_clear_error(&error);
    }
}
END_TEST

static bool trips(const char *text, json_t *cmp)
{
    GError *error = NULL;
    CompareRule *r = compare_rule_parse(text, &error);
    ck_assert_msg(r, "%s", error ? error->message : "");
    bool tripped = false;
    json_t *res = NULL;
    ck_assert_msg(compare_rule_eval(r, cmp, &tripped, &res, &error), "%s: %s", text, error ? error->message : "");
    ck_assert_int_eq(json_is_true(json_object_get(res, "tripped")), tripped);
    ck_assert_int_eq(json_array_size(json_object_get(res, "launches")), tripped ? 1 : 0);
    json_decref(res);
    compare_rule_free(r);
    return tripped;
}

START_TEST(rule_evaluation)
{
    /* cycles +3 % (1000 -> 1030), ipc -10 %, dram bytes 400 -> 400 */
    json_t *cmp = compare_metrics(cycles_metrics(1000, 0.5, 300, 100), cycles_metrics(1030, 0.45, 350, 50));
    ck_assert(trips("cycles>+2%", cmp));
    ck_assert(!trips("cycles>+5%", cmp));
    ck_assert(trips("cycles>+29", cmp));
    ck_assert(!trips("cycles>+30", cmp));
    ck_assert(trips("cycles>=+30", cmp));
    ck_assert(trips("ipc<-5%", cmp));
    ck_assert(!trips("ipc<-15%", cmp));
    ck_assert(!trips("dram_bytes>+0", cmp));
    ck_assert(trips("dram__bytes_read.sum>+0", cmp)); /* a report key */
    ck_assert(!trips("instructions>0", cmp));
    ck_assert(!trips("outputs", cmp));

    GError *error = NULL;
    CompareRule *r = compare_rule_parse("time_ns>+1%", &error);
    bool tripped;
    json_t *res = NULL;
    ck_assert(!compare_rule_eval(r, cmp, &tripped, &res, &error));
    ck_assert_int_eq(error->code, WS_ERR_USAGE);
    g_clear_error(&error);
    compare_rule_free(r);
    json_decref(cmp);

    /* a functional run lacks the timing metrics, and says so of those
     * alone: not of a text metric or a name no report has */
    json_t *fa = json_pack("{s:i,s:s}", "smsp__inst_executed.sum", 50, "warpsim__occupancy_limiter", "warps");
    json_t *fb = json_pack("{s:i,s:s}", "smsp__inst_executed.sum", 50, "warpsim__occupancy_limiter", "warps");
    cmp = compare_metrics(fa, fb);
    static const struct { const char *rule; bool blames_functional; } missing[] = {
        {"cycles>0", true}, {"warpsim__occupancy_limiter>0", false}, {"no_such_metric>0", false}};
    for (size_t i = 0; i < G_N_ELEMENTS(missing); i++) {
        r = compare_rule_parse(missing[i].rule, &error);
        ck_assert(r);
        ck_assert(!compare_rule_eval(r, cmp, &tripped, &res, &error));
        ck_assert_msg((strstr(error->message, "--functional") != NULL) == missing[i].blames_functional, "%s",
                      error->message);
        g_clear_error(&error);
        compare_rule_free(r);
    }
    json_decref(cmp);

    /* from zero: any increase is an infinite relative change */
    cmp = compare_metrics(cycles_metrics(1000, 0.5, 0, 0), cycles_metrics(1000, 0.5, 32, 0));
    ck_assert(trips("dram_bytes>+1000%", cmp));
    ck_assert(!trips("dram_bytes<0%", cmp));
    json_decref(cmp);
}
END_TEST

/* ---------------------------------------------------- block matching */

static json_t *block(const char *fn, int index, const char *label, int line, int tau, int delta, int splits)
{
    return json_pack("{s:s,s:i,s:o,s:i,s:i,s:i,s:i}", "function", fn, "block", index, "label",
                     label ? json_string(label) : json_null(), "line", line, "tau", tau, "delta", delta, "splits",
                     splits);
}

static json_t *line_count(int line, int insts)
{
    return json_pack("{s:i,s:i}", "line", line, "warp_insts", insts);
}

static json_t *block_row(json_t *launch, const char *key)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(launch, "blocks"), i, row)
        if (strcmp(json_string_value(json_object_get(row, "block")), key) == 0)
            return row;
    return NULL;
}

static bool listed(json_t *list, const char *key)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
        if (strcmp(json_string_value(json_object_get(e, "block")), key) == 0)
            return true;
    return false;
}

START_TEST(blocks_match_by_label)
{
    /* A: kernel ka = (entry) $L1 (unlabelled) $L2, and helper = (entry);
     * B: kernel kb = (entry) $L1 $L3, and helper = (entry) */
    json_t *map_a = json_pack("[oooo o]", block("ka", 0, NULL, 10, 4, 0, 1), block("ka", 1, "$L1", 20, 4, 2, 0),
                              block("ka", 2, NULL, 25, 2, 2, 0), block("ka", 3, "$L2", 30, 4, 0, 0),
                              block("helper", 0, NULL, 50, 3, 0, 0));
    json_t *lines_a = json_pack("[oooooo]", line_count(10, 4), line_count(12, 4), line_count(21, 4),
                                line_count(26, 2), line_count(31, 4), line_count(51, 3));
    json_t *map_b = json_pack("[oooo]", block("kb", 0, NULL, 10, 4, 0, 0), block("kb", 1, "$L1", 22, 4, 0, 0),
                              block("kb", 2, "$L3", 40, 4, 0, 0), block("helper", 0, NULL, 60, 3, 0, 0));
    json_t *lines_b = json_pack("[oooo]", line_count(11, 4), line_count(23, 8), line_count(41, 4),
                                line_count(61, 3));
    json_t *ma = json_pack("{s:o,s:o}", "warpsim__divergence_map", map_a, "warpsim__line_counts", lines_a);
    json_t *mb = json_pack("{s:o,s:o}", "warpsim__divergence_map", map_b, "warpsim__line_counts", lines_b);
    int32_t v = 0;
    GPtrArray *ba = bufs_new(), *bb = bufs_new();
    bufs_add(ba, "v", PTX_TYPE_S32, &v, 1);
    bufs_add(bb, "v", PTX_TYPE_S32, &v, 1);
    json_t *ra = report_with("ka", ma), *rb = report_with("kb", mb);
    CompareRun x = {.report = ra, .buffers = ba}, y = {.report = rb, .buffers = bb};
    GError *error = NULL;
    json_t *cmp = compare_runs(&x, &y, &exact, &error);
    ck_assert_ptr_nonnull(cmp);
    json_t *l = json_array_get(json_object_get(cmp, "launches"), 0);

    json_t *entry = block_row(l, "(entry)"); /* the kernels match though named differently */
    ck_assert_ptr_nonnull(entry);
    ck_assert_int_eq(row_int(json_object_get(entry, "a"), "warp_insts"), 8); /* lines 10 and 12 */
    ck_assert_int_eq(row_int(json_object_get(entry, "b"), "warp_insts"), 4);
    ck_assert_int_eq(row_int(json_object_get(entry, "a"), "splits"), 1);
    ck_assert(!json_is_true(json_object_get(entry, "identical")));
    json_t *l1 = block_row(l, "$L1");
    ck_assert_int_eq(row_int(l1, "line_a"), 20);
    ck_assert_int_eq(row_int(l1, "line_b"), 22);
    ck_assert_int_eq(row_int(json_object_get(l1, "a"), "delta"), 2);
    ck_assert_int_eq(row_int(json_object_get(l1, "b"), "warp_insts"), 8);
    json_t *helper = block_row(l, "helper:(entry)");
    ck_assert_ptr_nonnull(helper);
    ck_assert(json_is_true(json_object_get(helper, "identical")));
    ck_assert_int_eq(json_array_size(json_object_get(l, "blocks")), 3);
    ck_assert(listed(json_object_get(l, "blocks_only_in_a"), "$L1+1"));
    ck_assert(listed(json_object_get(l, "blocks_only_in_a"), "$L2"));
    ck_assert_int_eq(json_array_size(json_object_get(l, "blocks_only_in_a")), 2);
    ck_assert(listed(json_object_get(l, "blocks_only_in_b"), "$L3"));
    ck_assert_int_eq(json_array_size(json_object_get(l, "blocks_only_in_b")), 1);
    json_decref(cmp);
    json_decref(ra);
    json_decref(rb);
    g_ptr_array_free(ba, TRUE);
    g_ptr_array_free(bb, TRUE);
}
END_TEST

/* ------------------------------------------------- kernels, end to end */

typedef struct {
    json_t *report;
    GPtrArray *buffers;
} Ran;

static Ran run(const char *manifest, const char *ptx, const GpuConfig *gpu, uint32_t threads)
{
    GError *error = NULL;
    Manifest *m = manifest_load(manifest, &error);
    ck_assert_msg(m, "%s", error ? error->message : "");
    RunOptions opt = {.config = gpu, .config_name = gpu ? gpu->name : NULL, .threads = threads};
    Ran r = {0};
    guint failed = 0;
    ck_assert_msg(manifest_run_capture(m, &opt, ptx, &r.buffers, &r.report, &failed, &error), "%s: %s", manifest,
                  error ? error->message : "");
    ck_assert_ptr_nonnull(r.buffers);
    manifest_free(m);
    return r;
}

static void ran_clear(Ran *r)
{
    json_decref(r->report);
    g_ptr_array_free(r->buffers, TRUE);
}

static json_t *compare_ran(const Ran *a, const Ran *b)
{
    CompareRun x = {.report = a->report, .buffers = a->buffers}, y = {.report = b->report, .buffers = b->buffers};
    GError *error = NULL;
    json_t *cmp = compare_runs(&x, &y, &exact, &error);
    ck_assert_msg(cmp, "%s", error ? error->message : "");
    return cmp;
}

static const int32_t *initial_s32(const char *name, GBytes **keep)
{
    GError *error = NULL;
    Manifest *m = manifest_load("tests/compare/launch.json", &error);
    *keep = manifest_buffer_initial(m, name, &error);
    ck_assert_ptr_nonnull(*keep);
    manifest_free(m);
    return g_bytes_get_data(*keep, NULL);
}

START_TEST(add_versus_sub_is_flagged)
{
    Ran a = run("tests/compare/launch.json", "tests/compare/add.ptx", NULL, 1);
    Ran b = run("tests/compare/launch.json", "tests/compare/sub.ptx", NULL, 1);
    json_t *cmp = compare_ran(&a, &b);
    GBytes *kx, *ky;
    const int32_t *x = initial_s32("x", &kx), *y = initial_s32("y", &ky);
    unsigned expected = 0, first = 1000;
    for (unsigned i = 0; i < 1000; i++)
        if (y[i] != 0) {
            expected++;
            first = first < i ? first : i;
        }
    json_t *row = buffer_row(cmp, "out_i");
    ck_assert_int_eq(row_int(row, "mismatches"), expected);
    json_t *f0 = json_array_get(json_object_get(row, "first"), 0);
    ck_assert_int_eq(row_int(f0, "index"), first);
    ck_assert_int_eq(row_int(f0, "a"), x[first] + y[first]);
    ck_assert_int_eq(row_int(f0, "b"), x[first] - y[first]);
    ck_assert_int_eq(row_int(buffer_row(cmp, "out_f"), "mismatches"), 0);
    ck_assert_int_eq(row_int(buffer_row(cmp, "out_f"), "not_bitwise_equal"), 0);
    ck_assert_int_eq(row_int(buffer_row(cmp, "x"), "mismatches"), 0);
    ck_assert(!compare_outputs_equal(cmp));
    g_bytes_unref(kx);
    g_bytes_unref(ky);
    json_decref(cmp);
    ran_clear(&a);
    ran_clear(&b);
}
END_TEST

START_TEST(a_renamed_rewrite_is_matched)
{
    /* split.ptx's only kernel is combine_split: it stands in for combine */
    Ran a = run("tests/compare/launch.json", NULL, NULL, 1);
    Ran b = run("tests/compare/launch.json", "tests/compare/split.ptx", NULL, 1);
    json_t *cmp = compare_ran(&a, &b);
    ck_assert(compare_outputs_equal(cmp));
    ck_assert_int_eq(row_int(buffer_row(cmp, "out_f"), "not_bitwise_equal"), 0);
    json_t *l = json_array_get(json_object_get(cmp, "launches"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(l, "kernel_b")), "combine_split");
    ck_assert_ptr_nonnull(block_row(l, "(entry)"));
    ck_assert_ptr_nonnull(block_row(l, "$L__BB0_2"));
    ck_assert(listed(json_object_get(l, "blocks_only_in_b"), "$L__BB0_odd"));
    ck_assert(listed(json_object_get(l, "blocks_only_in_b"), "$L__BB0_store"));
    ck_assert_int_eq(json_array_size(json_object_get(l, "blocks_only_in_a")), 0);
    json_t *row = metric_row(cmp, "divergent_branches");
    ck_assert_int_gt(json_integer_value(json_object_get(row, "b")), json_integer_value(json_object_get(row, "a")));
    json_decref(cmp);
    ran_clear(&a);
    ran_clear(&b);
}
END_TEST

/* ------------------------------------------------------- determinism */

static void check_deterministic(const char *manifest, const char *config)
{
    GError *error = NULL;
    GpuConfig *gpu = config ? config_load(config, NULL, &error) : NULL;
    ck_assert(!config || gpu);
    Ran first = run(manifest, NULL, gpu, 1);
    const uint32_t threads[] = {1, 2, 4};
    for (size_t t = 0; t < G_N_ELEMENTS(threads); t++)
        for (int again = 0; again < 2; again++) {
            if (t == 0 && again == 0)
                continue;
            Ran r = run(manifest, NULL, gpu, threads[t]);
            json_t *cmp = compare_ran(&first, &r);
            size_t i;
            json_t *row;
            json_array_foreach(json_object_get(cmp, "buffers"), i, row)
                ck_assert_msg(row_int(row, "not_bitwise_equal") == 0, "%s: buffer %s differs with %u threads",
                              manifest, json_string_value(json_object_get(row, "name")), threads[t]);
            json_array_foreach(json_object_get(cmp, "launches"), i, row) {
                char *diff = json_dumps(json_object_get(row, "differing_metrics"), JSON_COMPACT);
                ck_assert_msg(json_is_true(json_object_get(row, "metrics_identical")),
                              "%s launch %zu with %u threads: %s differ", manifest, i, threads[t], diff);
                free(diff);
            }
            json_decref(cmp);
            ran_clear(&r);
        }
    ran_clear(&first);
    config_free(gpu);
}

START_TEST(threads_do_not_change_anything)
{
    check_deterministic("traces/matmul_tiled/launch.json", "8800gtx"); /* many CTAs, shared memory */
    check_deterministic("traces/histogram/launch.json", NULL);          /* atomics: timing on h200 */
    check_deterministic("tests/manifests/e2e/multi.json", "h200");      /* several launches */
}
END_TEST

/* -------------------------------------------------------- command line */

static int warpsim(const char *const *args, char **out)
{
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)WARPSIM_BIN);
    g_ptr_array_add(argv, (gpointer) "compare");
    for (const char *const *a = args; *a; a++)
        g_ptr_array_add(argv, (gpointer)*a);
    g_ptr_array_add(argv, NULL);
    int status = -1;
    char *err = NULL;
    GError *error = NULL;
    ck_assert_msg(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, &err, &status,
                               &error), "%s", error ? error->message : "");
    g_ptr_array_free(argv, TRUE);
    g_free(err);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

#define M "tests/compare/launch.json"
#define P(f) "tests/compare/" f ".ptx"

START_TEST(exit_statuses)
{
    char *out = NULL;
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("add"), "--ptx", P("add"), NULL}, &out), 0);
    ck_assert(strstr(out, "verdict: outputs identical; same cycles"));
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("sub"), NULL}, &out), 1);
    ck_assert(strstr(out, "out_i"));
    ck_assert(strstr(out, "DIFFER"));
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, "tests/compare/launch_sub.json", "-q", NULL}, &out), 1);
    ck_assert(strstr(out, "verdict: outputs DIFFER"));
    g_free(out);
    /* floats: one ulp apart, accepted with a tolerance */
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("scaled"), "-q", NULL}, &out), 1);
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("scaled"), "--rtol", "1e-6", "-q", NULL}, &out), 0);
    ck_assert(strstr(out, "within tolerance"));
    g_free(out);
    /* rules: split.ptx runs more instructions for the same outputs */
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("split"), "--fail-if", "instructions>+0", NULL}, &out), 1);
    ck_assert(strstr(out, "fail-if instructions>+0: tripped"));
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("split"), "--fail-if", "instructions<+0",
                                              "--fail-if", "outputs", "-q", NULL}, &out), 0);
    g_free(out);
    /* usage and input errors */
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("split"), "--fail-if", "cycles>>1", NULL}, &out), 2);
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("split"), "--functional", "--fail-if", "cycles>+0", NULL},
                             &out), 2);
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, "tests/compare/launch_badbuf.json", NULL}, &out), 2);
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, NULL}, &out), 2);
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, M, "--ptx", P("add"), NULL}, &out), 2);
    g_free(out);
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", "tests/compare/missing.ptx", NULL}, &out), 2);
    g_free(out);
}
END_TEST

START_TEST(json_result)
{
    char *dir = g_dir_make_tmp("ws-compare-XXXXXX", NULL);
    char *path = g_build_filename(dir, "cmp.json", NULL);
    char *out = NULL;
    ck_assert_int_eq(warpsim((const char *[]){M, "--ptx", P("sub"), "--functional", "--json", path, "--fail-if",
                                              "instructions>+0", "-q", NULL}, &out), 1);
    g_free(out);
    json_error_t jerr;
    json_t *j = json_load_file(path, 0, &jerr);
    ck_assert_msg(j, "%s", jerr.text);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "exit_status")), 1);
    ck_assert(json_is_false(json_object_get(j, "outputs_equal")));
    ck_assert(json_is_false(json_object_get(json_array_get(json_object_get(j, "fail_if"), 0), "tripped")));
    ck_assert(strstr(json_string_value(json_object_get(j, "verdict")), "functional run"));
    json_decref(j);
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}
END_TEST

/* The cycles of version A and the issue order both sides report, from a
 * compare of stencil r3 with itself. */
static json_int_t stencil_cycles(const char *order_option, const char *order)
{
    char *dir = g_dir_make_tmp("ws-compare-XXXXXX", NULL);
    char *path = g_build_filename(dir, "cmp.json", NULL);
    char *out = NULL;
    const char *args[] = {"traces/stencil/base_r3.json", "--ptx", "traces/stencil/stencil.ptx", "--json", path, "-q",
                          order_option, NULL};
    ck_assert_int_eq(warpsim(args, &out), 0);
    g_free(out);
    json_error_t jerr;
    json_t *j = json_load_file(path, 0, &jerr);
    ck_assert_msg(j, "%s", jerr.text);
    for (int s = 0; s < 2; s++)
        ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, s ? "b" : "a"), "issue_order")), order);
    json_int_t cycles = -1;
    json_t *row;
    size_t i;
    json_array_foreach(json_object_get(json_array_get(json_object_get(j, "launches"), 0), "metrics"), i, row)
        if (strcmp(json_string_value(json_object_get(row, "name")), "cycles") == 0)
            cycles = json_integer_value(json_object_get(row, "a"));
    ck_assert_int_gt(cycles, 0);
    json_decref(j);
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
    return cycles;
}

/* Both versions are list-scheduled unless --issue-order ptx: their loads
 * overlap */
START_TEST(issue_order_applies_to_both)
{
    json_int_t ptx = stencil_cycles("--issue-order=ptx", "ptx"), scheduled = stencil_cycles(NULL, "scheduled");
    ck_assert_int_eq(stencil_cycles("--issue-order=scheduled", "scheduled"), scheduled);
    ck_assert_msg(scheduled < ptx * 3 / 4, "scheduled %lld cycles against %lld", (long long)scheduled, (long long)ptx);
}
END_TEST

static Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *outputs = tcase_create("outputs");
    tcase_add_test(outputs, integers_compare_exactly);
    tcase_add_test(outputs, floats_use_the_tolerance);
    tcase_add_test(outputs, first_elements_are_the_first);
    tcase_add_test(outputs, buffers_must_agree_in_shape);
    suite_add_tcase(s, outputs);
    TCase *metrics = tcase_create("metrics");
    tcase_add_test(metrics, metric_deltas);
    tcase_add_test(metrics, rule_grammar);
    tcase_add_test(metrics, rule_evaluation);
    tcase_add_test(metrics, blocks_match_by_label);
    suite_add_tcase(s, metrics);
    TCase *kernels = tcase_create("kernels");
    tcase_set_timeout(kernels, 600);
    tcase_add_test(kernels, add_versus_sub_is_flagged);
    tcase_add_test(kernels, a_renamed_rewrite_is_matched);
    tcase_add_test(kernels, threads_do_not_change_anything);
    tcase_add_test(kernels, issue_order_applies_to_both);
    tcase_add_test(kernels, exit_statuses);
    tcase_add_test(kernels, json_result);
    suite_add_tcase(s, kernels);
    return s;
}

int main(void)
{
    if (chdir(SOURCE_ROOT) != 0)
        return 1;
    return tu_run_suite(compare_suite());
}
