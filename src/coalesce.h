/* coalesce.h — how one warp's global (or local) memory access becomes
 * memory transactions, by the rules of each GPU generation.
 *
 * Contract: coalesce() is a pure function of the lane addresses, the access
 * size and the generation's rule (config.h CoalesceRule):
 *   COALESCE_CC10   per half-warp: if every active lane k touches word k of
 *                   one aligned 64 B (4 B words), 128 B (8 B words) or
 *                   2 x 128 B (16 B words) segment, one transaction (two for
 *                   16 B), else one 32 B transaction per active lane;
 *   COALESCE_CC12   per half-warp: one transaction per distinct segment
 *                   (32 B for 1 B words, 64 B for 2 B, 128 B for 4/8/16 B),
 *                   each reduced to 64 B or 32 B when only that half or
 *                   quarter is used;
 *   COALESCE_CC20   per request: one transaction per distinct 128 B line
 *                   when l1_cached, else per distinct 32 B segment; a warp
 *                   is one request, but 8 B words are first split into one
 *                   request per half-warp and 16 B words into one per
 *                   quarter-warp (guide F.4.2), so lines shared by two of
 *                   them are counted in each;
 *   COALESCE_SECTOR per warp: one transaction per distinct 128 B line, with
 *                   the 32 B sectors it touches.
 * Every transaction also lists its 32 B sectors (for the first three rules
 * all the sectors of the transaction, since it moves them all), so caches
 * and DRAM count bytes the same way on every generation.  Lanes are
 * size-aligned (the executor faults otherwise).  docs/memory-model.md
 * quotes the rules.
 */
#ifndef WARPSIM_COALESCE_H
#define WARPSIM_COALESCE_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "memory.h"

#define COALESCE_MAX_TRANS 64

/* WarpAccess (memory.h): one warp instruction's lane addresses; only mask,
 * size and addr matter here. */

typedef struct {
    uint64_t addr;          /* aligned start of the transaction */
    uint32_t bytes;         /* 32, 64 or 128 */
    uint32_t sector_mask;   /* bit i: the 32 B sector at addr + 32 i is used (bytes/32 bits at most) */
} MemTransaction;

typedef struct {
    uint32_t requests;      /* l1tex__t_requests: 1 per warp instruction with active lanes
                               (every rule; nvprof's gld_transactions_per_request is ntrans) */
    uint32_t sectors;       /* 32 B sectors moved, summed over transactions (l1tex__t_sectors) */
    uint32_t ntrans;        /* transactions (gld/gst_transactions in nvprof terms) */
    bool distinct_sectors;  /* no 32 B sector is in two transactions (one request
                               whose blocks are distinct: the sector rule, and
                               cc 2.x words of at most 4 B; or transactions that
                               follow each other in one direction) */
    MemTransaction trans[COALESCE_MAX_TRANS];
} CoalesceResult;

void coalesce(CoalesceRule rule, const WarpAccess *a, bool l1_cached, CoalesceResult *out);
/* The same for a warp whose active lanes the caller found ascending from
 * lane `first` by `stride` (warp_lanes_ascending() returned true with
 * them), which the sector rule would otherwise find out again. */
void coalesce_ascending(CoalesceRule rule, const WarpAccess *a, bool l1_cached, uint32_t first, uint64_t stride,
                        CoalesceResult *out);

#endif
