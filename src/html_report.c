/* html_report.c — the self-contained HTML report (contract in html_report.h).
 *
 * Everything is rendered from the JSON report (numbers) plus a copy of each
 * launch's module facts taken when the launch ran (PTX text, CFGs), so the
 * page shows exactly the report's numbers.  Charts are plain SVG built
 * here; the only script is an error trap (window.onerror writes into the
 * page, which tests/html checks) and a marker that scripts ran.
 */
#include "html_report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cfg.h"
#include "errors.h"
#include "fileio.h"
#include "timing.h"

typedef struct {
    uint32_t first_line, last_line;
    uint32_t succ[2];
    uint8_t nsucc;
    uint32_t ipdom;       /* block index or CFG_EXIT */
    char *label;
} SnapBlock;

typedef struct {
    char *name;
    uint32_t nblocks;
    SnapBlock *blocks;
} SnapFunc;

typedef struct {
    json_t *entry;        /* a reference */
    char *ptx_path;
    char *kernel;
    GPtrArray *funcs;     /* SnapFunc*, the module's defined functions with a CFG */
} NotedLaunch;

struct HtmlReport {
    GPtrArray *launches;  /* NotedLaunch* */
    GHashTable *sources;  /* PTX path -> its text (NULL value: unreadable) */
};

static void snap_func_free(gpointer p)
{
    SnapFunc *f = p;
    for (uint32_t b = 0; b < f->nblocks; b++)
        g_free(f->blocks[b].label);
    g_free(f->blocks);
    g_free(f->name);
    g_free(f);
}

static void noted_free(gpointer p)
{
    NotedLaunch *n = p;
    json_decref(n->entry);
    g_free(n->ptx_path);
    g_free(n->kernel);
    g_ptr_array_free(n->funcs, TRUE);
    g_free(n);
}

HtmlReport *html_report_new(void)
{
    HtmlReport *h = g_new0(HtmlReport, 1);
    h->launches = g_ptr_array_new_with_free_func(noted_free);
    h->sources = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    return h;
}

void html_report_free(HtmlReport *h)
{
    if (!h)
        return;
    g_ptr_array_free(h->launches, TRUE);
    g_hash_table_destroy(h->sources);
    g_free(h);
}

void html_report_note_launch(HtmlReport *h, json_t *entry, const Module *m, uint32_t kernel)
{
    NotedLaunch *n = g_new0(NotedLaunch, 1);
    n->entry = json_incref(entry);
    n->ptx_path = g_strdup(m->path);
    n->kernel = g_strdup(kernel < m->funcs->len ? module_func(m, kernel)->name : "");
    n->funcs = g_ptr_array_new_with_free_func(snap_func_free);
    for (uint32_t f = 0; f < m->funcs->len; f++) {
        const Function *fn = module_func(m, f);
        const Cfg *cfg = fn->cfg;
        if (!fn->is_defined || !cfg)
            continue;
        SnapFunc *sf = g_new0(SnapFunc, 1);
        sf->name = g_strdup(fn->name);
        sf->nblocks = cfg->nblocks;
        sf->blocks = g_new0(SnapBlock, MAX(cfg->nblocks, 1u));
        for (uint32_t b = 0; b < cfg->nblocks; b++) {
            const BasicBlock *bb = &cfg->blocks[b];
            SnapBlock *sb = &sf->blocks[b];
            sb->first_line = cfg_block_line(fn, bb);
            sb->last_line = bb->last < func_ninsns(fn) ? func_insn(fn, bb->last)->line : sb->first_line;
            sb->nsucc = bb->nsucc;
            sb->succ[0] = bb->succ[0];
            sb->succ[1] = bb->succ[1];
            sb->ipdom = bb->ipdom;
            sb->label = g_strdup(bb->label);
        }
        g_ptr_array_add(n->funcs, sf);
    }
    if (!g_hash_table_contains(h->sources, m->path)) {
        char *text = NULL;
        if (!file_read_all(m->path, &text, NULL, NULL))
            text = NULL;
        g_hash_table_insert(h->sources, g_strdup(m->path), text);
    }
    g_ptr_array_add(h->launches, n);
}

/* ------------------------------------------------------------ escaping */

void html_escape_append(GString *out, const char *text, gssize len)
{
    if (!text)
        return;
    const char *p = text, *end = len < 0 ? text + strlen(text) : text + len;
    while (p < end) {
        const char *bad = NULL;
        if (g_utf8_validate(p, end - p, &bad))
            bad = NULL;
        const char *stop = bad ? bad : end;
        for (const char *q = p; q < stop; q++) {
            unsigned char c = (unsigned char)*q;
            switch (c) {
            case '&': g_string_append(out, "&amp;"); break;
            case '<': g_string_append(out, "&lt;"); break;
            case '>': g_string_append(out, "&gt;"); break;
            case '"': g_string_append(out, "&quot;"); break;
            case '\'': g_string_append(out, "&#39;"); break;
            default:
                if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
                    g_string_append(out, "\xEF\xBF\xBD");
                else
                    g_string_append_c(out, (char)c);
            }
        }
        if (!bad)
            break;
        g_string_append(out, "\xEF\xBF\xBD"); /* one invalid byte */
        p = bad + 1;
    }
}

static void esc(GString *o, const char *text)
{
    html_escape_append(o, text, -1);
}

/* ------------------------------------------------------------ metrics */

static bool has(json_t *mx, const char *key)
{
    return json_object_get(mx, key) != NULL;
}

static double num(json_t *mx, const char *key)
{
    return json_number_value(json_object_get(mx, key));
}

static json_int_t integer(json_t *mx, const char *key)
{
    return json_integer_value(json_object_get(mx, key));
}

/* A table row with a number whose cell names its metric (tests compare it
 * with the JSON). */
static void row_int(GString *o, json_t *mx, const char *label, const char *key)
{
    if (!has(mx, key))
        return;
    g_string_append(o, "<tr><th>");
    esc(o, label);
    g_string_append_printf(o, "</th><td class=\"num\" data-metric=\"%s\">%" JSON_INTEGER_FORMAT "</td></tr>\n", key,
                           integer(mx, key));
}

static void row_real(GString *o, json_t *mx, const char *label, const char *key, int digits, const char *unit)
{
    if (!has(mx, key))
        return;
    g_string_append(o, "<tr><th>");
    esc(o, label);
    g_string_append_printf(o, "</th><td class=\"num\" data-metric=\"%s\">%.*f</td><td>%s</td></tr>\n", key, digits,
                           num(mx, key), unit);
}

static const char *CSS =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0 2em 3em;color:#222}"
    "h1{font-size:1.5em}h2{border-bottom:2px solid #888;margin-top:2em}h3{margin-top:1.5em}"
    "table{border-collapse:collapse;margin:.5em 0}th,td{padding:2px 8px;text-align:left}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "table.grid td,table.grid th{border:1px solid #ccc}"
    ".cols{display:flex;flex-wrap:wrap;gap:2em}"
    ".listing{font:12px/1.3 monospace;border-collapse:collapse}"
    ".listing td{padding:0 6px;white-space:pre}.listing td.code{white-space:pre}"
    ".listing tr.hot td{outline:1px solid #c00}"
    ".scroll{max-height:40em;overflow:auto;border:1px solid #ccc}"
    ".error{color:#a00;font-weight:bold}#script-errors{color:#a00}"
    "svg text{font:11px sans-serif}svg .mono{font:11px monospace}";

/* window.onerror writes every script error into the page; the marker says
 * the script ran at all.  Kept first in <head> so it sees later errors. */
static const char *SCRIPT =
    "window.onerror=function(m,s,l,c){var e=document.getElementById('script-errors');"
    "if(!e){e=document.createElement('pre');e.id='script-errors';"
    "(document.body||document.documentElement).appendChild(e);}"
    "e.textContent+='script error: '+m+' at '+l+':'+c+'\\n';};"
    "document.addEventListener('DOMContentLoaded',function(){"
    "document.body.setAttribute('data-script','ran');"
    "var rows=document.querySelectorAll('tr[data-block-lines]');"
    "rows.forEach(function(r){r.addEventListener('click',function(){"
    "var p=r.getAttribute('data-block-lines').split('-');var id=r.getAttribute('data-listing');"
    "var t=document.getElementById(id+'-L'+p[0]);if(t)t.scrollIntoView({block:'center'});});});});";

/* ------------------------------------------------------------ charts */

static void bar_chart(GString *o, const char *id, const char *const *names, const double *values, int n,
                      const char *unit)
{
    const int row = 18, label_w = 150, bar_w = 320;
    double max = 0;
    for (int i = 0; i < n; i++)
        max = MAX(max, values[i]);
    g_string_append_printf(o, "<svg id=\"%s\" width=\"%d\" height=\"%d\" role=\"img\">\n", id, label_w + bar_w + 80,
                           n * row + 4);
    for (int i = 0; i < n; i++) {
        double w = max > 0 ? values[i] / max * bar_w : 0;
        int y = i * row + 2;
        g_string_append_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label_w - 6, y + 12);
        esc(o, names[i]);
        g_string_append_printf(o, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#4a7ab5\"/>"
                                  "<text x=\"%.1f\" y=\"%d\">%.1f%s</text>\n",
                               label_w, y + 2, w, row - 5, label_w + w + 4, y + 12, values[i], unit);
    }
    g_string_append(o, "</svg>\n");
}

/* ------------------------------------------------------------ sections */

static void summary_section(GString *o, json_t *mx)
{
    g_string_append(o, "<h3>Summary</h3>\n<table class=\"grid summary\">\n");
    row_int(o, mx, "cycles", "sm__cycles_elapsed.max");
    if (has(mx, "gpu__time_duration.sum")) {
        g_string_append_printf(o, "<tr><th>time</th><td class=\"num\" data-metric=\"gpu__time_duration.sum\">%.3f</td>"
                                  "<td>µs</td></tr>\n", num(mx, "gpu__time_duration.sum") / 1000.0);
    }
    row_real(o, mx, "IPC (per active SM cycle)", "ipc", 3, "");
    row_int(o, mx, "warp instructions", "smsp__inst_executed.sum");
    row_int(o, mx, "thread instructions", "smsp__thread_inst_executed.sum");
    row_real(o, mx, "warp execution efficiency", "warp_execution_efficiency", 1, "%");
    row_int(o, mx, "branches", "warpsim__branches");
    row_int(o, mx, "divergent branches", "divergent_branch");
    row_real(o, mx, "branch efficiency", "branch_efficiency", 1, "%");
    row_int(o, mx, "registers per thread", "launch__registers_per_thread");
    row_int(o, mx, "CTAs", "warpsim__ctas");
    row_int(o, mx, "warps", "warpsim__warps");
    row_int(o, mx, "SMs used", "warpsim__sms_used");
    g_string_append(o, "</table>\n");
}

static void occupancy_section(GString *o, json_t *mx, guint launch)
{
    if (!has(mx, "sm__maximum_warps_per_active_cycle_pct"))
        return;
    g_string_append(o, "<div><h3>Occupancy</h3>\n<table class=\"grid occupancy\">\n");
    row_real(o, mx, "theoretical", "sm__maximum_warps_per_active_cycle_pct", 1, "%");
    row_real(o, mx, "achieved", "sm__warps_active.avg.pct_of_peak_sustained_active", 1, "%");
    g_string_append(o, "<tr><th>limited by</th><td data-metric=\"warpsim__occupancy_limiter\">");
    esc(o, json_string_value(json_object_get(mx, "warpsim__occupancy_limiter")));
    g_string_append(o, "</td></tr>\n");
    row_int(o, mx, "blocks per SM", "warpsim__blocks_per_sm");
    row_int(o, mx, "block limit: warps", "launch__occupancy_limit_warps");
    row_int(o, mx, "block limit: blocks", "launch__occupancy_limit_blocks");
    row_int(o, mx, "block limit: registers", "launch__occupancy_limit_registers");
    row_int(o, mx, "block limit: shared memory", "launch__occupancy_limit_shared_mem");
    g_string_append(o, "</table>\n");
    static const char *const names[2] = {"theoretical", "achieved"};
    double v[2] = {num(mx, "sm__maximum_warps_per_active_cycle_pct"),
                   num(mx, "sm__warps_active.avg.pct_of_peak_sustained_active")};
    /* both against 100 %: a third, invisible bar fixes the scale */
    const char *const names3[3] = {names[0], names[1], "peak"};
    double v3[3] = {v[0], v[1], 100.0};
    char id[48];
    snprintf(id, sizeof id, "occupancy-chart-%u", launch);
    bar_chart(o, id, names3, v3, 3, "%");
    g_string_append(o, "</div>\n");
}

static void stall_section(GString *o, json_t *mx, guint launch)
{
    char key[128];
    snprintf(key, sizeof key, "smsp__warp_issue_stalled_%s_per_warp_active.pct", timing_state_names[0]);
    if (!has(mx, key))
        return;
    const char *names[STATE_COUNT];
    double v[STATE_COUNT];
    int order[STATE_COUNT];
    for (int k = 0; k < STATE_COUNT; k++) {
        snprintf(key, sizeof key, "smsp__warp_issue_stalled_%s_per_warp_active.pct", timing_state_names[k]);
        v[k] = num(mx, key);
        order[k] = k;
    }
    for (int a = 1; a < STATE_COUNT; a++) /* largest first; stable */
        for (int b = a; b > 0 && v[order[b]] > v[order[b - 1]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    double sv[STATE_COUNT];
    for (int k = 0; k < STATE_COUNT; k++) {
        names[k] = timing_state_names[order[k]];
        sv[k] = v[order[k]];
    }
    g_string_append(o, "<div><h3>Warp states</h3>\n<p>Share of resident warp-cycles in each state "
                       "(issued, or why the warp could not issue).</p>\n");
    char id[48];
    snprintf(id, sizeof id, "stall-chart-%u", launch);
    bar_chart(o, id, names, sv, STATE_COUNT, "%");
    g_string_append(o, "<table class=\"grid stalls\">\n");
    for (int k = 0; k < STATE_COUNT; k++) {
        int s = order[k];
        snprintf(key, sizeof key, "smsp__warp_issue_stalled_%s_per_warp_active.pct", timing_state_names[s]);
        g_string_append_printf(o, "<tr><th>%s</th><td class=\"num\" data-metric=\"%s\">%.1f</td><td>%%</td><td>",
                               timing_state_names[s], key, v[s]);
        esc(o, timing_state_descriptions[s]);
        g_string_append(o, "</td></tr>\n");
    }
    g_string_append(o, "</table></div>\n");
}

static void memory_section(GString *o, json_t *mx, guint launch)
{
    if (!has(mx, "lts__t_sectors.sum"))
        return;
    g_string_append(o, "<div><h3>Memory traffic</h3>\n<table class=\"grid memory\">\n"
                       "<tr><th>level</th><th>what</th><th>requests</th><th>sectors / wavefronts</th></tr>\n");
    static const struct { const char *what, *req, *sec; } l1[] = {
        {"global loads", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
        {"global stores", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"},
        {"global atomics", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"},
        {"local loads", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"},
        {"local stores", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"},
        {"shared loads", "smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
        {"shared stores", "smsp__inst_executed_op_shared_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
        {"shared atomics", "smsp__inst_executed_op_shared_atom.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(l1); i++)
        g_string_append_printf(o, "<tr><td>L1</td><td>%s</td><td class=\"num\" data-metric=\"%s\">%" JSON_INTEGER_FORMAT
                                  "</td><td class=\"num\" data-metric=\"%s\">%" JSON_INTEGER_FORMAT "</td></tr>\n",
                               l1[i].what, l1[i].req, integer(mx, l1[i].req), l1[i].sec, integer(mx, l1[i].sec));
    g_string_append_printf(o, "<tr><td>L2</td><td>sectors</td><td></td><td class=\"num\" data-metric=\"lts__t_sectors.sum\">%"
                              JSON_INTEGER_FORMAT "</td></tr>\n", integer(mx, "lts__t_sectors.sum"));
    g_string_append(o, "</table>\n<table class=\"grid memory-rates\">\n");
    row_real(o, mx, "L1 sector hit rate", "l1tex__t_sector_hit_rate.pct", 1, "%");
    row_real(o, mx, "L2 sector hit rate", "lts__t_sector_hit_rate.pct", 1, "%");
    row_int(o, mx, "DRAM bytes read", "dram__bytes_read.sum");
    row_int(o, mx, "DRAM bytes written", "dram__bytes_write.sum");
    row_int(o, mx, "shared load bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    row_int(o, mx, "shared store bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    row_int(o, mx, "shared atomic bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum");
    g_string_append(o, "</table>\n");
    /* sectors each level saw, as bars */
    static const char *const lv[3] = {"L1 sectors (global+local)", "L2 sectors", "DRAM sectors"};
    double v[3] = {0, num(mx, "lts__t_sectors.sum"),
                   (num(mx, "dram__bytes_read.sum") + num(mx, "dram__bytes_write.sum")) / 32.0};
    for (size_t i = 0; i < 5; i++)
        v[0] += num(mx, l1[i].sec);
    char id[48];
    snprintf(id, sizeof id, "memory-chart-%u", launch);
    bar_chart(o, id, lv, v, 3, "");
    g_string_append(o, "</div>\n");
}

typedef struct {
    uint64_t count, stall;
    bool ran;
} LineData;

static void heat_style(GString *o, double frac, const char *rgb)
{
    if (frac > 0)
        g_string_append_printf(o, " style=\"background:rgba(%s,%.2f)\"", rgb, 0.08 + 0.8 * frac);
}

/* The PTX listing with per-line counts; returns the hot line (most stall
 * cycles, else most warp instructions), 0 when none ran. */
static void listing_section(GString *o, const HtmlReport *h, const NotedLaunch *n, json_t *mx, guint launch)
{
    json_t *lines = json_object_get(mx, "warpsim__line_counts");
    const char *text = g_hash_table_lookup(h->sources, n->ptx_path);
    GHashTable *data = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    bool timed = false;
    uint64_t max_count = 0, max_stall = 0, hot_line = 0, hot_value = 0;
    size_t i;
    json_t *e;
    json_array_foreach(lines, i, e) {
        LineData *d = g_new0(LineData, 1);
        uint64_t line = (uint64_t)integer(e, "line");
        d->count = (uint64_t)integer(e, "warp_insts");
        d->ran = true;
        if (has(e, "stall_cycles")) {
            timed = true;
            d->stall = (uint64_t)integer(e, "stall_cycles");
        }
        max_count = MAX(max_count, d->count);
        max_stall = MAX(max_stall, d->stall);
        g_hash_table_insert(data, GUINT_TO_POINTER((guint)line), d);
    }
    /* the hot line: most stall cycles with the timing model, else most executions */
    json_array_foreach(lines, i, e) {
        uint64_t v = (uint64_t)integer(e, timed ? "stall_cycles" : "warp_insts");
        if (v > hot_value) {
            hot_value = v;
            hot_line = (uint64_t)integer(e, "line");
        }
    }
    g_string_append(o, "<h3>PTX listing</h3>\n<p>File <code>");
    esc(o, n->ptx_path);
    g_string_append(o, "</code>. Warp instructions executed per line");
    if (timed)
        g_string_append(o, " and the warp-cycles spent waiting before issuing them (stall cycles)");
    g_string_append(o, ", as a heat map.</p>\n");
    if (hot_line) {
        LineData *d = g_hash_table_lookup(data, GUINT_TO_POINTER((guint)hot_line));
        g_string_append_printf(o, "<p class=\"hot-line\">Hot line (%s): <a href=\"#l%u-L%" PRIu64 "\">line "
                                  "<span data-hot=\"line\">%" PRIu64 "</span></a>, "
                                  "<span data-hot=\"warp_insts\">%" PRIu64 "</span> warp instructions",
                               timed ? "most stall cycles" : "most executions", launch, hot_line, hot_line,
                               d->count);
        if (timed)
            g_string_append_printf(o, ", <span data-hot=\"stall_cycles\">%" PRIu64 "</span> stall cycles", d->stall);
        g_string_append(o, ".</p>\n");
    }
    g_string_append_printf(o, "<div class=\"scroll\"><table class=\"listing\" id=\"listing-%u\">\n<tr><th>line</th>"
                              "<th>warp insts</th>%s<th>PTX</th></tr>\n", launch, timed ? "<th>stall cycles</th>" : "");
    char **src = text ? g_strsplit(text, "\n", -1) : NULL;
    uint32_t nsrc = src ? g_strv_length(src) : 0;
    if (src && nsrc && !*src[nsrc - 1])
        nsrc--; /* the newline ending the file */
    const uint32_t MAX_LINES = 100000;
    if (!src)
        g_string_append(o, "<tr><td colspan=\"4\">(the PTX text could not be read; counted lines only)</td></tr>\n");
    uint32_t last = nsrc;
    if (!src) /* only the lines that ran */
        json_array_foreach(lines, i, e) last = MAX(last, (uint32_t)integer(e, "line"));
    for (uint32_t l = 1; l <= last && l <= MAX_LINES; l++) {
        LineData *d = g_hash_table_lookup(data, GUINT_TO_POINTER(l));
        if (!src && !d)
            continue;
        g_string_append_printf(o, "<tr id=\"l%u-L%u\" data-line=\"%u\"%s>", launch, l, l, l == hot_line ? " class=\"hot\"" : "");
        g_string_append_printf(o, "<td class=\"num\">%u</td><td class=\"num count\"", l);
        if (d) {
            heat_style(o, max_count ? (double)d->count / (double)max_count : 0, "255,120,0");
            g_string_append_printf(o, ">%" PRIu64 "</td>", d->count);
        } else {
            g_string_append(o, "></td>");
        }
        if (timed) {
            g_string_append(o, "<td class=\"num stall\"");
            if (d) {
                heat_style(o, max_stall ? (double)d->stall / (double)max_stall : 0, "220,30,30");
                g_string_append_printf(o, ">%" PRIu64 "</td>", d->stall);
            } else {
                g_string_append(o, "></td>");
            }
        }
        g_string_append(o, "<td class=\"code\"");
        if (d)
            heat_style(o, timed ? (max_stall ? (double)d->stall / (double)max_stall : 0)
                                : (max_count ? (double)d->count / (double)max_count : 0),
                       timed ? "220,30,30" : "255,120,0");
        g_string_append(o, ">");
        if (src && l <= nsrc) {
            const char *s = src[l - 1];
            size_t len = strlen(s);
            if (len && s[len - 1] == '\r')
                len--;
            html_escape_append(o, s, (gssize)len);
        }
        g_string_append(o, "</td></tr>\n");
    }
    if (last > MAX_LINES)
        g_string_append_printf(o, "<tr><td colspan=\"4\">(%u more lines not shown)</td></tr>\n", last - MAX_LINES);
    g_string_append(o, "</table></div>\n");
    g_strfreev(src);
    g_hash_table_destroy(data);
}

typedef struct {
    uint64_t tau, delta, splits;
    bool present;
} BlockData;

static const SnapFunc *find_func(const NotedLaunch *n, const char *name)
{
    for (guint i = 0; name && i < n->funcs->len; i++) {
        const SnapFunc *f = g_ptr_array_index(n->funcs, i);
        if (strcmp(f->name, name) == 0)
            return f;
    }
    return NULL;
}

static void block_name(GString *o, const SnapFunc *f, uint32_t b)
{
    if (b == CFG_EXIT)
        g_string_append(o, "exit");
    else
        g_string_append_printf(o, "B%u", b);
    (void)f;
}

/* One function's CFG: blocks top to bottom in program order; forward edges
 * on the right, backward edges on the left, IPDOM edges dashed (grey). */
static void cfg_svg(GString *o, const SnapFunc *f, const BlockData *bd, guint launch, uint32_t fi)
{
    const int box_w = 230, box_h = 38, gap = 22, left = 120, lane = 9;
    uint32_t n = f->nblocks;
    int edges_right = 0, edges_left = 0, ipdoms = 0;
    for (uint32_t b = 0; b < n; b++) {
        for (uint32_t k = 0; k < f->blocks[b].nsucc; k++) {
            uint32_t s = f->blocks[b].succ[k];
            if (s == CFG_EXIT || s == b + 1)
                continue;
            if (s > b)
                edges_right++;
            else
                edges_left++;
        }
        ipdoms++;
    }
    int width = left + box_w + 40 + (edges_right + ipdoms) * lane + 60;
    int height = (int)(n + 1) * (box_h + gap) + 10;
    uint64_t max_tau = 0;
    for (uint32_t b = 0; b < n; b++)
        max_tau = MAX(max_tau, bd[b].tau);
    g_string_append_printf(o, "<svg class=\"cfg\" id=\"cfg-%u-%u\" width=\"%d\" height=\"%d\" role=\"img\">\n"
                              "<defs><marker id=\"arrow-%u-%u\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
                              "markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\">"
                              "<path d=\"M0,0L10,5L0,10z\" fill=\"#333\"/></marker>"
                              "<marker id=\"arrowg-%u-%u\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
                              "markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\">"
                              "<path d=\"M0,0L10,5L0,10z\" fill=\"#999\"/></marker></defs>\n",
                           launch, fi, width, height, launch, fi, launch, fi);
#define BY(b) (10 + (int)(b) * (box_h + gap))
    int rlane = 0, llane = 0;
    for (uint32_t b = 0; b < n; b++) {
        const SnapBlock *sb = &f->blocks[b];
        for (uint32_t k = 0; k < sb->nsucc; k++) {
            uint32_t s = sb->succ[k];
            uint32_t target = s == CFG_EXIT ? n : s;
            int y0 = BY(b) + box_h, y1 = BY(target);
            if (s != CFG_EXIT && s == b + 1) {
                g_string_append_printf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" "
                                          "marker-end=\"url(#arrow-%u-%u)\"/>\n",
                                       left + box_w / 2 - 20 * (int)k, y0, left + box_w / 2 - 20 * (int)k, y1, launch, fi);
            } else if (target > b) {
                int x = left + box_w + 12 + (rlane++) * lane;
                g_string_append_printf(o, "<path d=\"M%d,%d H%d V%d H%d\" fill=\"none\" stroke=\"#333\" "
                                          "marker-end=\"url(#arrow-%u-%u)\"/>\n",
                                       left + box_w, BY(b) + box_h - 8 - 6 * (int)k, x, y1 + 8, left + box_w, launch, fi);
            } else {
                int x = left - 12 - (llane++) * lane;
                g_string_append_printf(o, "<path d=\"M%d,%d H%d V%d H%d\" fill=\"none\" stroke=\"#333\" "
                                          "marker-end=\"url(#arrow-%u-%u)\"/>\n",
                                       left, BY(b) + box_h - 8, x, BY(target) + 8, left, launch, fi);
            }
        }
    }
    /* IPDOM (reconvergence) edges, dashed, further right */
    int ilane = 0;
    for (uint32_t b = 0; b < n; b++) {
        const SnapBlock *sb = &f->blocks[b];
        if (sb->nsucc < 2)
            continue; /* reconvergence matters where a warp can split */
        uint32_t target = sb->ipdom == CFG_EXIT ? n : sb->ipdom;
        int x = left + box_w + 12 + (edges_right + ilane++) * lane + 8;
        g_string_append_printf(o, "<path class=\"ipdom\" d=\"M%d,%d H%d V%d H%d\" fill=\"none\" stroke=\"#999\" "
                                  "stroke-dasharray=\"4 3\" marker-end=\"url(#arrowg-%u-%u)\"/>\n",
                               left + box_w, BY(b) + box_h / 2, x, BY(target) + box_h / 2, left + box_w, launch, fi);
    }
    for (uint32_t b = 0; b < n; b++) {
        const SnapBlock *sb = &f->blocks[b];
        double div = bd[b].tau ? (double)bd[b].delta / (double)bd[b].tau : 0;
        /* fill: white (converged) to orange (every entry divergent); grey when never entered */
        char fill[40];
        if (!bd[b].tau)
            snprintf(fill, sizeof fill, "#eeeeee");
        else
            snprintf(fill, sizeof fill, "rgb(255,%d,%d)", (int)(255 - 120 * div), (int)(255 - 230 * div));
        g_string_append_printf(o, "<g class=\"block\" data-block=\"%u\" data-tau=\"%" PRIu64 "\" data-delta=\"%" PRIu64
                                  "\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\" fill=\"%s\" "
                                  "stroke=\"%s\" stroke-width=\"%s\"/>",
                               b, bd[b].tau, bd[b].delta, left, BY(b), box_w, box_h, fill,
                               bd[b].splits ? "#c00" : "#333", bd[b].splits ? "2" : "1");
        g_string_append_printf(o, "<text x=\"%d\" y=\"%d\" class=\"mono\">B%u ", left + 6, BY(b) + 15, b);
        if (sb->label) {
            g_string_append(o, " ");
            GString *lbl = g_string_new(NULL);
            g_string_append_len(lbl, sb->label, MIN(strlen(sb->label), 22u));
            esc(o, lbl->str);
            g_string_free(lbl, TRUE);
        }
        g_string_append_printf(o, " (lines %u-%u)</text>", sb->first_line, sb->last_line);
        g_string_append_printf(o, "<text x=\"%d\" y=\"%d\">τ %" PRIu64 "  δ %" PRIu64 "%s</text></g>\n", left + 6,
                               BY(b) + 31, bd[b].tau, bd[b].delta, bd[b].splits ? "  splits" : "");
    }
    g_string_append_printf(o, "<g class=\"block exit\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"12\" "
                              "fill=\"#fff\" stroke=\"#333\"/><text x=\"%d\" y=\"%d\">exit</text></g>\n",
                           left + box_w / 4, BY(n), box_w / 2, box_h - 10, left + box_w / 2 - 12, BY(n) + 18);
#undef BY
    g_string_append(o, "</svg>\n");
    (void)max_tau;
    (void)edges_left;
}

static void cfg_section(GString *o, const NotedLaunch *n, json_t *mx, guint launch)
{
    json_t *map = json_object_get(mx, "warpsim__divergence_map");
    if (!json_array_size(map))
        return;
    g_string_append(o, "<h3>Control flow and divergence</h3>\n<p>Basic blocks in program order; solid arrows are "
                       "branches and fall-throughs, dashed grey arrows go from a block that can split a warp to its "
                       "immediate post-dominator, where the warp reconverges.  τ: warp entries into the block; "
                       "δ: entries while some of the warp's threads were elsewhere (divergent).  Darker orange: a "
                       "larger share δ/τ; a red border: the block's branch split warps.</p>\n");
    /* the functions in map order */
    GPtrArray *names = g_ptr_array_new();
    size_t i;
    json_t *e;
    json_array_foreach(map, i, e) {
        const char *fn = json_string_value(json_object_get(e, "function"));
        bool seen = false;
        for (guint k = 0; k < names->len && !seen; k++)
            seen = strcmp(g_ptr_array_index(names, k), fn ? fn : "") == 0;
        if (!seen && fn)
            g_ptr_array_add(names, (gpointer)fn);
    }
    for (guint k = 0; k < names->len; k++) {
        const char *fname = g_ptr_array_index(names, k);
        const SnapFunc *f = find_func(n, fname);
        g_string_append(o, "<h4>");
        esc(o, fname);
        g_string_append(o, "</h4>\n");
        if (!f) {
            g_string_append(o, "<p>(no CFG available)</p>\n");
            continue;
        }
        BlockData *bd = g_new0(BlockData, MAX(f->nblocks, 1u));
        json_array_foreach(map, i, e) {
            const char *fn = json_string_value(json_object_get(e, "function"));
            json_int_t b = integer(e, "block");
            if (!fn || strcmp(fn, fname) != 0 || b < 0 || (uint64_t)b >= f->nblocks)
                continue;
            bd[b] = (BlockData){(uint64_t)integer(e, "tau"), (uint64_t)integer(e, "delta"),
                                (uint64_t)integer(e, "splits"), true};
        }
        g_string_append(o, "<div class=\"cols\"><div>");
        cfg_svg(o, f, bd, launch, k);
        g_string_append(o, "</div><div><table class=\"grid blocks\">\n<tr><th>block</th><th>label</th><th>lines</th>"
                           "<th>successors</th><th>IPDOM</th><th>τ</th><th>δ</th><th>splits</th></tr>\n");
        for (uint32_t b = 0; b < f->nblocks; b++) {
            const SnapBlock *sb = &f->blocks[b];
            g_string_append_printf(o, "<tr class=\"block-row\" data-function=\"");
            esc(o, fname);
            g_string_append_printf(o, "\" data-block=\"%u\" data-block-lines=\"%u-%u\" data-listing=\"l%u\"><td>B%u</td><td>",
                                   b, sb->first_line, sb->last_line, launch, b);
            esc(o, sb->label ? sb->label : "");
            g_string_append_printf(o, "</td><td>%u-%u</td><td>", sb->first_line, sb->last_line);
            for (uint32_t s = 0; s < sb->nsucc; s++) {
                if (s)
                    g_string_append(o, ", ");
                block_name(o, f, sb->succ[s]);
            }
            g_string_append(o, "</td><td>");
            block_name(o, f, sb->ipdom);
            g_string_append_printf(o, "</td><td class=\"num tau\">%" PRIu64 "</td><td class=\"num delta\">%" PRIu64
                                      "</td><td class=\"num\">%" PRIu64 "</td></tr>\n",
                                   bd[b].tau, bd[b].delta, bd[b].splits);
        }
        g_string_append(o, "</table></div></div>\n");
        g_free(bd);
    }
    g_ptr_array_free(names, TRUE);
}

static void dim3_text(GString *o, json_t *a)
{
    g_string_append_printf(o, "(%" JSON_INTEGER_FORMAT ", %" JSON_INTEGER_FORMAT ", %" JSON_INTEGER_FORMAT ")",
                           json_integer_value(json_array_get(a, 0)), json_integer_value(json_array_get(a, 1)),
                           json_integer_value(json_array_get(a, 2)));
}

static void launch_section(GString *o, const HtmlReport *h, const NotedLaunch *n, guint index)
{
    json_t *entry = n->entry, *mx = json_object_get(entry, "metrics");
    g_string_append_printf(o, "<section class=\"launch\" id=\"launch-%u\" data-launch=\"%u\">\n<h2>Launch %u: <code>",
                           index, index, index);
    esc(o, json_string_value(json_object_get(entry, "kernel")));
    g_string_append(o, "</code></h2>\n<p>grid ");
    dim3_text(o, json_object_get(entry, "grid"));
    g_string_append(o, ", block ");
    dim3_text(o, json_object_get(entry, "block"));
    json_int_t repeat = json_integer_value(json_object_get(entry, "repeat"));
    if (repeat > 1)
        g_string_append_printf(o, ", repeated %" JSON_INTEGER_FORMAT " times (counts are sums)", repeat);
    if (!has(mx, "sm__cycles_elapsed.max"))
        g_string_append(o, "; functional run (no timing model)");
    g_string_append(o, "</p>\n");
    json_t *err = json_object_get(entry, "error");
    if (err) {
        g_string_append(o, "<pre class=\"error\">");
        esc(o, json_string_value(err));
        g_string_append(o, "</pre>\n");
    }
    json_t *checks = json_object_get(entry, "checks");
    if (json_object_size(checks)) {
        g_string_append(o, "<p>checks:");
        const char *k;
        json_t *v;
        json_object_foreach(checks, k, v) {
            g_string_append(o, " <span class=\"check\">");
            esc(o, k);
            g_string_append(o, " ");
            esc(o, json_string_value(v));
            g_string_append(o, "</span>");
        }
        g_string_append(o, "</p>\n");
    }
    g_string_append(o, "<div class=\"cols\"><div>");
    summary_section(o, mx);
    g_string_append(o, "</div>");
    occupancy_section(o, mx, index);
    g_string_append(o, "</div>\n<div class=\"cols\">");
    stall_section(o, mx, index);
    memory_section(o, mx, index);
    g_string_append(o, "</div>\n");
    listing_section(o, h, n, mx, index);
    cfg_section(o, n, mx, index);
    g_string_append(o, "</section>\n");
}

char *html_report_render(const HtmlReport *h, json_t *report)
{
    GString *o = g_string_new("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    const char *name = json_string_value(json_object_get(report, "name"));
    g_string_append_printf(o, "<script>%s</script>\n<title>warpsim report", SCRIPT);
    if (name) {
        g_string_append(o, ": ");
        esc(o, name);
    }
    g_string_append_printf(o, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>warpsim report", CSS);
    if (name) {
        g_string_append(o, ": ");
        esc(o, name);
    }
    g_string_append(o, "</h1>\n<p>warpsim ");
    esc(o, json_string_value(json_object_get(report, "warpsim")));
    g_string_append(o, ", GPU configuration <b>");
    esc(o, json_string_value(json_object_get(report, "config")));
    g_string_append_printf(o, "</b>, %u launch%s.</p>\n", h->launches->len, h->launches->len == 1 ? "" : "es");
    for (guint i = 0; i < h->launches->len; i++)
        launch_section(o, h, g_ptr_array_index(h->launches, i), i);
    g_string_append(o, "</body>\n</html>\n");
    return g_string_free(o, FALSE);
}

bool html_report_write(const HtmlReport *h, json_t *report, const char *path, GError **error)
{
    char *page = html_report_render(h, report);
    GError *local = NULL;
    bool ok = g_file_set_contents(path, page, -1, &local);
    if (!ok) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: cannot write the HTML report: %s", path,
                    local->message);
        g_error_free(local);
    }
    g_free(page);
    return ok;
}
