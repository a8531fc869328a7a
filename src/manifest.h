/* manifest.h — launch manifests: loading, validating and running them.
 *
 * Contract: manifest_load() reads a launch manifest (docs/manifest.md;
 * fixed by interfaces.md §1) and validates everything that can be checked
 * without the PTX: JSON syntax, the type of every key, unknown and missing
 * keys, init kinds and their values' ranges, that named files exist and have
 * the right size, and that args and `expect` name buffers.  Every such error
 * is WS_ERR_INPUT "MANIFEST: error: JSON.PATH: what is wrong" (or
 * "MANIFEST:line:col: error: ..." for JSON syntax errors).
 *
 * manifest_run() then parses the PTX, checks the args against the kernels'
 * parameters, runs every launch over one shared global memory, compares the
 * `expect`s and builds the JSON report (docs/report.md).  A Manifest is not
 * changed by running it and may be run again.
 */
#ifndef WARPSIM_MANIFEST_H
#define WARPSIM_MANIFEST_H

#include <glib.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "isa.h"

typedef struct Manifest Manifest; /* opaque */

Manifest *manifest_load(const char *path, GError **error);
void manifest_free(Manifest *m);

typedef struct {
    const GpuConfig *config;   /* the GPU: its launch limits, and the timing model unless
                                  `functional`; NULL: functional, CUDA's generic limits */
    bool functional;           /* with config: no timing model */
    bool keep_going;           /* memcheck, racecheck and initcheck faults are collected
                                  and the launch goes on; the launch still fails */
    const char *config_name;   /* for the report when config is NULL; NULL: "h200" */
    const char *dump_dir;      /* NULL: no dump; else DIR/<buffer>.bin after the run */
    uint64_t max_instructions; /* warp-instruction budget per kernel launch, 0 = none */
    uint32_t threads;          /* host threads per launch (0 or 1: one) */
    bool lockstep;             /* timing: LaunchSpec.lockstep, for checking quanta */
    uint32_t sample_waves;     /* timing: simulate this many CTA waves in detail and
                                  extrapolate (sampling.h); 0 = every CTA */
    uint32_t checks;           /* LAUNCH_CHECK_* (launch.h) */
    bool ptx_order;            /* issue the PTX in its own order, not list-scheduled
                                  first (schedule.h: warpsim run --issue-order ptx) */
    uint64_t max_cycles;       /* timing: cycle budget per kernel launch, 0 = none */
    const struct ExecObserver *observer; /* borrowed, NULL: none; given to every launch
                                  (LaunchSpec.observer: warpsim trace) */
    struct Timeline *timeline; /* borrowed, NULL: none; timed launches are recorded
                                  into it (timeline.h: warpsim run --timeline) */
    struct HtmlReport *html;   /* borrowed, NULL: none; every reported launch is noted
                                  in it (html_report.h: warpsim run --html) */
} RunOptions;

/* Runs every launch in order.  On return *report holds the report built so
 * far whenever one could be built — also when FALSE is returned for a
 * kernel fault (WS_ERR_FAULT) or failed checks (WS_ERR_CHECK, the message
 * listing the first differing elements) — else NULL; the caller
 * json_decref()s it.  *failed_checks receives the number of `expect`s that
 * failed.  Buffers are dumped (when asked) even after a fault. */
gboolean manifest_run(Manifest *m, const RunOptions *opt, json_t **report,
                      guint *failed_checks, GError **error);

/* The contents of one buffer at the end of a run (manifest_run_capture). */
typedef struct {
    char *name;
    PtxType type;
    uint64_t count;        /* elements */
    GBytes *data;          /* count × type-size little-endian bytes */
} ManifestBuffer;

void manifest_buffer_free(ManifestBuffer *b);

/* manifest_run for comparing versions of a kernel (warpsim compare).  When
 * ptx_override is non-NULL every launch runs that PTX file (a path as given,
 * not relative to the manifest) instead of its own, with the launch's kernel
 * or, when the file has no kernel of that name, its only kernel.  When
 * buffers is non-NULL it receives the final contents of every buffer in
 * manifest order (a GPtrArray that frees its ManifestBuffers) whenever the
 * buffers were set up — also after a fault or a failed expectation — else
 * NULL.  Everything else is manifest_run's. */
gboolean manifest_run_capture(Manifest *m, const RunOptions *opt, const char *ptx_override,
                              GPtrArray **buffers, json_t **report, guint *failed_checks, GError **error);

/* ---- pieces exposed for the unit tests ---- */

/* One step of splitmix64 (Steele, Lea & Flood 2014): advances *state and
 * returns the next output; the `random` init kind's generator. */
uint64_t manifest_splitmix64(uint64_t *state);

/* The initial bytes of buffer `name` as the manifest's init defines them
 * (file inits are read).  Returns a new array of count × type-size bytes,
 * or NULL with error. */
GBytes *manifest_buffer_initial(const Manifest *m, const char *name, GError **error);

/* Element-wise comparison of `count` little-endian elements of `type`:
 * floats pass when |got - want| <= atol + rtol * |want| (NaN equals only
 * NaN), integers when bit-equal.  Returns the number of differing elements;
 * when details is non-NULL it receives up to `max_details` JSON objects
 * {"index", "got", "expected"} for the first differences. */
uint64_t manifest_compare_elements(PtxType type, const uint8_t *got, const uint8_t *want,
                                   uint64_t count, double rtol, double atol,
                                   json_t *details, guint max_details);

#endif
