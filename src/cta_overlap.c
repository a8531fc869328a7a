/* cta_overlap.c — may CTAs of a launch touch each other's global bytes
 * (cta_overlap.h)? */
#include "cta_overlap.h"

#include <string.h>

#include "cfg.h"
#include "reaching.h"

/* An affine value's terms: the constant, then the digits of the thread's
 * index in its block (tid_digits: %tid.x, .y and .z each as its low bits,
 * one term of two values per bit, and the odd rest of the block's size),
 * then %ctaid.x/y/z.  In binary digits, shifts, divisions, remainders and
 * masks by any power of two (%tid.x / 32 for a warp per row, %tid.x >> 4
 * and & 15 for a 16 x 16 tile of a 1-D block) split a %tid exactly
 * (split_pow2) and stay affine. */
enum { TERM_CONST, TERM_TID, MAX_TID_TERMS = 13, TERM_CTAID = TERM_TID + MAX_TID_TERMS, NTERMS = TERM_CTAID + 3 };

typedef enum { V_BOTTOM, V_AFFINE, V_TOP } ValKind;

/* Val.objects: one bit per allocation the analysis met (Analysis.obj_base),
 * and these two */
#define OBJ_PRIVATE (UINT64_C(1) << 62) /* shared, local, const or parameter memory */
#define OBJ_ANY (UINT64_C(1) << 63)     /* any allocation */
#define OBJ_TABLE 62

typedef __int128 Wide;

/* What a register holds in every write of it: no write seen yet, the
 * affine function c[0] + sum c[k] * term_k (its mathematical value, which
 * the register's bits equal in every type it was read or written as), or
 * unknown; and the allocations it may point into. */
typedef struct {
    uint8_t kind; /* ValKind */
    int64_t c[NTERMS];
    uint64_t objects;
} Val;

typedef struct {
    const ModuleImage *img;
    const LaunchSpec *spec;
    const Function *fn;
    int64_t extent[NTERMS]; /* a term's values are 0 .. extent - 1 */
    int64_t ntid[3];        /* the block's shape (%ntid) */
    Val tid[3];             /* %tid.x, .y and .z in the digit terms */
    uint64_t obj_base[OBJ_TABLE];
    uint32_t nobjs;
    const Reaching *reach;
    Val *written; /* per write of the kernel (reaching.h) */
    uint64_t frozen; /* objects taken to be touched by no store of the launch (frozen_load) */
    uint64_t folded; /* those of them frozen_load read */
    uint32_t pc;  /* the instruction whose operands are read */
} Analysis;

/* A global access of the kernel, per thread. */
typedef struct {
    Val addr;      /* of its first byte */
    uint32_t width;
    bool store;
    bool uniform;  /* a store of `value`, the same in every thread of the launch */
    int64_t value;
    uint32_t line;
    /* affine only (access_ranges): its bytes [lo, end) over the launch
     * ([0]) and in CTA 0 ([1]: its %ctaid terms left out); worked out once,
     * since every store is paired with every access */
    Wide lo[2], end[2];
} Access;

static Val val_top(uint64_t objects)
{
    return (Val){.kind = V_TOP, .objects = objects};
}

static Val val_const(int64_t k, uint64_t objects)
{
    Val v = {.kind = V_AFFINE, .objects = objects};
    v.c[TERM_CONST] = k;
    return v;
}

static bool val_is_const(const Val *v)
{
    for (unsigned k = 1; k < NTERMS; k++)
        if (v->c[k])
            return false;
    return v->kind == V_AFFINE;
}

/* The allocation holding addr, as an object bit (0: none, an integer). */
static uint64_t object_of(Analysis *a, uint64_t addr)
{
    const Allocation *al = gmem_lookup(a->img->gmem, NULL, addr, 1);
    if (!al)
        return 0;
    for (uint32_t i = 0; i < a->nobjs; i++)
        if (a->obj_base[i] == al->base)
            return UINT64_C(1) << i;
    if (a->nobjs == OBJ_TABLE)
        return OBJ_ANY;
    a->obj_base[a->nobjs] = al->base;
    return UINT64_C(1) << a->nobjs++;
}


static void val_range(const Analysis *a, const Val *v, Wide *lo, Wide *hi)
{
    Wide l = v->c[TERM_CONST], h = l;
    for (unsigned k = 1; k < NTERMS; k++) {
        Wide t = (Wide)v->c[k] * (a->extent[k] - 1);
        if (t < 0)
            l += t;
        else
            h += t;
    }
    *lo = l;
    *hi = h;
}

/* Whether the register's bits read as type t give v's value. */
static bool val_fits(const Analysis *a, const Val *v, PtxType t)
{
    unsigned bits = isa_type_size(t) * 8;
    if (bits >= 64)
        return true; /* the bits are the int64 value (wider results went to V_TOP) */
    Wide lo, hi, half = (Wide)1 << (bits - 1);
    val_range(a, v, &lo, &hi);
    if (isa_type_is_signed(t))
        return lo >= -half && hi < half;
    if (isa_types[t].tclass == TC_UINT)
        return lo >= 0 && hi < 2 * half;
    return lo >= -half && hi < 2 * half; /* .b: read as either */
}

/* The affine form of wide coefficients, if every coefficient and every
 * value over the launch fit int64 and the type t. */
static Val val_from_wide(const Analysis *a, const Wide *c, uint64_t objects, PtxType t)
{
    Val v = {.kind = V_AFFINE, .objects = objects};
    for (unsigned k = 0; k < NTERMS; k++) {
        if (c[k] < INT64_MIN || c[k] > INT64_MAX)
            return val_top(objects);
        v.c[k] = (int64_t)c[k];
    }
    Wide lo, hi;
    val_range(a, &v, &lo, &hi);
    if (lo < INT64_MIN || hi > INT64_MAX || !val_fits(a, &v, t))
        return val_top(objects);
    return v;
}

static Val val_join(Val old, Val new)
{
    if (old.kind == V_BOTTOM)
        return new;
    if (new.kind == V_BOTTOM)
        return old;
    uint64_t objects = old.objects | new.objects;
    if (old.kind == V_AFFINE && new.kind == V_AFFINE && memcmp(old.c, new.c, sizeof old.c) == 0) {
        old.objects = objects;
        return old;
    }
    return val_top(objects);
}

static bool val_same(const Val *x, const Val *y)
{
    return x->kind == y->kind && x->objects == y->objects &&
           (x->kind != V_AFFINE || memcmp(x->c, y->c, sizeof x->c) == 0);
}

/* ---------------------------------------------------------------- operands */

/* What instruction a->pc reads in `reg`: the join of the writes that may
 * reach it (0, the frame's start, where none may). */
static Val reg_value(const Analysis *a, uint32_t reg)
{
    uint32_t n;
    const uint32_t *from = reaching_sources(a->reach, a->pc, reg, &n);
    if (n == 1 && from[0] != REACHING_ENTRY)
        return a->written[from[0]];
    Val v = {.kind = V_BOTTOM};
    for (uint32_t k = 0; k < n; k++)
        v = val_join(v, from[k] == REACHING_ENTRY ? val_const(0, 0) : a->written[from[k]]);
    return v;
}

static int64_t imm_as(int64_t imm, PtxType t)
{
    unsigned bits = isa_type_size(t) * 8;
    if (bits >= 64)
        return imm;
    uint64_t low = (uint64_t)imm & ((UINT64_C(1) << bits) - 1);
    if (isa_type_is_signed(t) && (low >> (bits - 1)))
        return (int64_t)(low | ~((UINT64_C(1) << bits) - 1));
    return (int64_t)low;
}

static Val symbol_value(Analysis *a, uint32_t sym, int64_t imm)
{
    if (sym >= a->img->module->vars->len)
        return val_top(OBJ_ANY);
    const Variable *var = module_var(a->img->module, sym);
    if (var->space != SPACE_GLOBAL)
        return val_top(OBJ_PRIVATE);
    uint64_t addr = a->img->var_addr[sym] + (uint64_t)imm;
    return val_const((int64_t)addr, object_of(a, a->img->var_addr[sym]));
}

/* A source operand read as type t. */
static Val operand(Analysis *a, const Operand *o, PtxType t)
{
    bool integer = isa_types[t].tclass & TC_INT;
    switch ((OperandKind)o->kind) {
    case OPD_REG: {
        if (o->reg >= a->fn->regs->len)
            return val_top(OBJ_ANY);
        Val v = reg_value(a, o->reg);
        if (v.kind == V_AFFINE && (o->negate || !integer || !val_fits(a, &v, t)))
            return val_top(v.objects);
        return v;
    }
    case OPD_IMM:
        return integer ? val_const(imm_as(o->imm, t), 0) : val_top(0);
    case OPD_SREG: {
        unsigned comp = MIN(o->component, 2u);
        switch ((PtxSreg)o->reg) {
        case SREG_TID:
            return a->tid[comp];
        case SREG_CTAID: {
            Val v = val_const(0, 0);
            v.c[TERM_CTAID + comp] = 1;
            return v;
        }
        case SREG_NTID:
            return val_const(a->ntid[comp], 0);
        case SREG_NCTAID:
            return val_const(a->extent[TERM_CTAID + comp], 0);
        case SREG_ENVREG: /* 0 but in a cooperative launch (exec.c): OpenCL's global offset */
            return a->spec->cooperative ? val_top(0) : val_const(0, 0);
        default:
            return val_top(0);
        }
    }
    case OPD_SYMBOL:
        if (o->func != NO_INDEX)
            return val_top(0);
        return symbol_value(a, o->sym, o->imm);
    default:
        return val_top(OBJ_ANY);
    }
}

/* ---------------------------------------------------------------- transfer */

static PtxType wider(PtxType t)
{
    switch (t) {
    case PTX_TYPE_S16: return PTX_TYPE_S32;
    case PTX_TYPE_U16: return PTX_TYPE_U32;
    case PTX_TYPE_S32: return PTX_TYPE_S64;
    case PTX_TYPE_U32: return PTX_TYPE_U64;
    default: return PTX_TYPE_NONE;
    }
}

/* x + sign * y, or x * y when one is a constant, in type t. */
static Val affine_add(const Analysis *a, const Val *x, const Val *y, int sign, PtxType t)
{
    uint64_t objects = x->objects | y->objects;
    if (x->kind == V_BOTTOM || y->kind == V_BOTTOM)
        return (Val){.kind = V_BOTTOM, .objects = objects};
    if (x->kind != V_AFFINE || y->kind != V_AFFINE)
        return val_top(objects);
    Wide c[NTERMS];
    for (unsigned k = 0; k < NTERMS; k++)
        c[k] = (Wide)x->c[k] + sign * (Wide)y->c[k];
    return val_from_wide(a, c, objects, t);
}

static Val affine_mul(const Analysis *a, const Val *x, const Val *y, PtxType t)
{
    uint64_t objects = x->objects | y->objects;
    if (x->kind == V_BOTTOM || y->kind == V_BOTTOM)
        return (Val){.kind = V_BOTTOM, .objects = objects};
    if (x->kind != V_AFFINE || y->kind != V_AFFINE || !(val_is_const(x) || val_is_const(y)))
        return val_top(objects);
    const Val *k = val_is_const(x) ? x : y, *v = k == x ? y : x;
    Wide c[NTERMS];
    for (unsigned i = 0; i < NTERMS; i++)
        c[i] = (Wide)v->c[i] * k->c[TERM_CONST]; /* |each| < 2^126 */
    return val_from_wide(a, c, objects, t);
}

/* x = 2^s hi + lo with hi affine and 0 <= lo < 2^s over the whole launch
 * (lo: the terms whose coefficients 2^s does not divide, and the
 * constant's remainder): then x >> s, x / 2^s are hi and x & (2^s - 1),
 * x % 2^s are lo, exactly (%tid.x / 32 is the warp term).  False when
 * x is not so split. */
static bool split_pow2(const Analysis *a, const Val *x, unsigned s, Val *hi, Val *lo)
{
    if (x->kind != V_AFFINE || s == 0 || s > 62)
        return false;
    int64_t unit = INT64_C(1) << s;
    *hi = (Val){.kind = V_AFFINE, .objects = x->objects};
    *lo = *hi;
    int64_t q = x->c[TERM_CONST] / unit, r = x->c[TERM_CONST] % unit;
    if (r < 0) { /* floor, not truncation */
        q--;
        r += unit;
    }
    hi->c[TERM_CONST] = q;
    lo->c[TERM_CONST] = r;
    for (unsigned k = 1; k < NTERMS; k++) {
        if (a->extent[k] <= 1)
            continue; /* always 0 */
        if (x->c[k] % unit == 0)
            hi->c[k] = x->c[k] / unit;
        else
            lo->c[k] = x->c[k];
    }
    Wide l, h;
    val_range(a, lo, &l, &h);
    return l >= 0 && h < unit;
}

/* The shift when imm is 2^s (s > 0), else 0. */
static unsigned log2_of(int64_t imm)
{
    return imm > 1 && (imm & (imm - 1)) == 0 ? (unsigned)__builtin_ctzll((uint64_t)imm) : 0;
}

/* v through val_from_wide: in type t, or V_TOP. */
static Val val_in_type(const Analysis *a, const Val *v, PtxType t)
{
    Wide c[NTERMS];
    for (unsigned k = 0; k < NTERMS; k++)
        c[k] = v->c[k];
    return val_from_wide(a, c, v->objects, t);
}

/* shr, div, rem and and of an affine value by a power of two (a mask of
 * the low or the high bits, for and), as split_pow2 allows; V_TOP else. */
static Val pow2_op(const Analysis *a, const Insn *in, const Val *x, int64_t k, PtxType t)
{
    unsigned bits = isa_type_size(t) * 8;
    uint64_t mask = bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1, uk = (uint64_t)k & mask;
    Wide l, h;
    val_range(a, x, &l, &h);
    Val hi, lo;
    unsigned s = 0;
    switch (in->op) {
    case OP_SHR: /* arithmetic shifts floor; logical ones need x >= 0 */
        s = k > 0 && k < (int64_t)bits ? (unsigned)k : 0;
        if ((isa_type_is_signed(t) || l >= 0) && split_pow2(a, x, s, &hi, &lo))
            return val_in_type(a, &hi, t);
        break;
    case OP_DIV:
    case OP_REM: /* a division truncates: floor only for x >= 0 */
        if (l >= 0 && split_pow2(a, x, log2_of(k), &hi, &lo))
            return val_in_type(a, in->op == OP_DIV ? &hi : &lo, t);
        break;
    case OP_AND: /* two's complement: the low bits are lo whatever x's sign */
        if ((s = log2_of((int64_t)(uk + 1))) && split_pow2(a, x, s, &hi, &lo))
            return val_in_type(a, &lo, t); /* x & (2^s - 1) */
        if ((s = log2_of((int64_t)((~uk & mask) + 1))) && split_pow2(a, x, s, &hi, &lo)) {
            Val unit = val_const(INT64_C(1) << s, 0);
            return affine_mul(a, &hi, &unit, t); /* x & ~(2^s - 1) */
        }
        break;
    default:
        break;
    }
    return val_top(x->objects);
}

/* Whether y's bits lie below every set bit of x wherever they run (x a
 * multiple of 2^s, 0 <= y < 2^s): then x | y and x ^ y are x + y
 * (`blockIdx.x << 5 | lane`). */
static bool bits_below(const Analysis *a, const Val *x, const Val *y)
{
    if (x->kind != V_AFFINE || y->kind != V_AFFINE)
        return false;
    unsigned s = 62;
    for (unsigned k = 0; k < NTERMS; k++)
        if (x->c[k] && (k == TERM_CONST || a->extent[k] > 1))
            s = MIN(s, (unsigned)__builtin_ctzll((uint64_t)x->c[k]));
    Wide l, h;
    val_range(a, y, &l, &h);
    return l >= 0 && h < ((Wide)1 << s);
}

/* The address of memory operand m (as u64). */
static Val address(Analysis *a, const Operand *m)
{
    if (m->kind != OPD_ADDR)
        return val_top(OBJ_ANY);
    Val base;
    if (m->reg != NO_INDEX) {
        base = operand(a, &(Operand){.kind = OPD_REG, .reg = m->reg}, PTX_TYPE_U64);
        if (base.kind == V_BOTTOM)
            return val_top(OBJ_ANY);
    } else if (m->sym != NO_INDEX) {
        return symbol_value(a, m->sym, m->imm);
    } else {
        base = val_const(0, 0);
    }
    Val off = val_const(m->imm, 0);
    return affine_add(a, &base, &off, 1, PTX_TYPE_U64);
}

static bool space_may_be_global(PtxSpace s)
{
    return s == SPACE_GLOBAL || s == SPACE_GENERIC;
}

/* A kernel parameter's value as type t at [param + imm]. */
static Val param_value(Analysis *a, const Operand *m, PtxType t, uint32_t element)
{
    const Module *mod = a->img->module;
    unsigned size = isa_type_size(t);
    unsigned pointer = mod->address_size / 8;
    if (m->kind != OPD_ADDR || m->reg != NO_INDEX || m->sym >= mod->vars->len)
        return val_top(size >= pointer ? OBJ_ANY : 0);
    const Variable *var = module_var(mod, m->sym);
    uint64_t at = var->offset + (uint64_t)m->imm + (uint64_t)element * size;
    if (var->scope != VAR_KERNEL_PARAM || !a->spec->params || at + size > a->fn->frame_param_bytes || size > 8)
        return val_top(size >= pointer ? OBJ_ANY : 0);
    uint64_t bits = 0;
    memcpy(&bits, a->spec->params + at, size); /* little-endian host, as the executor assumes */
    if (!(isa_types[t].tclass & TC_INT))
        return val_top(0);
    int64_t v = imm_as((int64_t)bits, t);
    /* a value inside an allocation may be a pointer to it; one that is not
     * is an integer (an access through it alone may touch anything) */
    return val_const(v, size >= 4 ? object_of(a, (uint64_t)v) : 0);
}

/* A load of one integer at an address every thread shares, from an
 * allocation no store of the launch touches (Analysis.frozen): what it
 * reads is what memory holds now, a constant of the launch (a row width
 * passed in a buffer); V_TOP otherwise. */
static Val frozen_load(Analysis *a, const Insn *in, PtxType t)
{
    unsigned size = isa_type_size(t);
    if (!a->frozen || in->nopd != 2 || in->opd[0].kind != OPD_REG || in->vec > 1 ||
        !(isa_types[t].tclass & TC_INT) || size > 8 || !space_may_be_global(in->space))
        return val_top(0);
    Val at = address(a, &in->opd[1]);
    if (!val_is_const(&at) || !at.objects || (at.objects & ~a->frozen))
        return val_top(0);
    const uint8_t *p = gmem_ptr(a->img->gmem, (uint64_t)at.c[TERM_CONST], size);
    if (!p)
        return val_top(0);
    uint64_t bits = 0;
    memcpy(&bits, p, size); /* little-endian host, as the executor assumes */
    int64_t v = imm_as((int64_t)bits, t);
    a->folded |= at.objects;
    return val_const(v, size >= 4 ? object_of(a, (uint64_t)v) : 0);
}

/* An integer instruction of known operands, evaluated as the executor
 * would (uniform values such as n / 2 of a parameter n); V_TOP when it is
 * not one this knows or an operand is not a constant. */
static Val fold(Analysis *a, const Insn *in)
{
    PtxType t = (PtxType)in->type;
    unsigned bits = isa_type_size(t) * 8;
    bool sign = isa_type_is_signed(t);
    switch (in->op) {
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_NEG: case OP_ABS:
    case OP_SHL: case OP_SHR: case OP_MIN: case OP_MAX: case OP_DIV: case OP_REM:
        break;
    default:
        return val_top(0);
    }
    bool unary = in->op == OP_NOT || in->op == OP_NEG || in->op == OP_ABS;
    if (!(isa_types[t].tclass & TC_INT) || bits > 64 || in->nopd != (unary ? 2 : 3) || in->opd[0].kind != OPD_REG)
        return val_top(0);
    Val x = operand(a, &in->opd[1], t);
    bool shift = in->op == OP_SHR || in->op == OP_SHL;
    Val y = unary ? val_const(0, 0) : operand(a, &in->opd[2], shift ? PTX_TYPE_U32 : t);
    if (x.kind == V_BOTTOM || y.kind == V_BOTTOM)
        return (Val){.kind = V_BOTTOM};
    if (!val_is_const(&x) || !val_is_const(&y))
        return val_top(0);
    uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    uint64_t ux = (uint64_t)x.c[TERM_CONST] & mask, uy = (uint64_t)y.c[TERM_CONST] & mask;
    int64_t sx = sign ? imm_as((int64_t)ux, t) : (int64_t)ux, sy = sign ? imm_as((int64_t)uy, t) : (int64_t)uy;
    uint64_t r;
    switch (in->op) {
    case OP_AND: r = ux & uy; break;
    case OP_OR: r = ux | uy; break;
    case OP_XOR: r = ux ^ uy; break;
    case OP_NOT: r = ~ux; break;
    case OP_NEG: r = (uint64_t)0 - ux; break;
    case OP_ABS: r = sign && sx < 0 ? (uint64_t)0 - ux : ux; break;
    case OP_SHL: r = uy >= bits ? 0 : ux << uy; break;
    case OP_SHR:
        if (sign)
            r = (uint64_t)(uy >= bits ? (sx < 0 ? -1 : 0) : sx >> uy);
        else
            r = uy >= bits ? 0 : ux >> uy;
        break;
    case OP_MIN: r = sign ? (uint64_t)MIN(sx, sy) : MIN(ux, uy); break;
    case OP_MAX: r = sign ? (uint64_t)MAX(sx, sy) : MAX(ux, uy); break;
    case OP_DIV:
    case OP_REM:
        if (uy == 0 || (sign && sy == -1))
            return val_top(0); /* (x / -1 left alone: INT_MIN's overflow) */
        if (in->op == OP_DIV)
            r = sign ? (uint64_t)(sx / sy) : ux / uy;
        else
            r = sign ? (uint64_t)(sx % sy) : ux % uy;
        break;
    default:
        return val_top(0);
    }
    return val_const(imm_as((int64_t)(r & mask), t), 0);
}

/* What the instruction writes to its destinations. */
static Val transfer(Analysis *a, const Insn *in, const CfgRegList *uses)
{
    PtxType t = (PtxType)in->type;
    bool integer = isa_types[t].tclass & TC_INT;
    uint64_t sources = 0;
    for (uint32_t i = 0; i < uses->n; i++)
        if (uses->v[i] < a->fn->regs->len)
            sources |= reg_value(a, uses->v[i]).objects;
    unsigned pointer = a->img->module->address_size / 8;
    switch (in->op) {
    case OP_MOV:
        if (in->nopd == 2 && in->opd[0].kind == OPD_REG && in->opd[1].kind != OPD_VEC)
            return operand(a, &in->opd[1], t);
        return val_top(OBJ_ANY);
    case OP_CVTA:
        if (in->space == SPACE_GLOBAL && in->nopd == 2)
            return operand(a, &in->opd[1], t);
        return val_top(OBJ_PRIVATE);
    case OP_ADD:
    case OP_SUB:
        if (integer && in->nopd == 3 && !(in->flags & (FL_SAT | FL_CC))) {
            Val x = operand(a, &in->opd[1], t), y = operand(a, &in->opd[2], t);
            return affine_add(a, &x, &y, in->op == OP_ADD ? 1 : -1, t);
        }
        break;
    case OP_MUL:
    case OP_MAD: {
        bool wide = in->mul == MUL_WIDE;
        if (!integer || (in->mul != MUL_LO && !wide) || (in->flags & FL_SAT) || in->nopd < 3)
            break;
        PtxType rt = wide ? wider(t) : t;
        if (rt == PTX_TYPE_NONE)
            break;
        Val x = operand(a, &in->opd[1], t), y = operand(a, &in->opd[2], t);
        Val p = affine_mul(a, &x, &y, rt);
        if (in->op == OP_MUL)
            return p;
        if (in->nopd < 4)
            break;
        Val z = operand(a, &in->opd[3], rt);
        return affine_add(a, &p, &z, 1, rt);
    }
    case OP_SHL:
        if (in->nopd == 3 && in->opd[2].kind == OPD_IMM && in->opd[2].imm >= 0 &&
            in->opd[2].imm < (int64_t)isa_type_size(t) * 8 && in->opd[2].imm < 62) {
            Val x = operand(a, &in->opd[1], t), k = val_const(INT64_C(1) << in->opd[2].imm, 0);
            return affine_mul(a, &x, &k, t);
        }
        break;
    case OP_CVT: {
        PtxType from = (PtxType)in->type2;
        if (integer && (isa_types[from].tclass & TC_INT) && !(in->flags & FL_SAT) && in->nopd == 2) {
            Val x = operand(a, &in->opd[1], from);
            if (x.kind == V_AFFINE && !val_fits(a, &x, t))
                return val_top(x.objects);
            return x;
        }
        break;
    }
    case OP_LD:
    case OP_LDU: {
        if (in->space == SPACE_PARAM && in->nopd == 2) {
            if (in->opd[0].kind == OPD_REG)
                return param_value(a, &in->opd[1], t, 0);
            uint64_t objects = 0;
            for (uint32_t k = 0; k < in->opd[0].vec_count; k++)
                objects |= param_value(a, &in->opd[1], t, k).objects;
            return val_top(objects);
        }
        Val k = frozen_load(a, in, t);
        if (k.kind == V_AFFINE)
            return k;
        /* a value from memory: a pointer to anything if it is as wide as one */
        return val_top(isa_type_size(t) >= pointer ? OBJ_ANY : 0);
    }
    case OP_CALL:
    case OP_ATOM:
        return val_top(OBJ_ANY);
    case OP_OR:
    case OP_XOR:
        if (integer && in->nopd == 3) {
            Val x = operand(a, &in->opd[1], t), y = operand(a, &in->opd[2], t);
            if (!(val_is_const(&x) && val_is_const(&y)) && (bits_below(a, &x, &y) || bits_below(a, &y, &x)))
                return affine_add(a, &x, &y, 1, t);
        }
        break;
    case OP_SHR:
    case OP_DIV:
    case OP_REM:
    case OP_AND:
        if (integer && in->nopd == 3 && in->opd[2].kind == OPD_IMM) {
            Val x = operand(a, &in->opd[1], t);
            if (x.kind == V_AFFINE && !val_is_const(&x))
                return pow2_op(a, in, &x, imm_as(in->opd[2].imm, t), t);
        }
        break;
    default:
        break;
    }
    Val k = fold(a, in);
    return k.kind == V_TOP ? val_top(sources) : k;
}

/* Values for every write of the kernel, each read taking the writes that
 * may reach it (reaching.h); false when the iteration does not settle in
 * time (then nothing is known). */
static bool settle(Analysis *a)
{
    const Function *fn = a->fn;
    bool changed = true;
    unsigned passes = 0;
    while (changed && passes++ < 64) {
        changed = false;
        for (uint32_t i = 0; i < func_ninsns(fn); i++) {
            const Insn *in = func_insn(fn, i);
            CfgRegList uses, defs;
            reaching_insn_regs(a->reach, i, &uses, &defs);
            if (!defs.n)
                continue;
            a->pc = i;
            Val v = transfer(a, in, &uses);
            for (uint32_t d = 0; d < defs.n; d++) {
                if (defs.v[d] >= fn->regs->len)
                    continue;
                Val *r = &a->written[reaching_first_write(a->reach, i) + d];
                Val j = val_join(*r, v);
                if (!val_same(r, &j)) {
                    *r = j;
                    changed = true;
                }
            }
        }
    }
    return !changed;
}

/* ---------------------------------------------------------------- accesses */

/* The objects an access may touch: none of global memory when all of its
 * provenance is private, any when none is known. */
static uint64_t access_objects(const Access *x)
{
    uint64_t o = x->addr.objects & ~OBJ_PRIVATE;
    return o ? o : OBJ_ANY;
}

typedef struct {
    Wide coef, extent;
} Term;

/* Whether sum coef_i * v_i over 0 <= v_i < extent_i gives values at least
 * `gap` apart for any two different vectors v: in ascending size, each
 * coefficient is at least the gap plus the spread of the smaller terms (a
 * mixed-radix numbering).  Reorders `terms`. */
static bool spaced(Term *terms, unsigned n, Wide gap)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++)
            if (terms[j].coef < terms[i].coef) {
                Term t = terms[i];
                terms[i] = terms[j];
                terms[j] = t;
            }
    Wide spread = gap;
    for (unsigned i = 0; i < n; i++) {
        if (terms[i].coef < spread)
            return false;
        spread += terms[i].coef * (terms[i].extent - 1);
    }
    return true;
}

static Wide wide_abs(int64_t v)
{
    return v < 0 ? -(Wide)v : (Wide)v;
}

/* The lowest and one past the highest byte an affine access touches in
 * the launch, and with its %ctaid terms left out (in CTA 0). */
static void access_ranges(const Analysis *a, Access *x)
{
    Val v = x->addr;
    for (unsigned in_cta = 0; in_cta < 2; in_cta++) {
        if (in_cta)
            for (unsigned k = TERM_CTAID; k < NTERMS; k++)
                v.c[k] = 0;
        Wide hi;
        val_range(a, &v, &x->lo[in_cta], &hi);
        x->end[in_cta] = hi + x->width;
    }
}

/* Whether the bytes of affine accesses x in one CTA and y in another never
 * meet: three sufficient tests. */
static bool affine_apart(const Analysis *a, const Access *x, const Access *y)
{
    /* 1. their bytes over the whole launch do not meet (c[i] and
     *    c[i + n / 2] with i < n / 2) */
    if (x->end[0] <= y->lo[0] || y->end[0] <= x->lo[0])
        return true;
    bool same_cta_terms = true, same_terms = true;
    for (unsigned k = 1; k < NTERMS; k++) {
        bool differ = x->addr.c[k] != y->addr.c[k] && a->extent[k] > 1;
        same_terms = same_terms && !differ;
        same_cta_terms = same_cta_terms && (k < TERM_CTAID || !differ);
    }
    if (!same_cta_terms)
        return false;
    /* 2. each CTA's bytes of both lie in a window that the %ctaid terms
     *    step over (out[blockIdx.x], or a[i] with i a CTA's own range) */
    Term terms[NTERMS];
    unsigned n = 0;
    for (unsigned k = TERM_CTAID; k < NTERMS; k++)
        if (a->extent[k] > 1)
            terms[n++] = (Term){wide_abs(x->addr.c[k]), a->extent[k]};
    if (spaced(terms, n, MAX(x->end[1], y->end[1]) - MIN(x->lo[1], y->lo[1])))
        return true;
    /* 3. different threads of the launch reach bytes at least the wider
     *    access apart, and so do the two accesses (their distance is one
     *    more term, of extent 2): C[row * n + col] with row and col of a
     *    2-D tile.  Threads of one CTA at one address meet only each other:
     *    a %tid term of coefficient 0 is left out. */
    if (!same_terms)
        return false;
    n = 0;
    for (unsigned k = 1; k < NTERMS; k++)
        if (a->extent[k] > 1 && (k >= TERM_CTAID || x->addr.c[k]))
            terms[n++] = (Term){wide_abs(x->addr.c[k]), a->extent[k]};
    Wide d = (Wide)y->addr.c[TERM_CONST] - x->addr.c[TERM_CONST];
    if (d)
        terms[n++] = (Term){d < 0 ? -d : d, 2};
    return spaced(terms, n, MAX(x->width, y->width));
}

static bool apart(const Analysis *a, const Access *x, const Access *y)
{
    uint64_t ox = access_objects(x), oy = access_objects(y);
    if (!((ox | oy) & OBJ_ANY) && !(ox & oy))
        return true; /* different allocations */
    /* the same value written over the same value: no order shows
     * (accesses are naturally aligned, so two of one width that meet are
     * at one address) */
    if (x->store && y->store && x->uniform && y->uniform && x->value == y->value && x->width == y->width)
        return true;
    return x->addr.kind == V_AFFINE && y->addr.kind == V_AFFINE && affine_apart(a, x, y);
}

/* Accesses that are the same for this analysis (lines aside): an
 * unrolled loop repeats one, and each store meets every access. */
static gboolean access_equal(gconstpointer p, gconstpointer q)
{
    const Access *x = p, *y = q;
    return val_same(&x->addr, &y->addr) && x->width == y->width && x->store == y->store &&
           x->uniform == y->uniform && (!x->uniform || x->value == y->value);
}

static guint access_hash(gconstpointer p)
{
    const Access *x = p;
    uint64_t h = x->addr.kind * 31u + x->width * 7u + x->store + x->addr.objects;
    for (unsigned k = 0; x->addr.kind == V_AFFINE && k < NTERMS; k++)
        h = h * 0x9e3779b97f4a7c15u + (uint64_t)x->addr.c[k];
    return (guint)(h ^ h >> 32);
}

/* Appends x unless an equal access is in already. */
static void keep_access(GHashTable *seen, GArray *accesses, const Access *x)
{
    if (g_hash_table_contains(seen, x))
        return;
    g_array_append_val(accesses, *x);
    g_hash_table_add(seen, g_memdup2(x, sizeof *x));
}

/* Records the global accesses of instruction `in`, if it has any. */
static void collect_access(Analysis *a, const Insn *in, GHashTable *seen, GArray *accesses)
{
    Access x = {.line = in->line};
    unsigned vec = MAX(in->vec, 1u);
    PtxType t = (PtxType)in->type;
    int mem = -1;
    switch (in->op) {
    case OP_LD:
    case OP_LDU:
        mem = 1;
        x.width = isa_type_size(t) * vec;
        break;
    case OP_ST:
        mem = 0;
        x.store = true;
        x.width = isa_type_size(t) * vec;
        if (in->nopd > 1 && vec == 1) {
            Val v = operand(a, &in->opd[1], t);
            x.uniform = val_is_const(&v);
            x.value = v.c[TERM_CONST];
        }
        break;
    case OP_CP_ASYNC:
        mem = 1;
        x.width = 16;
        break;
    case OP_PREFETCH:
    case OP_PREFETCHU:
        return;
    default:
        /* another instruction naming global memory: taken as a store of
         * unknown address (atomics never come here: launch_ctas_independent) */
        for (unsigned i = 0; i < in->nopd; i++)
            if (in->opd[i].kind == OPD_ADDR && space_may_be_global(insn_operand_space(in, i))) {
                Val addr = address(a, &in->opd[i]);
                if (insn_operand_space(in, i) != SPACE_GLOBAL && addr.objects == OBJ_PRIVATE)
                    continue;
                x.addr = val_top(OBJ_ANY);
                x.store = true;
                x.width = 16;
                keep_access(seen, accesses, &x);
            }
        return;
    }
    if (mem >= (int)in->nopd || !space_may_be_global(insn_operand_space(in, (unsigned)mem)))
        return;
    x.addr = address(a, &in->opd[mem]);
    if (insn_operand_space(in, (unsigned)mem) != SPACE_GLOBAL && x.addr.objects == OBJ_PRIVATE)
        return; /* a generic address of shared or local memory */
    if (x.addr.kind == V_AFFINE)
        access_ranges(a, &x);
    keep_access(seen, accesses, &x);
}

/* The launch's global accesses (an instruction no path reaches touches
 * nothing). */
static GArray *gather_accesses(Analysis *a)
{
    GArray *accesses = g_array_new(FALSE, FALSE, sizeof(Access));
    GHashTable *seen = g_hash_table_new_full(access_hash, access_equal, g_free, NULL);
    const Cfg *cfg = a->fn->cfg;
    for (uint32_t i = 0; i < func_ninsns(a->fn); i++) {
        a->pc = i;
        if (cfg->blocks[cfg->block_of[i]].flags & BB_REACHABLE)
            collect_access(a, func_insn(a->fn, i), seen, accesses);
    }
    g_hash_table_destroy(seen);
    return accesses;
}

/* Whether a store may meet an access of another CTA; *line (may be NULL)
 * the first such store's. */
static bool store_meets_access(const Analysis *a, const GArray *accesses, uint32_t *line)
{
    const Access *x = (const Access *)accesses->data;
    for (guint i = 0; i < accesses->len; i++) {
        if (!x[i].store)
            continue;
        for (guint j = 0; j < accesses->len; j++) {
            if (x[j].store && j < i)
                continue; /* that pair was checked from x[j] */
            if (!apart(a, &x[i], &x[j])) {
                if (line)
                    *line = x[i].line;
                return true;
            }
        }
    }
    return false;
}

/* Whether an instruction of fn names global or generic memory. */
static bool names_global_memory(const Function *fn)
{
    for (uint32_t i = 0; i < func_ninsns(fn); i++) {
        const Insn *in = func_insn(fn, i);
        if (in->op == OP_PREFETCH || in->op == OP_PREFETCHU)
            continue;
        for (unsigned k = 0; k < in->nopd; k++)
            if (in->opd[k].kind == OPD_ADDR && space_may_be_global(insn_operand_space(in, k)))
                return true;
    }
    return false;
}

/* Lays out %tid.x, .y and .z over the digit terms: a block dimension of
 * n = 2^k m threads (m odd) is k bits, each a term of extent 2, and a term
 * of extent m (when m > 1) weighing 2^k: every thread index is one vector
 * of digits and every vector one index, as the analysis needs.  A block of
 * more digits than there are terms (more than 1024 threads) gets one term
 * of extent n per dimension. */
static void tid_digits(Analysis *a)
{
    unsigned digits = 0;
    for (unsigned d = 0; d < 3; d++) {
        uint64_t n = (uint64_t)a->ntid[d];
        digits += (unsigned)__builtin_ctzll(n) + ((n >> __builtin_ctzll(n)) > 1);
    }
    bool binary = digits <= MAX_TID_TERMS;
    unsigned next = TERM_TID;
    for (unsigned k = TERM_TID; k < TERM_CTAID; k++)
        a->extent[k] = 1;
    for (unsigned d = 0; d < 3; d++) {
        uint64_t n = (uint64_t)a->ntid[d];
        unsigned bits = binary ? (unsigned)__builtin_ctzll(n) : 0;
        a->tid[d] = val_const(0, 0);
        for (unsigned b = 0; b < bits; b++) {
            a->extent[next] = 2;
            a->tid[d].c[next++] = INT64_C(1) << b;
        }
        if (n >> bits > 1) {
            a->extent[next] = (int64_t)(n >> bits);
            a->tid[d].c[next++] = INT64_C(1) << bits;
        }
    }
}

bool cta_overlap_possible(const ModuleImage *img, const LaunchSpec *spec, uint32_t *line)
{
    const Module *m = img->module;
    if (line)
        *line = 0;
    if (spec->kernel >= m->funcs->len)
        return true;
    Analysis a = {.img = img, .spec = spec, .fn = module_func(m, spec->kernel)};
    const uint32_t grid[3] = {spec->grid.x, spec->grid.y, spec->grid.z};
    const uint32_t block[3] = {spec->block.x, spec->block.y, spec->block.z};
    uint64_t ctas = 1;
    for (unsigned k = 0; k < 3; k++) {
        a.ntid[k] = MAX(block[k], 1u);
        a.extent[TERM_CTAID + k] = MAX(grid[k], 1u);
        ctas *= MAX(grid[k], 1u);
    }
    tid_digits(&a);
    if (ctas <= 1)
        return false; /* no other CTA to meet */
    /* callees are not followed: one that touches memory could touch anything */
    bool opaque;
    gboolean *funcs = launch_kernel_functions(m, spec->kernel, &opaque);
    for (uint32_t f = 0; f < m->funcs->len && !opaque; f++)
        opaque = funcs[f] && f != spec->kernel && names_global_memory(module_func(m, f));
    g_free(funcs);
    if (opaque)
        return true;
    Reaching *reach = reaching_new(a.fn);
    if (!reach)
        return true;
    a.reach = reach;
    a.written = g_new(Val, MAX(reaching_writes(reach), 1u));
    /* Rounds: a load at one address of an allocation is taken to read
     * what memory holds now, as it does when no store of the launch
     * touches the allocation (frozen_load); when a store found may touch
     * one whose loads were so read, that allocation is no longer taken so
     * (nor any, when a store may touch anything) and the round repeats.
     * The answer of a round whose stores touch none of them stands: the
     * first store to touch one would have had to get its address from
     * what was read before it, all of it as assumed. */
    a.frozen = ~(OBJ_ANY | OBJ_PRIVATE);
    bool possible = true;
    for (unsigned round = 0; round < 8; round++) {
        a.folded = 0;
        memset(a.written, 0, MAX(reaching_writes(reach), 1u) * sizeof *a.written);
        if (!settle(&a))
            break;
        GArray *accesses = gather_accesses(&a);
        uint64_t stored = 0;
        for (guint i = 0; i < accesses->len; i++)
            if (g_array_index(accesses, Access, i).store)
                stored |= access_objects(&g_array_index(accesses, Access, i));
        bool holds = !(stored & (a.folded | OBJ_ANY)) || !a.folded;
        if (holds)
            possible = store_meets_access(&a, accesses, line);
        g_array_free(accesses, TRUE);
        if (holds)
            break;
        a.frozen &= stored & OBJ_ANY ? 0 : ~stored;
    }
    g_free(a.written);
    reaching_free(reach);
    return possible;
}
