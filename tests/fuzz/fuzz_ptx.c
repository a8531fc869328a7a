/* fuzz_ptx.c — libFuzzer harness for the PTX front end.
 *
 * Contract: the input bytes are PTX text (up to the first NUL, as
 * ptx_parse_string reads a C string).  A module that parses is taken
 * through everything the loader does before running anything: the CFG,
 * liveness and register rows of every function (cfg_build_all), the
 * register estimate of every kernel and the listing of every instruction.
 * Any failure must come back as a WARPSIM_ERROR GError; everything is
 * freed, so a leak is a finding too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "errors.h"
#include "module.h"
#include "ptx_parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An error must be a well-formed warpsim error; anything else is a bug. */
static void check_error(GError *err)
{
    if (!err || err->domain != WARPSIM_ERROR || !err->message || !*err->message)
        abort();
    g_error_free(err);
}

static void exercise_module(Module *m)
{
    for (guint fi = 0; fi < m->funcs->len; fi++) {
        const Function *f = module_func(m, fi);
        if (f->is_entry && f->is_defined)
            (void)cfg_estimate_registers(m, fi);
        if (!f->is_defined)
            continue;
        for (uint32_t i = 0; i < func_ninsns(f); i++)
            g_free(insn_to_string(m, f, func_insn(f, i)));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = g_malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';

    GError *err = NULL;
    Module *m = ptx_parse_string(text, "fuzz.ptx", &err);
    if (!m) {
        check_error(err);
    } else if (!cfg_build_all(m, &err)) {
        check_error(err);
    } else {
        exercise_module(m);
    }
    module_free(m);
    g_free(text);
    return 0;
}
