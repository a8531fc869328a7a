/* main.c — the `warpsim` command: option parsing, dispatch to the library,
 * and the one place where errors are printed and turned into exit statuses
 * (0 success, 1 kernel fault or failed expectation, 2 bad usage or input).
 */
#include <glib.h>
#include <jansson.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "commands.h"
#include "errors.h"
#include "fileio.h"
#include "isa.h"
#include "manifest.h"
#include "occupancy.h"
#include "ptx_parser.h"
#include "report.h"
#include "schedule.h"
#include "html_report.h"
#include "timeline.h"

typedef int (*CommandFn)(int argc, char **argv, GError **error);

typedef struct {
    const char *name;
    CommandFn fn;
    const char *args;
    const char *summary;
} Command;

bool command_parse_options(GOptionContext *ctx, int *argc, char ***argv, GError **error)
{
    GError *local = NULL;
    bool ok = g_option_context_parse(ctx, argc, argv, &local);
    if (!ok) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "%s", local->message);
        g_error_free(local);
    }
    return ok;
}

/* ------------------------------------------------------------------ */

/* --max-instructions and --max-cycles of `command`: -1 when not given,
 * else positive. */
static bool budgets_given_right(const char *command, gint64 max_insts, gint64 max_cycles, GError **error)
{
    if (max_insts == 0 || max_insts < -1 || max_cycles == 0 || max_cycles < -1) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "%s: --max-instructions and --max-cycles must be positive",
                    command);
        return false;
    }
    return true;
}

static int cmd_run(int argc, char **argv, GError **error)
{
    char *config = NULL, *json_path = NULL, *dump_dir = NULL;
    char **overrides = NULL;
    /* -1: not given (0 is refused, as the messages below say) */
    gint64 max_insts = -1, max_cycles = -1;
    gint threads = -1, sample_waves = -1;
    gboolean quiet = FALSE, functional = FALSE, racecheck = FALSE, initcheck = FALSE, keep_going = FALSE;
    gboolean lockstep = FALSE;
    char *issue_order = NULL;
    GpuConfig *gpu = NULL;
    char *timeline_path = NULL, *html_path = NULL; /* docs/timeline.md, docs/html-report.md */
    gint64 timeline_limit = -1; /* not given */
    Timeline *timeline = NULL;
    HtmlReport *html = NULL;
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_STRING, &config, "GPU configuration name or JSON file (default h200)", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &overrides, "Override one configuration key (repeatable)", "KEY=VALUE"},
        {"functional", 'f', 0, G_OPTION_ARG_NONE, &functional, "Functional run only: outputs and counts, no timing model", NULL},
        {"json", 'j', 0, G_OPTION_ARG_FILENAME, &json_path, "Write the JSON report to FILE", "FILE"},
        {"dump", 'd', 0, G_OPTION_ARG_FILENAME, &dump_dir, "Write every buffer to DIR/<name>.bin after the run", "DIR"},
        {"max-instructions", 0, 0, G_OPTION_ARG_INT64, &max_insts, "Stop a launch after N warp instructions", "N"},
        {"max-cycles", 0, 0, G_OPTION_ARG_INT64, &max_cycles, "Stop a timed launch at simulated cycle N", "N"},
        {"threads", 't', 0, G_OPTION_ARG_INT, &threads,
         "Host threads simulating each launch (default: the cores this process may use); results never depend on it", "N"},
        {"lockstep", 0, 0, G_OPTION_ARG_NONE, &lockstep,
         "Timing: advance every SM cycle by cycle on one host thread, the reference order that the faster "
         "quanta reproduce (for checking; results are the same)", NULL},
        {"sample-waves", 0, 0, G_OPTION_ARG_INT, &sample_waves,
         "Time only the first N CTA waves (N >= 2), run the rest functionally and extrapolate the cycles", "N"},
        {"issue-order", 0, 0, G_OPTION_ARG_STRING, &issue_order, ISSUE_ORDER_HELP, "scheduled|ptx"},
        {"racecheck", 0, 0, G_OPTION_ARG_NONE, &racecheck,
         "Report shared-memory accesses of two warps to one byte between the same barriers (a data race)", NULL},
        {"initcheck", 0, 0, G_OPTION_ARG_NONE, &initcheck,
         "Report reads of shared memory no thread wrote, and of buffers without \"init\" before a thread wrote them",
         NULL},
        {"keep-going", 'k', 0, G_OPTION_ARG_NONE, &keep_going,
         "After an invalid access, race or uninitialised read, go on (reads give 0, writes are dropped) and report "
         "them all at the end of the launch", NULL},
        {"timeline", 0, 0, G_OPTION_ARG_FILENAME, &timeline_path,
         "Write a Chrome/Perfetto trace of the timed launches (SMs, warps, stalls, memory requests) to FILE", "FILE"},
        {"timeline-limit", 0, 0, G_OPTION_ARG_INT64, &timeline_limit,
         "At most N events in the timeline (default 2000000); the earliest are kept", "N"},
        {"html", 0, 0, G_OPTION_ARG_FILENAME, &html_path, "Write a self-contained HTML report to FILE", "FILE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print no summary", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("MANIFEST - run the launches of a manifest");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int status = 2;
    Manifest *mf = NULL;
    json_t *report = NULL;
    if (!command_parse_options(ctx, &argc, &argv, error))
        goto out;
    if (argc != 2) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "run: expected one MANIFEST argument (see warpsim run --help)");
        goto out;
    }
    if (!budgets_given_right("run", max_insts, max_cycles, error))
        goto out;
    if (sample_waves != -1 && sample_waves < 2) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    "run: --sample-waves needs at least 2 waves (the first one fills the GPU)");
        goto out;
    }
    /* what only the timing model does is refused rather than ignored: a
     * runaway kernel under --functional would never stop at --max-cycles */
    if (functional && (max_cycles > 0 || sample_waves > 0)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "run: %s needs the timing model (drop --functional%s)",
                    max_cycles > 0 ? "--max-cycles" : "--sample-waves",
                    max_cycles > 0 ? ", or stop a functional run with --max-instructions" : "");
        goto out;
    }
    if (threads == 0 || threads < -1 || threads > 1024) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "run: --threads must be between 1 and 1024");
        goto out;
    }
    if (timeline_path && functional) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "run: --timeline needs the timing model (drop --functional)");
        goto out;
    }
    if (timeline_limit == 0 || timeline_limit < -1 || (timeline_limit > 0 && !timeline_path)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "run: --timeline-limit takes a positive N, with --timeline");
        goto out;
    }
    gpu = config_load(config ? config : CONFIG_DEFAULT_NAME, (const char *const *)overrides, error);
    if (!gpu)
        goto out;
    bool ptx_order = false;
    if (!schedule_parse_order(issue_order, "--issue-order", &ptx_order, error))
        goto out;
    mf = manifest_load(argv[1], error);
    if (!mf)
        goto out;
    /* said now, not after a long run */
    if ((json_path && !file_check_writable(json_path, "report", error)) ||
        (html_path && !file_check_writable(html_path, "HTML report", error)))
        goto out;
    RunOptions opt = {.config = gpu, .functional = functional, .keep_going = keep_going,
                      .config_name = gpu->name, .dump_dir = dump_dir,
                      .max_instructions = max_insts > 0 ? (uint64_t)max_insts : 0,
                      .max_cycles = max_cycles > 0 ? (uint64_t)max_cycles : 0,
                      .threads = threads > 0 ? (uint32_t)threads : launch_host_cores(), .lockstep = lockstep,
                      .sample_waves = sample_waves > 0 ? (uint32_t)sample_waves : 0, .ptx_order = ptx_order,
                      .checks = (racecheck ? LAUNCH_CHECK_RACE : 0u) | (initcheck ? LAUNCH_CHECK_INIT : 0u)};
    if (timeline_path && !(opt.timeline = timeline = timeline_open(timeline_path, timeline_limit > 0 ? (uint64_t)timeline_limit : 0, error)))
        goto out;
    if (html_path)
        opt.html = html = html_report_new();
    guint failed = 0;
    gboolean ran = manifest_run(mf, &opt, &report, &failed, error);
    /* the timeline and the page are written after a fault too; their own
     * errors are reported only when the run has none */
    bool written = true;
    if (timeline) {
        written = timeline_close(g_steal_pointer(&timeline), ran ? error : NULL);
    }
    if (written && report && html)
        written = html_report_write(html, report, html_path, ran ? error : NULL);
    if (!written && ran)
        goto out;
    if (report && !quiet)
        report_print_summary(stdout, report);
    if (report && json_path) {
        if (json_dump_file(report, json_path, JSON_INDENT(1) | JSON_SORT_KEYS) != 0 && ran) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: cannot write the report", json_path);
            goto out;
        }
    }
    if (!ran)
        goto out;
    if (failed) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_CHECK, "%s: error: %u expectation%s failed", argv[1], failed,
                    failed == 1 ? "" : "s");
        goto out;
    }
    status = 0;
out:
    json_decref(report);
    manifest_free(mf);
    config_free(gpu);
    g_strfreev(overrides);
    g_option_context_free(ctx);
    g_free(config);
    g_free(issue_order);
    g_free(json_path);
    g_free(dump_dir);
    timeline_abandon(timeline);
    html_report_free(html);
    g_free(timeline_path);
    g_free(html_path);
    return status;
}

/* ------------------------------------------------------------------ */

static Module *load_analysed(const char *path, GError **error)
{
    Module *m = ptx_parse_file(path, error);
    if (m && !cfg_build_all(m, error)) {
        module_free(m);
        return NULL;
    }
    return m;
}

static int cmd_cfg(int argc, char **argv, GError **error)
{
    char *kernel = NULL;
    gboolean dot = FALSE;
    GOptionEntry entries[] = {
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &kernel, "Only this function (name or unique prefix)", "K"},
        {"dot", 0, 0, G_OPTION_ARG_NONE, &dot, "Print Graphviz dot instead of text", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("FILE.ptx - print control-flow graphs with reconvergence points");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int status = 2;
    Module *m = NULL;
    if (!command_parse_options(ctx, &argc, &argv, error))
        goto out;
    if (argc != 2) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "cfg: expected one PTX file argument");
        goto out;
    }
    m = load_analysed(argv[1], error);
    if (!m)
        goto out;
    uint32_t only = NO_INDEX;
    if (kernel) {
        only = module_find_func(m, kernel);
        if (only == NO_INDEX)
            only = module_find_kernel(m, kernel, error);
        if (only == NO_INDEX)
            goto out;
    }
    for (uint32_t i = 0; i < m->funcs->len; i++) {
        if ((only != NO_INDEX && i != only) || !module_func(m, i)->is_defined)
            continue;
        if (dot)
            cfg_print_dot(stdout, m, i);
        else
            cfg_print_text(stdout, m, i);
    }
    status = 0;
out:
    module_free(m);
    g_option_context_free(ctx);
    g_free(kernel);
    return status;
}

/* ------------------------------------------------------------------ */

/* The supported instruction set, straight from isa/ptx_ops.def. */
static int cmd_isa(int argc, char **argv, GError **error)
{
    (void)argv;
    if (argc != 1) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "isa: takes no arguments");
        return 2;
    }
    printf("# Supported PTX instructions\n\nGenerated by `warpsim isa` from `isa/ptx_ops.def`; "
           "an instruction not listed here is rejected with an error naming it.  A unit \"by type\" is the "
           "integer, FP32 or FP64 pipe as the type says; on .f64 the `alu`, `mul` and `fma` latency classes are "
           "`fp64`, and a `cvt` between two integer types has the `alu` latency class (a move, shift or sign "
           "extension in the machine code).  Some instructions' latency class depends on their type and "
           "modifiers: see [the table below](#latency-classes-by-form).\n\n"
           "| instruction | operands | types | modifiers | unit | latency class | meaning |\n"
           "| --- | --- | --- | --- | --- | --- | --- |\n");
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *o = &isa_ops[op];
        GString *types = g_string_new(NULL), *mods = g_string_new(NULL);
        for (int t = 1; t < PTX_TYPE_COUNT; t++)
            if (o->max_types && (isa_types[t].tclass & o->type_classes))
                g_string_append_printf(types, "%s.%s", types->len ? " " : "", isa_types[t].spelling);
        for (unsigned i = 0; i < isa_mod_count; i++) {
            const ModInfo *mi = &isa_mods[i];
            if (!(mi->group & o->modifier_groups))
                continue;
            bool seen = false; /* a spelling listed in two accepted groups prints once */
            for (unsigned k = 0; k < i && !seen; k++)
                seen = (isa_mods[k].group & o->modifier_groups) && strcmp(isa_mods[k].spelling, mi->spelling) == 0;
            if (!seen)
                g_string_append_printf(mods, "%s.%s", mods->len ? " " : "", mi->spelling);
        }
        char **pieces = g_strsplit(o->summary, "|", -1); /* a bare | would end the table cell */
        char *summary = g_strjoinv("\\|", pieces);
        printf("| `%s` | `%s` | %s | %s | %s | %s | %s |\n", o->name, o->shape, types->len ? types->str : "—",
               mods->len ? mods->str : "—", isa_unit_names[o->unit], isa_latency_names[o->latency], summary);
        g_free(summary);
        g_strfreev(pieces);
        g_string_free(types, TRUE);
        g_string_free(mods, TRUE);
    }
    printf("\n## Latency classes by form\n\nFrom `isa/ptx_latency.def`: the first row that matches an "
           "instruction (its opcode, its type, every modifier listed and its scope) gives its latency class and "
           "its issue slots, the machine instructions it becomes, each of which holds its warp scheduler for a "
           "cycle; an instruction no row matches takes its opcode's class above and one slot.\n\n"
           "| instruction | type | with | scope | latency class | slots | form |\n"
           "| --- | --- | --- | --- | --- | --- | --- |\n");
    for (unsigned i = 0; i < isa_latency_rule_count; i++) {
        const LatencyRule *r = &isa_latency_rules[i];
        GString *with = g_string_new(NULL);
        for (unsigned k = 0; k < isa_mod_count; k++)
            if (isa_mods[k].field == F_FLAG && (r->needs & isa_mods[k].value) &&
                (isa_mods[k].group & isa_ops[r->op].modifier_groups))
                g_string_append_printf(with, "%s.%s", with->len ? " " : "", isa_mods[k].spelling);
        const char *scope = NULL; /* the first spelling of it (.gpu before .gl) */
        for (unsigned k = 0; k < isa_mod_count && r->scope && !scope; k++)
            if (isa_mods[k].field == F_SCOPE && isa_mods[k].value == r->scope)
                scope = isa_mods[k].spelling;
        printf("| `%s` | %s%s | %s | %s%s | %s | %u | %s |\n", isa_ops[r->op].name, r->type ? "." : "",
               r->type ? isa_types[r->type].spelling : "any", with->len ? with->str : "—", scope ? "." : "",
               scope ? scope : "any", isa_latency_names[r->latency], (unsigned)r->slots, r->form);
        g_string_free(with, TRUE);
    }
    printf("\n## Special registers\n\n| register | meaning |\n| --- | --- |\n");
    for (int s = 0; s < SREG_COUNT; s++)
        printf("| `%s%s` | %s |\n", isa_sregs[s].name, isa_sregs[s].vector ? ".x/.y/.z" : "", isa_sregs[s].meaning);
    return 0;
}

/* ------------------------------------------------------------------ */

static int cmd_occupancy(int argc, char **argv, GError **error)
{
    char *config = NULL;
    char **overrides = NULL;
    gint block = 0, regs = 0, smem = 0;
    gboolean as_json = FALSE;
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_STRING, &config, "GPU configuration name or JSON file (default h200)", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &overrides, "Override one configuration key (repeatable)", "KEY=VALUE"},
        {"block", 'b', 0, G_OPTION_ARG_INT, &block, "Threads per block", "N"},
        {"regs", 'r', 0, G_OPTION_ARG_INT, &regs, "Registers per thread (0: not limiting)", "R"},
        {"smem", 's', 0, G_OPTION_ARG_INT, &smem, "Shared memory per block, bytes (static + dynamic)", "BYTES"},
        {"json", 0, 0, G_OPTION_ARG_NONE, &as_json, "Print the result as JSON", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("- blocks and warps per SM for a launch shape, and the limiting resource");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int status = 2;
    GpuConfig *gpu = NULL;
    if (!command_parse_options(ctx, &argc, &argv, error))
        goto out;
    if (argc != 1) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "occupancy: unexpected argument '%s'", argv[1]);
        goto out;
    }
    if (block <= 0 || regs < 0 || smem < 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    "occupancy: --block N (N > 0) is required; --regs and --smem must not be negative");
        goto out;
    }
    gpu = config_load(config ? config : CONFIG_DEFAULT_NAME, (const char *const *)overrides, error);
    if (!gpu)
        goto out;
    if ((uint32_t)block > gpu->max_threads_per_block) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "occupancy: %s allows at most %u threads per block, not %d",
                    gpu->name, gpu->max_threads_per_block, block);
        goto out;
    }
    Occupancy o;
    occupancy_compute(gpu, (uint32_t)block, (uint32_t)regs, (uint32_t)smem, &o);
    if (as_json) {
        json_t *j = json_pack("{sssisisisisisisisisisssisf}", "config", gpu->name, "block", block, "regs_per_thread", regs,
                              "smem_per_block", smem, "launch__occupancy_limit_warps", (int)o.limit[LIMIT_WARPS],
                              "launch__occupancy_limit_blocks", (int)o.limit[LIMIT_BLOCKS],
                              "launch__occupancy_limit_registers", (int)o.limit[LIMIT_REGISTERS],
                              "launch__occupancy_limit_shared_mem", (int)o.limit[LIMIT_SHARED_MEM],
                              "blocks_per_sm", (int)o.blocks_per_sm, "active_warps", (int)o.active_warps,
                              "limiter", occupancy_limiter_name(o.limiter),
                              "max_warps_per_sm", (int)gpu->max_warps_per_sm, "occupancy", o.occupancy);
        json_dumpf(j, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
        fputc('\n', stdout);
        json_decref(j);
    } else {
        printf("%s (%s, compute capability %u.%u)\n", gpu->display_name ? gpu->display_name : gpu->name, gpu->name,
               gpu->cc_major, gpu->cc_minor);
        printf("block: %d threads (%u warps), %d registers per thread, %d bytes of shared memory\n", block,
               o.warps_per_block, regs, smem);
        printf("allocated per block: %u registers, %u bytes of shared memory\n", o.regs_per_block, o.smem_per_block);
        printf("blocks per SM allowed by   warps %u   blocks %u   registers %u   shared memory %u\n",
               o.limit[LIMIT_WARPS], o.limit[LIMIT_BLOCKS], o.limit[LIMIT_REGISTERS], o.limit[LIMIT_SHARED_MEM]);
        printf("active blocks per SM: %u, active warps: %u of %u, occupancy %.1f %% (limited by %s)\n",
               o.blocks_per_sm, o.active_warps, gpu->max_warps_per_sm, 100.0 * o.occupancy,
               occupancy_limiter_name(o.limiter));
    }
    status = 0;
out:
    config_free(gpu);
    g_strfreev(overrides);
    g_free(config);
    g_option_context_free(ctx);
    return status;
}

/* ------------------------------------------------------------------ */

/* The folder holding libcudart.so.13 -> libwarpsim-cudart.so: next to the
 * warpsim binary in a build tree, else PREFIX/lib.../warpsim when installed. */
static char *find_cudart_dir(GError **error)
{
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    char *bindir = exe ? g_path_get_dirname(exe) : g_strdup(".");
    char *prefix = g_path_get_dirname(bindir);
    const char *const installed[] = {"lib/warpsim", "lib64/warpsim", "lib/x86_64-linux-gnu/warpsim",
                                     "lib/aarch64-linux-gnu/warpsim"};
    char *found = NULL;
    char *probe = g_build_filename(bindir, "libcudart.so.13", NULL);
    if (g_file_test(probe, G_FILE_TEST_EXISTS))
        found = g_strdup(bindir);
    g_free(probe);
    for (size_t i = 0; !found && i < G_N_ELEMENTS(installed); i++) {
        char *dir = g_build_filename(prefix, installed[i], NULL);
        probe = g_build_filename(dir, "libcudart.so.13", NULL);
        if (g_file_test(probe, G_FILE_TEST_EXISTS))
            found = g_steal_pointer(&dir);
        g_free(probe);
        g_free(dir);
    }
    if (!found)
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO,
                    "exec: cannot find libwarpsim-cudart (libcudart.so.13) next to %s or in %s/lib*/warpsim",
                    exe ? exe : "warpsim", prefix);
    g_free(exe);
    g_free(bindir);
    g_free(prefix);
    return found;
}

/* Runs a CUDA program built with `nvcc -cudart shared` on the simulator:
 * the program finds warpsim's runtime library first, and the options reach
 * it through the environment (docs/cudart.md). */
static int cmd_exec(int argc, char **argv, GError **error)
{
    char *config = NULL, *json_path = NULL;
    gboolean functional = FALSE, summary = FALSE;
    char *issue_order = NULL;
    gint64 max_insts = -1, max_cycles = -1; /* not given */
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_STRING, &config,
         "GPU configuration name or JSON file (default: $WARPSIM_CONFIG, else h200)", "NAME|FILE"},
        {"functional", 'f', 0, G_OPTION_ARG_NONE, &functional, "No timing model: outputs and counts only", NULL},
        {"issue-order", 0, 0, G_OPTION_ARG_STRING, &issue_order, ISSUE_ORDER_HELP, "scheduled|ptx"},
        {"json", 'j', 0, G_OPTION_ARG_FILENAME, &json_path, "Write the JSON report of every launch to FILE at exit",
         "FILE"},
        {"summary", 's', 0, G_OPTION_ARG_NONE, &summary,
         "Print a per-kernel table (calls, simulated time, instructions) on stderr at exit", NULL},
        {"max-instructions", 0, 0, G_OPTION_ARG_INT64, &max_insts,
         "Stop each launch after N warp instructions (it fails with cudaErrorLaunchTimeout)", "N"},
        {"max-cycles", 0, 0, G_OPTION_ARG_INT64, &max_cycles, "Stop each timed launch at simulated cycle N", "N"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("PROGRAM [ARGS...] - run a CUDA program with every kernel on the simulator");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_strict_posix(ctx, TRUE); /* the program's own options are its business */
    int status = 2;
    char *libdir = NULL;
    GpuConfig *gpu = NULL;
    if (!command_parse_options(ctx, &argc, &argv, error))
        goto out;
    int first = 1;
    if (first < argc && strcmp(argv[first], "--") == 0)
        first++;
    if (first >= argc) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE, "exec: expected a PROGRAM to run (see warpsim exec --help)");
        goto out;
    }
    bool ptx_order;
    if (!schedule_parse_order(issue_order, "--issue-order", &ptx_order, error)) /* said here, not by the program */
        goto out;
    if (!budgets_given_right("exec", max_insts, max_cycles, error))
        goto out;
    if (functional && max_cycles > 0) { /* a runaway kernel would never reach it */
        g_set_error(error, WARPSIM_ERROR, WS_ERR_USAGE,
                    "exec: --max-cycles needs the timing model (drop --functional, or use --max-instructions)");
        goto out;
    }
    const char *config_name = config ? config : g_getenv("WARPSIM_CONFIG");
    if (!config_name || !*config_name)
        config_name = CONFIG_DEFAULT_NAME;
    gpu = config_load(config_name, NULL, error); /* a bad name is reported here, once */
    if (!gpu)
        goto out;
    libdir = find_cudart_dir(error);
    if (!libdir)
        goto out;
    const char *old_path = g_getenv("LD_LIBRARY_PATH");
    char *path = old_path && *old_path ? g_strconcat(libdir, ":", old_path, NULL) : g_strdup(libdir);
    g_setenv("LD_LIBRARY_PATH", path, TRUE);
    g_free(path);
    g_setenv("WARPSIM_CONFIG", config_name, TRUE);
    if (functional)
        g_setenv("WARPSIM_FUNCTIONAL", "1", TRUE);
    if (summary)
        g_setenv("WARPSIM_SUMMARY", "1", TRUE);
    if (issue_order)
        g_setenv("WARPSIM_ISSUE_ORDER", issue_order, TRUE);
    char count[32];
    if (max_insts > 0) {
        g_snprintf(count, sizeof count, "%" G_GINT64_FORMAT, max_insts);
        g_setenv("WARPSIM_MAX_INSTRUCTIONS", count, TRUE);
    }
    if (max_cycles > 0) {
        g_snprintf(count, sizeof count, "%" G_GINT64_FORMAT, max_cycles);
        g_setenv("WARPSIM_MAX_CYCLES", count, TRUE);
    }
    if (json_path) { /* written at the program's exit, whose status is the program's: said now */
        if (!file_check_writable(json_path, "report", error))
            goto out;
        g_setenv("WARPSIM_REPORT", json_path, TRUE);
    }
    fflush(NULL);
    execvp(argv[first], argv + first);
    g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "exec: cannot run %s: %s", argv[first], g_strerror(errno));
out:
    config_free(gpu);
    g_free(libdir);
    g_free(config);
    g_free(json_path);
    g_free(issue_order);
    g_option_context_free(ctx);
    return status;
}

static int cmd_help(int argc, char **argv, GError **error);

static const Command commands[] = {
    {"run", cmd_run, "MANIFEST [--config C] [--set K=V] [--functional] [--json FILE] [--dump DIR]",
     "run the launches of a manifest on the GPU model and check its expectations"},
    {"occupancy", cmd_occupancy, "--block N [--regs R] [--smem BYTES] [--config C]",
     "blocks and warps per SM and the limiting resource, like CUDA's occupancy calculator"},
    {"cfg", cmd_cfg, "FILE.ptx [--kernel K] [--dot]", "print control-flow graphs with each branch's reconvergence point"},
    {"analyze", cmd_analyze, "FILE.ptx --divergence|--registers [--kernel K] [--config C] [--block N] [--json]",
     "static analyses: uniform/divergent registers and branches, register pressure and occupancy"},
    {"exec", cmd_exec,
     "[--config C] [--functional] [--issue-order O] [--json FILE] [--summary] [--max-instructions N] [--max-cycles N] "
     "PROGRAM [ARGS...]",
     "run a CUDA program (nvcc -cudart shared) with every kernel launch on the simulator"},
    {"compare", cmd_compare, "MANIFEST --ptx A.ptx --ptx B.ptx | A.json B.json [--fail-if RULE]",
     "run two versions of a workload on the same inputs: output check, metric and per-block deltas"},
    {"trace", cmd_trace, "MANIFEST --warp W [--block B] [--launch N] [--functional] [--lanes L,...] [--step]",
     "print one warp's instructions as they issue: cycle, block, line, lane mask, reconvergence stack"},
    {"isa", cmd_isa, "", "print the supported PTX instruction set (Markdown)"},
    {"help", cmd_help, "", "this list"},
};

static int cmd_help(int argc, char **argv, GError **error)
{
    (void)argc;
    (void)argv;
    (void)error;
    printf("warpsim %s — a cycle-approximate SIMT GPU simulator for PTX\n\nUsage: warpsim COMMAND [OPTIONS]\n\n",
           WARPSIM_VERSION);
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        printf("  %-5s %-48s %s\n", commands[i].name, commands[i].args, commands[i].summary);
    printf("\n`warpsim COMMAND --help` describes a command's options.\n");
    return 0;
}

int main(int argc, char **argv)
{
    GError *error = NULL;
    int status;
    if (argc < 2) {
        cmd_help(0, NULL, NULL);
        return 2;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("warpsim %s\n", WARPSIM_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cmd_help(0, NULL, NULL);
    const Command *cmd = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        if (strcmp(commands[i].name, argv[1]) == 0)
            cmd = &commands[i];
    if (!cmd) {
        fprintf(stderr, "warpsim: error: unknown command '%s' (try `warpsim help`)\n", argv[1]);
        return 2;
    }
    status = cmd->fn(argc - 1, argv + 1, &error);
    if (error) {
        /* input errors already start with "file:line:col: error:" */
        bool placed = strstr(error->message, "error:") != NULL;
        fprintf(stderr, "%s%s\n", placed ? "" : "warpsim: error: ", error->message);
        status = warpsim_exit_status(error);
        g_error_free(error);
    }
    return status;
}
