/* fuzz_files.h — a private scratch folder for the file-based fuzz harnesses.
 *
 * Contract: fuzz_files_dir() creates, once per process, a fresh folder
 * (g_dir_make_tmp) laid out so that seed manifests resolve their references:
 *
 *     DIR/tiny.ptx            what tests/manifests' "../tiny.ptx" names
 *     DIR/m/                  where the input under test is written
 *     DIR/m/kernel.ptx        an empty stand-in (loading only stat()s PTX)
 *     DIR/m/four.bin          4 bytes        DIR/m/data.bin  64 bytes
 *     DIR/m/x128.bin          128 bytes      DIR/m/scale.expected.bin 256 bytes
 *
 * and removes it at exit.  fuzz_files_write() rewrites DIR/m/NAME with the
 * given bytes and returns its path (owned by the caller).
 *
 * libFuzzer's entry point takes no context, so the folder's path lives in a
 * process-wide static: the one piece of mutable global state, confined to
 * the harnesses.  Failures to create scratch files abort: they are the
 * harness's environment, not a finding in warpsim.
 */
#ifndef WARPSIM_FUZZ_FILES_H
#define WARPSIM_FUZZ_FILES_H

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

static char *fuzz_files_root;

static void fuzz_files_put(const char *dir, const char *name, const void *data, size_t size)
{
    char *path = g_build_filename(dir, name, NULL);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        fprintf(stderr, "fuzz: cannot write %s\n", path);
        abort();
    }
    g_free(path);
}

static void fuzz_files_remove_tree(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return;
    const char *name;
    while ((name = g_dir_read_name(d))) {
        char *path = g_build_filename(dir, name, NULL);
        if (g_file_test(path, G_FILE_TEST_IS_DIR) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK))
            fuzz_files_remove_tree(path);
        else
            g_remove(path);
        g_free(path);
    }
    g_dir_close(d);
    g_rmdir(dir);
}

static void fuzz_files_cleanup(void)
{
    if (fuzz_files_root)
        fuzz_files_remove_tree(fuzz_files_root);
    g_free(fuzz_files_root);
    fuzz_files_root = NULL;
}

/* DIR/m, where inputs are written and manifest paths are resolved */
static const char *fuzz_files_dir(void)
{
    static char *work;
    if (work)
        return work;
    GError *err = NULL;
    fuzz_files_root = g_dir_make_tmp("warpsim-fuzz-XXXXXX", &err);
    if (!fuzz_files_root) {
        fprintf(stderr, "fuzz: %s\n", err->message);
        abort();
    }
    atexit(fuzz_files_cleanup);
    work = g_build_filename(fuzz_files_root, "m", NULL);
    if (g_mkdir(work, 0700) != 0) {
        fprintf(stderr, "fuzz: cannot create %s\n", work);
        abort();
    }
    static const uint8_t zeros[256];
    fuzz_files_put(fuzz_files_root, "tiny.ptx", "", 0);
    fuzz_files_put(work, "kernel.ptx", "", 0);
    fuzz_files_put(work, "four.bin", zeros, 4);
    fuzz_files_put(work, "data.bin", zeros, 64);
    fuzz_files_put(work, "x128.bin", zeros, 128);
    fuzz_files_put(work, "scale.expected.bin", zeros, 256);
    return work;
}

static char *fuzz_files_write(const char *name, const uint8_t *data, size_t size)
{
    const char *dir = fuzz_files_dir();
    fuzz_files_put(dir, name, data, size);
    return g_build_filename(dir, name, NULL);
}

#endif
