/* exec_ops.c — the semantics of every data-processing PTX instruction.
 *
 * One handler per opcode of isa/ptx_ops.def, bound by name in the table at
 * the end (a missing handler fails the link).  Handlers loop over the lanes
 * whose guard holds; values are read as raw bits and interpreted at the
 * instruction's type, following the PTX ISA to the bit (shift amounts at or
 * beyond the width, division by zero, NaN in min/max, .ftz, .sat ...).
 * Control flow (bra, call, ret, exit, barriers) is in exec.c.
 */
#include "exec_internal.h"

#include <math.h>

#include "fpconv.h"
#include "sfu.h"

/* ------------------------------------------------------------------ */
/* reading operands at a type                                           */

#define IN (x->in)
#define SRC(i, lane) (x->v[i][lane])
#define DST(i) (IN->opd[i].reg)

static inline unsigned tbits(PtxType t) { return isa_type_size(t) * 8; }
static inline bool tsigned(PtxType t) { return isa_type_class(t) == TC_SINT; }

static inline float f32_in(const ExecCtx *x, uint64_t v)
{
    float f = fp_f32_from_bits((uint32_t)v);
    return (IN->flags & FL_FTZ) ? fp_ftz32(f) : f;
}
static inline uint64_t f32_out(const ExecCtx *x, float f)
{
    if (IN->flags & FL_FTZ)
        f = fp_ftz32(f);
    if (IN->flags & FL_SAT)
        f = fp_sat32(f);
    return fp_f32_bits(f);
}
static inline uint64_t f64_out(const ExecCtx *x, double d)
{
    if (IN->flags & FL_SAT)
        d = fp_sat64(d);
    return fp_f64_bits(d);
}
/* the same for a result already in bits, which keep a NaN's payload */
static inline uint64_t f64_out_bits(const ExecCtx *x, uint64_t bits)
{
    return (IN->flags & FL_SAT) ? f64_out(x, fp_f64_from_bits(bits)) : bits;
}

/* 16-bit float lanes: operate in f64, round back once with .rn.  f64 holds
 * the exact sum or product of two halves, and a half fma is close enough to
 * exact that rounding it to f64 first cannot move it across a half tie; an
 * f32 intermediate could (fma.rn.f16 of 0x1001, 0x3BFE, 0x3C01). */
static inline float half_to_f32(PtxType t, uint16_t h)
{
    return (t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2) ? fp_bf16_to_f32(h) : fp_f16_to_f32(h);
}
static inline uint16_t f64_to_half(PtxType t, double d)
{
    return (t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2) ? fp_f64_to_bf16(d, RND_RN)
                                                        : fp_f64_to_f16(d, RND_RN);
}
static inline bool is_pair(PtxType t) { return t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2; }

typedef double (*HalfOp)(double a, double b, double c);

/* .relu of 16-bit float arithmetic and of conversions to 16-bit floats:
 * negative values and -0 become +0 (the H200); a NaN stays NaN */
static inline double relu(const ExecCtx *x, double v) { return (IN->flags & FL_RELU) && v <= 0 ? 0 : v; }

/* An f16 subnormal (.ftz) as the zero of its sign. */
static inline uint16_t h_flush(uint16_t h)
{
    return (h & 0x7C00u) == 0 ? (uint16_t)(h & 0x8000u) : h;
}

/* What the H200 gives (op_sweep.py's f16x2 and bf16x2 forms, 2026-11-25):
 * every NaN result is 0x7FFF, whatever the operands' signs and payloads
 * (abs and neg of a NaN included); .ftz flushes f16 subnormal operands
 * and results to the zero of their sign; .relu makes -0 +0 too. */
static bool half_apply(ExecCtx *x, int nsrc, HalfOp f)
{
    PtxType t = IN->type;
    unsigned n = is_pair(t) ? 2 : 1;
    bool ftz = (IN->flags & FL_FTZ) && (t == PTX_TYPE_F16 || t == PTX_TYPE_F16X2);
    FOR_LANES(x->exec, l) {
        uint64_t a = SRC(1, l), b = nsrc > 1 ? SRC(2, l) : 0, c = nsrc > 2 ? SRC(3, l) : 0, r = 0;
        for (unsigned k = 0; k < n; k++) {
            uint16_t ha = (uint16_t)(a >> (16 * k)), hb = (uint16_t)(b >> (16 * k)), hc = (uint16_t)(c >> (16 * k));
            if (ftz) {
                ha = h_flush(ha);
                hb = h_flush(hb);
                hc = h_flush(hc);
            }
            double v = f(half_to_f32(t, ha), half_to_f32(t, hb), half_to_f32(t, hc));
            if (IN->flags & FL_SAT)
                v = fp_sat64(v);
            v = relu(x, v);
            uint16_t h = isnan(v) ? 0x7FFF : f64_to_half(t, v);
            r |= (uint64_t)(ftz ? h_flush(h) : h) << (16 * k);
        }
        reg_write(x, DST(0), l, r, n * 2);
    }
    return true;
}

static double h_add(double a, double b, double c) { (void)c; return a + b; }
static double h_sub(double a, double b, double c) { (void)c; return a - b; }
static double h_mul(double a, double b, double c) { (void)c; return a * b; }
static double h_fma(double a, double b, double c) { return fma(a, b, c); }
static double h_abs(double a, double b, double c) { (void)b; (void)c; return fabs(a); }
static double h_neg(double a, double b, double c) { (void)b; (void)c; return -a; }
/* halves are exact in f32: keep the f32 NaN rules of min/max */
static double h_min(double a, double b, double c) { (void)c; return fp_min32((float)a, (float)b, false); }
static double h_max(double a, double b, double c) { (void)c; return fp_max32((float)a, (float)b, false); }
static double h_min_nan(double a, double b, double c) { (void)c; return fp_min32((float)a, (float)b, true); }
static double h_max_nan(double a, double b, double c) { (void)c; return fp_max32((float)a, (float)b, true); }
static double h_ex2(double a, double b, double c) { (void)b; (void)c; return exp2(a); }
static double h_tanh(double a, double b, double c) { (void)b; (void)c; return tanh(a); }

/* ------------------------------------------------------------------ */
/* float binary/unary operations shared by add, sub, mul, div ...       */

typedef enum { FOP_ADD, FOP_SUB, FOP_MUL, FOP_DIV, FOP_FMA, FOP_MIN, FOP_MAX, FOP_COPYSIGN } FloatOp;

/* f32 arithmetic that produces a NaN produces the canonical one on the GPU
 * (sign clear, all payload bits set); f64 arithmetic keeps a NaN operand
 * (fp_f64_arith_bits); min/max and copysign do not compute, so they keep
 * the operand's bits. */
static inline float canon32(float r) { return isnan(r) ? fp_canon_nan32() : r; }

static bool float_op(ExecCtx *x, FloatOp op)
{
    int nsrc = op == FOP_FMA ? 3 : 2;
    if (op == FOP_DIV && IN->type == PTX_TYPE_F32 && (IN->flags & FL_APPROX)) {
        /* the GPU's own: a times its reciprocal (sfu.h) */
        bool ftz = IN->flags & FL_FTZ;
        FOR_LANES(x->exec, l)
            reg_write(x, DST(0), l, sfu_div((uint32_t)SRC(1, l), (uint32_t)SRC(2, l), ftz), 4);
        return true;
    }
    int old = round_enter(IN->round);
    if (IN->type == PTX_TYPE_F64) {
        FOR_LANES(x->exec, l) {
            uint64_t ab = SRC(1, l), bb = SRC(2, l), cb = nsrc > 2 ? SRC(3, l) : 0;
            if (IN->flags & FL_NEG_PRODUCT) /* a contracted sub (contract.h): DFMA's operand negation */
                ab ^= UINT64_C(1) << 63;
            if (IN->flags & FL_NEG_ADDEND)
                cb ^= UINT64_C(1) << 63;
            double a = fp_f64_from_bits(ab), b = fp_f64_from_bits(bb), c = fp_f64_from_bits(cb);
            double r;
            switch (op) {
            case FOP_ADD: r = a + b; break;
            case FOP_SUB: r = a - b; break;
            case FOP_MUL: r = a * b; break;
            case FOP_DIV: r = a / b; break;
            case FOP_FMA: r = fma(a, b, c); break;
            case FOP_MIN: r = fp_min64(a, b, IN->flags & FL_NAN); break;
            case FOP_MAX: r = fp_max64(a, b, IN->flags & FL_NAN); break;
            default: r = copysign(b, a); break;
            }
            uint64_t bits = op < FOP_MIN ? fp_f64_arith_bits(r, ab, bb, cb, op == FOP_DIV) : fp_f64_bits(r);
            reg_write(x, DST(0), l, f64_out_bits(x, bits), 8);
        }
    } else {
        FOR_LANES(x->exec, l) {
            float a = f32_in(x, SRC(1, l)), b = f32_in(x, SRC(2, l));
            float c = nsrc > 2 ? f32_in(x, SRC(3, l)) : 0;
            if (IN->flags & FL_NEG_PRODUCT) /* a contracted sub (contract.h) */
                a = -a;
            if (IN->flags & FL_NEG_ADDEND)
                c = -c;
            float r;
            switch (op) {
            case FOP_ADD: r = a + b; break;
            case FOP_SUB: r = a - b; break;
            case FOP_MUL: r = a * b; break;
            case FOP_DIV: r = a / b; break; /* .approx/.full within their 2 ulp */
            case FOP_FMA: r = fmaf(a, b, c); break;
            case FOP_MIN: r = fp_min32(a, b, IN->flags & FL_NAN); break;
            case FOP_MAX: r = fp_max32(a, b, IN->flags & FL_NAN); break;
            default: r = copysignf(b, a); break;
            }
            if (op < FOP_MIN)
                r = canon32(r);
            reg_write(x, DST(0), l, f32_out(x, r), 4);
        }
    }
    round_leave(IN->round, old);
    return true;
}

/* ------------------------------------------------------------------ */
/* integer helpers                                                      */

static inline int64_t sat_signed(__int128 v, unsigned bits)
{
    __int128 hi = ((__int128)1 << (bits - 1)) - 1, lo = -hi - 1;
    return (int64_t)(v > hi ? hi : v < lo ? lo : v);
}

/* 16-bit element k of a packed pair, sign-extended when sgn */
static inline int64_t packed_half(uint32_t v, unsigned k, bool sgn)
{
    uint64_t e = (v >> (16 * k)) & 0xFFFF;
    return sgn ? fp_sext(e, 16) : (int64_t)e;
}

/* integer operand as a 128-bit value at the instruction's type */
static inline __int128 int_in(const ExecCtx *x, uint64_t v)
{
    unsigned bits = tbits(IN->type);
    if (tsigned(IN->type))
        return fp_sext(v, bits);
    return (__int128)(v & width_mask(bits));
}

static bool int_addsub(ExecCtx *x, bool sub, bool carry_in)
{
    unsigned bits = tbits(IN->type);
    uint64_t m = width_mask(bits);
    uint32_t carry = x->w->carry, carry_out = carry;
    FOR_LANES(x->exec, l) {
        uint64_t a = SRC(1, l) & m, b = SRC(2, l) & m;
        uint64_t ci = carry_in ? (carry >> l) & 1 : 0;
        uint64_t r;
        if (IN->flags & FL_SAT) {
            __int128 sa = fp_sext(a, bits), sb = fp_sext(b, bits);
            r = (uint64_t)sat_signed(sub ? sa - sb : sa + sb, bits);
        } else if (!sub) {
            r = a + b + ci;
            unsigned __int128 wide = (unsigned __int128)a + b + ci;
            uint64_t co = bits == 64 ? (uint64_t)(wide >> 64) : (wide >> bits) & 1;
            carry_out = (carry_out & ~(1u << l)) | ((uint32_t)co << l);
        } else {
            /* The hardware subtracts as a + ~b + carry-in (1 for sub, CC.CF
             * for subc), so CC.CF holds the carry of that sum: 1 when
             * nothing was borrowed.  nvcc's code relies on it (its 128-bit
             * division reads sub.cc's flag with addc); the H200 gives
             * sub.cc 1 - 2 then addc 0 + 0 = 0, and add.cc with no carry
             * then subc 0 - 0 = -1. */
            uint64_t bi = carry_in ? 1 - ci : 0;
            r = a - b - bi;
            uint64_t no_borrow = (unsigned __int128)a >= (unsigned __int128)b + bi;
            carry_out = (carry_out & ~(1u << l)) | ((uint32_t)no_borrow << l);
        }
        reg_write(x, DST(0), l, r, bits / 8);
    }
    if (IN->flags & FL_CC)
        x->w->carry = carry_out;
    return true;
}

/* .u16x2/.s16x2: two independent 16-bit lanes; add wraps in each, and
 * min/max.relu (.s16x2 only) clamps each lane at 0, as __vimax_s16x2_relu
 * and the other DPX intrinsics compile. */
typedef enum { P16_ADD, P16_MIN, P16_MAX } Packed16Op;
static bool packed16(ExecCtx *x, Packed16Op op)
{
    if (IN->flags & (FL_SAT | FL_CC | FL_FTZ | FL_NAN) || IN->round != RND_NONE)
        return exec_fault(x, x->exec ? (uint32_t)__builtin_ctz(x->exec) : 0,
                          "%s.%s takes no rounding, .sat, .cc, .ftz or .NaN", isa_ops[IN->op].name,
                          isa_types[IN->type].spelling);
    bool sgn = IN->type == PTX_TYPE_S16X2;
    FOR_LANES(x->exec, l) {
        uint32_t a = (uint32_t)SRC(1, l), b = (uint32_t)SRC(2, l), r = 0;
        for (unsigned k = 0; k < 2; k++) {
            int32_t ea = (int32_t)packed_half(a, k, sgn), eb = (int32_t)packed_half(b, k, sgn);
            int32_t e = op == P16_ADD ? ea + eb : op == P16_MIN ? (ea < eb ? ea : eb) : (ea > eb ? ea : eb);
            if ((IN->flags & FL_RELU) && e < 0)
                e = 0;
            r |= ((uint32_t)e & 0xFFFFu) << (16 * k);
        }
        reg_write(x, DST(0), l, r, 4);
    }
    return true;
}

static bool exec_ADD(ExecCtx *x)
{
    if (isa_type_class(IN->type) == TC_PACKED)
        return packed16(x, P16_ADD);
    if (isa_type_class(IN->type) == TC_HALF)
        return half_apply(x, 2, h_add);
    if (isa_type_is_float(IN->type))
        return float_op(x, FOP_ADD);
    return int_addsub(x, false, false);
}
static bool exec_ADDC(ExecCtx *x) { return int_addsub(x, false, true); }
static bool exec_SUB(ExecCtx *x)
{
    if (isa_type_class(IN->type) == TC_HALF)
        return half_apply(x, 2, h_sub);
    if (isa_type_is_float(IN->type))
        return float_op(x, FOP_SUB);
    return int_addsub(x, true, false);
}
static bool exec_SUBC(ExecCtx *x) { return int_addsub(x, true, true); }

/* a*b at the type, selected half; returns the result width in bytes */
static uint64_t int_mul(const ExecCtx *x, uint64_t a, uint64_t b, int mode, unsigned *out_bytes)
{
    unsigned bits = tbits(IN->type);
    __int128 p;
    if (tsigned(IN->type)) {
        p = int_in(x, a) * int_in(x, b); /* |product| < 2^126: no overflow */
    } else {
        /* unsigned 64-bit products need all 128 bits: multiply unsigned */
        unsigned __int128 up = (unsigned __int128)(a & width_mask(bits)) * (b & width_mask(bits));
        if (mode == MUL_HI) {
            *out_bytes = bits / 8;
            return (uint64_t)(up >> bits);
        }
        p = (__int128)(up & (((unsigned __int128)1 << 127) - 1)); /* only the low 64 bits are used */
    }
    switch (mode) {
    case MUL_HI:
        *out_bytes = bits / 8;
        return (uint64_t)(p >> bits);
    case MUL_WIDE:
        *out_bytes = bits / 4;
        return (uint64_t)p;
    default:
        *out_bytes = bits / 8;
        return (uint64_t)p;
    }
}

static bool exec_MUL(ExecCtx *x)
{
    if (isa_type_class(IN->type) == TC_HALF)
        return half_apply(x, 2, h_mul);
    if (isa_type_is_float(IN->type))
        return float_op(x, FOP_MUL);
    FOR_LANES(x->exec, l) {
        unsigned bytes;
        uint64_t r = int_mul(x, SRC(1, l), SRC(2, l), IN->mul, &bytes);
        reg_write(x, DST(0), l, r, bytes);
    }
    return true;
}

static bool int_mad(ExecCtx *x, bool carry_in)
{
    uint32_t carry = x->w->carry, carry_out = carry;
    FOR_LANES(x->exec, l) {
        unsigned bytes;
        uint64_t p = int_mul(x, SRC(1, l), SRC(2, l), IN->mul, &bytes);
        uint64_t c = SRC(3, l);
        uint64_t ci = carry_in ? (carry >> l) & 1 : 0;
        uint64_t r;
        if ((IN->flags & FL_SAT) && IN->mul == MUL_HI && IN->type == PTX_TYPE_S32) {
            r = (uint64_t)sat_signed((__int128)fp_sext(p, 32) + fp_sext(c, 32), 32);
        } else {
            unsigned rb = bytes * 8;
            uint64_t m = width_mask(rb);
            unsigned __int128 wide = (unsigned __int128)(p & m) + (c & m) + ci;
            r = (uint64_t)wide;
            uint64_t co = rb == 64 ? (uint64_t)(wide >> 64) : (uint64_t)(wide >> rb) & 1;
            carry_out = (carry_out & ~(1u << l)) | ((uint32_t)co << l);
        }
        reg_write(x, DST(0), l, r, bytes);
    }
    if (IN->flags & FL_CC)
        x->w->carry = carry_out;
    return true;
}

static bool exec_MAD(ExecCtx *x)
{
    if (isa_type_is_float(IN->type))
        return float_op(x, FOP_FMA); /* mad.rn.f32 is fma; legacy mad.f32 is fused too */
    return int_mad(x, false);
}
static bool exec_MADC(ExecCtx *x) { return int_mad(x, true); }

static uint64_t mul24(const ExecCtx *x, uint64_t a, uint64_t b)
{
    int64_t p;
    if (tsigned(IN->type))
        p = fp_sext(a, 24) * fp_sext(b, 24);
    else
        p = (int64_t)((a & 0xFFFFFF) * (b & 0xFFFFFF));
    return IN->mul == MUL_HI ? (uint64_t)p >> 16 : (uint64_t)p;
}
static bool exec_MUL24(ExecCtx *x)
{
    FOR_LANES(x->exec, l) reg_write(x, DST(0), l, mul24(x, SRC(1, l), SRC(2, l)), 4);
    return true;
}
static bool exec_MAD24(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        uint64_t r = mul24(x, SRC(1, l), SRC(2, l)) + SRC(3, l);
        if ((IN->flags & FL_SAT) && tsigned(IN->type))
            r = (uint64_t)sat_signed((__int128)fp_sext(mul24(x, SRC(1, l), SRC(2, l)), 32) +
                                         fp_sext(SRC(3, l), 32), 32);
        reg_write(x, DST(0), l, r, 4);
    }
    return true;
}

/* dp4a/dp2a: byte (and, for dp2a's a, halfword) lanes widened by their own
 * type's signedness; the sum wraps at 32 bits. */
static bool dot_types_ok(ExecCtx *x, const char *name)
{
    if (isa_type_size(IN->type) == 4 && isa_type_size(IN->type2) == 4)
        return true;
    return exec_fault(x, x->exec ? (uint32_t)__builtin_ctz(x->exec) : 0,
                      "%s takes .u32 or .s32 for each of its two types, not .%s.%s", name,
                      isa_types[IN->type].spelling, isa_types[IN->type2].spelling);
}
static inline int64_t packed_field(uint32_t v, unsigned i, unsigned bits, bool sgn)
{
    uint64_t f = (v >> (i * bits)) & width_mask(bits);
    return sgn ? fp_sext(f, bits) : (int64_t)f;
}
static bool exec_DP4A(ExecCtx *x)
{
    if (!dot_types_ok(x, "dp4a"))
        return false;
    bool sa = tsigned(IN->type), sb = tsigned(IN->type2);
    FOR_LANES(x->exec, l) {
        uint32_t a = (uint32_t)SRC(1, l), b = (uint32_t)SRC(2, l);
        uint64_t d = SRC(3, l);
        for (unsigned i = 0; i < 4; i++)
            d += (uint64_t)(packed_field(a, i, 8, sa) * packed_field(b, i, 8, sb));
        reg_write(x, DST(0), l, d, 4);
    }
    return true;
}
static bool exec_DP2A(ExecCtx *x)
{
    if (!dot_types_ok(x, "dp2a"))
        return false;
    if (IN->mul != MUL_LO && IN->mul != MUL_HI)
        return exec_fault(x, x->exec ? (uint32_t)__builtin_ctz(x->exec) : 0, "dp2a needs .lo or .hi");
    bool sa = tsigned(IN->type), sb = tsigned(IN->type2);
    unsigned first = IN->mul == MUL_HI ? 2 : 0;
    FOR_LANES(x->exec, l) {
        uint32_t a = (uint32_t)SRC(1, l), b = (uint32_t)SRC(2, l);
        uint64_t d = SRC(3, l);
        for (unsigned i = 0; i < 2; i++)
            d += (uint64_t)(packed_field(a, i, 16, sa) * packed_field(b, first + i, 8, sb));
        reg_write(x, DST(0), l, d, 4);
    }
    return true;
}

static bool exec_SAD(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        __int128 a = int_in(x, SRC(1, l)), b = int_in(x, SRC(2, l));
        uint64_t d = (uint64_t)(a > b ? a - b : b - a);
        reg_write(x, DST(0), l, SRC(3, l) + d, bits / 8);
    }
    return true;
}

static bool exec_FMA(ExecCtx *x)
{
    if (isa_type_class(IN->type) == TC_HALF)
        return half_apply(x, 3, h_fma);
    return float_op(x, FOP_FMA);
}

static bool exec_DIV(ExecCtx *x)
{
    if (isa_type_is_float(IN->type))
        return float_op(x, FOP_DIV);
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t r;
        if (tsigned(IN->type)) {
            int64_t a = fp_sext(SRC(1, l), bits), b = fp_sext(SRC(2, l), bits);
            if (b == 0)
                r = ~0ull; /* all ones for every dividend, as measured on sm_90 */
            else if (b == -1)
                r = (uint64_t)0 - (uint64_t)a;
            else
                r = (uint64_t)(a / b);
        } else {
            uint64_t m = width_mask(bits), a = SRC(1, l) & m, b = SRC(2, l) & m;
            r = b == 0 ? ~0ull : a / b;
        }
        reg_write(x, DST(0), l, r, bits / 8);
    }
    return true;
}

static bool exec_REM(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t r;
        if (tsigned(IN->type)) {
            int64_t a = fp_sext(SRC(1, l), bits), b = fp_sext(SRC(2, l), bits);
            r = b == 0 ? ~0ull : b == -1 ? 0 : (uint64_t)(a % b);
        } else {
            uint64_t m = width_mask(bits), a = SRC(1, l) & m, b = SRC(2, l) & m;
            r = b == 0 ? ~0ull : a % b; /* x % 0 is all ones on sm_90 */
        }
        reg_write(x, DST(0), l, r, bits / 8);
    }
    return true;
}

static bool exec_ABS(ExecCtx *x)
{
    PtxType t = IN->type;
    if (isa_type_class(t) == TC_HALF)
        return half_apply(x, 1, h_abs);
    FOR_LANES(x->exec, l) {
        uint64_t v = SRC(1, l);
        if (t == PTX_TYPE_F32)
            reg_write(x, DST(0), l, fp_f32_bits(canon32(fabsf(f32_in(x, v)))), 4);
        else if (t == PTX_TYPE_F64)
            reg_write(x, DST(0), l, fp_f64_arith_bits(fabs(fp_f64_from_bits(v)), v, 0, 0, false), 8);
        else {
            int64_t s = fp_sext(v, tbits(t));
            reg_write(x, DST(0), l, (uint64_t)(s < 0 ? -(uint64_t)s : (uint64_t)s), tbits(t) / 8);
        }
    }
    return true;
}

static bool exec_NEG(ExecCtx *x)
{
    PtxType t = IN->type;
    if (isa_type_class(t) == TC_HALF)
        return half_apply(x, 1, h_neg);
    FOR_LANES(x->exec, l) {
        uint64_t v = SRC(1, l);
        if (t == PTX_TYPE_F32)
            reg_write(x, DST(0), l, fp_f32_bits(canon32(-f32_in(x, v))), 4);
        else if (t == PTX_TYPE_F64)
            reg_write(x, DST(0), l, fp_f64_arith_bits(-fp_f64_from_bits(v), v, 0, 0, false), 8);
        else
            reg_write(x, DST(0), l, (uint64_t)0 - v, tbits(t) / 8);
    }
    return true;
}

static bool int_minmax(ExecCtx *x, bool is_max)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        __int128 a = int_in(x, SRC(1, l)), b = int_in(x, SRC(2, l));
        __int128 r = is_max ? (a > b ? a : b) : (a < b ? a : b);
        if ((IN->flags & FL_RELU) && r < 0)
            r = 0;
        reg_write(x, DST(0), l, (uint64_t)r, bits / 8);
    }
    return true;
}
static bool exec_MIN(ExecCtx *x)
{
    if (isa_type_class(IN->type) == TC_PACKED)
        return packed16(x, P16_MIN);
    if (isa_type_class(IN->type) == TC_HALF)
        return half_apply(x, 2, (IN->flags & FL_NAN) ? h_min_nan : h_min);
    return isa_type_is_float(IN->type) ? float_op(x, FOP_MIN) : int_minmax(x, false);
}
static bool exec_MAX(ExecCtx *x)
{
    if (isa_type_class(IN->type) == TC_PACKED)
        return packed16(x, P16_MAX);
    if (isa_type_class(IN->type) == TC_HALF)
        return half_apply(x, 2, (IN->flags & FL_NAN) ? h_max_nan : h_max);
    return isa_type_is_float(IN->type) ? float_op(x, FOP_MAX) : int_minmax(x, true);
}
static bool exec_COPYSIGN(ExecCtx *x) { return float_op(x, FOP_COPYSIGN); }

static bool exec_TESTP(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        double v = IN->type == PTX_TYPE_F64 ? fp_f64_from_bits(SRC(1, l)) : (double)fp_f32_from_bits((uint32_t)SRC(1, l));
        bool r;
        switch (IN->mode) {
        case TESTP_FINITE: r = isfinite(v); break;
        case TESTP_INFINITE: r = isinf(v); break;
        case TESTP_NUMBER: r = !isnan(v); break;
        case TESTP_NOTANUMBER: r = isnan(v); break;
        case TESTP_NORMAL: /* sm_90 counts zero as normal: finite and not subnormal */
            r = isfinite(v) && (IN->type == PTX_TYPE_F64 ? fpclassify(v) != FP_SUBNORMAL
                                                          : fpclassify(fp_f32_from_bits((uint32_t)SRC(1, l))) != FP_SUBNORMAL);
            break;
        default:
            r = IN->type == PTX_TYPE_F64 ? fpclassify(v) == FP_SUBNORMAL
                                          : fpclassify(fp_f32_from_bits((uint32_t)SRC(1, l))) == FP_SUBNORMAL;
            break;
        }
        reg_write(x, DST(0), l, r, 1);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* special functions                                                    */

typedef enum { SF_RCP, SF_SQRT, SF_RSQRT, SF_SIN, SF_COS, SF_LG2, SF_EX2, SF_TANH } SpecialFn;

static bool special(ExecCtx *x, SpecialFn fn)
{
    int old = round_enter(IN->round);
    if (IN->type == PTX_TYPE_F64 && (IN->flags & FL_FTZ) && (fn == SF_RCP || fn == SF_RSQRT)) {
        FOR_LANES(x->exec, l)
            reg_write(x, DST(0), l, sfu_upper_f64(SRC(1, l), fn == SF_RSQRT), 8);
    } else if (IN->type == PTX_TYPE_F64) {
        FOR_LANES(x->exec, l) {
            double a = fp_f64_from_bits(SRC(1, l)), r;
            switch (fn) {
            case SF_RCP: r = 1.0 / a; break;
            case SF_SQRT: r = sqrt(a); break;
            case SF_RSQRT: r = sfu_rsqrt_f64(a); break;
            case SF_SIN: r = sin(a); break;
            case SF_COS: r = cos(a); break;
            case SF_LG2: r = log2(a); break;
            case SF_EX2: r = exp2(a); break;
            default: r = tanh(a); break;
            }
            reg_write(x, DST(0), l, f64_out_bits(x, fp_f64_arith_bits(r, SRC(1, l), 0, 0, false)), 8);
        }
    } else if (fn == SF_RSQRT || fn == SF_EX2 || ((fn == SF_RCP || fn == SF_SQRT) && (IN->flags & FL_APPROX))) {
        /* the GPU's own approximations (sfu.h) */
        uint32_t a[WARP_SIZE], r[WARP_SIZE];
        FOR_LANES(x->exec, l)
            a[l] = (uint32_t)SRC(1, l);
        SfuFn sf = fn == SF_RCP ? SFU_RCP : fn == SF_RSQRT ? SFU_RSQRT : fn == SF_SQRT ? SFU_SQRT : SFU_EX2;
        sfu_lanes(sf, IN->flags & FL_FTZ, x->exec, a, r);
        FOR_LANES(x->exec, l)
            reg_write(x, DST(0), l, r[l], 4);
    } else {
        FOR_LANES(x->exec, l) {
            float a = f32_in(x, SRC(1, l)), r;
            switch (fn) {
            case SF_RCP: r = 1.0f / a; break;
            case SF_SQRT: r = sqrtf(a); break;
            case SF_RSQRT: r = (float)(1.0 / sqrt((double)a)); break;
            case SF_SIN: r = sinf(a); break;
            case SF_COS: r = cosf(a); break;
            case SF_LG2: r = log2f(a); break;
            case SF_EX2: r = exp2f(a); break;
            default: r = tanhf(a); break;
            }
            reg_write(x, DST(0), l, f32_out(x, canon32(r)), 4);
        }
    }
    round_leave(IN->round, old);
    return true;
}
static bool exec_RCP(ExecCtx *x) { return special(x, SF_RCP); }
static bool exec_SQRT(ExecCtx *x) { return special(x, SF_SQRT); }
static bool exec_RSQRT(ExecCtx *x) { return special(x, SF_RSQRT); }
static bool exec_SIN(ExecCtx *x) { return special(x, SF_SIN); }
static bool exec_COS(ExecCtx *x) { return special(x, SF_COS); }
static bool exec_LG2(ExecCtx *x) { return special(x, SF_LG2); }
static bool exec_EX2(ExecCtx *x)
{
    return isa_type_class(IN->type) == TC_HALF ? half_apply(x, 1, h_ex2) : special(x, SF_EX2);
}
static bool exec_TANH(ExecCtx *x)
{
    return isa_type_class(IN->type) == TC_HALF ? half_apply(x, 1, h_tanh) : special(x, SF_TANH);
}

/* ------------------------------------------------------------------ */
/* comparison and selection                                             */

static bool compare(const ExecCtx *x, PtxType t, uint64_t a, uint64_t b)
{
    int cmp = IN->cmp;
    uint32_t cls = isa_type_class(t);
    if (cls == TC_FLOAT || cls == TC_HALF) {
        double fa, fb;
        if (t == PTX_TYPE_F64) {
            fa = fp_f64_from_bits(a);
            fb = fp_f64_from_bits(b);
        } else if (cls == TC_HALF) {
            fa = half_to_f32(t, (uint16_t)a);
            fb = half_to_f32(t, (uint16_t)b);
        } else {
            fa = f32_in(x, a);
            fb = f32_in(x, b);
        }
        bool unordered = isnan(fa) || isnan(fb);
        switch (cmp) {
        case CMP_EQ: return !unordered && fa == fb;
        case CMP_NE: return !unordered && fa != fb;
        case CMP_LT: case CMP_LO: return !unordered && fa < fb;
        case CMP_LE: case CMP_LS: return !unordered && fa <= fb;
        case CMP_GT: case CMP_HI: return !unordered && fa > fb;
        case CMP_GE: case CMP_HS: return !unordered && fa >= fb;
        case CMP_EQU: return unordered || fa == fb;
        case CMP_NEU: return unordered || fa != fb;
        case CMP_LTU: return unordered || fa < fb;
        case CMP_LEU: return unordered || fa <= fb;
        case CMP_GTU: return unordered || fa > fb;
        case CMP_GEU: return unordered || fa >= fb;
        case CMP_NUM: return !unordered;
        case CMP_NAN: return unordered;
        default: return false;
        }
    }
    unsigned bits = tbits(t);
    if (cls == TC_PRED) {
        a &= 1;
        b &= 1;
        bits = 1;
    }
    bool sgn = cls == TC_SINT;
    int64_t sa = fp_sext(a, bits), sb = fp_sext(b, bits);
    uint64_t ua = a & width_mask(bits), ub = b & width_mask(bits);
    switch (cmp) {
    case CMP_EQ: return ua == ub;
    case CMP_NE: return ua != ub;
    case CMP_LT: return sgn ? sa < sb : ua < ub;
    case CMP_LE: return sgn ? sa <= sb : ua <= ub;
    case CMP_GT: return sgn ? sa > sb : ua > ub;
    case CMP_GE: return sgn ? sa >= sb : ua >= ub;
    case CMP_LO: return ua < ub;
    case CMP_LS: return ua <= ub;
    case CMP_HI: return ua > ub;
    case CMP_HS: return ua >= ub;
    default: return false;
    }
}

static bool combine(int boolop, bool r, bool c)
{
    switch (boolop) {
    case BOOL_AND: return r && c;
    case BOOL_OR: return r || c;
    case BOOL_XOR: return r != c;
    default: return r;
    }
}

/* Half-pair comparisons compare each half on its own: setp writes the low
 * halves' result to p and the high halves' to q. */
static bool exec_SETP(ExecCtx *x)
{
    const Operand *d = &IN->opd[0];
    bool has_c = IN->nopd > 3, pair = is_pair(IN->type);
    FOR_LANES(x->exec, l) {
        bool r = compare(x, IN->type, SRC(1, l), SRC(2, l));
        bool c = has_c ? (SRC(3, l) & 1) : false;
        bool p = has_c ? combine(IN->boolop, r, c) : r;
        bool q = has_c ? combine(IN->boolop, !r, c) : !r;
        if (pair) {
            bool rh = compare(x, IN->type, SRC(1, l) >> 16, SRC(2, l) >> 16);
            q = has_c ? combine(IN->boolop, rh, c) : rh;
        }
        reg_write(x, d->reg, l, p, 1);
        if (d->kind == OPD_PAIR)
            reg_write(x, d->reg2, l, q, 1);
    }
    return true;
}

/* set's "true": 1.0 in a float destination, all ones in an integer one */
static uint64_t set_true(PtxType dt)
{
    switch (dt) {
    case PTX_TYPE_F32: return fp_f32_bits(1.0f);
    case PTX_TYPE_F16: case PTX_TYPE_F16X2: return 0x3C00;
    case PTX_TYPE_BF16: case PTX_TYPE_BF16X2: return 0x3F80;
    default: return ~0ull;
    }
}
static bool exec_SET(ExecCtx *x)
{
    bool has_c = IN->nopd > 3;
    PtxType dt = IN->type, st = IN->type2;
    unsigned parts = is_pair(st) ? 2 : 1;
    FOR_LANES(x->exec, l) {
        uint64_t v = 0;
        for (unsigned k = 0; k < parts; k++) { /* a half pair: each half by itself */
            bool r = compare(x, st, SRC(1, l) >> (16 * k), SRC(2, l) >> (16 * k));
            if (has_c)
                r = combine(IN->boolop, r, SRC(3, l) & 1);
            if (r)
                v |= (parts == 2 ? set_true(dt) & 0xFFFF : set_true(dt)) << (16 * k);
        }
        reg_write(x, DST(0), l, v, isa_type_size(dt));
    }
    return true;
}

static bool exec_SELP(ExecCtx *x)
{
    unsigned bytes = isa_type_size(IN->type);
    FOR_LANES(x->exec, l) reg_write(x, DST(0), l, (SRC(3, l) & 1) ? SRC(1, l) : SRC(2, l), bytes);
    return true;
}

static bool exec_SLCT(ExecCtx *x)
{
    unsigned bytes = isa_type_size(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t c = SRC(3, l);
        /* -0.0 counts as >= 0; NaN does not */
        bool ge = IN->type2 == PTX_TYPE_F32 ? f32_in(x, c) >= 0.0f : fp_sext(c, 32) >= 0;
        reg_write(x, DST(0), l, ge ? SRC(1, l) : SRC(2, l), bytes);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* logic and bits                                                       */

typedef enum { LOG_AND, LOG_OR, LOG_XOR } LogicOp;

static bool logic(ExecCtx *x, LogicOp op)
{
    unsigned bytes = isa_type_size(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t a = SRC(1, l), b = SRC(2, l);
        uint64_t r = op == LOG_AND ? a & b : op == LOG_OR ? a | b : a ^ b;
        if (IN->type == PTX_TYPE_PRED)
            r &= 1;
        reg_write(x, DST(0), l, r, bytes);
    }
    return true;
}
static bool exec_AND(ExecCtx *x) { return logic(x, LOG_AND); }
static bool exec_OR(ExecCtx *x) { return logic(x, LOG_OR); }
static bool exec_XOR(ExecCtx *x) { return logic(x, LOG_XOR); }
static bool exec_NOT(ExecCtx *x)
{
    unsigned bytes = isa_type_size(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t r = ~SRC(1, l);
        reg_write(x, DST(0), l, IN->type == PTX_TYPE_PRED ? r & 1 : r, bytes);
    }
    return true;
}
static bool exec_CNOT(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) reg_write(x, DST(0), l, (SRC(1, l) & width_mask(bits)) == 0, bits / 8);
    return true;
}
static bool exec_LOP3(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t a = SRC(1, l), b = SRC(2, l), c = SRC(3, l), lut = SRC(4, l) & 0xFF, r = 0;
        for (unsigned i = 0; i < bits; i++) {
            unsigned idx = (unsigned)(((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1));
            r |= ((lut >> idx) & 1) << i;
        }
        reg_write(x, DST(0), l, r, bits / 8);
    }
    return true;
}
static bool exec_SHL(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint32_t n = (uint32_t)SRC(2, l);
        reg_write(x, DST(0), l, n >= bits ? 0 : SRC(1, l) << n, bits / 8);
    }
    return true;
}
static bool exec_SHR(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint32_t n = (uint32_t)SRC(2, l);
        uint64_t r;
        if (tsigned(IN->type)) {
            int64_t s = fp_sext(SRC(1, l), bits);
            r = (uint64_t)(s >> (n >= bits ? bits - 1 : n));
        } else {
            r = n >= bits ? 0 : (SRC(1, l) & width_mask(bits)) >> n;
        }
        reg_write(x, DST(0), l, r, bits / 8);
    }
    return true;
}
static bool exec_SHF(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        uint64_t lo = SRC(1, l) & 0xFFFFFFFF, hi = SRC(2, l) & 0xFFFFFFFF;
        uint32_t c = (uint32_t)SRC(3, l);
        uint32_t n = (IN->flags & FL_CLAMP) ? (c > 32 ? 32 : c) : (c & 31);
        uint64_t v = hi << 32 | lo, r;
        if (IN->mode == SHF_L)
            r = n == 0 ? hi : (v << n) >> 32;
        else
            r = (v >> n) & 0xFFFFFFFF;
        reg_write(x, DST(0), l, r, 4);
    }
    return true;
}
static bool exec_POPC(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) reg_write(x, DST(0), l, (uint64_t)__builtin_popcountll(SRC(1, l) & width_mask(bits)), 4);
    return true;
}
static bool exec_CLZ(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t v = SRC(1, l) & width_mask(bits);
        uint64_t r = v == 0 ? bits : (uint64_t)(__builtin_clzll(v) - (64 - (int)bits));
        reg_write(x, DST(0), l, r, 4);
    }
    return true;
}
static bool exec_BFIND(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t v = SRC(1, l) & width_mask(bits);
        if (tsigned(IN->type) && ((v >> (bits - 1)) & 1))
            v = ~v & width_mask(bits);
        uint64_t r;
        if (v == 0)
            r = 0xFFFFFFFF;
        else {
            unsigned pos = 63u - (unsigned)__builtin_clzll(v);
            r = (IN->flags & FL_SHIFTAMT) ? bits - 1 - pos : pos;
        }
        reg_write(x, DST(0), l, r, 4);
    }
    return true;
}
static bool exec_BREV(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t v = SRC(1, l), r = 0;
        for (unsigned i = 0; i < bits; i++)
            r |= ((v >> i) & 1) << (bits - 1 - i);
        reg_write(x, DST(0), l, r, bits / 8);
    }
    return true;
}
/* bfe and bfi take the low 8 bits of a 32-bit form's position and length,
 * as the ISA says; the H200 runs the 64-bit forms on the whole 32-bit
 * values (tools/gpu-check/op_sweep.py, 2026-11-22: a length of 256 takes
 * every bit, a position of 256 none) */
static inline uint64_t bitfield_arg(unsigned bits, uint64_t v)
{
    return bits == 64 ? (uint32_t)v : (uint32_t)v & 0xFF;
}
static bool exec_BFE(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t a = SRC(1, l);
        uint64_t pos = bitfield_arg(bits, SRC(2, l)), len = bitfield_arg(bits, SRC(3, l));
        unsigned msb = bits - 1;
        uint64_t sbit = 0;
        if (tsigned(IN->type) && len != 0) {
            uint64_t top = pos + len - 1 > msb ? msb : pos + len - 1;
            sbit = (a >> top) & 1;
        }
        uint64_t r = 0;
        for (unsigned i = 0; i <= msb; i++) {
            uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
            r |= bit << i;
        }
        reg_write(x, DST(0), l, r, bits / 8);
    }
    return true;
}
static bool exec_BFI(ExecCtx *x)
{
    unsigned bits = tbits(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t a = SRC(1, l), f = SRC(2, l);
        uint64_t pos = bitfield_arg(bits, SRC(3, l)), len = bitfield_arg(bits, SRC(4, l));
        for (uint64_t i = 0; i < len && pos + i < bits; i++)
            f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
        reg_write(x, DST(0), l, f, bits / 8);
    }
    return true;
}

/* byte selectors of the prmt modes, listed for result bytes 0..3 */
static const uint8_t prmt_modes[7][4][4] = {
    [PRMT_F4E] = {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    [PRMT_B4E] = {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    [PRMT_RC8] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    [PRMT_ECL] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    [PRMT_ECR] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    [PRMT_RC16] = {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};
static bool exec_PRMT(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        uint64_t v = (SRC(2, l) & 0xFFFFFFFF) << 32 | (SRC(1, l) & 0xFFFFFFFF);
        uint32_t c = (uint32_t)SRC(3, l), r = 0;
        for (unsigned i = 0; i < 4; i++) {
            uint32_t byte;
            if (IN->mode == PRMT_DEFAULT) {
                uint32_t sel = (c >> (4 * i)) & 0xF;
                byte = (uint32_t)(v >> (8 * (sel & 7))) & 0xFF;
                if (sel & 8)
                    byte = (byte & 0x80) ? 0xFF : 0;
            } else {
                byte = (uint32_t)(v >> (8 * prmt_modes[IN->mode][c & 3][i])) & 0xFF;
            }
            r |= byte << (8 * i);
        }
        reg_write(x, DST(0), l, r, 4);
    }
    return true;
}

/* fns: PTX ISA pseudo-code; a base above 31 (undefined) finds nothing. */
static uint32_t find_nth_set(uint32_t mask, uint32_t base, int32_t offset)
{
    if (base > 31)
        return 0xFFFFFFFFu;
    if (offset == 0)
        return ((mask >> base) & 1) ? base : 0xFFFFFFFFu;
    int64_t count = offset > 0 ? (int64_t)offset - 1 : -(int64_t)offset - 1;
    int step = offset > 0 ? 1 : -1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += step) {
        if (!((mask >> pos) & 1))
            continue;
        if (count-- == 0)
            return (uint32_t)pos;
    }
    return 0xFFFFFFFFu;
}
static bool exec_FNS(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        uint32_t r = find_nth_set((uint32_t)SRC(1, l), (uint32_t)SRC(2, l), (int32_t)(uint32_t)SRC(3, l));
        reg_write(x, DST(0), l, r, 4);
    }
    return true;
}

/* bmsk and szext take exactly one of .clamp and .wrap (the shf group they
 * borrow also spells .l and .r, which they do not take) and 32-bit types. */
static bool clamp_wrap_ok(ExecCtx *x, const char *name)
{
    uint32_t cw = IN->flags & (FL_CLAMP | FL_WRAP);
    if ((cw == FL_CLAMP || cw == FL_WRAP) && IN->mode == 0 && isa_type_size(IN->type) == 4)
        return true;
    return exec_fault(x, x->exec ? (uint32_t)__builtin_ctz(x->exec) : 0,
                      "%s needs exactly one of .clamp and .wrap, no .l/.r, and a 32-bit type", name);
}
static bool exec_BMSK(ExecCtx *x)
{
    if (!clamp_wrap_ok(x, "bmsk"))
        return false;
    bool clamp = IN->flags & FL_CLAMP;
    FOR_LANES(x->exec, l) {
        uint32_t a = (uint32_t)SRC(1, l), b = (uint32_t)SRC(2, l);
        uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
        uint32_t mask0 = ~0u << a1;
        uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
        if (clamp && a >= 32)
            mask0 = 0;
        if (sum >= 32 || (clamp && (a >= 32 || b >= 32)))
            mask1 = 0;
        else if (b1 == 0)
            mask1 = ~0u;
        reg_write(x, DST(0), l, mask0 & ~mask1, 4);
    }
    return true;
}
static bool exec_SZEXT(ExecCtx *x)
{
    if (!clamp_wrap_ok(x, "szext"))
        return false;
    bool clamp = IN->flags & FL_CLAMP, sgn = tsigned(IN->type);
    FOR_LANES(x->exec, l) {
        uint32_t a = (uint32_t)SRC(1, l), b = (uint32_t)SRC(2, l);
        uint32_t n = b & 31;
        bool too_large = clamp && b >= 32;
        uint32_t keep = too_large ? ~0u : n == 0 ? 0 : ~0u >> (32 - n); /* the bits of a that stay */
        bool sign = sgn && n != 0 && !too_large && ((a >> (n - 1)) & 1);
        reg_write(x, DST(0), l, (a & keep) | (sign ? ~keep : 0), 4);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* moves and conversions                                                */

static bool exec_MOV(ExecCtx *x)
{
    const Operand *d = &IN->opd[0], *s = &IN->opd[1];
    unsigned bytes = isa_type_size(IN->type);
    if (IN->type == PTX_TYPE_PRED)
        bytes = 1;
    if (s->kind == OPD_VEC) { /* pack {a, b, ...} into one register */
        unsigned ebits = bytes * 8 / s->vec_count;
        FOR_LANES(x->exec, l) {
            uint64_t r = 0;
            for (unsigned k = 0; k < s->vec_count; k++)
                if (s->vec_regs[k] != NO_INDEX)
                    r |= (*reg_slot(x, s->vec_regs[k], l) & width_mask(ebits)) << (k * ebits);
            reg_write(x, d->reg, l, r, bytes);
        }
        return true;
    }
    if (d->kind == OPD_VEC) { /* unpack */
        unsigned ebits = bytes * 8 / d->vec_count;
        FOR_LANES(x->exec, l) {
            uint64_t v = SRC(1, l);
            for (unsigned k = 0; k < d->vec_count; k++)
                reg_write(x, d->vec_regs[k], l, v >> (k * ebits), ebits / 8);
        }
        return true;
    }
    FOR_LANES(x->exec, l) reg_write(x, d->reg, l, SRC(1, l), bytes);
    return true;
}

/* .satfinite on a 16-bit float result: an infinity the rounding produced
 * becomes the largest finite value of its sign (NaN stays NaN). */
static uint64_t half_satfinite(const ExecCtx *x, PtxType t, uint64_t h)
{
    bool bf = t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2;
    uint16_t inf = bf ? 0x7F80 : 0x7C00;
    if ((IN->flags & FL_SATFINITE) && (h & 0x7FFF) == inf)
        return (h & 0x8000) | (uint16_t)(inf - 1);
    return h;
}

static uint64_t cvt_one(const ExecCtx *x, uint64_t v)
{
    PtxType dt = IN->type, st = IN->type2;
    uint32_t dc = isa_type_class(dt), sc = isa_type_class(st);
    unsigned dbits = tbits(dt), sbits = tbits(st);
    bool dfloat = dc == TC_FLOAT || dc == TC_HALF, sfloat = sc == TC_FLOAT || sc == TC_HALF;
    int rnd = IN->round;
    if (!sfloat && !dfloat) {
        if (dt == PTX_TYPE_PRED || st == PTX_TYPE_PRED)
            return v & 1;
        __int128 val = sc == TC_SINT ? (__int128)fp_sext(v, sbits) : (__int128)(v & width_mask(sbits));
        if (IN->flags & FL_SAT) {
            __int128 hi, lo;
            if (dc == TC_SINT) {
                hi = ((__int128)1 << (dbits - 1)) - 1;
                lo = -hi - 1;
            } else {
                hi = ((__int128)1 << dbits) - 1;
                lo = 0;
            }
            val = val > hi ? hi : val < lo ? lo : val;
        }
        return (uint64_t)val;
    }
    if (!sfloat) { /* integer to float */
        bool sgn = sc == TC_SINT;
        int64_t sv = fp_sext(v, sbits);
        uint64_t uv = v & width_mask(sbits);
        if (dt == PTX_TYPE_F64)
            return fp_f64_bits(sgn ? fp_i64_to_f64(sv, rnd) : fp_u64_to_f64(uv, rnd));
        float f = sgn ? fp_i64_to_f32(sv, rnd) : fp_u64_to_f32(uv, rnd);
        if (dt == PTX_TYPE_F32)
            return f32_out(x, f);
        if (dt == PTX_TYPE_BF16)
            return sgn ? fp_i64_to_bf16(sv, rnd) : fp_u64_to_bf16(uv, rnd);
        return sgn ? fp_i64_to_f16(sv, rnd) : fp_u64_to_f16(uv, rnd);
    }
    /* a 16-bit float's NaN, widened: bf16 to f32 is a shift, payload and
     * all; f16 to f64 keeps the payload too, quieted (the H200; f16 to f32
     * gives the canonical NaN, fp_f16_to_f32) */
    if (sc == TC_HALF && (IN->flags & FL_FTZ) == 0) {
        uint16_t h = (uint16_t)v;
        if (st == PTX_TYPE_BF16 && dt == PTX_TYPE_F32 && (h & 0x7F80u) == 0x7F80u && (h & 0x7Fu))
            return (uint64_t)h << 16;
        if (st == PTX_TYPE_F16 && dt == PTX_TYPE_F64 && (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu))
            return (uint64_t)(h & 0x8000u) << 48 | UINT64_C(0x7FF8000000000000) | (uint64_t)(h & 0x3FFu) << 42;
    }
    /* float source, as a double (exact for every source type) */
    double s;
    if (st == PTX_TYPE_F64)
        s = fp_f64_from_bits(v);
    else if (st == PTX_TYPE_F32)
        s = f32_in(x, v);
    else
        s = half_to_f32(st, (uint16_t)v);
    if (!dfloat) { /* float to integer: saturating, NaN to 0 */
        int irnd = rnd == RND_NONE ? RND_RZI : rnd;
        if (st == PTX_TYPE_F64)
            return dc == TC_SINT ? (uint64_t)fp_f64_to_sint(s, irnd, dbits) : fp_f64_to_uint(s, irnd, dbits);
        return dc == TC_SINT ? (uint64_t)fp_f32_to_sint((float)s, irnd, dbits)
                             : fp_f32_to_uint((float)s, irnd, dbits);
    }
    if (dc == TC_HALF)
        s = relu(x, s);
    bool integral = rnd == RND_RNI || rnd == RND_RZI || rnd == RND_RMI || rnd == RND_RPI;
    bool from_f64 = st == PTX_TYPE_F64;
    float sf = (float)s; /* exact unless the source is f64 */
    if (integral && !from_f64)
        sf = fp_round_integral_f32(sf, rnd);
    if (integral && from_f64)
        s = fp_round_integral(s, rnd);
    int frnd = integral ? RND_RN : rnd;
    switch (dt) {
    case PTX_TYPE_F64:
        return f64_out(x, from_f64 ? s : (double)sf);
    case PTX_TYPE_F32:
        if (from_f64 && isnan(s)) /* the payload's top bits survive, quieted */
            return fp_f64_nan_to_f32(v);
        return f32_out(x, from_f64 && !integral ? fp_f64_to_f32(s, rnd) : from_f64 ? (float)s : sf);
    case PTX_TYPE_BF16:
        if (from_f64)
            return half_satfinite(x, dt, fp_f64_to_bf16((IN->flags & FL_SAT) ? fp_sat64(s) : s, frnd));
        return half_satfinite(x, dt, fp_f32_to_bf16((IN->flags & FL_SAT) ? fp_sat32(sf) : sf, frnd));
    default:
        if (from_f64)
            return half_satfinite(x, dt, fp_f64_to_f16((IN->flags & FL_SAT) ? fp_sat64(s) : s, frnd));
        return half_satfinite(x, dt, fp_f32_to_f16((IN->flags & FL_SAT) ? fp_sat32(sf) : sf, frnd));
    }
}

/* cvt.rna.tf32.f32 as the H200 does it (op_sweep.py, 2026-11-25): the
 * magnitude rounded to 10 mantissa bits, ties away from zero, carrying
 * into the exponent (the largest finite becomes infinity); a NaN keeps
 * its upper payload bits, truncated (0x7F800001 becomes infinity). */
static uint64_t tf32_rna(uint32_t v)
{
    if ((v & 0x7F800000u) == 0x7F800000u)
        return v & ~0x1FFFu;
    return (v & 0x80000000u) | (((v & 0x7FFFFFFFu) + 0x1000u) & ~0x1FFFu);
}

static bool exec_CVT(ExecCtx *x)
{
    PtxType dt = IN->type;
    if (dt == PTX_TYPE_TF32) {
        if (IN->type2 != PTX_TYPE_F32 || IN->round != RND_RNA || (IN->flags & (FL_RELU | FL_SAT)))
            return exec_fault(x, x->exec ? (uint32_t)__builtin_ctz(x->exec) : 0,
                              "cvt to .tf32: only cvt.rna.tf32.f32 is supported (the form measured on the H200)");
        FOR_LANES(x->exec, l)
            reg_write(x, DST(0), l, tf32_rna((uint32_t)SRC(1, l)), 4);
        return true;
    }
    unsigned dbytes = dt == PTX_TYPE_PRED ? 1 : isa_type_size(dt);
    if (IN->nopd == 3 && is_pair(dt)) { /* cvt.rn.f16x2.f32 d, hi, lo */
        FOR_LANES(x->exec, l) {
            float hi = (float)relu(x, fp_f32_from_bits((uint32_t)SRC(1, l)));
            float lo = (float)relu(x, fp_f32_from_bits((uint32_t)SRC(2, l)));
            int rnd = IN->round == RND_NONE ? RND_RN : IN->round;
            uint64_t h = dt == PTX_TYPE_BF16X2 ? fp_f32_to_bf16(hi, rnd) : fp_f32_to_f16(hi, rnd);
            uint64_t lw = dt == PTX_TYPE_BF16X2 ? fp_f32_to_bf16(lo, rnd) : fp_f32_to_f16(lo, rnd);
            h = half_satfinite(x, dt, h);
            lw = half_satfinite(x, dt, lw);
            reg_write(x, DST(0), l, h << 16 | lw, 4);
        }
        return true;
    }
    FOR_LANES(x->exec, l) {
        uint64_t r = cvt_one(x, SRC(1, l));
        /* integer results narrower than the destination register are
         * sign-extended for signed types, as the register holds them */
        if (isa_type_class(dt) == TC_SINT && dbytes < 8)
            r = (uint64_t)fp_sext(r, dbytes * 8);
        *reg_slot(x, DST(0), l) = isa_type_class(dt) == TC_SINT ? r : r & width_mask(dbytes * 8);
    }
    return true;
}

static uint64_t window_base(PtxSpace s)
{
    switch (s) {
    case SPACE_SHARED: return SHARED_WINDOW_BASE;
    case SPACE_LOCAL: return LOCAL_WINDOW_BASE;
    case SPACE_CONST: return CONST_WINDOW_BASE;
    case SPACE_PARAM: return PARAM_WINDOW_BASE;
    default: return 0;
    }
}

static bool exec_CVTA(ExecCtx *x)
{
    uint64_t base = window_base(IN->space);
    unsigned bytes = isa_type_size(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t a = SRC(1, l);
        reg_write(x, DST(0), l, (IN->flags & FL_TO) ? a - base : a + base, bytes);
    }
    return true;
}

static bool exec_ISSPACEP(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        uint64_t a = SRC(1, l);
        bool r;
        switch (IN->space) {
        case SPACE_SHARED: r = a >= SHARED_WINDOW_BASE && a < GENERIC_WINDOWS_END; break;
        case SPACE_LOCAL: r = a >= LOCAL_WINDOW_BASE && a < SHARED_WINDOW_BASE; break;
        case SPACE_CONST: r = a >= CONST_WINDOW_BASE && a < PARAM_WINDOW_BASE; break;
        case SPACE_PARAM: r = a >= PARAM_WINDOW_BASE && a < LOCAL_WINDOW_BASE; break;
        default: r = a < GENERIC_WINDOWS_BASE || a >= GLOBAL_HIGH_BASE; break;
        }
        reg_write(x, DST(0), l, r, 1);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* memory                                                               */

static bool do_load(ExecCtx *x)
{
    const Operand *d = &IN->opd[0], *m = &IN->opd[1];
    unsigned esz = IN->type == PTX_TYPE_PRED ? 1 : isa_type_size(IN->type);
    unsigned n = IN->vec ? IN->vec : 1;
    bool sgn = tsigned(IN->type);
    FOR_LANES(x->exec, l) {
        uint64_t addr = opd_address(x, m, l);
        uint8_t *p = mem_access(x, IN->space, m, addr, esz * n, l, false);
        if (!p)
            return false;
        if (d->kind == OPD_VEC) {
            for (unsigned k = 0; k < d->vec_count; k++)
                if (d->vec_regs[k] != NO_INDEX)
                    *reg_slot(x, d->vec_regs[k], l) = load_bits(p + k * esz, esz, sgn);
        } else if (esz <= 8) {
            *reg_slot(x, d->reg, l) = load_bits(p, esz, sgn);
        } else {
            return exec_fault(x, l, "%u-byte scalar loads are not supported", esz);
        }
    }
    return true;
}
static bool exec_LD(ExecCtx *x) { return do_load(x); }
/* ldu promises one address for the whole warp (the hardware broadcasts
 * it); lanes that disagree are a compiler bug, reported as such. */
static bool exec_LDU(ExecCtx *x)
{
    if (x->exec != 0) {
        uint32_t first = (uint32_t)__builtin_ctz(x->exec);
        uint64_t addr = opd_address(x, &IN->opd[1], first);
        FOR_LANES(x->exec, l) {
            uint64_t other = opd_address(x, &IN->opd[1], l);
            if (other != addr) {
                if (!exec_report(x, l,
                                 "PTX contract violation: ldu whose lanes load different addresses "
                                 "(lane %u: 0x%" G_GINT64_MODIFIER "x, lane %u: 0x%" G_GINT64_MODIFIER "x); "
                                 "ldu requires one address for the warp", first, addr, l, other))
                    return false;
                break;
            }
        }
    }
    return do_load(x);
}

/* Element k of a source operand that may be a vector ({a, b, ...}):
 * operand i, element k (a missing one `_` reads as 0). */
static uint64_t vec_src(ExecCtx *x, const Operand *o, uint32_t i, uint32_t k, uint32_t lane)
{
    if (o->kind != OPD_VEC)
        return SRC(i, lane);
    return o->vec_regs[k] != NO_INDEX ? *reg_slot(x, o->vec_regs[k], lane) : 0;
}

static bool exec_ST(ExecCtx *x)
{
    const Operand *m = &IN->opd[0], *s = &IN->opd[1];
    unsigned esz = IN->type == PTX_TYPE_PRED ? 1 : isa_type_size(IN->type);
    unsigned n = IN->vec ? IN->vec : 1;
    FOR_LANES(x->exec, l) {
        uint64_t addr = opd_address(x, m, l);
        uint8_t *p = mem_access(x, IN->space, m, addr, esz * n, l, true);
        if (!p)
            return false;
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = vec_src(x, s, 1, k, l);
            memcpy(p + k * esz, &v, esz);
        }
    }
    return true;
}

static bool exec_PREFETCH(ExecCtx *x) { (void)x; return true; }
static bool exec_PREFETCHU(ExecCtx *x) { (void)x; return true; }

/* one atomic read-modify-write; returns the old value and notes in
 * *changed whether the bytes at p are now different */
static uint64_t atomic_apply(const ExecCtx *x, uint8_t *p, uint64_t b, uint64_t c, bool *changed)
{
    PtxType t = IN->type;
    unsigned size = isa_type_size(t), bits = size * 8;
    uint64_t old = 0, r;
    memcpy(&old, p, size);
    switch (IN->atom) {
    case ATOM_ADD:
        if (isa_type_class(t) == TC_HALF) { /* .noftz: each half rounded to nearest, nothing flushed */
            r = 0;
            for (unsigned k = 0; k < size / 2; k++) {
                double v = (double)half_to_f32(t, (uint16_t)(old >> (16 * k))) +
                           half_to_f32(t, (uint16_t)(b >> (16 * k)));
                r |= (uint64_t)f64_to_half(t, v) << (16 * k);
            }
        } else if (t == PTX_TYPE_F32)
            r = fp_f32_bits(fp_ftz32(fp_ftz32(fp_f32_from_bits((uint32_t)old)) + fp_ftz32(fp_f32_from_bits((uint32_t)b))));
        else if (t == PTX_TYPE_F64)
            r = fp_f64_bits(fp_f64_from_bits(old) + fp_f64_from_bits(b));
        else
            r = old + b;
        break;
    case ATOM_MIN:
    case ATOM_MAX: {
        bool is_max = IN->atom == ATOM_MAX;
        if (t == PTX_TYPE_F32) {
            float a = fp_f32_from_bits((uint32_t)old), v = fp_f32_from_bits((uint32_t)b);
            r = fp_f32_bits(is_max ? fp_max32(a, v, false) : fp_min32(a, v, false));
        } else if (t == PTX_TYPE_F64) {
            double a = fp_f64_from_bits(old), v = fp_f64_from_bits(b);
            r = fp_f64_bits(is_max ? fp_max64(a, v, false) : fp_min64(a, v, false));
        } else if (tsigned(t)) {
            int64_t a = fp_sext(old, bits), v = fp_sext(b, bits);
            r = (uint64_t)(is_max ? (a > v ? a : v) : (a < v ? a : v));
        } else {
            uint64_t a = old & width_mask(bits), v = b & width_mask(bits);
            r = is_max ? (a > v ? a : v) : (a < v ? a : v);
        }
        break;
    }
    case ATOM_INC: {
        uint64_t a = old & width_mask(bits), v = b & width_mask(bits);
        r = a >= v ? 0 : a + 1;
        break;
    }
    case ATOM_DEC: {
        uint64_t a = old & width_mask(bits), v = b & width_mask(bits);
        r = (a == 0 || a > v) ? v : a - 1;
        break;
    }
    case ATOM_EXCH: r = b; break;
    case ATOM_CAS: r = (old & width_mask(bits)) == (b & width_mask(bits)) ? c : old; break;
    case ATOM_AND: r = old & b; break;
    case ATOM_OR: r = old | b; break;
    case ATOM_XOR: r = old ^ b; break;
    default: r = old; break;
    }
    *changed |= ((r ^ old) & width_mask(bits)) != 0;
    memcpy(p, &r, size);
    return old;
}

/* 16-bit float atomics and vector ones (atom.add.v4.f32) exist for add
 * alone */
static bool atomic_form_ok(ExecCtx *x)
{
    bool vector = IN->vec > 1;
    if ((isa_type_class(IN->type) != TC_HALF && !vector) || IN->atom == ATOM_ADD || !x->exec)
        return true;
    return exec_fault(x, (uint32_t)__builtin_ctz(x->exec), "%s.v%u.%s: %s atomics only add",
                      isa_ops[IN->op].name, IN->vec, isa_types[IN->type].spelling,
                      vector ? "vector" : "16-bit float");
}

static bool exec_ATOM(ExecCtx *x)
{
    if (!atomic_form_ok(x))
        return false;
    const Operand *m = &IN->opd[1], *d = &IN->opd[0];
    unsigned size = isa_type_size(IN->type), n = IN->vec > 1 ? IN->vec : 1;
    bool changed = false;
    FOR_LANES(x->exec, l) { /* lanes in order: a deterministic serialisation */
        uint64_t addr = opd_address(x, m, l);
        uint8_t *p = mem_access(x, IN->space, m, addr, size * n, l, true);
        if (!p)
            return false;
        if (n > 1) { /* one access, element by element */
            for (unsigned k = 0; k < n; k++) {
                uint64_t old = atomic_apply(x, p + k * size, vec_src(x, &IN->opd[2], 2, k, l), 0, &changed);
                reg_write(x, d->vec_regs[k], l, old, size); /* the parser made d a vector of n */
            }
            continue;
        }
        uint64_t old = atomic_apply(x, p, SRC(2, l), IN->nopd > 3 ? SRC(3, l) : 0, &changed);
        reg_write(x, DST(0), l, tsigned(IN->type) ? (uint64_t)fp_sext(old, size * 8) : old, size);
    }
    x->wrote_nothing = !changed;
    return true;
}

static bool exec_RED(ExecCtx *x)
{
    if (!atomic_form_ok(x))
        return false;
    const Operand *m = &IN->opd[0];
    unsigned size = isa_type_size(IN->type), n = IN->vec > 1 ? IN->vec : 1;
    bool changed = false;
    FOR_LANES(x->exec, l) {
        uint64_t addr = opd_address(x, m, l);
        uint8_t *p = mem_access(x, IN->space, m, addr, size * n, l, true);
        if (!p)
            return false;
        for (unsigned k = 0; k < n; k++)
            atomic_apply(x, p + k * size, vec_src(x, &IN->opd[1], 1, k, l), 0, &changed);
    }
    x->wrote_nothing = !changed;
    return true;
}

static bool exec_MEMBAR(ExecCtx *x) { (void)x; return true; }
static bool exec_FENCE(ExecCtx *x) { (void)x; return true; }
static bool exec_NANOSLEEP(ExecCtx *x) { (void)x; return true; }
static bool exec_GRIDDEP_LAUNCH(ExecCtx *x) { (void)x; return true; }
static bool exec_GRIDDEP_WAIT(ExecCtx *x) { (void)x; return true; }

/* A GPU with no debugger attached stops the launch at a breakpoint. */
static bool exec_BRKPT(ExecCtx *x)
{
    if (x->exec == 0)
        return true;
    return exec_fault(x, (uint32_t)__builtin_ctz(x->exec), "brkpt executed: a breakpoint, which stops the launch "
                      "when no debugger is attached");
}

/* ------------------------------------------------------------------ */
/* warp-wide operations: they see exactly the lanes executing them       */

/* A lane of a .sync warp operation outside its own member mask: the ISA
 * leaves the result undefined, so it is a contract violation.  Each lane's
 * group is its own mask's executing lanes: the tiles of a partitioned warp
 * pass different masks to one instruction. */
static bool member_of_own_mask(ExecCtx *x, const char *name, uint32_t lane, uint32_t mask)
{
    if ((mask >> lane) & 1)
        return true;
    return exec_report(x, lane, "PTX contract violation: %s executed by lane %u, which its membermask 0x%08x "
                       "does not include", name, lane, mask);
}

/* Each lane votes among the executing lanes of its own member mask (the
 * tiles of a partitioned warp pass different masks to one instruction);
 * vote without .sync (no mask operand) among all the executing lanes. */
static bool exec_VOTE(ExecCtx *x)
{
    uint32_t ballot = 0;
    FOR_LANES(x->exec, l) {
        if (SRC(1, l) & 1)
            ballot |= 1u << l;
    }
    bool has_mask = IN->nopd > 2;
    unsigned bytes = IN->mode == VOTE_BALLOT ? 4 : 1;
    FOR_LANES(x->exec, l) {
        uint32_t group = x->exec;
        if (has_mask) {
            uint32_t mask = (uint32_t)SRC(2, l);
            if (!member_of_own_mask(x, "vote.sync", l, mask))
                return false;
            group &= mask;
        }
        uint32_t votes = ballot & group;
        uint64_t r;
        switch (IN->mode) {
        case VOTE_ALL: r = votes == group; break;
        case VOTE_ANY: r = votes != 0; break;
        case VOTE_UNI: r = votes == 0 || votes == group; break;
        default: r = votes; break;
        }
        reg_write(x, DST(0), l, r, bytes);
    }
    return true;
}

static bool exec_SHFL(ExecCtx *x)
{
    const Operand *d = &IN->opd[0];
    uint64_t src[WARP_SIZE];
    FOR_LANES(x->active, l) src[l] = SRC(1, l);
    uint64_t out[WARP_SIZE];
    uint32_t valid = 0;
    FOR_LANES(x->exec, l) {
        uint32_t b = (uint32_t)SRC(2, l) & 31, c = (uint32_t)SRC(3, l);
        uint32_t cval = c & 31, segmask = (c >> 8) & 31;
        uint32_t max_lane = (l & segmask) | (cval & ~segmask), min_lane = l & segmask;
        int32_t j;
        bool p;
        switch (IN->mode) {
        case SHFL_UP: j = (int32_t)l - (int32_t)b; p = j >= (int32_t)max_lane; break;
        case SHFL_DOWN: j = (int32_t)(l + b); p = j <= (int32_t)max_lane; break;
        case SHFL_BFLY: j = (int32_t)(l ^ b); p = j <= (int32_t)max_lane; break;
        default: j = (int32_t)(min_lane | (b & ~segmask)); p = j <= (int32_t)max_lane; break;
        }
        if (!p)
            j = (int32_t)l;
        if (!((x->active >> j) & 1))
            src[j] = SRC(1, (uint32_t)j); /* an inactive source lane: its register, as read */
        out[l] = src[j];
        if (p)
            valid |= 1u << l;
    }
    FOR_LANES(x->exec, l) {
        reg_write(x, d->reg, l, out[l], 4);
        if (d->kind == OPD_PAIR)
            reg_write(x, d->reg2, l, (valid >> l) & 1, 1);
    }
    return true;
}

static bool exec_ACTIVEMASK(ExecCtx *x)
{
    FOR_LANES(x->exec, l) reg_write(x, DST(0), l, x->exec, 4);
    return true;
}

/* Among the executing lanes of each lane's own member mask, as vote. */
static bool exec_MATCH(ExecCtx *x)
{
    const Operand *d = &IN->opd[0];
    unsigned bytes = isa_type_size(IN->type);
    uint64_t v[WARP_SIZE];
    FOR_LANES(x->exec, l) v[l] = SRC(1, l) & width_mask(bytes * 8);
    FOR_LANES(x->exec, l) {
        uint32_t mask = (uint32_t)SRC(2, l);
        if (!member_of_own_mask(x, "match.sync", l, mask))
            return false;
        uint32_t group = mask & x->exec, same = 0;
        FOR_LANES(group, k) {
            if (v[k] == v[l])
                same |= 1u << k;
        }
        bool all = same == group;
        uint64_t r = IN->mode == MATCH_ALL ? (all ? group : 0) : same;
        reg_write(x, d->reg, l, r, 4);
        if (d->kind == OPD_PAIR)
            reg_write(x, d->reg2, l, all, 1);
    }
    return true;
}

static bool exec_REDUX(ExecCtx *x)
{
    PtxType t = IN->type;
    int op = IN->atom;
    bool bitwise = op == ATOM_AND || op == ATOM_OR || op == ATOM_XOR;
    uint32_t first = x->exec ? (uint32_t)__builtin_ctz(x->exec) : 0;
    if (op == ATOM_NONE)
        return exec_fault(x, first, "redux.sync needs an operation (.add .min .max .and .or .xor)");
    if (isa_type_size(t) != 4 || bitwise != (t == PTX_TYPE_B32))
        return exec_fault(x, first, "redux.sync takes .u32/.s32 with .add/.min/.max and .b32 with .and/.or/.xor, "
                          "not this combination with .%s", isa_types[t].spelling);
    uint32_t v[WARP_SIZE], mask[WARP_SIZE], r[WARP_SIZE];
    FOR_LANES(x->exec, l) {
        v[l] = (uint32_t)SRC(1, l);
        mask[l] = (uint32_t)SRC(2, l);
    }
    bool sgn = t == PTX_TYPE_S32;
    FOR_LANES(x->exec, l) {
        if (!member_of_own_mask(x, "redux.sync", l, mask[l]))
            return false;
        uint32_t acc = op == ATOM_AND ? ~0u : op == ATOM_MIN ? (sgn ? INT32_MAX : UINT32_MAX)
                     : op == ATOM_MAX && sgn ? (uint32_t)INT32_MIN : 0;
        FOR_LANES(mask[l] & x->exec, k) {
            uint32_t e = v[k];
            switch (op) {
            case ATOM_ADD: acc += e; break;
            case ATOM_AND: acc &= e; break;
            case ATOM_OR: acc |= e; break;
            case ATOM_XOR: acc ^= e; break;
            case ATOM_MIN: acc = sgn ? ((int32_t)e < (int32_t)acc ? e : acc) : (e < acc ? e : acc); break;
            default: acc = sgn ? ((int32_t)e > (int32_t)acc ? e : acc) : (e > acc ? e : acc); break;
            }
        }
        r[l] = acc;
    }
    FOR_LANES(x->exec, l) reg_write(x, DST(0), l, r[l], 4);
    return true;
}

/* The elected lane is the lowest executing lane of the mask (the ISA asks
 * only that the choice be the same for the same mask). */
static bool exec_ELECT(ExecCtx *x)
{
    const Operand *d = &IN->opd[0];
    uint32_t leader[WARP_SIZE];
    FOR_LANES(x->exec, l) {
        uint32_t mask = (uint32_t)SRC(1, l);
        if (!member_of_own_mask(x, "elect.sync", l, mask))
            return false;
        uint32_t group = mask & x->exec;
        leader[l] = group ? (uint32_t)__builtin_ctz(group) : l;
    }
    FOR_LANES(x->exec, l) {
        if (d->kind == OPD_REG || d->kind == OPD_PAIR)
            reg_write(x, d->reg, l, leader[l], 4);
        if (d->kind == OPD_PAIR)
            reg_write(x, d->reg2, l, leader[l] == l, 1);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* video instructions                                                   */

typedef enum { V_ABSDIFF, V_ADD, V_SUB, V_MIN, V_MAX, V_AVRG } VideoOp;

/* vop4/vop2: each of the `elems` fields of a and b (signed by the a and b
 * types) through op; .sat clamps a field to d's element range, else it is
 * truncated; .add sums the fields into c instead of packing them. */
static bool video_simd(ExecCtx *x, VideoOp op, unsigned elems)
{
    unsigned ebits = 32 / elems;
    bool as = tsigned((PtxType)IN->type2), bs = tsigned((PtxType)IN->type3), ds = tsigned((PtxType)IN->type);
    int64_t lo = ds ? -((int64_t)1 << (ebits - 1)) : 0;
    int64_t hi = ds ? ((int64_t)1 << (ebits - 1)) - 1 : ((int64_t)1 << ebits) - 1;
    FOR_LANES(x->exec, l) {
        uint32_t a = (uint32_t)SRC(1, l), b = (uint32_t)SRC(2, l), r = 0;
        int64_t sum = 0;
        for (unsigned k = 0; k < elems; k++) {
            int64_t ea = packed_field(a, k, ebits, as), eb = packed_field(b, k, ebits, bs), e;
            switch (op) {
            case V_ABSDIFF: e = ea > eb ? ea - eb : eb - ea; break;
            case V_ADD: e = ea + eb; break;
            case V_SUB: e = ea - eb; break;
            case V_MIN: e = ea < eb ? ea : eb; break;
            case V_MAX: e = ea > eb ? ea : eb; break;
            default: e = (ea + eb + 1) >> 1; break; /* arithmetic shift: rounds half up */
            }
            if (IN->flags & FL_SAT)
                e = e < lo ? lo : e > hi ? hi : e;
            sum += e;
            r |= ((uint32_t)e & (uint32_t)width_mask(ebits)) << (k * ebits);
        }
        if (IN->flags & FL_ADD)
            r = (uint32_t)SRC(3, l) + (uint32_t)sum;
        reg_write(x, DST(0), l, r, 4);
    }
    return true;
}
static bool exec_VABSDIFF4(ExecCtx *x) { return video_simd(x, V_ABSDIFF, 4); }
static bool exec_VADD4(ExecCtx *x) { return video_simd(x, V_ADD, 4); }
static bool exec_VSUB4(ExecCtx *x) { return video_simd(x, V_SUB, 4); }
static bool exec_VMIN4(ExecCtx *x) { return video_simd(x, V_MIN, 4); }
static bool exec_VMAX4(ExecCtx *x) { return video_simd(x, V_MAX, 4); }
static bool exec_VAVRG4(ExecCtx *x) { return video_simd(x, V_AVRG, 4); }
static bool exec_VABSDIFF2(ExecCtx *x) { return video_simd(x, V_ABSDIFF, 2); }
static bool exec_VADD2(ExecCtx *x) { return video_simd(x, V_ADD, 2); }
static bool exec_VSUB2(ExecCtx *x) { return video_simd(x, V_SUB, 2); }
static bool exec_VMIN2(ExecCtx *x) { return video_simd(x, V_MIN, 2); }
static bool exec_VMAX2(ExecCtx *x) { return video_simd(x, V_MAX, 2); }
static bool exec_VAVRG2(ExecCtx *x) { return video_simd(x, V_AVRG, 2); }

/* ------------------------------------------------------------------ */
/* asynchronous copies                                                  */

/* cp.async [dst], [src], cp-size{, src-size | ignore-src}{, policy}: done
 * here and now, so commit and wait have nothing to do.  The timing model
 * sees the global read (the warp's memory log is held back during the
 * shared write: one instruction records one access). */
static bool exec_CP_ASYNC(ExecCtx *x)
{
    const Operand *dst = &IN->opd[0], *src = &IN->opd[1];
    PtxSpace dsp = insn_operand_space(IN, 0), ssp = insn_operand_space(IN, 1);
    bool ignore_src_form = IN->nopd > 3 && IN->opd[3].kind == OPD_REG &&
                           g_array_index(x->fn->regs, RegInfo, IN->opd[3].reg).type == PTX_TYPE_PRED;
    FOR_LANES(x->exec, l) {
        uint32_t cp = (uint32_t)SRC(2, l), n = cp;
        if (cp != 4 && cp != 8 && cp != 16)
            return exec_fault(x, l, "cp.async copies 4, 8 or 16 bytes, not %u", cp);
        if (ignore_src_form)
            n = (SRC(3, l) & 1) ? 0 : cp;
        else if (IN->nopd > 3)
            n = (uint32_t)SRC(3, l);
        if (n > cp)
            return exec_fault(x, l, "cp.async src-size %u exceeds cp-size %u", n, cp);
        uint8_t data[16] = {0};
        uint64_t saddr = opd_address(x, src, l);
        if (n == cp) {
            const uint8_t *p = mem_access(x, ssp, src, saddr, cp, l, false);
            if (!p)
                return false;
            memcpy(data, p, cp);
        } else {
            for (uint32_t k = 0; k < n; k++) { /* a partial source has no alignment of its own */
                const uint8_t *p = mem_access(x, ssp, src, saddr + k, 1, l, false);
                if (!p)
                    return false;
                data[k] = *p;
            }
        }
        WarpAccess *log = x->w->mem_log;
        x->w->mem_log = NULL;
        uint8_t *d = mem_access(x, dsp, dst, opd_address(x, dst, l), cp, l, true);
        x->w->mem_log = log;
        if (!d)
            return false;
        memcpy(d, data, cp);
    }
    return true;
}
static bool exec_CP_ASYNC_COMMIT_GROUP(ExecCtx *x) { (void)x; return true; }
static bool exec_CP_ASYNC_WAIT_GROUP(ExecCtx *x) { (void)x; return true; }
static bool exec_CP_ASYNC_WAIT_ALL(ExecCtx *x) { (void)x; return true; }

/* ------------------------------------------------------------------ */
/* mbarrier objects                                                     */

/* An mbarrier is a .b64 word whose layout is the implementation's (PTX
 * keeps it opaque); warpsim's: arrivals still pending in the current phase
 * (bits 0-19), arrivals expected per phase (20-39), the transaction count
 * (40-62, signed: bytes may arrive before they are expected) and the
 * phase's parity (63).  A phase completes when both counts reach zero; the
 * next starts with pending = expected.  The state an arrive returns is the
 * word before it, so its bit 63 names the phase it arrived on. */
#define MBAR_COUNT_MASK ((1u << 20) - 1)
#define MBAR_TX_BITS 23
typedef struct {
    uint32_t pending, expected;
    int32_t tx;
    bool phase;
} MBarrier;

static MBarrier mbar_unpack(uint64_t w)
{
    return (MBarrier){.pending = (uint32_t)w & MBAR_COUNT_MASK, .expected = (uint32_t)(w >> 20) & MBAR_COUNT_MASK,
                      .tx = (int32_t)fp_sext(w >> 40, MBAR_TX_BITS), .phase = (w >> 63) & 1};
}
static uint64_t mbar_pack(MBarrier b)
{
    return (uint64_t)(b.pending & MBAR_COUNT_MASK) | (uint64_t)(b.expected & MBAR_COUNT_MASK) << 20 |
           ((uint64_t)(uint32_t)b.tx & width_mask(MBAR_TX_BITS)) << 40 | (uint64_t)b.phase << 63;
}
static void mbar_try_complete(MBarrier *b)
{
    if (b->pending == 0 && b->tx == 0) {
        b->phase = !b->phase;
        b->pending = b->expected;
    }
}

/* The mbarrier word of memory operand i for one lane, or NULL (fault). */
static uint8_t *mbar_word(ExecCtx *x, unsigned i, uint32_t lane, bool write)
{
    const Operand *m = &IN->opd[i];
    return mem_access(x, insn_operand_space(IN, i), m, opd_address(x, m, lane), 8, lane, write);
}

static bool exec_MBARRIER_INIT(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        uint32_t count = (uint32_t)SRC(1, l);
        if (count == 0 || count > MBAR_COUNT_MASK)
            return exec_fault(x, l, "mbarrier.init count %u is outside 1..%u", count, MBAR_COUNT_MASK);
        uint8_t *p = mbar_word(x, 0, l, true);
        if (!p)
            return false;
        uint64_t w = mbar_pack((MBarrier){.pending = count, .expected = count});
        memcpy(p, &w, 8);
    }
    return true;
}

static bool exec_MBARRIER_INVAL(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        uint8_t *p = mbar_word(x, 0, l, true);
        if (!p)
            return false;
        memset(p, 0, 8);
    }
    return true;
}

/* `arrivals` pending arrivals counted off (and, dropping, as many fewer
 * expected from the next phase on) after `tx` bytes are expected; the lanes
 * in order, as atomics are.  Returns the word before, or faults. */
static bool mbar_arrive(ExecCtx *x, unsigned mi, uint32_t lane, uint32_t arrivals, int32_t tx, bool drop,
                        uint64_t *before)
{
    uint8_t *p = mbar_word(x, mi, lane, true);
    if (!p)
        return false;
    uint64_t w;
    memcpy(&w, p, 8);
    MBarrier b = mbar_unpack(w);
    if (arrivals > b.pending)
        return exec_fault(x, lane, "%s: %u arrivals on an mbarrier with %u pending in this phase (not "
                          "initialised, or more arrivals than its count)", isa_ops[IN->op].name, arrivals,
                          b.pending);
    b.tx += tx;
    b.pending -= arrivals;
    if (drop)
        b.expected -= MIN(arrivals, b.expected);
    mbar_try_complete(&b);
    uint64_t after = mbar_pack(b);
    memcpy(p, &after, 8);
    if (before)
        *before = w;
    return true;
}

static bool mbarrier_arrive(ExecCtx *x, bool drop)
{
    bool expect_tx = IN->flags & FL_EXPECT_TX;
    FOR_LANES(x->exec, l) {
        uint32_t count = IN->nopd > 2 && !expect_tx ? (uint32_t)SRC(2, l) : 1;
        int32_t tx = IN->nopd > 2 && expect_tx ? (int32_t)SRC(2, l) : 0;
        uint64_t before;
        if (!mbar_arrive(x, 1, l, count, tx, drop, &before))
            return false;
        reg_write(x, DST(0), l, before, 8);
    }
    return true;
}
static bool exec_MBARRIER_ARRIVE(ExecCtx *x) { return mbarrier_arrive(x, false); }
static bool exec_MBARRIER_ARRIVE_DROP(ExecCtx *x) { return mbarrier_arrive(x, true); }

/* The copies are done when they issue: without .noinc the pending count
 * goes up by one and straight back down, leaving the phase as it was. */
static bool exec_CP_ASYNC_MBARRIER_ARRIVE(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        if (!(IN->flags & FL_NOINC)) {
            if (!mbar_word(x, 0, l, true))
                return false;
        } else if (!mbar_arrive(x, 0, l, 1, 0, false, NULL)) {
            return false;
        }
    }
    return true;
}

static bool mbarrier_tx(ExecCtx *x, int sign)
{
    FOR_LANES(x->exec, l) {
        uint8_t *p = mbar_word(x, 0, l, true);
        if (!p)
            return false;
        uint64_t w;
        memcpy(&w, p, 8);
        MBarrier b = mbar_unpack(w);
        b.tx += sign * (int32_t)(uint32_t)SRC(1, l);
        mbar_try_complete(&b);
        w = mbar_pack(b);
        memcpy(p, &w, 8);
    }
    return true;
}
static bool exec_MBARRIER_EXPECT_TX(ExecCtx *x) { return mbarrier_tx(x, 1); }
static bool exec_MBARRIER_COMPLETE_TX(ExecCtx *x) { return mbarrier_tx(x, -1); }

/* p = the phase named by a state (or, with .parity, by its parity) is over:
 * the barrier has moved to a phase of the other parity.  try_wait's time
 * hint does not matter: the caller loops while p is false. */
static bool exec_MBARRIER_TEST_WAIT(ExecCtx *x)
{
    FOR_LANES(x->exec, l) {
        const uint8_t *p = mbar_word(x, 1, l, false);
        if (!p)
            return false;
        uint64_t w;
        memcpy(&w, p, 8);
        bool waited = (IN->flags & FL_PARITY) ? SRC(2, l) & 1 : mbar_unpack(SRC(2, l)).phase;
        reg_write(x, DST(0), l, mbar_unpack(w).phase != waited, 1);
    }
    return true;
}
static bool exec_MBARRIER_TRY_WAIT(ExecCtx *x) { return exec_MBARRIER_TEST_WAIT(x); }

static bool exec_MBARRIER_PENDING_COUNT(ExecCtx *x)
{
    FOR_LANES(x->exec, l) reg_write(x, DST(0), l, mbar_unpack(SRC(1, l)).pending, 4);
    return true;
}

/* ------------------------------------------------------------------ */

const OpHandler exec_handlers[OP_COUNT] = {
#define PTX_OP(id, ...) [OP_##id] = exec_##id,
#include "ptx_ops.def"
#undef PTX_OP
};
