/* timing.c — SMs, warp schedulers, scoreboards and CTA dispatch (timing.h).
 *
 * Time advances in whole cycles, in lockstep over the SMs in index order,
 * so shared resources (L2, DRAM) see requests in non-decreasing time and
 * every run is the same.  An SM that cannot issue computes the first cycle
 * at which one of its warps could (operands ready, unit free, barrier
 * released) and sleeps until then; the loop visits only SMs that are due
 * (a list for the next cycle plus a heap of later wake-ups, merged into
 * index order) and jumps to the earliest wake-up.  That is the reference
 * order; a launch whose CTAs cannot observe each other's order runs each
 * SM alone for a quantum at a time instead, on one host thread or several,
 * with the same results (run_quanta).  Inside an SM a warp is
 * either ready (a bit in its scheduler's mask for the functional unit of
 * its next instruction), waiting for its operands or fetch (filed by that
 * cycle: a wheel of the next 64 cycles, a heap beyond), at a barrier, or
 * gone; schedulers look only at the ready
 * bits of units that are free, in the order the policy defines.
 *
 * Host speed: a large grid keeps thousands of warps resident, so a warp's
 * state has usually left the host's cache by the time it issues again;
 * issuing an instruction that ran ahead touches only its slot and its
 * run-ahead list (not the Warp or its CTA), and slots are aligned to host
 * cache lines.  All the SMs' arrays and their resident warps are one block
 * in huge pages (sm_layout), made once per launch: touching tens of MiB of
 * fresh 4 KiB pages cost short launches more than simulating them.  Most
 * of those bytes were warps' registers; a kernel whose warps run ahead to
 * their end (load, compute, store) needs them only until then, so there
 * they come from a pool per SM (slot_lend_regs) and the SM's resident
 * warps share a few blocks.
 *
 * Stall accounting is interval-based: when a warp issues at cycle t, the
 * cycles since it last issued are split into the reasons that held it
 * back, in the order they were resolved (branch target, operands, unit,
 * then the scheduler choosing someone else).  No per-cycle work per warp.
 */
#include "timing.h"

#include <sched.h>
#include <stdatomic.h>

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "epochs.h"
#include "errors.h"
#include "exec.h"
#include "hostmem.h"
#include "hostpool.h"
#include "timeline.h"

const char *const timing_state_names[STATE_COUNT] = {
#define X(id, name, what) name,
    TIMING_STATES(X)
#undef X
};
const char *const timing_state_descriptions[STATE_COUNT] = {
#define X(id, name, what) what,
    TIMING_STATES(X)
#undef X
};

#define TI_MAX_SRC 16
#define TI_MAX_DST 8
#define SYNC_BARRIER 0x80 /* TInsn.sync: above every SCOPE_* */

/* How an instruction changes the pc, which says how long the warp's next
 * fetch waits after it (Model.fetch_after).  A loop's branch back is the
 * machine code's only when ptxas keeps the loop rolled (a .pragma
 * "nounroll", or a loop it cannot unroll: mark_loops); else ptxas unrolls
 * the loop scheduler.loop_unroll times and only one PTX iteration in that
 * many ends in a taken branch: the others run on, so each is charged that
 * share of it. */
typedef enum {
    CONTROL_NONE,        /* the pc moves on */
    CONTROL_BRANCH,      /* bra forward, call, ret, exit...: latency.branch */
    CONTROL_LOOP_ROLLED, /* bra back to a loop's header that ptxas keeps: latency.loop_branch */
    CONTROL_LOOP_UNROLLED, /* bra back to a header that ptxas unrolls: loop_branch / loop_unroll */
    CONTROL_KINDS
} ControlKind;

/* What the scheduler needs to know about one instruction, decoded once. */
typedef struct {
    uint8_t unit;       /* FuncUnit, resolved by type */
    uint8_t lat;        /* LatencyClass */
    uint8_t result_state; /* what a reader of its results waits in */
    uint8_t control;    /* ControlKind: changes the pc, so the next fetch waits */
    uint8_t mem_space;  /* PtxSpace of a load or store */
    uint8_t throttle;   /* WarpStateKind while its unit is busy (throttle_state_of) */
    /* SYNC_BARRIER: an arrival at a CTA barrier (bar/barrier, not
     * bar.warp.sync); or a memory fence: its SCOPE_* (at least SCOPE_CTA);
     * 0 for others */
    uint8_t sync;
    uint8_t ndeps, ndst;
    uint8_t operand;    /* a load ptxas makes an operand (insn_const_operand): no access */
    uint8_t slots;      /* issue slots: the machine instructions it becomes (isa_issue_slots_for) */
    /* loop control of a loop ptxas unrolls (mark_loops): its result
     * comes after latency / loop_unroll (Model.latency[1]) */
    uint8_t shared_out;
    /* the model's cycles for the fields above (decode_module, after every
     * pass that sets them): Model.latency[shared_out][lat],
     * Model.interval[unit], Model.fetch_after[control] */
    uint32_t latency, interval, fetch_after;
    /* the scoreboard entries it waits for: the registers it reads, then
     * those it writes (write after write), each once */
    uint32_t deps[TI_MAX_SRC + TI_MAX_DST];
    uint32_t dst[TI_MAX_DST];
} TInsn;

/* Registers as decode_insn collects them. */
typedef struct {
    uint8_t nsrc, ndst;
    uint32_t src[TI_MAX_SRC];
    uint32_t dst[TI_MAX_DST];
} RegUse;

typedef struct CtaSlot {
    Cta cta;
    void *store;         /* what its CTAs' warps will be lent (cta_lend) at its first CTA */
    bool used;
    uint32_t first_slot;
    uint32_t live_warps;
    uint64_t dispatched; /* cycle it arrived (timeline) */
    uint32_t retired_rank; /* quantum mode: its CTA was the SM's k-th to retire in Sm.retired_at */
} CtaSlot;

/* Where a slot is in the scheduler's bookkeeping: each live warp that is not
 * at a barrier is either ready (its own operands and fetch allow issue now;
 * a bit in its scheduler's ready mask) or waiting (in the SM's wake wheel or
 * heap, by the cycle its operands and fetch allow issue). */
enum { SLOT_IDLE, SLOT_READY, SLOT_WAITING, SLOT_PENDING };

/* Quantum mode: a register whose load is timed after its quantum. */
#define TIME_PENDING ((uint64_t)1 << 55)

/* How many instructions a warp executes ahead of their issue in one run
 * (below).  Long runs execute a warp the way functional mode does, while
 * its registers are in the host's cache, and let a warp of a short kernel
 * reach its end at once (then its registers go back, slot_lend_regs); the
 * lists they leave are a few bytes an instruction. */
#define AHEAD_MAX 256
/* Of those, global accesses whose addresses wait in the slot's records for
 * their issue, which times them (AHEAD_RECORDED). */
#define AHEAD_RECORDS 16
/* AheadStep.wavefronts of a step whose access waits in a record; the cost
 * of a short access is at most 128 wavefronts (smem_banks) */
#define AHEAD_RECORDED UINT8_MAX

/* An instruction executed ahead of its issue: its pc and, for a shared,
 * constant or parameter access, what its addresses cost
 * (memsys_short_access); AHEAD_RECORDED for a global access, whose
 * addresses wait in the slot's next record; 0 for others. */
typedef struct {
    uint16_t pc;
    uint8_t wavefronts;
} AheadStep;

/* A global access run ahead, waiting in its slot's records for its issue:
 * coalesced already where that saves (memsys_coalesce_ahead), which reads
 * its addresses while they are in the host's cache, else the addresses.
 * The record is this head, then the CoalescedAccess up to its last
 * transaction (memsys reads no further) or the WarpAccess, so that a
 * warp's records are a few dozen bytes an access. */
typedef struct {
    uint32_t bytes;      /* of the record, head included: a multiple of 8 */
    bool coalesced;
} AheadRecordHead;
G_STATIC_ASSERT(sizeof(AheadRecordHead) == 8);
/* the largest record */
#define AHEAD_RECORD_MAX \
    ((sizeof(AheadRecordHead) + MAX(sizeof(CoalescedAccess), sizeof(WarpAccess)) + 7) & ~(size_t)7)

/* Two host cache lines, aligned (the array is): issuing touches most
 * fields, and a warp is rarely still in the host's cache when it issues
 * again, with thousands of others interleaved.  So what issuing needs is
 * here, the run-ahead list too, and nothing it can compute (the slot's
 * scoreboard is slot_scoreboard()). */
typedef struct {
    _Alignas(64) Warp *w; /* NULL when free */
    CtaSlot *cs;
    GError *ahead_error; /* the fault of the instruction after the run-ahead list */
    const TInsn *next;   /* NULL when the warp is done */
    uint64_t dep_ready;
    uint64_t fetch_ready;
    uint64_t stall_from; /* first cycle not yet attributed to a state */
    /* where the warp stands after the instructions executed so far (what
     * warp_peek() said right after the executor last ran it, while its
     * state was in the host's cache): the next instruction once the
     * run-ahead list is used up.  Only the executor moves a warp, so it
     * stays true until it runs the warp again. */
    uint32_t resume_pc;
    /* the function of the next instruction, of the run-ahead list and of
     * the resume point: running ahead never calls or returns */
    uint32_t func;
    uint32_t next_pc;
    uint8_t dep_state;
    bool at_barrier;
    bool resume_valid, resume_live;
    /* instructions executed ahead of their issue, to be issued in order:
     * ahead[ahead_at .. nahead) of `func`; then ahead_error, if the next
     * one faulted.  The records of their global accesses, in step order,
     * from records + record_at.  Both lie in one buffer of the slot's
     * (at `ahead`, list_cap bytes, from its SM's slab of the launch's
     * arena), records after the steps, kept for its next warps and
     * replaced by a larger one when a run needs more: tens of thousands
     * of warps may be resident, each with its lists, and these are their
     * pages. */
    AheadStep *ahead;
    uint8_t *records;
    uint32_t nahead, ahead_at;
    uint32_t record_at, list_cap;
} WarpSlot;
G_STATIC_ASSERT(sizeof(WarpSlot) == 128);

/* A scoreboard entry: ready cycle above, warp state in the low byte (one
 * array, one host cache line per lookup). */
#define SB_PACK(ready, state) ((ready) << 8 | (state))
#define SB_READY(v) ((v) >> 8)
#define SB_STATE(v) ((uint8_t)(v))

/* A binary min-heap of (cycle, index) pairs, each packed in one word,
 * the cycle above the index's id_bits: ties go to the lower index, and a
 * comparison is one host instruction (banks, whose warps wait hundreds
 * of cycles for their turn at the banks: its heap_pop 4.9 M -> 3.0 M host
 * instructions against pairs compared field by field). */
typedef struct {
    uint64_t *key;
    uint32_t n;
    unsigned id_bits;
} WakeHeap;

/* Most waits are short (an ALU result, a shared-memory access, a branch):
 * a calendar of the next WHEEL_SIZE cycles, one slot mask per cycle, files
 * and wakes those in O(1) where the heap costs O(log n) twice.  Bucket
 * (c % WHEEL_SIZE) holds the slots due at cycle c, for c in
 * [from, from + WHEEL_SIZE); `occupied` has a bit per non-empty bucket.
 * Slots woken in one cycle only set ready bits, so the order they come
 * out in changes nothing. */
#define WHEEL_SIZE 64
typedef struct {
    uint64_t *bucket;    /* WHEEL_SIZE slot masks: bit k = slot k */
    uint64_t occupied;
    uint64_t from;       /* the first cycle not woken yet */
} WakeWheel;

typedef struct Deferred Deferred;
/* In the SM's slab of the launch's arena (list_append), kept from quantum to
 * quantum: nrecs requests, their transactions in order (Deferred.trans_at),
 * atomics' MemRequest.atomic_passes (Deferred.passes_at). */
typedef struct {
    Deferred *recs;
    MemTransaction *trans;
    uint32_t *passes;
    uint32_t nrecs, ntrans, npasses;
    size_t recs_room, trans_room, passes_room; /* bytes of their blocks */
} DeferredList;

/* In host cache lines of its own (the array is aligned): an SM's fields
 * change every cycle it runs, on whichever host thread runs it. */
typedef struct {
    _Alignas(64) uint32_t id;
    WarpSlot *slots;
    uint32_t nslots;
    CtaSlot *ctas;
    uint32_t nctas;      /* CTA slots = blocks per SM */
    uint32_t resident_ctas, resident_warps;
    uint64_t *unit_free; /* [sched * UNIT_COUNT + unit] */
    /* per scheduler: it issues nothing before this cycle, while it issues
     * the machine instructions of a PTX instruction that becomes several
     * (TInsn.slots) */
    uint64_t *issue_free;
    uint64_t pipe_free;  /* the SM's memory pipe */
    uint64_t barrier_counted; /* when the SM's barrier unit has counted the arrivals issued so far */
    uint64_t *stores_reach_l2; /* per slot: when its warp's global stores so far are all in L2 */
    /* per scheduler, the queue in front of that pipe (GpuConfig's
     * lsu_queue_depth entries, d): the cycles the pipe took, or will take,
     * the scheduler's last d memory instructions, a ring.  Another fits
     * once the oldest has been taken.  Without a queue (d = 0) a memory
     * instruction issues only when the pipe is free. */
    uint64_t *lsu_queue;
    /* per scheduler: what says when its next memory instruction is
     * accepted, its ring's oldest entry (the next one written), or
     * pipe_free without a queue */
    uint64_t **lsu_gate;
    uint32_t *last;      /* per scheduler: last slot issued (round-robin / greedy) */
    uint32_t *sched_slots; /* per scheduler: how many slots it has (sched, sched + schedulers, ...) */
    /* per scheduler and functional unit of the next instruction: a mask,
     * bit k = slot sched + k * schedulers.  Split by unit so that a
     * scheduler whose ready warps all wait for a busy unit (the memory pipe,
     * in a memory-bound kernel) finds that out without looking at them. */
    uint64_t *ready;
    uint8_t *ready_units; /* per scheduler: bit u set when some ready slot needs unit u */
    /* what the schedulers look at, per slot, kept apart from the slots so a
     * scan of ready warps stays in a few host cache lines */
    uint8_t *next_unit;  /* FuncUnit of the slot's next instruction */
    uint8_t *where;      /* SLOT_IDLE / READY / WAITING / PENDING */
    uint64_t *age;       /* dispatch order of the slot's warp (greedy-then-oldest) */
    uint64_t *start;     /* cycle the slot's warp arrived */
    /* every slot's scoreboard, Model.max_regs entries each: per register,
     * SB_PACK(cycle its value is available, state a reader waits in) */
    uint64_t *regs;
    size_t layout_at, layout_end; /* where its arrays lie in Model.block (sm_prepare) */
    /* slots in SLOT_WAITING, by the cycle they become ready: those due in
     * the next WHEEL_SIZE cycles in the wheel, later ones in the heap */
    WakeWheel wheel;
    WakeHeap waiting;
    uint64_t wake;
    uint64_t active_since;
    /* the memory accesses of the instruction being issued: the SM issues
     * one warp at a time and consumes them at once, so its warps share one
     * record, which stays in the host cache.  It and the request below lie
     * in the SM's part of the block (sm_layout), not here: every launch
     * allocates and zeroes an Sm for each SM of the GPU, used or not, and
     * at 2 KB apiece that was 0.1 ms of page faults per launch */
    WarpAccess *log;
    WarpAccess *ahead_log; /* the same for the accesses of instructions run ahead */
    /* Model.pool_regs: register blocks given back, and how many of its
     * blocks in Model.regs_pool the SM has used */
    uint64_t **free_regs;
    uint32_t nfree_regs, regs_made;
    /* where the SM's counts go: the launch's, or its host thread's */
    TimingStats *ts;
    LaunchStats *stats;
    uint32_t thread;     /* quantum mode: the host thread running it (sm_take) */
    uint64_t issued;
    uint64_t end;        /* one past the last cycle the SM ran */
    /* quantum mode (see run_quanta) */
    /* global and local accesses whose L2 and DRAM part waits for the end of
     * their quantum (run_quanta), two quanta's worth: Model.filling is the
     * one being run */
    DeferredList deferred[2];
    /* where its run-ahead lists and deferred lists come from: the thread
     * running the SM takes blocks from it without a lock (in the SM's part
     * of the block, sm_layout) */
    HostSlab *slab;
    MemRequest *req;     /* the one being issued: the SM's half of it is done at once */
    uint32_t retired;    /* CTAs retired in cycle retired_at, to be replaced */
    uint64_t retired_at;
    GError *fault;
    uint64_t fault_at;
    bool ahead_faults;   /* a slot's ahead_error was set: model_free looks for them */
    uint32_t npending;   /* slots in SLOT_PENDING */
    uint64_t published;  /* its key in Model.progress, as last stored */
    TimelineSm *tl;      /* NULL unless a timeline is recorded */
} Sm;

/* A global or local access whose memory-system timing is worked out after
 * its quantum, in the order the lockstep loop would have made it.  One
 * host cache line (the lists are aligned to them): the steps between
 * quanta read every record, and at 104 bytes, most took two lines. */
struct Deferred {
    uint64_t t;
    uint64_t age;        /* the slot's warp, which may be gone by then */
    const TInsn *done;
    /* when the L1 part is done; then (resolve_memory) when the data is back */
    uint64_t ready;
    uint32_t slot;
    uint32_t queued;     /* cycles it waited for the memory pipe (lsu_enqueue), and the
                            pipe cycles of its lines after the first */
    /* what goes on to L2 and DRAM: a MemRequest without its transactions,
     * which are in its DeferredList's trans (a request's array is sized for
     * the worst case, 1 KiB, and most use a few entries) */
    uint32_t trans_at, passes_at;
    uint16_t ntrans;     /* at most COALESCE_MAX_TRANS */
    uint8_t kind;
    uint8_t atomic_same; /* at most a warp's lanes */
    /* timeline only: the request's sectors, bytes, kind and PTX line */
    uint16_t tl_sectors, tl_bytes;
    uint8_t tl_kind;
    uint32_t tl_line;
};
G_STATIC_ASSERT(sizeof(Deferred) <= 64 && COALESCE_MAX_TRANS <= UINT16_MAX);

/* Quantum mode: an SM's place in the (cycle, SM) order in which lockstep
 * hands out replacement CTAs (run_quanta), in a host cache line of its own
 * because its SM's thread stores it while other threads read it. */
typedef struct {
    _Alignas(64) _Atomic uint64_t key;
    _Atomic uint64_t parked; /* while the SM waits for its turn to replace a CTA, held by
                                no thread (run_sms): its key then; else 0 (no key is 0:
                                nothing retires at cycle 0) */
} SmProgress;

/* What a host thread counts, in host cache lines of its own: the SMs it
 * runs add to them at every issue, and lines shared with another thread's
 * counts would bounce between the cores. */
typedef struct {
    _Alignas(64) TimingStats ts;
    _Alignas(64) LaunchStats stats;
} ThreadCounts;

typedef struct {
    const GpuConfig *cfg;
    ModuleImage *img;
    const Module *m;
    LaunchSpec spec;
    LaunchStats *stats;
    TimingStats *ts;
    MemSys *mem;
    TInsn **tinsn;       /* [func][pc] */
    uint32_t *ninsns;    /* [func]: 0 for those not defined here */
    uint8_t **may_run_ahead; /* [func][pc]: see may_run_ahead() */
    bool run_ahead;
    bool run_ahead_global; /* global accesses too (may_run_ahead) */
    /* warps' kernel registers come from their SM's pool (slot_lend_regs)
     * and go back once a warp has run ahead to its end */
    bool pool_regs;
    size_t pool_block_bytes;  /* one warp's registers (warp_pooled_regs_bytes) */
    uint8_t *regs_pool;       /* block j of SM i at (j * nsms + i) * pool_block_bytes;
                                 stale when kept (warp_attach_regs clears what is read) */
    size_t regs_pool_made;    /* its size as allocated (TimingKeep: maybe more) */
    uint32_t max_regs;
    uint64_t *shared_offset;
    uint32_t shared_size;
    Sm *sms;
    uint32_t nsms;
    uint64_t first_cta, next_cta, total_ctas; /* CTAs [first_cta, total_ctas) */
    _Atomic bool all_dispatched; /* next_cta reached total_ctas: read by every host thread */
    uint64_t age;
    uint32_t interval[UNIT_COUNT];
    uint32_t schedulers;
    uint32_t issue_width; /* per scheduler and cycle */
    /* a slot's next fetch after a branch, and after anything else (one
     * cycle with one issue per scheduler and cycle, else none) */
    uint32_t fetch_after[CONTROL_KINDS]; /* by TInsn.control: cycles until the next fetch */
    uint32_t latency[2][LAT_COUNT];      /* by TInsn.shared_out and lat: the config's, and loop control's */
    /* issue_ahead() may issue instructions executed ahead: no timeline
     * and no observer wants to hear of each one */
    bool plain_issue;
    /* per slot index (the same on every SM): its scheduler (k % schedulers)
     * and its bit among that scheduler's slots (k / schedulers), worked
     * out once here instead of divided for on the hot paths */
    uint16_t *slot_sched, *slot_bit;
    uint64_t issued;
    bool by_quanta;      /* the SMs run quantum by quantum (run_quanta), on one host
                            thread or several */
    uint32_t filling;    /* quantum mode: the Sm.deferred list the SMs add to */
    SmProgress *progress; /* quantum mode: per SM, how far it has run (run_quanta) */
    uint32_t *live;      /* quantum mode: the SMs with resident warps, as of the quantum's start */
    uint32_t nlive;
    ThreadCounts *per_thread; /* quantum mode: per host thread, the counts of the SMs it ran */
    Timeline *tl;        /* borrowed from TimingStats; NULL: none */
    HostArena *arena;    /* the slots' run-ahead lists and the SMs' deferred lists (Sm.slab) */
    void *block;         /* the SMs' arrays and their CTAs' warps (sm_layout) */
    size_t block_bytes;  /* what the layout uses of it */
    size_t block_made;   /* its size as allocated (TimingKeep: maybe more) */
    bool block_stale;    /* kept from an earlier launch: each SM clears its part */
} Model;

/* Memory a launch maps and the next may reuse: the SMs' block, the
 * registers' pool. */
typedef enum { KEPT_BLOCK, KEPT_REGS_POOL, KEPT_REGIONS } KeptRegionKind;

typedef struct {
    uint8_t *base;
    size_t made;         /* its size as allocated */
} KeptRegion;

struct TimingKeep {
    GMutex lock;
    const GpuConfig *cfg; /* mem's */
    MemSys *mem;
    KeptRegion regions[KEPT_REGIONS];
    HostArena *arena;
};

TimingKeep *timing_keep_new(void)
{
    TimingKeep *k = g_new0(TimingKeep, 1);
    g_mutex_init(&k->lock);
    return k;
}

void timing_keep_free(TimingKeep *k)
{
    if (!k)
        return;
    memsys_free(k->mem);
    for (unsigned r = 0; r < KEPT_REGIONS; r++)
        hostmem_free(k->regions[r].base, k->regions[r].made);
    host_arena_free(k->arena);
    g_mutex_clear(&k->lock);
    g_free(k);
}

/* The kept memory system, reset, when it is cfg's; else NULL. */
static MemSys *keep_take_memsys(TimingKeep *k, const GpuConfig *cfg)
{
    if (!k)
        return NULL;
    g_mutex_lock(&k->lock);
    MemSys *mem = g_steal_pointer(&k->mem);
    bool same = k->cfg == cfg;
    g_mutex_unlock(&k->lock);
    if (mem && same) {
        memsys_reset(mem);
        return mem;
    }
    memsys_free(mem);
    return NULL;
}

/* Region `kind` of at least `bytes`: the kept one when it is large enough
 * (not cleared: *stale is set), else a new zeroed mapping of `bytes` (in
 * 4 KiB pages when `sparse`, hostmem.h), NULL when the host has no such
 * memory; its size as allocated in *made. */
static uint8_t *keep_take_region(TimingKeep *k, KeptRegionKind kind, size_t bytes, bool sparse, size_t *made,
                                 bool *stale)
{
    KeptRegion r = {0};
    if (k) {
        g_mutex_lock(&k->lock);
        r = k->regions[kind];
        k->regions[kind] = (KeptRegion){0};
        g_mutex_unlock(&k->lock);
    }
    *stale = r.base && r.made >= bytes;
    if (*stale) {
        *made = r.made;
        return r.base;
    }
    hostmem_free(r.base, r.made);
    *made = bytes;
    uint8_t *p = sparse ? hostmem_try_alloc_sparse(bytes, 0, bytes) : hostmem_try_alloc0(bytes);
    if (!p)
        *made = 0;
    return p;
}

/* The kept arena, reset, or a new one. */
static HostArena *keep_take_arena(TimingKeep *k)
{
    HostArena *a = NULL;
    if (k) {
        g_mutex_lock(&k->lock);
        a = g_steal_pointer(&k->arena);
        g_mutex_unlock(&k->lock);
    }
    if (!a)
        return host_arena_new();
    host_arena_reset(a);
    return a;
}

/* Keeps what the launch had (what k held before goes: two launches at once
 * keep the later's), or frees it without a keep. */
static void keep_give(TimingKeep *k, const GpuConfig *cfg, MemSys *mem, KeptRegion regions[KEPT_REGIONS],
                      HostArena *arena)
{
    if (k) {
        g_mutex_lock(&k->lock);
        if (mem) {
            MemSys *older = k->mem;
            k->mem = mem;
            k->cfg = cfg;
            mem = older;
        }
        for (unsigned r = 0; r < KEPT_REGIONS; r++) {
            if (regions[r].base) {
                KeptRegion older = k->regions[r];
                k->regions[r] = regions[r];
                regions[r] = older;
            }
        }
        if (arena) {
            HostArena *older = k->arena;
            k->arena = arena;
            arena = older;
        }
        g_mutex_unlock(&k->lock);
    }
    memsys_free(mem);
    for (unsigned r = 0; r < KEPT_REGIONS; r++)
        hostmem_free(regions[r].base, regions[r].made);
    host_arena_free(arena);
}

/* ------------------------------------------------------------------ */
/* wake heaps and ready masks                                           */

static void heap_push(WakeHeap *h, uint64_t time, uint32_t id)
{
    /* cycles stay far below TIME_PENDING (2^55), indices within id_bits */
    g_assert(time >> (64 - h->id_bits) == 0 && id >> h->id_bits == 0);
    uint64_t x = time << h->id_bits | id;
    uint32_t i = h->n++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (x >= h->key[p])
            break;
        h->key[i] = h->key[p];
        i = p;
    }
    h->key[i] = x;
}

/* The first entry's cycle (the heap is not empty). */
static uint64_t heap_first_time(const WakeHeap *h)
{
    return h->key[0] >> h->id_bits;
}

/* Takes the first entry; returns its index. */
static uint32_t heap_pop(WakeHeap *h)
{
    uint64_t top = h->key[0], x = h->key[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->key[c + 1] < h->key[c])
            c++;
        if (h->key[c] >= x)
            break;
        h->key[i] = h->key[c];
        i = c;
    }
    if (h->n)
        h->key[i] = x;
    return (uint32_t)(top & ((1ull << h->id_bits) - 1));
}

G_STATIC_ASSERT(UNIT_COUNT <= 8); /* Sm.ready_units holds a bit per unit */
G_STATIC_ASSERT(WHEEL_SIZE == 64); /* WakeWheel.occupied is one word */
G_STATIC_ASSERT(CONFIG_MAX_WARPS_PER_SM <= 64); /* a ready mask or wheel bucket is one word */
#define SLOT_ID_BITS 6  /* a slot in a WakeHeap */
#define SM_ID_BITS 10   /* an SM in one (config.c: num_sms <= 1024) */
G_STATIC_ASSERT(CONFIG_MAX_WARPS_PER_SM <= 1 << SLOT_ID_BITS);

static uint64_t rotate_right(uint64_t x, unsigned n)
{
    n %= 64;
    return n ? x >> n | x << (64 - n) : x;
}

/* Slot k waits until cycle `time` (later than any cycle woken so far). */
static inline void sm_wait(WakeHeap *heap, WakeWheel *wh, uint64_t time, uint32_t k)
{
    if (time < wh->from || time - wh->from >= WHEEL_SIZE) {
        heap_push(heap, time, k);
        return;
    }
    unsigned b = (unsigned)(time % WHEEL_SIZE);
    wh->bucket[b] |= 1ull << k;
    wh->occupied |= 1ull << b;
}

/* The first cycle a slot in the wheel is due, or UINT64_MAX. */
static uint64_t wheel_next(const WakeWheel *wh)
{
    if (!wh->occupied)
        return UINT64_MAX;
    return wh->from + (uint64_t)__builtin_ctzll(rotate_right(wh->occupied, (unsigned)(wh->from % WHEEL_SIZE)));
}

/* ------------------------------------------------------------------ */
/* instruction decoding                                                 */

static void add_reg(uint32_t *list, uint8_t *n, unsigned cap, uint32_t r)
{
    if (r == NO_INDEX || *n >= cap)
        return;
    for (unsigned i = 0; i < *n; i++)
        if (list[i] == r)
            return;
    list[(*n)++] = r;
}

static void add_operand(RegUse *t, const Operand *o, bool dest)
{
    uint32_t *list = dest ? t->dst : t->src;
    uint8_t *n = dest ? &t->ndst : &t->nsrc;
    unsigned cap = dest ? TI_MAX_DST : TI_MAX_SRC;
    switch (o->kind) {
    case OPD_REG:
        add_reg(list, n, cap, o->reg);
        break;
    case OPD_PAIR:
        add_reg(list, n, cap, o->reg);
        add_reg(list, n, cap, o->reg2);
        break;
    case OPD_VEC:
        for (unsigned k = 0; k < o->vec_count; k++)
            add_reg(list, n, cap, o->vec_regs[k]);
        break;
    case OPD_ADDR: /* the base register is read even by a store */
        add_reg(t->src, &t->nsrc, TI_MAX_SRC, o->reg);
        break;
    default:
        break;
    }
}

static WarpStateKind result_state_of(FuncUnit u, LatencyClass lat)
{
    if (u == UNIT_LSU || u == UNIT_SFU || lat == LAT_DIV || lat == LAT_SHFL || lat == LAT_SFU)
        return STATE_SHORT_SCOREBOARD;
    return STATE_WAIT;
}

/* What a warp waits in while the instruction's unit is busy.  Nsight
 * counts a memory instruction waiting for the load/store pipe's input as
 * lg_throttle when it goes to the L1TEX queue for global and local
 * accesses (generic ones mostly are), as mio_throttle otherwise (shared,
 * constant, parameter, shuffles, fences, barriers in memory), and
 * arithmetic waiting for its pipe as math_pipe_throttle. */
static WarpStateKind throttle_state_of(const Insn *in, FuncUnit u)
{
    if (u != UNIT_LSU)
        return STATE_MATH_PIPE_THROTTLE;
    bool access = in->op == OP_LD || in->op == OP_LDU || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED ||
                  in->op == OP_PREFETCH || in->op == OP_PREFETCHU || in->op == OP_CP_ASYNC;
    PtxSpace space = (PtxSpace)(in->op == OP_CP_ASYNC ? in->space2 : in->space); /* a copy's source */
    return access && isa_space_is_lg(space) ? STATE_LG_THROTTLE : STATE_MIO_THROTTLE;
}

/* The registers the instruction reads and writes. */
static void collect_regs(const Function *fn, const Insn *in, RegUse *t)
{
    const OpInfo *op = &isa_ops[in->op];
    add_reg(t->src, &t->nsrc, TI_MAX_SRC, in->guard);
    if (in->op == OP_CALL && in->call < fn->calls->len) {
        const CallSite *cs = &g_array_index(fn->calls, CallSite, in->call);
        for (uint32_t i = 0; i < cs->nargs; i++)
            if (cs->arg_opds)
                add_operand(t, &cs->arg_opds[i], false);
        for (uint32_t i = 0; i < cs->nrets; i++)
            if (cs->ret_opds)
                add_operand(t, &cs->ret_opds[i], true);
        add_reg(t->src, &t->nsrc, TI_MAX_SRC, cs->callee_reg);
        return;
    }
    /* the shape string says which operands are destinations ('d') */
    const char *shape = op->shape;
    for (unsigned i = 0; i < in->nopd; i++) {
        while (*shape == ',')
            shape++;
        bool dest = *shape == 'd' || (i == 0 && insn_writes_first_operand_late(in));
        add_operand(t, &in->opd[i], dest);
        while (*shape && *shape != ',')
            shape++;
    }
}

/* The unit an instruction issues to, and what follows from it: the state
 * its readers wait in and the one it waits in while the unit is busy
 * (t->lat set). */
static void tinsn_set_unit(TInsn *t, const Insn *in, FuncUnit unit)
{
    t->unit = (uint8_t)unit;
    t->result_state = (uint8_t)result_state_of(unit, (LatencyClass)t->lat);
    t->throttle = (uint8_t)throttle_state_of(in, unit);
}

/* Whether ptxas keeps the loop whose header block starts at `header` rolled:
 * a .pragma "nounroll" in that block, before the function or in the module. */
static bool loop_kept_rolled(const Module *m, const Function *fn, uint32_t header)
{
    if (m->nounroll || fn->nounroll)
        return true;
    const uint32_t *block_of = fn->cfg->block_of;
    for (uint32_t i = header; i < func_ninsns(fn) && block_of[i] == block_of[header]; i++)
        if (func_insn(fn, i)->flags & FL_NOUNROLL)
            return true;
    return false;
}

static ControlKind control_kind(const Module *m, const Function *fn, uint32_t pc, const Insn *in)
{
    if (isa_ops[in->op].unit != UNIT_BRANCH)
        return CONTROL_NONE;
    bool backward = in->op == OP_BRA && in->nopd >= 1 && in->opd[0].kind == OPD_LABEL && in->opd[0].imm >= 0 &&
                    (uint64_t)in->opd[0].imm <= pc;
    if (!backward)
        return CONTROL_BRANCH;
    return loop_kept_rolled(m, fn, (uint32_t)in->opd[0].imm) ? CONTROL_LOOP_ROLLED : CONTROL_LOOP_UNROLLED;
}

/* `live`: the registers live after the instruction (cfg_walk_live_after),
 * or NULL where the function has no cfg (then every one is). */
static void decode_insn(const Module *m, const Function *fn, uint32_t pc, const Insn *in, const uint64_t *live,
                        TInsn *t)
{
    *t = (TInsn){0};
    t->operand = insn_const_operand(in); /* no load in the SASS: an operand, there at once */
    t->lat = (uint8_t)(t->operand ? LAT_ALU
                                  : isa_latency_for((PtxOpcode)in->op, (PtxType)in->type, (PtxType)in->type2,
                                                    in->flags, in->scope));
    tinsn_set_unit(t, in, t->operand ? UNIT_INT : isa_unit_for((PtxOpcode)in->op, (PtxType)in->type));
    t->slots = (uint8_t)MIN(isa_issue_slots_for((PtxOpcode)in->op, (PtxType)in->type, in->flags, in->scope), 255u);
    t->control = (uint8_t)control_kind(m, fn, pc, in);
    if (insn_is_cta_barrier(in))
        t->sync = SYNC_BARRIER;
    else if (in->op == OP_MEMBAR || in->op == OP_FENCE)
        t->sync = (uint8_t)MAX(in->scope, (unsigned)SCOPE_CTA);
    t->mem_space = in->op == OP_LD || in->op == OP_ST ? in->space : SPACE_GENERIC;
    RegUse use = {0};
    collect_regs(fn, in, &use);
    /* a register outside the function's table has no scoreboard entry */
    uint32_t nregs = fn->regs->len;
    for (unsigned i = 0; i < use.nsrc; i++)
        if (use.src[i] < nregs)
            add_reg(t->deps, &t->ndeps, G_N_ELEMENTS(t->deps), use.src[i]);
    /* a result nothing reads is not waited for, not even by a later write
     * of the same register: ptxas drops such an instruction, or gives it
     * the zero register (RZ) when it must stay (an atomic whose old value
     * nothing reads is a RED); so only live results take scoreboard entries
     * (which is also what lets registers share them by row:
     * renumber_scoreboard) */
    for (unsigned i = 0; i < use.ndst; i++)
        if (use.dst[i] < nregs && (!live || cfg_reg_in(live, use.dst[i]))) {
            add_reg(t->deps, &t->ndeps, G_N_ELEMENTS(t->deps), use.dst[i]);
            t->dst[t->ndst++] = use.dst[i];
        }
}

/* Which pipe an integer instruction can take when integers share the FMA
 * pipe (GpuConfig.int_fma_pipe): a multiply (IMAD, IMAD.WIDE, IMAD.HI) only
 * that one; a 32-bit add, subtract, register or constant move, or shift
 * left by a constant either (ptxas writes IMAD.IADD, VIADD, IMAD.MOV and
 * IMAD.SHL for them as often as IADD3, MOV and SHF); the rest (logic,
 * right shifts, compares, selects, 64-bit arithmetic) only the ALU. */
typedef enum { INT_PIPE_ALU, INT_PIPE_EITHER, INT_PIPE_FMA } IntPipe;

static IntPipe int_pipe_of(const Insn *in)
{
    bool word = isa_type_size((PtxType)in->type) == 4;
    switch (in->op) {
    case OP_MUL:
    case OP_MAD:
        return word && in->mul != MUL_NONE ? INT_PIPE_FMA : INT_PIPE_ALU;
    case OP_ADD:
    case OP_SUB:
        return word && !(in->flags & FL_CC) ? INT_PIPE_EITHER : INT_PIPE_ALU;
    case OP_MOV:
        return word && (in->opd[1].kind == OPD_REG || in->opd[1].kind == OPD_IMM) ? INT_PIPE_EITHER
                                                                                   : INT_PIPE_ALU;
    case OP_SHL:
        return word && in->opd[2].kind == OPD_IMM ? INT_PIPE_EITHER : INT_PIPE_ALU;
    default:
        return INT_PIPE_ALU;
    }
}

/* Gives the FP32 unit the integer instructions that GPUs whose integers
 * share the FMA pipe run there: multiplies always, and in each basic block
 * each instruction that could go either way to whichever of the two units
 * the block's instructions before it keep less busy, as ptxas balances the
 * two pipes (on the H200, xorshift's integer work splits 45 % ALU, 44 %
 * FMA; docs/config.md). */
static void balance_int_pipes(const Model *md, const Function *fn, TInsn *t)
{
    const Cfg *c = fn->cfg;
    for (uint32_t b = 0; b < c->nblocks; b++) {
        uint64_t alu = 0, fma = 0;
        for (uint32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
            TInsn *ti = &t[i];
            const Insn *in = func_insn(fn, i);
            if (ti->unit == UNIT_INT && !ti->operand) {
                IntPipe p = int_pipe_of(in);
                if (p == INT_PIPE_FMA || (p == INT_PIPE_EITHER && fma < alu))
                    tinsn_set_unit(ti, in, UNIT_FP32);
            }
            if (ti->unit == UNIT_INT)
                alu += md->interval[UNIT_INT];
            else if (ti->unit == UNIT_FP32)
                fma += md->interval[UNIT_FP32];
        }
    }
}

/* A load or store that may run ahead: one whose timing its addresses
 * decide (memsys_short_access), on memory no other warp can change or
 * read while it runs ahead, short of a data race: shared memory (another
 * warp's accesses are ordered against it only by barriers, which end
 * run-ahead), constants and parameters.  Volatile and ordered accesses
 * (relaxed, acquire, ...) may be how warps talk without barriers: at
 * issue, but for a volatile shared load that no other warp's write can
 * race (`unraced`, epochs.h), which reads the same at either time.  At
 * most 16 bytes per lane keep its wavefronts within
 * WarpSlot.ahead_wavefronts (smem_banks: at most 128). */
static bool address_timed(const Insn *in, bool unraced)
{
    if (in->space != SPACE_SHARED && in->space != SPACE_CONST && in->space != SPACE_PARAM)
        return false;
    if (in->sem != SEM_NONE && in->sem != SEM_WEAK && !(unraced && in->sem == SEM_VOLATILE))
        return false;
    return isa_type_size((PtxType)in->type) * MAX(in->vec, 1u) <= 16;
}

/* A weak global load or store, which may run ahead when the launch allows
 * it (Model.run_ahead_global): no other CTA can see it (no global atomics,
 * launch_ctas_independent), and a warp of its own CTA only after a barrier
 * or a fence, which stop the run, unless the two race.  (.cv loads, which
 * ask to see others' writes as late as possible, wait for their issue.)
 * Its addresses wait in a record for its issue, which times it in the
 * order it always had. */
static bool global_recordable(const Insn *in)
{
    return in->space == SPACE_GLOBAL && (in->op == OP_LD || in->op == OP_ST) &&
           (in->sem == SEM_NONE || in->sem == SEM_WEAK) && in->cache != CACHE_CV;
}

/* Instructions a warp may execute before their issue: their inputs and
 * effects stay inside the warp (registers, reconvergence stack, carry), or
 * are memory accesses that address_timed() allows, so the cycle they
 * execute at cannot change any result, or (with `global`) those of
 * global_recordable().  Other memory accesses, barriers,
 * calls, exits and clock reads execute at issue.  Nor may one end the
 * warp (which can release other warps at a barrier): it neither falls off
 * the function's end nor branches there. */
static uint8_t may_run_ahead(const Function *fn, const Insn *in, uint32_t pc, bool global, bool unraced)
{
    uint32_t n = func_ninsns(fn);
    if (pc + 1 >= n || pc > UINT16_MAX) /* WarpSlot.ahead_pc */
        return RUN_AHEAD_NO;
    FuncUnit u = isa_unit_for((PtxOpcode)in->op, (PtxType)in->type);
    bool access = in->op == OP_LD || in->op == OP_ST;
    bool record = access && global && global_recordable(in);
    if (access) {
        if (!address_timed(in, unraced) && !record)
            return RUN_AHEAD_NO;
    } else if (in->op == OP_BRA) {
        if (in->nopd < 1 || in->opd[0].kind != OPD_LABEL || in->opd[0].imm < 0 || (uint64_t)in->opd[0].imm >= n)
            return RUN_AHEAD_NO;
    } else if (u != UNIT_INT && u != UNIT_FP32 && u != UNIT_FP64 && u != UNIT_SFU) {
        return RUN_AHEAD_NO;
    }
    if (insn_reads_clock(in))
        return RUN_AHEAD_NO;
    return record ? RUN_AHEAD_RECORD : access ? RUN_AHEAD_ACCESS : RUN_AHEAD_YES;
}

/* Whether every warp of the kernel can run ahead to its end, where it
 * needs its registers no more (Model.pool_regs): no calls, and each
 * instruction may run ahead (given its limits) or ends the warp alone. */
static bool kernel_runs_ahead_to_end(const Model *md, bool calls)
{
    if (!md->run_ahead || calls)
        return false;
    uint32_t k = md->spec.kernel;
    const Function *fn = module_func(md->m, k);
    for (uint32_t i = 0; i < md->ninsns[k]; i++)
        if (md->may_run_ahead[k][i] == RUN_AHEAD_NO && !insn_ends_warp_alone(func_insn(fn, i)))
            return false;
    return md->ninsns[k] > 0;
}

/* Scoreboard entries by register row (Cfg.slot_of): registers never live
 * at once share an entry as they share a row.  A warp's scoreboard is then
 * as small as its register file (stencil's kernel: 19 entries for 70
 * registers), which matters because it is cold by the time the warp issues
 * again, and first touched by the host during the launch.  It changes no
 * result, since only results that are read take entries (decode_insn): a
 * reader of a register waits for the last write of its row before the
 * read, which is a write of that register (another register's would end
 * its life); a writer also waits for its row's last write, which was read
 * before the row could be written again, so that wait is over.  A callee
 * shares its caller's entries by number, so with calls in the module the
 * register numbers are kept as they are. */
static void renumber_scoreboard(const Function *fn, TInsn *tinsn)
{
    const uint32_t *row = fn->cfg->slot_of;
    for (uint32_t i = 0; i < func_ninsns(fn); i++) {
        for (unsigned k = 0; k < tinsn[i].ndeps; k++)
            tinsn[i].deps[k] = row[tinsn[i].deps[k]];
        for (unsigned k = 0; k < tinsn[i].ndst; k++)
            tinsn[i].dst[k] = row[tinsn[i].dst[k]];
    }
}

/* The functions a warp of `kernel` can run: the kernel and what it calls,
 * directly or not; every one when an indirect call is among them (its
 * target is only known at run time).  A module from nvcc holds every
 * kernel of its file, and decoding the others cost a small launch a few
 * percent.  Sets *calls when any of them calls. */
static bool *reachable_functions(const Module *m, uint32_t kernel, bool *calls)
{
    uint32_t n = m->funcs->len;
    bool *seen = g_new0(bool, MAX(n, 1u));
    uint32_t *todo = g_new(uint32_t, MAX(n, 1u)), ntodo = 0;
    seen[kernel] = true;
    todo[ntodo++] = kernel;
    *calls = false;
    while (ntodo) {
        const Function *fn = module_func(m, todo[--ntodo]);
        if (!fn->is_defined)
            continue;
        for (guint k = 0; k < fn->calls->len; k++) {
            *calls = true;
            uint32_t callee = g_array_index(fn->calls, CallSite, k).callee;
            if (callee == NO_INDEX || callee >= n) { /* indirect: anything defined */
                for (uint32_t f = 0; f < n; f++)
                    seen[f] = true;
                ntodo = 0;
                break;
            }
            if (!seen[callee]) {
                seen[callee] = true;
                todo[ntodo++] = callee;
            }
        }
    }
    g_free(todo);
    return seen;
}

/* An add or sub of a constant to a register into itself: an induction
 * variable's step. */
static bool is_step(const Insn *in)
{
    return (in->op == OP_ADD || in->op == OP_SUB) && in->guard == NO_INDEX && in->nopd == 3 &&
           in->opd[0].kind == OPD_REG && in->opd[1].kind == OPD_REG && in->opd[1].reg == in->opd[0].reg &&
           in->opd[2].kind == OPD_IMM && !isa_type_is_float((PtxType)in->type);
}

static bool writes_reg(const Function *fn, uint32_t pc, uint32_t reg)
{
    RegUse use = {0};
    collect_regs(fn, func_insn(fn, pc), &use);
    for (unsigned k = 0; k < use.ndst; k++)
        if (use.dst[k] == reg)
            return true;
    return false;
}

/* The last instruction before b, from h on, that writes reg; NO_INDEX if none. */
static uint32_t last_write(const Function *fn, uint32_t h, uint32_t b, uint32_t reg)
{
    for (uint32_t i = b; i-- > h;)
        if (writes_reg(fn, i, reg))
            return i;
    return NO_INDEX;
}

/* Whether ptxas can unroll the loop h..b (the latch's branch back at b):
 * no barrier in it, and the branch decided by a compare of a counter the
 * loop steps by a constant (a trip count ptxas can work out), not by data.
 * (The SASS of the traces keeps loops with bar.sync, and loops that leave
 * on a data test, mandelbrot's or a histogram's, as they are.) */
static bool loop_unrollable(const Function *fn, const TInsn *tinsn, uint32_t h, uint32_t b)
{
    for (uint32_t i = h; i <= b; i++)
        if (tinsn[i].sync == SYNC_BARRIER)
            return false;
    uint32_t guard = func_insn(fn, b)->guard;
    uint32_t c = guard == NO_INDEX ? NO_INDEX : last_write(fn, h, b, guard);
    if (c == NO_INDEX || func_insn(fn, c)->op != OP_SETP)
        return false;
    const Insn *cmp = func_insn(fn, c);
    for (unsigned k = 1; k < cmp->nopd; k++)
        for (uint32_t i = h; i < b && cmp->opd[k].kind == OPD_REG; i++)
            if (is_step(func_insn(fn, i)) && func_insn(fn, i)->opd[0].reg == cmp->opd[k].reg)
                return true;
    return false;
}

/* The loops of a function, each known by its branch back (b, to the header
 * at h, the loop's PTX being h..b): one ptxas cannot unroll is kept
 * rolled.  In one it unrolls, the machine code steps each counter once for
 * loop_unroll PTX iterations (the iterations between take the steps as
 * offsets), compares once and branches once: so the steps written once in
 * the loop, and the compare that sets the branch's predicate, are loop
 * control, their latency shared out over the iterations as the branch's
 * fetch delay is (control_kind). */
static void mark_loops(const Function *fn, TInsn *tinsn)
{
    for (uint32_t b = 0; b < func_ninsns(fn); b++) {
        if (tinsn[b].control != CONTROL_LOOP_UNROLLED)
            continue;
        uint32_t h = (uint32_t)func_insn(fn, b)->opd[0].imm;
        if (!loop_unrollable(fn, tinsn, h, b)) {
            tinsn[b].control = CONTROL_LOOP_ROLLED;
            continue;
        }
        for (uint32_t i = h; i < b; i++) {
            if (!is_step(func_insn(fn, i)))
                continue;
            uint32_t reg = func_insn(fn, i)->opd[0].reg, writes = 0;
            for (uint32_t j = h; j <= b; j++)
                writes += writes_reg(fn, j, reg);
            tinsn[i].shared_out = writes == 1;
        }
        uint32_t c = last_write(fn, h, b, func_insn(fn, b)->guard); /* a setp (loop_unrollable) */
        if (func_insn(fn, c)->guard == NO_INDEX)
            tinsn[c].shared_out = 1;
    }
}

typedef struct {
    const Module *m;
    const Function *fn;
    TInsn *tinsn;
} FuncDecode;

static void decode_visit(uint32_t pc, const uint64_t *live, void *user)
{
    const FuncDecode *d = user;
    decode_insn(d->m, d->fn, pc, func_insn(d->fn, pc), live, &d->tinsn[pc]);
}

static void decode_module(Model *md)
{
    const Module *m = md->m;
    bool calls;
    bool *reachable = reachable_functions(m, md->spec.kernel, &calls);
    bool renumber = !calls;
    md->tinsn = g_new0(TInsn *, MAX(m->funcs->len, 1u));
    md->ninsns = g_new0(uint32_t, MAX(m->funcs->len, 1u));
    md->may_run_ahead = g_new0(uint8_t *, MAX(m->funcs->len, 1u));
    /* a warp runs the kernel and what it calls, with the callees' entries
     * numbered as their registers: as wide as the widest of them then,
     * else as the kernel's register rows (renumber_scoreboard; the rows
     * are touched, so zeroed by the host, whole) */
    md->max_regs = renumber ? module_func(m, md->spec.kernel)->cfg->nslots : 0;
    for (uint32_t f = 0; f < m->funcs->len; f++) {
        const Function *fn = module_func(m, f);
        if (!reachable[f])
            continue; /* never run: ninsns[f] stays 0 */
        if (!renumber)
            md->max_regs = MAX(md->max_regs, fn->regs->len);
        if (!fn->is_defined)
            continue;
        md->tinsn[f] = g_new0(TInsn, MAX(func_ninsns(fn), 1u));
        md->ninsns[f] = func_ninsns(fn);
        md->may_run_ahead[f] = g_new0(uint8_t, MAX(func_ninsns(fn), 1u));
        FuncDecode d = {m, fn, md->tinsn[f]};
        if (fn->cfg)
            cfg_walk_live_after(fn, decode_visit, &d);
        else
            for (uint32_t i = 0; i < func_ninsns(fn); i++)
                decode_visit(i, NULL, &d);
        bool *unraced = calls ? NULL : epochs_unraced_shared_loads(fn);
        for (uint32_t i = 0; i < func_ninsns(fn); i++)
            md->may_run_ahead[f][i] =
                may_run_ahead(fn, func_insn(fn, i), i, md->run_ahead_global, unraced && unraced[i]);
        g_free(unraced);
        mark_loops(fn, md->tinsn[f]);
        if (md->cfg->int_fma_pipe)
            balance_int_pipes(md, fn, md->tinsn[f]);
        if (renumber)
            renumber_scoreboard(fn, md->tinsn[f]);
        for (uint32_t i = 0; i < func_ninsns(fn); i++) {
            TInsn *t = &md->tinsn[f][i];
            t->latency = md->latency[t->shared_out][t->lat];
            t->interval = md->interval[t->unit];
            t->fetch_after = md->fetch_after[t->control];
        }
    }
    g_free(reachable);
    md->max_regs = MAX(md->max_regs, 1u);
    md->pool_regs = kernel_runs_ahead_to_end(md, calls);
}

/* ------------------------------------------------------------------ */
/* warps                                                                */

static uint64_t *slot_scoreboard(const Model *md, const Sm *sm, const WarpSlot *s)
{
    return sm->regs + (size_t)(s - sm->slots) * md->max_regs;
}

/* Look at the warp's next instruction: when its operands are ready. */
static G_ALWAYS_INLINE inline void slot_peek_insn(Model *md, Sm *sm, WarpSlot *s)
{
    uint32_t f, pc;
    s->next = NULL;
    if (s->ahead_at < s->nahead) {
        AheadStep step = s->ahead[s->ahead_at];
        f = s->func;
        pc = step.pc;
        /* a global access waiting in its record: issuing reads the record,
         * after other warps have issued */
        if (step.wavefronts == AHEAD_RECORDED)
            __builtin_prefetch(s->records + s->record_at);
    } else if (s->resume_valid) {
        if (!s->resume_live)
            return;
        f = s->func;
        pc = s->resume_pc;
    } else if (!warp_peek(s->w, &f, &pc)) {
        return;
    }
    if (pc >= md->ninsns[f]) {
        /* running off the end: let the executor report it */
        static const TInsn none = {0};
        s->next = &none;
        s->dep_ready = 0;
        return;
    }
    const TInsn *t = &md->tinsn[f][pc];
    s->next = t;
    s->func = f;
    s->next_pc = pc;
    /* the latest ready time among them, and the state a reader of it waits in */
    const uint64_t *sb = slot_scoreboard(md, sm, s);
    uint64_t ready = 0;
    uint8_t state = STATE_WAIT;
    /* without branches: which operand is the latest is data, and guessing
     * it wrong costs more than the selects */
    for (unsigned i = 0; i < t->ndeps; i++) {
        uint64_t e = sb[t->deps[i]];
        bool later = SB_READY(e) > ready;
        ready = later ? SB_READY(e) : ready;
        state = later ? SB_STATE(e) : state;
    }
    s->dep_ready = ready;
    s->dep_state = state;
}

/* The warp's next instruction ran ahead and is a global access, waiting
 * in the slot's record at record_at for its issue. */
static inline bool slot_next_recorded(const WarpSlot *s)
{
    return s->ahead_at < s->nahead && s->ahead[s->ahead_at].wavefronts == AHEAD_RECORDED;
}

static G_ALWAYS_INLINE inline void slot_peek(Model *md, Sm *sm, WarpSlot *s)
{
    slot_peek_insn(md, sm, s);
    sm->next_unit[s - sm->slots] = s->next ? s->next->unit : 0;
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void attribute(Sm *sm, WarpStateKind k, uint64_t from, uint64_t to)
{
    if (to > from)
        sm->ts->state_cycles[k] += to - from;
}

static uint64_t *ready_mask(const Sm *sm, uint32_t sched, unsigned unit)
{
    return &sm->ready[sched * UNIT_COUNT + unit];
}

/* Slot k joins its scheduler's ready set. */
static inline void ready_set(const Model *md, Sm *sm, uint32_t k)
{
    uint32_t sched = md->slot_sched[k], bit = md->slot_bit[k];
    unsigned u = sm->next_unit[k];
    *ready_mask(sm, sched, u) |= 1ull << bit;
    sm->ready_units[sched] |= (uint8_t)(1u << u);
    sm->where[k] = SLOT_READY;
}

/* Slot k leaves the ready set of unit u. */
static inline void ready_clear_unit(const Model *md, Sm *sm, uint32_t k, unsigned u)
{
    uint32_t sched = md->slot_sched[k], bit = md->slot_bit[k];
    uint64_t *mask = ready_mask(sm, sched, u);
    *mask &= ~(1ull << bit);
    if (!*mask)
        sm->ready_units[sched] &= (uint8_t)~(1u << u);
}

static inline void ready_clear(const Model *md, Sm *sm, uint32_t k)
{
    ready_clear_unit(md, sm, k, sm->next_unit[k]);
}

/* Files a live warp with a next instruction as ready (its operands and
 * fetch allow issue by `ready_by`: now, or a later cycle when its
 * scheduler picks nothing more before then) or waiting until they do. */
static G_ALWAYS_INLINE inline void slot_schedule(const Model *md, Sm *sm, WarpSlot *s, uint64_t ready_by)
{
    uint64_t own = MAX(s->fetch_ready, s->dep_ready);
    if (own >= TIME_PENDING) { /* waits for a load timed at the quantum's end */
        sm->where[s - sm->slots] = SLOT_PENDING;
        sm->npending++;
        return;
    }
    if (own <= ready_by) {
        ready_set(md, sm, (uint32_t)(s - sm->slots));
    } else {
        sm_wait(&sm->waiting, &sm->wheel, own, (uint32_t)(s - sm->slots));
        sm->where[s - sm->slots] = SLOT_WAITING;
    }
}

static void slot_unready(const Model *md, Sm *sm, WarpSlot *s)
{
    if (sm->where[s - sm->slots] == SLOT_READY)
        ready_clear(md, sm, (uint32_t)(s - sm->slots));
    sm->where[s - sm->slots] = SLOT_IDLE;
}

/* Starts loading slot k's two host cache lines, so that the loads of
 * several slots overlap. */
static inline void slot_prefetch(const Sm *sm, uint32_t k)
{
    __builtin_prefetch(&sm->slots[k]);
    __builtin_prefetch((const char *)&sm->slots[k] + 64);
}

static void sm_wake_slot(const Model *md, Sm *sm, uint32_t k)
{
    slot_prefetch(sm, k); /* it may issue in this very cycle */
    ready_set(md, sm, k);
}

/* Waiting slots whose time has come join their scheduler's ready mask. */
static void sm_wake_slots(const Model *md, Sm *sm, uint64_t t)
{
    WakeWheel *wh = &sm->wheel;
    if (t >= wh->from) {
        uint64_t span = t - wh->from + 1;
        uint64_t due = rotate_right(wh->occupied, (unsigned)(wh->from % WHEEL_SIZE));
        if (span < WHEEL_SIZE)
            due &= (1ull << span) - 1;
        for (; due; due &= due - 1) {
            unsigned b = (unsigned)((wh->from + (uint64_t)__builtin_ctzll(due)) % WHEEL_SIZE);
            for (uint64_t m = wh->bucket[b]; m; m &= m - 1)
                sm_wake_slot(md, sm, (uint32_t)__builtin_ctzll(m));
            wh->bucket[b] = 0;
            wh->occupied &= ~(1ull << b);
        }
        wh->from = t + 1;
    }
    while (sm->waiting.n && heap_first_time(&sm->waiting) <= t)
        sm_wake_slot(md, sm, heap_pop(&sm->waiting));
}

/* The cycle the scheduler can hand the memory pipe its next memory
 * instruction: when the queue in front of the pipe has room, or with no
 * queue, when the pipe is free. */
static inline uint64_t lsu_accepts(const Sm *sm, uint32_t sched)
{
    return *sm->lsu_gate[sched];
}

/* A memory instruction of the scheduler, issued at t, keeps the pipe busy
 * for `cycles` from when the pipe takes it; returns how long it waited in
 * the queue for that. */
static inline uint64_t lsu_enqueue(const Model *md, Sm *sm, uint32_t sched, uint64_t t, uint32_t cycles)
{
    uint64_t taken = MAX(sm->pipe_free, t);
    sm->pipe_free = taken + cycles;
    uint32_t d = md->cfg->lsu_queue_depth;
    if (d) {
        uint64_t *ring = &sm->lsu_queue[sched * d], *oldest = sm->lsu_gate[sched];
        *oldest = taken;
        sm->lsu_gate[sched] = oldest + 1 == ring + d ? ring : oldest + 1;
    }
    return taken - t;
}

/* The cycle the scheduler's unit u (and the memory pipe's queue, for LSU
 * instructions) takes its next instruction. */
static uint64_t unit_wake(const Sm *sm, uint32_t sched, unsigned u)
{
    uint64_t t = sm->unit_free[sched * UNIT_COUNT + u];
    if (u == UNIT_LSU)
        t = MAX(t, lsu_accepts(sm, sched));
    return t;
}

/* The ready slots of the scheduler that can issue at t (bit k: slot
 * sched + k * schedulers): those filed under a unit that takes an
 * instruction at t, when the scheduler issues at all. */
static inline uint64_t issuable(const Sm *sm, uint32_t sched, uint64_t t)
{
    if (t < sm->issue_free[sched])
        return 0;
    uint64_t mask = 0;
    for (uint32_t m = sm->ready_units[sched]; m; m &= m - 1) {
        unsigned u = (unsigned)__builtin_ctz(m);
        if (unit_wake(sm, sched, u) <= t)
            mask |= *ready_mask(sm, sched, u);
    }
    return mask;
}

/* ------------------------------------------------------------------ */
/* the launch's block                                                   */

/* Pieces of one zeroed block, each aligned to a host cache line; with no
 * block yet, only the size is counted. */
typedef struct {
    uint8_t *base;
    size_t used;
} Carve;

static void *carve(Carve *c, size_t n)
{
    size_t at = (c->used + HOST_CACHE_LINE - 1) & ~(size_t)(HOST_CACHE_LINE - 1);
    c->used = at + n;
    return c->base ? c->base + at : NULL;
}

/* An SM's arrays and its CTA slots' warps (lent to them, exec.h), which a
 * large grid makes tens of MiB, touched at once when the first CTAs go
 * out: one block in huge pages (hostmem.h) instead of thousands of small
 * allocations.  Needs nctas and nslots. */
static void sm_layout(const Model *md, Sm *sm, Carve *c)
{
    if (!sm->nctas)
        return; /* never given a CTA, never looked at: nothing of it is made */
    size_t n = MAX(sm->nslots, 1u), ns = md->schedulers;
    sm->ctas = carve(c, sm->nctas * sizeof(CtaSlot));
    sm->slots = carve(c, n * sizeof(WarpSlot));
    sm->regs = carve(c, n * md->max_regs * sizeof(uint64_t));
    sm->next_unit = carve(c, n);
    sm->where = carve(c, n);
    sm->age = carve(c, n * sizeof(uint64_t));
    sm->start = carve(c, n * sizeof(uint64_t));
    sm->stores_reach_l2 = carve(c, n * sizeof(uint64_t));
    sm->unit_free = carve(c, ns * UNIT_COUNT * sizeof(uint64_t));
    sm->issue_free = carve(c, ns * sizeof(uint64_t));
    sm->lsu_queue = carve(c, ns * md->cfg->lsu_queue_depth * sizeof(uint64_t));
    sm->lsu_gate = carve(c, ns * sizeof(uint64_t *));
    sm->last = carve(c, ns * sizeof(uint32_t));
    sm->sched_slots = carve(c, ns * sizeof(uint32_t));
    sm->ready = carve(c, ns * UNIT_COUNT * sizeof(uint64_t));
    sm->ready_units = carve(c, ns);
    sm->waiting.key = carve(c, n * sizeof(uint64_t));
    sm->waiting.id_bits = SLOT_ID_BITS;
    sm->wheel.bucket = carve(c, WHEEL_SIZE * sizeof(uint64_t));
    sm->log = carve(c, sizeof *sm->log);
    sm->ahead_log = carve(c, sizeof *sm->ahead_log);
    sm->free_regs = md->pool_regs ? carve(c, n * sizeof(uint64_t *)) : NULL;
    sm->req = carve(c, sizeof *sm->req);
    sm->slab = carve(c, sizeof *sm->slab);
    const Function *k = module_func(md->m, md->spec.kernel);
    uint32_t wpb = md->ts->occ.warps_per_block;
    for (uint32_t i = 0; i < sm->nctas; i++) {
        void *store = carve(c, cta_lend_bytes(k, wpb, md->pool_regs, cta_shared_bytes(md->m, md->shared_size)));
        if (store) /* not touched yet: whoever dispatches there does (dispatch_sms) */
            sm->ctas[i].store = store;
    }
}

/* Lays the SM's arrays out in its part of the launch's block and sets
 * them up: the first touch of that memory, which in quantum mode the
 * host threads share out by doing it when they take the SM for its first
 * CTAs (dispatch_sms). */
static void sm_prepare(const Model *md, Sm *sm)
{
    if (md->block_stale) /* as a new block's pages would be */
        memset((uint8_t *)md->block + sm->layout_at, 0, sm->layout_end - sm->layout_at);
    Carve carving = {md->block, sm->layout_at};
    sm_layout(md, sm, &carving);
    uint32_t d = md->cfg->lsu_queue_depth;
    for (uint32_t k = 0; k < md->schedulers; k++) {
        sm->lsu_gate[k] = d ? &sm->lsu_queue[k * d] : &sm->pipe_free;
        sm->last[k] = UINT32_MAX;
        sm->sched_slots[k] = (sm->nslots + md->schedulers - 1 - k) / md->schedulers;
    }
}

/* ------------------------------------------------------------------ */
/* CTAs                                                                 */

static void sm_activity(Sm *sm, uint64_t t, bool becomes_busy)
{
    if (becomes_busy)
        sm->active_since = t;
    else
        sm->ts->sm_active_cycles += t - sm->active_since;
}

static void slot_run_ahead(Model *md, Sm *sm, WarpSlot *s);

/* Model.pool_regs: a warp about to start gets a register block from its
 * SM, the one given back last (in the host's cache, its pages touched),
 * else one the SM never used.  Blocks lie SM after SM in the pool, so the
 * few each SM uses when its warps run to their end at once are the
 * pool's first pages. */
static void slot_lend_regs(const Model *md, Sm *sm, WarpSlot *s)
{
    uint64_t *regs;
    if (sm->nfree_regs) {
        regs = sm->free_regs[--sm->nfree_regs];
    } else {
        g_assert(sm->regs_made < sm->nslots); /* a block per resident warp at most */
        size_t j = sm->regs_made++;
        regs = (uint64_t *)(void *)(md->regs_pool + (j * md->nsms + sm->id) * md->pool_block_bytes);
    }
    warp_attach_regs(s->w, regs);
}

/* The warp's registers back to its SM's pool, when it has them and needs
 * them no more (warp_detach_regs). */
static void slot_return_regs(Sm *sm, WarpSlot *s)
{
    uint64_t *regs = warp_detach_regs(s->w);
    if (regs)
        sm->free_regs[sm->nfree_regs++] = regs;
}

/* CTA `lin` (the grid's linear index) into the free CTA slot `cs` of the
 * SM, or its first free one when NULL, at cycle t, its warps aged age0,
 * age0 + 1, ... (the dispatch order, which greedy-then-oldest follows). */
static bool dispatch_cta_as(Model *md, Sm *sm, CtaSlot *cs, uint64_t t, uint64_t lin, uint64_t age0,
                            GError **error)
{
    for (uint32_t k = 0; !cs && k < sm->nctas; k++)
        if (!sm->ctas[k].used)
            cs = &sm->ctas[k];
    g_assert(cs && !cs->used); /* callers check there is room */
    uint32_t ci = (uint32_t)(cs - sm->ctas);
    uint32_t wpb = md->ts->occ.warps_per_block;
    if (cs->store) {
        cta_lend(&cs->cta, module_func(md->m, md->spec.kernel), wpb, cs->store, md->pool_regs,
                 cta_shared_bytes(md->m, md->shared_size));
        cs->store = NULL;
    }
    Dim3 id = launch_cta_id(&md->spec, lin);
    if (!cta_init(&cs->cta, md->m, md->img, &md->spec, md->shared_offset, md->shared_size, id, sm->stats, error))
        return false;
    cs->cta.smid = sm->id;
    cs->cta.host_thread = sm->thread;
    cs->cta.clock = t;
    cs->used = true;
    cs->dispatched = t;
    cs->first_slot = ci * wpb;
    cs->live_warps = cs->cta.nwarps;
    if (sm->resident_ctas++ == 0)
        sm_activity(sm, t, true);
    sm->resident_warps += cs->cta.nwarps;
    for (uint32_t i = 0; i < cs->cta.nwarps; i++) {
        WarpSlot *s = &sm->slots[cs->first_slot + i];
        s->w = &cs->cta.warps[i];
        s->cs = cs;
        s->w->mem_log = sm->log;
        s->nahead = s->ahead_at = s->record_at = 0;
        g_clear_error(&s->ahead_error);
        uint64_t *sb = slot_scoreboard(md, sm, s);
        for (uint32_t r = 0; r < md->max_regs; r++)
            sb[r] = SB_PACK(0, STATE_WAIT);
        s->fetch_ready = t;
        s->stall_from = t;
        sm->start[cs->first_slot + i] = t;
        sm->stores_reach_l2[cs->first_slot + i] = t;
        sm->age[cs->first_slot + i] = age0 + i;
        s->at_barrier = false;
        if (md->pool_regs)
            slot_lend_regs(md, sm, s);
        slot_run_ahead(md, sm, s);
        slot_peek(md, sm, s);
        /* waiting even when ready at t: the SM's cycle t may be under way */
        sm->where[s - sm->slots] = SLOT_IDLE;
        if (s->next) {
            sm_wait(&sm->waiting, &sm->wheel, MAX(s->fetch_ready, s->dep_ready), cs->first_slot + i);
            sm->where[s - sm->slots] = SLOT_WAITING;
        }
    }
    launch_stats_count_cta(sm->stats, &cs->cta);
    sm->wake = MIN(sm->wake, t);
    return true;
}

/* The grid's next `want` CTAs, or as many as are left: the first one's
 * linear index and its first warp's age in *lin and *age0 (the others
 * follow on); returns how many. */
static uint32_t take_ctas(Model *md, uint32_t want, uint64_t *lin, uint64_t *age0)
{
    uint32_t n = (uint32_t)MIN((uint64_t)want, md->total_ctas - MIN(md->next_cta, md->total_ctas));
    *lin = md->next_cta;
    *age0 = md->age;
    md->next_cta += n;
    md->age += (uint64_t)n * md->ts->occ.warps_per_block;
    if (n && md->next_cta >= md->total_ctas)
        atomic_store_explicit(&md->all_dispatched, true, memory_order_release);
    return n;
}

/* The grid's next CTA to the SM, when there is one and room for it: into
 * CTA slot `cs` (free), or the first free one when NULL. */
static bool dispatch_cta(Model *md, Sm *sm, CtaSlot *cs, uint64_t t, GError **error)
{
    if (sm->resident_ctas >= sm->nctas)
        return true;
    uint64_t lin, age0;
    return !take_ctas(md, 1, &lin, &age0) || dispatch_cta_as(md, sm, cs, t, lin, age0, error);
}

/* The first wave, breadth first: one CTA per SM in turn, as long as they
 * fit, which gives SM i the CTAs i, i + nsms, ... up to its slots (sized
 * for that).  So each SM's share is known and SMs can take theirs in any
 * order, on any thread; first_wave_end() accounts for all of them (from
 * the SMs' counts alone: in quantum mode, before any is dispatched). */
static bool dispatch_first_wave(Model *md, Sm *sm, GError **error)
{
    uint32_t wpb = md->ts->occ.warps_per_block;
    for (uint32_t r = 0; r < sm->nctas; r++) {
        uint64_t order = (uint64_t)r * md->nsms + sm->id;
        if (!dispatch_cta_as(md, sm, NULL, 0, md->first_cta + order, order * wpb, error))
            return false;
    }
    return true;
}

static void first_wave_end(Model *md)
{
    uint64_t ctas = 0;
    for (uint32_t i = 0; i < md->nsms; i++)
        ctas += md->sms[i].nctas;
    md->next_cta = md->first_cta + ctas;
    md->age = ctas * md->ts->occ.warps_per_block;
    atomic_store_explicit(&md->all_dispatched, md->next_cta >= md->total_ctas, memory_order_release);
}

static void retire_cta(Model *md, Sm *sm, CtaSlot *cs, uint64_t t)
{
    if (md->ts->cta_end)
        md->ts->cta_end[launch_cta_linear(&md->spec, cs->cta.ctaid) - md->first_cta] = t;
    if (G_UNLIKELY(sm->tl))
        timeline_cta(sm->tl, (uint32_t)(cs - sm->ctas), launch_cta_linear(&md->spec, cs->cta.ctaid), cs->cta.ctaid.x,
                     cs->cta.ctaid.y, cs->cta.ctaid.z, cs->dispatched, t);
    cs->used = false; /* its buffers stay for the next CTA of this slot */
    if (--sm->resident_ctas == 0)
        sm_activity(sm, t, false);
}

/* ------------------------------------------------------------------ */
/* timeline hooks (timeline.h): reached only when one is recorded       */

static uint64_t tl_sectors(const MemCounters *c)
{
    return c->gld_sectors + c->gst_sectors + c->gatom_sectors + c->lld_sectors + c->lst_sectors;
}

/* What an issued instruction accessed: the lanes' addresses (the SM's
 * log, or a record run ahead) or a record coalesced ahead, and what the
 * timing model reads of either. */
typedef struct {
    const WarpAccess *raw;        /* NULL when coalesced */
    const CoalescedAccess *pre;   /* NULL when not */
    uint32_t mask, size;
    uint8_t space;
    bool write;
} Accessed;

static inline Accessed accessed_raw(const WarpAccess *a)
{
    return (Accessed){a, NULL, a->mask, a->size, a->space, a->write};
}

static inline Accessed accessed_record(const AheadRecordHead *r)
{
    if (!r->coalesced)
        return accessed_raw((const WarpAccess *)(const void *)(r + 1));
    const CoalescedAccess *pre = (const CoalescedAccess *)(const void *)(r + 1);
    return (Accessed){NULL, pre, pre->mask, pre->size, SPACE_GLOBAL, pre->write};
}

static TimelineMemKind tl_mem_kind(const Insn *in, const Accessed *a)
{
    bool local = a->space == SPACE_LOCAL;
    if (in->op == OP_ATOM || in->op == OP_RED)
        return TL_MEM_ATOM_GLOBAL;
    if (a->write)
        return local ? TL_MEM_ST_LOCAL : TL_MEM_ST_GLOBAL;
    return local ? TL_MEM_LD_LOCAL : TL_MEM_LD_GLOBAL;
}

static uint32_t tl_bytes(const Accessed *a)
{
    return (uint32_t)__builtin_popcount(a->mask) * a->size;
}

/* The pieces issue() split the cycles since the warp's last issue into. */
static G_GNUC_NO_INLINE void tl_stalls(Sm *sm, const WarpSlot *s, uint64_t from, uint64_t a, uint64_t b,
                                      uint64_t c, uint64_t t, WarpStateKind dep, WarpStateKind throttle)
{
    uint32_t slot = (uint32_t)(s - sm->slots);
    timeline_stall(sm->tl, slot, STATE_BRANCH_RESOLVING, from, a);
    timeline_stall(sm->tl, slot, dep, a, b);
    timeline_stall(sm->tl, slot, throttle, b, c);
    timeline_stall(sm->tl, slot, STATE_NOT_SELECTED, c, t);
}

static G_GNUC_NO_INLINE void tl_issue(const Model *md, Sm *sm, const WarpSlot *s, uint64_t t)
{
    uint32_t slot = (uint32_t)(s - sm->slots);
    timeline_issue(sm->tl, slot, t, launch_cta_linear(&md->spec, s->cs->cta.ctaid), slot - s->cs->first_slot);
}

static void tl_launch_begin(Model *md, Timeline *tl)
{
    uint32_t in_use = 0, slots = 0, ctas = 0;
    for (uint32_t i = 0; i < md->nsms; i++) {
        in_use += md->sms[i].nctas > 0;
        slots = MAX(slots, md->sms[i].nslots);
        ctas = MAX(ctas, md->sms[i].nctas);
    }
    timeline_launch_begin(tl, module_func(md->m, md->spec.kernel)->name, md->nsms, in_use, slots, ctas,
                          timing_state_names, STATE_COUNT);
    md->tl = tl;
    for (uint32_t i = 0; i < md->nsms; i++)
        md->sms[i].tl = timeline_sm(tl, i);
}

/* ------------------------------------------------------------------ */
/* issue                                                                */

/* The trace observer (exec.h) hears where the warp's cycles went, as
 * attribute() counts them. */
static void observe_stall(const WarpSlot *s, WarpStateKind k, uint64_t from, uint64_t to)
{
    const ExecObserver *o = exec_observer_for(s->w);
    if (o && o->on_stall && to > from)
        o->on_stall(o->data, s->w, (unsigned)k, from, to);
}

/* The warp waits in state k from its first cycle not yet attributed until
 * `to`, which it cannot issue before: counted now, for the counters, the
 * timeline and the observer alike. */
static void slot_wait_until(const Model *md, Sm *sm, WarpSlot *s, WarpStateKind k, uint64_t to)
{
    if (G_UNLIKELY(sm->tl))
        timeline_stall(sm->tl, (uint32_t)(s - sm->slots), k, s->stall_from, to);
    attribute(sm, k, s->stall_from, to);
    if (G_UNLIKELY(md->spec.observer))
        observe_stall(s, k, s->stall_from, to);
    s->stall_from = MAX(s->stall_from, to);
}

/* Barrier waiters of the CTA that the executor released: the barrier opens
 * once the SM's barrier unit has counted every arrival, they go on the
 * barrier latency after, and the unit counts no arrival for its reset
 * time (config.h). */
static void release_waiters(Model *md, Sm *sm, CtaSlot *cs, uint64_t t)
{
    uint64_t open = MAX(t, sm->barrier_counted);
    uint64_t release = open + md->cfg->latency[LAT_BARRIER];
    bool opened = false;
    for (uint32_t i = 0; i < cs->cta.nwarps; i++) {
        WarpSlot *s = &sm->slots[cs->first_slot + i];
        if (!s->w || !s->at_barrier || s->w->state == WARP_AT_BARRIER)
            continue;
        s->at_barrier = false;
        opened = true;
        slot_wait_until(md, sm, s, STATE_BARRIER, release);
        s->fetch_ready = MAX(s->fetch_ready, release);
        s->resume_valid = false; /* look at the warp itself */
        slot_peek(md, sm, s);
        if (s->next)
            slot_schedule(md, sm, s, t);
    }
    if (opened)
        sm->barrier_counted = MAX(sm->barrier_counted, open + md->cfg->barrier_reset_cycles);
}

/* A barrier arrival or a fence issued at t.  An arrival waits its turn to
 * be counted (release_waiters opens the barrier once the last one is).
 * A fence holds its warp: beyond the CTA until the warp's stores are in L2,
 * then for its latency; those cycles are the membar state's now, as the
 * warp cannot issue before they end, and the fence's line's stall cycles. */
static G_GNUC_NO_INLINE void issue_sync(Model *md, Sm *sm, WarpSlot *s, const TInsn *done, uint32_t func,
                                        uint32_t pc, uint64_t t)
{
    const GpuConfig *cfg = md->cfg;
    if (done->sync == SYNC_BARRIER) {
        sm->barrier_counted = MAX(sm->barrier_counted, t) + cfg->barrier_arrival_cycles;
        return;
    }
    uint64_t stored = done->sync > SCOPE_CTA ? sm->stores_reach_l2[s - sm->slots] : 0;
    uint64_t go = MAX(s->fetch_ready, MAX(t, stored) + cfg->latency[done->lat]);
    if (go > s->stall_from && sm->ts->insn_stall && sm->ts->insn_stall[func])
        sm->ts->insn_stall[func][pc] += go - s->stall_from;
    slot_wait_until(md, sm, s, STATE_MEMBAR, go);
    s->fetch_ready = go;
}

static void finish_warp(const Model *md, Sm *sm, WarpSlot *s, uint64_t t)
{
    if (md->pool_regs)
        slot_return_regs(sm, s);
    if (G_UNLIKELY(sm->tl))
        timeline_warp_end(sm->tl, (uint32_t)(s - sm->slots));
    sm->ts->warp_active_cycles += t + 1 - sm->start[s - sm->slots];
    s->w->mem_log = NULL;
    s->w = NULL;
    s->next = NULL;
    s->cs->live_warps--;
    sm->resident_warps--;
}

/* Whether the L2 or DRAM must see a request (memsys_access_beyond would
 * change state or time): stores and atomics always, loads unless L1 had
 * every sector. */
static bool request_goes_beyond(const MemRequest *r)
{
    if (r->kind != MEMREQ_READ)
        return true;
    for (uint32_t i = 0; i < r->ntrans; i++)
        if (r->trans[i].sector_mask)
            return true;
    return false;
}

/* What the run-ahead of one slot needs to time its accesses. */
typedef struct {
    Model *md;
    Sm *sm;
    WarpSlot *s;
    const StepPos *steps;
    /* AHEAD_MAX: what steps[i]'s access costs (AheadStep.wavefronts), 0
     * for a step that accessed no memory; cleared by the run's caller */
    uint8_t *wavefronts;
    uint32_t records_len; /* bytes of records written */
    /* the records, until the run's end copies them to the slot's buffer
     * (sized then, to what they need): AHEAD_RECORDS_BYTES, outside this
     * struct (which is cleared for each run) like wavefronts */
    uint8_t *records;
} AheadCtx;
#define AHEAD_RECORDS_BYTES (AHEAD_RECORDS * AHEAD_RECORD_MAX)

/* n rounded up to a multiple of `align`, a power of two */
static size_t round_up_pow2(size_t n, size_t align)
{
    return (n + align - 1) & ~(align - 1);
}

/* An access run ahead: a global one (global_recordable) goes into a record
 * of the slot until its issue times it; one that address_timed() allows is
 * counted now, its cost kept for its issue, which needs nothing else
 * (memsys_short_access). */
static void ahead_access(void *data, uint32_t step, const WarpAccess *log)
{
    AheadCtx *a = data;
    g_assert(step < AHEAD_MAX);
    const Insn *in = func_insn(module_func(a->md->m, a->steps[step].func), a->steps[step].pc);
    if (a->md->may_run_ahead[a->steps[step].func][a->steps[step].pc] == RUN_AHEAD_RECORD) {
        CoalescedAccess pre;
        bool coalesced = memsys_coalesce_ahead(a->md->mem, in, log, &pre);
        const void *body = coalesced ? (const void *)&pre : (const void *)log;
        size_t len = coalesced ? offsetof(CoalescedAccess, trans) + pre.ntrans * sizeof(MemTransaction) : sizeof *log;
        uint32_t bytes = (uint32_t)round_up_pow2(sizeof(AheadRecordHead) + len, 8);
        /* warp_run_ahead records AHEAD_RECORDS accesses at most */
        g_assert(a->records_len + bytes <= AHEAD_RECORDS_BYTES);
        uint8_t *at = a->records + a->records_len;
        *(AheadRecordHead *)(void *)at = (AheadRecordHead){bytes, coalesced};
        memcpy(at + sizeof(AheadRecordHead), body, len);
        a->records_len += bytes;
        a->wavefronts[step] = AHEAD_RECORDED;
        return;
    }
    if (a->md->tinsn[a->steps[step].func][a->steps[step].pc].operand)
        return; /* no access: wavefronts[step] stays 0 */
    MemTiming mt = memsys_access(a->md->mem, a->sm->id, 0, in, log, 0, &a->sm->ts->mem);
    g_assert(mt.pipe_cycles >= 1 && mt.pipe_cycles < AHEAD_RECORDED);
    a->wavefronts[step] = (uint8_t)mt.pipe_cycles;
}

/* Appends `more` items of `size` bytes from `from` to `items` (*n of them,
 * in a block of *room bytes) and returns where the list now lies: a full
 * list moves to a block of its SM's slab twice its size at least, and
 * gives the old one back to the slab. */
static void *list_append(Model *md, Sm *sm, void *items, uint32_t *n, size_t *room, const void *from, uint32_t more,
                         size_t size)
{
    if ((size_t)(*n + more) * size > *room) {
        size_t bytes = host_arena_class_bytes(MAX((size_t)*n + more, 2 * (size_t)*n) * size);
        void *bigger = host_arena_alloc(md->arena, sm->slab, bytes);
        if (*n)
            memcpy(bigger, items, (size_t)*n * size);
        host_arena_give(sm->slab, items, *room);
        *room = bytes;
        items = bigger;
    }
    memcpy((uint8_t *)items + (size_t)*n * size, from, (size_t)more * size);
    *n += more;
    return items;
}

/* With the warp's registers in the host's cache (it just executed, or its
 * CTA was just set up), runs its next instructions that may run ahead now
 * (may_run_ahead); they issue in later cycles.  Then notes where the warp
 * stands for slot_peek_insn(). */
static void slot_run_ahead(Model *md, Sm *sm, WarpSlot *s)
{
    Warp *w = s->w;
    uint32_t steps_func = 0;
    if (md->run_ahead && w->state == WARP_READY) {
        uint32_t n = 0;
        /* a fault is kept in ahead_error until its instruction issues */
        StepPos steps[AHEAD_MAX];
        _Alignas(8) uint8_t records[AHEAD_RECORDS_BYTES];
        uint8_t wavefronts[AHEAD_MAX] = {0};
        AheadCtx ctx = {.md = md, .sm = sm, .s = s, .steps = steps, .wavefronts = wavefronts, .records = records};
        AheadAccesses accesses = {ahead_access, &ctx, sm->ahead_log, md->run_ahead_global ? AHEAD_RECORDS : 0};
        (void)warp_run_ahead(w, (const uint8_t *const *)md->may_run_ahead, AHEAD_MAX, steps, &n, &accesses,
                             &s->ahead_error);
        if (G_UNLIKELY(s->ahead_error))
            sm->ahead_faults = true;
        steps_func = n ? steps[0].func : 0;
        /* may_run_ahead() allows no call or return, and no pc past 16 bits */
        g_assert(!n || (steps[n - 1].func == steps_func && steps[n - 1].pc <= UINT16_MAX));
        size_t steps_bytes = round_up_pow2(n * sizeof(AheadStep), 8), need = steps_bytes + ctx.records_len;
        if (need > s->list_cap) { /* the old list goes to the SM's next one of its size */
            host_arena_give(sm->slab, s->ahead, s->list_cap);
            s->list_cap = (uint32_t)host_arena_class_bytes(need);
            s->ahead = host_arena_alloc(md->arena, sm->slab, s->list_cap);
        }
        if (need) {
            s->records = (uint8_t *)s->ahead + steps_bytes;
            memcpy(s->records, ctx.records, ctx.records_len);
        }
        for (uint32_t i = 0; i < n; i++)
            s->ahead[i] = (AheadStep){(uint16_t)steps[i].pc, wavefronts[i]};
        s->nahead = n;
        s->ahead_at = 0;
        s->record_at = 0;
    }
    uint32_t resume_func = 0; /* none when the warp is done */
    s->resume_live = warp_peek(w, &resume_func, &s->resume_pc);
    s->resume_valid = true;
    /* when what is left to execute at issue is the end alone, the
     * registers can serve the SM's next warp */
    if (md->pool_regs)
        slot_return_regs(sm, s);
    /* where the steps ran ahead, and the resume point when there are none */
    s->func = s->nahead ? steps_func : resume_func;
}

/* The instruction's results are ready at `ready`; a reader waits in state. */
static inline void results_ready(const Model *md, Sm *sm, const WarpSlot *s, const TInsn *in, uint64_t ready,
                                 uint8_t state)
{
    uint64_t *sb = slot_scoreboard(md, sm, s);
    for (unsigned i = 0; i < in->ndst; i++)
        sb[in->dst[i]] = SB_PACK(ready, state);
}

/* After the slot issued `in` at t: its results and its next fetch. */
static inline void slot_issued(const Model *md, Sm *sm, WarpSlot *s, const TInsn *in, uint64_t t, uint64_t ready,
                               uint8_t state)
{
    results_ready(md, sm, s, in, ready, state);
    s->fetch_ready = t + in->fetch_after;
}

/* When the result of a shared, constant or parameter access that ran
 * ahead is ready, issued at t: its cost (wavefronts) was worked out then;
 * it takes the memory pipe now. */
static inline uint64_t ahead_access_ready(Model *md, Sm *sm, uint32_t sched, const TInsn *in, uint32_t wavefronts,
                                          uint64_t t)
{
    MemTiming mt = memsys_short_access(md->cfg, (PtxSpace)in->mem_space, wavefronts, t);
    return MAX(mt.ready, t + 1) + lsu_enqueue(md, sm, sched, t, mt.pipe_cycles);
}

/* Where the cycles since the slot last issued went, now that it issues at
 * t: waiting for its fetch (branch target), for its operands, for its
 * unit (or the memory pipe's queue), then for the scheduler to pick it. */
static G_ALWAYS_INLINE inline void account_wait(Model *md, Sm *sm, WarpSlot *s, uint64_t t, uint32_t sched,
                                                const uint64_t *ufree)
{
    const TInsn *t_in = s->next;
    unsigned unit = t_in->unit;
    uint32_t func = s->func, pc = s->next_pc;
    /* where the cycles since the last issue went */
    TimingStats *ts = sm->ts;
    uint64_t from = s->stall_from;
    if (t > from) {
        uint64_t a = clamp_u64(s->fetch_ready, from, t);
        /* from <= a <= b <= c <= t: each span is a count, no test needed */
        ts->state_cycles[STATE_BRANCH_RESOLVING] += a - from;
        uint64_t b = clamp_u64(s->dep_ready, a, t);
        ts->state_cycles[s->dep_state] += b - a;
        /* the unit (or, for a memory instruction, the queue of the SM's
         * memory pipe behind it) was busy until its last free time */
        uint64_t busy = unit == UNIT_LSU ? MAX(*ufree, lsu_accepts(sm, sched)) : *ufree;
        WarpStateKind throttle = (WarpStateKind)t_in->throttle;
        uint64_t c = clamp_u64(busy, b, t);
        ts->state_cycles[throttle] += c - b;
        ts->state_cycles[STATE_NOT_SELECTED] += t - c;
        if (G_UNLIKELY(sm->tl))
            tl_stalls(sm, s, from, a, b, c, t, (WarpStateKind)s->dep_state, throttle);
        if (G_UNLIKELY(md->spec.observer)) {
            observe_stall(s, STATE_BRANCH_RESOLVING, from, a);
            observe_stall(s, (WarpStateKind)s->dep_state, a, b);
            observe_stall(s, throttle, b, c);
            observe_stall(s, STATE_NOT_SELECTED, c, t);
        }
        if (ts->insn_stall && ts->insn_stall[func])
            ts->insn_stall[func][pc] += t - from;
    }
    /* a warp-cycle is selected once, however many of the warp's
     * instructions a dual-issue scheduler takes in it: the states are
     * shares of warp-cycles and sum to them */
    ts->state_cycles[STATE_SELECTED] += from <= t;
    s->stall_from = t + 1;
}

/* An instruction issued at t that is `slots` machine instructions (an
 * integer division, an IEEE square root, ...): its scheduler issues them
 * one a cycle, nothing else meanwhile, and its warp is the one selected
 * all that time.  Its result still comes its latency class's cycles after
 * t: the classes were measured on such sequences. */
static void issue_sequence(Sm *sm, WarpSlot *s, uint32_t sched, uint64_t t, uint32_t slots)
{
    sm->issue_free[sched] = MAX(sm->issue_free[sched], t + slots);
    sm->ts->state_cycles[STATE_SELECTED] += slots - 1;
    s->stall_from = t + slots;
}

/* Any issue: an instruction executed at issue, a global access waiting in
 * a record, anything a timeline or an observer hears of.  Not inlined
 * into sm_cycle(), whose common case is issue_ahead(): with this one's
 * code there, sm_cycle was 2280 host instructions with 372 stack
 * references (values spilled around the rare path), 753 and 84 without,
 * and the timing runs of banks, ilp and saxpy execute 0.1-0.7 % fewer
 * host instructions. */
static G_GNUC_NO_INLINE bool issue(Model *md, Sm *sm, WarpSlot *s, uint64_t t, GError **error)
{
    const GpuConfig *cfg = md->cfg;
    const TInsn *t_in = s->next;
    unsigned unit = t_in->unit;
    uint32_t sched = md->slot_sched[s - sm->slots];
    uint64_t *ufree = &sm->unit_free[sched * UNIT_COUNT + unit];

    account_wait(md, sm, s, t, sched, ufree);
    if (G_UNLIKELY(sm->tl))
        tl_issue(md, sm, s, t);
    slot_unready(md, sm, s);

    Warp *w = s->w;
    Cta *cta = &s->cs->cta;
    sm->log->mask = 0;
    StepInfo info;
    /* An instruction executed ahead neither reads the clock nor ends or
     * blocks the warp (may_run_ahead), so issuing it needs nothing of the
     * warp or its CTA: their host cache lines stay untouched. */
    bool stepped = false;
    uint32_t ahead_wavefronts = 0;
    /* the record of its access (AHEAD_RECORDED): the slot's buffer is not
     * written again before the warp executes at issue, after this */
    const AheadRecordHead *record = NULL;
    if (s->ahead_at < s->nahead) { /* executed already */
        AheadStep step = s->ahead[s->ahead_at++];
        ahead_wavefronts = step.wavefronts;
        if (ahead_wavefronts == AHEAD_RECORDED) {
            record = (const AheadRecordHead *)(const void *)(s->records + s->record_at);
            s->record_at += record->bytes;
            ahead_wavefronts = 0;
        }
        info = (StepInfo){.func = s->func, .pc = step.pc, .active = 1};
        if (s->ahead_at == s->nahead)
            s->ahead_at = s->nahead = s->record_at = 0;
    } else if (s->ahead_error) { /* the fault of the instruction issued now */
        g_propagate_error(error, g_steal_pointer(&s->ahead_error));
        return false;
    } else {
        cta->clock = t;
        if (!warp_step(w, &info, error))
            return false;
        stepped = true;
        slot_run_ahead(md, sm, s);
    }
    sm->issued++;
    if (!md->by_quanta)
        md->issued++;
    if (md->spec.max_instructions && md->issued > md->spec.max_instructions)
        return launch_budget_exhausted(cta, md->spec.max_instructions, error);

    /* the executed instruction may differ from the peeked one only when the
     * warp had no path left (then nothing executed); one executed ahead
     * is the peeked one */
    const TInsn *done = stepped && info.active ? &md->tinsn[info.func][info.pc] : t_in;
    unit = done->unit;
    ufree = &sm->unit_free[sched * UNIT_COUNT + unit];
    *ufree = MAX(*ufree, t) + done->interval;
    if (G_UNLIKELY(done->slots > 1))
        issue_sequence(sm, s, sched, t, done->slots);

    uint64_t ready = t + done->latency;
    uint8_t state = done->result_state;
    /* what the instruction accessed: the log has it unless it ran ahead */
    Accessed access = record ? accessed_record(record) : accessed_raw(sm->log);
    if (access.mask && !done->operand) {
        const Insn *in = func_insn(module_func(md->m, info.func), info.pc);
        uint64_t local_id = (uint64_t)sm->id * sm->nslots + (uint64_t)(s - sm->slots);
        /* global or local: through L2 */
        bool beyond_sm = access.pre || memsys_shared_level(access.raw);
        if (access.write && beyond_sm) { /* what a later fence waits for */
            uint64_t *stored = &sm->stores_reach_l2[s - sm->slots];
            *stored = MAX(*stored, t + cfg->l2.latency);
        }
        if (md->by_quanta && beyond_sm) {
            /* the L1 part now; L2 and DRAM see it after its quantum, in
             * lockstep order, and the data cannot be back before then
             * (run_quanta) */
            MemRequest *r = sm->req;
            uint64_t sectors0 = G_UNLIKELY(sm->tl) ? tl_sectors(&sm->ts->mem) : 0;
            uint32_t pipe = access.pre ? memsys_access_sm_coalesced(md->mem, sm->id, t, in, access.pre, &sm->ts->mem, r)
                                       : memsys_access_sm(md->mem, sm->id, t, in, access.raw, local_id, &sm->ts->mem, r);
            /* the memory pipe gives the request's lines one a cycle, so its
             * data is complete pipe - 1 cycles after its first line, as a
             * shared access's last wavefront ends it (memsys_short_access):
             * a load of 32 lines that hit in L1 takes 31 cycles more than
             * one of a line (polybench's row kernels) */
            uint64_t queued = lsu_enqueue(md, sm, sched, t, pipe) + pipe - 1;
            DeferredList *later = &sm->deferred[md->filling];
            Deferred d = {.t = t, .slot = (uint32_t)(s - sm->slots), .age = sm->age[s - sm->slots], .done = done,
                          .queued = (uint32_t)queued};
            if (G_UNLIKELY(sm->tl)) {
                /* a request's sectors: at most its transactions' 32 each;
                 * its bytes: 32 lanes of 16 at most */
                d.tl_sectors = (uint16_t)(tl_sectors(&sm->ts->mem) - sectors0);
                d.tl_kind = (uint8_t)tl_mem_kind(in, &access);
                d.tl_bytes = (uint16_t)tl_bytes(&access);
                d.tl_line = in->line;
            }
            if (request_goes_beyond(r)) {
                ready = TIME_PENDING;
                d.kind = r->kind;
                d.ntrans = (uint16_t)r->ntrans;
                d.atomic_same = (uint8_t)r->atomic_same;
                if (r->kind == MEMREQ_ATOMIC) {
                    d.passes_at = later->npasses;
                    later->passes = list_append(md, sm, later->passes, &later->npasses, &later->passes_room,
                                                r->atomic_passes, r->ntrans, sizeof *later->passes);
                }
                d.ready = r->ready;
                d.trans_at = later->ntrans;
                later->trans = list_append(md, sm, later->trans, &later->ntrans, &later->trans_room, r->trans,
                                           r->ntrans, sizeof *later->trans);
                later->recs = list_append(md, sm, later->recs, &later->nrecs, &later->recs_room, &d, 1,
                                          sizeof *later->recs);
            } else { /* all L1 hits: nothing for L2 and DRAM, the answer is known now */
                ready = MAX(r->ready, t + 1) + queued;
                if (G_UNLIKELY(sm->tl))
                    timeline_mem(sm->tl, d.slot, (TimelineMemKind)d.tl_kind, t, ready, d.tl_sectors, d.tl_bytes,
                                 d.tl_line);
            }
            state = STATE_LONG_SCOREBOARD;
        } else {
            uint64_t sectors0 = G_UNLIKELY(sm->tl) ? tl_sectors(&sm->ts->mem) : 0;
            MemTiming mt = access.pre ? memsys_access_coalesced(md->mem, sm->id, t, in, access.pre, &sm->ts->mem)
                                      : memsys_access(md->mem, sm->id, t, in, access.raw, local_id, &sm->ts->mem);
            ready = MAX(mt.ready, t + 1) + lsu_enqueue(md, sm, sched, t, mt.pipe_cycles);
            if (mt.long_latency) /* the same tail as the deferred path above */
                ready += mt.pipe_cycles - 1;
            if (G_UNLIKELY(sm->tl) && mt.long_latency)
                timeline_mem(sm->tl, (uint32_t)(s - sm->slots), tl_mem_kind(in, &access), t, ready,
                             (uint32_t)(tl_sectors(&sm->ts->mem) - sectors0), tl_bytes(&access), in->line);
            state = mt.long_latency ? STATE_LONG_SCOREBOARD : STATE_SHORT_SCOREBOARD;
        }
    } else if (ahead_wavefronts) { /* its access was costed when it ran ahead: the same as above */
        ready = ahead_access_ready(md, sm, sched, done, ahead_wavefronts, t);
        state = STATE_SHORT_SCOREBOARD;
    }
    slot_issued(md, sm, s, done, t, ready, state);
    if (G_UNLIKELY(done->sync))
        issue_sync(md, sm, s, done, info.func, info.pc, t);
    if (info.blocked)
        s->at_barrier = true;

    bool warp_done = stepped && w->state == WARP_DONE;
    if (warp_done)
        finish_warp(md, sm, s, t);
    else
        slot_peek(md, sm, s);
    /* a barrier may have completed, by this arrival or by this warp exiting */
    if (info.blocked || warp_done || done->unit == UNIT_BARRIER)
        release_waiters(md, sm, s->cs, t);
    if (warp_done) {
        CtaSlot *cs = s->cs;
        s->cs = NULL;
        if (cs->live_warps == 0) {
            retire_cta(md, sm, cs, t + 1);
            if (md->by_quanta) {
                /* which CTA comes next depends on the other SMs: it is
                 * dispatched in its turn (sm_take_replacements), as lockstep
                 * would; once the grid is all out there is none to wait for
                 * (a stale `false` only waits needlessly) */
                if (!atomic_load_explicit(&md->all_dispatched, memory_order_acquire)) {
                    cs->retired_rank = ++sm->retired;
                    sm->retired_at = t;
                }
            } else if (!dispatch_cta(md, sm, cs, t + 1, error)) {
                return false;
            }
        }
    }
    /* still the same warp (not released at a barrier above, not a new CTA's).
     * With one issue per scheduler and cycle, its scheduler looks at its
     * ready set next at t + 1: a warp ready by then is filed ready now,
     * without a round through the wake wheel.  The SM then wakes at t + 1
     * or, when the warp's unit is busy longer, at the first cycle that can
     * issue (sm_next_wake), skipping a visit that could issue nothing. */
    if (s->w && !s->at_barrier && sm->where[s - sm->slots] == SLOT_IDLE && s->next)
        slot_schedule(md, sm, s, md->issue_width == 1 ? t + 1 : t);
    return true;
}

/* issue() of an instruction executed ahead whose timing needs nothing but
 * its unit, its latency and, for a shared, constant or parameter access,
 * the cost run-ahead worked out (not a global access waiting in a record),
 * with no timeline or observer to tell: most issues of ALU-bound code.
 * The same effects as issue(), in fewer steps: such an instruction does
 * not sync, block, end the warp or touch its Warp or CTA (may_run_ahead),
 * and no instruction budget is counted (a budget turns run-ahead off). */
static G_ALWAYS_INLINE inline void issue_ahead(Model *md, Sm *sm, WarpSlot *s, uint64_t t)
{
    const TInsn *in = s->next;
    uint32_t k = (uint32_t)(s - sm->slots), sched = md->slot_sched[k];
    unsigned unit = in->unit; /* the unit it is filed under (slot_peek) */
    uint64_t *ufree = &sm->unit_free[sched * UNIT_COUNT + unit];
    account_wait(md, sm, s, t, sched, ufree);
    uint32_t wavefronts = s->ahead[s->ahead_at].wavefronts;
    if (++s->ahead_at == s->nahead)
        s->ahead_at = s->nahead = s->record_at = 0;
    sm->issued++;
    if (!md->by_quanta)
        md->issued++;
    *ufree = MAX(*ufree, t) + in->interval;
    if (G_UNLIKELY(in->slots > 1))
        issue_sequence(sm, s, sched, t, in->slots);
    uint64_t ready = t + in->latency;
    uint8_t state = in->result_state;
    if (wavefronts) {
        ready = ahead_access_ready(md, sm, sched, in, wavefronts, t);
        state = STATE_SHORT_SCOREBOARD;
    }
    slot_issued(md, sm, s, in, t, ready, state);
    slot_peek(md, sm, s);
    /* pick() took it from the ready set, which it leaves now unless its
     * next instruction is ready as soon and for the same unit */
    uint64_t ready_by = md->issue_width == 1 ? t + 1 : t;
    if (s->next && s->next->unit == unit && MAX(s->fetch_ready, s->dep_ready) <= ready_by)
        return; /* still ready, still filed under its unit */
    ready_clear_unit(md, sm, k, unit);
    sm->where[k] = SLOT_IDLE;
    if (s->next)
        slot_schedule(md, sm, s, ready_by);
}

/* The slot the scheduler issues from at cycle t, or NULL.  Only ready
 * slots are looked at, in the order the policy defines over all of them. */
static WarpSlot *pick(Model *md, Sm *sm, uint32_t sched, uint64_t t)
{
    uint32_t n = md->schedulers;
    uint64_t mask = issuable(sm, sched, t);
    if (!mask)
        return NULL;
    uint32_t last = sm->last[sched]; /* a slot of this scheduler, or none */
    if (md->cfg->sched_policy == SCHED_GTO) {
        if (last < sm->nslots && (mask >> md->slot_bit[last] & 1))
            return &sm->slots[last];
        WarpSlot *best = NULL;
        for (uint64_t m = mask; m; m &= m - 1) {
            uint32_t i = sched + (uint32_t)__builtin_ctzll(m) * n;
            if (!best || sm->age[i] < sm->age[best - sm->slots])
                best = &sm->slots[i];
        }
        return best;
    }
    /* loose round-robin: from the slot after the last one issued, wrapping */
    uint32_t start = last < sm->nslots ? md->slot_bit[last] + 1u : 0;
    if (start >= sm->sched_slots[sched])
        start = 0;
    uint64_t after = mask & (~0ull << start), word = after ? after : mask;
    return &sm->slots[sched + (uint32_t)__builtin_ctzll(word) * n];
}

static bool sm_cycle(Model *md, Sm *sm, uint64_t t, GError **error)
{
    sm_wake_slots(md, sm, t);
    for (uint32_t sched = 0; sched < md->schedulers; sched++) {
        for (uint32_t k = 0; k < md->issue_width; k++) {
            WarpSlot *s = pick(md, sm, sched, t);
            if (!s)
                break;
            sm->last[sched] = (uint32_t)(s - sm->slots);
            if (md->plain_issue && s->ahead_at < s->nahead && !slot_next_recorded(s))
                issue_ahead(md, sm, s, t);
            else if (!issue(md, sm, s, t, error))
                return false;
        }
    }
    return true;
}

/* The first cycle from `floor` on at which the SM could issue: no earlier
 * one can, given what it knows now (a waiting slot may still find its unit
 * busy then: the SM just looks again, which changes nothing).  The search
 * stops at the first answer that is `floor` itself: after a cycle t that
 * issued, t + 1 often issues too, but not when the units that have ready
 * warps are busy (on G80 a warp takes its 8-lane unit for 4 cycles), and
 * visiting it anyway would cost a pick per scheduler for nothing. */
static uint64_t sm_next_wake(const Model *md, const Sm *sm, uint64_t floor)
{
    uint64_t wake = MIN(sm->waiting.n ? heap_first_time(&sm->waiting) : UINT64_MAX, wheel_next(&sm->wheel));
    uint32_t n = md->schedulers;
    for (uint32_t sched = 0; sched < n && wake > floor; sched++)
        for (uint32_t m = sm->ready_units[sched]; m; m &= m - 1)
            wake = MIN(wake, MAX(unit_wake(sm, sched, (unsigned)__builtin_ctz(m)), sm->issue_free[sched]));
    return MAX(wake, floor);
}

/* ------------------------------------------------------------------ */
/* the launch                                                           */

static void model_free(Model *md)
{
    for (uint32_t i = 0; i < md->nsms && md->sms; i++) {
        Sm *sm = &md->sms[i];
        for (uint32_t c = 0; sm->ctas && c < sm->nctas; c++) /* NULL: never prepared */
            cta_release(&sm->ctas[c].cta);
        for (uint32_t k = 0; sm->ahead_faults && k < sm->nslots; k++)
            g_clear_error(&sm->slots[k].ahead_error);
    }
    g_aligned_free(md->sms);
    KeptRegion regions[KEPT_REGIONS] = {[KEPT_BLOCK] = {md->block, md->block_made},
                                        [KEPT_REGS_POOL] = {md->regs_pool, md->regs_pool_made}};
    keep_give(md->spec.timing_keep, md->cfg, md->mem, regions, md->arena);
    for (uint32_t f = 0; md->tinsn && f < md->m->funcs->len; f++) {
        g_free(md->tinsn[f]);
        g_free(md->may_run_ahead[f]);
    }
    g_free(md->tinsn);
    g_free(md->ninsns);
    g_free(md->slot_sched);
    g_free(md->slot_bit);
    g_free(md->may_run_ahead);
    g_free(md->shared_offset);
}

/* The launch stops with an error that lists every resident warp's state. */
static bool stuck(Model *md, const char *what, GError **error)
{
    GString *s = g_string_new(NULL);
    g_string_printf(s, "%s: error: %s", md->m->path, what);
    for (uint32_t i = 0; i < md->nsms; i++)
        for (uint32_t c = 0; c < md->sms[i].nctas; c++) {
            const CtaSlot *cs = &md->sms[i].ctas[c];
            if (!cs->used)
                continue;
            g_string_append_printf(s, "\n block (%u,%u,%u) on SM %u:", cs->cta.ctaid.x, cs->cta.ctaid.y,
                                   cs->cta.ctaid.z, i);
            launch_describe_warps(s, &cs->cta);
        }
    g_set_error_literal(error, WARPSIM_ERROR, WS_ERR_FAULT, s->str);
    g_string_free(s, TRUE);
    return false;
}

static bool deadlock(Model *md, GError **error)
{
    return stuck(md, "deadlock: every unfinished warp waits at a barrier that the others will never reach", error);
}

static bool cycle_budget_exhausted(Model *md, GError **error)
{
    char *what = g_strdup_printf("cycle budget of %" G_GUINT64_FORMAT " cycles exhausted (--max-cycles)",
                                 md->spec.max_cycles);
    bool r = stuck(md, what, error);
    g_free(what);
    return r;
}

void timing_stats_init(TimingStats *t, const Module *m)
{
    *t = (TimingStats){0};
    t->nfuncs = m->funcs->len;
    t->insn_stall = g_new0(uint64_t *, MAX(t->nfuncs, 1u));
    for (uint32_t f = 0; f < t->nfuncs; f++) {
        const Function *fn = module_func(m, f);
        if (fn->is_defined)
            t->insn_stall[f] = g_new0(uint64_t, MAX(func_ninsns(fn), 1u));
    }
}

void timing_stats_clear(TimingStats *t)
{
    for (uint32_t f = 0; f < t->nfuncs && t->insn_stall; f++)
        g_free(t->insn_stall[f]);
    g_free(t->insn_stall);
    *t = (TimingStats){0};
}

void timing_stats_accumulate(TimingStats *into, const TimingStats *from, const Module *m)
{
    into->cycles += from->cycles;
    into->sm_active_cycles += from->sm_active_cycles;
    into->warp_active_cycles += from->warp_active_cycles;
    into->issued += from->issued;
    for (int k = 0; k < STATE_COUNT; k++)
        into->state_cycles[k] += from->state_cycles[k];
    into->sms_used = MAX(into->sms_used, from->sms_used);
    into->dram_drain_cycles += from->dram_drain_cycles;
    mem_counters_add(&into->mem, &from->mem);
    into->occ = from->occ;
    into->regs_per_thread = from->regs_per_thread;
    for (uint32_t f = 0; f < MIN(into->nfuncs, from->nfuncs); f++)
        if (into->insn_stall[f] && from->insn_stall[f])
            for (uint32_t i = 0; i < func_ninsns(module_func(m, f)); i++)
                into->insn_stall[f][i] += from->insn_stall[f][i];
}

/* ------------------------------------------------------------------ */
/* SMs quantum by quantum                                               */

/* The reach: no access that goes beyond the SM (L2, DRAM, atomics) can
 * return data sooner, so the SMs run apart for that long and the memory
 * system is consulted afterwards, in the lockstep loop's order, with the
 * same answers (run_quanta).  0: no safe reach. */
static uint64_t safe_quantum(const GpuConfig *cfg)
{
    uint64_t q = UINT64_MAX;
    /* L1 and the read-only path are the SM's own: a request they serve
     * entirely is timed at issue (request_goes_beyond) */
    const uint64_t lat[] = {cfg->l2.size_bytes ? cfg->l2.latency : UINT64_MAX,
                            cfg->l2.latency + cfg->dram_latency, cfg->atomic_latency};
    for (size_t i = 0; i < G_N_ELEMENTS(lat); i++)
        q = MIN(q, lat[i]);
    return q == UINT64_MAX ? 0 : q;
}

/* Replacement CTAs in parallel.  Lockstep gives the CTA that follows a
 * retirement to the retiring SM at once, so CTAs go out in (cycle, SM)
 * order of the retirements.  Each SM publishes a key, (cycle, SM): the
 * retirement it waits to have replaced, or else the first cycle it has not
 * run yet (it may retire there).  Keys only grow during a quantum, so an SM
 * whose retirement key is below every other SM's key is next in that order
 * and stays next: it takes its replacement without asking anyone, and the
 * SMs go on in parallel instead of one thread replacing CTAs for all. */
#define PROGRESS_NEVER UINT64_MAX
#define PUBLISH_EVERY 16 /* cycles, a power of two */

static uint64_t progress_key(uint64_t cycle, uint32_t sm)
{
    return cycle >= (PROGRESS_NEVER >> 16) ? PROGRESS_NEVER : cycle << 16 | sm;
}

/* Release: the dispatch an SM made before it moved its key is seen by the
 * SM that reads the key and dispatches next. */
static void progress_store(Model *md, Sm *sm, uint64_t key)
{
    sm->published = key;
    atomic_store_explicit(&md->progress[sm->id].key, key, memory_order_release);
}

/* The same, skipping a store that would change nothing. */
static void progress_publish(Model *md, Sm *sm, uint64_t key)
{
    if (key != sm->published)
        progress_store(md, sm, key);
}

/* The key of an SM between cycles: what it waits for, or how far it is. */
static uint64_t sm_key(const Sm *sm, uint64_t limit)
{
    if (sm->fault)
        return PROGRESS_NEVER; /* a fault ends the launch; nobody waits for it */
    if (sm->retired) /* possibly with no warps left until the replacement comes */
        return progress_key(sm->retired_at, sm->id);
    if (!sm->resident_warps)
        return PROGRESS_NEVER;
    return progress_key(MIN(sm->wake, limit), sm->id);
}

/* One SM from its wake-up to `limit`, or until a CTA of it retires (the
 * replacement waits for its turn, sm_take_replacements) or it faults. */
static void sm_run_until(Model *md, Sm *sm, uint64_t limit)
{
    /* No pass that prefetches the slots and scoreboards of the SM's
     * warps first: their lines come back from the host's second-level
     * cache soon enough, and the pass cost more than it saved (banks,
     * stride: 2-5 % slower with it, on one host thread or two) */
    while (!sm->fault && !sm->retired && sm->resident_warps && sm->wake < limit) {
        uint64_t t = sm->wake;
        if (!sm_cycle(md, sm, t, &sm->fault)) {
            sm->fault_at = t;
            break;
        }
        sm->end = MAX(sm->end, t + 1);
        if (sm->retired) {
            sm->wake = t + 1;
            break;
        }
        sm->wake = !sm->resident_warps ? UINT64_MAX : sm_next_wake(md, sm, t + 1);
        /* now and then: a store per cycle would pull the line away from
         * the SMs' readers on the other cores too often */
        if ((sm->wake ^ t) >= PUBLISH_EVERY)
            progress_publish(md, sm, sm_key(sm, limit));
    }
    progress_publish(md, sm, sm_key(sm, limit));
}

/* The SM whose key is the least, whose retirement (when it has retired)
 * is the earliest one left in (cycle, SM) order; UINT32_MAX when every
 * key is PROGRESS_NEVER.  Keys only grow, so a retired SM found first
 * stays first until it moves its own key. */
static uint32_t progress_first(const Model *md, uint64_t *key_out)
{
    uint64_t least = PROGRESS_NEVER;
    uint32_t first = UINT32_MAX;
    for (uint32_t k = 0; k < md->nlive; k++) {
        uint64_t key = atomic_load_explicit(&md->progress[md->live[k]].key, memory_order_acquire);
        if (key < least) {
            least = key;
            first = md->live[k];
        }
    }
    *key_out = least;
    return first;
}

static void sm_take_replacements(Model *md, Sm *sm, uint64_t limit)
{
    uint64_t t = sm->retired_at;
    bool ok = true;
    /* lockstep gives each retirement the next CTA at once, in the slot it
     * freed: so do these, in the order they retired.  Which CTAs they are
     * is settled first, and the key moves past the retirement before they
     * are set up (their registers, their warps' run-ahead: tens of
     * microseconds), so that the next SM in line takes its own meanwhile:
     * when a wave ends, many SMs retire in one cycle, and each waited for
     * the one before it to finish setting up (stencil on 2 threads: 496
     * replacements in a chain, 25 ms) */
    uint64_t lin, age0;
    uint32_t taken = take_ctas(md, sm->retired, &lin, &age0);
    progress_publish(md, sm, progress_key(t + 1, sm->id));
    uint32_t wpb = md->ts->occ.warps_per_block;
    for (uint32_t rank = 1; ok && rank <= taken; rank++) {
        CtaSlot *cs = NULL;
        for (uint32_t k = 0; !cs && k < sm->nctas; k++)
            if (!sm->ctas[k].used && sm->ctas[k].retired_rank == rank)
                cs = &sm->ctas[k];
        ok = dispatch_cta_as(md, sm, cs, t + 1, lin + rank - 1, age0 + (uint64_t)(rank - 1) * wpb, &sm->fault);
    }
    for (uint32_t k = 0; k < sm->nctas; k++)
        sm->ctas[k].retired_rank = 0;
    sm->retired = 0;
    if (!ok)
        sm->fault_at = t;
    sm->wake = sm->resident_warps ? t + 1 : UINT64_MAX;
    progress_publish(md, sm, sm_key(sm, limit));
}

/* Handing quanta between host threads.  A quantum lasts microseconds,
 * less than the kernel takes to put a thread to sleep and wake it, so a
 * waiter spins for a while before it blocks; `sleepers` tells the thread
 * that changes the word whether anyone must be woken. */
typedef struct {
    GMutex lock;
    GCond cond;
    gint sleepers;
} Waiter;

/* Spinning only pays while every thread has a core of its own: a spinner
 * that shares a core with the thread it waits for delays it by a whole
 * time slice, so with more threads than cores a waiter sleeps at once.
 * With a core each, a waiter never sleeps for the rest of the launch, and
 * pauses in short bursts between yields: on a virtual machine (as CI's
 * and most cloud hosts are) a sleeping thread's wake-up can take
 * milliseconds, since the host must reschedule its idle vCPU, and a long
 * run of PAUSE makes the host deschedule the vCPU as a presumed lock
 * spinner (pause-loop exiting).  Measured on a 2-vCPU KVM guest: a worker
 * that slept between quanta woke 0.5-4 ms late, after the main thread had
 * run every SM of the quantum alone. */
#define PAUSES_PER_YIELD 16

/* One wait between two polls of a spinning waiter (*polls counts them). */
static void spin_wait(uint32_t *polls)
{
    if (++*polls % PAUSES_PER_YIELD)
        host_cpu_relax();
    else
        sched_yield();
}

/* Waits while (*word == value) == equal; returns the word's last value.
 * GLib's atomics are full barriers: a waker that changes the word and then
 * reads `sleepers`, and a sleeper that counts itself and then reads the
 * word, cannot both miss each other. */
static gint wait_while(Waiter *w, gint *word, gint value, bool equal, bool spin)
{
    gint v;
    if (spin) {
        for (uint32_t polls = 0; ((v = g_atomic_int_get(word)) == value) == equal;)
            spin_wait(&polls);
        return v;
    }
    g_mutex_lock(&w->lock);
    g_atomic_int_inc(&w->sleepers);
    while (((v = g_atomic_int_get(word)) == value) == equal)
        g_cond_wait(&w->cond, &w->lock);
    g_atomic_int_add(&w->sleepers, -1);
    g_mutex_unlock(&w->lock);
    return v;
}

/* After changing a word others wait on. */
static void wake_waiters(Waiter *w)
{
    if (g_atomic_int_get(&w->sleepers)) {
        g_mutex_lock(&w->lock);
        g_cond_broadcast(&w->cond);
        g_mutex_unlock(&w->lock);
    }
}

typedef struct {
    Model *md;
    Waiter start, done;
    gint generation;     /* bumped to start a quantum (or to quit) */
    gint running;        /* workers still in the current quantum */
    gint *taken;         /* per thread: its home SMs taken in this quantum (run_sms) */
    uint64_t limit;      /* written before generation is bumped */
    uint32_t nthreads;
    bool spin;           /* every thread has a core: waiters may spin */
    HostPins *pins;      /* with spin: each thread's CPU, where the host can pin */
    bool first_wave;     /* this round dispatches each SM's first wave before running it */
    bool quit;
    /* The last quantum's accesses (list apply_gen), resolved beside this
     * one: once `resolved` is set (never in a quantum without such), a
     * thread that runs an SM to the limit applies the SM's own (sm_apply)
     * while its state is in that thread's cache; the SMs done before are
     * applied after the quantum. */
    uint32_t apply_gen;
    _Atomic bool resolved;
    bool apply_only;     /* this round only applies (the SMs all wait for it) */
    _Alignas(64) _Atomic uint32_t parked; /* SMs parked (SmProgress.parked) */
} Quanta;

typedef struct {
    Quanta *q;
    uint32_t id;
} QuantaWorker;

/* From now until it parks or the quantum ends, SM `sm` is thread id's:
 * its counts go to that thread's statistics, which are only ever summed,
 * so which thread ran an SM changes no result. */
static void sm_take(Model *md, Sm *sm, uint32_t id)
{
    sm->ts = &md->per_thread[id].ts;
    sm->stats = &md->per_thread[id].stats;
    sm->thread = id;
    for (uint32_t c = 0; c < sm->nctas; c++)
        if (sm->ctas[c].used) {
            sm->ctas[c].cta.stats = sm->stats;
            sm->ctas[c].cta.host_thread = id;
        }
}

/* The next SM for thread `id` to take in this quantum, or UINT32_MAX when
 * all are taken.  Thread k's home SMs are the k-th of nthreads equal
 * stretches of the live ones: it takes those first, in order, so that an
 * SM tends to stay on one core (and in its cache) from quantum to quantum;
 * then it takes the others' homes that they have not reached yet.
 * Stretches rather than every nthreads-th SM: the SMs' state lies in SM
 * order (the block, the L1 sets), so a thread's first touches are of huge
 * pages of its own, not of the ones another thread is touching too, which
 * the host clears for one while the other waits (adj_diff on 2 threads:
 * 18.0 -> 14.4 ms). */
static uint32_t take_next(Quanta *q, uint32_t id)
{
    const Model *md = q->md;
    uint32_t n = q->nthreads;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t home = (id + j) % n;
        uint32_t first = (uint32_t)((uint64_t)md->nlive * home / n);
        uint32_t count = (uint32_t)((uint64_t)md->nlive * (home + 1) / n) - first;
        if ((uint32_t)g_atomic_int_get(&q->taken[home]) >= count)
            continue;
        uint32_t k = (uint32_t)g_atomic_int_add(&q->taken[home], 1);
        if (k < count)
            return md->live[first + k];
    }
    return UINT32_MAX;
}

/* With the SM stopped at `limit` and list `gen`'s accesses resolved: the
 * registers they load get their times, and the warps waiting for them are
 * filed again; the list is emptied.  Nothing but the SM's own state is
 * touched, and its list is in issue order, which is the lockstep order of
 * its accesses: so SMs may be applied in any order, on any thread. */
static void sm_apply(Model *md, Sm *sm, uint32_t gen, uint64_t limit)
{
    DeferredList *done = &sm->deferred[gen];
    for (uint32_t k = 0; k < done->nrecs; k++) {
        const Deferred *d = &done->recs[k];
        uint64_t ready = MAX(d->ready, d->t + 1) + d->queued;
        if (G_UNLIKELY(sm->tl))
            timeline_mem(sm->tl, d->slot, (TimelineMemKind)d->tl_kind, d->t, ready, d->tl_sectors, d->tl_bytes,
                         d->tl_line);
        WarpSlot *s = &sm->slots[d->slot];
        if (!s->w || sm->age[d->slot] != d->age)
            continue; /* the warp finished; its slot may hold another */
        results_ready(md, sm, s, d->done, ready, STATE_LONG_SCOREBOARD); /* global and local accesses are long */
    }
    done->nrecs = done->ntrans = done->npasses = 0;
    bool filed = false;
    for (uint32_t k = 0; k < sm->nslots && sm->npending; k++) {
        if (sm->where[k] != SLOT_PENDING)
            continue;
        WarpSlot *s = &sm->slots[k];
        slot_peek(md, sm, s);
        sm->where[k] = SLOT_IDLE;
        sm->npending--;
        slot_schedule(md, sm, s, limit - 1);
        filed = true;
    }
    /* the SM has run every cycle before limit; the slots filed now can
     * issue no sooner (those still waiting for the other list's accesses
     * are pending again) */
    if (filed)
        sm->wake = MIN(sm->wake, sm_next_wake(md, sm, limit));
}

/* The SM from its wake-up to the quantum's limit, or until a CTA of it
 * retires: then it is parked, for whichever thread is free when its turn
 * comes. */
static void sm_advance(Quanta *q, Sm *sm)
{
    Model *md = q->md;
    if (!sm->fault && sm->resident_warps && sm->wake < q->limit)
        sm_run_until(md, sm, q->limit);
    if (sm->retired && !sm->fault) {
        atomic_fetch_add_explicit(&q->parked, 1, memory_order_relaxed);
        atomic_store_explicit(&md->progress[sm->id].parked, progress_key(sm->retired_at, sm->id),
                              memory_order_release);
    } else if (!sm->fault && sm->deferred[q->apply_gen].nrecs &&
               atomic_load_explicit(&q->resolved, memory_order_acquire)) {
        sm_apply(md, sm, q->apply_gen, q->limit); /* stopped at the limit for good */
    }
}

/* In the first quantum, the SM's first wave, on the thread that then runs
 * it while its warps are in the host's cache (and whose first touches of
 * their memory the threads share out this way); its key then says where
 * it is (until then the key of cycle 0 held back any SM waiting for its
 * turn to replace a CTA). */
static void sm_dispatch_first(Quanta *q, Sm *sm, uint32_t id)
{
    Model *md = q->md;
    sm_prepare(md, sm);
    sm_take(md, sm, id);
    if (!dispatch_first_wave(md, sm, &sm->fault))
        sm->fault_at = 0;
    progress_publish(md, sm, sm_key(sm, q->limit));
}

/* The thread takes SMs one at a time (take_next), as the others do, and
 * runs each to the quantum's limit, so that threads that drew quick SMs
 * take more.  An SM whose CTA retires waits, parked, for its replacement's
 * turn (the SM that is first in (cycle, SM) order can always move, so
 * someone always can), and the first thread to find it first takes it:
 * when a wave ends, dozens of SMs of one thread's stretch retire within a
 * few cycles, and their replacements would otherwise be set up one after
 * another by that thread while the others wait. */
static void run_sms(Quanta *q, QuantaWorker *wk)
{
    Model *md = q->md;
    uint32_t polls = 0;
    for (;;) {
        uint32_t i = take_next(q, wk->id);
        if (i != UINT32_MAX && q->apply_only) {
            if (md->sms[i].deferred[q->apply_gen].nrecs)
                sm_apply(md, &md->sms[i], q->apply_gen, q->limit);
            continue;
        }
        if (i != UINT32_MAX) {
            if (q->first_wave)
                sm_dispatch_first(q, &md->sms[i], wk->id);
            else
                sm_take(md, &md->sms[i], wk->id);
            sm_advance(q, &md->sms[i]);
            continue;
        }
        /* every SM of the quantum is taken: replacements, in their turn */
        if (!atomic_load_explicit(&q->parked, memory_order_acquire))
            return;
        /* the key, not a flag, says which parking it was: the SM found
         * first may since have been taken, moved on and parked again at a
         * later retirement, which another SM's may now precede */
        uint64_t key;
        uint32_t first = progress_first(md, &key);
        if (first != UINT32_MAX &&
            atomic_compare_exchange_strong_explicit(&md->progress[first].parked, &key, 0, memory_order_acq_rel,
                                                    memory_order_relaxed)) {
            atomic_fetch_sub_explicit(&q->parked, 1, memory_order_relaxed);
            Sm *sm = &md->sms[first];
            sm_take(md, sm, wk->id);
            sm_take_replacements(md, sm, q->limit);
            sm_advance(q, sm);
            continue;
        }
        if (q->spin)
            spin_wait(&polls);
        else
            sched_yield();
    }
}

/* The SM whose fault came first (in cycle, then SM order), or NULL. */
static Sm *earliest_fault(Model *md)
{
    Sm *first = NULL;
    for (uint32_t k = 0; k < md->nlive; k++) {
        Sm *sm = &md->sms[md->live[k]];
        if (sm->fault && (!first || sm->fault_at < first->fault_at))
            first = sm;
    }
    return first;
}

static gpointer quanta_worker(gpointer data)
{
    QuantaWorker *wk = data;
    Quanta *q = wk->q;
    launch_host_pin(q->pins, wk->id);
    gint seen = 0;
    for (;;) {
        seen = wait_while(&q->start, &q->generation, seen, true, q->spin);
        if (q->quit)
            return NULL;
        run_sms(q, wk);
        if (g_atomic_int_dec_and_test(&q->running))
            wake_waiters(&q->done);
    }
}

/* Starts a quantum on the workers (or tells them to quit). */
static void quanta_start(Quanta *q)
{
    for (uint32_t k = 0; k < q->nthreads; k++)
        g_atomic_int_set(&q->taken[k], 0);
    g_atomic_int_set(&q->running, (gint)q->nthreads - 1);
    g_atomic_int_inc(&q->generation);
    wake_waiters(&q->start);
}

/* This thread's part of a round quanta_start() began, then the wait for
 * the workers' parts. */
static void quanta_finish(Quanta *q, QuantaWorker *wk)
{
    run_sms(q, wk);
    wait_while(&q->done, &q->running, 0, false, q->spin);
}

/* A deferred access by reference, a fraction of the record: these are
 * what is sorted. */
typedef struct {
    uint64_t t;
    uint32_t sm, seq;
    Deferred *d;
} DeferredRef;

static int deferred_order(const void *a, const void *b)
{
    const DeferredRef *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One quantum's deferred accesses (list `gen` of every SM) in lockstep
 * order: the order the memory system must see them in. */
typedef struct {
    uint32_t gen;
    DeferredRef *refs;   /* NULL until resolve_memory() sorts them */
    size_t n;
    uint64_t first;      /* the earliest issue among them */
    uint64_t last;       /* the latest */
    uint32_t *sms;       /* the SMs they come from, in SM order */
    uint32_t nsms;
} Resolving;

/* One quantum's deferred accesses, counted: only the live SMs (Model.live,
 * in SM order) can have added to list `gen`, and a list is in issue order,
 * so its first and last records span it.  What the next quantum's limit
 * needs; their order is left to resolve_memory(), which may run beside
 * that quantum. */
static Resolving deferred_collect(Model *md, uint32_t gen)
{
    Resolving rs = {.gen = gen, .first = UINT64_MAX};
    for (uint32_t k = 0; k < md->nlive; k++) {
        const DeferredList *list = &md->sms[md->live[k]].deferred[gen];
        if (!list->nrecs)
            continue;
        if (!rs.sms)
            rs.sms = g_new(uint32_t, md->nlive - k);
        rs.sms[rs.nsms++] = md->live[k];
        rs.n += list->nrecs;
        rs.first = MIN(rs.first, list->recs[0].t);
        rs.last = MAX(rs.last, list->recs[list->nrecs - 1].t);
    }
    return rs;
}

/* The accesses in lockstep order (rs->refs): each SM's list is in issue
 * (seq) order and rs->sms in SM order, so a stable counting sort by cycle
 * gives it; a quantum spans few cycles, so that is cheaper than a
 * comparison sort (kept for the odd case of a span much larger than the
 * list).  Reads only the lists, which the SMs no longer write. */
static void deferred_sort(Model *md, Resolving *rs)
{
    rs->refs = g_new(DeferredRef, rs->n);
    uint64_t span = rs->last - rs->first + 1;
    bool counting = span <= 4 * (uint64_t)rs->n + 4096;
    size_t *at = counting ? g_new0(size_t, span + 1) : NULL;
    for (uint32_t j = 0; counting && j < rs->nsms; j++) {
        const DeferredList *list = &md->sms[rs->sms[j]].deferred[rs->gen];
        for (uint32_t k = 0; k < list->nrecs; k++) {
            g_assert(list->recs[k].t >= rs->first && list->recs[k].t <= rs->last); /* issue order */
            at[list->recs[k].t - rs->first + 1]++;
        }
    }
    for (uint64_t c = 1; counting && c < span; c++)
        at[c] += at[c - 1];
    size_t n = 0;
    for (uint32_t j = 0; j < rs->nsms; j++) {
        DeferredList *list = &md->sms[rs->sms[j]].deferred[rs->gen];
        for (uint32_t k = 0; k < list->nrecs; k++) {
            Deferred *d = &list->recs[k];
            rs->refs[counting ? at[d->t - rs->first]++ : n++] = (DeferredRef){d->t, rs->sms[j], k, d};
        }
    }
    if (!counting)
        qsort(rs->refs, rs->n, sizeof *rs->refs, deferred_order);
    g_free(at);
}

/* Transactions whose L2 sets resolve_memory keeps on their way to the
 * host's cache: about what one core keeps in flight. */
#define RESOLVE_PREFETCH 32

/* The L2 and DRAM part of each access, in order: when its data is back.
 * Touches only the shared memory system and the records, so it may run
 * while the SMs run the next quantum (run_quanta). */
static void resolve_memory(Model *md, Resolving *rs)
{
    deferred_sort(md, rs);
    /* A large grid's accesses each go to L2 sets that no recent one used:
     * a host cache miss apiece, taken one after another, unless the sets
     * of the accesses ahead are on their way meanwhile */
    size_t ahead = 0;     /* the next access whose sets to prefetch */
    uint32_t fetching = 0; /* transactions prefetched and not taken yet */
    for (size_t k = 0; k < rs->n; k++) {
        while (ahead < rs->n && (ahead <= k || fetching < RESOLVE_PREFETCH)) {
            const DeferredRef *p = &rs->refs[ahead++];
            memsys_prefetch_beyond(md->mem, md->sms[p->sm].deferred[rs->gen].trans + p->d->trans_at, p->d->ntrans);
            fetching += p->d->ntrans;
        }
        Deferred *d = rs->refs[k].d;
        fetching -= d->ntrans;
        const DeferredList *list = &md->sms[rs->refs[k].sm].deferred[rs->gen];
        MemRequest r; /* not zeroed: only its first ntrans transactions are read */
        r.kind = d->kind;
        r.ntrans = d->ntrans;
        r.atomic_same = d->atomic_same;
        if (r.kind == MEMREQ_ATOMIC)
            memcpy(r.atomic_passes, list->passes + d->passes_at, d->ntrans * sizeof *r.atomic_passes);
        r.ready = d->ready;
        memcpy(r.trans, list->trans + d->trans_at, d->ntrans * sizeof *r.trans);
        d->ready = memsys_access_beyond(md->mem, d->t, &r, &md->ts->mem); /* when it is back */
    }
}

/* With the SMs stopped at `limit`: sm_apply() on every SM of the resolved
 * accesses that no thread applied during the quantum. */
static void resolve_apply(Model *md, Resolving *rs, uint64_t limit)
{
    g_clear_pointer(&rs->refs, g_free);
    rs->n = 0;
    for (uint32_t j = 0; j < rs->nsms; j++) {
        Sm *sm = &md->sms[rs->sms[j]];
        if (sm->deferred[rs->gen].nrecs)
            sm_apply(md, sm, rs->gen, limit);
    }
    g_clear_pointer(&rs->sms, g_free);
    rs->nsms = 0;
}

/* After a quantum that ran to `limit`: its first fault ends the launch;
 * else the last quantum's accesses, resolved beside it (prev), are
 * applied, and this one's collected into prev, and resolved and applied
 * at once when nothing runs beside the memory system (`overlap` false). */
static bool quantum_end(Model *md, Resolving *prev, bool overlap, uint64_t limit, GError **error)
{
    Sm *faulty = earliest_fault(md);
    if (faulty) {
        g_propagate_error(error, g_steal_pointer(&faulty->fault));
        return false;
    }
    if (prev->n)
        resolve_apply(md, prev, limit);
    *prev = deferred_collect(md, md->filling);
    if (!overlap) {
        resolve_memory(md, prev);
        resolve_apply(md, prev, limit);
    }
    return true;
}

/* The launch on `nthreads` host threads, quantum by quantum.  Results are
 * those of the lockstep loop: within a quantum the SMs share nothing the
 * model times (global memory's contents are shared, which is why only
 * launches whose CTAs cannot observe each other's order come here); CTA
 * dispatch runs in lockstep order within quanta (the progress keys), and
 * the memory system sees each quantum's accesses in lockstep order, while
 * the next quantum runs. */
static bool run_quanta(Model *md, uint32_t nthreads, uint64_t reach, uint64_t *end, GError **error)
{
    Quanta q = {.md = md, .nthreads = nthreads, .spin = nthreads <= launch_host_cores()};
    /* spinning threads that share a CPU wait for each other's time slices */
    q.pins = q.spin ? launch_host_pins_new(nthreads) : NULL;
    md->progress = g_aligned_alloc0(md->nsms, sizeof(SmProgress), _Alignof(SmProgress));
    g_mutex_init(&q.start.lock);
    g_cond_init(&q.start.cond);
    g_mutex_init(&q.done.lock);
    g_cond_init(&q.done.cond);
    q.taken = g_new0(gint, nthreads);
    QuantaWorker *wk = g_new0(QuantaWorker, nthreads);
    for (uint32_t k = 0; k < nthreads; k++)
        wk[k] = (QuantaWorker){&q, k};
    HostJob *workers = nthreads > 1 ? host_pool_run(md->spec.pool, nthreads - 1, quanta_worker, &wk[1], sizeof *wk)
                                    : NULL;
    /* An access beyond the SM issued at t is back at t + reach at the
     * earliest.  With several threads, quanta of half that let the memory
     * system work through one quantum's accesses (on this thread) while
     * the SMs run the next: no warp can need them before the quantum
     * after.  (A quantum after idle cycles is cut short so that this still
     * holds.)  One thread gains nothing from that and runs quanta of the
     * whole reach: each SM's state is loaded into the host's cache half as
     * often; so do several threads after a quantum that left nothing to
     * resolve (banks on 2 threads, whose quanta are mostly shared memory
     * and barriers: 8.3 -> 7.5 ms). */
    bool overlap = reach >= 2 && nthreads > 1;
    uint64_t step = overlap ? reach / 2 : reach;
    Resolving prev = {0}; /* the last quantum's accesses, not applied yet */
    /* An SM without warps gets none again (a replacement goes to an SM that
     * retired a CTA in the same quantum), so the work between quanta
     * visits only the live ones.  Every key starts right (sm_key), and an
     * SM publishes NEVER when it empties. */
    md->live = g_new(uint32_t, md->nsms);
    md->nlive = 0;
    for (uint32_t i = 0; i < md->nsms; i++)
        if (md->sms[i].nctas)
            md->live[md->nlive++] = i;
    /* The first quantum dispatches each SM's first wave and runs it (from
     * cycle 0): what first_wave_end() sets follows from the SMs' CTA counts
     * alone, and until an SM is dispatched its key is that of cycle 0. */
    first_wave_end(md);
    for (uint32_t i = 0; i < md->nsms; i++)
        progress_store(md, &md->sms[i], md->sms[i].nctas ? progress_key(0, i) : PROGRESS_NEVER);
    q.first_wave = true;
    q.limit = step;
    quanta_start(&q);
    quanta_finish(&q, &wk[0]);
    q.first_wave = false;
    bool ok = quantum_end(md, &prev, overlap, q.limit, error);
    while (ok) {
        uint64_t t0 = UINT64_MAX;
        uint32_t still = 0;
        for (uint32_t k = 0; k < md->nlive; k++) {
            const Sm *sm = &md->sms[md->live[k]];
            if (sm->resident_warps) {
                t0 = MIN(t0, sm->wake);
                md->live[still++] = md->live[k];
            }
        }
        md->nlive = still;
        if (prev.n && (t0 == UINT64_MAX || t0 >= prev.first + reach)) {
            /* nothing can run before their answers are needed: the memory
             * system works through them, then the threads apply them to
             * their SMs (the SMs without warps left: resolve_apply) */
            resolve_memory(md, &prev);
            if (nthreads > 1 && md->nlive > 1) {
                q.apply_only = true;
                q.apply_gen = prev.gen;
                quanta_start(&q);
                quanta_finish(&q, &wk[0]);
                q.apply_only = false;
            }
            resolve_apply(md, &prev, q.limit);
            continue;
        }
        if (t0 == UINT64_MAX)
            break;
        /* with nothing to resolve beside it, a quantum of the whole reach
         * (fewer quanta to hand out and wait for); one whose accesses the
         * next must wait for stops that one short, and the memory system
         * then works through them alone */
        q.limit = t0 + (prev.n ? step : reach);
        if (prev.n)
            q.limit = MIN(q.limit, prev.first + reach);
        /* nothing wakes an SM inside a quantum but itself */
        for (uint32_t k = 0; k < md->nlive; k++)
            progress_store(md, &md->sms[md->live[k]], sm_key(&md->sms[md->live[k]], q.limit));
        if (prev.n) /* the SMs fill the other list meanwhile */
            md->filling = !prev.gen;
        q.apply_gen = prev.gen;
        atomic_store_explicit(&q.resolved, false, memory_order_relaxed);
        quanta_start(&q);
        if (prev.n) { /* beside the SMs, which do not touch L2 and DRAM */
            resolve_memory(md, &prev);
            atomic_store_explicit(&q.resolved, true, memory_order_release);
        }
        quanta_finish(&q, &wk[0]);
        ok = quantum_end(md, &prev, overlap, q.limit, error);
    }
    g_free(prev.refs);
    g_free(prev.sms);
    g_clear_pointer(&md->live, g_free);
    md->nlive = 0;
    q.quit = true;
    quanta_start(&q);
    if (workers)
        host_job_wait(workers);
    launch_host_pins_free(q.pins);
    for (uint32_t i = 0; i < md->nsms; i++) {
        *end = MAX(*end, md->sms[i].end);
        g_clear_error(&md->sms[i].fault);
    }
    g_free(wk);
    g_free(q.taken);
    g_aligned_free(md->progress);
    md->progress = NULL;
    g_mutex_clear(&q.start.lock);
    g_cond_clear(&q.start.cond);
    g_mutex_clear(&q.done.lock);
    g_cond_clear(&q.done.cond);
    return ok;
}

/* The SMs in lockstep, cycle by cycle in index order (one host thread). */
static bool run_lockstep(Model *md, uint64_t *end, GError **error)
{
    /* Only SMs with something to do are visited: those due next cycle (in
     * index order, as they were visited) and a heap of later wake-ups; each
     * cycle runs them in index order, so shared state sees one order. */
    uint32_t *due = g_new(uint32_t, MAX(md->nsms, 1u)), *due_next = g_new(uint32_t, MAX(md->nsms, 1u));
    uint32_t *order = g_new(uint32_t, MAX(md->nsms, 1u)), ndue = 0;
    WakeHeap later = {g_new(uint64_t, MAX(md->nsms, 1u)), 0, SM_ID_BITS};
    for (uint32_t i = 0; i < md->nsms; i++)
        if (md->sms[i].resident_warps && md->sms[i].wake != UINT64_MAX)
            heap_push(&later, md->sms[i].wake, i);
    uint64_t t = 0;
    bool ok = true;
    while (ok && (ndue || later.n)) {
        t = ndue ? t + 1 : heap_first_time(&later); /* heap entries are never before the due cycle */
        if (md->spec.max_cycles && t >= md->spec.max_cycles) {
            ok = cycle_budget_exhausted(md, error);
            break;
        }
        uint32_t norder = 0, a = 0;
        while (later.n && heap_first_time(&later) == t) {
            uint32_t id = heap_pop(&later);
            while (a < ndue && due[a] < id)
                order[norder++] = due[a++];
            order[norder++] = id;
        }
        while (a < ndue)
            order[norder++] = due[a++];
        uint32_t nnext = 0;
        for (uint32_t k = 0; k < norder; k++) {
            Sm *sm = &md->sms[order[k]];
            ok = sm_cycle(md, sm, t, error);
            if (!ok)
                break;
            *end = MAX(*end, t + 1);
            if (!sm->resident_warps) {
                sm->wake = UINT64_MAX;
                continue;
            }
            sm->wake = sm_next_wake(md, sm, t + 1);
            if (sm->wake == t + 1)
                due_next[nnext++] = sm->id;
            else if (sm->wake != UINT64_MAX)
                heap_push(&later, sm->wake, sm->id);
        }
        uint32_t *swap = due;
        due = due_next;
        due_next = swap;
        ndue = nnext;
    }
    g_free(due);
    g_free(due_next);
    g_free(order);
    g_free(later.key);
    return ok;
}

/* The memory the launch's global and local accesses can reach, for laying
 * out the caches' state (memsys_new): the allocations, and the local
 * frames of every thread of its `ctas` CTAs (all functions', as if all
 * were live at once).  A device
 * malloc heap made during the launch is not counted: underestimating costs
 * speed, never results. */
static uint64_t launch_reach_bytes(const Model *md, uint64_t ctas)
{
    uint64_t frames = 0;
    for (guint i = 0; i < md->m->funcs->len; i++)
        frames += module_func(md->m, i)->frame_local_bytes;
    const Dim3 *b = &md->spec.block;
    uint64_t per_cta = (uint64_t)b->x * b->y * b->z * frames;
    uint64_t local = per_cta && ctas > UINT64_MAX / per_cta ? UINT64_MAX : ctas * per_cta;
    uint64_t global = gmem_bytes(md->img->gmem);
    return global > UINT64_MAX - local ? UINT64_MAX : global + local;
}

/* A launch stopped by a fault or a deadlock at `end`: the warps and SMs
 * still busy were active until then, so that the ratios over active
 * cycles (achieved occupancy, IPC, warp states) cover what ran instead
 * of only the warps that finished.  Their waits since their last issue
 * are left unattributed: the warp states then add up to less than 100 %. */
static void settle_unfinished(Model *md, uint64_t end)
{
    for (uint32_t i = 0; i < md->nsms; i++) {
        Sm *sm = &md->sms[i];
        if (!sm->resident_ctas)
            continue;
        uint64_t sm_end = end;
        for (uint32_t k = 0; k < sm->nslots; k++) {
            const WarpSlot *s = &sm->slots[k];
            if (!s->w)
                continue;
            /* its states are counted up to stall_from, which the cycle that
             * faulted may have passed */
            uint64_t warp_end = MAX(end, s->stall_from);
            sm_end = MAX(sm_end, warp_end);
            if (warp_end > sm->start[k])
                sm->ts->warp_active_cycles += warp_end - sm->start[k];
        }
        if (sm_end > sm->active_since)
            sm->ts->sm_active_cycles += sm_end - sm->active_since;
    }
}

/* The launch cannot start: the host has not the `bytes` its SMs' state
 * needs (mostly resident warps' registers: a kernel naming tens of
 * thousands of registers, times every warp the GPU holds). */
static bool out_of_host_memory(Model *md, uint32_t nthreads, size_t bytes, GError **error)
{
    const Function *fn = module_func(md->m, md->spec.kernel);
    g_set_error(error, WARPSIM_ERROR, WS_ERR_UNSUPPORTED,
                "%s:%u: error: kernel %s: the timing model needs %.1f GiB of host memory for the SMs' resident "
                "warps (%u register rows per thread), more than this host gives; --functional runs it without "
                "the timing model",
                md->m->path, fn->line, fn->name, (double)bytes / (1u << 30), fn->cfg ? fn->cfg->nslots : 0);
    if (md->by_quanta) {
        for (uint32_t k = 0; k < nthreads; k++) {
            timing_stats_clear(&md->per_thread[k].ts);
            launch_stats_clear(&md->per_thread[k].stats);
        }
        g_aligned_free(md->per_thread);
    }
    model_free(md);
    return false;
}

bool timing_run(ModuleImage *img, const LaunchSpec *spec, const GpuConfig *cfg, uint32_t regs_per_thread,
                LaunchStats *stats, TimingStats *ts, GError **error)
{
    Model md = {.cfg = cfg, .img = img, .m = img->module, .spec = *spec, .stats = stats, .ts = ts};
    /* its workers wake while the launch is set up (the first quantum
     * would otherwise wait for them) */
    if (spec->host_threads > 1)
        host_pool_rouse(spec->pool);
    uint8_t empty_params[8] = {0};
    if (!md.spec.params)
        md.spec.params = empty_params;
    md.spec.nsm = cfg->num_sms;
    /* the GPU's launch limits are checked where the functional run checks them */
    md.spec.gpu = cfg;
    md.spec.regs_per_thread = regs_per_thread;
    if (!launch_prepare(md.m, &md.spec, &md.shared_offset, &md.shared_size, error))
        return false;
    uint32_t threads = spec->block.x * spec->block.y * spec->block.z;
    occupancy_compute(cfg, threads, regs_per_thread, md.shared_size, &ts->occ);
    ts->regs_per_thread = regs_per_thread;
    launch_cta_range(spec, &md.first_cta, &md.total_ctas);
    md.next_cta = md.first_cta;
    uint64_t grid_ctas = md.total_ctas - md.first_cta;
    md.schedulers = MAX(cfg->schedulers_per_sm, 1u);
    md.issue_width = cfg->issue_width;
    for (unsigned c = 0; c < LAT_COUNT; c++) {
        md.latency[0][c] = cfg->latency[c];
        md.latency[1][c] = MAX((cfg->latency[c] + cfg->loop_unroll / 2) / cfg->loop_unroll, 1u);
    }
    md.fetch_after[CONTROL_NONE] = cfg->issue_width > 1 ? 0 : 1;
    md.fetch_after[CONTROL_BRANCH] = cfg->latency[LAT_BRANCH];
    md.fetch_after[CONTROL_LOOP_ROLLED] = cfg->latency[LAT_LOOP_BRANCH];
    /* rounded to the nearest cycle */
    md.fetch_after[CONTROL_LOOP_UNROLLED] = (cfg->latency[LAT_LOOP_BRANCH] + cfg->loop_unroll / 2) / cfg->loop_unroll;
    for (unsigned u = 0; u < UNIT_COUNT; u++) {
        uint32_t lanes = cfg->unit_lanes[u] ? cfg->unit_lanes[u] : WARP_SIZE;
        md.interval[u] = (WARP_SIZE + lanes - 1) / lanes;
    }
    /* a budget stops the launch at an issued instruction and reports where
     * each warp is: nothing may have run beyond it */
    md.run_ahead = !spec->max_instructions && !spec->max_cycles;
    bool apart = launch_ctas_run_apart(md.img, spec);
    /* global accesses too, where only a race could tell (global_recordable)
     * and no check watches the order of accesses */
    md.run_ahead_global = md.run_ahead && apart && !launch_order_watched(spec);
    decode_module(&md);
    md.mem = keep_take_memsys(spec->timing_keep, cfg);
    md.arena = keep_take_arena(spec->timing_keep);
    if (!md.mem) {
        MemSysUse use = {.sms = (uint32_t)MIN((uint64_t)cfg->num_sms, grid_ctas),
                         .bytes = launch_reach_bytes(&md, grid_ctas)};
        md.mem = memsys_new(cfg, &use);
    }
    md.nsms = cfg->num_sms;
    md.sms = g_aligned_alloc0(MAX(md.nsms, 1u), sizeof(Sm), _Alignof(Sm));
    /* Quanta when the results cannot tell, even on one host thread: an SM
     * that runs a quantum alone keeps its state in the host's cache, where
     * the lockstep loop visits every SM every cycle.  Lockstep stays the
     * reference they must reproduce (--lockstep; tests compare the two). */
    uint64_t quantum = safe_quantum(cfg);
    /* no more threads than SMs the grid can keep busy, and at least one */
    uint32_t nthreads = (uint32_t)MAX(MIN((uint64_t)MIN(MAX(spec->host_threads, 1u), md.nsms), grid_ctas), 1u);
    md.by_quanta = !spec->lockstep && quantum > 0 && !spec->max_cycles && apart;
    if (md.by_quanta) {
        md.per_thread = g_aligned_alloc0(nthreads, sizeof(ThreadCounts), _Alignof(ThreadCounts));
        for (uint32_t k = 0; k < nthreads; k++) {
            TimingStats *t = &md.per_thread[k].ts;
            timing_stats_init(t, md.m);
            /* the launch's shape, so that merging them adds only counts */
            t->occ = ts->occ;
            t->regs_per_thread = ts->regs_per_thread;
            t->cta_end = ts->cta_end;
            launch_stats_init(&md.per_thread[k].stats, md.m);
        }
    }
    uint32_t wpb = ts->occ.warps_per_block;
    /* CTA slots per SM: dispatch goes breadth first, one CTA per SM in
     * turn, then to SMs that retired one, which only happens once every SM
     * is full.  So a grid that does not fill the GPU gives SM i the CTAs i,
     * i + nsms, ... and never more; the slots it would never use are not
     * made (their warps' state is most of a launch's memory) */
    for (uint32_t i = 0; i < md.nsms; i++) {
        Sm *sm = &md.sms[i];
        sm->id = i;
        uint64_t breadth_first = i < grid_ctas ? (grid_ctas - i + md.nsms - 1) / md.nsms : 0;
        sm->nctas = (uint32_t)MIN((uint64_t)ts->occ.blocks_per_sm, breadth_first);
        sm->nslots = sm->nctas * wpb;
        g_assert(sm->nslots <= CONFIG_MAX_WARPS_PER_SM); /* occupancy keeps them within max_warps_per_sm */
    }
    uint32_t max_slots = 1;
    for (uint32_t i = 0; i < md.nsms; i++)
        max_slots = MAX(max_slots, md.sms[i].nslots);
    md.slot_sched = g_new(uint16_t, max_slots);
    md.slot_bit = g_new(uint16_t, max_slots);
    for (uint32_t k = 0; k < max_slots; k++) {
        md.slot_sched[k] = (uint16_t)(k % md.schedulers);
        md.slot_bit[k] = (uint16_t)(k / md.schedulers);
    }
    /* every SM's arrays and resident warps in one block: measured, then handed out */
    Carve carving = {0};
    for (uint32_t i = 0; i < md.nsms; i++) {
        md.sms[i].layout_at = carving.used;
        sm_layout(&md, &md.sms[i], &carving);
        md.sms[i].layout_end = carving.used;
    }
    md.block_bytes = carving.used;
    md.block = keep_take_region(spec->timing_keep, KEPT_BLOCK, md.block_bytes, false, &md.block_made,
                                &md.block_stale);
    if (!md.block)
        return out_of_host_memory(&md, nthreads, md.block_bytes, error);
    /* The block's last huge page is cleared whole by the host at its first
     * touch, the SMs' arrays rarely fill it, and the run-ahead lists of a
     * small launch fit in what is left (transcendentals: 534 of 546 KiB,
     * saving a huge page of the arena's own, 0.2 ms of 3.4) */
    size_t spanned = hostmem_spanned(md.block_made);
    if (spanned > md.block_bytes)
        host_arena_lend(md.arena, md.block + md.block_bytes, spanned - md.block_bytes);
    if (md.pool_regs) {
        /* In 4 KiB pages: the SMs mostly use a block or two each, a few
         * hundred KiB at the pool's start, where the first touch of a huge
         * page would clear 2 MiB while the other host threads' SMs wait
         * for it (saxpy on 2 threads: 5.1 -> 6.4 ms) */
        md.pool_block_bytes = warp_pooled_regs_bytes(module_func(md.m, md.spec.kernel));
        size_t pool_bytes = MAX((size_t)max_slots * md.nsms * md.pool_block_bytes, 1u);
        bool stale; /* harmless: warp_attach_regs clears what a warp reads */
        md.regs_pool =
            keep_take_region(spec->timing_keep, KEPT_REGS_POOL, pool_bytes, true, &md.regs_pool_made, &stale);
        if (!md.regs_pool)
            return out_of_host_memory(&md, nthreads, pool_bytes, error);
    }
    for (uint32_t i = 0; i < md.nsms; i++) {
        Sm *sm = &md.sms[i];
        sm->wake = UINT64_MAX;
        /* in quantum mode, the thread that takes it in a quantum (sm_take)
         * sets these; the first CTAs go out before */
        sm->ts = md.by_quanta ? &md.per_thread[0].ts : ts;
        sm->stats = md.by_quanta ? &md.per_thread[0].stats : stats;
        /* an SM that gets no CTA is never looked at again (nor given a
         * place in the block, sm_layout); in quantum mode the threads
         * prepare the others as they dispatch to them (dispatch_sms) */
        if (!sm->nctas)
            continue;
        if (!md.by_quanta)
            sm_prepare(&md, sm);
    }
    if (ts->timeline)
        tl_launch_begin(&md, ts->timeline);
    md.plain_issue = !md.tl && !md.spec.observer;
    /* the first wave goes out on the host threads in quantum mode */
    bool ok = true;
    if (!md.by_quanta) {
        for (uint32_t i = 0; ok && i < md.nsms; i++)
            ok = dispatch_first_wave(&md, &md.sms[i], error);
        first_wave_end(&md);
    }
    for (uint32_t i = 0; i < md.nsms; i++)
        ts->sms_used += md.sms[i].nctas > 0;

    uint64_t end = 0;
    if (ok)
        ok = md.by_quanta ? run_quanta(&md, nthreads, quantum, &end, error) : run_lockstep(&md, &end, error);
    /* SMs left with warps but no wake-up: they all wait at barriers */
    for (uint32_t i = 0; ok && i < md.nsms; i++)
        if (md.sms[i].resident_warps)
            ok = deadlock(&md, error);
    if (!ok)
        settle_unfinished(&md, end);
    /* a kernel ends once its atomics are done, reductions included (their
     * warps do not wait for them) */
    if (end)
        end = MAX(end, memsys_atomics_done(md.mem));
    ts->cycles = end ? end + cfg->launch_overhead_cycles : 0;
    uint64_t drained = memsys_dram_busy_until(md.mem);
    ts->dram_drain_cycles = end && drained > end ? drained - end : 0;
    if (md.tl)
        timeline_launch_end(md.tl, ts->cycles);
    ts->issued = 0;
    for (uint32_t i = 0; i < md.nsms; i++)
        ts->issued += md.sms[i].issued;
    if (md.by_quanta) {
        for (uint32_t k = 0; k < nthreads; k++) {
            TimingStats *t = &md.per_thread[k].ts;
            t->cta_end = NULL;
            timing_stats_accumulate(ts, t, md.m); /* their cycles, issued, sms_used are 0 */
            timing_stats_clear(t);
            if (stats)
                launch_stats_add(stats, &md.per_thread[k].stats, md.m);
            launch_stats_clear(&md.per_thread[k].stats);
        }
        g_aligned_free(md.per_thread);
    }
    memsys_finish(md.mem, &ts->mem);
    model_free(&md);
    return ok;
}
