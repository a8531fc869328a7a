/* cache.c — sectored set-associative LRU cache (contract in cache.h).
 *
 * Geometry: sets = size / (line * assoc); a line is present when any of its
 * sectors is valid.  A geometry that cannot hold one line (size 0, or zero
 * line/assoc) gives a cache that holds nothing.  Writes are modelled per
 * sector: a write fills the whole sector it names.
 *
 * LRU is exact: the cache counts uses and every line keeps the count of its
 * last one, so the victim is the smallest stamp of its set (an empty way
 * first).  Stamps are 32 bits; before the count would wrap, every set's
 * stamps are renumbered 1, 2, ... in their order, which keeps every choice
 * the same.  One set's state is one block: its tags, then its ways' valid
 * bits and stamps (64 B, one host cache line, for 4 ways), so a lookup and
 * the update after it touch the same lines; dirty bits, which only
 * write-allocate caches use, live apart and are made by the first one.  The blocks are allocated zeroed
 * and untouched, so sets that are never used cost no memory.
 * The set of a line is line mod sets: a mask when the set count is a power
 * of two, else a multiply-shift remainder (exact for every 64-bit line, and
 * cheaper than a 64-bit division).  The multi-sector calls do one lookup
 * per line and then the per-sector bookkeeping of the single calls in
 * order, so their results are those of the single calls.
 */
#include "cache.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#define HOST_LINE 64u
/* the most uses one call adds to the clock: 32 sectors */
#define MAX_USES_PER_CALL 32u

struct Cache {
    uint32_t line_bytes;
    uint32_t sector_bytes;
    uint32_t assoc;
    uint32_t nsets;          /* 0: the cache holds nothing */
    int line_shift;          /* log2(line_bytes), or -1 when not a power of two */
    int sector_shift;        /* log2(sector_bytes), or -1 */
    bool set_pow2;           /* nsets is a power of two: set = line & (nsets - 1) */
#ifdef __SIZEOF_INT128__
    __extension__ unsigned __int128 set_magic; /* ceil(2^128 / nsets), for set_of() */
#endif
    size_t set_bytes;        /* 16 * assoc: per set, assoc tags (uint64_t: address /
                                line_bytes + 1, 0 when empty), then assoc valid masks
                                and assoc stamps (uint32_t) */
    uint8_t *sets;           /* nsets * set_bytes, HOST_LINE aligned */
    void *sets_alloc;        /* what to free */
    uint32_t *dirty;         /* nsets * assoc, bit i: sector i modified (subset of
                                valid); NULL until the first write-allocate */
    uint64_t *dirty_sets;    /* bit per set: may hold dirty sectors (so a flush
                                reads only those, not the whole array); with dirty */
    uint32_t clock;          /* uses so far (since the last renumbering) */
    uint32_t clock_limit;    /* renumber rather than pass it */
};

static int log2_exact(uint32_t v)
{
    return v && (v & (v - 1)) == 0 ? __builtin_ctz(v) : -1;
}

/* without -mpopcnt, __builtin_popcount is a library call */
static inline uint32_t popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

static inline uint64_t *set_tags(const Cache *c, size_t set)
{
    return (uint64_t *)(void *)(c->sets + set * c->set_bytes);
}

static inline uint32_t *set_valid(const Cache *c, size_t set)
{
    return (uint32_t *)(void *)(c->sets + set * c->set_bytes + 8 * (size_t)c->assoc);
}

static inline uint32_t *set_stamps(const Cache *c, size_t set)
{
    return (uint32_t *)(void *)(c->sets + set * c->set_bytes + 12 * (size_t)c->assoc);
}

Cache *cache_new(const CacheConfig *cfg)
{
    Cache *c = g_new0(Cache, 1);
    c->line_bytes = cfg->line_bytes;
    c->sector_bytes = cfg->sector_bytes;
    if (c->sector_bytes == 0 || c->sector_bytes > c->line_bytes)
        c->sector_bytes = c->line_bytes;         /* not sectored */
    if (c->line_bytes / 32 > c->sector_bytes)
        c->sector_bytes = c->line_bytes / 32;    /* the bit masks hold 32 sectors */
    c->assoc = cfg->assoc;
    c->line_shift = log2_exact(c->line_bytes);
    c->sector_shift = log2_exact(c->sector_bytes);
    if (cfg->size_bytes == 0 || c->line_bytes == 0 || c->assoc == 0)
        return c;
    uint64_t lines = cfg->size_bytes / c->line_bytes;
    if (lines < c->assoc)
        c->assoc = (uint32_t)lines;              /* smaller than one set: fully associative */
    if (c->assoc == 0)
        return c;
    c->nsets = (uint32_t)(lines / c->assoc);
    c->set_pow2 = (c->nsets & (c->nsets - 1)) == 0;
#ifdef __SIZEOF_INT128__
    if (!c->set_pow2)
        c->set_magic = ~(__extension__ (unsigned __int128)0) / c->nsets + 1;
#endif
    c->set_bytes = 16 * (size_t)c->assoc;
    /* zeroed by calloc: a large block comes as untouched zero pages */
    c->sets_alloc = g_malloc0((gsize)c->nsets * c->set_bytes + HOST_LINE);
    c->sets = (uint8_t *)(((uintptr_t)c->sets_alloc + HOST_LINE - 1) & ~(uintptr_t)(HOST_LINE - 1));
    c->clock_limit = UINT32_MAX;
    return c;
}

void cache_free(Cache *c)
{
    if (!c)
        return;
    g_free(c->sets_alloc);
    g_free(c->dirty);
    g_free(c->dirty_sets);
    g_free(c);
}

void cache_set_clock_limit(Cache *c, uint32_t limit)
{
    /* renumbering leaves the clock at most assoc: room for one more call */
    uint64_t least = (uint64_t)c->assoc + MAX_USES_PER_CALL;
    c->clock_limit = limit < least ? (uint32_t)MIN(least, UINT32_MAX) : limit;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every set's occupied ways get stamps 1, 2, ... in the order of their
 * stamps, and the clock restarts above the largest: each set's order, all
 * that LRU reads, is unchanged. */
static void renumber_stamps(Cache *c)
{
    uint64_t *order = g_new(uint64_t, c->assoc);
    uint32_t top = 0;
    for (size_t set = 0; set < c->nsets; set++) {
        const uint64_t *tags = set_tags(c, set);
        uint32_t *stamps = set_stamps(c, set), n = 0;
        for (uint32_t w = 0; w < c->assoc; w++)
            if (tags[w])
                order[n++] = (uint64_t)stamps[w] << 32 | w;
        qsort(order, n, sizeof *order, compare_u64);
        for (uint32_t k = 0; k < n; k++)
            stamps[(uint32_t)order[k]] = k + 1;
        top = MAX(top, n);
    }
    g_free(order);
    c->clock = top;
}

/* The stamp of a line used `uses` more times now. */
static inline uint32_t tick(Cache *c, uint32_t uses)
{
    if (uses > c->clock_limit - c->clock)
        renumber_stamps(c);
    c->clock += uses;
    return c->clock;
}

/* line mod nsets.  Without a power of two: Lemire, Kaser & Kurz, "Faster
 * remainder by direct computation" (2019): with M = ceil(2^128 / d), the
 * remainder is the high 64 bits of (M * line mod 2^128) * d, exact for
 * every 64-bit line and d < 2^64. */
static inline size_t set_of(const Cache *c, uint64_t line)
{
    if (c->set_pow2)
        return (size_t)(line & (c->nsets - 1));
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    u128 low = c->set_magic * line;
    u128 bottom = ((u128)(uint64_t)low * c->nsets) >> 64;
    return (size_t)(((low >> 64) * c->nsets + bottom) >> 64);
#else
    return (size_t)(line % c->nsets);
#endif
}

static inline uint64_t line_of(const Cache *c, uint64_t addr)
{
    return c->line_shift >= 0 ? addr >> c->line_shift : addr / c->line_bytes;
}

void cache_prefetch(const Cache *c, uint64_t addr)
{
    if (c->nsets == 0)
        return;
    const uint8_t *block = (const uint8_t *)set_tags(c, set_of(c, line_of(c, addr)));
    size_t bytes = MIN(c->set_bytes, (size_t)4 * HOST_LINE);
    for (size_t off = 0; off < bytes; off += HOST_LINE)
        __builtin_prefetch(block + off, 1);
}

/* Takes an empty way of `set`, else the least recently used one, for
 * `line`; adds the dirty sectors it held to *evicted_dirty. */
static uint32_t replace(Cache *c, size_t set, uint64_t line, uint32_t *evicted_dirty)
{
    uint64_t *tags = set_tags(c, set);
    const uint32_t *stamps = set_stamps(c, set);
    uint32_t victim = 0;
    for (uint32_t w = 0; w < c->assoc; w++) {
        if (!tags[w]) {
            victim = w;
            break;
        }
        if (stamps[w] < stamps[victim])
            victim = w;
    }
    if (c->dirty) {
        uint32_t *dirty = &c->dirty[set * c->assoc + victim];
        if (tags[victim])
            *evicted_dirty += popcount32(*dirty);
        *dirty = 0;
    }
    tags[victim] = line + 1;
    set_valid(c, set)[victim] = 0;
    return victim;
}

/* What an access does to each sector it names. */
typedef enum { DO_READ, DO_WRITE_ALLOCATE, DO_WRITE_THROUGH } SectorOp;

/* `n` single-sector accesses to `line`, one after another; bits[i] is the
 * i-th one's sector bit.  Returns bit i set when the i-th one hit. */
static uint32_t access_line(Cache *c, uint64_t line, const uint32_t *bits, uint32_t n, SectorOp op,
                            uint32_t *evicted_dirty)
{
    size_t set = set_of(c, line);
    const uint64_t *tags = set_tags(c, set);
    uint32_t w = 0;
    while (w < c->assoc && tags[w] != line + 1)
        w++;
    if (w == c->assoc) {
        if (op == DO_WRITE_THROUGH)
            return 0;   /* not present: the writes pass by */
        w = replace(c, set, line, evicted_dirty);
    }
    uint32_t *valid = &set_valid(c, set)[w];
    uint32_t v = *valid, hits = 0, touched = 0, uses = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t bit = bits[i];
        if (v & bit)
            hits |= 1u << i;
        if (op == DO_WRITE_THROUGH) {
            uses += (v & bit) != 0;   /* only a present sector is written, and stays clean */
        } else {
            v |= bit;
            touched |= bit;
            uses++;
        }
    }
    if (!uses)
        return hits;
    *valid = v;
    if (op == DO_WRITE_ALLOCATE) {
        if (!c->dirty) {
            c->dirty = g_new0(uint32_t, (gsize)c->nsets * c->assoc);
            c->dirty_sets = g_new0(uint64_t, (c->nsets + 63) / 64);
        }
        c->dirty[set * c->assoc + w] |= touched;
        c->dirty_sets[set / 64] |= 1ull << (set % 64);
    }
    set_stamps(c, set)[w] = tick(c, uses);
    return hits;
}


static inline uint32_t sector_bit(const Cache *c, uint64_t addr)
{
    uint64_t in_line = c->line_shift >= 0 ? addr & (c->line_bytes - 1) : addr % c->line_bytes;
    return 1u << (c->sector_shift >= 0 ? in_line >> c->sector_shift : in_line / c->sector_bytes);
}

static CacheOutcome access_one(Cache *c, uint64_t addr, SectorOp op)
{
    CacheOutcome o = { false, 0 };
    if (c->nsets == 0)
        return o;
    uint32_t bit = sector_bit(c, addr);
    o.hit = access_line(c, line_of(c, addr), &bit, 1, op, &o.evicted_dirty) != 0;
    return o;
}

CacheOutcome cache_read(Cache *c, uint64_t addr)
{
    return access_one(c, addr, DO_READ);
}

CacheOutcome cache_write(Cache *c, uint64_t addr, bool allocate_on_write)
{
    return access_one(c, addr, allocate_on_write ? DO_WRITE_ALLOCATE : DO_WRITE_THROUGH);
}

static uint32_t access_sectors(Cache *c, uint64_t addr, uint32_t sectors, SectorOp op, uint32_t *evicted_dirty)
{
    if (c->nsets == 0)
        return 0;
    uint32_t hits = 0;
    if (c->line_shift < 5 || (addr & 31)) {
        /* lines under 32 B (or an unaligned start): one sector at a time */
        for (uint32_t m = sectors; m; m &= m - 1) {
            uint32_t s = (uint32_t)__builtin_ctz(m);
            CacheOutcome o = access_one(c, addr + 32 * (uint64_t)s, op);
            hits |= (uint32_t)o.hit << s;
            *evicted_dirty += o.evicted_dirty;
        }
        return hits;
    }
    uint32_t in_line = c->line_bytes - 1;
    while (sectors) {
        /* the sectors asked for that lie in the line of the lowest one */
        uint32_t first = (uint32_t)__builtin_ctz(sectors);
        uint64_t a0 = addr + 32 * (uint64_t)first;
        uint32_t span = (c->line_bytes - ((uint32_t)a0 & in_line)) / 32; /* sectors to the line's end */
        uint32_t group = span >= 32 - first ? sectors : sectors & (((1u << span) - 1) << first);
        sectors &= ~group;
        uint32_t bits[32], index[32], n = 0;
        for (uint32_t m = group; m; m &= m - 1) {
            uint32_t s = (uint32_t)__builtin_ctz(m);
            bits[n] = sector_bit(c, addr + 32 * (uint64_t)s);
            index[n++] = s;
        }
        uint32_t h = access_line(c, a0 >> c->line_shift, bits, n, op, evicted_dirty);
        for (; h; h &= h - 1)
            hits |= 1u << index[__builtin_ctz(h)];
    }
    return hits;
}

uint32_t cache_read_sectors(Cache *c, uint64_t addr, uint32_t sectors, uint32_t *evicted_dirty)
{
    return access_sectors(c, addr, sectors, DO_READ, evicted_dirty);
}

uint32_t cache_write_sectors(Cache *c, uint64_t addr, uint32_t sectors, bool allocate_on_write,
                             uint32_t *evicted_dirty)
{
    return access_sectors(c, addr, sectors, allocate_on_write ? DO_WRITE_ALLOCATE : DO_WRITE_THROUGH,
                          evicted_dirty);
}

void cache_invalidate(Cache *c)
{
    if (c->nsets == 0)
        return;
    memset(c->sets, 0, (size_t)c->nsets * c->set_bytes);
    g_clear_pointer(&c->dirty, g_free);
    g_clear_pointer(&c->dirty_sets, g_free);
    c->clock = 0;
}

uint64_t cache_flush_dirty(Cache *c)
{
    uint64_t dirty = 0;
    if (!c->dirty)
        return 0;
    for (size_t w = 0; w < ((size_t)c->nsets + 63) / 64; w++) {
        for (uint64_t m = c->dirty_sets[w]; m; m &= m - 1) {
            uint32_t *ways = c->dirty + (w * 64 + (size_t)__builtin_ctzll(m)) * c->assoc;
            for (uint32_t k = 0; k < c->assoc; k++) {
                dirty += popcount32(ways[k]);
                ways[k] = 0;
            }
        }
        c->dirty_sets[w] = 0;
    }
    return dirty;
}
