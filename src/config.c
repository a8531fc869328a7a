/* config.c — GPU configurations: find, derive, validate, convert.
 *
 * Contract (config.h; the schema is docs/config.md): a configuration is a
 * JSON object of sections and values.  Every file is checked on its own
 * first (unknown keys, types, ranges), so a mistake is reported against the
 * file that holds it; then the "base" chain is merged (the derived file's
 * values replace its base's, section by section), the overrides are applied
 * one by one with the same checks, and the merged tree must hold every
 * required key and satisfy the checks between keys.  Only then is it
 * converted to the plain GpuConfig.
 *
 * The schema is the table `keys` below: one row per value, with its kind,
 * range and place in GpuConfig.  A section is any dotted prefix of a key.
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "fileio.h"

/* defined by the generated configs_bundled.c (tools/embed-configs.py) */
extern const char *const config_bundled_name_list[];
const char *config_bundled_text(const char *name);

#define MAX_BASE_DEPTH 16

/* ---------------------------------------------------------------- schema */

typedef enum {
    K_UINT,    /* uint32_t, a JSON integer */
    K_DOUBLE,  /* double, any JSON number */
    K_BOOL,    /* bool */
    K_STRING,  /* char *, owned by the GpuConfig */
    K_CHOICE,  /* an enum field, spelled as one of `choices` (index = value) */
    K_CC,      /* "MAJOR.MINOR" into cc_major and cc_minor */
} KeyKind;

enum {
    F_POW2 = 1u << 0,     /* a power of two (hardware indexes with it) */
    F_OPTIONAL = 1u << 1, /* may be missing after merging */
    F_OWN = 1u << 2,      /* not inherited from a base (the name) */
};

typedef struct {
    const char *path;
    KeyKind kind;
    double min, max;
    unsigned flags;
    const char *const *choices;
    size_t offset;
} KeySpec;

/* CoalesceRule, SchedPolicy and RegAllocScope are stored through an int */
_Static_assert(sizeof(CoalesceRule) == sizeof(int), "enum size");
_Static_assert(sizeof(SchedPolicy) == sizeof(int), "enum size");
_Static_assert(sizeof(RegAllocScope) == sizeof(int), "enum size");

static const char *const coalesce_names[] = {"cc1.0", "cc1.2", "cc2.x", "sector", NULL};
static const char *const policy_names[] = {"lrr", "gto", NULL};
static const char *const scope_names[] = {"block", "warp", NULL};
static const char *const smem_wide_names[] = {"phases", "quads", NULL};

#define OFF(field) offsetof(GpuConfig, field)
#define LAT(cls) (offsetof(GpuConfig, latency) + (cls) * sizeof(uint32_t))
#define LANES(unit) (offsetof(GpuConfig, unit_lanes) + (unit) * sizeof(uint32_t))
#define CYCLES 100000.0
#define CACHE_KEYS(prefix, field)                                                        \
    {prefix ".size_bytes", K_UINT, 0, 1u << 30, 0, NULL, OFF(field.size_bytes)},         \
    {prefix ".line_bytes", K_UINT, 4, 4096, F_POW2, NULL, OFF(field.line_bytes)},        \
    {prefix ".sector_bytes", K_UINT, 4, 4096, F_POW2, NULL, OFF(field.sector_bytes)},    \
    {prefix ".assoc", K_UINT, 1, 1u << 20, 0, NULL, OFF(field.assoc)},                   \
    {prefix ".latency", K_UINT, 0, CYCLES, 0, NULL, OFF(field.latency)}

static const KeySpec keys[] = {
    {"name", K_STRING, 0, 0, F_OPTIONAL | F_OWN, NULL, OFF(name)},
    {"display_name", K_STRING, 0, 0, 0, NULL, OFF(display_name)},
    {"compute_capability", K_CC, 0, 0, 0, NULL, 0},
    {"num_sms", K_UINT, 1, 1024, 0, NULL, OFF(num_sms)},
    
    {"sm.clock_mhz", K_DOUBLE, 50, 5000, 0, NULL, OFF(clock_mhz)},
    {"sm.max_warps", K_UINT, 1, CONFIG_MAX_WARPS_PER_SM, 0, NULL, OFF(max_warps_per_sm)},
    {"sm.max_threads", K_UINT, 32, 8192, 0, NULL, OFF(max_threads_per_sm)},
    {"sm.max_blocks", K_UINT, 1, 256, 0, NULL, OFF(max_blocks_per_sm)},
    {"sm.launch_overhead_cycles", K_UINT, 0, CYCLES, 0, NULL, OFF(launch_overhead_cycles)},
    {"sm.max_threads_per_block", K_UINT, 32, 4096, 0, NULL, OFF(max_threads_per_block)},
    {"sm.max_grid_x", K_UINT, 1, 0x7FFFFFFF, F_OPTIONAL, NULL, OFF(max_grid[0])},
    {"sm.max_grid_y", K_UINT, 1, 65535, F_OPTIONAL, NULL, OFF(max_grid[1])},
    {"sm.max_grid_z", K_UINT, 1, 65535, F_OPTIONAL, NULL, OFF(max_grid[2])},

    {"registers.per_sm", K_UINT, 1024, 1u << 20, 0, NULL, OFF(regs_per_sm)},
    {"registers.per_block", K_UINT, 256, 1u << 20, 0, NULL, OFF(regs_per_block)},
    {"registers.max_per_thread", K_UINT, 1, 1024, 0, NULL, OFF(max_regs_per_thread)},
    {"registers.alloc_unit", K_UINT, 1, 4096, F_POW2, NULL, OFF(reg_alloc_unit)},
    {"registers.alloc_scope", K_CHOICE, 0, 0, 0, scope_names, OFF(reg_alloc_scope)},
    {"registers.warp_alloc_granularity", K_UINT, 1, 32, F_POW2, NULL, OFF(warp_alloc_granularity)},

    {"shared_memory.per_sm", K_UINT, 1024, 1u << 24, 0, NULL, OFF(smem_per_sm)},
    {"shared_memory.per_block", K_UINT, 0, 1u << 24, 0, NULL, OFF(smem_per_block)},
    {"shared_memory.alloc_unit", K_UINT, 1, 65536, F_POW2, NULL, OFF(smem_alloc_unit)},
    {"shared_memory.reserved_per_block", K_UINT, 0, 65536, 0, NULL, OFF(smem_reserved_per_block)},
    {"shared_memory.banks", K_UINT, 16, 32, F_POW2, NULL, OFF(smem_banks)},
    {"shared_memory.bank_bytes", K_UINT, 4, 8, F_POW2, NULL, OFF(smem_bank_bytes)},
    {"shared_memory.half_warp", K_BOOL, 0, 0, 0, NULL, OFF(smem_half_warp)},
    {"shared_memory.wide_accesses", K_CHOICE, 0, 0, F_OPTIONAL, smem_wide_names, OFF(smem_wide)},
    {"shared_memory.latency", K_UINT, 1, CYCLES, 0, NULL, OFF(smem_latency)},

    {"scheduler.count", K_UINT, 1, 16, 0, NULL, OFF(schedulers_per_sm)},
    {"scheduler.issue_width", K_UINT, 1, 8, 0, NULL, OFF(issue_width)},
    {"scheduler.policy", K_CHOICE, 0, 0, 0, policy_names, OFF(sched_policy)},
    {"scheduler.lsu_queue_depth", K_UINT, 0, 256, F_OPTIONAL, NULL, OFF(lsu_queue_depth)},
    {"scheduler.barrier_arrival_cycles", K_UINT, 0, 1024, F_OPTIONAL, NULL, OFF(barrier_arrival_cycles)},
    {"scheduler.barrier_reset_cycles", K_UINT, 0, 1024, F_OPTIONAL, NULL, OFF(barrier_reset_cycles)},
    {"scheduler.integer_fma_pipe", K_BOOL, 0, 0, F_OPTIONAL, NULL, OFF(int_fma_pipe)},
    {"scheduler.loop_unroll", K_UINT, 1, 64, F_OPTIONAL, NULL, OFF(loop_unroll)},

#define LATENCY_CLASS(id, name, absent, sched) \
    {"latency." name, K_UINT, 1, CYCLES, LAT_##id == LAT_##absent ? 0 : F_OPTIONAL, NULL, LAT(LAT_##id)},
#include "latency_classes.def"
#undef LATENCY_CLASS

#define FUNC_UNIT(id, name, key) {"unit_lanes." key, K_UINT, 1, 1024, 0, NULL, LANES(UNIT_##id)},
#include "func_units.def"
#undef FUNC_UNIT

    {"memory.coalescing", K_CHOICE, 0, 0, 0, coalesce_names, OFF(coalescing)},
    {"memory.const_latency", K_UINT, 1, CYCLES, 0, NULL, OFF(const_latency)},
    {"memory.atomic_latency", K_UINT, 1, CYCLES, 0, NULL, OFF(atomic_latency)},
    {"memory.atomic_units", K_UINT, 0, 4096, F_OPTIONAL, NULL, OFF(atomic_units)},
    {"memory.atomic_unit_bytes", K_UINT, 32, 1u << 20, F_OPTIONAL | F_POW2, NULL, OFF(atomic_unit_bytes)},
    {"memory.atomic_sector_cycles", K_DOUBLE, 0, 1000, F_OPTIONAL, NULL, OFF(atomic_sector_cycles)},
    {"memory.atomic_full_sector_cycles", K_DOUBLE, 0, 1000, F_OPTIONAL, NULL, OFF(atomic_full_sector_cycles)},
    CACHE_KEYS("memory.l1", l1),
    {"memory.l1.caches_global", K_BOOL, 0, 0, 0, NULL, OFF(l1_caches_global)},
    CACHE_KEYS("memory.readonly", readonly),
    CACHE_KEYS("memory.l2", l2),
    {"memory.l2.bytes_per_cycle", K_DOUBLE, 0.001, 1e6, 0, NULL, OFF(l2_bytes_per_cycle)},
    {"memory.l2.requests_per_cycle", K_DOUBLE, 0, 1e6, F_OPTIONAL, NULL, OFF(l2_requests_per_cycle)},
    {"memory.dram.latency", K_UINT, 0, CYCLES, 0, NULL, OFF(dram_latency)},
    {"memory.dram.bandwidth_gbs", K_DOUBLE, 0.01, 1e6, 0, NULL, 0 /* converted */},
    {"memory.dram.access_bytes", K_UINT, 32, 256, F_POW2, NULL, OFF(dram_access_bytes)},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const KeySpec *find_key(const char *path)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].path, path) == 0)
            return &keys[i];
    return NULL;
}

static bool is_section(const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < NKEYS; i++)
        if (strncmp(keys[i].path, path, n) == 0 && keys[i].path[n] == '.')
            return true;
    return false;
}

static const char *first_key_under(const char *section)
{
    size_t n = strlen(section);
    for (size_t i = 0; i < NKEYS; i++)
        if (strncmp(keys[i].path, section, n) == 0 && keys[i].path[n] == '.')
            return keys[i].path;
    return section;
}

/* ---------------------------------------------------------------- errors */

typedef struct {
    const char *label;  /* the file (or "--set k=v") that messages name */
    GError **error;
} Ctx;

/* Every error about the document names its file and JSON path. */
#define fail(c, jpath, ...) json_input_error((c)->error, (c)->label, (jpath), __VA_ARGS__)

/* ---------------------------------------------------------------- values */

static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* "must be 16 or 32", or a range, for the message about a bad number */
static char *describe_range(const KeySpec *k)
{
    if (k->flags & F_POW2) {
        unsigned n = 0;
        for (double v = 1; v <= k->max; v *= 2)
            n += v >= k->min;
        if (n == 2)
            return g_strdup_printf("%.0f or %.0f", k->min, k->min * 2);
        return g_strdup_printf("a power of two from %.0f to %.0f", k->min, k->max);
    }
    if (k->kind == K_UINT)
        return g_strdup_printf("an integer from %.0f to %.0f", k->min, k->max);
    return g_strdup_printf("a number from %g to %g", k->min, k->max);
}

/* The value of a leaf: plain, or the "value" of {"value": V, "source": S}. */
static bool unwrap(const Ctx *c, const char *path, json_t *v, json_t **out)
{
    if (!json_is_object(v)) {
        *out = v;
        return true;
    }
    const char *member;
    json_t *m;
    json_object_foreach(v, member, m) {
        if (strcmp(member, "value") != 0 && strcmp(member, "source") != 0) {
            char *p = g_strdup_printf("%s.%s", path, member);
            fail(c, p, "unknown key (a value is plain or {\"value\": V, \"source\": \"...\"})");
            g_free(p);
            return false;
        }
    }
    json_t *src = json_object_get(v, "source");
    if (src && !json_is_string(src)) {
        char *p = g_strdup_printf("%s.source", path);
        fail(c, p, "must be a string naming where the value comes from");
        g_free(p);
        return false;
    }
    *out = json_object_get(v, "value");
    if (!*out)
        return fail(c, path, "a value given as an object needs \"value\" (and \"source\")");
    return true;
}

static bool parse_cc(const char *s, uint32_t *major, uint32_t *minor)
{
    unsigned a, b;
    int end = 0;
    if (sscanf(s, "%3u.%1u%n", &a, &b, &end) != 2 || s[end] != '\0' || a < 1 || a > 99)
        return false;
    *major = a;
    *minor = b;
    return true;
}

/* Checks one leaf against its row of the schema. */
static bool check_value(const Ctx *c, const KeySpec *k, json_t *raw)
{
    json_t *v;
    if (!unwrap(c, k->path, raw, &v))
        return false;
    switch (k->kind) {
    case K_UINT: {
        char *want = describe_range(k);
        bool ok = false;
        if (!json_is_integer(v))
            fail(c, k->path, "must be %s", want);
        else if ((double)json_integer_value(v) < k->min || (double)json_integer_value(v) > k->max)
            fail(c, k->path, "must be %s (got %" JSON_INTEGER_FORMAT ")", want, json_integer_value(v));
        else if ((k->flags & F_POW2) && !is_pow2((uint64_t)json_integer_value(v)))
            fail(c, k->path, "must be %s (got %" JSON_INTEGER_FORMAT ")", want, json_integer_value(v));
        else
            ok = true;
        g_free(want);
        return ok;
    }
    case K_DOUBLE: {
        if (json_is_number(v) && json_number_value(v) >= k->min && json_number_value(v) <= k->max)
            return true;
        char *want = describe_range(k);
        if (json_is_number(v))
            fail(c, k->path, "must be %s (got %g)", want, json_number_value(v));
        else
            fail(c, k->path, "must be %s", want);
        g_free(want);
        return false;
    }
    case K_BOOL:
        return json_is_boolean(v) || fail(c, k->path, "must be true or false");
    case K_STRING:
        return (json_is_string(v) && json_string_length(v) > 0) ||
               fail(c, k->path, "must be a non-empty string");
    case K_CHOICE: {
        if (json_is_string(v))
            for (size_t i = 0; k->choices[i]; i++)
                if (strcmp(json_string_value(v), k->choices[i]) == 0)
                    return true;
        GString *list = g_string_new(NULL);
        for (size_t i = 0; k->choices[i]; i++)
            g_string_append_printf(list, "%s\"%s\"", i ? ", " : "", k->choices[i]);
        if (json_is_string(v))
            fail(c, k->path, "must be one of %s (got \"%s\")", list->str, json_string_value(v));
        else
            fail(c, k->path, "must be one of %s", list->str);
        g_string_free(list, TRUE);
        return false;
    }
    case K_CC: {
        uint32_t a, b;
        if (json_is_string(v) && parse_cc(json_string_value(v), &a, &b))
            return true;
        return fail(c, k->path, "must be a string \"MAJOR.MINOR\" such as \"9.0\"");
    }
    }
    return fail(c, k->path, "internal: unknown kind");
}

/* A member named "" or "a.b": paths are dotted, so such a name could never
 * be found by its path and would be ignored without a word. */
static bool bad_member_name(const Ctx *c, const char *prefix, const char *member)
{
    char *quoted = *prefix ? g_strdup_printf("%s.\"%s\"", prefix, member) : g_strdup_printf("\"%s\"", member);
    if (!*member)
        fail(c, quoted, "an empty key");
    else {
        const char *dot = strchr(member, '.');
        fail(c, quoted, "a key may not contain '.'; nest it instead: \"%.*s\": {\"%s\": ...}",
             (int)(dot - member), member, dot + 1);
    }
    g_free(quoted);
    return false;
}

/* Checks every member of one file's object (or section) on its own. */
static bool check_tree(const Ctx *c, json_t *obj, const char *prefix)
{
    const char *member;
    json_t *v;
    json_object_foreach(obj, member, v) {
        if (!*member || strchr(member, '.'))
            return bad_member_name(c, prefix, member);
        char *path = *prefix ? g_strdup_printf("%s.%s", prefix, member) : g_strdup(member);
        const KeySpec *k = find_key(path);
        bool ok;
        if (!*prefix && strcmp(member, "base") == 0)
            ok = json_is_string(v) || fail(c, path, "must be a string: a bundled configuration's name or a path");
        else if (k)
            ok = check_value(c, k, v);
        else if (is_section(path))
            ok = json_is_object(v) ? check_tree(c, v, path)
                                   : fail(c, path, "must be an object (a section of the configuration)");
        else
            ok = fail(c, path, "unknown key");
        g_free(path);
        if (!ok)
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- merging */

/* The section object at `path` of `root`, created when missing. */
static json_t *section_at(json_t *root, const char *path, const char **leaf)
{
    char **parts = g_strsplit(path, ".", -1);
    json_t *obj = root;
    guint n = g_strv_length(parts);
    for (guint i = 0; i + 1 < n; i++) {
        json_t *next = json_object_get(obj, parts[i]);
        if (!json_is_object(next)) {
            next = json_object();
            json_object_set_new(obj, parts[i], next);
        }
        obj = next;
    }
    *leaf = path + strlen(path) - strlen(parts[n - 1]);
    g_strfreev(parts);
    return obj;
}

static json_t *value_at(json_t *root, const char *path)
{
    char **parts = g_strsplit(path, ".", -1);
    json_t *v = root;
    for (guint i = 0; parts[i] && v; i++)
        v = json_is_object(v) ? json_object_get(v, parts[i]) : NULL;
    g_strfreev(parts);
    return v;
}

/* Lays the checked file `over` onto `merged`: leaves replace, sections merge. */
static void merge_into(json_t *merged, json_t *over, const char *prefix)
{
    const char *member;
    json_t *v;
    json_object_foreach(over, member, v) {
        if (!*prefix && strcmp(member, "base") == 0)
            continue;
        char *path = *prefix ? g_strdup_printf("%s.%s", prefix, member) : g_strdup(member);
        if (!find_key(path) && json_is_object(v)) {
            json_t *sub = json_object_get(merged, member);
            if (!json_is_object(sub)) {
                sub = json_object();
                json_object_set_new(merged, member, sub);
            }
            merge_into(sub, v, path);
        } else {
            json_object_set(merged, member, v);
        }
        g_free(path);
    }
}

/* ---------------------------------------------------------------- loading */

typedef struct {
    char *label;     /* for messages: "configs/h200.json" or the path */
    char *identity;  /* for cycles: "bundled:h200" or the canonical path */
    char *dir;       /* base of relative "base" paths; NULL when bundled */
    char *stem;      /* the default name */
    char *text;
} Source;

static void source_clear(Source *s)
{
    g_free(s->label);
    g_free(s->identity);
    g_free(s->dir);
    g_free(s->stem);
    g_free(s->text);
}

static bool is_bundled(const char *name)
{
    return config_bundled_text(name) != NULL;
}

/* For a base "h200.json" that is not a file: the bundled one has no suffix. */
static const char *bundled_hint(const char *base)
{
    if (!g_str_has_suffix(base, ".json") || strchr(base, '/'))
        return "";
    char *stem = g_strndup(base, strlen(base) - 5);
    bool bundled = is_bundled(stem);
    g_free(stem);
    return bundled ? " (a bundled configuration is named without \".json\")" : "";
}

static void set_bundled(Source *s, const char *name)
{
    s->label = g_strdup_printf("configs/%s.json", name);
    s->identity = g_strdup_printf("bundled:%s", name);
    s->stem = g_strdup(name);
    s->text = g_strdup(config_bundled_text(name));
}

static bool read_file(Source *s, const char *path, GError **error)
{
    GError *io = NULL;
    gsize len;
    if (!file_read_all(path, &s->text, &len, &io)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: %s", path, io->message);
        g_error_free(io);
        return false;
    }
    if (strlen(s->text) != len) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: the file holds a NUL byte", path);
        return false;
    }
    s->label = g_strdup(path);
    char *abs = g_canonicalize_filename(path, NULL);
    char *real = realpath(abs, NULL);
    s->identity = g_strdup(real ? real : abs);
    free(real);
    g_free(abs);
    s->dir = g_path_get_dirname(path);
    char *base = g_path_get_basename(path);
    if (g_str_has_suffix(base, ".json"))
        base[strlen(base) - 5] = '\0';
    s->stem = base;
    return true;
}

static bool is_blank(const char *text)
{
    while (g_ascii_isspace(*text))
        text++;
    return !*text;
}

static json_t *parse_source(const Source *s, GError **error)
{
    if (is_blank(s->text)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the file is empty; a configuration is a JSON object such as "
                    "{\"base\": \"h200\", \"num_sms\": 66}", s->label);
        return NULL;
    }
    if (g_str_has_prefix(s->text, "\xef\xbb\xbf")) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s:1:1: error: the file starts with a byte order mark; save it as UTF-8 without one", s->label);
        return NULL;
    }
    json_error_t je;
    /* any value, so that a string or an array gets the message below */
    json_t *root = json_loads(s->text, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    if (!root) {
        if (je.line > 0)
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s:%d:%d: error: %s", s->label, je.line,
                        je.column > 0 ? je.column : 1, je.text);
        else
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: %s", s->label, je.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: top level: a configuration must be a JSON object", s->label);
        return NULL;
    }
    return root;
}

/* Loads `s` and its base chain into one merged tree.  `chain` holds the
 * identities of the files that include this one, to detect cycles. */
static json_t *load_merged(Source *s, GPtrArray *chain, GPtrArray *labels, GError **error)
{
    for (guint i = 0; i < chain->len; i++) {
        if (strcmp(chain->pdata[i], s->identity) == 0) {
            GString *msg = g_string_new(NULL);
            for (guint j = i; j < labels->len; j++)
                g_string_append_printf(msg, "%s -> ", (char *)labels->pdata[j]);
            g_string_append(msg, s->label);
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: base: cycle in the base chain: %s",
                        (char *)labels->pdata[labels->len - 1], msg->str);
            g_string_free(msg, TRUE);
            return NULL;
        }
    }
    if (chain->len >= MAX_BASE_DEPTH) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: base: chain deeper than %d files",
                    s->label, MAX_BASE_DEPTH);
        return NULL;
    }
    json_t *root = parse_source(s, error);
    if (!root)
        return NULL;
    Ctx c = {.label = s->label, .error = error};
    if (!check_tree(&c, root, "")) {
        json_decref(root);
        return NULL;
    }

    json_t *merged;
    json_t *base = json_object_get(root, "base");
    if (!base) {
        merged = json_object();
    } else {
        const char *b = json_string_value(base);
        Source bs = {0};
        bool ok;
        if (is_bundled(b) && !strchr(b, '/') && !g_str_has_suffix(b, ".json")) {
            set_bundled(&bs, b);
            ok = true;
        } else if (!*b) {
            ok = fail(&c, "base", "must name a bundled configuration or a file (got \"\")");
        } else if (!s->dir) {
            ok = fail(&c, "base", "no bundled configuration named \"%s\"", b);
        } else {
            char *path = g_path_is_absolute(b) ? g_strdup(b) : g_build_filename(s->dir, b, NULL);
            GError *why = NULL;
            if (!strchr(b, '/') && !g_str_has_suffix(b, ".json") && !g_file_test(path, G_FILE_TEST_EXISTS)) {
                /* meant as a bundled name, most likely */
                char *list = g_strjoinv(", ", (char **)config_bundled_name_list);
                ok = fail(&c, "base", "no bundled configuration named \"%s\" and no file %s (bundled: %s)", b, path,
                          list);
                g_free(list);
            } else if (!(ok = read_file(&bs, path, &why))) {
                /* name the including file and key; keep the reason, not its "FILE: error: " */
                const char *reason = strstr(why->message, "error: ");
                fail(&c, "base", "cannot load \"%s\": %s%s", b, reason ? reason + 7 : why->message,
                     bundled_hint(b));
            }
            g_clear_error(&why);
            g_free(path);
        }
        if (!ok) {
            source_clear(&bs);
            json_decref(root);
            return NULL;
        }
        g_ptr_array_add(chain, s->identity);
        g_ptr_array_add(labels, s->label);
        merged = load_merged(&bs, chain, labels, error);
        g_ptr_array_set_size(chain, chain->len - 1);
        g_ptr_array_set_size(labels, labels->len - 1);
        source_clear(&bs);
        if (!merged) {
            json_decref(root);
            return NULL;
        }
        for (size_t i = 0; i < NKEYS; i++)
            if (keys[i].flags & F_OWN)
                json_object_del(merged, keys[i].path);
    }
    merge_into(merged, root, "");
    json_decref(root);
    return merged;
}

/* Applies one "a.b.c=value" string to the merged tree. */
static bool apply_override(json_t *merged, const char *text, GError **error)
{
    char *label = g_strdup_printf("--set %s", text);
    Ctx c = {.label = label, .error = error};
    bool ok = false;
    const char *eq = strchr(text, '=');
    if (!eq || eq == text) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: expected KEY=VALUE, such as num_sms=16", label);
        g_free(label);
        return false;
    }
    char *path = g_strndup(text, (gsize)(eq - text));
    const KeySpec *k = find_key(path);
    if (strcmp(path, "base") == 0) {
        fail(&c, path, "cannot be overridden; derive a file from the configuration instead");
    } else if (!k) {
        if (is_section(path))
            fail(&c, path, "is a section; set one of its keys, such as %s", first_key_under(path));
        else
            fail(&c, path, "unknown key");
    } else {
        /* a key whose values are text takes the text as written
         * (compute_capability=8.6, name=123), or a JSON string or object */
        bool text_key = k->kind == K_STRING || k->kind == K_CHOICE || k->kind == K_CC;
        json_t *v = text_key && eq[1] != '"' && eq[1] != '{' ? NULL : json_loads(eq + 1, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
        if (!v)
            v = json_string(eq + 1);
        if (!v) {
            fail(&c, path, "the value is not valid UTF-8");
        } else if (check_value(&c, k, v)) {
            const char *leaf;
            json_t *sec = section_at(merged, path, &leaf);
            json_object_set(sec, leaf, v);
            ok = true;
        }
        json_decref(v);
    }
    g_free(path);
    g_free(label);
    return ok;
}

/* ---------------------------------------------------------------- conversion */

static json_t *leaf_value(json_t *merged, const char *path)
{
    json_t *v = value_at(merged, path);
    if (json_is_object(v))
        v = json_object_get(v, "value");
    return v;
}

static void store(GpuConfig *cfg, const KeySpec *k, json_t *v)
{
    char *base = (char *)cfg;
    switch (k->kind) {
    case K_UINT:
        *(uint32_t *)(base + k->offset) = (uint32_t)json_integer_value(v);
        break;
    case K_DOUBLE:
        if (k->offset)
            *(double *)(base + k->offset) = json_number_value(v);
        break;
    case K_BOOL:
        *(bool *)(base + k->offset) = json_is_true(v);
        break;
    case K_STRING:
        g_free(*(char **)(base + k->offset));
        *(char **)(base + k->offset) = g_strdup(json_string_value(v));
        break;
    case K_CHOICE:
        for (int i = 0; k->choices[i]; i++)
            if (strcmp(json_string_value(v), k->choices[i]) == 0)
                *(int *)(base + k->offset) = i;
        break;
    case K_CC:
        parse_cc(json_string_value(v), &cfg->cc_major, &cfg->cc_minor);
        break;
    }
}

static bool check_cache(const Ctx *c, const char *prefix, const CacheConfig *cc)
{
    char *p = NULL;
    bool ok = true;
    if (cc->sector_bytes > cc->line_bytes) {
        p = g_strdup_printf("%s.sector_bytes", prefix);
        ok = fail(c, p, "must not exceed %s.line_bytes (%u; got %u)", prefix, cc->line_bytes, cc->sector_bytes);
    } else if (cc->size_bytes && cc->size_bytes % cc->line_bytes) {
        p = g_strdup_printf("%s.size_bytes", prefix);
        ok = fail(c, p, "must be a multiple of %s.line_bytes (%u; got %u)", prefix, cc->line_bytes, cc->size_bytes);
    } else if (cc->size_bytes && (cc->size_bytes / cc->line_bytes) % cc->assoc) {
        p = g_strdup_printf("%s.assoc", prefix);
        ok = fail(c, p, "must divide the %u lines of the cache (%u ways leave a partial set)",
                  cc->size_bytes / cc->line_bytes, cc->assoc);
    }
    g_free(p);
    return ok;
}

/* Checks between keys, on the converted struct. */
static bool check_consistency(const Ctx *c, const GpuConfig *g)
{
    if (g->max_threads_per_sm > g->max_warps_per_sm * 32)
        return fail(c, "sm.max_threads", "must not exceed 32 x sm.max_warps (%u; got %u)", g->max_warps_per_sm * 32,
                    g->max_threads_per_sm);
    if (g->max_threads_per_block > g->max_threads_per_sm)
        return fail(c, "sm.max_threads_per_block", "must not exceed sm.max_threads (%u; got %u)",
                    g->max_threads_per_sm, g->max_threads_per_block);
    if (g->regs_per_block > g->regs_per_sm)
        return fail(c, "registers.per_block", "must not exceed registers.per_sm (%u; got %u)", g->regs_per_sm,
                    g->regs_per_block);
    if (g->reg_alloc_unit > g->regs_per_block)
        return fail(c, "registers.alloc_unit", "must not exceed registers.per_block (%u; got %u)", g->regs_per_block,
                    g->reg_alloc_unit);
    if ((uint64_t)g->smem_per_block + g->smem_reserved_per_block > g->smem_per_sm)
        return fail(c, "shared_memory.per_block",
                    "plus shared_memory.reserved_per_block (%u) must not exceed shared_memory.per_sm (%u; got %u)",
                    g->smem_reserved_per_block, g->smem_per_sm, g->smem_per_block);
    if (g->atomic_units && !g->atomic_unit_bytes)
        return fail(c, "memory.atomic_unit_bytes", "missing (required when memory.atomic_units is set)");
    return check_cache(c, "memory.l1", &g->l1) && check_cache(c, "memory.readonly", &g->readonly) &&
           check_cache(c, "memory.l2", &g->l2);
}

static GpuConfig *convert(json_t *merged, const Source *top, GError **error)
{
    Ctx c = {.label = top->label, .error = error};
    for (size_t i = 0; i < NKEYS; i++) {
        if (!(keys[i].flags & F_OPTIONAL) && !leaf_value(merged, keys[i].path)) {
            fail(&c, keys[i].path, "missing (required; neither this file nor its base chain sets it)");
            return NULL;
        }
    }
    GpuConfig *g = g_new0(GpuConfig, 1);
    for (size_t i = 0; i < NKEYS; i++) {
        json_t *v = leaf_value(merged, keys[i].path);
        if (v)
            store(g, &keys[i], v);
    }
    if (!g->name)
        g->name = g_strdup(top->stem);
    g->source_file = g_strdup(top->label);
    g->unit_lanes[UNIT_ARITH] = g->unit_lanes[UNIT_FP32]; /* resolved by type; kept harmless */
    /* optional classes left out: as the class they were split from
     * (isa/latency_classes.def), which is required */
    for (unsigned cls = 0; cls < LAT_COUNT; cls++)
        if (!g->latency[cls])
            g->latency[cls] = g->latency[isa_latency_absent[cls]];
    if (!g->loop_unroll) /* left out: loops stay as the PTX has them */
        g->loop_unroll = 1;
    if (!leaf_value(merged, "memory.atomic_full_sector_cycles")) /* no cheaper whole sectors */
        g->atomic_full_sector_cycles = g->atomic_sector_cycles;
    g->dram_bytes_per_cycle =
        json_number_value(leaf_value(merged, "memory.dram.bandwidth_gbs")) * 1e9 / (g->clock_mhz * 1e6);
    if (!check_consistency(&c, g)) {
        config_free(g);
        return NULL;
    }
    return g;
}

/* ---------------------------------------------------------------- API */

GpuConfig *config_load(const char *name_or_path, const char *const *overrides, GError **error)
{
    g_return_val_if_fail(name_or_path != NULL, NULL);
    Source top = {0};
    if (is_bundled(name_or_path)) {
        set_bundled(&top, name_or_path);
    } else if (!strchr(name_or_path, '/') && !g_str_has_suffix(name_or_path, ".json") &&
               !g_file_test(name_or_path, G_FILE_TEST_EXISTS)) {
        char *list = g_strjoinv(", ", (char **)config_bundled_name_list);
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: no bundled configuration of that name and no such file (bundled: %s)",
                    name_or_path, list);
        g_free(list);
        return NULL;
    } else if (!read_file(&top, name_or_path, error)) {
        source_clear(&top);
        return NULL;
    }

    GPtrArray *chain = g_ptr_array_new();
    GPtrArray *labels = g_ptr_array_new();
    json_t *merged = load_merged(&top, chain, labels, error);
    g_ptr_array_free(chain, TRUE);
    g_ptr_array_free(labels, TRUE);
    GpuConfig *g = NULL;
    bool ok = merged != NULL;
    for (size_t i = 0; ok && overrides && overrides[i]; i++)
        ok = apply_override(merged, overrides[i], error);
    if (ok)
        g = convert(merged, &top, error);
    json_decref(merged);
    source_clear(&top);
    return g;
}

void config_free(GpuConfig *c)
{
    if (!c)
        return;
    g_free(c->name);
    g_free(c->display_name);
    g_free(c->source_file);
    g_free(c);
}

const char *const *config_bundled_names(void)
{
    return config_bundled_name_list;
}
