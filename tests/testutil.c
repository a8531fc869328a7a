/* testutil.c — run a PTX kernel from a string for the unit tests. */
#include "testutil.h"

#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "launch.h"
#include "memory.h"
#include "ptx_parser.h"

char *tu_run(const char *ptx, const char *kernel, uint32_t gx, uint32_t bx, TuBuf *bufs, int nbufs,
             const uint64_t *scalars, int nscalars)
{
    return tu_run_hooked(ptx, kernel, gx, bx, bufs, nbufs, scalars, nscalars, NULL, NULL);
}

char *tu_run_hooked(const char *ptx, const char *kernel, uint32_t gx, uint32_t bx, TuBuf *bufs, int nbufs,
                    const uint64_t *scalars, int nscalars, TuImageHook hook, void *hook_data)
{
    TuOptions opt = {.hook = hook, .hook_data = hook_data};
    return tu_run_with(ptx, kernel, gx, bx, bufs, nbufs, scalars, nscalars, &opt);
}

char *tu_run_with(const char *ptx, const char *kernel, uint32_t gx, uint32_t bx, TuBuf *bufs, int nbufs,
                  const uint64_t *scalars, int nscalars, const TuOptions *opt)
{
    GError *error = NULL;
    char *message = NULL;
    GlobalMemory *g = gmem_new();
    ModuleImage *img = NULL;
    uint8_t *params = NULL;
    uint64_t *addr = g_new0(uint64_t, nbufs > 0 ? nbufs : 1);
    Module *m = ptx_parse_string(ptx, "test.ptx", &error);
    if (!m || !cfg_build_all(m, &error))
        goto out;
    img = image_load(m, g, &error);
    if (!img)
        goto out;
    if (opt->hook)
        opt->hook(img, opt->hook_data);
    uint32_t k = module_find_kernel(m, kernel, &error);
    if (k == NO_INDEX)
        goto out;
    params = g_malloc0(module_func(m, k)->frame_param_bytes + 8);
    for (int i = 0; i < nbufs; i++) {
        addr[i] = gmem_alloc(g, bufs[i].size, "buf", &error);
        if (!addr[i])
            goto out;
        if (bufs[i].size)
            memcpy(gmem_ptr(g, addr[i], bufs[i].size), bufs[i].data, bufs[i].size);
        if (!launch_pack_param(m, k, (uint32_t)i, addr[i], params, &error))
            goto out;
    }
    for (int i = 0; i < nscalars; i++)
        if (!launch_pack_param(m, k, (uint32_t)(nbufs + i), scalars[i], params, &error))
            goto out;
    LaunchSpec spec = {.kernel = k, .grid = {gx, 1, 1}, .block = {bx, 1, 1}, .params = params,
                       .nsm = 1, .max_instructions = opt->max_instructions ? opt->max_instructions : 10000000};
    LaunchStats stats;
    launch_stats_init(&stats, m);
    bool ok = launch_run(img, &spec, &stats, &error);
    if (opt->on_stats)
        opt->on_stats(&stats, opt->stats_data);
    launch_stats_clear(&stats);
    for (int i = 0; i < nbufs; i++)
        if (bufs[i].size)
            memcpy(bufs[i].data, gmem_ptr(g, addr[i], bufs[i].size), bufs[i].size);
    (void)ok;
out:
    if (error) {
        message = g_strdup(error->message);
        g_error_free(error);
    }
    g_free(params);
    g_free(addr);
    image_free(img);
    module_free(m);
    gmem_free(g);
    return message;
}

uint32_t tu_insn_at_line(const Function *f, uint32_t line)
{
    for (uint32_t i = 0; i < func_ninsns(f); i++)
        if (func_insn(f, i)->line == line)
            return i;
    ck_abort_msg("no instruction on line %u", line);
    return 0;
}

char *tu_source_path(const char *relative)
{
    return g_build_filename(SOURCE_ROOT, relative, NULL);
}

int tu_run_suite(Suite *s)
{
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
