/* compare.c — the comparison of two runs of a workload as one JSON object,
 * its text rendering, and --fail-if rules evaluated on it.
 *
 * Everything is computed once, in compare_runs(); the printer and the rules
 * only read the object, so what is printed, what --json writes and what the
 * exit status says can never disagree.  The metric table below is the one
 * list of what the per-launch table shows (docs/compare.md defines it).
 */
#include "compare.h"

#include <math.h>
#include <string.h>

#include "errors.h"
#include "fpconv.h"
#include "isa.h"
#include "manifest.h"

/* ------------------------------------------------------- metric table */

typedef enum { FORM_KEY, FORM_RATIO, FORM_SUM } MetricForm;

typedef struct {
    const char *name;  /* printed, and accepted by --fail-if */
    const char *key;   /* the report's metric */
    const char *key2;  /* FORM_RATIO: key / key2 (0 when key2 is 0); FORM_SUM: key + key2 */
    MetricForm form;
    int decimals;      /* printed precision */
} MetricDef;

#define L1_REQ(op) "l1tex__t_requests_pipe_lsu_mem_" op ".sum"
#define L1_SEC(op) "l1tex__t_sectors_pipe_lsu_mem_" op ".sum"
#define STALL(s) "smsp__warp_issue_stalled_" s "_per_warp_active.pct"

static const MetricDef metric_table[] = {
    {"cycles", "sm__cycles_elapsed.max", NULL, FORM_KEY, 0},
    {"time_ns", "gpu__time_duration.sum", NULL, FORM_KEY, 1},
    {"instructions", "smsp__inst_executed.sum", NULL, FORM_KEY, 0},
    {"thread_instructions", "smsp__thread_inst_executed.sum", NULL, FORM_KEY, 0},
    {"ipc", "ipc", NULL, FORM_KEY, 3},
    {"warp_efficiency", "warp_execution_efficiency", NULL, FORM_KEY, 2},
    {"branches", "warpsim__branches", NULL, FORM_KEY, 0},
    {"divergent_branches", "divergent_branch", NULL, FORM_KEY, 0},
    {"branch_efficiency", "branch_efficiency", NULL, FORM_KEY, 2},
    {"gld_requests", L1_REQ("global_op_ld"), NULL, FORM_KEY, 0},
    {"gld_sectors", L1_SEC("global_op_ld"), NULL, FORM_KEY, 0},
    {"gld_sectors_per_request", L1_SEC("global_op_ld"), L1_REQ("global_op_ld"), FORM_RATIO, 2},
    {"gst_requests", L1_REQ("global_op_st"), NULL, FORM_KEY, 0},
    {"gst_sectors", L1_SEC("global_op_st"), NULL, FORM_KEY, 0},
    {"gst_sectors_per_request", L1_SEC("global_op_st"), L1_REQ("global_op_st"), FORM_RATIO, 2},
    {"atom_requests", L1_REQ("global_op_atom"), NULL, FORM_KEY, 0},
    {"atom_sectors", L1_SEC("global_op_atom"), NULL, FORM_KEY, 0},
    {"local_ld_requests", L1_REQ("local_op_ld"), NULL, FORM_KEY, 0},
    {"local_st_requests", L1_REQ("local_op_st"), NULL, FORM_KEY, 0},
    {"shared_ld_requests", "smsp__inst_executed_op_shared_ld.sum", NULL, FORM_KEY, 0},
    {"shared_st_requests", "smsp__inst_executed_op_shared_st.sum", NULL, FORM_KEY, 0},
    {"shared_ld_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", NULL, FORM_KEY, 0},
    {"shared_st_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", NULL, FORM_KEY, 0},
    {"shared_ld_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", NULL, FORM_KEY, 0},
    {"shared_st_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", NULL, FORM_KEY, 0},
    {"shared_atom_requests", "smsp__inst_executed_op_shared_atom.sum", NULL, FORM_KEY, 0},
    {"shared_atom_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", NULL, FORM_KEY, 0},
    {"shared_atom_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", NULL, FORM_KEY, 0},
    {"l1_hit_rate", "l1tex__t_sector_hit_rate.pct", NULL, FORM_KEY, 2},
    {"l2_sectors", "lts__t_sectors.sum", NULL, FORM_KEY, 0},
    {"l2_hit_rate", "lts__t_sector_hit_rate.pct", NULL, FORM_KEY, 2},
    {"dram_read_bytes", "dram__bytes_read.sum", NULL, FORM_KEY, 0},
    {"dram_write_bytes", "dram__bytes_write.sum", NULL, FORM_KEY, 0},
    {"dram_bytes", "dram__bytes_read.sum", "dram__bytes_write.sum", FORM_SUM, 0},
    {"theoretical_occupancy", "sm__maximum_warps_per_active_cycle_pct", NULL, FORM_KEY, 2},
    {"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active", NULL, FORM_KEY, 2},
    {"registers", "launch__registers_per_thread", NULL, FORM_KEY, 0},
    {"stall_selected", STALL("selected"), NULL, FORM_KEY, 2},
    {"stall_not_selected", STALL("not_selected"), NULL, FORM_KEY, 2},
    {"stall_wait", STALL("wait"), NULL, FORM_KEY, 2},
    {"stall_short_scoreboard", STALL("short_scoreboard"), NULL, FORM_KEY, 2},
    {"stall_long_scoreboard", STALL("long_scoreboard"), NULL, FORM_KEY, 2},
    {"stall_math_pipe_throttle", STALL("math_pipe_throttle"), NULL, FORM_KEY, 2},
    {"stall_mio_throttle", STALL("mio_throttle"), NULL, FORM_KEY, 2},
    {"stall_lg_throttle", STALL("lg_throttle"), NULL, FORM_KEY, 2},
    {"stall_branch_resolving", STALL("branch_resolving"), NULL, FORM_KEY, 2},
    {"stall_barrier", STALL("barrier"), NULL, FORM_KEY, 2},
    {"stall_membar", STALL("membar"), NULL, FORM_KEY, 2},
};

/* metrics summed over the launches for the totals and the verdict */
static const char *const total_names[] = {"cycles", "time_ns", "instructions", "dram_bytes"};

static const MetricDef *metric_named(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(metric_table); i++)
        if (strcmp(metric_table[i].name, name) == 0)
            return &metric_table[i];
    return NULL;
}

char *compare_metric_names(void)
{
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(metric_table); i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", metric_table[i].name);
    return g_string_free(s, FALSE);
}

static bool number_at(json_t *metrics, const char *key, double *out)
{
    json_t *v = json_object_get(metrics, key);
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

static bool metric_value(json_t *metrics, const MetricDef *d, double *out)
{
    double x, y = 0;
    if (!number_at(metrics, d->key, &x) || (d->key2 && !number_at(metrics, d->key2, &y)))
        return false;
    *out = d->form == FORM_RATIO ? (y != 0 ? x / y : 0) : d->form == FORM_SUM ? x + y : x;
    return true;
}

/* 100·(b − a)/|a|; ±inf when only b is nonzero */
static double change_pct(double a, double b)
{
    if (a == 0)
        return b == 0 ? 0 : copysign(INFINITY, b);
    return 100.0 * (b - a) / fabs(a);
}

/* JSON has no infinity: "inf" / "-inf" */
static json_t *json_num(double v)
{
    if (isinf(v))
        return json_string(v > 0 ? "inf" : "-inf");
    if (isnan(v))
        return json_null();
    if (v == floor(v) && fabs(v) < 9e15)
        return json_integer((json_int_t)v);
    return json_real(v);
}

static double json_num_value(json_t *v)
{
    if (json_is_string(v))
        return strcmp(json_string_value(v), "-inf") == 0 ? -INFINITY : INFINITY;
    return json_number_value(v);
}

/* ------------------------------------------------------------ buffers */

static const ManifestBuffer *buffer_named(GPtrArray *bufs, const char *name)
{
    for (guint i = 0; bufs && i < bufs->len; i++) {
        const ManifestBuffer *b = g_ptr_array_index(bufs, i);
        if (strcmp(b->name, name) == 0)
            return b;
    }
    return NULL;
}

static uint64_t element_bits(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static double element_float(PtxType t, uint64_t bits)
{
    return t == PTX_TYPE_F32 ? fp_f32_from_bits((uint32_t)bits) : fp_f64_from_bits(bits);
}

static json_t *compare_buffer(const ManifestBuffer *a, const ManifestBuffer *b, const CompareOptions *opt)
{
    unsigned size = isa_type_size(a->type);
    const uint8_t *pa = g_bytes_get_data(a->data, NULL), *pb = g_bytes_get_data(b->data, NULL);
    bool is_float = isa_type_is_float(a->type);
    uint64_t not_bitwise = 0;
    double max_abs = 0;
    for (uint64_t i = 0; i < a->count; i++) {
        if (memcmp(pa + i * size, pb + i * size, size) == 0)
            continue;
        not_bitwise++;
        if (is_float) {
            double x = element_float(a->type, element_bits(pa + i * size, size));
            double y = element_float(a->type, element_bits(pb + i * size, size));
            if (isfinite(x) && isfinite(y) && fabs(y - x) > max_abs)
                max_abs = fabs(y - x);
        }
    }
    json_t *details = json_array();
    uint64_t mismatches = not_bitwise == 0 ? 0
        : manifest_compare_elements(a->type, pb, pa, a->count, is_float ? opt->rtol : 0, is_float ? opt->atol : 0,
                                    details, opt->max_shown);
    json_t *first = json_array();
    size_t k;
    json_t *d;
    json_array_foreach(details, k, d) {
        json_array_append_new(first, json_pack("{s:O,s:O,s:O}", "index", json_object_get(d, "index"),
                                               "a", json_object_get(d, "expected"), "b", json_object_get(d, "got")));
    }
    json_decref(details);
    json_t *row = json_pack("{s:s,s:s,s:I,s:I,s:I,s:b,s:o}", "name", a->name, "type", isa_types[a->type].spelling,
                            "elements", (json_int_t)a->count, "mismatches", (json_int_t)mismatches,
                            "not_bitwise_equal", (json_int_t)not_bitwise, "equal", mismatches == 0, "first", first);
    if (is_float && not_bitwise)
        json_object_set_new(row, "max_abs_diff", json_num(max_abs));
    return row;
}

static json_t *buffer_names_missing(GPtrArray *from, GPtrArray *in)
{
    json_t *names = json_array();
    for (guint i = 0; from && i < from->len; i++) {
        const ManifestBuffer *b = g_ptr_array_index(from, i);
        if (!buffer_named(in, b->name))
            json_array_append_new(names, json_string(b->name));
    }
    return names;
}

static bool compare_buffers(const CompareRun *a, const CompareRun *b, const CompareOptions *opt, json_t *out,
                            GError **error)
{
    json_t *rows = json_array();
    json_object_set_new(out, "buffers", rows);
    json_object_set_new(out, "buffers_only_in_a", buffer_names_missing(a->buffers, b->buffers));
    json_object_set_new(out, "buffers_only_in_b", buffer_names_missing(b->buffers, a->buffers));
    for (guint i = 0; a->buffers && i < a->buffers->len; i++) {
        const ManifestBuffer *ba = g_ptr_array_index(a->buffers, i);
        const ManifestBuffer *bb = buffer_named(b->buffers, ba->name);
        if (!bb)
            continue;
        if (ba->type != bb->type || ba->count != bb->count) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "compare: buffer \"%s\" is %s × %" G_GUINT64_FORMAT " in A but %s × %" G_GUINT64_FORMAT
                        " in B; the two versions must share their buffers",
                        ba->name, isa_types[ba->type].spelling, ba->count, isa_types[bb->type].spelling, bb->count);
            return false;
        }
        json_array_append_new(rows, compare_buffer(ba, bb, opt));
    }
    if (json_array_size(rows) == 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "compare: A and B have no buffer name in common");
        return false;
    }
    return true;
}

/* --------------------------------------------------------- basic blocks */

typedef struct {
    char *key;            /* match key: "[function:]label" */
    const char *function;
    json_int_t line;
    double stat[5];       /* tau, delta, splits, warp_insts, stall_cycles */
} BlockInfo;

static const char *const block_stat_names[] = {"tau", "delta", "splits", "warp_insts", "stall_cycles"};
enum { BS_TAU, BS_DELTA, BS_SPLITS, BS_INSTS, BS_STALLS, BS_COUNT };

static void block_info_clear(gpointer p)
{
    g_free(((BlockInfo *)p)->key);
}

static gint by_line(gconstpointer x, gconstpointer y)
{
    json_int_t a = (*(BlockInfo *const *)x)->line, b = (*(BlockInfo *const *)y)->line;
    return a < b ? -1 : a > b;
}

/* A block is named by its PTX label; one without a label by the label
 * before it and how many blocks on ("$L__BB0_3+1"), the function's first
 * by "(entry)".  Blocks of the launched kernel carry no function name, so
 * two differently named kernels match; blocks of called functions are
 * prefixed with the function's name. */
static GArray *blocks_of(json_t *metrics, const char *kernel, bool *has_stalls)
{
    GArray *blocks = g_array_new(FALSE, TRUE, sizeof(BlockInfo));
    g_array_set_clear_func(blocks, block_info_clear);
    json_t *map = json_object_get(metrics, "warpsim__divergence_map");
    const char *current = NULL, *base = "(entry)";
    int since_label = -1;
    size_t i;
    json_t *e;
    json_array_foreach(map, i, e) {
        const char *fn = json_string_value(json_object_get(e, "function"));
        const char *label = json_string_value(json_object_get(e, "label"));
        if (!fn)
            continue;
        if (!current || strcmp(current, fn) != 0) {
            current = fn;
            base = "(entry)";
            since_label = -1;
        }
        if (label) {
            base = label;
            since_label = 0;
        } else {
            since_label++;
        }
        GString *key = g_string_new(NULL);
        if (!kernel || strcmp(fn, kernel) != 0)
            g_string_append_printf(key, "%s:", fn);
        g_string_append(key, base);
        if (since_label > 0)
            g_string_append_printf(key, "+%d", since_label);
        BlockInfo b = {.key = g_string_free(key, FALSE), .function = fn,
                       .line = json_integer_value(json_object_get(e, "line"))};
        b.stat[BS_TAU] = json_number_value(json_object_get(e, "tau"));
        b.stat[BS_DELTA] = json_number_value(json_object_get(e, "delta"));
        b.stat[BS_SPLITS] = json_number_value(json_object_get(e, "splits"));
        g_array_append_val(blocks, b);
    }
    /* a block owns the lines from its first instruction's up to the next
     * block's: the per-line counts add up per block */
    GPtrArray *sorted = g_ptr_array_sized_new(blocks->len);
    for (guint k = 0; k < blocks->len; k++)
        g_ptr_array_add(sorted, &g_array_index(blocks, BlockInfo, k));
    g_ptr_array_sort(sorted, by_line);
    *has_stalls = false;
    json_array_foreach(json_object_get(metrics, "warpsim__line_counts"), i, e) {
        json_int_t line = json_integer_value(json_object_get(e, "line"));
        guint lo = 0, hi = sorted->len; /* the last block starting at or before `line` */
        while (lo < hi) {
            guint mid = (lo + hi) / 2;
            if (((BlockInfo *)g_ptr_array_index(sorted, mid))->line <= line)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0)
            continue;
        BlockInfo *b = g_ptr_array_index(sorted, lo - 1);
        b->stat[BS_INSTS] += json_number_value(json_object_get(e, "warp_insts"));
        json_t *stalls = json_object_get(e, "stall_cycles");
        if (json_is_number(stalls)) {
            b->stat[BS_STALLS] += json_number_value(stalls);
            *has_stalls = true;
        }
    }
    g_ptr_array_free(sorted, TRUE);
    return blocks;
}

static json_t *block_stats_json(const BlockInfo *b, bool has_stalls)
{
    json_t *o = json_object();
    for (int s = 0; s < BS_COUNT; s++)
        if (s != BS_STALLS || has_stalls)
            json_object_set_new(o, block_stat_names[s], json_num(b->stat[s]));
    return o;
}

static json_t *block_ref(const BlockInfo *b)
{
    return json_pack("{s:s,s:s,s:I}", "block", b->key, "function", b->function, "line", (json_int_t)b->line);
}

static void compare_blocks(json_t *ma, json_t *mb, const char *kernel_a, const char *kernel_b, json_t *entry)
{
    bool stalls_a, stalls_b;
    GArray *ba = blocks_of(ma, kernel_a, &stalls_a), *bb = blocks_of(mb, kernel_b, &stalls_b);
    bool stalls = stalls_a && stalls_b;
    GHashTable *in_b = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint k = 0; k < bb->len; k++)
        g_hash_table_insert(in_b, g_array_index(bb, BlockInfo, k).key, &g_array_index(bb, BlockInfo, k));
    json_t *rows = json_array(), *only_a = json_array(), *only_b = json_array();
    GHashTable *matched = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (guint k = 0; k < ba->len; k++) {
        const BlockInfo *x = &g_array_index(ba, BlockInfo, k);
        const BlockInfo *y = g_hash_table_lookup(in_b, x->key);
        if (!y) {
            json_array_append_new(only_a, block_ref(x));
            continue;
        }
        g_hash_table_add(matched, (gpointer)y);
        bool same = true;
        for (int s = 0; s < BS_COUNT; s++)
            same = same && (x->stat[s] == y->stat[s] || (s == BS_STALLS && !stalls));
        json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:I,s:I,s:o,s:o,s:b}", "block", x->key,
                                              "function_a", x->function, "function_b", y->function,
                                              "line_a", (json_int_t)x->line, "line_b", (json_int_t)y->line,
                                              "a", block_stats_json(x, stalls), "b", block_stats_json(y, stalls),
                                              "identical", same));
    }
    for (guint k = 0; k < bb->len; k++) {
        const BlockInfo *y = &g_array_index(bb, BlockInfo, k);
        if (!g_hash_table_contains(matched, y))
            json_array_append_new(only_b, block_ref(y));
    }
    json_object_set_new(entry, "blocks", rows);
    json_object_set_new(entry, "blocks_only_in_a", only_a);
    json_object_set_new(entry, "blocks_only_in_b", only_b);
    g_hash_table_destroy(matched);
    g_hash_table_destroy(in_b);
    g_array_free(ba, TRUE);
    g_array_free(bb, TRUE);
}

/* ------------------------------------------------------------ launches */

/* every numeric metric: key → [A, B] (null where one lacks it) */
static json_t *numeric_metrics(json_t *ma, json_t *mb, json_t *differing)
{
    json_t *all = json_object();
    json_t *sides[2] = {ma, mb};
    for (int s = 0; s < 2; s++) {
        const char *key;
        json_t *v;
        json_object_foreach(sides[s], key, v) {
            if (json_object_get(all, key))
                continue;
            json_t *va = json_object_get(ma, key), *vb = json_object_get(mb, key);
            if (!json_equal(va, vb) || !va || !vb)
                json_array_append_new(differing, json_string(key));
            if (!json_is_number(va) && !json_is_number(vb))
                continue;
            json_object_set_new(all, key, json_pack("[OO]", json_is_number(va) ? va : json_null(),
                                                    json_is_number(vb) ? vb : json_null()));
        }
    }
    return all;
}

static json_t *metric_rows(json_t *ma, json_t *mb)
{
    json_t *rows = json_array();
    for (size_t i = 0; i < G_N_ELEMENTS(metric_table); i++) {
        const MetricDef *d = &metric_table[i];
        double a, b;
        bool has_a = metric_value(ma, d, &a), has_b = metric_value(mb, d, &b);
        if (!has_a && !has_b)
            continue;
        char *expr = d->form == FORM_KEY ? g_strdup(d->key)
                   : g_strdup_printf("%s %s %s", d->key, d->form == FORM_RATIO ? "/" : "+", d->key2);
        json_t *row = json_pack("{s:s,s:s,s:o,s:o}", "name", d->name, "metric", expr,
                                "a", has_a ? json_num(a) : json_null(), "b", has_b ? json_num(b) : json_null());
        g_free(expr);
        if (has_a && has_b) {
            json_object_set_new(row, "delta", json_num(b - a));
            json_object_set_new(row, "change_pct", json_num(change_pct(a, b)));
        }
        json_array_append_new(rows, row);
    }
    return rows;
}

static bool compare_launches(const CompareRun *a, const CompareRun *b, json_t *out, GError **error)
{
    json_t *la = json_object_get(a->report, "launches"), *lb = json_object_get(b->report, "launches");
    if (json_array_size(la) != json_array_size(lb)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "compare: A has %zu launch%s and B %zu; launches are compared by position",
                    json_array_size(la), json_array_size(la) == 1 ? "" : "es", json_array_size(lb));
        return false;
    }
    json_t *launches = json_array();
    json_object_set_new(out, "launches", launches);
    for (size_t i = 0; i < json_array_size(la); i++) {
        json_t *ea = json_array_get(la, i), *eb = json_array_get(lb, i);
        json_t *ma = json_object_get(ea, "metrics"), *mb = json_object_get(eb, "metrics");
        const char *ka = json_string_value(json_object_get(ea, "kernel"));
        const char *kb = json_string_value(json_object_get(eb, "kernel"));
        json_t *differing = json_array();
        json_t *entry = json_pack("{s:I,s:s,s:s,s:O,s:O,s:O,s:O}", "launch", (json_int_t)i,
                                  "kernel_a", ka ? ka : "?", "kernel_b", kb ? kb : "?",
                                  "grid_a", json_object_get(ea, "grid"), "block_a", json_object_get(ea, "block"),
                                  "grid_b", json_object_get(eb, "grid"), "block_b", json_object_get(eb, "block"));
        json_object_set_new(entry, "metrics", metric_rows(ma, mb));
        json_object_set_new(entry, "numeric", numeric_metrics(ma, mb, differing));
        json_object_set_new(entry, "metrics_identical", json_boolean(json_array_size(differing) == 0));
        json_object_set_new(entry, "differing_metrics", differing);
        compare_blocks(ma, mb, ka, kb, entry);
        json_array_append_new(launches, entry);
    }
    return true;
}

static json_t *totals(json_t *launches)
{
    json_t *t = json_object();
    for (size_t n = 0; n < G_N_ELEMENTS(total_names); n++) {
        double sa = 0, sb = 0;
        bool all = json_array_size(launches) > 0;
        size_t i;
        json_t *l;
        json_array_foreach(launches, i, l) {
            bool found = false;
            size_t k;
            json_t *row;
            json_array_foreach(json_object_get(l, "metrics"), k, row) {
                if (strcmp(json_string_value(json_object_get(row, "name")), total_names[n]) != 0 ||
                    !json_object_get(row, "delta"))
                    continue;
                sa += json_num_value(json_object_get(row, "a"));
                sb += json_num_value(json_object_get(row, "b"));
                found = true;
            }
            all = all && found;
        }
        if (all)
            json_object_set_new(t, total_names[n], json_pack("{s:o,s:o,s:o}", "a", json_num(sa), "b", json_num(sb),
                                                             "change_pct", json_num(change_pct(sa, sb))));
    }
    return t;
}

/* ------------------------------------------------------------- verdict */

static char *verdict_text(json_t *cmp)
{
    GString *v = g_string_new(NULL);
    uint64_t mismatches = 0, not_bitwise = 0;
    unsigned differing_buffers = 0;
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(cmp, "buffers"), i, row) {
        uint64_t m = (uint64_t)json_integer_value(json_object_get(row, "mismatches"));
        mismatches += m;
        differing_buffers += m > 0;
        not_bitwise += (uint64_t)json_integer_value(json_object_get(row, "not_bitwise_equal"));
    }
    if (mismatches)
        g_string_append_printf(v, "outputs DIFFER (%" G_GUINT64_FORMAT " element%s in %u buffer%s)", mismatches,
                               mismatches == 1 ? "" : "s", differing_buffers, differing_buffers == 1 ? "" : "s");
    else if (not_bitwise)
        g_string_append_printf(v, "outputs equal within tolerance (%" G_GUINT64_FORMAT " element%s not bit-identical)",
                               not_bitwise, not_bitwise == 1 ? "" : "s");
    else
        g_string_append(v, "outputs identical");

    json_t *t = json_object_get(cmp, "totals");
    json_t *cyc = json_object_get(t, "cycles"), *ins = json_object_get(t, "instructions");
    if (cyc) {
        double a = json_num_value(json_object_get(cyc, "a")), b = json_num_value(json_object_get(cyc, "b"));
        if (a == b)
            g_string_append_printf(v, "; same cycles (%.0f)", a);
        else if (b > 0)
            g_string_append_printf(v, "; B is %.1f%% %s (cycles %.0f -> %.0f, speed-up %.3fx)",
                                   fabs(change_pct(a, b)), b < a ? "faster" : "slower", a, b, a / b);
        else
            g_string_append_printf(v, "; cycles %.0f -> %.0f", a, b);
    } else if (ins) {
        double a = json_num_value(json_object_get(ins, "a")), b = json_num_value(json_object_get(ins, "b"));
        g_string_append_printf(v, "; functional run: warp instructions %.0f -> %.0f (%+.1f%%)", a, b,
                               change_pct(a, b));
    }
    return g_string_free(v, FALSE);
}

bool compare_outputs_equal(json_t *comparison)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(comparison, "buffers"), i, row)
        if (!json_is_true(json_object_get(row, "equal")))
            return false;
    return true;
}

json_t *compare_runs(const CompareRun *a, const CompareRun *b, const CompareOptions *opt, GError **error)
{
    json_t *out = json_object();
    const CompareRun *sides[2] = {a, b};
    for (int s = 0; s < 2; s++) {
        json_t *info = json_pack("{s:s}", "label", sides[s]->label ? sides[s]->label : (s ? "B" : "A"));
        json_t *name = json_object_get(sides[s]->report, "name"), *config = json_object_get(sides[s]->report, "config");
        json_t *order = json_object_get(sides[s]->report, "issue_order");
        if (name)
            json_object_set(info, "name", name);
        if (config)
            json_object_set(info, "config", config);
        if (order)
            json_object_set(info, "issue_order", order);
        json_object_set_new(out, s ? "b" : "a", info);
    }
    json_object_set_new(out, "tolerance", json_pack("{s:f,s:f}", "rtol", opt->rtol, "atol", opt->atol));
    if (!compare_buffers(a, b, opt, out, error) || !compare_launches(a, b, out, error)) {
        json_decref(out);
        return NULL;
    }
    json_object_set_new(out, "totals", totals(json_object_get(out, "launches")));
    json_object_set_new(out, "outputs_equal", json_boolean(compare_outputs_equal(out)));
    char *verdict = verdict_text(out);
    json_object_set_new(out, "verdict", json_string(verdict));
    g_free(verdict);
    return out;
}

/* ------------------------------------------------------------- printing */

static void print_value(GString *s, json_t *v, int decimals, bool sign)
{
    if (!v || json_is_null(v)) {
        g_string_append(s, "-");
        return;
    }
    if (json_is_string(v)) {
        g_string_append(s, json_string_value(v));
        return;
    }
    double x = json_number_value(v);
    g_string_append_printf(s, sign && x != 0 ? "%+.*f" : "%.*f", decimals, x);
}

static void print_element(GString *s, json_t *v, const char *type)
{
    if (json_is_integer(v))
        g_string_append_printf(s, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v))
        g_string_append_printf(s, strcmp(type, "f32") == 0 ? "%.9g" : "%.17g", json_real_value(v));
    else if (json_is_string(v))
        g_string_append(s, json_string_value(v));
}

static void print_buffers(FILE *out, json_t *cmp)
{
    fprintf(out, "outputs (rtol %g, atol %g for floats; integers exact)\n",
            json_number_value(json_object_get(json_object_get(cmp, "tolerance"), "rtol")),
            json_number_value(json_object_get(json_object_get(cmp, "tolerance"), "atol")));
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(cmp, "buffers"), i, row) {
        const char *type = json_string_value(json_object_get(row, "type"));
        json_int_t n = json_integer_value(json_object_get(row, "elements"));
        json_int_t bad = json_integer_value(json_object_get(row, "mismatches"));
        json_int_t nb = json_integer_value(json_object_get(row, "not_bitwise_equal"));
        fprintf(out, "  %-12s %s x %" JSON_INTEGER_FORMAT "  ", json_string_value(json_object_get(row, "name")),
                type, n);
        if (bad)
            fprintf(out, "DIFFER: %" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT " elements", bad, n);
        else if (nb)
            fprintf(out, "equal within tolerance (%" JSON_INTEGER_FORMAT " not bit-identical)", nb);
        else
            fprintf(out, "identical");
        json_t *maxd = json_object_get(row, "max_abs_diff");
        if (maxd)
            fprintf(out, ", max |B-A| %g", json_num_value(maxd));
        fputc('\n', out);
        size_t k;
        json_t *d;
        json_array_foreach(json_object_get(row, "first"), k, d) {
            GString *s = g_string_new(NULL);
            g_string_append_printf(s, "    [%" JSON_INTEGER_FORMAT "] A ", json_integer_value(json_object_get(d, "index")));
            print_element(s, json_object_get(d, "a"), type);
            g_string_append(s, "  B ");
            print_element(s, json_object_get(d, "b"), type);
            fprintf(out, "%s\n", s->str);
            g_string_free(s, TRUE);
        }
        if (bad > (json_int_t)json_array_size(json_object_get(row, "first")))
            fprintf(out, "    ... %" JSON_INTEGER_FORMAT " more\n", bad - (json_int_t)json_array_size(json_object_get(row, "first")));
    }
    const char *only[2] = {"buffers_only_in_a", "buffers_only_in_b"};
    for (int s = 0; s < 2; s++) {
        json_t *names = json_object_get(cmp, only[s]);
        if (!json_array_size(names))
            continue;
        fprintf(out, "  only in %c (not compared):", s ? 'B' : 'A');
        json_t *nm;
        json_array_foreach(names, i, nm)
            fprintf(out, " %s", json_string_value(nm));
        fputc('\n', out);
    }
}

static void print_dims(FILE *out, json_t *d)
{
    fprintf(out, "(%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ")",
            json_integer_value(json_array_get(d, 0)), json_integer_value(json_array_get(d, 1)),
            json_integer_value(json_array_get(d, 2)));
}

static void print_metrics(FILE *out, json_t *l)
{
    fprintf(out, "  %-26s %16s %16s %16s %9s\n", "metric", "A", "B", "B-A", "change");
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(l, "metrics"), i, row) {
        json_t *ra = json_object_get(row, "a"), *rb = json_object_get(row, "b");
        if (json_is_number(ra) && json_is_number(rb) && json_number_value(ra) == 0 && json_number_value(rb) == 0)
            continue; /* nothing of that kind happened in either version */
        const MetricDef *d = metric_named(json_string_value(json_object_get(row, "name")));
        int dec = d ? d->decimals : 2;
        GString *a = g_string_new(NULL), *b = g_string_new(NULL), *delta = g_string_new(NULL), *pct = g_string_new(NULL);
        print_value(a, json_object_get(row, "a"), dec, false);
        print_value(b, json_object_get(row, "b"), dec, false);
        print_value(delta, json_object_get(row, "delta"), dec, true);
        json_t *c = json_object_get(row, "change_pct");
        if (json_is_string(c))
            g_string_append(pct, "new");
        else if (c && json_number_value(c) == 0)
            g_string_append(pct, "=");
        else if (c)
            g_string_append_printf(pct, "%+.2f%%", json_number_value(c));
        fprintf(out, "  %-26s %16s %16s %16s %9s\n", json_string_value(json_object_get(row, "name")), a->str, b->str,
                delta->str, pct->str);
        g_string_free(a, TRUE);
        g_string_free(b, TRUE);
        g_string_free(delta, TRUE);
        g_string_free(pct, TRUE);
    }
}

static void print_blocks(FILE *out, json_t *l)
{
    json_t *rows = json_object_get(l, "blocks");
    size_t identical = 0, i;
    json_t *row;
    json_array_foreach(rows, i, row)
        identical += json_is_true(json_object_get(row, "identical"));
    fprintf(out, "  basic blocks: %zu matched by PTX label (%zu identical), %zu only in A, %zu only in B\n",
            json_array_size(rows), identical, json_array_size(json_object_get(l, "blocks_only_in_a")),
            json_array_size(json_object_get(l, "blocks_only_in_b")));
    json_array_foreach(rows, i, row) {
        if (json_is_true(json_object_get(row, "identical")))
            continue;
        json_t *a = json_object_get(row, "a"), *b = json_object_get(row, "b");
        GString *s = g_string_new(NULL);
        g_string_append_printf(s, "    %s (line %" JSON_INTEGER_FORMAT " -> %" JSON_INTEGER_FORMAT "):",
                               json_string_value(json_object_get(row, "block")),
                               json_integer_value(json_object_get(row, "line_a")),
                               json_integer_value(json_object_get(row, "line_b")));
        for (int st = 0; st < BS_COUNT; st++) {
            json_t *va = json_object_get(a, block_stat_names[st]), *vb = json_object_get(b, block_stat_names[st]);
            if (!va || !vb)
                continue;
            double x = json_num_value(va), y = json_num_value(vb);
            if (x == y)
                g_string_append_printf(s, "%s %s %.0f", st ? "," : "", block_stat_names[st], x);
            else
                g_string_append_printf(s, "%s %s %.0f -> %.0f", st ? "," : "", block_stat_names[st], x, y);
        }
        fprintf(out, "%s\n", s->str);
        g_string_free(s, TRUE);
    }
    const char *only[2] = {"blocks_only_in_a", "blocks_only_in_b"};
    for (int s = 0; s < 2; s++) {
        json_t *list = json_object_get(l, only[s]);
        json_array_foreach(list, i, row)
            fprintf(out, "    only in %c: %s (line %" JSON_INTEGER_FORMAT ")\n", s ? 'B' : 'A',
                    json_string_value(json_object_get(row, "block")), json_integer_value(json_object_get(row, "line")));
    }
}

void compare_print(FILE *out, json_t *cmp)
{
    json_t *a = json_object_get(cmp, "a"), *b = json_object_get(cmp, "b");
    fprintf(out, "A: %s\nB: %s\n", json_string_value(json_object_get(a, "label")),
            json_string_value(json_object_get(b, "label")));
    if (json_object_get(a, "config"))
        fprintf(out, "config: %s\n", json_string_value(json_object_get(a, "config")));
    const char *order = json_string_value(json_object_get(a, "issue_order"));
    if (order && strcmp(order, "scheduled") != 0)
        fprintf(out, "issue order: %s (--issue-order)\n", order);
    fputc('\n', out);
    print_buffers(out, cmp);
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(cmp, "launches"), i, l) {
        fprintf(out, "\nlaunch %zu: %s -> %s  grid ", i, json_string_value(json_object_get(l, "kernel_a")),
                json_string_value(json_object_get(l, "kernel_b")));
        print_dims(out, json_object_get(l, "grid_a"));
        fprintf(out, " block ");
        print_dims(out, json_object_get(l, "block_a"));
        if (!json_equal(json_object_get(l, "grid_a"), json_object_get(l, "grid_b")) ||
            !json_equal(json_object_get(l, "block_a"), json_object_get(l, "block_b"))) {
            fprintf(out, " -> grid ");
            print_dims(out, json_object_get(l, "grid_b"));
            fprintf(out, " block ");
            print_dims(out, json_object_get(l, "block_b"));
        }
        fprintf(out, "%s\n", json_is_true(json_object_get(l, "metrics_identical")) ? "  (every metric identical)" : "");
        print_metrics(out, l);
        print_blocks(out, l);
    }
    json_t *t = json_object_get(cmp, "totals");
    if (json_array_size(json_object_get(cmp, "launches")) > 1 && json_object_size(t)) {
        fprintf(out, "\ntotal over launches:");
        const char *key;
        json_t *v;
        json_object_foreach(t, key, v)
            fprintf(out, " %s %.0f -> %.0f;", key, json_num_value(json_object_get(v, "a")),
                    json_num_value(json_object_get(v, "b")));
        fputc('\n', out);
    }
    fprintf(out, "\nverdict: %s\n", json_string_value(json_object_get(cmp, "verdict")));
}

/* --------------------------------------------------------------- rules */

typedef enum { OP_GT, OP_GE, OP_LT, OP_LE } RuleOp;

struct CompareRule {
    char *text;
    bool outputs;      /* the rule "outputs" */
    char *metric;      /* a metric_table name or a report key */
    RuleOp op;
    double threshold;
    bool percent;
};

void compare_rule_free(CompareRule *rule)
{
    if (!rule)
        return;
    g_free(rule->text);
    g_free(rule->metric);
    g_free(rule);
}

static bool metric_name_char(char c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '.';
}

CompareRule *compare_rule_parse(const char *text, GError **error)
{
    CompareRule *r = g_new0(CompareRule, 1);
    r->text = g_strdup(text);
    char *s = g_strstrip(g_strdup(text));
    if (strcmp(s, "outputs") == 0) {
        r->outputs = true;
        g_free(s);
        return r;
    }
    const char *op = strpbrk(s, "<>");
    char *end = NULL;
    bool ok = op != NULL && op > s;
    if (ok) {
        r->metric = g_strstrip(g_strndup(s, (gsize)(op - s)));
        for (const char *c = r->metric; *c && ok; c++)
            ok = metric_name_char(*c);
        ok = ok && *r->metric;
    }
    if (ok) {
        bool eq = op[1] == '=';
        r->op = op[0] == '>' ? (eq ? OP_GE : OP_GT) : (eq ? OP_LE : OP_LT);
        const char *num = op + 1 + eq;
        while (g_ascii_isspace(*num))
            num++;
        r->threshold = g_ascii_strtod(num, &end);
        ok = end != num && isfinite(r->threshold) && (g_ascii_isdigit(*num) || *num == '+' || *num == '-' || *num == '.');
    }
    if (ok) {
        while (g_ascii_isspace(*end))
            end++;
        r->percent = *end == '%';
        if (r->percent)
            end++;
        while (g_ascii_isspace(*end))
            end++;
        ok = *end == '\0';
    }
    if (ok && !metric_named(r->metric) && !strchr(r->metric, '.') && !strchr(r->metric, '_'))
        ok = false; /* neither a table name nor shaped like a report key: a typo */
    g_free(s);
    if (!ok) {
        char *names = compare_metric_names();
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    "compare: --fail-if '%s': expected 'outputs' or METRIC OP THRESHOLD, e.g. 'cycles>+2%%', "
                    "'dram_bytes>+0', 'ipc<-5%%' (OP is >, >=, < or <=; METRIC one of %s, or a metric of the report)",
                    text, names);
        g_free(names);
        compare_rule_free(r);
        return NULL;
    }
    return r;
}

static bool rule_values(const CompareRule *rule, json_t *launch, double *a, double *b)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(launch, "metrics"), i, row) {
        if (strcmp(json_string_value(json_object_get(row, "name")), rule->metric) != 0)
            continue;
        json_t *va = json_object_get(row, "a"), *vb = json_object_get(row, "b");
        if (json_is_null(va) || json_is_null(vb))
            return false;
        *a = json_num_value(va);
        *b = json_num_value(vb);
        return true;
    }
    if (metric_named(rule->metric))
        return false;
    json_t *pair = json_object_get(json_object_get(launch, "numeric"), rule->metric);
    if (!json_is_number(json_array_get(pair, 0)) || !json_is_number(json_array_get(pair, 1)))
        return false;
    *a = json_number_value(json_array_get(pair, 0));
    *b = json_number_value(json_array_get(pair, 1));
    return true;
}

/* Why a rule's metric may be missing from a launch: a functional run has
 * no timing metrics.  Said only of the table's metrics that a functional
 * report lacks; of any other name (a typo, a text metric such as the
 * occupancy limiter) it would blame the wrong thing. */
static const char *functional_hint(const char *metric, json_t *launch)
{
    json_t *numeric = json_object_get(launch, "numeric");
    if (json_object_get(numeric, "sm__cycles_elapsed.max") || !metric_named(metric))
        return "";
    return " (a --functional run has no timing metrics)";
}

static bool op_holds(RuleOp op, double x, double threshold)
{
    switch (op) {
    case OP_GT: return x > threshold;
    case OP_GE: return x >= threshold;
    case OP_LT: return x < threshold;
    case OP_LE: return x <= threshold;
    }
    return false;
}

gboolean compare_rule_eval(const CompareRule *rule, json_t *comparison, bool *tripped, json_t **result,
                           GError **error)
{
    json_t *hits = json_array();
    *tripped = false;
    if (rule->outputs) {
        *tripped = !compare_outputs_equal(comparison);
    } else {
        size_t i;
        json_t *l;
        json_array_foreach(json_object_get(comparison, "launches"), i, l) {
            double a, b;
            if (!rule_values(rule, l, &a, &b)) {
                g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                            "compare: --fail-if '%s': launch %zu has no numeric metric %s in both reports%s",
                            rule->text, i, rule->metric, functional_hint(rule->metric, l));
                json_decref(hits);
                return FALSE;
            }
            double change = rule->percent ? change_pct(a, b) : b - a;
            if (!op_holds(rule->op, change, rule->threshold))
                continue;
            *tripped = true;
            json_array_append_new(hits, json_pack("{s:I,s:o,s:o,s:o}", "launch", (json_int_t)i, "a", json_num(a),
                                                  "b", json_num(b), "change", json_num(change)));
        }
    }
    *result = json_pack("{s:s,s:b,s:b,s:o}", "rule", rule->text, "tripped", *tripped, "percent", rule->percent,
                        "launches", hits);
    return TRUE;
}
