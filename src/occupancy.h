/* occupancy.h — how many blocks of a kernel fit on one SM, and why no more.
 *
 * Contract: occupancy_compute() applies the configuration's per-SM limits
 * the way CUDA's occupancy calculator does: warps, threads, blocks,
 * registers (rounded to the allocation unit, per block before cc 2.0 and
 * per warp after) and shared memory (rounded to its allocation unit, plus
 * the per-block reservation).  A launch that cannot fit even one block
 * gives blocks_per_sm = 0 and the resource that prevents it.
 */
#ifndef WARPSIM_OCCUPANCY_H
#define WARPSIM_OCCUPANCY_H

#include <stdint.h>

#include "config.h"

typedef enum {
    LIMIT_WARPS, LIMIT_BLOCKS, LIMIT_REGISTERS, LIMIT_SHARED_MEM, LIMIT_COUNT
} OccupancyLimiter;

typedef struct {
    uint32_t warps_per_block;
    uint32_t regs_per_block;        /* allocated, after rounding */
    uint32_t smem_per_block;        /* allocated, after rounding and reservation */
    uint32_t limit[LIMIT_COUNT];    /* blocks per SM each resource alone allows
                                       (launch__occupancy_limit_*) */
    uint32_t blocks_per_sm;         /* min over the limits */
    OccupancyLimiter limiter;       /* the smallest limit (first in enum order on ties) */
    uint32_t active_warps;          /* blocks_per_sm * warps_per_block */
    double occupancy;               /* active_warps / max_warps_per_sm */
} Occupancy;

void occupancy_compute(const GpuConfig *c, uint32_t threads_per_block, uint32_t regs_per_thread,
                       uint32_t smem_per_block, Occupancy *out);

/* "warps", "blocks", "registers", "shared memory" */
const char *occupancy_limiter_name(OccupancyLimiter l);

#endif
