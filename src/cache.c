/* cache.c — sectored set-associative LRU cache (contract in cache.h).
 *
 * Geometry: sets = size / (line * assoc); a line is present when any of its
 * sectors is valid.  LRU is exact: each set counts its accesses and every
 * line keeps the count of its last use, so the victim is the smallest
 * stamp (an empty way first).  Tags sit apart from the rest of a way's
 * state, so a lookup touches only them.  A geometry that cannot hold one line
 * (size 0, or zero line/assoc) gives a cache that holds nothing.
 * Writes are modelled per sector: a write fills the whole sector it names.
 */
#include "cache.h"

#include <glib.h>
#include <string.h>

/* Way metadata; the tags live in their own array so that a lookup reads
 * only the set's tags (16 ways: two host cache lines, not six). */
typedef struct {
    uint64_t stamp;     /* set's access count at the last use */
    uint32_t valid;     /* bit i: sector i present */
    uint32_t dirty;     /* bit i: sector i modified (subset of valid) */
} CacheLine;

struct Cache {
    uint32_t line_bytes;
    uint32_t sector_bytes;
    uint32_t assoc;
    uint32_t nsets;          /* 0: the cache holds nothing */
    int line_shift;          /* log2(line_bytes), or -1 when not a power of two */
    int sector_shift;        /* log2(sector_bytes), or -1 */
    uint64_t *tags;          /* nsets * assoc, set-major: address / line_bytes + 1, 0 when empty */
    CacheLine *lines;        /* nsets * assoc, parallel to tags */
    uint64_t *set_clock;     /* nsets */
    uint64_t *dirty_sets;    /* bit per set: may hold dirty sectors (so a flush
                                reads only those, not the whole array) */
};

static int log2_exact(uint32_t v)
{
    return v && (v & (v - 1)) == 0 ? __builtin_ctz(v) : -1;
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
    c->tags = g_new0(uint64_t, (gsize)c->nsets * c->assoc);
    c->lines = g_new0(CacheLine, (gsize)c->nsets * c->assoc);
    c->set_clock = g_new0(uint64_t, c->nsets);
    c->dirty_sets = g_new0(uint64_t, (c->nsets + 63) / 64);
    return c;
}

void cache_free(Cache *c)
{
    if (!c)
        return;
    g_free(c->tags);
    g_free(c->lines);
    g_free(c->set_clock);
    g_free(c->dirty_sets);
    g_free(c);
}

/* The way (index into tags/lines) holding `line`, else -1; *set_out is the set. */
static int64_t lookup(const Cache *c, uint64_t line, size_t *set_out)
{
    size_t set = (size_t)(line % c->nsets), first = set * c->assoc;
    const uint64_t *tags = c->tags + first;
    *set_out = set;
    for (uint32_t w = 0; w < c->assoc; w++)
        if (tags[w] == line + 1)
            return (int64_t)(first + w);
    return -1;
}

/* Takes an empty way, else the least recently used one; reports its dirty sectors. */
static size_t replace(Cache *c, size_t set, uint64_t line, uint32_t *evicted_dirty)
{
    size_t first = set * c->assoc, victim = first;
    for (uint32_t w = 0; w < c->assoc; w++) {
        if (!c->tags[first + w]) {
            victim = first + w;
            break;
        }
        if (c->lines[first + w].stamp < c->lines[victim].stamp)
            victim = first + w;
    }
    CacheLine *l = &c->lines[victim];
    *evicted_dirty = c->tags[victim] ? (uint32_t)__builtin_popcount(l->dirty) : 0;
    c->tags[victim] = line + 1;
    l->valid = 0;
    l->dirty = 0;
    return victim;
}

static inline uint64_t line_of(const Cache *c, uint64_t addr)
{
    return c->line_shift >= 0 ? addr >> c->line_shift : addr / c->line_bytes;
}

static inline uint32_t sector_bit(const Cache *c, uint64_t addr)
{
    uint64_t in_line = c->line_shift >= 0 ? addr & (c->line_bytes - 1) : addr % c->line_bytes;
    return 1u << (c->sector_shift >= 0 ? in_line >> c->sector_shift : in_line / c->sector_bytes);
}

CacheOutcome cache_read(Cache *c, uint64_t addr)
{
    CacheOutcome o = { false, 0 };
    if (c->nsets == 0)
        return o;
    uint64_t line = line_of(c, addr);
    uint32_t bit = sector_bit(c, addr);
    size_t set;
    int64_t way = lookup(c, line, &set);
    CacheLine *l = &c->lines[way >= 0 ? (size_t)way : replace(c, set, line, &o.evicted_dirty)];
    o.hit = (l->valid & bit) != 0;
    l->valid |= bit;
    l->stamp = ++c->set_clock[set];
    return o;
}

CacheOutcome cache_write(Cache *c, uint64_t addr, bool allocate_on_write)
{
    CacheOutcome o = { false, 0 };
    if (c->nsets == 0)
        return o;
    uint64_t line = line_of(c, addr);
    uint32_t bit = sector_bit(c, addr);
    size_t set;
    int64_t way = lookup(c, line, &set);
    if (!allocate_on_write) {
        /* write-through, no allocate: a present sector takes the new bytes
         * and stays clean; anything else passes by */
        if (way >= 0 && (c->lines[way].valid & bit)) {
            o.hit = true;
            c->lines[way].stamp = ++c->set_clock[set];
        }
        return o;
    }
    CacheLine *l = &c->lines[way >= 0 ? (size_t)way : replace(c, set, line, &o.evicted_dirty)];
    o.hit = (l->valid & bit) != 0;
    l->valid |= bit;
    l->dirty |= bit;
    l->stamp = ++c->set_clock[set];
    c->dirty_sets[set / 64] |= 1ull << (set % 64);
    return o;
}

void cache_invalidate(Cache *c)
{
    if (c->nsets == 0)
        return;
    memset(c->tags, 0, sizeof *c->tags * (size_t)c->nsets * c->assoc);
    memset(c->lines, 0, sizeof *c->lines * (size_t)c->nsets * c->assoc);
    memset(c->set_clock, 0, sizeof *c->set_clock * (size_t)c->nsets);
    memset(c->dirty_sets, 0, sizeof *c->dirty_sets * (((size_t)c->nsets + 63) / 64));
}

uint64_t cache_flush_dirty(Cache *c)
{
    uint64_t dirty = 0;
    for (size_t w = 0; w < ((size_t)c->nsets + 63) / 64; w++) {
        for (uint64_t m = c->dirty_sets[w]; m; m &= m - 1) {
            CacheLine *ways = c->lines + (w * 64 + (size_t)__builtin_ctzll(m)) * c->assoc;
            for (uint32_t k = 0; k < c->assoc; k++) {
                dirty += (uint64_t)__builtin_popcount(ways[k].dirty);
                ways[k].dirty = 0;
            }
        }
        c->dirty_sets[w] = 0;
    }
    return dirty;
}
