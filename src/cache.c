/* cache.c — sectored set-associative LRU cache (contract in cache.h).
 *
 * Geometry: sets = size / (line * assoc); a line is present when any of its
 * sectors is valid.  LRU is exact: each set counts its accesses and every
 * line keeps the count of its last use, so the victim is the smallest
 * stamp (an empty way first).  A geometry that cannot hold one line
 * (size 0, or zero line/assoc) gives a cache that holds nothing.
 * Writes are modelled per sector: a write fills the whole sector it names.
 */
#include "cache.h"

#include <glib.h>
#include <string.h>

typedef struct {
    uint64_t line;      /* address / line_bytes */
    uint64_t stamp;     /* set's access count at the last use */
    uint32_t valid;     /* bit i: sector i present */
    uint32_t dirty;     /* bit i: sector i modified (subset of valid) */
} CacheLine;

struct Cache {
    uint32_t line_bytes;
    uint32_t sector_bytes;
    uint32_t assoc;
    uint32_t nsets;          /* 0: the cache holds nothing */
    CacheLine *lines;        /* nsets * assoc, set-major */
    uint64_t *set_clock;     /* nsets */
};

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
    if (cfg->size_bytes == 0 || c->line_bytes == 0 || c->assoc == 0)
        return c;
    uint64_t lines = cfg->size_bytes / c->line_bytes;
    if (lines < c->assoc)
        c->assoc = (uint32_t)lines;              /* smaller than one set: fully associative */
    if (c->assoc == 0)
        return c;
    c->nsets = (uint32_t)(lines / c->assoc);
    c->lines = g_new0(CacheLine, (gsize)c->nsets * c->assoc);
    c->set_clock = g_new0(uint64_t, c->nsets);
    return c;
}

void cache_free(Cache *c)
{
    if (!c)
        return;
    g_free(c->lines);
    g_free(c->set_clock);
    g_free(c);
}

/* The way holding `line` in its set, else NULL; *set_out is the set's first way. */
static CacheLine *lookup(Cache *c, uint64_t line, CacheLine **set_out, uint64_t **clock_out)
{
    uint64_t set = line % c->nsets;
    CacheLine *ways = c->lines + set * c->assoc;
    *set_out = ways;
    *clock_out = &c->set_clock[set];
    for (uint32_t w = 0; w < c->assoc; w++)
        if (ways[w].valid && ways[w].line == line)
            return &ways[w];
    return NULL;
}

/* Takes an empty way, else the least recently used one; reports its dirty sectors. */
static CacheLine *replace(Cache *c, CacheLine *ways, uint64_t line, uint32_t *evicted_dirty)
{
    CacheLine *victim = &ways[0];
    for (uint32_t w = 0; w < c->assoc; w++) {
        if (!ways[w].valid) {
            victim = &ways[w];
            break;
        }
        if (ways[w].stamp < victim->stamp)
            victim = &ways[w];
    }
    *evicted_dirty = victim->valid ? (uint32_t)__builtin_popcount(victim->dirty) : 0;
    victim->line = line;
    victim->valid = 0;
    victim->dirty = 0;
    return victim;
}

static uint32_t sector_bit(const Cache *c, uint64_t addr)
{
    return 1u << ((addr % c->line_bytes) / c->sector_bytes);
}

CacheOutcome cache_read(Cache *c, uint64_t addr)
{
    CacheOutcome o = { false, 0 };
    if (c->nsets == 0)
        return o;
    uint64_t line = addr / c->line_bytes;
    uint32_t bit = sector_bit(c, addr);
    CacheLine *ways, *l;
    uint64_t *clock;
    l = lookup(c, line, &ways, &clock);
    if (!l)
        l = replace(c, ways, line, &o.evicted_dirty);
    o.hit = (l->valid & bit) != 0;
    l->valid |= bit;
    l->stamp = ++*clock;
    return o;
}

CacheOutcome cache_write(Cache *c, uint64_t addr, bool allocate_on_write)
{
    CacheOutcome o = { false, 0 };
    if (c->nsets == 0)
        return o;
    uint64_t line = addr / c->line_bytes;
    uint32_t bit = sector_bit(c, addr);
    CacheLine *ways, *l;
    uint64_t *clock;
    l = lookup(c, line, &ways, &clock);
    if (!allocate_on_write) {
        /* write-through, no allocate: a present sector takes the new bytes
         * and stays clean; anything else passes by */
        if (l && (l->valid & bit)) {
            o.hit = true;
            l->stamp = ++*clock;
        }
        return o;
    }
    if (!l)
        l = replace(c, ways, line, &o.evicted_dirty);
    o.hit = (l->valid & bit) != 0;
    l->valid |= bit;
    l->dirty |= bit;
    l->stamp = ++*clock;
    return o;
}

void cache_invalidate(Cache *c)
{
    if (c->nsets == 0)
        return;
    memset(c->lines, 0, sizeof *c->lines * (size_t)c->nsets * c->assoc);
    memset(c->set_clock, 0, sizeof *c->set_clock * (size_t)c->nsets);
}

uint64_t cache_flush_dirty(Cache *c)
{
    uint64_t dirty = 0;
    size_t n = (size_t)c->nsets * c->assoc;
    for (size_t i = 0; i < n; i++) {
        dirty += (uint64_t)__builtin_popcount(c->lines[i].dirty);
        c->lines[i].dirty = 0;
    }
    return dirty;
}
