/* test_workloads.c — the workloads under traces/, end to end.
 *
 * - every manifest under traces/ runs through the built `warpsim run
 *   MANIFEST --json REPORT`: exit status 0 and every check "pass"; a
 *   manifest whose top level has "_test_functional" (a string saying why:
 *   warpsim ignores keys starting with `_`) runs with --functional only,
 *   for the seeds' full-size launches whose timed runs take too long here;
 * - host_reference regenerates each workload's expected files byte for
 *   byte (so the committed files are reproducible from the manifests) and
 *   confirms the sha256 expectations of outputs too large to commit;
 * - the divergence maps of dec2zero (seed 002) and divergence/noDivergence
 *   (seed 004) show divergence exactly where the inputs make warps split;
 * - grids of several waves report the same metrics on 1, 2 and 3 host
 *   threads (the replacement CTAs go out in lockstep order whichever
 *   thread sets them up).
 * Failures name every workload that failed and why, not just the first.
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include "testutil.h"

#define WARPSIM_BIN BUILD_ROOT "/src/warpsim"
#define HOST_REF_BIN BUILD_ROOT "/tests/host_reference"
/* seconds one run may take, times CK_TIMEOUT_MULTIPLIER (Check's own
 * stretch of its limits, which slow builds such as the sanitized one set) */
#define RUN_TIMEOUT_S 300.0

static char *run_timeout_arg(void)
{
    const char *m = g_getenv("CK_TIMEOUT_MULTIPLIER");
    double times = m ? g_ascii_strtod(m, NULL) : 1.0;
    if (!(times >= 1.0 && times <= 100.0))
        times = 1.0;
    return g_strdup_printf("%.0f", RUN_TIMEOUT_S * times);
}

/* ------------------------------------------------------ discovery */

static bool json_file_is_manifest(const char *path)
{
    json_t *root = json_load_file(path, 0, NULL);
    bool yes = json_is_object(root) &&
               (json_is_string(json_object_get(root, "kernel")) ||
                json_is_array(json_object_get(root, "launches")));
    json_decref(root);
    return yes;
}

static int cmp_paths(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every manifest below `dir` (recursively), sorted. */
static void collect_manifests(const char *dir, GPtrArray *out)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return;
    const char *name;
    while ((name = g_dir_read_name(d))) {
        char *path = g_build_filename(dir, name, NULL);
        if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
            collect_manifests(path, out);
            g_free(path);
        } else if (g_str_has_suffix(name, ".json") && json_file_is_manifest(path)) {
            g_ptr_array_add(out, path);
        } else {
            g_free(path);
        }
    }
    g_dir_close(d);
}

static GPtrArray *all_manifests(void)
{
    GPtrArray *list = g_ptr_array_new_with_free_func(g_free);
    collect_manifests(SOURCE_ROOT "/traces", list);
    g_ptr_array_sort(list, cmp_paths);
    return list;
}

/* Workload folders: those directly holding at least one manifest. */
static GPtrArray *workload_dirs(void)
{
    GPtrArray *manifests = all_manifests();
    GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < manifests->len; i++) {
        char *dir = g_path_get_dirname(manifests->pdata[i]);
        if (dirs->len && strcmp(dirs->pdata[dirs->len - 1], dir) == 0)
            g_free(dir);
        else
            g_ptr_array_add(dirs, dir);
    }
    g_ptr_array_unref(manifests);
    return dirs;
}

/* ------------------------------------------------------ running */

/* Run argv (under coreutils `timeout` when available); on failure append a
 * line to `failures` and return false. */
static bool spawn_ok(const char *const *argv, const char *what, GString *failures)
{
    GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
    char *timeout_bin = g_find_program_in_path("timeout");
    if (timeout_bin) {
        g_ptr_array_add(args, timeout_bin);
        g_ptr_array_add(args, run_timeout_arg());
    }
    for (const char *const *a = argv; *a; a++)
        g_ptr_array_add(args, g_strdup(*a));
    g_ptr_array_add(args, NULL);
    char *out = NULL, *err = NULL;
    int status = 0;
    GError *error = NULL;
    bool ok = g_spawn_sync(NULL, (char **)args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                           &out, &err, &status, &error) &&
              g_spawn_check_wait_status(status, &error);
    if (!ok) {
        char *tail = err ? g_strndup(err, 600) : g_strdup("");
        g_string_append_printf(failures, "%s: %s\n  stderr: %s\n", what, error->message,
                               g_strstrip(tail));
        g_free(tail);
        g_error_free(error);
    }
    g_free(out);
    g_free(err);
    g_ptr_array_unref(args);
    return ok;
}

/* Run one manifest, with `threads` host threads unless NULL, functionally
 * only if `functional`; returns the parsed report, or NULL after appending
 * the reason to `failures`. */
static json_t *run_warpsim_mode(const char *manifest, const char *threads, bool functional,
                                GString *failures)
{
    char *tmpdir = g_dir_make_tmp("warpsim-workload-XXXXXX", NULL);
    char *report_path = g_build_filename(tmpdir, "report.json", NULL);
    /* 5 fixed, 3 optional, and the NULL after them */
    const char *argv[9] = {WARPSIM_BIN, "run", manifest, "--json", report_path};
    int argc = 5;
    if (functional)
        argv[argc++] = "--functional";
    if (threads) {
        argv[argc++] = "--threads";
        argv[argc++] = threads;
    }
    argv[argc] = NULL;
    json_t *report = NULL;
    if (spawn_ok(argv, manifest, failures)) {
        json_error_t jerr;
        report = json_load_file(report_path, 0, &jerr);
        if (!report)
            g_string_append_printf(failures, "%s: report unreadable: %s\n", manifest,
                                   jerr.text);
    }
    g_unlink(report_path);
    g_rmdir(tmpdir);
    g_free(report_path);
    g_free(tmpdir);
    return report;
}

static json_t *run_warpsim_on(const char *manifest, const char *threads, GString *failures)
{
    return run_warpsim_mode(manifest, threads, false, failures);
}

static json_t *run_warpsim(const char *manifest, GString *failures)
{
    return run_warpsim_on(manifest, NULL, failures);
}

/* The manifest asks to be run functionally only ("_test_functional"). */
static bool manifest_wants_functional(const char *path)
{
    json_t *root = json_load_file(path, 0, NULL);
    bool yes = json_is_object(root) && json_object_get(root, "_test_functional") != NULL;
    json_decref(root);
    return yes;
}

/* Every check of every launch is "pass", and there is at least one. */
static bool report_checks_pass(const char *manifest, const json_t *report, GString *failures)
{
    const json_t *launches = json_object_get(report, "launches");
    if (!json_is_array(launches) || json_array_size(launches) == 0) {
        g_string_append_printf(failures, "%s: report has no launches\n", manifest);
        return false;
    }
    size_t nchecks = 0;
    bool ok = true;
    for (size_t i = 0; i < json_array_size(launches); i++) {
        const json_t *checks = json_object_get(json_array_get(launches, i), "checks");
        const char *buf;
        const json_t *verdict;
        json_object_foreach((json_t *)checks, buf, verdict) {
            nchecks++;
            if (!json_is_string(verdict) || strcmp(json_string_value(verdict), "pass") != 0) {
                char *v = json_dumps(verdict, JSON_ENCODE_ANY);
                g_string_append_printf(failures, "%s: check '%s' is %s\n", manifest, buf,
                                       v ? v : "?");
                free(v);
                ok = false;
            }
        }
    }
    if (nchecks == 0) {
        g_string_append_printf(failures, "%s: report holds no checks\n", manifest);
        ok = false;
    }
    return ok;
}

START_TEST(every_manifest_runs_and_passes)
{
    GPtrArray *manifests = all_manifests();
    ck_assert_uint_ge(manifests->len, 20);
    GString *failures = g_string_new(NULL);
    unsigned failed = 0;
    for (guint i = 0; i < manifests->len; i++) {
        const char *m = manifests->pdata[i];
        json_t *report = run_warpsim_mode(m, NULL, manifest_wants_functional(m), failures);
        if (!report || !report_checks_pass(m, report, failures))
            failed++;
        json_decref(report);
    }
    if (failed)
        fprintf(stderr, "%u of %u manifests failed:\n%s", failed, manifests->len,
                failures->str);
    ck_assert_msg(failed == 0, "%u of %u manifests failed (listed on stderr)", failed,
                  manifests->len);
    g_string_free(failures, TRUE);
    g_ptr_array_unref(manifests);
}
END_TEST

/* ------------------------------------------------------ host reference */

static bool files_equal(const char *a, const char *b)
{
    gchar *da = NULL, *db = NULL;
    gsize la = 0, lb = 0;
    bool eq = g_file_get_contents(a, &da, &la, NULL) && g_file_get_contents(b, &db, &lb, NULL) &&
              la == lb && memcmp(da, db, la) == 0;
    g_free(da);
    g_free(db);
    return eq;
}

static void remove_tree(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, name, NULL);
        g_unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
}

/* The number of sha256 expectations in the manifests directly in `dir`. */
static unsigned sha256_expectations(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    unsigned n = 0;
    while (d && (name = g_dir_read_name(d))) {
        if (!g_str_has_suffix(name, ".json"))
            continue;
        char *path = g_build_filename(dir, name, NULL);
        json_t *root = json_load_file(path, 0, NULL);
        const char *buf;
        json_t *spec;
        json_object_foreach(json_object_get(root, "expect"), buf, spec)
            n += json_is_string(json_object_get(spec, "sha256"));
        json_decref(root);
        g_free(path);
    }
    if (d)
        g_dir_close(d);
    return n;
}

/* Regenerate one workload; compare both ways: every regenerated file equals
 * the committed one, and every committed *.expected.bin was regenerated. */
static bool reference_matches(const char *dir, GString *failures)
{
    char *tmp = g_dir_make_tmp("warpsim-ref-XXXXXX", NULL);
    const char *argv[] = {HOST_REF_BIN, dir, tmp, NULL};
    bool ok = spawn_ok(argv, dir, failures);
    unsigned produced = 0;
    GDir *d = ok ? g_dir_open(tmp, 0, NULL) : NULL;
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *fresh = g_build_filename(tmp, name, NULL);
        char *committed = g_build_filename(dir, name, NULL);
        produced++;
        if (!files_equal(fresh, committed)) {
            g_string_append_printf(failures, "%s: %s differs from the regenerated file\n",
                                   dir, name);
            ok = false;
        }
        g_free(fresh);
        g_free(committed);
    }
    if (d)
        g_dir_close(d);
    GDir *src = ok ? g_dir_open(dir, 0, NULL) : NULL;
    while (src && (name = g_dir_read_name(src))) {
        char *fresh = g_build_filename(tmp, name, NULL);
        if (g_str_has_suffix(name, ".expected.bin") && !g_file_test(fresh, G_FILE_TEST_EXISTS)) {
            g_string_append_printf(failures, "%s: %s is not produced by any manifest\n", dir,
                                   name);
            ok = false;
        }
        g_free(fresh);
    }
    if (src)
        g_dir_close(src);
    /* Outputs too large to commit are expected by sha256, which
     * host_reference checks itself (a mismatch fails the spawn above). */
    if (ok && produced == 0 && sha256_expectations(dir) == 0) {
        g_string_append_printf(failures, "%s: host_reference wrote and checked nothing\n",
                               dir);
        ok = false;
    }
    remove_tree(tmp);
    g_free(tmp);
    return ok;
}

START_TEST(host_reference_reproduces_expected_files)
{
    GPtrArray *dirs = workload_dirs();
    ck_assert_uint_ge(dirs->len, 10);
    GString *failures = g_string_new(NULL);
    unsigned failed = 0;
    for (guint i = 0; i < dirs->len; i++)
        failed += !reference_matches(dirs->pdata[i], failures);
    ck_assert_msg(failed == 0, "%u workloads not reproducible:\n%s", failed, failures->str);
    g_string_free(failures, TRUE);
    g_ptr_array_unref(dirs);
}
END_TEST

/* ------------------------------------------------------ divergence maps */

typedef struct {
    double max_tau, max_delta, sum_delta;
    unsigned entries;
    bool delta_exceeds_tau;
} DivSummary;

/* Summarise launches[0]'s divergence map over the blocks of `function`. */
static bool divergence_summary(const char *rel_manifest, const char *function,
                               DivSummary *s, GString *failures)
{
    char *manifest = g_build_filename(SOURCE_ROOT, rel_manifest, NULL);
    json_t *report = run_warpsim(manifest, failures);
    memset(s, 0, sizeof *s);
    bool ok = report != NULL;
    const json_t *map = NULL;
    if (ok) {
        const json_t *launch0 = json_array_get(json_object_get(report, "launches"), 0);
        map = json_object_get(json_object_get(launch0, "metrics"), "warpsim__divergence_map");
        if (!json_is_array(map)) {
            g_string_append_printf(failures, "%s: no warpsim__divergence_map array\n",
                                   rel_manifest);
            ok = false;
        }
    }
    for (size_t i = 0; ok && i < json_array_size(map); i++) {
        const json_t *e = json_array_get(map, i);
        const char *fn = json_string_value(json_object_get(e, "function"));
        const json_t *tau = json_object_get(e, "tau"), *delta = json_object_get(e, "delta");
        if (!json_is_number(tau) || !json_is_number(delta)) {
            g_string_append_printf(failures, "%s: map entry %zu lacks tau/delta\n",
                                   rel_manifest, i);
            ok = false;
            break;
        }
        if (fn && strcmp(fn, function) != 0)
            continue;
        double t = json_number_value(tau), d = json_number_value(delta);
        s->entries++;
        s->max_tau = MAX(s->max_tau, t);
        s->max_delta = MAX(s->max_delta, d);
        s->sum_delta += d;
        s->delta_exceeds_tau |= d > t;
    }
    if (ok && s->entries == 0) {
        g_string_append_printf(failures, "%s: divergence map has no block of %s\n",
                               rel_manifest, function);
        ok = false;
    }
    json_decref(report);
    g_free(manifest);
    return ok;
}

/* dec2zero runs 200 warps (25 blocks x 256 threads over 6400 elements). */
#define DEC2ZERO_WARPS 200

START_TEST(dec2zero_divergence_follows_the_input)
{
    /* inc: 32 consecutive counts per warp; alt: 0 and 6400 alternate, so
     * half of every warp skips the loop; random: arbitrary counts.  All
     * make every warp split at least once.  cons (3200 everywhere) and
     * half (0 for warps 0-99, 6400 for warps 100-199) are warp-uniform: no
     * warp ever splits. */
    static const struct {
        const char *manifest;
        bool diverges;
    } cases[] = {
        {"traces/dec2zero/inc.json", true},   {"traces/dec2zero/cons.json", false},
        {"traces/dec2zero/alt.json", true},   {"traces/dec2zero/random.json", true},
        {"traces/dec2zero/half.json", false},
    };
    GString *failures = g_string_new(NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        DivSummary s;
        const char *m = cases[i].manifest;
        if (!divergence_summary(m, "dec2zero", &s, failures))
            continue;
        if (s.max_tau < DEC2ZERO_WARPS)
            g_string_append_printf(failures, "%s: no block visited by all %d warps (max tau %g)\n",
                                   m, DEC2ZERO_WARPS, s.max_tau);
        if (s.delta_exceeds_tau)
            g_string_append_printf(failures, "%s: a block has delta > tau\n", m);
        if (cases[i].diverges && s.sum_delta < DEC2ZERO_WARPS)
            g_string_append_printf(failures,
                                   "%s: every warp diverges, yet total delta is %g (< %d)\n", m,
                                   s.sum_delta, DEC2ZERO_WARPS);
        if (!cases[i].diverges && s.max_delta != 0)
            g_string_append_printf(failures, "%s: warp-uniform input, yet max delta is %g\n", m,
                                   s.max_delta);
    }
    ck_assert_msg(failures->len == 0, "%s", failures->str);
    g_string_free(failures, TRUE);
}
END_TEST

START_TEST(seed004_divergence_only_when_lane0_branches)
{
    /* 16 blocks x 2 warps: in `divergence` lane 0 of all 32 warps takes the
     * other branch; in `noDivergence` the branch follows warp boundaries. */
    GString *failures = g_string_new(NULL);
    DivSummary s;
    if (divergence_summary("traces/divergence/divergence.json", "divergence", &s, failures) &&
        (s.sum_delta < 32 || s.delta_exceeds_tau))
        g_string_append_printf(failures, "divergence: total delta %g, expected >= 32\n",
                               s.sum_delta);
    if (divergence_summary("traces/divergence/no_divergence.json", "noDivergence", &s,
                           failures) &&
        (s.max_delta != 0 || s.max_tau < 32))
        g_string_append_printf(failures, "noDivergence: max delta %g (want 0), max tau %g\n",
                               s.max_delta, s.max_tau);
    ck_assert_msg(failures->len == 0, "%s", failures->str);
    g_string_free(failures, TRUE);
}
END_TEST

/* Runs `manifest` on 1 host thread and then on each of `threads`, and
 * notes in `failures` every launch whose metrics differ from 1 thread's. */
static void check_same_on_threads(const char *manifest, bool functional, const char *const *threads, size_t nthreads,
                                  GString *failures)
{
    char *path = g_build_filename(SOURCE_ROOT, manifest, NULL);
    json_t *one = run_warpsim_mode(path, "1", functional, failures);
    for (size_t k = 0; one && k < nthreads; k++) {
        json_t *more = run_warpsim_mode(path, threads[k], functional, failures);
        const json_t *a = json_object_get(one, "launches"), *b = more ? json_object_get(more, "launches") : NULL;
        for (size_t l = 0; b && l < json_array_size(a); l++)
            if (!json_equal(json_object_get(json_array_get(a, l), "metrics"),
                            json_object_get(json_array_get(b, l), "metrics")))
                g_string_append_printf(failures, "%s%s: launch %zu: metrics on %s host threads differ from 1's\n",
                                       manifest, functional ? " (functional)" : "", l, threads[k]);
        if (b && json_array_size(a) != json_array_size(b))
            g_string_append_printf(failures, "%s: %zu launches on 1 host thread, %zu on %s\n", manifest,
                                   json_array_size(a), json_array_size(b), threads[k]);
        json_decref(more);
    }
    json_decref(one);
    g_free(path);
}

START_TEST(multi_wave_grids_match_across_host_threads)
{
    /* CTAs that retire in one cycle on SMs of different threads, whose
     * replacements any thread may set up (each in its turn) */
    static const char *const manifests[] = {
        "traces/more_kernels/conv1d.json",
        "traces/more_kernels/gather.json",
        "traces/stencil/sweep/base_r1_x384.json",
    };
    static const char *const threads[] = {"2", "3", "2"};
    GString *failures = g_string_new(NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(manifests); i++)
        check_same_on_threads(manifests[i], false, threads, G_N_ELEMENTS(threads), failures);
    ck_assert_msg(failures->len == 0, "%s", failures->str);
    g_string_free(failures, TRUE);
}
END_TEST

/* bfs: threads test `cost[u] == 0` for costs other CTAs of the launch set,
 * plain loads and stores racing; which CTA gets there first decides the
 * counts, so such CTAs keep one order however many host threads run them
 * (cta_overlap.h).  Several runs, as a race shows only now and then. */
START_TEST(racing_ctas_match_across_host_threads)
{
    static const char *const threads[] = {"2", "3", "2", "2"};
    GString *failures = g_string_new(NULL);
    check_same_on_threads("tests/manifests/bfs_small.json", false, threads, G_N_ELEMENTS(threads), failures);
    check_same_on_threads("tests/manifests/bfs_small.json", true, threads, 2, failures);
    ck_assert_msg(failures->len == 0, "%s", failures->str);
    g_string_free(failures, TRUE);
}
END_TEST

/* `exec` writes its report when the program exits, with the program's
 * status: a report it cannot write is refused before the program runs
 * (else the run would end in 0 and no report). */
START_TEST(exec_refuses_a_report_it_cannot_write)
{
    const char *argv[] = {WARPSIM_BIN, "exec", "--json", "/nonexistent-dir/r.json", "/bin/sh", "-c", "exit 0", NULL};
    char *err = NULL;
    int status = 0;
    ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, NULL));
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2 && strstr(err, "cannot write the report"),
                  "status %d, stderr %s", status, err);
    g_free(err);
}
END_TEST

/* Options the run would ignore or that its messages call invalid are
 * refused (exit 2, the option named), not silently dropped: under
 * --functional a runaway kernel would never reach --max-cycles. */
START_TEST(run_refuses_options_it_would_ignore)
{
    static const struct {
        const char *args[5];
        const char *says;
    } cases[] = {
        {{"--functional", "--max-cycles", "1000", NULL}, "--max-cycles needs the timing model"},
        {{"--functional", "--sample-waves", "3", NULL}, "--sample-waves needs the timing model"},
        {{"--threads", "0", NULL}, "--threads must be between 1 and 1024"},
        {{"--max-instructions", "0", NULL}, "must be positive"},
        {{"--max-cycles", "0", NULL}, "must be positive"},
        {{"--sample-waves", "0", NULL}, "needs at least 2 waves"},
        {{"--timeline", "/dev/null", "--timeline-limit", "0"}, "--timeline-limit takes a positive N"},
        /* outputs that cannot be written are said before the run, not after */
        {{"--json", "/nonexistent-dir/r.json", NULL}, "/nonexistent-dir/r.json: error: cannot write the report"},
        {{"--html", "/nonexistent-dir/r.html", NULL}, "cannot write the HTML report"},
        {{"--json", "/", NULL}, "cannot write the report: Is a directory"},
    };
    char *manifest = g_build_filename(SOURCE_ROOT, "traces", "saxpy", "launch.json", NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        GPtrArray *argv = g_ptr_array_new();
        g_ptr_array_add(argv, (char *)WARPSIM_BIN);
        g_ptr_array_add(argv, (char *)"run");
        g_ptr_array_add(argv, manifest);
        g_ptr_array_add(argv, (char *)"-q");
        for (const char *const *a = cases[i].args; *a; a++)
            g_ptr_array_add(argv, (char *)*a);
        g_ptr_array_add(argv, NULL);
        char *err = NULL;
        int status = 0;
        ck_assert(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err,
                               &status, NULL));
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2 && strstr(err, cases[i].says),
                      "%s %s: status %d, stderr %s", cases[i].args[0], cases[i].args[1], status, err);
        g_free(err);
        g_ptr_array_free(argv, TRUE);
    }
    g_free(manifest);
}
END_TEST

static Suite *workloads_suite(void)
{
    Suite *s = suite_create("workloads");
    TCase *ref = tcase_create("host_reference");
    tcase_set_timeout(ref, 600);
    tcase_add_test(ref, host_reference_reproduces_expected_files);
    suite_add_tcase(s, ref);
    TCase *run = tcase_create("warpsim_run");
    tcase_set_timeout(run, 600);
    tcase_add_test(run, every_manifest_runs_and_passes);
    tcase_add_test(run, dec2zero_divergence_follows_the_input);
    tcase_add_test(run, seed004_divergence_only_when_lane0_branches);
    tcase_add_test(run, multi_wave_grids_match_across_host_threads);
    tcase_add_test(run, racing_ctas_match_across_host_threads);
    tcase_add_test(run, run_refuses_options_it_would_ignore);
    tcase_add_test(run, exec_refuses_a_report_it_cannot_write);
    suite_add_tcase(s, run);
    return s;
}

int main(void)
{
    return tu_run_suite(workloads_suite());
}
