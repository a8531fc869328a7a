/* timeline.h — a run's timed launches as a Chrome/Perfetto trace.
 *
 * Contract: timeline_open() creates FILE (the trace-event JSON format:
 * {"traceEvents": [...], "displayTimeUnit", "otherData"}); the timing
 * model records each launch into it (TimingStats.timeline) and
 * timeline_close() finishes the file.  Timestamps and durations count
 * simulated cycles (the format's unit is the microsecond: a viewer's "us"
 * reads "cycles"); launches follow each other on one time axis.
 *
 * Layout: pid 0 "GPU" has one span per launch; pid 1 + k is SM k, with a
 * track per CTA slot (tid 1000 + c: CTA lifetimes), per warp slot (tid k:
 * issue spans, stall spans named by the timing model's warp states,
 * barrier waits) and memory lanes (tid 2000 + l: global and local requests
 * from issue to data return, args sectors/bytes; a request takes the lowest
 * lane free at its start).  docs/timeline.md has the details.
 *
 * Recording into one SM (a TimelineSm) is done by one host thread at a
 * time; each SM has its own buffer and SMs are merged in SM order, and the
 * events a bound drops are chosen by content, so the file does not depend
 * on the order of recording or on the number of host threads.  The bound:
 * at most `limit` events in the file (metadata aside); each launch shares
 * what is left equally among the SMs it uses, each keeping its earliest
 * events; otherData says how many were dropped.
 */
#ifndef WARPSIM_TIMELINE_H
#define WARPSIM_TIMELINE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define TIMELINE_DEFAULT_LIMIT 2000000u

typedef struct Timeline Timeline;
typedef struct TimelineSm TimelineSm;

/* Memory request kinds (event names) */
typedef enum {
    TL_MEM_LD_GLOBAL,
    TL_MEM_ST_GLOBAL,
    TL_MEM_ATOM_GLOBAL,
    TL_MEM_LD_LOCAL,
    TL_MEM_ST_LOCAL,
    TL_MEM_KINDS
} TimelineMemKind;

/* Creates (truncates) path; limit 0 means TIMELINE_DEFAULT_LIMIT. */
Timeline *timeline_open(const char *path, uint64_t limit, GError **error);
/* Writes what remains and closes the file; frees tl either way. */
bool timeline_close(Timeline *tl, GError **error);
/* Frees without finishing the file (after another error). */
void timeline_abandon(Timeline *tl);

/* A launch: `state_names` names the warp states stall spans use (borrowed
 * for the launch).  slots_per_sm warp slots and ctas_per_sm CTA slots per
 * SM; sms_in_use SMs (of nsms) can receive CTAs. */
void timeline_launch_begin(Timeline *tl, const char *kernel, uint32_t nsms, uint32_t sms_in_use,
                           uint32_t slots_per_sm, uint32_t ctas_per_sm, const char *const *state_names,
                           uint32_t nstates);
TimelineSm *timeline_sm(Timeline *tl, uint32_t sm);
/* `cycles`: the launch's length (its span, and where the next one starts). */
void timeline_launch_end(Timeline *tl, uint64_t cycles);

/* Recording; times are cycles since the launch's start. */
void timeline_issue(TimelineSm *s, uint32_t slot, uint64_t t, uint64_t cta, uint32_t warp);
void timeline_warp_end(TimelineSm *s, uint32_t slot); /* closes its open issue span */
void timeline_stall(TimelineSm *s, uint32_t slot, uint32_t state, uint64_t from, uint64_t to);
void timeline_cta(TimelineSm *s, uint32_t cta_slot, uint64_t cta, uint32_t x, uint32_t y, uint32_t z,
                  uint64_t from, uint64_t to);
void timeline_mem(TimelineSm *s, uint32_t slot, TimelineMemKind kind, uint64_t from, uint64_t to,
                  uint32_t sectors, uint32_t bytes, uint32_t line);

#endif
