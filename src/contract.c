/* contract.c — ptxas's multiply-add contraction (contract in contract.h). */
#include "contract.h"

#include <glib.h>

#include "cfg.h"

/* Flags that may come with a contractable instruction: .ftz, and the mark
 * of a loop header's pragma (a place in the code, not a modifier). */
#define PLAIN_FLAGS (FL_FTZ | FL_NOUNROLL)

/* A plain f32 or f64 multiply or add/sub: no rounding modifier, no .sat. */
static bool plain_float(const Insn *in)
{
    return (in->type == PTX_TYPE_F32 || in->type == PTX_TYPE_F64) && in->round == RND_NONE &&
           !(in->flags & ~PLAIN_FLAGS) && in->nopd == 3;
}

static bool is_contractable_add(const Insn *in)
{
    return (in->op == OP_ADD || in->op == OP_SUB) && plain_float(in);
}

/* A neg ptxas may fold into the fma as the product's sign: unguarded, of
 * the add's type (the caller also wants its .ftz, which only flushes,
 * absent or the multiply's). */
static bool is_foldable_neg(const Insn *neg, const Insn *add)
{
    return neg->op == OP_NEG && neg->type == add->type && neg->guard == NO_INDEX && neg->nopd == 2 &&
           neg->opd[1].kind == OPD_REG && !(neg->flags & ~PLAIN_FLAGS);
}

static bool ends_block(const Insn *in)
{
    return in->op == OP_BRA || in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP || in->op == OP_CALL;
}

static bool reads_reg(const Operand *o, uint32_t r)
{
    return o->kind == OPD_REG && o->reg == r;
}

/* Whether no instruction from the multiply (at di) to the add (at i)
 * writes the multiply's operands: a register written once is looked up,
 * one written more often is searched for (a loop's). */
static bool operands_kept(const Function *f, const Insn *insns, const Insn *mul, uint32_t di, uint32_t i,
                          const uint32_t *def, const uint32_t *ndefs, CfgRegList *u, CfgRegList *d)
{
    /* the multiply's own result in place of an operand (mul %f1, %f1, ...) */
    if (reads_reg(&mul->opd[1], mul->opd[0].reg) || reads_reg(&mul->opd[2], mul->opd[0].reg))
        return false;
    bool search = false;
    for (int k = 1; k <= 2; k++) {
        const Operand *o = &mul->opd[k];
        if (o->kind != OPD_REG || o->reg >= f->regs->len || ndefs[o->reg] == 0)
            continue;
        if (ndefs[o->reg] > 1)
            search = true;
        else if (def[o->reg] > di && def[o->reg] < i)
            return false;
    }
    for (uint32_t j = di + 1; j < i && search; j++) {
        cfg_insn_regs(f, &insns[j], u, d);
        for (uint32_t q = 0; q < d->n; q++)
            if (reads_reg(&mul->opd[1], d->v[q]) || reads_reg(&mul->opd[2], d->v[q]))
                return false;
    }
    return true;
}

static void contract_function(Function *f)
{
    uint32_t n = f->insns->len, nregs = f->regs->len;
    if (!n || !nregs)
        return;
    Insn *insns = &g_array_index(f->insns, Insn, 0);
    /* per register: how many instructions write it and the last of them,
     * its uses, and those that are the operands of contractable adds */
    uint32_t *def = g_new(uint32_t, nregs), *ndefs = g_new0(uint32_t, nregs);
    uint32_t *uses = g_new0(uint32_t, nregs), *add_uses = g_new0(uint32_t, nregs);
    uint32_t *block = g_new(uint32_t, n);
    bool *leader = g_new0(bool, n + 1);
    for (guint i = 0; i < f->labels->len; i++) {
        uint32_t at = g_array_index(f->labels, Label, i).insn;
        if (at < n)
            leader[at] = true;
    }
    CfgRegList u = {0}, d = {0};
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && (leader[i] || ends_block(&insns[i - 1])))
            b++;
        block[i] = b;
        cfg_insn_regs(f, &insns[i], &u, &d);
        for (uint32_t k = 0; k < u.n; k++)
            uses[u.v[k]]++;
        for (uint32_t k = 0; k < d.n; k++) {
            ndefs[d.v[k]]++;
            def[d.v[k]] = i;
        }
        if (is_contractable_add(&insns[i]))
            for (int k = 1; k <= 2; k++)
                if (insns[i].opd[k].kind == OPD_REG)
                    add_uses[insns[i].opd[k].reg]++;
    }
    for (uint32_t i = 0; i < n; i++) {
        Insn *add = &insns[i];
        if (!is_contractable_add(add))
            continue;
        for (int k = 1; k <= 2; k++) { /* of two products, the first */
            const Operand *o = &add->opd[k];
            if (o->kind != OPD_REG || o->reg >= nregs || ndefs[o->reg] != 1 || uses[o->reg] != add_uses[o->reg])
                continue;
            uint32_t di = def[o->reg];
            /* the product, or its negation whose only use is the neg */
            bool negated = false;
            if (di < i && is_foldable_neg(&insns[di], add)) {
                uint32_t p = insns[di].opd[1].reg;
                if (p >= nregs || ndefs[p] != 1 || uses[p] != 1 || def[p] >= di || block[di] != block[i] ||
                    ((insns[di].flags & FL_FTZ) && (insns[def[p]].flags & FL_FTZ) != (insns[di].flags & FL_FTZ)))
                    continue;
                negated = true;
                di = def[p];
            }
            const Insn *mul = &insns[di];
            if (di >= i || block[di] != block[i] || mul->op != OP_MUL || mul->type != add->type || !plain_float(mul) ||
                mul->guard != NO_INDEX || (mul->flags & FL_FTZ) != (add->flags & FL_FTZ))
                continue;
            if (!operands_kept(f, insns, mul, di, i, def, ndefs, &u, &d))
                continue;
            Operand addend = add->opd[3 - k];
            /* (+-p) + c, c - (+-p), (+-p) - c */
            bool neg_product = negated != (add->op == OP_SUB && k == 2);
            bool neg_addend = add->op == OP_SUB && k == 1;
            add->flags |= (neg_product ? FL_NEG_PRODUCT : 0) | (neg_addend ? FL_NEG_ADDEND : 0);
            add->op = OP_FMA;
            add->round = RND_RN;
            add->opd[1] = mul->opd[1];
            add->opd[2] = mul->opd[2];
            add->opd[3] = addend;
            add->nopd = 4;
            break;
        }
    }
    cfg_reglist_clear(&u);
    cfg_reglist_clear(&d);
    g_free(def);
    g_free(ndefs);
    g_free(uses);
    g_free(add_uses);
    g_free(block);
    g_free(leader);
}

void contract_module(Module *m)
{
    for (guint i = 0; i < m->funcs->len; i++) {
        Function *f = &g_array_index(m->funcs, Function, i);
        if (f->is_defined && !f->cfg)
            contract_function(f);
    }
}
