/* memsys.c — memory-hierarchy timing: coalescing, banks, caches, bandwidth.
 *
 * Bandwidth is modelled by servers: each has a next-free time that a
 * request pushes forward by its size over the server's bytes per cycle, so
 * a stream that asks for more than the configured bandwidth queues and its
 * latency grows until the warps issuing it stall.  Times inside servers are
 * fixed point (1/256 cycle) so fractional costs stay exact and deterministic.
 * An SM's L1 and read-only caches are made on its first access (a small
 * grid leaves most SMs idle, and a launch makes a fresh MemSys), their sets
 * in blocks shared by all SMs, and each transaction goes through a cache in
 * one call for all its sectors.
 */
#include "memsys.h"

#include <glib.h>
#include <string.h>

#include "cache.h"
#include "coalesce.h"
#include "hostmem.h"
#include "smem_banks.h"
#include "popcount.h"

#define FRAC 65536u /* servers keep time in 1/FRAC cycles: an L2 sector costs about 1/180 cycle */
#define SECTOR_BYTES 32u
/* Local memory of a warp is interleaved so that the same offset in its 32
 * threads is 32 consecutive words, as the hardware lays it out; each warp
 * gets its own region far above any global allocation. */
#define LOCAL_MODEL_BASE (1ull << 44)
#define LOCAL_MODEL_WARP_SPAN (1ull << 28)
#define FETCH_TRACK 128 /* distinct sectors one request can touch: 32 lanes x 16 B / 32 B x 4 */

/* The fills a cache keeps track of, by line (direct-mapped: a fill whose
 * slot a later one takes is forgotten, and hits on it wait for nothing):
 * an SM's L1, and the L2, whose fills from DRAM the whole GPU's misses
 * make (some 1500 B a cycle at an H200's bandwidth, for the 677 cycles a
 * DRAM access takes, is about 8000 lines: the L2's slots keep half that
 * many, and a hit on a forgotten fill is only served sooner). */
#define FILL_SLOTS 64u
#define L2_FILL_SLOTS 4096u
#define FILL_LINE_BYTES 128u

/* Sectors of a line on their way to a cache, from L2 to an SM's L1 (or
 * read-only cache) or from DRAM to L2: a request that finds them there (a
 * hit, since the miss before it allocated them) still waits for them to
 * arrive. */
typedef struct {
    uint64_t line;           /* address / FILL_LINE_BYTES + 1; 0: empty */
    uint64_t ready;          /* the earliest they can be back */
    uint32_t sectors;        /* bit i: the line's sector i */
} Fill;

typedef struct {
    uint64_t next_free;      /* FRAC units */
    uint64_t cost_per_sector;/* FRAC units; 0: unlimited */
    uint64_t cost_per_request; /* FRAC units, on top of the sectors' (one request: a transaction) */
} Server;

struct MemSys {
    const GpuConfig *cfg;
    Cache **l1;              /* per SM; NULL until the SM's first global or local access */
    Cache **ro;              /* per SM read-only path; NULL until used, always when it is the L1 */
    /* every SM's L1 sets in one block, and its read-only path's in another
     * (hostmem.h): only a launch's first touches cost, a few huge pages
     * rather than thousands of small ones where it uses much of them; SM
     * i's at i times the size.  An SM's part of the L1 block starts with
     * its fills (FILL_SLOTS), then its L1 sets (l1_part bytes in all), so
     * that the host thread running the SM is the one that first writes
     * them, when the SM makes its first cache (sm_cache), not the launch's
     * set-up for every SM.  The L2's sets are a block of ours too. */
    uint8_t *l1_sets, *ro_sets, *l2_sets;
    size_t l1_part, ro_sets_bytes, l2_sets_bytes;
    uint64_t sm_reach;       /* what an SM's accesses are expected to reach (cache_new_in) */
    Cache *l2;
    Server l2_server, dram_server;
    Fill *l2_fills;          /* L2_FILL_SLOTS */
    /* per L2 atomic unit (GpuConfig.atomic_units; NULL without): when it
     * has done the atomics given to it so far, in FRAC units */
    uint64_t *atomic_free;
    uint64_t atomic_sector_cost, atomic_full_sector_cost; /* FRAC units */
    uint32_t dram_granule_sectors; /* sectors per DRAM access: 1, 2, 4 or 8 */
    uint32_t dram_granule_firsts;  /* bit i set when i is a multiple of it */
};

/* An SM's fills, at the start of its part of the L1 block; then its L1 sets. */
#define FILLS_BYTES ((FILL_SLOTS * sizeof(Fill) + 63) & ~(size_t)63)

static uint8_t *sm_l1_part(const MemSys *ms, uint32_t sm)
{
    return ms->l1_sets + (size_t)sm * ms->l1_part;
}

static Fill *sm_fills(const MemSys *ms, uint32_t sm)
{
    return (Fill *)(void *)sm_l1_part(ms, sm);
}

/* FRAC units per item of `size` at `per_cycle` of them a cycle; 0: unlimited */
static uint64_t item_cost(double size, double per_cycle)
{
    if (per_cycle <= 0)
        return 0;
    double c = size * (double)FRAC / per_cycle;
    return c < 1 ? 1 : (uint64_t)(c + 0.5);
}

/* Reserve the server for one request of `sectors` sectors from `now`;
 * returns the cycle the service starts. */
static uint64_t server_take(Server *s, uint64_t now, uint32_t sectors)
{
    uint64_t t = now * FRAC;
    if (s->next_free > t)
        t = s->next_free;
    s->next_free = t + (uint64_t)sectors * s->cost_per_sector + s->cost_per_request;
    return (t + FRAC - 1) / FRAC;
}

/* The bytes of a block that holds `per_sm` for every SM. */
static size_t every_sm(const MemSys *ms, size_t per_sm)
{
    return per_sm * ms->cfg->num_sms;
}

/* The block of every SM's sets of one cache (`per_sm` bytes each, after
 * `lead` bytes of the SM's own), of which the first `sms` SMs may each use
 * what `reach` bytes of memory do. */
static uint8_t *every_sm_sets(const MemSys *ms, const CacheConfig *cfg, size_t per_sm, size_t lead, uint32_t sms,
                              uint64_t reach)
{
    return hostmem_alloc_sparse(every_sm(ms, per_sm), (lead + cache_sets_used_bytes(cfg, reach)) * sms,
                                per_sm * sms);
}

MemSys *memsys_new(const GpuConfig *cfg, const MemSysUse *use)
{
    MemSys *ms = g_new0(MemSys, 1);
    ms->cfg = cfg;
    ms->l1 = g_new0(Cache *, cfg->num_sms);
    ms->ro = g_new0(Cache *, cfg->num_sms);
    uint64_t reach = use ? use->bytes : UINT64_MAX;
    uint32_t sms = use ? MIN(use->sms, cfg->num_sms) : cfg->num_sms;
    /* what one SM's CTAs reach together: their share, when the CTAs split
     * the launch's memory (each SM's L1 then holds lines of its share) */
    uint64_t sm_reach = sms ? reach / sms + (reach % sms != 0) : reach;
    /* a small launch touches a few sets of caches sized for the whole GPU:
     * no huge pages for them then (hostmem_alloc_sparse).  Sets take their
     * blocks from the front in the order of their first use (cache.h), so
     * what a cache uses is the start of its block, and the SMs that get
     * CTAs are the first ones */
    ms->l2_sets_bytes = cache_sets_bytes(&cfg->l2, reach);
    size_t l2_used = cache_sets_used_bytes(&cfg->l2, reach);
    ms->l2_sets = hostmem_alloc_sparse(ms->l2_sets_bytes, l2_used, l2_used);
    ms->l2 = cache_new_in(&cfg->l2, ms->l2_sets, reach);
    /* zeroed by the host, all its pages mapped in one call rather than
     * cleared here (a fault each, 24 of them).  Not left to fault as
     * touched: a slot is read before it is written, and a page read first
     * maps the shared zero page, whose replacement at the first write
     * stops the other host threads (saxpy on two threads: 1.5x -> 1.1x) */
    ms->l2_fills = hostmem_alloc0_mapped_now(L2_FILL_SLOTS * sizeof(Fill));
    /* an SM's part is whole host cache lines: its fills (8-byte fields)
     * and its sets (4-byte ones) stay aligned at i times it */
    ms->sm_reach = sm_reach;
    ms->l1_part = FILLS_BYTES + ((cache_sets_bytes(&cfg->l1, sm_reach) + 63) & ~(size_t)63);
    ms->ro_sets_bytes = cache_sets_bytes(&cfg->readonly, sm_reach);
    ms->l1_sets = every_sm_sets(ms, &cfg->l1, ms->l1_part, FILLS_BYTES, sms, sm_reach);
    ms->ro_sets = every_sm_sets(ms, &cfg->readonly, ms->ro_sets_bytes, 0, sms, sm_reach);
    if (cfg->atomic_units) {
        ms->atomic_free = g_new0(uint64_t, cfg->atomic_units);
        ms->atomic_sector_cost = (uint64_t)(cfg->atomic_sector_cycles * FRAC + 0.5);
        ms->atomic_full_sector_cost = (uint64_t)(cfg->atomic_full_sector_cycles * FRAC + 0.5);
    }
    ms->l2_server.cost_per_sector = item_cost(SECTOR_BYTES, cfg->l2_bytes_per_cycle);
    ms->l2_server.cost_per_request = item_cost(1, cfg->l2_requests_per_cycle);
    ms->dram_server.cost_per_sector = item_cost(SECTOR_BYTES, cfg->dram_bytes_per_cycle);
    /* the configuration keeps access_bytes a power of two, 32 to 256 */
    ms->dram_granule_sectors = MIN(MAX(cfg->dram_access_bytes / SECTOR_BYTES, 1u), 16u);
    for (uint32_t i = 0; i < 32; i += ms->dram_granule_sectors)
        ms->dram_granule_firsts |= 1u << i;
    return ms;
}

void memsys_free(MemSys *ms)
{
    if (!ms)
        return;
    for (uint32_t i = 0; i < ms->cfg->num_sms; i++) {
        cache_free(ms->l1[i]);
        cache_free(ms->ro[i]);
    }
    g_free(ms->l1);
    g_free(ms->ro);
    hostmem_free(ms->l1_sets, every_sm(ms, ms->l1_part));
    hostmem_free(ms->ro_sets, every_sm(ms, ms->ro_sets_bytes));
    cache_free(ms->l2);
    hostmem_free(ms->l2_fills, L2_FILL_SLOTS * sizeof(Fill));
    hostmem_free(ms->l2_sets, ms->l2_sets_bytes);
    g_free(ms->atomic_free);
    g_free(ms);
}

void memsys_reset(MemSys *ms)
{
    for (uint32_t i = 0; i < ms->cfg->num_sms; i++) {
        if (ms->l1[i])
            cache_invalidate(ms->l1[i]);
        if (ms->ro[i])
            cache_invalidate(ms->ro[i]);
        if (ms->l1[i] || ms->ro[i])
            memset(sm_fills(ms, i), 0, FILLS_BYTES);
    }
    cache_invalidate(ms->l2);
    memset(ms->l2_fills, 0, L2_FILL_SLOTS * sizeof *ms->l2_fills);
    ms->l2_server.next_free = 0;
    ms->dram_server.next_free = 0;
    for (uint32_t u = 0; ms->atomic_free && u < ms->cfg->atomic_units; u++)
        ms->atomic_free[u] = 0;
}

/* The L2 atomic unit that serves a line: the cycles the atomic waits for it
 * (atomics before it to its part of memory), after which the unit is busy
 * with this request's passes over the line's sectors (atomic_passes()).
 * Measured on the H200 (configs/h200.json): the updates of one line, or of
 * lines close together, take turns, so a histogram of few bins runs at the
 * pace of its busiest unit. */
static uint64_t atomic_unit_wait(MemSys *ms, uint64_t now, uint64_t addr, uint32_t passes)
{
    const GpuConfig *cfg = ms->cfg;
    uint64_t *unit = &ms->atomic_free[(addr / cfg->atomic_unit_bytes) % cfg->atomic_units];
    uint64_t t = MAX(now * FRAC, *unit);
    *unit = t + (passes & 0xFFFFu) * ms->atomic_sector_cost + (passes >> 16) * ms->atomic_full_sector_cost;
    return (t + FRAC - 1) / FRAC - now;
}

/* How an atomic unit goes over an atomic request's sectors, per transaction
 * into r->atomic_passes, and its most lanes on one address into
 * r->atomic_same.  Lanes on one address take turns: a sector is gone over
 * once for each lane on its busiest address, each pass updating the
 * addresses with at least that many lanes; a pass that updates every byte
 * of the sector is a full one (cheaper on the H200: configs/h200.json). */
static void atomic_passes(const WarpAccess *a, MemRequest *r)
{
    /* the distinct addresses, in address order, with their lanes */
    uint64_t addr[32];
    uint32_t lanes[32], n = 0;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        uint64_t x = a->addr[__builtin_ctz(m)];
        uint32_t k = 0;
        while (k < n && addr[k] < x)
            k++;
        if (k < n && addr[k] == x) {
            lanes[k]++;
            continue;
        }
        memmove(addr + k + 1, addr + k, (n - k) * sizeof *addr);
        memmove(lanes + k + 1, lanes + k, (n - k) * sizeof *lanes);
        addr[k] = x;
        lanes[k] = 1;
        n++;
    }
    r->atomic_same = 0;
    for (uint32_t i = 0; i < r->ntrans; i++)
        r->atomic_passes[i] = 0;
    uint32_t size = MAX(a->size, 1u);
    for (uint32_t first = 0, end; first < n; first = end) {
        uint64_t sector = addr[first] / SECTOR_BYTES;
        uint32_t most = 0;
        for (end = first; end < n && addr[end] / SECTOR_BYTES == sector; end++)
            most = MAX(most, lanes[end]);
        r->atomic_same = MAX(r->atomic_same, most);
        uint32_t partial = 0, full = 0;
        for (uint32_t pass = 1; pass <= most; pass++) {
            uint32_t updated = 0;
            for (uint32_t k = first; k < end; k++)
                updated += lanes[k] >= pass;
            if (updated * size >= SECTOR_BYTES)
                full++;
            else
                partial++;
        }
        for (uint32_t i = 0; i < r->ntrans; i++) {
            const MemTransaction *t = &r->trans[i];
            if (sector * SECTOR_BYTES - t->addr < t->bytes) {
                r->atomic_passes[i] += partial + (full << 16);
                break;
            }
        }
    }
}

/* The cache an SM's global/local access of this kind goes through, made
 * cold on first use: the read-only path for ld.global.nc when the GPU has
 * one, else the L1. */
static Cache *sm_cache(MemSys *ms, uint32_t sm, bool readonly_path)
{
    Cache **slot = readonly_path ? &ms->ro[sm] : &ms->l1[sm];
    if (!*slot) {
        /* the SM's first cache: its fills start empty, written before they
         * are read (a page first read maps the shared zero page, and its
         * first write then costs a second fault and a TLB shootdown to the
         * other host threads) */
        if (!ms->l1[sm] && !ms->ro[sm])
            memset(sm_fills(ms, sm), 0, FILLS_BYTES);
        *slot = readonly_path ? cache_new_in(&ms->cfg->readonly, ms->ro_sets + sm * ms->ro_sets_bytes, ms->sm_reach)
                              : cache_new_in(&ms->cfg->l1, sm_l1_part(ms, sm) + FILLS_BYTES, ms->sm_reach);
    }
    return *slot;
}

/* DRAM write-back of evicted dirty sectors: uses bandwidth, nobody waits. */
static void write_back(MemSys *ms, uint64_t now, uint32_t dirty, MemCounters *c)
{
    if (!dirty)
        return;
    c->dram_bytes_write += (uint64_t)dirty * SECTOR_BYTES;
    server_take(&ms->dram_server, now, dirty);
}

/* The sectors `mask` of a transaction at `addr` (bit i: addr + 32 i) by
 * the line they lie in: how many lines, each line's number + 1 (Fill.line)
 * and its sectors (bit i: the line's sector i). */
#define SPLIT_MAX_LINES (32u * SECTOR_BYTES / FILL_LINE_BYTES + 1u)
static uint32_t split_lines(uint64_t addr, uint32_t mask, uint64_t *lines, uint32_t *sectors)
{
    /* the mask placed at its sectors' offset in the first line: a line's
     * worth of bits at a time (a transaction of one line: one step) */
    enum { PER_LINE = FILL_LINE_BYTES / SECTOR_BYTES };
    uint64_t first = addr / SECTOR_BYTES;
    uint64_t line = first / PER_LINE + 1, rest = (uint64_t)mask << (first % PER_LINE);
    uint32_t n = 0;
    for (; rest; rest >>= PER_LINE, line++) {
        uint32_t bits = (uint32_t)(rest & ((1u << PER_LINE) - 1));
        if (bits) {
            lines[n] = line;
            sectors[n++] = bits;
        }
    }
    return n;
}

/* When the sectors `hits` of a transaction, found in a cache whose fills
 * are `fills` (`slots` of them), are there: the latest fill of theirs
 * still on its way, or 0. */
static uint64_t fills_wait(const Fill *fills, uint32_t slots, uint64_t addr, uint32_t hits)
{
    uint64_t lines[SPLIT_MAX_LINES], ready = 0;
    uint32_t sectors[SPLIT_MAX_LINES], n = split_lines(addr, hits, lines, sectors);
    for (uint32_t i = 0; i < n; i++) {
        const Fill *f = &fills[lines[i] % slots];
        if (f->line == lines[i] && (f->sectors & sectors[i]))
            ready = MAX(ready, f->ready);
    }
    return ready;
}

/* The sectors `fetch` of a transaction are on their way to the cache
 * whose fills are `fills`, back no sooner than `ready`. */
static void fills_note(Fill *fills, uint32_t slots, uint64_t addr, uint32_t fetch, uint64_t now, uint64_t ready)
{
    uint64_t lines[SPLIT_MAX_LINES];
    uint32_t sectors[SPLIT_MAX_LINES], n = split_lines(addr, fetch, lines, sectors);
    for (uint32_t i = 0; i < n; i++) {
        Fill *f = &fills[lines[i] % slots];
        if (f->line != lines[i] || f->ready <= now) { /* another line's, or back already */
            *f = (Fill){.line = lines[i], .ready = ready, .sectors = sectors[i]};
        } else {
            f->sectors |= sectors[i];
            f->ready = MAX(f->ready, ready);
        }
    }
}

/* One transaction's sectors through L2 (and DRAM on a miss).  Returns the
 * cycle the data is back at the SM. */
static uint64_t l2_read(MemSys *ms, uint64_t now, const MemTransaction *t, MemCounters *c)
{
    const GpuConfig *cfg = ms->cfg;
    uint32_t n = popcount32(t->sector_mask), dirty = 0;
    uint64_t start = server_take(&ms->l2_server, now, n);
    uint32_t hits = cache_read_sectors(ms->l2, t->addr, t->sector_mask, &dirty);
    uint32_t miss_mask = t->sector_mask & ~hits;
    c->l2_sectors += n;
    c->l2_sector_hits += popcount32(hits);
    write_back(ms, start, dirty, c);
    uint64_t ready = start + cfg->l2.latency;
    /* sectors that a miss just before asked DRAM for: the data comes with
     * that fill (requests for the same line merge in L2, as in L1) */
    if (hits)
        ready = MAX(ready, fills_wait(ms->l2_fills, L2_FILL_SLOTS, t->addr, hits));
    if (miss_mask) {
        /* DRAM moves whole access granules (groups of `per` sectors from
         * the transaction's start): count those with a missing sector */
        uint32_t per = ms->dram_granule_sectors, any = miss_mask;
        for (uint32_t shift = 1; shift < per; shift <<= 1)
            any |= any >> shift;   /* bit per * g: some sector of granule g misses */
        uint32_t firsts = any & ms->dram_granule_firsts, granules = popcount32(firsts);
        uint32_t dram_sectors = granules * per;
        c->dram_bytes_read += (uint64_t)dram_sectors * SECTOR_BYTES;
        /* the granules' other sectors come along and stay in L2: a thread
         * walking its own row (lanes a row apart) reads each byte from DRAM
         * once on the H200 (traces/more_kernels/gemv_rows: dram__bytes_read.sum
         * the matrix's size), not once per sector */
        uint32_t granule = (1u << per) - 1, fetched = 0; /* per is at most 16 */
        for (uint32_t m = firsts; m; m &= m - 1)
            fetched |= granule << __builtin_ctz(m);
        uint32_t extra = fetched & ~t->sector_mask, extra_dirty = 0;
        if (extra) {
            (void)cache_read_sectors(ms->l2, t->addr, extra, &extra_dirty);
            write_back(ms, start, extra_dirty, c);
        }
        /* dram_latency is what a miss adds to the L2's own latency */
        uint64_t dstart = server_take(&ms->dram_server, start, dram_sectors);
        uint64_t dready = dstart + cfg->l2.latency + cfg->dram_latency;
        ready = MAX(ready, dready);
        fills_note(ms->l2_fills, L2_FILL_SLOTS, t->addr, fetched | miss_mask, start, dready);
    }
    return ready;
}

static void l2_write(MemSys *ms, uint64_t now, const MemTransaction *t, MemCounters *c)
{
    uint32_t n = popcount32(t->sector_mask), dirty = 0;
    if (ms->cfg->l2.size_bytes == 0) { /* no L2 for global memory (cc 1.x): straight to DRAM */
        write_back(ms, now, n, c);
        return;
    }
    uint64_t start = server_take(&ms->l2_server, now, n);
    (void)cache_write_sectors(ms->l2, t->addr, t->sector_mask, true, &dirty);
    /* a write allocates its sectors without a fetch: a hit, present or
     * not, as Nsight counts it (on the H200 a stream's writes are hits
     * while its reads, lts__t_sectors_srcunit_tex_op_read_lookup_hit, are
     * none) */
    c->l2_sectors += n;
    c->l2_sector_hits += n;
    write_back(ms, start, dirty, c);
}

/* The distinct addresses of the warp's lanes: the constant cache serves
 * one per pass. */
static uint32_t distinct_addresses(const WarpAccess *a)
{
    /* the common case first: every lane on one address (a broadcast); a
     * whole warp is checked without a branch per lane */
    uint64_t first = a->addr[__builtin_ctz(a->mask)], differ = 0;
    if (a->mask == 0xFFFFFFFFu) {
        differ = warp_scan(a).spread;
    } else {
        for (uint32_t m = a->mask; m; m &= m - 1)
            differ |= a->addr[__builtin_ctz(m)] ^ first;
    }
    if (!differ)
        return 1;
    uint32_t n = 0, seen = 0;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctz(m);
        if (seen & (1u << i))
            continue;
        for (uint32_t k = m; k; k &= k - 1) {
            uint32_t j = (uint32_t)__builtin_ctz(k);
            if (a->addr[j] == a->addr[i])
                seen |= 1u << j;
        }
        n++;
    }
    return n;
}

/* A shared atomic that adds the constant 1 to a 32-bit integer
 * (atomicAdd(p, 1), a histogram's count): ptxas makes it ATOMS.POPC.INC,
 * which updates a word once for all the lanes on it, where every other
 * shared atomic updates it once per lane (measured on the H200,
 * traces/shared_atomics: 32 lanes adding 1 to one word take 1 wavefront,
 * adding 3, a value the same in every lane or a lane's own, or taking a
 * max, 32). */
static bool shared_count_by_one(const Insn *in)
{
    if (in->atom != ATOM_ADD || isa_type_is_float((PtxType)in->type) || isa_type_size((PtxType)in->type) != 4 ||
        !in->nopd)
        return false;
    const Operand *value = &in->opd[in->nopd - 1];
    return value->kind == OPD_IMM && value->imm == 1;
}

static MemTiming shared_access(MemSys *ms, uint64_t now, const Insn *in, const WarpAccess *a, MemCounters *c)
{
    const GpuConfig *cfg = ms->cfg;
    bool atomic = in->op == OP_ATOM || in->op == OP_RED;
    BankResult br;
    if (atomic && !shared_count_by_one(in))
        smem_atomic_banks(a, cfg->smem_banks, cfg->smem_bank_bytes, cfg->smem_half_warp, &br);
    else
        smem_banks(a, cfg->smem_banks, cfg->smem_bank_bytes, cfg->smem_half_warp, cfg->smem_wide, &br);
    uint32_t wavefronts = MAX(br.wavefronts, 1u);
    if (atomic) {
        c->shared_atom_requests++;
        c->shared_atom_wavefronts += br.wavefronts;
        c->shared_atom_conflicts += br.conflicts;
    } else if (a->write) {
        c->shared_st_requests++;
        c->shared_st_wavefronts += br.wavefronts;
        c->shared_st_conflicts += br.conflicts;
    } else {
        c->shared_ld_requests++;
        c->shared_ld_wavefronts += br.wavefronts;
        c->shared_ld_conflicts += br.conflicts;
    }
    return memsys_short_access(cfg, SPACE_SHARED, wavefronts, now);
}

MemTiming memsys_short_access(const GpuConfig *cfg, PtxSpace space, uint32_t wavefronts, uint64_t now)
{
    uint32_t latency = space == SPACE_SHARED ? cfg->smem_latency : cfg->const_latency;
    return (MemTiming){.ready = now + latency + wavefronts - 1, .pipe_cycles = wavefronts, .long_latency = false};
}

static MemTiming const_access(MemSys *ms, uint64_t now, const WarpAccess *a, MemCounters *c)
{
    uint32_t n = MAX(distinct_addresses(a), 1u);
    c->const_requests++;
    c->const_wavefronts += n;
    return memsys_short_access(ms->cfg, SPACE_CONST, n, now);
}

/* Whether a global or local access is looked up in the SM's L1 (or its
 * read-only path): the configuration and the instruction decide. */
static bool through_l1(const GpuConfig *cfg, const Insn *in, const WarpAccess *a, bool local)
{
    bool atomic = in->op == OP_ATOM || in->op == OP_RED;
    bool write = a->write && !atomic;
    bool nc = (in->flags & FL_NC) != 0 && !write && !atomic;
    bool readonly_path = nc && cfg->readonly.size_bytes;
    /* a global access ordered against other SMs' (volatile, or relaxed or
     * acquire at a scope wider than the CTA) cannot use the SM's L1, which
     * nothing keeps coherent: it goes to L2; so do those that ask for L2
     * only (.cg) or a fresh fetch (.cv) */
    bool strong = !local && (in->sem == SEM_VOLATILE ||
                             ((in->sem == SEM_RELAXED || in->sem == SEM_ACQUIRE) && in->scope != SCOPE_CTA));
    bool l2_only = !local && (in->cache == CACHE_CG || in->cache == CACHE_CV);
    return !atomic && !strong && !l2_only && (local || nc || cfg->l1_caches_global)
           && (readonly_path ? cfg->readonly.size_bytes : cfg->l1.size_bytes) > 0;
}

/* Local addresses are offsets in each thread's frame; the model
 * interleaves the lanes' words as the hardware does, per warp. */
static void local_view(const WarpAccess *a, uint64_t local_id, WarpAccess *g)
{
    *g = *a;
    g->scanned = false; /* its addresses move */
    uint64_t base = LOCAL_MODEL_BASE + local_id * LOCAL_MODEL_WARP_SPAN;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t off = a->addr[l];
        g->addr[l] = base + (off / 4) * 128 + (uint64_t)l * 4 + off % 4;
    }
    /* an access wider than 4 B spans consecutive words of one lane,
     * which the interleaving puts 128 B apart: model it as 4 B wide */
    g->size = MIN(a->size, 4u);
}

/* What an L1 (or read-only cache) lookup of transaction t leaves for L2:
 * the cache fills whole units of fill_bytes (its sector; a line of 128 B on
 * Fermi), so each unit with a sector that missed is fetched whole, and t
 * becomes those units.  The cache's `hits` count a unit's later sectors as
 * hits once its first one filled it; the sectors that really hit (their
 * unit was there before) are returned.  Units wider than a transaction's
 * 32-bit sector mask (1 KiB) are fetched as 1 KiB. */
static uint32_t miss_fetches_fill_units(MemTransaction *t, uint32_t hits, uint32_t fill_bytes)
{
    uint32_t miss = t->sector_mask & ~hits;
    uint32_t unit_sectors = MIN(fill_bytes, 32u * SECTOR_BYTES) / SECTOR_BYTES;
    if (unit_sectors <= 1 || !miss) {
        t->sector_mask = miss;
        return hits;
    }
    /* sizes are powers of two, so units are aligned to their size */
    uint64_t unit_bytes = (uint64_t)unit_sectors * SECTOR_BYTES;
    uint64_t base = t->addr & ~(unit_bytes - 1);
    uint32_t shift = (uint32_t)((t->addr - base) / SECTOR_BYTES);
    uint64_t unit = (1ull << unit_sectors) - 1, missed = (uint64_t)miss << shift, fetch = 0;
    for (uint32_t g = 0; missed >> g; g += unit_sectors)
        if ((missed >> g) & unit)
            fetch |= unit << g;
    t->addr = base;
    t->bytes = (uint32_t)MAX(t->bytes, unit_bytes);
    t->sector_mask = (uint32_t)fetch;   /* the units cover at most max(t's 128 B, one unit) */
    return hits & ~(uint32_t)(fetch >> shift);
}

/* A request's transactions as the coalescer made them (CoalesceResult or
 * CoalescedAccess), whether it goes through L1 (through_l1) and whether
 * the access writes. */
typedef struct {
    const MemTransaction *trans;
    uint32_t ntrans, sectors;
    bool distinct_sectors;
    bool use_l1;
    bool write;
} Coalesced;

/* The SM's side of a global or local access once coalesced: the counters
 * and L1 (or the read-only path), which only this SM's requests touch.
 * `a` is read only for an atomic (its lanes on one address).  Leaves in *r
 * what goes on to L2; returns the memory pipe's cycles. */
static uint32_t sm_part_coalesced(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const WarpAccess *a,
                                  bool local, Coalesced cr, MemCounters *c, MemRequest *r)
{
    const GpuConfig *cfg = ms->cfg;
    bool atomic = in->op == OP_ATOM || in->op == OP_RED;
    bool write = cr.write && !atomic;
    bool nc = (in->flags & FL_NC) != 0 && !write && !atomic;
    bool readonly_path = nc && cfg->readonly.size_bytes;
    bool use_l1 = cr.use_l1;
    if (atomic) {
        c->gatom_requests++;
        c->gatom_sectors += cr.sectors;
    } else if (local) {
        if (write) { c->lst_requests++; c->lst_sectors += cr.sectors; }
        else { c->lld_requests++; c->lld_sectors += cr.sectors; }
    } else if (write) {
        c->gst_requests++;
        c->gst_sectors += cr.sectors;
        c->gst_transactions += cr.ntrans;
    } else {
        c->gld_requests++;
        c->gld_sectors += cr.sectors;
        c->gld_transactions += cr.ntrans;
    }
    r->kind = atomic ? MEMREQ_ATOMIC : write ? MEMREQ_WRITE : MEMREQ_READ;
    r->ntrans = cr.ntrans;
    r->ready = now;
    r->atomic_same = 0;
    /* stores write through the L1 (no allocate) when it caches them or they are local */
    Cache *l1 = (write ? use_l1 || local : use_l1) ? sm_cache(ms, sm, readonly_path) : NULL;
    uint32_t hit_latency = readonly_path ? cfg->readonly.latency : cfg->l1.latency;
    /* L1 and L2 hold separate state, so a request's L1 lookups can all come
     * first and its L2 accesses after, each in transaction order, with the
     * same results.  The L1's sets are not prefetched first, as the L2's
     * are (memsys_prefetch_beyond): an SM's few are in the host's cache
     * already, and the hints cost more than they saved (stride: 3 % slower
     * with them, on one host thread or two). */
    uint32_t no_evictions = 0;
    if (write || atomic) {
        for (uint32_t i = 0; l1 && i < cr.ntrans; i++)
            cache_write_sectors(l1, cr.trans[i].addr, cr.trans[i].sector_mask, false, &no_evictions);
        memcpy(r->trans, cr.trans, cr.ntrans * sizeof cr.trans[0]);
        if (atomic)
            atomic_passes(a, r);
        return MAX(cr.ntrans, 1u);
    }
    uint32_t fill_bytes = use_l1 ? cache_fill_bytes(l1) : SECTOR_BYTES;
    Fill *fills = sm_fills(ms, sm);
    /* distinct transactions still fetch distinct sectors from below unless
     * L1 widens two of them to one fill unit */
    bool distinct = cr.distinct_sectors;
    for (uint32_t i = 0; distinct && fill_bytes > SECTOR_BYTES && i < cr.ntrans; i++)
        distinct = cr.trans[i].bytes >= fill_bytes && !(cr.trans[i].addr & (fill_bytes - 1));
    uint64_t fetched[FETCH_TRACK];
    uint32_t nfetched = 0;
    for (uint32_t i = 0; i < cr.ntrans; i++) {
        MemTransaction t = cr.trans[i];
        if (use_l1) {
            uint32_t hits = cache_read_sectors(l1, t.addr, t.sector_mask, &no_evictions);
            uint64_t asked_at = t.addr;
            c->l1_sectors += popcount32(t.sector_mask);
            hits = miss_fetches_fill_units(&t, hits, fill_bytes);
            c->l1_sector_hits += popcount32(hits);
            r->ready = MAX(r->ready, now + hit_latency);
            if (hits)
                r->ready = MAX(r->ready, fills_wait(fills, FILL_SLOTS, asked_at, hits));
            if (t.sector_mask)
                fills_note(fills, FILL_SLOTS, t.addr, t.sector_mask, now, now + cfg->l2.latency);
        }
        /* Transactions of one request that repeat a sector (the cc 1.x rules
         * issue one per lane, broadcasts included) are merged below L1: the
         * data comes back once, at the first one's time. */
        for (uint32_t m = distinct ? 0 : t.sector_mask; m; m &= m - 1) {
            uint32_t s = (uint32_t)__builtin_ctz(m);
            uint64_t sector = t.addr + SECTOR_BYTES * (uint64_t)s;
            bool seen = false;
            for (uint32_t k = 0; k < nfetched && !seen; k++)
                seen = fetched[k] == sector;
            if (seen)
                t.sector_mask &= ~(1u << s);
            else if (nfetched < FETCH_TRACK)
                fetched[nfetched++] = sector;
        }
        r->trans[i] = t;
    }
    return MAX(cr.ntrans, 1u);
}

/* The SM's side of a global or local access: the coalescer, then
 * sm_part_coalesced(). */
static uint32_t global_sm_part(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const WarpAccess *a,
                               bool local, MemCounters *c, MemRequest *r)
{
    bool use_l1 = through_l1(ms->cfg, in, a, local);
    CoalesceResult cr;
    coalesce(ms->cfg->coalescing, a, use_l1, &cr);
    Coalesced view = {cr.trans, cr.ntrans, cr.sectors, cr.distinct_sectors, use_l1, a->write};
    return sm_part_coalesced(ms, sm, now, in, a, local, view, c, r);
}

uint64_t memsys_access_beyond(MemSys *ms, uint64_t now, const MemRequest *r, MemCounters *c)
{
    const GpuConfig *cfg = ms->cfg;
    uint64_t ready = r->ready;
    for (uint32_t i = 0; i < r->ntrans; i++) {
        const MemTransaction *t = &r->trans[i];
        if (r->kind == MEMREQ_WRITE) {
            l2_write(ms, now, t, c);
        } else if (r->kind == MEMREQ_ATOMIC) {
            uint32_t n = popcount32(t->sector_mask), dirty = 0;
            uint64_t start = server_take(&ms->l2_server, now, n);
            uint32_t hits = cache_write_sectors(ms->l2, t->addr, t->sector_mask, true, &dirty);
            c->l2_sectors += n;
            c->l2_sector_hits += popcount32(hits);
            write_back(ms, start, dirty, c);  /* one reservation for several evictions ends the same */
            /* the unit takes it once L2 has (start), after its earlier work */
            uint64_t wait = ms->atomic_free ? atomic_unit_wait(ms, start, t->addr, r->atomic_passes[i]) : 0;
            ready = MAX(ready, start + wait + cfg->atomic_latency);
        } else if (t->sector_mask) {
            uint64_t back = l2_read(ms, now, t, c); /* not inside MAX: it has effects */
            ready = MAX(ready, back);
        }
    }
    if (r->kind == MEMREQ_ATOMIC && r->atomic_same > 1 && !ms->atomic_free)
        ready += (uint64_t)(r->atomic_same - 1) * 2; /* without units: lanes on one address take turns */
    return ready;
}

void memsys_prefetch_beyond(const MemSys *ms, const MemTransaction *trans, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (trans[i].sector_mask)
            cache_prefetch(ms->l2, trans[i].addr);
}

/* The rest of a global access whose SM part left *r (memsys_access()). */
static MemTiming global_beyond(MemSys *ms, uint64_t now, uint32_t pipe, const MemRequest *r, MemCounters *c)
{
    if (r->ntrans > 1) /* their lookups overlap */
        memsys_prefetch_beyond(ms, r->trans, r->ntrans);
    return (MemTiming){.ready = memsys_access_beyond(ms, now, r, c), .pipe_cycles = pipe, .long_latency = true};
}

/* Global or local accesses through the coalescer, L1 (or read-only path), L2, DRAM. */
static MemTiming global_access(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const WarpAccess *a,
                               bool local, MemCounters *c)
{
    MemRequest r;
    uint32_t pipe = global_sm_part(ms, sm, now, in, a, local, c, &r);
    return global_beyond(ms, now, pipe, &r, c);
}

/* Whether the active lanes' bytes lie within `lines` 128 B lines; of a
 * divergent warp, also whether its lanes ascend (*ascending, with
 * warp_lanes_ascending's first and stride), which the coalescer needs. */
static bool lanes_within_lines(const WarpAccess *a, uint64_t lines, bool *ascending, uint32_t *first,
                               uint64_t *stride)
{
    *ascending = false;
    uint64_t size = MAX(a->size, 1u);
    if (a->mask == 0xFFFFFFFFu && !(lines & (lines - 1)) && !(size & (size - 1)) && size <= 128 * lines) {
        /* the common warp first: every address in one aligned block of
         * `lines` lines, each lane aligned to its size (a power of two no
         * larger than the block), so its bytes stay in the block too (the
         * min/max loop below, which -O2 leaves scalar, measures a warp that
         * fails) */
        WarpScan scan = warp_scan(a);
        if (!(scan.spread >> (7 + __builtin_ctzll(lines))) && !(scan.any & (size - 1)))
            return true;
    }
    uint64_t lo, hi;
    /* a divergent warp's that ascend: its ends */
    if (a->mask != 0xFFFFFFFFu && (*ascending = warp_lanes_ascending(a, first, stride))) {
        lo = a->addr[*first];
        hi = a->addr[31 - __builtin_clz(a->mask)];
    } else {
        warp_bounds(a, a->mask, &lo, &hi);
    }
    uint64_t last = hi > UINT64_MAX - size ? UINT64_MAX : hi + size - 1;
    return (last >> 7) - (lo >> 7) < lines;
}

bool memsys_coalesce_ahead(const MemSys *ms, const Insn *in, const WarpAccess *a, CoalescedAccess *out)
{
    CoalesceRule rule = ms->cfg->coalescing;
    bool ascending;
    uint32_t first;
    uint64_t stride;
    if (!a->mask || a->space != SPACE_GLOBAL || (in->op != OP_LD && in->op != OP_ST) ||
        (rule != COALESCE_SECTOR && rule != COALESCE_CC20) ||
        !lanes_within_lines(a, MEMSYS_AHEAD_TRANS, &ascending, &first, &stride))
        return false;
    bool use_l1 = through_l1(ms->cfg, in, a, false);
    CoalesceResult cr;
    if (ascending)
        coalesce_ascending(rule, a, use_l1, first, stride, &cr);
    else
        coalesce(rule, a, use_l1, &cr);
    if (cr.ntrans > MEMSYS_AHEAD_TRANS) /* wide words split in sub-requests, or 32 B segments */
        return false;
    memcpy(out->trans, cr.trans, cr.ntrans * sizeof cr.trans[0]);
    out->mask = a->mask;
    out->size = (uint8_t)a->size;
    out->write = a->write;
    out->use_l1 = use_l1;
    out->distinct_sectors = cr.distinct_sectors;
    out->sectors = cr.sectors;
    out->ntrans = cr.ntrans;
    return true;
}

uint32_t memsys_access_sm_coalesced(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in,
                                    const CoalescedAccess *p, MemCounters *c, MemRequest *r)
{
    Coalesced view = {p->trans, p->ntrans, p->sectors, p->distinct_sectors, p->use_l1, p->write};
    return sm_part_coalesced(ms, sm, now, in, NULL, false, view, c, r);
}

MemTiming memsys_access_coalesced(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const CoalescedAccess *p,
                                  MemCounters *c)
{
    MemRequest r;
    uint32_t pipe = memsys_access_sm_coalesced(ms, sm, now, in, p, c, &r);
    return global_beyond(ms, now, pipe, &r, c);
}

MemTiming memsys_access(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const WarpAccess *a,
                        uint64_t local_id, MemCounters *c)
{
    if (!a->mask)
        return (MemTiming){.ready = now, .pipe_cycles = 1, .long_latency = false};
    switch (a->space) {
    case SPACE_SHARED:
        return shared_access(ms, now, in, a, c);
    case SPACE_CONST:
    case SPACE_PARAM:
        return const_access(ms, now, a, c);
    case SPACE_LOCAL: {
        WarpAccess g;
        local_view(a, local_id, &g);
        return global_access(ms, sm, now, in, &g, true, c);
    }
    default:
        return global_access(ms, sm, now, in, a, false, c);
    }
}

bool memsys_shared_level(const WarpAccess *a)
{
    return a->mask && a->space != SPACE_SHARED && a->space != SPACE_CONST && a->space != SPACE_PARAM;
}

uint32_t memsys_access_sm(MemSys *ms, uint32_t sm, uint64_t now, const Insn *in, const WarpAccess *a,
                          uint64_t local_id, MemCounters *c, MemRequest *r)
{
    if (a->space == SPACE_LOCAL) {
        WarpAccess g;
        local_view(a, local_id, &g);
        return global_sm_part(ms, sm, now, in, &g, true, c, r);
    }
    return global_sm_part(ms, sm, now, in, a, false, c, r);
}

void memsys_finish(MemSys *ms, MemCounters *c)
{
    c->dram_bytes_write += cache_dirty_sectors(ms->l2) * SECTOR_BYTES;
}

uint64_t memsys_dram_busy_until(const MemSys *ms)
{
    return (ms->dram_server.next_free + FRAC - 1) / FRAC;
}

uint64_t memsys_atomics_done(const MemSys *ms)
{
    uint64_t last = 0;
    for (uint32_t u = 0; ms->atomic_free && u < ms->cfg->atomic_units; u++)
        last = MAX(last, ms->atomic_free[u]);
    return (last + FRAC - 1) / FRAC;
}

void mem_counters_add(MemCounters *into, const MemCounters *from)
{
    /* every field is a uint64_t count */
    uint64_t *d = (uint64_t *)into;
    const uint64_t *s = (const uint64_t *)from;
    for (size_t i = 0; i < sizeof(MemCounters) / sizeof(uint64_t); i++)
        d[i] += s[i];
}
