/* fuzz_manifest.c — libFuzzer harness for the launch-manifest loader.
 *
 * Contract: the input bytes are a manifest file.  They are written to a
 * private scratch folder (fuzz_files.h) that holds small files for the
 * paths seed manifests name, then manifest_load() validates them.  A
 * manifest that loads has the initial contents of its small buffers
 * (at most SMALL_BUFFER_BYTES, so `random`/`iota` inits stay cheap) built by
 * manifest_buffer_initial().  Nothing is run: kernels are out of scope of a
 * front-end fuzzer.  Failures must be WARPSIM_ERROR GErrors; everything is
 * freed.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "manifest.h"
#include "fuzz_files.h"

#define SMALL_BUFFER_BYTES (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(GError *err)
{
    if (!err || err->domain != WARPSIM_ERROR || !err->message || !*err->message)
        abort();
    g_error_free(err);
}

/* bytes of one element of a manifest type name ("u8" .. "f64"), 0 if unknown */
static uint64_t type_bytes(const char *type)
{
    static const struct { const char *name; unsigned bytes; } types[] = {
        {"u8", 1}, {"s8", 1}, {"u16", 2}, {"s16", 2}, {"u32", 4},
        {"s32", 4}, {"u64", 8}, {"s64", 8}, {"f32", 4}, {"f64", 8},
    };
    for (size_t i = 0; type && i < G_N_ELEMENTS(types); i++)
        if (strcmp(types[i].name, type) == 0)
            return types[i].bytes;
    return 0;
}

/* Builds the initial bytes of every small buffer of a loaded manifest.  The
 * sizes come from the JSON again (the Manifest is opaque); the loader has
 * accepted it, so every name below is a buffer of the manifest. */
static void exercise_buffers(const Manifest *m, const uint8_t *data, size_t size)
{
    json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    json_t *buffers = json_object_get(root, "buffers");
    const char *name;
    json_t *b;
    json_object_foreach(buffers, name, b) {
        uint64_t esize = type_bytes(json_string_value(json_object_get(b, "type")));
        json_int_t count = json_integer_value(json_object_get(b, "count"));
        if (esize == 0 || count <= 0 || (uint64_t)count > SMALL_BUFFER_BYTES / esize)
            continue;
        GError *err = NULL;
        GBytes *bytes = manifest_buffer_initial(m, name, &err);
        if (bytes) {
            if (g_bytes_get_size(bytes) != (uint64_t)count * esize)
                abort();
            g_bytes_unref(bytes);
        } else {
            check_error(err);
        }
    }
    json_decref(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *path = fuzz_files_write("fuzz.json", data, size);
    GError *err = NULL;
    Manifest *m = manifest_load(path, &err);
    if (m) {
        exercise_buffers(m, data, size);
        manifest_free(m);
    } else {
        check_error(err);
    }
    g_free(path);
    return 0;
}
