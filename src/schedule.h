/* schedule.h — the order a warp issues a function's instructions in.
 *
 * Contract: schedule_function() reorders, in place, the instructions of
 * each straight-line stretch of a Function's body the way a GPU compiler's
 * list scheduler does (ptxas issues the global loads of a stretch before
 * the arithmetic that waits for them, so their latencies overlap; nvcc's
 * PTX interleaves each load with its use).  warpsim executes and times
 * instructions in issue order, so without this it would wait for such
 * loads one after another.
 *
 * What moves: arithmetic, and loads and stores that are neither volatile
 * nor ordered (.relaxed, .acquire, ...).  Everything else ends a stretch
 * and stays where it is, with everything before it before and everything
 * after it after: labels (a branch target starts a stretch), branches,
 * calls, returns, barriers, fences, atomics, warp-wide operations (shfl,
 * vote, ...), texture and asynchronous copies, and reads of the clock.
 * Within a stretch an instruction never passes one it depends on: a
 * register it reads, writes or that the other reads (true, output and
 * anti dependences, the guard predicate included), or a memory access that
 * may touch the same bytes where one of the two writes (same state space,
 * or either generic).  So every thread computes exactly what the PTX says;
 * only the order of independent instructions changes.
 *
 * The order: among the instructions whose predecessors are placed, the one
 * with the longest path to the stretch's end, counting a global, local or
 * generic load as SCHEDULE_LOAD_WEIGHT and anything else as 0; ties keep
 * the PTX's order.  Loads and the address arithmetic that feeds them
 * therefore come first.  Stretches longer than SCHEDULE_MAX_STRETCH
 * instructions are scheduled in pieces of that length.
 *
 * A Function is scheduled once (Function.scheduled), before cfg_build()
 * (whose blocks, liveness and register estimate then follow the new
 * order); schedule_module() does every function of a module.  The
 * manifest run does it when asked (warpsim run, compare and trace
 * --schedule-loads), and so does the CUDA runtime for each module it
 * loads (warpsim exec --schedule-loads, or WARPSIM_SCHEDULE_LOADS=1).
 * Labels and branch targets keep their instruction indices: a stretch
 * never contains a branch target except at its start.
 */
#ifndef WARPSIM_SCHEDULE_H
#define WARPSIM_SCHEDULE_H

#include "module.h"

#define SCHEDULE_LOAD_WEIGHT 100u
#define SCHEDULE_MAX_STRETCH 512u

void schedule_function(Function *f);
void schedule_module(Module *m);

#endif
