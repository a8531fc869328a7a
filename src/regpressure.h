/* regpressure.h — register pressure at every instruction of a function, and
 * the static shared memory a kernel needs (the two per-kernel resources
 * that, with the block size, decide occupancy).
 *
 * Contract: regpressure_analyze() walks each basic block backward from the
 * live-out sets cfg_build computed, with the same counting rules as
 * cfg.c's peak (32-bit units: a 64-bit register counts 2, predicates 0 and
 * counted apart; at an instruction the registers in use are the larger of
 * those live before it and those live after it plus its destinations, since
 * a dead result still needs a register).  Its peak over the reachable
 * instructions therefore equals Cfg.max_live_regs; this adds where each
 * count occurs.  The result is plain data owned by the caller.
 */
#ifndef WARPSIM_REGPRESSURE_H
#define WARPSIM_REGPRESSURE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "module.h"

typedef struct {
    uint32_t live_before;  /* 32-bit units live just before the instruction */
    uint32_t live_after;   /* ... just after it */
    uint32_t in_use;       /* max(live_before, live_after + dead destinations) */
    uint32_t preds_before; /* predicate registers live just before it */
    uint32_t preds_in_use; /* predicates, counted like in_use */
    bool reachable;        /* in a block reachable from the entry */
} RegPressurePoint;

typedef struct {
    uint32_t func, ninsns, nregs;
    RegPressurePoint *at;  /* ninsns */
    uint32_t peak;         /* max in_use over reachable instructions */
    uint32_t peak_insn;    /* first instruction where it occurs (NO_INDEX: no instruction) */
    uint32_t peak_preds;   /* max preds_in_use over reachable instructions */
    uint64_t *peak_regs;   /* bitset (nregs bits): the registers in use at peak_insn */
} RegPressure;

/* Function `func` of `m`, whose cfg must be built (else NULL, WS_ERR_INPUT). */
RegPressure *regpressure_analyze(const Module *m, uint32_t func, GError **error);
void regpressure_free(RegPressure *p);

static inline bool regpressure_peak_has(const RegPressure *p, uint32_t reg)
{
    return reg < p->nregs && ((p->peak_regs[reg / 64] >> (reg % 64)) & 1);
}

/* 32-bit units a register of the function occupies (0 for a predicate). */
uint32_t regpressure_reg_units(const Function *f, uint32_t reg);

/* Bytes of static .shared variables the kernel and its callees (an indirect
 * call: every defined .func) name, each aligned, as ptxas allocates them;
 * the dynamic (unsized .extern) array is not included. */
uint32_t regpressure_static_shared_bytes(const Module *m, uint32_t kernel);

#endif
