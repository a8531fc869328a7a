/* compare.h — comparing two runs of one workload (warpsim compare).
 *
 * Contract: compare_runs() takes what manifest_run_capture() gives for
 * version A and version B of a workload (the reports and the final buffer
 * contents) and builds one JSON object holding every output check, every
 * per-launch metric delta and every per-basic-block delta (docs/compare.md
 * defines each number).  compare_print() renders that object for people,
 * and --fail-if rules (CompareRule) are evaluated against it, so the printed
 * text, the --json file and the exit status all come from the same object.
 * Nothing here runs a kernel; cmd_compare.c does.
 */
#ifndef WARPSIM_COMPARE_H
#define WARPSIM_COMPARE_H

#include <glib.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct {
    json_t *report;       /* a manifest_run report (borrowed) */
    GPtrArray *buffers;   /* ManifestBuffer*, final contents (borrowed) */
    const char *label;    /* how the text names this version, e.g. the PTX file */
} CompareRun;

typedef struct {
    double rtol, atol;    /* floats pass when |B − A| <= atol + rtol·|A|; NaN equals any NaN */
    unsigned max_shown;   /* differing elements listed per buffer */
} CompareOptions;

/* The comparison of A and B (layout in docs/compare.md).  Buffers are
 * matched by name, launches by position, basic blocks by PTX label.
 * WS_ERR_INPUT when the two cannot be compared: different numbers of
 * launches, a buffer of one name with a different type or size, or no
 * buffer in common. */
json_t *compare_runs(const CompareRun *a, const CompareRun *b, const CompareOptions *opt, GError **error);

/* true when every buffer the two share is within tolerance */
bool compare_outputs_equal(json_t *comparison);

/* The human-readable comparison: outputs, per-launch metric table, block
 * table, verdict line. */
void compare_print(FILE *out, json_t *comparison);

/* ---- --fail-if rules ----
 *   RULE      := "outputs" | METRIC OP THRESHOLD
 *   METRIC    := a name of compare's metric table (cycles, dram_bytes, ...)
 *                or any numeric key of the report's metrics object
 *   OP        := ">" | ">=" | "<" | "<="
 *   THRESHOLD := [+|-]NUMBER["%"]
 * A rule trips when, for some launch, B − A (or 100·(B − A)/|A| with "%")
 * compares with THRESHOLD as OP says. */
typedef struct CompareRule CompareRule;

CompareRule *compare_rule_parse(const char *text, GError **error); /* WS_ERR_USAGE */
void compare_rule_free(CompareRule *rule);

/* Evaluates the rule on a comparison.  Returns FALSE with WS_ERR_USAGE when
 * a launch lacks the metric (a --functional run has no cycles); else sets
 * *tripped and returns {"rule", "tripped", "launches": [{"launch", "a", "b",
 * "change"}]} (the launches where it tripped) in *result. */
gboolean compare_rule_eval(const CompareRule *rule, json_t *comparison, bool *tripped, json_t **result,
                           GError **error);

/* The names of the metric table, for --help and the docs: "cycles, time, ..." (g_free it). */
char *compare_metric_names(void);

#endif
