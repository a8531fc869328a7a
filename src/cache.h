/* cache.h — a sectored, set-associative cache with LRU replacement.
 *
 * Contract: the cache is a flat array of lines (tags, per-sector valid and
 * dirty bits, LRU stamps); no allocation per access, and memory is only
 * touched for the sets that are used.  An access names one
 * 32 B sector by address.  Reads allocate the line on a miss and fill only
 * the sector asked for; writes either allocate (write-back: the sector
 * becomes valid and dirty, no fetch) or, with allocate_on_write false, only
 * update a present sector (write-through/no-allocate, like L1).  Evicting a
 * line reports how many dirty sectors it held, so DRAM can count written
 * bytes.  cache_flush_dirty() counts and cleans the dirty sectors left.
 * A cache of size 0 misses everything and holds nothing.
 * cache_read_sectors()/cache_write_sectors() take the 32 B sectors of one
 * memory transaction at once, with exactly the effect of the single-sector
 * calls on each of them in ascending address order, but one tag lookup per
 * line instead of one per sector.
 */
#ifndef WARPSIM_CACHE_H
#define WARPSIM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"

typedef struct Cache Cache;

typedef struct {
    bool hit;                   /* the sector was present and valid */
    uint32_t evicted_dirty;     /* dirty sectors written back by the eviction this caused */
} CacheOutcome;

Cache *cache_new(const CacheConfig *cfg);
/* The same, its sets in the caller's `sets` (NULL: its own):
 * cache_sets_bytes(cfg, reach) bytes, 4-byte aligned, contents ignored,
 * kept until the cache is freed (many small caches in one block the host
 * can give in huge pages).  Sets take their part of it from the front, in
 * the order of their first use (a write passing through a set never used
 * takes none), so that a few sets in use touch a few host pages however
 * scattered they are.  `reach` is what the caller expects its accesses to
 * reach, in bytes (UINT64_MAX: anything): it sizes a set's part for the
 * lines they can put in a set, so that a small footprint touches less
 * (more lines in a set than expected go to a part further on).  Nothing
 * the cache does depends on it. */
Cache *cache_new_in(const CacheConfig *cfg, void *sets, uint64_t reach);
size_t cache_sets_bytes(const CacheConfig *cfg, uint64_t reach);
/* Of those, the most that accesses to `reach` bytes of memory from any
 * start use: a set per distinct line, up to all of them, at the block's
 * front (a small footprint leaves the rest untouched). */
size_t cache_sets_used_bytes(const CacheConfig *cfg, uint64_t reach);
void cache_free(Cache *c);
CacheOutcome cache_read(Cache *c, uint64_t addr);
CacheOutcome cache_write(Cache *c, uint64_t addr, bool allocate_on_write);
/* The 32 B sectors `sectors` (bit i: the sector at addr + 32 i; addr 32 B
 * aligned) in ascending order, as cache_read() / cache_write() on each would
 * do them.  Returns the mask of those that hit; the dirty sectors written
 * back by the evictions this caused are added to *evicted_dirty. */
uint32_t cache_read_sectors(Cache *c, uint64_t addr, uint32_t sectors, uint32_t *evicted_dirty);
uint32_t cache_write_sectors(Cache *c, uint64_t addr, uint32_t sectors, bool allocate_on_write,
                             uint32_t *evicted_dirty);
/* The unit a read miss fills: the sector as this cache models it (the
 * whole line when not sectored).  A sector asked for in an absent unit
 * misses and fills the unit, so the unit's other sectors asked for in the
 * same call then hit; the caller fetches the whole unit from below. */
uint32_t cache_fill_bytes(const Cache *c);
/* A hint that addr's set is about to be used: starts loading it into the
 * host's cache (so that the lookups of several transactions overlap).
 * Changes nothing the cache models. */
void cache_prefetch(const Cache *c, uint64_t addr);
/* Drops every line (between launches when the model says caches are cold). */
void cache_invalidate(Cache *c);
/* Dirty sectors still held; marks them clean. */
uint64_t cache_flush_dirty(Cache *c);
/* Dirty sectors still held, left dirty: for a cache that is invalidated or
 * freed next, which a flush's pass over every set in use would only slow. */
uint64_t cache_dirty_sectors(const Cache *c);
/* For tests: the LRU clock is renumbered (keeping every set's order) once
 * it would pass `limit` rather than at 2^32, so that path can be exercised.
 * Limits below assoc + 32 are raised to that. */
void cache_set_clock_limit(Cache *c, uint32_t limit);

#endif
