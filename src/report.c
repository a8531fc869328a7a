/* report.c — the JSON report and its functional metrics (contract in report.h;
 * every metric is defined in docs/report.md). */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cfg.h"
#include "fpconv.h"

json_t *report_new(const char *config_name, const char *manifest_name, bool scheduled)
{
    json_t *r = json_object();
    json_object_set_new(r, "warpsim", json_string(REPORT_WARPSIM_VERSION));
    json_object_set_new(r, "config", json_string(config_name));
    json_object_set_new(r, "issue_order", json_string(scheduled ? "scheduled" : "ptx"));
    if (manifest_name)
        json_object_set_new(r, "name", json_string(manifest_name));
    json_object_set_new(r, "launches", json_array());
    return r;
}

static json_t *dim3_json(Dim3 d)
{
    return json_pack("[III]", (json_int_t)d.x, (json_int_t)d.y, (json_int_t)d.z);
}

json_t *report_add_launch(json_t *report, const char *kernel, Dim3 grid, Dim3 block)
{
    json_t *e = json_object();
    json_object_set_new(e, "kernel", json_string(kernel));
    json_object_set_new(e, "grid", dim3_json(grid));
    json_object_set_new(e, "block", dim3_json(block));
    json_object_set_new(e, "metrics", json_object());
    json_object_set_new(e, "checks", json_object());
    json_array_append_new(json_object_get(report, "launches"), e);
    return e;
}

json_t *report_scalar(PtxType type, uint64_t bits)
{
    unsigned size = isa_type_size(type);
    if (isa_type_is_float(type)) {
        double d = type == PTX_TYPE_F32 ? fp_f32_from_bits((uint32_t)bits) : fp_f64_from_bits(bits);
        if (isnan(d))
            return json_string("nan");
        if (isinf(d))
            return json_string(d > 0 ? "inf" : "-inf");
        return json_real(d);
    }
    if (size < 8)
        bits &= (1ull << (8 * size)) - 1;
    if (isa_type_is_signed(type)) {
        unsigned shift = 64 - 8 * size;
        return json_integer((json_int_t)((int64_t)(bits << shift) >> shift));
    }
    if (bits > INT64_MAX) {
        char buf[24];
        snprintf(buf, sizeof buf, "%" PRIu64, bits);
        return json_string(buf);
    }
    return json_integer((json_int_t)bits);
}

static double pct(uint64_t part, uint64_t whole, double if_none)
{
    return whole ? 100.0 * (double)part / (double)whole : if_none;
}

/* one entry per basic block of every function that ran */
static json_t *divergence_map(const Module *m, const LaunchStats *s)
{
    json_t *map = json_array();
    for (uint32_t f = 0; f < s->nfuncs && s->block_visits; f++) {
        const Function *fn = module_func(m, f);
        const Cfg *cfg = fn->cfg;
        if (!cfg || !s->block_visits[f])
            continue;
        bool ran = false;
        for (uint32_t b = 0; b < cfg->nblocks && !ran; b++)
            ran = s->block_visits[f][b] != 0;
        if (!ran)
            continue;
        for (uint32_t b = 0; b < cfg->nblocks; b++) {
            const BasicBlock *bb = &cfg->blocks[b];
            json_t *e = json_object();
            json_object_set_new(e, "function", json_string(fn->name));
            json_object_set_new(e, "block", json_integer(b));
            json_object_set_new(e, "label", bb->label ? json_string(bb->label) : json_null());
            json_object_set_new(e, "line", json_integer(cfg_block_line(fn, bb)));
            json_object_set_new(e, "tau", json_integer((json_int_t)s->block_visits[f][b]));
            json_object_set_new(e, "delta", json_integer(s->block_divergent && s->block_divergent[f]
                                                             ? (json_int_t)s->block_divergent[f][b] : 0));
            json_object_set_new(e, "splits", json_integer(s->block_splits && s->block_splits[f]
                                                              ? (json_int_t)s->block_splits[f][b] : 0));
            json_array_append_new(map, e);
        }
    }
    return map;
}

typedef struct {
    uint32_t line;
    uint64_t count, stall;
    const Insn *in;     /* an instruction written on the line (its source line) */
} LineCount;

static gint by_line(gconstpointer a, gconstpointer b)
{
    uint32_t x = ((const LineCount *)a)->line, y = ((const LineCount *)b)->line;
    return x < y ? -1 : x > y;
}

/* Warp executions (and, with timing, stall cycles) per PTX line, lines in
 * ascending order, unexecuted ones left out. */
static json_t *line_counts(const Module *m, const LaunchStats *s, const TimingStats *ts)
{
    GArray *all = g_array_new(FALSE, FALSE, sizeof(LineCount));
    for (uint32_t f = 0; f < s->nfuncs && s->insn_warp_count; f++) {
        const Function *fn = module_func(m, f);
        if (!s->insn_warp_count[f])
            continue;
        const uint64_t *stall = ts && f < ts->nfuncs && ts->insn_stall ? ts->insn_stall[f] : NULL;
        for (uint32_t i = 0; i < func_ninsns(fn); i++)
            if (s->insn_warp_count[f][i]) {
                LineCount lc = {func_insn(fn, i)->line, s->insn_warp_count[f][i], stall ? stall[i] : 0,
                                func_insn(fn, i)};
                g_array_append_val(all, lc);
            }
    }
    g_array_sort(all, by_line);
    json_t *out = json_array();
    for (guint i = 0; i < all->len;) {
        LineCount lc = g_array_index(all, LineCount, i);
        for (i++; i < all->len && g_array_index(all, LineCount, i).line == lc.line; i++) {
            lc.count += g_array_index(all, LineCount, i).count;
            lc.stall += g_array_index(all, LineCount, i).stall;
        }
        json_t *e = json_pack("{sIsI}", "line", (json_int_t)lc.line, "warp_insts", (json_int_t)lc.count);
        /* the CUDA source line it came from, when the PTX has line info */
        const char *src = insn_source_file(m, lc.in);
        if (src)
            json_object_set_new(e, "source", json_sprintf("%s:%u", src, lc.in->src_line));
        if (ts)
            json_object_set_new(e, "stall_cycles", json_integer((json_int_t)lc.stall));
        json_array_append_new(out, e);
    }
    g_array_free(all, TRUE);
    return out;
}

json_t *report_metrics_from_stats(const Module *m, uint32_t kernel, const LaunchStats *s,
                                  Dim3 grid, Dim3 block, uint32_t regs, bool estimated)
{
    (void)kernel;
    json_t *mx = json_object();
#define SET_INT(key, v) json_object_set_new(mx, key, json_integer((json_int_t)(v)))
#define SET_REAL(key, v) json_object_set_new(mx, key, json_real(v))
    SET_INT("launch__grid_size", (uint64_t)grid.x * grid.y * grid.z);
    SET_INT("launch__block_size", (uint64_t)block.x * block.y * block.z);
    SET_INT("launch__registers_per_thread", regs);
    if (estimated)
        json_object_set_new(mx, "warpsim__registers_estimated", json_true());
    SET_INT("smsp__inst_executed.sum", s->warp_insts);
    SET_INT("smsp__thread_inst_executed.sum", s->thread_insts);
    SET_INT("smsp__thread_inst_executed_pred_on.sum", s->thread_insts_pred_on);
    SET_REAL("warp_execution_efficiency", pct(s->thread_insts, 32 * s->warp_insts, 0.0));
    SET_REAL("warp_nonpred_execution_efficiency", pct(s->thread_insts_pred_on, 32 * s->warp_insts, 0.0));
    SET_INT("warpsim__branches", s->branches);
    SET_INT("divergent_branch", s->divergent_branches);
    SET_REAL("branch_efficiency", pct(s->branches - s->divergent_branches, s->branches, 100.0));
    SET_INT("warpsim__ctas", s->ctas);
    SET_INT("warpsim__warps", s->warps);
    SET_INT("warpsim__threads", s->threads);
#undef SET_INT
#undef SET_REAL
    json_object_set_new(mx, "warpsim__divergence_map", divergence_map(m, s));
    json_object_set_new(mx, "warpsim__line_counts", line_counts(m, s, NULL));
    return mx;
}

void report_add_timing_metrics(json_t *mx, const Module *m, const LaunchStats *s, const TimingStats *ts,
                                const GpuConfig *cfg)
{
#define SET_INT(key, v) json_object_set_new(mx, key, json_integer((json_int_t)(v)))
#define SET_REAL(key, v) json_object_set_new(mx, key, json_real(v))
    const MemCounters *c = &ts->mem;
    const Occupancy *o = &ts->occ;
    SET_REAL("gpu__time_duration.sum", (double)ts->cycles * 1000.0 / cfg->clock_mhz);
    SET_INT("sm__cycles_elapsed.max", ts->cycles);
    SET_REAL("sm__cycles_active.avg", (double)ts->sm_active_cycles / cfg->num_sms);
    SET_REAL("sm__inst_executed.avg.per_cycle_active",
             ts->sm_active_cycles ? (double)ts->issued / (double)ts->sm_active_cycles : 0.0);
    SET_REAL("ipc", ts->sm_active_cycles ? (double)ts->issued / (double)ts->sm_active_cycles : 0.0);
    uint64_t warp_slots = ts->sm_active_cycles * cfg->max_warps_per_sm;
    SET_REAL("sm__warps_active.avg.pct_of_peak_sustained_active", pct(ts->warp_active_cycles, warp_slots, 0.0));
    SET_REAL("achieved_occupancy", warp_slots ? (double)ts->warp_active_cycles / (double)warp_slots : 0.0);
    SET_REAL("sm__maximum_warps_per_active_cycle_pct", 100.0 * o->occupancy);
    SET_INT("launch__occupancy_limit_registers", o->limit[LIMIT_REGISTERS]);
    SET_INT("launch__occupancy_limit_shared_mem", o->limit[LIMIT_SHARED_MEM]);
    SET_INT("launch__occupancy_limit_warps", o->limit[LIMIT_WARPS]);
    SET_INT("launch__occupancy_limit_blocks", o->limit[LIMIT_BLOCKS]);
    SET_INT("launch__shared_mem_per_block_allocated", o->smem_per_block);
    json_object_set_new(mx, "warpsim__occupancy_limiter", json_string(occupancy_limiter_name(o->limiter)));
    SET_INT("warpsim__blocks_per_sm", o->blocks_per_sm);
    SET_INT("warpsim__sms_used", ts->sms_used);
    SET_INT("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", c->gld_requests);
    SET_INT("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", c->gld_sectors);
    SET_INT("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", c->gst_requests);
    SET_INT("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", c->gst_sectors);
    SET_INT("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", c->gatom_requests);
    SET_INT("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", c->gatom_sectors);
    SET_INT("l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", c->lld_requests);
    SET_INT("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", c->lld_sectors);
    SET_INT("l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", c->lst_requests);
    SET_INT("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", c->lst_sectors);
    SET_INT("gld_transactions", c->gld_transactions);
    SET_INT("gst_transactions", c->gst_transactions);
    SET_INT("smsp__inst_executed_op_shared_ld.sum", c->shared_ld_requests);
    SET_INT("smsp__inst_executed_op_shared_st.sum", c->shared_st_requests);
    SET_INT("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", c->shared_ld_wavefronts);
    SET_INT("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", c->shared_st_wavefronts);
    SET_INT("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", c->shared_ld_conflicts);
    SET_INT("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", c->shared_st_conflicts);
    SET_INT("smsp__inst_executed_op_shared_atom.sum", c->shared_atom_requests);
    SET_INT("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", c->shared_atom_wavefronts);
    SET_INT("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", c->shared_atom_conflicts);
    SET_INT("warpsim__const_requests", c->const_requests);
    SET_INT("warpsim__const_wavefronts", c->const_wavefronts);
    SET_REAL("l1tex__t_sector_hit_rate.pct", pct(c->l1_sector_hits, c->l1_sectors, 0.0));
    SET_REAL("lts__t_sector_hit_rate.pct", pct(c->l2_sector_hits, c->l2_sectors, 0.0));
    SET_INT("lts__t_sectors.sum", c->l2_sectors);
    SET_INT("dram__bytes_read.sum", c->dram_bytes_read);
    SET_INT("dram__bytes_write.sum", c->dram_bytes_write);
    char key[128];
    for (int k = 0; k < STATE_COUNT; k++) {
        snprintf(key, sizeof key, "smsp__warp_issue_stalled_%s_per_warp_active.pct", timing_state_names[k]);
        SET_REAL(key, pct(ts->state_cycles[k], ts->warp_active_cycles, 0.0));
    }
#undef SET_INT
#undef SET_REAL
    json_object_set_new(mx, "warpsim__line_counts", line_counts(m, s, ts));
}

/* ------------------------------------------------------------- summary */

static json_int_t metric_int(json_t *mx, const char *key)
{
    return json_integer_value(json_object_get(mx, key));
}

static void print_dim3(FILE *out, json_t *a)
{
    fprintf(out, "(%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ")",
            json_integer_value(json_array_get(a, 0)), json_integer_value(json_array_get(a, 1)),
            json_integer_value(json_array_get(a, 2)));
}

static double metric_num(json_t *mx, const char *key)
{
    return json_number_value(json_object_get(mx, key));
}

/* The timing model's part of the summary: time, occupancy, memory, why
 * warps waited, the hot line.  A sampled launch (`sampling`, else NULL)
 * says that its cycles are an estimate, with its bound, and that the lines
 * after them describe the detailed waves alone (docs/metrics.md). */
static void print_timing(FILE *out, json_t *mx, json_t *sampling)
{
    fprintf(out, "  cycles        %" JSON_INTEGER_FORMAT " (%.2f us), IPC %.2f per SM\n", metric_int(mx, "sm__cycles_elapsed.max"),
            metric_num(mx, "gpu__time_duration.sum") / 1000.0, metric_num(mx, "ipc"));
    if (json_is_true(json_object_get(sampling, "sampled")))
        fprintf(out, "  sampled       cycles estimated from the first %" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT
                     " waves (%" JSON_INTEGER_FORMAT " cycles timed), error bound %.1f%%; IPC and the lines below"
                     " describe the timed waves alone\n",
                metric_int(sampling, "detailed_waves"), metric_int(sampling, "waves"),
                metric_int(sampling, "detailed_cycles"), metric_num(sampling, "error_bound_pct"));
    fprintf(out, "  occupancy     theoretical %.1f%% (%" JSON_INTEGER_FORMAT " blocks per SM, limited by %s), achieved %.1f%%\n",
            metric_num(mx, "sm__maximum_warps_per_active_cycle_pct"), metric_int(mx, "warpsim__blocks_per_sm"),
            json_string_value(json_object_get(mx, "warpsim__occupancy_limiter")),
            metric_num(mx, "sm__warps_active.avg.pct_of_peak_sustained_active"));
    static const char *const ops[3] = {"ld", "st", "atom"};
    for (int i = 0; i < 3; i++) {
        char rk[96], sk[96];
        snprintf(rk, sizeof rk, "l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum", ops[i]);
        snprintf(sk, sizeof sk, "l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum", ops[i]);
        json_int_t r = metric_int(mx, rk), sec = metric_int(mx, sk);
        char label[16];
        snprintf(label, sizeof label, "global %s", ops[i]);
        if (r)
            fprintf(out, "  %-14s%" JSON_INTEGER_FORMAT " requests, %" JSON_INTEGER_FORMAT " sectors (%.2f per request)\n",
                    label, r, sec, (double)sec / (double)r);
        snprintf(rk, sizeof rk, "smsp__inst_executed_op_shared_%s.sum", ops[i]);
        snprintf(sk, sizeof sk, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum", ops[i]);
        char ck[96];
        snprintf(ck, sizeof ck, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum", ops[i]);
        r = metric_int(mx, rk);
        snprintf(label, sizeof label, "shared %s", ops[i]);
        if (r)
            fprintf(out, "  %-14s%" JSON_INTEGER_FORMAT " requests, %" JSON_INTEGER_FORMAT " wavefronts, %" JSON_INTEGER_FORMAT
                         " bank conflicts\n", label, r, metric_int(mx, sk), metric_int(mx, ck));
    }
    fprintf(out, "  memory        L1 hit %.1f%%, L2 hit %.1f%%, DRAM %.1f KB read, %.1f KB written\n",
            metric_num(mx, "l1tex__t_sector_hit_rate.pct"), metric_num(mx, "lts__t_sector_hit_rate.pct"),
            metric_num(mx, "dram__bytes_read.sum") / 1024.0, metric_num(mx, "dram__bytes_write.sum") / 1024.0);
    /* warp states, largest first */
    struct { const char *name; double pct; } st[STATE_COUNT];
    for (int k = 0; k < STATE_COUNT; k++) {
        char key[128];
        snprintf(key, sizeof key, "smsp__warp_issue_stalled_%s_per_warp_active.pct", timing_state_names[k]);
        st[k].name = timing_state_names[k];
        st[k].pct = metric_num(mx, key);
    }
    for (int a = 1; a < STATE_COUNT; a++)
        for (int b = a; b > 0 && st[b].pct > st[b - 1].pct; b--) {
            __typeof__(st[0]) t = st[b];
            st[b] = st[b - 1];
            st[b - 1] = t;
        }
    fprintf(out, "  warp states  ");
    for (int k = 0; k < STATE_COUNT && k < 5 && st[k].pct > 0; k++)
        fprintf(out, " %s %.1f%%", st[k].name, st[k].pct);
    fputc('\n', out);
    json_t *lines = json_object_get(mx, "warpsim__line_counts"), *e, *hot = NULL;
    size_t i;
    json_int_t total = 0;
    json_array_foreach(lines, i, e) {
        json_int_t v = json_integer_value(json_object_get(e, "stall_cycles"));
        total += v;
        if (!hot || v > json_integer_value(json_object_get(hot, "stall_cycles")))
            hot = e;
    }
    if (hot && total > 0) {
        const char *source = json_string_value(json_object_get(hot, "source"));
        fprintf(out, "  hot line      PTX line %" JSON_INTEGER_FORMAT "%s%s%s: %" JSON_INTEGER_FORMAT
                " stall cycles (%.1f%% of all)\n",
                json_integer_value(json_object_get(hot, "line")), source ? " (" : "", source ? source : "",
                source ? ")" : "", json_integer_value(json_object_get(hot, "stall_cycles")),
                100.0 * (double)json_integer_value(json_object_get(hot, "stall_cycles")) / (double)total);
    }
}

void report_print_summary(FILE *out, json_t *report)
{
    json_t *launches = json_object_get(report, "launches");
    size_t i;
    json_t *l;
    json_array_foreach(launches, i, l) {
        json_t *mx = json_object_get(l, "metrics");
        fprintf(out, "kernel %s  grid ", json_string_value(json_object_get(l, "kernel")));
        print_dim3(out, json_object_get(l, "grid"));
        fprintf(out, "  block ");
        print_dim3(out, json_object_get(l, "block"));
        if (json_integer_value(json_object_get(l, "repeat")) > 1)
            fprintf(out, "  x%" JSON_INTEGER_FORMAT, json_integer_value(json_object_get(l, "repeat")));
        fputc('\n', out);
        fprintf(out, "  instructions  %" JSON_INTEGER_FORMAT " warp, %" JSON_INTEGER_FORMAT
                     " thread (warp execution efficiency %.1f%%)\n",
                metric_int(mx, "smsp__inst_executed.sum"), metric_int(mx, "smsp__thread_inst_executed.sum"),
                json_number_value(json_object_get(mx, "warp_execution_efficiency")));
        fprintf(out, "  branches      %" JSON_INTEGER_FORMAT ", %" JSON_INTEGER_FORMAT
                     " divergent (branch efficiency %.1f%%)\n",
                metric_int(mx, "warpsim__branches"), metric_int(mx, "divergent_branch"),
                json_number_value(json_object_get(mx, "branch_efficiency")));
        fprintf(out, "  registers     %" JSON_INTEGER_FORMAT " per thread%s\n",
                metric_int(mx, "launch__registers_per_thread"),
                json_is_true(json_object_get(mx, "warpsim__registers_estimated")) ? " (estimated from the PTX)" : "");
        if (json_object_get(mx, "sm__cycles_elapsed.max"))
            print_timing(out, mx, json_object_get(l, "sampling"));
        json_t *host = json_object_get(l, "host"), *in_order = json_object_get(host, "ctas_in_order");
        json_int_t threads = json_integer_value(json_object_get(host, "threads"));
        if (in_order && threads > 1)
            fprintf(out, "  host threads  1 of %" JSON_INTEGER_FORMAT " (CTAs keep launch order: %s)\n", threads,
                    json_string_value(in_order));
        json_t *err = json_object_get(l, "error");
        if (err)
            fprintf(out, "  fault         %s\n", json_string_value(err));
        json_t *checks = json_object_get(l, "checks");
        if (json_object_size(checks)) {
            const char *name;
            json_t *v;
            fprintf(out, "  checks       ");
            json_object_foreach(checks, name, v)
                fprintf(out, " %s %s", name, strcmp(json_string_value(v), "pass") == 0 ? "pass" : "FAIL");
            fputc('\n', out);
        }
    }
}
