/* test_memsys.c — the memory hierarchy on synthetic request streams:
 * what L1, L2 and DRAM count for loads whose answers follow from the
 * bundled configurations' geometry, that the split calls
 * (memsys_access_sm + memsys_access_beyond) equal memsys_access, and so
 * do accesses coalesced ahead of their issue (memsys_coalesce_ahead).
 *
 * Expected values are worked out here from the addresses (distinct lines,
 * sectors, DRAM granules), not taken from the code under test.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "config.h"
#include "memsys.h"
#include "testutil.h"

#define LINE 128u
#define SECTOR 32u
#define BASE 0x10000000ull   /* 1 KiB aligned, like an allocation */

/* a bundled configuration with `--set` style overrides (NULL: none) */
static GpuConfig *load_with(const char *name, const char *const *overrides)
{
    GError *err = NULL;
    GpuConfig *cfg = config_load(name, overrides, &err);
    ck_assert_msg(cfg != NULL, "%s", err ? err->message : "?");
    return cfg;
}

static GpuConfig *load(const char *name)
{
    return load_with(name, NULL);
}

static Insn load_insn(void)
{
    Insn in;
    memset(&in, 0, sizeof in);
    in.op = OP_LD;
    in.space = SPACE_GLOBAL;
    return in;
}

/* a warp of 4 B loads: lane i at base + i * stride */
static WarpAccess strided(uint64_t base, uint64_t stride)
{
    WarpAccess a;
    memset(&a, 0, sizeof a);
    a.mask = 0xFFFFFFFFu;
    a.size = 4;
    a.space = SPACE_GLOBAL;
    for (int i = 0; i < 32; i++)
        a.addr[i] = base + (uint64_t)i * stride;
    return a;
}

/* the distinct `unit`-byte blocks the warps' lanes touch */
static uint64_t distinct_units(const WarpAccess *w, int nwarps, uint64_t unit)
{
    GHashTable *seen = g_hash_table_new(g_int64_hash, g_int64_equal);
    GArray *keys = g_array_new(FALSE, FALSE, sizeof(gint64));
    for (int k = 0; k < nwarps; k++)
        for (int i = 0; i < 32; i++)
            if (w[k].mask >> i & 1) {
                gint64 key = (gint64)(w[k].addr[i] / unit);
                g_array_append_val(keys, key);
            }
    for (guint i = 0; i < keys->len; i++)
        g_hash_table_add(seen, &g_array_index(keys, gint64, i));
    uint64_t n = g_hash_table_size(seen);
    g_hash_table_destroy(seen);
    g_array_free(keys, TRUE);
    return n;
}

/* Runs the warps' loads on SM 0, one per cycle, and finishes the launch. */
static MemCounters run_loads(const GpuConfig *cfg, const WarpAccess *w, int nwarps)
{
    MemSys *ms = memsys_new(cfg, NULL);
    MemCounters c;
    memset(&c, 0, sizeof c);
    Insn in = load_insn();
    for (int k = 0; k < nwarps; k++)
        (void)memsys_access(ms, 0, (uint64_t)k, &in, &w[k], 0, &c);
    memsys_finish(ms, &c);
    memsys_free(ms);
    return c;
}

/* A scattered stream: warp k's lanes read one word of each of 32 lines,
 * 4 KiB apart, at word k of the line; the first warp misses every line.
 * Then the same lines again (they fit the L1s of the configs used). */
static int scattered_stream(WarpAccess *w, int passes)
{
    int n = 0;
    for (int p = 0; p < passes; p++)
        for (uint64_t k = 0; k < 8; k++)
            w[n++] = strided(BASE + 4 * k, 4096 + LINE);
    return n;
}

/* h200: DRAM moves 64 B granules and the sector that came along stays in
 * L2, so lanes that each walk their own row (a warp's lanes a row apart,
 * warp k reading each row's sector k) read every byte from DRAM once: the
 * odd sectors hit in L2 (traces/more_kernels gemv_rows on the H200). */
START_TEST(dram_granule_fills_l2)
{
    GpuConfig *cfg = load("h200");
    ck_assert_uint_eq(cfg->dram_access_bytes, 2 * SECTOR);
    WarpAccess w[4];
    for (uint64_t k = 0; k < 4; k++)
        w[k] = strided(BASE + SECTOR * k, 4096 + LINE);
    MemCounters c = run_loads(cfg, w, 4);
    ck_assert_uint_eq(c.l1_sector_hits, 0);                /* L1 fetches sectors only */
    ck_assert_uint_eq(c.l2_sectors, 4 * 32);
    ck_assert_uint_eq(c.l2_sector_hits, 2 * 32);            /* sectors 1 and 3 */
    ck_assert_uint_eq(c.dram_bytes_read, 32 * LINE);        /* each line once */
    config_free(cfg);
}
END_TEST

/* The L2 serves loads at its configured rates: each transaction (a line's
 * sectors) costs 1 / requests_per_cycle plus 32 B / bytes_per_cycle per
 * sector, in fractions of a cycle fine enough for rates of hundreds of
 * sectors per cycle.  Warps of 32 one-sector transactions (or of one
 * four-sector line each) issued at once on 128 SMs, after another SM has
 * brought their lines into L2: the last is served that much later than
 * the first. */
static uint64_t l2_served_in(const char *const *overrides, uint64_t lane_stride, int nwarps)
{
    GpuConfig *cfg = load_with("h200", overrides);
    MemSys *ms = memsys_new(cfg, NULL);
    MemCounters c;
    memset(&c, 0, sizeof c);
    Insn in = load_insn();
    uint64_t first = UINT64_MAX, last = 0, now = 100000;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < nwarps; k++) {
            WarpAccess a = strided(BASE + (uint64_t)k * 32 * lane_stride, lane_stride);
            if (pass == 0) { /* into L2, from an SM not used below */
                (void)memsys_access(ms, 131, (uint64_t)k, &in, &a, 0, &c);
                continue;
            }
            uint64_t ready = memsys_access(ms, (uint32_t)k % 128, now, &in, &a, 0, &c).ready;
            first = MIN(first, ready);
            last = MAX(last, ready);
        }
    memsys_free(ms);
    config_free(cfg);
    return last - first;
}

START_TEST(l2_serves_at_its_rates)
{
    const char *const sectors_only[] = {"memory.l2.bytes_per_cycle=5846", "memory.l2.requests_per_cycle=0", NULL};
    const char *const both[] = {"memory.l2.bytes_per_cycle=5846", "memory.l2.requests_per_cycle=142.6", NULL};
    const int nwarps = 512;
    /* lanes a line apart: 32 transactions of one sector per warp */
    double n = 32.0 * nwarps, sector = 32.0 / 5846, request = 1 / 142.6;
    ck_assert_double_eq_tol((double)l2_served_in(sectors_only, 4096 + LINE, nwarps), (n - 1) * sector, 2.0);
    ck_assert_double_eq_tol((double)l2_served_in(both, 4096 + LINE, nwarps), (n - 1) * (sector + request), 2.0);
    /* lanes on consecutive words: one transaction of four sectors per warp */
    ck_assert_double_eq_tol((double)l2_served_in(both, 4, nwarps), (nwarps - 1) * (4 * sector + request), 2.0);
}
END_TEST

START_TEST(fermi_l1_miss_fetches_whole_line)
{
    /* gtx460: L1 of 128 B lines, not sectored, caching global loads */
    GpuConfig *cfg = load("gtx460");
    ck_assert_uint_eq(cfg->l1.sector_bytes, LINE);
    WarpAccess w[16];
    int n = scattered_stream(w, 2);
    MemCounters c = run_loads(cfg, w, n);
    uint64_t lines = distinct_units(w, n, LINE);
    ck_assert_uint_eq(lines, 32);
    /* each line misses once and comes from DRAM whole; everything else hits */
    ck_assert_uint_eq(c.dram_bytes_read, lines * LINE);
    ck_assert_uint_eq(c.l2_sectors, lines * (LINE / SECTOR));
    /* cc 2.x moves whole 128 B lines through L1: 4 sectors per line per warp */
    ck_assert_uint_eq(c.l1_sectors, (uint64_t)n * 32 * (LINE / SECTOR));
    ck_assert_uint_eq(c.l1_sector_hits, c.l1_sectors - lines * (LINE / SECTOR));
    config_free(cfg);
}
END_TEST

START_TEST(fermi_first_touch_counts_every_sector_missed)
{
    /* one warp reading 32 distinct lines: all 128 sectors miss (a line that
     * was not there is not partly a hit) */
    GpuConfig *cfg = load("gtx460");
    WarpAccess w = strided(BASE, LINE);
    MemCounters c = run_loads(cfg, &w, 1);
    ck_assert_uint_eq(c.l1_sectors, 32 * (LINE / SECTOR));
    ck_assert_uint_eq(c.l1_sector_hits, 0);
    ck_assert_uint_eq(c.dram_bytes_read, 32 * LINE);
    config_free(cfg);
}
END_TEST

START_TEST(sectored_l1_fetches_only_sectors_asked)
{
    /* h200: 32 B L1 sectors: a miss fetches its sector; DRAM moves
     * dram_access_bytes granules */
    GpuConfig *cfg = load("h200");
    ck_assert_uint_eq(cfg->l1.sector_bytes, SECTOR);
    WarpAccess w[16];
    int n = scattered_stream(w, 2);
    MemCounters c = run_loads(cfg, w, n);
    uint64_t sectors = distinct_units(w, n, SECTOR);
    uint64_t granule = MAX(cfg->dram_access_bytes, SECTOR);
    ck_assert_uint_eq(sectors, 32 * 8 * 4 / SECTOR);
    ck_assert_uint_eq(c.l1_sectors, (uint64_t)n * 32);           /* one sector per lane */
    ck_assert_uint_eq(c.l1_sector_hits, c.l1_sectors - sectors);  /* each sector misses once */
    ck_assert_uint_eq(c.l2_sectors, sectors);
    ck_assert_uint_eq(c.dram_bytes_read, distinct_units(w, n, granule) * granule);
    config_free(cfg);
}
END_TEST

/* The same warp load twice: a plain one hits L1 the second time; a
 * volatile one, or a relaxed or acquire one at gpu or system scope, goes
 * to L2 both times (L1 is not coherent), and so do .cg and .cv; at CTA
 * scope, or with .ca, L1 may serve it. */
START_TEST(strong_loads_bypass_l1)
{
    GpuConfig *cfg = load("h200");
    ck_assert(cfg->l1_caches_global);
    static const struct {
        uint8_t sem, scope, cache;
        bool hits;
    } cases[] = {
        {SEM_NONE, SCOPE_NONE, CACHE_NONE, true},      {SEM_WEAK, SCOPE_NONE, CACHE_NONE, true},
        {SEM_RELAXED, SCOPE_CTA, CACHE_NONE, true},    {SEM_NONE, SCOPE_NONE, CACHE_CA, true},
        {SEM_VOLATILE, SCOPE_NONE, CACHE_NONE, false}, {SEM_RELAXED, SCOPE_GPU, CACHE_NONE, false},
        {SEM_ACQUIRE, SCOPE_GPU, CACHE_NONE, false},   {SEM_ACQUIRE, SCOPE_SYS, CACHE_NONE, false},
        {SEM_RELAXED, SCOPE_CLUSTER, CACHE_NONE, false}, {SEM_NONE, SCOPE_NONE, CACHE_CG, false},
        {SEM_NONE, SCOPE_NONE, CACHE_CV, false},
    };
    for (size_t k = 0; k < G_N_ELEMENTS(cases); k++) {
        MemSys *ms = memsys_new(cfg, NULL);
        MemCounters c;
        memset(&c, 0, sizeof c);
        Insn in = load_insn();
        in.sem = cases[k].sem;
        in.scope = cases[k].scope;
        in.cache = cases[k].cache;
        WarpAccess w = strided(BASE, 4); /* one line, 4 sectors */
        (void)memsys_access(ms, 0, 0, &in, &w, 0, &c);
        (void)memsys_access(ms, 0, 1000, &in, &w, 0, &c);
        memsys_finish(ms, &c);
        if (cases[k].hits) {
            ck_assert_msg(c.l1_sectors == 8 && c.l1_sector_hits == 4, "case %zu", k);
            ck_assert_msg(c.l2_sectors == 4, "case %zu", k);
        } else {
            ck_assert_msg(c.l1_sectors == 0, "case %zu", k);
            ck_assert_msg(c.l2_sectors == 8, "case %zu: L2 sees both", k);
        }
        memsys_free(ms);
    }
    config_free(cfg);
}
END_TEST

/* memsys_access_sm + memsys_access_beyond give memsys_access's answers */
START_TEST(split_calls_equal_whole)
{
    static const char *const names[] = { "h200", "gtx1060", "k40", "gtx460", "gtx280", "8800gtx" };
    for (size_t k = 0; k < G_N_ELEMENTS(names); k++) {
        GpuConfig *cfg = load(names[k]);
        MemSys *whole = memsys_new(cfg, NULL), *split = memsys_new(cfg, NULL);
        MemCounters cw, cs;
        memset(&cw, 0, sizeof cw);
        memset(&cs, 0, sizeof cs);
        Insn ld = load_insn(), st = load_insn();
        st.op = OP_ST;
        uint32_t rng = 12345;
        for (uint64_t t = 0; t < 400; t++) {
            WarpAccess a;
            memset(&a, 0, sizeof a);
            a.mask = 0xFFFFFFFFu >> (t % 7);
            a.size = 4u << (t % 3);
            a.space = SPACE_GLOBAL;
            a.write = t % 5 == 0;
            for (int i = 0; i < 32; i++) {
                rng = rng * 1103515245u + 12345u;
                uint64_t word = t % 2 ? (uint64_t)i : (rng >> 8) % 4096;
                a.addr[i] = BASE + (word + t * 8) * a.size;
            }
            const Insn *in = a.write ? &st : &ld;
            uint32_t sm = (uint32_t)(t % cfg->num_sms);
            MemTiming mt = memsys_access(whole, sm, t, in, &a, 0, &cw);
            MemRequest r;
            uint32_t pipe = memsys_access_sm(split, sm, t, in, &a, 0, &cs, &r);
            uint64_t ready = memsys_access_beyond(split, t, &r, &cs);
            ck_assert_uint_eq(pipe, mt.pipe_cycles);
            ck_assert_uint_eq(ready, mt.ready);
        }
        memsys_finish(whole, &cw);
        memsys_finish(split, &cs);
        ck_assert_msg(memcmp(&cw, &cs, sizeof cw) == 0, "%s", names[k]);
        ck_assert_uint_gt(cw.dram_bytes_read, 0);
        memsys_free(whole);
        memsys_free(split);
        config_free(cfg);
    }
}
END_TEST

/* Accesses coalesced ahead (memsys_coalesce_ahead), then timed whole or
 * split, give what memsys_access gives for their addresses: loads, stores
 * and ld.global.nc of 1 to 16 B lanes, consecutive, strided, offset and
 * scattered, on every generation's rule. */
START_TEST(coalesced_ahead_equals_whole)
{
    static const char *const names[] = { "h200", "gtx1060", "k40", "gtx460", "gtx280", "9400m", "8800gtx" };
    for (size_t k = 0; k < G_N_ELEMENTS(names); k++) {
        GpuConfig *cfg = load(names[k]);
        MemSys *whole = memsys_new(cfg, NULL), *ahead = memsys_new(cfg, NULL), *split = memsys_new(cfg, NULL);
        MemCounters cw, ca, cs;
        memset(&cw, 0, sizeof cw);
        memset(&ca, 0, sizeof ca);
        memset(&cs, 0, sizeof cs);
        Insn ld = load_insn(), st = load_insn(), nc = load_insn();
        st.op = OP_ST;
        nc.flags |= FL_NC;
        uint32_t rng = 777, coalesced = 0, kept = 0;
        for (uint64_t t = 0; t < 600; t++) {
            WarpAccess a;
            memset(&a, 0, sizeof a);
            a.mask = t % 4 ? 0xFFFFFFFFu : 0xFFFFFFFFu >> (t % 29) << (t % 3);
            if (t % 50 == 7)
                a.mask = 0; /* a warp with no lane on the path */
            a.size = 1u << (t % 5);
            a.space = SPACE_GLOBAL;
            a.write = t % 3 == 0;
            uint64_t stride = (t / 5) % 6 == 5 ? 0 : 1ull << ((t / 5) % 6); /* in lanes' words; 0: scattered */
            for (int i = 0; i < 32; i++) {
                rng = rng * 1103515245u + 12345u;
                uint64_t word = stride ? (uint64_t)i * stride + t % 7 : (rng >> 8) % 8192;
                a.addr[i] = BASE + (word + t * 16) * a.size;
            }
            const Insn *in = a.write ? &st : t % 2 ? &nc : &ld;
            uint32_t sm = (uint32_t)(t % cfg->num_sms);
            MemTiming mt = memsys_access(whole, sm, t, in, &a, 0, &cw);
            CoalescedAccess pre;
            memset(&pre, 0xA5, sizeof pre); /* nothing unwritten may be read */
            if (!memsys_coalesce_ahead(ahead, in, &a, &pre)) { /* timed from its addresses then */
                kept++;
                (void)memsys_access(ahead, sm, t, in, &a, 0, &ca);
                (void)memsys_access(split, sm, t, in, &a, 0, &cs);
                continue;
            }
            coalesced++;
            MemTiming ma = memsys_access_coalesced(ahead, sm, t, in, &pre, &ca);
            MemRequest r;
            uint32_t pipe = memsys_access_sm_coalesced(split, sm, t, in, &pre, &cs, &r);
            uint64_t ready = memsys_access_beyond(split, t, &r, &cs);
            ck_assert_uint_eq(ma.pipe_cycles, mt.pipe_cycles);
            ck_assert_uint_eq(ma.ready, mt.ready);
            ck_assert_int_eq(ma.long_latency, mt.long_latency);
            ck_assert_uint_eq(pipe, mt.pipe_cycles);
            ck_assert_uint_eq(ready, mt.ready);
        }
        memsys_finish(whole, &cw);
        memsys_finish(ahead, &ca);
        memsys_finish(split, &cs);
        ck_assert_msg(memcmp(&cw, &ca, sizeof cw) == 0, "%s: whole and ahead differ", names[k]);
        ck_assert_msg(memcmp(&cw, &cs, sizeof cw) == 0, "%s: whole and split differ", names[k]);
        /* both kinds are there where the rule allows it: warps that fit
         * and those that keep their addresses (no lane on the path, lanes
         * over many lines, wide words in sub-requests); under cc 1.x every
         * warp keeps them */
        bool whole_lines = cfg->coalescing == COALESCE_SECTOR || cfg->coalescing == COALESCE_CC20;
        if (whole_lines)
            ck_assert_uint_gt(coalesced, 100);
        else
            ck_assert_uint_eq(coalesced, 0);
        ck_assert_uint_gt(kept, 100);
        memsys_free(whole);
        memsys_free(ahead);
        memsys_free(split);
        config_free(cfg);
    }
}
END_TEST

/* A shared atomic that adds the constant 1 (ATOMS.POPC.INC) updates a
 * word once for all its lanes, where one that adds another constant
 * updates it once per lane (H200 measurements in traces/shared_atomics/hw):
 * 32 lanes on one word are 1 and 32 wavefronts; on distinct banks 1 either
 * way. */
START_TEST(shared_counts_of_one_take_a_word_once)
{
    GpuConfig *cfg = load_with("h200", NULL);
    MemSys *ms = memsys_new(cfg, NULL);
    WarpAccess one = strided(64, 0), spread = strided(0, 4);
    one.space = spread.space = SPACE_SHARED;
    one.write = spread.write = true;
    for (int imm = 1; imm <= 3; imm += 2)
        for (int red = 0; red < 2; red++) {
            Insn in = load_insn();
            in.op = red ? OP_RED : OP_ATOM;
            in.space = SPACE_SHARED;
            in.atom = ATOM_ADD;
            in.type = PTX_TYPE_U32;
            in.nopd = red ? 2 : 3;
            in.opd[in.nopd - 1].kind = OPD_IMM;
            in.opd[in.nopd - 1].imm = imm;
            MemCounters c;
            memset(&c, 0, sizeof c);
            memsys_access(ms, 0, 100, &in, &one, 0, &c);
            ck_assert_uint_eq(c.shared_atom_wavefronts, imm == 1 ? 1 : 32);
            ck_assert_uint_eq(c.shared_atom_conflicts, imm == 1 ? 0 : 31);
            memsys_access(ms, 0, 100, &in, &spread, 0, &c);
            ck_assert_uint_eq(c.shared_atom_requests, 2);
            ck_assert_uint_eq(c.shared_atom_wavefronts, imm == 1 ? 2 : 33);
            /* a max of 1 is no count */
            in.atom = ATOM_MAX;
            memset(&c, 0, sizeof c);
            memsys_access(ms, 0, 100, &in, &one, 0, &c);
            ck_assert_uint_eq(c.shared_atom_wavefronts, 32);
        }
    memsys_free(ms);
    config_free(cfg);
}
END_TEST

/* Global atomics wait for their L2 atomic unit: requests to one part of
 * memory take turns, each holding the unit for one pass over each sector
 * it updates per lane on that sector's busiest address (a full pass, one
 * that updates every byte, costs atomic_full_sector_cycles; else
 * atomic_sector_cycles), while another unit's requests do not wait.  A
 * unit takes a request once L2 has taken it, so the two queues overlap:
 * measured against the same GPU without units, which gives when L2 takes
 * each request. */
static uint64_t atomic_ready(MemSys *ms, uint64_t now, const WarpAccess *w)
{
    Insn in = load_insn();
    in.op = OP_ATOM;
    in.type = PTX_TYPE_U32;
    MemCounters c;
    memset(&c, 0, sizeof c);
    return memsys_access(ms, 0, now, &in, w, 0, &c).ready;
}

START_TEST(atomics_take_turns_at_their_unit)
{
    static const char *const none[] = {"memory.atomic_units=0", NULL};
    static const char *const units[] = {"memory.atomic_units=4", "memory.atomic_unit_bytes=512",
                                        "memory.atomic_sector_cycles=1.5", "memory.atomic_full_sector_cycles=1.25",
                                        NULL};
    GpuConfig *plain = load_with("h200", none), *timed = load_with("h200", units);
    ck_assert(!plain->atomic_units);
    WarpAccess words = strided(BASE, 4), one = strided(BASE + 64, 0), next_unit = strided(BASE + 512, 4);
    WarpAccess spread = strided(BASE, 8), twice = strided(BASE, 4);
    for (int i = 0; i < 32; i++)
        twice.addr[i] = BASE + 4 * (uint64_t)(i % 16); /* 16 words of 2 sectors, 2 lanes each */
    /* in order: request, cycles after 100 at which its unit is free (exact
     * in memsys's fractions of a cycle) */
    struct { const WarpAccess *w; double wait; } seq[] = {
        {&words, 0},               /* unit 0 free */
        {&words, 4 * 1.25},        /* after the first: 4 full passes, one per sector */
        {&one, 10},                /* after two such */
        {&next_unit, 0},           /* unit 1: free */
        {&spread, 58 + 4 * 1.5},   /* after 32 lanes on one word (32 passes over its sector),
                                      its second line after its first (4 sectors, half of
                                      each updated) */
        {&twice, 58 + 8 * 1.5},    /* one line */
        {&words, 70 + 4 * 1.25},   /* 2 full passes over each of 2 sectors */
    };
    MemSys *a = memsys_new(plain, NULL), *b = memsys_new(timed, NULL);
    for (size_t k = 0; k < G_N_ELEMENTS(seq); k++) {
        uint64_t without = atomic_ready(a, 100, seq[k].w), with = atomic_ready(b, 100, seq[k].w);
        /* without units, lanes on one address add 2 cycles each instead */
        uint64_t same = seq[k].w == &one ? 31 * 2 : seq[k].w == &twice ? 2 : 0;
        uint64_t l2_takes = without - same - plain->atomic_latency, unit_free = 100 + (uint64_t)(seq[k].wait + 0.999);
        ck_assert_msg(with == MAX(l2_takes, unit_free) + timed->atomic_latency,
                      "request %zu: %" G_GUINT64_FORMAT " with units, %" G_GUINT64_FORMAT " without", k, with, without);
        ck_assert(k == 0 || l2_takes > 100); /* L2's queue is not empty: the two overlap */
    }
    /* the launch ends when the busiest unit is done: 100 + 75 + 5 */
    ck_assert_uint_eq(memsys_atomics_done(b), 180);
    ck_assert_uint_eq(memsys_atomics_done(a), 0);
    memsys_reset(b);
    ck_assert_uint_eq(memsys_atomics_done(b), 0);
    memsys_free(a);
    memsys_free(b);
    config_free(plain);
    config_free(timed);
}
END_TEST

/* A warp that finds a line in L1 while the miss that allocated it is still
 * on its way from L2 waits for it (no sooner than the miss plus L2's
 * latency); once it is back, a hit is a hit.  Per SM, per sector asked. */
START_TEST(hits_wait_for_a_fill_under_way)
{
    GpuConfig *cfg = load("h200");
    uint32_t l2 = cfg->l2.latency, l1 = cfg->l1.latency;
    ck_assert(cfg->l1_caches_global && l2 > l1 + 20);
    MemSys *ms = memsys_new(cfg, NULL);
    MemCounters c;
    memset(&c, 0, sizeof c);
    Insn in = load_insn();
    WarpAccess line = strided(BASE, 4), half = strided(BASE, 2), next = strided(BASE + 128, 4);
    uint64_t miss = memsys_access(ms, 0, 100, &in, &half, 0, &c).ready; /* sectors 0 to 2 */
    ck_assert_uint_ge(miss, 100 + l2);
    ck_assert_uint_eq(c.l1_sector_hits, 0);
    ck_assert_uint_eq(c.l1_sectors, 3);
    /* 10 cycles on, the same sectors: hits, which wait for the fill */
    ck_assert_uint_ge(memsys_access(ms, 0, 110, &in, &half, 0, &c).ready, 100 + l2);
    ck_assert_uint_eq(c.l1_sector_hits, 3);
    /* another SM has its own L1: a miss of its own */
    ck_assert_uint_ge(memsys_access(ms, 1, 110, &in, &half, 0, &c).ready, 110 + l2);
    /* the whole line: sectors 2 and 3 miss now, so it waits for them */
    ck_assert_uint_ge(memsys_access(ms, 0, 120, &in, &line, 0, &c).ready, 120 + l2);
    /* and the first sectors' fill is still remembered beside theirs */
    ck_assert_uint_ge(memsys_access(ms, 0, 130, &in, &half, 0, &c).ready, 100 + l2);
    /* after the fills: a plain hit */
    uint64_t later = 200 + 2 * (uint64_t)l2;
    ck_assert_uint_eq(memsys_access(ms, 0, later, &in, &line, 0, &c).ready, later + l1);
    /* the next line, never asked for while the first one filled, misses */
    ck_assert_uint_ge(memsys_access(ms, 0, later, &in, &next, 0, &c).ready, later + l2);
    /* a reset forgets the fills with the lines */
    memsys_reset(ms);
    (void)memsys_access(ms, 0, 5, &in, &line, 0, &c);
    ck_assert_uint_eq(memsys_access(ms, 0, 10 + 2 * (uint64_t)l2, &in, &line, 0, &c).ready, 10 + 2 * (uint64_t)l2 + l1);
    memsys_free(ms);
    config_free(cfg);
}
END_TEST

/* The same in L2, for the GPU's SMs together: SMs that ask for a line
 * while DRAM is still filling it (for another SM's miss a few cycles
 * before) wait for that fill, not just L2's latency; once it is in, a hit
 * in L2 is served at L2's latency.  Each SM misses in its own L1. */
START_TEST(l2_hits_wait_for_a_dram_fill_under_way)
{
    GpuConfig *cfg = load("h200");
    uint64_t l2 = cfg->l2.latency, dram = cfg->dram_latency;
    ck_assert(dram > 100);
    MemSys *ms = memsys_new(cfg, NULL);
    MemCounters c;
    memset(&c, 0, sizeof c);
    Insn in = load_insn();
    WarpAccess line = strided(BASE, 4);
    uint64_t first = memsys_access(ms, 0, 100, &in, &line, 0, &c).ready;
    ck_assert_uint_ge(first, 100 + l2 + dram);
    ck_assert_uint_eq(c.dram_bytes_read, LINE);
    /* 10 cycles on, SM 1: the L2's sectors are there (allocated by the
     * miss) but their data is not; it comes with the first SM's */
    uint64_t second = memsys_access(ms, 1, 110, &in, &line, 0, &c).ready;
    ck_assert_uint_eq(c.dram_bytes_read, LINE);      /* no second DRAM read */
    ck_assert_uint_eq(c.l2_sector_hits, 4);
    ck_assert_uint_ge(second, first);
    ck_assert_uint_lt(second, first + 10);
    /* once the fill is in: L2's latency */
    uint64_t later = first + 100;
    uint64_t third = memsys_access(ms, 2, later, &in, &line, 0, &c).ready;
    ck_assert_uint_ge(third, later + l2);
    ck_assert_uint_lt(third, later + l2 + dram / 2);
    /* a reset forgets L2's fills with its lines: a fill on its way at the
     * reset does not hold up the next launch's hits */
    memsys_reset(ms);
    (void)memsys_access(ms, 0, 1000, &in, &line, 0, &c);
    memsys_reset(ms);
    uint64_t again = memsys_access(ms, 0, 100, &in, &line, 0, &c).ready;
    ck_assert_uint_eq(again, first);
    uint64_t hit = memsys_access(ms, 1, again + 1, &in, &line, 0, &c).ready;
    ck_assert_uint_lt(hit, again + 1 + l2 + dram / 2);
    memsys_free(ms);
    config_free(cfg);
}
END_TEST

static Suite *memsys_suite(void)
{
    Suite *s = suite_create("memsys");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, fermi_l1_miss_fetches_whole_line);
    tcase_add_test(tc, fermi_first_touch_counts_every_sector_missed);
    tcase_add_test(tc, sectored_l1_fetches_only_sectors_asked);
    tcase_add_test(tc, dram_granule_fills_l2);
    tcase_add_test(tc, l2_serves_at_its_rates);
    tcase_add_test(tc, split_calls_equal_whole);
    tcase_add_test(tc, coalesced_ahead_equals_whole);
    tcase_add_test(tc, strong_loads_bypass_l1);
    tcase_add_test(tc, atomics_take_turns_at_their_unit);
    tcase_add_test(tc, shared_counts_of_one_take_a_word_once);
    tcase_add_test(tc, hits_wait_for_a_fill_under_way);
    tcase_add_test(tc, l2_hits_wait_for_a_dram_fill_under_way);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(memsys_suite());
}
