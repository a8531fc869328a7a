/* cta_overlap.h — whether one CTA of a launch may write global memory that
 * another CTA of it reads or writes.
 *
 * Contract: cta_overlap_possible() is false only when it can show, for the
 * launch's grid, block and argument values, that no global store of one
 * CTA touches a byte that another CTA loads or stores, or that the only
 * such stores write one value known before the launch (a flag set to 1
 * by many threads).  Then which CTA runs first, or on which host thread,
 * cannot change what any thread reads nor what memory holds afterwards,
 * and the CTAs may run apart (launch_ctas_run_apart).  Atomics, strong
 * accesses and fences are launch_ctas_independent()'s concern, not this.
 *
 * The argument, sound rather than precise: each write of a register
 * gets, and each read the join of the writes that may reach it (reaching.h:
 * a register reused as a loop variable after an index keeps the index's
 * value before the loop; a read that some path reaches before any write
 * also sees the frame's 0), either an
 * affine function of %tid and %ctaid with the launch's constants folded
 * in (%ntid, %nctaid, parameters: so `ntid.x * ctaid.x + tid.x` is
 * affine; each %tid counts in binary digits, the low bits of the block's
 * size one term each, so that shifts, divisions, remainders and masks by
 * powers of two that split a value exactly, such as `tid.x / 32`,
 * `tid.x % 32` and `tid.x >> 4`, stay
 * affine), checked to wrap in no integer type it passes through, or
 * "unknown"; and the allocations it may point into, following C's rule
 * that pointer arithmetic stays inside its object.  Accesses of unknown
 * address may touch all of the allocations they may point into (any, when
 * the address comes from memory), except a load at one address of an
 * allocation no store of the launch touches, which reads the value memory
 * holds now (a row width passed in a buffer; rounds check that the
 * stores found with those values still touch none of those allocations).
 * Two affine accesses of different CTAs
 * are apart when their %ctaid coefficients are equal and each CTA's bytes
 * lie in a window that the coefficients step over (bfs's `cost[u]`, at a
 * loaded index, is not: its CTAs race).  A kernel whose callees access
 * global or generic memory, or that loads a pointer the analysis cannot
 * follow into a store, is taken to overlap.
 */
#ifndef WARPSIM_CTA_OVERLAP_H
#define WARPSIM_CTA_OVERLAP_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

/* True when CTAs of the launch may touch each other's global bytes (see
 * above); *line (may be NULL) receives the PTX line of the store it could
 * not clear, 0 when the reason is not one instruction. */
bool cta_overlap_possible(const ModuleImage *img, const LaunchSpec *spec, uint32_t *line);

#endif
