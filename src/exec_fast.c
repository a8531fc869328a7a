/* exec_fast.c — the common instruction forms as straight 32-lane loops.
 *
 * exec_plan_new() looks at every instruction once, before any warp runs,
 * and binds it to a fast form when its modifiers allow one (integer
 * add/sub/mul/mad/shift/logic, compare, select, move, integer conversion,
 * f32/f64 arithmetic in any rounding mode (a directed one runs the
 * round-to-nearest loop in the host's mode), copysign, sqrt.rn, rcp.rn,
 * cvt.sat.f32.f32 and cvt.f32.f64, the SFU's f32 approximations, loads
 * and stores with a register address), or else to the general
 * handler of exec_ops.c.  A fast form
 * computes every lane straight into the destination when the whole warp
 * executes, else into a temporary merged under the guard mask at the end,
 * so the loops have no per-lane branches and the compiler vectorises them.
 * The plan also records, per instruction, where each operand's 32 lanes
 * are (immediates broadcast here once: a fast form reads them from the
 * plan, src_lanes), the step's bookkeeping traits, and the straight
 * stretch it begins, which run_steps executes without settling the stack
 * in between (InsnPlan).  The results are bit for bit those of the
 * general handlers; the differential test tests/test_exec_fast.c runs
 * kernels both ways.
 *
 * Memory forms check the whole warp's access at once (one allocation
 * covers the lowest and highest lane address, all aligned) and hand any
 * access that fails the check to the general handler, which names the
 * faulting lane exactly as before.
 */
#include "exec_internal.h"

#include <math.h>

#include "cfg.h"
#include "sfu.h"

/* x86-64-v3 (AVX2, FMA) clones of the float loops: fmaf becomes one
 * instruction instead of a libm call per lane. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define VECTOR_CLONES
#endif

#define IN (x->in)

/* The general handler of the instruction, for a fast form that leaves
 * it the case it does not take: it reads x->v. */
static bool general_handler(ExecCtx *x)
{
    if (x->ip) {
        plan_operands(x, x->ip);
        x->ip = NULL;
    }
    return exec_handlers[IN->op](x);
}

/* Source operand i's 32 lanes: the plan's row (ExecCtx.ip), else what
 * the step resolved into x->v. */
static inline const uint64_t *src_lanes(const ExecCtx *x, uint32_t i)
{
    return x->ip ? plan_row(x, x->ip, i) : x->v[i];
}

static inline uint64_t *dst_lanes(const ExecCtx *x, uint32_t reg)
{
    return ctx_row(x, reg);
}

/* lane_bit[l] = bit l of a lane mask, 64 bits wide like the lanes */
#define LANE_BITS4(l) 1ull << (l), 1ull << ((l) + 1), 1ull << ((l) + 2), 1ull << ((l) + 3)
static const uint64_t lane_bit[WARP_SIZE] = {LANE_BITS4(0),  LANE_BITS4(4),  LANE_BITS4(8),  LANE_BITS4(12),
                                             LANE_BITS4(16), LANE_BITS4(20), LANE_BITS4(24), LANE_BITS4(28)};

/* Write the computed lanes whose guard held. */
static inline void merge(uint64_t *restrict d, const uint64_t *restrict r, uint32_t exec)
{
    if (exec == FULL_MASK) {
        memcpy(d, r, WARP_SIZE * sizeof *d);
        return;
    }
    /* a select by an all-ones or all-zeros mask per lane, which -O2
     * vectorises into a compare and a blend per four lanes; the
     * conditional form it left scalar, and divergent code merges at most
     * of its steps (dec2zero functional: 473 -> 375 M host instructions) */
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        uint64_t take = -(uint64_t)((exec & lane_bit[l]) != 0);
        d[l] = (r[l] & take) | (d[l] & ~take);
    }
}

/* Where a form computes its lanes: straight into the destination row when
 * the whole warp executes, else into a temporary that merge() writes under
 * the guard.  The destination may be one of the sources; every form is
 * lane-wise (lane l reads only lane l of its sources, before it writes
 * lane l), so that is safe, and SAME_LANE_ONLY tells the compiler so: it
 * still vectorises the loop without proving the rows apart.  It also has
 * GCC unroll the vector loop whole (-O2 does not), which leaves a form
 * little but its loads, operations and stores (stride functional 38.3 ->
 * 36.6 M host instructions, ilp 486 -> 462 M; timing mode 1-4 % fewer). */
#if defined(__clang__)
#define SAME_LANE_ONLY _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define SAME_LANE_ONLY _Pragma("GCC ivdep") _Pragma("GCC unroll 8")
#else
#define SAME_LANE_ONLY
#endif

#define RESULT_BEGIN(reg)                                                        \
    uint64_t *const dst_ = dst_lanes(x, (reg));                                  \
    uint64_t tmp_[WARP_SIZE];                                                    \
    uint64_t *const r = x->exec == FULL_MASK ? dst_ : tmp_
#define RESULT_END()                                                             \
    do {                                                                         \
        if (r != dst_)                                                           \
            merge(dst_, r, x->exec);                                             \
    } while (0)

/* r[l] = expr for every lane, with A, B, C the source vectors 1..3 */
#define LANES(expr)                                                              \
    do {                                                                         \
        SAME_LANE_ONLY                                                           \
        for (uint32_t l = 0; l < WARP_SIZE; l++)                                 \
            r[l] = (expr);                                                       \
    } while (0)

#define FAST_FORM(name, body)                                                    \
    VECTOR_CLONES static bool name(ExecCtx *x)                                   \
    {                                                                            \
        const uint64_t *A = src_lanes(x, 1), *B = src_lanes(x, 2);               \
        const uint64_t *C = src_lanes(x, 3);                                     \
        (void)A; (void)B; (void)C;                                               \
        RESULT_BEGIN(IN->opd[0].reg);                                            \
        body;                                                                    \
        RESULT_END();                                                            \
        return true;                                                             \
    }

#define M32 0xFFFFFFFFull

static inline float lane_f32(uint64_t v) { return fp_f32_from_bits((uint32_t)v); }
static inline float lane_f32_ftz(uint64_t v) { return fp_ftz32(lane_f32(v)); }

/* ---- integers (results masked to the type, as reg_write stores them) ---- */

FAST_FORM(fast_add32, LANES((A[l] + B[l]) & M32))
FAST_FORM(fast_add64, LANES(A[l] + B[l]))
FAST_FORM(fast_sub32, LANES((A[l] - B[l]) & M32))
FAST_FORM(fast_sub64, LANES(A[l] - B[l]))
FAST_FORM(fast_mul_lo32, LANES(((A[l] & M32) * (B[l] & M32)) & M32))
FAST_FORM(fast_mul_lo64, LANES(A[l] * B[l]))
FAST_FORM(fast_mul_wide_s32, LANES((uint64_t)((int64_t)(int32_t)A[l] * (int64_t)(int32_t)B[l])))
FAST_FORM(fast_mul_wide_u32, LANES((A[l] & M32) * (B[l] & M32)))
FAST_FORM(fast_mad_lo32, LANES(((A[l] & M32) * (B[l] & M32) + C[l]) & M32))
FAST_FORM(fast_mad_lo64, LANES(A[l] * B[l] + C[l]))
FAST_FORM(fast_mad_wide_s32, LANES((uint64_t)((int64_t)(int32_t)A[l] * (int64_t)(int32_t)B[l]) + C[l]))
FAST_FORM(fast_mad_wide_u32, LANES((A[l] & M32) * (B[l] & M32) + C[l]))
FAST_FORM(fast_and32, LANES(A[l] & B[l] & M32))
FAST_FORM(fast_and64, LANES(A[l] & B[l]))
FAST_FORM(fast_or32, LANES((A[l] | B[l]) & M32))
FAST_FORM(fast_or64, LANES(A[l] | B[l]))
FAST_FORM(fast_xor32, LANES((A[l] ^ B[l]) & M32))
FAST_FORM(fast_xor64, LANES(A[l] ^ B[l]))
FAST_FORM(fast_and_pred, LANES(A[l] & B[l] & 1))
FAST_FORM(fast_or_pred, LANES((A[l] | B[l]) & 1))
FAST_FORM(fast_xor_pred, LANES((A[l] ^ B[l]) & 1))
FAST_FORM(fast_shl32, LANES((uint32_t)B[l] >= 32 ? 0 : (A[l] << (uint32_t)B[l]) & M32))
FAST_FORM(fast_shl64, LANES((uint32_t)B[l] >= 64 ? 0 : A[l] << (uint32_t)B[l]))
FAST_FORM(fast_shr_u32, LANES((uint32_t)B[l] >= 32 ? 0 : (A[l] & M32) >> (uint32_t)B[l]))
FAST_FORM(fast_shr_u64, LANES((uint32_t)B[l] >= 64 ? 0 : A[l] >> (uint32_t)B[l]))
FAST_FORM(fast_shr_s32, LANES((uint64_t)((int64_t)(int32_t)A[l] >> ((uint32_t)B[l] >= 32 ? 31 : (uint32_t)B[l])) & M32))
FAST_FORM(fast_shr_s64, LANES((uint64_t)((int64_t)A[l] >> ((uint32_t)B[l] >= 64 ? 63 : (uint32_t)B[l]))))
FAST_FORM(fast_mov32, LANES(A[l] & M32))
FAST_FORM(fast_mov64, LANES(A[l]))
FAST_FORM(fast_mov_pred, LANES(A[l] & 0xFF))
FAST_FORM(fast_neg32, LANES((0 - A[l]) & M32))
FAST_FORM(fast_neg64, LANES(0 - A[l]))
FAST_FORM(fast_abs_s32, LANES((uint64_t)((int32_t)A[l] < 0 ? 0 - (uint64_t)(int64_t)(int32_t)A[l] : A[l]) & M32))
FAST_FORM(fast_abs_s64, LANES((int64_t)A[l] < 0 ? 0 - A[l] : A[l]))
FAST_FORM(fast_min_s32, LANES(((int32_t)A[l] < (int32_t)B[l] ? A[l] : B[l]) & M32))
FAST_FORM(fast_max_s32, LANES(((int32_t)A[l] > (int32_t)B[l] ? A[l] : B[l]) & M32))
FAST_FORM(fast_min_u32, LANES(((uint32_t)A[l] < (uint32_t)B[l] ? A[l] : B[l]) & M32))
FAST_FORM(fast_max_u32, LANES(((uint32_t)A[l] > (uint32_t)B[l] ? A[l] : B[l]) & M32))
FAST_FORM(fast_min_s64, LANES((int64_t)A[l] < (int64_t)B[l] ? A[l] : B[l]))
FAST_FORM(fast_max_s64, LANES((int64_t)A[l] > (int64_t)B[l] ? A[l] : B[l]))
FAST_FORM(fast_min_u64, LANES(A[l] < B[l] ? A[l] : B[l]))
FAST_FORM(fast_max_u64, LANES(A[l] > B[l] ? A[l] : B[l]))
FAST_FORM(fast_selp32, LANES(((C[l] & 1) ? A[l] : B[l]) & M32))
FAST_FORM(fast_selp64, LANES((C[l] & 1) ? A[l] : B[l]))

/* cvt between integer types without .sat: the source at its width and
 * signedness; signed results narrower than 64 bits stay sign-extended in
 * the register, the others are masked (exec_CVT's rule). */
VECTOR_CLONES static bool fast_cvt_int(ExecCtx *x)
{
    const uint64_t *A = src_lanes(x, 1);
    RESULT_BEGIN(IN->opd[0].reg);
    unsigned sbits = isa_type_size(IN->type2) * 8, dbits = isa_type_size(IN->type) * 8;
    bool ssigned = isa_type_class(IN->type2) == TC_SINT, dsigned = isa_type_class(IN->type) == TC_SINT;
    unsigned sshift = 64 - sbits, dshift = 64 - dbits;
    SAME_LANE_ONLY
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        uint64_t v = ssigned ? (uint64_t)((int64_t)(A[l] << sshift) >> sshift) : (A[l] << sshift) >> sshift;
        r[l] = dsigned ? (uint64_t)((int64_t)(v << dshift) >> dshift) : (v << dshift) >> dshift;
    }
    RESULT_END();
    return true;
}

/* cvt from a 32- or 64-bit integer to f32 or f64 rounding to nearest even
 * (.rn, or no modifier): C's conversion is that rounding (fp_i64_to_f32 and
 * friends compute the same on bit patterns).  The result is never NaN or
 * subnormal, so .ftz changes nothing. */
#define F32_BITS(f) ((uint64_t)fp_f32_bits(f))
FAST_FORM(fast_cvt_f32_s32, LANES(F32_BITS((float)(int32_t)A[l])))
FAST_FORM(fast_cvt_f32_u32, LANES(F32_BITS((float)(uint32_t)A[l])))
FAST_FORM(fast_cvt_f32_s64, LANES(F32_BITS((float)(int64_t)A[l])))
FAST_FORM(fast_cvt_f32_u64, LANES(F32_BITS((float)A[l])))
FAST_FORM(fast_cvt_f64_s32, LANES(fp_f64_bits((double)(int32_t)A[l])))
FAST_FORM(fast_cvt_f64_u32, LANES(fp_f64_bits((double)(uint32_t)A[l])))
FAST_FORM(fast_cvt_f64_s64, LANES(fp_f64_bits((double)(int64_t)A[l])))
FAST_FORM(fast_cvt_f64_u64, LANES(fp_f64_bits((double)A[l])))

/* cvt.rzi/rmi/rpi/rni.f32.f32: an f32's integral value is an f32, so
 * these are exact; NaNs become the canonical NaN (fp_round_integral_f32).
 * rintf rounds to nearest even: the fast forms run in the default
 * rounding mode (exec_ops.c restores it after every directed rounding). */
static inline uint64_t f32_integral(uint64_t a, float rounded)
{
    return lane_f32(a) != lane_f32(a) ? FP_CANON_NAN_F32 : F32_BITS(rounded);
}
FAST_FORM(fast_cvt_rzi_f32, LANES(f32_integral(A[l], truncf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rmi_f32, LANES(f32_integral(A[l], floorf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rpi_f32, LANES(f32_integral(A[l], ceilf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rni_f32, LANES(f32_integral(A[l], rintf(lane_f32(A[l])))))

/* cvt.{rzi,rmi,rpi,rni}.{s32,u32}.f32 of `a`, `rounded` its integral value:
 * saturating, NaN to 0 (fpconv.h); a signed result is held sign-extended,
 * as exec_CVT leaves it */
static inline uint64_t f32_to_s32(uint64_t a, float rounded)
{
    int32_t v = lane_f32(a) != lane_f32(a) ? 0
              : rounded >= 2147483648.0f   ? INT32_MAX
              : rounded < -2147483648.0f   ? INT32_MIN
                                           : (int32_t)rounded;
    return (uint64_t)(int64_t)v;
}
static inline uint64_t f32_to_u32(uint64_t a, float rounded)
{
    return lane_f32(a) != lane_f32(a) || rounded <= 0.0f ? 0
         : rounded >= 4294967296.0f                      ? UINT32_MAX
                                                         : (uint32_t)rounded;
}
FAST_FORM(fast_cvt_rzi_s32_f32, LANES(f32_to_s32(A[l], truncf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rmi_s32_f32, LANES(f32_to_s32(A[l], floorf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rpi_s32_f32, LANES(f32_to_s32(A[l], ceilf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rni_s32_f32, LANES(f32_to_s32(A[l], rintf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rzi_u32_f32, LANES(f32_to_u32(A[l], truncf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rmi_u32_f32, LANES(f32_to_u32(A[l], floorf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rpi_u32_f32, LANES(f32_to_u32(A[l], ceilf(lane_f32(A[l])))))
FAST_FORM(fast_cvt_rni_u32_f32, LANES(f32_to_u32(A[l], rintf(lane_f32(A[l])))))

/* ---- comparisons ------------------------------------------------------- */

/* setp without a combining predicate: p is in r (RESULT_BEGIN), and q = !p
 * of a pair follows from it */
static inline void setp_pair(ExecCtx *x, const uint64_t *r)
{
    const Operand *d = &IN->opd[0];
    if (d->kind == OPD_PAIR && d->reg2 != NO_INDEX) {
        uint64_t q[WARP_SIZE];
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            q[l] = r[l] ^ 1;
        merge(dst_lanes(x, d->reg2), q, x->exec);
    }
}

#define CMP_CASES(T, a, b)                                                       \
    case CMP_EQ: LANES((T)(a) == (T)(b)); break;                                 \
    case CMP_NE: LANES((T)(a) != (T)(b)); break;                                 \
    case CMP_LT: case CMP_LO: LANES((T)(a) < (T)(b)); break;                     \
    case CMP_LE: case CMP_LS: LANES((T)(a) <= (T)(b)); break;                    \
    case CMP_GT: case CMP_HI: LANES((T)(a) > (T)(b)); break;                     \
    case CMP_GE: case CMP_HS: LANES((T)(a) >= (T)(b)); break;

VECTOR_CLONES static bool fast_setp_int(ExecCtx *x)
{
    const uint64_t *A = src_lanes(x, 1), *B = src_lanes(x, 2);
    RESULT_BEGIN(IN->opd[0].reg);
    bool sgn = isa_type_class(IN->type) == TC_SINT;
    bool wide = isa_type_size(IN->type) == 8;
    /* LO/LS/HI/HS are unsigned whatever the type */
    if (IN->cmp >= CMP_LO && IN->cmp <= CMP_HS)
        sgn = false;
    if (wide && sgn) {
        switch (IN->cmp) { CMP_CASES(int64_t, A[l], B[l]) default: return false; }
    } else if (wide) {
        switch (IN->cmp) { CMP_CASES(uint64_t, A[l], B[l]) default: return false; }
    } else if (sgn) {
        switch (IN->cmp) { CMP_CASES(int32_t, A[l], B[l]) default: return false; }
    } else {
        switch (IN->cmp) { CMP_CASES(uint32_t, A[l], B[l]) default: return false; }
    }
    RESULT_END();
    setp_pair(x, r);
    return true;
}


/* ordered comparisons are false on NaN by C's rules already; the unordered
 * ones are the negation of the opposite ordered one */
#define FCMP_CASES(a, b)                                                         \
    case CMP_EQ: LANES((a) == (b)); break;                                       \
    case CMP_NE: LANES((a) < (b) || (a) > (b)); break;                           \
    case CMP_LT: case CMP_LO: LANES((a) < (b)); break;                           \
    case CMP_LE: case CMP_LS: LANES((a) <= (b)); break;                          \
    case CMP_GT: case CMP_HI: LANES((a) > (b)); break;                           \
    case CMP_GE: case CMP_HS: LANES((a) >= (b)); break;                          \
    case CMP_EQU: LANES(!((a) < (b) || (a) > (b))); break;                       \
    case CMP_NEU: LANES(!((a) == (b))); break;                                   \
    case CMP_LTU: LANES(!((a) >= (b))); break;                                   \
    case CMP_LEU: LANES(!((a) > (b))); break;                                    \
    case CMP_GTU: LANES(!((a) <= (b))); break;                                   \
    case CMP_GEU: LANES(!((a) < (b))); break;                                    \
    case CMP_NUM: LANES((a) == (a) && (b) == (b)); break;                        \
    case CMP_NAN: LANES((a) != (a) || (b) != (b)); break;

VECTOR_CLONES static bool fast_setp_f32(ExecCtx *x)
{
    const uint64_t *A = src_lanes(x, 1), *B = src_lanes(x, 2);
    RESULT_BEGIN(IN->opd[0].reg);
    if (IN->flags & FL_FTZ) {
        switch (IN->cmp) { FCMP_CASES(lane_f32_ftz(A[l]), lane_f32_ftz(B[l])) default: return false; }
    } else {
        switch (IN->cmp) { FCMP_CASES(lane_f32(A[l]), lane_f32(B[l])) default: return false; }
    }
    RESULT_END();
    setp_pair(x, r);
    return true;
}

VECTOR_CLONES static bool fast_setp_f64(ExecCtx *x)
{
    const uint64_t *A = src_lanes(x, 1), *B = src_lanes(x, 2);
    RESULT_BEGIN(IN->opd[0].reg);
    switch (IN->cmp) {
        FCMP_CASES(fp_f64_from_bits(A[l]), fp_f64_from_bits(B[l]))
    default: return false;
    }
    RESULT_END();
    setp_pair(x, r);
    return true;
}

/* ---- floating point, round to nearest even --------------------------------
 * f32 NaNs become the canonical NaN, f64 ones keep a NaN operand
 * (fp_f64_arith_bits); .ftz flushes subnormal inputs and results (float_op
 * in exec_ops.c). */

static inline uint64_t f32_result(float f, bool ftz)
{
    if (f != f)
        return FP_CANON_NAN_F32;
    return fp_f32_bits(ftz ? fp_ftz32(f) : f);
}

/* float sign operations, after flushing a subnormal input under .ftz; a
 * NaN comes out as arithmetic gives it (fpconv.h) */
FAST_FORM(fast_neg_f32, LANES(f32_result(-lane_f32(A[l]), false)))
FAST_FORM(fast_neg_f32_ftz, LANES(f32_result(-lane_f32_ftz(A[l]), false)))
FAST_FORM(fast_abs_f32, LANES(f32_result(fabsf(lane_f32(A[l])), false)))
FAST_FORM(fast_abs_f32_ftz, LANES(f32_result(fabsf(lane_f32_ftz(A[l])), false)))
FAST_FORM(fast_neg_f64, LANES(fp_f64_arith_bits(-fp_f64_from_bits(A[l]), A[l], 0, 0, false)))
FAST_FORM(fast_abs_f64, LANES(fp_f64_arith_bits(fabs(fp_f64_from_bits(A[l])), A[l], 0, 0, false)))

typedef enum { FF_ADD, FF_SUB, FF_MUL, FF_DIV, FF_FMA } FastFloatOp;

static inline float f32_apply(FastFloatOp op, float a, float b, float c)
{
    switch (op) {
    case FF_ADD: return a + b;
    case FF_SUB: return a - b;
    case FF_MUL: return a * b;
    case FF_DIV: return a / b;
    default: return fmaf(a, b, c);
    }
}

static inline double f64_apply(FastFloatOp op, double a, double b, double c)
{
    switch (op) {
    case FF_ADD: return a + b;
    case FF_SUB: return a - b;
    case FF_MUL: return a * b;
    case FF_DIV: return a / b;
    default: return fma(a, b, c);
    }
}

/* op and ftz are constants in each caller, so every loop is branch-free */
static inline void f32_lanes(uint64_t *r, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                             FastFloatOp op, bool ftz)
{
    SAME_LANE_ONLY
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        float a = ftz ? lane_f32_ftz(A[l]) : lane_f32(A[l]);
        float b = ftz ? lane_f32_ftz(B[l]) : lane_f32(B[l]);
        float c = op == FF_FMA ? (ftz ? lane_f32_ftz(C[l]) : lane_f32(C[l])) : 0.0f;
        r[l] = f32_result(f32_apply(op, a, b, c), ftz);
    }
}

#define F32_FORM(name, op, ftz)                                                  \
    VECTOR_CLONES static bool name(ExecCtx *x)                                   \
    {                                                                            \
        RESULT_BEGIN(IN->opd[0].reg);                                            \
        f32_lanes(r, src_lanes(x, 1), src_lanes(x, 2), src_lanes(x, 3), op,      \
                  ftz);                                                          \
        RESULT_END();                                                            \
        return true;                                                             \
    }
F32_FORM(fast_add_f32, FF_ADD, false)
F32_FORM(fast_sub_f32, FF_SUB, false)
F32_FORM(fast_mul_f32, FF_MUL, false)
F32_FORM(fast_div_f32, FF_DIV, false)
F32_FORM(fast_fma_f32, FF_FMA, false)
F32_FORM(fast_add_f32_ftz, FF_ADD, true)
F32_FORM(fast_sub_f32_ftz, FF_SUB, true)
F32_FORM(fast_mul_f32_ftz, FF_MUL, true)
F32_FORM(fast_div_f32_ftz, FF_DIV, true)
F32_FORM(fast_fma_f32_ftz, FF_FMA, true)

#define F64_FORM(name, op)                                                       \
    VECTOR_CLONES static bool name(ExecCtx *x)                                   \
    {                                                                            \
        const uint64_t *A = src_lanes(x, 1), *B = src_lanes(x, 2);               \
        const uint64_t *C = src_lanes(x, 3);                                     \
        RESULT_BEGIN(IN->opd[0].reg);                                            \
        SAME_LANE_ONLY                                                           \
        for (uint32_t l = 0; l < WARP_SIZE; l++) {                               \
            uint64_t c = op == FF_FMA ? C[l] : 0;                                \
            double d = f64_apply(op, fp_f64_from_bits(A[l]), fp_f64_from_bits(B[l]), \
                                 fp_f64_from_bits(c));                           \
            r[l] = fp_f64_arith_bits(d, A[l], B[l], c, op == FF_DIV);            \
        }                                                                        \
        RESULT_END();                                                            \
        return true;                                                             \
    }
F64_FORM(fast_add_f64, FF_ADD)
F64_FORM(fast_sub_f64, FF_SUB)
F64_FORM(fast_mul_f64, FF_MUL)
F64_FORM(fast_div_f64, FF_DIV)
F64_FORM(fast_fma_f64, FF_FMA)

/* Directed rounding (.rz, .rm, .rp): the round-to-nearest form's loop in
 * the host's rounding mode for it, set as the general handlers set it
 * (round_enter): the host's add, sub, mul, div and fma round in that mode. */
#define DIRECTED_FORM(base)                                                      \
    static bool base##_directed(ExecCtx *x)                                      \
    {                                                                            \
        int old = round_enter(IN->round);                                        \
        bool ok = base(x);                                                       \
        round_leave(IN->round, old);                                             \
        return ok;                                                               \
    }
DIRECTED_FORM(fast_add_f32)
DIRECTED_FORM(fast_sub_f32)
DIRECTED_FORM(fast_mul_f32)
DIRECTED_FORM(fast_div_f32)
DIRECTED_FORM(fast_fma_f32)
DIRECTED_FORM(fast_add_f32_ftz)
DIRECTED_FORM(fast_sub_f32_ftz)
DIRECTED_FORM(fast_mul_f32_ftz)
DIRECTED_FORM(fast_div_f32_ftz)
DIRECTED_FORM(fast_fma_f32_ftz)
DIRECTED_FORM(fast_add_f64)
DIRECTED_FORM(fast_sub_f64)
DIRECTED_FORM(fast_mul_f64)
DIRECTED_FORM(fast_div_f64)
DIRECTED_FORM(fast_fma_f64)

/* copysign: |b| with a's sign bit, the operands' bits otherwise kept */
#define SIGN32 0x80000000ull
#define SIGN64 0x8000000000000000ull
FAST_FORM(fast_copysign_f32, LANES((B[l] & M32 & ~SIGN32) | (A[l] & SIGN32)))
FAST_FORM(fast_copysign_f64, LANES((B[l] & ~SIGN64) | (A[l] & SIGN64)))

/* sqrt.rn and rcp.rn: correctly rounded, a NaN the canonical one (f32) or
 * the operand's (f64) */
FAST_FORM(fast_sqrt_rn_f32, LANES(f32_result(sqrtf(lane_f32(A[l])), false)))
FAST_FORM(fast_sqrt_rn_f32_ftz, LANES(f32_result(sqrtf(lane_f32_ftz(A[l])), true)))
FAST_FORM(fast_rcp_rn_f32, LANES(f32_result(1.0f / lane_f32(A[l]), false)))
FAST_FORM(fast_rcp_rn_f32_ftz, LANES(f32_result(1.0f / lane_f32_ftz(A[l]), true)))
FAST_FORM(fast_sqrt_rn_f64, LANES(fp_f64_arith_bits(sqrt(fp_f64_from_bits(A[l])), A[l], 0, 0, false)))
FAST_FORM(fast_rcp_rn_f64, LANES(fp_f64_arith_bits(1.0 / fp_f64_from_bits(A[l]), A[l], 0, 0, false)))

/* cvt.sat.f32.f32: clamped to [0, 1], a NaN to 0 (fp_sat32) */
FAST_FORM(fast_cvt_sat_f32, LANES(F32_BITS(fp_sat32(lane_f32(A[l])))))
FAST_FORM(fast_cvt_sat_f32_ftz, LANES(F32_BITS(fp_sat32(lane_f32_ftz(A[l])))))

/* cvt.f32.f64 in any of .rn/.rz/.rm/.rp */
static inline uint64_t f32_of_f64(uint64_t v, int rnd, bool ftz)
{
    double d = fp_f64_from_bits(v);
    if (d != d)
        return fp_f64_nan_to_f32(v);
    float f = fp_f64_to_f32(d, rnd);
    return F32_BITS(ftz ? fp_ftz32(f) : f);
}
FAST_FORM(fast_cvt_f32_f64, LANES(f32_of_f64(A[l], IN->round, false)))
FAST_FORM(fast_cvt_f32_f64_ftz, LANES(f32_of_f64(A[l], IN->round, true)))

/* ---- loads and stores -----------------------------------------------------
 * The warp's addresses, checked together; anything unusual (a fault, a
 * generic address outside one window, local or parameter space) goes to
 * the general handler. */

typedef struct {
    uint8_t *host;   /* host address of space offset 0 */
    PtxSpace space;  /* resolved space of every lane */
    uint64_t window; /* generic-window base subtracted from each address */
} WarpSpan;

/* The lowest and highest address of the executing lanes, and the OR of
 * them all (for the alignment check). */
typedef struct {
    uint64_t lo, hi, any;
} AddrBounds;

/* The executing lanes' addresses of a memory operand [reg + imm] or
 * [symbol + imm], and their bounds.  A full warp takes plain loops (no
 * per-lane bit scan, which dominated this). */
static G_ALWAYS_INLINE inline AddrBounds lane_addresses(ExecCtx *x, const Operand *m, uint64_t *addr)
{
    if (m->reg == NO_INDEX) { /* [symbol+imm]: one address for the warp */
        uint64_t a = symbol_address(x, m->sym, 0) + (uint64_t)m->imm;
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            addr[l] = a;
        return (AddrBounds){a, a, a};
    }
    const uint64_t *base = dst_lanes(x, m->reg);
    uint64_t imm = (uint64_t)m->imm;
    uint64_t mask = exec_address_wraps(x, m->reg) ? M32 : ~0ull;
    for (uint32_t l = 0; l < WARP_SIZE; l++)
        addr[l] = (base[l] + imm) & mask;
    AddrBounds b = {UINT64_MAX, 0, 0};
    if (x->exec == FULL_MASK) {
        /* as signed numbers with the top bit flipped (the same order as
         * unsigned), since vector units compare 64-bit lanes signed only */
        const uint64_t flip = 1ull << 63;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        uint64_t any = 0;
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            int64_t a = (int64_t)(addr[l] ^ flip);
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            any |= addr[l];
        }
        return (AddrBounds){(uint64_t)lo ^ flip, (uint64_t)hi ^ flip, any};
    } else {
        FOR_LANES(x->exec, l) {
            b.lo = addr[l] < b.lo ? addr[l] : b.lo;
            b.hi = addr[l] > b.hi ? addr[l] : b.hi;
            b.any |= addr[l];
        }
    }
    return b;
}

static bool span_resolve(ExecCtx *x, AddrBounds b, uint32_t size, bool write, WarpSpan *span)
{
    uint64_t lo = b.lo, hi = b.hi;
    if (b.any & (size - 1))
        return false; /* misaligned: the general handler reports it */
    PtxSpace space = (PtxSpace)IN->space;
    span->window = 0;
    if (space == SPACE_GENERIC) {
        if (lo >= SHARED_WINDOW_BASE && hi < GENERIC_WINDOWS_END) {
            space = SPACE_SHARED;
            span->window = SHARED_WINDOW_BASE;
        } else if (hi < CONST_WINDOW_BASE || lo >= GENERIC_WINDOWS_END) {
            /* every lane below the windows, or every lane above them */
            space = SPACE_GLOBAL;
        } else {
            return false;
        }
    }
    lo -= span->window;
    hi -= span->window;
    if (hi + size < hi)
        return false;
    Cta *c = x->cta;
    switch (space) {
    case SPACE_GLOBAL: {
        Allocation *a = gmem_lookup(c->image->gmem, &c->gmem_hint, lo, hi + size - lo);
        if (!a || (write && a->read_only))
            return false;
        span->host = a->data - a->base;
        break;
    }
    case SPACE_SHARED:
        if (hi + size > c->shared_size)
            return false;
        span->host = c->shared;
        break;
    case SPACE_CONST:
        if (write || hi + size > c->image->const_size)
            return false;
        span->host = c->image->const_bank;
        break;
    default:
        return false;
    }
    span->space = space;
    return true;
}

static G_ALWAYS_INLINE inline void span_log(ExecCtx *x, const uint64_t *addr, uint32_t size, bool write,
                                            const WarpSpan *span)
{
    WarpAccess *log = access_log(x, x->exec, size, span->space, write);
    if (!log)
        return;
    if (x->exec == FULL_MASK) { /* a plain loop the compiler vectorises */
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            log->addr[l] = addr[l] - span->window;
        /* with the scan the coalescer or the banks would read them again
         * for, in this host-specific clone's vectors */
        log->scan = warp_scan_addresses(log->addr);
        log->scanned = true;
    } else {
        FOR_LANES(x->exec, l) log->addr[l] = addr[l] - span->window;
    }
}

/* One lane's load of esz bytes, sign-extended when sgn; esz and sgn are
 * constants in every caller, so this is one machine load. */
static inline uint64_t load_lane(const uint8_t *p, unsigned esz, bool sgn)
{
    switch (esz) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return sgn ? (uint64_t)(int64_t)(int8_t)v : v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return sgn ? (uint64_t)(int64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return sgn ? (uint64_t)(int64_t)(int32_t)v : v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline void load_lanes(uint64_t *restrict dst, const uint8_t *mem, const uint64_t *addr, uint32_t exec,
                              unsigned esz, bool sgn)
{
    if (exec == FULL_MASK) {
        /* a gather the compiler leaves scalar: unrolled, it is a load and
         * a store a lane (with store_lanes: banks functional 43.9 -> 41.0 M host
         * instructions, stride 36.6 -> 35.4 M) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            dst[l] = load_lane(mem + addr[l], esz, sgn);
    } else {
        FOR_LANES(exec, l) dst[l] = load_lane(mem + addr[l], esz, sgn);
    }
}

static inline void store_lane(uint8_t *p, uint64_t v, unsigned esz)
{
    switch (esz) {
    case 1: { uint8_t t = (uint8_t)v; memcpy(p, &t, 1); break; }
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* Lanes store in lane order: when two lanes hit one address the higher
 * lane's value stays, as in the general handler. */
static inline void store_lanes(uint8_t *mem, const uint64_t *src, const uint64_t *addr, uint32_t exec, unsigned esz)
{
    if (exec == FULL_MASK) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8 /* as load_lanes */
#endif
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            store_lane(mem + addr[l], src[l], esz);
    } else {
        FOR_LANES(exec, l) store_lane(mem + addr[l], src[l], esz);
    }
}

VECTOR_CLONES static bool fast_ld(ExecCtx *x)
{
    const Operand *d = &IN->opd[0], *m = &IN->opd[1];
    unsigned esz = isa_type_size(IN->type), n = IN->vec ? IN->vec : 1;
    bool sgn = isa_type_class(IN->type) == TC_SINT;
    uint64_t addr[WARP_SIZE];
    WarpSpan span;
    if (x->exec == 0)
        return general_handler(x);
    AddrBounds bounds = lane_addresses(x, m, addr);
    if (!span_resolve(x, bounds, esz * n, false, &span))
        return general_handler(x);
    span_log(x, addr, esz * n, false, &span);
    if (d->kind == OPD_VEC) {
        for (unsigned k = 0; k < d->vec_count; k++) {
            if (d->vec_regs[k] == NO_INDEX)
                continue;
            uint64_t *dst = dst_lanes(x, d->vec_regs[k]);
            FOR_LANES(x->exec, l) dst[l] = load_bits(span.host + addr[l] - span.window + k * esz, esz, sgn);
        }
        return true;
    }
    uint64_t *dst = dst_lanes(x, d->reg);
    const uint8_t *mem = span.host - span.window;
    switch (esz * 2 + sgn) { /* constant size and signedness in each loop */
    case 2: load_lanes(dst, mem, addr, x->exec, 1, false); break;
    case 3: load_lanes(dst, mem, addr, x->exec, 1, true); break;
    case 4: load_lanes(dst, mem, addr, x->exec, 2, false); break;
    case 5: load_lanes(dst, mem, addr, x->exec, 2, true); break;
    case 8: load_lanes(dst, mem, addr, x->exec, 4, false); break;
    case 9: load_lanes(dst, mem, addr, x->exec, 4, true); break;
    default: load_lanes(dst, mem, addr, x->exec, 8, false); break;
    }
    return true;
}

VECTOR_CLONES static bool fast_st(ExecCtx *x)
{
    const Operand *m = &IN->opd[0], *s = &IN->opd[1];
    unsigned esz = isa_type_size(IN->type), n = IN->vec ? IN->vec : 1;
    uint64_t addr[WARP_SIZE];
    WarpSpan span;
    if (x->exec == 0)
        return general_handler(x);
    AddrBounds bounds = lane_addresses(x, m, addr);
    if (!span_resolve(x, bounds, esz * n, true, &span))
        return general_handler(x);
    span_log(x, addr, esz * n, true, &span);
    if (s->kind == OPD_VEC) {
        FOR_LANES(x->exec, l) {
            uint8_t *p = span.host + addr[l] - span.window;
            for (unsigned k = 0; k < s->vec_count; k++) {
                uint64_t v = s->vec_regs[k] != NO_INDEX ? ctx_row(x, s->vec_regs[k])[l] : 0;
                memcpy(p + k * esz, &v, esz);
            }
        }
        return true;
    }
    uint8_t *mem = span.host - span.window;
    switch (esz) {
    case 1: store_lanes(mem, src_lanes(x, 1), addr, x->exec, 1); break;
    case 2: store_lanes(mem, src_lanes(x, 1), addr, x->exec, 2); break;
    case 4: store_lanes(mem, src_lanes(x, 1), addr, x->exec, 4); break;
    default: store_lanes(mem, src_lanes(x, 1), addr, x->exec, 8); break;
    }
    return true;
}

/* ld.param of a kernel parameter: one value for the whole warp */
static bool fast_ld_kernel_param(ExecCtx *x)
{
    const Operand *d = &IN->opd[0], *m = &IN->opd[1];
    unsigned size = isa_type_size(IN->type);
    uint64_t addr = module_var(x->m, m->sym)->offset + (uint64_t)m->imm;
    const Function *k = module_func(x->m, x->cta->spec->kernel);
    if (x->exec == 0 || addr + size > k->frame_param_bytes || (addr & (size - 1)))
        return general_handler(x);
    WarpAccess *log = access_log(x, x->exec, size, SPACE_PARAM, false);
    if (log) {
        if (x->exec == FULL_MASK) { /* as span_log */
            for (uint32_t l = 0; l < WARP_SIZE; l++)
                log->addr[l] = addr;
            log->scan = (WarpScan){.any = addr}; /* one address: no spread, stride 0 */
            log->scanned = true;
        } else {
            FOR_LANES(x->exec, l) log->addr[l] = addr;
        }
    }
    uint64_t v = load_bits(x->cta->spec->params + addr, size, isa_type_class(IN->type) == TC_SINT);
    RESULT_BEGIN(d->reg);
    for (uint32_t l = 0; l < WARP_SIZE; l++)
        r[l] = v;
    RESULT_END();
    return true;
}

/* cvta between global and generic is the identity (global addresses are
 * generic addresses); the other windows move by their base */
VECTOR_CLONES static bool fast_cvta(ExecCtx *x)
{
    const uint64_t *A = src_lanes(x, 1);
    RESULT_BEGIN(IN->opd[0].reg);
    uint64_t base = IN->space == SPACE_SHARED ? SHARED_WINDOW_BASE
                  : IN->space == SPACE_LOCAL ? LOCAL_WINDOW_BASE
                  : IN->space == SPACE_CONST ? CONST_WINDOW_BASE
                  : IN->space == SPACE_PARAM ? PARAM_WINDOW_BASE : 0;
    if (IN->flags & FL_TO)
        base = (uint64_t)0 - base;
    uint64_t mask = isa_type_size(IN->type) == 4 ? M32 : ~0ull;
    LANES((A[l] + base) & mask);
    RESULT_END();
    return true;
}

/* ---- the SFU's f32 approximations (sfu.h) ------------------------------- */

/* rcp/sqrt.approx, rsqrt and ex2 on f32 as the general handler computes
 * them (sfu_lanes), without its per-lane register writes and rounding-mode
 * switch: they take no rounding mode. */
static inline bool sfu_form(ExecCtx *x, SfuFn fn, bool ftz)
{
    uint32_t a[WARP_SIZE], out[WARP_SIZE] = {0};
    const uint64_t *A = src_lanes(x, 1);
    for (uint32_t l = 0; l < WARP_SIZE; l++)
        a[l] = (uint32_t)A[l];
    sfu_lanes(fn, ftz, x->exec, a, out);
    RESULT_BEGIN(IN->opd[0].reg);
    for (uint32_t l = 0; l < WARP_SIZE; l++)
        r[l] = out[l];
    RESULT_END();
    return true;
}

#define SFU_FORMS(name, fn)                                                      \
    static bool fast_##name##_f32(ExecCtx *x) { return sfu_form(x, fn, false); } \
    static bool fast_##name##_f32_ftz(ExecCtx *x) { return sfu_form(x, fn, true); }
SFU_FORMS(rcp, SFU_RCP)
SFU_FORMS(sqrt, SFU_SQRT)
SFU_FORMS(rsqrt, SFU_RSQRT)
SFU_FORMS(ex2, SFU_EX2)

/* ---- choosing a form --------------------------------------------------- */

static bool plain_dst(const Insn *in) { return in->nopd > 0 && in->opd[0].kind == OPD_REG && in->opd[0].reg != NO_INDEX; }
static bool is_int(PtxType t) { return (isa_type_class(t) & TC_INT) != 0; }
static bool srcs_are_values(const Insn *in, uint32_t from)
{
    for (uint32_t i = from; i < in->nopd; i++) {
        uint8_t k = in->opd[i].kind;
        if (k != OPD_REG && k != OPD_IMM && k != OPD_SREG && k != OPD_SYMBOL)
            return false;
    }
    return true;
}

static OpHandler int_form(unsigned size, OpHandler f32, OpHandler f64)
{
    return size == 4 ? f32 : size == 8 ? f64 : NULL;
}

static OpHandler float_form(const Insn *in, FastFloatOp op)
{
    static OpHandler const f32[2][2][5] = { /* [directed][ftz][op] */
        {{fast_add_f32, fast_sub_f32, fast_mul_f32, fast_div_f32, fast_fma_f32},
         {fast_add_f32_ftz, fast_sub_f32_ftz, fast_mul_f32_ftz, fast_div_f32_ftz, fast_fma_f32_ftz}},
        {{fast_add_f32_directed, fast_sub_f32_directed, fast_mul_f32_directed, fast_div_f32_directed,
          fast_fma_f32_directed},
         {fast_add_f32_ftz_directed, fast_sub_f32_ftz_directed, fast_mul_f32_ftz_directed,
          fast_div_f32_ftz_directed, fast_fma_f32_ftz_directed}},
    };
    static OpHandler const f64[2][5] = {
        {fast_add_f64, fast_sub_f64, fast_mul_f64, fast_div_f64, fast_fma_f64},
        {fast_add_f64_directed, fast_sub_f64_directed, fast_mul_f64_directed, fast_div_f64_directed,
         fast_fma_f64_directed},
    };
    if (in->flags & (FL_SAT | FL_RELU | FL_NEG_PRODUCT | FL_NEG_ADDEND))
        return NULL;
    bool directed = in->round == RND_RZ || in->round == RND_RM || in->round == RND_RP;
    if (!directed && in->round != RND_NONE && in->round != RND_RN)
        return NULL;
    if (in->type == PTX_TYPE_F32)
        return f32[directed][(in->flags & FL_FTZ) ? 1 : 0][op];
    if (in->type == PTX_TYPE_F64 && !(in->flags & FL_FTZ))
        return f64[directed][op];
    return NULL;
}

static OpHandler memory_form(const Module *mod, const Insn *in, bool load)
{
    const Operand *m = &in->opd[load ? 1 : 0], *v = &in->opd[load ? 0 : 1];
    PtxSpace sp = (PtxSpace)in->space;
    if (load && sp == SPACE_PARAM && m->kind == OPD_ADDR && m->reg == NO_INDEX && m->sym != NO_INDEX &&
        module_var(mod, m->sym)->scope == VAR_KERNEL_PARAM && v->kind == OPD_REG && v->reg != NO_INDEX &&
        in->vec <= 1 && in->type != PTX_TYPE_PRED && isa_type_size(in->type) <= 8)
        return fast_ld_kernel_param;
    if (sp != SPACE_GLOBAL && sp != SPACE_SHARED && sp != SPACE_CONST && sp != SPACE_GENERIC)
        return NULL;
    if (m->kind != OPD_ADDR || in->type == PTX_TYPE_PRED)
        return NULL;
    /* a register base, or a variable of the instruction's own space */
    bool by_reg = m->reg != NO_INDEX && m->sym == NO_INDEX;
    bool by_var = m->reg == NO_INDEX && m->sym != NO_INDEX && sp != SPACE_GENERIC &&
                  module_var(mod, m->sym)->space == sp;
    if (!by_reg && !by_var)
        return NULL;
    unsigned esz = isa_type_size(in->type);
    if (esz == 0 || esz > 8 || (esz & (esz - 1)))
        return NULL;
    if (load)
        return (v->kind == OPD_VEC || (v->kind == OPD_REG && v->reg != NO_INDEX)) ? fast_ld : NULL;
    return (v->kind == OPD_VEC || v->kind == OPD_REG || v->kind == OPD_IMM) ? fast_st : NULL;
}

static OpHandler cvt_form(const Insn *in)
{
    PtxType t = (PtxType)in->type, st = (PtxType)in->type2;
    unsigned ssize = isa_type_size(st);
    if (is_int(t) && is_int(st))
        return fast_cvt_int;
    if ((t == PTX_TYPE_F32 || t == PTX_TYPE_F64) && is_int(st) && (ssize == 4 || ssize == 8) &&
        (in->round == RND_NONE || in->round == RND_RN)) {
        static OpHandler const to_float[2][2][2] = { /* [f64][64-bit source][signed] */
            {{fast_cvt_f32_u32, fast_cvt_f32_s32}, {fast_cvt_f32_u64, fast_cvt_f32_s64}},
            {{fast_cvt_f64_u32, fast_cvt_f64_s32}, {fast_cvt_f64_u64, fast_cvt_f64_s64}},
        };
        return to_float[t == PTX_TYPE_F64][ssize == 8][isa_type_class(st) == TC_SINT];
    }
    if (t == PTX_TYPE_F32 && st == PTX_TYPE_F64 &&
        (in->round == RND_RN || in->round == RND_RZ || in->round == RND_RM || in->round == RND_RP))
        return (in->flags & FL_FTZ) ? fast_cvt_f32_f64_ftz : fast_cvt_f32_f64;
    if (t == PTX_TYPE_F32 && st == PTX_TYPE_F32 && !(in->flags & FL_FTZ)) {
        switch (in->round) {
        case RND_RZI: return fast_cvt_rzi_f32;
        case RND_RMI: return fast_cvt_rmi_f32;
        case RND_RPI: return fast_cvt_rpi_f32;
        case RND_RNI: return fast_cvt_rni_f32;
        default: return NULL;
        }
    }
    if ((t == PTX_TYPE_S32 || t == PTX_TYPE_U32) && st == PTX_TYPE_F32 && !(in->flags & FL_FTZ)) {
        bool sgn = t == PTX_TYPE_S32;
        switch (in->round) {
        case RND_NONE: /* float to integer rounds toward zero unless told (exec_CVT) */
        case RND_RZI: return sgn ? fast_cvt_rzi_s32_f32 : fast_cvt_rzi_u32_f32;
        case RND_RMI: return sgn ? fast_cvt_rmi_s32_f32 : fast_cvt_rmi_u32_f32;
        case RND_RPI: return sgn ? fast_cvt_rpi_s32_f32 : fast_cvt_rpi_u32_f32;
        case RND_RNI: return sgn ? fast_cvt_rni_s32_f32 : fast_cvt_rni_u32_f32;
        default: return NULL;
        }
    }
    return NULL;
}

static OpHandler select_form(const Module *mod, const Insn *in)
{
    PtxType t = (PtxType)in->type;
    unsigned size = isa_type_size(t);
    bool plain_int = is_int(t) && !(in->flags & (FL_CC | FL_SAT | FL_RELU));
    switch ((PtxOpcode)in->op) {
    case OP_LD:
        return in->nopd == 2 ? memory_form(mod, in, true) : NULL;
    case OP_LDU: /* the general handler checks that the address is uniform */
        return NULL;
    case OP_ST:
        return in->nopd == 2 ? memory_form(mod, in, false) : NULL;
    default:
        break;
    }
    if (!plain_dst(in) || !srcs_are_values(in, 1))
        return NULL;
    switch ((PtxOpcode)in->op) {
    case OP_ADD:
        return plain_int ? int_form(size, fast_add32, fast_add64) : float_form(in, FF_ADD);
    case OP_SUB:
        return plain_int ? int_form(size, fast_sub32, fast_sub64) : float_form(in, FF_SUB);
    case OP_MUL:
        if (!plain_int)
            return float_form(in, FF_MUL);
        if (in->mul == MUL_LO)
            return int_form(size, fast_mul_lo32, fast_mul_lo64);
        if (in->mul == MUL_WIDE && size == 4)
            return isa_type_class(t) == TC_SINT ? fast_mul_wide_s32 : fast_mul_wide_u32;
        return NULL;
    case OP_MAD:
        if (!plain_int)
            return float_form(in, FF_FMA);
        if (in->mul == MUL_LO)
            return int_form(size, fast_mad_lo32, fast_mad_lo64);
        if (in->mul == MUL_WIDE && size == 4)
            return isa_type_class(t) == TC_SINT ? fast_mad_wide_s32 : fast_mad_wide_u32;
        return NULL;
    case OP_FMA:
        return float_form(in, FF_FMA);
    case OP_DIV:
        /* div.approx.f32 is the SFU's (sfu.h): the general handler */
        if (t == PTX_TYPE_F32 && (in->flags & FL_APPROX))
            return NULL;
        return isa_type_is_float(t) ? float_form(in, FF_DIV) : NULL;
    case OP_AND:
        return t == PTX_TYPE_PRED ? fast_and_pred : plain_int ? int_form(size, fast_and32, fast_and64) : NULL;
    case OP_OR:
        return t == PTX_TYPE_PRED ? fast_or_pred : plain_int ? int_form(size, fast_or32, fast_or64) : NULL;
    case OP_XOR:
        return t == PTX_TYPE_PRED ? fast_xor_pred : plain_int ? int_form(size, fast_xor32, fast_xor64) : NULL;
    case OP_SHL:
        return plain_int ? int_form(size, fast_shl32, fast_shl64) : NULL;
    case OP_SHR:
        if (!plain_int)
            return NULL;
        return isa_type_class(t) == TC_SINT ? int_form(size, fast_shr_s32, fast_shr_s64)
                                            : int_form(size, fast_shr_u32, fast_shr_u64);
    case OP_MOV:
        if (t == PTX_TYPE_PRED)
            return fast_mov_pred;
        return (is_int(t) || isa_type_is_float(t)) ? int_form(size, fast_mov32, fast_mov64) : NULL;
    case OP_NEG:
        if (t == PTX_TYPE_F32)
            return (in->flags & FL_FTZ) ? fast_neg_f32_ftz : fast_neg_f32;
        if (t == PTX_TYPE_F64)
            return fast_neg_f64;
        return plain_int ? int_form(size, fast_neg32, fast_neg64) : NULL;
    case OP_ABS:
        if (t == PTX_TYPE_F32)
            return (in->flags & FL_FTZ) ? fast_abs_f32_ftz : fast_abs_f32;
        if (t == PTX_TYPE_F64)
            return fast_abs_f64;
        return plain_int && isa_type_class(t) == TC_SINT ? int_form(size, fast_abs_s32, fast_abs_s64) : NULL;
    case OP_MIN:
    case OP_MAX: {
        if (!plain_int)
            return NULL;
        bool sgn = isa_type_class(t) == TC_SINT, mx = in->op == OP_MAX;
        if (size == 4)
            return sgn ? (mx ? fast_max_s32 : fast_min_s32) : (mx ? fast_max_u32 : fast_min_u32);
        if (size == 8)
            return sgn ? (mx ? fast_max_s64 : fast_min_s64) : (mx ? fast_max_u64 : fast_min_u64);
        return NULL;
    }
    case OP_SELP:
        return (is_int(t) || isa_type_is_float(t)) ? int_form(size, fast_selp32, fast_selp64) : NULL;
    case OP_CVTA:
        return (size == 4 || size == 8) && in->nopd == 2 ? fast_cvta : NULL;
    case OP_CVT:
        if (in->nopd != 2 || (in->flags & (FL_SATFINITE | FL_RELU)))
            return NULL;
        if (in->flags & FL_SAT) /* cvt.sat.f32.f32 alone: a clamp */
            return t == PTX_TYPE_F32 && in->type2 == PTX_TYPE_F32 && in->round == RND_NONE
                       ? ((in->flags & FL_FTZ) ? fast_cvt_sat_f32_ftz : fast_cvt_sat_f32)
                       : NULL;
        return cvt_form(in);
    case OP_COPYSIGN:
        return t == PTX_TYPE_F32 ? fast_copysign_f32 : t == PTX_TYPE_F64 ? fast_copysign_f64 : NULL;
    case OP_RCP:
    case OP_SQRT:
    case OP_RSQRT:
    case OP_EX2: {
        /* the f32 forms that special() hands to the SFU model: rsqrt and
         * ex2 always, rcp and sqrt when .approx */
        bool approx = in->op == OP_RSQRT || in->op == OP_EX2 || (in->flags & FL_APPROX);
        bool ftz = in->flags & FL_FTZ;
        if (in->nopd != 2)
            return NULL;
        if (!approx && in->round == RND_RN && (in->op == OP_RCP || in->op == OP_SQRT)) {
            bool sq = in->op == OP_SQRT;
            if (t == PTX_TYPE_F32)
                return sq ? (ftz ? fast_sqrt_rn_f32_ftz : fast_sqrt_rn_f32)
                          : (ftz ? fast_rcp_rn_f32_ftz : fast_rcp_rn_f32);
            if (t == PTX_TYPE_F64 && !ftz)
                return sq ? fast_sqrt_rn_f64 : fast_rcp_rn_f64;
            return NULL;
        }
        if (t != PTX_TYPE_F32 || !approx || in->round != RND_NONE)
            return NULL;
        switch ((PtxOpcode)in->op) {
        case OP_RCP: return ftz ? fast_rcp_f32_ftz : fast_rcp_f32;
        case OP_SQRT: return ftz ? fast_sqrt_f32_ftz : fast_sqrt_f32;
        case OP_RSQRT: return ftz ? fast_rsqrt_f32_ftz : fast_rsqrt_f32;
        default: return ftz ? fast_ex2_f32_ftz : fast_ex2_f32;
        }
    }
    default:
        return NULL;
    }
}

/* setp's destination is a predicate or a p|q pair */
static OpHandler select_setp(const Insn *in)
{
    if (in->nopd != 3 || !srcs_are_values(in, 1))
        return NULL;
    const Operand *d = &in->opd[0];
    if (!((d->kind == OPD_REG || d->kind == OPD_PAIR) && d->reg != NO_INDEX))
        return NULL;
    PtxType t = (PtxType)in->type;
    unsigned size = isa_type_size(t);
    if (is_int(t) && (size == 4 || size == 8) && in->cmp >= CMP_EQ && in->cmp <= CMP_HS)
        return fast_setp_int;
    if (t == PTX_TYPE_F32 && in->cmp >= CMP_EQ)
        return fast_setp_f32;
    if (t == PTX_TYPE_F64 && in->cmp >= CMP_EQ && !(in->flags & FL_FTZ))
        return fast_setp_f64;
    return NULL;
}

uint8_t exec_insn_traits(const Insn *in)
{
    uint8_t t = 0;
    switch ((PtxOpcode)in->op) {
    case OP_BRA: t = STEP_CONTROL | STEP_BRANCH; break;
    case OP_CALL:
    case OP_RET:
    case OP_EXIT:
    case OP_TRAP:
    case OP_BAR:
    case OP_BARRIER: t = STEP_CONTROL; break;
    case OP_ST:
    case OP_ATOM:
    case OP_RED:
    case OP_CP_ASYNC: /* writes shared memory */
    case OP_CP_ASYNC_MBARRIER_ARRIVE:
    case OP_MBARRIER_INIT:
    case OP_MBARRIER_INVAL:
    case OP_MBARRIER_ARRIVE:
    case OP_MBARRIER_ARRIVE_DROP:
    case OP_MBARRIER_EXPECT_TX:
    case OP_MBARRIER_COMPLETE_TX:
        t = STEP_STORE;
        if (in->space == SPACE_GLOBAL || in->space == SPACE_GENERIC)
            t |= STEP_GLOBAL_STORE;
        break;
    default: break;
    }
    return t;
}

/* The plan's shared row of 32 copies of v (one per distinct value). */
static const uint64_t *fixed_row(ExecPlan *p, GHashTable *by_value, uint64_t v)
{
    uint64_t *row = g_hash_table_lookup(by_value, &v);
    if (row)
        return row;
    row = g_new(uint64_t, WARP_SIZE);
    for (uint32_t l = 0; l < WARP_SIZE; l++)
        row[l] = v;
    g_ptr_array_add(p->rows, row);
    g_hash_table_insert(by_value, &row[0], row); /* the row's first lane is its key */
    return row;
}

/* How step_one finds operand i's lanes (InsnPlan.fixed/row_at): the kinds that
 * are the same for every step at plan time; false for the others. */
static bool plan_operand(ExecPlan *p, GHashTable *by_value, const Function *fn, const Operand *o, InsnPlan *ip,
                         uint32_t i)
{
    ip->fixed[i] = NULL;
    ip->row_at[i] = 0;
    switch ((OperandKind)o->kind) {
    case OPD_REG:
        if (o->negate || o->reg == NO_INDEX || !fn->cfg)
            return false;
        ip->row_at[i] = fn->cfg->slot_of[o->reg] * WARP_SIZE;
        return true;
    case OPD_IMM:
        ip->fixed[i] = fixed_row(p, by_value, (uint64_t)o->imm);
        return true;
    case OPD_SYMBOL:
        if (o->func == NO_INDEX)
            return false; /* a variable's address depends on the launch */
        ip->fixed[i] = fixed_row(p, by_value, FUNC_ADDR_BASE + (uint64_t)o->func * FUNC_ADDR_STRIDE + (uint64_t)o->imm);
        return true;
    case OPD_SREG:
        return false;
    default: /* not a value: reads as zeros (opd_value) */
        ip->fixed[i] = fixed_row(p, by_value, 0);
        return true;
    }
}

ExecPlan *exec_plan_new(const Module *m)
{
    ExecPlan *p = g_new0(ExecPlan, 1);
    p->nfuncs = m->funcs->len;
    p->by_func = g_new0(InsnPlan *, MAX(p->nfuncs, 1u));
    p->rows = g_ptr_array_new_with_free_func(g_free);
    GHashTable *by_value = g_hash_table_new(g_int64_hash, g_int64_equal);
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        const Function *fn = module_func(m, f);
        uint32_t n = func_ninsns(fn);
        p->by_func[f] = g_new0(InsnPlan, MAX(n, 1u));
        for (uint32_t i = 0; i < n; i++) {
            const Insn *in = func_insn(fn, i);
            InsnPlan *ip = &p->by_func[f][i];
            OpHandler h = in->op == OP_SETP ? select_setp(in) : select_form(m, in);
            ip->handler = h ? h : exec_handlers[in->op];
            ip->fast = h != NULL;
            ip->rows_only = true;
            for (uint32_t k = 0; k < in->nopd; k++)
                ip->rows_only &= plan_operand(p, by_value, fn, &in->opd[k], ip, k);
            ip->traits = exec_insn_traits(in);
            ip->block = NO_INDEX;
            const struct Cfg *cfg = fn->cfg;
            if (cfg && cfg->block_of[i] < cfg->nblocks && cfg->blocks[cfg->block_of[i]].first == i)
                ip->block = cfg->block_of[i];
        }
        /* from the end back: a stretch goes on into the next instruction
         * unless that one begins a block (without a CFG nothing says where
         * paths rejoin: every instruction is its own stretch) */
        for (uint32_t i = n; fn->cfg && i-- > 0;) {
            InsnPlan *ip = &p->by_func[f][i];
            if (ip->traits & STEP_CONTROL)
                continue;
            const InsnPlan *next = i + 1 < n ? ip + 1 : NULL;
            bool goes_on = next && next->block == NO_INDEX && next->straight > 0 && next->straight < UINT16_MAX;
            ip->straight = (uint16_t)(goes_on ? next->straight + 1 : 1);
        }
    }
    g_hash_table_destroy(by_value);
    return p;
}

void exec_plan_free(ExecPlan *p)
{
    if (!p)
        return;
    for (uint32_t f = 0; f < p->nfuncs; f++)
        g_free(p->by_func[f]);
    g_free(p->by_func);
    g_ptr_array_free(p->rows, TRUE);
    g_free(p);
}
