/* errors.h — the one GError domain of warpsim and what each code means.
 *
 * Every failure travels up as a GError in this domain to main.c, which prints
 * it once and maps the code to the exit status:
 *   2 for WS_ERR_USAGE, WS_ERR_INPUT, WS_ERR_UNSUPPORTED, WS_ERR_IO
 *     (the user gave something warpsim cannot take), and
 *   1 for WS_ERR_FAULT and WS_ERR_CHECK (the kernel misbehaved or its
 *     outputs differ from the expectation).
 * Messages about input start with "file:line:col: error: " (or "file: error: "
 * when there is no position) so editors can jump to them.
 */
#ifndef WARPSIM_ERRORS_H
#define WARPSIM_ERRORS_H

#include <glib.h>
#include <stdbool.h>

#define WARPSIM_ERROR (warpsim_error_quark())
GQuark warpsim_error_quark(void);

typedef enum {
    WS_ERR_USAGE,       /* bad command line */
    WS_ERR_INPUT,       /* malformed PTX, manifest or config */
    WS_ERR_UNSUPPORTED, /* valid PTX outside the supported subset */
    WS_ERR_IO,          /* a file could not be read or written */
    WS_ERR_FAULT,       /* the kernel faulted: memcheck, trap, deadlock, budget */
    WS_ERR_CHECK,       /* an `expect` of the manifest failed */
} WarpsimErrorCode;

int warpsim_exit_status(const GError *error);

/* Sets a WS_ERR_INPUT error about a JSON document (manifest, config):
 * "FILE: error: JSON.PATH: what" ("top level" when the path is empty).
 * Returns false, so callers can `return json_input_error(...)`. */
bool json_input_error(GError **error, const char *file, const char *jpath, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

#endif
