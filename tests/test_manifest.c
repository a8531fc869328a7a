/* test_manifest.c — launch manifests and the JSON report.
 *
 * Reference values (splitmix64 outputs, `random` elements, SHA-256 digests,
 * expected buffers) were computed independently with Python; the bad
 * manifests under tests/manifests/bad/ each carry their expected message in
 * a sibling .expect file.
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"
#include "manifest.h"
#include "report.h"
#include "config.h"
#include "launch.h"
#include "ptx_parser.h"
#include "testutil.h"

/* ---------------------------------------------------------- helpers */

static char *tmpdir;

static void setup_tmp(void)
{
    tmpdir = g_dir_make_tmp("ws-manifest-XXXXXX", NULL);
    ck_assert_ptr_nonnull(tmpdir);
}

static void remove_tree(const char *path)
{
    GDir *d = g_dir_open(path, 0, NULL);
    if (d) {
        const char *n;
        while ((n = g_dir_read_name(d))) {
            char *p = g_build_filename(path, n, NULL);
            if (g_file_test(p, G_FILE_TEST_IS_DIR))
                remove_tree(p);
            else
                g_unlink(p);
            g_free(p);
        }
        g_dir_close(d);
    }
    g_rmdir(path);
}

static void teardown_tmp(void)
{
    remove_tree(tmpdir);
    g_free(tmpdir);
}

/* Writes `body` (the manifest's keys after "ptx" and "kernel") to a
 * manifest in tmpdir and loads it. */
static Manifest *load_inline(const char *body, GError **error)
{
    char *ptx = g_build_filename(SOURCE_ROOT, "tests", "manifests", "tiny.ptx", NULL);
    char *text = g_strdup_printf("{\"ptx\": \"%s\", \"kernel\": \"scale\", \"grid\": [1], \"block\": [32],\n%s}\n",
                                 ptx, body);
    char *path = g_build_filename(tmpdir, "m.json", NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    Manifest *m = manifest_load(path, error);
    g_free(path);
    g_free(text);
    g_free(ptx);
    return m;
}

/* The initial bytes of buffer "x" of a manifest whose only buffer is
 * {"type": type, "count": count, "init": init}. */
static GBytes *initial(const char *type, unsigned count, const char *init)
{
    char *body = g_strdup_printf("\"buffers\": {\"x\": {\"type\": \"%s\", \"count\": %u, \"init\": %s}}",
                                 type, count, init);
    GError *e = NULL;
    Manifest *m = load_inline(body, &e);
    g_free(body);
    ck_assert_msg(m != NULL, "load failed: %s", e ? e->message : "?");
    GBytes *b = manifest_buffer_initial(m, "x", &e);
    ck_assert_msg(b != NULL, "init failed: %s", e ? e->message : "?");
    manifest_free(m);
    return b;
}

static uint64_t elem(GBytes *b, unsigned size, unsigned i)
{
    gsize n;
    const uint8_t *p = g_bytes_get_data(b, &n);
    ck_assert_uint_le((i + 1) * size, n);
    uint64_t v = 0;
    for (unsigned k = 0; k < size; k++)
        v |= (uint64_t)p[i * size + k] << (8 * k);
    return v;
}

/* -------------------------------------------------------- splitmix64 */

START_TEST(splitmix64_reference)
{
    /* seed 1234567: the published test vector of Vigna's splitmix64.c */
    static const uint64_t seed1234567[] = {6457827717110365317ull, 3203168211198807973ull,
                                           9817491932198370423ull, 4593380528125082431ull,
                                           16408922859458223821ull};
    static const uint64_t seed0[] = {0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull, 0x06c45d188009454full,
                                     0xf88bb8a8724c81ecull, 0x1b39896a51a8749bull};
    uint64_t s = 1234567;
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(manifest_splitmix64(&s), seed1234567[i]);
    s = 0;
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(manifest_splitmix64(&s), seed0[i]);
}
END_TEST

/* -------------------------------------------------------- init kinds */

START_TEST(init_zeros_and_default)
{
    GBytes *b = initial("u16", 5, "{\"kind\": \"zeros\"}");
    ck_assert_uint_eq(g_bytes_get_size(b), 10);
    for (unsigned i = 0; i < 5; i++)
        ck_assert_uint_eq(elem(b, 2, i), 0);
    g_bytes_unref(b);

    GError *e = NULL;
    Manifest *m = load_inline("\"buffers\": {\"y\": {\"type\": \"f64\", \"count\": 3}}", &e);
    ck_assert_ptr_nonnull(m);
    b = manifest_buffer_initial(m, "y", &e);
    ck_assert_uint_eq(g_bytes_get_size(b), 24);
    for (unsigned i = 0; i < 3; i++)
        ck_assert_uint_eq(elem(b, 8, i), 0);
    g_bytes_unref(b);
    ck_assert_ptr_null(manifest_buffer_initial(m, "nope", &e));
    g_clear_error(&e);
    manifest_free(m);
}
END_TEST

START_TEST(init_const)
{
    GBytes *b = initial("s8", 3, "{\"kind\": \"const\", \"value\": -3}");
    ck_assert_uint_eq(g_bytes_get_size(b), 3);
    for (unsigned i = 0; i < 3; i++)
        ck_assert_uint_eq(elem(b, 1, i), 0xfd);
    g_bytes_unref(b);
    b = initial("f64", 2, "{\"kind\": \"const\", \"value\": 0.1}");
    ck_assert_uint_eq(elem(b, 8, 1), 0x3fb999999999999aull);
    g_bytes_unref(b);
    b = initial("f32", 2, "{\"kind\": \"const\", \"value\": 0.1}");
    ck_assert_uint_eq(elem(b, 4, 0), 0x3dcccccd); /* nearest, not truncated 0x3dcccccc */
    g_bytes_unref(b);
    b = initial("u64", 1, "{\"kind\": \"const\", \"value\": \"18446744073709551615\"}");
    ck_assert_uint_eq(elem(b, 8, 0), UINT64_MAX);
    g_bytes_unref(b);
    b = initial("s16", 1, "{\"kind\": \"const\", \"value\": \"0x8000\"}");
    ck_assert_uint_eq(elem(b, 2, 0), 0x8000);
    g_bytes_unref(b);
    b = initial("f32", 3, "{\"kind\": \"const\", \"value\": \"-inf\"}");
    ck_assert_uint_eq(elem(b, 4, 2), 0xff800000);
    g_bytes_unref(b);
    b = initial("f32", 1, "{\"kind\": \"const\", \"value\": \"0x7fc00001\"}");
    ck_assert_uint_eq(elem(b, 4, 0), 0x7fc00001);
    g_bytes_unref(b);
    b = initial("s64", 1, "{\"kind\": \"const\", \"value\": -9223372036854775808}");
    ck_assert_uint_eq(elem(b, 8, 0), 0x8000000000000000ull);
    g_bytes_unref(b);
}
END_TEST

START_TEST(init_iota)
{
    GBytes *b = initial("s32", 4, "{\"kind\": \"iota\", \"start\": -2, \"step\": 3}");
    static const uint32_t s32[] = {(uint32_t)-2, 1, 4, 7};
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(elem(b, 4, i), s32[i]);
    g_bytes_unref(b);
    b = initial("u8", 4, "{\"kind\": \"iota\", \"start\": 250, \"step\": 3}"); /* wraps modulo 2^8 */
    static const uint8_t u8[] = {250, 253, 0, 3};
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(elem(b, 1, i), u8[i]);
    g_bytes_unref(b);
    b = initial("u16", 3, "{\"kind\": \"iota\", \"start\": 10, \"step\": -4}");
    static const uint16_t u16[] = {10, 6, 2};
    for (unsigned i = 0; i < 3; i++)
        ck_assert_uint_eq(elem(b, 2, i), u16[i]);
    g_bytes_unref(b);
    b = initial("f32", 4, "{\"kind\": \"iota\", \"start\": 1, \"step\": 0.5}");
    static const uint32_t f32[] = {0x3f800000, 0x3fc00000, 0x40000000, 0x40200000};
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(elem(b, 4, i), f32[i]);
    g_bytes_unref(b);
    /* f64: start + i*step in double: 0.1 + 2*0.2 = 0.5 exactly, 0.1 + 0.2 = 0.30000000000000004 */
    b = initial("f64", 3, "{\"kind\": \"iota\", \"start\": 0.1, \"step\": 0.2}");
    ck_assert_uint_eq(elem(b, 8, 1), 0x3fd3333333333334ull);
    ck_assert_uint_eq(elem(b, 8, 2), 0x3fe0000000000000ull);
    g_bytes_unref(b);
}
END_TEST

START_TEST(init_values)
{
    GBytes *b = initial("u16", 5, "{\"kind\": \"values\", \"values\": [1, 65535, \"0x10\"]}");
    static const uint16_t want[] = {1, 65535, 16, 0, 0};
    for (unsigned i = 0; i < 5; i++)
        ck_assert_uint_eq(elem(b, 2, i), want[i]);
    g_bytes_unref(b);
    b = initial("f32", 3, "{\"kind\": \"values\", \"values\": [1.5, -2, \"nan\"]}");
    ck_assert_uint_eq(elem(b, 4, 0), 0x3fc00000);
    ck_assert_uint_eq(elem(b, 4, 1), 0xc0000000);
    uint32_t nan_bits = (uint32_t)elem(b, 4, 2);
    ck_assert_uint_eq(nan_bits & 0x7f800000, 0x7f800000);
    ck_assert_uint_ne(nan_bits & 0x007fffff, 0);
    g_bytes_unref(b);
    b = initial("s64", 2, "{\"kind\": \"values\", \"values\": [-1, \"0xfffffffffffffff0\"]}");
    ck_assert_uint_eq(elem(b, 8, 0), UINT64_MAX);
    ck_assert_uint_eq(elem(b, 8, 1), 0xfffffffffffffff0ull);
    g_bytes_unref(b);
}
END_TEST

START_TEST(init_values_negative_hex_rejected)
{
    /* hex strings are bit patterns; a sign makes no sense there */
    GError *e = NULL;
    Manifest *m = load_inline("\"buffers\": {\"x\": {\"type\": \"s64\", \"count\": 2, \"init\": "
                              "{\"kind\": \"values\", \"values\": [-1, \"-0x10\"]}}}", &e);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(strstr(e->message, "init.values[1]: 0x bit pattern does not fit s64"));
    g_error_free(e);
}
END_TEST

START_TEST(init_file)
{
    static const uint8_t raw[] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0x80};
    char *path = g_build_filename(tmpdir, "in.bin", NULL);
    ck_assert(g_file_set_contents(path, (const char *)raw, sizeof raw, NULL));
    GBytes *b = initial("s32", 3, "{\"kind\": \"file\", \"path\": \"in.bin\"}");
    ck_assert_uint_eq(g_bytes_get_size(b), sizeof raw);
    ck_assert_int_eq(memcmp(g_bytes_get_data(b, NULL), raw, sizeof raw), 0);
    g_bytes_unref(b);
    b = initial("u16", 6, "{\"kind\": \"file\", \"path\": \"in.bin\"}");
    ck_assert_uint_eq(elem(b, 2, 2), 0xffff);
    ck_assert_uint_eq(elem(b, 2, 5), 0x8000);
    g_bytes_unref(b);
    g_free(path);
}
END_TEST

/* A FIFO or a device named as an input is refused before it is read: a
 * FIFO without a writer would block forever, /dev/zero never ends. */
START_TEST(inputs_must_be_regular_files)
{
    char *dir = g_dir_make_tmp("warpsim-fifo-XXXXXX", NULL);
    ck_assert_ptr_nonnull(dir);
    char *fifo = g_build_filename(dir, "in.json", NULL);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    GError *e = NULL;
    ck_assert_ptr_null(manifest_load(fifo, &e));
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->code, WS_ERR_IO);
    ck_assert_msg(strstr(e->message, "is a FIFO, not a regular file"), "%s", e->message);
    g_clear_error(&e);
    ck_assert_ptr_null(ptx_parse_file(fifo, &e));
    ck_assert_msg(e && strstr(e->message, "is a FIFO"), "%s", e ? e->message : "no error");
    g_clear_error(&e);
    ck_assert_ptr_null(manifest_load("/dev/zero", &e));
    ck_assert_msg(e && strstr(e->message, "/dev/zero\" is a device"), "%s", e ? e->message : "no error");
    g_clear_error(&e);
    g_unlink(fifo);
    g_rmdir(dir);
    g_free(fifo);
    g_free(dir);
}
END_TEST

START_TEST(init_random_integers)
{
    /* u32 over the whole range: the low 32 bits of splitmix64(seed 0) */
    GBytes *b = initial("u32", 3, "{\"kind\": \"random\", \"seed\": 0, \"min\": 0, \"max\": 4294967295}");
    ck_assert_uint_eq(elem(b, 4, 0), 0x7b1dcdaf);
    ck_assert_uint_eq(elem(b, 4, 1), 0xa1b965f4);
    ck_assert_uint_eq(elem(b, 4, 2), 0x8009454f);
    g_bytes_unref(b);
    /* u64 over the whole range (max - min + 1 wraps to 0): the raw outputs */
    b = initial("u64", 2, "{\"kind\": \"random\", \"seed\": 0, \"min\": 0, \"max\": \"0xffffffffffffffff\"}");
    ck_assert_uint_eq(elem(b, 8, 0), 0xe220a8397b1dcdafull);
    ck_assert_uint_eq(elem(b, 8, 1), 0x6e789e6aa1b965f4ull);
    g_bytes_unref(b);
    /* s8 in [-3, 3]: -3 + r mod 7 */
    b = initial("s8", 6, "{\"kind\": \"random\", \"seed\": 1234567, \"min\": -3, \"max\": 3}");
    static const int8_t s8[] = {-2, -1, 0, 0, 3, 1};
    for (unsigned i = 0; i < 6; i++)
        ck_assert_int_eq((int8_t)elem(b, 1, i), s8[i]);
    g_bytes_unref(b);
    b = initial("u16", 6, "{\"kind\": \"random\", \"seed\": 42, \"min\": 100, \"max\": 1099}");
    static const uint16_t u16[] = {513, 391, 958, 864, 350, 162};
    for (unsigned i = 0; i < 6; i++)
        ck_assert_uint_eq(elem(b, 2, i), u16[i]);
    g_bytes_unref(b);
    b = initial("s32", 4, "{\"kind\": \"random\", \"seed\": 9, \"min\": 5, \"max\": 5}");
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(elem(b, 4, i), 5);
    g_bytes_unref(b);
}
END_TEST

START_TEST(init_random_floats)
{
    /* f64: min + (max - min) * ((r >> 11) * 2^-53) */
    GBytes *b = initial("f64", 4, "{\"kind\": \"random\", \"seed\": 1234567, \"min\": -1, \"max\": 1}");
    static const uint64_t f64[] = {0xbfd33097f4027b84ull, 0xbfe4e303dee9eafeull, 0x3fb07d79cb47e4f0ull,
                                   0xbfe010422fc5ba22ull};
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(elem(b, 8, i), f64[i]);
    g_bytes_unref(b);
    /* f32: the same double rounded to nearest; elements 0 and 1 differ from
     * truncation (0xbe9984bf, 0xbf27181e) */
    b = initial("f32", 4, "{\"kind\": \"random\", \"seed\": 1234567, \"min\": -1, \"max\": 1}");
    static const uint32_t f32[] = {0xbe9984c0, 0xbf27181f, 0x3d83ebce, 0xbf008211};
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(elem(b, 4, i), f32[i]);
    g_bytes_unref(b);
    b = initial("f32", 6, "{\"kind\": \"random\", \"seed\": 7, \"min\": 0.1, \"max\": 0.7}");
    static const uint32_t f32b[] = {0x3eaaf4a9, 0x3de16df1, 0x3f23f4f4, 0x3ee646b4, 0x3ebe30ae, 0x3e7fa696};
    for (unsigned i = 0; i < 6; i++)
        ck_assert_uint_eq(elem(b, 4, i), f32b[i]);
    g_bytes_unref(b);
}
END_TEST

/* ---------------------------------------------------- bad manifests */

static char *read_expect(const char *path)
{
    char *text = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "cannot read %s", path);
    g_strchomp(text);
    return text;
}

/* Every tests/manifests/<dir>/X.json with a sibling X.expect: the message
 * from `check` (load, or load and run) must equal the .expect text. */
static unsigned check_bad_dir(const char *dir, bool run, GString *failures)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".json"))
            g_ptr_array_add(names, g_strndup(n, strlen(n) - 5));
    g_dir_close(d);
    for (guint i = 0; i < names->len; i++) {
        const char *name = g_ptr_array_index(names, i);
        char *json = g_strdup_printf("%s/%s.json", dir, name);
        char *exp = g_strdup_printf("%s/%s.expect", dir, name);
        char *want = read_expect(exp);
        GError *e = NULL;
        Manifest *m = manifest_load(json, &e);
        if (m && run) {
            /* NAME.config, when present, names the GPU whose launch limits
             * apply; the run stays functional (the limits must hold there too) */
            char *config_file = g_strdup_printf("%s/%s.config", dir, name), *config_name = NULL;
            GpuConfig *gpu = NULL;
            if (g_file_get_contents(config_file, &config_name, NULL, NULL)) {
                gpu = config_load(g_strstrip(config_name), NULL, &e);
                ck_assert_msg(gpu, "%s: %s", config_file, e ? e->message : "");
            }
            json_t *report = NULL;
            guint failed = 0;
            RunOptions opt = {.config = gpu, .functional = true};
            if (manifest_run(m, &opt, &report, &failed, &e))
                g_set_error_literal(&e, WARPSIM_ERROR, WS_ERR_USAGE, "(ran without error)");
            json_decref(report);
            manifest_free(m);
            m = NULL;
            config_free(gpu);
            g_free(config_name);
            g_free(config_file);
        }
        if (m) {
            g_string_append_printf(failures, "%s: loaded without error\n", json);
            manifest_free(m);
        } else if (strcmp(e->message, want) != 0) {
            g_string_append_printf(failures, "%s:\n   got: %s\n  want: %s\n", json, e->message, want);
        } else if (e->domain != WARPSIM_ERROR || e->code != WS_ERR_INPUT) {
            g_string_append_printf(failures, "%s: error code %d, not WS_ERR_INPUT\n", json, e->code);
        }
        g_clear_error(&e);
        g_free(want);
        g_free(exp);
        g_free(json);
    }
    unsigned count = names->len;
    g_ptr_array_free(names, TRUE);
    return count;
}

START_TEST(bad_manifests)
{
    GString *failures = g_string_new(NULL);
    unsigned n = check_bad_dir("tests/manifests/bad", false, failures);
    ck_assert_uint_ge(n, 30);
    ck_assert_msg(failures->len == 0, "%s", failures->str);
    g_string_free(failures, TRUE);
}
END_TEST

START_TEST(missing_manifest_is_io_error)
{
    GError *e = NULL;
    ck_assert_ptr_null(manifest_load("tests/manifests/no-such.json", &e));
    ck_assert_int_eq(e->code, WS_ERR_IO);
    ck_assert(g_str_has_prefix(e->message, "tests/manifests/no-such.json: error: "));
    g_error_free(e);
}
END_TEST

/* ------------------------------------------------------- comparison */

static void put_f32(uint8_t *p, unsigned i, float f) { memcpy(p + 4 * i, &f, 4); }

START_TEST(compare_float_tolerances)
{
    uint8_t got[16], want[16];
    put_f32(want, 0, 100.0f);
    put_f32(want, 1, 1.0f);
    put_f32(want, 2, 0.0f);
    put_f32(want, 3, -0.0f);
    put_f32(got, 0, 100.5f); /* |diff| 0.5 */
    put_f32(got, 1, 1.0f);
    put_f32(got, 2, 1e-7f);
    put_f32(got, 3, 0.0f);   /* +0 vs -0: equal */
    /* exact: elements 0 and 2 differ */
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F32, got, want, 4, 0, 0, NULL, 0), 2);
    /* rtol 0.005 * 100 = 0.5 covers element 0; element 2 needs atol */
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F32, got, want, 4, 0.005, 0, NULL, 0), 1);
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F32, got, want, 4, 0.005, 1e-6, NULL, 0), 0);
    /* rtol scales |expected|, not |got|: 0.00499 * 100 < 0.5 */
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F32, got, want, 4, 0.00499, 1e-6, NULL, 0), 1);
    /* atol alone */
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F32, got, want, 4, 0, 0.5, NULL, 0), 0);
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F32, got, want, 4, 0, 0.4999, NULL, 0), 1);

    json_t *details = json_array();
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F32, got, want, 4, 0, 0, details, 1), 2);
    ck_assert_uint_eq(json_array_size(details), 1); /* capped at max_details */
    json_t *d0 = json_array_get(details, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(d0, "index")), 0);
    ck_assert(json_real_value(json_object_get(d0, "got")) == 100.5);
    ck_assert(json_real_value(json_object_get(d0, "expected")) == 100.0);
    json_decref(details);
}
END_TEST

START_TEST(compare_nan_and_inf)
{
    double got[4] = {NAN, 1.0, INFINITY, NAN};
    double want[4] = {NAN, NAN, INFINITY, 2.0};
    /* NaN equals only NaN, whatever the tolerance */
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F64, (uint8_t *)got, (uint8_t *)want, 4, 1e9, 1e9, NULL, 0), 2);
    double got2[2] = {INFINITY, -INFINITY};
    double want2[2] = {1e308, INFINITY};
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_F64, (uint8_t *)got2, (uint8_t *)want2, 2, 1, 1, NULL, 0), 2);
    json_t *details = json_array();
    manifest_compare_elements(PTX_TYPE_F64, (uint8_t *)got, (uint8_t *)want, 4, 0, 0, details, 5);
    ck_assert_uint_eq(json_array_size(details), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(details, 0), "expected")), "nan");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(details, 1), "got")), "nan");
    json_decref(details);
}
END_TEST

START_TEST(compare_integers_exact)
{
    uint16_t got[3] = {1, 0x8000, 7}, want[3] = {1, 0x8001, 7};
    /* tolerances do not apply to integers */
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_U16, (uint8_t *)got, (uint8_t *)want, 3, 1, 10, NULL, 0), 1);
    int16_t sg[2] = {-1, 5}, sw[2] = {-1, 5};
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_S16, (uint8_t *)sg, (uint8_t *)sw, 2, 0, 0, NULL, 0), 0);
    uint64_t g64[1] = {UINT64_MAX}, w64[1] = {UINT64_MAX - 1};
    json_t *details = json_array();
    ck_assert_uint_eq(manifest_compare_elements(PTX_TYPE_U64, (uint8_t *)g64, (uint8_t *)w64, 1, 0, 0, details, 5), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(details, 0), "got")), "18446744073709551615");
    json_decref(details);
    int8_t g8[1] = {-128}, w8[1] = {127};
    details = json_array();
    manifest_compare_elements(PTX_TYPE_S8, (uint8_t *)g8, (uint8_t *)w8, 1, 0, 0, details, 5);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(details, 0), "got")), -128);
    json_decref(details);
}
END_TEST

/* ------------------------------------------------------- end to end */

static json_int_t metric(json_t *launch, const char *key)
{
    json_t *v = json_object_get(json_object_get(launch, "metrics"), key);
    ck_assert_msg(v != NULL, "metric %s missing", key);
    return json_integer_value(v);
}

static double metric_real(json_t *launch, const char *key)
{
    json_t *v = json_object_get(json_object_get(launch, "metrics"), key);
    ck_assert_msg(json_is_number(v), "metric %s missing", key);
    return json_number_value(v);
}

static Manifest *load_ok(const char *path)
{
    GError *e = NULL;
    Manifest *m = manifest_load(path, &e);
    ck_assert_msg(m != NULL, "%s", e ? e->message : "?");
    return m;
}

static json_t *find_block(json_t *map, const char *func, json_int_t block)
{
    size_t i;
    json_t *b;
    json_array_foreach(map, i, b)
        if (strcmp(json_string_value(json_object_get(b, "function")), func) == 0 &&
            json_integer_value(json_object_get(b, "block")) == block)
            return b;
    return NULL;
}

/* PTX with line info (nvcc's .file/.loc): each line count names the CUDA
 * source line (traces/coalescing: line 72 of the PTX, strideFloat's add,
 * is line 16 of coalescing.cu). */
START_TEST(line_counts_name_source_lines)
{
    Manifest *m = load_ok("traces/coalescing/stride_s1.json");
    RunOptions opt = {0};
    json_t *report = NULL;
    guint failed = 99;
    GError *e = NULL;
    ck_assert_msg(manifest_run(m, &opt, &report, &failed, &e), "%s", e ? e->message : "?");
    json_t *l = json_array_get(json_object_get(report, "launches"), 0);
    json_t *lines = json_object_get(json_object_get(l, "metrics"), "warpsim__line_counts"), *lc;
    size_t i;
    bool seen = false;
    ck_assert_uint_gt(json_array_size(lines), 0);
    json_array_foreach(lines, i, lc) {
        const char *source = json_string_value(json_object_get(lc, "source"));
        ck_assert_msg(source && g_str_has_prefix(source, "coalescing.cu:"), "line %d: source %s",
                      (int)json_integer_value(json_object_get(lc, "line")), source ? source : "(none)");
        if (json_integer_value(json_object_get(lc, "line")) == 72) {
            ck_assert_str_eq(source, "coalescing.cu:16");
            seen = true;
        }
    }
    ck_assert(seen);
    json_decref(report);
    manifest_free(m);
}
END_TEST

/* tests/manifests/tiny.cu: scale(x, 40) over 2 CTAs of 32 threads; the
 * second warp splits at the bounds check (8 lanes in range, 24 out). */
START_TEST(e2e_scale)
{
    Manifest *m = load_ok("tests/manifests/e2e/scale.json");
    char *dump = g_build_filename(tmpdir, "dump", NULL);
    RunOptions opt = {.dump_dir = dump};
    json_t *report = NULL;
    guint failed = 99;
    GError *e = NULL;
    gboolean ok = manifest_run(m, &opt, &report, &failed, &e);
    ck_assert_msg(ok, "%s", e ? e->message : "?");
    ck_assert_uint_eq(failed, 0);
    ck_assert_str_eq(json_string_value(json_object_get(report, "warpsim")), "0.1.0");
    ck_assert_str_eq(json_string_value(json_object_get(report, "config")), "h200");
    ck_assert_str_eq(json_string_value(json_object_get(report, "name")), "tiny-scale");
    json_t *launches = json_object_get(report, "launches");
    ck_assert_uint_eq(json_array_size(launches), 1);
    json_t *l = json_array_get(launches, 0);
    ck_assert_str_eq(json_string_value(json_object_get(l, "kernel")), "scale");
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(l, "grid"), 0)), 2);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(l, "grid"), 2)), 1);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(l, "block"), 0)), 32);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(l, "checks"), "x")), "pass");

    ck_assert_int_eq(metric(l, "launch__grid_size"), 2);
    ck_assert_int_eq(metric(l, "launch__block_size"), 32);
    ck_assert_int_eq(metric(l, "warpsim__ctas"), 2);
    ck_assert_int_eq(metric(l, "warpsim__warps"), 2);
    ck_assert_int_eq(metric(l, "warpsim__threads"), 64);
    ck_assert(json_is_true(json_object_get(json_object_get(l, "metrics"), "warpsim__registers_estimated")));
    ck_assert_int_ge(metric(l, "launch__registers_per_thread"), 3);
    /* 8 + 12 + 1 instructions per warp; the second warp runs the 12 with 8
     * lanes, and its 24 lanes out of range leave at the bounds check's
     * branch to the ret (as a predicated EXIT would), so its ret runs with 8 */
    ck_assert_int_eq(metric(l, "smsp__inst_executed.sum"), 42);
    ck_assert_int_eq(metric(l, "smsp__thread_inst_executed.sum"), 21 * 32 + 8 * 32 + 12 * 8 + 8);
    ck_assert(fabs(metric_real(l, "warp_execution_efficiency") - 100.0 * 1032 / (32 * 42)) < 1e-9);
    ck_assert_int_eq(metric(l, "warpsim__branches"), 2);
    ck_assert_int_eq(metric(l, "divergent_branch"), 1);
    ck_assert(fabs(metric_real(l, "branch_efficiency") - 50.0) < 1e-9);

    json_t *map = json_object_get(json_object_get(l, "metrics"), "warpsim__divergence_map");
    ck_assert_uint_eq(json_array_size(map), 3); /* addk never ran: only scale's blocks */
    json_t *b0 = find_block(map, "scale", 0), *b1 = find_block(map, "scale", 1), *b2 = find_block(map, "scale", 2);
    ck_assert(b0 && b1 && b2);
    ck_assert_int_eq(json_integer_value(json_object_get(b0, "line")), 28);
    ck_assert_int_eq(json_integer_value(json_object_get(b1, "line")), 37);
    ck_assert_int_eq(json_integer_value(json_object_get(b2, "line")), 51);
    ck_assert(json_is_null(json_object_get(b1, "label")));
    /* labels appear once the CFG records them (cfg.c leaves them NULL so far) */
    json_t *label = json_object_get(b2, "label");
    ck_assert(json_is_null(label) || strcmp(json_string_value(label), "$L__BB0_2") == 0);
    ck_assert_int_eq(json_integer_value(json_object_get(b0, "tau")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(b0, "delta")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(b1, "tau")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(b1, "delta")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(b2, "delta")), 0);

    json_t *lines = json_object_get(json_object_get(l, "metrics"), "warpsim__line_counts");
    json_int_t sum = 0, prev = 0, ret_count = -1;
    size_t i;
    json_t *lc;
    json_array_foreach(lines, i, lc) {
        json_int_t line = json_integer_value(json_object_get(lc, "line"));
        ck_assert_int_gt(line, prev);
        prev = line;
        sum += json_integer_value(json_object_get(lc, "warp_insts"));
        if (line == 51)
            ret_count = json_integer_value(json_object_get(lc, "warp_insts"));
    }
    ck_assert_int_eq(sum, 42);
    ck_assert_int_eq(ret_count, 2);
    ck_assert_uint_eq(json_array_size(lines), 21);

    /* the dump holds what the expectation file holds */
    char *dumped, *expected;
    gsize dlen, elen;
    char *xbin = g_build_filename(dump, "x.bin", NULL);
    ck_assert(g_file_get_contents(xbin, &dumped, &dlen, NULL));
    ck_assert(g_file_get_contents("tests/manifests/e2e/scale.expected.bin", &expected, &elen, NULL));
    ck_assert_uint_eq(dlen, 256);
    ck_assert_uint_eq(elen, 256);
    ck_assert_int_eq(memcmp(dumped, expected, 256), 0);
    g_free(dumped);
    g_free(expected);
    g_free(xbin);

    /* a manifest may be run again and gives the same report, apart from
     * the host's wall time */
    json_t *again = NULL;
    ck_assert(manifest_run(m, &opt, &again, &failed, &e));
    ck_assert(json_object_get(json_array_get(json_object_get(report, "launches"), 0), "host") != NULL);
    for (size_t i = 0; i < json_array_size(json_object_get(report, "launches")); i++) {
        json_object_del(json_array_get(json_object_get(report, "launches"), i), "host");
        json_object_del(json_array_get(json_object_get(again, "launches"), i), "host");
    }
    ck_assert(json_equal(report, again));
    json_decref(again);
    json_decref(report);
    g_free(dump);
    manifest_free(m);
}
END_TEST

START_TEST(e2e_multi_launch)
{
    Manifest *m = load_ok("tests/manifests/e2e/multi.json");
    json_t *report = NULL;
    guint failed = 99;
    GError *e = NULL;
    RunOptions opt = {.config_name = "h200"};
    gboolean ok = manifest_run(m, &opt, &report, &failed, &e);
    ck_assert_msg(ok, "%s", e ? e->message : "?");
    ck_assert_uint_eq(failed, 0);
    json_t *launches = json_object_get(report, "launches");
    ck_assert_uint_eq(json_array_size(launches), 2);
    json_t *l0 = json_array_get(launches, 0), *l1 = json_array_get(launches, 1);
    ck_assert_str_eq(json_string_value(json_object_get(l0, "kernel")), "scale");
    ck_assert_str_eq(json_string_value(json_object_get(l1, "kernel")), "addk");
    ck_assert_int_eq(json_integer_value(json_object_get(l1, "repeat")), 3);
    ck_assert_ptr_null(json_object_get(l0, "repeat"));
    ck_assert_uint_eq(json_object_size(json_object_get(l0, "checks")), 0);
    json_t *checks = json_object_get(l1, "checks");
    ck_assert_str_eq(json_string_value(json_object_get(checks, "x")), "pass");
    ck_assert_str_eq(json_string_value(json_object_get(checks, "a")), "pass"); /* bias 7 applied, 3 runs */
    ck_assert_int_eq(metric(l1, "warpsim__ctas"), 6);
    ck_assert_int_eq(metric(l1, "warpsim__threads"), 192);
    ck_assert_int_eq(metric(l1, "divergent_branch"), 0);
    ck_assert_int_eq(metric(l1, "warpsim__branches"), 6); /* 2 warps x 3 runs */
    ck_assert_int_eq(metric(l1, "smsp__inst_executed.sum") % 3, 0);
    json_t *map = json_object_get(json_object_get(l1, "metrics"), "warpsim__divergence_map");
    ck_assert_int_eq(json_integer_value(json_object_get(find_block(map, "addk", 0), "tau")), 6);
    ck_assert_ptr_null(find_block(map, "scale", 0));
    json_decref(report);
    manifest_free(m);
}
END_TEST

/* "malloc_heap_bytes" sizes the device heap, as cudaDeviceSetLimit does:
 * 12 MiB is granted from a 16 MiB heap and refused by CUDA's default of
 * 8 MiB (each manifest's expect holds its answer), functional and timed. */
START_TEST(e2e_malloc_heap_bytes)
{
    GError *e = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &e);
    ck_assert_msg(cfg, "%s", e ? e->message : "?");
    const char *paths[] = {"tests/manifests/e2e/heap_16mib.json", "tests/manifests/e2e/heap_default.json"};
    for (size_t i = 0; i < G_N_ELEMENTS(paths); i++) {
        for (int timed = 0; timed < 2; timed++) {
            Manifest *m = load_ok(paths[i]);
            RunOptions opt = {.config = timed ? cfg : NULL, .config_name = "h200"};
            json_t *report = NULL;
            guint failed = 99;
            gboolean ok = manifest_run(m, &opt, &report, &failed, &e);
            ck_assert_msg(ok, "%s: %s", paths[i], e ? e->message : "?");
            ck_assert_uint_eq(failed, 0);
            json_decref(report);
            manifest_free(m);
        }
    }
    config_free(cfg);
}
END_TEST

START_TEST(e2e_failed_check)
{
    Manifest *m = load_ok("tests/manifests/e2e/fail_check.json");
    json_t *report = NULL;
    guint failed = 0;
    GError *e = NULL;
    ck_assert(!manifest_run(m, NULL, &report, &failed, &e));
    ck_assert_int_eq(e->code, WS_ERR_CHECK);
    ck_assert_uint_eq(failed, 1);
    ck_assert_str_eq(e->message, "tests/manifests/e2e/fail_check.json: error: expect.x: 2 of 64 elements of "
                                 "buffer x differ (rtol 1e-06, atol 0): [3] got 7.5, expected 8.5; "
                                 "[10] got 6.25, expected nan");
    ck_assert_ptr_nonnull(report);
    json_t *l = json_array_get(json_object_get(report, "launches"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(l, "checks"), "x")), "fail");
    json_t *d = json_object_get(json_object_get(l, "warpsim__check_details"), "x");
    ck_assert_int_eq(json_integer_value(json_object_get(d, "mismatches")), 2);
    json_t *first = json_object_get(d, "first");
    ck_assert_uint_eq(json_array_size(first), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(first, 0), "index")), 3);
    ck_assert(json_real_value(json_object_get(json_array_get(first, 0), "got")) == 7.5);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(first, 1), "expected")), "nan");
    g_error_free(e);
    json_decref(report);
    manifest_free(m);
}
END_TEST

START_TEST(e2e_fault_still_dumps)
{
    Manifest *m = load_ok("tests/manifests/e2e/fault.json");
    char *dump = g_build_filename(tmpdir, "fault-dump", NULL);
    RunOptions opt = {.dump_dir = dump};
    json_t *report = NULL;
    guint failed = 0;
    GError *e = NULL;
    ck_assert(!manifest_run(m, &opt, &report, &failed, &e));
    ck_assert_int_eq(e->code, WS_ERR_FAULT);
    ck_assert_ptr_nonnull(report);
    json_t *l = json_array_get(json_object_get(report, "launches"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(l, "error")), e->message);
    char *xbin = g_build_filename(dump, "x.bin", NULL), *data;
    gsize len;
    ck_assert(g_file_get_contents(xbin, &data, &len, NULL));
    ck_assert_uint_eq(len, 160);
    float x[40];
    memcpy(x, data, sizeof x);
    /* the first CTA finished (x*3 on odd, x+0.25 on even indices); the
     * second faulted on its loads before storing anything */
    ck_assert(x[0] == 2.25f && x[1] == 6.0f && x[31] == 6.0f);
    ck_assert(x[32] == 2.0f && x[39] == 2.0f);
    g_free(data);
    g_free(xbin);
    g_free(dump);
    g_error_free(e);
    json_decref(report);
    manifest_free(m);
}
END_TEST

START_TEST(bad_runs)
{
    GString *failures = g_string_new(NULL);
    unsigned n = check_bad_dir("tests/manifests/bad_run", true, failures);
    ck_assert_uint_ge(n, 8);
    ck_assert_msg(failures->len == 0, "%s", failures->str);
    g_string_free(failures, TRUE);
}
END_TEST

/* A kernel of thread-block clusters is refused at launch, as unsupported,
 * naming its line: run anyway, its CTAs would read the cluster registers
 * of clusters of one CTA. */
START_TEST(cluster_kernel_refused)
{
    Manifest *m = load_ok("tests/manifests/unsupported/cluster.json");
    GError *e = NULL;
    json_t *report = NULL;
    guint failed = 0;
    RunOptions opt = {.functional = true};
    ck_assert(!manifest_run(m, &opt, &report, &failed, &e));
    ck_assert(e && e->domain == WARPSIM_ERROR && e->code == WS_ERR_UNSUPPORTED);
    ck_assert_msg(g_str_has_suffix(e->message, "cluster.ptx:9: error: kernel 'pairs' declares thread-block clusters "
                                               "(.reqnctapercluster or .explicitcluster), which are not supported"),
                  "%s", e->message);
    g_clear_error(&e);
    json_decref(report);
    manifest_free(m);
}
END_TEST

/* The text summary of a report (free() it). */
static char *summary_of(json_t *report)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_print_summary(f, report);
    fclose(f);
    return text;
}

START_TEST(summary_mentions_the_numbers)
{
    Manifest *m = load_ok("tests/manifests/e2e/scale.json");
    json_t *report = NULL;
    guint failed = 0;
    ck_assert(manifest_run(m, NULL, &report, &failed, NULL));
    char *text = summary_of(report);
    ck_assert_ptr_nonnull(strstr(text, "kernel scale  grid (2,1,1)  block (32,1,1)"));
    ck_assert_ptr_nonnull(strstr(text, "42 warp"));
    ck_assert_ptr_nonnull(strstr(text, "1 divergent"));
    ck_assert_ptr_nonnull(strstr(text, "x pass"));
    free(text);
    json_decref(report);
    manifest_free(m);
}
END_TEST

/* ---------------------------------------------------------- suite */

/* The report of a manifest run with `threads` host threads (timed SMs in
 * quanta, or in lockstep), host facts removed. */
static json_t *report_with_threads(const char *manifest, uint32_t threads, bool lockstep, const GpuConfig *gpu)
{
    GError *e = NULL;
    Manifest *m = manifest_load(manifest, &e);
    ck_assert_msg(m != NULL, "%s", e ? e->message : "?");
    RunOptions opt = {.threads = threads, .lockstep = lockstep, .config = gpu};
    json_t *report = NULL;
    guint failed = 0;
    ck_assert_msg(manifest_run(m, &opt, &report, &failed, &e), "%s", e ? e->message : "?");
    ck_assert_uint_eq(failed, 0);
    json_t *launches = json_object_get(report, "launches");
    for (size_t i = 0; i < json_array_size(launches); i++)
        json_object_del(json_array_get(launches, i), "host");
    manifest_free(m);
    return report;
}

START_TEST(threads_do_not_change_results)
{
    /* many CTAs without atomics (run in parallel), a 3-D grid, atomics
     * and CTAs that watch each other through volatile flags (kept in order) */
    const char *manifests[] = {"traces/matmul_tiled/launch.json", "traces/dec2zero/random.json",
                               "tests/gpu-probe/lib/grid3d.json", "tests/gpu-probe/lib/atomics.json",
                               "tests/manifests/e2e/chain.json",
                               /* one launch 4 times: its host threads are the run's, reused */
                               "traces/labs/ilp_tlp/serial.json"};
    /* functional, and timed on GPUs with and without L1 for global loads
     * (the timing model's quanta follow the L1 or the L2 latency); not on
     * cc 1.x, which has no 3-D grids */
    const char *configs[] = {NULL, "h200", "gtx460", "k40"};
    for (size_t c = 0; c < G_N_ELEMENTS(configs); c++) {
        GError *e = NULL;
        GpuConfig *gpu = configs[c] ? config_load(configs[c], NULL, &e) : NULL;
        ck_assert_msg(!configs[c] || gpu, "%s", e ? e->message : "?");
        for (size_t i = 0; i < G_N_ELEMENTS(manifests); i++) {
            /* the timing model's reference order: every SM cycle by cycle */
            json_t *lockstep = report_with_threads(manifests[i], 1, true, gpu);
            json_t *one = report_with_threads(manifests[i], 1, false, gpu);
            /* 2 threads: on a 2-core machine, threads with a core each (waiters
             * poll); 4: more threads than cores there (waiters sleep) */
            json_t *two = report_with_threads(manifests[i], 2, false, gpu);
            json_t *four = report_with_threads(manifests[i], 4, false, gpu);
            ck_assert_msg(json_equal(lockstep, one), "%s differs in quanta on 1 thread (%s)", manifests[i],
                          configs[c] ? configs[c] : "functional");
            ck_assert_msg(json_equal(lockstep, two), "%s differs with 2 threads (%s)", manifests[i],
                          configs[c] ? configs[c] : "functional");
            ck_assert_msg(json_equal(lockstep, four), "%s differs with 4 threads (%s)", manifests[i],
                          configs[c] ? configs[c] : "functional");
            json_decref(lockstep);
            json_decref(one);
            json_decref(two);
            json_decref(four);
        }
        if (gpu)
            config_free(gpu);
    }
}
END_TEST

START_TEST(quanta_refill_the_slots_that_retired)
{
    /* On the H200 this grid has SMs whose CTA slots 3 and 2 retire in one
     * cycle, in that order (SM 35 at cycle 3576): lockstep gives the next
     * CTA to slot 3 and the one after to slot 2, and the slot decides its
     * warps' schedulers.  Quanta, which hand out replacements after the
     * cycle, must do the same (they once filled the lowest free slot
     * first: 14 cycles and 66 L2 sectors apart). */
    GError *e = NULL;
    GpuConfig *gpu = config_load("h200", NULL, &e);
    ck_assert_msg(gpu, "%s", e ? e->message : "?");
    const char *manifest = "traces/stencil/sweep/csl_r1_x640.json";
    json_t *lockstep = report_with_threads(manifest, 1, true, gpu);
    json_t *quanta = report_with_threads(manifest, 1, false, gpu);
    ck_assert_msg(json_equal(lockstep, quanta), "%s differs in quanta", manifest);
    json_decref(lockstep);
    json_decref(quanta);
    config_free(gpu);
}
END_TEST

static bool independent(const char *body)
{
    char *ptx = g_strdup_printf(".version 8.0\n.target sm_90\n.address_size 64\n"
                                ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
                                ".func helper(.param .b64 p)\n{\n .reg .b64 %%rd<2>;\n .reg .b32 %%r<2>;\n"
                                " ld.param.u64 %%rd1, [p];\n atom.global.add.u32 %%r1, [%%rd1], 1;\n ret;\n}\n"
                                ".visible .entry k(.param .u64 p)\n{\n .reg .b64 %%rd<4>;\n .reg .b32 %%r<4>;\n"
                                " .shared .u32 s;\n ld.param.u64 %%rd1, [p];\n%s ret;\n}\n", body);
    GError *e = NULL;
    Module *m = ptx_parse_string(ptx, "t.ptx", &e);
    ck_assert_msg(m != NULL, "%s", e ? e->message : "?");
    bool r = launch_ctas_independent(m, module_find_func(m, "k"));
    module_free(m);
    g_free(ptx);
    return r;
}

START_TEST(which_launches_run_in_parallel)
{
    ck_assert(independent(" st.global.u32 [%rd1], 1;\n"));
    ck_assert(independent(" atom.shared.add.u32 %r1, [s], 1;\n"));
    ck_assert(!independent(" atom.global.add.u32 %r1, [%rd1], 1;\n"));
    ck_assert(!independent(" red.global.add.u32 [%rd1], 1;\n"));
    ck_assert(!independent(" atom.add.u32 %r1, [%rd1], 1;\n")); /* generic: may be global */
    /* strong loads and stores other CTAs can watch (a chained scan's flags,
     * cub's decoupled look-back), and fences beyond the CTA */
    ck_assert(!independent(" ld.volatile.global.u32 %r1, [%rd1];\n"));
    ck_assert(!independent(" st.volatile.u32 [%rd1], 1;\n"));
    ck_assert(!independent(" ld.relaxed.gpu.global.u32 %r1, [%rd1];\n"));
    ck_assert(!independent(" st.release.sys.u32 [%rd1], 1;\n"));
    ck_assert(!independent(" ld.global.cv.u32 %r1, [%rd1];\n"));
    ck_assert(!independent(" membar.gl;\n"));
    ck_assert(!independent(" fence.acq_rel.gpu;\n"));
    ck_assert(independent(" ld.volatile.shared.u32 %r1, [s];\n"));
    ck_assert(independent(" ld.relaxed.cta.global.u32 %r1, [%rd1];\n"));
    ck_assert(independent(" membar.cta;\n"));
    ck_assert(independent(" ld.global.cg.u32 %r1, [%rd1];\n"));
    ck_assert(!independent(" { .param .b64 a;\n st.param.b64 [a], %rd1;\n call.uni helper, (a);\n }\n"));
    ck_assert(!independent(" { .param .b64 f;\n .param .b64 a;\n .param .b32 r;\n st.param.b64 [f], %rd1;\n"
                           " st.param.b64 [a], %rd1;\n call.uni (r), vprintf, (f, a);\n }\n"));
}
END_TEST

/* The first launch's report of a run with `opt`, whose outputs must pass. */
static json_t *launch_with(const char *manifest, RunOptions opt)
{
    GError *e = NULL;
    Manifest *m = manifest_load(manifest, &e);
    ck_assert_msg(m != NULL, "%s", e ? e->message : "?");
    json_t *report = NULL;
    guint failed = 0;
    ck_assert_msg(manifest_run(m, &opt, &report, &failed, &e), "%s", e ? e->message : "?");
    ck_assert_uint_eq(failed, 0); /* outputs still right */
    manifest_free(m);
    json_t *launch = json_incref(json_array_get(json_object_get(report, "launches"), 0));
    json_decref(report);
    return launch;
}

/* The report says why a launch's CTAs kept launch order (host.ctas_in_order),
 * naming the store or atomic's PTX line, and its summary says so when
 * more than one host thread was given */
START_TEST(the_report_says_why_ctas_kept_their_order)
{
    json_t *apart = launch_with("traces/saxpy/launch.json", (RunOptions){.threads = 2});
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(apart, "host"), "threads")), 2);
    ck_assert_ptr_null(json_object_get(json_object_get(apart, "host"), "ctas_in_order"));
    json_decref(apart);
    struct {
        const char *manifest, *reason;
    } kept[] = {{"traces/common_kernels/softmax.json", "a store may touch bytes another CTA reads or writes"},
                {"traces/histogram/launch.json", "a global atomic lets CTAs see each other's progress"}};
    for (size_t k = 0; k < G_N_ELEMENTS(kept); k++) {
        GError *e = NULL;
        Manifest *m = manifest_load(kept[k].manifest, &e);
        ck_assert_msg(m != NULL, "%s", e ? e->message : "?");
        json_t *report = NULL;
        guint failed = 0;
        ck_assert(manifest_run(m, &(RunOptions){.threads = 2}, &report, &failed, &e));
        json_t *host = json_object_get(json_array_get(json_object_get(report, "launches"), 0), "host");
        const char *why = json_string_value(json_object_get(host, "ctas_in_order"));
        ck_assert_msg(why && g_str_has_prefix(why, "PTX line ") && strstr(why, kept[k].reason), "%s: %s",
                      kept[k].manifest, why ? why : "(none)");
        char *text = summary_of(report);
        ck_assert_ptr_nonnull(strstr(text, "host threads  1 of 2 (CTAs keep launch order: PTX line "));
        free(text);
        json_decref(report);
        manifest_free(m);
    }
}
END_TEST

static json_t *timed_launch(const char *manifest, const GpuConfig *gpu, uint32_t sample_waves, uint32_t threads)
{
    return launch_with(manifest, (RunOptions){.config = gpu, .threads = threads, .sample_waves = sample_waves});
}

static GpuConfig *gpu_named(const char *name)
{
    GError *e = NULL;
    GpuConfig *gpu = config_load(name, NULL, &e);
    ck_assert_msg(gpu != NULL, "%s", e ? e->message : "?");
    return gpu;
}

/* The text summary of a report of one launch. */
static char *summary_of_launch(json_t *launch)
{
    json_t *report = json_pack("{s:[O]}", "launches", launch);
    char *text = summary_of(report);
    json_decref(report);
    return text;
}

/* A sampled launch's cycle estimate against the full run's: off by less
 * than max_error_pct and within the error bound it reports; returns that
 * bound. */
static double check_estimate(json_t *full, json_t *sampled, double max_error_pct)
{
    json_t *info = json_object_get(sampled, "sampling");
    double fc = (double)metric(full, "sm__cycles_elapsed.max"), sc = (double)metric(sampled, "sm__cycles_elapsed.max");
    double error = 100 * fabs(sc - fc) / fc, bound = json_real_value(json_object_get(info, "error_bound_pct"));
    ck_assert_msg(error < max_error_pct, "estimate %.0f vs %.0f cycles", sc, fc);
    ck_assert_msg(error <= bound, "error %.2f %% above the bound %.2f %%", error, bound);
    ck_assert_int_eq((json_int_t)sc, json_integer_value(json_object_get(info, "estimated_cycles")));
    return bound;
}

/* The 7-point stencil of radius 3 interleaves each global load with the
 * FMA that uses it: in PTX order every warp waits for them one by one,
 * scheduled they overlap.  Outputs stay right (timed_launch_as checks). */
START_TEST(scheduled_loads_overlap)
{
    GpuConfig *gpu = gpu_named("h200");
    const char *stencil = "traces/stencil/base_r3.json";
    json_t *plain = launch_with(stencil, (RunOptions){.config = gpu, .threads = 1, .ptx_order = true});
    json_t *scheduled = launch_with(stencil, (RunOptions){.config = gpu, .threads = 2}); /* the default */
    json_int_t pc = metric(plain, "sm__cycles_elapsed.max"), sc = metric(scheduled, "sm__cycles_elapsed.max");
    ck_assert_msg(sc < pc * 3 / 4, "scheduled %lld cycles against %lld in PTX order", (long long)sc, (long long)pc);
    /* the same instructions and memory traffic, in another order */
    ck_assert_int_eq(metric(plain, "smsp__inst_executed.sum"), metric(scheduled, "smsp__inst_executed.sum"));
    ck_assert_int_eq(metric(plain, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                     metric(scheduled, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    /* quanta on two threads reproduce lockstep with the scheduled order too */
    json_t *lock = launch_with(stencil, (RunOptions){.config = gpu, .threads = 1, .lockstep = true});
    ck_assert_int_eq(metric(lock, "sm__cycles_elapsed.max"), sc);
    json_decref(lock);
    json_decref(plain);
    json_decref(scheduled);
    config_free(gpu);
}
END_TEST

START_TEST(sampling_estimates_a_long_grid)
{
    /* 1024 CTAs of 512 threads on the 10 SMs of a GTX 1060: 26 waves */
    GpuConfig *gpu = gpu_named("gtx1060");
    const char *manifest = "traces/stencil/sweep/base_r1_x512.json";
    json_t *full = timed_launch(manifest, gpu, 0, 1);
    json_t *sampled = timed_launch(manifest, gpu, 4, 2);
    json_t *info = json_object_get(sampled, "sampling");
    ck_assert(json_is_true(json_object_get(info, "sampled")));
    ck_assert_int_ge(json_integer_value(json_object_get(info, "waves")), 16);
    ck_assert_int_eq(json_integer_value(json_object_get(info, "detailed_waves")), 4);
    ck_assert_int_lt(json_integer_value(json_object_get(info, "detailed_ctas")), 1024);
    /* functional counts cover the whole grid */
    ck_assert_int_eq(metric(full, "smsp__inst_executed.sum"), metric(sampled, "smsp__inst_executed.sum"));
    ck_assert_int_eq(metric(full, "launch__grid_size"), metric(sampled, "launch__grid_size"));
    double bound = check_estimate(full, sampled, 5);
    ck_assert(bound >= 0 && bound < 50);
    /* the text summary says which cycles are estimated, and from what */
    char *text = summary_of_launch(sampled), *full_text = summary_of_launch(full);
    ck_assert_msg(strstr(text, "cycles estimated from the first 4 of ") != NULL, "%s", text);
    ck_assert_msg(strstr(full_text, "cycles estimated") == NULL, "%s", full_text);
    free(text);
    free(full_text);
    /* a grid of fewer waves than asked for runs in full */
    json_t *small = timed_launch("traces/matmul_tiled/launch.json", gpu, 64, 1);
    ck_assert(json_is_false(json_object_get(json_object_get(small, "sampling"), "sampled")));
    json_decref(small);
    json_decref(full);
    json_decref(sampled);
    config_free(gpu);
}
END_TEST

/* With its loads scheduled (the default), the stencil sweep on a GTX 1060
 * whose DRAM gives 160 GB/s (192 on the card) is bound by DRAM, reads and
 * the write-backs of its output: its first waves' writes wait in the L2
 * (1.5 MB), so their rhythm is too fast; the floor that counts the writes
 * the L2 cannot keep catches it.  (At 192 GB/s, since the memory queues
 * keep time in 1/65536 of a cycle, the first waves' rhythm is no longer
 * too fast.) */
START_TEST(sampling_counts_write_backs)
{
    GError *e = NULL;
    const char *const slower_dram[] = {"memory.dram.bandwidth_gbs=160", NULL};
    GpuConfig *gpu = config_load("gtx1060", slower_dram, &e);
    ck_assert_msg(gpu != NULL, "%s", e ? e->message : "?");
    const char *manifest = "traces/stencil/sweep/base_r1_x512.json";
    json_t *full = launch_with(manifest, (RunOptions){.config = gpu, .threads = 2});
    json_t *sampled = launch_with(manifest, (RunOptions){.config = gpu, .threads = 2, .sample_waves = 4});
    json_t *info = json_object_get(sampled, "sampling");
    ck_assert(json_is_true(json_object_get(info, "sampled")));
    /* the rhythm of the detailed waves is well below the estimate */
    ck_assert_int_lt(json_integer_value(json_object_get(info, "detailed_cycles")) * 26 / 4,
                     json_integer_value(json_object_get(info, "estimated_cycles")));
    check_estimate(full, sampled, 5);
    json_decref(full);
    json_decref(sampled);
    config_free(gpu);
}
END_TEST

START_TEST(sampling_counts_a_partial_last_wave)
{
    /* 1024 CTAs of 256 threads, 3 per SM on the 16 SMs of an 8800 GTX:
     * 21 full waves and a third of one.  Charging the last wave a whole
     * step overestimated the cycles by 3 %, outside the bound reported. */
    GpuConfig *gpu = gpu_named("8800gtx");
    const char *manifest = "traces/coalescing/stride_s8.json";
    json_t *full = timed_launch(manifest, gpu, 0, 1);
    json_t *sampled = timed_launch(manifest, gpu, 4, 1);
    json_t *info = json_object_get(sampled, "sampling");
    ck_assert_int_eq(json_integer_value(json_object_get(info, "waves")), 22);
    check_estimate(full, sampled, 2);
    /* on two threads the CTAs after the detailed waves run functionally
     * beside them: the same outputs (checked in timed_launch) and report */
    json_t *overlapped = timed_launch(manifest, gpu, 4, 2);
    ck_assert(json_equal(json_object_get(sampled, "metrics"), json_object_get(overlapped, "metrics")));
    ck_assert(json_equal(json_object_get(sampled, "sampling"), json_object_get(overlapped, "sampling")));
    json_decref(overlapped);
    json_decref(full);
    json_decref(sampled);
    config_free(gpu);
}
END_TEST

static Suite *manifest_suite(void)
{
    Suite *s = suite_create("manifest");
    TCase *tc = tcase_create("units");
    tcase_add_checked_fixture(tc, setup_tmp, teardown_tmp);
    tcase_add_test(tc, splitmix64_reference);
    tcase_add_test(tc, init_zeros_and_default);
    tcase_add_test(tc, init_const);
    tcase_add_test(tc, init_iota);
    tcase_add_test(tc, init_values);
    tcase_add_test(tc, init_values_negative_hex_rejected);
    tcase_add_test(tc, init_file);
    tcase_add_test(tc, inputs_must_be_regular_files);
    tcase_add_test(tc, init_random_integers);
    tcase_add_test(tc, init_random_floats);
    tcase_add_test(tc, bad_manifests);
    tcase_add_test(tc, missing_manifest_is_io_error);
    tcase_add_test(tc, compare_float_tolerances);
    tcase_add_test(tc, compare_nan_and_inf);
    tcase_add_test(tc, compare_integers_exact);
    suite_add_tcase(s, tc);
    TCase *e2e = tcase_create("end_to_end");
    tcase_add_checked_fixture(e2e, setup_tmp, teardown_tmp);
    tcase_add_test(e2e, e2e_scale);
    tcase_add_test(e2e, line_counts_name_source_lines);
    tcase_add_test(e2e, e2e_multi_launch);
    tcase_add_test(e2e, e2e_malloc_heap_bytes);
    tcase_add_test(e2e, e2e_failed_check);
    tcase_add_test(e2e, e2e_fault_still_dumps);
    tcase_add_test(e2e, bad_runs);
    tcase_add_test(e2e, cluster_kernel_refused);
    tcase_add_test(e2e, summary_mentions_the_numbers);
    tcase_add_test(e2e, which_launches_run_in_parallel);
    tcase_add_test(e2e, the_report_says_why_ctas_kept_their_order);
    suite_add_tcase(s, e2e);
    /* full timing runs and repeated runs: slow under the sanitizers */
    TCase *sampling = tcase_create("long");
    tcase_set_timeout(sampling, 600);
    tcase_add_test(sampling, sampling_estimates_a_long_grid);
    tcase_add_test(sampling, scheduled_loads_overlap);
    tcase_add_test(sampling, sampling_counts_a_partial_last_wave);
    tcase_add_test(sampling, sampling_counts_write_backs);
    tcase_add_test(sampling, threads_do_not_change_results);
    tcase_add_test(sampling, quanta_refill_the_slots_that_retired);
    suite_add_tcase(s, sampling);
    return s;
}

int main(void)
{
    if (chdir(SOURCE_ROOT) != 0)
        return 1;
    return tu_run_suite(manifest_suite());
}
