/* cmd_trace.c — `warpsim trace`: run a manifest and print one warp's
 * instructions as they issue (trace.h; docs/trace.md).
 */
#include <glib.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "commands.h"
#include "errors.h"
#include "manifest.h"
#include "schedule.h"
#include "trace.h"


/* "N,N,..." of at most max unsigned numbers below limit. */
static bool parse_list(const char *text, const char *what, uint32_t *out, uint32_t max, uint32_t *n,
                       uint64_t limit, GError **error)
{
    char **parts = g_strsplit(text, ",", -1);
    bool ok = true;
    *n = 0;
    for (char **p = parts; *p && ok; p++) {
        guint64 v = 0;
        char *s = g_strstrip(*p);
        if (*n == max || !g_ascii_string_to_unsigned(s, 10, 0, limit - 1, &v, NULL)) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "trace: --%s '%s': expected at most %u numbers "
                        "below %" G_GUINT64_FORMAT " separated by commas", what, text, max, limit);
            ok = false;
            break;
        }
        out[(*n)++] = (uint32_t)v;
    }
    if (ok && *n == 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "trace: --%s needs a value", what);
        ok = false;
    }
    g_strfreev(parts);
    return ok;
}

int cmd_trace(int argc, char **argv, GError **error)
{
    char *config = NULL, *block = NULL, *lanes = NULL;
    gint warp = -1, launch = 0;
    gboolean functional = FALSE, step = FALSE, json = FALSE;
    char *issue_order = NULL;
    bool ptx_order = false;
    GOptionEntry entries[] = {
        {"block", 'b', 0, G_OPTION_ARG_STRING, &block, "The CTA: x or x,y,z (default 0)", "B"},
        {"warp", 'w', 0, G_OPTION_ARG_INT, &warp, "Warp index within the CTA (required)", "W"},
        {"launch", 'l', 0, G_OPTION_ARG_INT, &launch,
         "Which kernel launch of the manifest, from 0 (repetitions count; default 0)", "N"},
        {"config", 'c', 0, G_OPTION_ARG_STRING, &config, "GPU configuration name or JSON file (default h200)",
         "NAME|FILE"},
        {"functional", 'f', 0, G_OPTION_ARG_NONE, &functional, "Functional run: issue numbers instead of cycles",
         NULL},
        {"lanes", 0, 0, G_OPTION_ARG_STRING, &lanes,
         "Also print these lanes' values of the registers each instruction reads and writes", "L1,L2,..."},
        {"step", 's', 0, G_OPTION_ARG_NONE, &step,
         "Wait for a command after each instruction (Enter, c, q, r REG, s; from stdin)", NULL},
        {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print JSON Lines instead of text", NULL},
        {"issue-order", 0, 0, G_OPTION_ARG_STRING, &issue_order, ISSUE_ORDER_HELP, "scheduled|ptx"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("MANIFEST --warp W - print one warp's instructions as they issue");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int status = 2;
    Manifest *mf = NULL;
    GpuConfig *gpu = NULL;
    Trace *trace = NULL;
    json_t *report = NULL;
    uint32_t lane_list[WARP_SIZE], nlanes = 0, ctaid[3] = {0, 0, 0}, nid = 1;
    if (!command_parse_options(ctx, &argc, &argv, error) ||
        !schedule_parse_order(issue_order, "--issue-order", &ptx_order, error))
        goto out;
    if (argc != 2) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "trace: expected one MANIFEST argument (see warpsim trace --help)");
        goto out;
    }
    if (warp < 0 || launch < 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    warp < 0 ? "trace: --warp W is required (a warp index within the block, from 0)"
                             : "trace: --launch must be 0 or more");
        goto out;
    }
    if (block && !parse_list(block, "block", ctaid, 3, &nid, (uint64_t)UINT32_MAX + 1, error))
        goto out;
    if (lanes && !parse_list(lanes, "lanes", lane_list, WARP_SIZE, &nlanes, WARP_SIZE, error))
        goto out;
    gpu = config_load(config ? config : CONFIG_DEFAULT_NAME, NULL, error);
    if (!gpu)
        goto out;
    mf = manifest_load(argv[1], error);
    if (!mf)
        goto out;
    TraceOptions topt = {
        .block = {ctaid[0], ctaid[1], ctaid[2]}, .warp = (uint32_t)warp, .launch = (uint32_t)launch,
        .lanes = lane_list, .nlanes = nlanes, .timing = !functional, .config_name = gpu->name,
        .json = json, .step = step, .prompt = step && isatty(STDIN_FILENO) ? stderr : NULL,
    };
    trace = trace_new(&topt, error);
    if (!trace)
        goto out;
    /* one host thread, every CTA timed: the trace sees the run the report describes */
    RunOptions opt = {.config = gpu, .functional = functional, .config_name = gpu->name, .threads = 1,
                      .ptx_order = ptx_order, .observer = trace_observer(trace)};
    guint failed = 0;
    GError *run_error = NULL;
    gboolean ran = manifest_run(mf, &opt, &report, &failed, &run_error);
    fflush(stdout);
    if (!ran && trace_quit(trace)) {
        g_clear_error(&run_error);
        status = 0;
        goto out;
    }
    if (!ran) {
        g_propagate_error(error, run_error);
        goto out;
    }
    if (trace_count(trace) == 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    "%s: error: warp %d of block (%u,%u,%u) in launch %d executed no instruction: the manifest has "
                    "no such launch, block or warp",
                    argv[1], warp, ctaid[0], ctaid[1], ctaid[2], launch);
        goto out;
    }
    if (failed) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_CHECK, "%s: error: %u expectation%s failed", argv[1], failed,
                    failed == 1 ? "" : "s");
        goto out;
    }
    status = 0;
out:
    json_decref(report);
    trace_free(trace);
    manifest_free(mf);
    config_free(gpu);
    g_option_context_free(ctx);
    g_free(config);
    g_free(issue_order);
    g_free(block);
    g_free(lanes);
    return status;
}
