/* reaching.h — which writes of a register may reach each of its reads
 * (reaching definitions), for analyses that follow values through a
 * function whose registers are written more than once (nvcc reuses a
 * register for the loop variable after it served as an index).
 *
 * Contract: reaching_new() numbers every write of f: the destinations of
 * instruction pc, in cfg_insn_regs() order, are writes
 * reaching_first_write(pc), +1, ...  reaching_sources() gives, for a
 * register that instruction pc reads, the writes that may be the last
 * one before pc on some path from the function's entry, and
 * REACHING_ENTRY where a path has none (the register then holds the
 * frame's zeroed start).  A guarded write does not hide earlier ones.  A
 * read in a block the entry does not reach has no sources.  A register
 * written once and read after that write on every path has that write as
 * its one source wherever it is asked about, with no work done for it;
 * for the others, a register pc does not read has none.  Functions too
 * large for the bit sets (blocks times ambiguous writes) get every write
 * of the register, and REACHING_ENTRY when it is live at entry, at every
 * read: what a flow-insensitive analysis assumes.
 *
 * reaching_insn_regs() gives instruction pc's reads and writes as
 * cfg_insn_regs() lists them: the Reaching lists them once, and an
 * analysis that goes over f's instructions pass after pass reads them
 * there rather than listing them again each pass.
 *
 * The Reaching needs f's cfg (NULL without one) and does not change f;
 * reaching_free() releases it.
 */
#ifndef WARPSIM_REACHING_H
#define WARPSIM_REACHING_H

#include <stdint.h>

#include "cfg.h"
#include "module.h"

#define REACHING_ENTRY UINT32_MAX

typedef struct Reaching Reaching;

Reaching *reaching_new(const Function *f);
void reaching_free(Reaching *r);

/* Views into r, valid until reaching_free(): not to be grown or cleared. */
void reaching_insn_regs(const Reaching *r, uint32_t pc, CfgRegList *uses, CfgRegList *defs);

/* How many writes f has; the first of instruction pc's. */
uint32_t reaching_writes(const Reaching *r);
uint32_t reaching_first_write(const Reaching *r, uint32_t pc);

/* The writes (or REACHING_ENTRY) that may reach instruction pc's read of
 * `reg`; *n of them.  The array belongs to r. */
const uint32_t *reaching_sources(const Reaching *r, uint32_t pc, uint32_t reg, uint32_t *n);

#endif
