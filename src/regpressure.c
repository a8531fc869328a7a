/* regpressure.c — per-instruction register pressure and a kernel's static
 * shared memory (contract in regpressure.h).
 */
#include "regpressure.h"

#include <string.h>

#include "cfg.h"
#include "errors.h"

uint32_t regpressure_reg_units(const Function *f, uint32_t reg)
{
    PtxType t = g_array_index(f->regs, RegInfo, reg).type;
    if (isa_type_class(t) == TC_PRED)
        return 0;
    uint32_t units = (isa_type_size(t) + 3) / 4;
    return units ? units : 1;
}

static bool is_pred(const Function *f, uint32_t reg)
{
    return isa_type_class(g_array_index(f->regs, RegInfo, reg).type) == TC_PRED;
}

/* Units and predicates of a register set. */
typedef struct {
    uint32_t units, preds;
} Count;

static void count_add(Count *c, const Function *f, uint32_t reg, bool add)
{
    uint32_t *field = is_pred(f, reg) ? &c->preds : &c->units;
    uint32_t n = is_pred(f, reg) ? 1 : regpressure_reg_units(f, reg);
    *field = add ? *field + n : *field - n;
}

/* Walk block b backward from its live-out set, filling p->at[] and, when
 * the walk meets a new peak, p->peak_regs. */
static void walk_block(const Function *f, const Cfg *c, uint32_t b, RegPressure *p, uint64_t *live,
                       uint64_t *scratch, CfgRegList *uses, CfgRegList *defs)
{
    const BasicBlock *bb = &c->blocks[b];
    uint32_t w = c->words;
    bool reachable = (bb->flags & BB_REACHABLE) != 0;
    memcpy(live, c->live_out + (size_t)b * w, w * sizeof(uint64_t));
    Count now = {0};
    for (uint32_t r = 0; r < c->nregs; r++)
        if (cfg_reg_in(live, r))
            count_add(&now, f, r, true);
    for (uint32_t i = bb->last + 1; i-- > bb->first;) {
        RegPressurePoint *pt = &p->at[i];
        const Insn *in = func_insn(f, i);
        cfg_insn_regs(f, in, uses, defs);
        pt->reachable = reachable;
        pt->live_after = now.units;
        /* live after plus the destinations that are dead after it */
        memcpy(scratch, live, w * sizeof(uint64_t));
        Count with_defs = now;
        for (uint32_t j = 0; j < defs->n; j++)
            if (!cfg_reg_in(scratch, defs->v[j])) {
                cfg_reg_add(scratch, defs->v[j]);
                count_add(&with_defs, f, defs->v[j], true);
            }
        /* live before: a guarded write does not end the old value's range */
        for (uint32_t j = 0; j < defs->n; j++) {
            uint32_t r = defs->v[j];
            if (in->guard == NO_INDEX && cfg_reg_in(live, r)) {
                cfg_reg_remove(live, r);
                count_add(&now, f, r, false);
            }
        }
        for (uint32_t j = 0; j < uses->n; j++)
            if (!cfg_reg_in(live, uses->v[j])) {
                cfg_reg_add(live, uses->v[j]);
                count_add(&now, f, uses->v[j], true);
            }
        pt->live_before = now.units;
        pt->preds_before = now.preds;
        bool before_wins = now.units > with_defs.units;
        pt->in_use = before_wins ? now.units : with_defs.units;
        pt->preds_in_use = MAX(now.preds, with_defs.preds);
        if (!reachable)
            continue;
        p->peak_preds = MAX(p->peak_preds, pt->preds_in_use);
        /* on ties the earliest instruction in program order is named */
        if (p->peak_insn == NO_INDEX || pt->in_use > p->peak ||
            (pt->in_use == p->peak && i < p->peak_insn)) {
            p->peak = pt->in_use;
            p->peak_insn = i;
            memcpy(p->peak_regs, before_wins ? live : scratch, w * sizeof(uint64_t));
        }
    }
}

RegPressure *regpressure_analyze(const Module *m, uint32_t func, GError **error)
{
    if (!m || func >= m->funcs->len) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "regpressure: no function %u", func);
        return NULL;
    }
    const Function *f = module_func(m, func);
    const Cfg *c = f->cfg;
    if (!f->is_defined || !c || c->ninsns != func_ninsns(f)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s:%u: error: function %s has no body or no control-flow graph to analyse",
                    m->path ? m->path : "<ptx>", f->line, f->name);
        return NULL;
    }
    RegPressure *p = g_new0(RegPressure, 1);
    p->func = func;
    p->ninsns = func_ninsns(f);
    p->nregs = c->nregs;
    p->at = g_new0(RegPressurePoint, MAX(p->ninsns, 1u));
    p->peak_insn = NO_INDEX;
    p->peak_regs = g_new0(uint64_t, c->words);
    uint64_t *live = g_new(uint64_t, c->words), *scratch = g_new(uint64_t, c->words);
    CfgRegList uses = {0}, defs = {0};
    for (uint32_t b = 0; b < c->nblocks; b++)
        walk_block(f, c, b, p, live, scratch, &uses, &defs);
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
    g_free(live);
    g_free(scratch);
    return p;
}

void regpressure_free(RegPressure *p)
{
    if (!p)
        return;
    g_free(p->at);
    g_free(p->peak_regs);
    g_free(p);
}

/* ------------------------------------------------------ shared memory */

static void mark_operand_var(const Operand *o, bool *used, uint32_t nvars)
{
    if ((o->kind == OPD_ADDR || o->kind == OPD_SYMBOL) && o->sym != NO_INDEX && o->sym < nvars)
        used[o->sym] = true;
}

uint32_t regpressure_static_shared_bytes(const Module *m, uint32_t kernel)
{
    uint32_t nf = m->funcs->len, nv = m->vars->len;
    g_return_val_if_fail(kernel < nf, 0);
    bool *visited = g_new0(bool, nf), *used = g_new0(bool, MAX(nv, 1u));
    uint32_t *stack = g_new(uint32_t, nf), sp = 0;
    visited[kernel] = true;
    stack[sp++] = kernel;
    while (sp) {
        const Function *f = module_func(m, stack[--sp]);
        if (!f->is_defined || !f->insns)
            continue;
        for (uint32_t i = 0; i < func_ninsns(f); i++) {
            const Insn *in = func_insn(f, i);
            for (uint32_t k = 0; k < in->nopd && k < INSN_MAX_OPERANDS; k++)
                mark_operand_var(&in->opd[k], used, nv);
        }
        for (guint k = 0; f->calls && k < f->calls->len; k++) {
            uint32_t callee = g_array_index(f->calls, CallSite, k).callee;
            for (uint32_t g = 0; g < nf; g++) {
                const Function *cand = module_func(m, g);
                bool target = callee == NO_INDEX ? (cand->is_defined && !cand->is_entry) : g == callee;
                if (target && !visited[g]) {
                    visited[g] = true;
                    stack[sp++] = g;
                }
            }
        }
    }
    uint64_t top = 0;
    for (uint32_t i = 0; i < nv; i++) {
        const Variable *v = module_var(m, i);
        if (!used[i] || v->space != SPACE_SHARED || (v->is_extern && v->size == 0))
            continue;
        uint64_t a = MAX(v->align, 1u);
        top = (top + a - 1) / a * a + v->size;
    }
    g_free(stack);
    g_free(used);
    g_free(visited);
    return (uint32_t)MIN(top, UINT32_MAX);
}
