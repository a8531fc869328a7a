/* cmd_compare.c — `warpsim compare`: run two versions of a workload on the
 * same inputs and report how their outputs and metrics differ.
 *
 *   warpsim compare MANIFEST --ptx A.ptx --ptx B.ptx   (one --ptx: A is the manifest's own PTX)
 *   warpsim compare A.json B.json
 *
 * Exit status: 0 when the outputs agree and no --fail-if rule trips, 1 when
 * they differ, a rule trips or a kernel faults, 2 for bad usage or input.
 * The comparison itself is compare.c's; docs/compare.md defines the output.
 */
#include <glib.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "config.h"
#include "commands.h"
#include "errors.h"
#include "launch.h"
#include "manifest.h"
#include "schedule.h"

#define DEFAULT_SHOWN 5


typedef struct {
    char *label;
    Manifest *manifest;       /* borrowed */
    const char *ptx;          /* NULL: the manifest's own */
    json_t *report;
    GPtrArray *buffers;
    char *expect_note;        /* a failed `expect` of the manifest: noted, not fatal */
} Version;

static void version_clear(Version *v)
{
    g_free(v->label);
    json_decref(v->report);
    if (v->buffers)
        g_ptr_array_free(v->buffers, TRUE);
    g_free(v->expect_note);
}

/* A failed `expect` is the manifest's verdict on one version; compare's is
 * A against B, so it is reported and the comparison goes on. */
static bool run_version(Version *v, const char *which, const RunOptions *opt, GError **error)
{
    GError *local = NULL;
    guint failed = 0;
    if (manifest_run_capture(v->manifest, opt, v->ptx, &v->buffers, &v->report, &failed, &local))
        return true;
    if (local->code == WS_ERR_CHECK && v->report && v->buffers) {
        v->expect_note = g_strdup(local->message);
        g_error_free(local);
        return true;
    }
    g_propagate_prefixed_error(error, local, "%s (%s): ", which, v->label);
    return false;
}

static bool valid_tolerance(double x)
{
    return isfinite(x) && x >= 0;
}

int cmd_compare(int argc, char **argv, GError **error)
{
    char *config = NULL, *json_path = NULL;
    char **overrides = NULL, **ptx = NULL, **rule_texts = NULL;
    gint threads = 0, shown = DEFAULT_SHOWN;
    gdouble rtol = 0, atol = 0;
    gboolean functional = FALSE, quiet = FALSE;
    char *issue_order = NULL;
    bool ptx_order = false;
    char *metric_names = compare_metric_names();
    char *fail_help = g_strdup_printf("Exit 1 when a rule holds for some launch: 'outputs', or METRIC OP [+|-]N[%%] "
                                      "with OP one of > >= < <= on B-A (or on the change in %%), e.g. cycles>+2%%, "
                                      "dram_bytes>+0, ipc<-5%%; METRIC: %s, or any metric key of the report "
                                      "(repeatable)", metric_names);
    GOptionEntry entries[] = {
        {"ptx", 'p', 0, G_OPTION_ARG_FILENAME_ARRAY, &ptx,
         "With one MANIFEST: the PTX of version A, then of version B (one --ptx: A is the manifest's own PTX)", "FILE"},
        {"config", 'c', 0, G_OPTION_ARG_STRING, &config, "GPU configuration name or JSON file (default h200)", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &overrides, "Override one configuration key (repeatable)", "KEY=VALUE"},
        {"functional", 'f', 0, G_OPTION_ARG_NONE, &functional, "Functional runs only: outputs and counts, no timing model",
         NULL},
        {"threads", 't', 0, G_OPTION_ARG_INT, &threads,
         "Host threads simulating each launch (default: the cores this process may use); results never depend on it", "N"},
        {"issue-order", 0, 0, G_OPTION_ARG_STRING, &issue_order, ISSUE_ORDER_HELP, "scheduled|ptx"},
        {"json", 'j', 0, G_OPTION_ARG_FILENAME, &json_path, "Write the comparison as JSON to FILE", "FILE"},
        {"rtol", 0, 0, G_OPTION_ARG_DOUBLE, &rtol, "Float elements agree when |B-A| <= atol + rtol*|A| (default 0)", "R"},
        {"atol", 0, 0, G_OPTION_ARG_DOUBLE, &atol, "Absolute tolerance for floats (default 0)", "A"},
        {"show", 0, 0, G_OPTION_ARG_INT, &shown, "Differing elements listed per buffer (default 5)", "N"},
        {"fail-if", 0, 0, G_OPTION_ARG_STRING_ARRAY, &rule_texts, fail_help, "RULE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only the verdict line and tripped rules", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new(
        "MANIFEST --ptx A.ptx --ptx B.ptx | A.json B.json - compare two versions of a workload: outputs and metrics");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int status = 2;
    GpuConfig *gpu = NULL;
    Manifest *manifests[2] = {NULL, NULL};
    Version ver[2] = {{0}, {0}};
    GPtrArray *rules = g_ptr_array_new_with_free_func((GDestroyNotify)compare_rule_free);
    json_t *cmp = NULL;
    guint nptx = ptx ? g_strv_length(ptx) : 0;

    if (!command_parse_options(ctx, &argc, &argv, error) ||
        !schedule_parse_order(issue_order, "--issue-order", &ptx_order, error))
        goto out;
    nptx = ptx ? g_strv_length(ptx) : 0;
    if (argc == 2 && (nptx < 1 || nptx > 2)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    "compare: with one MANIFEST give --ptx B.ptx or --ptx A.ptx --ptx B.ptx (see warpsim compare --help)");
        goto out;
    }
    if (argc == 3 && nptx) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "compare: --ptx goes with one MANIFEST, not with two");
        goto out;
    }
    if (argc != 2 && argc != 3) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    "compare: expected MANIFEST --ptx A.ptx --ptx B.ptx, or A.json B.json (see warpsim compare --help)");
        goto out;
    }
    if (!valid_tolerance(rtol) || !valid_tolerance(atol) || shown < 0 || threads < 0 || threads > 1024) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    "compare: --rtol and --atol must be finite and not negative, --show not negative, "
                    "--threads between 1 and 1024");
        goto out;
    }
    for (char **t = rule_texts; t && *t; t++) {
        CompareRule *r = compare_rule_parse(*t, error);
        if (!r)
            goto out;
        g_ptr_array_add(rules, r);
    }
    gpu = config_load(config ? config : CONFIG_DEFAULT_NAME, (const char *const *)overrides, error);
    if (!gpu)
        goto out;
    for (int i = 0; i + 1 < argc; i++)
        if (!(manifests[i] = manifest_load(argv[i + 1], error)))
            goto out;
    for (int s = 0; s < 2; s++) {
        Version *v = &ver[s];
        if (argc == 3) {
            v->manifest = manifests[s];
            v->label = g_strdup(argv[s + 1]);
        } else {
            v->manifest = manifests[0];
            v->ptx = nptx == 2 ? ptx[s] : s == 1 ? ptx[0] : NULL;
            v->label = v->ptx ? g_strdup_printf("%s with %s", argv[1], v->ptx)
                              : g_strdup_printf("%s (its own PTX)", argv[1]);
        }
    }
    RunOptions opt = {.config = gpu, .functional = functional, .config_name = gpu->name,
                      .threads = threads ? (uint32_t)threads : launch_host_cores(), .ptx_order = ptx_order};
    if (!run_version(&ver[0], "A", &opt, error) || !run_version(&ver[1], "B", &opt, error))
        goto out;

    CompareRun runs[2];
    for (int s = 0; s < 2; s++)
        runs[s] = (CompareRun){.report = ver[s].report, .buffers = ver[s].buffers, .label = ver[s].label};
    CompareOptions copt = {.rtol = rtol, .atol = atol, .max_shown = (unsigned)shown};
    cmp = compare_runs(&runs[0], &runs[1], &copt, error);
    if (!cmp)
        goto out;

    bool any_tripped = false;
    json_t *rule_results = json_array();
    json_object_set_new(cmp, "fail_if", rule_results);
    for (guint i = 0; i < rules->len; i++) {
        bool tripped;
        json_t *res;
        if (!compare_rule_eval(g_ptr_array_index(rules, i), cmp, &tripped, &res, error))
            goto out;
        json_array_append_new(rule_results, res);
        any_tripped = any_tripped || tripped;
    }
    json_t *notes = json_array();
    for (int s = 0; s < 2; s++)
        if (ver[s].expect_note)
            json_array_append_new(notes, json_sprintf("%c: the manifest's expectations failed: %s", s ? 'B' : 'A',
                                                      ver[s].expect_note));
    json_object_set_new(cmp, "notes", notes);
    bool equal = compare_outputs_equal(cmp);
    status = equal && !any_tripped ? 0 : 1;
    json_object_set_new(cmp, "exit_status", json_integer(status));

    if (quiet)
        printf("verdict: %s\n", json_string_value(json_object_get(cmp, "verdict")));
    else
        compare_print(stdout, cmp);
    size_t k;
    json_t *r;
    json_array_foreach(rule_results, k, r) {
        if (!json_is_true(json_object_get(r, "tripped")))
            continue;
        printf("fail-if %s: tripped", json_string_value(json_object_get(r, "rule")));
        size_t j;
        json_t *hit;
        json_array_foreach(json_object_get(r, "launches"), j, hit) {
            json_t *c = json_object_get(hit, "change");
            printf("%s launch %" JSON_INTEGER_FORMAT " (%g -> %g, change ", j ? ";" : ":",
                   json_integer_value(json_object_get(hit, "launch")), json_number_value(json_object_get(hit, "a")),
                   json_number_value(json_object_get(hit, "b")));
            const char *unit = json_is_true(json_object_get(r, "percent")) ? "%" : "";
            if (json_is_string(c))
                printf("%s%s)", json_string_value(c), unit);
            else
                printf("%+g%s)", json_number_value(c), unit);
        }
        printf("\n");
    }
    json_t *note;
    json_array_foreach(notes, k, note)
        fprintf(stderr, "note: %s\n", json_string_value(note));
    if (json_path && json_dump_file(cmp, json_path, JSON_INDENT(1) | JSON_SORT_KEYS) != 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: cannot write the comparison", json_path);
        status = 2;
    }
out:
    json_decref(cmp);
    for (int s = 0; s < 2; s++) {
        version_clear(&ver[s]);
        manifest_free(manifests[s]);
    }
    g_ptr_array_free(rules, TRUE);
    config_free(gpu);
    g_strfreev(overrides);
    g_strfreev(ptx);
    g_strfreev(rule_texts);
    g_option_context_free(ctx);
    g_free(config);
    g_free(issue_order);
    g_free(json_path);
    g_free(metric_names);
    g_free(fail_help);
    return status;
}
