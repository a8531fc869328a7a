/* sampling.h — timing a large grid from a few of its waves.
 *
 * Contract: sampling_run() simulates the first `waves` waves of CTAs (a
 * wave is what the GPU holds at once: blocks per SM x SMs) in the timing
 * model, runs the remaining CTAs functionally so every output is still
 * computed, and extrapolates the launch's cycles from the waves' steady
 * rhythm.  Functional counts in LaunchStats cover the whole grid; the
 * TimingStats describe the detailed waves, except `cycles`, which becomes
 * the estimate.  A grid of no more waves than asked for runs in full.
 */
#ifndef WARPSIM_SAMPLING_H
#define WARPSIM_SAMPLING_H

#include <glib.h>

#include "config.h"
#include "launch.h"
#include "timing.h"

typedef struct {
    uint64_t waves;            /* waves of the whole grid */
    uint64_t detailed_waves;   /* of those, simulated in the timing model */
    uint64_t detailed_ctas;
    uint64_t detailed_cycles;  /* cycles of the detailed waves alone */
    uint64_t estimated_cycles; /* the launch's cycles, extrapolated */
    double error_bound_pct;    /* how far the waves' rhythm varied, as a bound
                                  on the estimate's error (docs/metrics.md) */
    bool sampled;              /* false: the grid ran in full */
} SampleInfo;

bool sampling_run(ModuleImage *img, const LaunchSpec *spec, const GpuConfig *cfg, uint32_t regs_per_thread,
                  uint32_t waves, LaunchStats *stats, TimingStats *ts, SampleInfo *info, GError **error);

#endif
