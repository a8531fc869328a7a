/* device_state.c — the process's simulated device: lazy set-up from the
 * environment warpsim exec passes, the lock every API call takes, error
 * recording (per host thread, as CUDA's), and the clean-up at exit.
 *
 * Environment: WARPSIM_CONFIG (GPU configuration name or file, default
 * h200), WARPSIM_FUNCTIONAL=1 (no timing model), WARPSIM_REPORT=FILE (JSON
 * report at exit), WARPSIM_SUMMARY=1 (per-kernel table on stderr at exit),
 * WARPSIM_THREADS=N (host threads per launch, default all cores),
 * WARPSIM_MAX_INSTRUCTIONS=N and WARPSIM_MAX_CYCLES=N (each launch's budget).
 *
 * The CUDA release the program was built for (CudartDevice.abi_release)
 * is the soname it linked: this library is loaded under the name the
 * dynamic linker looked for (libcudart.so.12 or .13, symlinks to it), which
 * dladdr reports; when it was loaded under another name (LD_PRELOAD of
 * libwarpsim-cudart.so), the DT_NEEDED entries of the loaded objects say
 * which libcudart they asked for.  CUDA 13 otherwise.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr, dl_iterate_phdr */
#endif
#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart_internal.h"
#include "hostpool.h"
#include "report.h"
#include "schedule.h"

/* PCIe 4.0 x16 as programs see it: about 25 GB/s and a few microseconds
 * per transfer (docs/cudart.md). */
#define HOST_LINK_BYTES_PER_NS 25.0
#define HOST_LINK_LATENCY_NS   2000.0

/* cudaLimit defaults as a Hopper GPU reports them: stack, printf FIFO,
 * malloc heap, device-runtime sync depth and pending launches, L2 fetch
 * granularity, persisting L2 size. */
static const size_t default_limits[CUDART_LIMIT_COUNT] = {1024, 1u << 20, 8u << 20, 2, 2048, 32, 0};

static CudartDevice the_device = {0};

static void thread_free(gpointer p)
{
    CudartThread *t = p;
    g_array_unref(t->call_configs);
    g_free(t);
}

static GPrivate the_thread = G_PRIVATE_INIT(thread_free);

CudartThread *cudart_thread(void)
{
    CudartThread *t = g_private_get(&the_thread);
    if (!t) {
        t = g_new0(CudartThread, 1);
        t->call_configs = g_array_new(FALSE, TRUE, sizeof(CudartCallConfig));
        g_private_set(&the_thread, t);
    }
    return t;
}

static bool env_flag(const char *name)
{
    const char *v = g_getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* A positive count from the environment, 0 when unset; false (said) when
 * it is set to anything else. */
static bool env_count(const char *name, uint64_t *out)
{
    const char *v = g_getenv(name);
    *out = 0;
    if (!v || !*v)
        return true;
    guint64 n = 0;
    if (!g_ascii_string_to_unsigned(v, 10, 1, G_MAXUINT64, &n, NULL)) {
        cudart_message("error: %s=%s: expected a positive count", name, v);
        return false;
    }
    *out = n;
    return true;
}

static void kernel_free(gpointer p)
{
    CudartKernel *k = p;
    g_free(k->name);
    g_free(k->display_name);
    g_free(k);
}

static void symbol_free(gpointer p)
{
    CudartSymbol *s = p;
    g_free(s->name);
    g_free(s);
}

/* A child the program forked (and that did not exec) has a copy of the
 * parent's device, profile and all, but none of its threads: at its exit it
 * neither reports the parent's kernels again nor ends those threads. */
static void at_exit(void)
{
    CudartDevice *d = &the_device;
    if (getpid() != d->owner_pid)
        return;
    g_mutex_lock(&d->lock);
    cudart_profile_finish(d);
    g_clear_pointer(&d->pool, host_pool_free);
    g_clear_pointer(&d->timing_keep, timing_keep_free);
    g_mutex_unlock(&d->lock);
}

/* 12 or 13 from a file name ending in libcudart.so.N; 0 otherwise. */
static int release_of_name(const char *name)
{
    const char *base = name ? strrchr(name, '/') : NULL;
    base = base ? base + 1 : name;
    if (base && strcmp(base, "libcudart.so.12") == 0)
        return 12;
    if (base && strcmp(base, "libcudart.so.13") == 0)
        return 13;
    return 0;
}

/* dl_iterate_phdr callback: the first DT_NEEDED libcudart.so.N of any
 * loaded object goes to *(int *)data. */
static int needed_release(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC)
            continue;
        const ElfW(Dyn) *dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        const char *strtab = NULL;
        for (const ElfW(Dyn) *e = dyn; e->d_tag != DT_NULL; e++)
            if (e->d_tag == DT_STRTAB) {
                /* glibc relocates the loaded copy; objects it did not (the
                 * vDSO) still hold an offset from their load address */
                ElfW(Addr) at = e->d_un.d_ptr;
                strtab = (const char *)(at < info->dlpi_addr ? info->dlpi_addr + at : at);
            }
        if (!strtab)
            continue;
        for (const ElfW(Dyn) *e = dyn; e->d_tag != DT_NULL; e++) {
            int release = e->d_tag == DT_NEEDED ? release_of_name(strtab + e->d_un.d_val) : 0;
            if (release) {
                *(int *)data = release;
                return 1;
            }
        }
    }
    return 0;
}

static int linked_release(void)
{
    Dl_info self;
    if (dladdr((void *)(uintptr_t)&release_of_name, &self) && release_of_name(self.dli_fname))
        return release_of_name(self.dli_fname);
    int release = 0;
    dl_iterate_phdr(needed_release, &release);
    return release ? release : 13;
}

static void stream_free(gpointer p)
{
    CudartStream *s = p;
    if (s->capture_deps)
        g_ptr_array_unref(s->capture_deps);
    g_free(s);
}

static void event_free(gpointer p)
{
    CudartEvent *e = p;
    if (e->capture_deps)
        g_ptr_array_unref(e->capture_deps);
    g_free(e);
}

static void initialise(CudartDevice *d)
{
    d->initialised = true;
    const char *config = g_getenv("WARPSIM_CONFIG");
    GError *error = NULL;
    d->gpu = config_load(config && *config ? config : CONFIG_DEFAULT_NAME, NULL, &error);
    if (!d->gpu) {
        cudart_message("%s", error->message);
        g_error_free(error);
        d->init_error = cudaErrorInitializationError;
    }
    d->abi_release = linked_release();
    d->functional = env_flag("WARPSIM_FUNCTIONAL");
    d->summary = env_flag("WARPSIM_SUMMARY");
    GError *order_error = NULL;
    if (!schedule_parse_order(g_getenv("WARPSIM_ISSUE_ORDER"), "WARPSIM_ISSUE_ORDER", &d->ptx_order, &order_error)) {
        cudart_message("%s", order_error->message); /* warpsim exec checked its option; a hand-set variable */
        g_error_free(order_error);
        d->init_error = cudaErrorInitializationError;
    }
    if (!env_count("WARPSIM_MAX_INSTRUCTIONS", &d->max_instructions) ||
        !env_count("WARPSIM_MAX_CYCLES", &d->max_cycles))
        d->init_error = cudaErrorInitializationError; /* warpsim exec checked its options; a hand-set variable */
    const char *report = g_getenv("WARPSIM_REPORT");
    d->report_path = report && *report ? g_strdup(report) : NULL;
    const char *threads = g_getenv("WARPSIM_THREADS");
    d->host_threads = threads && atoi(threads) > 0 ? (uint32_t)atoi(threads) : launch_host_cores();
    d->pool = d->host_threads > 1 ? host_pool_new() : NULL;
    d->timing_keep = timing_keep_new();
    d->gmem = gmem_new();
    d->modules = g_ptr_array_new();
    d->kernels = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, kernel_free);
    d->symbols = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, symbol_free);
    d->managed_vars = g_hash_table_new(g_direct_hash, g_direct_equal);
    d->const_shadows = g_ptr_array_new();
    memcpy(d->limits, default_limits, sizeof d->limits);
    d->allocs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    d->streams = g_hash_table_new_full(g_direct_hash, g_direct_equal, stream_free, NULL);
    d->events = g_hash_table_new_full(g_direct_hash, g_direct_equal, event_free, NULL);
    d->graphs = g_hash_table_new(g_direct_hash, g_direct_equal);
    d->graph_nodes = g_hash_table_new(g_direct_hash, g_direct_equal);
    d->graph_execs = g_hash_table_new(g_direct_hash, g_direct_equal);
    d->captures = g_ptr_array_new();
    d->per_thread_stream = (CudartStream){.magic = CUDART_STREAM_MAGIC, .sync_policy = 1};
    d->warned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    d->kernel_order = g_ptr_array_new();
    d->report = report_new(d->gpu ? d->gpu->name : (config ? config : CONFIG_DEFAULT_NAME), NULL, !d->ptx_order);
    d->owner_pid = getpid();
    atexit(at_exit);
}

CudartDevice *cudart_enter(void)
{
    CudartDevice *d = &the_device;
    g_mutex_lock(&d->lock);
    if (!d->initialised)
        initialise(d);
    return d;
}

cudaError_t cudart_leave(CudartDevice *d, cudaError_t err)
{
    if (err != cudaSuccess)
        cudart_thread()->last_error = err;
    g_mutex_unlock(&d->lock);
    return err;
}

cudaError_t cudart_unusable(const CudartDevice *d)
{
    if (d->init_error)
        return d->init_error;
    return d->sticky_error;
}

void cudart_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s%s\n", strstr(text, "error:") ? "" : "warpsim: ", text);
    fflush(stderr);
    g_free(text);
}

double cudart_copy_ns(const CudartDevice *d, uint64_t bytes, bool host_side)
{
    if (host_side)
        return HOST_LINK_LATENCY_NS + (double)bytes / HOST_LINK_BYTES_PER_NS;
    /* device to device: read and write at the configured DRAM bandwidth */
    double per_ns = d->gpu ? d->gpu->dram_bytes_per_cycle * d->gpu->clock_mhz / 1000.0 : 1000.0;
    return (double)(2 * bytes) / (per_ns > 0 ? per_ns : 1000.0);
}

/* Global memory, or the constant bytes behind a __constant__ variable's
 * global mirror (cudaGetSymbolAddress). */
uint8_t *cudart_device_bytes(CudartDevice *d, const void *p, uint64_t n)
{
    uint64_t addr = (uint64_t)(uintptr_t)p;
    uint8_t *bytes = cudart_const_shadow_bytes(d, addr, n ? n : 1);
    return bytes ? bytes : gmem_ptr(d->gmem, addr, n ? n : 1);
}

void cudart_release_user_state(CudartDevice *d)
{
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, d->allocs);
    while (g_hash_table_iter_next(&it, &key, &value))
        gmem_release(d->gmem, *(uint64_t *)key);
    g_hash_table_remove_all(d->allocs);
    cudart_graphs_release(d);
    g_hash_table_remove_all(d->streams);
    g_hash_table_remove_all(d->events);
    g_array_set_size(cudart_thread()->call_configs, 0);
    memcpy(d->limits, default_limits, sizeof d->limits);
}
