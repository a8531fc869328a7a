/* manifest.c — launch manifests: JSON to a validated plan, and running it.
 *
 * Loading turns the JSON into plain structs (DataSpec, ArgSpec, LaunchDesc,
 * ExpectSpec) so that running never looks at JSON again; every value is
 * range-checked against its element type there.  Running resolves what needs
 * the PTX (kernels, parameters, module variables) for every launch before
 * any kernel runs, so a mistake in the last launch is reported at once.
 */
#include "manifest.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "cfg.h"
#include "errors.h"
#include "fileio.h"
#include "fpconv.h"
#include "html_report.h"
#include "hostpool.h"
#include "launch.h"
#include "memory.h"
#include "module.h"
#include "ptx_parser.h"
#include "report.h"
#include "sampling.h"
#include "contract.h"
#include "schedule.h"
#include "sha256.h"
#include "timing.h"

#define DEFAULT_NSM 132            /* %nsmid of a functional run: the default config's SMs */
#define MAX_BUFFER_BYTES (1ull << 36)
#define MAX_CHECK_DETAILS 5

/* ---------------------------------------------------------------- model */

typedef enum { INIT_ZEROS, INIT_CONST, INIT_IOTA, INIT_VALUES, INIT_FILE, INIT_RANDOM } InitKind;

/* An init's numbers as the element type reads them: integer types use the
 * value sign- (or zero-) extended to 64 bits in `u`, float types `f`. */
typedef union {
    uint64_t u;
    double f;
} Num;

typedef struct {
    InitKind kind;
    Num a, b;          /* const: element bits in a.u; iota: start a, step b; random: min a, max b */
    uint64_t seed;
    GArray *values;    /* INIT_VALUES: uint64_t element bits */
    char *file;        /* INIT_FILE: resolved path */
} InitSpec;

typedef struct {       /* a buffer, or an initialiser of a module variable */
    char *name;
    char *jpath;
    PtxType type;
    uint64_t count;
    InitSpec init;
    bool has_init;     /* "init" was given (else zeros, but uninitialised to initcheck) */
} DataSpec;

typedef struct {
    bool is_buffer;
    PtxType type;      /* scalar arguments */
    uint64_t bits;
    guint buffer;      /* buffer arguments: index into Manifest.buffers */
    uint64_t offset;
    char *jpath;
} ArgSpec;

typedef struct {
    char *jpath;       /* "launches[2]", or "" for a single-launch manifest */
    char *ptx;         /* resolved path */
    char *kernel;
    char *kernel_jpath;
    Dim3 grid, block;
    uint32_t dynamic_shared_bytes;
    uint32_t regs_per_thread; /* 0: estimate from the PTX */
    uint32_t repeat;
    bool cooperative;  /* "cooperative": cudaLaunchCooperativeKernel (LaunchSpec) */
    GArray *args;      /* ArgSpec */
    char *args_jpath;
    GArray *globals;   /* DataSpec applied before this launch */
} LaunchDesc;

typedef struct {
    guint buffer;
    bool is_sha256;
    char *file;        /* resolved */
    double rtol, atol;
    char sha256[65];   /* lower-case hex */
    char *jpath;
} ExpectSpec;

struct Manifest {
    char *path, *dir, *name;
    GArray *buffers;   /* DataSpec */
    GArray *globals;   /* DataSpec applied when the modules are loaded */
    GArray *launches;  /* LaunchDesc */
    GArray *expects;   /* ExpectSpec */
    uint64_t malloc_heap_bytes; /* "malloc_heap_bytes": the device heap; 0: CUDA's default */
};

/* the element types a buffer, global or scalar argument may have */
static const PtxType scalar_types[] = {
    PTX_TYPE_U8, PTX_TYPE_S8, PTX_TYPE_U16, PTX_TYPE_S16, PTX_TYPE_U32,
    PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64, PTX_TYPE_F32, PTX_TYPE_F64,
};
#define SCALAR_TYPE_LIST "u8, s8, u16, s16, u32, s32, u64, s64, f32, f64"

static PtxType scalar_type_named(const char *s)
{
    for (size_t i = 0; i < G_N_ELEMENTS(scalar_types); i++)
        if (strcmp(isa_types[scalar_types[i]].spelling, s) == 0)
            return scalar_types[i];
    return PTX_TYPE_NONE;
}

/* ------------------------------------------------------------ elements */

static void put_le(uint8_t *dst, unsigned size, uint64_t bits)
{
    for (unsigned i = 0; i < size; i++)
        dst[i] = (uint8_t)(bits >> (8 * i));
}

static uint64_t get_le(const uint8_t *src, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)src[i] << (8 * i);
    return v;
}

/* a double rounded (to nearest even) to the float type's bits */
static uint64_t float_bits(PtxType t, double d)
{
    return t == PTX_TYPE_F32 ? fp_f32_bits((float)d) : fp_f64_bits(d);
}

static double bits_float(PtxType t, uint64_t bits)
{
    return t == PTX_TYPE_F32 ? fp_f32_from_bits((uint32_t)bits) : fp_f64_from_bits(bits);
}

/* element value in words, for error messages */
static char *element_text(PtxType t, uint64_t bits)
{
    unsigned size = isa_type_size(t);
    if (isa_type_is_float(t))
        return g_strdup_printf(t == PTX_TYPE_F32 ? "%.9g" : "%.17g", bits_float(t, bits));
    if (isa_type_is_signed(t))
        return g_strdup_printf("%" G_GINT64_FORMAT, (gint64)fp_sext(bits, size * 8));
    return g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)(size < 8 ? bits & ((1ull << (8 * size)) - 1) : bits));
}

uint64_t manifest_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---------------------------------------------------- validation context */

typedef struct {
    const char *file;   /* the manifest path, as given */
    const char *dir;    /* its folder: base of relative paths */
    GPtrArray *strings; /* JSON paths built while validating */
    GError **error;
} Ctx;

/* Every error about the document names its file and JSON path. */
#define fail(c, jpath, ...) json_input_error((c)->error, (c)->file, (jpath), __VA_ARGS__)

static const char *jkey(Ctx *c, const char *parent, const char *key)
{
    char *s = *parent ? g_strdup_printf("%s.%s", parent, key) : g_strdup(key);
    g_ptr_array_add(c->strings, s);
    return s;
}

static const char *jidx(Ctx *c, const char *parent, size_t i)
{
    char *s = g_strdup_printf("%s[%zu]", parent, i);
    g_ptr_array_add(c->strings, s);
    return s;
}

/* Every key of obj must be in `allowed` (NULL-terminated) or start with '_'
 * (a comment). */
static bool check_keys(Ctx *c, json_t *obj, const char *jpath, const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        if (key[0] == '_')
            continue;
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, key) == 0;
        if (!ok) {
            char *list = g_strjoinv(", ", (char **)allowed);
            fail(c, jkey(c, jpath, key), "unknown key (expected one of: %s)", list);
            g_free(list);
            return false;
        }
    }
    return true;
}

static json_t *require(Ctx *c, json_t *obj, const char *jpath, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        fail(c, jpath, "missing required key \"%s\"", key);
    return v;
}

static bool expect_object(Ctx *c, json_t *v, const char *jpath, const char *what)
{
    return json_is_object(v) || fail(c, jpath, "must be %s", what);
}

/* ------------------------------------------------------------- numbers */

/* An integer: a JSON integer, or a string of decimal or 0x-hex digits with
 * an optional '-' (for values JSON integers cannot hold).  hex reports the
 * 0x form, which is read as a bit pattern. */
static bool integer_of(json_t *v, bool *negative, uint64_t *magnitude, bool *hex)
{
    *hex = false;
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        *negative = i < 0;
        *magnitude = i < 0 ? -(uint64_t)i : (uint64_t)i;
        return true;
    }
    if (!json_is_string(v))
        return false;
    const char *s = json_string_value(v);
    *negative = s[0] == '-';
    if (*negative)
        s++;
    guint base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        base = 16;
        *hex = true;
    }
    if (!g_ascii_isxdigit(s[0]))
        return false;
    guint64 out;
    if (!g_ascii_string_to_unsigned(s, base, 0, G_MAXUINT64, &out, NULL))
        return false;
    *magnitude = out;
    return true;
}

/* An integer of type t (or s64 for steps), as its value extended to 64 bits. */
static bool int_value(Ctx *c, const char *jpath, json_t *v, PtxType t, uint64_t *out)
{
    bool neg, hex;
    uint64_t mag;
    const char *tn = isa_types[t].spelling;
    if (!integer_of(v, &neg, &mag, &hex))
        return fail(c, jpath, "must be an integer (or a string of decimal or 0x digits) for %s", tn);
    unsigned bits = 8 * isa_type_size(t);
    uint64_t width_mask = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    bool is_signed = isa_type_is_signed(t);
    if (hex) {
        if (neg || (mag & ~width_mask))
            return fail(c, jpath, "0x bit pattern does not fit %s", tn);
        *out = is_signed ? (uint64_t)fp_sext(mag, bits) : mag;
        return true;
    }
    if (is_signed) {
        uint64_t limit = 1ull << (bits - 1); /* |min|; max is limit - 1 */
        if ((neg && mag > limit) || (!neg && mag >= limit))
            return fail(c, jpath, "%s%" G_GUINT64_FORMAT " is out of range for %s",
                        neg ? "-" : "", mag, tn);
        *out = neg ? -mag : mag;
        return true;
    }
    if ((neg && mag != 0) || (mag & ~width_mask))
        return fail(c, jpath, "%s%" G_GUINT64_FORMAT " is out of range for %s",
                    neg ? "-" : "", mag, tn);
    *out = mag;
    return true;
}

/* A real: a JSON number, or "nan", "inf", "-inf" when allow_special. */
static bool real_value(Ctx *c, const char *jpath, json_t *v, bool allow_special, double *out)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return true;
    }
    if (allow_special && json_is_string(v)) {
        const char *s = json_string_value(v);
        static const struct { const char *name; double value; } specials[] = {
            {"nan", NAN}, {"inf", INFINITY}, {"+inf", INFINITY}, {"-inf", -INFINITY},
        };
        for (size_t i = 0; i < G_N_ELEMENTS(specials); i++)
            if (g_ascii_strcasecmp(s, specials[i].name) == 0) {
                *out = specials[i].value;
                return true;
            }
    }
    return fail(c, jpath, allow_special ? "must be a number (or \"nan\", \"inf\", \"-inf\", or a 0x bit pattern)"
                                        : "must be a finite number");
}

/* One element of type t from JSON, as its bits (integers extended to 64). */
static bool element_value(Ctx *c, const char *jpath, json_t *v, PtxType t, uint64_t *bits)
{
    if (!isa_type_is_float(t))
        return int_value(c, jpath, v, t, bits);
    if (json_is_string(v) && g_ascii_strncasecmp(json_string_value(v), "0x", 2) == 0)
        return int_value(c, jpath, v, t == PTX_TYPE_F32 ? PTX_TYPE_U32 : PTX_TYPE_U64, bits);
    double d;
    if (!real_value(c, jpath, v, true, &d))
        return false;
    *bits = float_bits(t, d);
    if (isfinite(d) && isinf(bits_float(t, *bits)))
        return fail(c, jpath, "%g is out of range for %s", d, isa_types[t].spelling);
    return true;
}

static bool uint_in(Ctx *c, const char *jpath, json_t *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    bool neg, hex;
    uint64_t mag;
    if (!json_is_integer(v) || !integer_of(v, &neg, &mag, &hex) || neg || mag < lo || mag > hi)
        return fail(c, jpath, "must be an integer from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT, lo, hi);
    *out = mag;
    return true;
}

/* --------------------------------------------------------------- files */

static char *resolve(const Ctx *c, const char *rel)
{
    return g_path_is_absolute(rel) ? g_strdup(rel) : g_build_filename(c->dir, rel, NULL);
}

/* The file named by string v must exist (and, when size != UINT64_MAX,
 * hold exactly that many bytes).  Returns the resolved path. */
static char *existing_file(Ctx *c, const char *jpath, json_t *v, uint64_t size, const char *what)
{
    if (!json_is_string(v) || !*json_string_value(v)) {
        fail(c, jpath, "must be a file name (relative to the manifest's folder)");
        return NULL;
    }
    const char *rel = json_string_value(v);
    char *path = resolve(c, rel);
    GStatBuf st;
    if (g_stat(path, &st) != 0) {
        fail(c, jpath, "cannot read \"%s\": %s", rel, g_strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        fail(c, jpath, "\"%s\" is not a regular file", rel);
    } else if (size != UINT64_MAX && (uint64_t)st.st_size != size) {
        fail(c, jpath, "\"%s\" holds %" G_GUINT64_FORMAT " bytes; %s needs %" G_GUINT64_FORMAT,
             rel, (uint64_t)st.st_size, what, size);
    } else {
        return path;
    }
    g_free(path);
    return NULL;
}

/* ---------------------------------------------------------------- inits */

static const struct {
    const char *name;
    const char *keys[5]; /* every one required */
} init_forms[] = {
    [INIT_ZEROS] = {"zeros", {"kind"}},
    [INIT_CONST] = {"const", {"kind", "value"}},
    [INIT_IOTA] = {"iota", {"kind", "start", "step"}},
    [INIT_VALUES] = {"values", {"kind", "values"}},
    [INIT_FILE] = {"file", {"kind", "path"}},
    [INIT_RANDOM] = {"random", {"kind", "seed", "min", "max"}},
};

static void init_clear(InitSpec *in)
{
    if (in->values)
        g_array_free(in->values, TRUE);
    g_free(in->file);
    memset(in, 0, sizeof *in);
}

/* a float init parameter: a finite number */
static bool finite_param(Ctx *c, const char *jpath, json_t *v, double *out)
{
    return real_value(c, jpath, v, false, out) &&
           (isfinite(*out) || fail(c, jpath, "must be a finite number"));
}

static bool parse_init(Ctx *c, json_t *v, const char *jpath, PtxType t, uint64_t count,
                       const char *what, InitSpec *out)
{
    memset(out, 0, sizeof *out);
    if (!expect_object(c, v, jpath, "an object {\"kind\": ...}"))
        return false;
    json_t *kind = require(c, v, jpath, "kind");
    if (!kind)
        return false;
    const char *kjpath = jkey(c, jpath, "kind");
    if (!json_is_string(kind))
        return fail(c, kjpath, "must be a string");
    guint k = G_N_ELEMENTS(init_forms);
    for (guint i = 0; i < G_N_ELEMENTS(init_forms); i++)
        if (strcmp(json_string_value(kind), init_forms[i].name) == 0)
            k = i;
    if (k == G_N_ELEMENTS(init_forms))
        return fail(c, kjpath, "unknown init kind \"%s\" (expected one of: zeros, const, iota, values, file, random)",
                    json_string_value(kind));
    out->kind = k;
    if (!check_keys(c, v, jpath, init_forms[k].keys))
        return false;
    for (const char *const *key = init_forms[k].keys; *key; key++)
        if (!require(c, v, jpath, *key))
            return false;

    bool is_float = isa_type_is_float(t);
    unsigned size = isa_type_size(t);
    const char *tn = isa_types[t].spelling;
    switch (out->kind) {
    case INIT_ZEROS:
        return true;
    case INIT_CONST:
        return element_value(c, jkey(c, jpath, "value"), json_object_get(v, "value"), t, &out->a.u);
    case INIT_IOTA:
        if (is_float)
            return finite_param(c, jkey(c, jpath, "start"), json_object_get(v, "start"), &out->a.f) &&
                   finite_param(c, jkey(c, jpath, "step"), json_object_get(v, "step"), &out->b.f);
        return int_value(c, jkey(c, jpath, "start"), json_object_get(v, "start"), t, &out->a.u) &&
               int_value(c, jkey(c, jpath, "step"), json_object_get(v, "step"), PTX_TYPE_S64, &out->b.u);
    case INIT_VALUES: {
        json_t *list = json_object_get(v, "values");
        const char *ljpath = jkey(c, jpath, "values");
        if (!json_is_array(list) || json_array_size(list) == 0)
            return fail(c, ljpath, "must be a non-empty array of %s values", tn);
        if (json_array_size(list) > count)
            return fail(c, ljpath, "has %zu values; %s holds only %" G_GUINT64_FORMAT " elements",
                        json_array_size(list), what, count);
        out->values = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), json_array_size(list));
        size_t i;
        json_t *e;
        json_array_foreach(list, i, e) {
            uint64_t bits;
            if (!element_value(c, jidx(c, ljpath, i), e, t, &bits))
                return false;
            g_array_append_val(out->values, bits);
        }
        return true;
    }
    case INIT_FILE:
        out->file = existing_file(c, jkey(c, jpath, "path"), json_object_get(v, "path"),
                                  count * size, what);
        return out->file != NULL;
    case INIT_RANDOM: {
        const char *minp = jkey(c, jpath, "min"), *maxp = jkey(c, jpath, "max");
        if (!int_value(c, jkey(c, jpath, "seed"), json_object_get(v, "seed"), PTX_TYPE_U64, &out->seed))
            return false;
        if (is_float) {
            if (!finite_param(c, minp, json_object_get(v, "min"), &out->a.f) ||
                !finite_param(c, maxp, json_object_get(v, "max"), &out->b.f))
                return false;
            if (out->a.f > out->b.f)
                return fail(c, maxp, "max %g is below min %g", out->b.f, out->a.f);
            return true;
        }
        if (!int_value(c, minp, json_object_get(v, "min"), t, &out->a.u) ||
            !int_value(c, maxp, json_object_get(v, "max"), t, &out->b.u))
            return false;
        bool below = isa_type_is_signed(t) ? (int64_t)out->b.u < (int64_t)out->a.u : out->b.u < out->a.u;
        if (below) {
            char *lo = element_text(t, out->a.u), *hi = element_text(t, out->b.u);
            fail(c, maxp, "max %s is below min %s", hi, lo);
            g_free(lo);
            g_free(hi);
            return false;
        }
        return true;
    }
    }
    return true;
}

/* Writes count elements of type t as the init defines them. */
static bool init_fill(const InitSpec *in, PtxType t, uint64_t count, uint8_t *dst,
                      const char *manifest, const char *jpath, GError **error)
{
    unsigned size = isa_type_size(t);
    bool is_float = isa_type_is_float(t);
    switch (in->kind) {
    case INIT_ZEROS:
        memset(dst, 0, count * size);
        break;
    case INIT_CONST: /* one element, then copies of what is written so far */
        if (count) {
            put_le(dst, size, in->a.u);
            for (uint64_t done = size, total = count * size; done < total; done *= 2)
                memcpy(dst + done, dst, MIN(done, total - done));
        }
        break;
    case INIT_IOTA:
        for (uint64_t i = 0; i < count; i++)
            put_le(dst + i * size, size,
                   is_float ? float_bits(t, in->a.f + (double)i * in->b.f) : in->a.u + i * in->b.u);
        break;
    case INIT_VALUES:
        memset(dst, 0, count * size);
        for (guint i = 0; i < in->values->len; i++)
            put_le(dst + (uint64_t)i * size, size, g_array_index(in->values, uint64_t, i));
        break;
    case INIT_FILE: {
        gchar *data;
        gsize len;
        GError *e = NULL;
        if (!file_read_all(in->file, &data, &len, &e)) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: %s.path: %s", manifest, jpath, e->message);
            g_error_free(e);
            return false;
        }
        if (len != count * size) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "%s: error: %s.path: \"%s\" now holds %zu bytes; %" G_GUINT64_FORMAT " needed",
                        manifest, jpath, in->file, (size_t)len, count * size);
            g_free(data);
            return false;
        }
        memcpy(dst, data, len);
        g_free(data);
        break;
    }
    case INIT_RANDOM: {
        uint64_t state = in->seed;
        uint64_t span = in->b.u - in->a.u + 1; /* 0: the whole 64-bit range */
        for (uint64_t i = 0; i < count; i++) {
            uint64_t r = manifest_splitmix64(&state);
            uint64_t bits;
            if (is_float)
                bits = float_bits(t, in->a.f + (in->b.f - in->a.f) * ((double)(r >> 11) * 0x1p-53));
            else
                bits = in->a.u + (span ? r % span : r);
            put_le(dst + i * size, size, bits);
        }
        break;
    }
    }
    return true;
}

/* ------------------------------------------------------ buffers, globals */

static void data_clear(DataSpec *d)
{
    g_free(d->name);
    g_free(d->jpath);
    init_clear(&d->init);
}

static const char *const data_keys[] = {"type", "count", "init", NULL};

/* {"type", "count", "init"} of a buffer or a global */
static bool parse_data(Ctx *c, const char *name, json_t *v, const char *jpath, DataSpec *out)
{
    memset(out, 0, sizeof *out);
    out->name = g_strdup(name);
    out->jpath = g_strdup(jpath);
    if (!expect_object(c, v, jpath, "an object {\"type\", \"count\", \"init\"}") ||
        !check_keys(c, v, jpath, data_keys))
        return false;
    json_t *type = require(c, v, jpath, "type");
    json_t *count = type ? require(c, v, jpath, "count") : NULL;
    if (!count)
        return false;
    const char *tjpath = jkey(c, jpath, "type");
    if (!json_is_string(type))
        return fail(c, tjpath, "must be a string (one of " SCALAR_TYPE_LIST ")");
    out->type = scalar_type_named(json_string_value(type));
    if (out->type == PTX_TYPE_NONE)
        return fail(c, tjpath, "\"%s\" is not an element type (expected one of " SCALAR_TYPE_LIST ")",
                    json_string_value(type));
    unsigned size = isa_type_size(out->type);
    if (!uint_in(c, jkey(c, jpath, "count"), count, 1, MAX_BUFFER_BYTES / size, &out->count))
        return false;
    json_t *init = json_object_get(v, "init");
    if (!init)
        return true; /* zeros */
    out->has_init = true;
    char *what = g_strdup_printf("%s (%" G_GUINT64_FORMAT " x %s)", name, out->count,
                                 isa_types[out->type].spelling);
    bool ok = parse_init(c, init, jkey(c, jpath, "init"), out->type, out->count, what, &out->init);
    g_free(what);
    return ok;
}

/* buffer names become dump file names, so they stay plain */
static bool plain_name(const char *s)
{
    if (!*s || s[0] == '.')
        return false;
    for (; *s; s++)
        if (!g_ascii_isalnum(*s) && *s != '_' && *s != '-' && *s != '.')
            return false;
    return true;
}

static bool parse_data_map(Ctx *c, json_t *map, const char *jpath, bool buffers, GArray *out)
{
    if (!expect_object(c, map, jpath, buffers ? "an object of named buffers" : "an object of named variables"))
        return false;
    const char *name;
    json_t *v;
    json_object_foreach(map, name, v) {
        const char *ejpath = jkey(c, jpath, name);
        if (buffers && !plain_name(name))
            return fail(c, ejpath, "a buffer name may use only letters, digits, '_', '-' and '.', "
                                   "and may not start with '.'");
        DataSpec d;
        bool ok = parse_data(c, name, v, ejpath, &d);
        g_array_append_val(out, d);
        if (!ok)
            return false;
    }
    return true;
}

static guint buffer_index(const Manifest *m, const char *name)
{
    for (guint i = 0; i < m->buffers->len; i++)
        if (strcmp(g_array_index(m->buffers, DataSpec, i).name, name) == 0)
            return i;
    return G_MAXUINT;
}

static uint64_t data_bytes(const DataSpec *d)
{
    return d->count * isa_type_size(d->type);
}

/* ---------------------------------------------------------------- args */

static const char *const arg_keys[] = {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64",
                                       "f32", "f64", "buffer", "offset_bytes", NULL};

static bool parse_arg(Ctx *c, const Manifest *m, json_t *v, const char *jpath, ArgSpec *out)
{
    memset(out, 0, sizeof *out);
    out->jpath = g_strdup(jpath);
    if (!expect_object(c, v, jpath, "an object such as {\"u32\": 7} or {\"buffer\": \"x\"}") ||
        !check_keys(c, v, jpath, arg_keys))
        return false;
    const char *kind = NULL;
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val) {
        if (key[0] == '_' || strcmp(key, "offset_bytes") == 0)
            continue;
        if (kind)
            return fail(c, jpath, "has both \"%s\" and \"%s\"; an argument gives exactly one", kind, key);
        kind = key;
    }
    if (!kind)
        return fail(c, jpath, "needs one of " SCALAR_TYPE_LIST ", buffer");
    json_t *offset = json_object_get(v, "offset_bytes");
    const char *kjpath = jkey(c, jpath, kind);
    val = json_object_get(v, kind);
    if (strcmp(kind, "buffer") != 0) {
        if (offset)
            return fail(c, jkey(c, jpath, "offset_bytes"), "only a buffer argument takes an offset");
        out->type = scalar_type_named(kind);
        return element_value(c, kjpath, val, out->type, &out->bits);
    }
    out->is_buffer = true;
    if (!json_is_string(val))
        return fail(c, kjpath, "must be the name of a buffer");
    out->buffer = buffer_index(m, json_string_value(val));
    if (out->buffer == G_MAXUINT)
        return fail(c, kjpath, "no buffer named \"%s\" in \"buffers\"", json_string_value(val));
    if (offset) {
        const DataSpec *b = &g_array_index(m->buffers, DataSpec, out->buffer);
        if (!uint_in(c, jkey(c, jpath, "offset_bytes"), offset, 0, data_bytes(b), &out->offset))
            return false;
    }
    return true;
}

/* ------------------------------------------------------------ launches */

static const char *const top_keys[] = {
    "name", "description", "ptx", "kernel", "grid", "block", "dynamic_shared_bytes",
    "regs_per_thread", "repeat", "args", "buffers", "globals", "expect", "launches", "cooperative",
    "malloc_heap_bytes", NULL};
static const char *const launch_keys[] = {
    "name", "description", "ptx", "kernel", "grid", "block", "dynamic_shared_bytes",
    "regs_per_thread", "repeat", "args", "globals", "cooperative", NULL};

static void launch_clear(LaunchDesc *l)
{
    g_free(l->jpath);
    g_free(l->ptx);
    g_free(l->kernel);
    g_free(l->kernel_jpath);
    g_free(l->args_jpath);
    if (l->args) {
        for (guint i = 0; i < l->args->len; i++)
            g_free(g_array_index(l->args, ArgSpec, i).jpath);
        g_array_free(l->args, TRUE);
    }
    if (l->globals) {
        for (guint i = 0; i < l->globals->len; i++)
            data_clear(&g_array_index(l->globals, DataSpec, i));
        g_array_free(l->globals, TRUE);
    }
}

/* A launch key from the launch object, else from the top level (whose keys
 * are the defaults of every launch); *jpath names where it was found. */
static json_t *launch_key(Ctx *c, json_t *obj, const char *ljpath, json_t *defaults,
                          const char *key, const char **jpath)
{
    json_t *v = json_object_get(obj, key);
    if (v) {
        *jpath = jkey(c, ljpath, key);
        return v;
    }
    if (defaults && (v = json_object_get(defaults, key)) != NULL) {
        *jpath = key;
        return v;
    }
    *jpath = NULL;
    return NULL;
}

/* grid or block: 1 to 3 positive integers, each at most lim[i] */
static bool parse_dim3(Ctx *c, json_t *v, const char *jpath, const uint64_t lim[3], uint64_t total, Dim3 *out)
{
    if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 3)
        return fail(c, jpath, "must be an array of 1 to 3 positive integers");
    uint64_t d[3] = {1, 1, 1};
    for (size_t i = 0; i < json_array_size(v); i++)
        if (!uint_in(c, jidx(c, jpath, i), json_array_get(v, i), 1, lim[i], &d[i]))
            return false;
    if (d[0] * d[1] * d[2] > total)
        return fail(c, jpath, "%" G_GUINT64_FORMAT " in all exceeds the limit of %" G_GUINT64_FORMAT,
                    d[0] * d[1] * d[2], total);
    *out = (Dim3){(uint32_t)d[0], (uint32_t)d[1], (uint32_t)d[2]};
    return true;
}

static bool parse_launch(Ctx *c, Manifest *m, json_t *obj, const char *ljpath, json_t *defaults,
                         LaunchDesc *out)
{
    /* CUDA's limits for compute capability 2.0 and later; a configuration may
     * lower them (e.g. 512 threads per block on 1.x) */
    static const uint64_t grid_lim[3] = {0x7fffffff, 65535, 65535};
    static const uint64_t block_lim[3] = {1024, 1024, 64};
    const char *jp;
    json_t *v;

    out->jpath = g_strdup(ljpath);
    out->repeat = 1;
    out->args = g_array_new(FALSE, TRUE, sizeof(ArgSpec));
    out->globals = g_array_new(FALSE, TRUE, sizeof(DataSpec));
    if (defaults && !check_keys(c, obj, ljpath, launch_keys))
        return false; /* the top level's keys were checked by parse_manifest */

    static const char *const required[] = {"ptx", "kernel", "grid", "block"};
    for (size_t i = 0; i < G_N_ELEMENTS(required); i++)
        if (!launch_key(c, obj, ljpath, defaults, required[i], &jp))
            return fail(c, ljpath, "missing required key \"%s\"", required[i]);

    for (size_t i = 0; i < 2; i++) {
        const char *key = i ? "description" : "name";
        if ((v = launch_key(c, obj, ljpath, NULL, key, &jp)) && !json_is_string(v))
            return fail(c, jp, "must be a string");
    }

    v = launch_key(c, obj, ljpath, defaults, "ptx", &jp);
    if (!(out->ptx = existing_file(c, jp, v, UINT64_MAX, NULL)))
        return false;
    v = launch_key(c, obj, ljpath, defaults, "kernel", &jp);
    if (!json_is_string(v) || !*json_string_value(v))
        return fail(c, jp, "must be the kernel's name (its .entry name or a unique demangled prefix)");
    out->kernel = g_strdup(json_string_value(v));
    out->kernel_jpath = g_strdup(jp);

    v = launch_key(c, obj, ljpath, defaults, "grid", &jp);
    if (!parse_dim3(c, v, jp, grid_lim, UINT64_MAX, &out->grid))
        return false;
    v = launch_key(c, obj, ljpath, defaults, "block", &jp);
    if (!parse_dim3(c, v, jp, block_lim, 1024, &out->block))
        return false;

    uint64_t n;
    if ((v = launch_key(c, obj, ljpath, defaults, "dynamic_shared_bytes", &jp))) {
        if (!uint_in(c, jp, v, 0, UINT32_MAX, &n))
            return false;
        out->dynamic_shared_bytes = (uint32_t)n;
    }
    if ((v = launch_key(c, obj, ljpath, defaults, "regs_per_thread", &jp))) {
        if (!uint_in(c, jp, v, 1, 255, &n))
            return false;
        out->regs_per_thread = (uint32_t)n;
    }
    if ((v = launch_key(c, obj, ljpath, defaults, "repeat", &jp))) {
        if (!uint_in(c, jp, v, 1, 1000000000, &n))
            return false;
        out->repeat = (uint32_t)n;
    }
    if ((v = launch_key(c, obj, ljpath, defaults, "cooperative", &jp))) {
        if (!json_is_boolean(v))
            return fail(c, jp, "must be true or false");
        out->cooperative = json_is_true(v);
    }

    if ((v = launch_key(c, obj, ljpath, defaults, "args", &jp))) {
        out->args_jpath = g_strdup(jp);
        if (!json_is_array(v))
            return fail(c, jp, "must be an array of arguments in the kernel's parameter order");
        size_t i;
        json_t *a;
        json_array_foreach(v, i, a) {
            ArgSpec arg;
            bool ok = parse_arg(c, m, a, jidx(c, jp, i), &arg);
            g_array_append_val(out->args, arg);
            if (!ok)
                return false;
        }
    } else {
        out->args_jpath = g_strdup(jkey(c, ljpath, "args"));
    }

    /* a launch's own globals; the top level's are applied at load instead */
    if (defaults && (v = json_object_get(obj, "globals")))
        return parse_data_map(c, v, jkey(c, ljpath, "globals"), false, out->globals);
    return true;
}

/* -------------------------------------------------------------- expect */

static const char *const expect_keys[] = {"file", "rtol", "atol", "sha256", NULL};

static bool parse_expect(Ctx *c, Manifest *m, const char *name, json_t *v, const char *jpath, ExpectSpec *out)
{
    memset(out, 0, sizeof *out);
    out->jpath = g_strdup(jpath);
    out->buffer = buffer_index(m, name);
    if (out->buffer == G_MAXUINT)
        return fail(c, jpath, "no buffer named \"%s\" in \"buffers\"", name);
    const DataSpec *b = &g_array_index(m->buffers, DataSpec, out->buffer);
    if (!expect_object(c, v, jpath, "an object {\"file\", \"rtol\", \"atol\"} or {\"sha256\"}") ||
        !check_keys(c, v, jpath, expect_keys))
        return false;
    json_t *file = json_object_get(v, "file"), *sha = json_object_get(v, "sha256");
    json_t *rtol = json_object_get(v, "rtol"), *atol = json_object_get(v, "atol");
    if (!file == !sha)
        return fail(c, jpath, file ? "has both \"file\" and \"sha256\"; give one"
                                   : "needs \"file\" or \"sha256\"");
    if (sha) {
        out->is_sha256 = true;
        const char *sjpath = jkey(c, jpath, "sha256");
        const char *s = json_is_string(sha) ? json_string_value(sha) : "";
        bool ok = strlen(s) == 64;
        for (int i = 0; ok && i < 64; i++)
            ok = g_ascii_isxdigit(s[i]);
        if (!ok)
            return fail(c, sjpath, "must be 64 hexadecimal digits");
        for (int i = 0; i <= 64; i++)
            out->sha256[i] = g_ascii_tolower(s[i]);
        if (rtol || atol)
            return fail(c, jkey(c, jpath, rtol ? "rtol" : "atol"), "tolerances apply only to a \"file\" comparison");
        return true;
    }
    char *what = g_strdup_printf("buffer %s (%" G_GUINT64_FORMAT " x %s)", b->name, b->count,
                                 isa_types[b->type].spelling);
    out->file = existing_file(c, jkey(c, jpath, "file"), file, data_bytes(b), what);
    g_free(what);
    if (!out->file)
        return false;
    for (int i = 0; i < 2; i++) {
        json_t *tol = i ? atol : rtol;
        const char *key = i ? "atol" : "rtol";
        double *dst = i ? &out->atol : &out->rtol;
        if (!tol)
            continue;
        const char *tjpath = jkey(c, jpath, key);
        if (!isa_type_is_float(b->type))
            return fail(c, tjpath, "buffer %s holds integers (%s), which compare exactly",
                        b->name, isa_types[b->type].spelling);
        if (!finite_param(c, tjpath, tol, dst))
            return false;
        if (*dst < 0)
            return fail(c, tjpath, "must not be negative");
    }
    return true;
}

/* ---------------------------------------------------------------- load */

void manifest_free(Manifest *m)
{
    if (!m)
        return;
    for (guint i = 0; i < m->buffers->len; i++)
        data_clear(&g_array_index(m->buffers, DataSpec, i));
    for (guint i = 0; i < m->globals->len; i++)
        data_clear(&g_array_index(m->globals, DataSpec, i));
    for (guint i = 0; i < m->launches->len; i++)
        launch_clear(&g_array_index(m->launches, LaunchDesc, i));
    for (guint i = 0; i < m->expects->len; i++) {
        ExpectSpec *e = &g_array_index(m->expects, ExpectSpec, i);
        g_free(e->file);
        g_free(e->jpath);
    }
    g_array_free(m->buffers, TRUE);
    g_array_free(m->globals, TRUE);
    g_array_free(m->launches, TRUE);
    g_array_free(m->expects, TRUE);
    g_free(m->path);
    g_free(m->dir);
    g_free(m->name);
    g_free(m);
}

static bool parse_manifest(Ctx *c, Manifest *m, json_t *root)
{
    if (!json_is_object(root))
        return fail(c, "", "must be a JSON object");
    if (!check_keys(c, root, "", top_keys))
        return false;
    json_t *v;
    if ((v = json_object_get(root, "name"))) {
        if (!json_is_string(v))
            return fail(c, "name", "must be a string");
        m->name = g_strdup(json_string_value(v));
    }
    if ((v = json_object_get(root, "buffers")) && !parse_data_map(c, v, "buffers", true, m->buffers))
        return false;
    /* cudaDeviceSetLimit(cudaLimitMallocHeapSize) before the first launch:
     * the heap's allocator counts 16-byte granules in 32 bits */
    uint64_t heap;
    if ((v = json_object_get(root, "malloc_heap_bytes"))) {
        if (!uint_in(c, "malloc_heap_bytes", v, 1, (uint64_t)UINT32_MAX * 16, &heap))
            return false;
        m->malloc_heap_bytes = heap;
    }
    if ((v = json_object_get(root, "globals")) && !parse_data_map(c, v, "globals", false, m->globals))
        return false;

    json_t *launches = json_object_get(root, "launches");
    if (launches) {
        if (!json_is_array(launches) || json_array_size(launches) == 0)
            return fail(c, "launches", "must be a non-empty array of launch objects");
        size_t i;
        json_t *l;
        json_array_foreach(launches, i, l) {
            const char *ljpath = jidx(c, "launches", i);
            LaunchDesc d = {0};
            bool ok = expect_object(c, l, ljpath, "a launch object") && parse_launch(c, m, l, ljpath, root, &d);
            g_array_append_val(m->launches, d);
            if (!ok)
                return false;
        }
    } else {
        LaunchDesc d = {0};
        bool ok = parse_launch(c, m, root, "", NULL, &d);
        g_array_append_val(m->launches, d);
        if (!ok)
            return false;
    }

    if ((v = json_object_get(root, "expect"))) {
        if (!expect_object(c, v, "expect", "an object of buffer names"))
            return false;
        const char *name;
        json_t *e;
        json_object_foreach(v, name, e) {
            ExpectSpec spec;
            bool ok = parse_expect(c, m, name, e, jkey(c, "expect", name), &spec);
            g_array_append_val(m->expects, spec);
            if (!ok)
                return false;
        }
    }
    return true;
}

Manifest *manifest_load(const char *path, GError **error)
{
    gchar *text;
    gsize len;
    GError *io = NULL;
    if (!file_read_all(path, &text, &len, &io)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: %s", path, io->message);
        g_error_free(io);
        return NULL;
    }
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    g_free(text);
    if (!root) {
        if (je.line > 0)
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s:%d:%d: error: %s", path, je.line,
                        je.column > 0 ? je.column : 1, je.text);
        else
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: %s", path, je.text);
        return NULL;
    }

    Manifest *m = g_new0(Manifest, 1);
    m->path = g_strdup(path);
    m->dir = g_path_get_dirname(path);
    m->buffers = g_array_new(FALSE, TRUE, sizeof(DataSpec));
    m->globals = g_array_new(FALSE, TRUE, sizeof(DataSpec));
    m->launches = g_array_new(FALSE, TRUE, sizeof(LaunchDesc));
    m->expects = g_array_new(FALSE, TRUE, sizeof(ExpectSpec));
    Ctx c = {.file = path, .dir = m->dir, .strings = g_ptr_array_new_with_free_func(g_free), .error = error};
    bool ok = parse_manifest(&c, m, root);
    g_ptr_array_free(c.strings, TRUE);
    json_decref(root);
    if (!ok) {
        manifest_free(m);
        return NULL;
    }
    return m;
}

GBytes *manifest_buffer_initial(const Manifest *m, const char *name, GError **error)
{
    guint i = buffer_index(m, name);
    if (i == G_MAXUINT) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "%s: error: no buffer named \"%s\"", m->path, name);
        return NULL;
    }
    const DataSpec *b = &g_array_index(m->buffers, DataSpec, i);
    uint8_t *data = g_malloc(data_bytes(b));
    if (!init_fill(&b->init, b->type, b->count, data, m->path, b->jpath, error)) {
        g_free(data);
        return NULL;
    }
    return g_bytes_new_take(data, data_bytes(b));
}

/* ---------------------------------------------------------- comparison */

uint64_t manifest_compare_elements(PtxType type, const uint8_t *got, const uint8_t *want,
                                   uint64_t count, double rtol, double atol,
                                   json_t *details, guint max_details)
{
    unsigned size = isa_type_size(type);
    bool is_float = isa_type_is_float(type);
    uint64_t mask = size == 8 ? UINT64_MAX : (1ull << (8 * size)) - 1;
    uint64_t differ = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t g = get_le(got + i * size, size), w = get_le(want + i * size, size);
        bool same;
        if (is_float) {
            double a = bits_float(type, g), b = bits_float(type, w);
            if (isnan(a) || isnan(b))
                same = isnan(a) && isnan(b);
            else if (isinf(a) || isinf(b)) /* an infinite rtol·|b| would pass anything */
                same = a == b;
            else
                same = a == b || fabs(a - b) <= atol + rtol * fabs(b);
        } else {
            same = ((g ^ w) & mask) == 0;
        }
        if (same)
            continue;
        if (details && json_array_size(details) < max_details) {
            json_t *d = json_object();
            json_object_set_new(d, "index", json_integer((json_int_t)i));
            json_object_set_new(d, "got", report_scalar(type, g));
            json_object_set_new(d, "expected", report_scalar(type, w));
            json_array_append_new(details, d);
        }
        differ++;
    }
    return differ;
}

/* ----------------------------------------------------------------- run */

typedef struct {
    char *ptx;             /* resolved path: the cache key */
    Module *module;
    ModuleImage *image;
} LoadedModule;

typedef struct {           /* what a LaunchDesc resolved to against its PTX */
    LoadedModule *lm;
    uint32_t kernel;
    uint32_t regs;
    bool regs_estimated;
    uint32_t *global_vars; /* per launch global: module variable */
} LaunchPlan;

typedef struct {
    const Manifest *m;
    GlobalMemory *gmem;
    GPtrArray *modules;    /* LoadedModule* */
    LaunchPlan *plans;
    uint64_t *buffer_addr;
    const char *ptx_override; /* NULL: each launch's own PTX */
    bool ptx_order;        /* RunOptions.ptx_order */
    HostPool *pool;        /* the launches' host threads (several threads only), owned */
    TimingKeep *timing_keep; /* what timed launches keep between them (timing.h), owned */
} Run;

static void loaded_module_free(gpointer p)
{
    LoadedModule *lm = p;
    image_free(lm->image);
    module_free(lm->module);
    g_free(lm->ptx);
    g_free(lm);
}

static LoadedModule *module_for(Run *r, const char *ptx, GError **error)
{
    for (guint i = 0; i < r->modules->len; i++) {
        LoadedModule *lm = g_ptr_array_index(r->modules, i);
        if (strcmp(lm->ptx, ptx) == 0)
            return lm;
    }
    Module *mod = ptx_parse_file(ptx, error);
    if (!mod)
        return NULL;
    ModuleImage *img = NULL;
    contract_module(mod);
    if (!r->ptx_order)
        schedule_module(mod);
    if (!cfg_build_all(mod, error) || !(img = image_load(mod, r->gmem, error))) {
        module_free(mod);
        return NULL;
    }
    LoadedModule *lm = g_new0(LoadedModule, 1);
    lm->ptx = g_strdup(ptx);
    lm->module = mod;
    lm->image = img;
    g_ptr_array_add(r->modules, lm);
    return lm;
}

static bool run_fail(const Run *r, GError **error, WarpsimErrorCode code, const char *jpath,
                     const char *fmt, ...) G_GNUC_PRINTF(5, 6);
static bool run_fail(const Run *r, GError **error, WarpsimErrorCode code, const char *jpath,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, WARPSIM_ERROR, code, "%s: error: %s: %s", r->m->path,
                jpath && *jpath ? jpath : "top level", what);
    g_free(what);
    return false;
}

/* The module variable `d` initialises must be a .global/.const one big
 * enough for it. */
static bool check_global(const Run *r, const LoadedModule *lm, uint32_t var, const DataSpec *d, GError **error)
{
    const Variable *v = module_var(lm->module, var);
    if (v->space != SPACE_GLOBAL && v->space != SPACE_CONST)
        return run_fail(r, error, WS_ERR_INPUT, d->jpath,
                        "\"%s\" is a .%s variable of %s; only .global and .const variables can be initialised",
                        d->name, isa_space_name(v->space), lm->module->path);
    if (data_bytes(d) > v->size)
        return run_fail(r, error, WS_ERR_INPUT, d->jpath,
                        "%" G_GUINT64_FORMAT " bytes do not fit variable \"%s\" of %s (%" G_GUINT64_FORMAT " bytes)",
                        data_bytes(d), d->name, lm->module->path, v->size);
    return true;
}

static bool apply_global(const Run *r, LoadedModule *lm, uint32_t var, const DataSpec *d, GError **error)
{
    uint64_t size;
    uint8_t *bytes = image_var_bytes(lm->image, var, &size);
    if (!bytes || size < data_bytes(d))
        return run_fail(r, error, WS_ERR_INPUT, d->jpath, "variable \"%s\" of %s has no storage to initialise",
                        d->name, lm->module->path);
    return init_fill(&d->init, d->type, d->count, bytes, r->m->path, d->jpath, error);
}

static char *param_text(const Variable *v)
{
    return g_strdup_printf("\"%s\" (.%s, %" G_GUINT64_FORMAT " bytes)", v->name,
                           v->type != PTX_TYPE_NONE ? isa_types[v->type].spelling : "b8", v->size);
}

/* args against the kernel's parameters: count and sizes */
static bool check_args(const Run *r, const LaunchDesc *d, const LaunchPlan *p, GError **error)
{
    const Module *mod = p->lm->module;
    const Function *f = module_func(mod, p->kernel);
    if (d->args->len != f->params->len)
        return run_fail(r, error, WS_ERR_INPUT, d->args_jpath, "kernel %s takes %u parameter%s; %u given",
                        f->name, f->params->len, f->params->len == 1 ? "" : "s", d->args->len);
    unsigned addr_bytes = mod->address_size / 8;
    for (guint i = 0; i < d->args->len; i++) {
        const ArgSpec *a = &g_array_index(d->args, ArgSpec, i);
        const Variable *pv = module_var(mod, g_array_index(f->params, uint32_t, i));
        unsigned want = a->is_buffer ? addr_bytes : isa_type_size(a->type);
        if (pv->size == want)
            continue;
        char *ptext = param_text(pv);
        if (a->is_buffer)
            run_fail(r, error, WS_ERR_INPUT, a->jpath,
                     "a buffer argument is an address of %u bytes (.address_size %u); parameter %u %s is not",
                     addr_bytes, mod->address_size, i, ptext);
        else
            run_fail(r, error, WS_ERR_INPUT, a->jpath, "a %s argument (%u bytes) does not match parameter %u %s",
                     isa_types[a->type].spelling, want, i, ptext);
        g_free(ptext);
        return false;
    }
    return true;
}

/* A replacement PTX may name its kernel differently (a rewrite of
 * bitonicSort called bitonicSortMerged): a file with one kernel is taken
 * to hold the replacement.  Keeps the original lookup's error otherwise. */
static uint32_t only_kernel(const Module *mod, GError **lookup_error)
{
    uint32_t found = NO_INDEX;
    for (guint i = 0; i < mod->funcs->len; i++) {
        const Function *f = module_func(mod, i);
        if (!f->is_entry || !f->is_defined)
            continue;
        if (found != NO_INDEX)
            return NO_INDEX;
        found = i;
    }
    if (found != NO_INDEX)
        g_clear_error(lookup_error);
    return found;
}

/* Everything that needs the PTX, for every launch, before any runs. */
static bool plan_launches(Run *r, GError **error)
{
    const Manifest *m = r->m;
    for (guint i = 0; i < m->launches->len; i++) {
        const LaunchDesc *d = &g_array_index(m->launches, LaunchDesc, i);
        LaunchPlan *p = &r->plans[i];
        if (!(p->lm = module_for(r, r->ptx_override ? r->ptx_override : d->ptx, error)))
            return false;
        GError *e = NULL;
        p->kernel = module_find_kernel(p->lm->module, d->kernel, &e);
        if (p->kernel == NO_INDEX && r->ptx_override)
            p->kernel = only_kernel(p->lm->module, &e);
        if (p->kernel == NO_INDEX) {
            /* the module's message starts "PTX: error: "; say it once */
            const char *what = e ? e->message : "no such kernel";
            const char *tail = strstr(what, "error: ");
            run_fail(r, error, e ? e->code : WS_ERR_INPUT, d->kernel_jpath, "%s (in %s)",
                     tail ? tail + 7 : what, p->lm->module->path);
            g_clear_error(&e);
            return false;
        }
        if (!check_args(r, d, p, error))
            return false;
        p->regs = d->regs_per_thread;
        if (!p->regs) {
            p->regs = cfg_estimate_registers(p->lm->module, p->kernel);
            p->regs_estimated = true;
        }
        p->global_vars = g_new0(uint32_t, d->globals->len + 1);
        for (guint g = 0; g < d->globals->len; g++) {
            const DataSpec *gs = &g_array_index(d->globals, DataSpec, g);
            p->global_vars[g] = module_find_global(p->lm->module, gs->name);
            if (p->global_vars[g] == NO_INDEX)
                return run_fail(r, error, WS_ERR_INPUT, gs->jpath, "%s has no module-scope variable \"%s\"",
                                p->lm->module->path, gs->name);
            if (!check_global(r, p->lm, p->global_vars[g], gs, error))
                return false;
        }
    }
    return true;
}

/* top-level globals: into every module that declares the variable */
static bool apply_top_globals(Run *r, GError **error)
{
    for (guint g = 0; g < r->m->globals->len; g++) {
        const DataSpec *gs = &g_array_index(r->m->globals, DataSpec, g);
        bool found = false;
        for (guint i = 0; i < r->modules->len; i++) {
            LoadedModule *lm = g_ptr_array_index(r->modules, i);
            uint32_t var = module_find_global(lm->module, gs->name);
            if (var == NO_INDEX)
                continue;
            found = true;
            if (!check_global(r, lm, var, gs, error) || !apply_global(r, lm, var, gs, error))
                return false;
        }
        if (!found)
            return run_fail(r, error, WS_ERR_INPUT, gs->jpath, "no module declares a module-scope variable \"%s\"",
                            gs->name);
    }
    return true;
}

/* With initcheck, a buffer without "init" is memory the host allocated and
 * never filled: the kernel must write a byte before reading it. */
static bool alloc_buffers(Run *r, bool track_writes, GError **error)
{
    const Manifest *m = r->m;
    for (guint i = 0; i < m->buffers->len; i++) {
        const DataSpec *b = &g_array_index(m->buffers, DataSpec, i);
        uint64_t bytes = data_bytes(b);
        GError *e = NULL;
        r->buffer_addr[i] = gmem_alloc(r->gmem, bytes, b->name, &e);
        if (!r->buffer_addr[i]) {
            run_fail(r, error, WS_ERR_INPUT, b->jpath, "%s", e ? e->message : "cannot allocate");
            g_clear_error(&e);
            return false;
        }
        if (!init_fill(&b->init, b->type, b->count, gmem_ptr(r->gmem, r->buffer_addr[i], bytes), m->path,
                       b->jpath, error))
            return false;
        if (track_writes && !b->has_init && !gmem_track_writes(r->gmem, r->buffer_addr[i]))
            return run_fail(r, error, WS_ERR_INPUT, b->jpath, "no memory for initcheck's map of \"%s\"",
                            b->name);
    }
    return true;
}

static uint8_t *pack_params(const Run *r, const LaunchDesc *d, const LaunchPlan *p, GError **error)
{
    const Module *mod = p->lm->module;
    const Function *f = module_func(mod, p->kernel);
    uint8_t *params = g_malloc0(f->frame_param_bytes ? f->frame_param_bytes : 1);
    for (guint i = 0; i < d->args->len; i++) {
        const ArgSpec *a = &g_array_index(d->args, ArgSpec, i);
        uint64_t value = a->bits;
        if (a->is_buffer) {
            value = r->buffer_addr[a->buffer] + a->offset;
            if (mod->address_size == 32)
                value &= 0xffffffffu;
        }
        if (!launch_pack_param(mod, p->kernel, i, value, params, error)) {
            g_prefix_error(error, "%s: ", a->jpath);
            g_free(params);
            return NULL;
        }
    }
    return params;
}

static bool dump_buffers(const Run *r, const char *dir, GError **error)
{
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: cannot create folder: %s", dir, g_strerror(errno));
        return false;
    }
    for (guint i = 0; i < r->m->buffers->len; i++) {
        const DataSpec *b = &g_array_index(r->m->buffers, DataSpec, i);
        char *file = g_strdup_printf("%s.bin", b->name);
        char *path = g_build_filename(dir, file, NULL);
        g_free(file);
        uint64_t bytes = data_bytes(b);
        GError *e = NULL;
        bool ok = g_file_set_contents(path, (const char *)gmem_ptr(r->gmem, r->buffer_addr[i], bytes),
                                      (gssize)bytes, &e);
        if (!ok) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: %s", path, e->message);
            g_error_free(e);
        }
        g_free(path);
        if (!ok)
            return false;
    }
    return true;
}

/* Compares every expect; fills `checks` ({"y": "pass"}) and `details`, and
 * appends a line per failure to `text`.  Returns the number failed. */
static guint compare_expects(const Run *r, json_t *checks, json_t *details, GString *text, GError **error)
{
    guint failed = 0;
    for (guint i = 0; i < r->m->expects->len; i++) {
        const ExpectSpec *e = &g_array_index(r->m->expects, ExpectSpec, i);
        const DataSpec *b = &g_array_index(r->m->buffers, DataSpec, e->buffer);
        uint64_t bytes = data_bytes(b);
        const uint8_t *got = gmem_ptr(r->gmem, r->buffer_addr[e->buffer], bytes);
        json_t *detail = json_object();
        bool pass;
        if (e->is_sha256) {
            char *hex = sha256_hex(got, bytes);
            pass = strcmp(hex, e->sha256) == 0;
            json_object_set_new(detail, "got", json_string(hex));
            json_object_set_new(detail, "expected", json_string(e->sha256));
            if (!pass)
                g_string_append_printf(text, "%s%s: error: %s: sha256 of buffer %s is %s, expected %s",
                                       text->len ? "\n" : "", r->m->path, e->jpath, b->name, hex, e->sha256);
            g_free(hex);
        } else {
            gchar *want;
            gsize len;
            GError *io = NULL;
            if (!file_read_all(e->file, &want, &len, &io) || len != bytes) {
                if (io)
                    g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: %s.file: %s", r->m->path, e->jpath,
                                io->message);
                else
                    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                                "%s: error: %s.file: \"%s\" now holds %zu bytes; %" G_GUINT64_FORMAT " needed",
                                r->m->path, e->jpath, e->file, (size_t)len, bytes);
                if (!io)
                    g_free(want);
                g_clear_error(&io);
                json_decref(detail);
                return G_MAXUINT;
            }
            json_t *first = json_array();
            uint64_t n = manifest_compare_elements(b->type, got, (const uint8_t *)want, b->count, e->rtol,
                                                   e->atol, first, MAX_CHECK_DETAILS);
            pass = n == 0;
            json_object_set_new(detail, "mismatches", json_integer((json_int_t)n));
            json_object_set_new(detail, "elements", json_integer((json_int_t)b->count));
            if (!pass) {
                g_string_append_printf(text, "%s%s: error: %s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                       " elements of buffer %s differ",
                                       text->len ? "\n" : "", r->m->path, e->jpath, n, b->count, b->name);
                if (isa_type_is_float(b->type))
                    g_string_append_printf(text, " (rtol %g, atol %g)", e->rtol, e->atol);
                for (guint k = 0; k < json_array_size(first); k++) {
                    json_t *d = json_array_get(first, k);
                    uint64_t idx = (uint64_t)json_integer_value(json_object_get(d, "index"));
                    unsigned sz = isa_type_size(b->type);
                    char *g = element_text(b->type, get_le(got + idx * sz, sz));
                    char *w = element_text(b->type, get_le((const uint8_t *)want + idx * sz, sz));
                    g_string_append_printf(text, "%s [%" G_GUINT64_FORMAT "] got %s, expected %s",
                                           k ? ";" : ":", idx, g, w);
                    g_free(g);
                    g_free(w);
                }
            }
            json_object_set_new(detail, "first", first);
            g_free(want);
        }
        json_object_set_new(checks, b->name, json_string(pass ? "pass" : "fail"));
        json_object_set_new(details, b->name, detail);
        failed += !pass;
    }
    return failed;
}

/* Runs launch i (all its repetitions) and appends its report entry. */
static bool run_launch(Run *r, guint i, const RunOptions *opt, uint32_t *ordinal, json_t *report,
                       json_t **entry_out, GError **error)
{
    const LaunchDesc *d = &g_array_index(r->m->launches, LaunchDesc, i);
    const LaunchPlan *p = &r->plans[i];
    const Module *mod = p->lm->module;
    for (guint g = 0; g < d->globals->len; g++)
        if (!apply_global(r, p->lm, p->global_vars[g], &g_array_index(d->globals, DataSpec, g), error))
            return false;
    uint8_t *params = pack_params(r, d, p, error);
    if (!params)
        return false;

    const GpuConfig *gpu = opt ? opt->config : NULL;
    const GpuConfig *cfg = gpu && !opt->functional ? gpu : NULL; /* the timing model's */
    FaultLog *fault_log = opt && opt->keep_going ? fault_log_new() : NULL;
    LaunchSpec spec = {
        .kernel = p->kernel, .grid = d->grid, .block = d->block,
        .dynamic_shared_bytes = d->dynamic_shared_bytes, .params = params,
        .nsm = cfg ? cfg->num_sms : DEFAULT_NSM, .max_instructions = opt ? opt->max_instructions : 0,
        .host_threads = opt ? opt->threads : 1, .lockstep = opt && opt->lockstep, .checks = opt ? opt->checks : 0,
        .max_cycles = opt ? opt->max_cycles : 0, .fault_log = fault_log, .gpu = gpu,
        .regs_per_thread = p->regs, .observer = opt ? opt->observer : NULL, .cooperative = d->cooperative,
        .pool = r->pool, .timing_keep = r->timing_keep,
    };
    LaunchStats total, one;
    TimingStats ttotal, tone;
    SampleInfo sampling = {0};
    launch_stats_init(&total, mod);
    if (cfg)
        timing_stats_init(&ttotal, mod);
    GError *fault = NULL;
    gint64 started = g_get_monotonic_time();
    for (uint32_t rep = 0; rep < d->repeat && !fault; rep++) {
        spec.gridid = ++*ordinal;
        bool first = rep == 0;
        LaunchStats *ls = first ? &total : &one;
        TimingStats *ts = first ? &ttotal : &tone;
        if (!first)
            launch_stats_init(&one, mod);
        if (cfg) {
            if (!first)
                timing_stats_init(&tone, mod);
            ts->timeline = opt->timeline;
            if (opt->sample_waves) {
                SampleInfo one_sample;
                sampling_run(p->lm->image, &spec, cfg, p->regs, opt->sample_waves, ls, ts, &one_sample, &fault);
                if (first)
                    sampling = one_sample;
            } else {
                timing_run(p->lm->image, &spec, cfg, p->regs, ls, ts, &fault);
            }
        } else {
            launch_run(p->lm->image, &spec, ls, &fault);
        }
        if (!first) {
            launch_stats_add(&total, &one, mod);
            launch_stats_clear(&one);
            if (cfg) {
                timing_stats_accumulate(&ttotal, &tone, mod);
                timing_stats_clear(&tone);
            }
        }
    }
    double sim_seconds = (double)(g_get_monotonic_time() - started) / 1e6;
    char *in_order = launch_in_order_reason(p->lm->image, &spec);
    g_free(params);
    if (fault_log) {
        /* the recorded faults first, then the one that stopped the launch, if any */
        GError *recorded = NULL;
        char *what = g_strdup_printf("%s: %s (kernel '%s')", r->m->path, *d->jpath ? d->jpath : "launch",
                                     module_func(mod, p->kernel)->name);
        if (fault_log_take(fault_log, what, &recorded)) {
            if (fault)
                g_prefix_error(&fault, "%s\n", recorded->message);
            else
                g_propagate_error(&fault, g_steal_pointer(&recorded));
            g_clear_error(&recorded);
        }
        g_free(what);
        fault_log_free(fault_log);
    }

    json_t *entry = report_add_launch(report, module_func(mod, p->kernel)->name, d->grid, d->block);
    if (d->repeat > 1)
        json_object_set_new(entry, "repeat", json_integer(d->repeat));
    json_t *mx = report_metrics_from_stats(mod, p->kernel, &total, d->grid, d->block, p->regs, p->regs_estimated);
    if (cfg) {
        report_add_timing_metrics(mx, mod, &total, &ttotal, cfg);
        timing_stats_clear(&ttotal);
    }
    json_object_set_new(entry, "metrics", mx);
    if (cfg && opt->sample_waves)
        json_object_set_new(entry, "sampling",
                            json_pack("{s:b,s:I,s:I,s:I,s:I,s:I,s:f}", "sampled", sampling.sampled,
                                      "waves", (json_int_t)sampling.waves,
                                      "detailed_waves", (json_int_t)sampling.detailed_waves,
                                      "detailed_ctas", (json_int_t)sampling.detailed_ctas,
                                      "detailed_cycles", (json_int_t)sampling.detailed_cycles,
                                      "estimated_cycles", (json_int_t)sampling.estimated_cycles,
                                      "error_bound_pct", sampling.error_bound_pct));
    /* host-side facts, not metrics: they differ between runs and machines */
    json_t *host = json_pack("{s:f,s:i}", "sim_seconds", sim_seconds, "threads", (json_int_t)MAX(spec.host_threads, 1u));
    if (in_order)
        json_object_set_new(host, "ctas_in_order", json_string(in_order));
    g_free(in_order);
    json_object_set_new(entry, "host", host);
    launch_stats_clear(&total);
    *entry_out = entry;
    if (opt && opt->html)
        html_report_note_launch(opt->html, entry, mod, p->kernel);
    if (fault && fault->code == WS_ERR_INPUT && !g_str_has_prefix(fault->message, r->m->path)) {
        /* the launch's shape or resources, rejected as CUDA would: say
         * which launch of which manifest asked for it */
        g_prefix_error(&fault, "%s: error: %s%s", r->m->path, *d->jpath ? d->jpath : "launch",
                       ": ");
    }
    if (fault) {
        json_object_set_new(entry, "error", json_string(fault->message));
        g_propagate_error(error, fault);
        return false;
    }
    return true;
}

void manifest_buffer_free(ManifestBuffer *b)
{
    if (!b)
        return;
    g_free(b->name);
    g_bytes_unref(b->data);
    g_free(b);
}

static GPtrArray *capture_buffers(const Run *r)
{
    GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)manifest_buffer_free);
    for (guint i = 0; i < r->m->buffers->len; i++) {
        const DataSpec *b = &g_array_index(r->m->buffers, DataSpec, i);
        uint64_t bytes = data_bytes(b);
        ManifestBuffer *mb = g_new0(ManifestBuffer, 1);
        mb->name = g_strdup(b->name);
        mb->type = b->type;
        mb->count = b->count;
        mb->data = g_bytes_new(gmem_ptr(r->gmem, r->buffer_addr[i], bytes), (gsize)bytes);
        g_ptr_array_add(out, mb);
    }
    return out;
}

gboolean manifest_run(Manifest *m, const RunOptions *opt, json_t **report, guint *failed_checks, GError **error)
{
    return manifest_run_capture(m, opt, NULL, NULL, report, failed_checks, error);
}

gboolean manifest_run_capture(Manifest *m, const RunOptions *opt, const char *ptx_override,
                              GPtrArray **buffers, json_t **report, guint *failed_checks, GError **error)
{
    if (buffers)
        *buffers = NULL;
    const char *config = opt && opt->config ? opt->config->name
                       : opt && opt->config_name ? opt->config_name : CONFIG_DEFAULT_NAME;
    *report = NULL;
    if (failed_checks)
        *failed_checks = 0;
    Run r = {
        .m = m,
        .gmem = gmem_new(),
        .modules = g_ptr_array_new_with_free_func(loaded_module_free),
        .plans = g_new0(LaunchPlan, m->launches->len),
        .buffer_addr = g_new0(uint64_t, m->buffers->len + 1),
        .ptx_override = ptx_override,
        .ptx_order = opt && opt->ptx_order,
        .pool = opt && opt->threads > 1 ? host_pool_new() : NULL,
        .timing_keep = timing_keep_new(),
    };
    r.gmem->heap_bytes = m->malloc_heap_bytes;
    /* the run's threads start with it, as its other machinery does */
    if (r.pool)
        host_pool_start(r.pool, opt->threads - 1);
    bool ok = plan_launches(&r, error) && apply_top_globals(&r, error) && alloc_buffers(&r, opt && (opt->checks & LAUNCH_CHECK_INIT), error);
    bool buffers_ready = ok;
    json_t *rep = NULL;
    if (ok) {
        rep = report_new(config, m->name, !r.ptx_order);
        json_t *entry = NULL;
        uint32_t ordinal = 0;
        for (guint i = 0; i < m->launches->len && ok; i++)
            ok = run_launch(&r, i, opt, &ordinal, rep, &entry, error);
        if (ok && entry) {
            GString *text = g_string_new(NULL);
            json_t *checks = json_object(), *details = json_object();
            guint failed = compare_expects(&r, checks, details, text, error);
            json_object_set_new(entry, "checks", checks);
            if (json_object_size(details))
                json_object_set_new(entry, "warpsim__check_details", details);
            else
                json_decref(details);
            if (failed == G_MAXUINT) {
                ok = false;
            } else if (failed) {
                if (failed_checks)
                    *failed_checks = failed;
                g_set_error_literal(error, WARPSIM_ERROR, WS_ERR_CHECK, text->str);
                ok = false;
            }
            g_string_free(text, TRUE);
        }
    }
    if (buffers_ready && opt && opt->dump_dir) {
        GError *dump_error = NULL;
        if (!dump_buffers(&r, opt->dump_dir, &dump_error)) {
            if (ok)
                g_propagate_error(error, dump_error);
            else {
                if (error && *error)
                    g_prefix_error(error, "%s\n", dump_error->message);
                g_error_free(dump_error);
            }
            ok = false;
        }
    }

    if (buffers_ready && buffers)
        *buffers = capture_buffers(&r);

    for (guint i = 0; i < m->launches->len; i++)
        g_free(r.plans[i].global_vars);
    g_free(r.plans);
    g_free(r.buffer_addr);
    g_ptr_array_free(r.modules, TRUE); /* images before the memory they borrow */
    gmem_free(r.gmem);
    host_pool_free(r.pool);
    timing_keep_free(r.timing_keep);
    *report = rep;
    return ok;
}
