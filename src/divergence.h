/* divergence.h — static divergence analysis of a decoded Function.
 *
 * Contract: divergence_analyze() decides, for one function whose CFG is
 * built (cfg_build), which registers may hold different values in the
 * active lanes of a warp (divergent) and which always hold one value for
 * all of them (uniform), which conditional branches may split a warp, and
 * which memory accesses use one address for every active lane.  "Uniform"
 * is relative to the lanes executing together under IPDOM reconvergence
 * (the executor's SIMT stack): a uniform branch never splits a warp.
 *
 * The analysis is sound, never precise: a register called uniform is
 * uniform in every run, a divergent one may still happen to be uniform.
 * Seeds, propagation rules and what it is conservative about are in
 * docs/analysis.md.  The result is plain data owned by the caller
 * (divergence_free); it refers to the Function by index and does not keep
 * the Module.
 */
#ifndef WARPSIM_DIVERGENCE_H
#define WARPSIM_DIVERGENCE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "module.h"

/* Why a register is divergent (the first cause the analysis met). */
typedef enum {
    DIV_WHY_NONE = 0,        /* uniform */
    DIV_WHY_SREG,            /* reads a per-thread special register (%tid, %laneid, %lanemask_*) */
    DIV_WHY_ATOMIC,          /* result of an atomic read-modify-write */
    DIV_WHY_WARP_OP,         /* shfl or match: another lane's value or a per-lane mask */
    DIV_WHY_PRIVATE_MEMORY,  /* load from per-thread memory: .local, a frame's .param, or a
                                generic address that may point there */
    DIV_WHY_RACY_LOAD,       /* .volatile/.relaxed/.acquire load: may see a concurrent write */
    DIV_WHY_CALL,            /* result of a call */
    DIV_WHY_ENTRY,           /* live at function entry: a .func parameter or an unwritten register */
    DIV_WHY_DATA,            /* computed from a divergent register */
    DIV_WHY_ADDRESS,         /* loaded from a divergent address */
    DIV_WHY_GUARD,           /* written under a divergent guard predicate */
    DIV_WHY_SYNC,            /* written on a path a divergent branch controls, and merged at its join */
    DIV_WHY_COUNT
} DivReason;

typedef struct {
    DivReason why;
    uint32_t insn; /* instruction that made it divergent; for SYNC the join's first
                      instruction; NO_INDEX for ENTRY */
    uint32_t from; /* DATA/ADDRESS/GUARD: the divergent register read; SYNC: the
                      divergent branch instruction; else NO_INDEX */
} DivCause;

/* Divergence.insn_flags */
enum {
    DIV_INSN_BRANCH_DIVERGENT = 1u << 0, /* a guarded bra whose guard may differ among active lanes */
    DIV_INSN_ADDRESS_UNIFORM = 1u << 1,  /* memory operand: one address for all active lanes */
    DIV_INSN_RESULT_DIVERGENT = 1u << 2, /* it writes a value that may differ among active lanes */
    DIV_INSN_REACHABLE = 1u << 3,        /* in a block reachable from the entry */
};

/* Divergence.reg_flags */
enum {
    DIV_REG_WRITTEN_DIVERGENT = 1u << 0, /* some instruction writes it a divergent value; without
                                            this flag a divergent register is divergent only where
                                            values meet (joins, function entry): every write is
                                            uniform among the lanes doing it */
};

typedef struct {
    uint32_t func;         /* function index in the module */
    uint32_t nregs, ninsns;
    DivCause *reg;         /* nregs: why == DIV_WHY_NONE for a register uniform everywhere */
    uint8_t *reg_flags;    /* nregs: DIV_REG_* */
    uint8_t *insn_flags;   /* ninsns: DIV_INSN_* */
} Divergence;

/* Analyse function `func` of `m`; its cfg must be built.  Returns NULL with
 * WS_ERR_INPUT when it is not (or the function has no body). */
Divergence *divergence_analyze(const Module *m, uint32_t func, GError **error);
void divergence_free(Divergence *d);

/* Short English for a reason ("reads %tid"), for listings. */
const char *divergence_reason_text(DivReason why);

static inline bool divergence_reg_divergent(const Divergence *d, uint32_t reg)
{
    return reg < d->nregs && d->reg[reg].why != DIV_WHY_NONE;
}
static inline bool divergence_branch_divergent(const Divergence *d, uint32_t insn)
{
    return insn < d->ninsns && (d->insn_flags[insn] & DIV_INSN_BRANCH_DIVERGENT);
}

#endif
