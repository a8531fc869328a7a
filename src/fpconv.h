/* fpconv.h — bit-exact PTX floating-point conversions and float helpers.
 *
 * Contract: pure functions of their arguments, no global state, and no
 * dependence on (or change to) the host's floating-point environment:
 * every rounding is done on integer bit patterns, never with fesetround.
 * Behaviour is what an H200 (sm_90) does: it was compared bit for bit with
 * about 1.3 million conversions run there (every f16/bf16 input, sampled
 * f32/f64/integer inputs, all rounding modes).  Where the hardware departs
 * from the PTX ISA text the function's comment says so; tests/test_fpconv.c
 * pins those cases.
 *
 * Rounding arguments take the RND_* values of isa.h:
 *   float results (frnd):   RND_RN (ties to even), RND_RZ, RND_RM, RND_RP,
 *                           RND_RNA (ties away from zero); RND_NONE means RN.
 *   integer results (irnd): RND_RNI, RND_RZI, RND_RMI, RND_RPI; RND_NONE
 *                           means RZI (the C cast; nvcc always writes one).
 * Each family also accepts the other family's spelling of the same
 * direction (RN for RNI and so on), so a decoder slip cannot turn into an
 * unrelated mode; anything unknown is treated as the family default.
 *
 * NaN results follow the H200, which differs by pipeline:
 *  - f32 and 16-bit operations give the canonical NaN (sign clear, every
 *    payload bit set): f16 0x7FFF, bf16 0x7FFF, f32 0x7FFFFFFF;
 *  - operations of the f64 unit (any conversion from or to f64, f64
 *    min/max and rounding) keep the NaN IEEE-style: sign kept, quiet bit
 *    set, payload truncated or zero-extended at the low end;
 *  - f64 arithmetic (add, sub, mul, fma, div, rcp, sqrt, neg, abs) likewise
 *    returns a NaN operand, quieted with sign and payload kept, the first
 *    one in an order of the operands that depends on the operation
 *    (fp_f64_arith_bits); an invalid operation on numbers (0 * inf,
 *    inf - inf, 0 / 0, sqrt(-1)) gives the default NaN 0xFFF8000000000000,
 *    sign set.  Measured with tools/gpu-check/op_sweep.py (2026-11-22);
 *  - f32 neg and abs give the canonical NaN, as f32 arithmetic does;
 *  - bf16 -> f32 is a plain 16-bit shift that keeps even a signalling NaN.
 *
 * 16-bit floats travel as their uint16_t bit patterns.
 *
 * Arithmetic hint for the executor: a single f16/bf16 add, sub, mul, div or
 * sqrt computed exactly-rounded in f64 and then narrowed with
 * fp_f64_to_f16/bf16 (RN) is correctly rounded, because 53 >= 2*11+2.  For
 * f32 with directed rounding use fp_add_f32 / fp_mul_f32 / fp_fma_f32 below.
 */
#ifndef WARPSIM_FPCONV_H
#define WARPSIM_FPCONV_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "isa.h"

#define FP_CANON_NAN_F16  UINT16_C(0x7FFF)
#define FP_CANON_NAN_BF16 UINT16_C(0x7FFF)
#define FP_CANON_NAN_F32  UINT32_C(0x7FFFFFFF)
#define FP_CANON_NAN_F64  UINT64_C(0x7FFFFFFFFFFFFFFF)
#define FP_DEFAULT_NAN_F64 UINT64_C(0xFFF8000000000000) /* invalid f64 arithmetic */

/* ---- bit casts ---------------------------------------------------------- */

static inline uint32_t fp_f32_bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline float fp_f32_from_bits(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
static inline uint64_t fp_f64_bits(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static inline double fp_f64_from_bits(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }

static inline float fp_canon_nan32(void) { return fp_f32_from_bits(FP_CANON_NAN_F32); }
/* An f64 NaN narrowed to f32 (cvt.f32.f64): the payload's top bits
 * survive, quieted, and the sign. */
static inline uint32_t fp_f64_nan_to_f32(uint64_t v)
{
    return (uint32_t)(v >> 32 & 0x80000000u) | 0x7FC00000u | (uint32_t)((v >> 29) & 0x7FFFFFu);
}

static inline bool fp_f64_bits_nan(uint64_t v) { return (v & ~(UINT64_C(1) << 63)) > UINT64_C(0x7FF0000000000000); }

/* The bits of an f64 arithmetic result r of operands a, b, c (0 for those
 * the operation lacks): when r is a NaN, the first NaN operand in the
 * order the H200 gives them precedence, quieted; the default NaN when none
 * is.  The order is b, c, a (add, sub, mul: b, a; fma: b, c, a;
 * one-operand operations: a), except for div: a, b.  Selects only, so lane
 * loops stay vectorisable. */
static inline uint64_t fp_f64_arith_bits(double r, uint64_t a, uint64_t b, uint64_t c, bool is_div)
{
    const uint64_t quiet = UINT64_C(1) << 51;
    uint64_t p0 = is_div ? a : b, p1 = is_div ? b : c, p2 = is_div ? 0 : a;
    uint64_t nan = fp_f64_bits_nan(p0) ? p0 | quiet
                 : fp_f64_bits_nan(p1) ? p1 | quiet
                 : fp_f64_bits_nan(p2) ? p2 | quiet : FP_DEFAULT_NAN_F64;
    return r != r ? nan : fp_f64_bits(r);
}

/* ---- narrowing float conversions ---------------------------------------- */

/* Options of the narrowing conversions (cvt modifiers).
 * FP_SATFINITE: a result that would be +-Inf (an infinite input too) becomes
 *               the largest finite value of that sign; NaN stays NaN.
 * FP_RELU:      a negative result (-0 included) becomes +0; NaN stays NaN. */
enum { FP_SATFINITE = 1u << 0, FP_RELU = 1u << 1 };

/* Round x once, exactly, to f16 / bf16 / f32 (frnd rounding, see above).
 * Overflow gives Inf, or the largest finite value where the rounding
 * direction points toward zero (IEEE 754).  Subnormal results are kept.
 * From f32 a NaN gives the canonical NaN; from f64 it keeps sign and the
 * top payload bits (see above).  PTX allows .satfinite/.relu only on f32
 * sources; the f64 variants accept them all the same. */
uint16_t fp_f32_to_f16_opt(float x, int rnd, unsigned opts);
uint16_t fp_f32_to_bf16_opt(float x, int rnd, unsigned opts);
uint16_t fp_f64_to_f16_opt(double x, int rnd, unsigned opts);
uint16_t fp_f64_to_bf16_opt(double x, int rnd, unsigned opts);
float fp_f64_to_f32(double x, int rnd);

static inline uint16_t fp_f32_to_f16(float x, int rnd) { return fp_f32_to_f16_opt(x, rnd, 0); }
static inline uint16_t fp_f32_to_bf16(float x, int rnd) { return fp_f32_to_bf16_opt(x, rnd, 0); }
static inline uint16_t fp_f64_to_f16(double x, int rnd) { return fp_f64_to_f16_opt(x, rnd, 0); }
static inline uint16_t fp_f64_to_bf16(double x, int rnd) { return fp_f64_to_bf16_opt(x, rnd, 0); }

/* ---- widening float conversions (exact) --------------------------------- */

/* f16 -> f32 gives the canonical NaN for a NaN; bf16 -> f32 is a shift;
 * the conversions to f64 keep the payload (quiet bit set). */
float fp_f16_to_f32(uint16_t h);
float fp_bf16_to_f32(uint16_t h);
double fp_f16_to_f64(uint16_t h);
double fp_f32_to_f64(float x);
static inline double fp_bf16_to_f64(uint16_t h) { return fp_f32_to_f64(fp_bf16_to_f32(h)); }

/* ---- integer -> float ----------------------------------------------------- */

/* Exactly rounded (frnd); a 64-bit integer may need rounding even into f64. */
float fp_u64_to_f32(uint64_t v, int rnd);
float fp_i64_to_f32(int64_t v, int rnd);
double fp_u64_to_f64(uint64_t v, int rnd);
double fp_i64_to_f64(int64_t v, int rnd);
uint16_t fp_u64_to_f16(uint64_t v, int rnd);
uint16_t fp_i64_to_f16(int64_t v, int rnd);
uint16_t fp_u64_to_bf16(uint64_t v, int rnd);
uint16_t fp_i64_to_bf16(int64_t v, int rnd);

/* ---- float -> integer ------------------------------------------------------ */

/* x rounded to an integer (irnd) and clamped to the range of a signed or
 * unsigned integer of `bits` bits (8, 16, 32 or 64), as every PTX
 * float-to-integer cvt does.  The signed result is returned sign-extended,
 * the unsigned one zero-extended.  Use the f32 variant for f16 and bf16
 * sources too (widened exactly), and flush .ftz inputs first.
 *
 * NaN: the PTX ISA (8.7) says NaN converts to 0.  The H200 does so for f32
 * and f16 sources into 8- to 32-bit destinations, but gives the
 * destination's sign-bit pattern (1 << (bits-1), e.g. 0x80000000,
 * 0x8000000000000000, u8 0x80, s8 -128) for every f64 source and for every
 * 64-bit destination.  These functions reproduce the hardware. */
int64_t fp_f32_to_sint(float x, int irnd, unsigned bits);
uint64_t fp_f32_to_uint(float x, int irnd, unsigned bits);
int64_t fp_f64_to_sint(double x, int irnd, unsigned bits);
uint64_t fp_f64_to_uint(double x, int irnd, unsigned bits);

/* x rounded to an integral value in its own format (cvt.rni.f32.f32 ...).
 * The sign of zero results follows the input (-0.3 -> -0); Inf stays;
 * NaN gives the canonical NaN for f32, the quieted input for f64. */
double fp_round_integral(double x, int irnd);
float fp_round_integral_f32(float x, int irnd);

/* ---- .ftz and .sat ------------------------------------------------------------ */

/* A subnormal f32 becomes zero of the same sign; anything else passes. */
static inline float fp_ftz32(float x)
{
    uint32_t u = fp_f32_bits(x);
    if ((u & 0x7F800000u) == 0)
        u &= 0x80000000u;
    return fp_f32_from_bits(u);
}

/* .sat for float results: clamp to [+0.0, 1.0]; NaN and -0 give +0. */
float fp_sat32(float x);
double fp_sat64(double x);
uint16_t fp_sat_f16(uint16_t h);

/* ---- integer -> integer ------------------------------------------------------- */

static inline uint64_t fp_zext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}
static inline int64_t fp_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t sign = UINT64_C(1) << (bits - 1);
    v = fp_zext(v, bits);
    return (int64_t)((v ^ sign) - sign);
}

/* cvt{.sat}.dtype.atype between integer types.  `v` holds the source in its
 * low src_bits bits (higher bits are ignored); the source is sign-extended
 * when src_signed, else zero-extended.  Without sat the value is truncated to
 * dst_bits, with sat it is clamped to the destination's range.  The result is
 * returned extended to 64 bits according to dst_signed, so the executor can
 * store it into a register of any width. */
uint64_t fp_int_convert(uint64_t v, unsigned src_bits, bool src_signed,
                        unsigned dst_bits, bool dst_signed, bool sat);

/* ---- min / max ------------------------------------------------------------------ */

/* PTX min/max: a NaN operand yields the other operand, two NaNs the canonical
 * NaN; with nan_mode (the .NaN modifier) any NaN operand gives the canonical
 * NaN.  -0.0 counts as smaller than +0.0.  f64 (no .NaN in PTX) follows the
 * f64 unit instead: two NaNs give b quieted; nan_mode gives the quieted NaN
 * operand (b if both). */
float fp_min32(float a, float b, bool nan_mode);
float fp_max32(float a, float b, bool nan_mode);
double fp_min64(double a, double b, bool nan_mode);
double fp_max64(double a, double b, bool nan_mode);
uint16_t fp_min_f16(uint16_t a, uint16_t b, bool nan_mode);
uint16_t fp_max_f16(uint16_t a, uint16_t b, bool nan_mode);
uint16_t fp_min_bf16(uint16_t a, uint16_t b, bool nan_mode);
uint16_t fp_max_bf16(uint16_t a, uint16_t b, bool nan_mode);

/* ---- classification (testp) --------------------------------------------------- */

/* `test` is a TESTP_* value of isa.h.  As on the H200, testp.normal is true
 * for every finite non-subnormal value, zeros included; testp.subnormal is
 * false for zeros.  The f32 variant classifies in f32 (a subnormal f32 is
 * normal once widened, so do not widen first). */
bool fp_testp32(float x, int test);
bool fp_testp64(double x, int test);

/* ---- f32 arithmetic with a rounding mode ----------------------------------------- */

/* add/sub/mul/fma.{rn,rz,rm,rp}.f32 exactly rounded, computed from an exact
 * f64 intermediate plus its error term.  NaN results are canonical; no ftz
 * (flush the operands and the result with fp_ftz32 where .ftz is given). */
float fp_add_f32(float a, float b, int rnd);
float fp_mul_f32(float a, float b, int rnd);
float fp_fma_f32(float a, float b, float c, int rnd);

#endif
