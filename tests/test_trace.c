/* test_trace.c — `warpsim trace` on the bitonic sort (traces/bitonic), the
 * seed 000 Fig. 1.30 example: the first compare-exchange stage (k = 2,
 * j = 1) of warp 0 runs its paths with the masks the kernel's conditions
 * give (worked out here from the input values and thread ids, not from the
 * simulator), in stack order, and reconverges at the barrier block that
 * post-dominates the branches; the timing model's issue cycles and stall
 * stretches account for every cycle; tracing changes no result; --lanes,
 * --step and the command line behave as documented.
 */
#include <check.h>
#include <glib.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cfg.h"
#include "config.h"
#include "exec.h"
#include "manifest.h"
#include "ptx_parser.h"
#include "timing.h"
#include "trace.h"
#include "testutil.h"

#define BITONIC "traces/bitonic/launch.json"
#define FIG130 "tests/trace/fig130.json"

/* What a test keeps of one record. */
typedef struct {
    uint64_t issue, cycle;
    uint32_t func, pc, block, live, active, exec;
    TraceFlow flow;
    uint32_t depth;
    StackEntry stack[8];    /* top first */
    uint64_t stalled;       /* cycles in the stall stretches before it */
    bool stalls_contiguous; /* they follow each other without gaps */
    uint64_t first_stall;
    uint32_t nregs;
    TraceRegValues regs[8];
} Rec;

typedef struct {
    GArray *recs;           /* Rec */
    const Module *module;
} Collected;

static bool collect(void *data, const TraceRecord *r, GError **error)
{
    (void)error;
    Collected *c = data;
    Rec x = {.issue = r->issue, .cycle = r->cycle, .func = r->func, .pc = r->pc, .block = r->block,
             .live = r->live, .active = r->active, .exec = r->exec, .flow = r->flow, .depth = r->depth,
             .stalls_contiguous = true, .nregs = MIN(r->nregs, 8u)};
    for (uint32_t i = 0; i < r->depth && i < 8; i++)
        x.stack[i] = r->stack[r->depth - 1 - i];
    for (uint32_t i = 0; i < r->nstalls; i++) {
        x.stalled += r->stalls[i].to - r->stalls[i].from;
        if (i && r->stalls[i].from != r->stalls[i - 1].to)
            x.stalls_contiguous = false;
        ck_assert_uint_lt(r->stalls[i].reason, STATE_COUNT);
        ck_assert_uint_ne(r->stalls[i].reason, STATE_SELECTED);
    }
    x.first_stall = r->nstalls ? r->stalls[0].from : 0;
    if (x.nregs)
        memcpy(x.regs, r->regs, x.nregs * sizeof *r->regs);
    c->module = r->module;
    g_array_append_val(c->recs, x);
    return true;
}

/* Runs `manifest` with warp `warp` of block 0 traced; returns the records
 * (and, when wanted, the report). */
static GArray *run_traced(const char *manifest, uint32_t warp, bool timing, const uint32_t *lanes, uint32_t nlanes,
                          json_t **report_out)
{
    GError *error = NULL;
    char *path = tu_source_path(manifest);
    Manifest *mf = manifest_load(path, &error);
    ck_assert_msg(mf, "%s", error ? error->message : "");
    GpuConfig *gpu = config_load("8800gtx", NULL, &error);
    ck_assert_msg(gpu, "%s", error ? error->message : "");
    TraceOptions topt = {.warp = warp, .timing = timing, .lanes = lanes, .nlanes = nlanes};
    Trace *t = trace_new(&topt, &error);
    ck_assert(t);
    Collected c = {.recs = g_array_new(FALSE, FALSE, sizeof(Rec))};
    trace_set_sink(t, collect, &c);
    RunOptions opt = {.config = gpu, .functional = !timing, .config_name = gpu->name, .threads = 1,
                      .observer = trace_observer(t)};
    json_t *report = NULL;
    guint failed = 0;
    ck_assert_msg(manifest_run(mf, &opt, &report, &failed, &error), "%s", error ? error->message : "");
    ck_assert_uint_eq(failed, 0);
    ck_assert_uint_eq(trace_count(t), c.recs->len);
    if (report_out)
        *report_out = report;
    else
        json_decref(report);
    trace_free(t);
    config_free(gpu);
    manifest_free(mf);
    g_free(path);
    return c.recs;
}

/* The blocks of Fig. 1.29, found from the CFG's shape around the j loop's
 * head ($L__BB0_3, the table's L_1): L_2 its fall-through, L_3 and L_4
 * L_2's taken and fall-through successors ((tid & k) == 0 and not), L_5
 * and L_6 the swaps after them, L_7 the barrier block post-dominating it
 * all. */
typedef struct {
    uint32_t L[8];          /* L[1] .. L[7]: block indices */
    uint32_t first[8];      /* their first instructions */
} Fig129;

static Fig129 fig129_blocks(const Module *m)
{
    const Function *fn = module_func(m, module_find_func(m, "bitonicSort"));
    const Cfg *c = fn->cfg;
    Fig129 f;
    memset(&f, 0, sizeof f);
    f.L[1] = NO_INDEX;
    for (uint32_t b = 0; b < c->nblocks; b++)
        if (c->blocks[b].label && strcmp(c->blocks[b].label, "$L__BB0_3") == 0)
            f.L[1] = b;
    ck_assert_uint_ne(f.L[1], NO_INDEX);
    ck_assert_uint_eq(c->blocks[f.L[1]].nsucc, 2);
    f.L[7] = c->blocks[f.L[1]].ipdom;
    f.L[2] = c->blocks[f.L[1]].succ[1];
    f.L[3] = c->blocks[f.L[2]].succ[0];
    f.L[4] = c->blocks[f.L[2]].succ[1];
    f.L[5] = c->blocks[f.L[3]].succ[1];
    f.L[6] = c->blocks[f.L[4]].succ[1];
    ck_assert_uint_eq(c->blocks[f.L[1]].succ[0], f.L[7]); /* ixj <= tid: straight to the barrier */
    for (int i = 1; i <= 7; i++)
        f.first[i] = c->blocks[f.L[i]].first;
    return f;
}

/* The masks of the first stage (k = 2, j = 1) from the thread ids and the
 * input values: mask[i] = lanes running block L_i. */
static void expected_masks(const char *manifest, uint32_t nthreads_in_warp, uint32_t mask[8])
{
    GError *error = NULL;
    char *path = tu_source_path(manifest);
    Manifest *mf = manifest_load(path, &error);
    ck_assert(mf);
    GBytes *b = manifest_buffer_initial(mf, "values", &error);
    ck_assert(b);
    gsize n;
    const int32_t *v = g_bytes_get_data(b, &n);
    const uint32_t k = 2, j = 1;
    memset(mask, 0, 8 * sizeof *mask);
    for (uint32_t tid = 0; tid < nthreads_in_warp; tid++) {
        uint32_t bit = 1u << tid, ixj = tid ^ j;
        mask[1] |= bit;
        mask[7] |= bit;
        if (!(ixj > tid))
            continue;
        mask[2] |= bit;
        if ((tid & k) == 0) {
            mask[3] |= bit;
            if (v[tid] > v[ixj])
                mask[5] |= bit;
        } else {
            mask[4] |= bit;
            if (v[tid] < v[ixj])
                mask[6] |= bit;
        }
    }
    g_bytes_unref(b);
    manifest_free(mf);
    g_free(path);
}

/* Consecutive records of one block with one active mask: a path's run. */
typedef struct {
    uint32_t block, active;
    guint first, last;      /* record indices */
} PathRun;

/* The stage from the first entry into L_1 up to and including the first
 * instruction of L_7 after it, as path runs. */
static GArray *first_stage(GArray *recs, const Fig129 *f)
{
    GArray *runs = g_array_new(FALSE, FALSE, sizeof(PathRun));
    guint i = 0;
    while (i < recs->len && g_array_index(recs, Rec, i).block != f->L[1])
        i++;
    ck_assert_uint_lt(i, recs->len);
    for (; i < recs->len; i++) {
        const Rec *r = &g_array_index(recs, Rec, i);
        PathRun *last = runs->len ? &g_array_index(runs, PathRun, runs->len - 1) : NULL;
        if (last && last->block == r->block && last->active == r->active) {
            last->last = i;
        } else {
            PathRun p = {r->block, r->active, i, i};
            g_array_append_val(runs, p);
        }
        if (r->block == f->L[7])
            break;
    }
    return runs;
}

/* The seed's table, as the stack runs it: L_1 and L_2 with the warp,
 * then the (tid & k) == 0 path L_3 and its swap L_5, then the other path
 * L_4 and its swap L_6, then everyone at L_7.  (Fig. 1.30 lists L_4
 * between L_3 and L_5: the order of a scheduler that always runs the
 * lowest pc, which a reconvergence stack is not; which lanes run what,
 * and where they meet again, is the same.) */
static void check_stage(GArray *recs, const Fig129 *f, const uint32_t mask[8])
{
    GArray *runs = first_stage(recs, f);
    int order[7], n = 0;
    order[n++] = 1;
    order[n++] = 2;
    order[n++] = 3;
    if (mask[5])
        order[n++] = 5;
    order[n++] = 4;
    if (mask[6])
        order[n++] = 6;
    order[n++] = 7;
    ck_assert_int_eq(runs->len, n);
    for (int i = 0; i < n; i++) {
        const PathRun *p = &g_array_index(runs, PathRun, i);
        ck_assert_msg(p->block == f->L[order[i]], "run %d: block %u, expected L_%d (block %u)", i, p->block,
                      order[i], f->L[order[i]]);
        ck_assert_msg(p->active == mask[order[i]], "L_%d ran with 0x%08x, expected 0x%08x", order[i], p->active,
                      mask[order[i]]);
    }
    /* L_1's branch splits the warp; only the ixj > tid half is left to run */
    const Rec *split1 = &g_array_index(recs, Rec, g_array_index(runs, PathRun, 0).last);
    ck_assert_int_eq(split1->flow, TRACE_FLOW_DIVERGED);
    ck_assert_uint_eq(split1->stack[0].pc, f->first[2]);
    ck_assert_uint_eq(split1->stack[0].rpc, f->first[7]);
    ck_assert_uint_eq(split1->stack[0].mask, mask[2]);
    ck_assert_uint_eq(split1->stack[1].pc, f->first[7]);
    ck_assert_uint_eq(split1->stack[1].mask, mask[1]);
    /* L_2's branch pushes both paths, L_3's on top, both joining at L_7 */
    const Rec *split2 = &g_array_index(recs, Rec, g_array_index(runs, PathRun, 1).last);
    ck_assert_int_eq(split2->flow, TRACE_FLOW_DIVERGED);
    ck_assert_uint_eq(split2->stack[0].pc, f->first[3]);
    ck_assert_uint_eq(split2->stack[0].mask, mask[3]);
    ck_assert_uint_eq(split2->stack[0].rpc, f->first[7]);
    ck_assert_uint_eq(split2->stack[1].pc, f->first[4]);
    ck_assert_uint_eq(split2->stack[1].mask, mask[4]);
    ck_assert_uint_eq(split2->stack[1].rpc, f->first[7]);
    /* the last path's last instruction reconverges everyone at L_7 */
    const PathRun *join = &g_array_index(runs, PathRun, n - 1);
    const Rec *before = &g_array_index(recs, Rec, join->first - 1);
    ck_assert_int_eq(before->flow, TRACE_FLOW_RECONVERGED);
    ck_assert_uint_eq(before->depth, 1);
    ck_assert_uint_eq(before->stack[0].pc, f->first[7]);
    ck_assert_uint_eq(before->stack[0].mask, mask[7]);
    /* the switch from the L_3 side to the L_4 side */
    guint sw = g_array_index(runs, PathRun, mask[5] ? 3 : 2).last;
    ck_assert_int_eq(g_array_index(recs, Rec, sw).flow, TRACE_FLOW_SWITCHED);
    g_array_free(runs, TRUE);
}

/* ------------------------------------------------------------------ */

static Module *bitonic_module(void)
{
    GError *error = NULL;
    char *ptx = tu_source_path("traces/bitonic/bitonic.ptx");
    Module *m = ptx_parse_file(ptx, &error);
    ck_assert_msg(m && cfg_build_all(m, &error), "%s", error ? error->message : "");
    g_free(ptx);
    return m;
}

/* traces/bitonic (512 threads, random values), warp 0, functional and timed */
START_TEST(bitonic_warp_follows_fig130)
{
    bool timing = _i == 1;
    GArray *recs = run_traced(BITONIC, 0, timing, NULL, 0, NULL);
    Module *m = bitonic_module();
    Fig129 f = fig129_blocks(m);
    uint32_t mask[8];
    expected_masks(BITONIC, 32, mask);
    /* the random input has swaps on both sides in warp 0, as in the table */
    ck_assert_uint_ne(mask[5], 0);
    ck_assert_uint_ne(mask[6], 0);
    check_stage(recs, &f, mask);
    module_free(m);
    g_array_free(recs, TRUE);
}
END_TEST

/* The seed's own scenario: four threads, v = {4, 3, 2, 1}. */
START_TEST(four_thread_table)
{
    GArray *recs = run_traced(FIG130, 0, false, NULL, 0, NULL);
    Module *m = bitonic_module();
    Fig129 f = fig129_blocks(m);
    uint32_t mask[8];
    expected_masks(FIG130, 4, mask);
    /* the table's rows: L_1 1111, L_2 1010, L_3 1000, L_4 0010, L_5 1000,
     * L_7 1111 (lane 0 first).  Its L_6 row (t_2 swapping) does not
     * follow from its input: 2 < 1 is false, so t_2 keeps its pair. */
    ck_assert_uint_eq(mask[1], 0xF);
    ck_assert_uint_eq(mask[2], 0x5);
    ck_assert_uint_eq(mask[3], 0x1);
    ck_assert_uint_eq(mask[4], 0x4);
    ck_assert_uint_eq(mask[5], 0x1);
    ck_assert_uint_eq(mask[6], 0x0);
    check_stage(recs, &f, mask);
    module_free(m);
    g_array_free(recs, TRUE);
}
END_TEST

/* The same warp runs the same instructions with the same masks in both
 * modes (the kernel is race-free); the timing model's cycles increase and
 * the stall stretches fill every gap between two issues. */
START_TEST(timing_cycles_and_stalls_account_for_every_cycle)
{
    GArray *fun = run_traced(BITONIC, 3, false, NULL, 0, NULL);
    GArray *tim = run_traced(BITONIC, 3, true, NULL, 0, NULL);
    ck_assert_uint_eq(fun->len, tim->len);
    ck_assert_uint_gt(fun->len, 500);
    uint64_t stalled = 0;
    for (guint i = 0; i < fun->len; i++) {
        const Rec *a = &g_array_index(fun, Rec, i), *b = &g_array_index(tim, Rec, i);
        ck_assert_uint_eq(a->pc, b->pc);
        ck_assert_uint_eq(a->active, b->active);
        ck_assert_uint_eq(a->exec, b->exec);
        ck_assert_int_eq(a->flow, b->flow);
        ck_assert_uint_eq(a->cycle, i);
        ck_assert_uint_eq(a->stalled, 0);
        ck_assert(b->stalls_contiguous);
        if (i > 0) {
            const Rec *p = &g_array_index(tim, Rec, i - 1);
            ck_assert_uint_gt(b->cycle, p->cycle);
            ck_assert_uint_eq(b->stalled, b->cycle - p->cycle - 1);
            if (b->stalled)
                ck_assert_uint_eq(b->first_stall, p->cycle + 1);
        }
        stalled += b->stalled;
    }
    ck_assert_uint_gt(stalled, 0);
    g_array_free(fun, TRUE);
    g_array_free(tim, TRUE);
}
END_TEST

static json_t *launch_metrics(json_t *report)
{
    json_t *launches = json_object_get(report, "launches");
    ck_assert(json_is_array(launches));
    return json_object_get(json_array_get(launches, 0), "metrics");
}

/* Tracing changes neither outputs nor any metric of the report. */
START_TEST(tracing_changes_no_result)
{
    json_t *traced = NULL;
    GArray *recs = run_traced(BITONIC, 5, true, NULL, 0, &traced);
    g_array_free(recs, TRUE);
    GError *error = NULL;
    char *path = tu_source_path(BITONIC);
    Manifest *mf = manifest_load(path, &error);
    GpuConfig *gpu = config_load("8800gtx", NULL, &error);
    RunOptions opt = {.config = gpu, .config_name = gpu->name, .threads = 1};
    json_t *plain = NULL;
    guint failed = 0;
    ck_assert(manifest_run(mf, &opt, &plain, &failed, &error));
    json_t *a = launch_metrics(traced), *b = launch_metrics(plain);
    ck_assert(a && b);
    ck_assert_uint_gt(json_object_size(b), 10);
    char *ta = json_dumps(a, JSON_SORT_KEYS), *tb = json_dumps(b, JSON_SORT_KEYS);
    ck_assert_str_eq(ta, tb);
    free(ta);
    free(tb);
    json_decref(traced);
    json_decref(plain);
    config_free(gpu);
    manifest_free(mf);
    g_free(path);
}
END_TEST

/* --lanes: sources before the step, destinations after it. */
START_TEST(lanes_show_sources_and_destinations)
{
    const uint32_t lanes[] = {0, 5, 31};
    GArray *recs = run_traced(BITONIC, 2, false, lanes, 3, NULL);
    /* mul.wide.u32 %rd4, %r1, 4 with %r1 = %tid.x (or shl.b32 %r15, %r1, 2):
     * the first record that reads one register and writes one, the one it
     * reads %tid.x in lane 0 (the scheduler may move them) */
    const Rec *r = NULL;
    for (guint n = 0; n < recs->len && !r; n++) {
        const Rec *c = &g_array_index(recs, Rec, n);
        if (c->nregs == 2 && c->regs[0].written != c->regs[1].written &&
            c->regs[c->regs[0].written ? 1 : 0].value[0] == 2 * 32 + lanes[0])
            r = c;
    }
    ck_assert(r);
    bool saw_src = false, saw_dst = false;
    for (uint32_t i = 0; i < r->nregs; i++)
        for (uint32_t k = 0; k < 3; k++) {
            uint64_t tid = 2 * 32 + lanes[k];
            if (r->regs[i].written) {
                ck_assert_uint_eq(r->regs[i].value[k], tid * 4);
                saw_dst = true;
            } else {
                ck_assert_uint_eq(r->regs[i].value[k], tid);
                saw_src = true;
            }
        }
    ck_assert(saw_src && saw_dst);
    g_array_free(recs, TRUE);
}
END_TEST

/* The printing sink with --step: commands come from `in`. */
static char *run_printed(const char *manifest, bool json, const char *commands, bool *quit)
{
    GError *error = NULL;
    char *path = tu_source_path(manifest);
    Manifest *mf = manifest_load(path, &error);
    GpuConfig *gpu = config_load("8800gtx", NULL, &error);
    FILE *in = tmpfile(), *out = tmpfile();
    fputs(commands, in);
    rewind(in);
    TraceOptions topt = {.warp = 0, .json = json, .step = true, .in = in, .out = out, .config_name = "8800gtx"};
    Trace *t = trace_new(&topt, &error);
    RunOptions opt = {.config = gpu, .functional = true, .config_name = gpu->name, .threads = 1,
                      .observer = trace_observer(t)};
    json_t *report = NULL;
    guint failed = 0;
    bool ran = manifest_run(mf, &opt, &report, &failed, &error);
    *quit = trace_quit(t);
    ck_assert(ran || *quit);
    g_clear_error(&error);
    long n = ftell(out);
    char *text = g_malloc0((size_t)n + 1);
    rewind(out);
    ck_assert_uint_eq(fread(text, 1, (size_t)n, out), (size_t)n);
    fclose(in);
    fclose(out);
    json_decref(report);
    trace_free(t);
    config_free(gpu);
    manifest_free(mf);
    g_free(path);
    return text;
}

START_TEST(step_quits_and_prints_registers)
{
    bool quit = false;
    /* two steps, then quit: three records */
    char *text = run_printed(FIG130, true, "\nn\nq\n", &quit);
    ck_assert(quit);
    char **lines = g_strsplit(text, "\n", -1);
    int records = 0;
    for (char **l = lines; *l; l++)
        if (g_str_has_prefix(*l, "{\"issue\":"))
            records++;
    ck_assert_int_eq(records, 3);
    g_strfreev(lines);
    g_free(text);
    /* r REG after `mov.u32 %r1, %tid.x` (the third record): lane l holds l */
    text = run_printed(FIG130, false, "\n\nr %r1\nc\n", &quit);
    ck_assert(!quit);
    ck_assert_msg(strstr(text, "%r1:") && strstr(text, "[3] 3"), "%s", text);
    ck_assert(strstr(text, "ret")); /* continued to the end */
    g_free(text);
}
END_TEST

/* The command: no such warp, lane or issue order is an error; --step reads
 * stdin. */
/* Runs the command line argv (NULL-terminated), its output in *out and
 * *err (the caller frees them); returns its exit status. */
static int run_command(char **argv, char **out, char **err)
{
    gint status = 0;
    ck_assert(g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, NULL));
    return WEXITSTATUS(status);
}

START_TEST(command_line)
{
    char *exe = g_build_filename(BUILD_ROOT, "src", "warpsim", NULL);
    char *mf = tu_source_path(FIG130);
    char *out = NULL, *err = NULL;
    char *argv1[] = {exe, "trace", mf, "--warp", "1", "--functional", NULL};
    ck_assert_int_eq(run_command(argv1, &out, &err), 2);
    ck_assert_msg(strstr(err, "executed no instruction"), "%s", err);
    g_free(out);
    g_free(err);
    char *argv2[] = {exe, "trace", mf, "--warp", "0", "--config", "8800gtx", "--lanes", "0,1", NULL};
    ck_assert_msg(run_command(argv2, &out, &err) == 0, "%s", err);
    ck_assert(strstr(out, "[diverged]") && strstr(out, "[reconverged]") && strstr(out, "cycles without issue"));
    ck_assert(strstr(out, "lane  1:"));
    g_free(out);
    g_free(err);
    char *argv3[] = {exe, "trace", mf, "--warp", "0", "--lanes", "32", NULL};
    ck_assert_int_eq(run_command(argv3, &out, &err), 2);
    g_free(out);
    g_free(err);
    /* an issue order other than scheduled or ptx says which values it takes */
    char *argv4[] = {exe, "trace", mf, "--warp", "0", "--issue-order=fast", NULL};
    ck_assert_int_eq(run_command(argv4, &out, &err), 2);
    ck_assert_msg(strstr(err, "--issue-order: expected 'scheduled' or 'ptx', not 'fast'"), "%s", err);
    g_free(out);
    g_free(err);
    g_free(mf);
    g_free(exe);
}
END_TEST

static gint compare_i64(gconstpointer a, gconstpointer b)
{
    gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
    return x < y ? -1 : x > y;
}

/* One warp's PTX lines in issue order, one per record, after the header
 * (whose issue_order must be `order`). */
static GString *traced_lines(const char *manifest, const char *order_option, const char *order)
{
    char *exe = g_build_filename(BUILD_ROOT, "src", "warpsim", NULL);
    char *mf = tu_source_path(manifest);
    char *out = NULL, *err = NULL;
    char *argv[] = {exe, "trace", mf, "--warp", "0", "--functional", "--json", (char *)order_option,
                    NULL};
    ck_assert_msg(run_command(argv, &out, &err) == 0, "%s", err);
    char **lines = g_strsplit(out, "\n", -1);
    json_t *header = json_loads(lines[0], 0, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(header, "trace"), "issue_order")), order);
    GString *seq = g_string_new(NULL);
    for (char **l = lines + 1; *l && **l; l++) {
        json_t *rec = json_loads(*l, 0, NULL);
        ck_assert(rec);
        g_string_append_printf(seq, "%lld ", (long long)json_integer_value(json_object_get(rec, "line")));
        json_decref(rec);
    }
    json_decref(header);
    g_strfreev(lines);
    g_free(out);
    g_free(err);
    g_free(mf);
    g_free(exe);
    return seq;
}

/* --issue-order ptx against the default (scheduled): the same
 * instructions, in another order, and the header says which. */
START_TEST(command_line_issue_order)
{
    GString *ptx = traced_lines("traces/stencil/base_r3.json", "--issue-order=ptx", "ptx");
    GString *scheduled = traced_lines("traces/stencil/base_r3.json", NULL, "scheduled");
    ck_assert_str_ne(ptx->str, scheduled->str);
    /* as multisets the two sequences agree: sort the numbers */
    GArray *sorted[2];
    GString *seqs[2] = {ptx, scheduled};
    for (int i = 0; i < 2; i++) {
        sorted[i] = g_array_new(FALSE, FALSE, sizeof(gint64));
        char **nums = g_strsplit(seqs[i]->str, " ", -1);
        for (char **n = nums; *n && **n; n++) {
            gint64 v = g_ascii_strtoll(*n, NULL, 10);
            g_array_append_val(sorted[i], v);
        }
        g_strfreev(nums);
        g_array_sort(sorted[i], compare_i64);
    }
    ck_assert_uint_eq(sorted[0]->len, sorted[1]->len);
    ck_assert(memcmp(sorted[0]->data, sorted[1]->data, sorted[0]->len * sizeof(gint64)) == 0);
    for (int i = 0; i < 2; i++) {
        g_array_free(sorted[i], TRUE);
        g_string_free(seqs[i], TRUE);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("trace");
    TCase *t = tcase_create("trace");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, bitonic_warp_follows_fig130, 0, 2);
    tcase_add_test(t, four_thread_table);
    tcase_add_test(t, timing_cycles_and_stalls_account_for_every_cycle);
    tcase_add_test(t, tracing_changes_no_result);
    tcase_add_test(t, lanes_show_sources_and_destinations);
    tcase_add_test(t, step_quits_and_prints_registers);
    tcase_add_test(t, command_line);
    tcase_add_test(t, command_line_issue_order);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
