/* epochs.h — barrier epochs: the shared-memory loads no other warp's
 * write can race.
 *
 * Contract: epochs_unraced_shared_loads() takes one function whose CFG is
 * built (cfg_build) and returns a bool per instruction (owned by the
 * caller: g_free) that is true for a load from shared memory with which
 * no write to the CTA's shared memory by another warp can be concurrent.
 * Such a load reads the same values at any moment between the barriers
 * around it, so even a `.volatile` one (which exists to see other warps'
 * writes without a barrier) may execute earlier than its issue: the
 * timing model's run-ahead (timing.c, may_run_ahead) relies on this.
 *
 * The argument, sound rather than precise: a warp's epoch is the number of
 * CTA barriers it has passed.  When every barrier is a full, aligned,
 * unguarded wait (`bar.sync`/`bar.red`/`barrier.sync.aligned` with no
 * thread count), every live warp arrives once at each completion, so
 * while one warp is in epoch j every other warp executes only what it
 * executes in epoch j.  Each instruction gets the set of epochs it can
 * execute in (the barriers on the paths from the entry to it; 63 stands
 * for 63 or more, so a loop with a barrier ends there); a shared load is
 * unraced when no instruction that may write shared memory (a store,
 * atomic, reduction, copy or mbarrier operation whose memory operand is in
 * .shared or generic space) shares an epoch with it.  Nothing is unraced
 * in a function with a call (the callee may write or synchronise), an
 * arriving (`bar.arrive`), split (`barrier.cluster`), counted, guarded or unaligned barrier, or an
 * unreachable shape the analysis does not follow.
 */
#ifndef WARPSIM_EPOCHS_H
#define WARPSIM_EPOCHS_H

#include <stdbool.h>

#include "module.h"

bool *epochs_unraced_shared_loads(const Function *fn);

#endif
