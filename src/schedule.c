/* schedule.c — list scheduling of straight-line PTX (contract in schedule.h).
 *
 * A stretch is at most SCHEDULE_MAX_STRETCH movable instructions between
 * two fixed points, so the pairwise dependence test (quadratic in the
 * stretch) stays cheap on the longest unrolled bodies; most stretches hold
 * a few dozen instructions.
 */
#include "schedule.h"

#include <string.h>

#include "cfg.h"
#include "errors.h"

/* One instruction of a stretch as the scheduler sees it. */
typedef struct {
    CfgRegList uses, defs;
    bool memory, store;
    uint8_t space;        /* PtxSpace of a load or store */
    uint32_t weight;      /* cycles the compiler expects it to take (schedule.h) */
} Node;

/* Whether the instruction may move within its stretch (else it ends one). */
static bool movable(const Insn *in)
{
    if (in->op >= OP_COUNT || insn_reads_clock(in))
        return false;
    /* the carry flag is state no operand names */
    if ((in->flags & FL_CC) || in->op == OP_ADDC || in->op == OP_SUBC || in->op == OP_MADC)
        return false;
    if (in->op == OP_LD || in->op == OP_ST) {
        bool weak = in->sem == SEM_NONE || in->sem == SEM_WEAK;
        return weak && in->cache != CACHE_CV && in->space < SPACE_REG;
    }
    const OpInfo *op = &isa_ops[in->op];
    switch (op->latency) {
    case LAT_ALU: case LAT_MUL: case LAT_FMA: case LAT_DIV: case LAT_SFU: case LAT_CVT:
        break;
    default:
        return false;
    }
    FuncUnit u = isa_unit_for((PtxOpcode)in->op, (PtxType)in->type);
    return u == UNIT_INT || u == UNIT_FP32 || u == UNIT_FP64 || u == UNIT_SFU;
}

static uint32_t expected_cycles(const Insn *in)
{
    if (in->op == OP_ST)
        return 0;
    if (in->op == OP_LD) {
        if (isa_space_is_lg((PtxSpace)in->space))
            return SCHEDULE_LOAD_WEIGHT;
        return insn_const_operand(in) ? 0 : isa_latency_sched_cycles[LAT_MEM];
    }
    return isa_latency_sched_cycles[isa_latency_for((PtxOpcode)in->op, (PtxType)in->type, (PtxType)in->type2,
                                                    in->flags, in->scope)];
}

static bool lists_meet(const CfgRegList *a, const CfgRegList *b)
{
    for (uint32_t i = 0; i < a->n; i++)
        for (uint32_t k = 0; k < b->n; k++)
            if (a->v[i] == b->v[k])
                return true;
    return false;
}

static bool may_alias(const Node *a, const Node *b)
{
    return a->space == SPACE_GENERIC || b->space == SPACE_GENERIC || a->space == b->space;
}

/* Why j (later in the PTX) must stay after i: it reads i's result, or it
 * merely has to (it overwrites what i reads or writes, or touches memory
 * i may write or read); DEP_NONE when it may pass. */
typedef enum { DEP_NONE, DEP_READS, DEP_ORDER } Dependence;

static Dependence dependence(const Node *i, const Node *j)
{
    if (lists_meet(&i->defs, &j->uses))
        return DEP_READS;
    if (lists_meet(&i->defs, &j->defs) || lists_meet(&i->uses, &j->defs))
        return DEP_ORDER;
    return i->memory && j->memory && (i->store || j->store) && may_alias(i, j) ? DEP_ORDER : DEP_NONE;
}

/* Whether a ready instruction (due at `due`, `height` to the stretch's
 * end) goes before the best one so far, at `cycle`: one whose inputs are
 * due beats one still waiting; of two due, the longer path; of two
 * waiting, the one due first, then the longer path. */
static bool goes_before(uint64_t due, uint64_t height, uint64_t best_due, uint64_t best_height, uint64_t cycle)
{
    bool now = due <= cycle, best_now = best_due <= cycle;
    if (now != best_now)
        return now;
    if (now || due == best_due)
        return height > best_height;
    return due < best_due;
}

/* Reorders insns[first, first + n), all movable. */
static void schedule_stretch(Function *f, uint32_t first, uint32_t n)
{
    if (n < 2)
        return;
    Node *node = g_new0(Node, n);
    for (uint32_t k = 0; k < n; k++) {
        const Insn *in = func_insn(f, first + k);
        cfg_insn_regs(f, in, &node[k].uses, &node[k].defs);
        node[k].memory = in->op == OP_LD || in->op == OP_ST;
        node[k].store = in->op == OP_ST;
        node[k].space = in->space;
        node[k].weight = expected_cycles(in);
    }
    /* dependences as bit matrices: row j holds the i < j it stays after,
     * and of those the ones whose results it reads */
    uint32_t words = (n + 63) / 64;
    uint64_t *after = g_new0(uint64_t, (size_t)n * words), *reads = g_new0(uint64_t, (size_t)n * words);
    for (uint32_t j = 1; j < n; j++)
        for (uint32_t i = 0; i < j; i++) {
            Dependence d = dependence(&node[i], &node[j]);
            if (d != DEP_NONE)
                after[(size_t)j * words + i / 64] |= 1ull << (i % 64);
            if (d == DEP_READS)
                reads[(size_t)j * words + i / 64] |= 1ull << (i % 64);
        }
    /* the longest path to the stretch's end */
    uint64_t *height = g_new0(uint64_t, n);
    for (uint32_t j = n; j-- > 0;) {
        height[j] += node[j].weight;
        for (uint32_t i = 0; i < j; i++)
            if (after[(size_t)j * words + i / 64] >> (i % 64) & 1)
                height[i] = MAX(height[i], height[j]);
    }
    uint32_t *waiting = g_new0(uint32_t, n); /* predecessors not placed yet */
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t w = 0; w < words; w++)
            waiting[j] += (uint32_t)__builtin_popcountll(after[(size_t)j * words + w]);
    /* issue one a cycle: of those whose predecessors' results are due,
     * the one with the longest path; when none is due, the one due first */
    uint64_t *due = g_new0(uint64_t, n);
    bool *placed = g_new0(bool, n);
    Insn *order = g_new(Insn, n);
    uint64_t cycle = 0;
    for (uint32_t step = 0; step < n; step++) {
        uint32_t best = n;
        for (uint32_t k = 0; k < n; k++) {
            if (placed[k] || waiting[k])
                continue;
            if (best == n) {
                best = k;
                continue;
            }
            if (goes_before(due[k], height[k], due[best], height[best], cycle))
                best = k;   /* ties: the first in the PTX */
        }
        g_assert(best < n); /* the graph only points backwards: something is always ready */
        cycle = MAX(cycle, due[best]);
        placed[best] = true;
        order[step] = *func_insn(f, first + best);
        for (uint32_t j = best + 1; j < n; j++)
            if (after[(size_t)j * words + best / 64] >> (best % 64) & 1) {
                waiting[j]--;
                /* a reader waits for the result; one that only has to
                 * stay after goes the next cycle */
                bool reader = reads[(size_t)j * words + best / 64] >> (best % 64) & 1;
                due[j] = MAX(due[j], cycle + (reader ? MAX(node[best].weight, 1u) : 1u));
            }
        cycle++;
    }
    memcpy(func_insn(f, first), order, n * sizeof *order);
    for (uint32_t k = 0; k < n; k++) {
        cfg_reglist_clear(&node[k].uses);
        cfg_reglist_clear(&node[k].defs);
    }
    g_free(order);
    g_free(placed);
    g_free(due);
    g_free(waiting);
    g_free(height);
    g_free(reads);
    g_free(after);
    g_free(node);
}

void schedule_function(Function *f)
{
    if (f->scheduled || !f->is_defined || !f->insns)
        return;
    f->scheduled = true;
    uint32_t n = func_ninsns(f);
    /* branch targets start stretches */
    bool *target = g_new0(bool, n + 1);
    for (guint k = 0; f->labels && k < f->labels->len; k++) {
        uint32_t at = g_array_index(f->labels, Label, k).insn;
        if (at <= n)
            target[at] = true;
    }
    for (uint32_t i = 0; i < n; i++) {
        const Insn *in = func_insn(f, i);
        for (unsigned o = 0; o < in->nopd && o < INSN_MAX_OPERANDS; o++)
            if (in->opd[o].kind == OPD_LABEL && in->opd[o].imm >= 0 && (uint64_t)in->opd[o].imm <= n)
                target[in->opd[o].imm] = true;
    }
    uint32_t start = 0;
    for (uint32_t i = 0; i <= n; i++) {
        bool fixed = i < n && !movable(func_insn(f, i));
        if (i == n || target[i] || fixed || i - start == SCHEDULE_MAX_STRETCH) {
            schedule_stretch(f, start, i - start);
            start = fixed ? i + 1 : i; /* a fixed instruction belongs to no stretch */
        }
    }
    g_free(target);
}

bool schedule_parse_order(const char *value, const char *what, bool *ptx_order, GError **error)
{
    if (!value || !strcmp(value, "scheduled")) {
        *ptx_order = false;
        return true;
    }
    if (!strcmp(value, "ptx")) {
        *ptx_order = true;
        return true;
    }
    g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "%s: expected 'scheduled' or 'ptx', not '%s'", what, value);
    return false;
}

void schedule_module(Module *m)
{
    for (guint i = 0; i < m->funcs->len; i++) {
        Function *f = module_func(m, i);
        if (!f->scheduled && f->is_defined && f->insns) {
            f->ptx_live_regs = cfg_live_regs(m, f);
            f->ptx_live_known = true;
        }
        schedule_function(f);
    }
}
