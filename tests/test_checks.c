/* test_checks.c — planted bugs (tests/planted/bugs.ptx) are each reported
 * with the right kind, thread and PTX line, in the functional run and under
 * the timing model: an off-by-one global read (memcheck), an unsynchronised
 * shared read (racecheck), a read of shared memory nobody wrote
 * (initcheck), a barrier in divergent code (synccheck), a spin-wait nobody
 * ends (hang), a lock one lane of a warp holds while the others spin (a
 * hang under reconvergence stacks, found by that warp or another), an endless loop (instruction and cycle
 * budgets), and PTX contract violations a compiler bug would make (a
 * divergent bra.uni, an ldu whose lanes disagree).  Correct kernels next
 * to them — the barrier version, a producer/consumer spin that does end, a
 * lock taken by one lane per warp, threads that return before a barrier,
 * and arrivals on an mbarrier — run clean with every check on (and match
 * their expected outputs where they have them), and a block's read of its
 * neighbour's output is judged in launch order on any number of host
 * threads. */
#include <check.h>
#include <glib.h>
#include <string.h>

#include "config.h"
#include "errors.h"
#include "launch.h"
#include "manifest.h"
#include "testutil.h"

typedef struct {
    const char *name;       /* tests/planted/NAME.json */
    uint32_t checks;
    uint64_t max_instructions, max_cycles;
    const char *kind;       /* expected in the message; NULL: the run succeeds */
    const char *thread;     /* expected "thread (...) in block (...)" part, or NULL */
    const char *also;       /* more text expected in the message, or NULL */
} Planted;

static const Planted planted[] = {
    {"off_by_one", 0, 0, 0, "invalid global read of size 4", "thread (0,0,0) in block (2,0,0)", NULL},
    {"unsynced", LAUNCH_CHECK_RACE, 0, 0, "racecheck: ", NULL, NULL},
    {"uninit", LAUNCH_CHECK_INIT, 0, 0, "initcheck: read of uninitialised shared memory", NULL, NULL},
    {"divergent_barrier", 0, 0, 0, "synccheck: barrier 0 reached in divergent code",
     "thread (16,0,0) in block (0,0,0)", NULL},
    {"spin", 0, 0, 0, "hang: every unfinished warp of the block loops back", NULL, NULL},
    {"spin_lock", 0, 0, 0, "hang: every unfinished warp of the block loops back", "thread (1,0,0) in block (0,0,0)",
     "lanes 0x00000001 of this warp wait on its reconvergence stack until the looping lanes 0xfffffffe"},
    /* the same with two warps: the one that finds the hang spins whole,
     * the holder is parked in the other */
    {"spin_lock_warps", 0, 0, 0, "hang: every unfinished warp of the block loops back", NULL,
     "lanes 0x00000001 of warp 0 wait on its reconvergence stack until the looping lanes 0xfffffffe"},
    {"lock_per_warp", LAUNCH_CHECK_INIT, 0, 0, NULL, NULL, NULL},
    {"early_return", LAUNCH_CHECK_RACE | LAUNCH_CHECK_INIT, 0, 0, NULL, NULL, NULL}, /* and its output is right */
    {"count_forever", 0, 200000, 0, "instruction budget of 200000 warp instructions exhausted", NULL, NULL},
    {"synced", LAUNCH_CHECK_RACE | LAUNCH_CHECK_INIT, 0, 0, NULL, NULL, NULL},
    {"producer_consumer", LAUNCH_CHECK_RACE | LAUNCH_CHECK_INIT, 0, 0, NULL, NULL, NULL},
    {"mbarrier_arrive", LAUNCH_CHECK_RACE | LAUNCH_CHECK_INIT, 0, 0, NULL, NULL, NULL}, /* arrivals are atomic */
    {"uninit_global", LAUNCH_CHECK_INIT, 0, 0, "initcheck: read of uninitialised global memory",
     "thread (0,0,0) in block (0,0,0)", NULL},
    {"uninit_global", 0, 0, 0, NULL, NULL, NULL},     /* without initcheck: reads zeros */
    {"init_global", LAUNCH_CHECK_INIT, 0, 0, NULL, NULL, NULL}, /* the host zeroed it */
    {"divergent_uni", 0, 0, 0, "PTX contract violation: bra.uni whose active lanes disagree",
     "thread (16,0,0) in block (0,0,0)", NULL},
    {"ldu_per_lane", 0, 0, 0, "PTX contract violation: ldu whose lanes load different addresses",
     "thread (1,0,0) in block (0,0,0)", NULL},
    {"ldu_uniform", 0, 0, 0, NULL, NULL, NULL},
};

/* Whether msg names a line of bugs.ptx marked BUG(name) as the error's place. */
static bool names_marked_line(const char *msg, const char *name)
{
    char *path = tu_source_path("tests/planted/bugs.ptx"), *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    char *mark = g_strdup_printf("BUG(%s)", name);
    ck_assert_msg(strstr(text, mark), "no %s in bugs.ptx", mark);
    bool found = false;
    uint32_t line = 1;
    for (const char *p = text; *p; p++) {
        if (strncmp(p, mark, strlen(mark)) == 0) {
            char *where = g_strdup_printf("bugs.ptx:%u: error:", line);
            found |= strstr(msg, where) != NULL;
            g_free(where);
        }
        line += *p == '\n';
    }
    g_free(mark);
    g_free(text);
    g_free(path);
    return found;
}

/* The warp states of every timing launch add up to 100 % at most, a
 * launch stopped by a fault or a hang included (its unfinished warps count
 * as active until it stopped). */
static void check_warp_states(json_t *report, const char *name)
{
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(report, "launches"), i, l) {
        const char *key;
        json_t *v;
        double sum = 0.0;
        json_object_foreach(json_object_get(l, "metrics"), key, v)
            if (g_str_has_prefix(key, "smsp__warp_issue_stalled_") && g_str_has_suffix(key, "_per_warp_active.pct"))
                sum += json_number_value(v);
        ck_assert_msg(sum <= 100.0 + 1e-6, "%s: launch %zu's warp states add up to %.1f %%", name, i, sum);
    }
}

/* Runs case c, going past faults when keep_going; returns the error
 * message (NULL on success). */
static char *run_case_with(const Planted *c, const GpuConfig *cfg, bool keep_going, uint32_t threads, bool lockstep)
{
    char *rel = g_strdup_printf("tests/planted/%s.json", c->name);
    char *path = tu_source_path(rel);
    GError *error = NULL;
    Manifest *m = manifest_load(path, &error);
    ck_assert_msg(m, "%s: %s", path, error ? error->message : "");
    RunOptions opt = {.config = cfg, .config_name = "h200", .threads = threads, .checks = c->checks,
                      .max_instructions = c->max_instructions, .max_cycles = c->max_cycles,
                      .keep_going = keep_going, .lockstep = lockstep};
    json_t *report = NULL;
    guint failed = 0;
    gboolean ok = manifest_run(m, &opt, &report, &failed, &error);
    char *msg = NULL;
    ck_assert_msg(!ok || failed == 0, "%s: %u buffer(s) differ from the expected", c->name, failed);
    if (!ok) {
        ck_assert_msg(error && error->code == WS_ERR_FAULT, "%s: not a fault: %s", c->name,
                      error ? error->message : "");
        msg = g_strdup(error->message);
    }
    g_clear_error(&error);
    if (report && cfg)
        check_warp_states(report, c->name);
    if (report)
        json_decref(report);
    manifest_free(m);
    g_free(path);
    g_free(rel);
    return msg;
}

static char *run_case(const Planted *c, const GpuConfig *cfg)
{
    return run_case_with(c, cfg, false, 1, false);
}

static void check_case(const Planted *c, const GpuConfig *cfg)
{
    const char *mode = cfg ? "timing" : "functional";
    char *msg = run_case(c, cfg);
    if (!c->kind) {
        ck_assert_msg(msg == NULL, "%s (%s): unexpected finding: %s", c->name, mode, msg);
        return;
    }
    ck_assert_msg(msg, "%s (%s): no finding", c->name, mode);
    ck_assert_msg(strstr(msg, c->kind), "%s (%s): expected '%s' in:\n%s", c->name, mode, c->kind, msg);
    if (c->thread)
        ck_assert_msg(strstr(msg, c->thread), "%s (%s): expected '%s' in:\n%s", c->name, mode, c->thread, msg);
    if (c->also)
        ck_assert_msg(strstr(msg, c->also), "%s (%s): expected '%s' in:\n%s", c->name, mode, c->also, msg);
    if (!c->max_instructions && !c->max_cycles)
        ck_assert_msg(names_marked_line(msg, c->name), "%s (%s): expected the line marked BUG(%s) in:\n%s",
                      c->name, mode, c->name, msg);
    g_free(msg);
}

START_TEST(planted_bugs_functional)
{
    for (size_t i = 0; i < G_N_ELEMENTS(planted); i++)
        check_case(&planted[i], NULL);
}
END_TEST

START_TEST(planted_bugs_timing)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    for (size_t i = 0; i < G_N_ELEMENTS(planted); i++)
        check_case(&planted[i], cfg);
    config_free(cfg);
}
END_TEST

/* The race's message names the two warps.  The functional run executes
 * warp 0 before warp 1, so warp 1's write comes after warp 0's read. */
START_TEST(race_names_both_warps)
{
    char *msg = run_case(&planted[1], NULL);
    ck_assert_ptr_nonnull(msg);
    ck_assert_msg(strstr(msg, "racecheck: write-after-read hazard") && strstr(msg, "warp 0 read byte") &&
                      strstr(msg, "in block (0,0,0), warp 1"),
                  "%s", msg);
    g_free(msg);
}
END_TEST

static unsigned count_of(const char *text, const char *what)
{
    unsigned n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* --keep-going: every one of 256 invalid reads (threads 256..511 read past
 * the end of `in`) is counted, the first 100 in launch order are shown,
 * the faulting reads give 0 and every thread's output is as expected (the
 * manifest's expect passes, else the run would end in WS_ERR_CHECK), and
 * the report is the same in both modes and for any number of host threads. */
START_TEST(keep_going_reports_every_fault)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    const Planted many = {"off_by_one_many", 0, 0, 0, NULL, NULL, NULL};
    char *functional = run_case_with(&many, NULL, true, 1, false);
    ck_assert_ptr_nonnull(functional);
    ck_assert_msg(strstr(functional, "256 errors (the first 100 in launch order shown)"), "%s", functional);
    ck_assert_uint_eq(count_of(functional, "error: invalid global read"), 100);
    const char *first = strstr(functional, "error: invalid global read");
    ck_assert_msg(first && strstr(first, "thread (0,0,0) in block (2,0,0), warp 0 lane 0"), "%s", functional);
    char *functional2 = run_case_with(&many, NULL, true, 2, false);
    char *timed = run_case_with(&many, cfg, true, 1, false);
    char *timed2 = run_case_with(&many, cfg, true, 2, false);
    ck_assert_str_eq(functional2, functional);
    ck_assert_str_eq(timed, functional);
    ck_assert_str_eq(timed2, functional);
    /* without --keep-going the first fault stops the launch */
    char *stopped = run_case_with(&many, NULL, false, 1, false);
    ck_assert_uint_eq(count_of(stopped, "error: invalid global"), 1);
    g_free(stopped);
    g_free(functional);
    g_free(functional2);
    g_free(timed);
    g_free(timed2);
    config_free(cfg);
}
END_TEST

/* Global initcheck can tell the order of different CTAs' accesses: block
 * b reads what block b - 1 wrote, uninitialised unless b - 1 ran first.
 * Whatever the number of host threads, the report is that of the
 * reference order: one CTA after another (functional, nothing to report)
 * and the SMs in lockstep (timing).  With CTAs on two threads, or the SMs
 * in quanta, a block often read before its neighbour wrote. */
START_TEST(initcheck_keeps_cta_order)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    const Planted c = {"neighbour_output", LAUNCH_CHECK_INIT, 0, 0, NULL, NULL, NULL};
    char *reference = run_case_with(&c, NULL, false, 1, false);
    ck_assert_msg(reference == NULL, "%s", reference);
    char *lockstep = run_case_with(&c, cfg, false, 1, true);
    for (uint32_t threads = 1; threads <= 2; threads++) {
        for (int round = 0; round < 3; round++) {
            char *functional = run_case_with(&c, NULL, false, threads, false);
            ck_assert_msg(functional == NULL, "%u threads: %s", threads, functional);
            char *timed = run_case_with(&c, cfg, false, threads, false);
            ck_assert_msg(g_strcmp0(timed, lockstep) == 0, "%u threads: %s\nlockstep: %s", threads,
                          timed ? timed : "(nothing)", lockstep ? lockstep : "(nothing)");
            g_free(timed);
        }
    }
    g_free(lockstep);
    config_free(cfg);
}
END_TEST

/* Uninitialised reads are reported and the launch goes on. */
START_TEST(keep_going_checks)
{
    const Planted uninit = {"uninit", LAUNCH_CHECK_INIT, 0, 0, NULL, NULL, NULL};
    char *msg = run_case_with(&uninit, NULL, true, 1, false);
    ck_assert_ptr_nonnull(msg);
    /* 64 odd threads per block, 2 blocks */
    ck_assert_msg(strstr(msg, "128 errors (the first 100 in launch order shown)"), "%s", msg);
    ck_assert_uint_eq(count_of(msg, "initcheck: read of uninitialised shared memory"), 100);
    g_free(msg);
}
END_TEST

/* A cycle budget stops an endless timed launch and says where each warp is. */
START_TEST(cycle_budget_reports_warps)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    Planted c = {"count_forever", 0, 0, 30000, "cycle budget of 30000 cycles exhausted", NULL, NULL};
    char *msg = run_case(&c, cfg);
    ck_assert_ptr_nonnull(msg);
    ck_assert_msg(strstr(msg, c.kind) && strstr(msg, "warp 3: ready, pc"), "%s", msg);
    g_free(msg);
    config_free(cfg);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("checks");
    TCase *t = tcase_create("planted");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, planted_bugs_functional);
    tcase_add_test(t, planted_bugs_timing);
    tcase_add_test(t, race_names_both_warps);
    tcase_add_test(t, keep_going_reports_every_fault);
    tcase_add_test(t, keep_going_checks);
    tcase_add_test(t, initcheck_keeps_cta_order);
    tcase_add_test(t, cycle_budget_reports_warps);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
