/* test_smem_banks.c — shared-memory wavefronts and bank conflicts.
 *
 * Expected values are closed forms derived in the comments from the guide's
 * rules (docs/memory-model.md) or counted by hand; none comes from
 * smem_banks() itself.
 */
#include <check.h>
#include <stdlib.h>

#include "smem_banks.h"
#include "testutil.h"

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static WarpAccess strided(uint32_t mask, uint32_t size, uint64_t base, uint64_t stride)
{
    WarpAccess a = { .mask = mask, .size = size };
    for (int i = 0; i < 32; i++)
        a.addr[i] = base + (uint64_t)i * stride;
    return a;
}

static BankResult banks32(const WarpAccess *a)
{
    BankResult r;
    smem_banks(a, 32, 4, false, SMEM_WIDE_PHASES, &r);
    return r;
}

static BankResult kepler8(const WarpAccess *a)
{
    BankResult r;
    smem_banks(a, 32, 8, false, SMEM_WIDE_PHASES, &r);
    return r;
}

static BankResult tesla16(const WarpAccess *a)
{
    BankResult r;
    smem_banks(a, 16, 4, true, SMEM_WIDE_PHASES, &r);
    return r;
}

/* ---- cc >= 2.0, 32 banks of 4 B ----------------------------------------- */

START_TEST(strides_4byte)
{
    /* lane i reads word s i: lanes i and i + n share a bank iff 32 | s n, so
     * the 32 lanes fall on 32 / d banks, d = gcd(s, 32) distinct words each */
    for (uint32_t s = 1; s <= 32; s++) {
        WarpAccess a = strided(0xFFFFFFFF, 4, 0, 4 * s);
        BankResult r = banks32(&a);
        ck_assert_msg(r.wavefronts == gcd(s, 32), "stride %u: %u wavefronts", s, r.wavefronts);
        ck_assert_uint_eq(r.conflicts, gcd(s, 32) - 1);
    }
}
END_TEST

START_TEST(strides_8byte)
{
    /* lane i reads words 2 s i and 2 s i + 1, served per half-warp.  In one
     * half-warp 2 s i mod 32 = 2 (s i mod 16) takes 16 / gcd(s,16) values,
     * each from gcd(s,16) lanes with distinct words; the odd words fill the
     * odd banks the same way.  So gcd(s,16) wavefronts per half-warp and
     * 2 gcd(s,16) for the warp; s = 1 is conflict-free (2 phases, 2 wavefronts). */
    for (uint32_t s = 1; s <= 32; s++) {
        WarpAccess a = strided(0xFFFFFFFF, 8, 0, 8 * s);
        BankResult r = banks32(&a);
        ck_assert_msg(r.wavefronts == 2 * gcd(s, 16), "stride %u: %u wavefronts", s, r.wavefronts);
        ck_assert_uint_eq(r.conflicts, 2 * gcd(s, 16) - 2);
    }
}
END_TEST

START_TEST(strides_16byte)
{
    /* quarter-warps of 8 lanes, lane i words 4 s i .. 4 s i + 3: bank
     * 4 (s i mod 8) + e, gcd(s,8) words per bank -> 4 gcd(s,8) in all */
    for (uint32_t s = 1; s <= 32; s++) {
        WarpAccess a = strided(0xFFFFFFFF, 16, 0, 16 * s);
        BankResult r = banks32(&a);
        ck_assert_uint_eq(r.wavefronts, 4 * gcd(s, 8));
    }
}
END_TEST

START_TEST(tile_columns)
{
    /* column c of float tile[32][32]: lane i at (32 i + c) * 4 -> one bank, 32 ways */
    WarpAccess a = strided(0xFFFFFFFF, 4, 4 * 5, 32 * 4);
    BankResult r = banks32(&a);
    ck_assert_uint_eq(r.wavefronts, 32);
    ck_assert_uint_eq(r.conflicts, 31);
    /* padded tile[32][33]: (33 i + c) mod 32 = i + c -> all banks distinct */
    a = strided(0xFFFFFFFF, 4, 4 * 5, 33 * 4);
    r = banks32(&a);
    ck_assert_uint_eq(r.wavefronts, 1);
    ck_assert_uint_eq(r.conflicts, 0);
    /* a row is conflict-free */
    a = strided(0xFFFFFFFF, 4, 7 * 33 * 4, 4);
    ck_assert_uint_eq(banks32(&a).wavefronts, 1);
}
END_TEST

START_TEST(broadcast_and_multicast)
{
    WarpAccess a = strided(0xFFFFFFFF, 4, 64, 0);          /* every lane one word */
    BankResult r = banks32(&a);
    ck_assert_uint_eq(r.wavefronts, 1);
    ck_assert_uint_eq(r.conflicts, 0);
    /* lanes 0-15 word 0, lanes 16-31 word 32 (both bank 0): two words of one bank */
    for (int i = 16; i < 32; i++)
        a.addr[i] = 128;
    a.addr[0] = 0;
    for (int i = 1; i < 16; i++)
        a.addr[i] = 0;
    r = banks32(&a);
    ck_assert_uint_eq(r.wavefronts, 2);
    /* the guide's figure: threads 3,4,6,7,9 share one word of bank 5, the
     * rest a permutation of the other banks -> conflict-free */
    for (int i = 0; i < 32; i++)
        a.addr[i] = 4 * (uint64_t)i;
    a.addr[3] = a.addr[4] = a.addr[6] = a.addr[7] = a.addr[9] = 4 * 5;
    ck_assert_uint_eq(banks32(&a).wavefronts, 1);
    /* inactive lanes cost nothing; no active lane at all costs nothing */
    a = strided(0x00000001, 4, 0, 128);
    ck_assert_uint_eq(banks32(&a).wavefronts, 1);
    a.mask = 0;
    r = banks32(&a);
    ck_assert_uint_eq(r.wavefronts, 0);
    ck_assert_uint_eq(r.conflicts, 0);
}
END_TEST

/* Words spread over a stretch of memory: as many banks apart as there are
 * banks is the first distance at which two words share a bank. */
START_TEST(words_within_the_banks)
{
    /* half-warp 0 reads words 0-15, half-warp 1 words 31-16 (lane i word
     * 47 - i): 31 words apart at most, every word its own bank */
    WarpAccess a = {.mask = 0xFFFFFFFF, .size = 4};
    for (int i = 0; i < 32; i++)
        a.addr[i] = 4096 + 4 * (uint64_t)(i < 16 ? i : 47 - i);
    ck_assert_uint_eq(banks32(&a).wavefronts, 1);
    /* lane 16 one word further: 32 words from lane 0's, the same bank */
    a.addr[16] += 4;
    ck_assert_uint_eq(banks32(&a).wavefronts, 2);
    /* a partial warp: only those two lanes, 32 then 31 words apart */
    a.mask = 0x00010001u;
    ck_assert_uint_eq(banks32(&a).wavefronts, 2);
    a.addr[16] -= 4;
    ck_assert_uint_eq(banks32(&a).wavefronts, 1);
    /* 8-byte banks: 31 words of 8 B apart, then 32 */
    a.addr[16] = a.addr[0] + 31 * 8;
    ck_assert_uint_eq(kepler8(&a).wavefronts, 1);
    a.addr[16] += 8;
    ck_assert_uint_eq(kepler8(&a).wavefronts, 2);
    /* bytes of one word and its neighbour's: no two words in a bank */
    WarpAccess b = {.mask = 0xFFFFFFFF, .size = 1};
    for (int i = 0; i < 32; i++)
        b.addr[i] = 8192 + (uint64_t)(i % 8);
    ck_assert_uint_eq(banks32(&b).wavefronts, 1);
}
END_TEST

START_TEST(bytes_and_shorts_cc20)
{
    /* char shared[]; shared[tid]: 32 bytes in 8 words, multicast -> 1 */
    WarpAccess a = strided(0xFFFFFFFF, 1, 0, 1);
    BankResult r = banks32(&a);
    ck_assert_uint_eq(r.wavefronts, 1);
    ck_assert_uint_eq(r.conflicts, 0);
    /* short: 64 bytes in 16 words -> 1 */
    a = strided(0xFFFFFFFF, 2, 0, 2);
    ck_assert_uint_eq(banks32(&a).wavefronts, 1);
    /* char with stride 128 bytes: all lanes bank 0, distinct words -> 32 */
    a = strided(0xFFFFFFFF, 1, 3, 128);
    ck_assert_uint_eq(banks32(&a).wavefronts, 32);
}
END_TEST

/* ---- Kepler 8-byte mode: 32 banks of 8 B -------------------------------- */

START_TEST(kepler_8byte_mode)
{
    /* 8 B lanes are one phase of 32: stride s (8 B words) -> gcd(s, 32) */
    for (uint32_t s = 1; s <= 32; s++) {
        WarpAccess a = strided(0xFFFFFFFF, 8, 0, 8 * s);
        ck_assert_uint_eq(kepler8(&a).wavefronts, gcd(s, 32));
    }
    /* 4 B lanes: word = floor(s i / 2).  s = 1: lanes 2k, 2k+1 read the two
     * halves of 8 B word k -> no conflict; s = 2: words 0..31 -> 1;
     * s = 4: words 2 i, banks 0,2,..,62 mod 32 -> 2; s = 64: words 32 i,
     * all bank 0 -> 32 */
    static const struct { uint32_t s, w; } cases[] = { {1, 1}, {2, 1}, {4, 2}, {8, 4}, {64, 32} };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        WarpAccess a = strided(0xFFFFFFFF, 4, 0, 4 * cases[i].s);
        ck_assert_uint_eq(kepler8(&a).wavefronts, cases[i].w);
    }
    /* 16 B lanes: half-warps, each lane two 8 B words: 2 wavefronts at unit stride */
    WarpAccess a = strided(0xFFFFFFFF, 16, 0, 16);
    BankResult r = kepler8(&a);
    ck_assert_uint_eq(r.wavefronts, 2);
    ck_assert_uint_eq(r.conflicts, 0);
}
END_TEST

/* ---- cc 1.x: 16 banks, half-warps --------------------------------------- */

START_TEST(tesla_strides)
{
    /* each half-warp alone: stride s -> gcd(s, 16) per half-warp, two half-warps */
    for (uint32_t s = 1; s <= 32; s++) {
        WarpAccess a = strided(0xFFFFFFFF, 4, 0, 4 * s);
        BankResult r = tesla16(&a);
        ck_assert_uint_eq(r.wavefronts, 2 * gcd(s, 16));
        ck_assert_uint_eq(r.conflicts, 2 * gcd(s, 16) - 2);
    }
    /* stride 16 words on 32 banks would be 16-way for the warp; per
     * half-warp on 16 banks it is 16-way in each half */
    /* lanes 0 and 16 in the same bank with different words: no conflict
     * across half-warps */
    WarpAccess a = strided(0x00010001, 4, 0, 4);
    a.addr[16] = 64;
    BankResult r = tesla16(&a);
    ck_assert_uint_eq(r.wavefronts, 2);
    ck_assert_uint_eq(r.conflicts, 0);
    /* only one half-warp active: one phase */
    a = strided(0x0000FFFF, 4, 0, 4);
    ck_assert_uint_eq(tesla16(&a).wavefronts, 1);
}
END_TEST

START_TEST(tesla_broadcast)
{
    /* all lanes of a half-warp in one word: conflict-free */
    WarpAccess a = strided(0xFFFFFFFF, 4, 20, 0);
    BankResult r = tesla16(&a);
    ck_assert_uint_eq(r.wavefronts, 2);
    ck_assert_uint_eq(r.conflicts, 0);
    /* two shared words in one half-warp (lanes 0-7 word 5, lanes 8-15
     * word 7): one broadcast word per step, the other bank serves one lane
     * per step; step 1 broadcasts word 5 and serves one lane of word 7,
     * step 2 broadcasts word 7 -> 2 steps (1.x), 1 wavefront since cc 2.0 */
    a.mask = 0xFFFF;
    for (int i = 0; i < 16; i++)
        a.addr[i] = i < 8 ? 4 * 5 : 4 * 7;
    r = tesla16(&a);
    ck_assert_uint_eq(r.wavefronts, 2);
    ck_assert_uint_eq(r.conflicts, 1);
    ck_assert_uint_eq(banks32(&a).wavefronts, 1);
    /* one shared word (lanes 0-3 word 0) and lanes 4-15 each their own
     * bank: the shared word is broadcast in step 1 -> 1 step */
    for (int i = 0; i < 16; i++)
        a.addr[i] = i < 4 ? 0 : 4 * (uint64_t)i;
    ck_assert_uint_eq(tesla16(&a).wavefronts, 1);
}
END_TEST

START_TEST(tesla_bytes_and_shorts)
{
    /* char shared[tid]: half-warp bytes 0..15 = words 0..3 (banks 0..3),
     * 4 lanes each.  Per step one word is broadcast and each other bank
     * serves one lane: bank b still has 4 - (steps before its broadcast)
     * lanes, so the last bank finishes at step 4 -> 4 per half-warp */
    WarpAccess a = strided(0xFFFFFFFF, 1, 0, 1);
    BankResult r = tesla16(&a);
    ck_assert_uint_eq(r.wavefronts, 8);
    ck_assert_uint_eq(r.conflicts, 6);
    /* shared[4 * tid]: one lane per bank -> conflict-free (the guide's fix) */
    a = strided(0xFFFFFFFF, 1, 0, 4);
    r = tesla16(&a);
    ck_assert_uint_eq(r.wavefronts, 2);
    ck_assert_uint_eq(r.conflicts, 0);
    /* short shared[tid]: words 0..7, two lanes each; step 1 broadcasts one
     * word and serves one lane elsewhere, step 2 the rest -> 2 per half */
    a = strided(0xFFFFFFFF, 2, 0, 2);
    ck_assert_uint_eq(tesla16(&a).wavefronts, 4);
}
END_TEST

START_TEST(tesla_wide)
{
    /* double shared[tid]: split into two 32-bit requests of stride 2 words
     * per half-warp: 2-way each -> 2 half-warps x 2 requests x 2 = 8 */
    WarpAccess a = strided(0xFFFFFFFF, 8, 0, 8);
    BankResult r = tesla16(&a);
    ck_assert_uint_eq(r.wavefronts, 8);
    ck_assert_uint_eq(r.conflicts, 4);
    /* float4: four requests of stride 4 words: 4-way -> 2 x 4 x 4 = 32 */
    a = strided(0xFFFFFFFF, 16, 0, 16);
    ck_assert_uint_eq(tesla16(&a).wavefronts, 32);
    /* since cc 2.0 the same double access is conflict-free (2 half-warp phases) */
    a = strided(0xFFFFFFFF, 8, 0, 8);
    r = banks32(&a);
    ck_assert_uint_eq(r.wavefronts, 2);
    ck_assert_uint_eq(r.conflicts, 0);
}
END_TEST

/* ---- cc >= 2.0 against the rule counted directly ------------------------ */

/* The contract's rule, by brute force: per phase, for every bank, the
 * distinct bank words its lanes' bytes lie in; the phase costs the most of
 * any bank (at least 1).  Phases split a warp as the contract says. */
static uint32_t rule_wavefronts(const WarpAccess *a, uint32_t banks, uint32_t bank_bytes)
{
    uint32_t size = a->size ? a->size : 1;
    uint32_t per_lane = size > bank_bytes ? size / bank_bytes : 1;
    uint32_t phase_lanes = per_lane >= 32 ? 1 : 32 / per_lane, total = 0;
    for (uint32_t p = 0; p < 32; p += phase_lanes) {
        uint64_t words[32 * 4];
        uint32_t nwords = 0, worst = 0;
        for (uint32_t i = p; i < p + phase_lanes; i++) {
            if (!(a->mask >> i & 1))
                continue;
            for (uint64_t w = a->addr[i] / bank_bytes; w <= (a->addr[i] + size - 1) / bank_bytes; w++) {
                bool known = false;
                for (uint32_t k = 0; k < nwords; k++)
                    known |= words[k] == w;
                if (!known)
                    words[nwords++] = w;
            }
        }
        for (uint32_t b = 0; b < banks; b++) {
            uint32_t n = 0;
            for (uint32_t k = 0; k < nwords; k++)
                n += words[k] % banks == b;
            worst = n > worst ? n : worst;
        }
        total += nwords ? (worst ? worst : 1) : 0;
    }
    return total;
}

/* What the H200 counted (tools/hw-measure/shared_wide.cu under Nsight
 * Compute, 2026-11-22): wavefronts and bank conflicts per load of one warp,
 * lane l reading element pick(p, l) of 4, 8 and 16-byte elements. */
static uint64_t pick(int p, uint32_t l)
{
    static const int shift[] = {0, 0, 1, 2, 3, 4};
    if (p == 0)
        return 0;
    if (p <= 5)
        return l >> shift[p];
    if (p <= 9)
        return l & ((2u << (p - 6)) - 1);
    return p == 10 ? 2 * l : (l >> 3) * 8;
}

START_TEST(h200_wide_accesses)
{
    static const struct {
        uint32_t wavefronts[3], conflicts[3]; /* 4, 8, 16 B */
    } h200[12] = {
        {{1, 1, 2}, {0, 0, 0}}, {{1, 2, 4}, {0, 0, 0}}, {{1, 1, 2}, {0, 0, 0}}, {{1, 1, 2}, {0, 0, 0}},
        {{1, 1, 2}, {0, 0, 0}}, {{1, 1, 2}, {0, 0, 0}}, {{1, 1, 2}, {0, 0, 0}}, {{1, 2, 4}, {0, 0, 0}},
        {{1, 2, 4}, {0, 0, 0}}, {{1, 2, 4}, {0, 0, 0}}, {{2, 4, 8}, {1, 2, 4}}, {{1, 2, 4}, {0, 1, 2}},
    };
    for (int p = 0; p < 12; p++)
        for (int w = 0; w < 3; w++) {
            uint32_t size = 4u << w;
            WarpAccess a = {.mask = 0xFFFFFFFFu, .size = (uint8_t)size};
            for (uint32_t l = 0; l < 32; l++)
                a.addr[l] = 0x400 + pick(p, l) * size;
            BankResult r;
            smem_banks(&a, 32, 4, false, SMEM_WIDE_QUADS, &r);
            ck_assert_msg(r.wavefronts == h200[p].wavefronts[w] && r.conflicts == h200[p].conflicts[w],
                          "pattern %d, %u B: %u wavefronts, %u conflicts; the H200 %u, %u", p, size, r.wavefronts,
                          r.conflicts, h200[p].wavefronts[w], h200[p].conflicts[w]);
        }
    /* the guide's phases, the other GPUs' rule, for the broadcast float4 */
    WarpAccess b = {.mask = 0xFFFFFFFFu, .size = 16};
    ck_assert_uint_eq(banks32(&b).wavefronts, 4);
}
END_TEST

START_TEST(random_patterns_follow_the_rule)
{
    /* addresses drawn from a few hundred bytes, so that lanes share words,
     * banks and both at once; sizes aligned (as PTX requires) or not (the
     * general path); full and partial warps; 4- and 8-byte banks */
    static const uint32_t sizes[] = {1, 2, 4, 8, 16};
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int n = 0; n < 20000; n++) {
        uint32_t size = sizes[n % 5], bank_bytes = n & 32 ? 8 : 4;
        uint32_t span = 64u << (n % 4);
        bool aligned = n % 7 != 0;
        WarpAccess a = {.mask = n % 3 ? 0xFFFFFFFFu : 0, .size = size};
        for (int i = 0; i < 32; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t addr = 4096 + (x >> 20) % span;
            a.addr[i] = aligned ? addr & ~(uint64_t)(size - 1) : addr;
            if (!a.mask && (x >> 60) & 1)
                a.mask |= 1u << i;
        }
        if (!a.mask)
            a.mask = 1;
        BankResult r;
        smem_banks(&a, 32, bank_bytes, false, SMEM_WIDE_PHASES, &r);
        uint32_t want = rule_wavefronts(&a, 32, bank_bytes);
        ck_assert_msg(r.wavefronts == want, "case %d (size %u, %u-byte banks, mask %08x): %u wavefronts, rule %u", n,
                      size, bank_bytes, a.mask, r.wavefronts, want);
    }
}
END_TEST

/* The shapes the fast paths take (a full warp at a constant stride, words
 * that no bank shares, a few words spread over the lanes, two half-warp
 * patterns), near and far above 4 GiB (64-bit words), against the rule:
 * random addresses seldom take those paths. */
START_TEST(structured_patterns_follow_the_rule)
{
    static const uint32_t sizes[] = {1, 2, 4, 8};
    static const uint32_t bank_counts[] = {32, 16, 8, 1};
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (int n = 0; n < 40000; n++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t size = sizes[x % 4], bank_bytes = (x >> 2) & 1 ? 8 : 4, banks = bank_counts[(x >> 3) % 4];
        uint64_t base = (4096 + (x >> 8) % 4096) & ~(uint64_t)(size - 1);
        if ((x >> 5) & 1)
            base += 1ull << 40;
        int64_t unit = (x >> 6) & 1 ? (int64_t)bank_bytes : (int64_t)size;
        int64_t stride = ((int64_t)((x >> 24) % 81) - 40) * unit;
        uint64_t words[4];
        for (int k = 0; k < 4; k++)
            words[k] = base + (((x >> (30 + 4 * k)) % 16) * unit) * (k + 1);
        WarpAccess a = {.mask = (x >> 50) % 4 ? 0xFFFFFFFFu : (uint32_t)(x >> 7) | 1, .size = size};
        for (int i = 0; i < 32; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            switch (n % 4) {
            case 0: /* one stride */
                a.addr[i] = base + (uint64_t)(stride * i);
                break;
            case 1: /* a few distinct words, any lane any of them */
                a.addr[i] = words[x % (1 + n / 4 % 4)];
                break;
            case 2: /* each half-warp its own stride */
                a.addr[i] = i < 16 ? base + (uint64_t)(stride * i) : words[1] + (uint64_t)(unit * (i - 16));
                break;
            default: /* consecutive words, permuted (lane i takes word 7 i + n mod 32) */
                a.addr[i] = base + (uint64_t)unit * ((i * 7 + n) % 32);
                break;
            }
        }
        BankResult r;
        smem_banks(&a, banks, bank_bytes, false, SMEM_WIDE_PHASES, &r);
        uint32_t want = rule_wavefronts(&a, banks, bank_bytes);
        ck_assert_msg(r.wavefronts == want, "case %d (size %u, %u banks of %u B, mask %08x): %u wavefronts, rule %u", n,
                      size, banks, bank_bytes, a.mask, r.wavefronts, want);
    }
}
END_TEST

/* ---- atomics: no broadcast ------------------------------------------------- */

static BankResult atomic32(const WarpAccess *a)
{
    BankResult r;
    smem_atomic_banks(a, 32, 4, false, &r);
    return r;
}

START_TEST(atomics_count_every_lane)
{
    /* 32 lanes on one word: a load broadcasts it in 1 wavefront, atomics
     * update it once per lane (measured on the H200: traces/shared_atomics) */
    WarpAccess one = strided(0xFFFFFFFF, 4, 64, 0);
    BankResult r = atomic32(&one);
    ck_assert_uint_eq(r.wavefronts, 32);
    ck_assert_uint_eq(r.conflicts, 31);
    ck_assert_uint_eq(banks32(&one).wavefronts, 1);
    /* lane i on word i / 2: 16 words in 16 banks, two lanes each */
    WarpAccess pairs = strided(0xFFFFFFFF, 4, 0, 0);
    for (int i = 0; i < 32; i++)
        pairs.addr[i] = 4 * (uint64_t)(i / 2);
    ck_assert_uint_eq(atomic32(&pairs).wavefronts, 2);
    ck_assert_uint_eq(banks32(&pairs).wavefronts, 1);
    /* words s i as for loads: the lanes of a bank are its words */
    for (uint32_t s = 1; s <= 32; s++) {
        WarpAccess a = strided(0xFFFFFFFF, 4, 0, 4 * s);
        ck_assert_uint_eq(atomic32(&a).wavefronts, gcd(s, 32));
    }
    /* 8 B lanes, consecutive: each bank holds a word of 2 lanes */
    WarpAccess wide = strided(0xFFFFFFFF, 8, 0, 8);
    ck_assert_uint_eq(atomic32(&wide).wavefronts, 2);
    /* a 3-lane word and two 1-lane words of another bank: the busier bank */
    WarpAccess mixed = strided(0x1F, 4, 0, 0);
    uint64_t at[5] = {0, 0, 0, 4, 4 + 128};
    for (int i = 0; i < 5; i++)
        mixed.addr[i] = at[i];
    ck_assert_uint_eq(atomic32(&mixed).wavefronts, 3);
    /* half-warps before cc 2.0: each alone, 16 lanes on one word each */
    BankResult h;
    smem_atomic_banks(&one, 16, 4, true, &h);
    ck_assert_uint_eq(h.wavefronts, 32);
    ck_assert_uint_eq(h.conflicts, 30);
    WarpAccess none = strided(0, 4, 0, 4);
    ck_assert_uint_eq(atomic32(&none).wavefronts, 0);
}
END_TEST


static Suite *banks_suite(void)
{
    Suite *s = suite_create("smem_banks");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, strides_4byte);
    tcase_add_test(tc, strides_8byte);
    tcase_add_test(tc, strides_16byte);
    tcase_add_test(tc, tile_columns);
    tcase_add_test(tc, broadcast_and_multicast);
    tcase_add_test(tc, words_within_the_banks);
    tcase_add_test(tc, bytes_and_shorts_cc20);
    tcase_add_test(tc, kepler_8byte_mode);
    tcase_add_test(tc, atomics_count_every_lane);
    tcase_add_test(tc, tesla_strides);
    tcase_add_test(tc, tesla_broadcast);
    tcase_add_test(tc, tesla_bytes_and_shorts);
    tcase_add_test(tc, tesla_wide);
    tcase_add_test(tc, h200_wide_accesses);
    tcase_add_test(tc, random_patterns_follow_the_rule);
    tcase_add_test(tc, structured_patterns_follow_the_rule);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(banks_suite());
}
