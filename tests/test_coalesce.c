/* test_coalesce.c — transactions of warp accesses under each generation's rule.
 *
 * Every expected count is worked out by hand in the comments from the
 * guide's rules (docs/memory-model.md), never taken from coalesce().
 */
#include <check.h>
#include <stdlib.h>

#include "coalesce.h"
#include "testutil.h"

#define BASE 0x10000000ull  /* 256-byte aligned, like cudaMalloc */

/* all lanes in mask access size bytes at base + lane*stride */
static WarpAccess strided(uint32_t mask, uint32_t size, uint64_t base, uint64_t stride)
{
    WarpAccess a = { .mask = mask, .size = size };
    for (int i = 0; i < 32; i++)
        a.addr[i] = base + (uint64_t)i * stride;
    return a;
}

static CoalesceResult run(CoalesceRule rule, const WarpAccess *a, bool cached)
{
    CoalesceResult r;
    coalesce(rule, a, cached, &r);
    return r;
}

/* a transaction with this address, size and sector mask is in r */
static int has(const CoalesceResult *r, uint64_t addr, uint32_t bytes, uint32_t mask)
{
    for (uint32_t i = 0; i < r->ntrans; i++)
        if (r->trans[i].addr == addr && r->trans[i].bytes == bytes && r->trans[i].sector_mask == mask)
            return 1;
    return 0;
}

/* ---- sector rule (cc >= 3) ---------------------------------------------- */

START_TEST(sector_unit_stride)
{
    WarpAccess a = strided(0xFFFFFFFF, 4, BASE, 4);     /* 128 B in one line */
    CoalesceResult r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.requests, 1);
    ck_assert_uint_eq(r.sectors, 4);
    ck_assert_uint_eq(r.ntrans, 1);
    ck_assert(has(&r, BASE, 128, 0xF));

    a = strided(0xFFFFFFFF, 8, BASE, 8);                /* 256 B: two full lines */
    r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.requests, 1);
    ck_assert_uint_eq(r.sectors, 8);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert(has(&r, BASE + 128, 128, 0xF));

    a = strided(0xFFFFFFFF, 16, BASE, 16);              /* 512 B: four lines */
    r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 16);
    ck_assert_uint_eq(r.ntrans, 4);
}
END_TEST

START_TEST(sector_misaligned)
{
    /* bytes 4..131: sectors 0-3 of line 0, sector 0 of line 1 */
    WarpAccess a = strided(0xFFFFFFFF, 4, BASE + 4, 4);
    CoalesceResult r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 5);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert(has(&r, BASE, 128, 0xF));
    ck_assert(has(&r, BASE + 128, 128, 0x1));
}
END_TEST

START_TEST(sector_strides)
{
    /* stride s words of 4 B: the warp spans 128 s bytes.  s = 2, 4: every
     * sector of 128 s / 32 = 4 s sectors is touched (lanes 8 or 16 B apart);
     * s >= 8: lanes are >= 32 B apart, one sector each = 32; lines = s. */
    static const struct { uint64_t words; uint32_t sectors, lines; } cases[] = {
        { 2, 8, 2 }, { 4, 16, 4 }, { 8, 32, 8 }, { 16, 32, 16 }, { 32, 32, 32 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        WarpAccess a = strided(0xFFFFFFFF, 4, BASE, 4 * cases[i].words);
        CoalesceResult r = run(COALESCE_SECTOR, &a, false);
        ck_assert_uint_eq(r.requests, 1);
        ck_assert_uint_eq(r.sectors, cases[i].sectors);
        ck_assert_uint_eq(r.ntrans, cases[i].lines);
    }
}
END_TEST

START_TEST(sector_broadcast_and_permutation)
{
    WarpAccess a = strided(0xFFFFFFFF, 4, BASE + 40, 0);  /* every lane the same word */
    CoalesceResult r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 1);
    ck_assert_uint_eq(r.ntrans, 1);
    ck_assert(has(&r, BASE, 128, 0x2));                   /* byte 40 is in sector 1 */

    /* lane i reads word (7 i + 3) mod 32: a permutation of one 128 B line */
    for (int i = 0; i < 32; i++)
        a.addr[i] = BASE + 4 * (uint64_t)((7 * i + 3) % 32);
    r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 4);
    ck_assert_uint_eq(r.ntrans, 1);

    /* reversed order over two lines: lane i reads word 63 - 2 i */
    for (int i = 0; i < 32; i++)
        a.addr[i] = BASE + 4 * (uint64_t)(63 - 2 * i);
    r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 8);
    ck_assert_uint_eq(r.ntrans, 2);
}
END_TEST

START_TEST(sector_partial_masks)
{
    WarpAccess a = strided(0x000000FF, 4, BASE, 4);       /* lanes 0-7: bytes 0..31 */
    CoalesceResult r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.requests, 1);
    ck_assert_uint_eq(r.sectors, 1);

    a.mask = 0x80000001;                                  /* bytes 0 and 124 */
    r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 2);
    ck_assert_uint_eq(r.ntrans, 1);
    ck_assert(has(&r, BASE, 128, 0x9));

    a.mask = 0xFF00FF00;                                  /* lanes 8-15, 24-31: sectors 1 and 3 */
    r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 2);
    ck_assert(has(&r, BASE, 128, 0xA));

    a.mask = 0;
    r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.requests, 0);
    ck_assert_uint_eq(r.sectors, 0);
    ck_assert_uint_eq(r.ntrans, 0);
}
END_TEST

START_TEST(sector_small_words)
{
    WarpAccess a = strided(0xFFFFFFFF, 1, BASE, 1);       /* 32 bytes */
    CoalesceResult r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 1);
    a = strided(0xFFFFFFFF, 2, BASE, 2);                  /* 64 bytes */
    r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.sectors, 2);
    ck_assert_uint_eq(r.ntrans, 1);
}
END_TEST

/* ---- cc 1.0 / 1.1 ------------------------------------------------------- */

START_TEST(cc10_in_order)
{
    /* 4 B words, thread k word k of an aligned 64 B segment: one 64 B per half-warp */
    WarpAccess a = strided(0xFFFFFFFF, 4, BASE, 4);
    CoalesceResult r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.requests, 1);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert_uint_eq(r.sectors, 4);
    ck_assert(has(&r, BASE, 64, 0x3));
    ck_assert(has(&r, BASE + 64, 64, 0x3));

    /* inactive lanes do not break coalescing (lanes 3 and 20 off) */
    a.mask = ~((1u << 3) | (1u << 20));
    r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 2);

    /* 8 B: one 128 B per half-warp; 16 B: two 128 B per half-warp */
    a = strided(0xFFFFFFFF, 8, BASE, 8);
    r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert_uint_eq(r.sectors, 8);
    ck_assert(has(&r, BASE + 128, 128, 0xF));
    a = strided(0xFFFFFFFF, 16, BASE, 16);
    r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 4);
    ck_assert_uint_eq(r.sectors, 16);
    /* 16 B words need only 128 B alignment, not 256 */
    a = strided(0x0000FFFF, 16, BASE + 128, 16);
    r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 2);
}
END_TEST

START_TEST(cc10_permuted_and_misaligned)
{
    /* lanes 0 and 1 swapped in the first half-warp: 16 separate 32 B
     * transactions there, the second half-warp still one 64 B */
    WarpAccess a = strided(0xFFFFFFFF, 4, BASE, 4);
    a.addr[0] = BASE + 4;
    a.addr[1] = BASE;
    CoalesceResult r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 17);
    ck_assert_uint_eq(r.sectors, 16 + 2);

    /* shifted by one word: neither half-warp is aligned -> 32 x 32 B */
    a = strided(0xFFFFFFFF, 4, BASE + 4, 4);
    r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 32);
    ck_assert_uint_eq(r.sectors, 32);

    /* the same with only 5 lanes of one half-warp active: one per active lane */
    a.mask = 0x1F;
    r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 5);

    /* 1 and 2 byte words never coalesce */
    a = strided(0xFFFFFFFF, 2, BASE, 2);
    r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 32);

    /* all lanes one word: not "word k", so 16 transactions per half-warp */
    a = strided(0xFFFFFFFF, 4, BASE, 0);
    r = run(COALESCE_CC10, &a, false);
    ck_assert_uint_eq(r.ntrans, 32);
}
END_TEST

/* ---- cc 1.2 / 1.3 ------------------------------------------------------- */

START_TEST(cc12_guide_examples)
{
    /* aligned 4 B words: each half-warp uses one 64 B half of the 128 B segment */
    WarpAccess a = strided(0xFFFFFFFF, 4, BASE, 4);
    CoalesceResult r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.requests, 1);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert(has(&r, BASE, 64, 0x3));
    ck_assert(has(&r, BASE + 64, 64, 0x3));

    /* any permutation inside one 64 B half: still one 64 B transaction */
    for (int i = 0; i < 16; i++)
        a.addr[i] = BASE + 4 * (uint64_t)((5 * i + 9) % 16);
    a.mask = 0xFFFF;
    r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 1);
    ck_assert(has(&r, BASE, 64, 0x3));

    /* misaligned by one word: half-warp 0 bytes 4..67 (both halves of
     * segment 0: 128 B); half-warp 1 bytes 68..127 (upper half: 64 B at 64)
     * and 128..131 (32 B at 128) */
    a = strided(0xFFFFFFFF, 4, BASE + 4, 4);
    r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 3);
    ck_assert_uint_eq(r.sectors, 4 + 2 + 1);
    ck_assert(has(&r, BASE, 128, 0xF));
    ck_assert(has(&r, BASE + 64, 64, 0x3));
    ck_assert(has(&r, BASE + 128, 32, 0x1));

    /* sequential but across two segments (Best Practices figure: one 64 B
     * and one 32 B): one half-warp at bytes 80..143; segment 0 uses 80..127
     * (upper half, both its quarters: 64 B at 64), segment 1 uses 128..143
     * (first quarter: 32 B at 128) */
    a = strided(0x0000FFFF, 4, BASE + 80, 4);
    r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert_uint_eq(r.sectors, 3);
    ck_assert(has(&r, BASE + 64, 64, 0x3));
    ck_assert(has(&r, BASE + 128, 32, 0x1));

    /* a half-warp inside one 32 B quarter: 32 B */
    a = strided(0x0000FFFF, 4, BASE + 32, 0);
    a.addr[5] = BASE + 60;
    r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 1);
    ck_assert(has(&r, BASE + 32, 32, 0x1));
}
END_TEST

START_TEST(cc12_word_sizes)
{
    /* 1 B words, 32 B segments: each half-warp reads 16 bytes of segment 0 */
    WarpAccess a = strided(0xFFFFFFFF, 1, BASE, 1);
    CoalesceResult r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert_uint_eq(r.sectors, 2);
    /* 2 B words, 64 B segments: half-warp 0 bytes 0..31, 1 bytes 32..63 */
    a = strided(0xFFFFFFFF, 2, BASE, 2);
    r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert(has(&r, BASE, 32, 0x1));
    ck_assert(has(&r, BASE + 32, 32, 0x1));
    /* 8 B: 128 B per half-warp; 16 B: 256 B per half-warp = two segments each */
    a = strided(0xFFFFFFFF, 8, BASE, 8);
    r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert_uint_eq(r.sectors, 8);
    a = strided(0xFFFFFFFF, 16, BASE, 16);
    r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 4);
    ck_assert_uint_eq(r.sectors, 16);
    /* stride 32 words: every lane its own segment, each shrunk to 32 B */
    a = strided(0xFFFFFFFF, 4, BASE, 128);
    r = run(COALESCE_CC12, &a, false);
    ck_assert_uint_eq(r.ntrans, 32);
    ck_assert_uint_eq(r.sectors, 32);
}
END_TEST

/* ---- cc 2.x ------------------------------------------------------------- */

START_TEST(cc20_cached_and_uncached)
{
    WarpAccess a = strided(0xFFFFFFFF, 4, BASE, 4);
    CoalesceResult r = run(COALESCE_CC20, &a, true);
    ck_assert_uint_eq(r.requests, 1);
    ck_assert_uint_eq(r.ntrans, 1);
    ck_assert_uint_eq(r.sectors, 4);
    ck_assert(has(&r, BASE, 128, 0xF));
    r = run(COALESCE_CC20, &a, false);
    ck_assert_uint_eq(r.ntrans, 4);
    ck_assert_uint_eq(r.sectors, 4);
    ck_assert(has(&r, BASE + 96, 32, 0x1));

    /* misaligned by a word: 2 lines cached, 5 segments uncached */
    a = strided(0xFFFFFFFF, 4, BASE + 4, 4);
    ck_assert_uint_eq(run(COALESCE_CC20, &a, true).ntrans, 2);
    ck_assert_uint_eq(run(COALESCE_CC20, &a, true).sectors, 8);
    ck_assert_uint_eq(run(COALESCE_CC20, &a, false).ntrans, 5);

    /* scattered (stride 64 words): 32 lines of 128 B vs 32 segments of 32 B */
    a = strided(0xFFFFFFFF, 4, BASE, 256);
    ck_assert_uint_eq(run(COALESCE_CC20, &a, true).sectors, 128);
    ck_assert_uint_eq(run(COALESCE_CC20, &a, false).sectors, 32);
}
END_TEST

START_TEST(cc20_wide_words_split)
{
    /* 8 B words: one request per half-warp, each broken into lines; unit
     * stride gives lines 0 and 1, one per half-warp */
    WarpAccess a = strided(0xFFFFFFFF, 8, BASE, 8);
    CoalesceResult r = run(COALESCE_CC20, &a, true);
    ck_assert_uint_eq(r.ntrans, 2);
    /* every lane the same 8 B word: both half-warp requests fetch the line */
    a = strided(0xFFFFFFFF, 8, BASE, 0);
    r = run(COALESCE_CC20, &a, true);
    ck_assert_uint_eq(r.ntrans, 2);
    /* 4 B broadcast stays one request, one line */
    a = strided(0xFFFFFFFF, 4, BASE, 0);
    ck_assert_uint_eq(run(COALESCE_CC20, &a, true).ntrans, 1);
    /* 16 B broadcast: four quarter-warp requests; only lanes 0-7 active: one */
    a = strided(0xFFFFFFFF, 16, BASE, 0);
    ck_assert_uint_eq(run(COALESCE_CC20, &a, true).ntrans, 4);
    a.mask = 0xFF;
    ck_assert_uint_eq(run(COALESCE_CC20, &a, true).ntrans, 1);
}
END_TEST

START_TEST(sector_lane_crossing_sectors)
{
    /* lanes are size-aligned in practice, but one that is not is charged
     * for every sector it touches: lane 0 reads 8 B at 28 (sectors 0 and 1
     * of line 0), lane 1 8 B at 124 (sector 3 of line 0, sector 0 of line 1),
     * lane 2 8 B at 256 (sector 0 of line 2) */
    WarpAccess a = { .mask = 0x7, .size = 8 };
    a.addr[0] = BASE + 28;
    a.addr[1] = BASE + 124;
    a.addr[2] = BASE + 256;
    CoalesceResult r = run(COALESCE_SECTOR, &a, false);
    ck_assert_uint_eq(r.ntrans, 3);
    ck_assert_uint_eq(r.sectors, 5);
    ck_assert(has(&r, BASE, 128, 0xB));
    ck_assert(has(&r, BASE + 128, 128, 0x1));
    ck_assert(has(&r, BASE + 256, 128, 0x1));
    ck_assert_uint_eq(r.trans[0].addr, BASE);          /* order of first touch */
    ck_assert_uint_eq(r.trans[2].addr, BASE + 256);
}
END_TEST

/* some 32 B sector is in two of r's transactions */
static int repeats_a_sector(const CoalesceResult *r)
{
    for (uint32_t i = 0; i < r->ntrans; i++)
        for (uint32_t j = i + 1; j < r->ntrans; j++)
            for (uint32_t s = 0; s < r->trans[i].bytes / 32; s++)
                for (uint32_t k = 0; k < r->trans[j].bytes / 32; k++)
                    if ((r->trans[i].sector_mask >> s & 1) && (r->trans[j].sector_mask >> k & 1)
                        && r->trans[i].addr + 32 * s == r->trans[j].addr + 32 * k)
                        return 1;
    return 0;
}

START_TEST(distinct_sectors_flag)
{
    /* scattered warps: the sector rule and cc 2.x with 4 B words never
     * repeat a sector, and say so */
    srand(7);
    for (int trial = 0; trial < 200; trial++) {
        WarpAccess a = { .mask = (uint32_t)rand() | 1u, .size = 4 };
        for (int i = 0; i < 32; i++)
            a.addr[i] = BASE + 4 * (uint64_t)(rand() % 256);   /* 1 KiB: many shared lines */
        CoalesceResult r = run(COALESCE_SECTOR, &a, false);
        ck_assert(r.distinct_sectors);
        ck_assert(!repeats_a_sector(&r));
        r = run(COALESCE_CC20, &a, trial % 2);
        ck_assert(r.distinct_sectors);
        ck_assert(!repeats_a_sector(&r));
    }
    /* 8 B words on cc 2.x: each half-warp is a request, so a broadcast
     * gives the same line twice; the flag must not claim otherwise */
    WarpAccess b = strided(0xFFFFFFFF, 8, BASE, 0);
    CoalesceResult r = run(COALESCE_CC20, &b, true);
    ck_assert_uint_eq(r.ntrans, 2);
    ck_assert(repeats_a_sector(&r));
    ck_assert(!r.distinct_sectors);
    /* cc 1.x: one transaction per lane when not coalesced */
    r = run(COALESCE_CC10, &b, false);
    ck_assert(repeats_a_sector(&r));
    ck_assert(!r.distinct_sectors);
    /* a strided or reversed warp under the per-lane rules: transactions
     * that follow each other in one direction are seen to be distinct */
    WarpAccess up = strided(0xFFFFFFFF, 4, BASE, 32), down = strided(0xFFFFFFFF, 4, BASE + 31 * 64, 0);
    for (int i = 0; i < 32; i++)
        down.addr[i] = BASE + (uint64_t)(31 - i) * 64;
    CoalesceRule per_lane[] = {COALESCE_CC10, COALESCE_CC12};
    for (int k = 0; k < 2; k++) {
        r = run(per_lane[k], &up, false);
        ck_assert_uint_eq(r.ntrans, k == 0 ? 32 : 8);   /* cc 1.2: a 128 B segment per 4 lanes */
        ck_assert(r.distinct_sectors);
        r = run(per_lane[k], &down, false);
        ck_assert_uint_eq(r.ntrans, k == 0 ? 32 : 16);  /* 64 B apart: two lanes per segment */
        ck_assert(r.distinct_sectors);
    }
    /* and whatever the rule and word size, the flag never claims distinct
     * sectors that repeat (random warps over a few lines, where they do) */
    CoalesceRule rules[] = {COALESCE_CC10, COALESCE_CC12, COALESCE_CC20, COALESCE_SECTOR};
    uint32_t sizes[] = {1, 2, 4, 8, 16};
    int claimed = 0, repeated = 0;
    for (int trial = 0; trial < 400; trial++) {
        uint32_t size = sizes[trial % 5];
        WarpAccess c = { .mask = (uint32_t)rand() | 1u, .size = size };
        bool ordered = trial % 3 == 0; /* strided: distinct more often than not */
        for (int i = 0; i < 32; i++)
            c.addr[i] = BASE + size * (ordered ? (uint64_t)i * (1 + trial % 9) : (uint64_t)(rand() % 64));
        r = run(rules[trial % 4], &c, trial % 2);
        claimed += r.distinct_sectors;
        repeated += repeats_a_sector(&r);
        ck_assert(!(r.distinct_sectors && repeats_a_sector(&r)));
    }
    ck_assert_int_gt(claimed, 50);   /* both cases were exercised */
    ck_assert_int_gt(repeated, 50);
}
END_TEST

/* The sector rule by its definition, lane by lane: the 128 B lines in
 * order of first touch, each with the 32 B sectors its lanes touch (lanes
 * aligned to their size, so each lies inside one sector). */
static void sector_reference(const WarpAccess *a, CoalesceResult *r)
{
    r->ntrans = 0;
    r->sectors = 0;
    for (int l = 0; l < 32; l++) {
        if (!(a->mask >> l & 1))
            continue;
        uint64_t line = a->addr[l] & ~127ull;
        uint32_t bit = 1u << ((a->addr[l] >> 5) & 3), i = 0;
        while (i < r->ntrans && r->trans[i].addr != line)
            i++;
        if (i == r->ntrans)
            r->trans[r->ntrans++] = (MemTransaction){line, 128, 0};
        r->sectors += !(r->trans[i].sector_mask & bit);
        r->trans[i].sector_mask |= bit;
    }
}

/* Warps whose lanes ascend that expect_sector_reference() also gave to
 * coalesce_ascending(). */
static int ascending_checked;

/* The coalescer's sector rule for `a` (one request) against the reference;
 * where the lanes ascend, coalesce_ascending() told so gives the same. */
static void expect_sector_reference(const WarpAccess *a)
{
    CoalesceResult got = run(COALESCE_SECTOR, a, false), want;
    sector_reference(a, &want);
    ck_assert_uint_eq(got.requests, 1);
    ck_assert_uint_eq(got.ntrans, want.ntrans);
    ck_assert_uint_eq(got.sectors, want.sectors);
    for (uint32_t i = 0; i < want.ntrans; i++) {
        ck_assert_uint_eq(got.trans[i].addr, want.trans[i].addr);
        ck_assert_uint_eq(got.trans[i].bytes, 128);
        ck_assert_uint_eq(got.trans[i].sector_mask, want.trans[i].sector_mask);
    }
    uint32_t first;
    uint64_t stride;
    if (a->mask && warp_lanes_ascending(a, &first, &stride)) {
        CoalesceResult known;
        coalesce_ascending(COALESCE_SECTOR, a, false, first, stride, &known);
        ck_assert_uint_eq(known.requests, got.requests);
        ck_assert_uint_eq(known.ntrans, got.ntrans);
        ck_assert_uint_eq(known.sectors, got.sectors);
        ck_assert_int_eq(known.distinct_sectors, got.distinct_sectors);
        ck_assert_int_eq(memcmp(known.trans, got.trans, got.ntrans * sizeof got.trans[0]), 0);
        ascending_checked++;
    }
}

START_TEST(sector_consecutive_lanes_every_offset)
{
    /* whole warps on consecutive elements (the coalescer's shortcut), at
     * every aligned offset in two lines and every word size, against the
     * rule applied lane by lane; then the same warps with one lane moved
     * or switched off, which leave the shortcut */
    uint32_t sizes[] = {1, 2, 4, 8, 16};
    int checked = 0;
    for (int k = 0; k < 5; k++) {
        for (uint64_t off = 0; off < 256; off += sizes[k]) {
            for (int variant = 0; variant < 3; variant++) {
                WarpAccess a = strided(0xFFFFFFFF, sizes[k], BASE + off, sizes[k]);
                if (variant == 1)
                    a.addr[17] += 512; /* one lane elsewhere */
                if (variant == 2)
                    a.mask &= ~(1u << 5);
                expect_sector_reference(&a);
                checked++;
            }
        }
    }
    ck_assert_int_eq(checked, 3 * (256 + 128 + 64 + 32 + 16));
}
END_TEST

START_TEST(sector_divergent_strided_warps)
{
    /* divergent warps whose active lanes step by one stride (the
     * coalescer's shortcut for them), with stale addresses in the inactive
     * lanes, against the rule applied lane by lane; then the same warps
     * with one active lane moved, which leave the shortcut */
    uint32_t sizes[] = {1, 2, 4, 8, 16};
    uint64_t strides[] = {0, 1, 2, 3, 4, 8, 12, 16, 32, 40, 64, 128, 256, 4096};
    srand(7);
    int shortcut = 0, moved = 0;
    for (int trial = 0; trial < 20000; trial++) {
        uint32_t size = sizes[trial % 5];
        uint64_t stride = strides[rand() % 14] * size;
        uint32_t mask = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
        if (trial % 3 == 0)
            mask &= mask >> (1 + rand() % 8); /* sparser */
        if (!mask)
            mask = 1u << (rand() % 32);
        WarpAccess a = strided(mask, size, BASE + size * (uint64_t)(rand() % 256), stride);
        for (int l = 0; l < 32; l++)
            if (!(mask >> l & 1))
                a.addr[l] = (uint64_t)rand() * 977; /* stale: must not matter */
        if (trial % 4 == 3 && (mask & (mask - 1))) { /* an active lane (not the first) off the stride */
            int l = 31 - __builtin_clz(mask);
            a.addr[l] += size * (uint64_t)(1 + rand() % 300);
            moved++;
        } else {
            shortcut++;
        }
        expect_sector_reference(&a);
    }
    ck_assert_int_gt(shortcut, 10000);
    ck_assert_int_gt(moved, 3000);
}
END_TEST

START_TEST(sector_full_strided_warps)
{
    /* whole warps on a stride (the shortcut's step-by-step walk), every
     * size, stride and offset in a line and a half, against the rule lane
     * by lane */
    uint32_t sizes[] = {1, 2, 4, 8, 16};
    uint64_t strides[] = {0, 2, 3, 4, 8, 12, 16, 32, 40, 64, 128, 256, 4096};
    int checked = 0;
    for (int k = 0; k < 5; k++)
        for (int j = 0; j < 13; j++)
            for (uint64_t off = 0; off < 192; off += sizes[k]) {
                WarpAccess a = strided(0xFFFFFFFF, sizes[k], BASE + off, strides[j] * sizes[k]);
                expect_sector_reference(&a);
                checked++;
            }
    ck_assert_int_eq(checked, 13 * (192 + 96 + 48 + 24 + 12));
    /* every one of them ascends (stride 0 included) */
    ck_assert_int_ge(ascending_checked, checked);
}
END_TEST

static Suite *coalesce_suite(void)
{
    Suite *s = suite_create("coalesce");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, sector_unit_stride);
    tcase_add_test(tc, sector_misaligned);
    tcase_add_test(tc, sector_consecutive_lanes_every_offset);
    tcase_add_test(tc, sector_divergent_strided_warps);
    tcase_add_test(tc, sector_full_strided_warps);
    tcase_add_test(tc, sector_strides);
    tcase_add_test(tc, sector_broadcast_and_permutation);
    tcase_add_test(tc, sector_partial_masks);
    tcase_add_test(tc, sector_small_words);
    tcase_add_test(tc, sector_lane_crossing_sectors);
    tcase_add_test(tc, distinct_sectors_flag);
    tcase_add_test(tc, cc10_in_order);
    tcase_add_test(tc, cc10_permuted_and_misaligned);
    tcase_add_test(tc, cc12_guide_examples);
    tcase_add_test(tc, cc12_word_sizes);
    tcase_add_test(tc, cc20_cached_and_uncached);
    tcase_add_test(tc, cc20_wide_words_split);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(coalesce_suite());
}
