/* test_fatbin.c — PTX out of nvcc 13's fat binaries (fatbin.h).
 *
 * The fixtures in tests/fatbin/ are raw fat binaries nvcc 13 wrote
 * (tests/fatbin/regen.sh rebuilds them; these tests never need nvcc).  The
 * reference for the extracted text is saxpy.ptx, `nvcc -ptx` output of the
 * same source: the fat binary holds it with comments and indentation
 * stripped, so the two are compared line by line after normalising both.
 * The malformed cases edit copies of the fixtures at offsets this file reads
 * from the format itself (docs/fatbin.md), so they follow a regeneration.
 */
#include <check.h>
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "errors.h"
#include "fatbin.h"
#include "module.h"
#include "ptx_parser.h"
#include "testutil.h"

#define SAXPY_ENTRY "_Z12saxpy_kernelifPKfPf"

/* ---------------------------------------------------------- helpers */

typedef struct {
    uint8_t *data;
    size_t size;
} Blob;

static Blob load(const char *name)
{
    char *rel = g_build_filename("tests", "fatbin", name, NULL);
    char *path = tu_source_path(rel);
    Blob b = { NULL, 0 };
    GError *e = NULL;
    gchar *contents;
    gsize len;
    ck_assert_msg(g_file_get_contents(path, &contents, &len, &e), "%s: %s", path, e ? e->message : "?");
    b.data = (uint8_t *)contents;
    b.size = len;
    g_free(rel);
    g_free(path);
    return b;
}

static GPtrArray *extract_ok(const Blob *b, const char *what)
{
    GError *e = NULL;
    GPtrArray *a = fatbin_extract_ptx_blob(b->data, b->size, &e);
    ck_assert_msg(a != NULL, "%s: %s", what, e ? e->message : "?");
    ck_assert_ptr_null(e);
    return a;
}

/* Extraction fails with `code` and a message containing each of the
 * NULL-ended fragments. */
static void expect_error_v(GPtrArray *a, GError *e, int code, const char *const *fragments)
{
    ck_assert_ptr_null(a);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->domain, WARPSIM_ERROR);
    ck_assert_msg(e->code == code, "code %d, expected %d: %s", e->code, code, e->message);
    ck_assert_msg(g_str_has_prefix(e->message, "fat binary"), "message: %s", e->message);
    ck_assert_msg(strstr(e->message, "error: ") != NULL, "message: %s", e->message);
    for (int i = 0; fragments[i]; i++)
        ck_assert_msg(strstr(e->message, fragments[i]) != NULL, "'%s' missing from: %s", fragments[i], e->message);
    g_error_free(e);
}

#define EXPECT_BLOB_ERROR(bytes, size, code, ...)                                  \
    do {                                                                           \
        GError *e_ = NULL;                                                         \
        GPtrArray *a_ = fatbin_extract_ptx_blob((bytes), (size), &e_);             \
        expect_error_v(a_, e_, (code), (const char *const[]){ __VA_ARGS__, NULL }); \
    } while (0)

static FatbinPtx *entry(GPtrArray *a, guint i)
{
    ck_assert_uint_lt(i, a->len);
    return g_ptr_array_index(a, i);
}

/* The text's lines without comments, indentation or blank lines, each with
 * its runs of white space made one space. */
static char *normalised(const char *text)
{
    GString *out = g_string_new(NULL);
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        char *c = strstr(*l, "//");
        if (c)
            *c = '\0';
        char **words = g_strsplit_set(*l, " \t\r", -1);
        bool any = false;
        for (char **w = words; *w; w++) {
            if (**w == '\0')
                continue;
            g_string_append_printf(out, "%s%s", any ? " " : "", *w);
            any = true;
        }
        if (any)
            g_string_append_c(out, '\n');
        g_strfreev(words);
    }
    g_strfreev(lines);
    return g_string_free(out, FALSE);
}

/* The first line of `text` that is not blank. */
static char *first_line(const char *text)
{
    while (*text == '\n' || *text == ' ' || *text == '\t')
        text++;
    const char *nl = strchr(text, '\n');
    return nl ? g_strndup(text, (gsize)(nl - text)) : g_strdup(text);
}

/* The `.version` directive line of the reference `nvcc -ptx` output. */
static char *reference_version_line(void)
{
    Blob ref = load("saxpy.ptx");
    char *v = strstr((char *)ref.data, ".version ");
    ck_assert_ptr_nonnull(v);
    char *line = g_strndup(v, strcspn(v, "\n"));
    g_free(ref.data);
    return line;
}

/* Little-endian fields of the fixtures, to aim the corruptions. */
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* Byte offset of the first entry of `kind` (1 PTX, 2 ELF) in the first fat
 * binary of b. */
static size_t entry_offset(const Blob *b, uint16_t kind)
{
    size_t at = b->data[6] | b->data[7] << 8;
    size_t end = at + (size_t)get64(b->data + 8);
    while (at < end) {
        if ((b->data[at] | b->data[at + 1] << 8) == kind)
            return at;
        at += get32(b->data + at + 4) + (size_t)get64(b->data + at + 8);
    }
    ck_abort_msg("no entry of kind %u", kind);
    return 0;
}

/* -------------------------------------------------- extraction */

START_TEST(default_build_is_zstd_and_matches_nvcc_ptx)
{
    Blob b = load("default.fatbin");
    size_t ptx_at = entry_offset(&b, 1);
    ck_assert_uint_ne(get64(b.data + ptx_at + 0x28) & 0x8000, 0); /* the fixture really is zstd-compressed */

    GPtrArray *a = extract_ok(&b, "default.fatbin");
    ck_assert_uint_eq(a->len, 1);
    FatbinPtx *p = entry(a, 0);
    ck_assert_uint_eq(p->arch, 75);
    ck_assert_uint_eq(p->unit, 0);
    ck_assert_uint_eq(p->ptx_len, strlen(p->ptx));
    ck_assert_ptr_null(p->identifier);

    char *version = reference_version_line();
    char *first = first_line(p->ptx);
    ck_assert_str_eq(first, version);
    ck_assert_ptr_nonnull(strstr(p->ptx, "\n.target sm_75\n"));
    ck_assert_ptr_nonnull(strstr(p->ptx, ".entry " SAXPY_ENTRY "("));

    Blob ref = load("saxpy.ptx");
    char *want = normalised((char *)ref.data), *got = normalised(p->ptx);
    ck_assert_str_eq(got, want);

    g_free(want);
    g_free(got);
    g_free(ref.data);
    g_free(first);
    g_free(version);
    g_ptr_array_free(a, TRUE);
    g_free(b.data);
}
END_TEST

/* Every compression mode nvcc offers yields the same text: zstd (size),
 * LZ4 (speed) and none must agree byte for byte with the default. */
START_TEST(compression_modes_agree)
{
    static const struct {
        const char *file;
        uint64_t flag; /* the compression flag the fixture's PTX entry carries */
    } modes[] = { { "none.fatbin", 0 }, { "speed.fatbin", 0x2000 }, { "size.fatbin", 0x8000 } };
    Blob d = load("default.fatbin");
    GPtrArray *da = extract_ok(&d, "default.fatbin");
    for (size_t i = 0; i < G_N_ELEMENTS(modes); i++) {
        Blob b = load(modes[i].file);
        ck_assert_uint_eq(get64(b.data + entry_offset(&b, 1) + 0x28) & 0xa000, modes[i].flag);
        GPtrArray *a = extract_ok(&b, modes[i].file);
        ck_assert_uint_eq(a->len, 1);
        ck_assert_uint_eq(entry(a, 0)->arch, 75);
        ck_assert_uint_eq(entry(a, 0)->ptx_len, entry(da, 0)->ptx_len);
        ck_assert_msg(strcmp(entry(a, 0)->ptx, entry(da, 0)->ptx) == 0, "%s differs from default.fatbin",
                      modes[i].file);
        g_ptr_array_free(a, TRUE);
        g_free(b.data);
    }
    g_ptr_array_free(da, TRUE);
    g_free(d.data);
}
END_TEST

START_TEST(two_architectures_pick_the_highest)
{
    Blob b = load("two_arch.fatbin");
    GPtrArray *a = extract_ok(&b, "two_arch.fatbin");
    ck_assert_uint_eq(a->len, 2);
    ck_assert_uint_eq(entry(a, 0)->arch, 75);
    ck_assert_uint_eq(entry(a, 1)->arch, 90);
    ck_assert_ptr_nonnull(strstr(entry(a, 0)->ptx, "\n.target sm_75\n"));
    ck_assert_ptr_nonnull(strstr(entry(a, 1)->ptx, "\n.target sm_90\n"));
    const FatbinPtx *pick = fatbin_pick(a);
    ck_assert_ptr_eq(pick, entry(a, 1));
    ck_assert_ptr_nonnull(strstr(pick->ptx, ".entry " SAXPY_ENTRY "("));
    g_ptr_array_free(a, TRUE);
    g_free(b.data);
}
END_TEST

START_TEST(pick_prefers_highest_then_first)
{
    FatbinPtx e90a = { .arch = 90 }, e75 = { .arch = 75 }, e90b = { .arch = 90 }, e80 = { .arch = 80 };
    GPtrArray *a = g_ptr_array_new();
    ck_assert_ptr_null(fatbin_pick(a));
    ck_assert_ptr_null(fatbin_pick(NULL));
    g_ptr_array_add(a, &e75);
    ck_assert_ptr_eq(fatbin_pick(a), &e75);
    g_ptr_array_add(a, &e90a);
    g_ptr_array_add(a, &e80);
    g_ptr_array_add(a, &e90b);
    ck_assert_ptr_eq(fatbin_pick(a), &e90a);
    g_ptr_array_free(a, TRUE);
}
END_TEST

START_TEST(machine_code_only_says_how_to_rebuild)
{
    Blob b = load("sm90_only.fatbin");
    EXPECT_BLOB_ERROR(b.data, b.size, WS_ERR_UNSUPPORTED, "holds machine code only (sm_90)",
                      "nvcc -arch=sm_90 (which embeds compute_90 PTX)",
                      "-gencode arch=compute_90,code=compute_90");
    g_free(b.data);
}
END_TEST

START_TEST(debug_build_carries_identifier_and_options)
{
    Blob b = load("debug.fatbin");
    GPtrArray *a = extract_ok(&b, "debug.fatbin");
    ck_assert_uint_eq(a->len, 1);
    ck_assert_str_eq(entry(a, 0)->identifier, "saxpy.cu");
    ck_assert_ptr_nonnull(entry(a, 0)->options);
    ck_assert_ptr_nonnull(strstr(entry(a, 0)->options, "-g "));
    ck_assert_ptr_nonnull(strstr(entry(a, 0)->ptx, ".entry " SAXPY_ENTRY "("));
    g_ptr_array_free(a, TRUE);
    g_free(b.data);
}
END_TEST

/* An executable's .nv_fatbin holds two fat binaries in link order: the
 * device-link one (machine code only; nvcc links prog_dlink.o first), then
 * the object's, which has the PTX. */
START_TEST(program_section_holds_two_fat_binaries)
{
    Blob b = load("program_section.bin");
    GPtrArray *a = extract_ok(&b, "program_section.bin");
    ck_assert_uint_eq(a->len, 1);
    ck_assert_uint_eq(entry(a, 0)->unit, 1);
    ck_assert_ptr_nonnull(strstr(entry(a, 0)->ptx, ".entry " SAXPY_ENTRY "("));
    /* The same text as the -fatbin build of the same source. */
    Blob d = load("default.fatbin");
    GPtrArray *da = extract_ok(&d, "default.fatbin");
    ck_assert_str_eq(entry(a, 0)->ptx, entry(da, 0)->ptx);
    g_ptr_array_free(da, TRUE);
    g_free(d.data);
    g_ptr_array_free(a, TRUE);
    g_free(b.data);
}
END_TEST

/* -------------------------------------------------- the wrapper */

typedef struct { /* __fatBinC_Wrapper_t, as nvcc's host stub lays it out */
    int magic;
    int version;
    const void *data;
    const void *filename_or_fatbins;
} Wrapper;

START_TEST(wrapper_version_1)
{
    Blob b = load("two_arch.fatbin");
    Wrapper w = { 0x466243b1, 1, b.data, NULL };
    GError *e = NULL;
    GPtrArray *a = fatbin_extract_ptx(&w, &e);
    ck_assert_msg(a != NULL, "%s", e ? e->message : "?");
    ck_assert_uint_eq(a->len, 2);
    ck_assert_uint_eq(fatbin_pick(a)->arch, 90);
    g_ptr_array_free(a, TRUE);

    Wrapper bad = { 0x466243b2, 1, b.data, NULL };
    a = fatbin_extract_ptx(&bad, &e);
    expect_error_v(a, e, WS_ERR_INPUT, (const char *const[]){ "wrapper magic 0x466243b2", NULL });
    e = NULL;
    uint8_t junk[16] = { 1, 2, 3, 4 };
    Wrapper bad_data = { 0x466243b1, 1, junk, NULL };
    a = fatbin_extract_ptx(&bad_data, &e);
    expect_error_v(a, e, WS_ERR_INPUT, (const char *const[]){ "bad magic 0x04030201", NULL });
    e = NULL;
    a = fatbin_extract_ptx(NULL, &e);
    expect_error_v(a, e, WS_ERR_INPUT, (const char *const[]){ "null", NULL });
    g_free(b.data);
}
END_TEST

/* -rdc=true: the registered fat binary is the device-linked machine code;
 * the PTX is in the objects' fat binaries the wrapper lists. */
START_TEST(wrapper_version_2_gathers_prelinked_ptx)
{
    Blob dl = load("rdc_dlink.fatbin"), ra = load("rdc_a.fatbin"), rb = load("rdc_b.fatbin");
    const void *prelinked[] = { ra.data, rb.data, NULL };
    Wrapper w = { 0x466243b1, 2, dl.data, prelinked };
    GError *e = NULL;
    GPtrArray *a = fatbin_extract_ptx(&w, &e);
    ck_assert_msg(a != NULL, "%s", e ? e->message : "?");
    ck_assert_uint_eq(a->len, 2);
    ck_assert_uint_eq(entry(a, 0)->unit, 1);
    ck_assert_uint_eq(entry(a, 1)->unit, 2);
    ck_assert_ptr_nonnull(strstr(entry(a, 0)->ptx, ".entry _Z12rdc_kernel_aPf("));
    ck_assert_ptr_nonnull(strstr(entry(a, 0)->ptx, ".extern .func"));
    ck_assert_ptr_nonnull(strstr(entry(a, 1)->ptx, ".entry _Z12rdc_kernel_bPf("));
    ck_assert_ptr_nonnull(strstr(entry(a, 0)->options, "--compile-only"));
    g_ptr_array_free(a, TRUE);

    /* Without the prelinked list only machine code is left. */
    const void *none[] = { NULL };
    Wrapper bare = { 0x466243b1, 2, dl.data, none };
    a = fatbin_extract_ptx(&bare, &e);
    expect_error_v(a, e, WS_ERR_UNSUPPORTED, (const char *const[]){ "machine code only (sm_75)", NULL });

    /* A corrupt prelinked object is named. */
    e = NULL;
    uint8_t *rb_bad = g_memdup2(rb.data, rb.size);
    rb_bad[0] ^= 0xff;
    const void *with_bad[] = { ra.data, rb_bad, NULL };
    Wrapper w_bad = { 0x466243b1, 2, dl.data, with_bad };
    a = fatbin_extract_ptx(&w_bad, &e);
    expect_error_v(a, e, WS_ERR_INPUT, (const char *const[]){ "prelinked object 2", "bad magic", NULL });
    g_free(rb_bad);
    g_free(dl.data);
    g_free(ra.data);
    g_free(rb.data);
}
END_TEST

/* -rdc=true: one entry per unit, each its highest architecture, in unit order. */
START_TEST(pick_units_one_per_unit)
{
    FatbinPtx u1a = { .arch = 75, .unit = 1 }, u2a = { .arch = 90, .unit = 2 }, u1b = { .arch = 80, .unit = 1 },
              u2b = { .arch = 75, .unit = 2 }, u1c = { .arch = 80, .unit = 1 };
    GPtrArray *a = g_ptr_array_new();
    GPtrArray *p = fatbin_pick_units(a);
    ck_assert_uint_eq(p->len, 0);
    g_ptr_array_free(p, TRUE);
    p = fatbin_pick_units(NULL);
    ck_assert_uint_eq(p->len, 0);
    g_ptr_array_free(p, TRUE);
    g_ptr_array_add(a, &u1a);
    g_ptr_array_add(a, &u2a);
    g_ptr_array_add(a, &u1b);
    g_ptr_array_add(a, &u2b);
    g_ptr_array_add(a, &u1c);
    p = fatbin_pick_units(a);
    ck_assert_uint_eq(p->len, 2);
    ck_assert_ptr_eq(g_ptr_array_index(p, 0), &u1b);
    ck_assert_ptr_eq(g_ptr_array_index(p, 1), &u2a);
    g_ptr_array_free(p, TRUE);
    g_ptr_array_free(a, TRUE);

    /* the fixtures: both objects of the -rdc program */
    Blob dl = load("rdc_dlink.fatbin"), ra = load("rdc_a.fatbin"), rb = load("rdc_b.fatbin");
    const void *prelinked[] = { ra.data, rb.data, NULL };
    Wrapper w = { 0x466243b1, 2, dl.data, prelinked };
    GError *e = NULL;
    a = fatbin_extract_ptx(&w, &e);
    ck_assert_msg(a != NULL, "%s", e ? e->message : "?");
    p = fatbin_pick_units(a);
    ck_assert_uint_eq(p->len, 2);
    ck_assert_ptr_nonnull(strstr(((FatbinPtx *)g_ptr_array_index(p, 0))->ptx, ".entry _Z12rdc_kernel_aPf("));
    ck_assert_ptr_nonnull(strstr(((FatbinPtx *)g_ptr_array_index(p, 1))->ptx, ".entry _Z12rdc_kernel_bPf("));
    ck_assert_ptr_eq(fatbin_pick(a), g_ptr_array_index(p, 0)); /* what a runtime loading one would miss */
    g_ptr_array_free(p, TRUE);
    g_ptr_array_free(a, TRUE);
    g_free(dl.data);
    g_free(ra.data);
    g_free(rb.data);
}
END_TEST

/* -------------------------------------------------- warpsim reads it */

START_TEST(extracted_ptx_parses)
{
    static const char *const files[] = { "default.fatbin", "two_arch.fatbin", "debug.fatbin", "rdc_a.fatbin",
                                         "rdc_b.fatbin" };
    for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
        Blob b = load(files[i]);
        GPtrArray *a = extract_ok(&b, files[i]);
        for (guint k = 0; k < a->len; k++) {
            GError *e = NULL;
            Module *m = ptx_parse_string(entry(a, k)->ptx, files[i], &e);
            ck_assert_msg(m != NULL, "%s entry %u: %s", files[i], k, e ? e->message : "?");
            char *target = g_strdup_printf("sm_%u", entry(a, k)->arch);
            ck_assert_str_eq(m->target, target);
            bool has_entry = false;
            for (guint f = 0; f < m->funcs->len; f++)
                has_entry |= module_func(m, f)->is_entry;
            ck_assert(has_entry);
            g_free(target);
            module_free(m);
        }
        g_ptr_array_free(a, TRUE);
        g_free(b.data);
    }
}
END_TEST

/* The kernel extracted from an -rdc object runs: p[i] += 1. */
START_TEST(extracted_kernel_runs)
{
    Blob b = load("rdc_b.fatbin");
    GPtrArray *a = extract_ok(&b, "rdc_b.fatbin");
    float p[32];
    for (int i = 0; i < 32; i++)
        p[i] = (float)i * 0.5f;
    TuBuf buf = { p, sizeof p };
    char *err = tu_run(entry(a, 0)->ptx, "_Z12rdc_kernel_bPf", 1, 32, &buf, 1, NULL, 0);
    ck_assert_msg(err == NULL, "%s", err);
    for (int i = 0; i < 32; i++)
        ck_assert_float_eq(p[i], (float)i * 0.5f + 1.0f);
    g_ptr_array_free(a, TRUE);
    g_free(b.data);
}
END_TEST

/* -------------------------------------------------- malformed input */

START_TEST(bad_magic)
{
    Blob b = load("default.fatbin");
    b.data[0] ^= 0x01;
    EXPECT_BLOB_ERROR(b.data, b.size, WS_ERR_INPUT, "byte 0", "bad magic");
    EXPECT_BLOB_ERROR(b.data, 0, WS_ERR_INPUT, "runs past the end");
    g_free(b.data);
}
END_TEST

START_TEST(every_truncation_fails)
{
    Blob b = load("default.fatbin");
    for (size_t n = 0; n < b.size; n++) {
        /* A fresh allocation of exactly n bytes, so ASan sees any overread. */
        uint8_t *cut = g_memdup2(b.data, n);
        GError *e = NULL;
        GPtrArray *a = fatbin_extract_ptx_blob(cut, n, &e);
        ck_assert_msg(a == NULL && e != NULL, "truncated to %zu bytes, extraction succeeded", n);
        ck_assert_int_eq(e->code, WS_ERR_INPUT);
        g_error_free(e);
        g_free(cut);
    }
    g_free(b.data);
}
END_TEST

START_TEST(sizes_past_the_end)
{
    Blob b = load("default.fatbin");
    uint8_t *c = g_memdup2(b.data, b.size);

    c[6] = 0xff; /* header size */
    c[7] = 0xff;
    EXPECT_BLOB_ERROR(c, b.size, WS_ERR_INPUT, "header size 65535");
    memcpy(c, b.data, b.size);

    put64(c + 8, get64(c + 8) + 8); /* the entries' total */
    EXPECT_BLOB_ERROR(c, b.size, WS_ERR_INPUT, "run past the end");
    memcpy(c, b.data, b.size);

    size_t ptx = entry_offset(&b, 1);
    put64(c + ptx + 8, UINT64_C(1) << 40); /* the PTX entry's payload size */
    EXPECT_BLOB_ERROR(c, b.size, WS_ERR_INPUT, "entry 1", "payload runs past the end");
    memcpy(c, b.data, b.size);

    put64(c + ptx + 8, UINT64_MAX - 16); /* one that wraps around when added */
    EXPECT_BLOB_ERROR(c, b.size, WS_ERR_INPUT, "entry 1", "payload runs past the end");
    memcpy(c, b.data, b.size);

    put32(c + ptx + 4, 0x7fffffff); /* the PTX entry's header size */
    EXPECT_BLOB_ERROR(c, b.size, WS_ERR_INPUT, "entry 1", "header size 2147483647");
    memcpy(c, b.data, b.size);

    put32(c + ptx + 0x20, 0x48); /* identifier straddling the header's end */
    put32(c + ptx + 0x24, 0x100);
    EXPECT_BLOB_ERROR(c, b.size, WS_ERR_INPUT, "entry 1", "identifier");
    memcpy(c, b.data, b.size);

    put32(c + ptx + 0x14, 0xfff0); /* options record outside the header */
    EXPECT_BLOB_ERROR(c, b.size, WS_ERR_INPUT, "entry 1", "options");
    g_free(c);
    g_free(b.data);
}
END_TEST

START_TEST(corrupt_compressed_payloads)
{
    Blob z = load("default.fatbin");
    size_t ptx = entry_offset(&z, 1);
    size_t hs = get32(z.data + ptx + 4);
    uint8_t *c = g_memdup2(z.data, z.size);

    c[ptx + hs] ^= 0xff; /* the zstd frame magic */
    EXPECT_BLOB_ERROR(c, z.size, WS_ERR_INPUT, "entry 1", "corrupt zstd payload");
    memcpy(c, z.data, z.size);

    put64(c + ptx + 0x38, get64(c + ptx + 0x38) + 1); /* uncompressed size off by one */
    EXPECT_BLOB_ERROR(c, z.size, WS_ERR_INPUT, "entry 1", "zstd");
    memcpy(c, z.data, z.size);

    put32(c + ptx + 0x10, get32(c + ptx + 0x10) - 9); /* compressed size cut short */
    EXPECT_BLOB_ERROR(c, z.size, WS_ERR_INPUT, "entry 1", "corrupt zstd payload");
    memcpy(c, z.data, z.size);

    put32(c + ptx + 0x10, (uint32_t)get64(c + ptx + 8) + 1); /* compressed size beyond the payload */
    EXPECT_BLOB_ERROR(c, z.size, WS_ERR_INPUT, "entry 1", "compressed size");
    memcpy(c, z.data, z.size);

    put64(c + ptx + 0x28, get64(c + ptx + 0x28) | 0x2000); /* both methods flagged */
    EXPECT_BLOB_ERROR(c, z.size, WS_ERR_UNSUPPORTED, "entry 1", "two compression methods");
    g_free(c);
    g_free(z.data);

    Blob l = load("speed.fatbin");
    ptx = entry_offset(&l, 1);
    hs = get32(l.data + ptx + 4);
    c = g_memdup2(l.data, l.size);
    c[ptx + hs + 2] = 0xff; /* the first match's offset reaches before the start */
    c[ptx + hs + 3] = 0xff;
    EXPECT_BLOB_ERROR(c, l.size, WS_ERR_INPUT, "entry 1", "corrupt LZ4 payload");
    memcpy(c, l.data, l.size);

    put64(c + ptx + 0x38, get64(c + ptx + 0x38) - 1); /* output one byte short */
    EXPECT_BLOB_ERROR(c, l.size, WS_ERR_INPUT, "entry 1", "corrupt LZ4 payload");
    memcpy(c, l.data, l.size);

    put32(c + ptx + 0x10, get32(c + ptx + 0x10) - 3); /* block cut short */
    EXPECT_BLOB_ERROR(c, l.size, WS_ERR_INPUT, "entry 1", "corrupt LZ4 payload");
    g_free(c);
    g_free(l.data);
}
END_TEST

/* Every single-byte corruption of the compressed fixtures either fails with
 * an error or yields NUL-terminated text; none crashes or overreads (the
 * suite runs under ASan too). */
START_TEST(byte_flips_never_crash)
{
    static const char *const files[] = { "default.fatbin", "speed.fatbin", "two_arch.fatbin" };
    for (size_t f = 0; f < G_N_ELEMENTS(files); f++) {
        Blob b = load(files[f]);
        for (size_t i = 0; i < b.size; i++) {
            uint8_t *c = g_memdup2(b.data, b.size);
            c[i] ^= (uint8_t)(0x5a ^ i);
            GError *e = NULL;
            GPtrArray *a = fatbin_extract_ptx_blob(c, b.size, &e);
            ck_assert((a == NULL) != (e == NULL));
            if (a) {
                for (guint k = 0; k < a->len; k++)
                    ck_assert_uint_eq(strlen(entry(a, k)->ptx), entry(a, k)->ptx_len);
                g_ptr_array_free(a, TRUE);
            } else {
                ck_assert(g_str_has_prefix(e->message, "fat binary: error: "));
                g_error_free(e);
            }
            g_free(c);
        }
        g_free(b.data);
    }
}
END_TEST

START_TEST(trailing_garbage_after_a_fat_binary)
{
    Blob b = load("default.fatbin");
    uint8_t *c = g_malloc0(b.size + 24);
    memcpy(c, b.data, b.size);
    /* Zero padding is fine... */
    GError *e = NULL;
    GPtrArray *a = fatbin_extract_ptx_blob(c, b.size + 24, &e);
    ck_assert_msg(a != NULL, "%s", e ? e->message : "?");
    ck_assert_uint_eq(a->len, 1);
    g_ptr_array_free(a, TRUE);
    /* ...anything else must be another fat binary. */
    c[b.size + 8] = 0x42;
    char at[32];
    g_snprintf(at, sizeof at, "byte %zu", b.size); /* where the next one would start */
    EXPECT_BLOB_ERROR(c, b.size + 24, WS_ERR_INPUT, at, "bad magic");
    g_free(c);
    g_free(b.data);
}
END_TEST

static Suite *fatbin_suite(void)
{
    Suite *s = suite_create("fatbin");
    TCase *t = tcase_create("extract");
    tcase_add_test(t, default_build_is_zstd_and_matches_nvcc_ptx);
    tcase_add_test(t, compression_modes_agree);
    tcase_add_test(t, two_architectures_pick_the_highest);
    tcase_add_test(t, pick_prefers_highest_then_first);
    tcase_add_test(t, pick_units_one_per_unit);
    tcase_add_test(t, machine_code_only_says_how_to_rebuild);
    tcase_add_test(t, debug_build_carries_identifier_and_options);
    tcase_add_test(t, program_section_holds_two_fat_binaries);
    suite_add_tcase(s, t);

    t = tcase_create("wrapper");
    tcase_add_test(t, wrapper_version_1);
    tcase_add_test(t, wrapper_version_2_gathers_prelinked_ptx);
    suite_add_tcase(s, t);

    t = tcase_create("warpsim");
    tcase_add_test(t, extracted_ptx_parses);
    tcase_add_test(t, extracted_kernel_runs);
    suite_add_tcase(s, t);

    t = tcase_create("malformed");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, bad_magic);
    tcase_add_test(t, every_truncation_fails);
    tcase_add_test(t, sizes_past_the_end);
    tcase_add_test(t, corrupt_compressed_payloads);
    tcase_add_test(t, byte_flips_never_crash);
    tcase_add_test(t, trailing_garbage_after_a_fat_binary);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(fatbin_suite());
}
