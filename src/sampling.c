/* sampling.c — timing a large grid from a few of its waves (sampling.h).
 *
 * The estimate: with F_j the cycle at which the last CTA of wave j (CTAs
 * j*W .. (j+1)*W-1 in launch order) retired, the steady time per wave is
 * the mean of d_j = F_j - F_(j-1) over the detailed waves after the first
 * (the first also fills the GPU and warms the caches).  The launch then
 * takes the detailed cycles plus that time for every wave not simulated,
 * counting a last, partial wave by its share of CTAs.
 * A kernel that saturates DRAM builds a queue over many waves, so its
 * first waves look faster than its last: the estimate is never below the
 * time DRAM needs for the whole grid's traffic at the configured
 * bandwidth.  That traffic is the detailed waves' bytes read and written,
 * scaled by CTAs, less what the L2 still holds dirty when the grid ends
 * (written back at the end, counted as DRAM writes but costing no time).
 * The first waves' writes mostly wait in the L2, which is why their
 * rhythm misses the write-backs that later waves pay for; at the end of a
 * long grid the L2 holds its recent traffic, dirty in the share that
 * writes have of it: at most that share of the L2, and no more than the
 * grid writes.
 * The error bound assumes the remaining waves vary no more than the
 * detailed ones did: the largest |d_j - mean| per remaining wave, or, with
 * only two detailed waves, the difference between the first and second;
 * a partial last wave may take anything up to a whole step, so the part
 * of a step the estimate leaves out for it is added;
 * when the DRAM floor decides, it also covers the gap to the rhythm.
 *
 * The remaining CTAs do not depend on the estimate: with several host
 * threads, CTAs that may run apart (launch_ctas_run_apart) and no check or
 * fault log watching (launch_order_watched), they run functionally on half
 * the threads while the detailed waves are timed on the others, and the
 * thread that timed them joins the rest when it is done
 * (launch_share_join).  Outputs and counts are the same as one after the
 * other.
 */
#include "sampling.h"

#include <math.h>

#include "occupancy.h"

bool sampling_run(ModuleImage *img, const LaunchSpec *spec, const GpuConfig *cfg, uint32_t regs_per_thread,
                  uint32_t waves, LaunchStats *stats, TimingStats *ts, SampleInfo *info, GError **error)
{
    *info = (SampleInfo){0};
    uint64_t *shared_offset = NULL;
    uint32_t shared_size = 0;
    if (!launch_prepare(img->module, spec, &shared_offset, &shared_size, error))
        return false;
    g_free(shared_offset);
    Occupancy occ;
    occupancy_compute(cfg, spec->block.x * spec->block.y * spec->block.z, regs_per_thread, shared_size, &occ);
    uint64_t nctas = (uint64_t)spec->grid.x * spec->grid.y * spec->grid.z;
    uint64_t wave = (uint64_t)occ.blocks_per_sm * cfg->num_sms;
    info->waves = wave ? (nctas + wave - 1) / wave : 0;
    waves = MAX(waves, 2u);
    if (wave == 0 || info->waves <= waves) {
        /* nothing to gain, or a launch that does not fit: timing_run says why */
        bool ok = timing_run(img, spec, cfg, regs_per_thread, stats, ts, error);
        info->detailed_waves = info->waves;
        info->detailed_ctas = nctas;
        info->detailed_cycles = info->estimated_cycles = ts->cycles;
        return ok;
    }
    LaunchSpec detailed = *spec;
    detailed.cta_first = 0;
    detailed.cta_count = waves * wave;
    /* the rest only for its outputs and functional counts */
    LaunchSpec remaining = *spec;
    remaining.cta_first = detailed.cta_count;
    remaining.cta_count = 0;
    /* with several threads, others start on the rest at once; this one
     * joins them when the detailed waves are done */
    LaunchShare *others = NULL;
    if (spec->host_threads > 1 && !spec->max_cycles && !launch_order_watched(spec) &&
        launch_ctas_run_apart(img, spec)) {
        uint32_t helpers = spec->host_threads / 2;
        detailed.host_threads = spec->host_threads - helpers;
        others = launch_share_new(img, &remaining, helpers, error);
        if (!others)
            return false;
    }
    uint64_t *ends = g_new0(uint64_t, detailed.cta_count);
    ts->cta_end = ends;
    bool ok = timing_run(img, &detailed, cfg, regs_per_thread, stats, ts, error);
    ts->cta_end = NULL;
    if (others) {
        GError *rest_error = NULL;
        bool rest_ok = launch_share_join(others, ok ? stats : NULL, &rest_error);
        if (ok && !rest_ok)
            g_propagate_error(error, g_steal_pointer(&rest_error));
        g_clear_error(&rest_error);
        ok = ok && rest_ok;
    }
    if (ok) {
        /* F_j and the per-wave steps */
        uint64_t *finish = g_new0(uint64_t, waves);
        uint64_t latest = 0;
        for (uint64_t i = 0; i < detailed.cta_count; i++) {
            latest = MAX(latest, ends[i]);
            if ((i + 1) % wave == 0)
                finish[i / wave] = latest;
        }
        double mean = 0;
        for (uint32_t j = 1; j < waves; j++)
            mean += (double)(finish[j] - finish[j - 1]);
        mean /= (double)(waves - 1);
        double spread = 0;
        if (waves > 2) {
            for (uint32_t j = 1; j < waves; j++)
                spread = MAX(spread, fabs((double)(finish[j] - finish[j - 1]) - mean));
        } else {
            spread = fabs((double)finish[0] - mean);
        }
        /* the remaining CTAs in waves, the last one possibly partial: in
         * steady state CTAs retire at a rate, so a third of a wave takes
         * about a third of a step; a latency-bound one may take the whole
         * step, which the bound covers */
        double rest = (double)(nctas - detailed.cta_count) / (double)wave;
        double rest_waves = (double)(info->waves - waves);
        double rhythm = (double)ts->cycles + mean * rest;
        double dram_floor = 0;
        if (cfg->dram_bytes_per_cycle > 0) {
            double scale = (double)nctas / (double)detailed.cta_count;
            double read = (double)ts->mem.dram_bytes_read * scale, written = (double)ts->mem.dram_bytes_write * scale;
            double write_share = read + written > 0 ? written / (read + written) : 0;
            double dirty_at_end = MIN(written, (double)cfg->l2.size_bytes * write_share);
            /* the last writes may drain after the last warp: as long as
             * they did after the detailed waves */
            dram_floor = MAX((read + written - dirty_at_end) / cfg->dram_bytes_per_cycle -
                                 (double)ts->dram_drain_cycles, 0.0) +
                         (double)cfg->launch_overhead_cycles;
        }
        double estimate = MAX(rhythm, dram_floor);
        double bound = spread * rest_waves + mean * (rest_waves - rest) + (estimate > rhythm ? estimate - rhythm : 0);
        info->sampled = true;
        info->detailed_waves = waves;
        info->detailed_ctas = detailed.cta_count;
        info->detailed_cycles = ts->cycles;
        info->estimated_cycles = (uint64_t)llround(estimate);
        info->error_bound_pct = 100.0 * bound / MAX(estimate, 1.0);
        ts->cycles = info->estimated_cycles;
        g_free(finish);
        if (!others)
            ok = launch_run(img, &remaining, stats, error);
    }
    g_free(ends);
    return ok;
}
