/* fpconv.c — bit-exact PTX conversions; see fpconv.h for the contract.
 *
 * Every narrowing goes through one integer routine, round_magnitude(): the
 * exact input is handed over as sign * m * 2^e (plus, for arithmetic, the
 * sign of a tiny tail below the last bit of m), and the result is built
 * straight as an IEEE bit pattern.  Doing it on integers keeps the result
 * independent of the host's rounding mode and free of double rounding.
 */
#include "fpconv.h"

#include <math.h>

typedef struct {
    unsigned ebits; /* exponent field width */
    unsigned fbits; /* fraction field width (precision - 1) */
    uint64_t nan;   /* canonical NaN, sign clear */
} FpFormat;

static const FpFormat FMT_F16 = { 5, 10, FP_CANON_NAN_F16 };
static const FpFormat FMT_BF16 = { 8, 7, FP_CANON_NAN_BF16 };
static const FpFormat FMT_F32 = { 8, 23, FP_CANON_NAN_F32 };
static const FpFormat FMT_F64 = { 11, 52, FP_CANON_NAN_F64 };

static inline uint64_t fmt_inf(const FpFormat *f) { return ((UINT64_C(1) << f->ebits) - 1) << f->fbits; }
static inline uint64_t fmt_sign(const FpFormat *f) { return UINT64_C(1) << (f->ebits + f->fbits); }

/* Map any spelling of a float rounding direction to RN/RZ/RM/RP/RNA. */
static int float_rounding(int rnd)
{
    switch (rnd) {
    case RND_RZ: case RND_RZI: return RND_RZ;
    case RND_RM: case RND_RMI: return RND_RM;
    case RND_RP: case RND_RPI: return RND_RP;
    case RND_RNA: return RND_RNA;
    default: return RND_RN;
    }
}

/* Map any spelling of an integer rounding direction to RNI/RZI/RMI/RPI. */
static int int_rounding(int irnd)
{
    switch (irnd) {
    case RND_RNI: case RND_RN: return RND_RNI;
    case RND_RMI: case RND_RM: return RND_RMI;
    case RND_RPI: case RND_RP: return RND_RPI;
    default: return RND_RZI;
    }
}

/* Does rounding the magnitude in direction `rnd` move toward zero for this
 * sign?  Decides overflow: toward zero saturates at the largest finite. */
static bool rounds_toward_zero(int rnd, bool neg)
{
    return rnd == RND_RZ || (rnd == RND_RM && !neg) || (rnd == RND_RP && neg);
}

/* Where the discarded part of the magnitude lies, in units of the last kept
 * bit: exactly 0, below one half, exactly one half, or above one half. */
enum { REM_ZERO, REM_BELOW, REM_HALF, REM_ABOVE };

static bool round_up(int rnd, bool neg, int rem, uint64_t kept_bits)
{
    switch (rem) {
    case REM_ZERO: return false;
    case REM_HALF:
        if (rnd == RND_RN) return (kept_bits & 1) != 0;
        if (rnd == RND_RNA) return true;
        break;
    case REM_ABOVE:
        if (rnd == RND_RN || rnd == RND_RNA) return true;
        break;
    default: /* REM_BELOW */
        if (rnd == RND_RN || rnd == RND_RNA) return false;
        break;
    }
    return !rounds_toward_zero(rnd, neg);
}

/* The bit pattern of (neg ? -1 : 1) * (m * 2^e + tail) rounded to `fmt`,
 * where m > 0 and `tail` is a quantity smaller than half a unit of m's last
 * bit of which only the sign is known (-1, 0, +1).  rnd is a float
 * direction (RN/RZ/RM/RP/RNA). */
static uint64_t round_magnitude(const FpFormat *fmt, bool neg, uint64_t m, int e,
                                int tail, int rnd)
{
    const int bias = (1 << (fmt->ebits - 1)) - 1;
    const int emin = 1 - bias;
    const int fbits = (int)fmt->fbits;

    int msb = 63 - __builtin_clzll(m);
    int exp = msb + e;                            /* floor(log2(value)) */
    int ulp_exp = (exp > emin ? exp : emin) - fbits;
    int shift = ulp_exp - e;                      /* bits of m to drop */

    uint64_t kept;
    int rem;
    if (shift <= 0) {
        kept = m << -shift;
        rem = REM_ZERO;
    } else if (shift > 64) {
        kept = 0;
        rem = REM_BELOW;                          /* m < 2^64 <= half */
    } else {
        uint64_t dropped = shift == 64 ? m : m & ((UINT64_C(1) << shift) - 1);
        uint64_t half = UINT64_C(1) << (shift - 1);
        kept = shift == 64 ? 0 : m >> shift;
        rem = dropped == 0 ? REM_ZERO : dropped < half ? REM_BELOW
            : dropped == half ? REM_HALF : REM_ABOVE;
    }

    /* The encoding is monotone in the magnitude: the biased exponent sits
     * above the fraction, and a subnormal kept value just uses exponent 0. */
    uint64_t bits = ((uint64_t)(ulp_exp - (emin - fbits)) << fbits) + kept;

    /* The tail only matters where it breaks a tie or an exact result.  An
     * exact result with a negative tail is really just above the
     * predecessor, i.e. the predecessor with more than half a unit left. */
    if (tail != 0) {
        if (rem == REM_ZERO && tail < 0) {
            bits -= 1;
            rem = REM_ABOVE;
        } else if (rem == REM_ZERO) {
            rem = REM_BELOW;
        } else if (rem == REM_HALF) {
            rem = tail > 0 ? REM_ABOVE : REM_BELOW;
        }
    }
    if (round_up(rnd, neg, rem, bits))
        bits += 1;

    uint64_t inf = fmt_inf(fmt);
    if (bits >= inf || exp > bias)
        bits = rounds_toward_zero(rnd, neg) ? inf - 1 : inf;
    return bits | (neg ? fmt_sign(fmt) : 0);
}

/* Split a finite nonzero double into m * 2^e with m an integer. */
static void split_double(double x, uint64_t *m, int *e)
{
    uint64_t u = fp_f64_bits(x);
    int biased = (int)((u >> 52) & 0x7FF);
    uint64_t frac = u & ((UINT64_C(1) << 52) - 1);
    if (biased == 0) {
        *m = frac;
        *e = -1074;
    } else {
        *m = frac | (UINT64_C(1) << 52);
        *e = biased - 1075;
    }
}

/* A NaN of the f64 unit narrowed to `fmt`: sign and top payload kept, quiet. */
static uint64_t narrow_nan(const FpFormat *fmt, double x)
{
    uint64_t u = fp_f64_bits(x);
    uint64_t payload = (u & ((UINT64_C(1) << 52) - 1)) >> (52 - fmt->fbits);
    uint64_t quiet = UINT64_C(1) << (fmt->fbits - 1);
    return (u >> 63 ? fmt_sign(fmt) : 0) | fmt_inf(fmt) | quiet | payload;
}

/* x (with an optional tail sign, see round_magnitude) narrowed to `fmt`;
 * a NaN gives the canonical NaN, or keeps its payload when keep_nan. */
static uint64_t narrow_double(const FpFormat *fmt, double x, int tail, int rnd,
                              unsigned opts, bool keep_nan)
{
    rnd = float_rounding(rnd);
    if (isnan(x))
        return keep_nan ? narrow_nan(fmt, x) : fmt->nan;

    bool neg = signbit(x);
    uint64_t bits;
    if (isinf(x)) {
        bits = fmt_inf(fmt) | (neg ? fmt_sign(fmt) : 0);
    } else if (x == 0) {
        bits = neg ? fmt_sign(fmt) : 0;
    } else {
        uint64_t m;
        int e;
        split_double(x, &m, &e);
        bits = round_magnitude(fmt, neg, m, e, tail, rnd);
    }

    if ((opts & FP_SATFINITE) && (bits & ~fmt_sign(fmt)) == fmt_inf(fmt))
        bits -= 1;                    /* largest finite, sign kept */
    if ((opts & FP_RELU) && (bits & fmt_sign(fmt)))
        bits = 0;
    return bits;
}

/* An f32 is exact in f64, so narrowing it through f64 is still one rounding. */
uint16_t fp_f32_to_f16_opt(float x, int rnd, unsigned opts)
{
    return (uint16_t)narrow_double(&FMT_F16, x, 0, rnd, opts, false);
}

uint16_t fp_f32_to_bf16_opt(float x, int rnd, unsigned opts)
{
    return (uint16_t)narrow_double(&FMT_BF16, x, 0, rnd, opts, false);
}

uint16_t fp_f64_to_f16_opt(double x, int rnd, unsigned opts)
{
    return (uint16_t)narrow_double(&FMT_F16, x, 0, rnd, opts, true);
}

uint16_t fp_f64_to_bf16_opt(double x, int rnd, unsigned opts)
{
    return (uint16_t)narrow_double(&FMT_BF16, x, 0, rnd, opts, true);
}

float fp_f64_to_f32(double x, int rnd)
{
    return fp_f32_from_bits((uint32_t)narrow_double(&FMT_F32, x, 0, rnd, 0, true));
}

/* ---- widening ------------------------------------------------------------ */

float fp_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t biased = (h >> 10) & 0x1Fu;
    uint32_t frac = h & 0x3FFu;
    if (biased == 0x1F)
        return frac ? fp_canon_nan32() : fp_f32_from_bits(sign | 0x7F800000u);
    if (biased == 0) {
        /* zero or subnormal: frac * 2^-24, exact in f32 */
        float mag = ldexpf((float)frac, -24);
        return sign ? -mag : mag;
    }
    return fp_f32_from_bits(sign | ((biased - 15 + 127) << 23) | (frac << 13));
}

/* bf16 is the top half of an f32; the GPU just shifts, NaN payload and all. */
float fp_bf16_to_f32(uint16_t h)
{
    return fp_f32_from_bits((uint32_t)h << 16);
}

static double quiet64(double x)
{
    return fp_f64_from_bits(fp_f64_bits(x) | (UINT64_C(1) << 51));
}

double fp_f16_to_f64(uint16_t h)
{
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu)) {
        uint64_t sign = (uint64_t)(h >> 15) << 63;
        uint64_t payload = (uint64_t)(h & 0x3FFu) << 42;
        return quiet64(fp_f64_from_bits(sign | (UINT64_C(0x7FF) << 52) | payload));
    }
    return fp_f16_to_f32(h);          /* exact */
}

double fp_f32_to_f64(float x)
{
    if (isnan(x)) {
        uint32_t u = fp_f32_bits(x);
        uint64_t sign = (uint64_t)(u >> 31) << 63;
        uint64_t payload = (uint64_t)(u & 0x7FFFFFu) << 29;
        return quiet64(fp_f64_from_bits(sign | (UINT64_C(0x7FF) << 52) | payload));
    }
    return (double)x;
}

/* ---- integer -> float ------------------------------------------------------ */

static uint64_t from_integer(const FpFormat *fmt, bool neg, uint64_t mag, int rnd)
{
    if (mag == 0)
        return 0;                     /* integer zero converts to +0 */
    return round_magnitude(fmt, neg, mag, 0, 0, float_rounding(rnd));
}

/* |v| of a signed 64-bit integer without overflow at INT64_MIN. */
static uint64_t magnitude(int64_t v)
{
    return v < 0 ? UINT64_C(0) - (uint64_t)v : (uint64_t)v;
}

float fp_u64_to_f32(uint64_t v, int rnd)
{
    return fp_f32_from_bits((uint32_t)from_integer(&FMT_F32, false, v, rnd));
}

float fp_i64_to_f32(int64_t v, int rnd)
{
    return fp_f32_from_bits((uint32_t)from_integer(&FMT_F32, v < 0, magnitude(v), rnd));
}

double fp_u64_to_f64(uint64_t v, int rnd)
{
    return fp_f64_from_bits(from_integer(&FMT_F64, false, v, rnd));
}

double fp_i64_to_f64(int64_t v, int rnd)
{
    return fp_f64_from_bits(from_integer(&FMT_F64, v < 0, magnitude(v), rnd));
}

uint16_t fp_u64_to_f16(uint64_t v, int rnd)
{
    return (uint16_t)from_integer(&FMT_F16, false, v, rnd);
}

uint16_t fp_i64_to_f16(int64_t v, int rnd)
{
    return (uint16_t)from_integer(&FMT_F16, v < 0, magnitude(v), rnd);
}

uint16_t fp_u64_to_bf16(uint64_t v, int rnd)
{
    return (uint16_t)from_integer(&FMT_BF16, false, v, rnd);
}

uint16_t fp_i64_to_bf16(int64_t v, int rnd)
{
    return (uint16_t)from_integer(&FMT_BF16, v < 0, magnitude(v), rnd);
}

/* ---- float -> integer ---------------------------------------------------------- */

/* Round to an integral double.  trunc/floor/ceil are exact and do not read
 * the rounding mode; ties-to-even is built from trunc. */
static double round_to_integral(double x, int irnd)
{
    switch (int_rounding(irnd)) {
    case RND_RMI: return floor(x);
    case RND_RPI: return ceil(x);
    case RND_RZI: return trunc(x);
    default: break;
    }
    double t = trunc(x);
    double frac = fabs(x - t);        /* exact: x and t share the binade */
    bool odd = fmod(t, 2.0) != 0;
    if (frac > 0.5 || (frac == 0.5 && odd))
        t += copysign(1.0, x);
    return t;
}

/* What the H200 gives for a NaN source: see fpconv.h. */
static uint64_t nan_to_int(bool from_f64, unsigned bits)
{
    return from_f64 || bits == 64 ? UINT64_C(1) << (bits - 1) : 0;
}

static unsigned int_width(unsigned bits)
{
    return bits == 0 || bits > 64 ? 64 : bits;
}

static int64_t to_sint(double x, int irnd, unsigned bits, bool from_f64)
{
    bits = int_width(bits);
    if (isnan(x))
        return fp_sext(nan_to_int(from_f64, bits), bits);
    double r = round_to_integral(x, irnd);
    double limit = ldexp(1.0, (int)bits - 1);     /* 2^(bits-1), exact */
    if (r >= limit)
        return (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
    if (r < -limit)
        return -(int64_t)(((uint64_t)1 << (bits - 1)) - 1) - 1;
    return (int64_t)r;
}

static uint64_t to_uint(double x, int irnd, unsigned bits, bool from_f64)
{
    bits = int_width(bits);
    if (isnan(x))
        return nan_to_int(from_f64, bits);
    double r = round_to_integral(x, irnd);
    if (r <= 0)
        return 0;
    if (r >= ldexp(1.0, (int)bits))
        return bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    return (uint64_t)r;
}

int64_t fp_f32_to_sint(float x, int irnd, unsigned bits) { return to_sint(x, irnd, bits, false); }
uint64_t fp_f32_to_uint(float x, int irnd, unsigned bits) { return to_uint(x, irnd, bits, false); }
int64_t fp_f64_to_sint(double x, int irnd, unsigned bits) { return to_sint(x, irnd, bits, true); }
uint64_t fp_f64_to_uint(double x, int irnd, unsigned bits) { return to_uint(x, irnd, bits, true); }

double fp_round_integral(double x, int irnd)
{
    if (isnan(x))
        return quiet64(x);
    return round_to_integral(x, irnd);
}

float fp_round_integral_f32(float x, int irnd)
{
    if (isnan(x))
        return fp_canon_nan32();
    /* the integral value of an f32 is itself an f32, so this is exact */
    return (float)round_to_integral(x, irnd);
}

/* ---- .sat ------------------------------------------------------------------------ */

float fp_sat32(float x)
{
    if (!(x > 0))                     /* NaN, -0, +0 and negatives */
        return 0.0f;
    return x > 1.0f ? 1.0f : x;
}

double fp_sat64(double x)
{
    if (!(x > 0))
        return 0.0;
    return x > 1.0 ? 1.0 : x;
}

uint16_t fp_sat_f16(uint16_t h)
{
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu))
        return 0;                     /* NaN */
    if (h & 0x8000u)
        return 0;                     /* negative, -0 included */
    return h > 0x3C00u ? 0x3C00u : h; /* positive bit patterns order like values */
}

/* ---- integer -> integer ---------------------------------------------------------- */

uint64_t fp_int_convert(uint64_t v, unsigned src_bits, bool src_signed,
                        unsigned dst_bits, bool dst_signed, bool sat)
{
    if (dst_bits == 0 || dst_bits > 64)
        dst_bits = 64;
    if (src_bits == 0 || src_bits > 64)
        src_bits = 64;

    uint64_t result;
    if (!sat) {
        result = src_signed ? (uint64_t)fp_sext(v, src_bits) : fp_zext(v, src_bits);
    } else if (src_signed) {
        int64_t s = fp_sext(v, src_bits);
        int64_t lo = dst_signed ? fp_sext(UINT64_C(1) << (dst_bits - 1), dst_bits) : 0;
        uint64_t hi = dst_signed ? (UINT64_C(1) << (dst_bits - 1)) - 1 : fp_zext(UINT64_MAX, dst_bits);
        if (s < lo)
            result = (uint64_t)lo;
        else if (s >= 0 && (uint64_t)s > hi)
            result = hi;
        else
            result = (uint64_t)s;
    } else {
        uint64_t u = fp_zext(v, src_bits);
        uint64_t hi = dst_signed ? (UINT64_C(1) << (dst_bits - 1)) - 1 : fp_zext(UINT64_MAX, dst_bits);
        result = u > hi ? hi : u;
    }
    return dst_signed ? (uint64_t)fp_sext(result, dst_bits) : fp_zext(result, dst_bits);
}

/* ---- min / max ---------------------------------------------------------------------- */

/* Shared rule of min and max on doubles (f32, f16 and bf16 widen exactly).
 * Returns 0 when a is the answer, 1 for b, -1 for the canonical NaN. */
static int pick_min_max(double a, double b, bool want_max, bool nan_mode)
{
    bool na = isnan(a), nb = isnan(b);
    if ((na && nb) || (nan_mode && (na || nb)))
        return -1;
    if (na)
        return 1;
    if (nb)
        return 0;
    if (a == b)                       /* equal, or +0 against -0 */
        return (signbit(a) != 0) == want_max ? 1 : 0;
    return (a > b) == want_max ? 0 : 1;
}

float fp_min32(float a, float b, bool nan_mode)
{
    int p = pick_min_max(a, b, false, nan_mode);
    return p < 0 ? fp_canon_nan32() : p ? b : a;
}

float fp_max32(float a, float b, bool nan_mode)
{
    int p = pick_min_max(a, b, true, nan_mode);
    return p < 0 ? fp_canon_nan32() : p ? b : a;
}

/* The f64 unit answers a NaN case with the quieted NaN operand, b first. */
static double nan_operand64(double a, double b)
{
    return quiet64(isnan(b) ? b : a);
}

double fp_min64(double a, double b, bool nan_mode)
{
    int p = pick_min_max(a, b, false, nan_mode);
    return p < 0 ? nan_operand64(a, b) : p ? b : a;
}

double fp_max64(double a, double b, bool nan_mode)
{
    int p = pick_min_max(a, b, true, nan_mode);
    return p < 0 ? nan_operand64(a, b) : p ? b : a;
}

static double half_value(uint16_t h, bool bf16)
{
    return bf16 ? (double)fp_bf16_to_f32(h) : (double)fp_f16_to_f32(h);
}

static uint16_t half_min_max(uint16_t a, uint16_t b, bool bf16, bool want_max, bool nan_mode)
{
    int p = pick_min_max(half_value(a, bf16), half_value(b, bf16), want_max, nan_mode);
    return p < 0 ? (bf16 ? FP_CANON_NAN_BF16 : FP_CANON_NAN_F16) : p ? b : a;
}

uint16_t fp_min_f16(uint16_t a, uint16_t b, bool nan_mode) { return half_min_max(a, b, false, false, nan_mode); }
uint16_t fp_max_f16(uint16_t a, uint16_t b, bool nan_mode) { return half_min_max(a, b, false, true, nan_mode); }
uint16_t fp_min_bf16(uint16_t a, uint16_t b, bool nan_mode) { return half_min_max(a, b, true, false, nan_mode); }
uint16_t fp_max_bf16(uint16_t a, uint16_t b, bool nan_mode) { return half_min_max(a, b, true, true, nan_mode); }

/* ---- testp ------------------------------------------------------------------------------ */

/* Classify from the exponent and fraction fields of any IEEE format. */
static bool testp_fields(uint64_t biased, uint64_t max_biased, uint64_t frac, int test)
{
    bool special = biased == max_biased;
    bool nan = special && frac != 0;
    switch (test) {
    case TESTP_FINITE: return !special;
    case TESTP_INFINITE: return special && frac == 0;
    case TESTP_NUMBER: return !nan;
    case TESTP_NOTANUMBER: return nan;
    case TESTP_NORMAL: return !special && !(biased == 0 && frac != 0);
    case TESTP_SUBNORMAL: return biased == 0 && frac != 0;
    default: return false;
    }
}

bool fp_testp32(float x, int test)
{
    uint32_t u = fp_f32_bits(x);
    return testp_fields((u >> 23) & 0xFF, 0xFF, u & 0x7FFFFF, test);
}

bool fp_testp64(double x, int test)
{
    uint64_t u = fp_f64_bits(x);
    return testp_fields((u >> 52) & 0x7FF, 0x7FF, u & ((UINT64_C(1) << 52) - 1), test);
}

/* ---- f32 arithmetic with a rounding mode --------------------------------------------------- */

/* Zero sum of exact cancellation or of zeros (IEEE 754 6.3): zeros of one
 * sign keep it, otherwise +0, or -0 when rounding toward minus infinity. */
static float zero_sum(bool neg_a, bool neg_b, int rnd)
{
    if (neg_a == neg_b)
        return neg_a ? -0.0f : 0.0f;
    return float_rounding(rnd) == RND_RM ? -0.0f : 0.0f;
}

/* Round s + err to f32 where s + err is exact and |err| <= ulp(s)/2. */
static float narrow_with_error(double s, double err, int rnd)
{
    int tail = err == 0 ? 0 : (signbit(err) == signbit(s) ? 1 : -1);
    return fp_f32_from_bits((uint32_t)narrow_double(&FMT_F32, s, tail, rnd, 0, false));
}

/* Knuth's TwoSum: s + err == a + b exactly (no overflow in the f64 range). */
static double two_sum(double a, double b, double *err)
{
    double s = a + b;
    double bv = s - a;
    double av = s - bv;
    *err = (a - av) + (b - bv);
    return s;
}

float fp_add_f32(float a, float b, int rnd)
{
    if (isnan(a) || isnan(b) || isinf(a) || isinf(b)) {
        float r = a + b;
        return isnan(r) ? fp_canon_nan32() : r;
    }
    double err;
    double s = two_sum(a, b, &err);
    if (s == 0)
        return zero_sum(signbit(a), signbit(b), rnd);
    return narrow_with_error(s, err, rnd);
}

float fp_mul_f32(float a, float b, int rnd)
{
    double p = (double)a * (double)b;  /* exact: 24 x 24 bits */
    if (isnan(p))
        return fp_canon_nan32();
    return fp_f64_to_f32(p, rnd);
}

float fp_fma_f32(float a, float b, float c, int rnd)
{
    double p = (double)a * (double)b;  /* exact */
    if (isnan(p) || isnan(c) || isinf(p) || isinf(c)) {
        double r = p + c;
        return isnan(r) ? fp_canon_nan32() : (float)r;
    }
    double err;
    double s = two_sum(p, c, &err);
    if (s == 0)
        return zero_sum(signbit(p), signbit(c), rnd);
    return narrow_with_error(s, err, rnd);
}
