/* sfu.c — the H200's SFU approximations from measured tables (sfu.h).
 *
 * The hardware works on the operand's mantissa (rcp; rsqrt and sqrt, with
 * the exponent's parity) or on its 7.23 fixed-point magnitude (ex2, truncated
 * toward zero, sign apart): the result for 1.m (or 2 x 1.m, or the
 * fraction f) is the table's, and the exponent only scales it, which the
 * probes that made the tables checked over 8 M random operands each.  A
 * table entry is the GPU's result minus sfu_ref.h's reference for that
 * input, in units of the last place, 2 bits (entry + 2) each; the tables
 * are isa/sfu/'s files as measured, read in place (sfu_tables.S).
 *
 * Operands and results outside the normal range, as the SFU documents and
 * the probes measured (every form bit-exact on 262 144 random operands of
 * the whole f32 range): a NaN gives the canonical NaN 0x7fffffff; the
 * .ftz forms read a subnormal operand as a zero of its sign and flush a
 * subnormal result to zero; the others do what ptxas's sequences around
 * the MUFU instruction do: rcp, rsqrt and sqrt scale a subnormal operand by
 * 2^24 and the result back (by 2^24, 2^12, 2^-12), div.approx scales both operands
 * when the divisor is subnormal, and ex2 below -126 squares 2^(x/2).
 *
 * The f64 approximations (at the end) need no table: rsqrt.approx.f64 is
 * rounded once, and the .ftz forms follow the ISA's upper-32-bit rule.
 */
#include "sfu.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "fpconv.h"
#include "sfu_ref.h"

/* sfu_tables.S: isa/sfu/NAME.bin, SFU_TABLE_ENTRIES / 4 bytes each */
extern const uint8_t sfu_table_rcp[], sfu_table_rsqrt_even[], sfu_table_rsqrt_odd[], sfu_table_ex2_pos[],
    sfu_table_ex2_neg[], sfu_table_sqrt_even[], sfu_table_sqrt_odd[];

typedef enum { T_RCP, T_RSQRT_EVEN, T_RSQRT_ODD, T_EX2_POS, T_EX2_NEG, T_SQRT_EVEN, T_SQRT_ODD } Table;

#define CANONICAL_NAN 0x7fffffffu
#define SIGN 0x80000000u
#define EXP_MASK 0x7f800000u
#define MANT_MASK 0x007fffffu

static const uint8_t *table(Table t)
{
    switch (t) {
    case T_RCP: return sfu_table_rcp;
    case T_RSQRT_EVEN: return sfu_table_rsqrt_even;
    case T_RSQRT_ODD: return sfu_table_rsqrt_odd;
    case T_EX2_POS: return sfu_table_ex2_pos;
    case T_EX2_NEG: return sfu_table_ex2_neg;
    case T_SQRT_EVEN: return sfu_table_sqrt_even;
    default: return sfu_table_sqrt_odd;
    }
}

/* 2^(+-k/1024), the steps of sfu_ref_ex2(), made once */
static const SfuEx2Steps *ex2_steps(void)
{
    static SfuEx2Steps steps;
    static gsize ready;
    if (g_once_init_enter(&ready)) {
        sfu_ref_ex2_steps(&steps);
        g_once_init_leave(&ready, 1);
    }
    return &steps;
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* The GPU's result for entry i of table t, whose reference is `ref`. */
static float measured(Table t, uint32_t i, float ref)
{
    int delta = (int)((table(t)[i / 4] >> (2 * (i % 4))) & 3u) - 2;
    return float_of((uint32_t)((int32_t)bits_of(ref) + delta));
}

static bool is_nan(uint32_t a)
{
    return (a & ~SIGN) > EXP_MASK;
}

static bool is_subnormal(uint32_t a)
{
    return (a & EXP_MASK) == 0 && (a & MANT_MASK) != 0;
}

/* base (positive, normal) times 2^k: an exponent change while the result
 * stays normal, else rounded by ldexpf */
static float scale(float base, int k)
{
    uint32_t b = bits_of(base);
    int e = (int)(b >> 23) + k;
    return e >= 1 && e <= 254 ? float_of(b + ((uint32_t)k << 23)) : ldexpf(base, k);
}

/* r, a subnormal when ftz flushes it to a zero of its sign */
static uint32_t flush_result(float r, bool ftz)
{
    uint32_t b = bits_of(r);
    return ftz && is_subnormal(b) ? b & SIGN : b;
}

/* rcp of a normal a (sfu_rcp's common case; sfu_lanes' too) */
static inline uint32_t rcp_normal(uint32_t a, bool ftz)
{
    uint32_t m = a & MANT_MASK;
    int e = (int)((a & EXP_MASK) >> 23) - 127;
    float base = measured(T_RCP, m, sfu_ref_rcp((double)float_of(0x3f800000u | m)));
    float r = scale(base, -e);
    return flush_result((a & SIGN) ? -r : r, ftz);
}

uint32_t sfu_rcp(uint32_t a, bool ftz)
{
    if (is_nan(a))
        return CANONICAL_NAN;
    uint32_t sign = a & SIGN;
    if (is_subnormal(a)) {
        if (ftz)
            return sign | EXP_MASK; /* 1 / +-0 */
        return bits_of(float_of(sfu_rcp(bits_of(float_of(a) * 0x1p24f), false)) * 0x1p24f);
    }
    if ((a & ~SIGN) == 0)
        return sign | EXP_MASK;
    if ((a & ~SIGN) == EXP_MASK)
        return sign;
    return rcp_normal(a, ftz);
}

/* Whether the normal a's (unbiased) exponent is odd: its root's table is
 * then the one of 2 x 1.m. */
static bool odd_exponent(uint32_t a)
{
    return !((a & EXP_MASK) >> 23 & 1); /* biased by 127: an even biased one */
}

static Table root_table(uint32_t a, bool reciprocal)
{
    bool odd = odd_exponent(a);
    return reciprocal ? (odd ? T_RSQRT_ODD : T_RSQRT_EVEN) : (odd ? T_SQRT_ODD : T_SQRT_EVEN);
}

/* The square root of the positive normal a, or its reciprocal: the table
 * of the exponent's parity, scaled by half the exponent (the rest). */
static float root_of_normal(uint32_t a, bool reciprocal)
{
    uint32_t m = a & MANT_MASK;
    int e = (int)((a & EXP_MASK) >> 23) - 127;
    bool odd = odd_exponent(a);
    double in = (double)float_of((odd ? 0x40000000u : 0x3f800000u) | m);
    float base = measured(root_table(a, reciprocal), m, reciprocal ? sfu_ref_rsqrt(in) : sfu_ref_sqrt(in));
    int half = (e - (odd ? 1 : 0)) / 2;
    return scale(base, reciprocal ? -half : half);
}

uint32_t sfu_sqrt(uint32_t a, bool ftz)
{
    if (is_nan(a))
        return CANONICAL_NAN;
    uint32_t sign = a & SIGN;
    if (is_subnormal(a)) {
        if (ftz)
            return sign; /* sqrt(+-0) */
        return bits_of(float_of(sfu_sqrt(bits_of(float_of(a) * 0x1p24f), false)) * 0x1p-12f);
    }
    if ((a & ~SIGN) == 0)
        return a;
    if (sign)
        return CANONICAL_NAN;
    if (a == EXP_MASK)
        return a;
    return bits_of(root_of_normal(a, false));
}

uint32_t sfu_rsqrt(uint32_t a, bool ftz)
{
    if (is_nan(a))
        return CANONICAL_NAN;
    uint32_t sign = a & SIGN;
    if (is_subnormal(a)) {
        if (ftz)
            return sign | EXP_MASK; /* 1 / sqrt(+-0) */
        return bits_of(float_of(sfu_rsqrt(bits_of(float_of(a) * 0x1p24f), false)) * 0x1p12f);
    }
    if ((a & ~SIGN) == 0)
        return sign | EXP_MASK;
    if (sign)
        return CANONICAL_NAN;
    if (a == EXP_MASK)
        return 0;
    return flush_result(root_of_normal(a, true), ftz);
}

/* ex2's operand as the SFU takes it: |a| below 128 in 7.23 fixed point,
 * truncated (an exact product, then toward zero) */
static uint32_t ex2_fixed(uint32_t a)
{
    return (uint32_t)(float_of(a & ~SIGN) * 0x1p23f);
}

/* ex2 of a whose magnitude is below 128 (not a NaN) and, when negative
 * and not .ftz, at most 126: sfu_ex2's common case */
static inline uint32_t ex2_in_range(const SfuEx2Steps *steps, uint32_t a, bool ftz)
{
    bool negative = a & SIGN;
    uint32_t q = ex2_fixed(a);
    uint32_t i = q >> 23, f = q & MANT_MASK;
    Table t = negative ? T_EX2_NEG : T_EX2_POS;
    float base = measured(t, f, sfu_ref_ex2(steps, f, negative));
    return flush_result(scale(base, negative ? -(int)i : (int)i), ftz);
}

uint32_t sfu_ex2(uint32_t a, bool ftz)
{
    if (is_nan(a))
        return CANONICAL_NAN;
    bool negative = a & SIGN;
    float mag = float_of(a & ~SIGN);
    if (negative && !ftz && mag > 126.0f) {
        /* a result that may be subnormal: the square of 2^(x / 2) */
        float half = float_of(sfu_ex2(bits_of(float_of(a) * 0.5f), true));
        return bits_of(half * half);
    }
    if (mag >= 128.0f) /* infinities included */
        return negative ? 0 : EXP_MASK;
    return ex2_in_range(ex2_steps(), a, ftz);
}

uint32_t sfu_div(uint32_t a, uint32_t b, bool ftz)
{
    float num = float_of(a);
    if (ftz && is_subnormal(a)) /* .ftz: a subnormal operand or product is a zero of its sign */
        num = float_of(a & SIGN);
    if (!ftz && is_subnormal(b)) { /* else a subnormal divisor scales both by 2^24 */
        num *= 0x1p24f;
        b = bits_of(float_of(b) * 0x1p24f);
    }
    uint32_t r = flush_result(num * float_of(sfu_rcp(b, true)), ftz);
    return is_nan(r) ? CANONICAL_NAN : r;
}

/* sfu_lanes: the lanes whose operand takes the function's common case
 * (a normal operand, positive for the roots; for ex2, a magnitude below
 * 126) go through that case inline, with the table, its reference steps
 * and the function chosen once per warp; the others through the scalar
 * entry.  Both run the same code for those operands, so the bits are the
 * scalar functions' by construction.  The lanes' table entries are
 * scattered over megabytes: their loads start together. */

/* The smallest normal magnitude's bits: below it, zeros and subnormals;
 * from EXP_MASK on, infinities and NaNs. */
#define MIN_NORMAL 0x00800000u
#define EX2_COMMON_BELOW 0x42fc0000u /* 126.0f */

static bool is_normal(uint32_t a)
{
    uint32_t mag = a & ~SIGN;
    return mag >= MIN_NORMAL && mag < EXP_MASK;
}

static inline bool common_case(SfuFn fn, uint32_t a)
{
    if (fn == SFU_EX2)
        return (a & ~SIGN) < EX2_COMMON_BELOW;
    if (fn == SFU_RCP)
        return is_normal(a);
    return a >= MIN_NORMAL && a < EXP_MASK; /* roots: a positive normal */
}

static inline const uint8_t *common_entry(SfuFn fn, uint32_t a)
{
    if (fn == SFU_EX2)
        return table((a & SIGN) ? T_EX2_NEG : T_EX2_POS) + (ex2_fixed(a) & MANT_MASK) / 4;
    if (fn == SFU_RCP)
        return table(T_RCP) + (a & MANT_MASK) / 4;
    return table(root_table(a, fn == SFU_RSQRT)) + (a & MANT_MASK) / 4;
}

static inline uint32_t common_result(SfuFn fn, const SfuEx2Steps *steps, uint32_t a, bool ftz)
{
    switch (fn) {
    case SFU_EX2: return ex2_in_range(steps, a, ftz);
    case SFU_RCP: return rcp_normal(a, ftz);
    case SFU_SQRT: return bits_of(root_of_normal(a, false));
    default: return flush_result(root_of_normal(a, true), ftz);
    }
}

static uint32_t scalar(SfuFn fn, uint32_t a, bool ftz)
{
    switch (fn) {
    case SFU_EX2: return sfu_ex2(a, ftz);
    case SFU_RCP: return sfu_rcp(a, ftz);
    case SFU_SQRT: return sfu_sqrt(a, ftz);
    default: return sfu_rsqrt(a, ftz);
    }
}

/* fn is a constant in each caller (sfu_lanes' switch) */
static G_ALWAYS_INLINE inline void lanes_of(SfuFn fn, bool ftz, uint32_t lanes, const uint32_t a[32],
                                            uint32_t out[32])
{
    const SfuEx2Steps *steps = fn == SFU_EX2 ? ex2_steps() : NULL;
    uint32_t common = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (common_case(fn, a[l])) {
            common |= 1u << l;
            __builtin_prefetch(common_entry(fn, a[l]));
        }
    }
    for (uint32_t m = common; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        out[l] = common_result(fn, steps, a[l], ftz);
    }
    for (uint32_t m = lanes & ~common; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        out[l] = scalar(fn, a[l], ftz);
    }
}

void sfu_lanes(SfuFn fn, bool ftz, uint32_t lanes, const uint32_t a[32], uint32_t out[32])
{
    switch (fn) {
    case SFU_EX2: lanes_of(SFU_EX2, ftz, lanes, a, out); break;
    case SFU_RCP: lanes_of(SFU_RCP, ftz, lanes, a, out); break;
    case SFU_SQRT: lanes_of(SFU_SQRT, ftz, lanes, a, out); break;
    default: lanes_of(SFU_RSQRT, ftz, lanes, a, out); break;
    }
}

/* 1/sqrt(a) rounded once: as the H200's rsqrt.approx.f64 gives it in all
 * but 0.05 % of 6 M measured inputs (1.0 / sqrt(a), rounded twice, in a
 * third of them). */
double sfu_rsqrt_f64(double a)
{
    return (double)(1.0L / sqrtl((long double)a));
}

/* rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64, as the PTX ISA defines them
 * and the H200 measures: only the upper 32 bits of the operand count (sign,
 * exponent, 20 bits of mantissa), a subnormal one is zero, and the result
 * is the upper 32 bits of the reciprocal (square root) with the lower 32
 * zero, a subnormal result zero too, a NaN 0x7fffffff00000000.  The upper
 * bits are the exact value's, truncated: 93 % (94 %) of 6 M measured inputs
 * agree, the rest are one unit of the 20-bit mantissa off. */
uint64_t sfu_upper_f64(uint64_t bits, bool rsqrt)
{
    const uint64_t upper = UINT64_C(0xffffffff00000000);
    bits &= upper;
    if ((bits & UINT64_C(0x7ff0000000000000)) == 0)
        bits &= UINT64_C(1) << 63; /* subnormal: +-0 */
    double a = fp_f64_from_bits(bits);
    double r = rsqrt ? sfu_rsqrt_f64(a) : 1.0 / a;
    if (r != r)
        return UINT64_C(0x7fffffff00000000);
    uint64_t out = fp_f64_bits(r);
    if ((out & UINT64_C(0x7ff0000000000000)) == 0)
        out &= UINT64_C(1) << 63;
    return out & upper;
}
