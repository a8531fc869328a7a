/* fileio.c — see fileio.h. */
#include "fileio.h"

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
