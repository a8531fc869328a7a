/* host_reference.c — independent expected outputs for the traces/ workloads.
 *
 * Usage: host_reference WORKLOAD OUTDIR
 *   WORKLOAD is a folder (traces/dec2zero) or a name looked up as
 *   traces/NAME under the current directory.  Every manifest in it (each
 *   *.json with an "expect" and a "kernel" or "launches") is replayed on the
 *   host: its buffers and globals are built from their `init` definitions
 *   (implemented here from docs/interfaces, splitmix64 included), each
 *   launch runs the plain C model of its kernel (host_ref_kernels.c), and
 *   every `expect` with a `file` gets that file written into OUTDIR; an
 *   `expect` with a `sha256` (outputs too large to commit) is checked
 *   against the hash of the model's output instead, a mismatch an error.
 *
 * Nothing comes from warpsim's manifest loader or executor: the files this
 * writes are the yardstick warpsim is measured against.  Exit status 0 on
 * success, 1 with "file: error: ..." on stderr otherwise.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "host_ref_kernels.h"

/* ---- element types and init kinds ---- */

static bool parse_type(const char *s, HostType *out)
{
    for (int t = 0; t < HT_COUNT; t++)
        if (strcmp(s, host_type_name((HostType)t)) == 0) {
            *out = (HostType)t;
            return true;
        }
    return false;
}

static bool type_is_float(HostType t) { return t == HT_F32 || t == HT_F64; }

/* Steele, Lea & Flood's splitmix64, as interfaces.md defines `random`. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Store element i from an integer (used for integer types) or a double
 * (float types); integers wrap to the type's width as a cast would. */
static void store_int(HostBuf *b, size_t i, int64_t v)
{
    uint8_t *p = b->data + i * host_type_size(b->type);
    switch (b->type) {
    case HT_U8: case HT_S8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case HT_U16: case HT_S16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case HT_U32: case HT_S32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    case HT_U64: case HT_S64: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); break; }
    case HT_F32: { float x = (float)v; memcpy(p, &x, 4); break; }
    case HT_F64: { double x = (double)v; memcpy(p, &x, 8); break; }
    default: break;
    }
}

static void store_double(HostBuf *b, size_t i, double v)
{
    uint8_t *p = b->data + i * host_type_size(b->type);
    if (b->type == HT_F32) {
        float x = (float)v;
        memcpy(p, &x, 4);
    } else if (b->type == HT_F64) {
        memcpy(p, &v, 8);
    } else {
        store_int(b, i, (int64_t)llround(v));
    }
}

/* A JSON number as both integer and double; false if not a number. */
static bool json_num(const json_t *j, int64_t *iv, double *dv)
{
    if (json_is_integer(j)) {
        *iv = (int64_t)json_integer_value(j);
        *dv = (double)*iv;
        return true;
    }
    if (json_is_real(j)) {
        *dv = json_real_value(j);
        *iv = (int64_t)llround(*dv);
        return true;
    }
    return false;
}

static void store_num(HostBuf *b, size_t i, int64_t iv, double dv)
{
    if (type_is_float(b->type))
        store_double(b, i, dv);
    else
        store_int(b, i, iv);
}

static bool init_random(HostBuf *b, const json_t *init, const char *where, GError **error)
{
    int64_t seed, imin, imax;
    double dmin, dmax, dseed;
    if (!json_num(json_object_get(init, "seed"), &seed, &dseed) ||
        !json_num(json_object_get(init, "min"), &imin, &dmin) ||
        !json_num(json_object_get(init, "max"), &imax, &dmax)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: random init of '%s' needs seed, min and max", where,
                    b->name);
        return false;
    }
    uint64_t state = (uint64_t)seed;
    uint64_t span = (uint64_t)imax - (uint64_t)imin + 1; /* 0: the whole range */
    for (size_t i = 0; i < b->count; i++) {
        uint64_t r = splitmix64(&state);
        if (type_is_float(b->type)) {
            double u = (double)(r >> 11) * 0x1.0p-53;
            store_double(b, i, dmin + (dmax - dmin) * u);
        } else {
            store_int(b, i, (int64_t)((uint64_t)imin + (span ? r % span : r)));
        }
    }
    return true;
}

static bool init_buffer(HostBuf *b, const json_t *init, const char *dir,
                        const char *where, GError **error)
{
    const char *kind = json_string_value(json_object_get(init, "kind"));
    int64_t iv, iv2;
    double dv, dv2;
    if (!kind) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: buffer '%s' has no init.kind", where, b->name);
        return false;
    }
    if (strcmp(kind, "zeros") == 0)
        return true; /* data starts zeroed */
    if (strcmp(kind, "const") == 0) {
        if (!json_num(json_object_get(init, "value"), &iv, &dv))
            goto bad;
        for (size_t i = 0; i < b->count; i++)
            store_num(b, i, iv, dv);
        return true;
    }
    if (strcmp(kind, "iota") == 0) {
        if (!json_num(json_object_get(init, "start"), &iv, &dv) ||
            !json_num(json_object_get(init, "step"), &iv2, &dv2))
            goto bad;
        for (size_t i = 0; i < b->count; i++) {
            if (type_is_float(b->type))
                store_double(b, i, dv + (double)i * dv2);
            else
                store_int(b, i, iv + (int64_t)i * iv2);
        }
        return true;
    }
    if (strcmp(kind, "values") == 0) {
        const json_t *vals = json_object_get(init, "values");
        if (!json_is_array(vals) || json_array_size(vals) > b->count)
            goto bad;
        for (size_t i = 0; i < json_array_size(vals); i++) {
            if (!json_num(json_array_get(vals, i), &iv, &dv))
                goto bad;
            store_num(b, i, iv, dv);
        }
        return true;
    }
    if (strcmp(kind, "file") == 0) {
        const char *rel = json_string_value(json_object_get(init, "path"));
        if (!rel)
            goto bad;
        char *path = g_build_filename(dir, rel, NULL);
        gchar *bytes;
        gsize len;
        gboolean ok = g_file_get_contents(path, &bytes, &len, error);
        g_free(path);
        if (!ok)
            return false;
        memcpy(b->data, bytes, MIN(len, b->count * host_type_size(b->type)));
        g_free(bytes);
        return true;
    }
    if (strcmp(kind, "random") == 0)
        return init_random(b, init, where, error);
bad:
    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                "%s: error: bad '%s' init for buffer '%s'", where, kind, b->name);
    return false;
}

static void host_buf_free(gpointer p)
{
    HostBuf *b = p;
    g_free(b->name);
    g_free(b->data);
    g_free(b);
}

/* Build every entry of a "buffers" or "globals" object into `table`. */
static bool build_buffers(const json_t *obj, GHashTable *table, const char *dir,
                          const char *where, GError **error)
{
    const char *name;
    const json_t *spec;
    json_object_foreach((json_t *)obj, name, spec) {
        HostType t;
        const char *ts = json_string_value(json_object_get(spec, "type"));
        const json_t *cnt = json_object_get(spec, "count");
        if (!ts || !parse_type(ts, &t) || !json_is_integer(cnt) ||
            json_integer_value(cnt) < 0 || json_integer_value(cnt) > (1 << 28)) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "%s: error: buffer '%s' needs a scalar type and a count", where,
                        name);
            return false;
        }
        HostBuf *b = g_new0(HostBuf, 1);
        b->name = g_strdup(name);
        b->type = t;
        b->count = (size_t)json_integer_value(cnt);
        b->data = g_malloc0(MAX(b->count * host_type_size(t), 1));
        g_hash_table_insert(table, b->name, b);
        const json_t *init = json_object_get(spec, "init");
        if (init && !init_buffer(b, init, dir, where, error))
            return false;
    }
    return true;
}

/* ---- launches ---- */

static bool parse_dims(const json_t *j, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    if (!json_is_array(j) || json_array_size(j) < 1 || json_array_size(j) > 3)
        return false;
    for (size_t i = 0; i < json_array_size(j); i++) {
        const json_t *v = json_array_get(j, i);
        if (!json_is_integer(v) || json_integer_value(v) < 1)
            return false;
        out[i] = (uint32_t)json_integer_value(v);
    }
    return true;
}

static bool parse_arg(const json_t *a, GHashTable *buffers, HostArg *out,
                      const char *where, GError **error)
{
    memset(out, 0, sizeof *out);
    const char *key;
    const json_t *val;
    const json_t *bufname = json_object_get(a, "buffer");
    if (json_is_string(bufname)) {
        out->is_buffer = true;
        out->buf = g_hash_table_lookup(buffers, json_string_value(bufname));
        const json_t *off = json_object_get(a, "offset_bytes");
        out->offset_bytes = json_is_integer(off) ? (uint64_t)json_integer_value(off) : 0;
        if (out->buf)
            return true;
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: argument names unknown buffer '%s'", where,
                    json_string_value(bufname));
        return false;
    }
    json_object_foreach((json_t *)a, key, val) {
        if (parse_type(key, &out->type) && json_num(val, &out->i, &out->f))
            return true;
    }
    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                "%s: error: an argument is neither a buffer nor a scalar", where);
    return false;
}

/* Run one launch object (a manifest, or an element of its "launches"). */
static bool run_launch(const json_t *launch, GHashTable *buffers, GHashTable *globals,
                       const char *where, GError **error)
{
    const char *kernel = json_string_value(json_object_get(launch, "kernel"));
    const char *ptx = json_string_value(json_object_get(launch, "ptx"));
    const json_t *args = json_object_get(launch, "args");
    HostLaunch l = {.kernel = kernel, .ptx = ptx, .globals = globals};
    if (!kernel || !json_is_array(args) || !parse_dims(json_object_get(launch, "grid"), l.grid) ||
        !parse_dims(json_object_get(launch, "block"), l.block)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: a launch needs kernel, grid, block and args", where);
        return false;
    }
    HostModel model = host_ref_find_model(kernel, ptx);
    if (!model) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: no host model for kernel '%s' of '%s'", where, kernel,
                    ptx ? ptx : "?");
        return false;
    }
    l.nargs = (unsigned)json_array_size(args);
    HostArg *hargs = g_new0(HostArg, MAX(l.nargs, 1));
    l.args = hargs;
    bool ok = true;
    for (unsigned i = 0; ok && i < l.nargs; i++)
        ok = parse_arg(json_array_get(args, i), buffers, &hargs[i], where, error);
    const json_t *rep = json_object_get(launch, "repeat");
    int64_t repeat = json_is_integer(rep) ? json_integer_value(rep) : 1;
    for (int64_t r = 0; ok && r < repeat; r++) {
        ok = model(&l, error);
        if (!ok)
            g_prefix_error(error, "%s: ", where);
    }
    g_free(hargs);
    return ok;
}

/* A launch of "launches" with the keys it leaves out taken from the top
 * level, as the manifest format specifies. */
static json_t *launch_with_defaults(const json_t *launch, const json_t *root)
{
    static const char *const inherited[] = {
        "ptx", "kernel", "grid", "block", "dynamic_shared_bytes", "regs_per_thread",
        "repeat", "args",
    };
    json_t *merged = json_object();
    for (size_t i = 0; i < G_N_ELEMENTS(inherited); i++) {
        json_t *v = json_object_get(launch, inherited[i]);
        if (!v)
            v = json_object_get(root, inherited[i]);
        if (v)
            json_object_set(merged, inherited[i], v);
    }
    return merged;
}

static bool is_manifest(const json_t *root)
{
    return json_is_object(root) && json_is_object(json_object_get(root, "expect")) &&
           (json_is_string(json_object_get(root, "kernel")) ||
            json_is_array(json_object_get(root, "launches")));
}

static bool sha256_matches(const HostBuf *b, const char *want, const char *where,
                           GError **error)
{
    gchar *got = g_compute_checksum_for_data(G_CHECKSUM_SHA256, b->data,
                                             b->count * host_type_size(b->type));
    bool ok = g_ascii_strcasecmp(got, want) == 0;
    if (!ok)
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: expect '%s': the host model's output has sha256 %s, the "
                    "manifest says %s",
                    where, b->name, got, want);
    g_free(got);
    return ok;
}

static bool write_expected(const json_t *expect, GHashTable *buffers, const char *outdir,
                           const char *where, GError **error)
{
    const char *name;
    const json_t *spec;
    json_object_foreach((json_t *)expect, name, spec) {
        const char *file = json_string_value(json_object_get(spec, "file"));
        const char *sha = json_string_value(json_object_get(spec, "sha256"));
        HostBuf *b = g_hash_table_lookup(buffers, name);
        if (!b) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "%s: error: expect names unknown buffer '%s'", where, name);
            return false;
        }
        if (!file) {
            /* A sha256 expectation carries its answer inline (for outputs too
             * large to commit): the model's output must hash to it. */
            if (sha && !sha256_matches(b, sha, where, error))
                return false;
            continue;
        }
        char *path = g_build_filename(outdir, file, NULL);
        bool ok = g_file_set_contents(path, (const char *)b->data,
                                      (gssize)(b->count * host_type_size(b->type)), error);
        g_free(path);
        if (!ok)
            return false;
    }
    return true;
}

/* Replay one manifest file; *skipped is set for JSON that is no manifest. */
static bool replay_manifest(const char *path, const char *outdir, bool *skipped,
                            GError **error)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    *skipped = false;
    if (!root) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s:%d:%d: error: %s", path,
                    jerr.line, jerr.column, jerr.text);
        return false;
    }
    if (!is_manifest(root)) {
        *skipped = true;
        json_decref(root);
        return true;
    }
    char *dir = g_path_get_dirname(path);
    GHashTable *buffers = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, host_buf_free);
    GHashTable *globals = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, host_buf_free);
    const json_t *bufs = json_object_get(root, "buffers");
    const json_t *globs = json_object_get(root, "globals");
    bool ok = (!bufs || build_buffers(bufs, buffers, dir, path, error)) &&
              (!globs || build_buffers(globs, globals, dir, path, error));
    const json_t *launches = json_object_get(root, "launches");
    if (ok && json_is_array(launches)) {
        for (size_t i = 0; ok && i < json_array_size(launches); i++) {
            json_t *launch = launch_with_defaults(json_array_get(launches, i), root);
            ok = run_launch(launch, buffers, globals, path, error);
            json_decref(launch);
        }
    } else if (ok) {
        ok = run_launch(root, buffers, globals, path, error);
    }
    if (ok)
        ok = write_expected(json_object_get(root, "expect"), buffers, outdir, path, error);
    g_hash_table_destroy(buffers);
    g_hash_table_destroy(globals);
    g_free(dir);
    json_decref(root);
    return ok;
}

static int cmp_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool replay_workload(const char *dir, const char *outdir, GError **error)
{
    GDir *d = g_dir_open(dir, 0, error);
    if (!d)
        return false;
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".json"))
            g_ptr_array_add(names, g_strdup(n));
    g_dir_close(d);
    g_ptr_array_sort(names, cmp_names);
    bool ok = true;
    unsigned replayed = 0;
    for (unsigned i = 0; ok && i < names->len; i++) {
        char *path = g_build_filename(dir, names->pdata[i], NULL);
        bool skipped;
        ok = replay_manifest(path, outdir, &skipped, error);
        replayed += ok && !skipped;
        g_free(path);
    }
    if (ok && replayed == 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: no manifest here", dir);
        ok = false;
    }
    g_ptr_array_unref(names);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: host_reference WORKLOAD OUTDIR\n"
                        "  WORKLOAD: a traces/ folder, or its name under ./traces\n");
        return 2;
    }
    char *dir = g_file_test(argv[1], G_FILE_TEST_IS_DIR)
                    ? g_strdup(argv[1])
                    : g_build_filename("traces", argv[1], NULL);
    GError *error = NULL;
    bool ok = g_mkdir_with_parents(argv[2], 0755) == 0;
    if (!ok)
        fprintf(stderr, "%s: error: cannot create the output folder\n", argv[2]);
    else if (!(ok = replay_workload(dir, argv[2], &error))) {
        fprintf(stderr, "%s\n", error->message);
        g_error_free(error);
    }
    g_free(dir);
    return ok ? 0 : 1;
}
