/* cmd_analyze.c — `warpsim analyze`: static analyses of a PTX file, printed.
 *
 *   --divergence  every register and branch of each function uniform or
 *                 divergent (divergence.h), branches that could be bra.uni,
 *                 loads whose address is uniform (ldu candidates);
 *   --registers   live registers at every instruction (regpressure.h), the
 *                 peak and where, the per-thread estimate (cfg.h) and the
 *                 occupancy it implies (occupancy.h).
 * Text by default, one JSON document with --json.  docs/analysis.md
 * explains every number.
 */
#include <glib.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "config.h"
#include "divergence.h"
#include "commands.h"
#include "errors.h"
#include "occupancy.h"
#include "ptx_parser.h"
#include "regpressure.h"


#define DEFAULT_BLOCK 256

typedef struct {
    const Module *m;
    bool divergence, registers, as_json;
    const GpuConfig *gpu;
    uint32_t block;        /* 0: the kernel's .reqntid/.maxntid, else DEFAULT_BLOCK */
} AnalyzeOptions;

static const char *reg_name(const Function *f, uint32_t reg)
{
    return reg < f->regs->len ? g_array_index(f->regs, RegInfo, reg).name : "?";
}

static char *insn_text(const Module *m, const Function *f, uint32_t i)
{
    return insn_to_string(m, f, func_insn(f, i));
}

/* "line 20: reads a per-thread special register" and the like. */
static char *cause_text(const Function *f, const DivCause *c)
{
    uint32_t line = c->insn != NO_INDEX && c->insn < func_ninsns(f) ? func_insn(f, c->insn)->line : f->line;
    const char *what = divergence_reason_text(c->why);
    switch (c->why) {
    case DIV_WHY_DATA:
    case DIV_WHY_ADDRESS:
    case DIV_WHY_GUARD:
        return g_strdup_printf("line %u: %s %s", line, what, reg_name(f, c->from));
    case DIV_WHY_SYNC:
        return g_strdup_printf("line %u: %s (branch at line %u)", line, what,
                               c->from < func_ninsns(f) ? func_insn(f, c->from)->line : 0);
    default:
        return g_strdup_printf("line %u: %s", line, what);
    }
}

/* ------------------------------------------------------- divergence */

typedef struct {
    uint32_t uniform_regs, divergent_regs, merge_only_regs;
    uint32_t conditional, conditional_uniform, unconditional;
    uint32_t could_be_uni_conditional, could_be_uni_unconditional, marked_uni;
    uint32_t uniform_loads, ldu_candidates;
} DivSummary;

static bool is_load(const Insn *in) { return in->op == OP_LD; }

/* A load with one address for all lanes that is not a kernel-parameter or
 * private-space read: a broadcast, and for global/generic data an ldu. */
static bool uniform_address_load(const Divergence *d, const Insn *in, uint32_t i)
{
    if (!is_load(in) || !(d->insn_flags[i] & DIV_INSN_ADDRESS_UNIFORM))
        return false;
    return in->space == SPACE_GLOBAL || in->space == SPACE_GENERIC || in->space == SPACE_SHARED ||
           in->space == SPACE_CONST;
}

static bool ldu_candidate(const Insn *in) { return in->space == SPACE_GLOBAL || in->space == SPACE_GENERIC; }

static json_t *divergence_json(const Module *m, const Function *f, const Divergence *d, DivSummary *s)
{
    json_t *regs = json_array(), *branches = json_array(), *loads = json_array();
    for (uint32_t r = 0; r < d->nregs; r++) {
        json_t *e = json_pack("{ss}", "name", reg_name(f, r));
        if (divergence_reg_divergent(d, r)) {
            s->divergent_regs++;
            char *why = cause_text(f, &d->reg[r]);
            json_object_set_new(e, "class", json_string("divergent"));
            json_object_set_new(e, "reason", json_string(why));
            bool written = (d->reg_flags[r] & DIV_REG_WRITTEN_DIVERGENT) != 0;
            json_object_set_new(e, "every_write_uniform", json_boolean(!written));
            s->merge_only_regs += !written;
            g_free(why);
        } else {
            s->uniform_regs++;
            json_object_set_new(e, "class", json_string("uniform"));
        }
        json_array_append_new(regs, e);
    }
    for (uint32_t i = 0; i < d->ninsns; i++) {
        const Insn *in = func_insn(f, i);
        if (in->op == OP_BRA) {
            bool cond = in->guard != NO_INDEX, uni = (in->flags & FL_UNI) != 0;
            bool div = divergence_branch_divergent(d, i);
            bool could = !div && !uni;
            s->conditional += cond;
            s->conditional_uniform += cond && !div;
            s->unconditional += !cond;
            s->marked_uni += uni;
            s->could_be_uni_conditional += could && cond;
            s->could_be_uni_unconditional += could && !cond;
            char *text = insn_text(m, f, i);
            json_array_append_new(branches,
                                  json_pack("{sisssbsbsssbsb}", "line", (int)in->line, "text", text,
                                            "conditional", cond, "marked_uni", uni, "class",
                                            div ? "divergent" : "uniform", "could_be_uni", could,
                                            "reachable", (d->insn_flags[i] & DIV_INSN_REACHABLE) != 0));
            g_free(text);
        } else if (uniform_address_load(d, in, i)) {
            s->uniform_loads++;
            s->ldu_candidates += ldu_candidate(in);
            char *text = insn_text(m, f, i);
            json_array_append_new(loads, json_pack("{sisssssb}", "line", (int)in->line, "text", text, "space",
                                                   isa_space_name((PtxSpace)in->space), "ldu_candidate",
                                                   ldu_candidate(in)));
            g_free(text);
        }
    }
    return json_pack("{sisisisisisisisisisisisososo}", "uniform_registers", (int)s->uniform_regs,
                     "divergent_registers", (int)s->divergent_regs, "divergent_only_where_values_meet",
                     (int)s->merge_only_regs, "conditional_branches", (int)s->conditional,
                     "uniform_conditional_branches", (int)s->conditional_uniform, "unconditional_branches",
                     (int)s->unconditional, "marked_uni", (int)s->marked_uni, "could_be_uni_conditional",
                     (int)s->could_be_uni_conditional, "could_be_uni_unconditional",
                     (int)s->could_be_uni_unconditional, "uniform_address_loads", (int)s->uniform_loads,
                     "ldu_candidates", (int)s->ldu_candidates, "registers", regs, "branches", branches,
                     "uniform_loads", loads);
}

/* Text from the JSON, so both outputs always say the same. */
static void divergence_print(FILE *out, const json_t *j)
{
    fprintf(out, "registers: %d uniform, %d divergent (%d of them only where values meet: every write uniform)\n",
            (int)json_integer_value(json_object_get(j, "uniform_registers")),
            (int)json_integer_value(json_object_get(j, "divergent_registers")),
            (int)json_integer_value(json_object_get(j, "divergent_only_where_values_meet")));
    size_t k;
    json_t *e;
    GString *uni = g_string_new(NULL);
    json_array_foreach(json_object_get(j, "registers"), k, e) {
        const char *name = json_string_value(json_object_get(e, "name"));
        const char *reason = json_string_value(json_object_get(e, "reason"));
        if (reason)
            fprintf(out, "  %-10s divergent  %s%s\n", name, reason,
                    json_is_true(json_object_get(e, "every_write_uniform")) ? " [every write uniform]" : "");
        else
            g_string_append_printf(uni, " %s", name);
    }
    if (uni->len)
        fprintf(out, "  uniform:%s\n", uni->str);
    g_string_free(uni, TRUE);
    fprintf(out, "branches: %d conditional (%d uniform, %d divergent), %d unconditional, %d marked .uni\n",
            (int)json_integer_value(json_object_get(j, "conditional_branches")),
            (int)json_integer_value(json_object_get(j, "uniform_conditional_branches")),
            (int)(json_integer_value(json_object_get(j, "conditional_branches")) -
                  json_integer_value(json_object_get(j, "uniform_conditional_branches"))),
            (int)json_integer_value(json_object_get(j, "unconditional_branches")),
            (int)json_integer_value(json_object_get(j, "marked_uni")));
    json_array_foreach(json_object_get(j, "branches"), k, e) {
        bool div = strcmp(json_string_value(json_object_get(e, "class")), "divergent") == 0;
        fprintf(out, "  line %5d  %-9s %s%s%s%s\n", (int)json_integer_value(json_object_get(e, "line")),
                div ? "divergent" : "uniform", json_string_value(json_object_get(e, "text")),
                json_is_true(json_object_get(e, "could_be_uni")) ? "   <- could be bra.uni" : "",
                json_is_true(json_object_get(e, "marked_uni")) && div ? "   <- marked .uni but may diverge" : "",
                json_is_true(json_object_get(e, "reachable")) ? "" : "   (unreachable)");
    }
    fprintf(out, "could be bra.uni: %d conditional, %d unconditional\n",
            (int)json_integer_value(json_object_get(j, "could_be_uni_conditional")),
            (int)json_integer_value(json_object_get(j, "could_be_uni_unconditional")));
    fprintf(out, "uniform-address loads: %d (%d global/generic: ldu candidates if the data is read-only)\n",
            (int)json_integer_value(json_object_get(j, "uniform_address_loads")),
            (int)json_integer_value(json_object_get(j, "ldu_candidates")));
    json_array_foreach(json_object_get(j, "uniform_loads"), k, e)
        fprintf(out, "  line %5d  %-8s %s\n", (int)json_integer_value(json_object_get(e, "line")),
                json_string_value(json_object_get(e, "space")), json_string_value(json_object_get(e, "text")));
}

/* -------------------------------------------------------- registers */

static uint32_t kernel_block(const Function *k, uint32_t asked)
{
    if (asked)
        return asked;
    const uint32_t *dims = k->reqntid[0] ? k->reqntid : k->maxntid[0] ? k->maxntid : NULL;
    if (!dims)
        return DEFAULT_BLOCK;
    uint32_t n = 1;
    for (int i = 0; i < 3; i++)
        n *= dims[i] ? dims[i] : 1;
    return n;
}

static json_t *registers_json(const AnalyzeOptions *o, uint32_t fi, const RegPressure *p, GError **error)
{
    const Module *m = o->m;
    const Function *f = module_func(m, fi);
    json_t *lines = json_array(), *peak_regs = json_array();
    for (uint32_t i = 0; i < p->ninsns; i++) {
        const RegPressurePoint *pt = &p->at[i];
        char *text = insn_text(m, f, i);
        json_array_append_new(lines, json_pack("{sisssisisisisisb}", "line", (int)func_insn(f, i)->line, "text",
                                               text, "in_use", (int)pt->in_use, "live_before", (int)pt->live_before,
                                               "live_after", (int)pt->live_after, "predicates",
                                               (int)pt->preds_in_use, "predicates_before", (int)pt->preds_before,
                                               "reachable", pt->reachable));
        g_free(text);
    }
    for (uint32_t r = 0; r < p->nregs; r++)
        if (regpressure_peak_has(p, r) && regpressure_reg_units(f, r) > 0)
            json_array_append_new(peak_regs, json_pack("{sssi}", "name", reg_name(f, r), "units",
                                                       (int)regpressure_reg_units(f, r)));
    json_t *j = json_pack("{sosisosi}", "lines", lines, "peak", (int)p->peak, "peak_registers", peak_regs,
                          "peak_predicates", (int)p->peak_preds);
    json_object_set_new(j, "peak_line", p->peak_insn == NO_INDEX ? json_null()
                                                                  : json_integer(func_insn(f, p->peak_insn)->line));
    if (!f->is_entry)
        return j;
    uint32_t regs = cfg_estimate_registers(m, fi), block = kernel_block(f, o->block);
    uint32_t smem = regpressure_static_shared_bytes(m, fi);
    if (block == 0 || block > o->gpu->max_threads_per_block) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "analyze: %s allows 1 to %u threads per block, not %u",
                    o->gpu->name, o->gpu->max_threads_per_block, block);
        json_decref(j);
        return NULL;
    }
    Occupancy occ;
    occupancy_compute(o->gpu, block, regs, smem, &occ);
    json_object_set_new(j, "estimate", json_integer(regs));
    json_object_set_new(j, "reserved", json_integer(CFG_REG_OVERHEAD));
    json_object_set_new(
        j, "occupancy",
        json_pack("{sssisisisisisisisisssisisf}", "config", o->gpu->name, "block", (int)block, "regs_per_thread",
                  (int)regs, "static_shared_bytes", (int)smem, "launch__occupancy_limit_warps",
                  (int)occ.limit[LIMIT_WARPS], "launch__occupancy_limit_blocks", (int)occ.limit[LIMIT_BLOCKS],
                  "launch__occupancy_limit_registers", (int)occ.limit[LIMIT_REGISTERS],
                  "launch__occupancy_limit_shared_mem", (int)occ.limit[LIMIT_SHARED_MEM], "blocks_per_sm",
                  (int)occ.blocks_per_sm, "limiter", occupancy_limiter_name(occ.limiter), "active_warps",
                  (int)occ.active_warps, "max_warps_per_sm", (int)o->gpu->max_warps_per_sm, "occupancy",
                  occ.occupancy));
    return j;
}

static void registers_print(FILE *out, const json_t *j, const GpuConfig *gpu)
{
    size_t k;
    json_t *e;
    fprintf(out, "   line  live  pred  instruction\n");
    json_array_foreach(json_object_get(j, "lines"), k, e)
        fprintf(out, "  %5d  %4d  %4d  %s%s\n", (int)json_integer_value(json_object_get(e, "line")),
                (int)json_integer_value(json_object_get(e, "in_use")),
                (int)json_integer_value(json_object_get(e, "predicates")),
                json_string_value(json_object_get(e, "text")),
                json_is_true(json_object_get(e, "reachable")) ? "" : "   (unreachable)");
    GString *names = g_string_new(NULL);
    json_array_foreach(json_object_get(j, "peak_registers"), k, e) {
        g_string_append_printf(names, " %s", json_string_value(json_object_get(e, "name")));
        if (json_integer_value(json_object_get(e, "units")) > 1)
            g_string_append_printf(names, "(x%d)", (int)json_integer_value(json_object_get(e, "units")));
    }
    json_t *pl = json_object_get(j, "peak_line");
    fprintf(out, "peak: %d live 32-bit registers", (int)json_integer_value(json_object_get(j, "peak")));
    if (json_is_integer(pl))
        fprintf(out, " at line %d:%s", (int)json_integer_value(pl), names->str);
    fprintf(out, "\npredicates: at most %d live\n", (int)json_integer_value(json_object_get(j, "peak_predicates")));
    g_string_free(names, TRUE);
    json_t *occ = json_object_get(j, "occupancy");
    if (!occ)
        return;
    fprintf(out, "estimate: %d registers per thread (peak over the kernel and its callees + %d reserved)\n",
            (int)json_integer_value(json_object_get(j, "estimate")),
            (int)json_integer_value(json_object_get(j, "reserved")));
    fprintf(out, "occupancy on %s (%s), %d threads per block, %d bytes of static shared memory:\n",
            gpu->display_name ? gpu->display_name : gpu->name, gpu->name,
            (int)json_integer_value(json_object_get(occ, "block")),
            (int)json_integer_value(json_object_get(occ, "static_shared_bytes")));
    fprintf(out, "  blocks per SM allowed by   warps %d   blocks %d   registers %d   shared memory %d\n",
            (int)json_integer_value(json_object_get(occ, "launch__occupancy_limit_warps")),
            (int)json_integer_value(json_object_get(occ, "launch__occupancy_limit_blocks")),
            (int)json_integer_value(json_object_get(occ, "launch__occupancy_limit_registers")),
            (int)json_integer_value(json_object_get(occ, "launch__occupancy_limit_shared_mem")));
    fprintf(out, "  %d blocks per SM, %d of %d warps, occupancy %.1f %% (limited by %s)\n",
            (int)json_integer_value(json_object_get(occ, "blocks_per_sm")),
            (int)json_integer_value(json_object_get(occ, "active_warps")),
            (int)json_integer_value(json_object_get(occ, "max_warps_per_sm")),
            100.0 * json_real_value(json_object_get(occ, "occupancy")),
            json_string_value(json_object_get(occ, "limiter")));
}

/* ----------------------------------------------------------- driver */

static json_t *analyze_function(const AnalyzeOptions *o, uint32_t fi, GError **error)
{
    const Function *f = module_func(o->m, fi);
    json_t *j = json_pack("{sssssi}", "name", f->name, "kind", f->is_entry ? "kernel" : "func", "line", (int)f->line);
    if (o->divergence) {
        Divergence *d = divergence_analyze(o->m, fi, error);
        if (!d) {
            json_decref(j);
            return NULL;
        }
        DivSummary s = {0};
        json_object_set_new(j, "divergence", divergence_json(o->m, f, d, &s));
        divergence_free(d);
    }
    if (o->registers) {
        RegPressure *p = regpressure_analyze(o->m, fi, error);
        json_t *r = p ? registers_json(o, fi, p, error) : NULL;
        regpressure_free(p);
        if (!r) {
            json_decref(j);
            return NULL;
        }
        json_object_set_new(j, "registers", r);
    }
    return j;
}

int cmd_analyze(int argc, char **argv, GError **error)
{
    char *kernel = NULL, *config = NULL;
    gboolean divergence = FALSE, registers = FALSE, as_json = FALSE;
    gint block = -1; /* not given */
    GOptionEntry entries[] = {
        {"divergence", 0, 0, G_OPTION_ARG_NONE, &divergence,
         "Classify registers and branches uniform or divergent; list bra.uni and ldu candidates", NULL},
        {"registers", 0, 0, G_OPTION_ARG_NONE, &registers,
         "Live registers per instruction, the peak, the estimate and the occupancy it implies", NULL},
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &kernel, "Only this function (name or unique prefix)", "K"},
        {"config", 'c', 0, G_OPTION_ARG_STRING, &config, "GPU configuration for the occupancy (default h200)",
         "NAME|FILE"},
        {"block", 'b', 0, G_OPTION_ARG_INT, &block,
         "Threads per block for the occupancy (default: the kernel's .reqntid/.maxntid, else 256)", "N"},
        {"json", 0, 0, G_OPTION_ARG_NONE, &as_json, "Print one JSON document instead of text", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("FILE.ptx - static divergence and register-pressure analyses");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int status = 2;
    Module *m = NULL;
    GpuConfig *gpu = NULL;
    json_t *doc = NULL;
    if (!command_parse_options(ctx, &argc, &argv, error))
        goto out;
    if (argc != 2) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "analyze: expected one PTX file argument");
        goto out;
    }
    if (!divergence && !registers) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "analyze: say what to analyse: --divergence and/or --registers");
        goto out;
    }
    if (block == 0 || block < -1) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "analyze: --block must be positive");
        goto out;
    }
    if (registers) {
        gpu = config_load(config ? config : CONFIG_DEFAULT_NAME, NULL, error);
        if (!gpu)
            goto out;
    }
    m = ptx_parse_file(argv[1], error);
    if (!m || !cfg_build_all(m, error))
        goto out;
    uint32_t only = NO_INDEX;
    if (kernel) {
        only = module_find_func(m, kernel);
        if (only == NO_INDEX)
            only = module_find_kernel(m, kernel, error);
        if (only == NO_INDEX)
            goto out;
    }
    AnalyzeOptions o = {.m = m, .divergence = divergence, .registers = registers, .as_json = as_json,
                        .gpu = gpu, .block = block > 0 ? (uint32_t)block : 0};
    json_t *funcs = json_array();
    doc = json_pack("{ssso}", "file", argv[1], "functions", funcs);
    for (uint32_t i = 0; i < m->funcs->len; i++) {
        const Function *f = module_func(m, i);
        if ((only != NO_INDEX && i != only) || !f->is_defined)
            continue;
        json_t *j = analyze_function(&o, i, error);
        if (!j)
            goto out;
        json_array_append_new(funcs, j);
    }
    if (as_json) {
        json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        fputc('\n', stdout);
    } else {
        size_t k;
        json_t *j;
        json_array_foreach(funcs, k, j) {
            printf("%s== %s %s (%s:%d)\n", k ? "\n" : "", json_string_value(json_object_get(j, "kind")),
                   json_string_value(json_object_get(j, "name")), argv[1],
                   (int)json_integer_value(json_object_get(j, "line")));
            if (json_object_get(j, "divergence"))
                divergence_print(stdout, json_object_get(j, "divergence"));
            if (json_object_get(j, "registers"))
                registers_print(stdout, json_object_get(j, "registers"), gpu);
        }
    }
    status = 0;
out:
    json_decref(doc);
    module_free(m);
    config_free(gpu);
    g_option_context_free(ctx);
    g_free(kernel);
    g_free(config);
    return status;
}
