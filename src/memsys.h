/* memsys.h — the timing of the memory hierarchy, shared by all SMs.
 *
 * Contract: memsys_access() is called when a warp issues a memory
 * instruction, with the lane addresses the executor recorded (WarpAccess)
 * and the current cycle.  It applies the generation's coalescing rule,
 * shared-memory banks, the constant cache, L1 (or the read-only path for
 * ld.global.nc) per SM, the L2 and DRAM — each a cache array plus a
 * bandwidth server whose next-free time only moves forward — and returns
 * when the data is back (loads) and how long the SM's load/store pipe is
 * busy with the request.  Calls must come in non-decreasing `now` order,
 * which the timing loop guarantees, so results are deterministic.
 * Counters use Nsight Compute's definitions (docs/metrics.md).
 */
#ifndef WARPSIM_MEMSYS_H
#define WARPSIM_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>

#include "coalesce.h"
#include "config.h"
#include "memory.h"
#include "module.h"

typedef struct {
    uint64_t gld_requests, gld_sectors, gld_transactions;  /* global loads (incl. generic to global) */
    uint64_t gst_requests, gst_sectors, gst_transactions;  /* global stores */
    uint64_t gatom_requests, gatom_sectors;               /* global atomics and reductions */
    uint64_t lld_requests, lld_sectors, lst_requests, lst_sectors; /* local memory */
    uint64_t shared_ld_requests, shared_ld_wavefronts, shared_ld_conflicts;
    uint64_t shared_st_requests, shared_st_wavefronts, shared_st_conflicts;
    uint64_t shared_atom_requests, shared_atom_wavefronts, shared_atom_conflicts;
    uint64_t const_requests, const_wavefronts;            /* ld.const and ld.param */
    uint64_t l1_sectors, l1_sector_hits;                  /* L1TEX tag lookups, global/local */
    uint64_t l2_sectors, l2_sector_hits;                  /* LTS lookups */
    uint64_t dram_bytes_read, dram_bytes_write;
} MemCounters;

typedef struct {
    uint64_t ready;         /* cycle the loaded data can be used (now for stores) */
    uint32_t pipe_cycles;   /* cycles the SM's memory pipe is busy with it */
    bool long_latency;      /* went to L1TEX/L2/DRAM (long scoreboard) rather than shared/const */
} MemTiming;

typedef struct MemSys MemSys;

/* What a launch may touch, as far as the caller knows: its caches' state is
 * laid out for that (only the host's page sizes; nothing modelled depends
 * on it).  NULL, or bytes = UINT64_MAX: anything. */
typedef struct {
    uint32_t sms;           /* SMs that get CTAs */
    uint64_t bytes;         /* global memory the kernel can reach, local frames included */
} MemSysUse;

MemSys *memsys_new(const GpuConfig *cfg, const MemSysUse *use);
void memsys_free(MemSys *ms);
/* Cold caches and idle servers: the start of a launch. */
void memsys_reset(MemSys *ms);
/* `a` holds what the executor recorded (space resolved); local addresses are
 * offsets in the thread's frame and `local_id` makes them unique per warp. */
MemTiming memsys_access(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const WarpAccess *a,
                        uint64_t local_id, MemCounters *c);
/* Whether an access goes beyond the SM (global or local: L1, L2, DRAM),
 * where the answer depends on other SMs' traffic. */
bool memsys_shared_level(const WarpAccess *a);
/* Shared, constant and parameter accesses are timed by their addresses
 * alone: memsys_access() of one issued at `now` is this, with the
 * wavefronts (its pipe_cycles) it found.  So their timing can be worked
 * out before they issue (the timing model's run-ahead). */
MemTiming memsys_short_access(const GpuConfig *cfg, PtxSpace space, uint32_t wavefronts, uint64_t now);

/* Such an access in two halves, for SMs that run apart (timing.c's quanta):
 * memsys_access_sm() does what only this SM's requests touch (coalescing,
 * counters, L1) and returns the memory pipe's cycles, leaving in *r what
 * goes on; memsys_access_beyond() takes it through L2 and DRAM and returns
 * when the data is back.  The second halves must come in the order the
 * whole calls would have; together they equal memsys_access(). */
enum { MEMREQ_READ, MEMREQ_WRITE, MEMREQ_ATOMIC };
typedef struct {
    uint8_t kind;           /* MEMREQ_* */
    uint32_t ntrans;
    uint32_t atomic_same;   /* most lanes of an atomic on one address */
    /* an atomic's passes over each transaction's sectors (atomic_passes()):
     * partial ones in the low 16 bits, those that update whole sectors in
     * the high 16 */
    uint32_t atomic_passes[COALESCE_MAX_TRANS];
    uint64_t ready;         /* when the L1 part is done */
    MemTransaction trans[COALESCE_MAX_TRANS]; /* the sectors still to fetch or write */
} MemRequest;
uint32_t memsys_access_sm(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const WarpAccess *a,
                          uint64_t local_id, MemCounters *c, MemRequest *r);
uint64_t memsys_access_beyond(MemSys *ms, uint64_t now, const MemRequest *r, MemCounters *c);

/* A load or store of global memory coalesced before its issue: what the
 * SM's side needs of it, which follows from its addresses alone.  The
 * timing model's run-ahead makes one while the addresses are in the host's
 * cache, and keeps it rather than the 32 addresses until the access
 * issues: for the common warp, whose lanes lie in a line or two, a few
 * transactions (one host cache line) instead of 256 bytes.
 * memsys_coalesce_ahead() fills it and returns true for a load or store
 * (ld, st) of the global space with active lanes within
 * MEMSYS_AHEAD_TRANS lines, under a rule of whole lines (cc >= 2: at most
 * a transaction per line for words of 4 B), when its transactions fit;
 * then memsys_access_sm_coalesced() and memsys_access_coalesced() at issue
 * are memsys_access_sm() and memsys_access() of the access, with the same
 * results.  They read trans[] no further than ntrans, so a caller may keep
 * a copy cut after its last transaction.  Other accesses keep their
 * addresses: coalescing them ahead would save nothing (a warp over many
 * lines has as many transactions, and the per-lane rules of cc 1.x give
 * one per lane). */
#define MEMSYS_AHEAD_TRANS 8
typedef struct {
    uint32_t mask;          /* the lanes that accessed */
    uint8_t size;           /* bytes per lane */
    bool write;
    bool use_l1;            /* looked up in L1 or the read-only path */
    bool distinct_sectors;  /* CoalesceResult's */
    uint32_t sectors, ntrans;
    MemTransaction trans[MEMSYS_AHEAD_TRANS];
} CoalescedAccess;
bool memsys_coalesce_ahead(const MemSys *ms, const Insn *in, const WarpAccess *a, CoalescedAccess *out);
uint32_t memsys_access_sm_coalesced(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in,
                                    const CoalescedAccess *p, MemCounters *c, MemRequest *r);
MemTiming memsys_access_coalesced(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const CoalescedAccess *p,
                                  MemCounters *c);
/* A hint that the `n` transactions `trans` will soon be taken beyond the
 * SM: starts loading their L2 sets into the host's cache.  Changes nothing
 * the model sees.  (memsys_access() gives it for its own requests.) */
void memsys_prefetch_beyond(const MemSys *ms, const MemTransaction *trans, uint32_t n);

/* End of a launch: dirty L2 sectors are written back to DRAM (counted);
 * the caches are left as they are, for memsys_reset() or memsys_free(). */
void memsys_finish(MemSys *ms, MemCounters *c);
/* The cycle by which DRAM has served every access given to it so far:
 * writes hold no warp, so a launch can end before they drain. */
uint64_t memsys_dram_busy_until(const MemSys *ms);
/* The cycle by which L2's atomic units have done every atomic given to
 * them so far (0 without units): reductions (red) hold no warp either, but
 * a kernel ends only when its atomics are done. */
uint64_t memsys_atomics_done(const MemSys *ms);
void mem_counters_add(MemCounters *into, const MemCounters *from);

#endif
