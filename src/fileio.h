/* fileio.h — reading the files a user names (PTX, manifests, configs, inputs).
 *
 * Contract: file_read_all() is g_file_get_contents() for input files: it
 * refuses anything but a regular file (a FIFO would block forever, a device
 * such as /dev/zero never ends) before reading, with a G_FILE_ERROR the
 * caller words into its own "file: error: ..." message.  The text it
 * returns is the caller's (g_free).  file_check_writable() says, before a
 * long run, whether an output file named on the command line can be
 * written at its end: "PATH: error: cannot write the WHAT: reason".
 */
#ifndef WARPSIM_FILEIO_H
#define WARPSIM_FILEIO_H

#include <glib.h>
#include <stdbool.h>

bool file_read_all(const char *path, gchar **contents, gsize *len, GError **error);
bool file_check_writable(const char *path, const char *what, GError **error);

#endif
