/* test_cooperative.c — cooperative launches (LaunchSpec.cooperative, the
 * manifest's "cooperative" key) on the hand-written PTX of
 * tests/cooperative: this_grid().sync()'s protocol over the grid workspace,
 * functional and timed, the same on 1 and 2 host threads; a grid whose CTAs
 * all spin is reported as a hang, one where a CTA still computes is not;
 * an ordinary launch has no workspace; a grid too large to be resident is
 * refused.  Expected values are computed here from the inputs. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "config.h"
#include "errors.h"
#include "manifest.h"
#include "testutil.h"

typedef struct {
    gboolean ok;
    GError *error;
    GPtrArray *buffers; /* ManifestBuffer */
    json_t *report;
} Outcome;

static void outcome_clear(Outcome *o)
{
    g_clear_error(&o->error);
    if (o->buffers)
        g_ptr_array_unref(o->buffers);
    json_decref(o->report);
    memset(o, 0, sizeof *o);
}

/* Runs tests/cooperative/NAME.json; config NULL: functional with CUDA's
 * generic limits, else timed on that GPU. */
static Outcome run_manifest(const char *name, const char *config, uint32_t threads)
{
    Outcome o = {0};
    char *rel = g_strdup_printf("tests/cooperative/%s.json", name);
    char *path = tu_source_path(rel);
    GError *e = NULL;
    Manifest *m = manifest_load(path, &e);
    ck_assert_msg(m, "%s", e ? e->message : "");
    GpuConfig *gpu = config ? config_load(config, NULL, &e) : NULL;
    ck_assert_msg(!config || gpu, "%s", e ? e->message : "");
    RunOptions opt = {.config = gpu, .threads = threads};
    guint failed = 0;
    o.ok = manifest_run_capture(m, &opt, NULL, &o.buffers, &o.report, &failed, &o.error);
    manifest_free(m);
    config_free(gpu);
    g_free(path);
    g_free(rel);
    return o;
}

static const uint32_t *buffer_u32(const Outcome *o, const char *name, uint64_t *count)
{
    for (guint i = 0; o->buffers && i < o->buffers->len; i++) {
        const ManifestBuffer *b = g_ptr_array_index(o->buffers, i);
        if (strcmp(b->name, name) == 0) {
            *count = b->count;
            return g_bytes_get_data(b->data, NULL);
        }
    }
    ck_abort_msg("no buffer %s", name);
    return NULL;
}

/* grid_sync.ptx's outputs from its input: partial sums per CTA over the
 * grid-stride loop, out[g] = total + g, out2[g] = out[(g + 64) % T]. */
static void check_grid_sync(const Outcome *o)
{
    ck_assert_msg(o->ok, "%s", o->error ? o->error->message : "");
    uint64_t n, np, nout, nout2;
    const uint32_t *in = buffer_u32(o, "in", &n);
    const uint32_t *partial = buffer_u32(o, "partial", &np);
    const uint32_t *out = buffer_u32(o, "out", &nout);
    const uint32_t *out2 = buffer_u32(o, "out2", &nout2);
    const uint32_t ctas = 8, block = 64, threads = ctas * block;
    ck_assert_uint_eq(np, ctas);
    ck_assert_uint_eq(nout, threads);
    uint32_t want_partial[8] = {0}, total = 0;
    for (uint64_t i = 0; i < n; i++) {
        want_partial[(i % threads) / block] += in[i];
        total += in[i];
    }
    ck_assert_uint_ne(total, 0);
    for (uint32_t c = 0; c < ctas; c++)
        ck_assert_uint_eq(partial[c], want_partial[c]);
    for (uint32_t g = 0; g < threads; g++) {
        ck_assert_uint_eq(out[g], total + g);
        ck_assert_uint_eq(out2[g], total + (g + block) % threads);
    }
}

/* The launches' counts (the report's metrics, host times left out). */
static char *metrics_text(const Outcome *o)
{
    GString *s = g_string_new(NULL);
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(o->report, "launches"), i, l) {
        char *t = json_dumps(json_object_get(l, "metrics"), JSON_SORT_KEYS | JSON_COMPACT);
        g_string_append(s, t);
        free(t);
    }
    return g_string_free(s, FALSE);
}

static void check_same_runs(const Outcome *a, const Outcome *b)
{
    ck_assert_uint_eq(a->buffers->len, b->buffers->len);
    for (guint i = 0; i < a->buffers->len; i++) {
        const ManifestBuffer *x = g_ptr_array_index(a->buffers, i), *y = g_ptr_array_index(b->buffers, i);
        ck_assert_msg(g_bytes_equal(x->data, y->data), "buffer %s differs between host thread counts", x->name);
    }
    char *ma = metrics_text(a), *mb = metrics_text(b);
    ck_assert_str_eq(ma, mb);
    g_free(ma);
    g_free(mb);
}

START_TEST(grid_sync_functional)
{
    Outcome one = run_manifest("grid_sync", NULL, 1), two = run_manifest("grid_sync", NULL, 2);
    check_grid_sync(&one); /* after the last of its three launches: each starts from a fresh workspace */
    check_grid_sync(&two);
    check_same_runs(&one, &two);
    outcome_clear(&one);
    outcome_clear(&two);
}
END_TEST

START_TEST(grid_sync_timed)
{
    Outcome one = run_manifest("grid_sync", "h200", 1), two = run_manifest("grid_sync", "h200", 2);
    check_grid_sync(&one);
    check_grid_sync(&two);
    check_same_runs(&one, &two);
    outcome_clear(&one);
    outcome_clear(&two);
}
END_TEST

START_TEST(all_ctas_spinning_is_a_hang)
{
    for (int timed = 0; timed < 2; timed++) {
        Outcome one = run_manifest("deadlock", timed ? "h200" : NULL, 1);
        Outcome two = run_manifest("deadlock", timed ? "h200" : NULL, 2);
        ck_assert(!one.ok && !two.ok);
        ck_assert(g_error_matches(one.error, WARPSIM_ERROR, WS_ERR_FAULT));
        ck_assert_msg(strstr(one.error->message, "hang: every unfinished warp of the cooperative grid"), "%s",
                      one.error->message);
        ck_assert_msg(strstr(one.error->message, "deadlock.ptx:37: error:"), "%s", one.error->message);
        ck_assert_str_eq(one.error->message, two.error->message);
        outcome_clear(&one);
        outcome_clear(&two);
    }
}
END_TEST

/* Three CTAs spin (their state repeats, nothing is stored) while the last
 * one computes: the grid can still make progress, so no hang. */
START_TEST(one_cta_still_working_is_no_hang)
{
    uint32_t x = 1;
    for (uint32_t i = 0; i < 200000; i++)
        x = x * 1664525u + 1013904223u;
    for (int timed = 0; timed < 2; timed++) {
        Outcome o = run_manifest("slow_last", timed ? "h200" : NULL, 2);
        ck_assert_msg(o.ok, "%s", o.error ? o.error->message : "");
        uint64_t n;
        const uint32_t *out = buffer_u32(&o, "out", &n);
        for (int c = 0; c < 4; c++)
            ck_assert_uint_eq(out[c], x);
        outcome_clear(&o);
    }
}
END_TEST

START_TEST(workspace_as_the_driver_gives_it)
{
    for (int timed = 0; timed < 2; timed++) {
        Outcome o = run_manifest("workspace", timed ? "h200" : NULL, 1);
        ck_assert_msg(o.ok, "%s", o.error ? o.error->message : "");
        uint64_t n;
        const uint32_t *out = buffer_u32(&o, "out", &n);
        uint64_t ws = (uint64_t)out[0] << 32 | out[1];
        ck_assert_uint_ne(ws, 0);
        ck_assert_uint_eq(ws % 16, 0);
        /* size, arrival counter, 1, 0: as an H200's driver fills it */
        ck_assert_uint_eq(out[4], 16);
        ck_assert_uint_eq(out[5], 0);
        ck_assert_uint_eq(out[6], 1);
        ck_assert_uint_eq(out[7], 0);
        for (int i = 8; i < 16; i++) /* an ordinary launch: both envregs zero */
            ck_assert_uint_eq(out[i], 0);
        outcome_clear(&o);
    }
}
END_TEST

START_TEST(ordinary_launch_traps)
{
    Outcome o = run_manifest("grid_sync_plain", NULL, 1);
    ck_assert(!o.ok);
    ck_assert(g_error_matches(o.error, WARPSIM_ERROR, WS_ERR_FAULT));
    ck_assert_msg(strstr(o.error->message, "grid_sync.ptx:45: error: trap"), "%s", o.error->message);
    outcome_clear(&o);
}
END_TEST

START_TEST(too_large_grid_is_refused)
{
    Outcome o = run_manifest("grid_sync_too_large", "h200", 1);
    ck_assert(!o.ok);
    ck_assert(g_error_matches(o.error, WARPSIM_ERROR, WS_ERR_INPUT));
    ck_assert_msg(strstr(o.error->message, "too many blocks in cooperative launch: a grid of 4225 blocks"), "%s",
                  o.error->message);
    ck_assert_msg(strstr(o.error->message, "x 132 SMs = 4224 resident"), "%s", o.error->message);
    outcome_clear(&o);
}
END_TEST

START_TEST(cooperative_key_must_be_boolean)
{
    char *dir = g_dir_make_tmp("coopXXXXXX", NULL);
    char *ptx = tu_source_path("tests/cooperative/workspace.ptx");
    char *text = g_strdup_printf("{\"ptx\": \"%s\", \"kernel\": \"workspace\", \"grid\": [1], \"block\": [1],\n"
                                 " \"cooperative\": 1, \"args\": [{\"u64\": 0}]}", ptx);
    char *path = g_build_filename(dir, "m.json", NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    GError *e = NULL;
    Manifest *m = manifest_load(path, &e);
    ck_assert(!m);
    ck_assert(g_error_matches(e, WARPSIM_ERROR, WS_ERR_INPUT));
    ck_assert_msg(strstr(e->message, "cooperative: must be true or false"), "%s", e->message);
    g_error_free(e);
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(text);
    g_free(ptx);
    g_free(dir);
}
END_TEST

static Suite *cooperative_suite(void)
{
    Suite *s = suite_create("cooperative");
    TCase *tc = tcase_create("cooperative");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, grid_sync_functional);
    tcase_add_test(tc, grid_sync_timed);
    tcase_add_test(tc, all_ctas_spinning_is_a_hang);
    tcase_add_test(tc, one_cta_still_working_is_no_hang);
    tcase_add_test(tc, workspace_as_the_driver_gives_it);
    tcase_add_test(tc, ordinary_launch_traps);
    tcase_add_test(tc, too_large_grid_is_refused);
    tcase_add_test(tc, cooperative_key_must_be_boolean);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(cooperative_suite());
}
