/* cache.h — a sectored, set-associative cache with LRU replacement.
 *
 * Contract: the cache is a flat array of lines (tags, per-sector valid and
 * dirty bits, LRU stamps); no allocation per access.  An access names one
 * 32 B sector by address.  Reads allocate the line on a miss and fill only
 * the sector asked for; writes either allocate (write-back: the sector
 * becomes valid and dirty, no fetch) or, with allocate_on_write false, only
 * update a present sector (write-through/no-allocate, like L1).  Evicting a
 * line reports how many dirty sectors it held, so DRAM can count written
 * bytes.  cache_flush_dirty() counts and cleans the dirty sectors left.
 * A cache of size 0 misses everything and holds nothing.
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
void cache_free(Cache *c);
CacheOutcome cache_read(Cache *c, uint64_t addr);
CacheOutcome cache_write(Cache *c, uint64_t addr, bool allocate_on_write);
/* Drops every line (between launches when the model says caches are cold). */
void cache_invalidate(Cache *c);
/* Dirty sectors still held; marks them clean. */
uint64_t cache_flush_dirty(Cache *c);

#endif
