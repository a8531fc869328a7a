/* reaching.c — which writes of a register may reach each of its reads
 * (reaching.h). */
#include "reaching.h"

#include <string.h>

#include "cfg.h"

/* The bit sets' size limit, in 64-bit words per set (blocks times words
 * of ambiguous writes): 4 MiB each, three sets. */
#define MAX_SET_WORDS (UINT64_C(1) << 19)

typedef struct {
    uint32_t reg, at, n; /* its sources: pool[at .. at + n) */
} Read;

/* Every instruction's reads and writes (cfg_insn_regs), listed once:
 * instruction pc's are regs[at[pc] .. at[pc] + nuses[pc]) and the writes
 * after them, up to at[pc + 1]. */
typedef struct {
    uint32_t *at, *nuses;
    GArray *regs;
} InsnRegs;

struct Reaching {
    uint32_t ninsns, nregs, nwrites;
    uint32_t *first_write; /* ninsns + 1 */
    uint32_t *only_write;  /* per register: its one source at every read, or NO_INDEX */
    uint32_t *read_at;     /* ninsns + 1: each instruction's reads of ambiguous registers */
    GArray *reads;         /* of Read */
    GArray *pool;          /* of uint32_t: sources */
    InsnRegs regs;         /* every instruction's reads and writes */
};

static void insn_regs_list(const Function *f, InsnRegs *l)
{
    uint32_t n = func_ninsns(f);
    l->at = g_new(uint32_t, n + 1);
    l->nuses = g_new(uint32_t, MAX(n, 1u));
    l->regs = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    CfgRegList uses = {0}, defs = {0};
    for (uint32_t i = 0; i < n; i++) {
        cfg_insn_regs(f, func_insn(f, i), &uses, &defs);
        l->at[i] = l->regs->len;
        l->nuses[i] = uses.n;
        g_array_append_vals(l->regs, uses.v, uses.n);
        g_array_append_vals(l->regs, defs.v, defs.n);
    }
    l->at[n] = l->regs->len;
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
}

static void insn_regs_clear(InsnRegs *l)
{
    g_free(l->at);
    g_free(l->nuses);
    g_array_free(l->regs, TRUE);
}

/* Instruction pc's reads or writes as a CfgRegList view (not to be grown). */
static CfgRegList insn_reads(const InsnRegs *l, uint32_t pc)
{
    return (CfgRegList){.v = &g_array_index(l->regs, uint32_t, l->at[pc]), .n = l->nuses[pc]};
}

static CfgRegList insn_writes(const InsnRegs *l, uint32_t pc)
{
    uint32_t from = l->at[pc] + l->nuses[pc];
    return (CfgRegList){.v = &g_array_index(l->regs, uint32_t, from), .n = l->at[pc + 1] - from};
}

/* Registers written more than once, or read before a write on some path:
 * each of their writes gets a bit, and a register live at entry one more
 * for REACHING_ENTRY. */
typedef struct {
    uint32_t nbits, words;
    uint32_t *bit_of_write; /* per write: its bit, or NO_INDEX */
    uint32_t *reg_bits_at;  /* nregs + 1: each register's bits, consecutive */
    uint32_t *source_of;    /* per bit: the write, or REACHING_ENTRY */
} Bits;

/* The writes of instruction pc to ambiguous registers, applied to set
 * `cur` (and, when given, to a block's kill set). */
static void apply_writes(const Bits *b, const Insn *in, const CfgRegList *defs, uint32_t first, uint64_t *cur,
                         uint64_t *kill)
{
    for (uint32_t d = 0; d < defs->n; d++) {
        uint32_t bit = b->bit_of_write[first + d];
        if (bit == NO_INDEX)
            continue;
        if (in->guard == NO_INDEX) {
            uint32_t reg = defs->v[d];
            for (uint32_t k = b->reg_bits_at[reg]; k < b->reg_bits_at[reg + 1]; k++) {
                cfg_reg_remove(cur, k);
                if (kill)
                    cfg_reg_add(kill, k);
            }
        }
        cfg_reg_add(cur, bit);
    }
}

/* Sets in[b] for every block: the bits that reach its first instruction.
 * NULL when the sets would be too large. */
static uint64_t *reaching_in(const Function *f, const Reaching *r, const InsnRegs *l, const Bits *b)
{
    const Cfg *c = f->cfg;
    uint64_t words = b->words, size = (uint64_t)c->nblocks * words;
    if (size > MAX_SET_WORDS)
        return NULL;
    uint64_t *in = g_new0(uint64_t, MAX(size, 1u)), *gen = g_new0(uint64_t, MAX(size, 1u)),
             *kill = g_new0(uint64_t, MAX(size, 1u)), *out = g_new(uint64_t, MAX(words, 1u));
    for (uint32_t k = 0; k < b->nbits; k++)
        if (b->source_of[k] == REACHING_ENTRY)
            cfg_reg_add(in, k); /* the entry block starts with the frame's zeroes */
    for (uint32_t blk = 0; blk < c->nblocks; blk++) {
        const BasicBlock *bb = &c->blocks[blk];
        uint64_t *g = gen + (size_t)blk * words, *kl = kill + (size_t)blk * words;
        for (uint32_t i = bb->first; i <= bb->last; i++) {
            CfgRegList defs = insn_writes(l, i);
            apply_writes(b, func_insn(f, i), &defs, r->first_write[i], g, kl);
        }
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t blk = 0; blk < c->nblocks; blk++) {
            const BasicBlock *bb = &c->blocks[blk];
            const uint64_t *i0 = in + (size_t)blk * words, *g = gen + (size_t)blk * words,
                           *kl = kill + (size_t)blk * words;
            for (uint32_t w = 0; w < words; w++)
                out[w] = g[w] | (i0[w] & ~kl[w]);
            for (uint32_t s = 0; s < bb->nsucc; s++) {
                if (bb->succ[s] == CFG_EXIT)
                    continue;
                uint64_t *to = in + (size_t)bb->succ[s] * words;
                for (uint32_t w = 0; w < words; w++) {
                    uint64_t grown = to[w] | out[w];
                    changed = changed || grown != to[w];
                    to[w] = grown;
                }
            }
        }
    }
    g_free(gen);
    g_free(kill);
    g_free(out);
    return in;
}

/* Gives the ambiguous registers' writes their bits (reaching.h's "no work
 * done" for the others: only_write). */
static void number_bits(const Function *f, Reaching *r, const InsnRegs *l, const uint32_t *writes_of, Bits *b)
{
    const Cfg *c = f->cfg;
    b->reg_bits_at = g_new0(uint32_t, r->nregs + 1);
    for (uint32_t k = 0; k < r->nregs; k++) {
        bool entry = cfg_live_in(c, 0, k);
        r->only_write[k] = NO_INDEX;
        b->reg_bits_at[k + 1] = b->reg_bits_at[k];
        if (writes_of[k] == 1 && !entry)
            continue; /* its write, found below */
        b->reg_bits_at[k + 1] += writes_of[k] + entry;
    }
    b->nbits = b->reg_bits_at[r->nregs];
    b->words = (b->nbits + 63) / 64;
    b->bit_of_write = g_new(uint32_t, MAX(r->nwrites, 1u));
    b->source_of = g_new(uint32_t, MAX(b->nbits, 1u));
    uint32_t *next = g_new(uint32_t, MAX(r->nregs, 1u));
    for (uint32_t k = 0; k < r->nregs; k++) {
        next[k] = b->reg_bits_at[k];
        if (next[k] < b->reg_bits_at[k + 1] && cfg_live_in(c, 0, k))
            b->source_of[next[k]++] = REACHING_ENTRY;
    }
    for (uint32_t i = 0; i < r->ninsns; i++) {
        CfgRegList defs = insn_writes(l, i);
        for (uint32_t d = 0; d < defs.n; d++) {
            uint32_t w = r->first_write[i] + d, reg = defs.v[d];
            b->bit_of_write[w] = NO_INDEX;
            if (reg >= r->nregs)
                continue;
            if (b->reg_bits_at[reg] == b->reg_bits_at[reg + 1]) {
                r->only_write[reg] = w;
                continue;
            }
            b->bit_of_write[w] = next[reg];
            b->source_of[next[reg]++] = w;
        }
    }
    g_free(next);
}

/* Instruction pc's reads of ambiguous registers, their sources from the
 * bits in `cur` (every bit of the register without the sets). */
static void note_reads(Reaching *r, const Bits *b, const CfgRegList *uses, const uint64_t *cur)
{
    uint32_t from = r->reads->len;
    for (uint32_t u = 0; u < uses->n; u++) {
        uint32_t reg = uses->v[u];
        if (reg >= r->nregs || r->only_write[reg] != NO_INDEX || b->reg_bits_at[reg] == b->reg_bits_at[reg + 1])
            continue;
        bool seen = false;
        for (uint32_t k = from; k < r->reads->len && !seen; k++)
            seen = g_array_index(r->reads, Read, k).reg == reg;
        if (seen)
            continue;
        Read rd = {.reg = reg, .at = r->pool->len};
        for (uint32_t k = b->reg_bits_at[reg]; k < b->reg_bits_at[reg + 1]; k++)
            if (!cur || cfg_reg_in(cur, k)) {
                g_array_append_val(r->pool, b->source_of[k]);
                rd.n++;
            }
        g_array_append_val(r->reads, rd);
    }
}

Reaching *reaching_new(const Function *f)
{
    const Cfg *c = f->cfg;
    if (!c)
        return NULL;
    Reaching *r = g_new0(Reaching, 1);
    r->ninsns = func_ninsns(f);
    r->nregs = c->nregs;
    r->first_write = g_new(uint32_t, r->ninsns + 1);
    r->only_write = g_new(uint32_t, MAX(r->nregs, 1u));
    r->read_at = g_new0(uint32_t, r->ninsns + 1);
    r->reads = g_array_new(FALSE, FALSE, sizeof(Read));
    r->pool = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    uint32_t *writes_of = g_new0(uint32_t, MAX(r->nregs, 1u));
    InsnRegs *l = &r->regs;
    insn_regs_list(f, l);
    for (uint32_t i = 0; i < r->ninsns; i++) {
        CfgRegList defs = insn_writes(l, i);
        r->first_write[i] = r->nwrites;
        r->nwrites += defs.n;
        for (uint32_t d = 0; d < defs.n; d++)
            if (defs.v[d] < r->nregs)
                writes_of[defs.v[d]]++;
    }
    r->first_write[r->ninsns] = r->nwrites;
    Bits b = {0};
    number_bits(f, r, l, writes_of, &b);
    g_free(writes_of);
    uint64_t *in = reaching_in(f, r, l, &b);
    uint64_t *cur = in ? g_new(uint64_t, MAX(b.words, 1u)) : NULL;
    for (uint32_t blk = 0; blk < c->nblocks; blk++) {
        const BasicBlock *bb = &c->blocks[blk];
        if (cur)
            memcpy(cur, in + (size_t)blk * b.words, b.words * sizeof *cur);
        for (uint32_t i = bb->first; i <= bb->last; i++) {
            const Insn *insn = func_insn(f, i);
            CfgRegList uses = insn_reads(l, i), defs = insn_writes(l, i);
            r->read_at[i] = r->reads->len;
            note_reads(r, &b, &uses, cur);
            r->read_at[i + 1] = r->reads->len;
            if (cur)
                apply_writes(&b, insn, &defs, r->first_write[i], cur, NULL);
        }
    }
    g_free(in);
    g_free(cur);
    g_free(b.reg_bits_at);
    g_free(b.bit_of_write);
    g_free(b.source_of);
    return r;
}

void reaching_free(Reaching *r)
{
    if (!r)
        return;
    g_free(r->first_write);
    g_free(r->only_write);
    g_free(r->read_at);
    g_array_free(r->reads, TRUE);
    g_array_free(r->pool, TRUE);
    insn_regs_clear(&r->regs);
    g_free(r);
}

void reaching_insn_regs(const Reaching *r, uint32_t pc, CfgRegList *uses, CfgRegList *defs)
{
    *uses = insn_reads(&r->regs, pc);
    *defs = insn_writes(&r->regs, pc);
}

uint32_t reaching_writes(const Reaching *r)
{
    return r->nwrites;
}

uint32_t reaching_first_write(const Reaching *r, uint32_t pc)
{
    return r->first_write[MIN(pc, r->ninsns)];
}

const uint32_t *reaching_sources(const Reaching *r, uint32_t pc, uint32_t reg, uint32_t *n)
{
    *n = 0;
    if (reg >= r->nregs || pc >= r->ninsns)
        return NULL;
    if (r->only_write[reg] != NO_INDEX) {
        *n = 1;
        return &r->only_write[reg];
    }
    for (uint32_t k = r->read_at[pc]; k < r->read_at[pc + 1]; k++) {
        const Read *rd = &g_array_index(r->reads, Read, k);
        if (rd->reg == reg) {
            *n = rd->n;
            return &g_array_index(r->pool, uint32_t, rd->at);
        }
    }
    return NULL;
}
