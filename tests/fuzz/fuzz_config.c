/* fuzz_config.c — libFuzzer harness for the GPU-configuration loader.
 *
 * Contract: the input is a configuration file, optionally followed by a NUL
 * byte and newline-separated "key=value" overrides (the command line's
 * --set).  It is written to a private scratch folder (fuzz_files.h) as
 * fuzz.json and loaded twice through config_load():
 *   - on its own: its own "base" (a bundled name, a path, a cycle through
 *     child.json) is followed as written;
 *   - as the base of a fixed child.json, so the merge of a derived file and
 *     the keys a base does not pass on (name) run over fuzzed input.
 * Failures must be WARPSIM_ERROR GErrors; everything is freed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "errors.h"
#include "fuzz_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char child_json[] = "{\"base\": \"fuzz.json\", \"name\": \"child\"}\n";

static void check_error(GError *err)
{
    if (!err || err->domain != WARPSIM_ERROR || !err->message || !*err->message)
        abort();
    g_error_free(err);
}

static void load_and_free(const char *path, const char *const *overrides)
{
    GError *err = NULL;
    GpuConfig *c = config_load(path, overrides, &err);
    if (c) {
        if (!c->name || !c->source_file || c->num_sms == 0)
            abort(); /* a loaded config always has these (required, >= 1) */
        config_free(c);
    } else {
        check_error(err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t file_size = nul ? (size_t)(nul - data) : size;
    char **overrides = NULL;
    if (nul) {
        char *list = g_strndup((const char *)nul + 1, size - file_size - 1);
        overrides = g_strsplit(list, "\n", 8);
        g_free(list);
    }

    char *child = fuzz_files_write("child.json", (const uint8_t *)child_json, strlen(child_json));
    char *path = fuzz_files_write("fuzz.json", data, file_size);
    load_and_free(path, (const char *const *)overrides);
    load_and_free(child, NULL);
    g_free(path);
    g_free(child);
    g_strfreev(overrides);
    return 0;
}
