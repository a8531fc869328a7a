/* testutil.h — helpers shared by the Check suites. */
#ifndef WARPSIM_TESTUTIL_H
#define WARPSIM_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "launch.h"
#include "module.h"

/* A suite's main(): runs every test of `s` (each in a process of its own,
 * Check's default) and returns the exit status, failure when any failed. */
int tu_run_suite(Suite *s);

typedef struct {
    void *data;   /* host bytes: copied to the device before, back after */
    size_t size;
} TuBuf;

/* Parse `ptx`, build its CFGs and launch `kernel` on grid (gx,1,1) x block
 * (bx,1,1).  The kernel's parameters are, in order, the device addresses of
 * bufs[0..nbufs) followed by the nscalars 64-bit values in scalars (each
 * packed at its parameter's declared width).  After the run every buffer is
 * copied back.  Returns NULL on success, else the error message (g_free it). */
char *tu_run(const char *ptx, const char *kernel, uint32_t gx, uint32_t bx,
             TuBuf *bufs, int nbufs, const uint64_t *scalars, int nscalars);

/* tu_run, calling hook(img, hook_data) once the module image is loaded and
 * before the launch (to inspect or change how it will execute). */
typedef void (*TuImageHook)(void *img, void *hook_data);
char *tu_run_hooked(const char *ptx, const char *kernel, uint32_t gx, uint32_t bx,
                    TuBuf *bufs, int nbufs, const uint64_t *scalars, int nscalars,
                    TuImageHook hook, void *hook_data);

/* tu_run with more to say: all fields optional (zero: as tu_run). */
typedef struct {
    TuImageHook hook;           /* as tu_run_hooked's */
    void *hook_data;
    /* called with the launch's counts once it has run (also after a fault) */
    void (*on_stats)(const LaunchStats *stats, void *data);
    void *stats_data;
    uint64_t max_instructions;  /* the launch's budget (0: ten million) */
} TuOptions;
char *tu_run_with(const char *ptx, const char *kernel, uint32_t gx, uint32_t bx,
                  TuBuf *bufs, int nbufs, const uint64_t *scalars, int nscalars, const TuOptions *opt);

/* The index of the first instruction of f written on PTX line `line`;
 * fails the test when there is none. */
uint32_t tu_insn_at_line(const Function *f, uint32_t line);

/* Absolute path of a file in the source tree (g_free it). */
char *tu_source_path(const char *relative);

#endif
