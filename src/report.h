/* report.h — the JSON report of a run (interfaces.md §2, docs/report.md).
 *
 * Contract: builders for the report object
 *   {"warpsim": "0.1.0", "config": NAME, "launches": [
 *      {"kernel", "grid", "block", "metrics": {...}, "checks": {...}}, ...]}
 * and for a launch's metrics from its functional counts (LaunchStats), so
 * that later models (timing, memory) add their own keys to the same object.
 * Every builder returns a new reference the caller owns.  Metric names and
 * their definitions live in docs/report.md; keep the two in step.
 */
#ifndef WARPSIM_REPORT_H
#define WARPSIM_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "launch.h"
#include "config.h"
#include "module.h"
#include "timing.h"

#define REPORT_WARPSIM_VERSION "0.1.0"

/* {"warpsim", "config", "issue_order", "launches": []}; name (the
 * manifest's) may be NULL; issue_order is "scheduled" when the PTX was
 * list-scheduled (schedule.h), else "ptx" */
json_t *report_new(const char *config_name, const char *manifest_name, bool scheduled);

/* {"kernel", "grid": [x,y,z], "block": [x,y,z], "metrics": {}, "checks": {}},
 * appended to report's "launches"; returns a borrowed reference to it. */
json_t *report_add_launch(json_t *report, const char *kernel, Dim3 grid, Dim3 block);

/* The functional metrics of one launch of `kernel` (counts summed over its
 * repetitions in `s`).  regs is the per-thread register count; estimated
 * says it came from the PTX rather than the manifest. */
json_t *report_metrics_from_stats(const Module *m, uint32_t kernel, const LaunchStats *s,
                                  Dim3 grid, Dim3 block, uint32_t regs, bool estimated);

/* Adds the timing model's metrics (cycles, occupancy, memory, stall
 * reasons; docs/metrics.md) to a launch's metrics object, and stall cycles
 * to its per-line table. */
void report_add_timing_metrics(json_t *metrics, const Module *m, const LaunchStats *s, const TimingStats *ts,
                               const GpuConfig *cfg);

/* One element as JSON: integers as numbers (u64 above 2^63 as a decimal
 * string), floats as numbers, or "nan", "inf", "-inf" where JSON has none. */
json_t *report_scalar(PtxType type, uint64_t bits);

/* Short human summary of a report: per launch the kernel, grid/block,
 * instruction counts, divergence and checks. */
void report_print_summary(FILE *out, json_t *report);

#endif
