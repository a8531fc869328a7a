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
 * the same.  Stamps are unique, so which way holds a line never matters.
 *
 * One set's state is one block: the count of its filled ways, then each
 * of its first ways' tag, valid bits, stamp and dirty bits side by side
 * (20 B a way: 84 B for 4 ways); the ways after those lie in a second
 * array, set by set (240 B a set of 16 ways).  How many ways a block has
 * (near_ways_for) is what the caller expects its accesses to put in a set,
 * from one to four: a launch whose memory is a line in every fourth set
 * of each SM's L1 (saxpy) touches 24 B of a set's 84 (4.46 -> 4.25 ms on
 * one thread, 3.14 -> 2.96 on two).  Ways fill in order and
 * empty only all at once, so the count bounds every search, and a lookup
 * touches the host cache lines of the count and of the ways it reads: for
 * a set that a large grid's accesses reach for the first time, or a hit in
 * the way the line was last found in, one or two lines of the block.
 * (Tags, valid masks, stamps and dirty masks were once four arrays per
 * set: every first touch of a 16-way set read or wrote five lines.)  The
 * second array is only touched by sets that hold more lines than that:
 * a grid whose lines fill the L2's sets a few deep (a stream over a few
 * MiB: one to three lines a set) leaves it, three quarters of a 16-way
 * cache's bytes, never touched, so the host never pages it in (with the
 * whole set in one block, those sets' first ways alone touched every page).
 * The blocks are allocated uninitialised (hostmem.h: a large cache's in
 * huge pages; cache_new_in: in the caller's memory, where many small
 * caches share huge pages) and a set's count is cleared on its first use
 * since the last invalidation (a bit per set says which are), so making,
 * invalidating and freeing a cache costs nothing per set that is never
 * used.  Filling a way sets all of it; dirty bits are counted as they are
 * set, so a flush clears them only in the sets in use, and only when some
 * are set.  (They once lived in an array of their own, whose first write
 * made the host zero a huge page of it: 13 % of a small kernel's timed
 * run, on a VM.)
 *
 * The set of a line is line mod sets: a mask when the set count is a power
 * of two, else a multiply-shift remainder (exact for every 64-bit line, and
 * cheaper than a 64-bit division).  With 32 B sectors (every sectored
 * cache) the sectors a call names are the lines' valid-mask bits
 * themselves, so a line takes one masked update; other sector sizes go
 * sector by sector in order, which the single calls' results define.
 */
#include "cache.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "hostmem.h"
#include "popcount.h"

/* the most uses one call adds to the clock: 32 sectors */
#define MAX_USES_PER_CALL 32u
/* remembered ways: enough for the lines of a few requests in flight */
#define WAY_HINTS 64u
/* ways in a set's own block; the others are in the far array */
#define NEAR_WAYS 4u

/* In host cache lines of its own (cache_new aligns it): an SM's L1 is
 * written at every access by the host thread running that SM. */
struct Cache {
    _Alignas(64) uint32_t line_bytes;
    uint32_t sector_bytes;
    uint32_t assoc;
    uint32_t nsets;          /* 0: the cache holds nothing */
    int line_shift;          /* log2(line_bytes), or -1 when not a power of two */
    int sector_shift;        /* log2(sector_bytes), or -1 */
    bool sectors_32;         /* 32 B sectors, lines a power of two of at least 32 B:
                                the masked path of access_sectors() */
    bool set_pow2;           /* nsets is a power of two: set = line & (nsets - 1) */
#ifdef __SIZEOF_INT128__
    __extension__ unsigned __int128 set_magic; /* ceil(2^128 / nsets), for set_of() */
    uint64_t set_magic32;    /* ceil(2^64 / nsets), for set_of() of lines below 2^32 */
#endif
    uint32_t line_sectors;   /* line_bytes / 32 when sectors_32 */
    uint64_t line_sector_mask; /* its low line_sectors bits */
    uint32_t near_ways;      /* the ways in a set's block: near_ways_for() */
    size_t set_bytes;        /* 4 + 20 * near_ways: per set, the filled ways' count
                                (SetHead), then its first near_ways Ways */
    size_t far_bytes;        /* 20 * (assoc - near_ways): per set, its other Ways */
    uint8_t *sets;           /* nsets * set_bytes, then (far) nsets * far_bytes
                                (hostmem.h, or the caller's: cache_new_in),
                                given to the sets in the order of their first
                                use (set_pos), so that a cache of which a
                                launch uses a few sets, scattered, touches a
                                few host pages; a block's ways are stale
                                until set_pos() clears its count */
    uint8_t *far;            /* sets + nsets * set_bytes */
    bool own_sets;           /* sets is ours to free */
    uint32_t *set_at;        /* per set: 1 + the position of its block (near
                                and far), 0 while it has none (since the last
                                invalidation) */
    uint32_t sets_given;     /* positions given since the last invalidation */
    uint64_t dirty_sectors;  /* bits set in the filled ways' dirty masks */
    uint8_t way_hint[WAY_HINTS]; /* by line: the way it was last found in (a guess) */
    uint32_t clock;          /* uses so far (since the last renumbering) */
    uint32_t clock_limit;    /* renumber rather than pass it */
};

static int log2_exact(uint32_t v)
{
    return v && (v & (v - 1)) == 0 ? __builtin_ctz(v) : -1;
}

/* One way of a set.  The tag is two 4-byte halves so that a way is 20 B,
 * without padding, and the next way's fields stay 4-byte aligned. */
typedef struct {
    uint32_t tag[2];         /* line + 1, low half first (way_tag) */
    uint32_t valid;          /* bit i: sector i present */
    uint32_t stamp;          /* the LRU clock at its last use */
    uint32_t dirty;          /* bit i: sector i modified, a subset of valid */
} Way;

typedef struct {
    uint32_t filled;         /* ways 0 .. filled - 1 hold lines */
} SetHead;

static inline SetHead *block_head(uint8_t *block)
{
    return (SetHead *)(void *)block;
}

static inline Way *block_ways(uint8_t *block)
{
    return (Way *)(void *)(block + sizeof(SetHead));
}

static inline uint64_t way_tag(const Way *w)
{
    uint64_t t;
    memcpy(&t, w->tag, sizeof t); /* one 8-byte load; the way is 4-byte aligned */
    return t;
}

static inline void way_set_tag(Way *w, uint64_t tag)
{
    memcpy(w->tag, &tag, sizeof tag);
}

/* The near block at position `pos` (set_at), its far ways (the set's ways
 * from near_ways on), and way w of the set whose blocks these are. */
static inline uint8_t *pos_block(const Cache *c, size_t pos)
{
    return c->sets + pos * c->set_bytes;
}

static inline Way *pos_far_ways(const Cache *c, size_t pos)
{
    return (Way *)(void *)(c->far + pos * c->far_bytes);
}

static inline Way *set_way(const Cache *c, uint8_t *block, size_t pos, uint32_t w)
{
    return w < c->near_ways ? block_ways(block) + w : pos_far_ways(c, pos) + (w - c->near_ways);
}

static inline bool set_used(const Cache *c, size_t set)
{
    return c->set_at[set] != 0;
}

/* The position of the blocks of a set about to be looked up: the next
 * free one on its first use since the cache was made or invalidated, with
 * every way empty.  (Only filled ways are read, and filling a way sets all
 * of it.) */
static inline size_t set_pos(Cache *c, size_t set)
{
    uint32_t at = c->set_at[set];
    if (!at) {
        at = c->set_at[set] = ++c->sets_given;
        block_head(pos_block(c, at - 1))->filled = 0;
    }
    return at - 1;
}

static size_t sets_bytes(const Cache *c)
{
    return (size_t)c->nsets * (c->set_bytes + c->far_bytes);
}

/* The lines that accesses to `reach` bytes from any start can touch: part
 * of a line at either end. */
static uint64_t lines_reached(const Cache *c, uint64_t reach)
{
    return reach / c->line_bytes + 2;
}

/* The ways in a set's own block, for accesses that reach `reach` bytes:
 * the lines those can put in a set (the sets of consecutive lines follow
 * each other), 1 to NEAR_WAYS.  A set that holds more lines, which an
 * estimate too low gives, keeps them in the far array. */
static uint32_t near_ways_for(const Cache *c, uint64_t reach)
{
    uint64_t lines = lines_reached(c, reach);
    uint64_t per_set = lines / c->nsets + (lines % c->nsets != 0);
    return (uint32_t)MAX(MIN(per_set, (uint64_t)MIN(c->assoc, NEAR_WAYS)), 1u);
}

/* Everything but the allocations: the geometry cache_sets_bytes() needs too. */
static void cache_shape(Cache *c, const CacheConfig *cfg, uint64_t reach)
{
    c->line_bytes = cfg->line_bytes;
    c->sector_bytes = cfg->sector_bytes;
    if (c->sector_bytes == 0 || c->sector_bytes > c->line_bytes)
        c->sector_bytes = c->line_bytes;         /* not sectored */
    if (c->line_bytes / 32 > c->sector_bytes)
        c->sector_bytes = c->line_bytes / 32;    /* the bit masks hold 32 sectors */
    c->assoc = cfg->assoc;
    c->line_shift = log2_exact(c->line_bytes);
    c->sector_shift = log2_exact(c->sector_bytes);
    c->sectors_32 = c->sector_shift == 5 && c->line_shift >= 5;
    c->line_sectors = c->line_bytes / 32;   /* at most 32 with 32 B sectors: see above */
    c->line_sector_mask = c->line_sectors >= 32 ? 0xFFFFFFFFu : (1ull << c->line_sectors) - 1;
    c->clock_limit = UINT32_MAX;
    if (cfg->size_bytes == 0 || c->line_bytes == 0 || c->assoc == 0)
        return;
    uint64_t lines = cfg->size_bytes / c->line_bytes;
    if (lines < c->assoc)
        c->assoc = (uint32_t)lines;              /* smaller than one set: fully associative */
    if (c->assoc == 0)
        return;
    c->nsets = (uint32_t)(lines / c->assoc);
    c->set_pow2 = (c->nsets & (c->nsets - 1)) == 0;
#ifdef __SIZEOF_INT128__
    if (!c->set_pow2) {
        c->set_magic = ~(__extension__ (unsigned __int128)0) / c->nsets + 1;
        c->set_magic32 = UINT64_MAX / c->nsets + 1;
    }
#endif
    c->near_ways = near_ways_for(c, reach);
    c->set_bytes = sizeof(SetHead) + (size_t)c->near_ways * sizeof(Way);
    c->far_bytes = (size_t)(c->assoc - c->near_ways) * sizeof(Way);
}

size_t cache_sets_bytes(const CacheConfig *cfg, uint64_t reach)
{
    Cache c = {0};
    cache_shape(&c, cfg, reach);
    return sets_bytes(&c);
}

size_t cache_sets_used_bytes(const CacheConfig *cfg, uint64_t reach)
{
    Cache c = {0};
    cache_shape(&c, cfg, reach);
    if (!c.nsets)
        return 0;
    uint64_t lines = lines_reached(&c, reach);
    /* a set's far ways only once some set holds more than near_ways lines */
    if (lines > (uint64_t)c.nsets * c.near_ways)
        return sets_bytes(&c);
    return (size_t)MIN(lines, c.nsets) * c.set_bytes;
}

Cache *cache_new_in(const CacheConfig *cfg, void *sets, uint64_t reach)
{
    Cache *c = g_aligned_alloc0(1, sizeof(Cache), _Alignof(Cache));
    cache_shape(c, cfg, reach);
    if (!c->nsets)
        return c;
    /* not cleared here: set_pos() clears what is used */
    c->own_sets = !sets;
    c->sets = sets ? sets : hostmem_alloc(sets_bytes(c));
    c->far = c->sets + (size_t)c->nsets * c->set_bytes;
    /* zeroed, and read at random from the first access on: one call maps
     * it (the L2 of an H200: 120 KiB, 32 us in faults from the C heap,
     * 20 us so) */
    c->set_at = hostmem_alloc0_mapped_now((size_t)c->nsets * sizeof *c->set_at);
    return c;
}

Cache *cache_new(const CacheConfig *cfg)
{
    return cache_new_in(cfg, NULL, UINT64_MAX);
}

void cache_free(Cache *c)
{
    if (!c)
        return;
    if (c->own_sets)
        hostmem_free(c->sets, sets_bytes(c));
    hostmem_free(c->set_at, (size_t)c->nsets * sizeof *c->set_at);
    g_aligned_free(c);
}

uint32_t cache_fill_bytes(const Cache *c)
{
    return c->sector_bytes;
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
    for (size_t pos = 0; pos < c->sets_given; pos++) {
        uint8_t *block = pos_block(c, pos);
        uint32_t n = block_head(block)->filled;
        for (uint32_t w = 0; w < n; w++)
            order[w] = (uint64_t)set_way(c, block, pos, w)->stamp << 32 | w;
        qsort(order, n, sizeof *order, compare_u64);
        for (uint32_t k = 0; k < n; k++)
            set_way(c, block, pos, (uint32_t)order[k])->stamp = k + 1;
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
 * every 64-bit line and d < 2^64; for lines below 2^32 (addresses below
 * 512 GiB) the same with M = ceil(2^64 / d) and half the width does. */
static inline size_t set_of(const Cache *c, uint64_t line)
{
    if (c->set_pow2)
        return (size_t)(line & (c->nsets - 1));
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    if (line <= UINT32_MAX)
        return (size_t)(((u128)(c->set_magic32 * line) * c->nsets) >> 64);
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
    /* the set's count and first ways (all a set that few lines reached
     * uses), and the way the line was last found in; a set without blocks
     * gets the next ones */
    uint64_t line = line_of(c, addr);
    uint32_t at = c->set_at[set_of(c, line)];
    size_t pos = at ? at - 1 : c->sets_given;
    if (pos >= c->nsets)
        return;
    uint8_t *block = pos_block(c, pos);
    __builtin_prefetch(block, 1);
    if (c->set_bytes > HOST_CACHE_LINE)
        __builtin_prefetch(block + HOST_CACHE_LINE, 1);
    uint32_t hint = c->way_hint[line % WAY_HINTS];
    if (at && hint < c->assoc)
        __builtin_prefetch(set_way(c, block, pos, hint), 1);
}

/* In a full set, replaces the least recently used line by `line`; adds
 * the dirty sectors it held to *evicted_dirty.  Returns its way. */
static Way *evict_lru(Cache *c, uint8_t *block, size_t pos, uint64_t line, uint32_t *evicted_dirty,
                      uint32_t *way)
{
    Way *near = block_ways(block), *far = pos_far_ways(c, pos), *v = near;
    uint32_t victim = 0;
    for (uint32_t w = 1; w < c->near_ways; w++)
        if (near[w].stamp < v->stamp)
            v = &near[victim = w];
    for (uint32_t w = c->near_ways; w < c->assoc; w++)
        if (far[w - c->near_ways].stamp < v->stamp)
            v = &far[(victim = w) - c->near_ways];
    if (v->dirty) {
        uint32_t n = popcount32(v->dirty);
        *evicted_dirty += n;
        c->dirty_sectors -= n;
        v->dirty = 0;
    }
    way_set_tag(v, line + 1);
    v->valid = 0;
    *way = victim;
    return v;
}

/* What an access does to each sector it names. */
typedef enum { DO_READ, DO_WRITE_ALLOCATE, DO_WRITE_THROUGH } SectorOp;

/* The way of the set (block) holding `line`, allocated unless op writes
 * through; NULL when it is absent and not allocated.  The way a line was
 * last found in is remembered by line (way_hint, checked against the tag,
 * so a stale hint only costs the search).  Ways fill in order and empty
 * again only all at once, so only the filled ones are searched. */
static G_ALWAYS_INLINE inline Way *find_way(Cache *c, size_t set, uint64_t line, SectorOp op, uint32_t *evicted_dirty)
{
    /* a set never used holds nothing for a write to pass through, and its
     * block need not be touched: a write-through stream to memory never
     * read (a kernel's output) then costs no host pages */
    if (op == DO_WRITE_THROUGH && !set_used(c, set))
        return NULL;
    size_t pos = set_pos(c, set);
    uint8_t *block = pos_block(c, pos);
    SetHead *head = block_head(block);
    uint64_t key = line + 1;
    uint8_t *hint = &c->way_hint[line % WAY_HINTS];
    uint32_t filled = head->filled;
    if (*hint < filled) {
        Way *h = set_way(c, block, pos, *hint);
        if (way_tag(h) == key)
            return h;
    }
    Way *near = block_ways(block);
    uint32_t w = 0, in_near = MIN(filled, c->near_ways);
    while (w < in_near && way_tag(&near[w]) != key)
        w++;
    if (w < in_near) {
        *hint = (uint8_t)w;
        return &near[w];
    }
    if (filled > c->near_ways) {
        Way *far = pos_far_ways(c, pos);
        while (w < filled && way_tag(&far[w - c->near_ways]) != key)
            w++;
        if (w < filled) {
            *hint = (uint8_t)w;
            return &far[w - c->near_ways];
        }
    }
    if (op == DO_WRITE_THROUGH)
        return NULL;
    Way *way;
    if (w < c->assoc) {   /* an empty way: nothing to evict */
        head->filled = w + 1;
        way = set_way(c, block, pos, w);
        way_set_tag(way, key);
        way->valid = 0;
        way->dirty = 0;
    } else {
        way = evict_lru(c, block, pos, line, evicted_dirty, &w);
    }
    *hint = (uint8_t)w;
    return way;
}

/* Sectors `touched` of a filled way are now modified. */
static void mark_dirty(Cache *c, Way *way, uint32_t touched)
{
    c->dirty_sectors += popcount32(touched & ~way->dirty);
    way->dirty |= touched;
}

/* The sectors `mask` (valid-mask bits) of `line`, all distinct, as one
 * access each in any order: a bit's result does not depend on the others.
 * Returns those that hit. */
static G_ALWAYS_INLINE inline uint32_t access_line_mask(Cache *c, uint64_t line, uint32_t mask, SectorOp op, uint32_t *evicted_dirty)
{
    Way *way = find_way(c, set_of(c, line), line, op, evicted_dirty);
    if (!way)
        return 0;   /* writing through, not present: the writes pass by */
    uint32_t hits = way->valid & mask, uses;
    if (op == DO_WRITE_THROUGH) {
        uses = popcount32(hits);   /* only a present sector is written, and stays clean */
        if (!uses)
            return 0;
    } else {
        way->valid |= mask;
        uses = popcount32(mask);
        if (op == DO_WRITE_ALLOCATE)
            mark_dirty(c, way, mask);
    }
    way->stamp = tick(c, uses);
    return hits;
}

/* `n` single-sector accesses to `line`, one after another; bits[i] is the
 * i-th one's sector bit (several may share a bit when sectors are wider
 * than 32 B).  Returns bit i set when the i-th one hit. */
static uint32_t access_line(Cache *c, uint64_t line, const uint32_t *bits, uint32_t n, SectorOp op,
                            uint32_t *evicted_dirty)
{
    Way *way = find_way(c, set_of(c, line), line, op, evicted_dirty);
    if (!way)
        return 0;   /* writing through, not present: the writes pass by */
    uint32_t v = way->valid, hits = 0, touched = 0, uses = 0;
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
    way->valid = v;
    if (op == DO_WRITE_ALLOCATE)
        mark_dirty(c, way, touched);
    way->stamp = tick(c, uses);
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

/* 32 B sectors: the named sectors, placed at their offset from the start
 * of addr's line, are the valid bits of that line and the ones after it,
 * line_bytes / 32 bits each; the lines are done in ascending order. */
static G_ALWAYS_INLINE inline uint32_t access_sectors_32(Cache *c, uint64_t addr, uint32_t sectors, SectorOp op,
                                                         uint32_t *evicted_dirty)
{
    uint32_t per_line = c->line_sectors;
    uint64_t line = addr >> c->line_shift;
    uint32_t offset = (uint32_t)(addr >> 5) & (per_line - 1);
    uint64_t rest = (uint64_t)sectors << offset, hits = 0;
    if (!(rest & ~c->line_sector_mask))   /* the common case: one line */
        return access_line_mask(c, line, (uint32_t)rest, op, evicted_dirty) >> offset;
    for (uint32_t shift = 0; rest; shift += per_line, rest >>= per_line, line++) {
        uint32_t mask = (uint32_t)(rest & c->line_sector_mask);
        if (mask)
            hits |= (uint64_t)access_line_mask(c, line, mask, op, evicted_dirty) << shift;
    }
    return (uint32_t)(hits >> offset);
}

static G_ALWAYS_INLINE inline uint32_t access_sectors(Cache *c, uint64_t addr, uint32_t sectors, SectorOp op, uint32_t *evicted_dirty)
{
    if (c->nsets == 0 || !sectors)
        return 0;
    uint32_t hits = 0;
    if (c->sectors_32 && !(addr & 31))
        return access_sectors_32(c, addr, sectors, op, evicted_dirty);
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
    memset(c->set_at, 0, c->nsets * sizeof *c->set_at);
    c->sets_given = 0;
    c->dirty_sectors = 0;
    c->clock = 0;
}

uint64_t cache_dirty_sectors(const Cache *c)
{
    return c->dirty_sectors;
}

uint64_t cache_flush_dirty(Cache *c)
{
    uint64_t dirty = c->dirty_sectors;
    /* only sets in use can hold a filled way, and a count of 0 means none is dirty */
    for (size_t pos = 0; dirty && pos < c->sets_given; pos++) {
        uint8_t *block = pos_block(c, pos);
        for (uint32_t w = 0; w < block_head(block)->filled; w++)
            set_way(c, block, pos, w)->dirty = 0;
    }
    c->dirty_sectors = 0;
    return dirty;
}
