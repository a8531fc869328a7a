/* profile.c — every launch's profile: an entry in the JSON report warpsim
 * run writes (report.h; written at exit to WARPSIM_REPORT), and per-kernel
 * totals for the nvprof-like summary table (WARPSIM_SUMMARY), which names
 * kernels demangled as nvprof does; the report keeps the PTX names. */
#include <stdio.h>

#include "cudart_internal.h"
#include "report.h"

void cudart_profile_launch(CudartDevice *d, CudartKernel *k, Dim3 grid, Dim3 block, const LaunchStats *ls,
                           const TimingStats *ts, double sim_ns, const char *fault)
{
    if (k->calls == 0)
        g_ptr_array_add(d->kernel_order, k);
    k->calls++;
    k->sim_ns += sim_ns;
    k->warp_insts += ls->warp_insts;
    if (!d->report_path && !d->summary)
        return;
    const Module *m = k->mod->module;
    json_t *entry = report_add_launch(d->report, k->name, grid, block);
    /* a launch that faulted keeps the counts of what ran before the fault,
     * as `warpsim run` reports it */
    if (fault)
        json_object_set_new(entry, "error", json_string(fault));
    json_t *mx = report_metrics_from_stats(m, k->kernel, ls, grid, block, k->regs, true);
    if (ts)
        report_add_timing_metrics(mx, m, ls, ts, d->gpu);
    else
        json_object_set_new(mx, "warpsim__estimated_time_ns", json_real(sim_ns));
    json_object_set_new(entry, "metrics", mx);
}

static void print_summary(const CudartDevice *d)
{
    double total = 0;
    for (guint i = 0; i < d->kernel_order->len; i++)
        total += ((CudartKernel *)g_ptr_array_index(d->kernel_order, i))->sim_ns;
    fprintf(stderr, "==warpsim== Profiling result (%s, %s time%s):\n", d->gpu ? d->gpu->name : "?",
            d->functional ? "estimated functional" : "simulated", d->ptx_order ? ", PTX order" : "");
    fprintf(stderr, "==warpsim== %7s %12s %7s %12s %14s  %s\n", "Time(%)", "Time", "Calls", "Avg", "Warp insts",
            "Name");
    for (guint i = 0; i < d->kernel_order->len; i++) {
        CudartKernel *k = g_ptr_array_index(d->kernel_order, i);
        fprintf(stderr, "==warpsim== %6.2f%% %10.3fus %7" G_GUINT64_FORMAT " %10.3fus %14" G_GUINT64_FORMAT "  %s\n",
                total > 0 ? 100.0 * k->sim_ns / total : 0.0, k->sim_ns / 1000.0, k->calls,
                k->sim_ns / 1000.0 / (double)k->calls, k->warp_insts, cudart_kernel_display_name(k));
    }
}

void cudart_profile_finish(CudartDevice *d)
{
    if (d->summary)
        print_summary(d);
    if (d->report_path && d->report &&
        json_dump_file(d->report, d->report_path, JSON_INDENT(1) | JSON_SORT_KEYS) != 0)
        cudart_message("error: %s: cannot write the report", d->report_path);
}
