/* commands.h — the subcommands of `warpsim` that live in their own files
 * (cmd_*.c) and what they share with main.c, which dispatches to them and
 * prints the errors they return.
 *
 * Contract: each command parses its own options and arguments, returns an
 * exit status (0 success, 1 a failed check or fault, 2 bad usage or input)
 * and sets *error whenever it has something to say on stderr. */
#ifndef WARPSIM_COMMANDS_H
#define WARPSIM_COMMANDS_H

#include <glib.h>
#include <stdbool.h>

int cmd_compare(int argc, char **argv, GError **error);  /* cmd_compare.c */
int cmd_analyze(int argc, char **argv, GError **error);  /* cmd_analyze.c */
int cmd_trace(int argc, char **argv, GError **error);    /* cmd_trace.c */

/* The help of --issue-order, which run, compare, trace and exec share
 * (schedule_parse_order() reads its value). */
#define ISSUE_ORDER_HELP                                                                                     \
    "The order a warp issues each straight-line stretch of PTX in: 'scheduled' (default), as a list "       \
    "scheduler like ptxas's would, loads and long chains first so that their latencies overlap; or 'ptx', " \
    "the PTX's own order (docs/validation.md)"

/* g_option_context_parse with its error turned into WS_ERR_USAGE (main.c). */
bool command_parse_options(GOptionContext *ctx, int *argc, char ***argv, GError **error);

#endif
