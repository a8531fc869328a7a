/* config.h — a GPU model's parameters, loaded from configs/<name>.json.
 *
 * Contract: config_load() finds a configuration by name (one of the bundled
 * configs/ files, compiled into the binary) or by path to a JSON file, follows
 * its "base" chain (a config may name another and override some keys), and
 * validates every key against the schema in docs/config.md: unknown keys,
 * wrong types and out-of-range values are WS_ERR_INPUT errors naming the file
 * and the JSON path ("configs/x.json: error: l2.size_bytes: must be ...").
 * Overrides given as "path.to.key=value" strings (the command line's --set)
 * are applied last.  A value in a file is either plain or an object
 * {"value": V, "source": "where it comes from"}; bundled configs give a
 * source for every value.
 *
 * The struct is plain data; the timing model and the occupancy calculator
 * only read it.  config_free() releases it.
 */
#ifndef WARPSIM_CONFIG_H
#define WARPSIM_CONFIG_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "isa.h"

/* how global accesses of a warp become memory transactions */
typedef enum {
    COALESCE_CC10,   /* cc 1.0/1.1: per half-warp, all-or-nothing in-order rule */
    COALESCE_CC12,   /* cc 1.2/1.3: per half-warp, one transaction per segment, reduced */
    COALESCE_CC20,   /* cc 2.x: per warp, 128 B lines when L1-cached, 32 B segments otherwise */
    COALESCE_SECTOR, /* cc >= 3: per warp, 32 B sectors of 128 B lines */
} CoalesceRule;

typedef enum { SCHED_LRR, SCHED_GTO } SchedPolicy;
/* How shared-memory accesses wider than 4 bytes are served (smem_banks.h) */
typedef enum { SMEM_WIDE_PHASES, SMEM_WIDE_QUADS } SmemWideRule;

/* register allocation: per block (cc < 2.0) or per warp (cc >= 2.0) */
typedef enum { REG_ALLOC_BLOCK, REG_ALLOC_WARP } RegAllocScope;

typedef struct {
    uint32_t size_bytes;     /* 0: the cache does not exist */
    uint32_t line_bytes;     /* 128 */
    uint32_t sector_bytes;   /* 32 (line_bytes when not sectored) */
    uint32_t assoc;          /* ways */
    uint32_t latency;        /* cycles for a hit, from issue to data */
} CacheConfig;

typedef struct GpuConfig {
    char *name;              /* "h200", or the file's stem */
    char *display_name;      /* "NVIDIA H200" */
    char *source_file;       /* where it was loaded from, for messages */
    uint32_t cc_major, cc_minor;
    uint32_t num_sms;
    double clock_mhz;        /* SM clock; gpu__time_duration = cycles / clock */

    /* per-SM limits (occupancy) */
    uint32_t max_warps_per_sm;   /* at most CONFIG_MAX_WARPS_PER_SM */
    uint32_t max_threads_per_sm;
    uint32_t max_blocks_per_sm;
    uint32_t max_threads_per_block;
    uint32_t max_grid[3];        /* blocks per grid dimension; 0: CUDA's current limits */
    uint32_t regs_per_sm;
    uint32_t regs_per_block;     /* max registers one block may hold */
    uint32_t max_regs_per_thread;
    uint32_t reg_alloc_unit;     /* registers are allocated in multiples of this */
    RegAllocScope reg_alloc_scope;
    uint32_t smem_per_sm;        /* bytes usable by blocks */
    uint32_t smem_per_block;     /* max bytes one block may use */
    uint32_t smem_alloc_unit;    /* bytes */
    uint32_t smem_reserved_per_block; /* bytes the system reserves per block (1 KB on cc >= 8) */

    /* issue */
    uint32_t schedulers_per_sm;
    uint32_t issue_width;        /* instructions per scheduler per cycle */
    SchedPolicy sched_policy;
    /* memory instructions a scheduler can hand to the SM's load/store pipe
     * ahead of it (waiting for the pipe to take them); 0: none, a memory
     * instruction issues only when the pipe is free */
    uint32_t lsu_queue_depth;
    /* cycles the SM's barrier unit takes to count one warp's arrival, one
     * arrival after another; a barrier opens latency[LAT_BARRIER] after
     * its last arrival is counted (0: arrivals are counted at once) */
    uint32_t barrier_arrival_cycles;
    /* cycles the SM's barrier unit counts no arrival after a barrier opens */
    uint32_t barrier_reset_cycles;
    /* ptxas unrolls a loop that no .pragma "nounroll" keeps rolled this many
     * times, so of its PTX iterations one in loop_unroll ends in a taken
     * branch of the machine code (timing.c); 1: no unrolling */
    uint32_t loop_unroll;
    /* per latency class (isa.h): cycles from issue until a dependent may issue */
    uint32_t latency[LAT_COUNT];
    /* per functional unit (isa.h; UNIT_ARITH is resolved by type and unused):
     * lanes of that unit per scheduler; a warp instruction occupies the unit
     * ceil(32 / lanes) cycles (the issue interval) */
    uint32_t unit_lanes[UNIT_COUNT];
    /* integers share the FP32 unit's pipe (Volta and later: IMAD on the FMA
     * pipe, and ptxas spreads adds, moves and constant shifts over both) */
    bool int_fma_pipe;

    /* memory */
    CoalesceRule coalescing;
    uint32_t smem_banks;         /* 16 or 32 */
    uint32_t smem_bank_bytes;    /* 4, or 8 for Kepler's 8-byte mode */
    bool smem_half_warp;         /* conflicts are counted per half-warp (cc < 2.0) */
    SmemWideRule smem_wide;      /* accesses of 8 and 16 B per lane (smem_banks.h) */
    uint32_t smem_latency;
    uint32_t const_latency;      /* constant-cache hit; each further distinct address adds a wavefront */
    CacheConfig l1;              /* per SM */
    bool l1_caches_global;       /* ld.global goes through L1 (else L2 only, L1 for local) */
    CacheConfig readonly;        /* ld.global.nc path; size 0: uses l1 */
    CacheConfig l2;              /* whole GPU */
    double l2_bytes_per_cycle;   /* L2 bandwidth, whole GPU, per SM cycle */
    double l2_requests_per_cycle;/* L2 transactions (lines' sectors) served per SM cycle, on top; 0: no limit */
    uint32_t dram_latency;       /* cycles, beyond the L2 miss */
    double dram_bytes_per_cycle; /* DRAM bandwidth, whole GPU, per SM cycle */
    uint32_t atomic_latency;     /* cycles for a global atomic at L2 */
    /* L2's atomic units, where global atomics to one place wait for each
     * other (memsys.c): atomic_units of them (0: not modelled), addresses
     * interleaved over them in atomic_unit_bytes; a unit goes over each
     * sector a request updates once per lane on the sector's busiest
     * address, each pass taking atomic_sector_cycles, or
     * atomic_full_sector_cycles when it updates every byte of the sector
     * (absent: atomic_sector_cycles) */
    uint32_t atomic_units;
    uint32_t atomic_unit_bytes;
    double atomic_sector_cycles;
    double atomic_full_sector_cycles;

    /* added with the occupancy calculator: warps of a block are counted in
     * multiples of this when registers are allocated (2 on cc 1.x and 2.x,
     * 4 from cc 3.0: the register file is split over the schedulers) */
    uint32_t warp_alloc_granularity;
    uint32_t dram_access_bytes;
    uint32_t launch_overhead_cycles; /* fixed cost of a launch (front end, CTA launch, drain), added to the elapsed cycles */  /* smallest DRAM access: a shorter transaction still moves this many bytes */
} GpuConfig;

#define CONFIG_DEFAULT_NAME "h200"
/* The most resident warps an SM may have: every NVIDIA SM so far (Kepler
 * to Hopper: 64), and what lets the timing model keep a scheduler's, and
 * an SM's, warps in one 64-bit mask. */
#define CONFIG_MAX_WARPS_PER_SM 64

/* name_or_path: a bundled config's name ("gtx1060") or a JSON file path.
 * overrides: NULL-terminated "key.path=value" strings, or NULL. */
GpuConfig *config_load(const char *name_or_path, const char *const *overrides, GError **error);
void config_free(GpuConfig *c);

/* Names of the bundled configurations, NULL-terminated (static storage). */
const char *const *config_bundled_names(void);

#endif
