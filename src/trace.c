/* trace.c — one warp's steps as TraceRecords, and the sink that prints
 * them and, when stepping, takes commands (trace.h, docs/trace.md).
 */
#include "trace.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "errors.h"
#include "fpconv.h"
#include "timing.h"

#define MAX_TRACE_REGS 24 /* sources and destinations shown per step */

struct Trace {
    TraceOptions opt;
    uint32_t lanes[WARP_SIZE];
    ExecObserver observer;
    TraceSink sink;
    void *sink_data;
    uint64_t count;
    bool quit, stepping, header_done;
    /* the warp just before the step (on_before) */
    uint32_t before_depth, before_nframes, before_top_mask;
    bool have_before;
    /* the timing model's stall stretches since the last issue */
    GArray *stalls;         /* TraceStall */
    /* --lanes: the values of the instruction's registers */
    TraceRegValues regs[MAX_TRACE_REGS];
    uint32_t nregs;
    uint32_t regs_func, regs_pc;
    CfgRegList uses, defs;
};

/* ------------------------------------------------------------------ */
/* names                                                                */

static const char *const flow_names[] = {
    [TRACE_FLOW_NONE] = "", [TRACE_FLOW_DIVERGED] = "diverged", [TRACE_FLOW_SWITCHED] = "switched path",
    [TRACE_FLOW_RECONVERGED] = "reconverged", [TRACE_FLOW_CALL] = "call", [TRACE_FLOW_RETURNED] = "returned",
    [TRACE_FLOW_EXITED] = "lanes exited", [TRACE_FLOW_DONE] = "warp done",
};

const char *trace_flow_name(TraceFlow f) { return flow_names[f]; }

void trace_mask_text(uint32_t live, uint32_t active, uint32_t exec, char *buf)
{
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        uint32_t bit = 1u << l;
        buf[l] = (exec & bit) ? '1' : (active & bit) ? '0' : (live & bit) ? '.' : '-';
    }
    buf[WARP_SIZE] = 0;
}

const char *trace_block_name(const Function *fn, uint32_t block, char *buf, size_t n)
{
    const Cfg *c = fn->cfg;
    if (c && block < c->nblocks && c->blocks[block].label)
        return c->blocks[block].label;
    if (c && block == c->nblocks)
        g_snprintf(buf, n, "EXIT");
    else
        g_snprintf(buf, n, "B%u", block);
    return buf;
}

/* The block of pc; for a join at the function's end, nblocks (EXIT). */
static uint32_t block_of(const Function *fn, uint32_t pc)
{
    const Cfg *c = fn->cfg;
    if (!c)
        return 0;
    return pc < c->ninsns ? c->block_of[pc] : c->nblocks;
}

/* The function whose pcs stack entry i holds. */
static uint32_t entry_func(const Warp *w, uint32_t i)
{
    uint32_t f = w->frames[0].func;
    for (uint32_t k = 1; k < w->nframes; k++)
        if (w->frames[k].stack_base <= i)
            f = w->frames[k].func;
    return f;
}

/* A register value as its type reads: predicates 0/1, signed and unsigned
 * integers in decimal, floats as %g, 64-bit bit types (addresses, mostly)
 * in hex and narrower ones in decimal. */
static void append_value(GString *s, PtxType type, uint64_t v)
{
    unsigned size = isa_type_size(type);
    uint32_t cls = isa_type_class(type);
    if (cls == TC_PRED)
        g_string_append_printf(s, "%u", (unsigned)(v & 1));
    else if (cls == TC_FLOAT && size == 4)
        g_string_append_printf(s, "%g", (double)fp_f32_from_bits((uint32_t)v));
    else if (cls == TC_FLOAT && size == 8)
        g_string_append_printf(s, "%g", fp_f64_from_bits(v));
    else if (cls == TC_SINT)
        g_string_append_printf(s, "%" PRId64, fp_sext(v, size * 8));
    else if (cls == TC_UINT || size <= 4)
        g_string_append_printf(s, "%" PRIu64, v);
    else
        g_string_append_printf(s, "0x%" PRIx64, v);
}

/* ------------------------------------------------------------------ */
/* observing                                                            */

/* --lanes: the values of the registers in `list` for the chosen lanes,
 * from the warp's top frame. */
static void take_regs(Trace *t, const Warp *w, const CfgRegList *list, bool written)
{
    const Frame *f = &w->frames[w->nframes - 1];
    for (uint32_t i = 0; i < list->n && t->nregs < MAX_TRACE_REGS; i++) {
        TraceRegValues *rv = &t->regs[t->nregs++];
        rv->reg = list->v[i];
        rv->written = written;
        for (uint32_t k = 0; k < t->opt.nlanes; k++)
            rv->value[k] = frame_row(f, list->v[i])[t->lanes[k]];
    }
}

static void on_before(void *data, const Warp *w)
{
    Trace *t = data;
    t->have_before = true;
    t->before_depth = w->depth;
    t->before_nframes = w->nframes;
    t->before_top_mask = w->depth ? w->stack[w->depth - 1].mask : 0;
    t->nregs = 0;
    uint32_t func, pc;
    if (!t->opt.nlanes || !warp_peek(w, &func, &pc))
        return;
    const Function *fn = module_func(w->cta->module, func);
    if (pc >= func_ninsns(fn))
        return;
    /* sources now, before the step overwrites them (or the row they share
     * with a register it writes) */
    cfg_insn_regs(fn, func_insn(fn, pc), &t->uses, &t->defs);
    take_regs(t, w, &t->uses, false);
    t->regs_func = func;
    t->regs_pc = pc;
}

static void on_stall(void *data, const Warp *w, unsigned reason, uint64_t from, uint64_t to)
{
    (void)w;
    Trace *t = data;
    TraceStall st = {from, to, reason};
    /* the model splits a stretch in order; merge pieces of one reason */
    if (t->stalls->len) {
        TraceStall *last = &g_array_index(t->stalls, TraceStall, t->stalls->len - 1);
        if (last->reason == reason && last->to == from) {
            last->to = to;
            return;
        }
    }
    g_array_append_val(t->stalls, st);
}

static TraceFlow flow_of(const Trace *t, const ExecEvent *ev)
{
    const Warp *w = ev->warp;
    if (ev->diverged)
        return TRACE_FLOW_DIVERGED;
    if (w->state == WARP_DONE || w->depth == 0)
        return TRACE_FLOW_DONE;
    if (!t->have_before)
        return TRACE_FLOW_NONE;
    if (w->nframes > t->before_nframes)
        return TRACE_FLOW_CALL;
    if (w->nframes < t->before_nframes)
        return TRACE_FLOW_RETURNED;
    if (w->depth < t->before_depth) {
        uint32_t top = w->stack[w->depth - 1].mask;
        return (top & t->before_top_mask) == (t->before_top_mask & w->live) && top != t->before_top_mask
                   ? TRACE_FLOW_RECONVERGED
                   : TRACE_FLOW_SWITCHED;
    }
    if (w->live != ev->live_before)
        return TRACE_FLOW_EXITED;
    return TRACE_FLOW_NONE;
}

static bool on_step(void *data, const ExecEvent *ev, GError **error)
{
    Trace *t = data;
    const Warp *w = ev->warp;
    const Module *m = w->cta->module;
    const Function *fn = module_func(m, ev->func);
    TraceRecord r = {
        .issue = t->count, .cycle = t->opt.timing ? ev->clock : t->count, .module = m,
        .func = ev->func, .pc = ev->pc, .block = block_of(fn, ev->pc), .live = ev->live_before,
        .active = ev->active, .exec = ev->exec, .blocked = ev->blocked, .flow = flow_of(t, ev),
        .stack = w->stack, .depth = w->depth, .warp = w,
        .stalls = (const TraceStall *)t->stalls->data, .nstalls = t->stalls->len,
    };
    if (t->opt.nlanes && t->regs_func == ev->func && t->regs_pc == ev->pc) {
        /* sources were taken before the step; destinations now, when the
         * instruction stayed in its frame (a call's results come later) */
        if (w->nframes == t->before_nframes && w->state != WARP_DONE)
            take_regs(t, w, &t->defs, true);
        r.regs = t->regs;
        r.nregs = t->nregs;
    }
    t->count++;
    t->have_before = false;
    t->regs_func = t->regs_pc = NO_INDEX;
    bool ok = t->sink(t->sink_data, &r, error);
    g_array_set_size(t->stalls, 0);
    return ok;
}

/* ------------------------------------------------------------------ */
/* printing                                                             */

static const char *reg_name(const Function *fn, uint32_t reg)
{
    return g_array_index(fn->regs, RegInfo, reg).name;
}

static PtxType reg_type(const Function *fn, uint32_t reg)
{
    return g_array_index(fn->regs, RegInfo, reg).type;
}

static void print_header(Trace *t, const TraceRecord *r, FILE *out)
{
    const Function *k = module_func(r->module, r->warp->cta->spec->kernel);
    const Dim3 b = t->opt.block;
    const char *mode = t->opt.timing ? "timing" : "functional";
    const char *cfg = t->opt.config_name ? t->opt.config_name : "";
    /* in list-scheduled order (schedule.h), lines come out of PTX order */
    const char *order = k->scheduled ? "scheduled" : "ptx";
    if (t->opt.json) {
        json_t *h = json_pack("{s:{s:s,s:s,s:I,s:[i,i,i],s:i,s:s,s:s,s:s}}", "trace", "ptx", r->module->path,
                              "kernel", k->name, "launch", (json_int_t)t->opt.launch, "block", b.x, b.y, b.z, "warp",
                              t->opt.warp, "mode", mode, "config", cfg, "issue_order", order);
        char *text = json_dumps(h, JSON_COMPACT);
        fprintf(out, "%s\n", text);
        free(text);
        json_decref(h);
        return;
    }
    fprintf(out, "# %s: kernel %s, launch %u, block (%u,%u,%u), warp %u, %s%s%s%s\n", r->module->path, k->name,
            t->opt.launch, b.x, b.y, b.z, t->opt.warp, mode, *cfg ? " on " : "", cfg,
            k->scheduled ? "" : ", PTX order");
    fprintf(out, "# mask: lane 0 first; 1 runs it, 0 on the path but guard false, . waits on another path, "
                 "- no live thread\n");
    if (k->scheduled) /* `warpsim cfg` numbers the PTX's own order */
        fprintf(out, "# pc: the instruction's place in the scheduled issue order (--issue-order ptx numbers the "
                     "PTX's order, as warpsim cfg does); line: where the PTX has it\n");
    fprintf(out, "%10s  %-12s %5s %5s  %-32s  %s\n", t->opt.timing ? "cycle" : "issue", "block", "pc", "line",
            "mask", "instruction");
}

static void append_stack_text(GString *s, const TraceRecord *r)
{
    const Warp *w = r->warp;
    g_string_append(s, "            stack (top first):\n");
    for (uint32_t i = r->depth; i-- > 0;) {
        const StackEntry *e = &r->stack[i];
        const Function *fn = module_func(r->module, entry_func(w, i));
        char b1[32], b2[32], mask[WARP_SIZE + 1];
        trace_mask_text(w->live, e->mask, e->mask, mask);
        char rpc[64];
        if (e->rpc == RPC_NONE)
            g_snprintf(rpc, sizeof rpc, "-");
        else
            g_snprintf(rpc, sizeof rpc, "%u %s", e->rpc, trace_block_name(fn, block_of(fn, e->rpc), b2, sizeof b2));
        char pc[64];
        g_snprintf(pc, sizeof pc, "%u %s", e->pc, trace_block_name(fn, block_of(fn, e->pc), b1, sizeof b1));
        g_string_append_printf(s, "              pc %-18s reconverge at %-18s %s\n", pc, rpc, mask);
    }
}

static void append_stalls_text(GString *s, const TraceRecord *r)
{
    if (!r->nstalls)
        return;
    uint64_t total = 0;
    for (uint32_t i = 0; i < r->nstalls; i++)
        total += r->stalls[i].to - r->stalls[i].from;
    g_string_append_printf(s, "%10s  (%" PRIu64 " cycle%s without issue:", "", total, total == 1 ? "" : "s");
    for (uint32_t i = 0; i < r->nstalls; i++) {
        const TraceStall *st = &r->stalls[i];
        g_string_append_printf(s, "%s %s %" PRIu64, i ? "," : "", timing_state_names[st->reason], st->from);
        if (st->to - st->from > 1)
            g_string_append_printf(s, "-%" PRIu64, st->to - 1);
    }
    g_string_append(s, ")\n");
}

static void append_lanes_text(Trace *t, GString *s, const TraceRecord *r)
{
    if (!r->nregs)
        return;
    const Function *fn = module_func(r->module, r->func);
    for (uint32_t k = 0; k < t->opt.nlanes; k++) {
        uint32_t lane = t->lanes[k];
        g_string_append_printf(s, "%10s  lane %2u%s:", "", lane, (r->exec >> lane & 1) ? "" : " (off)");
        for (int pass = 1; pass >= 0; pass--) {
            bool first = true;
            for (uint32_t i = 0; i < r->nregs; i++) {
                const TraceRegValues *rv = &r->regs[i];
                if (rv->written != (bool)pass)
                    continue;
                g_string_append_printf(s, "%s %s=", first && !pass ? " <-" : "", reg_name(fn, rv->reg));
                append_value(s, reg_type(fn, rv->reg), rv->value[k]);
                first = false;
            }
        }
        g_string_append_c(s, '\n');
    }
}

static void print_text(Trace *t, const TraceRecord *r, FILE *out)
{
    const Function *fn = module_func(r->module, r->func);
    const Insn *in = func_insn(fn, r->pc);
    GString *s = g_string_new(NULL);
    append_stalls_text(s, r);
    char mask[WARP_SIZE + 1], bname[32];
    trace_mask_text(r->live, r->active, r->exec, mask);
    char *text = insn_to_string(r->module, fn, in);
    g_string_append_printf(s, "%10" PRIu64 "  %-12s %5u %5u  %s  %s", r->cycle,
                           trace_block_name(fn, r->block, bname, sizeof bname), r->pc, in->line, mask, text);
    g_free(text);
    if (r->flow != TRACE_FLOW_NONE)
        g_string_append_printf(s, "   [%s]", trace_flow_name(r->flow));
    g_string_append_c(s, '\n');
    append_lanes_text(t, s, r);
    if (r->flow == TRACE_FLOW_DIVERGED || r->flow == TRACE_FLOW_SWITCHED || r->flow == TRACE_FLOW_RECONVERGED)
        append_stack_text(s, r);
    fputs(s->str, out);
    g_string_free(s, TRUE);
}

static json_t *mask_json(uint32_t m)
{
    char hex[16];
    g_snprintf(hex, sizeof hex, "0x%08x", m);
    return json_string(hex);
}

static void print_json(Trace *t, const TraceRecord *r, FILE *out)
{
    const Function *fn = module_func(r->module, r->func);
    const Insn *in = func_insn(fn, r->pc);
    json_t *o = json_object();
    char mask[WARP_SIZE + 1], bname[32];
    trace_mask_text(r->live, r->active, r->exec, mask);
    json_object_set_new(o, "issue", json_integer((json_int_t)r->issue));
    if (t->opt.timing)
        json_object_set_new(o, "cycle", json_integer((json_int_t)r->cycle));
    json_object_set_new(o, "func", json_string(fn->name));
    json_object_set_new(o, "pc", json_integer(r->pc));
    json_object_set_new(o, "block", json_integer(r->block));
    json_object_set_new(o, "label", json_string(trace_block_name(fn, r->block, bname, sizeof bname)));
    json_object_set_new(o, "line", json_integer(in->line));
    if (in->src_line)
        json_object_set_new(o, "src_line", json_integer(in->src_line));
    char *text = insn_to_string(r->module, fn, in);
    json_object_set_new(o, "insn", json_string(text));
    g_free(text);
    json_object_set_new(o, "mask", json_string(mask));
    json_object_set_new(o, "active", mask_json(r->active));
    json_object_set_new(o, "exec", mask_json(r->exec));
    if (r->flow != TRACE_FLOW_NONE)
        json_object_set_new(o, "flow", json_string(trace_flow_name(r->flow)));
    if (r->blocked)
        json_object_set_new(o, "blocked", json_true());
    if (r->nstalls) {
        json_t *a = json_array();
        for (uint32_t i = 0; i < r->nstalls; i++)
            json_array_append_new(a, json_pack("{s:s,s:I,s:I}", "reason", timing_state_names[r->stalls[i].reason],
                                               "from", (json_int_t)r->stalls[i].from, "until",
                                               (json_int_t)r->stalls[i].to));
        json_object_set_new(o, "stalls", a);
    }
    if (r->flow == TRACE_FLOW_DIVERGED || r->flow == TRACE_FLOW_SWITCHED || r->flow == TRACE_FLOW_RECONVERGED) {
        json_t *a = json_array();
        for (uint32_t i = r->depth; i-- > 0;) {
            const StackEntry *e = &r->stack[i];
            const Function *ef = module_func(r->module, entry_func(r->warp, i));
            char b1[32], b2[32];
            json_t *je = json_pack("{s:i,s:s,s:o}", "pc", e->pc,
                                   "label", trace_block_name(ef, block_of(ef, e->pc), b1, sizeof b1), "mask",
                                   mask_json(e->mask));
            if (e->rpc != RPC_NONE) {
                json_object_set_new(je, "rpc", json_integer(e->rpc));
                json_object_set_new(je, "rpc_label",
                                    json_string(trace_block_name(ef, block_of(ef, e->rpc), b2, sizeof b2)));
            }
            json_array_append_new(a, je);
        }
        json_object_set_new(o, "stack", a);
    }
    if (r->nregs) {
        json_t *lanes = json_object();
        for (uint32_t k = 0; k < t->opt.nlanes; k++) {
            json_t *l = json_object();
            for (uint32_t i = 0; i < r->nregs; i++) {
                GString *v = g_string_new(NULL);
                append_value(v, reg_type(fn, r->regs[i].reg), r->regs[i].value[k]);
                json_object_set_new(l, reg_name(fn, r->regs[i].reg), json_string(v->str));
                g_string_free(v, TRUE);
            }
            char key[8];
            g_snprintf(key, sizeof key, "%u", t->lanes[k]);
            json_object_set_new(lanes, key, l);
        }
        json_object_set_new(o, "lanes", lanes);
    }
    char *line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fprintf(out, "%s\n", line);
    free(line);
    json_decref(o);
}

/* ------------------------------------------------------------------ */
/* stepping                                                             */

/* `r REG`: the register in all 32 lanes of the warp's current frame. */
static void print_register(const TraceRecord *r, const char *name, FILE *out)
{
    const Warp *w = r->warp;
    if (w->nframes == 0 || w->state == WARP_DONE) {
        fprintf(out, "the warp has finished\n");
        return;
    }
    const Frame *f = &w->frames[w->nframes - 1];
    const Function *fn = module_func(r->module, f->func);
    for (guint i = 0; i < fn->regs->len; i++) {
        if (strcmp(reg_name(fn, i), name) != 0)
            continue;
        GString *s = g_string_new(NULL);
        g_string_append_printf(s, "%s:", name);
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            g_string_append_printf(s, "%s[%u] ", l % 8 ? "" : "\n  ", l);
            append_value(s, reg_type(fn, i), frame_row(f, i)[l]);
            g_string_append(s, l % 8 == 7 ? "" : "  ");
        }
        fprintf(out, "%s\n", s->str);
        g_string_free(s, TRUE);
        return;
    }
    fprintf(out, "no register '%s' in %s\n", name, fn->name);
}

/* Reads commands until one moves on.  Returns false when the user quits. */
static bool step_prompt(Trace *t, const TraceRecord *r, FILE *out)
{
    FILE *in = t->opt.in ? t->opt.in : stdin;
    char line[256];
    for (;;) {
        if (t->opt.prompt) {
            fputs("trace> ", t->opt.prompt);
            fflush(t->opt.prompt);
        }
        fflush(out);
        if (!fgets(line, sizeof line, in)) { /* end of input: run to the end */
            t->stepping = false;
            return true;
        }
        g_strstrip(line);
        if (!*line || strcmp(line, "n") == 0)
            return true;
        if (strcmp(line, "c") == 0) {
            t->stepping = false;
            return true;
        }
        if (strcmp(line, "q") == 0)
            return false;
        if (strcmp(line, "s") == 0) {
            GString *s = g_string_new(NULL);
            TraceRecord now = *r;
            append_stack_text(s, &now);
            fputs(s->str, out);
            g_string_free(s, TRUE);
        } else if (line[0] == 'r' && (line[1] == ' ' || line[1] == '\t')) {
            print_register(r, g_strstrip(line + 2), out);
        } else {
            fprintf(out, "commands: Enter or n = next, c = continue to the end, q = quit, r REG = a register in "
                         "every lane, s = the reconvergence stack\n");
        }
    }
}

static bool print_sink(void *data, const TraceRecord *r, GError **error)
{
    Trace *t = data;
    FILE *out = t->opt.out ? t->opt.out : stdout;
    if (!t->header_done) {
        print_header(t, r, out);
        t->header_done = true;
    }
    if (t->opt.json)
        print_json(t, r, out);
    else
        print_text(t, r, out);
    if (t->stepping && !step_prompt(t, r, out)) {
        t->quit = true;
        g_set_error_literal(error, WARPSIM_ERROR, WS_ERR_USAGE, "trace: stopped by the user");
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ */

Trace *trace_new(const TraceOptions *opt, GError **error)
{
    if (opt->nlanes > WARP_SIZE) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "trace: at most %d lanes", WARP_SIZE);
        return NULL;
    }
    for (uint32_t i = 0; i < opt->nlanes; i++)
        if (opt->lanes[i] >= WARP_SIZE) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "trace: lane %u is not a lane of a warp (0..31)",
                        opt->lanes[i]);
            return NULL;
        }
    Trace *t = g_new0(Trace, 1);
    t->opt = *opt;
    if (opt->nlanes)
        memcpy(t->lanes, opt->lanes, opt->nlanes * sizeof *t->lanes);
    t->opt.lanes = t->lanes;
    t->stepping = opt->step;
    t->sink = print_sink;
    t->sink_data = t;
    t->stalls = g_array_new(FALSE, FALSE, sizeof(TraceStall));
    t->observer = (ExecObserver){.on_step = on_step, .on_before = on_before, .on_stall = on_stall, .data = t,
                                 .gridid = opt->launch + 1, .one_warp = true, .ctaid = opt->block,
                                 .warp = opt->warp};
    t->regs_func = t->regs_pc = NO_INDEX;
    return t;
}

void trace_free(Trace *t)
{
    if (!t)
        return;
    g_array_free(t->stalls, TRUE);
    cfg_reglist_clear(&t->uses);
    cfg_reglist_clear(&t->defs);
    g_free(t);
}

void trace_set_sink(Trace *t, TraceSink sink, void *data)
{
    t->sink = sink;
    t->sink_data = data;
}

const ExecObserver *trace_observer(Trace *t) { return &t->observer; }
uint64_t trace_count(const Trace *t) { return t->count; }
bool trace_quit(const Trace *t) { return t->quit; }
