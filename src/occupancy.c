/* occupancy.c — blocks per SM, the way CUDA's occupancy calculator counts.
 *
 * Contract (occupancy.h): each resource gives the number of blocks it alone
 * allows; the smallest wins.  The rules follow the CUDA Occupancy
 * Calculator and the runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor:
 *
 *  - warps: floor(max warps / warps per block), also bounded by threads;
 *  - blocks: the SM's block slots;
 *  - registers, before cc 2.0 (scope "block"): the block's warps rounded up
 *    to warp_alloc_granularity, times 32 x regs, rounded up to the
 *    allocation unit; blocks = floor(registers per SM / that);
 *  - registers, from cc 2.0 (scope "warp"): regs x 32 rounded up to the
 *    unit per warp; the register file holds floor(per SM / that) warps,
 *    rounded down to warp_alloc_granularity (it is split over the
 *    schedulers); blocks = floor(those warps / warps per block).  A block
 *    whose warps, rounded up to the granularity, need more than the
 *    per-block maximum cannot launch (the hardware's own check);
 *  - shared memory: (bytes + the per-block reservation) rounded up to the
 *    allocation unit; blocks = floor(per SM / that).
 *
 * A resource the kernel does not use (0 registers, nothing to allocate)
 * allows the SM's block slots; a block larger than a per-block maximum
 * allows none.
 */
#include "occupancy.h"

static uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static uint32_t round_up(uint32_t a, uint32_t b) { return div_up(a, b) * b; }

static uint32_t warps_limit(const GpuConfig *c, uint32_t threads, uint32_t warps)
{
    if (threads == 0 || threads > c->max_threads_per_block)
        return 0;
    uint32_t by_warps = c->max_warps_per_sm / warps;
    uint32_t by_threads = c->max_threads_per_sm / (warps * 32);
    return by_warps < by_threads ? by_warps : by_threads;
}

/* Blocks the register file allows; *allocated gets the block's registers. */
static uint32_t registers_limit(const GpuConfig *c, uint32_t warps, uint32_t regs, uint32_t *allocated)
{
    uint32_t gran = c->warp_alloc_granularity ? c->warp_alloc_granularity : 1;
    uint32_t unit = c->reg_alloc_unit ? c->reg_alloc_unit : 1;
    *allocated = 0;
    if (regs > c->max_regs_per_thread)
        return 0;
    if (regs == 0 || warps == 0)
        return c->max_blocks_per_sm;
    /* 64-bit: regs * 32 * warps stays far below 2^64 for any uint32 inputs */
    if (c->reg_alloc_scope == REG_ALLOC_BLOCK) {
        uint64_t per_block = (uint64_t)round_up(warps, gran) * regs * 32;
        per_block = (per_block + unit - 1) / unit * unit;
        *allocated = per_block > UINT32_MAX ? UINT32_MAX : (uint32_t)per_block;
        if (per_block > c->regs_per_block)
            return 0;
        return (uint32_t)(c->regs_per_sm / per_block);
    }
    uint64_t per_warp = ((uint64_t)regs * 32 + unit - 1) / unit * unit;
    uint64_t per_block = per_warp * warps;
    uint64_t hardware_check = per_warp * round_up(warps, gran);
    *allocated = per_block > UINT32_MAX ? UINT32_MAX : (uint32_t)per_block;
    if (per_block > c->regs_per_block || hardware_check > c->regs_per_block)
        return 0;
    uint64_t warps_fit = c->regs_per_sm / per_warp / gran * gran;
    return (uint32_t)(warps_fit / warps);
}

/* Blocks shared memory allows; *allocated gets the block's bytes. */
static uint32_t shared_limit(const GpuConfig *c, uint32_t smem, uint32_t *allocated)
{
    uint32_t unit = c->smem_alloc_unit ? c->smem_alloc_unit : 1;
    uint64_t bytes = (uint64_t)smem + c->smem_reserved_per_block;
    bytes = (bytes + unit - 1) / unit * unit;
    *allocated = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
    if (smem > c->smem_per_block)
        return 0;
    if (bytes == 0)
        return c->max_blocks_per_sm;
    return (uint32_t)(c->smem_per_sm / bytes);
}

void occupancy_compute(const GpuConfig *c, uint32_t threads_per_block, uint32_t regs_per_thread,
                       uint32_t smem_per_block, Occupancy *out)
{
    *out = (Occupancy){0};
    uint32_t warps = threads_per_block / 32 + (threads_per_block % 32 != 0);
    out->warps_per_block = warps;
    out->limit[LIMIT_WARPS] = warps_limit(c, threads_per_block, warps);
    out->limit[LIMIT_BLOCKS] = c->max_blocks_per_sm;
    out->limit[LIMIT_REGISTERS] = registers_limit(c, warps, regs_per_thread, &out->regs_per_block);
    out->limit[LIMIT_SHARED_MEM] = shared_limit(c, smem_per_block, &out->smem_per_block);

    out->limiter = LIMIT_WARPS;
    for (int l = 1; l < LIMIT_COUNT; l++)
        if (out->limit[l] < out->limit[out->limiter])
            out->limiter = (OccupancyLimiter)l;
    out->blocks_per_sm = out->limit[out->limiter];
    out->active_warps = out->blocks_per_sm * warps;
    out->occupancy = c->max_warps_per_sm ? (double)out->active_warps / c->max_warps_per_sm : 0.0;
}

const char *occupancy_limiter_name(OccupancyLimiter l)
{
    static const char *const names[LIMIT_COUNT] = {
        [LIMIT_WARPS] = "warps",
        [LIMIT_BLOCKS] = "blocks",
        [LIMIT_REGISTERS] = "registers",
        [LIMIT_SHARED_MEM] = "shared memory",
    };
    return (unsigned)l < LIMIT_COUNT ? names[l] : "?";
}
