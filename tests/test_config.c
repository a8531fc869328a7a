/* test_config.c — loading, deriving and validating GPU configurations.
 *
 * Expected values are the published facts the configs must carry (the
 * H200's were read with cudaGetDeviceProperties on the lent machine), not
 * values read back from the loader; derived files and bad files are written
 * to a temporary folder.
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "errors.h"
#include "testutil.h"

/* ---------------------------------------------------------- helpers */

static char *tmpdir;

static void setup_tmp(void)
{
    tmpdir = g_dir_make_tmp("ws-config-XXXXXX", NULL);
    ck_assert_ptr_nonnull(tmpdir);
}

static void teardown_tmp(void)
{
    GDir *d = g_dir_open(tmpdir, 0, NULL);
    if (d) {
        const char *n;
        while ((n = g_dir_read_name(d))) {
            char *p = g_build_filename(tmpdir, n, NULL);
            g_unlink(p);
            g_free(p);
        }
        g_dir_close(d);
    }
    g_rmdir(tmpdir);
    g_free(tmpdir);
}

/* Writes `text` to tmpdir/name and returns the path (g_free it). */
static char *write_tmp(const char *name, const char *text)
{
    char *path = g_build_filename(tmpdir, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static GpuConfig *load_ok(const char *name, const char *const *overrides)
{
    GError *e = NULL;
    GpuConfig *c = config_load(name, overrides, &e);
    ck_assert_msg(c != NULL, "%s: %s", name, e ? e->message : "?");
    return c;
}

/* Loads a file expected to fail; checks the code and that the message
 * starts with "LABEL: error: " and names `jpath` right after it. */
static void expect_error_at(const char *name, const char *const *overrides, const char *label,
                            const char *jpath, const char *fragment)
{
    GError *e = NULL;
    GpuConfig *c = config_load(name, overrides, &e);
    ck_assert_msg(c == NULL, "%s loaded but should fail at %s", name, jpath);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->domain, WARPSIM_ERROR);
    ck_assert_msg(e->code == WS_ERR_INPUT, "code %d for: %s", e->code, e->message);
    char *prefix = g_strdup_printf("%s: error: %s: ", label, jpath);
    ck_assert_msg(g_str_has_prefix(e->message, prefix), "message \"%s\" lacks \"%s\"", e->message, prefix);
    if (fragment)
        ck_assert_msg(strstr(e->message, fragment), "message \"%s\" lacks \"%s\"", e->message, fragment);
    g_free(prefix);
    g_error_free(e);
}

/* A complete configuration file derived from h200 with `body` added. */
static void expect_file_error(const char *body, const char *jpath, const char *fragment)
{
    char *text = g_strdup_printf("{\"base\": \"h200\", %s}", body);
    char *path = write_tmp("bad.json", text);
    expect_error_at(path, NULL, path, jpath, fragment);
    g_free(path);
    g_free(text);
}

/* ---------------------------------------------------------- bundled */

START_TEST(bundled_names)
{
    const char *const want[] = {"8800gtx", "9400m", "gtx280", "gtx460", "k40", "k80", "gtx1060", "h100", "h200"};
    const char *const *names = config_bundled_names();
    ck_assert_ptr_nonnull(names);
    guint n = g_strv_length((char **)names);
    ck_assert_uint_eq(n, G_N_ELEMENTS(want));
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
        ck_assert_msg(g_strv_contains(names, want[i]), "%s is not bundled", want[i]);
    ck_assert(g_strv_contains(names, CONFIG_DEFAULT_NAME));
}
END_TEST

START_TEST(every_bundled_config_loads)
{
    for (const char *const *n = config_bundled_names(); *n; n++) {
        GpuConfig *c = load_ok(*n, NULL);
        ck_assert_str_eq(c->name, *n);
        char *label = g_strdup_printf("configs/%s.json", *n);
        ck_assert_str_eq(c->source_file, label);
        g_free(label);
        ck_assert(c->display_name && *c->display_name);
        ck_assert_uint_ge(c->num_sms, 1);
        ck_assert_uint_eq(c->max_threads_per_sm, c->max_warps_per_sm * 32);
        for (int u = 0; u < UNIT_COUNT; u++)
            ck_assert_uint_ge(c->unit_lanes[u], 1);
        for (int l = 0; l < LAT_COUNT; l++)
            ck_assert_uint_ge(c->latency[l], 1);
        ck_assert(c->dram_bytes_per_cycle > 0);
        config_free(c);
    }
}
END_TEST

/* Facts from gpu-facts.md, the CUDA guide and the H200 device query. */
START_TEST(bundled_facts)
{
    GpuConfig *c = load_ok("h200", NULL);
    ck_assert_uint_eq(c->cc_major, 9);
    ck_assert_uint_eq(c->cc_minor, 0);
    ck_assert_uint_eq(c->num_sms, 132);
    ck_assert_uint_eq(c->l2.size_bytes, 62914560);
    ck_assert_uint_eq(c->smem_per_sm, 233472);
    ck_assert_uint_eq(c->smem_per_block, 232448);
    ck_assert_uint_eq(c->smem_reserved_per_block, 1024);
    ck_assert_uint_eq(c->max_blocks_per_sm, 32);
    ck_assert_int_eq(c->coalescing, COALESCE_SECTOR);
    ck_assert_int_eq(c->reg_alloc_scope, REG_ALLOC_WARP);
    ck_assert_uint_eq(c->warp_alloc_granularity, 4);
    /* the FMA rate the H200 sustains (traces/ilp_full/hw), half its 32 lanes */
    ck_assert_uint_eq(c->unit_lanes[UNIT_FP32], 16);
    /* DFMA measured at 8.2 cycles on the H200, against FFMA's 5.0 */
    ck_assert_uint_eq(c->latency[LAT_FP64], 8);
    ck_assert_uint_gt(c->latency[LAT_FP64], c->latency[LAT_FMA]);
    /* the SFU's sequences and f64 division measured apart from the SFU and
     * from f32 division (isa/ptx_latency.def) */
    ck_assert_uint_eq(c->latency[LAT_SFU_SEQ], 42);
    ck_assert_uint_gt(c->latency[LAT_SFU_SEQ], c->latency[LAT_SFU]);
    ck_assert_uint_eq(c->latency[LAT_DIV_FP64], 112);
    ck_assert_uint_gt(c->latency[LAT_DIV_FP64], c->latency[LAT_DIV]);
    config_free(c);

    c = load_ok("8800gtx", NULL);
    ck_assert_uint_eq(c->cc_major, 1);
    ck_assert_uint_eq(c->num_sms, 16);
    ck_assert_uint_eq(c->regs_per_sm, 8192);
    ck_assert_uint_eq(c->max_threads_per_sm, 768);
    ck_assert_uint_eq(c->reg_alloc_unit, 256);
    ck_assert_int_eq(c->reg_alloc_scope, REG_ALLOC_BLOCK);
    ck_assert_int_eq(c->coalescing, COALESCE_CC10);
    ck_assert(c->smem_half_warp);
    ck_assert_uint_eq(c->smem_banks, 16);
    ck_assert_uint_eq(32 / c->unit_lanes[UNIT_FP32], 4); /* G80: 8 SPs, one warp every 4 cycles */
    ck_assert_uint_eq(c->l2.size_bytes, 0);
    config_free(c);

    c = load_ok("gtx280", NULL);
    ck_assert_uint_eq(c->reg_alloc_unit, 512);
    ck_assert_uint_eq(c->unit_lanes[UNIT_FP64], 1);
    ck_assert_int_eq(c->coalescing, COALESCE_CC12);
    config_free(c);

    c = load_ok("gtx460", NULL);
    ck_assert_uint_eq(c->num_sms, 7);
    ck_assert_uint_eq(c->schedulers_per_sm, 2);
    ck_assert_uint_eq(c->l2.size_bytes, 512 * 1024);
    ck_assert_int_eq(c->coalescing, COALESCE_CC20);
    ck_assert(c->l1_caches_global);
    config_free(c);

    /* k80 derives from k40: its own values, and the K40's where it says nothing */
    c = load_ok("k80", NULL);
    ck_assert_uint_eq(c->cc_major * 10 + c->cc_minor, 37);
    ck_assert_uint_eq(c->num_sms, 13);
    ck_assert_uint_eq(c->regs_per_sm, 131072);
    ck_assert_uint_eq(c->regs_per_block, 65536);
    ck_assert_uint_eq(c->smem_per_sm, 112 * 1024);
    ck_assert_uint_eq(c->l2.size_bytes, 1536 * 1024);
    ck_assert_uint_eq(c->schedulers_per_sm, 4);
    ck_assert_uint_eq(c->unit_lanes[UNIT_FP64], 16);
    ck_assert(!c->l1_caches_global);
    ck_assert_uint_eq(c->readonly.size_bytes, 48 * 1024);
    config_free(c);

    c = load_ok("gtx1060", NULL);
    ck_assert_uint_eq(c->num_sms, 10);
    ck_assert_uint_eq(c->smem_per_sm, 96 * 1024);
    ck_assert_uint_eq(c->smem_per_block, 48 * 1024);
    ck_assert_uint_eq(c->l2.size_bytes, 1536 * 1024);
    ck_assert_uint_eq(32 / c->unit_lanes[UNIT_FP64], 32); /* fp64 at 1/32 rate */
    /* no latency.fp64 of its own: double-precision arithmetic as an fma */
    ck_assert_uint_eq(c->latency[LAT_FP64], c->latency[LAT_FMA]);
    /* nor of the SFU's sequences and f64 division: as the classes they split from */
    ck_assert_uint_eq(c->latency[LAT_SFU_SEQ], c->latency[LAT_SFU]);
    ck_assert_uint_eq(c->latency[LAT_DIV_FP64], c->latency[LAT_DIV]);
    config_free(c);

    c = load_ok("h100", NULL);
    ck_assert_uint_eq(c->l2.size_bytes, 50 * 1024 * 1024);
    ck_assert_uint_eq(c->num_sms, 132);
    ck_assert_uint_eq(c->smem_per_sm, 233472); /* from the h200 base */
    ck_assert_uint_eq(c->latency[LAT_FP64], 8); /* inherited from h200 */
    ck_assert_uint_eq(c->latency[LAT_SFU_SEQ], 42);
    config_free(c);

    c = load_ok("9400m", NULL);
    ck_assert_uint_eq(c->num_sms, 2);
    ck_assert_uint_eq(c->cc_minor, 1);
    ck_assert_uint_eq(c->regs_per_sm, 8192); /* from the 8800gtx base */
    config_free(c);
}
END_TEST

/* Every value of every bundled file is {"value": V, "source": "..."}. */
static void check_sourced(json_t *obj, const char *file, const char *prefix)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        char *path = *prefix ? g_strdup_printf("%s.%s", prefix, key) : g_strdup(key);
        if (!*prefix && strcmp(key, "base") == 0) {
            ck_assert_msg(json_is_string(v), "%s: base is not a string", file);
        } else if (json_is_object(v) && json_object_get(v, "value")) {
            json_t *src = json_object_get(v, "source");
            ck_assert_msg(json_is_string(src) && json_string_length(src) > 10,
                          "%s: %s has no real source", file, path);
            ck_assert_msg(json_object_size(v) == 2, "%s: %s has keys besides value and source", file, path);
        } else if (json_is_object(v)) {
            check_sourced(v, file, path);
        } else {
            ck_abort_msg("%s: %s is a plain value without a source", file, path);
        }
        g_free(path);
    }
}

START_TEST(every_value_has_a_source)
{
    char *dir = g_build_filename(SOURCE_ROOT, "configs", NULL);
    GDir *d = g_dir_open(dir, 0, NULL);
    ck_assert_ptr_nonnull(d);
    const char *n;
    guint files = 0;
    while ((n = g_dir_read_name(d))) {
        if (!g_str_has_suffix(n, ".json"))
            continue;
        char *path = g_build_filename(dir, n, NULL);
        json_error_t je;
        json_t *root = json_load_file(path, 0, &je);
        ck_assert_msg(root != NULL, "%s: %s", path, je.text);
        check_sourced(root, n, "");
        json_decref(root);
        char *stem = g_strndup(n, strlen(n) - 5);
        ck_assert_msg(g_strv_contains(config_bundled_names(), stem), "%s is not bundled (reconfigure?)", n);
        g_free(stem);
        g_free(path);
        files++;
    }
    g_dir_close(d);
    g_free(dir);
    ck_assert_uint_eq(files, g_strv_length((char **)config_bundled_names()));
}
END_TEST

START_TEST(dram_bytes_per_cycle_is_computed)
{
    /* h200: 3 TB/s effective at 1980 MHz; gtx1060: 192 GB/s at 1835 MHz */
    GpuConfig *c = load_ok("h200", NULL);
    ck_assert_double_eq_tol(c->dram_bytes_per_cycle, 3000e9 / 1980e6, 1e-9);
    config_free(c);
    c = load_ok("gtx1060", NULL);
    ck_assert_double_eq_tol(c->dram_bytes_per_cycle, 192e9 / 1835e6, 1e-9);
    config_free(c);
    /* the clock changes it, the bandwidth changes it */
    const char *const ov[] = {"sm.clock_mhz=1000", "memory.dram.bandwidth_gbs=2000", NULL};
    c = load_ok("h200", ov);
    ck_assert_double_eq_tol(c->dram_bytes_per_cycle, 2000.0, 1e-9);
    config_free(c);
}
END_TEST

/* ---------------------------------------------------------- derivation */

START_TEST(derive_from_bundled_and_file)
{
    char *mid = write_tmp("mid.json",
                          "{\"base\": \"h200\", \"display_name\": \"Half H200\",\n"
                          " \"num_sms\": {\"value\": 66, \"source\": \"test\"},\n"
                          " \"memory\": {\"l2\": {\"size_bytes\": 31457280}}}\n");
    char *top = write_tmp("top.json",
                          "{\"base\": \"mid.json\", \"sm\": {\"clock_mhz\": 1000},\n"
                          " \"memory\": {\"l1\": {\"caches_global\": false}}}\n");
    GpuConfig *c = load_ok(top, NULL);
    ck_assert_str_eq(c->name, "top");
    ck_assert_str_eq(c->source_file, top);
    ck_assert_str_eq(c->display_name, "Half H200");     /* from mid */
    ck_assert_uint_eq(c->num_sms, 66);                  /* from mid */
    ck_assert_uint_eq(c->l2.size_bytes, 31457280);      /* mid, inside a section */
    ck_assert_uint_eq(c->l2.line_bytes, 128);           /* h200, beside it */
    ck_assert_double_eq(c->clock_mhz, 1000);            /* top */
    ck_assert(!c->l1_caches_global);                    /* top */
    ck_assert_uint_eq(c->l1.size_bytes, 229376);        /* h200 */
    ck_assert_uint_eq(c->max_warps_per_sm, 64);         /* h200 */
    config_free(c);

    /* "name" belongs to its file: not inherited, but honoured when given */
    char *named = write_tmp("named.json", "{\"base\": \"top.json\", \"name\": \"custom\"}");
    c = load_ok(named, NULL);
    ck_assert_str_eq(c->name, "custom");
    config_free(c);
    char *child = write_tmp("child.json", "{\"base\": \"named.json\"}");
    c = load_ok(child, NULL);
    ck_assert_str_eq(c->name, "child");
    config_free(c);
    g_free(child);
    g_free(named);
    g_free(mid);
    g_free(top);
}
END_TEST

START_TEST(base_chain_cycles)
{
    char *a = write_tmp("a.json", "{\"base\": \"b.json\"}");
    char *b = write_tmp("b.json", "{\"base\": \"a.json\"}");
    expect_error_at(a, NULL, b, "base", "cycle");
    char *self = write_tmp("self.json", "{\"base\": \"self.json\", \"num_sms\": 4}");
    expect_error_at(self, NULL, self, "base", "cycle");
    /* a bundled base may not name a file; a missing file is reported at the key */
    char *missing = write_tmp("missing.json", "{\"base\": \"nowhere.json\"}");
    expect_error_at(missing, NULL, missing, "base", "cannot load");
    g_free(a);
    g_free(b);
    g_free(self);
    g_free(missing);
}
END_TEST

/* An error inside a base names the base file, not the derived one. */
START_TEST(error_in_base_names_the_base)
{
    char *bad = write_tmp("badbase.json", "{\"base\": \"h200\", \"sm\": {\"max_wraps\": 4}}");
    char *derived = write_tmp("derived.json", "{\"base\": \"badbase.json\", \"num_sms\": 8}");
    expect_error_at(derived, NULL, bad, "sm.max_wraps", "unknown key");
    g_free(bad);
    g_free(derived);
}
END_TEST

/* ---------------------------------------------------------- overrides */

START_TEST(override_strings)
{
    const char *const ov[] = {
        "num_sms=16",
        "memory.l1.caches_global=false",
        "scheduler.policy=lrr",             /* not JSON: taken as a string */
        "display_name=\"Quoted name\"",     /* JSON string */
        "memory.coalescing={\"value\": \"cc2.x\", \"source\": \"test\"}",
        "latency.fma=7",
        "num_sms=20",                       /* later wins */
        NULL,
    };
    GpuConfig *c = load_ok("h200", ov);
    ck_assert_uint_eq(c->num_sms, 20);
    ck_assert(!c->l1_caches_global);
    ck_assert_int_eq(c->sched_policy, SCHED_LRR);
    ck_assert_str_eq(c->display_name, "Quoted name");
    ck_assert_int_eq(c->coalescing, COALESCE_CC20);
    ck_assert_uint_eq(c->latency[LAT_FMA], 7);
    ck_assert_uint_eq(c->latency[LAT_ALU], 4); /* untouched */
    config_free(c);

    const char *const name_ov[] = {"name=mine", NULL};
    c = load_ok("h200", name_ov);
    ck_assert_str_eq(c->name, "mine");
    config_free(c);

    /* text keys take what looks like a number as text: no quotes needed */
    const char *const text_ov[] = {"compute_capability=8.6", "display_name=1060", NULL};
    c = load_ok("h200", text_ov);
    ck_assert_int_eq(c->cc_major, 8);
    ck_assert_int_eq(c->cc_minor, 6);
    ck_assert_str_eq(c->display_name, "1060");
    config_free(c);
}
END_TEST

START_TEST(override_errors)
{
    const char *const bad_range[] = {"num_sms=0", NULL};
    expect_error_at("h200", bad_range, "--set num_sms=0", "num_sms", "from 1 to 1024");
    const char *const bad_type[] = {"sm.clock_mhz=fast", NULL};
    expect_error_at("h200", bad_type, "--set sm.clock_mhz=fast", "sm.clock_mhz", "must be a number");
    const char *const unknown[] = {"memory.l3.size_bytes=4", NULL};
    expect_error_at("h200", unknown, "--set memory.l3.size_bytes=4", "memory.l3.size_bytes", "unknown key");
    const char *const section[] = {"memory=1", NULL};
    expect_error_at("h200", section, "--set memory=1", "memory", "is a section");
    const char *const base[] = {"base=k40", NULL};
    expect_error_at("h200", base, "--set base=k40", "base", "cannot be overridden");
    const char *const noeq[] = {"num_sms", NULL};
    GError *e = NULL;
    ck_assert_ptr_null(config_load("h200", noeq, &e));
    ck_assert(strstr(e->message, "--set num_sms: error: expected KEY=VALUE"));
    g_clear_error(&e);
    /* checks between keys run after the overrides, against the config file */
    const char *const cross[] = {"shared_memory.per_sm=65536", NULL};
    expect_error_at("h200", cross, "configs/h200.json", "shared_memory.per_block", "must not exceed");
}
END_TEST

/* ---------------------------------------------------------- errors */

START_TEST(file_errors_name_the_key)
{
    expect_file_error("\"frobnicate\": 1", "frobnicate", "unknown key");
    expect_file_error("\"sm\": {\"max_wraps\": 48}", "sm.max_wraps", "unknown key");
    expect_file_error("\"num_sms\": \"many\"", "num_sms", "must be an integer");
    expect_file_error("\"num_sms\": 0", "num_sms", "(got 0)");
    expect_file_error("\"num_sms\": 1.5", "num_sms", "must be an integer");
    expect_file_error("\"sm\": {\"clock_mhz\": 10}", "sm.clock_mhz", "from 50 to 5000");
    expect_file_error("\"shared_memory\": {\"banks\": 24}", "shared_memory.banks", "must be 16 or 32");
    expect_file_error("\"shared_memory\": {\"bank_bytes\": 6}", "shared_memory.bank_bytes", "must be 4 or 8");
    expect_file_error("\"memory\": {\"l2\": {\"line_bytes\": 100}}", "memory.l2.line_bytes", "power of two");
    expect_file_error("\"memory\": {\"l1\": {\"assoc\": 5}}", "memory.l1.assoc", "must divide");
    expect_file_error("\"memory\": {\"l1\": {\"sector_bytes\": 256}}", "memory.l1.sector_bytes", "must not exceed");
    expect_file_error("\"memory\": {\"l2\": {\"size_bytes\": 1000}}", "memory.l2.size_bytes", "multiple of");
    expect_file_error("\"sm\": 5", "sm", "must be an object");
    expect_file_error("\"scheduler\": {\"policy\": \"fifo\"}", "scheduler.policy", "\"lrr\", \"gto\"");
    expect_file_error("\"registers\": {\"alloc_scope\": 3}", "registers.alloc_scope", "must be one of");
    expect_file_error("\"compute_capability\": \"nine\"", "compute_capability", "MAJOR.MINOR");
    expect_file_error("\"compute_capability\": 9.0", "compute_capability", "MAJOR.MINOR");
    expect_file_error("\"shared_memory\": {\"half_warp\": 1}", "shared_memory.half_warp", "true or false");
    expect_file_error("\"display_name\": \"\"", "display_name", "non-empty");
    expect_file_error("\"num_sms\": {\"source\": \"datasheet\"}", "num_sms", "needs \"value\"");
    expect_file_error("\"num_sms\": {\"value\": 8, \"note\": \"x\"}", "num_sms.note", "unknown key");
    expect_file_error("\"num_sms\": {\"value\": 8, \"source\": 3}", "num_sms.source", "must be a string");
    expect_file_error("\"num_sms\": {\"value\": {\"value\": 8}}", "num_sms", "must be an integer");
    expect_file_error("\"latency\": {\"alu\": -4}", "latency.alu", "(got -4)");
    expect_file_error("\"unit_lanes\": {\"fp32\": 0}", "unit_lanes.fp32", "from 1 to");
    expect_file_error("\"unit_lanes\": {\"arith\": 32}", "unit_lanes.arith", "unknown key");
    expect_file_error("\"memory\": {\"dram\": {\"bandwidth_gbs\": 0}}", "memory.dram.bandwidth_gbs", "number from");
    expect_file_error("\"registers\": {\"per_block\": 131072}", "registers.per_block", "registers.per_sm");
    expect_file_error("\"sm\": {\"max_threads\": 4096}", "sm.max_threads", "32 x sm.max_warps");
    expect_file_error("\"sm\": {\"max_threads_per_block\": 4096}", "sm.max_threads_per_block", "sm.max_threads");
    expect_file_error("\"base2\": \"h100\"", "base2", "unknown key");
}
END_TEST

START_TEST(structural_errors)
{
    /* no base: the first required key that is missing is named */
    char *p = write_tmp("lonely.json", "{\"display_name\": \"x\"}");
    expect_error_at(p, NULL, p, "compute_capability", "missing");
    g_free(p);
    p = write_tmp("nobase.json", "{\"base\": 7}");
    expect_error_at(p, NULL, p, "base", "must be a string");
    g_free(p);
    p = write_tmp("array.json", "[1, 2]");
    expect_error_at(p, NULL, p, "top level", "JSON object");
    g_free(p);

    /* JSON syntax errors carry line and column */
    p = write_tmp("syntax.json", "{\n  \"num_sms\": 4,\n  \"sm\" 1000\n}\n");
    GError *e = NULL;
    ck_assert_ptr_null(config_load(p, NULL, &e));
    char *prefix = g_strdup_printf("%s:3:", p);
    ck_assert_msg(g_str_has_prefix(e->message, prefix), "%s", e->message);
    ck_assert_int_eq(e->code, WS_ERR_INPUT);
    g_free(prefix);
    g_clear_error(&e);
    g_free(p);

    p = write_tmp("dup.json", "{\"base\": \"h200\", \"num_sms\": 4, \"num_sms\": 5}");
    ck_assert_ptr_null(config_load(p, NULL, &e));
    ck_assert_msg(g_str_has_prefix(e->message, p) && strstr(e->message, "duplicate"), "%s", e->message);
    g_clear_error(&e);
    g_free(p);

    /* unknown names and unreadable files */
    ck_assert_ptr_null(config_load("gtx9999", NULL, &e));
    ck_assert_int_eq(e->code, WS_ERR_INPUT);
    ck_assert(g_str_has_prefix(e->message, "gtx9999: error: no bundled configuration"));
    ck_assert(strstr(e->message, "h200"));
    g_clear_error(&e);
    p = g_build_filename(tmpdir, "absent.json", NULL);
    ck_assert_ptr_null(config_load(p, NULL, &e));
    ck_assert_int_eq(e->code, WS_ERR_IO);
    ck_assert(g_str_has_prefix(e->message, p));
    g_clear_error(&e);
    g_free(p);
}
END_TEST

/* Whatever the bytes, the loader answers with a config or an error. */
START_TEST(never_crashes)
{
    const char *const texts[] = {
        "", "null", "\"h200\"", "[]", "{}", "{\"base\": \"\"}", "{\"base\": null}",
        "{\"sm\": []}", "{\"sm\": {\"max_warps\": {}}}", "{\"latency\": {\"alu\": {\"value\": null}}}",
        "{\"memory\": {\"l1\": {\"l1\": {}}}}", "{\"num_sms\": 99999999999999999999}",
        "{\"num_sms\": 1e400}", "{\"sm\": {\"clock_mhz\": -0.0}}", "{\"a\":{\"b\":{\"c\":{\"d\":{}}}}}",
        "{\"base\": \"h200\", \"memory\": {\"l2\": {\"size_bytes\": 0, \"assoc\": 1000000}}}",
        "\xff\xfe{}", "{\"display_name\": \"\\u0000\"}",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
        char *p = write_tmp("junk.json", texts[i]);
        GError *e = NULL;
        GpuConfig *c = config_load(p, NULL, &e);
        if (c)
            config_free(c);
        else
            ck_assert_msg(e && strstr(e->message, "error: "), "case %zu: no message", i);
        g_clear_error(&e);
        g_free(p);
    }

    /* byte mutations of a real file */
    char *src = g_build_filename(SOURCE_ROOT, "configs", "gtx1060.json", NULL);
    char *orig;
    gsize len;
    ck_assert(g_file_get_contents(src, &orig, &len, NULL));
    GRand *rng = g_rand_new_with_seed(12345);
    static const char alphabet[] = "{}[]\":,0123456789-.eEtrufalsn \\x";
    for (int iter = 0; iter < 1500; iter++) {
        char *text = g_memdup2(orig, len + 1);
        int edits = g_rand_int_range(rng, 1, 4);
        for (int k = 0; k < edits; k++)
            text[g_rand_int_range(rng, 0, (gint32)len)] = alphabet[g_rand_int_range(rng, 0, sizeof alphabet - 1)];
        char *p = write_tmp("mut.json", text);
        GError *e = NULL;
        GpuConfig *c = config_load(p, NULL, &e);
        if (c)
            config_free(c);
        else
            ck_assert_msg(e != NULL && e->message[0], "mutation %d: NULL without an error", iter);
        g_clear_error(&e);
        g_free(p);
        g_free(text);
    }
    g_rand_free(rng);
    g_free(orig);
    g_free(src);
}
END_TEST

/* ---------------------------------------------------------- corpus */

/* Every tests/configs/bad/X.json has a sibling X.expect holding the whole
 * message (written by hand, see tests/configs/README.md); loading X.json must
 * fail with exactly that message, as an input error (exit status 2).  Files
 * under bad/bases/ are bases that the cases name, not cases. */
START_TEST(bad_config_corpus)
{
    const char *dir = "tests/configs/bad";
    GDir *d = g_dir_open(dir, 0, NULL);
    ck_assert_msg(d != NULL, "cannot open %s (the test runs in the source root)", dir);
    GString *failures = g_string_new(NULL);
    unsigned count = 0;
    const char *n;
    while ((n = g_dir_read_name(d))) {
        if (!g_str_has_suffix(n, ".json"))
            continue;
        char *json = g_strdup_printf("%s/%s", dir, n);
        char *exp = g_strdup_printf("%s/%.*s.expect", dir, (int)(strlen(n) - 5), n);
        char *want = NULL;
        if (!g_file_get_contents(exp, &want, NULL, NULL)) {
            g_string_append_printf(failures, "%s: no %s\n", json, exp);
        } else {
            g_strchomp(want);
            GError *e = NULL;
            GpuConfig *c = config_load(json, NULL, &e);
            if (c) {
                g_string_append_printf(failures, "%s: loaded without error\n", json);
                config_free(c);
            } else if (!e || e->domain != WARPSIM_ERROR) {
                g_string_append_printf(failures, "%s: no warpsim error\n", json);
            } else if (strcmp(e->message, want) != 0) {
                g_string_append_printf(failures, "%s:\n   got: %s\n  want: %s\n", json, e->message, want);
            } else if (e->code != WS_ERR_INPUT || warpsim_exit_status(e) != 2) {
                g_string_append_printf(failures, "%s: error code %d, not WS_ERR_INPUT\n", json, e->code);
            }
            g_clear_error(&e);
        }
        g_free(want);
        g_free(exp);
        g_free(json);
        count++;
    }
    g_dir_close(d);
    ck_assert_msg(failures->len == 0, "%s", failures->str);
    g_string_free(failures, TRUE);
    ck_assert_uint_ge(count, 45);
}
END_TEST

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup_tmp, teardown_tmp);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bundled_names);
    tcase_add_test(tc, every_bundled_config_loads);
    tcase_add_test(tc, bundled_facts);
    tcase_add_test(tc, every_value_has_a_source);
    tcase_add_test(tc, dram_bytes_per_cycle_is_computed);
    tcase_add_test(tc, derive_from_bundled_and_file);
    tcase_add_test(tc, base_chain_cycles);
    tcase_add_test(tc, error_in_base_names_the_base);
    tcase_add_test(tc, override_strings);
    tcase_add_test(tc, override_errors);
    tcase_add_test(tc, file_errors_name_the_key);
    tcase_add_test(tc, structural_errors);
    tcase_add_test(tc, never_crashes);
    tcase_add_test(tc, bad_config_corpus);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(config_suite());
}
