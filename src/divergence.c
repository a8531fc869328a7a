/* divergence.c — static divergence analysis (contract in divergence.h).
 *
 * The rules of seed 000 §1.3 (Theorem 1.3.1: per-thread special registers
 * and atomics seed divergence; it spreads through data dependences and
 * through sync dependences, Theorem 1.3.3: a value defined inside the
 * influence region of a divergent branch and live at the branch's
 * immediate post-dominator), carried over from SSA to PTX, whose registers
 * are written many times:
 *
 * - the state at a program point is the set of registers that may be
 *   divergent there; a forward may-analysis over the CFG (union at merges)
 *   finds it;
 * - an instruction's destinations become divergent when it is a seed or
 *   reads a divergent register (its guard included), and uniform again when
 *   an unguarded instruction writes them from uniform operands; a guarded
 *   write with a uniform guard leaves the state as it was (all lanes wrote,
 *   or none did);
 * - at the join (IPDOM) of a branch whose guard is divergent, every register
 *   written anywhere in the branch's influence region (the blocks reachable
 *   from its successors without passing the join) and live at the join
 *   becomes divergent: the lanes that took different paths meet there with
 *   different writes behind them.  This is the gated φ of Algorithm 1.37.
 *
 * Why merges elsewhere need no gate: lanes separated by a divergent branch
 * run apart until its IPDOM (the executor's SIMT stack), so at any other
 * merge all active lanes arrive from the same predecessor.
 */
#include "divergence.h"

#include <string.h>

#include "cfg.h"
#include "errors.h"

static const char *const reason_text[DIV_WHY_COUNT] = {
    [DIV_WHY_NONE] = "uniform",
    [DIV_WHY_SREG] = "reads a per-thread special register",
    [DIV_WHY_ATOMIC] = "result of an atomic",
    [DIV_WHY_WARP_OP] = "result of shfl/match (another lane's value)",
    [DIV_WHY_PRIVATE_MEMORY] = "loaded from per-thread memory",
    [DIV_WHY_RACY_LOAD] = "volatile/relaxed/acquire load (may see a concurrent write)",
    [DIV_WHY_CALL] = "result of a call",
    [DIV_WHY_ENTRY] = "live at function entry (parameter or unwritten register)",
    [DIV_WHY_DATA] = "computed from a divergent register",
    [DIV_WHY_ADDRESS] = "loaded from a divergent address",
    [DIV_WHY_GUARD] = "written under a divergent guard",
    [DIV_WHY_SYNC] = "sync dependence: written under a divergent branch, merged at its join",
};

const char *divergence_reason_text(DivReason why)
{
    return why < DIV_WHY_COUNT ? reason_text[why] : "?";
}

/* ------------------------------------------------------------- seeds */

/* Special registers whose value may differ between the lanes of a warp:
 * all but those known to be one value per warp, CTA or grid (a register
 * added to the subset later counts as per-thread until listed here).  The
 * clocks and timers are read once per warp instruction, so its lanes see
 * one value; %warpid and %smid are per warp. */
static bool sreg_per_thread(uint32_t sreg)
{
    switch ((PtxSreg)sreg) {
    case SREG_NTID:
    case SREG_CTAID:
    case SREG_NCTAID:
    case SREG_WARPID:
    case SREG_NWARPID:
    case SREG_SMID:
    case SREG_NSMID:
    case SREG_GRIDID:
    case SREG_CLOCK:
    case SREG_CLOCK_HI:
    case SREG_CLOCK64:
    case SREG_GLOBALTIMER:
    case SREG_GLOBALTIMER_LO:
    case SREG_GLOBALTIMER_HI:
    case SREG_DYNAMIC_SMEM_SIZE:
    case SREG_TOTAL_SMEM_SIZE:
    case SREG_ENVREG:
    case SREG_CLUSTERID:
    case SREG_NCLUSTERID:
    case SREG_CLUSTER_CTAID:
    case SREG_CLUSTER_NCTAID:
    case SREG_CLUSTER_CTARANK:
    case SREG_CLUSTER_NCTARANK:
    case SREG_IS_EXPLICIT_CLUSTER:
    case SREG_RESERVED_SMEM_BEGIN:
    case SREG_RESERVED_SMEM_END:
    case SREG_RESERVED_SMEM_CAP:
    case SREG_RESERVED_SMEM_0:
    case SREG_RESERVED_SMEM_1:
        return false;
    default:
        return true;
    }
}

static const Operand *memory_operand(const Insn *in)
{
    for (uint32_t k = 0; k < in->nopd && k < INSN_MAX_OPERANDS; k++)
        if (in->opd[k].kind == OPD_ADDR)
            return &in->opd[k];
    return NULL;
}

/* A load's value may differ per lane even from one address when the space
 * is private to the thread, or when the load may observe another thread's
 * concurrent store (lanes are not promised one instant). */
static DivReason load_seed(const Module *m, const Insn *in, const Operand *addr)
{
    if (in->sem == SEM_VOLATILE || in->sem == SEM_RELAXED || in->sem == SEM_ACQUIRE ||
        in->sem == SEM_ACQ_REL || in->sem == SEM_SC)
        return DIV_WHY_RACY_LOAD;
    const Variable *v = (addr && addr->reg == NO_INDEX && addr->sym != NO_INDEX && addr->sym < m->vars->len)
                            ? module_var(m, addr->sym) : NULL;
    switch ((PtxSpace)in->space) {
    case SPACE_GLOBAL:
    case SPACE_SHARED:
    case SPACE_CONST:
        return DIV_WHY_NONE;
    case SPACE_PARAM: /* kernel parameters are one buffer; a frame's .param is per thread */
        return v && v->scope == VAR_KERNEL_PARAM ? DIV_WHY_NONE : DIV_WHY_PRIVATE_MEMORY;
    case SPACE_GENERIC: /* may point into the thread's local window */
        return v && v->scope == VAR_MODULE &&
                       (v->space == SPACE_GLOBAL || v->space == SPACE_SHARED || v->space == SPACE_CONST)
                   ? DIV_WHY_NONE
                   : DIV_WHY_PRIVATE_MEMORY;
    default:
        return DIV_WHY_PRIVATE_MEMORY;
    }
}

/* How an opcode's result relates to its operands where that is not "each
 * lane's result from its own sources".  Looked up by name, so the table may
 * name instructions the subset lacks without depending on them. */
typedef enum {
    RULE_PER_LANE = 1,   /* results differ per lane whatever the sources */
    RULE_LOAD,           /* ld/ldu: load_seed decides */
    RULE_WARP_UNIFORM,   /* every executing lane gets one result; the value of operand
                            `ignore_operand` (what is voted on or reduced) cannot make
                            it differ, the guard and the member mask can */
} OpRule;

typedef struct {
    const char *name;
    OpRule rule;
    DivReason why;       /* RULE_PER_LANE */
    int ignore_operand;  /* RULE_WARP_UNIFORM: operand index, -1 none */
} OpRuleRow;

static const OpRuleRow op_rules[] = {
    {"atom", RULE_PER_LANE, DIV_WHY_ATOMIC, -1},
    {"shfl", RULE_PER_LANE, DIV_WHY_WARP_OP, -1},
    {"match", RULE_PER_LANE, DIV_WHY_WARP_OP, -1},
    {"elect", RULE_PER_LANE, DIV_WHY_WARP_OP, -1}, /* its predicate is true in one lane */
    {"call", RULE_PER_LANE, DIV_WHY_CALL, -1},
    {"ld", RULE_LOAD, DIV_WHY_NONE, -1},
    {"ldu", RULE_LOAD, DIV_WHY_NONE, -1},
    {"vote", RULE_WARP_UNIFORM, DIV_WHY_NONE, 1},
    {"redux", RULE_WARP_UNIFORM, DIV_WHY_NONE, 1},
    {"activemask", RULE_WARP_UNIFORM, DIV_WHY_NONE, -1},
};

static const OpRuleRow *rule_of(const Insn *in)
{
    if (in->op >= OP_COUNT)
        return NULL;
    for (size_t k = 0; k < G_N_ELEMENTS(op_rules); k++)
        if (strcmp(op_rules[k].name, isa_ops[in->op].name) == 0)
            return &op_rules[k];
    return NULL;
}

static DivReason insn_seed(const Module *m, const Insn *in, const OpRuleRow *rule)
{
    if (rule && rule->rule == RULE_PER_LANE)
        return rule->why;
    if (rule && rule->rule == RULE_LOAD)
        return load_seed(m, in, memory_operand(in));
    for (uint32_t k = 0; k < in->nopd && k < INSN_MAX_OPERANDS; k++)
        if (in->opd[k].kind == OPD_SREG && sreg_per_thread(in->opd[k].reg))
            return DIV_WHY_SREG;
    /* any other instruction reading memory into a register may read
     * per-thread memory (stores and prefetches write no register) */
    if (!rule && memory_operand(in))
        return DIV_WHY_PRIVATE_MEMORY;
    return DIV_WHY_NONE;
}

static bool operand_names(const Operand *o, uint32_t reg)
{
    if (o->kind == OPD_REG || o->kind == OPD_ADDR)
        return o->reg == reg;
    if (o->kind == OPD_VEC)
        for (uint32_t k = 0; k < o->vec_count && k < VEC_MAX; k++)
            if (o->vec_regs[k] == reg)
                return true;
    return false;
}

/* Whether reading `reg` can make the instruction's result differ per lane.
 * bar.red gives every thread of the CTA one result: only its guard counts. */
static bool use_matters(const Insn *in, const OpRuleRow *rule, uint32_t reg)
{
    if (reg == in->guard)
        return true;
    if (insn_writes_first_operand_late(in))
        return false;
    if (!rule || rule->rule != RULE_WARP_UNIFORM || rule->ignore_operand < 0 || rule->ignore_operand >= in->nopd)
        return true;
    for (int k = 1; k < in->nopd && k < INSN_MAX_OPERANDS; k++)
        if (k != rule->ignore_operand && operand_names(&in->opd[k], reg))
            return true;
    return !operand_names(&in->opd[rule->ignore_operand], reg);
}

/* ----------------------------------------------------------- context */

typedef struct {
    const Function *f;
    const Cfg *c;
    uint32_t w;                 /* words per register bitset */
    uint32_t *use_start, *uses; /* per instruction, CSR: registers read that can make its
                                   result differ per lane */
    uint32_t *def_start, *defs; /* registers written */
    uint32_t *addr_reg;         /* address base register, NO_INDEX when none */
    bool *has_addr;             /* has a memory operand */
    uint8_t *seed;              /* DivReason */
    uint64_t *gates;            /* per block ending in a guarded bra: registers gated at its join */
    uint64_t *in;               /* per block: registers that may be divergent at entry */
    Divergence *out;            /* filled by the recording pass */
} Ctx;

static uint64_t *row(uint64_t *sets, uint32_t w, uint32_t b) { return sets + (size_t)b * w; }

static void collect_regs(Ctx *x, const Module *m)
{
    const Function *f = x->f;
    uint32_t n = func_ninsns(f);
    CfgRegList uses = {0}, defs = {0};
    GArray *u = g_array_new(FALSE, FALSE, sizeof(uint32_t)), *d = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    x->use_start = g_new(uint32_t, n + 1);
    x->def_start = g_new(uint32_t, n + 1);
    x->addr_reg = g_new(uint32_t, n ? n : 1);
    x->has_addr = g_new0(bool, n ? n : 1);
    x->seed = g_new0(uint8_t, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) {
        const Insn *in = func_insn(f, i);
        cfg_insn_regs(f, in, &uses, &defs);
        const OpRuleRow *rule = rule_of(in);
        x->use_start[i] = u->len;
        x->def_start[i] = d->len;
        for (uint32_t k = 0; k < uses.n; k++)
            if (use_matters(in, rule, uses.v[k]))
                g_array_append_val(u, uses.v[k]);
        g_array_append_vals(d, defs.v, defs.n);
        const Operand *a = memory_operand(in);
        x->has_addr[i] = a != NULL;
        x->addr_reg[i] = a ? a->reg : NO_INDEX;
        x->seed[i] = (uint8_t)insn_seed(m, in, rule);
    }
    x->use_start[n] = u->len;
    x->def_start[n] = d->len;
    x->uses = (uint32_t *)g_array_free(u, FALSE);
    x->defs = (uint32_t *)g_array_free(d, FALSE);
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
}

static bool ends_in_conditional_branch(const Ctx *x, uint32_t b)
{
    const Insn *last = func_insn(x->f, x->c->blocks[b].last);
    return last->op == OP_BRA && last->guard != NO_INDEX;
}

/* For each block ending in a guarded bra with a join: the registers written
 * in its influence region that are live at the join. */
static void compute_gates(Ctx *x)
{
    const Cfg *c = x->c;
    uint32_t nb = c->nblocks, w = x->w;
    uint64_t *written = g_new0(uint64_t, (size_t)MAX(nb, 1u) * w);
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
            for (uint32_t k = x->def_start[i]; k < x->def_start[i + 1]; k++)
                cfg_reg_add(row(written, w, b), x->defs[k]);
    x->gates = g_new0(uint64_t, (size_t)MAX(nb, 1u) * w);
    bool *seen = g_new(bool, MAX(nb, 1u));
    uint32_t *stack = g_new(uint32_t, MAX(nb, 1u));
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t join = c->blocks[b].ipdom;
        if (!ends_in_conditional_branch(x, b) || join == CFG_EXIT)
            continue;
        memset(seen, 0, nb * sizeof(bool));
        uint32_t sp = 0;
        for (uint8_t k = 0; k < c->blocks[b].nsucc; k++) {
            uint32_t s = c->blocks[b].succ[k];
            if (s != CFG_EXIT && s != join && !seen[s]) {
                seen[s] = true;
                stack[sp++] = s;
            }
        }
        uint64_t *g = row(x->gates, w, b);
        while (sp) {
            uint32_t v = stack[--sp];
            const uint64_t *wr = row(written, w, v);
            for (uint32_t k = 0; k < w; k++)
                g[k] |= wr[k];
            for (uint8_t k = 0; k < c->blocks[v].nsucc; k++) {
                uint32_t s = c->blocks[v].succ[k];
                if (s != CFG_EXIT && s != join && !seen[s]) {
                    seen[s] = true;
                    stack[sp++] = s;
                }
            }
        }
        for (uint32_t k = 0; k < w; k++)
            g[k] &= c->live_in[(size_t)join * w + k];
    }
    g_free(stack);
    g_free(seen);
    g_free(written);
}

/* ---------------------------------------------------------- transfer */

static void record(Ctx *x, uint32_t reg, DivReason why, uint32_t insn, uint32_t from)
{
    if (x->out && reg < x->out->nregs && x->out->reg[reg].why == DIV_WHY_NONE)
        x->out->reg[reg] = (DivCause){why, insn, from};
}

/* One instruction on state S; returns whether it is a divergent branch. */
static bool step(Ctx *x, uint32_t i, uint64_t *S)
{
    const Insn *in = func_insn(x->f, i);
    DivReason why = (DivReason)x->seed[i];
    uint32_t from = NO_INDEX;
    bool guard_div = in->guard != NO_INDEX && cfg_reg_in(S, in->guard);
    if (why == DIV_WHY_NONE) {
        for (uint32_t k = x->use_start[i]; k < x->use_start[i + 1]; k++) {
            uint32_t r = x->uses[k];
            if (r == in->guard || !cfg_reg_in(S, r))
                continue;
            why = r == x->addr_reg[i] ? DIV_WHY_ADDRESS : DIV_WHY_DATA;
            from = r;
            if (why == DIV_WHY_ADDRESS)
                break;
        }
    }
    if (why == DIV_WHY_NONE && guard_div) {
        why = DIV_WHY_GUARD;
        from = in->guard;
    }
    if (x->out) {
        uint8_t *fl = &x->out->insn_flags[i];
        if (x->has_addr[i] && (x->addr_reg[i] == NO_INDEX || !cfg_reg_in(S, x->addr_reg[i])))
            *fl |= DIV_INSN_ADDRESS_UNIFORM;
        if (why != DIV_WHY_NONE && x->def_start[i + 1] > x->def_start[i])
            *fl |= DIV_INSN_RESULT_DIVERGENT;
        if (in->op == OP_BRA && guard_div)
            *fl |= DIV_INSN_BRANCH_DIVERGENT;
    }
    for (uint32_t k = x->def_start[i]; k < x->def_start[i + 1]; k++) {
        uint32_t r = x->defs[k];
        if (why != DIV_WHY_NONE) {
            cfg_reg_add(S, r);
            record(x, r, why, i, from);
            if (x->out && r < x->out->nregs)
                x->out->reg_flags[r] |= DIV_REG_WRITTEN_DIVERGENT;
        } else if (in->guard == NO_INDEX) {
            cfg_reg_remove(S, r);
        }
    }
    return in->op == OP_BRA && guard_div;
}

static bool merge_into(uint64_t *dst, const uint64_t *src, uint32_t w)
{
    bool changed = false;
    for (uint32_t k = 0; k < w; k++) {
        uint64_t v = dst[k] | src[k];
        changed |= v != dst[k];
        dst[k] = v;
    }
    return changed;
}

/* Runs block b from its entry state; propagates to the successors and, for
 * a divergent branch, the gated registers to its join.  Returns whether
 * some successor's entry state grew. */
static bool run_block(Ctx *x, uint32_t b, uint64_t *S)
{
    const Cfg *c = x->c;
    const BasicBlock *bb = &c->blocks[b];
    uint32_t w = x->w;
    memcpy(S, row(x->in, w, b), w * sizeof(uint64_t));
    bool divergent_branch = false;
    for (uint32_t i = bb->first; i <= bb->last; i++)
        divergent_branch = step(x, i, S);
    bool changed = false;
    for (uint8_t k = 0; k < bb->nsucc; k++)
        if (bb->succ[k] != CFG_EXIT)
            changed |= merge_into(row(x->in, w, bb->succ[k]), S, w);
    if (divergent_branch && bb->ipdom != CFG_EXIT) {
        const uint64_t *g = row(x->gates, w, b);
        changed |= merge_into(row(x->in, w, bb->ipdom), g, w);
        if (x->out) {
            uint32_t join_pc = c->blocks[bb->ipdom].first;
            for (uint32_t r = 0; r < x->out->nregs; r++)
                if (cfg_reg_in(g, r))
                    record(x, r, DIV_WHY_SYNC, join_pc, bb->last);
        }
    }
    return changed;
}

/* ---------------------------------------------------------- public API */

Divergence *divergence_analyze(const Module *m, uint32_t func, GError **error)
{
    if (!m || func >= m->funcs->len) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "divergence: no function %u", func);
        return NULL;
    }
    const Function *f = module_func(m, func);
    if (!f->is_defined || !f->cfg || f->cfg->ninsns != func_ninsns(f)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s:%u: error: function %s has no body or no control-flow graph to analyse",
                    m->path ? m->path : "<ptx>", f->line, f->name);
        return NULL;
    }
    Ctx x = {.f = f, .c = f->cfg, .w = f->cfg->words};
    uint32_t nb = x.c->nblocks, w = x.w, n = func_ninsns(f);
    collect_regs(&x, m);
    compute_gates(&x);
    x.in = g_new0(uint64_t, (size_t)MAX(nb, 1u) * w);
    if (nb) /* at entry: .func parameters and registers read before any write */
        memcpy(x.in, x.c->live_in, w * sizeof(uint64_t));
    uint64_t *S = g_new(uint64_t, w);
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = 0; b < nb; b++)
            changed |= run_block(&x, b, S);
    }

    /* the fixed point reached: one more pass records flags and causes */
    Divergence *d = g_new0(Divergence, 1);
    d->func = func;
    d->nregs = f->regs->len;
    d->ninsns = n;
    d->reg = g_new0(DivCause, MAX(d->nregs, 1u));
    d->reg_flags = g_new0(uint8_t, MAX(d->nregs, 1u));
    d->insn_flags = g_new0(uint8_t, MAX(n, 1u));
    x.out = d;
    for (uint32_t r = 0; nb && r < d->nregs; r++)
        if (cfg_reg_in(x.c->live_in, r))
            record(&x, r, DIV_WHY_ENTRY, NO_INDEX, NO_INDEX);
    for (uint32_t b = 0; b < nb; b++) {
        run_block(&x, b, S);
        if (x.c->blocks[b].flags & BB_REACHABLE)
            for (uint32_t i = x.c->blocks[b].first; i <= x.c->blocks[b].last; i++)
                d->insn_flags[i] |= DIV_INSN_REACHABLE;
    }

    g_free(S);
    g_free(x.in);
    g_free(x.gates);
    g_free(x.use_start);
    g_free(x.uses);
    g_free(x.def_start);
    g_free(x.defs);
    g_free(x.addr_reg);
    g_free(x.has_addr);
    g_free(x.seed);
    return d;
}

void divergence_free(Divergence *d)
{
    if (!d)
        return;
    g_free(d->reg);
    g_free(d->reg_flags);
    g_free(d->insn_flags);
    g_free(d);
}
