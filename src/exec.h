/* exec.h — functional SIMT execution of one warp instruction at a time.
 *
 * Contract: a Warp holds 32 lanes' registers (lane-contiguous: value of
 * register r in lane l is regs[r * 32 + l]), an active mask and a
 * reconvergence stack whose entries are (pc, reconvergence pc, mask); a
 * divergent branch pushes both paths with the branch's immediate
 * post-dominator as their join.  warp_step() executes exactly one warp
 * instruction — the unit the timing model schedules — and reports what it
 * did in a StepInfo.  Execution happens at issue: effects are visible to
 * the next instruction of any warp.
 *
 * A Cta owns its shared memory, its warps and their barrier state.  The
 * launch (launch.c) creates CTAs and drives warp_step; nothing here loops
 * over more than one warp except barrier release.
 */
#ifndef WARPSIM_EXEC_H
#define WARPSIM_EXEC_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "launch.h"
#include "module.h"

#define WARP_SIZE 32
#define FULL_MASK 0xFFFFFFFFu
#define MAX_BARRIERS 16
#define CLUSTER_BARRIER MAX_BARRIERS /* Warp.barrier_id of a warp in barrier.cluster.wait */
#define RPC_NONE UINT32_MAX /* a stack entry that never reconverges (bottom, call) */

typedef struct {
    uint32_t pc;   /* next instruction of this path */
    uint32_t rpc;  /* pop when pc reaches it */
    uint32_t mask;
} StackEntry;

typedef struct {
    uint32_t func;          /* function index */
    uint64_t *regs;         /* nslots * 32 lane values (cfg.h: registers that are
                               never live together share a row) */
    const uint32_t *slot_of;/* register index -> row, the function's Cfg.slot_of */
    uint8_t *params;        /* 32 * param_stride: per-lane .param frame */
    uint32_t param_stride;
    uint32_t local_base;    /* offset of this frame in each lane's local memory */
    uint32_t stack_base;    /* reconvergence-stack depth when the frame was entered */
    uint32_t call_site;     /* caller's call instruction (returns go to +1) */
    uint32_t lanes;         /* lanes that entered the frame */
} Frame;

/* The 32 lane values of register `reg` in frame f. */
static inline uint64_t *frame_row(const Frame *f, uint32_t reg)
{
    return f->regs + (size_t)f->slot_of[reg] * WARP_SIZE;
}

typedef enum { WARP_READY, WARP_AT_BARRIER, WARP_DONE } WarpState;

/* Warp.lent: buffers carved from storage the caller lent (cta_lend); the
 * warp never frees them, and moves to its own when one must grow. */
enum {
    WARP_LENT_STACK = 1,
    WARP_LENT_FRAMES = 2,
    WARP_LENT_REGS = 4,  /* kernel_regs and kernel_params */
    WARP_LENT_POOLED = 8 /* kernel_regs come and go: warp_attach_regs(), warp_detach_regs() */
};

typedef struct Cta Cta;

typedef struct {
    Cta *cta;
    uint32_t index;         /* warp index within the CTA */
    uint32_t live;          /* lanes holding a thread that has not exited */
    uint32_t left_early;    /* lanes that exited at a branch to the kernel's end
                               (exec_BRA) where the PTX would have them wait at
                               the join: still "elsewhere" for the divergence map */
    WarpState state;
    uint32_t barrier_id;    /* when WARP_AT_BARRIER */
    /* barrier.cluster: the lanes that arrived in the cluster barrier's
     * current phase, and the phase + 1 of the warp's arrival (all its live
     * lanes; 0: none since its last wait) */
    uint32_t cluster_lanes, cluster_arrived_in;
    StackEntry *stack;
    uint32_t depth, stack_cap;
    Frame *frames;
    uint32_t nframes, frames_cap;
    uint8_t *local;         /* 32 * local_stride bytes, lazily allocated */
    uint32_t local_stride;
    uint32_t local_top;     /* bytes of local memory used by the frames */
    uint32_t carry;         /* .cc carry flag per lane */
    uint32_t pending_red_dst; /* bar.red destination register, NO_INDEX if none */
    uint8_t pending_red_type; /* PtxType of that destination */
    WarpAccess *mem_log;    /* when set (timing model), each step records its
                               memory accesses here; the caller clears mask */
    uint64_t *kernel_regs;  /* the kernel frame's registers and .param area, */
    size_t kernel_regs_len; /* kept across CTAs so a new CTA allocates nothing */
    uint8_t *kernel_params;
    size_t kernel_params_len;
    uint8_t lent;           /* WARP_LENT_*: buffers that are the caller's (cta_lend) */
    /* hang detection (exec.c, hang_check): Brent's cycle finding over the
     * warp's state at taken backward branches */
    uint64_t steps;         /* instructions executed */
    uint64_t loop_branches; /* taken backward branches after HANG_CHECK_AFTER steps */
    uint64_t loop_seen, loop_power;
    uint64_t snap_hash, snap_stores;
    bool snap_valid;
    bool cycling;           /* found repeating its state while stores == cycling_stores */
    uint64_t cycling_stores;
} Warp;

/* Per byte of shared memory, for the opt-in checks (LAUNCH_CHECK_*): who
 * last wrote and read it, and in which barrier interval (epoch; 0 = never). */
typedef struct {
    uint32_t write_epoch, read_epoch;
    uint16_t writer, reader; /* warp index + 1; reader SHADOW_MANY_READERS when several */
} SharedShadow;
#define SHADOW_MANY_READERS UINT16_MAX

typedef struct {
    uint32_t arrived;       /* warps arrived at this barrier */
    uint32_t expected;      /* warps the barrier waits for; 0 = all live warps */
    uint32_t red_popc, red_and, red_or; /* bar.red accumulators */
    uint8_t red_op;
} Barrier;

struct Cta {
    const Module *module;
    ModuleImage *image;
    const LaunchSpec *spec;
    LaunchStats *stats;
    Dim3 ctaid;
    uint32_t nthreads;
    uint32_t smid;
    uint8_t *shared;        /* shared_size bytes */
    uint32_t shared_size;   /* the launch's shared memory, then the reserved region if any */
    uint32_t user_shared;   /* the launch's: static and dynamic (%total_smem_size) */
    const uint64_t *shared_offset; /* per variable: offset in shared memory (launch layout) */
    uint32_t nwarps, done_warps;
    Warp *warps;            /* warps_cap allocated, nwarps in use */
    uint32_t warps_cap;
    bool warps_lent;        /* warps is the caller's (cta_lend), not to be freed */
    bool warps_own;         /* some lent warp took memory of its own (local memory,
                               a call's frame, a buffer grown past the lent one),
                               kept with the warps from CTA to CTA: without it,
                               cta_release need not look at them */
    uint32_t shared_cap;    /* bytes allocated at shared */
    bool shared_lent;       /* shared is the caller's (cta_lend), not to be freed */
    Barrier barriers[MAX_BARRIERS];
    /* barrier.cluster.arrive/.wait: a cluster is this CTA alone, so its
     * barrier is the CTA's: warps arrived in the current phase, and the
     * phases completed */
    uint32_t cluster_arrived, cluster_phase;
    uint64_t clock;         /* for %clock: instructions issued so far in this CTA */
    SharedShadow *shadow;   /* shared_size entries when spec->checks asks, else NULL */
    uint32_t shadow_cap;
    uint32_t epoch;         /* barrier intervals completed + 1 */
    uint64_t stores;        /* store and atomic instructions its warps executed */
    uint32_t host_thread;   /* the host thread running it (0 unless its launcher
                               sets it after cta_init): where its global stores
                               are counted (gmem_count_store) */
    guint gmem_hint;        /* its last global lookup's allocation (gmem_lookup) */
    uint64_t discard[4];    /* target of a faulting access when the launch keeps going */
    uint32_t coop_slot;     /* a cooperative launch's CTA: its index in
                               image->coop_ctas + 1 (launch_coop_join); 0 otherwise */
};

/* What one step did: for the timing model and the statistics. */
typedef struct {
    uint32_t pc;            /* instruction executed */
    uint32_t func;
    uint32_t active;        /* lanes active on the path */
    uint32_t exec;          /* of those, lanes whose guard held */
    bool diverged;          /* a branch split the warp */
    bool blocked;           /* the warp now waits at a barrier */
} StepInfo;

/* Create a CTA's warps and shared memory; fails on out-of-memory only.
 * *cta must be zeroed, released, or a CTA initialised before: then its
 * allocations are reused (a launch runs CTA after CTA in one Cta). */
bool cta_init(Cta *cta, const Module *m, ModuleImage *img, const LaunchSpec *spec,
              const uint64_t *shared_offset, uint32_t shared_size, Dim3 ctaid,
              LaunchStats *stats, GError **error);
/* Free everything; leaves *cta zeroed. */
void cta_release(Cta *cta);

/* The bytes of shared memory a CTA of module m holds for `shared` bytes
 * of the launch's: those, then the 1 KiB reserved region when the module
 * reads %reserved_smem_offset_* (at align_up(shared, 128)).  The
 * occupancy counts the launch's bytes and the config's per-block
 * reservation, as the hardware does. */
#define RESERVED_SMEM_BYTES 1024u
/* %reserved_smem_offset_end past the region's start, as the H200 reports
 * it (measured: begin 0, end 288, cap 1024) */
#define RESERVED_SMEM_END 288u
uint32_t cta_shared_bytes(const Module *m, uint32_t shared);

/* The bytes cta_lend() needs for nwarps warps running kernel k and
 * `shared` bytes of shared memory; without their kernel registers when
 * `pooled` (below). */
size_t cta_lend_bytes(const Function *k, uint32_t nwarps, bool pooled, uint32_t shared);
/* Before the first cta_init of a zeroed *cta: its warps, their stacks,
 * frames and kernel registers, and its shared memory, are carved from
 * `store` (cta_lend_bytes(k, nwarps, pooled, shared) zeroed bytes, 64-byte
 * aligned), which the caller owns and frees after cta_release.  Why: a
 * timed launch keeps thousands of warps resident at once, and one block
 * for all of them (in huge pages, hostmem.h) costs a fraction of
 * thousands of small allocations touched for the first time.
 * CTAs of kernel k with at most nwarps warps and `shared` bytes of shared
 * memory then allocate nothing. */
void cta_lend(Cta *cta, const Function *k, uint32_t nwarps, void *store, bool pooled, uint32_t shared);
/* Kernel registers lent one warp at a time (cta_lend with `pooled`): the
 * store holds none, and a warp that starts has none (kernel_regs NULL)
 * until the caller attaches a block of warp_pooled_regs_bytes(k) bytes
 * (64-byte aligned, any contents: the rows read before they are written
 * are cleared), before the warp executes anything.  Detaching takes it
 * back once the warp will read or write no register again (it is done, or
 * its next instruction ends it alone, insn_ends_warp_alone(), with no
 * other path or frame pending) and returns it; else, or when the warp has
 * none, it returns NULL and changes nothing.  Then a few blocks serve
 * thousands of resident warps that have executed ahead to their end, for
 * the timing model. */
size_t warp_pooled_regs_bytes(const Function *k);
void warp_attach_regs(Warp *w, uint64_t *regs);
uint64_t *warp_detach_regs(Warp *w);

/* ret or exit with no guard: at the bottom of a kernel's stack, a warp's
 * last instruction, which reads no register. */
static inline bool insn_ends_warp_alone(const Insn *in)
{
    return (in->op == OP_RET || in->op == OP_EXIT) && in->guard == NO_INDEX;
}

/* Execute the warp's next instruction.  Returns false with a WS_ERR_FAULT
 * error on a kernel fault; the CTA is then unusable. */
bool warp_step(Warp *w, StepInfo *info, GError **error);

/* Execute up to max_steps instructions while the warp stays ready (it
 * stops early when it finishes or waits at a barrier); *executed receives
 * the count.  The functional launch's inner loop: equivalent to repeated
 * warp_step, without settling the stack between straight-line
 * instructions. */
bool warp_run(Warp *w, uint32_t max_steps, uint32_t *executed, GError **error);

/* Where one executed instruction was. */
typedef struct {
    uint32_t func, pc;
} StepPos;

/* Told of each memory access a step ahead makes (step: its index in
 * steps[]), while the access is in `log`, before the next step runs. */
typedef struct {
    void (*on_access)(void *data, uint32_t step, const WarpAccess *log);
    void *data;
    WarpAccess *log;     /* where the steps ahead record their accesses */
    uint32_t max_records; /* RUN_AHEAD_RECORD accesses the caller can keep: the
                             run stops before one more */
} AheadAccesses;

/* may_run[func][pc] of warp_run_ahead */
enum {
    RUN_AHEAD_NO,
    RUN_AHEAD_YES,
    RUN_AHEAD_ACCESS, /* yes, and it accesses memory */
    RUN_AHEAD_RECORD  /* yes, up to max_records of them, and it accesses memory,
                         which the caller keeps to time at issue */
};

/* Execute the warp's next instructions early, for the timing model, while
 * may_run[func][pc] allows the next one (an instruction whose result
 * cannot depend on when it runs: its registers, stack and frames, or
 * memory whose timing the caller can work out from the addresses, which
 * `accesses` hands it; NULL: no memory), the warp stays ready and fewer
 * than max ran; steps[] receives where each one was and *executed the
 * count.  On a fault the error is returned for the instruction that would
 * have run next; the steps before it stand. */
bool warp_run_ahead(Warp *w, const uint8_t *const *may_run, uint32_t max, StepPos *steps, uint32_t *executed,
                    const AheadAccesses *accesses, GError **error);

/* Release barriers whose arrivals are complete (after a warp arrived or a
 * warp finished).  Returns true if some warp was released. */
bool cta_try_release_barriers(Cta *cta);

/* The instruction the warp will execute next (function and pc); false when
 * the warp has finished. */
static inline bool warp_peek(const Warp *w, uint32_t *func, uint32_t *pc)
{
    if (w->state == WARP_DONE || w->depth == 0 || w->nframes == 0)
        return false;
    *func = w->frames[w->nframes - 1].func;
    *pc = w->stack[w->depth - 1].pc;
    return true;
}

/* ---- observing one warp (warpsim trace) ----
 *
 * LaunchSpec.observer, when set, hears about every instruction the chosen
 * warp(s) execute, after the instruction ran and the stack settled.  An
 * observed warp runs on the general step path (no run-ahead, no batched
 * straight-line loop), so the events come in execution order and, in the
 * timing model, at issue; unobserved warps and launches without an
 * observer run exactly as before (one NULL test per warp_run call).
 * Callbacks come from the host thread simulating the warp's CTA (or SM):
 * an observer of one warp hears from one thread at a time. */
typedef struct {
    const Warp *warp;       /* read-only view: stack, frames, registers, after the step */
    uint32_t func, pc;      /* the instruction executed */
    uint32_t live_before;   /* the warp's live lanes before it (exit removes some) */
    uint32_t active;        /* lanes on the path */
    uint32_t exec;          /* of those, lanes whose guard held */
    bool diverged;          /* a branch split the warp */
    bool blocked;           /* the warp now waits at a barrier */
    uint64_t clock;         /* the CTA clock at issue: the timing model's issue
                               cycle; in a functional run the CTA's count of
                               instructions issued before this one */
} ExecEvent;

typedef struct ExecObserver {
    /* after each observed step; returning false stops the launch with
     * *error set (the observer says why) */
    bool (*on_step)(void *data, const ExecEvent *ev, GError **error);
    /* optional: before each observed step (the warp as it is before it) */
    void (*on_before)(void *data, const Warp *w);
    /* optional, timing model only: cycles [from, to) in which the warp did
     * not issue, with the reason (WarpStateKind of timing.h) */
    void (*on_stall)(void *data, const Warp *w, unsigned reason, uint64_t from, uint64_t to);
    void *data;
    uint32_t gridid;        /* only the launch with this %gridid; 0: every launch */
    bool one_warp;          /* only warp `warp` of CTA `ctaid` */
    Dim3 ctaid;
    uint32_t warp;
} ExecObserver;

/* The observer that wants to hear about w, or NULL (the usual case). */
static inline const ExecObserver *exec_observer_for(const Warp *w)
{
    const LaunchSpec *s = w->cta->spec;
    const ExecObserver *o = s->observer;
    if (__builtin_expect(o == NULL, 1))
        return NULL;
    if (o->gridid && o->gridid != s->gridid)
        return NULL;
    if (o->one_warp && (w->index != o->warp || w->cta->ctaid.x != o->ctaid.x || w->cta->ctaid.y != o->ctaid.y ||
                        w->cta->ctaid.z != o->ctaid.z))
        return NULL;
    return o;
}

/* Pre-decoding: every instruction of a module bound once to the handler
 * that executes it (exec_fast.c).  Owned by the ModuleImage. */
ExecPlan *exec_plan_new(const Module *m);
void exec_plan_free(ExecPlan *plan);

/* Number of lanes in a mask, without a libgcc call on targets whose
 * baseline has no population-count instruction. */
static inline uint32_t lane_count(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

/* Thread index of a lane, for messages and %tid. */
void warp_lane_tid(const Warp *w, uint32_t lane, Dim3 *tid);

#endif
