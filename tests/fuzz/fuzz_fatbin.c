/* fuzz_fatbin.c — libFuzzer harness for the fat-binary reader.
 *
 * Contract: the input is the bytes of a fat binary (or several, one after
 * another, as in a program's .nv_fatbin section).  fatbin_extract_ptx_blob()
 * must either return PTX entries whose text is as long as it says and
 * NUL-terminated, or fail with a WARPSIM_ERROR GError with a message; never
 * read outside the input.  The PTX the runtime would pick is then parsed,
 * as the CUDA runtime does with it, and must parse or fail cleanly too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "fatbin.h"
#include "module.h"
#include "ptx_parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(GError *err)
{
    if (!err || err->domain != WARPSIM_ERROR || !err->message || !*err->message)
        abort();
    g_error_free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a private copy of exactly `size` bytes, so ASan sees any read past it */
    uint8_t *copy = g_memdup2(data, size);
    GError *err = NULL;
    GPtrArray *entries = fatbin_extract_ptx_blob(copy, size, &err);
    if (!entries) {
        check_error(err);
        g_free(copy);
        return 0;
    }
    for (guint i = 0; i < entries->len; i++) {
        const FatbinPtx *p = g_ptr_array_index(entries, i);
        if (!p->ptx || strlen(p->ptx) != p->ptx_len)
            abort();
    }
    const FatbinPtx *pick = fatbin_pick(entries);
    if (pick) {
        Module *m = ptx_parse_string(pick->ptx, "fatbin", &err);
        if (m)
            module_free(m);
        else
            check_error(err);
    }
    g_ptr_array_unref(entries);
    g_free(copy);
    return 0;
}
