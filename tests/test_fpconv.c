/* test_fpconv.c — bit patterns for the PTX conversion helpers.
 *
 * Every expected value is worked out by hand from the IEEE encodings
 * (cross-checked with Python's struct, which rounds to nearest), or, where
 * marked "H200", was observed on an H200 running the same PTX instruction;
 * none comes from fpconv itself.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "fpconv.h"
#include "testutil.h"

#define F32(x) fp_f32_bits(x)
#define F64(x) fp_f64_bits(x)
#define BITS32(u) fp_f32_from_bits(u)
#define BITS64(u) fp_f64_from_bits(u)

/* ---- f16 ------------------------------------------------------------------- */

START_TEST(f32_to_f16_basics)
{
    ck_assert_uint_eq(fp_f32_to_f16(1.0f, RND_RN), 0x3C00);
    ck_assert_uint_eq(fp_f32_to_f16(-2.0f, RND_RN), 0xC000);
    ck_assert_uint_eq(fp_f32_to_f16(65504.0f, RND_RN), 0x7BFF);       /* largest finite */
    ck_assert_uint_eq(fp_f32_to_f16(0.0f, RND_RN), 0x0000);
    ck_assert_uint_eq(fp_f32_to_f16(-0.0f, RND_RN), 0x8000);
    ck_assert_uint_eq(fp_f32_to_f16(INFINITY, RND_RZ), 0x7C00);        /* Inf stays Inf */
    ck_assert_uint_eq(fp_f32_to_f16(ldexpf(1, -24), RND_RN), 0x0001);  /* smallest subnormal */
    ck_assert_uint_eq(fp_f32_to_f16(1023 * ldexpf(1, -24), RND_RN), 0x03FF);
    ck_assert_uint_eq(fp_f32_to_f16(1.0f, RND_NONE), 0x3C00);          /* NONE is rn */
}
END_TEST

START_TEST(f32_to_f16_overflow)
{
    /* 65520 is the midpoint of 65504 and 2^16: ties-to-even goes to Inf */
    ck_assert_uint_eq(fp_f32_to_f16(65520.0f, RND_RN), 0x7C00);
    ck_assert_uint_eq(fp_f32_to_f16(65519.0f, RND_RN), 0x7BFF);
    ck_assert_uint_eq(fp_f32_to_f16(65520.0f, RND_RZ), 0x7BFF);
    ck_assert_uint_eq(fp_f32_to_f16(1e10f, RND_RZ), 0x7BFF);
    ck_assert_uint_eq(fp_f32_to_f16(65520.0f, RND_RM), 0x7BFF);
    ck_assert_uint_eq(fp_f32_to_f16(65505.0f, RND_RP), 0x7C00);
    ck_assert_uint_eq(fp_f32_to_f16(-65520.0f, RND_RM), 0xFC00);
    ck_assert_uint_eq(fp_f32_to_f16(-65520.0f, RND_RP), 0xFBFF);
}
END_TEST

START_TEST(f32_to_f16_ties_and_directions)
{
    float tie = 1.0f + ldexpf(1, -11);            /* half an f16 ulp above 1 */
    ck_assert_uint_eq(fp_f32_to_f16(tie, RND_RN), 0x3C00);              /* to even */
    ck_assert_uint_eq(fp_f32_to_f16(1.0f + 3 * ldexpf(1, -11), RND_RN), 0x3C02);
    ck_assert_uint_eq(fp_f32_to_f16(tie, RND_RNA), 0x3C01);             /* away */
    ck_assert_uint_eq(fp_f32_to_f16(tie, RND_RZ), 0x3C00);
    ck_assert_uint_eq(fp_f32_to_f16(tie, RND_RP), 0x3C01);
    ck_assert_uint_eq(fp_f32_to_f16(-(1.0f + ldexpf(1, -12)), RND_RM), 0xBC01);
    ck_assert_uint_eq(fp_f32_to_f16(-(1.0f + ldexpf(1, -12)), RND_RP), 0xBC00);
    /* subnormal ties: 2^-25 is half of the smallest subnormal */
    ck_assert_uint_eq(fp_f32_to_f16(ldexpf(1, -25), RND_RN), 0x0000);
    ck_assert_uint_eq(fp_f32_to_f16(ldexpf(1, -25), RND_RP), 0x0001);
    ck_assert_uint_eq(fp_f32_to_f16(3 * ldexpf(1, -25), RND_RN), 0x0002);
    ck_assert_uint_eq(fp_f32_to_f16(-ldexpf(1, -26), RND_RM), 0x8001);
    /* the largest subnormal rounding up into the smallest normal */
    ck_assert_uint_eq(fp_f32_to_f16(ldexpf(1, -14) - ldexpf(1, -26), RND_RN), 0x0400);
}
END_TEST

START_TEST(f16_nan_satfinite_relu)
{
    ck_assert_uint_eq(fp_f32_to_f16(NAN, RND_RN), 0x7FFF);              /* H200 */
    ck_assert_uint_eq(fp_f32_to_f16(BITS32(0xFFC00001u), RND_RZ), 0x7FFF);
    /* from f64 the NaN keeps sign and top payload (H200) */
    ck_assert_uint_eq(fp_f64_to_f16(BITS64(0x7FF8000000000000ull), RND_RN), 0x7E00);
    ck_assert_uint_eq(fp_f64_to_f16(BITS64(0xFFFFFFFFE0000000ull), RND_RN), 0xFFFF);
    ck_assert_uint_eq(fp_f32_to_f16_opt(INFINITY, RND_RN, FP_SATFINITE), 0x7BFF);
    ck_assert_uint_eq(fp_f32_to_f16_opt(-INFINITY, RND_RN, FP_SATFINITE), 0xFBFF);
    ck_assert_uint_eq(fp_f32_to_f16_opt(1e6f, RND_RN, FP_SATFINITE), 0x7BFF);
    ck_assert_uint_eq(fp_f32_to_f16_opt(NAN, RND_RN, FP_SATFINITE), 0x7FFF);
    ck_assert_uint_eq(fp_f32_to_f16_opt(-1.0f, RND_RN, FP_RELU), 0x0000);
    ck_assert_uint_eq(fp_f32_to_f16_opt(-0.0f, RND_RN, FP_RELU), 0x0000);
    ck_assert_uint_eq(fp_f32_to_f16_opt(2.0f, RND_RN, FP_RELU), 0x4000);
    ck_assert_uint_eq(fp_f32_to_f16_opt(NAN, RND_RN, FP_RELU), 0x7FFF);
}
END_TEST

START_TEST(f16_widening)
{
    ck_assert_uint_eq(F32(fp_f16_to_f32(0x3C00)), 0x3F800000u);
    ck_assert_uint_eq(F32(fp_f16_to_f32(0x0001)), 0x33800000u);         /* 2^-24 */
    ck_assert_uint_eq(F32(fp_f16_to_f32(0x7BFF)), 0x477FE000u);         /* 65504 */
    ck_assert_uint_eq(F32(fp_f16_to_f32(0x8000)), 0x80000000u);
    ck_assert_uint_eq(F32(fp_f16_to_f32(0xFC00)), 0xFF800000u);
    ck_assert_uint_eq(F32(fp_f16_to_f32(0x03FF)), 0x387FC000u);         /* 1023 * 2^-24 */
    ck_assert_uint_eq(F32(fp_f16_to_f32(0x7E00)), 0x7FFFFFFFu);         /* H200 */
    ck_assert_uint_eq(F64(fp_f16_to_f64(0x7C01)), 0x7FF8040000000000ull); /* H200 */
    ck_assert_uint_eq(F64(fp_f16_to_f64(0xBC00)), 0xBFF0000000000000ull);
}
END_TEST

/* ---- bf16 ------------------------------------------------------------------ */

START_TEST(bf16_conversions)
{
    ck_assert_uint_eq(fp_f32_to_bf16(1.0f, RND_RN), 0x3F80);
    ck_assert_uint_eq(fp_f32_to_bf16(BITS32(0x3F800001u), RND_RN), 0x3F80); /* 1.0000001 */
    ck_assert_uint_eq(fp_f32_to_bf16(BITS32(0x3F800001u), RND_RP), 0x3F81);
    ck_assert_uint_eq(fp_f32_to_bf16(BITS32(0x3F808000u), RND_RN), 0x3F80); /* tie, even below */
    ck_assert_uint_eq(fp_f32_to_bf16(BITS32(0x3F818000u), RND_RN), 0x3F82); /* tie, odd below */
    ck_assert_uint_eq(fp_f32_to_bf16(BITS32(0x3F808000u), RND_RNA), 0x3F81);
    ck_assert_uint_eq(fp_f32_to_bf16(BITS32(0x7F7FFFFFu), RND_RN), 0x7F80);
    ck_assert_uint_eq(fp_f32_to_bf16(BITS32(0x7F7FFFFFu), RND_RZ), 0x7F7F);
    ck_assert_uint_eq(fp_f32_to_bf16(NAN, RND_RN), 0x7FFF);                 /* H200 */
    ck_assert_uint_eq(fp_f64_to_bf16(1.0 / 3.0, RND_RN), 0x3EAB);
    ck_assert_uint_eq(fp_f64_to_bf16(1.0 / 3.0, RND_RZ), 0x3EAA);
    ck_assert_uint_eq(F32(fp_bf16_to_f32(0xC040)), 0xC0400000u);            /* -3.0 */
    ck_assert_uint_eq(F32(fp_bf16_to_f32(0x7F81)), 0x7F810000u);            /* H200: plain shift */
}
END_TEST

/* ---- f64 -> f32 and integer -> float ------------------------------------------ */

START_TEST(f64_to_f32_directed)
{
    double third = 1.0 / 3.0;                     /* 0x3FD5555555555555 */
    ck_assert_uint_eq(F32(fp_f64_to_f32(third, RND_RN)), 0x3EAAAAABu);
    ck_assert_uint_eq(F32(fp_f64_to_f32(third, RND_RZ)), 0x3EAAAAAAu);
    ck_assert_uint_eq(F32(fp_f64_to_f32(third, RND_RM)), 0x3EAAAAAAu);
    ck_assert_uint_eq(F32(fp_f64_to_f32(third, RND_RP)), 0x3EAAAAABu);
    ck_assert_uint_eq(F32(fp_f64_to_f32(-third, RND_RM)), 0xBEAAAAABu);
    ck_assert_uint_eq(F32(fp_f64_to_f32(-third, RND_RZ)), 0xBEAAAAAAu);
    ck_assert_uint_eq(F32(fp_f64_to_f32(1e39, RND_RN)), 0x7F800000u);
    ck_assert_uint_eq(F32(fp_f64_to_f32(1e39, RND_RZ)), 0x7F7FFFFFu);
    ck_assert_uint_eq(F32(fp_f64_to_f32(-1e39, RND_RP)), 0xFF7FFFFFu);
    ck_assert_uint_eq(F32(fp_f64_to_f32(ldexp(1, -150), RND_RN)), 0x00000000u);
    ck_assert_uint_eq(F32(fp_f64_to_f32(ldexp(1, -150), RND_RP)), 0x00000001u);
    ck_assert_uint_eq(F32(fp_f64_to_f32(1.5 * ldexp(1, -150), RND_RN)), 0x00000001u);
    ck_assert_uint_eq(F32(fp_f64_to_f32(BITS64(0x7FF8000020000000ull), RND_RN)), 0x7FC00001u); /* H200 */
    ck_assert_uint_eq(F64(fp_f32_to_f64(BITS32(0x7F800001u))), 0x7FF8000020000000ull);        /* H200 */
}
END_TEST

START_TEST(integer_to_float)
{
    ck_assert_uint_eq(F32(fp_u64_to_f32(UINT64_MAX, RND_RN)), 0x5F800000u); /* 2^64 */
    ck_assert_uint_eq(F32(fp_u64_to_f32(UINT64_MAX, RND_RZ)), 0x5F7FFFFFu);
    ck_assert_uint_eq(F32(fp_u64_to_f32(UINT64_MAX, RND_RM)), 0x5F7FFFFFu);
    ck_assert_uint_eq(F32(fp_u64_to_f32((1u << 24) + 1, RND_RN)), 0x4B800000u);
    ck_assert_uint_eq(F32(fp_u64_to_f32((1u << 24) + 1, RND_RP)), 0x4B800001u);
    ck_assert_uint_eq(F32(fp_u64_to_f32((1u << 24) + 3, RND_RN)), 0x4B800002u);
    ck_assert_uint_eq(F32(fp_i64_to_f32(INT64_MIN, RND_RN)), 0xDF000000u);
    ck_assert_uint_eq(F32(fp_i64_to_f32(-1, RND_RZ)), 0xBF800000u);
    ck_assert_uint_eq(F32(fp_i64_to_f32(0, RND_RM)), 0x00000000u);
    ck_assert_uint_eq(F64(fp_u64_to_f64((1ull << 53) + 1, RND_RN)), 0x4340000000000000ull);
    ck_assert_uint_eq(F64(fp_u64_to_f64((1ull << 53) + 1, RND_RP)), 0x4340000000000001ull);
    ck_assert_uint_eq(F64(fp_i64_to_f64(-((1ll << 53) + 1), RND_RM)), 0xC340000000000001ull);
    ck_assert_uint_eq(F64(fp_i64_to_f64(-((1ll << 53) + 1), RND_RZ)), 0xC340000000000000ull);
    ck_assert_uint_eq(fp_u64_to_f16(65520, RND_RN), 0x7C00);
    ck_assert_uint_eq(fp_u64_to_f16(65519, RND_RN), 0x7BFF);
    ck_assert_uint_eq(fp_i64_to_f16(-2049, RND_RN), 0xE800);
    ck_assert_uint_eq(fp_i64_to_f16(-2049, RND_RM), 0xE801);
}
END_TEST

/* ---- float -> integer ----------------------------------------------------------- */

START_TEST(float_to_int_saturation)
{
    ck_assert_int_eq(fp_f32_to_sint(3e9f, RND_RZI, 32), INT32_MAX);
    ck_assert_int_eq(fp_f32_to_sint(-3e9f, RND_RZI, 32), INT32_MIN);
    ck_assert_int_eq(fp_f32_to_sint(NAN, RND_RZI, 32), 0);
    ck_assert_uint_eq(fp_f32_to_uint(-1.5f, RND_RNI, 8), 0);
    ck_assert_uint_eq(fp_f32_to_uint(300.0f, RND_RZI, 8), 255);
    ck_assert_uint_eq(fp_f32_to_uint(255.5f, RND_RNI, 8), 255);
    ck_assert_int_eq(fp_f64_to_sint(32767.5, RND_RNI, 16), 32767);
    ck_assert_int_eq(fp_f64_to_sint(-32768.4, RND_RZI, 16), -32768);
    ck_assert_int_eq(fp_f64_to_sint(1e19, RND_RZI, 64), INT64_MAX);
    ck_assert_uint_eq(fp_f64_to_uint(1e20, RND_RZI, 64), UINT64_MAX);
    ck_assert_uint_eq(fp_f64_to_uint(ldexp(1, 63), RND_RZI, 64), 0x8000000000000000ull);
    ck_assert_int_eq(fp_f32_to_sint(-INFINITY, RND_RNI, 8), -128);
}
END_TEST

START_TEST(float_to_int_rounding)
{
    ck_assert_int_eq(fp_f32_to_sint(2.5f, RND_RNI, 32), 2);
    ck_assert_int_eq(fp_f32_to_sint(3.5f, RND_RNI, 32), 4);
    ck_assert_int_eq(fp_f32_to_sint(-2.5f, RND_RNI, 32), -2);
    ck_assert_int_eq(fp_f32_to_sint(0.5f, RND_RNI, 32), 0);
    ck_assert_int_eq(fp_f32_to_sint(-0.5f, RND_RMI, 32), -1);
    ck_assert_int_eq(fp_f32_to_sint(0.1f, RND_RPI, 32), 1);
    ck_assert_int_eq(fp_f32_to_sint(-1.9f, RND_RZI, 32), -1);
    ck_assert_int_eq(fp_f32_to_sint(-1.9f, RND_NONE, 32), -1);     /* NONE is rzi */
    ck_assert_int_eq(fp_f64_to_sint(-7.5, RND_RMI, 64), -8);
}
END_TEST

START_TEST(float_to_int_nan_hardware)
{
    /* H200: NaN from f64, or into 64 bits, gives the sign-bit pattern */
    ck_assert_int_eq(fp_f64_to_sint(NAN, RND_RNI, 8), -128);
    ck_assert_uint_eq(fp_f64_to_uint(NAN, RND_RZI, 32), 0x80000000u);
    ck_assert_uint_eq(fp_f64_to_uint(NAN, RND_RZI, 8), 0x80u);
    ck_assert_int_eq(fp_f32_to_sint(NAN, RND_RZI, 64), INT64_MIN);
    ck_assert_uint_eq(fp_f32_to_uint(NAN, RND_RZI, 64), 0x8000000000000000ull);
    ck_assert_uint_eq(fp_f32_to_uint(NAN, RND_RZI, 16), 0);
}
END_TEST

START_TEST(round_to_integral)
{
    ck_assert_uint_eq(F32(fp_round_integral_f32(2.5f, RND_RNI)), 0x40000000u);
    ck_assert_uint_eq(F32(fp_round_integral_f32(-2.5f, RND_RNI)), 0xC0000000u);
    ck_assert_uint_eq(F32(fp_round_integral_f32(-0.3f, RND_RZI)), 0x80000000u);   /* -0 */
    ck_assert_uint_eq(F32(fp_round_integral_f32(-0.5f, RND_RPI)), 0x80000000u);
    ck_assert_uint_eq(F32(fp_round_integral_f32(1.5f, RND_RMI)), 0x3F800000u);
    ck_assert_uint_eq(F32(fp_round_integral_f32(1.000001f, RND_RPI)), 0x40000000u);
    ck_assert_uint_eq(F32(fp_round_integral_f32(NAN, RND_RNI)), 0x7FFFFFFFu);     /* H200 */
    /* 2^52 - 0.5 is a tie between an odd and an even integer */
    ck_assert_uint_eq(F64(fp_round_integral(ldexp(1, 52) - 0.5, RND_RNI)), 0x4330000000000000ull);
    ck_assert_uint_eq(F64(fp_round_integral(BITS64(0x7FF0000000000001ull), RND_RNI)),
                      0x7FF8000000000001ull);
}
END_TEST

/* ---- ftz, sat, integer conversions ------------------------------------------------ */

START_TEST(ftz_and_sat)
{
    ck_assert_uint_eq(F32(fp_ftz32(BITS32(0x00000001u))), 0x00000000u);
    ck_assert_uint_eq(F32(fp_ftz32(BITS32(0x807FFFFFu))), 0x80000000u);
    ck_assert_uint_eq(F32(fp_ftz32(BITS32(0x00800000u))), 0x00800000u);
    ck_assert_uint_eq(F32(fp_sat32(NAN)), 0x00000000u);
    ck_assert_uint_eq(F32(fp_sat32(-0.0f)), 0x00000000u);
    ck_assert_uint_eq(F32(fp_sat32(1.5f)), 0x3F800000u);
    ck_assert_uint_eq(F32(fp_sat32(0.25f)), 0x3E800000u);
    ck_assert_uint_eq(F64(fp_sat64(-3.0)), 0);
    ck_assert_uint_eq(fp_sat_f16(0x3C01), 0x3C00);
    ck_assert_uint_eq(fp_sat_f16(0xBC00), 0x0000);
    ck_assert_uint_eq(fp_sat_f16(0x3800), 0x3800);
    ck_assert_uint_eq(fp_sat_f16(0x7E00), 0x0000);
}
END_TEST

START_TEST(integer_to_integer)
{
    ck_assert_uint_eq(fp_int_convert(300, 32, true, 8, true, true), 127);
    ck_assert_uint_eq(fp_int_convert((uint32_t)-300, 32, true, 8, true, true), (uint64_t)-128);
    ck_assert_uint_eq(fp_int_convert((uint32_t)-5, 32, true, 32, false, true), 0);
    ck_assert_uint_eq(fp_int_convert(0xFFFFFFFFu, 32, false, 32, true, true), 0x7FFFFFFFu);
    ck_assert_uint_eq(fp_int_convert(0x1FF, 32, true, 8, true, false), UINT64_MAX);   /* -1 */
    ck_assert_uint_eq(fp_int_convert(0x80, 8, true, 32, false, false), 0xFFFFFF80u);
    ck_assert_uint_eq(fp_int_convert(0x1FF, 32, true, 8, false, false), 0xFFu);
    ck_assert_uint_eq(fp_int_convert(UINT64_MAX, 64, false, 64, true, true), (uint64_t)INT64_MAX);
    ck_assert_int_eq(fp_sext(0x80, 8), -128);
    ck_assert_uint_eq(fp_zext(0xFFFF, 8), 0xFF);
}
END_TEST

/* ---- min / max ------------------------------------------------------------------------ */

START_TEST(min_max)
{
    ck_assert_uint_eq(F32(fp_min32(NAN, 1.0f, false)), 0x3F800000u);
    ck_assert_uint_eq(F32(fp_max32(2.0f, NAN, false)), 0x40000000u);
    ck_assert_uint_eq(F32(fp_min32(NAN, BITS32(0xFFC00000u), false)), 0x7FFFFFFFu);
    ck_assert_uint_eq(F32(fp_min32(-0.0f, 0.0f, false)), 0x80000000u);
    ck_assert_uint_eq(F32(fp_min32(0.0f, -0.0f, false)), 0x80000000u);
    ck_assert_uint_eq(F32(fp_max32(-0.0f, 0.0f, false)), 0x00000000u);
    ck_assert_uint_eq(F32(fp_min32(1.0f, NAN, true)), 0x7FFFFFFFu);
    ck_assert_uint_eq(F32(fp_max32(-1.0f, -3.0f, false)), 0xBF800000u);
    /* H200 f64 unit: two NaNs give b quieted; a NaN and a number the number */
    ck_assert_uint_eq(F64(fp_min64(BITS64(0x7FF0000000000001ull), BITS64(0xFFF4000000000000ull), false)),
                      0xFFFC000000000000ull);
    ck_assert_uint_eq(F64(fp_max64(BITS64(0x7FF0000000000001ull), 1.0, false)), 0x3FF0000000000000ull);
    ck_assert_uint_eq(fp_min_f16(0x7E00, 0x3C00, false), 0x3C00);
    ck_assert_uint_eq(fp_min_f16(0x7E00, 0xFE00, false), 0x7FFF);
    ck_assert_uint_eq(fp_max_f16(0x8000, 0x0000, false), 0x0000);
    ck_assert_uint_eq(fp_min_bf16(0xBF80, 0x3F80, false), 0xBF80);
}
END_TEST

/* ---- testp -------------------------------------------------------------------------- */

START_TEST(classification)
{
    ck_assert(fp_testp32(0.0f, TESTP_NORMAL));                 /* H200: zero is "normal" */
    ck_assert(!fp_testp32(0.0f, TESTP_SUBNORMAL));
    ck_assert(fp_testp32(BITS32(0x00000001u), TESTP_SUBNORMAL));
    ck_assert(!fp_testp32(BITS32(0x00000001u), TESTP_NORMAL));
    ck_assert(fp_testp32(-INFINITY, TESTP_INFINITE));
    ck_assert(!fp_testp32(-INFINITY, TESTP_FINITE));
    ck_assert(fp_testp32(-INFINITY, TESTP_NUMBER));
    ck_assert(fp_testp32(NAN, TESTP_NOTANUMBER));
    ck_assert(!fp_testp32(NAN, TESTP_FINITE));
    ck_assert(!fp_testp32(NAN, TESTP_NORMAL));
    ck_assert(fp_testp64(ldexp(1, -1074), TESTP_SUBNORMAL));
    ck_assert(fp_testp64((double)BITS32(0x00000001u), TESTP_NORMAL));
}
END_TEST

/* ---- f32 arithmetic with a rounding mode ----------------------------------------------- */

START_TEST(rounded_arithmetic)
{
    float tiny = ldexpf(1, -30);
    ck_assert_uint_eq(F32(fp_add_f32(1.0f, tiny, RND_RZ)), 0x3F800000u);
    ck_assert_uint_eq(F32(fp_add_f32(1.0f, tiny, RND_RP)), 0x3F800001u);
    ck_assert_uint_eq(F32(fp_add_f32(1.0f, -tiny, RND_RZ)), 0x3F7FFFFFu);
    ck_assert_uint_eq(F32(fp_add_f32(1.0f, -tiny, RND_RN)), 0x3F800000u);
    ck_assert_uint_eq(F32(fp_add_f32(1.0f, -1.0f, RND_RM)), 0x80000000u);
    ck_assert_uint_eq(F32(fp_add_f32(1.0f, -1.0f, RND_RN)), 0x00000000u);
    /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 */
    float x = BITS32(0x3F800001u);
    ck_assert_uint_eq(F32(fp_mul_f32(x, x, RND_RN)), 0x3F800002u);
    ck_assert_uint_eq(F32(fp_mul_f32(x, x, RND_RP)), 0x3F800003u);
    ck_assert_uint_eq(F32(fp_mul_f32(x, x, RND_RZ)), 0x3F800002u);
    /* x*x - 1 = 2^-22 (1 + 2^-24): a tie at f32 precision */
    ck_assert_uint_eq(F32(fp_fma_f32(x, x, -1.0f, RND_RN)), 0x34800000u);
    ck_assert_uint_eq(F32(fp_fma_f32(x, x, -1.0f, RND_RP)), 0x34800001u);
    ck_assert_uint_eq(F32(fp_fma_f32(0.0f, INFINITY, 1.0f, RND_RN)), 0x7FFFFFFFu);
}
END_TEST

static Suite *fpconv_suite(void)
{
    Suite *s = suite_create("fpconv");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, f32_to_f16_basics);
    tcase_add_test(tc, f32_to_f16_overflow);
    tcase_add_test(tc, f32_to_f16_ties_and_directions);
    tcase_add_test(tc, f16_nan_satfinite_relu);
    tcase_add_test(tc, f16_widening);
    tcase_add_test(tc, bf16_conversions);
    tcase_add_test(tc, f64_to_f32_directed);
    tcase_add_test(tc, integer_to_float);
    tcase_add_test(tc, float_to_int_saturation);
    tcase_add_test(tc, float_to_int_rounding);
    tcase_add_test(tc, float_to_int_nan_hardware);
    tcase_add_test(tc, round_to_integral);
    tcase_add_test(tc, ftz_and_sat);
    tcase_add_test(tc, integer_to_integer);
    tcase_add_test(tc, min_max);
    tcase_add_test(tc, classification);
    tcase_add_test(tc, rounded_arithmetic);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(fpconv_suite());
}
