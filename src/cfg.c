/* cfg.c — basic blocks, post-dominators, reconvergence points and register
 * liveness of a decoded Function (contract in cfg.h).
 *
 * Post-dominators: Cooper-Harvey-Kennedy ("A Simple, Fast Dominance
 * Algorithm") run on the reverse CFG with the virtual exit as root.
 * Liveness: backward dataflow over blocks on 64-bit-word bitsets, then one
 * backward walk per block to find the peak number of live 32-bit units.
 * Storage slots: greedy colouring of the registers' interference graph.
 */
#include "cfg.h"

#include <string.h>

#include "errors.h"

/* ---------------------------------------------------------------- helpers */

static const char *module_path(const Module *m)
{
    return (m && m->path) ? m->path : "<ptx>";
}

static bool is_control_transfer(uint16_t op)
{
    return op == OP_BRA || op == OP_RET || op == OP_EXIT || op == OP_TRAP;
}

static guint func_ncalls(const Function *f)
{
    return f->calls ? f->calls->len : 0;
}

/* 32-bit register-file units a register of this type occupies. */
static uint32_t reg_weight(const Function *f, uint32_t reg)
{
    PtxType t = g_array_index(f->regs, RegInfo, reg).type;
    if (isa_type_class(t) == TC_PRED)
        return 0;
    uint32_t units = (isa_type_size(t) + 3) / 4;
    return units ? units : 1;
}

/* Bit i set when operand position i of the op's shape is a destination 'd'. */
static uint32_t dest_mask(uint16_t op)
{
    const char *s = isa_ops[op].shape;
    uint32_t mask = 0, pos = 0;
    if (!s || strcmp(s, "call") == 0)
        return 0;
    for (const char *p = s; *p; p++) {
        if (*p == ',')
            pos++;
        else if (*p == 'd' && (p == s || p[-1] == ','))
            mask |= 1u << pos;
    }
    return mask;
}

static void reglist_push(CfgRegList *l, uint32_t reg)
{
    if (reg == NO_INDEX)
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = g_renew(uint32_t, l->v, l->cap);
    }
    l->v[l->n++] = reg;
}

/* Registers an operand names: as destination, everything except an address
 * base (which is always read); as source, all of them. */
static void operand_regs(const Operand *o, bool is_dest, CfgRegList *uses, CfgRegList *defs)
{
    CfgRegList *target = is_dest ? defs : uses;
    switch (o->kind) {
    case OPD_REG:
        reglist_push(target, o->reg);
        break;
    case OPD_PAIR:
        reglist_push(target, o->reg);
        reglist_push(target, o->reg2);
        break;
    case OPD_VEC:
        for (uint32_t k = 0; k < o->vec_count && k < VEC_MAX; k++)
            reglist_push(target, o->vec_regs[k]);
        break;
    case OPD_ADDR:
        reglist_push(uses, o->reg);
        break;
    default:
        break;
    }
}

/* Uses and definitions of one instruction; bit i of dests marks operand i
 * a destination (dest_mask of its op).  For ST and RED the shape has no
 * 'd', so everything is a use; for call the CallSite carries the registers. */
static void insn_regs(const Function *f, const Insn *in, uint32_t dests, CfgRegList *uses, CfgRegList *defs)
{
    uses->n = defs->n = 0;
    if (in->guard != NO_INDEX)
        reglist_push(uses, in->guard);
    if (in->op == OP_CALL) {
        if (in->call >= func_ncalls(f))
            return;
        const CallSite *cs = &g_array_index(f->calls, CallSite, in->call);
        if (cs->callee == NO_INDEX)
            reglist_push(uses, cs->callee_reg);
        for (uint32_t i = 0; cs->arg_opds && i < cs->nargs; i++)
            operand_regs(&cs->arg_opds[i], false, uses, defs);
        for (uint32_t i = 0; cs->ret_opds && i < cs->nrets; i++)
            operand_regs(&cs->ret_opds[i], true, uses, defs);
        return;
    }
    for (uint32_t i = 0; i < in->nopd && i < INSN_MAX_OPERANDS; i++)
        operand_regs(&in->opd[i], ((dests >> i) & 1) || (i == 0 && insn_writes_first_operand_late(in)), uses,
                     defs);
}

void cfg_insn_regs(const Function *f, const Insn *in, CfgRegList *uses, CfgRegList *defs)
{
    insn_regs(f, in, in->op < OP_COUNT ? dest_mask(in->op) : 0, uses, defs);
}

/* Steps `live` (n registers) from after instruction `in` to before it:
 * what it reads, and what was live after it unless it surely replaces it
 * (an unguarded write). */
static void live_before(uint64_t *live, const Insn *in, const CfgRegList *uses, const CfgRegList *defs, uint32_t n)
{
    for (uint32_t j = 0; in->guard == NO_INDEX && j < defs->n; j++)
        if (defs->v[j] < n)
            cfg_reg_remove(live, defs->v[j]);
    for (uint32_t j = 0; j < uses->n; j++)
        if (uses->v[j] < n)
            cfg_reg_add(live, uses->v[j]);
}

void cfg_walk_live_after(const Function *f, CfgLiveAfterFn visit, void *user)
{
    const Cfg *c = f->cfg;
    if (!c)
        return;
    uint64_t *live = g_new(uint64_t, MAX(c->words, 1u));
    CfgRegList uses = {0}, defs = {0};
    for (uint32_t b = 0; b < c->nblocks; b++) {
        const BasicBlock *bb = &c->blocks[b];
        memcpy(live, c->live_out + (size_t)b * c->words, c->words * sizeof *live);
        /* what is live before an instruction is live after the one above */
        for (uint32_t i = bb->last + 1; i-- > bb->first;) {
            visit(i, live, user);
            const Insn *in = func_insn(f, i);
            cfg_insn_regs(f, in, &uses, &defs);
            live_before(live, in, &uses, &defs, c->nregs);
        }
    }
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
    g_free(live);
}

typedef struct {
    uint32_t pc, reg;
    bool live;
} LiveQuery;

static void answer_query(uint32_t pc, const uint64_t *live, void *user)
{
    LiveQuery *q = user;
    if (pc == q->pc)
        q->live = cfg_reg_in(live, q->reg);
}

bool cfg_reg_live_after(const Function *f, uint32_t pc, uint32_t reg)
{
    const Cfg *c = f->cfg;
    if (!c || pc >= c->ninsns || reg >= c->nregs)
        return true;
    LiveQuery q = {pc, reg, true};
    cfg_walk_live_after(f, answer_query, &q);
    return q.live;
}

uint32_t cfg_block_line(const Function *f, const BasicBlock *bb)
{
    uint32_t line = 0;
    for (uint32_t i = bb->first; i <= bb->last && i < func_ninsns(f); i++)
        if (!line || func_insn(f, i)->line < line)
            line = func_insn(f, i)->line;
    return line;
}

void cfg_reglist_clear(CfgRegList *l)
{
    g_free(l->v);
    *l = (CfgRegList){0};
}

/* ------------------------------------------------------------ validation */

static bool check_reg(const Module *m, const Function *f, const Insn *in, uint32_t reg,
                      GError **error)
{
    if (reg == NO_INDEX || reg < f->regs->len)
        return true;
    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                "%s:%u:%u: error: register index %u out of range in function %s",
                module_path(m), in->line, in->col, reg, f->name);
    return false;
}

/* Every register and branch target an analysis will index is in range. */
static bool validate_function(const Module *m, const Function *f, const uint32_t *dmask,
                              GError **error)
{
    uint32_t n = func_ninsns(f);
    CfgRegList uses = {0}, defs = {0};
    bool ok = true;
    for (uint32_t i = 0; ok && i < n; i++) {
        const Insn *in = func_insn(f, i);
        if (in->op >= OP_COUNT) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "%s:%u:%u: error: invalid opcode %u", module_path(m),
                        in->line, in->col, in->op);
            ok = false;
            break;
        }
        if (in->op == OP_BRA) {
            const Operand *t = in->nopd ? &in->opd[0] : NULL;
            if (!t || t->kind != OPD_LABEL || t->imm < 0 || (uint64_t)t->imm > n) {
                g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                            "%s:%u:%u: error: bra without a valid target label",
                            module_path(m), in->line, in->col);
                ok = false;
                break;
            }
        }
        if (in->op == OP_CALL && in->call >= func_ncalls(f)) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "%s:%u:%u: error: call without a call site", module_path(m),
                        in->line, in->col);
            ok = false;
            break;
        }
        insn_regs(f, in, dmask[in->op], &uses, &defs);
        for (uint32_t k = 0; ok && k < uses.n; k++)
            ok = check_reg(m, f, in, uses.v[k], error);
        for (uint32_t k = 0; ok && k < defs.n; k++)
            ok = check_reg(m, f, in, defs.v[k], error);
    }
    g_free(uses.v);
    g_free(defs.v);
    return ok;
}

/* --------------------------------------------------------- basic blocks */

static uint32_t branch_target(const Insn *in)
{
    return (uint32_t)in->opd[0].imm;
}

static void form_blocks(const Function *f, Cfg *c)
{
    uint32_t n = func_ninsns(f);
    bool *leader = g_new0(bool, n + 1);
    if (n)
        leader[0] = true;
    for (uint32_t i = 0; i < n; i++) {
        const Insn *in = func_insn(f, i);
        if (in->op == OP_BRA)
            leader[branch_target(in)] = true;
        if (is_control_transfer(in->op))
            leader[i + 1] = true;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    c->nblocks = nb;
    c->blocks = g_new0(BasicBlock, nb ? nb : 1);
    c->block_of = g_new(uint32_t, n ? n : 1);
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i] && i > 0)
            b++;
        if (leader[i]) {
            c->blocks[b].first = i;
            const char *name = func_label_at(f, i);
            c->blocks[b].label = name ? g_strdup(name) : NULL;
        }
        c->blocks[b].last = i;
        c->block_of[i] = b;
    }
    g_free(leader);

    /* successors */
    for (b = 0; b < nb; b++) {
        BasicBlock *bb = &c->blocks[b];
        const Insn *last = func_insn(f, bb->last);
        uint32_t fall = bb->last + 1 < n ? c->block_of[bb->last + 1] : CFG_EXIT;
        uint32_t s[2];
        uint8_t ns = 0;
        bool guarded = last->guard != NO_INDEX;
        if (last->op == OP_BRA) {
            uint32_t t = branch_target(last);
            s[ns++] = t < n ? c->block_of[t] : CFG_EXIT;
            if (guarded)
                s[ns++] = fall;
        } else if (is_control_transfer(last->op)) {
            s[ns++] = CFG_EXIT;
            if (guarded)
                s[ns++] = fall;
        } else {
            s[ns++] = fall;
        }
        if (ns == 2 && s[0] == s[1])
            ns = 1;
        bb->nsucc = ns;
        bb->succ[0] = s[0];
        bb->succ[1] = ns == 2 ? s[1] : CFG_EXIT;
        bb->ipdom = CFG_EXIT;
    }

    /* reachability from the entry */
    if (nb) {
        uint32_t *stack = g_new(uint32_t, nb);
        uint32_t sp = 0;
        c->blocks[0].flags |= BB_REACHABLE;
        stack[sp++] = 0;
        while (sp) {
            BasicBlock *bb = &c->blocks[stack[--sp]];
            for (uint8_t k = 0; k < bb->nsucc; k++) {
                uint32_t s = bb->succ[k];
                if (s != CFG_EXIT && !(c->blocks[s].flags & BB_REACHABLE)) {
                    c->blocks[s].flags |= BB_REACHABLE;
                    stack[sp++] = s;
                }
            }
        }
        g_free(stack);
    }
}

/* ------------------------------------------------------ post-dominators */

/* Forward predecessors in compressed form: preds of node v (0..nb, nb being
 * the exit) are pred[start[v] .. start[v+1]). */
typedef struct {
    uint32_t *start, *pred;
} PredLists;

static void build_preds(const Cfg *c, PredLists *pl)
{
    uint32_t nb = c->nblocks, exit_node = nb;
    pl->start = g_new0(uint32_t, nb + 2);
    uint32_t total = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const BasicBlock *bb = &c->blocks[b];
        for (uint8_t k = 0; k < bb->nsucc; k++)
            pl->start[(bb->succ[k] == CFG_EXIT ? exit_node : bb->succ[k]) + 1]++;
        if (bb->flags & BB_EXIT_LINK)
            pl->start[exit_node + 1]++;
    }
    for (uint32_t v = 0; v <= nb; v++) {
        total += pl->start[v + 1];
        pl->start[v + 1] = total;
    }
    pl->pred = g_new(uint32_t, total ? total : 1);
    uint32_t *fill = g_memdup2(pl->start, sizeof(uint32_t) * (nb + 1));
    for (uint32_t b = 0; b < nb; b++) {
        const BasicBlock *bb = &c->blocks[b];
        for (uint8_t k = 0; k < bb->nsucc; k++) {
            uint32_t s = bb->succ[k] == CFG_EXIT ? exit_node : bb->succ[k];
            pl->pred[fill[s]++] = b;
        }
        if (bb->flags & BB_EXIT_LINK)
            pl->pred[fill[exit_node]++] = b;
    }
    g_free(fill);
}

static void free_preds(PredLists *pl)
{
    g_free(pl->start);
    g_free(pl->pred);
}

/* Mark every node that reaches `from` by walking predecessors. */
static void mark_reaching(const PredLists *pl, uint32_t from, bool *reaches, uint32_t *stack)
{
    uint32_t sp = 0;
    reaches[from] = true;
    stack[sp++] = from;
    while (sp) {
        uint32_t v = stack[--sp];
        for (uint32_t k = pl->start[v]; k < pl->start[v + 1]; k++) {
            uint32_t p = pl->pred[k];
            if (!reaches[p]) {
                reaches[p] = true;
                stack[sp++] = p;
            }
        }
    }
}

/* Give each region with no path to the exit an artificial exit edge from its
 * highest-numbered block, until every block reaches the exit.  The links
 * only add predecessors to the exit node, which no backward walk from a
 * block visits, so one predecessor list serves every walk. */
static void link_dead_ends(Cfg *c)
{
    uint32_t nb = c->nblocks, nn = nb + 1;
    PredLists pl;
    build_preds(c, &pl);
    bool *reaches = g_new0(bool, nn);
    uint32_t *stack = g_new(uint32_t, nn);
    mark_reaching(&pl, nb, reaches, stack);
    for (uint32_t b = nb; b-- > 0;) {
        if (reaches[b])
            continue;
        c->blocks[b].flags |= BB_EXIT_LINK;
        mark_reaching(&pl, b, reaches, stack);
    }
    g_free(stack);
    g_free(reaches);
    free_preds(&pl);
}

static uint32_t intersect(uint32_t a, uint32_t b, const uint32_t *idom, const uint32_t *po)
{
    while (a != b) {
        while (po[a] < po[b])
            a = idom[a];
        while (po[b] < po[a])
            b = idom[b];
    }
    return a;
}

/* Immediate post-dominators by Cooper-Harvey-Kennedy on the reverse CFG. */
static void compute_ipdoms(Cfg *c)
{
    uint32_t nb = c->nblocks, exit_node = nb, nn = nb + 1;
    if (!nb)
        return;
    link_dead_ends(c);
    PredLists pl;
    build_preds(c, &pl);

    /* postorder of the reverse graph from the exit (its edges: forward preds) */
    uint32_t *po = g_new(uint32_t, nn);   /* node -> postorder number */
    uint32_t *order = g_new(uint32_t, nn);/* postorder number -> node */
    uint32_t *stack = g_new(uint32_t, nn), *next = g_new(uint32_t, nn);
    bool *seen = g_new0(bool, nn);
    uint32_t sp = 0, count = 0;
    stack[sp++] = exit_node;
    seen[exit_node] = true;
    next[exit_node] = pl.start[exit_node];
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (next[v] < pl.start[v + 1]) {
            uint32_t p = pl.pred[next[v]++];
            if (!seen[p]) {
                seen[p] = true;
                next[p] = pl.start[p];
                stack[sp++] = p;
            }
        } else {
            sp--;
            po[v] = count;
            order[count++] = v;
        }
    }

    uint32_t *idom = g_new(uint32_t, nn);
    for (uint32_t v = 0; v < nn; v++)
        idom[v] = NO_INDEX;
    idom[exit_node] = exit_node;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = count - 1; i-- > 0;) { /* reverse postorder, root skipped */
            uint32_t v = order[i];
            const BasicBlock *bb = &c->blocks[v];
            uint32_t cand[3], nc = 0;
            for (uint8_t k = 0; k < bb->nsucc; k++)
                cand[nc++] = bb->succ[k] == CFG_EXIT ? exit_node : bb->succ[k];
            if (bb->flags & BB_EXIT_LINK)
                cand[nc++] = exit_node;
            uint32_t new_idom = NO_INDEX;
            for (uint32_t k = 0; k < nc; k++) {
                if (idom[cand[k]] == NO_INDEX)
                    continue;
                new_idom = new_idom == NO_INDEX ? cand[k]
                                                : intersect(cand[k], new_idom, idom, po);
            }
            if (new_idom != idom[v]) {
                idom[v] = new_idom;
                changed = true;
            }
        }
    }
    for (uint32_t b = 0; b < nb; b++)
        c->blocks[b].ipdom = (idom[b] == exit_node || idom[b] == NO_INDEX) ? CFG_EXIT : idom[b];

    g_free(idom);
    g_free(seen);
    g_free(next);
    g_free(stack);
    g_free(order);
    g_free(po);
    free_preds(&pl);
}

static void compute_reconv(const Function *f, Cfg *c)
{
    uint32_t n = func_ninsns(f);
    c->reconv_pc = g_new(uint32_t, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
        c->reconv_pc[i] = NO_INDEX;
    c->stack_entries = 1;
    for (uint32_t i = 0; i < n; i++)
        if (func_insn(f, i)->op == OP_BRA && func_insn(f, i)->guard != NO_INDEX)
            c->stack_entries += 2;
    for (uint32_t b = 0; b < c->nblocks; b++) {
        const BasicBlock *bb = &c->blocks[b];
        if (!is_control_transfer(func_insn(f, bb->last)->op))
            continue;
        c->reconv_pc[bb->last] = bb->ipdom == CFG_EXIT ? n : c->blocks[bb->ipdom].first;
    }
}

/* -------------------------------------------------------------- liveness */

static void compute_liveness(const Function *f, const uint32_t *dmask, Cfg *c)
{
    uint32_t nb = c->nblocks, w = c->words;
    size_t total = (size_t)(nb ? nb : 1) * w;
    uint64_t *gen = g_new0(uint64_t, total), *kill = g_new0(uint64_t, total);
    c->live_in = g_new0(uint64_t, total);
    c->live_out = g_new0(uint64_t, total);
    CfgRegList uses = {0}, defs = {0};

    /* gen: read before any unguarded write in the block; kill: unguarded writes */
    for (uint32_t b = 0; b < nb; b++) {
        uint64_t *g = gen + (size_t)b * w, *k = kill + (size_t)b * w;
        for (uint32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
            const Insn *in = func_insn(f, i);
            insn_regs(f, in, dmask[in->op], &uses, &defs);
            for (uint32_t j = 0; j < uses.n; j++)
                if (!cfg_reg_in(k, uses.v[j]))
                    cfg_reg_add(g, uses.v[j]);
            if (in->guard == NO_INDEX)
                for (uint32_t j = 0; j < defs.n; j++)
                    cfg_reg_add(k, defs.v[j]);
        }
    }

    /* iterate to the fixed point; reverse program order converges fast */
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = nb; b-- > 0;) {
            const BasicBlock *bb = &c->blocks[b];
            uint64_t *out = c->live_out + (size_t)b * w, *in = c->live_in + (size_t)b * w;
            const uint64_t *g = gen + (size_t)b * w, *k = kill + (size_t)b * w;
            for (uint32_t x = 0; x < w; x++) {
                uint64_t o = 0;
                for (uint8_t s = 0; s < bb->nsucc; s++)
                    if (bb->succ[s] != CFG_EXIT)
                        o |= c->live_in[(size_t)bb->succ[s] * w + x];
                uint64_t i2 = g[x] | (o & ~k[x]);
                if (o != out[x] || i2 != in[x])
                    changed = true;
                out[x] = o;
                in[x] = i2;
            }
        }
    }

    /* peak pressure: walk each block backward from its live-out set.  At an
     * instruction the registers in use are those live after it plus its
     * destinations (a dead result still needs a register), and those live
     * before it. */
    uint64_t *live = g_new(uint64_t, w);
    bool *temp = NULL;
    c->max_live_regs = 0;
    for (uint32_t b = 0; b < nb; b++) {
        BasicBlock *bb = &c->blocks[b];
        memcpy(live, c->live_out + (size_t)b * w, w * sizeof(uint64_t));
        uint32_t count = 0, peak;
        for (uint32_t r = 0; r < c->nregs; r++)
            if (cfg_reg_in(live, r))
                count += reg_weight(f, r);
        peak = count;
        for (uint32_t i = bb->last + 1; i-- > bb->first;) {
            const Insn *in = func_insn(f, i);
            insn_regs(f, in, dmask[in->op], &uses, &defs);
            temp = g_renew(bool, temp, defs.n ? defs.n : 1);
            for (uint32_t j = 0; j < defs.n; j++) {
                temp[j] = !cfg_reg_in(live, defs.v[j]);
                if (temp[j]) {
                    cfg_reg_add(live, defs.v[j]);
                    count += reg_weight(f, defs.v[j]);
                }
            }
            peak = MAX(peak, count);
            for (uint32_t j = 0; j < defs.n; j++) {
                uint32_t r = defs.v[j];
                if ((in->guard == NO_INDEX || temp[j]) && cfg_reg_in(live, r)) {
                    cfg_reg_remove(live, r);
                    count -= reg_weight(f, r);
                }
            }
            for (uint32_t j = 0; j < uses.n; j++) {
                uint32_t r = uses.v[j];
                if (!cfg_reg_in(live, r)) {
                    cfg_reg_add(live, r);
                    count += reg_weight(f, r);
                }
            }
            peak = MAX(peak, count);
        }
        bb->max_live = peak;
        /* unreachable code is never allocated registers */
        if (bb->flags & BB_REACHABLE)
            c->max_live_regs = MAX(c->max_live_regs, peak);
    }
    g_free(temp);
    g_free(live);
    g_free(uses.v);
    g_free(defs.v);
    g_free(gen);
    g_free(kill);
}

/* ------------------------------------------------------- storage slots */

#define CFG_LIVENESS_MAX_BYTES (256ull << 20)

/* Above this many registers the interference matrix (nregs^2 bits) is not
 * worth it: pack_slots_sparse keeps the interference as pairs instead. */
#define PACK_MAX_REGS 8192

/* Registers the executor reads or writes outside instructions (the .reg
 * parameters and return values of a .func, copied at call and return):
 * liveness does not see those accesses, so they keep rows of their own. */
static void mark_pinned(const Module *m, const Function *f, uint64_t *pinned)
{
    const GArray *lists[] = {f->params, f->rets};
    for (size_t k = 0; k < G_N_ELEMENTS(lists); k++)
        for (guint i = 0; lists[k] && i < lists[k]->len; i++) {
            const Variable *v = module_var(m, g_array_index(lists[k], uint32_t, i));
            if (v->space == SPACE_REG && v->offset < f->regs->len)
                cfg_reg_add(pinned, (uint32_t)v->offset);
        }
}

/* The registers the executor copies (mark_pinned, into `pinned`) get the
 * first rows, one each; allocates c->slot_of and returns the first row the
 * others may share. */
static uint32_t slots_pin_first(const Module *m, const Function *f, Cfg *c, uint64_t *pinned)
{
    mark_pinned(m, f, pinned);
    c->slot_of = g_new(uint32_t, MAX(c->nregs, 1u));
    uint32_t next = 0;
    for (uint32_t r = 0; r < c->nregs; r++)
        if (cfg_reg_in(pinned, r))
            c->slot_of[r] = next++;
    return next;
}

/* Without packing: a row for each register an instruction or a call names
 * (or the executor copies, mark_pinned), in order, and one more that all
 * the others share: nothing writes them, so it stays zero.  A function
 * declaring `%f<50000>` and using a few costs a few rows, not 50000 for
 * each of the timing model's resident warps. */
static void slots_referenced(const Module *m, const Function *f, const uint32_t *dmask, Cfg *c)
{
    uint64_t *named = g_new0(uint64_t, c->words);
    mark_pinned(m, f, named);
    CfgRegList uses = {0}, defs = {0};
    for (uint32_t i = 0; i < c->ninsns; i++) {
        const Insn *in = func_insn(f, i);
        insn_regs(f, in, dmask[in->op], &uses, &defs);
        for (uint32_t j = 0; j < uses.n; j++)
            if (uses.v[j] < c->nregs)
                cfg_reg_add(named, uses.v[j]);
        for (uint32_t j = 0; j < defs.n; j++)
            if (defs.v[j] < c->nregs)
                cfg_reg_add(named, defs.v[j]);
    }
    c->slot_of = g_new(uint32_t, MAX(c->nregs, 1u));
    uint32_t next = 0;
    for (uint32_t r = 0; r < c->nregs; r++)
        if (cfg_reg_in(named, r))
            c->slot_of[r] = next++;
    for (uint32_t r = 0; r < c->nregs; r++)
        if (!cfg_reg_in(named, r))
            c->slot_of[r] = next;
    c->nslots = next + (next < c->nregs || !c->nregs);
    g_free(named);
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
}

/* pack_slots' interference for functions above PACK_MAX_REGS, as sorted
 * adjacency lists (pairs) instead of a matrix: a chain of 60000 adds with
 * 4 registers live needs 4 rows, not one per register.  Gives up (false)
 * past PACK_MAX_EDGES pairs. */
#define PACK_MAX_EDGES ((size_t)1 << 25)

static int compare_u64_pairs(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool pack_slots_sparse(const Module *m, const Function *f, const uint32_t *dmask, Cfg *c)
{
    uint32_t n = c->nregs, w = c->words;
    GArray *pairs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    uint64_t *live = g_new(uint64_t, w);
    CfgRegList uses = {0}, defs = {0};
    bool fits = true;
#define ADD_PAIR(d, x)                                                                                                 \
    do {                                                                                                               \
        uint64_t e1 = (uint64_t)(d) << 32 | (x), e2 = (uint64_t)(x) << 32 | (d);                                        \
        g_array_append_val(pairs, e1);                                                                                 \
        g_array_append_val(pairs, e2);                                                                                 \
    } while (0)
    for (uint32_t b = 0; b < c->nblocks && fits; b++) {
        const BasicBlock *bb = &c->blocks[b];
        memcpy(live, c->live_out + (size_t)b * w, w * sizeof(uint64_t));
        for (uint32_t i = bb->last + 1; i-- > bb->first && fits;) {
            const Insn *in = func_insn(f, i);
            insn_regs(f, in, dmask[in->op], &uses, &defs);
            for (uint32_t j = 0; j < defs.n; j++) {
                uint32_t d = defs.v[j];
                if (d >= n)
                    continue;
                for (uint32_t x = 0; x < w; x++)
                    for (uint64_t bits = live[x]; bits; bits &= bits - 1)
                        ADD_PAIR(d, x * 64 + (uint32_t)__builtin_ctzll(bits));
                for (uint32_t k = 0; k < uses.n; k++)
                    if (uses.v[k] < n)
                        ADD_PAIR(d, uses.v[k]);
                for (uint32_t k = 0; k < defs.n; k++)
                    if (defs.v[k] < n)
                        ADD_PAIR(d, defs.v[k]);
            }
            fits = pairs->len <= PACK_MAX_EDGES;
            live_before(live, in, &uses, &defs, n);
        }
    }
#undef ADD_PAIR
    g_free(live);
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
    if (!fits) {
        g_array_free(pairs, TRUE);
        return false;
    }
    if (pairs->len > 1)
        qsort(pairs->data, pairs->len, sizeof(uint64_t), compare_u64_pairs);
    /* adjacency: first[r] .. first[r + 1] in the sorted pairs */
    const uint64_t *e = (const uint64_t *)pairs->data;
    uint32_t *first = g_new0(uint32_t, (size_t)n + 1);
    for (guint k = 0; k < pairs->len; k++)
        first[(e[k] >> 32) + 1]++;
    for (uint32_t r = 0; r < n; r++)
        first[r + 1] += first[r];
    uint64_t *pinned = g_new0(uint64_t, w);
    uint32_t first_shared = slots_pin_first(m, f, c, pinned), next = first_shared;
    GArray *taken = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (uint32_t r = 0; r < n; r++) {
        if (cfg_reg_in(pinned, r))
            continue;
        g_array_set_size(taken, 0);
        for (uint32_t k = first[r]; k < first[r + 1]; k++) {
            uint32_t q = (uint32_t)e[k];
            if (q < r && !cfg_reg_in(pinned, q)) /* coloured already */
                g_array_append_val(taken, c->slot_of[q]);
        }
        if (taken->len > 1) /* (an empty GArray's data is NULL, which qsort must not get) */
            qsort(taken->data, taken->len, sizeof(uint32_t), compare_u32);
        uint32_t s = first_shared;
        for (guint k = 0; k < taken->len; k++) {
            uint32_t t = g_array_index(taken, uint32_t, k);
            if (t == s)
                s++;
            else if (t > s)
                break;
        }
        c->slot_of[r] = s;
        next = MAX(next, s + 1);
    }
    c->nslots = MAX(next, 1u);
    g_array_free(taken, TRUE);
    g_free(first);
    g_free(pinned);
    g_array_free(pairs, TRUE);
    return true;
}

/* Gives registers that are never needed at the same time one storage row.
 * Interference, per lane (each lane's row entries are private to it, and
 * writes touch active lanes only, so per-thread liveness is exact): an
 * instruction's destinations interfere with everything live after it, with
 * its own sources (a handler may read a source after writing a lane of its
 * destination, or read another lane's source) and with each other.  A
 * guarded write does not end a live range (liveness does not kill it).
 * Colouring is greedy in register order, lowest free row first. */
static void pack_slots(const Module *m, const Function *f, const uint32_t *dmask, Cfg *c)
{
    uint32_t n = c->nregs, w = c->words;
    if (n > PACK_MAX_REGS) {
        if (!pack_slots_sparse(m, f, dmask, c))
            slots_referenced(m, f, dmask, c);
        return;
    }
    if (n == 0) {
        slots_referenced(m, f, dmask, c); /* one row, never used */
        return;
    }
    uint64_t *conflict = g_new0(uint64_t, (size_t)n * w);
    uint64_t *live = g_new(uint64_t, w), *pinned = g_new0(uint64_t, w);
    CfgRegList uses = {0}, defs = {0};
    for (uint32_t b = 0; b < c->nblocks; b++) {
        const BasicBlock *bb = &c->blocks[b];
        memcpy(live, c->live_out + (size_t)b * w, w * sizeof(uint64_t));
        for (uint32_t i = bb->last + 1; i-- > bb->first;) {
            const Insn *in = func_insn(f, i);
            insn_regs(f, in, dmask[in->op], &uses, &defs);
            for (uint32_t j = 0; j < defs.n; j++) {
                uint64_t *row = conflict + (size_t)defs.v[j] * w;
                for (uint32_t x = 0; x < w; x++)
                    row[x] |= live[x];
                for (uint32_t k = 0; k < uses.n; k++)
                    cfg_reg_add(row, uses.v[k]);
                for (uint32_t k = 0; k < defs.n; k++)
                    cfg_reg_add(row, defs.v[k]);
            }
            live_before(live, in, &uses, &defs, n);
        }
    }
    /* the rows above are "d conflicts with x"; make the relation symmetric */
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t x = 0; x < w; x++)
            for (uint64_t bits = conflict[(size_t)a * w + x]; bits; bits &= bits - 1) {
                uint32_t r = x * 64 + (uint32_t)__builtin_ctzll(bits);
                cfg_reg_add(conflict + (size_t)r * w, a);
            }
    uint32_t first_shared = slots_pin_first(m, f, c, pinned), next = first_shared;
    uint64_t *taken = g_new(uint64_t, (n + 63) / 64 + 1);
    for (uint32_t r = 0; r < n; r++) {
        if (cfg_reg_in(pinned, r))
            continue;
        memset(taken, 0, ((n + 63) / 64 + 1) * sizeof(uint64_t));
        const uint64_t *row = conflict + (size_t)r * w;
        for (uint32_t x = 0; x < w; x++)
            for (uint64_t bits = row[x]; bits; bits &= bits - 1) {
                uint32_t q = x * 64 + (uint32_t)__builtin_ctzll(bits);
                if (q < r && !cfg_reg_in(pinned, q)) /* coloured already */
                    cfg_reg_add(taken, c->slot_of[q]);
            }
        uint32_t s = first_shared;
        while (cfg_reg_in(taken, s))
            s++;
        c->slot_of[r] = s;
        next = MAX(next, s + 1);
    }
    c->nslots = MAX(next, 1u);
    g_free(taken);
    g_free(conflict);
    g_free(live);
    g_free(pinned);
    g_free(uses.v);
    g_free(defs.v);
}

/* Cfg.entry_rows.  Only shfl reads lanes other than those executing it
 * (an inactive source lane's register, as exec_SHFL reads it); vote,
 * match and redux read the executing lanes' own. */
static void find_entry_rows(const Function *f, Cfg *c)
{
    bool every_row = false;
    for (uint32_t i = 0; i < c->ninsns && !every_row; i++)
        every_row = func_insn(f, i)->op == OP_SHFL;
    c->entry_rows = g_new(uint32_t, c->nslots);
    c->nentry_rows = 0;
    if (every_row) {
        for (uint32_t row = 0; row < c->nslots; row++)
            c->entry_rows[c->nentry_rows++] = row;
        return;
    }
    uint64_t *listed = g_new0(uint64_t, (c->nslots + 63) / 64);
    for (uint32_t r = 0; c->nblocks && r < c->nregs; r++) {
        uint32_t row = c->slot_of[r];
        if (cfg_live_in(c, 0, r) && !cfg_reg_in(listed, row)) {
            cfg_reg_add(listed, row);
            c->entry_rows[c->nentry_rows++] = row;
        }
    }
    g_free(listed);
}

/* ------------------------------------------------------------ public API */

static Cfg *cfg_compute(const Module *m, const Function *f, GError **error)
{
    uint32_t dmask[OP_COUNT];
    for (uint32_t op = 0; op < OP_COUNT; op++)
        dmask[op] = dest_mask((uint16_t)op);
    if (!validate_function(m, f, dmask, error))
        return NULL;
    Cfg *c = g_new0(Cfg, 1);
    c->ninsns = func_ninsns(f);
    c->nregs = f->regs->len;
    c->words = (c->nregs + 63) / 64;
    if (!c->words)
        c->words = 1;
    form_blocks(f, c);
    /* liveness keeps four bitsets of every register per block: refuse
     * what no compiler emits rather than exhaust the host's memory */
    if ((uint64_t)MAX(c->nblocks, 1u) * c->words * sizeof(uint64_t) * 4 > CFG_LIVENESS_MAX_BYTES) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_UNSUPPORTED,
                    "%s:%u: error: function %s has %u basic blocks and %u registers: liveness analysis would "
                    "need more than %u MiB (declare fewer registers; nvcc's PTX stays far below)",
                    module_path(m), f->line, f->name, c->nblocks, c->nregs,
                    (unsigned)(CFG_LIVENESS_MAX_BYTES >> 20));
        cfg_free(c);
        return NULL;
    }
    compute_ipdoms(c);
    compute_reconv(f, c);
    compute_liveness(f, dmask, c);
    pack_slots(m, f, dmask, c);
    find_entry_rows(f, c);
    return c;
}

void cfg_free(Cfg *c)
{
    if (!c)
        return;
    for (uint32_t b = 0; b < c->nblocks; b++)
        g_free(c->blocks[b].label);
    g_free(c->blocks);
    g_free(c->block_of);
    g_free(c->reconv_pc);
    g_free(c->live_in);
    g_free(c->live_out);
    g_free(c->slot_of);
    g_free(c->entry_rows);
    g_free(c);
}

bool cfg_build(Module *m, uint32_t func_index, GError **error)
{
    g_return_val_if_fail(m && func_index < m->funcs->len, false);
    Function *f = module_func(m, func_index);
    if (!f->is_defined || !f->insns)
        return true;
    Cfg *c = cfg_compute(m, f, error);
    if (!c)
        return false;
    cfg_free(f->cfg);
    f->cfg = c;
    return true;
}

bool cfg_build_all(Module *m, GError **error)
{
    for (uint32_t i = 0; i < m->funcs->len; i++)
        if (!cfg_build(m, i, error))
            return false;
    return true;
}

uint32_t cfg_live_regs(const Module *m, const Function *f)
{
    if (!f->is_defined || !f->insns)
        return 0;
    if (f->cfg)
        return f->cfg->max_live_regs;
    Cfg *c = cfg_compute(m, f, NULL);
    uint32_t r = c ? c->max_live_regs : 0;
    cfg_free(c);
    return r;
}

uint32_t cfg_estimate_registers(const Module *m, uint32_t kernel)
{
    uint32_t nf = m->funcs->len;
    g_return_val_if_fail(kernel < nf, 0);
    bool *visited = g_new0(bool, nf);
    uint32_t *stack = g_new(uint32_t, nf);
    uint32_t sp = 0, peak = 0;
    visited[kernel] = true;
    stack[sp++] = kernel;
    while (sp) {
        uint32_t fi = stack[--sp];
        const Function *f = module_func(m, fi);
        peak = MAX(peak, f->ptx_live_known ? f->ptx_live_regs : cfg_live_regs(m, f));
        for (guint k = 0; k < func_ncalls(f); k++) {
            uint32_t callee = g_array_index(f->calls, CallSite, k).callee;
            for (uint32_t g = 0; g < nf; g++) {
                bool target = callee == NO_INDEX
                                  ? (module_func(m, g)->is_defined && !module_func(m, g)->is_entry)
                                  : g == callee;
                if (target && !visited[g]) {
                    visited[g] = true;
                    stack[sp++] = g;
                }
            }
        }
    }
    g_free(stack);
    g_free(visited);
    uint32_t regs = MAX(peak, 1) + CFG_REG_OVERHEAD;
    const Function *k = module_func(m, kernel);
    if (k->maxnreg && regs > k->maxnreg)
        regs = k->maxnreg;
    return MIN(regs, 255);
}

/* -------------------------------------------------------------- printing */

static void print_block_name(FILE *out, uint32_t b)
{
    if (b == CFG_EXIT)
        fputs("EXIT", out);
    else
        fprintf(out, "B%u", b);
}

static const char *reg_name(const Function *f, uint32_t reg)
{
    if (reg >= f->regs->len)
        return "?";
    const char *name = g_array_index(f->regs, RegInfo, reg).name;
    return name ? name : "?";
}

void cfg_print_text(FILE *out, const Module *m, uint32_t func)
{
    const Function *f = module_func(m, func);
    const Cfg *c = f->cfg;
    fprintf(out, "%s %s: ", f->is_entry ? ".entry" : ".func", f->name);
    if (!c) {
        fputs("no control-flow graph (declaration only or not built)\n", out);
        return;
    }
    fprintf(out, "%u instructions, %u blocks, max live %u registers (32-bit units), "
            "%u registers stored in %u rows\n",
            c->ninsns, c->nblocks, c->max_live_regs, c->nregs, c->nslots);
    for (uint32_t b = 0; b < c->nblocks; b++) {
        const BasicBlock *bb = &c->blocks[b];
        const Insn *first = func_insn(f, bb->first), *last = func_insn(f, bb->last);
        fprintf(out, "  B%u", b);
        if (bb->label)
            fprintf(out, " %s", bb->label);
        fprintf(out, ": insns %u-%u (lines %u-%u), succ", bb->first, bb->last,
                first->line, last->line);
        for (uint8_t k = 0; k < bb->nsucc; k++) {
            fputc(' ', out);
            print_block_name(out, bb->succ[k]);
        }
        fputs(", ipdom ", out);
        print_block_name(out, bb->ipdom);
        fprintf(out, ", max live %u", bb->max_live);
        if (!(bb->flags & BB_REACHABLE))
            fputs(", unreachable", out);
        if (bb->flags & BB_EXIT_LINK)
            fputs(", no path to exit", out);
        fputc('\n', out);
        if (c->reconv_pc[bb->last] != NO_INDEX) {
            fprintf(out, "    %u (line %u): ", bb->last, last->line);
            if (last->guard != NO_INDEX)
                fprintf(out, "@%s%s ", last->guard_negate ? "!" : "",
                        reg_name(f, last->guard));
            fputs(isa_ops[last->op].name, out);
            if (last->op == OP_BRA) {
                uint32_t t = branch_target(last);
                fputs(" ", out);
                print_block_name(out, t < c->ninsns ? c->block_of[t] : CFG_EXIT);
            }
            if (c->reconv_pc[bb->last] == c->ninsns)
                fputs(" -> reconverges at EXIT\n", out);
            else
                fprintf(out, " -> reconverges at insn %u (B%u)\n", c->reconv_pc[bb->last],
                        bb->ipdom);
        }
    }
}

void cfg_print_dot(FILE *out, const Module *m, uint32_t func)
{
    const Function *f = module_func(m, func);
    const Cfg *c = f->cfg;
    fprintf(out, "digraph \"%s\" {\n  node [shape=box, fontname=monospace];\n", f->name);
    fputs("  EXIT [shape=doublecircle];\n", out);
    for (uint32_t b = 0; c && b < c->nblocks; b++) {
        const BasicBlock *bb = &c->blocks[b];
        fprintf(out, "  B%u [label=\"B%u%s%s\\ninsns %u-%u\\nlive %u\"%s];\n", b, b,
                bb->label ? " " : "", bb->label ? bb->label : "", bb->first, bb->last,
                bb->max_live, (bb->flags & BB_REACHABLE) ? "" : ", style=dotted");
        for (uint8_t k = 0; k < bb->nsucc; k++) {
            fprintf(out, "  B%u -> ", b);
            print_block_name(out, bb->succ[k]);
            fputs(bb->nsucc == 2 ? (k == 0 ? " [label=\"taken\"]" : " [label=\"fall\"]") : "",
                  out);
            fputs(";\n", out);
        }
        fprintf(out, "  B%u -> ", b);
        print_block_name(out, bb->ipdom);
        fputs(" [style=dashed, color=gray, constraint=false];\n", out);
    }
    fputs("}\n", out);
}
