/* replay.c — runs a fuzz harness over saved inputs, without libFuzzer.
 *
 * Contract: `fuzz_replay_<harness> PATH...` feeds every file named, and
 * every regular file directly inside every folder named (in name order), to
 * LLVMFuzzerTestOneInput once.  Linked with any harness, it turns the
 * regression inputs into ordinary tests of every build (plain, ASan): a
 * crash, sanitizer report or abort fails the test, and an input that runs
 * longer than REPLAY_TIMEOUT_S seconds is stopped by SIGALRM.  Exits 0 when
 * all inputs ran, 2 on a usage error or when no input was found (an empty
 * regression folder must not pass silently).
 */
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define REPLAY_TIMEOUT_S 60

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool run_file(const char *path)
{
    gchar *data;
    gsize size;
    GError *err = NULL;
    if (!g_file_get_contents(path, &data, &size, &err)) {
        fprintf(stderr, "replay: %s\n", err->message);
        g_error_free(err);
        return false;
    }
    printf("replay: %s (%zu bytes)\n", path, (size_t)size);
    fflush(stdout);
    alarm(REPLAY_TIMEOUT_S);
    LLVMFuzzerTestOneInput((const uint8_t *)data, size);
    alarm(0);
    g_free(data);
    return true;
}

static gint compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs the files directly inside `dir`; returns how many, or -1 on error. */
static int run_dir(const char *dir)
{
    GError *err = NULL;
    GDir *d = g_dir_open(dir, 0, &err);
    if (!d) {
        fprintf(stderr, "replay: %s\n", err->message);
        g_error_free(err);
        return -1;
    }
    GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(d))) {
        char *path = g_build_filename(dir, name, NULL);
        if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
            g_ptr_array_add(paths, path);
        else
            g_free(path);
    }
    g_dir_close(d);
    g_ptr_array_sort(paths, compare_names);
    int n = 0;
    for (guint i = 0; i < paths->len && n >= 0; i++)
        n = run_file(paths->pdata[i]) ? n + 1 : -1;
    g_ptr_array_free(paths, TRUE);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_FOLDER...\n", argv[0]);
        return 2;
    }
    int total = 0;
    for (int i = 1; i < argc; i++) {
        int n = g_file_test(argv[i], G_FILE_TEST_IS_DIR) ? run_dir(argv[i]) : run_file(argv[i]) ? 1 : -1;
        if (n < 0)
            return 2;
        total += n;
    }
    if (total == 0) {
        fprintf(stderr, "replay: no inputs found\n");
        return 2;
    }
    printf("replay: %d inputs ran without a finding\n", total);
    return 0;
}
