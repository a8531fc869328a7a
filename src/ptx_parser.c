/* ptx_parser.c — PTX tokens to a decoded Module (contract in ptx_parser.h).
 *
 * One recursive-descent pass over the token array.  Names resolve through a
 * stack of scopes (innermost first: nested `{ }` blocks, then the function's
 * parameters, then module variables and functions).  Branch targets may be
 * used before their label, so label references are patched when the
 * function's closing brace is reached.
 */
#include "ptx_parser.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "errors.h"
#include "fileio.h"
#include "fpconv.h"
#include "ptx_lexer.h"

/* A name in a scope: a register or a variable, tagged in the low bit. */
#define SYM_REG 0u
#define SYM_VAR 1u
#define SYM_PACK(kind, index) GUINT_TO_POINTER((((guint)(index)) << 1 | (kind)) + 1)
#define SYM_KIND(p) ((GPOINTER_TO_UINT(p) - 1) & 1u)
#define SYM_INDEX(p) ((GPOINTER_TO_UINT(p) - 1) >> 1)
#define INDEX_LIMIT (1u << 30)
/* Registers of one function, counting every `%r<N>` range in full: far
 * beyond what compilers declare (tens of thousands), low enough that the
 * names, the scopes and cfg.c's per-block liveness sets stay small. */
#define REG_LIMIT (1u << 20)

typedef struct {
    uint32_t insn, opd;
    uint32_t tok; /* the label's token, for messages */
} LabelRef;

typedef struct {
    uint32_t nparams, nrets;
} Prototype;

typedef struct {
    const char *path;
    const char *text;
    const Token *tok;
    guint ntok, pos;
    Module *m;
    GError *err;
    GHashTable *globals;  /* module variable name -> index + 1 */
    GHashTable *funcs;    /* function name -> index + 1 */
    /* the function being parsed */
    uint32_t fi;
    GPtrArray *scopes;    /* GHashTable*: name -> SYM_PACK */
    GHashTable *labels;   /* label name (owned) -> insn index + 1 */
    GArray *label_refs;   /* LabelRef */
    GHashTable *protos;   /* prototype label (owned) -> Prototype* (owned) */
    uint32_t loc_file, loc_line;
    bool nounroll_next;      /* a statement-level .pragma "nounroll" flags the next instruction */
    bool address_size_given; /* .address_size seen (else both sizes pass) */
    bool defer_unsupported;  /* ptx_parse_string_deferring: mark functions, do not fail */
} Parser;

/* declaration attributes: `.param .u32 .ptr .global .align 4` */
typedef struct {
    PtxSpace space;
    PtxType type;
    uint32_t align;  /* 0 when not given */
    uint32_t vec;    /* 1, 2 or 4 */
    bool is_ptr;
} DeclAttrs;

/* ---- tokens and errors -------------------------------------------------- */

static const Token *peek(const Parser *p) { return &p->tok[p->pos]; }
static const Token *peek_at(const Parser *p, guint ahead)
{
    guint i = p->pos + ahead;
    return &p->tok[i < p->ntok ? i : p->ntok - 1];
}
static const Token *next(Parser *p)
{
    const Token *t = &p->tok[p->pos];
    if (t->kind != TK_EOF)
        p->pos++;
    return t;
}
static const char *tstr(const Parser *p, const Token *t) { return p->text + t->start; }
static bool is_punct(const Token *t, char c) { return t->kind == TK_PUNCT && t->punct == c; }
static bool tok_eq(const Parser *p, const Token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(tstr(p, t), s, n) == 0;
}
static bool is_dir(const Parser *p, const Token *t, const char *s)
{
    return t->kind == TK_DIRECTIVE && tok_eq(p, t, s);
}
static char *tdup(const Parser *p, const Token *t) { return g_strndup(tstr(p, t), t->len); }

G_GNUC_PRINTF(4, 5)
static bool fail(Parser *p, const Token *t, int code, const char *fmt, ...)
{
    if (p->err != NULL)
        return false;
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    p->err = g_error_new(WARPSIM_ERROR, code, "%s:%u:%u: error: %s", p->path, t->line, t->col, msg);
    g_free(msg);
    return false;
}

/* "'foo'" or "end of file" for messages; static buffer per call is avoided
 * by formatting into the caller's GString-free pattern: we print inline. */
#define TOK_FMT "%s%.*s%s"
#define TOK_ARGS(p, t) ((t)->kind == TK_EOF ? "" : "'"), (int)((t)->kind == TK_EOF ? 11 : (int)(t)->len), \
    ((t)->kind == TK_EOF ? "end of file" : tstr(p, t)), ((t)->kind == TK_EOF ? "" : "'")

static bool expect_punct(Parser *p, char c)
{
    const Token *t = peek(p);
    if (is_punct(t, c)) {
        next(p);
        return true;
    }
    return fail(p, t, WS_ERR_INPUT, "expected '%c' but found " TOK_FMT, c, TOK_ARGS(p, t));
}

/* ---- numbers ------------------------------------------------------------ */

typedef enum { NUM_INT, NUM_F32BITS, NUM_F64BITS, NUM_FLOAT } NumKind;
typedef struct {
    NumKind kind;
    uint64_t bits;  /* magnitude for NUM_INT, raw bits for 0f/0d */
    double value;   /* NUM_FLOAT */
    bool negative;
} NumLit;

static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

static bool parse_radix(const char *s, size_t n, unsigned radix, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        int d = digit_value(s[i]);
        if (d >= (int)radix)
            return false;
        if (v > (UINT64_MAX - (uint64_t)d) / radix)
            return false;
        v = v * radix + (uint64_t)d;
    }
    *out = v;
    return true;
}

/* Decode a TK_NUMBER token's text.  Integers: decimal, 0x hex, 0b binary,
 * leading-0 octal, optional U suffix.  0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX are
 * IEEE bit patterns; anything with '.' or an exponent is a decimal float. */
static bool decode_number(const char *s, size_t n, NumLit *out)
{
    memset(out, 0, sizeof *out);
    if (n >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
        out->kind = NUM_F32BITS;
        return n == 10 && parse_radix(s + 2, 8, 16, &out->bits);
    }
    if (n >= 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
        out->kind = NUM_F64BITS;
        return n == 18 && parse_radix(s + 2, 16, 16, &out->bits);
    }
    out->kind = NUM_INT;
    if (n >= 2 && (s[n - 1] == 'U' || s[n - 1] == 'u'))
        n--;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return parse_radix(s + 2, n - 2, 16, &out->bits);
    if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        return parse_radix(s + 2, n - 2, 2, &out->bits);
    bool is_float = false;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E')
            is_float = true;
    if (is_float) {
        char buf[64];
        if (n >= sizeof buf)
            return false;
        memcpy(buf, s, n);
        buf[n] = '\0';
        char *end;
        errno = 0;
        double d = g_ascii_strtod(buf, &end);
        if (*end != '\0' || errno == ERANGE)
            return false;
        out->kind = NUM_FLOAT;
        out->value = d;
        return true;
    }
    if (n >= 2 && s[0] == '0')
        return parse_radix(s + 1, n - 1, 8, &out->bits);
    return parse_radix(s, n, 10, &out->bits);
}

/* Parse [-]NUMBER at the cursor. */
static bool parse_numlit(Parser *p, NumLit *out, const Token **where)
{
    bool neg = false;
    const Token *t = peek(p);
    *where = t;
    if (is_punct(t, '-')) {
        neg = true;
        next(p);
        t = peek(p);
    }
    if (t->kind != TK_NUMBER)
        return fail(p, t, WS_ERR_INPUT, "expected a number but found " TOK_FMT, TOK_ARGS(p, t));
    next(p);
    if (!decode_number(tstr(p, t), t->len, out) ||
        (neg && out->kind == NUM_INT && out->bits > (uint64_t)INT64_MAX + 1))
        return fail(p, *where, WS_ERR_INPUT, "bad number '%s%.*s'", neg ? "-" : "", (int)t->len, tstr(p, t));
    out->negative = neg;
    return true;
}

/* The bit pattern of literal `n` read as type `t` (see module.h OPD_IMM). */
static bool literal_bits(Parser *p, const Token *where, const NumLit *n, PtxType t, int64_t *out)
{
    uint32_t cls = t == PTX_TYPE_NONE ? TC_UINT : isa_type_class(t);
    if (cls == TC_FLOAT) {
        bool f32 = t == PTX_TYPE_F32;
        double v;
        switch (n->kind) {
        case NUM_INT:
            v = n->negative ? -(double)n->bits : (double)n->bits;
            break;
        case NUM_F32BITS:
            if (f32) {
                *out = (int64_t)(uint32_t)(n->bits ^ (n->negative ? 0x80000000u : 0));
                return true;
            }
            v = fp_f32_from_bits((uint32_t)n->bits);
            v = n->negative ? -v : v;
            break;
        case NUM_F64BITS:
            if (!f32) {
                *out = (int64_t)(n->bits ^ (n->negative ? 0x8000000000000000ull : 0));
                return true;
            }
            v = fp_f64_from_bits(n->bits);
            v = n->negative ? -v : v;
            break;
        default:
            v = n->negative ? -n->value : n->value;
            break;
        }
        *out = f32 ? (int64_t)fp_f32_bits((float)v) : (int64_t)fp_f64_bits(v);
        return true;
    }
    if (cls == TC_HALF && n->kind != NUM_INT)
        return fail(p, where, WS_ERR_UNSUPPORTED,
                    "floating-point literal for a .%s operand is not supported (use its bit pattern)",
                    isa_types[t].spelling);
    switch (n->kind) {
    case NUM_INT:
        *out = n->negative ? (int64_t)(0 - n->bits) : (int64_t)n->bits;
        return true;
    case NUM_F32BITS:
        *out = (int64_t)(uint32_t)(n->bits ^ (n->negative ? 0x80000000u : 0));
        return true;
    case NUM_F64BITS:
        *out = (int64_t)(n->bits ^ (n->negative ? 0x8000000000000000ull : 0));
        return true;
    default:
        return fail(p, where, WS_ERR_INPUT, "floating-point literal where an integer is expected");
    }
}

/* A non-negative integer (counts, sizes, alignments, directive values). */
static bool parse_uint(Parser *p, uint64_t max, uint64_t *out)
{
    NumLit n;
    const Token *t;
    if (!parse_numlit(p, &n, &t))
        return false;
    if (n.kind != NUM_INT || n.negative || n.bits > max)
        return fail(p, t, WS_ERR_INPUT, "expected an integer from 0 to %" G_GUINT64_FORMAT, max);
    *out = n.bits;
    return true;
}

/* ---- scopes and symbols ------------------------------------------------- */

static Function *cur_func(Parser *p) { return module_func(p->m, p->fi); }

static void push_scope(Parser *p)
{
    g_ptr_array_add(p->scopes, g_hash_table_new(g_str_hash, g_str_equal));
}

static void pop_scope(Parser *p)
{
    g_ptr_array_remove_index(p->scopes, p->scopes->len - 1);
}

/* Innermost-first lookup of a register or body/param variable. */
static gpointer scope_lookup(const Parser *p, const char *name)
{
    for (guint i = p->scopes->len; i-- > 0;) {
        gpointer v = g_hash_table_lookup(g_ptr_array_index(p->scopes, i), name);
        if (v)
            return v;
    }
    return NULL;
}

static bool scope_declare(Parser *p, const Token *at, const char *name, guint kind, uint32_t index)
{
    GHashTable *top = g_ptr_array_index(p->scopes, p->scopes->len - 1);
    if (g_hash_table_contains(top, name))
        return fail(p, at, WS_ERR_INPUT, "duplicate declaration of '%s'", name);
    g_hash_table_insert(top, (gpointer)name, SYM_PACK(kind, index));
    return true;
}

static uint32_t add_reg(Function *f, char *name, PtxType type, uint32_t line)
{
    RegInfo r = {name, type, line};
    g_array_append_val(f->regs, r);
    return f->regs->len - 1;
}

static uint32_t add_var(Parser *p, const Variable *v)
{
    g_array_append_val(p->m->vars, *v);
    return p->m->vars->len - 1;
}

/* Name resolution for operands.  What a bare name may be, in order: a
 * register or variable of an enclosing scope, a module variable, a
 * function, and finally (old PTX, `@p1`) the register `%name`. */
typedef enum { RES_NONE, RES_REG, RES_VAR, RES_FUNC } ResKind;

static ResKind resolve_name(const Parser *p, const char *name, uint32_t *index)
{
    gpointer s = p->scopes ? scope_lookup(p, name) : NULL;
    if (s) {
        *index = SYM_INDEX(s);
        return SYM_KIND(s) == SYM_REG ? RES_REG : RES_VAR;
    }
    gpointer g = g_hash_table_lookup(p->globals, name);
    if (g) {
        *index = GPOINTER_TO_UINT(g) - 1;
        return RES_VAR;
    }
    g = g_hash_table_lookup(p->funcs, name);
    if (g) {
        *index = GPOINTER_TO_UINT(g) - 1;
        return RES_FUNC;
    }
    if (name[0] != '%' && p->scopes) {
        char *alt = g_strconcat("%", name, NULL);
        s = scope_lookup(p, alt);
        g_free(alt);
        if (s && SYM_KIND(s) == SYM_REG) {
            *index = SYM_INDEX(s);
            return RES_REG;
        }
    }
    return RES_NONE;
}

/* ---- declarations ------------------------------------------------------- */

static bool space_of(const Parser *p, const Token *t, PtxSpace *out)
{
    static const struct { const char *name; PtxSpace space; } spaces[] = {
        {".global", SPACE_GLOBAL}, {".shared", SPACE_SHARED}, {".local", SPACE_LOCAL},
        {".const", SPACE_CONST},   {".param", SPACE_PARAM},   {".reg", SPACE_REG},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(spaces); i++)
        if (is_dir(p, t, spaces[i].name)) {
            *out = spaces[i].space;
            return true;
        }
    return false;
}

/* After the state-space directive: .align N, .ptr [.space] [.align N], .vN,
 * and the type, in any order. */
static bool parse_decl_attrs(Parser *p, DeclAttrs *a)
{
    a->type = PTX_TYPE_NONE;
    a->align = 0;
    a->vec = 1;
    a->is_ptr = false;
    for (;;) {
        const Token *t = peek(p);
        if (t->kind != TK_DIRECTIVE)
            break;
        PtxSpace sp;
        PtxType ty = isa_find_type(tstr(p, t) + 1, t->len - 1);
        if (is_dir(p, t, ".align")) {
            next(p);
            uint64_t al;
            const Token *at = peek(p);
            if (!parse_uint(p, 1u << 20, &al))
                return false;
            if (al == 0 || (al & (al - 1)) != 0)
                return fail(p, at, WS_ERR_INPUT, "alignment %" G_GUINT64_FORMAT " is not a power of two", al);
            if (!a->is_ptr) /* after .ptr the alignment is the pointee's */
                a->align = (uint32_t)al;
        } else if (is_dir(p, t, ".ptr")) {
            next(p);
            a->is_ptr = true;
        } else if (is_dir(p, t, ".attribute")) {
            /* .attribute(.managed): __managed__ memory, one address for host
             * and device, which simulated global memory is already */
            next(p);
            if (!expect_punct(p, '('))
                return false;
            const Token *at = peek(p);
            if (!is_dir(p, at, ".managed"))
                return fail(p, at, WS_ERR_UNSUPPORTED, "variable attribute " TOK_FMT " is not supported (only .managed)",
                            TOK_ARGS(p, at));
            next(p);
            if (!expect_punct(p, ')'))
                return false;
        } else if (a->is_ptr && space_of(p, t, &sp)) {
            next(p);
        } else if (is_dir(p, t, ".v2") || is_dir(p, t, ".v4")) {
            next(p);
            a->vec = tstr(p, t)[2] - '0';
        } else if (ty != PTX_TYPE_NONE) {
            if (a->type != PTX_TYPE_NONE)
                return fail(p, t, WS_ERR_INPUT, "second type '%.*s' in declaration", (int)t->len, tstr(p, t));
            next(p);
            a->type = ty;
        } else {
            break;
        }
    }
    if (a->type == PTX_TYPE_NONE) {
        const Token *t = peek(p);
        if (is_dir(p, t, ".texref") || is_dir(p, t, ".samplerref") || is_dir(p, t, ".surfref"))
            return fail(p, t, WS_ERR_UNSUPPORTED, "'%.*s' variables are not supported", (int)t->len, tstr(p, t));
        return fail(p, t, WS_ERR_INPUT, "expected a type in declaration but found " TOK_FMT, TOK_ARGS(p, t));
    }
    return true;
}

/* `[N]` dimensions after a name; *unsized for `[]` (first dimension only). */
static bool parse_dims(Parser *p, uint64_t *count, bool *unsized)
{
    *count = 1;
    *unsized = false;
    bool first = true;
    while (is_punct(peek(p), '[')) {
        const Token *open = next(p);
        if (is_punct(peek(p), ']')) {
            if (!first)
                return fail(p, open, WS_ERR_INPUT, "only the first array dimension may be omitted");
            *unsized = true;
            next(p);
        } else {
            uint64_t n;
            const Token *at = peek(p);
            if (!parse_uint(p, UINT32_MAX, &n))
                return false;
            if (*count > (UINT64_C(1) << 40) / (n ? n : 1))
                return fail(p, at, WS_ERR_INPUT, "array too large");
            *count *= n;
            if (!expect_punct(p, ']'))
                return false;
        }
        first = false;
    }
    return true;
}

static void put_le(GByteArray *b, uint64_t at, uint64_t v, unsigned size)
{
    if (b->len < at + size)
        g_byte_array_set_size(b, (guint)(at + size));
    for (unsigned i = 0; i < size; i++)
        b->data[at + i] = (uint8_t)(v >> (8 * i));
}

/* Initial values are held in memory byte for byte (Variable.init); larger
 * initialised variables than this are outside the subset. */
#define MAX_INIT_BYTES (UINT64_C(256) << 20)

/* One scalar of an initialiser: a number, `sym`, `sym+N`, `generic(sym)`. */
static bool parse_init_element(Parser *p, Variable *v, uint64_t index, unsigned esize,
                               GByteArray *bytes)
{
    const Token *t = peek(p);
    uint64_t at = index * esize;
    if (at + esize > MAX_INIT_BYTES)
        return fail(p, t, WS_ERR_UNSUPPORTED, "initialiser of '%s': initialised variables may hold at most %"
                    G_GUINT64_FORMAT " MiB", v->name, MAX_INIT_BYTES >> 20);
    if (t->kind == TK_IDENT) {
        bool generic = false;
        const Token *name = t;
        next(p);
        if (tok_eq(p, t, "generic") && is_punct(peek(p), '(')) {
            next(p);
            generic = true;
            name = peek(p);
            if (name->kind != TK_IDENT)
                return fail(p, name, WS_ERR_INPUT, "expected a symbol in generic()");
            next(p);
            if (!expect_punct(p, ')'))
                return false;
        }
        if (esize != 4 && esize != 8)
            return fail(p, name, WS_ERR_UNSUPPORTED,
                        "address initialiser '%.*s' needs a 32- or 64-bit element", (int)name->len, tstr(p, name));
        VarFixup fx = {at, esize, NO_INDEX, NO_INDEX, generic, 0};
        char *nm = tdup(p, name);
        uint32_t idx;
        ResKind rk = resolve_name(p, nm, &idx);
        g_free(nm);
        if (rk == RES_VAR)
            fx.sym = idx;
        else if (rk == RES_FUNC)
            fx.func = idx;
        else
            return fail(p, name, WS_ERR_INPUT, "undefined symbol '%.*s' in initialiser", (int)name->len, tstr(p, name));
        if (is_punct(peek(p), '+')) {
            next(p);
            uint64_t add;
            if (!parse_uint(p, INT64_MAX, &add))
                return false;
            fx.addend = (int64_t)add;
        }
        if (v->init_fixups == NULL)
            v->init_fixups = g_array_new(FALSE, FALSE, sizeof(VarFixup));
        g_array_append_val(v->init_fixups, fx);
        put_le(bytes, at, 0, esize);
        return true;
    }
    NumLit n;
    const Token *where;
    int64_t bits;
    if (!parse_numlit(p, &n, &where))
        return false;
    if (!literal_bits(p, where, &n, v->type, &bits))
        return false;
    put_le(bytes, at, (uint64_t)bits, esize);
    return true;
}

/* `{a, b, {c, d}}` or a scalar; elements fill the variable in order. */
static bool parse_init_list(Parser *p, Variable *v, unsigned esize, uint64_t *count, GByteArray *bytes,
                            unsigned depth)
{
    if (depth > 16)
        return fail(p, peek(p), WS_ERR_INPUT, "initialiser nested too deeply");
    if (!is_punct(peek(p), '{'))
        return parse_init_element(p, v, (*count)++, esize, bytes);
    next(p);
    if (is_punct(peek(p), '}'))
        return fail(p, peek(p), WS_ERR_INPUT, "empty initialiser list");
    for (;;) {
        if (!parse_init_list(p, v, esize, count, bytes, depth + 1))
            return false;
        if (is_punct(peek(p), ',')) {
            next(p);
            continue;
        }
        return expect_punct(p, '}');
    }
}

static bool parse_initialiser(Parser *p, Variable *v, bool unsized, uint64_t elems)
{
    const Token *eq = next(p); /* '=' */
    unsigned esize = isa_type_size(v->type);
    if (v->size > MAX_INIT_BYTES)
        return fail(p, eq, WS_ERR_UNSUPPORTED, "initialiser of '%s' (%" G_GUINT64_FORMAT
                    " bytes): initialised variables may hold at most %" G_GUINT64_FORMAT " MiB",
                    v->name, v->size, MAX_INIT_BYTES >> 20);
    uint64_t count = 0;
    GByteArray *bytes = g_byte_array_new();
    if (!parse_init_list(p, v, esize, &count, bytes, 0)) {
        g_byte_array_unref(bytes);
        return false;
    }
    if (unsized) {
        elems = count;
        v->size = count * esize;
    } else if (count > elems) {
        g_byte_array_unref(bytes);
        return fail(p, eq, WS_ERR_INPUT, "too many initialisers for '%s' (%" G_GUINT64_FORMAT " for %"
                    G_GUINT64_FORMAT " elements)", v->name, count, elems);
    }
    g_byte_array_set_size(bytes, (guint)v->size);
    if (count * esize < v->size)
        memset(bytes->data + count * esize, 0, v->size - count * esize);
    v->init = g_byte_array_free(bytes, FALSE);
    return true;
}

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

typedef enum { DECL_MODULE, DECL_BODY } DeclContext;

/* A variable declaration statement (after any linkage directives), from the
 * state-space directive to ';'.  Module scope or a function body. */
static bool parse_var_decl(Parser *p, DeclContext ctx, bool is_extern)
{
    const Token *sp_tok = next(p);
    PtxSpace space;
    space_of(p, sp_tok, &space);
    DeclAttrs a;
    if (!parse_decl_attrs(p, &a))
        return false;
    for (;;) {
        const Token *nt = peek(p);
        if (nt->kind != TK_IDENT)
            return fail(p, nt, WS_ERR_INPUT, "expected a name in declaration but found " TOK_FMT, TOK_ARGS(p, nt));
        next(p);
        uint64_t count;
        bool unsized;
        if (!parse_dims(p, &count, &unsized))
            return false;
        Variable v = {0};
        v.name = tdup(p, nt);
        v.space = space;
        v.type = a.type;
        v.align = a.align ? a.align : isa_type_size(a.type) * a.vec;
        v.size = unsized ? 0 : count * isa_type_size(a.type) * a.vec;
        v.is_extern = is_extern;
        v.owner = ctx == DECL_MODULE ? NO_INDEX : p->fi;
        v.line = nt->line;
        v.scope = ctx == DECL_MODULE ? VAR_MODULE : VAR_FRAME;
        if (is_punct(peek(p), '=')) {
            if (a.vec != 1) {
                g_free(v.name);
                return fail(p, peek(p), WS_ERR_UNSUPPORTED, "initialiser of a vector variable");
            }
            if (!parse_initialiser(p, &v, unsized, count)) {
                g_free(v.name);
                g_free(v.init);
                if (v.init_fixups)
                    g_array_unref(v.init_fixups);
                return false;
            }
        }
        if (ctx == DECL_MODULE) {
            gpointer old = g_hash_table_lookup(p->globals, v.name);
            if (old || g_hash_table_contains(p->funcs, v.name)) {
                Variable *ov = old ? module_var(p->m, GPOINTER_TO_UINT(old) - 1) : NULL;
                if (ov && (ov->is_extern || v.is_extern)) {
                    /* an .extern declaration and its definition: keep one */
                    if (!v.is_extern) {
                        char *keep = ov->name;
                        g_free(ov->init);
                        if (ov->init_fixups)
                            g_array_unref(ov->init_fixups);
                        *ov = v;
                        ov->name = keep;
                        g_free(v.name);
                    } else {
                        g_free(v.name);
                        g_free(v.init);
                        if (v.init_fixups)
                            g_array_unref(v.init_fixups);
                    }
                } else {
                    bool r = fail(p, nt, WS_ERR_INPUT, "duplicate declaration of '%s'", v.name);
                    g_free(v.name);
                    g_free(v.init);
                    if (v.init_fixups)
                        g_array_unref(v.init_fixups);
                    return r;
                }
            } else {
                uint32_t idx = add_var(p, &v);
                g_hash_table_insert(p->globals, module_var(p->m, idx)->name, GUINT_TO_POINTER(idx + 1));
            }
        } else {
            Function *f = cur_func(p);
            if (space == SPACE_PARAM) {
                f->frame_param_bytes = align_up(f->frame_param_bytes, v.align);
                v.offset = f->frame_param_bytes;
                f->frame_param_bytes += v.size;
                f->body_params = true;
            } else if (space == SPACE_LOCAL) {
                f->frame_local_bytes = align_up(f->frame_local_bytes, v.align);
                v.offset = f->frame_local_bytes;
                f->frame_local_bytes += v.size;
            }
            uint32_t idx = add_var(p, &v);
            g_array_append_val(f->frame_vars, idx);
            if (!scope_declare(p, nt, module_var(p->m, idx)->name, SYM_VAR, idx))
                return false;
        }
        if (is_punct(peek(p), ',')) {
            next(p);
            continue;
        }
        return expect_punct(p, ';');
    }
}

/* `.reg .b32 %r<10>, %x, low;` inside a body. */
static bool parse_reg_decl(Parser *p)
{
    next(p); /* .reg */
    DeclAttrs a;
    if (!parse_decl_attrs(p, &a))
        return false;
    if (a.vec != 1)
        return fail(p, peek(p), WS_ERR_UNSUPPORTED, "vector registers are not supported");
    Function *f = cur_func(p);
    for (;;) {
        const Token *nt = peek(p);
        if (nt->kind != TK_IDENT)
            return fail(p, nt, WS_ERR_INPUT, "expected a register name but found " TOK_FMT, TOK_ARGS(p, nt));
        next(p);
        if (is_punct(peek(p), '<')) {
            next(p);
            uint64_t n;
            if (!parse_uint(p, 1u << 24, &n) || !expect_punct(p, '>'))
                return false;
            if (n > REG_LIMIT - f->regs->len)
                return fail(p, nt, WS_ERR_UNSUPPORTED, "too many registers (a function may declare at most %u)",
                            REG_LIMIT);
            for (uint64_t i = 0; i < n; i++) {
                char *name = g_strdup_printf("%.*s%" G_GUINT64_FORMAT, (int)nt->len, tstr(p, nt), i);
                uint32_t r = add_reg(f, name, a.type, nt->line);
                if (!scope_declare(p, nt, name, SYM_REG, r))
                    return false;
            }
        } else {
            if (f->regs->len >= REG_LIMIT)
                return fail(p, nt, WS_ERR_UNSUPPORTED, "too many registers (a function may declare at most %u)",
                            REG_LIMIT);
            uint32_t r = add_reg(f, tdup(p, nt), a.type, nt->line);
            if (!scope_declare(p, nt, g_array_index(f->regs, RegInfo, r).name, SYM_REG, r))
                return false;
        }
        if (is_punct(peek(p), ',')) {
            next(p);
            continue;
        }
        return expect_punct(p, ';');
    }
}

/* ---- directives ---------------------------------------------------------- */

/* Skip the rest of the current line (directives without ';': .loc, .file). */
static void skip_line(Parser *p, uint32_t line)
{
    while (peek(p)->kind != TK_EOF && peek(p)->line == line)
        next(p);
}

static bool parse_loc(Parser *p)
{
    const Token *d = next(p);
    uint64_t file, line;
    if (!parse_uint(p, UINT32_MAX, &file) || !parse_uint(p, UINT32_MAX, &line))
        return false;
    p->loc_file = (uint32_t)file;
    p->loc_line = (uint32_t)line;
    /* column and `, function_name ..., inlined_at f l c`: not needed */
    skip_line(p, d->line);
    return true;
}

static bool parse_file(Parser *p)
{
    const Token *d = next(p);
    uint64_t idx;
    if (!parse_uint(p, 1u << 20, &idx))
        return false;
    const Token *s = peek(p);
    if (s->kind != TK_STRING)
        return fail(p, s, WS_ERR_INPUT, "expected a file name string but found " TOK_FMT, TOK_ARGS(p, s));
    next(p);
    while (p->m->files->len <= idx)
        g_ptr_array_add(p->m->files, NULL);
    g_free(g_ptr_array_index(p->m->files, idx));
    g_ptr_array_index(p->m->files, idx) = g_strndup(tstr(p, s) + 1, s->len - 2);
    skip_line(p, d->line); /* optional timestamp, size */
    return true;
}

/* `.section name { ... }`: debug data, skipped with its braces balanced. */
static bool skip_section(Parser *p)
{
    const Token *d = next(p);
    while (peek(p)->kind != TK_EOF && !is_punct(peek(p), '{'))
        next(p);
    if (peek(p)->kind == TK_EOF)
        return fail(p, d, WS_ERR_INPUT, "unterminated .section");
    int depth = 0;
    do {
        const Token *t = next(p);
        if (t->kind == TK_EOF)
            return fail(p, d, WS_ERR_INPUT, "unterminated .section (missing '}')");
        if (is_punct(t, '{'))
            depth++;
        else if (is_punct(t, '}'))
            depth--;
    } while (depth > 0);
    return true;
}

/* .pragma "...", "..."; sets *nounroll when one of its strings is
 * "nounroll" (the only pragma that changes what ptxas makes of the PTX in a
 * way warpsim models: the loop is not unrolled; src/timing.c). */
static bool parse_pragma(Parser *p, bool *nounroll)
{
    next(p);
    while (peek(p)->kind == TK_STRING || is_punct(peek(p), ',')) {
        const Token *t = next(p);
        if (t->kind == TK_STRING && t->len == 10 && memcmp(tstr(p, t), "\"nounroll\"", 10) == 0)
            *nounroll = true;
    }
    return expect_punct(p, ';');
}

/* ---- instructions -------------------------------------------------------- */

/* What each operand slot of an opcode holds, one character per slot of its
 * shape in isa/ptx_ops.def (PTX ISA "Operand Type Information" and the
 * description of each instruction):
 *   t  the instruction type, same size
 *   r  the instruction type; an integer register may be wider (ld/st/cvt:
 *      ISA "Operand Size Exceeding Instruction-Type Size")
 *   s  the second type (cvt source), wider allowed as for 'r'
 *   S  the second type, same size (set sources, slct selector)
 *   w  twice the instruction type under .wide, else the instruction type
 *   p  a predicate
 *   u  .u32 (shift amounts, bit positions and lengths)
 *   b  .b32 (member masks, lane indices, lookup tables)
 *   v  not checked; an immediate is read as .u32 (bar's several forms,
 *      cp.async's sizes or ignore-src predicate)
 *   x  not checked; an immediate is read as .u64 (isspacep's address,
 *      cache policies)
 *   P  an mbarrier phase: the instruction type (a .b64 state), or .u32
 *      under .parity
 * Memory operands and labels (shape 'm', 'l') have their own rules; the
 * role letter of their slot is a placeholder.  Opcodes without a row hold
 * the instruction type in every slot.  The roles fix both the bits an
 * immediate is decoded to (read_type) and the registers an operand accepts
 * (check_operand_types). */
static const char *const operand_roles[OP_COUNT] = {
    [OP_MUL] = "wtt",    [OP_MAD] = "wttw",     [OP_MADC] = "wttw",   [OP_TESTP] = "pt",
    [OP_SETP] = "pttp",  [OP_SET] = "tSSp",     [OP_SELP] = "tttp",   [OP_SLCT] = "tttS",
    [OP_LOP3] = "ttttb", [OP_SHL] = "ttu",      [OP_SHR] = "ttu",     [OP_SHF] = "tttu",
    [OP_POPC] = "ut",    [OP_CLZ] = "ut",       [OP_BFIND] = "ut",    [OP_BFE] = "ttuu",
    [OP_BFI] = "tttuu",  [OP_CVT] = "rss",      [OP_ISSPACEP] = "px", [OP_LD] = "rm",
    [OP_LDU] = "rm",     [OP_ST] = "mr",        [OP_ATOM] = "tmtt",   [OP_RED] = "mt",
    [OP_BAR] = "vvvv",   [OP_BARRIER] = "vvvv", [OP_NANOSLEEP] = "u", [OP_VOTE] = "tpb",
    [OP_SHFL] = "ttbbb", [OP_MATCH] = "btb",
    [OP_CP_ASYNC] = "mmvvx", [OP_CP_ASYNC_WAIT_GROUP] = "u", [OP_MBARRIER_INIT] = "mu",
    [OP_MBARRIER_ARRIVE] = "tmu", [OP_MBARRIER_ARRIVE_DROP] = "tmu", [OP_MBARRIER_TEST_WAIT] = "pmP",
    [OP_MBARRIER_TRY_WAIT] = "pmPu", [OP_MBARRIER_PENDING_COUNT] = "ut", [OP_MBARRIER_EXPECT_TX] = "mu",
    [OP_MBARRIER_COMPLETE_TX] = "mu",
    [OP_VABSDIFF4] = "bbbb", [OP_VADD4] = "bbbb", [OP_VSUB4] = "bbbb", [OP_VMIN4] = "bbbb",
    [OP_VMAX4] = "bbbb", [OP_VAVRG4] = "bbbb", [OP_VABSDIFF2] = "bbbb", [OP_VADD2] = "bbbb",
    [OP_VSUB2] = "bbbb", [OP_VMIN2] = "bbbb", [OP_VMAX2] = "bbbb", [OP_VAVRG2] = "bbbb",
};

static char operand_role(const Insn *in, unsigned i)
{
    const char *r = operand_roles[in->op];
    return r != NULL && i < strlen(r) ? r[i] : 't';
}

/* The type an immediate in operand slot `i` is read at (module.h).  Under
 * .wide the addend of mad is still read at the instruction type. */
static PtxType read_type(const Insn *in, unsigned i)
{
    switch (operand_role(in, i)) {
    case 's':
    case 'S': return (PtxType)in->type2;
    case 'p': return PTX_TYPE_PRED;
    case 'u':
    case 'v': return PTX_TYPE_U32;
    case 'b': return PTX_TYPE_B32;
    case 'x': return PTX_TYPE_U64;
    case 'P': return (in->flags & FL_PARITY) ? PTX_TYPE_U32 : (PtxType)in->type;
    default: return in->type ? (PtxType)in->type : PTX_TYPE_U64;
    }
}

static const char *kind_word(char k)
{
    switch (k) {
    case 'd': return "a destination register";
    case 'm': return "a memory reference [...]";
    case 'l': return "a label";
    default: return "a source operand";
    }
}

/* A register operand by token; *is_sreg when it names a special register. */
static bool parse_sreg(Parser *p, const Token *t, Operand *o)
{
    const char *s = tstr(p, t);
    size_t n = t->len;
    if (n > 7 && memcmp(s, "%envreg", 7) == 0) {
        uint64_t k;
        if (parse_radix(s + 7, n - 7, 10, &k) && k < 32) {
            o->kind = OPD_SREG;
            o->reg = SREG_ENVREG;
            o->component = (uint8_t)k;
            return true;
        }
        return false;
    }
    const char *dot = memchr(s, '.', n);
    size_t base = dot ? (size_t)(dot - s) : n;
    PtxSreg id;
    if (!isa_find_sreg(s, base, &id) || id == SREG_ENVREG)
        return false;
    if (id >= SREG_RESERVED_SMEM_BEGIN && id <= SREG_RESERVED_SMEM_1)
        p->m->reads_reserved_smem = true;
    if (isa_sregs[id].vector) {
        if (!dot || n - base != 2 || strchr("xyz", dot[1]) == NULL || dot[1] == '\0')
            return false;
        o->component = (uint8_t)(dot[1] - 'x');
    } else if (dot) {
        return false;
    }
    o->kind = OPD_SREG;
    o->reg = id;
    return true;
}

/* Special registers PTX defines that the subset does not model: naming one
 * is "unsupported", not "undefined". */
static bool is_unmodelled_sreg(const Parser *p, const Token *t)
{
    static const char *const prefixes[] = {
        "%pm",
        "%aggr_smem_size", "%current_graph_exec",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++) {
        size_t n = strlen(prefixes[i]);
        if (t->len >= n && memcmp(tstr(p, t), prefixes[i], n) == 0)
            return true;
    }
    return false;
}

static void init_operand(Operand *o)
{
    memset(o, 0, sizeof *o);
    o->reg = o->reg2 = o->sym = o->func = NO_INDEX;
    for (int i = 0; i < VEC_MAX; i++)
        o->vec_regs[i] = NO_INDEX;
}

static bool lookup_reg(Parser *p, const Token *t, uint32_t *reg)
{
    char *name = tdup(p, t);
    uint32_t idx;
    ResKind k = resolve_name(p, name, &idx);
    g_free(name);
    if (k == RES_REG) {
        *reg = idx;
        return true;
    }
    if (k == RES_NONE)
        return fail(p, t, WS_ERR_INPUT, "undefined register '%.*s'", (int)t->len, tstr(p, t));
    return fail(p, t, WS_ERR_INPUT, "'%.*s' is not a register", (int)t->len, tstr(p, t));
}

/* `{%r1, %r2, _}` */
static bool parse_vector(Parser *p, Operand *o, bool allow_sink)
{
    const Token *open = next(p);
    o->kind = OPD_VEC;
    for (;;) {
        const Token *t = peek(p);
        if (o->vec_count >= VEC_MAX)
            return fail(p, t, WS_ERR_INPUT, "vector has more than %d elements", VEC_MAX);
        uint32_t r = NO_INDEX;
        if (!allow_sink && (t->kind == TK_NUMBER || is_punct(t, '-'))) {
            /* `mov.b32 %f1, {0, %rs1}`: a source element reading zero is
             * NO_INDEX (the executor reads it as 0); others have no slot */
            NumLit n;
            const Token *where;
            int64_t v;
            if (!parse_numlit(p, &n, &where) || !literal_bits(p, where, &n, PTX_TYPE_B64, &v))
                return false;
            if (v != 0)
                return fail(p, where, WS_ERR_UNSUPPORTED, "non-zero immediate inside a vector operand");
            o->vec_regs[o->vec_count++] = NO_INDEX;
            if (is_punct(peek(p), ',')) {
                next(p);
                continue;
            }
            if (!expect_punct(p, '}'))
                return false;
            break;
        }
        if (t->kind != TK_IDENT)
            return fail(p, t, WS_ERR_INPUT, "expected a register in vector but found " TOK_FMT, TOK_ARGS(p, t));
        next(p);
        if (tok_eq(p, t, "_")) {
            if (!allow_sink)
                return fail(p, t, WS_ERR_INPUT, "'_' is only allowed in destinations");
        } else if (!lookup_reg(p, t, &r)) {
            return false;
        }
        o->vec_regs[o->vec_count++] = r;
        if (is_punct(peek(p), ',')) {
            next(p);
            continue;
        }
        if (!expect_punct(p, '}'))
            return false;
        break;
    }
    if (o->vec_count != 2 && o->vec_count != 4)
        return fail(p, open, WS_ERR_INPUT, "vector operand must have 2 or 4 elements, not %u", o->vec_count);
    return true;
}

/* `[reg]`, `[reg+imm]`, `[reg+-4]`, `[reg-4]`, `[sym+8]`, `[imm]` */
static bool parse_memory(Parser *p, Operand *o)
{
    next(p); /* '[' */
    o->kind = OPD_ADDR;
    const Token *t = peek(p);
    if (t->kind == TK_IDENT) {
        next(p);
        char *name = tdup(p, t);
        uint32_t idx;
        ResKind k = resolve_name(p, name, &idx);
        g_free(name);
        if (k == RES_REG)
            o->reg = idx;
        else if (k == RES_VAR)
            o->sym = idx;
        else if (k == RES_FUNC)
            return fail(p, t, WS_ERR_INPUT, "function '%.*s' used as a memory address", (int)t->len, tstr(p, t));
        else
            return fail(p, t, WS_ERR_INPUT, "undefined symbol '%.*s'", (int)t->len, tstr(p, t));
        if (is_punct(peek(p), '+') || is_punct(peek(p), '-')) {
            bool minus = peek(p)->punct == '-';
            next(p);
            NumLit n;
            const Token *where;
            int64_t v;
            if (!parse_numlit(p, &n, &where) || !literal_bits(p, where, &n, PTX_TYPE_S64, &v))
                return false;
            o->imm = minus ? (int64_t)(0 - (uint64_t)v) : v;
        }
    } else {
        NumLit n;
        const Token *where;
        if (!parse_numlit(p, &n, &where) || !literal_bits(p, where, &n, PTX_TYPE_S64, &o->imm))
            return false;
    }
    return expect_punct(p, ']');
}

/* One operand of kind `k` ('d', 'a', 'b', 'm', 'l') at slot i. */
/* What the identifier t of an operand names (a register's index in *idx);
 * *sreg: it names no declaration but is a special register. */
static ResKind operand_name(Parser *p, const Token *t, uint32_t *idx, bool *sreg)
{
    char *name = tdup(p, t);
    ResKind rk = resolve_name(p, name, idx);
    g_free(name);
    Operand probe;
    init_operand(&probe);
    *sreg = rk == RES_NONE && parse_sreg(p, t, &probe);
    return rk;
}

static bool parse_operand(Parser *p, Insn *in, unsigned i, char k, const char *opname)
{
    Operand *o = &in->opd[i];
    init_operand(o);
    const Token *t = peek(p);
    const PtxOpcode op = (PtxOpcode)in->op;

    if (k == 'm') {
        if (!is_punct(t, '['))
            return fail(p, t, WS_ERR_INPUT, "operand %u of '%s' must be %s", i + 1, opname, kind_word(k));
        return parse_memory(p, o);
    }
    if (k == 'l') {
        if (t->kind != TK_IDENT)
            return fail(p, t, WS_ERR_INPUT, "operand %u of '%s' must be %s", i + 1, opname, kind_word(k));
        next(p);
        /* a register can never be a label: say what was found rather than
         * "undefined label" */
        bool sreg;
        uint32_t idx;
        ResKind rk = operand_name(p, t, &idx, &sreg);
        const char *found = rk == RES_REG ? "register"
                            : sreg ? "special register"
                            : tstr(p, t)[0] == '%' ? "undefined register" : NULL;
        if (found != NULL)
            return fail(p, t, WS_ERR_INPUT, "operand %u of '%s' must be a label but found %s '%.*s'", i + 1, opname,
                        found, (int)t->len, tstr(p, t));
        o->kind = OPD_LABEL;
        LabelRef r = {func_ninsns(cur_func(p)), i, (uint32_t)(t - p->tok)};
        g_array_append_val(p->label_refs, r);
        return true;
    }
    if (is_punct(t, '{')) {
        bool ok_vec = k == 'd' ? (op == OP_MOV || op == OP_LD || op == OP_LDU || op == OP_ATOM)
                               : (op == OP_MOV || op == OP_ST || op == OP_ATOM || op == OP_RED);
        if (!ok_vec)
            return fail(p, t, WS_ERR_INPUT, "operand %u of '%s' must be %s", i + 1, opname, kind_word(k));
        return parse_vector(p, o, k == 'd');
    }
    if (is_punct(t, '[') || t->kind == TK_STRING || t->kind == TK_DIRECTIVE)
        return fail(p, t, WS_ERR_INPUT, "operand %u of '%s' must be %s", i + 1, opname, kind_word(k));
    if (k == 'd') {
        if (t->kind != TK_IDENT)
            return fail(p, t, WS_ERR_INPUT, "operand %u of '%s' must be %s", i + 1, opname, kind_word(k));
        next(p);
        bool sink = tok_eq(p, t, "_");
        if (sink && !is_punct(peek(p), '|')) {
            o->kind = OPD_SINK;
            return true;
        }
        if (!sink) { /* `_|%p` keeps reg NO_INDEX: only the predicate is wanted */
            bool sreg;
            uint32_t idx;
            ResKind rk = operand_name(p, t, &idx, &sreg);
            if (rk != RES_REG) {
                if (rk == RES_NONE && !sreg)
                    return fail(p, t, WS_ERR_INPUT, "undefined register '%.*s'", (int)t->len, tstr(p, t));
                return fail(p, t, WS_ERR_INPUT, "operand %u of '%s' must be %s", i + 1, opname, kind_word(k));
            }
            o->reg = idx;
        }
        o->kind = OPD_REG;
        if (is_punct(peek(p), '|')) {
            next(p);
            const Token *q = peek(p);
            if (q->kind != TK_IDENT)
                return fail(p, q, WS_ERR_INPUT, "expected a register after '|'");
            next(p);
            o->kind = OPD_PAIR;
            if (!tok_eq(p, q, "_") && !lookup_reg(p, q, &o->reg2))
                return false;
        }
        return true;
    }
    /* sources */
    if (is_punct(t, '!')) {
        next(p);
        const Token *r = peek(p);
        if (r->kind != TK_IDENT)
            return fail(p, r, WS_ERR_INPUT, "expected a predicate register after '!'");
        next(p);
        if (!lookup_reg(p, r, &o->reg))
            return false;
        o->kind = OPD_REG;
        o->negate = 1;
        return true;
    }
    if (t->kind == TK_NUMBER || is_punct(t, '-')) {
        NumLit n;
        const Token *where;
        if (!parse_numlit(p, &n, &where))
            return false;
        o->kind = OPD_IMM;
        return literal_bits(p, where, &n, read_type(in, i), &o->imm);
    }
    if (t->kind != TK_IDENT)
        return fail(p, t, WS_ERR_INPUT, "operand %u of '%s' must be %s but found " TOK_FMT, i + 1, opname,
                    kind_word(k), TOK_ARGS(p, t));
    next(p);
    if (tok_eq(p, t, "_"))
        return fail(p, t, WS_ERR_INPUT, "'_' is only allowed in destinations");
    char *name = tdup(p, t);
    uint32_t idx;
    ResKind rk = resolve_name(p, name, &idx);
    g_free(name);
    if (rk == RES_NONE && tok_eq(p, t, "WARP_SZ")) { /* PTX's predefined constant: nvcc's warpSize */
        o->kind = OPD_IMM;
        o->imm = 32;
        return true;
    }
    if (rk == RES_NONE || (rk != RES_REG && t->len > 0 && tstr(p, t)[0] == '%')) {
        if (parse_sreg(p, t, o))
            return true;
        if (rk == RES_NONE && is_unmodelled_sreg(p, t))
            return fail(p, t, WS_ERR_UNSUPPORTED, "special register '%.*s' is not supported", (int)t->len,
                        tstr(p, t));
        if (rk == RES_NONE)
            return fail(p, t, WS_ERR_INPUT, "undefined %s '%.*s'", tstr(p, t)[0] == '%' ? "register" : "symbol",
                        (int)t->len, tstr(p, t));
    }
    if (rk == RES_REG) {
        o->kind = OPD_REG;
        o->reg = idx;
        return true;
    }
    o->kind = OPD_SYMBOL;
    if (rk == RES_VAR)
        o->sym = idx;
    else
        o->func = idx;
    if (is_punct(peek(p), '+')) {
        next(p);
        uint64_t add;
        if (!parse_uint(p, INT64_MAX, &add))
            return false;
        o->imm = (int64_t)add;
    }
    return true;
}

/* `spaces` counts the state-space suffixes so far: in an instruction that
 * moves memory to memory (shape "m,m,..."), a second one names the space
 * of the second memory operand (cp.async.shared.global). */
static bool apply_modifier(Parser *p, const Token *t, Insn *in, const ModInfo *mi, unsigned *spaces)
{
    if (mi->field == F_SPACE) {
        bool two = strncmp(isa_ops[in->op].shape, "m,m", 3) == 0;
        if (*spaces == 1 && two && mi->value != SPACE_GENERIC) {
            in->space2 = (uint8_t)mi->value;
            (*spaces)++;
            return true;
        }
        if (*spaces >= 1)
            return fail(p, t, WS_ERR_INPUT, "too many state spaces in '%.*s'", (int)t->len, tstr(p, t));
        (*spaces)++;
    }
    switch (mi->field) {
    case F_IGNORE: break;
    case F_ROUND: in->round = (uint8_t)mi->value; break;
    case F_FLAG: in->flags |= mi->value; break;
    case F_MUL: in->mul = (uint8_t)mi->value; break;
    case F_CMP: in->cmp = (uint8_t)mi->value; break;
    case F_BOOL: in->boolop = (uint8_t)mi->value; break;
    case F_MODE: in->mode = (uint8_t)mi->value; break;
    case F_SPACE: in->space = (uint8_t)mi->value; break;
    case F_VEC: in->vec = (uint8_t)mi->value; break;
    case F_CACHE: in->cache = (uint8_t)mi->value; break;
    case F_SEM: in->sem = (uint8_t)mi->value; break;
    case F_SCOPE: in->scope = (uint8_t)mi->value; break;
    case F_ATOM: in->atom = (uint8_t)mi->value; break;
    }
    return true;
}

/* Split `ld.global.nc.v4.f32` into opcode, modifiers and types.  An
 * opcode's name may hold dots itself (cp.async.wait_group): the longest
 * name that prefixes the token is the opcode. */
static bool decode_opcode(Parser *p, const Token *t, Insn *in)
{
    const char *s = tstr(p, t);
    size_t n = t->len;
    size_t oplen;
    PtxOpcode op;
    if (!isa_find_op_prefix(s, n, &op, &oplen)) {
        const char *dot = memchr(s, '.', n);
        oplen = dot ? (size_t)(dot - s) : n;
        return fail(p, t, WS_ERR_UNSUPPORTED, "unknown instruction '%.*s'", (int)oplen, s);
    }
    in->op = (uint16_t)op;
    in->vec = 1;
    const OpInfo *info = &isa_ops[op];
    unsigned ntypes = 0, spaces = 0;
    size_t at = oplen;
    while (at < n) {
        at++; /* the dot */
        const char *c = s + at;
        const char *end = memchr(c, '.', n - at);
        size_t clen = end ? (size_t)(end - c) : n - at;
        at += clen;
        if (clen == 0)
            return fail(p, t, WS_ERR_INPUT, "empty suffix in '%.*s'", (int)n, s);
        PtxType ty = isa_find_type(c, clen);
        if (ty != PTX_TYPE_NONE) {
            if (ntypes >= 3 || ntypes >= info->max_types)
                return fail(p, t, WS_ERR_INPUT, "too many type suffixes in '%.*s' ('%s' takes %u)",
                            (int)n, s, info->name, info->max_types);
            if (!(isa_type_class(ty) & info->type_classes))
                return fail(p, t, WS_ERR_INPUT, "type '.%.*s' is not allowed for '%s' in '%.*s'",
                            (int)clen, c, info->name, (int)n, s);
            uint8_t *slot[3] = {&in->type, &in->type2, &in->type3};
            *slot[ntypes++] = (uint8_t)ty;
            continue;
        }
        const ModInfo *mi = isa_find_mod(c, clen, info->modifier_groups);
        if (mi == NULL) {
            if (isa_mod_exists(c, clen))
                return fail(p, t, WS_ERR_INPUT, "modifier '.%.*s' is not allowed for '%s' in '%.*s'",
                            (int)clen, c, info->name, (int)n, s);
            /* right after an opcode of several parts (cp.async): most
             * likely an instruction of its own (cp.async.bulk), not a typo */
            if (c == s + oplen + 1 && strchr(info->name, '.'))
                return fail(p, t, WS_ERR_UNSUPPORTED,
                            "unsupported instruction '%.*s' in '%.*s' (the subset has '%s', which takes no "
                            "'.%.*s'; docs/isa.md lists the subset)",
                            (int)(oplen + 1 + clen), s, (int)n, s, info->name, (int)clen, c);
            return fail(p, t, WS_ERR_UNSUPPORTED, "unknown modifier '.%.*s' in '%.*s'", (int)clen, c, (int)n, s);
        }
        if (!apply_modifier(p, t, in, mi, &spaces))
            return false;
    }
    if (ntypes < info->min_types)
        return fail(p, t, WS_ERR_INPUT, "'%.*s' needs %u type suffix%s, got %u", (int)n, s, info->min_types,
                    info->min_types == 1 ? "" : "es", ntypes);
    return true;
}

static bool parse_shape(const char *shape, char *kinds, bool *optional, unsigned *count)
{
    *count = 0;
    for (const char *c = shape; *c; c++) {
        if (*c == ',')
            continue;
        if (*count >= INSN_MAX_OPERANDS)
            return false;
        kinds[*count] = *c;
        optional[*count] = c[1] == '?';
        if (c[1] == '?')
            c++;
        (*count)++;
    }
    return true;
}

static bool lookup_param_var(Parser *p, const Token *t, uint32_t *var)
{
    char *name = tdup(p, t);
    uint32_t idx;
    ResKind k = resolve_name(p, name, &idx);
    g_free(name);
    if (k == RES_VAR && module_var(p->m, idx)->space == SPACE_PARAM) {
        *var = idx;
        return true;
    }
    return false;
}

/* `(a, b, ...)` of a call: .param variables, registers or immediates. */
static bool parse_call_list(Parser *p, GArray *vars, GArray *opds, const Function *callee, bool rets)
{
    if (!expect_punct(p, '('))
        return false;
    if (is_punct(peek(p), ')')) {
        next(p);
        return true;
    }
    for (;;) {
        const Token *t = peek(p);
        uint32_t var = NO_INDEX;
        Operand o;
        init_operand(&o);
        if (t->kind == TK_IDENT && lookup_param_var(p, t, &var)) {
            if (rets && module_var(p->m, var)->scope == VAR_KERNEL_PARAM)
                return fail(p, t, WS_ERR_INPUT, "call return value '%s' is a kernel parameter, which is read-only",
                            module_var(p->m, var)->name);
            next(p);
        } else if (t->kind == TK_IDENT) {
            next(p);
            if (!lookup_reg(p, t, &o.reg))
                return false;
            o.kind = OPD_REG;
        } else if (!rets && (t->kind == TK_NUMBER || is_punct(t, '-'))) {
            /* an immediate argument is read at the callee's parameter type */
            PtxType ty = PTX_TYPE_NONE;
            if (callee && vars->len < callee->params->len)
                ty = module_var(p->m, g_array_index(callee->params, uint32_t, vars->len))->type;
            NumLit n;
            const Token *where;
            if (!parse_numlit(p, &n, &where))
                return false;
            o.kind = OPD_IMM;
            if (!literal_bits(p, where, &n, ty, &o.imm))
                return false;
        } else {
            return fail(p, t, WS_ERR_INPUT, "expected a call %s but found " TOK_FMT,
                        rets ? "return value" : "argument", TOK_ARGS(p, t));
        }
        g_array_append_val(vars, var);
        g_array_append_val(opds, o);
        if (is_punct(peek(p), ',')) {
            next(p);
            continue;
        }
        return expect_punct(p, ')');
    }
}

/* call[.uni] [(rets),] target [, (args)] [, prototype]; */
static bool parse_call(Parser *p, Insn *in, const Token *optok)
{
    GArray *rv = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    GArray *ro = g_array_new(FALSE, FALSE, sizeof(Operand));
    GArray *av = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    GArray *ao = g_array_new(FALSE, FALSE, sizeof(Operand));
    CallSite cs = {NO_INDEX, NO_INDEX, 0, 0, NULL, NULL, NULL, NULL};
    bool ok = false;
    const Token *target_tok = NULL;
    const Function *callee = NULL;
    Prototype *proto = NULL;

    if (is_punct(peek(p), '(')) {
        if (!parse_call_list(p, rv, ro, NULL, true) || !expect_punct(p, ','))
            goto out;
    }
    target_tok = peek(p);
    if (target_tok->kind != TK_IDENT) {
        fail(p, target_tok, WS_ERR_INPUT, "expected the called function but found " TOK_FMT,
             TOK_ARGS(p, target_tok));
        goto out;
    }
    next(p);
    {
        char *name = tdup(p, target_tok);
        uint32_t idx;
        ResKind k = resolve_name(p, name, &idx);
        g_free(name);
        if (k == RES_FUNC) {
            cs.callee = idx;
            callee = module_func(p->m, idx);
        } else if (k == RES_REG) {
            cs.callee_reg = idx;
        } else {
            fail(p, target_tok, WS_ERR_INPUT, "call to undeclared function '%.*s'", (int)target_tok->len,
                 tstr(p, target_tok));
            goto out;
        }
    }
    if (is_punct(peek(p), ',') && is_punct(peek_at(p, 1), '(')) {
        next(p);
        if (!parse_call_list(p, av, ao, callee, false))
            goto out;
    }
    if (is_punct(peek(p), ',')) {
        next(p);
        const Token *pt = peek(p);
        if (pt->kind != TK_IDENT) {
            fail(p, pt, WS_ERR_INPUT, "expected a call prototype but found " TOK_FMT, TOK_ARGS(p, pt));
            goto out;
        }
        next(p);
        char *name = tdup(p, pt);
        proto = g_hash_table_lookup(p->protos, name);
        g_free(name);
        if (proto == NULL) {
            fail(p, pt, WS_ERR_INPUT, "undefined call prototype '%.*s'", (int)pt->len, tstr(p, pt));
            goto out;
        }
    }
    if (!expect_punct(p, ';'))
        goto out;
    if (callee != NULL) {
        if (av->len != callee->params->len) {
            fail(p, optok, WS_ERR_INPUT, "call to '%s' passes %u argument%s but it takes %u", callee->name, av->len,
                 av->len == 1 ? "" : "s", callee->params->len);
            goto out;
        }
        if (rv->len != callee->rets->len) {
            fail(p, optok, WS_ERR_INPUT, "call to '%s' expects %u return value%s but it returns %u", callee->name,
                 rv->len, rv->len == 1 ? "" : "s", callee->rets->len);
            goto out;
        }
    } else if (proto != NULL && (av->len != proto->nparams || rv->len != proto->nrets)) {
        fail(p, optok, WS_ERR_INPUT, "indirect call does not match its prototype (%u argument%s, %u return "
             "value%s expected)", proto->nparams, proto->nparams == 1 ? "" : "s", proto->nrets,
             proto->nrets == 1 ? "" : "s");
        goto out;
    }
    cs.nrets = rv->len;
    cs.nargs = av->len;
    cs.rets = cs.nrets ? g_memdup2(rv->data, rv->len * sizeof(uint32_t)) : NULL;
    cs.ret_opds = cs.nrets ? g_memdup2(ro->data, ro->len * sizeof(Operand)) : NULL;
    cs.args = cs.nargs ? g_memdup2(av->data, av->len * sizeof(uint32_t)) : NULL;
    cs.arg_opds = cs.nargs ? g_memdup2(ao->data, ao->len * sizeof(Operand)) : NULL;
    {
        Function *f = cur_func(p);
        g_array_append_val(f->calls, cs);
        in->call = f->calls->len - 1;
    }
    ok = true;
out:
    g_array_unref(rv);
    g_array_unref(ro);
    g_array_unref(av);
    g_array_unref(ao);
    return ok;
}

/* ---- operand types -------------------------------------------------------- */

/* Whether a register declared `have` may stand where type `want` is read or
 * written (ISA "Type Checking Rules"): .bN takes any register of N bits,
 * .uN/.sN an untyped or integer one, .f32/.f64 an untyped or float one, and
 * .pred only a predicate.  Half types are accepted in any register of their
 * size: old compilers kept them in .u16 registers.  `wider` admits a wider
 * register for integer data, and for float data an untyped one (ld/st/cvt). */
static bool reg_fits(PtxType want, PtxType have, bool wider)
{
    uint32_t wc = isa_type_class(want), hc = isa_type_class(have);
    if ((wc == TC_PRED) != (hc == TC_PRED))
        return false;
    if (wc == TC_PRED)
        return true;
    bool want_int = (wc & (TC_UINT | TC_SINT)) != 0;
    if ((want_int && hc == TC_FLOAT) || (wc == TC_FLOAT && (hc & (TC_UINT | TC_SINT))))
        return false;
    unsigned ws = isa_type_size(want), hs = isa_type_size(have);
    if (hs == ws)
        return true;
    return wider && hs > ws && (wc & (TC_BITS | TC_UINT | TC_SINT) || hc == TC_BITS);
}

/* .s32 -> .s64, .u16 -> .u32 ...; NONE when there is no such type. */
static PtxType doubled_type(PtxType t)
{
    char name[8];
    g_snprintf(name, sizeof name, "%c%u", isa_types[t].spelling[0], isa_type_size(t) * 16);
    return isa_find_type(name, strlen(name));
}

/* The type operand slot i holds by its role; NONE for unchecked slots.
 * *wider: a wider register is allowed. */
static PtxType slot_type(const Insn *in, unsigned i, bool *wider)
{
    char role = operand_role(in, i);
    *wider = role == 'r' || role == 's';
    switch (role) {
    case 't':
    case 'r': return (PtxType)in->type;
    case 's':
    case 'S': return (PtxType)in->type2;
    case 'w': return in->mul == MUL_WIDE && in->type ? doubled_type((PtxType)in->type) : (PtxType)in->type;
    case 'p': return PTX_TYPE_PRED;
    case 'u': return PTX_TYPE_U32;
    case 'b': return PTX_TYPE_B32;
    case 'P': return (in->flags & FL_PARITY) ? PTX_TYPE_U32 : (PtxType)in->type;
    default: return PTX_TYPE_NONE;
    }
}

/* Element j of the vector operand opened at `open` (for messages). */
static const Token *vector_element_token(const Token *open, unsigned j)
{
    const Token *t = open + 1;
    for (unsigned k = 0; k < j; k++) {
        while (!is_punct(t, ',') && !is_punct(t, '}') && t->kind != TK_EOF)
            t++;
        if (is_punct(t, ','))
            t++;
    }
    return t;
}

static const RegInfo *reg_info(Parser *p, uint32_t r) { return &g_array_index(cur_func(p)->regs, RegInfo, r); }

static bool check_reg(Parser *p, const Token *at, const char *opname, unsigned i, uint32_t r, PtxType want,
                      bool wider)
{
    const RegInfo *ri = reg_info(p, r);
    if (reg_fits(want, ri->type, wider))
        return true;
    return fail(p, at, WS_ERR_INPUT, "operand %u of '%s' has type .%s but register '%s' is .%s", i + 1, opname,
                isa_types[want].spelling, ri->name, isa_types[ri->type].spelling);
}

/* [reg+off]: an integer register of 32 or 64 bits; under .address_size 64
 * a global or generic address needs 64 bits.  (nvcc addresses .shared,
 * .local and .param with 32-bit registers in 64-bit code.) */
static bool check_address(Parser *p, const Insn *in, unsigned i, const Token *open, const char *opname)
{
    const Operand *o = &in->opd[i];
    PtxSpace space = insn_operand_space(in, i);
    if (o->reg == NO_INDEX)
        return true;
    const RegInfo *ri = reg_info(p, o->reg);
    unsigned bits = isa_type_size(ri->type) * 8;
    uint32_t cls = isa_type_class(ri->type);
    if (!(cls & TC_INT) || (bits != 32 && bits != 64))
        return fail(p, open + 1, WS_ERR_INPUT, "address register '%s' of '%s' must be a 32- or 64-bit integer "
                    "register, not .%s", ri->name, opname, isa_types[ri->type].spelling);
    bool wide_space = space == SPACE_GLOBAL || space == SPACE_GENERIC;
    if (p->address_size_given && p->m->address_size == 64 && bits == 32 && wide_space)
        return fail(p, open + 1, WS_ERR_INPUT, "address register '%s' of '%s' is 32-bit but %s addresses are "
                    "64-bit (.address_size 64)", ri->name, opname, space == SPACE_GLOBAL ? ".global" : "generic");
    return true;
}

/* A vector operand: of mov, elements that split the instruction type in
 * equal parts (`mov.b64 %rd1, {%r1, %r2}`); of ld/st, elements of the type
 * of the slot. */
static bool check_vector(Parser *p, const Insn *in, unsigned i, const Token *open, const char *opname)
{
    const Operand *o = &in->opd[i];
    bool wider;
    PtxType want = slot_type(in, i, &wider);
    if (want == PTX_TYPE_NONE)
        return true;
    for (unsigned j = 0; j < o->vec_count; j++) {
        if (o->vec_regs[j] == NO_INDEX)
            continue;
        const RegInfo *ri = reg_info(p, o->vec_regs[j]);
        const Token *at = vector_element_token(open, j);
        if (in->op == OP_MOV) {
            unsigned part = isa_type_size(want) / o->vec_count;
            if (ri->type == PTX_TYPE_PRED || isa_type_size(ri->type) != part)
                return fail(p, at, WS_ERR_INPUT, "element %u of operand %u of '%s' must be a %u-bit register "
                            "but '%s' is .%s", j + 1, i + 1, opname, part * 8, ri->name,
                            isa_types[ri->type].spelling);
        } else if (!reg_fits(want, ri->type, wider)) {
            return fail(p, at, WS_ERR_INPUT, "element %u of operand %u of '%s' has type .%s but register '%s' "
                        "is .%s", j + 1, i + 1, opname, isa_types[want].spelling, ri->name,
                        isa_types[ri->type].spelling);
        }
    }
    return true;
}

/* `barrier` takes a scope, a memory order or .wait only as
 * barrier.cluster.arrive{.release,.relaxed}{.aligned} and
 * barrier.cluster.wait{.acquire}{.aligned}, without operands. */
static bool check_barrier_form(Parser *p, const Insn *in, const Token *at, const char *opname)
{
    if (in->scope == SCOPE_NONE) {
        if (in->mode == BAR_WAIT || in->sem != SEM_NONE)
            return fail(p, at, WS_ERR_INPUT, "'%s': .wait and a memory order belong to barrier.cluster "
                        "(barrier.cluster.arrive, barrier.cluster.wait)", opname);
        return true;
    }
    if (in->scope != SCOPE_CLUSTER)
        return fail(p, at, WS_ERR_INPUT, "'%s': a barrier's only scope is .cluster", opname);
    if (in->mode != BAR_ARRIVE && in->mode != BAR_WAIT)
        return fail(p, at, WS_ERR_INPUT, "'%s': barrier.cluster is .arrive or .wait", opname);
    if (in->nopd)
        return fail(p, at, WS_ERR_INPUT, "'%s' takes no operands, got %u", opname, in->nopd);
    bool sem_ok = in->mode == BAR_ARRIVE
                      ? in->sem == SEM_NONE || in->sem == SEM_RELEASE || in->sem == SEM_RELAXED
                      : in->sem == SEM_NONE || in->sem == SEM_ACQUIRE;
    if (!sem_ok || (in->flags & FL_WARP))
        return fail(p, at, WS_ERR_INPUT, "'%s': barrier.cluster.arrive takes .release or .relaxed, "
                    "barrier.cluster.wait .acquire (and either .aligned)", opname);
    return true;
}

/* Registers and special registers against the types their slots hold
 * (operand_roles).  Immediates were decoded at their type already; symbol
 * addresses are not checked.  tok[i] is where operand i starts. */
static bool check_operand_types(Parser *p, const Insn *in, const Token *const *tok, const char *opname)
{
    for (unsigned i = 0; i < in->nopd; i++) {
        const Operand *o = &in->opd[i];
        bool wider;
        PtxType want = slot_type(in, i, &wider);
        bool ok = true;
        switch ((OperandKind)o->kind) {
        case OPD_ADDR:
            ok = check_address(p, in, i, tok[i], opname);
            break;
        case OPD_VEC:
            ok = check_vector(p, in, i, tok[i], opname);
            break;
        case OPD_PAIR:
            /* d|p: the second destination is a predicate */
            if (o->reg2 != NO_INDEX && reg_info(p, o->reg2)->type != PTX_TYPE_PRED)
                ok = fail(p, tok[i] + 2, WS_ERR_INPUT, "operand %u of '%s': '%s' after '|' must be a predicate "
                          "register but is .%s", i + 1, opname, reg_info(p, o->reg2)->name,
                          isa_types[reg_info(p, o->reg2)->type].spelling);
            /* fall through */
        case OPD_REG:
            if (o->reg == NO_INDEX) /* `_|%p` */
                break;
            if (ok && o->negate && reg_info(p, o->reg)->type != PTX_TYPE_PRED)
                ok = fail(p, tok[i], WS_ERR_INPUT, "'!' needs a predicate register but '%s' is .%s",
                          reg_info(p, o->reg)->name, isa_types[reg_info(p, o->reg)->type].spelling);
            if (ok && want != PTX_TYPE_NONE)
                ok = check_reg(p, tok[i], opname, i, o->reg, want, wider);
            break;
        case OPD_SREG: {
            /* special registers are unsigned integers (%tid.x is read as
             * .u16 by PTX 1.x code, so narrower reads pass) */
            unsigned bits = isa_sregs[o->reg].bits;
            if (want != PTX_TYPE_NONE && !((isa_type_class(want) & TC_INT) && isa_type_size(want) * 8 <= bits))
                ok = fail(p, tok[i], WS_ERR_INPUT, "operand %u of '%s' has type .%s but special register '%.*s' "
                          "is .u%u", i + 1, opname, isa_types[want].spelling, (int)tok[i]->len,
                          tstr(p, tok[i]), bits);
            break;
        }
        default:
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* The operand count the modifiers fix where the shape leaves optional
 * slots (ISA: setp/set take the predicate c only with .and/.or/.xor,
 * atom.cas takes two values, vote and shfl take a member mask with .sync,
 * cvt to a .f16x2/.bf16x2 pair takes two .f32 sources); 0 when the shape's
 * range is all that is known. */
static unsigned exact_operand_count(const Insn *in)
{
    switch ((PtxOpcode)in->op) {
    case OP_SETP:
    case OP_SET: return in->boolop != BOOL_NONE ? 4 : 3;
    case OP_ATOM: return in->atom == ATOM_CAS ? 4 : 3;
    case OP_VOTE: return (in->flags & FL_SYNC) ? 3 : 2;
    case OP_SHFL: return (in->flags & FL_SYNC) ? 5 : 4;
    case OP_CVT:
        return (in->type == PTX_TYPE_F16X2 || in->type == PTX_TYPE_BF16X2) && in->type2 == PTX_TYPE_F32 ? 3 : 2;
    default: return 0;
    }
}

static bool parse_instruction_here(Parser *p)
{
    Insn in;
    memset(&in, 0, sizeof in);
    in.guard = NO_INDEX;
    in.call = NO_INDEX;
    in.src_file = p->loc_file;
    in.src_line = p->loc_line;
    if (p->nounroll_next)
        in.flags |= FL_NOUNROLL;
    p->nounroll_next = false;
    if (is_punct(peek(p), '@')) {
        next(p);
        if (is_punct(peek(p), '!')) {
            next(p);
            in.guard_negate = true;
        }
        const Token *g = peek(p);
        if (g->kind != TK_IDENT)
            return fail(p, g, WS_ERR_INPUT, "expected a predicate after '@' but found " TOK_FMT, TOK_ARGS(p, g));
        next(p);
        if (!lookup_reg(p, g, &in.guard))
            return false;
        if (g_array_index(cur_func(p)->regs, RegInfo, in.guard).type != PTX_TYPE_PRED)
            return fail(p, g, WS_ERR_INPUT, "guard '%.*s' is not a predicate register", (int)g->len, tstr(p, g));
    }
    const Token *ot = peek(p);
    if (ot->kind != TK_IDENT)
        return fail(p, ot, WS_ERR_INPUT, "expected an instruction but found " TOK_FMT, TOK_ARGS(p, ot));
    next(p);
    in.line = ot->line;
    in.col = ot->col;
    if (!decode_opcode(p, ot, &in))
        return false;
    char *opname = tdup(p, ot);
    bool ok;
    if (in.op == OP_CALL) {
        ok = parse_call(p, &in, ot);
    } else {
        char kinds[INSN_MAX_OPERANDS];
        bool optional[INSN_MAX_OPERANDS];
        unsigned nshape, nreq = 0;
        parse_shape(isa_ops[in.op].shape, kinds, optional, &nshape);
        for (unsigned i = 0; i < nshape; i++)
            nreq += !optional[i];
        unsigned n = 0;
        const Token *opd_tok[INSN_MAX_OPERANDS];
        ok = true;
        /* where the modifiers fix the count, it is the minimum and maximum */
        unsigned exact = exact_operand_count(&in);
        if (exact != 0 && exact <= nshape)
            nreq = nshape = exact;
        if (!is_punct(peek(p), ';')) {
            for (;;) {
                if (n >= nshape && n == 0) {
                    const Token *t = peek(p);
                    ok = fail(p, t, WS_ERR_INPUT, "expected ';' but found " TOK_FMT, TOK_ARGS(p, t));
                    break;
                }
                if (n >= nshape) {
                    ok = fail(p, peek(p), WS_ERR_INPUT, "too many operands for '%s' (expects %s%u)", opname,
                              nreq == nshape ? "" : "at most ", nshape);
                    break;
                }
                opd_tok[n] = peek(p);
                if (!parse_operand(p, &in, n, kinds[n], opname)) {
                    ok = false;
                    break;
                }
                n++;
                if (is_punct(peek(p), ',')) {
                    next(p);
                    continue;
                }
                break;
            }
        }
        if (ok && !is_punct(peek(p), ';')) {
            const Token *t = peek(p);
            ok = fail(p, t, WS_ERR_INPUT, "expected ';' but found " TOK_FMT, TOK_ARGS(p, t));
        }
        if (ok && n < nreq)
            ok = fail(p, ot, WS_ERR_INPUT, "'%s' expects %s%u operand%s, got %u", opname,
                      nreq == nshape ? "" : "at least ", nreq, nreq == 1 ? "" : "s", n);
        if (ok)
            next(p); /* ';' */
        in.nopd = (uint8_t)n;
        /* vector width of ld/st must match the vector operand */
        if (ok && (in.op == OP_LD || in.op == OP_LDU || in.op == OP_ST)) {
            const Operand *v = &in.opd[in.op == OP_ST ? 1 : 0];
            unsigned have = v->kind == OPD_VEC ? v->vec_count : 1;
            if (have != in.vec)
                ok = fail(p, ot, WS_ERR_INPUT, "'%s' moves %u element%s but its operand has %u", opname, in.vec,
                          in.vec == 1 ? "" : "s", have);
        }
        /* a vector atomic's value and result are vectors of its width */
        for (unsigned i = 0; ok && (in.op == OP_ATOM || in.op == OP_RED) && i < n; i++) {
            if (in.opd[i].kind == OPD_ADDR || (in.op == OP_ATOM && i == 0 && in.vec == 1))
                continue;
            unsigned have = in.opd[i].kind == OPD_VEC ? in.opd[i].vec_count : 1;
            if (have != in.vec)
                ok = fail(p, ot, WS_ERR_INPUT, "'%s' works on %u element%s but operand %u has %u", opname, in.vec,
                          in.vec == 1 ? "" : "s", i + 1, have);
        }
        if (ok && (in.op == OP_BAR || in.op == OP_BARRIER))
            ok = check_barrier_form(p, &in, ot, opname);
        if (ok)
            ok = check_operand_types(p, &in, opd_tok, opname);
    }
    g_free(opname);
    if (!ok)
        return false;
    g_array_append_val(cur_func(p)->insns, in);
    return true;
}

/* The instruction starting at token `start` as written, whitespace runs
 * made single spaces; *end receives the index of its ';'.  False when no
 * ';' closes it before the function's end (then it is malformed). */
static bool instruction_text(const Parser *p, guint start, guint *end, char **text)
{
    int depth = 0;
    guint i = start;
    for (;; i++) {
        const Token *t = &p->tok[i];
        if (t->kind == TK_EOF)
            return false;
        if (is_punct(t, '{'))
            depth++;
        else if (is_punct(t, '}') && --depth < 0)
            return false;
        else if (is_punct(t, ';') && depth == 0)
            break;
    }
    GString *s = g_string_new(NULL);
    for (const char *c = tstr(p, &p->tok[start]); c < tstr(p, &p->tok[i]); c++) {
        if (g_ascii_isspace(*c)) {
            if (s->len && s->str[s->len - 1] != ' ')
                g_string_append_c(s, ' ');
        } else {
            g_string_append_c(s, *c);
        }
    }
    while (s->len && s->str[s->len - 1] == ' ')
        g_string_truncate(s, s->len - 1);
    *end = i;
    *text = g_string_free(s, FALSE);
    return true;
}

/* One instruction.  Under deferral, an instruction outside the subset
 * (WS_ERR_UNSUPPORTED: an unknown opcode or modifier, an unmodelled special
 * register, ...) does not fail the module: the function records the first
 * one and gets a `trap` in its place, so its control flow and every other
 * function stay intact, and the function cannot be launched
 * (module_func_runnable).  Malformed PTX still fails. */
static bool parse_instruction(Parser *p)
{
    guint start = p->pos;
    guint nrefs = p->label_refs->len;
    Function *f = cur_func(p);
    guint ncalls = f->calls->len;
    if (parse_instruction_here(p))
        return true;
    guint end;
    char *text;
    if (!p->defer_unsupported || p->err == NULL || p->err->code != WS_ERR_UNSUPPORTED || f->calls->len != ncalls ||
        !instruction_text(p, start, &end, &text))
        return false;
    const Token *first = &p->tok[start];
    if (f->unsupported_insn == NULL) {
        const char *why = strstr(p->err->message, "error: ");
        f->unsupported_insn = text;
        f->unsupported_why = g_strdup(why ? why + 7 : p->err->message);
        f->unsupported_line = first->line;
        f->unsupported_col = first->col;
        f->unsupported_via = NO_INDEX;
    } else {
        g_free(text);
    }
    g_clear_error(&p->err);
    g_array_set_size(p->label_refs, nrefs); /* branch targets of the dropped instruction */
    Insn trap;
    memset(&trap, 0, sizeof trap);
    trap.op = OP_TRAP;
    trap.vec = 1;
    trap.guard = NO_INDEX;
    trap.call = NO_INDEX;
    trap.line = first->line;
    trap.col = first->col;
    trap.src_file = p->loc_file;
    trap.src_line = p->loc_line;
    g_array_append_val(f->insns, trap);
    p->pos = end + 1;
    return true;
}

/* `name: .callprototype (.param .b32 _) _ (.param .b32 _, ...);` */
static bool parse_callprototype(Parser *p, const Token *label)
{
    next(p); /* .callprototype */
    Prototype pr = {0, 0};
    for (int part = 0; part < 2; part++) {
        uint32_t *count = part == 0 ? &pr.nrets : &pr.nparams;
        if (part == 0 && !is_punct(peek(p), '('))
            continue; /* no return list */
        if (part == 1) {
            const Token *u = peek(p);
            if (u->kind != TK_IDENT || !tok_eq(p, u, "_"))
                return fail(p, u, WS_ERR_INPUT, "expected '_' in .callprototype but found " TOK_FMT, TOK_ARGS(p, u));
            next(p);
            if (!is_punct(peek(p), '('))
                break;
        }
        if (!expect_punct(p, '('))
            return false;
        int depth = 1;
        bool any = false;
        while (depth > 0) {
            const Token *t = next(p);
            if (t->kind == TK_EOF || is_punct(t, ';'))
                return fail(p, t, WS_ERR_INPUT, "unterminated .callprototype parameter list");
            if (is_punct(t, '('))
                depth++;
            else if (is_punct(t, ')'))
                depth--;
            else if (depth == 1 && is_punct(t, ','))
                (*count)++;
            else
                any = true;
        }
        if (any)
            (*count)++;
    }
    if (!expect_punct(p, ';'))
        return false;
    char *name = tdup(p, label);
    if (g_hash_table_contains(p->protos, name)) {
        g_free(name);
        return fail(p, label, WS_ERR_INPUT, "duplicate label '%.*s'", (int)label->len, tstr(p, label));
    }
    g_hash_table_insert(p->protos, name, g_memdup2(&pr, sizeof pr));
    return true;
}

static bool parse_label(Parser *p)
{
    const Token *t = next(p);
    next(p); /* ':' */
    if (is_dir(p, peek(p), ".callprototype"))
        return parse_callprototype(p, t);
    if (is_dir(p, peek(p), ".calltargets")) {
        while (peek(p)->kind != TK_EOF && !is_punct(peek(p), ';'))
            next(p);
        return expect_punct(p, ';');
    }
    char *name = tdup(p, t);
    if (g_hash_table_contains(p->labels, name)) {
        g_free(name);
        return fail(p, t, WS_ERR_INPUT, "duplicate label '%.*s'", (int)t->len, tstr(p, t));
    }
    uint32_t at = func_ninsns(cur_func(p));
    g_hash_table_insert(p->labels, name, GUINT_TO_POINTER(at + 1));
    Label label = {.name = tdup(p, t), .insn = at};
    g_array_append_val(cur_func(p)->labels, label);
    return true;
}

static bool resolve_labels(Parser *p)
{
    Function *f = cur_func(p);
    for (guint i = 0; i < p->label_refs->len; i++) {
        const LabelRef *r = &g_array_index(p->label_refs, LabelRef, i);
        const Token *t = &p->tok[r->tok];
        char *name = tdup(p, t);
        gpointer v = g_hash_table_lookup(p->labels, name);
        if (v == NULL) {
            uint32_t idx;
            ResKind k = resolve_name(p, name, &idx);
            g_free(name);
            if (k == RES_VAR || k == RES_FUNC)
                return fail(p, t, WS_ERR_INPUT, "expected a label but found %s '%.*s'",
                            k == RES_VAR ? "variable" : "function", (int)t->len, tstr(p, t));
            return fail(p, t, WS_ERR_INPUT, "undefined label '%.*s'", (int)t->len, tstr(p, t));
        }
        g_free(name);
        func_insn(f, r->insn)->opd[r->opd].imm = (int64_t)(GPOINTER_TO_UINT(v) - 1);
    }
    return true;
}

/* The statements between a function's braces (the '{' already consumed). */
static bool parse_body(Parser *p, const Token *open)
{
    unsigned depth = 1;
    while (depth > 0) {
        const Token *t = peek(p);
        if (t->kind == TK_EOF)
            return fail(p, t, WS_ERR_INPUT, "unexpected end of file: missing '}' for the body opened at %u:%u",
                        open->line, open->col);
        if (is_punct(t, '{')) {
            next(p);
            push_scope(p);
            depth++;
        } else if (is_punct(t, '}')) {
            next(p);
            if (--depth > 0)
                pop_scope(p);
        } else if (is_punct(t, ';')) {
            next(p); /* empty statement */
        } else if (t->kind == TK_DIRECTIVE) {
            PtxSpace sp;
            bool ok;
            if (is_dir(p, t, ".reg"))
                ok = parse_reg_decl(p);
            else if (space_of(p, t, &sp) && (sp == SPACE_PARAM || sp == SPACE_LOCAL || sp == SPACE_SHARED))
                ok = parse_var_decl(p, DECL_BODY, false);
            else if (is_dir(p, t, ".loc"))
                ok = parse_loc(p);
            else if (is_dir(p, t, ".pragma"))
                ok = parse_pragma(p, &p->nounroll_next);
            else if (is_dir(p, t, ".global") || is_dir(p, t, ".const"))
                ok = fail(p, t, WS_ERR_UNSUPPORTED, "'%.*s' variables inside a function are not supported",
                          (int)t->len, tstr(p, t));
            else
                ok = fail(p, t, WS_ERR_INPUT, "unexpected directive '%.*s' in a function body", (int)t->len,
                          tstr(p, t));
            if (!ok)
                return false;
        } else if (t->kind == TK_IDENT && is_punct(peek_at(p, 1), ':')) {
            if (!parse_label(p))
                return false;
        } else if (t->kind == TK_IDENT || is_punct(t, '@')) {
            if (!parse_instruction(p))
                return false;
            if (func_ninsns(cur_func(p)) >= INDEX_LIMIT)
                return fail(p, t, WS_ERR_INPUT, "function too long");
        } else {
            return fail(p, t, WS_ERR_INPUT, "unexpected " TOK_FMT " in a function body", TOK_ARGS(p, t));
        }
    }
    return true;
}

/* ---- functions ----------------------------------------------------------- */

typedef struct {
    const Token *name;
    DeclAttrs attrs;
    PtxSpace space;
    uint64_t size;
} ParamDecl;

/* `( .param .u32 a, .reg .f32 %b, ... )` into decls */
static bool parse_param_list(Parser *p, GArray *decls, bool allow_reg)
{
    if (!expect_punct(p, '('))
        return false;
    if (is_punct(peek(p), ')')) {
        next(p);
        return true;
    }
    for (;;) {
        const Token *t = peek(p);
        ParamDecl d;
        if (!space_of(p, t, &d.space) || (d.space != SPACE_PARAM && !(allow_reg && d.space == SPACE_REG)))
            return fail(p, t, WS_ERR_INPUT, "expected a parameter (.param%s) but found " TOK_FMT,
                        allow_reg ? " or .reg" : "", TOK_ARGS(p, t));
        next(p);
        if (!parse_decl_attrs(p, &d.attrs))
            return false;
        d.name = peek(p);
        if (d.name->kind != TK_IDENT)
            return fail(p, d.name, WS_ERR_INPUT, "expected a parameter name but found " TOK_FMT,
                        TOK_ARGS(p, d.name));
        next(p);
        uint64_t count;
        bool unsized;
        if (!parse_dims(p, &count, &unsized))
            return false;
        d.size = count * isa_type_size(d.attrs.type) * d.attrs.vec;
        if (d.space == SPACE_REG && (count != 1 || unsized))
            return fail(p, d.name, WS_ERR_INPUT, "a .reg parameter cannot be an array");
        g_array_append_val(decls, d);
        if (is_punct(peek(p), ',')) {
            next(p);
            continue;
        }
        return expect_punct(p, ')');
    }
}

/* Create (or, for an earlier prototype, rename) the variables of a parameter
 * list and lay them out in the frame. */
static bool bind_params(Parser *p, uint32_t fi, GArray *decls, bool rets, bool reuse, bool is_entry)
{
    Function *f = module_func(p->m, fi);
    GArray *list = rets ? f->rets : f->params;
    for (guint i = 0; i < decls->len; i++) {
        const ParamDecl *d = &g_array_index(decls, ParamDecl, i);
        if (reuse) {
            Variable *v = module_var(p->m, g_array_index(list, uint32_t, i));
            if (v->space != d->space || v->size != d->size)
                return fail(p, d->name, WS_ERR_INPUT, "parameter '%.*s' of '%s' differs from its declaration",
                            (int)d->name->len, tstr(p, d->name), f->name);
            g_free(v->name);
            v->name = tdup(p, d->name);
            if (v->space == SPACE_REG) {
                RegInfo *r = &g_array_index(f->regs, RegInfo, v->offset);
                g_free(r->name);
                r->name = g_strdup(v->name);
            }
            continue;
        }
        Variable v = {0};
        v.name = tdup(p, d->name);
        v.space = d->space;
        v.scope = is_entry ? VAR_KERNEL_PARAM : VAR_FUNC_PARAM;
        v.type = d->attrs.type;
        v.align = d->attrs.align ? d->attrs.align : isa_type_size(d->attrs.type) * d->attrs.vec;
        v.size = d->size;
        v.owner = fi;
        v.line = d->name->line;
        if (d->space == SPACE_REG) {
            v.offset = add_reg(f, g_strdup(v.name), d->attrs.type, v.line);
        } else {
            f->frame_param_bytes = align_up(f->frame_param_bytes, v.align);
            v.offset = f->frame_param_bytes;
            f->frame_param_bytes += v.size;
        }
        uint32_t idx = add_var(p, &v);
        g_array_append_val(list, idx);
    }
    return true;
}

static bool parse_perf_directives(Parser *p, Function *f)
{
    for (;;) {
        const Token *t = peek(p);
        uint32_t *dims = NULL;
        if (is_dir(p, t, ".maxntid"))
            dims = f->maxntid;
        else if (is_dir(p, t, ".reqntid"))
            dims = f->reqntid;
        if (dims || is_dir(p, t, ".reqnctapercluster") || is_dir(p, t, ".maxclusterrank") ||
            is_dir(p, t, ".minnctapersm") || is_dir(p, t, ".maxnreg") || is_dir(p, t, ".maxnctapersm")) {
            next(p);
            uint32_t vals[3] = {1, 1, 1};
            for (int i = 0; i < 3; i++) {
                uint64_t v;
                if (!parse_uint(p, UINT32_MAX, &v))
                    return false;
                vals[i] = (uint32_t)v;
                if (!is_punct(peek(p), ','))
                    break;
                next(p);
            }
            if (dims)
                memcpy(dims, vals, sizeof vals);
            else if (is_dir(p, t, ".reqnctapercluster") && (uint64_t)vals[0] * vals[1] * vals[2] > 1)
                f->cluster_line = t->line;
            else if (is_dir(p, t, ".minnctapersm"))
                f->minnctapersm = vals[0];
            else if (is_dir(p, t, ".maxnreg"))
                f->maxnreg = vals[0];
        } else if (is_dir(p, t, ".noreturn") || is_dir(p, t, ".explicitcluster")) {
            if (is_dir(p, t, ".explicitcluster"))
                f->cluster_line = t->line;
            next(p);
        } else if (is_dir(p, t, ".pragma")) {
            if (!parse_pragma(p, &f->nounroll))
                return false;
        } else {
            return true;
        }
    }
}

static void begin_function(Parser *p, uint32_t fi)
{
    p->fi = fi;
    p->scopes = g_ptr_array_new_with_free_func((GDestroyNotify)g_hash_table_unref);
    p->labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    p->label_refs = g_array_new(FALSE, FALSE, sizeof(LabelRef));
    p->protos = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    p->loc_file = p->loc_line = 0;
    p->nounroll_next = false; /* a pragma at the end of the last body flags nothing here */
}

static void end_function(Parser *p)
{
    if (p->scopes)
        g_ptr_array_unref(p->scopes);
    if (p->labels)
        g_hash_table_unref(p->labels);
    if (p->label_refs)
        g_array_unref(p->label_refs);
    if (p->protos)
        g_hash_table_unref(p->protos);
    p->scopes = NULL;
    p->labels = NULL;
    p->label_refs = NULL;
    p->protos = NULL;
}

/* `.entry name (params) perf {body}` or `.func [(rets)] name [(params)] perf {body} | ;` */
static bool parse_function(Parser *p, bool is_extern)
{
    const Token *kw = next(p);
    bool is_entry = is_dir(p, kw, ".entry");
    GArray *rets = g_array_new(FALSE, FALSE, sizeof(ParamDecl));
    GArray *params = g_array_new(FALSE, FALSE, sizeof(ParamDecl));
    bool ok = false;
    uint32_t fi = NO_INDEX;

    if (!is_entry && is_punct(peek(p), '(') && !parse_param_list(p, rets, true))
        goto out;
    const Token *nt = peek(p);
    if (nt->kind != TK_IDENT) {
        fail(p, nt, WS_ERR_INPUT, "expected a function name but found " TOK_FMT, TOK_ARGS(p, nt));
        goto out;
    }
    next(p);
    if (is_punct(peek(p), '(') && !parse_param_list(p, params, !is_entry))
        goto out;

    char *name = tdup(p, nt);
    gpointer old = g_hash_table_lookup(p->funcs, name);
    bool reuse = false;
    if (old) {
        fi = GPOINTER_TO_UINT(old) - 1;
        Function *of = module_func(p->m, fi);
        g_free(name);
        if (of->is_entry != is_entry || of->params->len != params->len || of->rets->len != rets->len) {
            fail(p, nt, WS_ERR_INPUT, "'%s' does not match its earlier declaration", of->name);
            goto out;
        }
        reuse = true;
    } else if (g_hash_table_contains(p->globals, name)) {
        fail(p, nt, WS_ERR_INPUT, "duplicate declaration of '%s'", name);
        g_free(name);
        goto out;
    } else {
        Function f = {0};
        f.name = name;
        f.is_entry = is_entry;
        f.line = nt->line;
        f.params = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        f.rets = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        f.regs = g_array_new(FALSE, FALSE, sizeof(RegInfo));
        f.insns = g_array_new(FALSE, FALSE, sizeof(Insn));
        f.calls = g_array_new(FALSE, FALSE, sizeof(CallSite));
        f.frame_vars = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        f.labels = g_array_new(FALSE, FALSE, sizeof(Label));
        g_array_append_val(p->m->funcs, f);
        fi = p->m->funcs->len - 1;
        g_hash_table_insert(p->funcs, module_func(p->m, fi)->name, GUINT_TO_POINTER(fi + 1));
    }
    if (!parse_perf_directives(p, module_func(p->m, fi)))
        goto out;
    const Token *open = peek(p);
    bool defining = is_punct(open, '{');
    if (defining && module_func(p->m, fi)->is_defined) {
        fail(p, nt, WS_ERR_INPUT, "duplicate definition of function '%s'", module_func(p->m, fi)->name);
        goto out;
    }
    /* params before rets so the frame reads: params, rets, body .param.  A
     * repeated declaration binds nothing; a definition after a prototype
     * renames the prototype's variables. */
    if ((!reuse || defining) && (!bind_params(p, fi, params, false, reuse, is_entry) ||
                                 !bind_params(p, fi, rets, true, reuse, is_entry)))
        goto out;
    if (!defining) {
        (void)is_extern;
        ok = expect_punct(p, ';');
        goto out;
    }
    next(p); /* '{' */
    begin_function(p, fi);
    push_scope(p);
    {
        Function *f = module_func(p->m, fi);
        f->is_defined = true;
        for (int l = 0; l < 2; l++) {
            GArray *list = l == 0 ? f->params : f->rets;
            for (guint i = 0; i < list->len; i++) {
                uint32_t vi = g_array_index(list, uint32_t, i);
                const Variable *v = module_var(p->m, vi);
                const Token *at = &g_array_index(l == 0 ? params : rets, ParamDecl, i).name[0];
                bool dok = v->space == SPACE_REG ? scope_declare(p, at, v->name, SYM_REG, (uint32_t)v->offset)
                                                 : scope_declare(p, at, v->name, SYM_VAR, vi);
                if (!dok) {
                    end_function(p);
                    goto out;
                }
            }
        }
    }
    push_scope(p); /* the body's own declarations may shadow parameters */
    ok = parse_body(p, open) && resolve_labels(p);
    end_function(p);
out:
    g_array_unref(rets);
    g_array_unref(params);
    return ok;
}

/* ---- module -------------------------------------------------------------- */

static bool parse_version(Parser *p)
{
    next(p);
    const Token *t = peek(p);
    if (t->kind != TK_NUMBER)
        return fail(p, t, WS_ERR_INPUT, "expected a version number but found " TOK_FMT, TOK_ARGS(p, t));
    next(p);
    const char *s = tstr(p, t);
    const char *dot = memchr(s, '.', t->len);
    uint64_t maj, min = 0;
    if (!dot || !parse_radix(s, (size_t)(dot - s), 10, &maj) ||
        !parse_radix(dot + 1, t->len - (size_t)(dot - s) - 1, 10, &min) || maj > 99 || min > 99)
        return fail(p, t, WS_ERR_INPUT, "bad version '%.*s'", (int)t->len, tstr(p, t));
    p->m->version_major = (uint32_t)maj;
    p->m->version_minor = (uint32_t)min;
    return true;
}

static bool parse_target(Parser *p)
{
    next(p);
    for (;;) {
        const Token *t = peek(p);
        if (t->kind != TK_IDENT)
            return fail(p, t, WS_ERR_INPUT, "expected a target name but found " TOK_FMT, TOK_ARGS(p, t));
        next(p);
        if (p->m->target == NULL)
            p->m->target = tdup(p, t);
        if (!is_punct(peek(p), ','))
            return true;
        next(p);
    }
}

static bool parse_module(Parser *p)
{
    for (;;) {
        const Token *t = peek(p);
        if (t->kind == TK_EOF)
            return true;
        if (is_punct(t, ';')) {
            next(p);
            continue;
        }
        if (t->kind != TK_DIRECTIVE) {
            if (t->kind == TK_IDENT || is_punct(t, '@'))
                return fail(p, t, WS_ERR_INPUT, "instruction or label " TOK_FMT " outside a function", TOK_ARGS(p, t));
            return fail(p, t, WS_ERR_INPUT, "unexpected " TOK_FMT " at module scope", TOK_ARGS(p, t));
        }
        bool ok = true;
        if (is_dir(p, t, ".version")) {
            ok = parse_version(p);
        } else if (is_dir(p, t, ".target")) {
            ok = parse_target(p);
        } else if (is_dir(p, t, ".address_size")) {
            next(p);
            uint64_t v;
            const Token *at = peek(p);
            ok = parse_uint(p, 64, &v);
            if (ok && v != 32 && v != 64)
                ok = fail(p, at, WS_ERR_INPUT, ".address_size must be 32 or 64");
            p->m->address_size = (uint32_t)v;
            p->address_size_given = true;
        } else if (is_dir(p, t, ".file")) {
            ok = parse_file(p);
        } else if (is_dir(p, t, ".loc")) {
            ok = parse_loc(p);
        } else if (is_dir(p, t, ".section")) {
            ok = skip_section(p);
        } else if (is_dir(p, t, ".pragma")) {
            ok = parse_pragma(p, &p->m->nounroll);
        } else {
            /* linkage, then a function or variable */
            bool is_extern = false;
            while (is_dir(p, peek(p), ".visible") || is_dir(p, peek(p), ".extern") || is_dir(p, peek(p), ".weak") ||
                   is_dir(p, peek(p), ".common")) {
                if (is_dir(p, peek(p), ".extern"))
                    is_extern = true;
                next(p);
            }
            const Token *d = peek(p);
            PtxSpace sp;
            if (is_dir(p, d, ".entry") || is_dir(p, d, ".func"))
                ok = parse_function(p, is_extern);
            else if (space_of(p, d, &sp) && sp != SPACE_REG && sp != SPACE_PARAM)
                ok = parse_var_decl(p, DECL_MODULE, is_extern);
            else if (d->kind == TK_DIRECTIVE)
                ok = fail(p, d, WS_ERR_UNSUPPORTED, "unsupported directive '%.*s'", (int)d->len, tstr(p, d));
            else
                ok = fail(p, d, WS_ERR_INPUT, "expected a declaration after linkage directive but found " TOK_FMT,
                          TOK_ARGS(p, d));
        }
        if (!ok)
            return false;
    }
}

static Module *parse_text(const char *text, const char *name, bool defer_unsupported, GError **error)
{
    if (name == NULL)
        name = "<input>";
    GArray *toks = ptx_lex(text, strlen(text), name, error);
    if (toks == NULL)
        return NULL;
    Parser p = {0};
    p.path = name;
    p.text = text;
    p.tok = (const Token *)toks->data;
    p.ntok = toks->len;
    p.m = module_new(name);
    p.globals = g_hash_table_new(g_str_hash, g_str_equal);
    p.funcs = g_hash_table_new(g_str_hash, g_str_equal);
    p.fi = NO_INDEX;
    p.defer_unsupported = defer_unsupported;

    bool ok = parse_module(&p);
    if (ok && defer_unsupported)
        module_propagate_unsupported(p.m);
    if (ok && p.m->version_major == 0 && p.m->version_minor == 0)
        p.m->version_major = 1; /* listings without .version are PTX 1.x */
    end_function(&p);
    g_hash_table_unref(p.globals);
    g_hash_table_unref(p.funcs);
    g_array_unref(toks);
    if (!ok) {
        g_propagate_error(error, p.err);
        module_free(p.m);
        return NULL;
    }
    return p.m;
}

Module *ptx_parse_string(const char *text, const char *name, GError **error)
{
    return parse_text(text, name, false, error);
}

Module *ptx_parse_string_deferring(const char *text, const char *name, GError **error)
{
    return parse_text(text, name, true, error);
}

Module *ptx_parse_file(const char *path, GError **error)
{
    char *text = NULL;
    gsize len = 0;
    GError *io = NULL;
    if (!file_read_all(path, &text, &len, &io)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: cannot read: %s", path, io->message);
        g_error_free(io);
        return NULL;
    }
    if (memchr(text, '\0', len) != NULL) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: file contains a NUL byte (not PTX text)", path);
        g_free(text);
        return NULL;
    }
    Module *m = ptx_parse_string(text, path, error);
    g_free(text);
    return m;
}
