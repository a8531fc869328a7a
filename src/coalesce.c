/* coalesce.c — warp accesses to memory transactions (contract in coalesce.h;
 * the rules and their sources are in docs/memory-model.md).
 *
 * Every rule works on small stack arrays: the distinct blocks (lines,
 * segments, sectors) a group of lanes touches are gathered by a linear
 * search of the blocks found so far, newest first, and emitted in order of
 * first touch within each group (half-warp, or the sub-request of a wide
 * access).  Lanes are assumed to be size-aligned (the executor faults
 * otherwise), so no lane access crosses a 32 B sector; a lane that did would
 * still be charged for every sector it touches.
 */
#include "coalesce.h"

#include <string.h>

#include "popcount.h"

#define SECTOR_SHIFT 5
#define LINE_SHIFT 7
#define SECTOR_BYTES (1u << SECTOR_SHIFT)
#define LINE_BYTES (1u << LINE_SHIFT)
/* units one group of lanes can touch: 32 lanes x 2 (a lane crossing a boundary) */
#define MAX_UNITS 64

/* One distinct block (line, segment or sector) and what the lanes use of it. */
typedef struct {
    uint64_t key;       /* address >> shift */
    uint64_t lo, hi;    /* bytes used: [lo, hi) */
    uint32_t mask;      /* 32 B sectors used, for lines */
} Block;

typedef struct {
    Block b[MAX_UNITS];
    int n;
    uint64_t min_key, max_key;
} BlockSet;

/* Adds the block `key` or merges into it.  A key outside the range seen so
 * far is new without a search, so sequential, strided and reversed warps
 * cost one compare per lane; others are looked up newest first (a scattered
 * warp: at most 32 x 31 / 2 well-predicted compares, cheaper in practice
 * than sorting 32 keys with unpredictable branches). */
static void add_block(BlockSet *set, uint64_t key, uint64_t lo, uint64_t hi, uint32_t mask)
{
    if (set->n > 0 && key >= set->min_key && key <= set->max_key) {
        for (int i = set->n - 1; i >= 0; i--) {
            Block *b = &set->b[i];
            if (b->key == key) {
                if (lo < b->lo)
                    b->lo = lo;
                if (hi > b->hi)
                    b->hi = hi;
                b->mask |= mask;
                return;
            }
        }
    }
    if (set->n == MAX_UNITS)
        return;  /* unreachable: at most two blocks per lane */
    if (set->n == 0 || key < set->min_key)
        set->min_key = key;
    if (set->n == 0 || key > set->max_key)
        set->max_key = key;
    set->b[set->n++] = (Block){ key, lo, hi, mask };
}

static uint32_t lane_size(const WarpAccess *a)
{
    return a->size ? a->size : 1;
}

static inline void emit(CoalesceResult *out, uint64_t addr, uint32_t bytes, uint32_t sector_mask)
{
    if (out->ntrans >= COALESCE_MAX_TRANS)
        return;  /* unreachable for lanes of at most 16 B; never write past the array */
    MemTransaction *t = &out->trans[out->ntrans++];
    t->addr = addr;
    t->bytes = bytes;
    t->sector_mask = sector_mask;
    /* at most 4 sectors (128 B): their count from a table of nibbles */
    out->sectors += sector_mask < 16 ? (uint32_t)(0x4332322132212110ull >> (4 * sector_mask)) & 0xF
                                     : popcount32(sector_mask);
}

/* all 32 B sectors of a whole transaction of `bytes` */
static uint32_t all_sectors(uint32_t bytes)
{
    return (1u << (bytes / SECTOR_BYTES)) - 1;
}

/* the distinct (1 << shift)-byte blocks the lanes in `lanes` touch, in
 * order of first touch, with the 32 B sectors used in each */
static void collect_blocks(const WarpAccess *a, uint32_t lanes, int shift, BlockSet *set)
{
    uint64_t size = lane_size(a);
    set->n = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint64_t addr = a->addr[__builtin_ctz(m)];
        for (uint64_t s = addr >> SECTOR_SHIFT; s <= (addr + size - 1) >> SECTOR_SHIFT; s++) {
            uint64_t key = s >> (shift - SECTOR_SHIFT);
            uint32_t sector = (uint32_t)(s & ((1u << (shift - SECTOR_SHIFT)) - 1));
            add_block(set, key, addr, addr + size, 1u << sector);
        }
    }
}

/* cc 1.0/1.1: the in-order rule of one half-warp (lanes: its active lanes) */
static void half_warp_cc10(const WarpAccess *a, int first_lane, uint32_t lanes, CoalesceResult *out)
{
    uint64_t size = lane_size(a);
    bool coalesced = size == 4 || size == 8 || size == 16;
    uint64_t base = 0;
    if (coalesced) {
        int k0 = __builtin_ctz(lanes);
        uint64_t align = size == 4 ? 64 : 128;  /* 16 words of 4 B in 64 B; of 8 or 16 B from a 128 B boundary */
        uint64_t a0 = a->addr[first_lane + k0];
        coalesced = a0 >= (uint64_t)k0 * size;
        base = a0 - (uint64_t)k0 * size;
        coalesced = coalesced && base % align == 0;
        for (uint32_t m = lanes; m && coalesced; m &= m - 1) {
            int k = __builtin_ctz(m);
            coalesced = a->addr[first_lane + k] == base + (uint64_t)k * size;
        }
    }
    if (coalesced) {
        if (size == 4) {
            emit(out, base, 64, all_sectors(64));
        } else {
            emit(out, base, 128, all_sectors(128));
            if (size == 16)
                emit(out, base + 128, 128, all_sectors(128));
        }
        return;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
        int lane = first_lane + __builtin_ctz(m);
        emit(out, a->addr[lane] & ~(uint64_t)(SECTOR_BYTES - 1), SECTOR_BYTES, 1);
    }
}

/* cc 1.2/1.3: one transaction per segment the half-warp addresses, shrunk
 * to the half (then quarter) that holds every byte used */
static void half_warp_cc12(const WarpAccess *a, uint32_t lanes, CoalesceResult *out)
{
    uint64_t size = lane_size(a);
    uint64_t seg_bytes = size == 1 ? 32 : size == 2 ? 64 : 128;
    BlockSet segs;
    segs.n = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint64_t addr = a->addr[__builtin_ctz(m)];
        add_block(&segs, addr & ~(seg_bytes - 1), addr, addr + size, 0);
    }
    for (int i = 0; i < segs.n; i++) {
        uint64_t seg = segs.b[i].key, lo = segs.b[i].lo, hi = segs.b[i].hi;
        if (hi > seg + seg_bytes)
            hi = seg + seg_bytes;  /* only a misaligned lane could reach past it */
        uint64_t t_addr = seg, t_bytes = seg_bytes;
        while (t_bytes > SECTOR_BYTES) {
            uint64_t half = t_bytes / 2;
            if (hi <= t_addr + half) {
                t_bytes = half;
            } else if (lo >= t_addr + half) {
                t_addr += half;
                t_bytes = half;
            } else {
                break;
            }
        }
        emit(out, t_addr, (uint32_t)t_bytes, all_sectors((uint32_t)t_bytes));
    }
}

/* cc 2.x: one request's distinct 128 B lines (L1-cached) or 32 B segments */
static void request_cc20(const WarpAccess *a, uint32_t lanes, bool l1_cached, CoalesceResult *out)
{
    int shift = l1_cached ? LINE_SHIFT : SECTOR_SHIFT;
    uint32_t unit = 1u << shift;
    BlockSet blocks;
    collect_blocks(a, lanes, shift, &blocks);
    for (int i = 0; i < blocks.n; i++)
        emit(out, blocks.b[i].key << shift, unit, all_sectors(unit));
}

/* The sector rule for the commonest warp of all: every lane active, lane l
 * at base + l * size with base aligned to size (a power of two of at most
 * 32 B), so the lanes cover [base, base + 32 size) without a gap.  Its
 * lines and sectors follow from the two ends, in the order lanes touch
 * them, as warp_sector's walk over the lanes would find them. */
static void warp_sector_consecutive(uint64_t base, uint64_t size, CoalesceResult *out)
{
    uint64_t end = base + 32 * size; /* exclusive */
    for (uint64_t line = base >> LINE_SHIFT; line <= (end - 1) >> LINE_SHIFT; line++) {
        uint64_t lo = MAX(base, line << LINE_SHIFT), hi = MIN(end, (line + 1) << LINE_SHIFT);
        uint32_t first = (uint32_t)(lo >> SECTOR_SHIFT) % (LINE_BYTES / SECTOR_BYTES);
        uint32_t last = (uint32_t)((hi - 1) >> SECTOR_SHIFT) % (LINE_BYTES / SECTOR_BYTES);
        emit(out, line << LINE_SHIFT, LINE_BYTES, (2u << last) - (1u << first));
    }
}

/* The next lane (or sector) at addr of a walk up the addresses: a new
 * line closes the newest one. */
static inline void ascending_lane(uint64_t addr, uint64_t *newest, uint32_t *mask, CoalesceResult *out)
{
    uint64_t key = addr >> LINE_SHIFT;
    if (key != *newest) {
        emit(out, *newest << LINE_SHIFT, LINE_BYTES, *mask);
        *newest = key;
        *mask = 0;
    }
    *mask |= 1u << ((addr >> SECTOR_SHIFT) & (LINE_BYTES / SECTOR_BYTES - 1));
}

/* The active lanes at base + i * stride for bit i of `lanes` (bit 0 set:
 * the first active lane is at base), aligned to their size, the addresses
 * ascending without wrapping (a strided warp, divergent or not, or lanes
 * all on one address): a lane's line is never older than the newest, so
 * the lines come out in order with the sectors of their run of lanes,
 * which is what warp_sector's walk finds, without its loads and searches. */
static void warp_sector_ascending(uint64_t base, uint64_t stride, uint32_t lanes, CoalesceResult *out)
{
    uint64_t newest = base >> LINE_SHIFT;
    uint32_t mask = 0;
    if (lanes == 0xFFFFFFFFu) { /* every lane: the next address by a step, not from its lane number */
        uint64_t addr = base;
        for (int i = 0; i < 32; i++, addr += stride)
            ascending_lane(addr, &newest, &mask, out);
    } else {
        for (uint32_t m = lanes; m; m &= m - 1)
            ascending_lane(base + (uint64_t)__builtin_ctz(m) * stride, &newest, &mask, out);
    }
    emit(out, newest << LINE_SHIFT, LINE_BYTES, mask);
}

/* The sector rule for a divergent warp's consecutive lanes: the active
 * lanes at base + i * size for bit i of `lanes` (bit 0 set), base aligned
 * to size (a power of two of at most 32 B).  A sector holds a run of
 * 32 / size lanes, so the sectors used follow from the mask a run at a
 * time, in ascending order, and a line is the sectors of it that some
 * active lane uses: what warp_sector's walk finds. */
static void warp_sector_consecutive_lanes(uint64_t base, uint64_t size, uint32_t lanes, CoalesceResult *out)
{
    uint32_t per = (uint32_t)(SECTOR_BYTES / size);
    /* lanes of base's sector before base: the runs start there */
    uint64_t runs = (uint64_t)lanes << ((base & (SECTOR_BYTES - 1)) / size);
    uint64_t run = per >= 32 ? 0xFFFFFFFFu : (1u << per) - 1;
    uint64_t sector = base >> SECTOR_SHIFT, newest = sector >> (LINE_SHIFT - SECTOR_SHIFT);
    uint32_t mask = 0;
    for (; runs; runs >>= per, sector++)
        if (runs & run)
            ascending_lane(sector << SECTOR_SHIFT, &newest, &mask, out);
    emit(out, newest << LINE_SHIFT, LINE_BYTES, mask);
}

/* Lanes known to ascend (coalesce_ascending) or not known either way. */
typedef struct {
    bool known;
    uint32_t first;
    uint64_t stride;
} Ascending;

/* cc >= 3: one transaction per 128 B line with the sectors touched in it.
 * Lanes of a power-of-two size aligned to it (every lane the executor
 * lets through) lie inside one 32 B sector each and take a lean path: a
 * key and a sector bit per lane, merged into the newest line first (the
 * common case: consecutive lanes on one line), else into an older one
 * found newest first, with the same order of first touch and the same
 * merging as collect_blocks(), which the others take.  A warp known
 * to ascend (asc) skips finding that out again. */
static void warp_sector(const WarpAccess *a, const Ascending *asc, CoalesceResult *out)
{
    uint64_t size = lane_size(a);
    if ((size & (size - 1)) || size > SECTOR_BYTES)
        goto crossing;
    uint32_t first = asc->first;
    uint64_t stride = asc->stride;
    if ((asc->known || warp_lanes_ascending(a, &first, &stride)) && !((a->addr[first] | stride) & (size - 1))) {
        uint64_t base = a->addr[first];
        uint32_t lanes = a->mask >> first;
        if (stride == size && a->mask == 0xFFFFFFFFu)
            warp_sector_consecutive(base, size, out);
        else if (stride == size)
            warp_sector_consecutive_lanes(base, size, lanes, out);
        else
            warp_sector_ascending(base, stride, lanes, out);
        return;
    }
    uint64_t keys[32], newest = UINT64_MAX, min_key = UINT64_MAX, max_key = 0, low_bits = 0;
    uint32_t masks[32], newest_mask = 0;   /* masks[n - 1] is kept in newest_mask */
    int n = 0;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        uint64_t addr = a->addr[__builtin_ctz(m)];
        low_bits |= addr;
        uint64_t key = addr >> LINE_SHIFT;   /* never UINT64_MAX */
        uint32_t bit = 1u << ((addr >> SECTOR_SHIFT) & (LINE_BYTES / SECTOR_BYTES - 1));
        if (key == newest) {
            newest_mask |= bit;
            continue;
        }
        if (key >= min_key && key <= max_key) {
            int i = n - 2;
            while (i >= 0 && keys[i] != key)
                i--;
            if (i >= 0) {
                masks[i] |= bit;
                continue;
            }
        }
        if (n > 0)
            masks[n - 1] = newest_mask;
        min_key = key < min_key ? key : min_key;
        max_key = key > max_key ? key : max_key;
        keys[n++] = newest = key;
        newest_mask = bit;
    }
    if (n > 0)
        masks[n - 1] = newest_mask;
    if (low_bits & (size - 1))
        goto crossing;   /* a lane off its size's alignment may cross a sector */
    for (int i = 0; i < n; i++)
        emit(out, keys[i] << LINE_SHIFT, LINE_BYTES, masks[i]);
    return;
crossing:;
    BlockSet lines;
    collect_blocks(a, a->mask, LINE_SHIFT, &lines);
    for (int i = 0; i < lines.n; i++)
        emit(out, lines.b[i].key << LINE_SHIFT, LINE_BYTES, lines.b[i].mask);
}

/* Whether no two transactions overlap, seen cheaply: their ranges follow
 * each other in one direction (a strided or reversed warp under the
 * per-lane rules); otherwise unknown, and callers must look. */
static bool transactions_ordered(const CoalesceResult *out)
{
    bool up = true, down = true;
    for (uint32_t i = 1; i < out->ntrans && (up || down); i++) {
        const MemTransaction *p = &out->trans[i - 1], *t = &out->trans[i];
        up = up && t->addr >= p->addr + p->bytes;
        down = down && t->addr + t->bytes <= p->addr;
    }
    return up || down;
}

static void coalesce_known(CoalesceRule rule, const WarpAccess *a, bool l1_cached, const Ascending *asc,
                           CoalesceResult *out)
{
    out->requests = 0;
    out->sectors = 0;
    out->ntrans = 0;
    out->distinct_sectors = rule == COALESCE_SECTOR || (rule == COALESCE_CC20 && lane_size(a) < 8);
    if (a->mask == 0)
        return;
    out->requests = 1;

    switch (rule) {
    case COALESCE_CC10:
    case COALESCE_CC12:
        for (int h = 0; h < 2; h++) {
            uint32_t lanes = (a->mask >> (16 * h)) & 0xFFFFu;
            if (!lanes)
                continue;
            if (rule == COALESCE_CC10)
                half_warp_cc10(a, 16 * h, lanes, out);
            else
                half_warp_cc12(a, lanes << (16 * h), out);
        }
        break;
    case COALESCE_CC20: {
        /* wider than 4 B: the warp's request is first split into one
         * request per half-warp (8 B) or quarter-warp (16 B) */
        uint32_t size = lane_size(a);
        int group = size >= 16 ? 8 : size >= 8 ? 16 : 32;
        uint32_t group_mask = group == 32 ? 0xFFFFFFFFu : (1u << group) - 1;
        for (int g = 0; g < 32; g += group) {
            uint32_t lanes = a->mask & (group_mask << g);
            if (lanes)
                request_cc20(a, lanes, l1_cached, out);
        }
        break;
    }
    case COALESCE_SECTOR:
        warp_sector(a, asc, out);
        break;
    }
    if (!out->distinct_sectors)
        out->distinct_sectors = transactions_ordered(out);
}

void coalesce(CoalesceRule rule, const WarpAccess *a, bool l1_cached, CoalesceResult *out)
{
    coalesce_known(rule, a, l1_cached, &(Ascending){0}, out);
}

void coalesce_ascending(CoalesceRule rule, const WarpAccess *a, bool l1_cached, uint32_t first, uint64_t stride,
                        CoalesceResult *out)
{
    coalesce_known(rule, a, l1_cached, &(Ascending){true, first, stride}, out);
}
