/* test_cache.c — hits, misses, LRU, sector fill and write-back counts of
 * the sectored cache on synthetic streams whose answers are known.
 *
 * Geometry used unless stated: 4 KiB, 128 B lines of four 32 B sectors,
 * 4 ways -> 8 sets; line L goes to set L mod 8, so lines 0, 8, 16, ... share
 * set 0 (addresses 1 KiB apart).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "testutil.h"

#define SIZE 4096u
#define LINE 128u
#define SECTOR 32u
#define SET_STRIDE (SIZE / 4)   /* bytes between lines of the same set */

static Cache *small_cache(void)
{
    CacheConfig cfg = { .size_bytes = SIZE, .line_bytes = LINE, .sector_bytes = SECTOR,
                        .assoc = 4, .latency = 1 };
    return cache_new(&cfg);
}

/* reads every sector of [0, bytes) once, in order; returns the hits */
static uint32_t read_pass(Cache *c, uint32_t bytes)
{
    uint32_t hits = 0;
    for (uint64_t a = 0; a < bytes; a += SECTOR)
        hits += cache_read(c, a).hit;
    return hits;
}

START_TEST(stream_larger_than_cache)
{
    /* 8 KiB streamed twice through 4 KiB of LRU: each set sees 8 lines in a
     * cycle through 4 ways, so every line is evicted before it comes back */
    Cache *c = small_cache();
    ck_assert_uint_eq(read_pass(c, 2 * SIZE), 0);
    ck_assert_uint_eq(read_pass(c, 2 * SIZE), 0);
    cache_free(c);
}
END_TEST

START_TEST(working_set_fits)
{
    Cache *c = small_cache();
    ck_assert_uint_eq(read_pass(c, SIZE), 0);
    ck_assert_uint_eq(read_pass(c, SIZE), SIZE / SECTOR);   /* 128 sectors, all hits */
    cache_free(c);
}
END_TEST

START_TEST(associativity_conflicts)
{
    Cache *c = small_cache();
    /* five lines of set 0 in a cycle through 4 ways: all misses under LRU */
    for (int round = 0; round < 3; round++)
        for (uint64_t k = 0; k < 5; k++)
            ck_assert(!cache_read(c, k * SET_STRIDE).hit);
    cache_invalidate(c);
    /* four lines fit: misses once, then hits */
    for (int round = 0; round < 3; round++)
        for (uint64_t k = 0; k < 4; k++)
            ck_assert_int_eq(cache_read(c, k * SET_STRIDE).hit, round > 0);
    /* other sets are untouched by set 0's traffic */
    ck_assert(!cache_read(c, LINE).hit);
    cache_free(c);
}
END_TEST

START_TEST(lru_order)
{
    Cache *c = small_cache();
    uint64_t A = 0, B = SET_STRIDE, C = 2 * SET_STRIDE, D = 3 * SET_STRIDE, E = 4 * SET_STRIDE;
    cache_read(c, A); cache_read(c, B); cache_read(c, C); cache_read(c, D);
    ck_assert(cache_read(c, A).hit);     /* A is now most recent; B least */
    ck_assert(!cache_read(c, E).hit);    /* evicts B */
    ck_assert(cache_read(c, A).hit);
    ck_assert(cache_read(c, C).hit);
    ck_assert(cache_read(c, D).hit);
    ck_assert(!cache_read(c, B).hit);    /* B was the victim; now evicts E */
    ck_assert(!cache_read(c, E).hit);
    cache_free(c);
}
END_TEST

START_TEST(sector_fill_on_read)
{
    Cache *c = small_cache();
    ck_assert(!cache_read(c, 0).hit);
    ck_assert(cache_read(c, 4).hit);         /* same sector */
    ck_assert(cache_read(c, 31).hit);
    CacheOutcome o = cache_read(c, 32);      /* same line, another sector */
    ck_assert(!o.hit);
    ck_assert_uint_eq(o.evicted_dirty, 0);
    ck_assert(cache_read(c, 32).hit);
    ck_assert(!cache_read(c, 96).hit);
    /* the line's other sector fill did not take a way: three more lines fit */
    for (uint64_t k = 1; k < 4; k++)
        cache_read(c, k * SET_STRIDE);
    ck_assert(cache_read(c, 0).hit);
    cache_free(c);
}
END_TEST

START_TEST(unsectored_line)
{
    CacheConfig cfg = { .size_bytes = SIZE, .line_bytes = LINE, .sector_bytes = LINE, .assoc = 4 };
    Cache *c = cache_new(&cfg);
    ck_assert(!cache_read(c, 0).hit);
    ck_assert(cache_read(c, 96).hit);        /* the whole line came in */
    ck_assert(!cache_read(c, 128).hit);
    cache_free(c);
}
END_TEST

START_TEST(write_allocate_no_fetch)
{
    Cache *c = small_cache();
    CacheOutcome o = cache_write(c, 64, true);
    ck_assert(!o.hit);
    ck_assert(cache_read(c, 64).hit);        /* the written sector is valid */
    ck_assert(!cache_read(c, 0).hit);        /* nothing else was fetched */
    ck_assert(cache_write(c, 64, true).hit);
    ck_assert_uint_eq(cache_flush_dirty(c), 1);
    cache_free(c);
}
END_TEST

START_TEST(write_no_allocate)
{
    Cache *c = small_cache();
    ck_assert(!cache_write(c, 0, false).hit);
    ck_assert(!cache_read(c, 0).hit);        /* the write did not allocate */
    ck_assert(cache_write(c, 0, false).hit); /* present now: updated in place */
    ck_assert(!cache_write(c, 32, false).hit); /* line present, sector not */
    ck_assert(!cache_read(c, 32).hit);
    ck_assert_uint_eq(cache_flush_dirty(c), 0);  /* write-through leaves nothing dirty */
    cache_free(c);
}
END_TEST

START_TEST(dirty_eviction)
{
    Cache *c = small_cache();
    /* line 0 of set 0 gets three dirty sectors and one clean one */
    cache_write(c, 0, true);
    cache_write(c, 32, true);
    cache_write(c, 64, true);
    cache_read(c, 96);
    /* three more lines of set 0 (one dirty sector each), then a fifth evicts line 0 */
    for (uint64_t k = 1; k < 4; k++)
        ck_assert_uint_eq(cache_write(c, k * SET_STRIDE, true).evicted_dirty, 0);
    CacheOutcome o = cache_read(c, 4 * SET_STRIDE);
    ck_assert(!o.hit);
    ck_assert_uint_eq(o.evicted_dirty, 3);
    /* next victim is line 1 of the set: one dirty sector, evicted by a write */
    o = cache_write(c, 5 * SET_STRIDE, true);
    ck_assert_uint_eq(o.evicted_dirty, 1);
    /* left dirty: lines 2, 3 (one each) and the line just written */
    ck_assert_uint_eq(cache_dirty_sectors(c), 3);
    ck_assert_uint_eq(cache_flush_dirty(c), 3);
    cache_free(c);
}
END_TEST

START_TEST(flush_and_invalidate)
{
    Cache *c = small_cache();
    for (uint64_t a = 0; a < 5 * SECTOR; a += SECTOR)   /* 5 sectors over 2 lines */
        cache_write(c, a, true);
    cache_write(c, 0, true);                            /* rewriting stays one sector */
    ck_assert_uint_eq(cache_dirty_sectors(c), 5);
    ck_assert_uint_eq(cache_flush_dirty(c), 5);
    ck_assert_uint_eq(cache_dirty_sectors(c), 0);
    ck_assert_uint_eq(cache_flush_dirty(c), 0);
    ck_assert(cache_read(c, 128).hit);                  /* flushing keeps the data */
    /* clean lines evict with nothing to write back */
    for (uint64_t k = 1; k <= 4; k++)
        ck_assert_uint_eq(cache_read(c, k * SET_STRIDE).evicted_dirty, 0);
    cache_invalidate(c);
    ck_assert(!cache_read(c, 128).hit);
    ck_assert_uint_eq(cache_flush_dirty(c), 0);
    cache_free(c);
}
END_TEST

/* A way's dirty bits belong to the line it held: after an invalidation
 * (or an eviction) the next line filled there starts clean, so evicting
 * it writes nothing back. */
START_TEST(refilled_ways_start_clean)
{
    Cache *c = small_cache();
    for (uint64_t k = 0; k < 4; k++)                    /* every way of set 0, all four sectors dirty */
        for (uint64_t s = 0; s < LINE; s += SECTOR)
            cache_write(c, k * SET_STRIDE + s, true);
    cache_invalidate(c);
    for (uint64_t k = 4; k < 8; k++)                    /* the same ways, filled by reads */
        ck_assert_uint_eq(cache_read(c, k * SET_STRIDE).evicted_dirty, 0);
    for (uint64_t k = 8; k < 12; k++)                   /* and evicted: clean */
        ck_assert_uint_eq(cache_read(c, k * SET_STRIDE).evicted_dirty, 0);
    ck_assert_uint_eq(cache_flush_dirty(c), 0);
    /* an eviction leaves its way clean for the line that replaces it */
    cache_write(c, 12 * SET_STRIDE, true);              /* evicts line 8, dirties the way */
    for (uint64_t k = 13; k < 16; k++)                  /* three more: line 12 is oldest after them */
        cache_read(c, k * SET_STRIDE);
    ck_assert_uint_eq(cache_read(c, 16 * SET_STRIDE).evicted_dirty, 1);
    for (uint64_t k = 17; k < 20; k++)                  /* evict 13, 14, 15 */
        ck_assert_uint_eq(cache_read(c, k * SET_STRIDE).evicted_dirty, 0);
    ck_assert_uint_eq(cache_read(c, 20 * SET_STRIDE).evicted_dirty, 0); /* 16, in line 12's old way */
    ck_assert_uint_eq(cache_flush_dirty(c), 0);
    cache_free(c);
}
END_TEST

START_TEST(size_zero)
{
    CacheConfig cfg = { .size_bytes = 0, .line_bytes = LINE, .sector_bytes = SECTOR, .assoc = 4 };
    Cache *c = cache_new(&cfg);
    for (int i = 0; i < 3; i++) {
        ck_assert(!cache_read(c, 0).hit);
        CacheOutcome o = cache_write(c, 0, true);
        ck_assert(!o.hit);
        ck_assert_uint_eq(o.evicted_dirty, 0);
    }
    ck_assert_uint_eq(cache_flush_dirty(c), 0);
    cache_invalidate(c);
    cache_free(c);
}
END_TEST

START_TEST(fully_associative_small)
{
    /* 512 B with 8 ways of 128 B lines: one set of 4 lines */
    CacheConfig cfg = { .size_bytes = 512, .line_bytes = LINE, .sector_bytes = SECTOR, .assoc = 8 };
    Cache *c = cache_new(&cfg);
    for (uint64_t k = 0; k < 4; k++)
        cache_read(c, k * 1000 * LINE);
    for (uint64_t k = 0; k < 4; k++)
        ck_assert(cache_read(c, k * 1000 * LINE).hit);
    ck_assert(!cache_read(c, 4000 * LINE).hit);
    ck_assert(!cache_read(c, 0).hit);                   /* line 0 was LRU */
    cache_free(c);
}
END_TEST

/* A small deterministic generator (tests must not depend on libc's rand). */
static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

/* The same random stream of transactions (32 B aligned, 1 to 4 sectors of
 * 32 B, reads, write-allocates and write-throughs) goes to two caches of
 * one geometry: one gets the multi-sector calls, the other the single
 * calls on each sector in ascending order.  Every hit, eviction and the
 * final dirty count must agree. */
static void check_grouped_equals_single(CacheConfig cfg, uint64_t span, int steps, uint32_t clock_limit)
{
    Cache *grouped = cache_new(&cfg), *single = cache_new(&cfg);
    if (clock_limit)
        cache_set_clock_limit(grouped, clock_limit);
    uint64_t state = 12345 + cfg.size_bytes + cfg.line_bytes + cfg.sector_bytes;
    for (int step = 0; step < steps; step++) {
        uint64_t addr = (next_random(&state) % span) & ~(uint64_t)31;
        uint32_t sectors = (uint32_t)next_random(&state) & 0xF;
        int kind = (int)(next_random(&state) % 3);
        uint32_t ev_grouped = 0, ev_single = 0, hits_single = 0;
        uint32_t hits_grouped = kind == 0 ? cache_read_sectors(grouped, addr, sectors, &ev_grouped)
                                          : cache_write_sectors(grouped, addr, sectors, kind == 1, &ev_grouped);
        for (uint32_t s = 0; s < 4; s++) {
            if (!(sectors >> s & 1))
                continue;
            CacheOutcome o = kind == 0 ? cache_read(single, addr + 32 * s)
                                       : cache_write(single, addr + 32 * s, kind == 1);
            hits_single |= (uint32_t)o.hit << s;
            ev_single += o.evicted_dirty;
        }
        ck_assert_uint_eq(hits_grouped, hits_single);
        ck_assert_uint_eq(ev_grouped, ev_single);
    }
    ck_assert_uint_eq(cache_flush_dirty(grouped), cache_flush_dirty(single));
    cache_free(grouped);
    cache_free(single);
}

START_TEST(grouped_sectors_match_single_calls)
{
    /* 4 KiB of 128 B lines (the transaction never leaves its line), 64 B
     * and 32 B lines (it spans 2 or 4 lines), unsectored lines, 16 B
     * sectors, and set counts that are not powers of two (3, 5, 6) */
    static const CacheConfig geometries[] = {
        { .size_bytes = 4096, .line_bytes = 128, .sector_bytes = 32, .assoc = 4 },
        { .size_bytes = 4096, .line_bytes = 64, .sector_bytes = 32, .assoc = 2 },
        { .size_bytes = 2048, .line_bytes = 32, .sector_bytes = 32, .assoc = 4 },
        { .size_bytes = 4096, .line_bytes = 128, .sector_bytes = 128, .assoc = 4 },
        { .size_bytes = 4096, .line_bytes = 128, .sector_bytes = 16, .assoc = 2 },
        { .size_bytes = 3 * 4 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 4 },
        { .size_bytes = 5 * 16 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 16 },
        { .size_bytes = 6 * 1 * 256, .line_bytes = 256, .sector_bytes = 32, .assoc = 1 },
    };
    for (size_t g = 0; g < sizeof geometries / sizeof geometries[0]; g++)
        check_grouped_equals_single(geometries[g], 4 * geometries[g].size_bytes, 20000, 0);
}
END_TEST

/* A plain LRU model, to check the cache against where every set holds
 * many lines (ways past the fourth live apart from a set's first ones:
 * cache.c).  Single 32 B sectors of 128 B lines. */
typedef struct {
    uint64_t line;
    uint32_t valid, dirty;
    uint64_t used;      /* 0: empty */
} RefWay;

static bool ref_access(RefWay *set, uint32_t assoc, uint64_t line, uint32_t bit, int kind, uint64_t *clock,
                       uint32_t *evicted_dirty)
{
    RefWay *w = NULL;
    for (uint32_t i = 0; i < assoc; i++)
        if (set[i].used && set[i].line == line)
            w = &set[i];
    if (!w) {
        if (kind == 2)
            return false; /* write-through of an absent line: passes by */
        w = &set[0];
        for (uint32_t i = 1; i < assoc; i++)
            if (set[i].used < w->used)
                w = &set[i];
        if (w->used)
            *evicted_dirty += (uint32_t)__builtin_popcount(w->dirty);
        *w = (RefWay){.line = line};
    }
    bool hit = (w->valid & bit) != 0;
    if (kind == 2 && !hit)
        return false; /* only a present sector is written through */
    if (kind != 2)
        w->valid |= bit;
    if (kind == 1)
        w->dirty |= bit;
    w->used = ++*clock;
    return hit;
}

START_TEST(many_ways_match_plain_lru)
{
    static const uint32_t assocs[] = {5, 6, 8, 16, 32};
    for (size_t g = 0; g < sizeof assocs / sizeof assocs[0]; g++) {
        uint32_t assoc = assocs[g], nsets = 3;
        CacheConfig cfg = { .size_bytes = nsets * assoc * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = assoc };
        Cache *c = cache_new(&cfg);
        RefWay *ref = calloc((size_t)nsets * assoc, sizeof *ref);
        uint64_t clock = 0, state = 777 + assoc;
        uint32_t ev_cache = 0, ev_ref = 0;
        for (int step = 0; step < 40000; step++) {
            /* lines over 1.5 times what the cache holds, so sets fill and evict */
            uint64_t line = next_random(&state) % (nsets * assoc * 3 / 2);
            uint32_t sector = (uint32_t)(next_random(&state) % 4);
            int kind = (int)(next_random(&state) % 3);
            CacheOutcome o = kind == 0 ? cache_read(c, line * 128 + 32 * sector)
                                       : cache_write(c, line * 128 + 32 * sector, kind == 1);
            bool hit = ref_access(&ref[(line % nsets) * assoc], assoc, line, 1u << sector, kind, &clock, &ev_ref);
            ev_cache += o.evicted_dirty;
            ck_assert_int_eq(o.hit, hit);
            ck_assert_uint_eq(ev_cache, ev_ref);
        }
        uint64_t dirty_ref = 0;
        for (size_t i = 0; i < (size_t)nsets * assoc; i++)
            dirty_ref += ref[i].used ? (uint64_t)__builtin_popcount(ref[i].dirty) : 0;
        ck_assert_uint_eq(cache_flush_dirty(c), dirty_ref);
        free(ref);
        cache_free(c);
    }
}
END_TEST

START_TEST(lru_clock_renumbering_keeps_order)
{
    /* the LRU clock renumbered every few dozen uses (rather than at 2^32)
     * must choose the same victims as a cache that never renumbers */
    CacheConfig cfg = { .size_bytes = 5 * 4 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 4 };
    check_grouped_equals_single(cfg, 3 * cfg.size_bytes, 20000, 40);
    CacheConfig wide = { .size_bytes = 2 * 16 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 16 };
    check_grouped_equals_single(wide, 2 * wide.size_bytes, 20000, 1);
}
END_TEST

START_TEST(sets_not_power_of_two_at_large_addresses)
{
    /* 3 sets of 1 way: line L goes to set L mod 3, also for addresses far
     * above 2^32 (where a remainder done in 32 bits would go wrong) */
    CacheConfig cfg = { .size_bytes = 3 * LINE, .line_bytes = LINE, .sector_bytes = SECTOR, .assoc = 1 };
    static const uint64_t lines[] = { 0, 1, 2, 1ull << 33, (1ull << 40) + 7, (1ull << 56) - 1, UINT64_MAX / LINE };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        for (uint64_t d = 1; d <= 6; d++) {
            uint64_t a = lines[i], b = lines[i] - d;   /* wraps below 0 for small lines: still a line */
            if (b > UINT64_MAX / LINE)
                continue;
            Cache *c = cache_new(&cfg);
            cache_read(c, a * LINE);
            cache_read(c, b * LINE);
            /* b evicts a exactly when they share a set */
            ck_assert_int_eq(cache_read(c, a * LINE).hit, a % 3 != b % 3);
            cache_free(c);
        }
    }
}
END_TEST

/* Caches whose sets live side by side in the caller's block, which starts
 * full of garbage, must answer like caches that own their sets: a stream
 * split between two neighbours, invalidated half way (stale blocks again),
 * gives each the hits, evictions and dirty count of its reference. */
/* Sets take blocks in the order of their first use, so accesses that reach
 * k sets, however scattered, change only the first k sets' worth of the
 * caller's block (what keeps a launch's host pages few); a write that
 * passes through a set never used changes nothing; the hits are those of
 * a cache of its own. */
START_TEST(sets_take_blocks_in_order_of_use)
{
    /* 448 sets (not a power of two), as an H200 SM's L1; 16-way, as its L2 */
    static const CacheConfig geometries[] = {
        { .size_bytes = 448 * 4 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 4 },
        { .size_bytes = 64 * 16 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 16 },
    };
    for (size_t g = 0; g < sizeof geometries / sizeof geometries[0]; g++) {
        const CacheConfig *cfg = &geometries[g];
        uint32_t nsets = cfg->size_bytes / cfg->line_bytes / cfg->assoc;
        size_t n = cache_sets_bytes(cfg, UINT64_MAX);
        uint8_t *block = malloc(n);
        memset(block, 0xA5, n);
        Cache *c = cache_new_in(cfg, block, UINT64_MAX), *own = cache_new(cfg);
        uint32_t ev = 0;
        /* writes through, to sets nothing read: no byte changes */
        for (uint32_t k = 0; k < 8; k++) {
            uint64_t addr = (uint64_t)(k * 37 % nsets) * cfg->line_bytes;
            ck_assert_uint_eq(cache_write_sectors(c, addr, 1, false, &ev), 0);
            ck_assert_uint_eq(cache_write_sectors(own, addr, 1, false, &ev), 0);
        }
        for (size_t b = 0; b < n; b++)
            ck_assert_uint_eq(block[b], 0xA5);
        /* 5 sets far apart, a line each, twice: the second time hits */
        static const uint32_t sets[] = { 3, 56, 17, 25, 0 };
        for (int round = 0; round < 2; round++)
            for (uint32_t k = 0; k < 5; k++) {
                uint64_t addr = ((uint64_t)k * nsets + sets[k]) * cfg->line_bytes;
                uint32_t hit = cache_read_sectors(c, addr, 0xF, &ev);
                ck_assert_uint_eq(hit, cache_read_sectors(own, addr, 0xF, &ev));
                ck_assert_uint_eq(hit, round ? 0xFu : 0u);
            }
        /* a set's share of the block is n / nsets: what changed lies in
         * the first five shares (by set index, sets 56 and 25 lie far
         * past them) */
        size_t changed = 0;
        for (size_t b = 0; b < n; b++)
            if (block[b] != 0xA5) {
                ck_assert_uint_lt(b, 5 * (n / nsets));
                changed++;
            }
        ck_assert_uint_ge(changed, 5 * 8); /* a tag per set, at least */
        cache_free(c);
        cache_free(own);
        free(block);
    }
}
END_TEST

START_TEST(sets_in_callers_block)
{
    static const CacheConfig geometries[] = {
        { .size_bytes = 4096, .line_bytes = 128, .sector_bytes = 32, .assoc = 4 },
        { .size_bytes = 5 * 6 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 5 },
        { .size_bytes = 3 * 2 * 64, .line_bytes = 64, .sector_bytes = 32, .assoc = 2 },
        { .size_bytes = 4096, .line_bytes = 128, .sector_bytes = 128, .assoc = 4 },
    };
    for (size_t g = 0; g < sizeof geometries / sizeof geometries[0]; g++) {
        const CacheConfig *cfg = &geometries[g];
        size_t n = cache_sets_bytes(cfg, UINT64_MAX);
        ck_assert_uint_gt(n, 0);
        ck_assert_uint_eq(n % 4, 0); /* the next cache's sets stay aligned (cache.h) */
        uint8_t *block = malloc(2 * n);
        memset(block, 0xA5, 2 * n);
        Cache *in[2] = { cache_new_in(cfg, block, UINT64_MAX), cache_new_in(cfg, block + n, UINT64_MAX) };
        Cache *own[2] = { cache_new(cfg), cache_new(cfg) };
        uint64_t state = 777 + g;
        for (int step = 0; step < 20000; step++) {
            int k = (int)(next_random(&state) & 1);
            uint64_t addr = (next_random(&state) % (4 * cfg->size_bytes)) & ~(uint64_t)31;
            uint32_t sectors = 1u << (next_random(&state) % 4);
            int kind = (int)(next_random(&state) % 3);
            uint32_t ev_in = 0, ev_own = 0;
            uint32_t hit_in = kind == 0 ? cache_read_sectors(in[k], addr, sectors, &ev_in)
                                        : cache_write_sectors(in[k], addr, sectors, kind == 1, &ev_in);
            uint32_t hit_own = kind == 0 ? cache_read_sectors(own[k], addr, sectors, &ev_own)
                                         : cache_write_sectors(own[k], addr, sectors, kind == 1, &ev_own);
            ck_assert_uint_eq(hit_in, hit_own);
            ck_assert_uint_eq(ev_in, ev_own);
            if (step == 10000)
                for (int j = 0; j < 2; j++) {
                    ck_assert_uint_eq(cache_flush_dirty(in[j]), cache_flush_dirty(own[j]));
                    cache_invalidate(in[j]);
                    cache_invalidate(own[j]);
                }
        }
        for (int j = 0; j < 2; j++) {
            ck_assert_uint_eq(cache_flush_dirty(in[j]), cache_flush_dirty(own[j]));
            cache_free(in[j]);
            cache_free(own[j]);
        }
        free(block);
    }
}
END_TEST

/* The ways in a set's own part for a reach of `bytes` (cache.c): the lines
 * from any start that one set can get, 1 to 4. */
static uint32_t near_ways_for_reach(const CacheConfig *cfg, uint64_t bytes)
{
    uint32_t nsets = cfg->size_bytes / (cfg->line_bytes * cfg->assoc);
    uint64_t lines = bytes / cfg->line_bytes + 2, per_set = (lines + nsets - 1) / nsets;
    uint32_t most = cfg->assoc < 4 ? cfg->assoc : 4;
    return per_set < 1 ? 1 : per_set > most ? most : (uint32_t)per_set;
}

/* What a stream over `bytes` from any start uses of a set block laid out
 * with `near_ways` ways in each set's own part: a part per distinct line,
 * up to every set's; the whole block once some set holds more lines. */
static size_t used_in_layout(const CacheConfig *cfg, uint32_t near_ways, uint64_t bytes)
{
    uint32_t nsets = cfg->size_bytes / (cfg->line_bytes * cfg->assoc);
    uint64_t lines = bytes / cfg->line_bytes + 2;
    if (lines > (uint64_t)nsets * near_ways)
        return nsets * (4 + 20 * (size_t)cfg->assoc);
    return (lines < nsets ? lines : nsets) * (4 + 20 * (size_t)near_ways);
}

/* cache_sets_used_bytes() bounds what a stream over that many bytes, from
 * any start, touches of the set block of a cache laid out for that reach
 * (the blocks it changes: the block starts full of garbage).  The block is
 * each set's count and first ways (as many as the reach can put in a set,
 * up to four), set by set, then the sets' other ways (cache.c): a stream
 * that reaches every set touches all of the first part, and only one that
 * puts more lines in a set touches the second; the bound is met by a
 * stream that ends 1 byte into a line. */
START_TEST(sets_used_bound)
{
    static const CacheConfig geometries[] = {
        { .size_bytes = 4096, .line_bytes = 128, .sector_bytes = 32, .assoc = 4 },
        { .size_bytes = 5 * 6 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 5 },
        { .size_bytes = 16 * 8 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 16 },
        { .size_bytes = 0, .line_bytes = 128, .sector_bytes = 32, .assoc = 4 },
    };
    for (size_t g = 0; g < sizeof geometries / sizeof geometries[0]; g++) {
        const CacheConfig *cfg = &geometries[g];
        size_t whole = cache_sets_bytes(cfg, UINT64_MAX);
        if (!whole) {
            ck_assert_uint_eq(cache_sets_used_bytes(cfg, 1 << 20), 0);
            continue;
        }
        uint32_t nsets = cfg->size_bytes / (cfg->line_bytes * cfg->assoc);
        uint32_t most = cfg->assoc < 4 ? cfg->assoc : 4;
        ck_assert_uint_eq(whole, nsets * (4 + 20 * (size_t)cfg->assoc));
        /* a reach of a few lines: one way in each set's part */
        ck_assert_uint_eq(cache_sets_used_bytes(cfg, 0), 2 * (4 + 20));
        ck_assert_uint_eq(cache_sets_bytes(cfg, 0), nsets * (4 + 20 * (size_t)cfg->assoc));
        /* one line a set: every set's part of one way */
        ck_assert_uint_eq(cache_sets_used_bytes(cfg, (uint64_t)(nsets - 2) * cfg->line_bytes), nsets * (4 + 20));
        /* as many as fit in the parts: all of them */
        ck_assert_uint_eq(cache_sets_used_bytes(cfg, (uint64_t)(nsets * most - 2) * cfg->line_bytes),
                          nsets * (4 + 20 * (size_t)most));
        ck_assert_uint_eq(cache_sets_used_bytes(cfg, UINT64_MAX), whole);
        uint8_t *block = malloc(whole);
        uint64_t state = 99 + g;
        for (int trial = 0; trial < 200; trial++) {
            uint64_t start = next_random(&state) % (1u << 20), bytes = 1 + next_random(&state) % (2 * cfg->size_bytes);
            bool tight = trial % 2 && bytes < (nsets - 2) * cfg->line_bytes;
            if (tight) { /* from the last byte of a line to the first of another */
                start = start / cfg->line_bytes * cfg->line_bytes + cfg->line_bytes - 1;
                bytes = bytes / cfg->line_bytes * cfg->line_bytes + 2;
            }
            memset(block, 0xA5, whole);
            /* laid out for this reach, or for any (trial % 3 == 2) */
            uint64_t reach = trial % 3 == 2 ? UINT64_MAX : bytes;
            uint32_t near_ways = reach == UINT64_MAX ? most : near_ways_for_reach(cfg, bytes);
            size_t near_bytes = 4 + 20 * (size_t)near_ways, far_bytes = 20 * (size_t)(cfg->assoc - near_ways);
            ck_assert_uint_eq(cache_sets_bytes(cfg, reach), whole);
            Cache *c = cache_new_in(cfg, block, reach);
            for (uint64_t a = start & ~(uint64_t)31; a < start + bytes; a += 32)
                cache_read(c, a);
            size_t touched = 0;
            for (uint32_t s = 0; s < nsets; s++) {
                for (size_t b = 0; b < near_bytes; b++)
                    if (block[s * near_bytes + b] != 0xA5) {
                        touched += near_bytes;
                        break;
                    }
                for (size_t b = 0; b < far_bytes; b++)
                    if (block[nsets * near_bytes + s * far_bytes + b] != 0xA5) {
                        touched += far_bytes;
                        break;
                    }
            }
            /* the bound of the layout the cache has */
            ck_assert_uint_eq(cache_sets_used_bytes(cfg, bytes),
                              used_in_layout(cfg, near_ways_for_reach(cfg, bytes), bytes));
            size_t bound = used_in_layout(cfg, near_ways, bytes);
            ck_assert_uint_le(touched, bound);
            if (tight)
                ck_assert_uint_eq(touched, bound);
            cache_free(c);
        }
        free(block);
    }
}
END_TEST

/* A cache laid out for a small reach (one, two, three ways in each set's
 * own part) gives the results of one laid out for any, on a stream that
 * puts more lines in its sets than the reach said (its far ways in use),
 * with the LRU clock renumbered often. */
START_TEST(layout_for_reach_changes_nothing)
{
    static const CacheConfig geometries[] = {
        { .size_bytes = 160 * 16 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 16 },
        { .size_bytes = 448 * 4 * 128, .line_bytes = 128, .sector_bytes = 32, .assoc = 4 },
        { .size_bytes = 6 * 5 * 64, .line_bytes = 64, .sector_bytes = 32, .assoc = 5 },
    };
    for (size_t g = 0; g < sizeof geometries / sizeof geometries[0]; g++) {
        const CacheConfig *cfg = &geometries[g];
        uint64_t set_lines = (uint64_t)cfg->size_bytes / cfg->assoc; /* a line in every set */
        const uint64_t reaches[] = { 0, set_lines - 2 * cfg->line_bytes, 2 * set_lines - 2 * cfg->line_bytes,
                                     3 * set_lines - 2 * cfg->line_bytes };
        for (size_t r = 0; r < sizeof reaches / sizeof reaches[0]; r++) {
            ck_assert_uint_eq(near_ways_for_reach(cfg, reaches[r]), r ? r : 1);
            Cache *laid = cache_new_in(cfg, NULL, reaches[r]), *any = cache_new(cfg);
            cache_set_clock_limit(laid, 300);
            cache_set_clock_limit(any, 500);
            uint64_t state = 4242 + g * 10 + r;
            for (int i = 0; i < 8000; i++) {
                uint64_t addr = (next_random(&state) % (3 * (uint64_t)cfg->size_bytes)) & ~(uint64_t)31;
                uint32_t sectors = (uint32_t)next_random(&state) & 0xF;
                int kind = (int)(next_random(&state) % 3);
                uint32_t e1 = 0, e2 = 0;
                uint32_t h1 = kind == 0 ? cache_read_sectors(laid, addr, sectors, &e1)
                                        : cache_write_sectors(laid, addr, sectors, kind == 1, &e1);
                uint32_t h2 = kind == 0 ? cache_read_sectors(any, addr, sectors, &e2)
                                        : cache_write_sectors(any, addr, sectors, kind == 1, &e2);
                ck_assert_uint_eq(h1, h2);
                ck_assert_uint_eq(e1, e2);
            }
            ck_assert_uint_eq(cache_flush_dirty(laid), cache_flush_dirty(any));
            cache_free(laid);
            cache_free(any);
        }
    }
}
END_TEST

static Suite *cache_suite(void)
{
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, stream_larger_than_cache);
    tcase_add_test(tc, working_set_fits);
    tcase_add_test(tc, associativity_conflicts);
    tcase_add_test(tc, lru_order);
    tcase_add_test(tc, sector_fill_on_read);
    tcase_add_test(tc, unsectored_line);
    tcase_add_test(tc, write_allocate_no_fetch);
    tcase_add_test(tc, write_no_allocate);
    tcase_add_test(tc, dirty_eviction);
    tcase_add_test(tc, flush_and_invalidate);
    tcase_add_test(tc, refilled_ways_start_clean);
    tcase_add_test(tc, size_zero);
    tcase_add_test(tc, fully_associative_small);
    tcase_add_test(tc, many_ways_match_plain_lru);
    tcase_add_test(tc, grouped_sectors_match_single_calls);
    tcase_add_test(tc, lru_clock_renumbering_keeps_order);
    tcase_add_test(tc, sets_not_power_of_two_at_large_addresses);
    tcase_add_test(tc, sets_in_callers_block);
    tcase_add_test(tc, sets_take_blocks_in_order_of_use);
    tcase_add_test(tc, sets_used_bound);
    tcase_add_test(tc, layout_for_reach_changes_nothing);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(cache_suite());
}
