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
 * The order: one instruction a cycle, as a list scheduler issues them.
 * Each instruction is expected to take some cycles: a global, local or
 * generic load SCHEDULE_LOAD_WEIGHT, a constant or parameter load that
 * becomes an operand (insn_const_operand) and a store none, another load
 * or arithmetic its latency class's `sched` cycles (isa/latency_classes.def).
 * An instruction is due when the results it waits for are expected; of
 * those due, the one with the longest path of such cycles to the
 * stretch's end goes next, and when none is due, the one due first; ties
 * keep the PTX's order.  Loads and the address arithmetic that feeds them
 * therefore come first, and independent chains of arithmetic (an unrolled
 * loop's iterations) interleave so that their latencies overlap.
 * Stretches longer than SCHEDULE_MAX_STRETCH instructions are scheduled in
 * pieces of that length.
 *
 * A Function is scheduled once (Function.scheduled), before cfg_build()
 * (whose blocks and liveness then follow the new order);
 * schedule_module() does every function of a module, recording first the
 * peak of live registers in the PTX's order, which the register estimate
 * keeps (cfg.h: cfg_estimate_registers).  The manifest run does it unless
 * told to keep the PTX's order (warpsim run,
 * compare and trace --issue-order ptx), and so does the CUDA runtime for
 * each module it loads (unless warpsim exec --issue-order ptx, or
 * WARPSIM_ISSUE_ORDER=ptx).
 * Labels and branch targets keep their instruction indices: a stretch
 * never contains a branch target except at its start.
 */
#ifndef WARPSIM_SCHEDULE_H
#define WARPSIM_SCHEDULE_H

#include "module.h"

#define SCHEDULE_LOAD_WEIGHT 400u
#define SCHEDULE_MAX_STRETCH 512u

void schedule_function(Function *f);
/* The value of --issue-order (and WARPSIM_ISSUE_ORDER): "scheduled" (each
 * stretch list-scheduled, the default) sets *ptx_order false, "ptx" true;
 * anything else is an error naming `what` (the option or variable). */
bool schedule_parse_order(const char *value, const char *what, bool *ptx_order, GError **error);
void schedule_module(Module *m);

#endif
