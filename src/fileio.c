/* fileio.c — see fileio.h. */
#include "fileio.h"

#include <errno.h>
#include <unistd.h>

#include "errors.h"

#include <glib/gstdio.h>
#include <sys/stat.h>

bool file_read_all(const char *path, gchar **contents, gsize *len, GError **error)
{
    GStatBuf st;
    if (g_stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        const char *what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                         : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file";
        g_set_error(error, G_FILE_ERROR, S_ISDIR(st.st_mode) ? G_FILE_ERROR_ISDIR : G_FILE_ERROR_INVAL,
                    "\"%s\" is %s, not a regular file", path, what);
        return false;
    }
    return g_file_get_contents(path, contents, len, error);
}

bool file_check_writable(const char *path, const char *what, GError **error)
{
    GStatBuf st;
    int err = 0;
    if (g_stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            err = EISDIR;
        else if (access(path, W_OK) != 0)
            err = errno;
    } else if (errno != ENOENT) {
        err = errno;
    } else {
        /* a new file: its folder must exist and take it */
        char *dir = g_path_get_dirname(path);
        if (g_stat(dir, &st) != 0)
            err = errno;
        else if (!S_ISDIR(st.st_mode))
            err = ENOTDIR;
        else if (access(dir, W_OK | X_OK) != 0)
            err = errno;
        g_free(dir);
    }
    if (err)
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: cannot write the %s: %s", path, what,
                    g_strerror(err));
    return !err;
}
