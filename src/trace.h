/* trace.h — following one warp through a launch, step by step (warpsim trace).
 *
 * Contract: a Trace is an ExecObserver (exec.h) for one warp of one kernel
 * launch.  Put trace_observer() into RunOptions.observer (manifest.h) and
 * run the manifest on one host thread: each instruction the warp executes
 * becomes a TraceRecord — where it was (function, pc, basic block, PTX
 * line), when (the timing model's issue cycle, or the issue number in a
 * functional run), which lanes ran it, what it did to the reconvergence
 * stack, and, in the timing model, the stretches since the warp's previous
 * issue with the stall reason the model attributes to each.  Records go to
 * a sink as they happen: by default one that prints them (text or JSON
 * Lines, docs/trace.md) and, when stepping, reads a command after each one
 * (Enter, c, q, r REG, s, h); tests set their own sink.
 *
 * Records and everything they point to live only during the sink call.
 */
#ifndef WARPSIM_TRACE_H
#define WARPSIM_TRACE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exec.h"

typedef struct Trace Trace;

/* A stretch of cycles [from, to) in which the warp did not issue. */
typedef struct {
    uint64_t from, to;
    unsigned reason;        /* WarpStateKind (timing.h) */
} TraceStall;

/* One register's value in each chosen lane (TraceOptions.lanes). */
typedef struct {
    uint32_t reg;           /* register index in the record's function */
    bool written;           /* a destination: its value after the step; else a
                               source: its value before the step */
    uint64_t value[WARP_SIZE]; /* by position in TraceOptions.lanes */
} TraceRegValues;

/* How the step changed the warp's paths. */
typedef enum {
    TRACE_FLOW_NONE,        /* same path, same lanes */
    TRACE_FLOW_DIVERGED,    /* a branch split the path: both halves pushed */
    TRACE_FLOW_SWITCHED,    /* a path reached its join; another path waiting
                               on the stack runs next */
    TRACE_FLOW_RECONVERGED, /* paths reached their join: the lanes run together */
    TRACE_FLOW_CALL,        /* entered a function */
    TRACE_FLOW_RETURNED,    /* left a function */
    TRACE_FLOW_EXITED,      /* some lanes exited */
    TRACE_FLOW_DONE,        /* the warp finished */
} TraceFlow;

typedef struct {
    uint64_t issue;         /* the warp's instruction count before this one (0, 1, ...) */
    uint64_t cycle;         /* the timing model's issue cycle; in a functional run = issue */
    const Module *module;
    uint32_t func, pc;
    uint32_t block;         /* basic block of pc (cfg.h numbering) */
    uint32_t live;          /* the warp's live lanes before the step */
    uint32_t active;        /* lanes on the path */
    uint32_t exec;          /* of those, lanes whose guard held */
    bool blocked;           /* the warp now waits at a barrier */
    TraceFlow flow;
    const StackEntry *stack;/* the reconvergence stack after the step, bottom first
                               (entries from Warp.frames[k].stack_base on are
                               pcs of frame k's function) */
    uint32_t depth;
    const TraceStall *stalls; /* timing: the stretches since the previous issue */
    uint32_t nstalls;
    const TraceRegValues *regs; /* with TraceOptions.lanes: written, then read */
    uint32_t nregs;
    const Warp *warp;       /* the warp after the step (read only) */
} TraceRecord;

/* Returns false (with *error) to stop the launch. */
typedef bool (*TraceSink)(void *data, const TraceRecord *r, GError **error);

typedef struct {
    Dim3 block;             /* the CTA */
    uint32_t warp;          /* warp index in the CTA */
    uint32_t launch;        /* kernel launches of the manifest counted from 0 (%gridid - 1) */
    const uint32_t *lanes;  /* lanes whose register values to show (copied) */
    uint32_t nlanes;
    bool timing;            /* cycles (timing model) or issue numbers (functional) */
    const char *config_name;/* for the header */
    /* the printing sink */
    FILE *out;              /* NULL: stdout */
    bool json;              /* JSON Lines instead of text */
    bool step;              /* after each record, read a command from `in` */
    FILE *in;               /* NULL: stdin */
    FILE *prompt;           /* where prompts go (NULL: none) */
} TraceOptions;

/* Fails (WS_ERR_USAGE) on a lane outside 0..31. */
Trace *trace_new(const TraceOptions *opt, GError **error);
void trace_free(Trace *t);
/* Replaces the printing sink. */
void trace_set_sink(Trace *t, TraceSink sink, void *data);
/* For RunOptions.observer / LaunchSpec.observer; owned by the trace. */
const ExecObserver *trace_observer(Trace *t);
/* Instructions traced so far. */
uint64_t trace_count(const Trace *t);
/* The user quit while stepping: the launch stopped with the error the
 * observer set, which is no failure. */
bool trace_quit(const Trace *t);

/* The name the trace gives a lane mask: 32 characters, lane 0 first —
 * '1' runs the instruction, '0' is on the path but its guard is false,
 * '.' is live but waits on another path, '-' has no live thread.
 * buf holds at least 33 bytes. */
void trace_mask_text(uint32_t live, uint32_t active, uint32_t exec, char *buf);
/* Name of a block: its label, or B<index>. */
const char *trace_block_name(const Function *fn, uint32_t block, char *buf, size_t n);
/* The name of a flow kind ("diverged", ...). */
const char *trace_flow_name(TraceFlow f);

#endif
