/* smem_banks.c — shared-memory wavefronts of one warp access (contract in
 * smem_banks.h; rules and sources in docs/memory-model.md).
 *
 * Since cc 2.0 a phase costs the largest number of distinct bank words any
 * bank must deliver.  Before cc 2.0 the guide's step procedure is followed:
 * each step serves every lane inside one chosen broadcast word plus one lane
 * per other bank; the step count is the least the best choice of broadcast
 * words achieves (the guide leaves the choice unspecified).
 */
#include "smem_banks.h"

#define MAX_BANKS 32
/* bank words one phase can touch: its lanes cover 32 words, + 1 per lane if
 * misaligned; 128 when a whole warp of 16-byte lanes is one phase
 * (SMEM_WIDE_QUADS) */
#define MAX_WORDS 160

/* bank geometry with shifts for the power-of-two layouts every GPU has */
typedef struct {
    uint32_t banks, bank_bytes;
    int word_shift;         /* log2(bank_bytes), or -1 */
    uint32_t bank_mask;     /* banks - 1 when a power of two, else 0 */
} Layout;

static Layout layout_of(uint32_t banks, uint32_t bank_bytes)
{
    Layout l = { banks, bank_bytes, -1, 0 };
    if ((bank_bytes & (bank_bytes - 1)) == 0)
        l.word_shift = __builtin_ctz(bank_bytes);
    if ((banks & (banks - 1)) == 0)
        l.bank_mask = banks - 1;
    return l;
}

/* The layout of a configuration's banks (at most MAX_BANKS, 4 B each
 * when not given), with *out cleared for a count. */
static Layout layout_start(uint32_t banks, uint32_t bank_bytes, BankResult *out)
{
    out->wavefronts = 0;
    out->conflicts = 0;
    return layout_of(banks == 0 || banks > MAX_BANKS ? MAX_BANKS : banks, bank_bytes ? bank_bytes : 4);
}

static inline uint64_t word_of(const Layout *l, uint64_t addr)
{
    return l->word_shift >= 0 ? addr >> l->word_shift : addr / l->bank_bytes;
}

static inline uint32_t bank_of(const Layout *l, uint64_t word)
{
    return l->bank_mask || l->banks == 1 ? (uint32_t)(word & l->bank_mask) : (uint32_t)(word % l->banks);
}

/* insertion sort of the at most 16 keys of one 1.x half-warp */
static void sort_u64(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Distinct bank words per bank, for the cc >= 2.0 rule.  Most banks see one
 * word, or the same word again (a broadcast), so each bank keeps its first
 * word and only the further words of conflicting banks go into a list; a
 * word above or below every listed one is new without a search (strided
 * conflicts never search). */
typedef struct {
    uint64_t first[MAX_BANKS];  /* the first word each bank saw (where seen) */
    uint8_t count[MAX_BANKS];   /* distinct words of each bank (where seen) */
    uint64_t extra[MAX_WORDS];  /* second and later distinct words of any bank */
    uint64_t lo, hi;            /* range of extra[] */
    uint32_t seen;              /* banks that saw a word */
    uint32_t worst;             /* the most distinct words of one bank */
    int nextra;
} BankTally;

static inline void tally_init(BankTally *t)
{
    t->seen = 0;
    t->worst = 0;
    t->nextra = 0;
    t->lo = UINT64_MAX;
    t->hi = 0;
}

static inline void tally_word(BankTally *t, uint64_t w, uint32_t bank)
{
    uint32_t bit = 1u << bank;
    if (!(t->seen & bit)) {
        t->seen |= bit;
        t->first[bank] = w;
        t->count[bank] = 1;
        t->worst = t->worst ? t->worst : 1;
        return;
    }
    if (t->first[bank] == w)
        return;
    if (w >= t->lo && w <= t->hi) {
        int i = t->nextra - 1;
        while (i >= 0 && t->extra[i] != w)
            i--;
        if (i >= 0)
            return;
    }
    if (t->nextra == MAX_WORDS)
        return;
    t->extra[t->nextra++] = w;
    t->lo = w < t->lo ? w : t->lo;
    t->hi = w > t->hi ? w : t->hi;
    if (++t->count[bank] > t->worst)
        t->worst = t->count[bank];
}

/* The wavefronts of a full warp whose lanes step through memory by `d`
 * bytes, each access aligned and at most a word: the banks repeat with a
 * period of banks / g lanes, g = gcd(stride in words, banks), so each bank
 * it reaches holds 32 g / banks distinct words; one for a broadcast.  0
 * when d is not a whole number of words (several lanes share words). */
static uint32_t strided_wavefronts(uint64_t d, const Layout *l)
{
    if (d == 0)
        return 1;
    if (d & (l->bank_bytes - 1))
        return 0;
    uint32_t banks = l->bank_mask + 1;
    uint32_t g = 1u << __builtin_ctzll((d >> l->word_shift) | banks);
    return 32 * g / banks;
}

/* phase_wavefronts() when every lane lies in one bank word (lanes of a
 * power-of-two size, aligned, no wider than a word) and the layout is
 * powers of two: one shift and one mask per lane.  Returns 0 (no phase has
 * 0 wavefronts) when a lane is not aligned, for the general path.  A full warp
 * stepping by a constant stride (consecutive words, a broadcast, a column
 * of a tile) follows from the stride; words that all lie in a window
 * narrower than the banks (a row of a tile, a broadcast per half-warp) go
 * to a bank each: one wavefront.  Otherwise rounds: each bank keeps
 * the last word written to it, and the lanes that find their own word
 * there are served in this wavefront; a round serves one distinct word of
 * every bank that has lanes left, so the rounds are the most distinct
 * words of a bank.  One round serves every lane of the common irregular
 * patterns (no bank shared); otherwise the lanes
 * it leaves are tallied, and the phase costs one more than their worst
 * bank. */
static uint32_t phase_wavefronts_one_word(const WarpAccess *a, uint32_t lanes, const Layout *l, uint64_t size)
{
    /* spread: the bits in which the lanes' addresses differ from the first's */
    uint64_t low_bits = 0, spread = 0;
    if (lanes == 0xFFFFFFFFu) { /* the common case, in loops without branches */
        WarpScan scan = warp_scan(a);
        low_bits = scan.any;
        spread = scan.spread;
        if (low_bits & (size - 1))
            return 0;
        uint32_t strided = scan.unstrided ? 0 : strided_wavefronts(scan.stride, l);
        if (strided)
            return strided;
    } else {
        uint64_t first_addr = a->addr[__builtin_ctz(lanes)];
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint64_t addr = a->addr[__builtin_ctz(m)];
            low_bits |= addr;
            spread |= addr ^ first_addr;
        }
        if (low_bits & (size - 1))
            return 0;
    }
    /* consecutive words go to consecutive banks, so words that lie in one
     * stretch of as many words as there are banks have a bank each: an
     * aligned stretch (spread, found with the scan above) or any */
    if ((spread >> l->word_shift) <= l->bank_mask)
        return 1;
    uint64_t lo, hi;
    warp_bounds(a, lanes, &lo, &hi);
    if ((hi >> l->word_shift) - (lo >> l->word_shift) <= l->bank_mask)
        return 1;
    uint32_t left = lanes;
    if ((hi >> l->word_shift) <= UINT32_MAX) { /* one round, on 32-bit words */
        uint32_t words[32], first[MAX_BANKS], clash = 0; /* words: by lane */
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            words[lane] = (uint32_t)(a->addr[lane] >> l->word_shift);
        }
        if (lanes == 0xFFFFFFFFu) {
#pragma GCC unroll 32
            for (uint32_t k = 0; k < 32; k++)
                first[words[k] & l->bank_mask] = words[k];
#pragma GCC unroll 32
            for (uint32_t k = 0; k < 32; k++)
                clash |= (uint32_t)(first[words[k] & l->bank_mask] != words[k]) << k;
        } else {
            for (uint32_t m = lanes; m; m &= m - 1) {
                uint32_t lane = (uint32_t)__builtin_ctz(m);
                first[words[lane] & l->bank_mask] = words[lane];
            }
            for (uint32_t m = lanes; m; m &= m - 1) {
                uint32_t lane = (uint32_t)__builtin_ctz(m);
                clash |= (uint32_t)(first[words[lane] & l->bank_mask] != words[lane]) << lane;
            }
        }
        if (!clash)
            return 1;
        left = clash;
    }
    BankTally t;
    tally_init(&t);
    for (uint32_t m = left; m; m &= m - 1) {
        uint64_t w = a->addr[__builtin_ctz(m)] >> l->word_shift;
        tally_word(&t, w, (uint32_t)(w & l->bank_mask));
    }
    return (left != lanes) + t.worst;
}

/* cc >= 2.0: one phase; every lane's bytes are served by the words they lie
 * in, and a word read by several lanes is delivered once (multicast) */
static uint32_t phase_wavefronts(const WarpAccess *a, uint32_t lanes, const Layout *l)
{
    BankTally t;
    tally_init(&t);
    uint64_t size = a->size ? a->size : 1;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint64_t addr = a->addr[__builtin_ctz(m)];
        for (uint64_t w = word_of(l, addr); w <= word_of(l, addr + size - 1); w++)
            tally_word(&t, w, bank_of(l, w));
    }
    return t.worst;
}

/* cc 1.x: one half-warp's 32-bit request; unit[i] is lane i's byte address.
 * A bank whose lanes read k_b broadcast words (the largest ones) and one lane
 * per other step needs k_b + (lanes - lanes in those words) steps, and only
 * one broadcast word exists per step: T steps suffice iff sum k_b(T) <= T. */
static uint32_t half_warp_steps(const uint64_t *unit, int n, const Layout *l)
{
    uint64_t words[16];
    for (int i = 0; i < n; i++)
        words[i] = word_of(l, unit[i]);
    sort_u64(words, n);
    /* per distinct word: key = bank, then readers descending */
    uint64_t keys[16];
    int nwords = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && words[j] == words[i])
            j++;
        uint64_t readers = (uint64_t)(j - i);
        keys[nwords++] = (uint64_t)bank_of(l, words[i]) << 8 | (255 - readers);
        i = j;
    }
    sort_u64(keys, nwords);

    uint32_t floor_steps = 1, ceil_steps = 1;  /* distinct words / lanes of the busiest bank */
    for (int i = 0; i < nwords;) {
        int j = i;
        uint32_t lanes = 0;
        for (; j < nwords && keys[j] >> 8 == keys[i] >> 8; j++)
            lanes += 255 - (uint32_t)(keys[j] & 0xFF);
        if ((uint32_t)(j - i) > floor_steps)
            floor_steps = (uint32_t)(j - i);
        if (lanes > ceil_steps)
            ceil_steps = lanes;
        i = j;
    }
    for (uint32_t t = floor_steps; t < ceil_steps; t++) {
        uint32_t broadcasts = 0;
        for (int i = 0; i < nwords && broadcasts <= t;) {
            int j = i;
            uint32_t lanes = 0;
            for (; j < nwords && keys[j] >> 8 == keys[i] >> 8; j++)
                lanes += 255 - (uint32_t)(keys[j] & 0xFF);
            uint32_t k = 0, left = lanes;
            while (k + left > t) {  /* broadcast the next-largest word */
                left -= 255 - (uint32_t)(keys[i + k] & 0xFF);
                k++;
            }
            broadcasts += k;
            i = j;
        }
        if (broadcasts <= t)
            return t;
    }
    return ceil_steps;
}

/* SMEM_WIDE_QUADS (contract in smem_banks.h): the wavefronts the lanes'
 * and quads' share of the output needs, at least, for an access of `size`
 * bytes per lane. */
static uint32_t quads_output_wavefronts(const WarpAccess *a, uint32_t size)
{
    uint32_t need = (size + 7) / 8;
    for (uint32_t q = 0; q < 32; q += 4) {
        uint64_t distinct[4];
        uint32_t n = 0;
        for (uint32_t m = (a->mask >> q) & 0xFu; m; m &= m - 1) {
            uint64_t addr = a->addr[q + (uint32_t)__builtin_ctz(m)];
            uint32_t k = 0;
            while (k < n && distinct[k] != addr)
                k++;
            if (k == n)
                distinct[n++] = addr;
        }
        need = MAX(need, (n * size + 15) / 16);
    }
    return need;
}

void smem_banks(const WarpAccess *a, uint32_t banks, uint32_t bank_bytes, bool half_warp, SmemWideRule wide,
                BankResult *out)
{
    Layout l = layout_start(banks, bank_bytes, out);
    banks = l.banks;
    bank_bytes = l.bank_bytes;
    uint32_t size = a->size ? a->size : 1;
    uint32_t words_per_lane = size > bank_bytes ? size / bank_bytes : 1;
    uint32_t phases = 0;

    if (half_warp) {
        /* each half-warp alone; wider accesses are split into one request
         * per bank word (lane i reads its word j in request j) */
        for (int h = 0; h < 2; h++) {
            uint32_t lanes = (a->mask >> (16 * h)) & 0xFFFFu;
            if (!lanes)
                continue;
            for (uint32_t j = 0; j < words_per_lane; j++) {
                uint64_t unit[16];
                int n = 0;
                for (uint32_t m = lanes; m; m &= m - 1)
                    unit[n++] = a->addr[16 * h + __builtin_ctz(m)] + (uint64_t)j * bank_bytes;
                out->wavefronts += half_warp_steps(unit, n, &l);
                phases++;
            }
        }
    } else if (wide == SMEM_WIDE_QUADS && size > bank_bytes && bank_bytes == 4 && size <= 16) {
        /* one phase, at least what the output needs */
        phases = quads_output_wavefronts(a, size);
        out->wavefronts = MAX(phases, phase_wavefronts(a, a->mask, &l));
    } else {
        /* wider than a bank: as many lanes per phase as fill the banks once */
        uint32_t phase_lanes = words_per_lane >= 32 ? 1 : 32 / words_per_lane;
        uint32_t phase_mask = phase_lanes == 32 ? 0xFFFFFFFFu : (1u << phase_lanes) - 1;
        bool one_word = (size & (size - 1)) == 0 && size <= bank_bytes && l.word_shift >= 0 &&
                        (l.bank_mask || banks == 1);
        for (uint32_t p = 0; p < 32; p += phase_lanes) {
            uint32_t lanes = a->mask & (phase_mask << p);
            if (!lanes)
                continue;
            uint32_t wavefronts = one_word ? phase_wavefronts_one_word(a, lanes, &l, size) : 0;
            out->wavefronts += wavefronts ? wavefronts : phase_wavefronts(a, lanes, &l);
            phases++;
        }
    }
    out->conflicts = out->wavefronts - phases;
}

void smem_atomic_banks(const WarpAccess *a, uint32_t banks, uint32_t bank_bytes, bool half_warp, BankResult *out)
{
    Layout l = layout_start(banks, bank_bytes, out);
    uint64_t size = a->size ? a->size : 1;
    uint32_t requests = 0;
    for (int h = 0; h < (half_warp ? 2 : 1); h++) {
        uint32_t lanes = half_warp ? (a->mask >> (16 * h)) & 0xFFFFu : a->mask;
        if (!lanes)
            continue;
        uint32_t per_bank[MAX_BANKS] = {0}, most = 0;
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint64_t addr = a->addr[(half_warp ? 16 * h : 0) + __builtin_ctz(m)];
            /* an atomic's lane is at most 16 B: fewer words than banks */
            for (uint64_t w = word_of(&l, addr), last = word_of(&l, addr + size - 1); w <= last; w++) {
                uint32_t n = ++per_bank[bank_of(&l, w)];
                most = MAX(most, n);
            }
        }
        out->wavefronts += most;
        requests++;
    }
    out->conflicts = out->wavefronts - requests;
}
