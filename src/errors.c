/* errors.c — the error domain and its exit statuses. */
#include "errors.h"

#include <stdarg.h>

G_DEFINE_QUARK(warpsim-error-quark, warpsim_error)

int warpsim_exit_status(const GError *error)
{
    if (error == NULL)
        return 0;
    if (error->domain != WARPSIM_ERROR)
        return 2;
    switch ((WarpsimErrorCode)error->code) {
    case WS_ERR_FAULT:
    case WS_ERR_CHECK:
        return 1;
    default:
        return 2;
    }
}

bool json_input_error(GError **error, const char *file, const char *jpath, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: %s: %s", file, jpath && *jpath ? jpath : "top level",
                what);
    g_free(what);
    return false;
}
