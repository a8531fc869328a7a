/* errors.c — the error domain and its exit statuses. */
#include "errors.h"

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
