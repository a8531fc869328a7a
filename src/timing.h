/* timing.h — the cycle-approximate GPU model around the functional core.
 *
 * Contract: timing_run() runs one kernel launch like launch_run() — same
 * outputs, same functional LaunchStats — but decides when each warp
 * instruction issues.  CTAs are dispatched to SMs while occupancy allows
 * (occupancy.h); each SM has the configured warp schedulers, each issuing
 * up to issue_width instructions per cycle from its warps (loose
 * round-robin or greedy-then-oldest), gated by a per-warp register
 * scoreboard, functional-unit issue intervals, the SM's memory pipe and
 * barriers.  Effects happen at issue (execute-at-issue); memory latency and
 * bandwidth come from memsys.h.  Cycles where nothing can issue are
 * skipped.  Everything is deterministic: one order of SMs, schedulers and
 * warps, integer time.
 *
 * Every resident warp-cycle is attributed to exactly one warp state
 * (selected, or the reason it could not issue), so the stall fractions add
 * up to 100 %.  docs/metrics.md defines each count.
 */
#ifndef WARPSIM_TIMING_H
#define WARPSIM_TIMING_H

#include <glib.h>
#include <stdint.h>

#include "config.h"
#include "launch.h"
#include "memsys.h"
#include "occupancy.h"

/* warp states, named as Nsight Compute's smsp__warp_issue_stalled_<name> */
#define TIMING_STATES(X) \
    X(SELECTED, "selected", "issued an instruction this cycle") \
    X(NOT_SELECTED, "not_selected", "could issue, but the scheduler picked another warp") \
    X(WAIT, "wait", "waiting on a fixed-latency result (ALU, FMA, conversion)") \
    X(SHORT_SCOREBOARD, "short_scoreboard", "waiting on shared memory, SFU or another MIO result") \
    X(LONG_SCOREBOARD, "long_scoreboard", "waiting on global or local memory (L1TEX)") \
    X(MATH_PIPE_THROTTLE, "math_pipe_throttle", "its functional unit is busy with earlier instructions") \
    X(MIO_THROTTLE, "mio_throttle", "a shared, constant or parameter access waits for the load/store pipe") \
    X(LG_THROTTLE, "lg_throttle", "a global or local access waits for the load/store pipe") \
    X(BRANCH_RESOLVING, "branch_resolving", "waiting for a branch target") \
    X(BARRIER, "barrier", "waiting at a CTA barrier for the other warps") \
    X(MEMBAR, "membar", "waiting at a memory fence (for the warp's global stores to reach L2, then the fence)")

typedef enum {
#define X(id, name, what) STATE_##id,
    TIMING_STATES(X)
#undef X
    STATE_COUNT
} WarpStateKind;

extern const char *const timing_state_names[STATE_COUNT];
extern const char *const timing_state_descriptions[STATE_COUNT];

typedef struct {
    uint64_t cycles;             /* sm__cycles_elapsed.max: launch to the last warp's end */
    uint64_t sm_active_cycles;   /* sm__cycles_active.sum: summed over SMs, cycles with a resident CTA */
    uint64_t warp_active_cycles; /* summed over warps: cycles from launch to exit on its SM */
    uint64_t issued;             /* warp instructions issued */
    uint64_t state_cycles[STATE_COUNT]; /* warp-cycles per state; sums to warp_active_cycles */
    uint32_t sms_used;
    uint32_t nfuncs;
    uint64_t **insn_stall;       /* [func][pc]: warp-cycles spent before issuing the instruction */
    MemCounters mem;
    uint64_t dram_drain_cycles;  /* how long DRAM was still busy after the last
                                    warp's end (memsys_dram_busy_until) */
    Occupancy occ;
    uint32_t regs_per_thread;
    uint64_t *cta_end;           /* when set by the caller (one entry per CTA of
                                    the spec's range): the cycle each CTA retired */
    struct Timeline *timeline;   /* when set by the caller: timing_run records the
                                    launch into it (timeline.h); borrowed */
} TimingStats;

void timing_stats_init(TimingStats *t, const Module *m);
void timing_stats_clear(TimingStats *t);
/* Sums counts (a repeated launch); cycles add up too. */
void timing_stats_accumulate(TimingStats *into, const TimingStats *from, const Module *m);

/* What the timed launches of a run keep on the host from one launch to the
 * next: the memory system (reset to cold caches and idle servers when the
 * next launch is on the same GpuConfig object), the block of the SMs'
 * warp state (each SM clears its part as it gets its first CTAs) and the
 * pool of registers of warps that run ahead to their end (a warp clears
 * the registers it reads before writing them), rather than mapping them
 * again and touching their pages for the first time,
 * which cost a small launch about a third of its time (measured).  Page
 * sizes stay as the launch that made them chose; nothing modelled depends
 * on them.  Given in LaunchSpec.timing_keep.  Launches that run at once may
 * share it: a launch takes what it holds, so the other makes its own, and
 * the one that ends last keeps its state. */
typedef struct TimingKeep TimingKeep;
TimingKeep *timing_keep_new(void);
void timing_keep_free(TimingKeep *k);

/* regs_per_thread feeds occupancy (0: registers do not limit).  The model's
 * caches start cold for every launch. */
bool timing_run(ModuleImage *img, const LaunchSpec *spec, const GpuConfig *cfg, uint32_t regs_per_thread,
                LaunchStats *stats, TimingStats *ts, GError **error);

#endif
