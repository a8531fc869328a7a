/* registry.c — what nvcc's generated host code registers before main():
 * fat binaries (loaded as PTX modules onto the device's one global memory),
 * kernels (host stub -> .entry) and variables (host shadow -> .global or
 * .const variable).  A fat binary that cannot be loaded is reported once on
 * stderr; its kernels then fail to launch with the reason.
 *
 * __managed__ variables are moved to host-mapped memory when registered, so
 * that host code (through the pointer nvcc generates) and kernels (by name)
 * use one address and one set of bytes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEFAULT */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "cudart_internal.h"
#include "errors.h"
#include "fatbin.h"
#include "ptx_parser.h"
#include "contract.h"
#include "schedule.h"

/* The module of one fat binary: its PTX (the highest architecture), or for
 * a -rdc=true program each translation unit's, parsed apart and linked
 * (module_link.c).  Deferring: a kernel using an instruction warpsim lacks
 * (textures, surfaces) must not keep the module's other kernels from
 * running. */
static Module *parse_units(const GPtrArray *picks, GError **error)
{
    const FatbinPtx *first = g_ptr_array_index((GPtrArray *)picks, 0);
    /* messages name the source file when the fat binary records it, else the program */
    const char *source = first->identifier ? first->identifier : program_invocation_short_name;
    if (picks->len == 1) {
        char *name = g_strdup_printf("%s (compute_%u PTX)", source, first->arch);
        Module *m = ptx_parse_string_deferring(first->ptx, name, error);
        g_free(name);
        return m;
    }
    Module **units = g_new0(Module *, picks->len);
    Module *linked = NULL;
    guint n = 0;
    for (; n < picks->len; n++) {
        const FatbinPtx *p = g_ptr_array_index((GPtrArray *)picks, n);
        char *name = g_strdup_printf("%s (compute_%u PTX, -rdc unit %u)", p->identifier ? p->identifier : source,
                                     p->arch, p->unit);
        units[n] = ptx_parse_string_deferring(p->ptx, name, error);
        g_free(name);
        if (!units[n])
            break;
    }
    if (n == picks->len) {
        char *name = g_strdup_printf("%s (compute_%u PTX, %u -rdc units linked)", source, first->arch, n);
        linked = cudart_link_modules(units, n, name, error);
        g_free(name);
    }
    for (guint i = 0; i < n; i++)
        module_free(units[i]);
    g_free(units);
    return linked;
}

static void load_module(CudartDevice *d, CudartModule *cm)
{
    GError *error = NULL;
    GPtrArray *entries = fatbin_extract_ptx(cm->wrapper, &error);
    GPtrArray *picks = entries ? fatbin_pick_units(entries) : NULL;
    if (!entries || !picks->len) {
        cudart_message("%s", error ? error->message : "error: the fat binary holds no PTX");
        cm->load_error = cudaErrorNoKernelImageForDevice;
        goto out;
    }
    cm->module = parse_units(picks, &error);
    if (cm->module)
        contract_module(cm->module);
    if (cm->module && !d->ptx_order)
        schedule_module(cm->module);
    if (cm->module && cfg_build_all(cm->module, &error))
        cm->image = image_load(cm->module, d->gmem, &error);
    if (!cm->image) {
        cudart_message("%s", error->message);
        cm->load_error = error->code == WS_ERR_UNSUPPORTED ? cudaErrorUnsupportedPtxVersion : cudaErrorInvalidPtx;
        module_free(cm->module);
        cm->module = NULL;
    }
out:
    g_clear_error(&error);
    if (picks)
        g_ptr_array_free(picks, TRUE);
    if (entries)
        g_ptr_array_free(entries, TRUE);
}

CUDART_API void **__cudaRegisterFatBinary(void *fatCubin)
{
    CudartDevice *d = cudart_enter();
    CudartModule *cm = g_new0(CudartModule, 1);
    cm->wrapper = fatCubin;
    load_module(d, cm);
    g_ptr_array_add(d->modules, cm);
    g_mutex_unlock(&d->lock);
    return &cm->handle_slot;
}

CUDART_API void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

static CudartModule *module_of(CudartDevice *d, void **handle)
{
    for (guint i = 0; i < d->modules->len; i++) {
        CudartModule *cm = g_ptr_array_index(d->modules, i);
        if ((void **)&cm->handle_slot == handle)
            return cm;
    }
    return NULL;
}

/* At exit.  The module's memory stays (the profile may still name it);
 * only its kernels and variables stop resolving. */
CUDART_API void __cudaUnregisterFatBinary(void **handle)
{
    CudartDevice *d = cudart_enter();
    CudartModule *cm = module_of(d, handle);
    if (cm) {
        GHashTableIter it;
        gpointer key, value;
        for (guint i = d->const_shadows->len; i > 0; i--)
            if (((CudartSymbol *)g_ptr_array_index(d->const_shadows, i - 1))->mod == cm)
                g_ptr_array_remove_index(d->const_shadows, i - 1);
        g_hash_table_iter_init(&it, d->managed_vars);
        while (g_hash_table_iter_next(&it, &key, &value))
            if (((CudartSymbol *)value)->mod == cm)
                g_hash_table_iter_remove(&it);
        g_hash_table_iter_init(&it, d->symbols);
        while (g_hash_table_iter_next(&it, &key, &value))
            if (((CudartSymbol *)value)->mod == cm)
                g_hash_table_iter_remove(&it);
    }
    g_mutex_unlock(&d->lock);
}

CUDART_API char __cudaInitModule(void **handle)
{
    CudartDevice *d = cudart_enter();
    CudartModule *cm = module_of(d, handle);
    bool ok = cm && cm->module;
    g_mutex_unlock(&d->lock);
    return ok;
}

CUDART_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                                       int thread_limit, void *tid, void *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun;
    (void)thread_limit;
    (void)tid;
    (void)bid;
    (void)bDim;
    (void)gDim;
    (void)wSize;
    CudartDevice *d = cudart_enter();
    CudartModule *cm = module_of(d, handle);
    CudartKernel *k = g_new0(CudartKernel, 1);
    k->name = g_strdup(deviceName);
    k->mod = cm;
    k->kernel = NO_INDEX;
    if (cm && cm->module) {
        uint32_t f = module_find_func(cm->module, deviceName);
        if (f != NO_INDEX && module_func(cm->module, f)->is_entry) {
            k->kernel = f;
            k->regs = cfg_estimate_registers(cm->module, f);
        }
    }
    g_hash_table_replace(d->kernels, (gpointer)hostFun, k);
    g_mutex_unlock(&d->lock);
}

static void register_var(void **handle, const void *hostVar, const char *deviceName, size_t size)
{
    CudartDevice *d = cudart_enter();
    CudartModule *cm = module_of(d, handle);
    CudartSymbol *s = g_new0(CudartSymbol, 1);
    s->name = g_strdup(deviceName);
    s->mod = cm;
    s->size = size;
    s->var = cm && cm->module ? module_find_global(cm->module, deviceName) : NO_INDEX;
    g_hash_table_replace(d->symbols, (gpointer)hostVar, s);
    g_mutex_unlock(&d->lock);
}

CUDART_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                                  size_t size, int constant, int global)
{
    (void)deviceAddress;
    (void)ext;
    (void)constant;
    (void)global;
    register_var(handle, hostVar, deviceName, size);
}

/* Moves a module .global variable to a host-mapped allocation holding its
 * current bytes: kernels find it there by name (the image's variable
 * address), the host through the returned address.  0 when it cannot. */
static uint64_t move_to_host_mapped(CudartDevice *d, CudartSymbol *s)
{
    if (!s->mod || !s->mod->image || s->var == NO_INDEX ||
        module_var(s->mod->module, s->var)->space != SPACE_GLOBAL)
        return 0;
    ModuleImage *img = s->mod->image;
    uint64_t size;
    uint8_t *old = image_var_bytes(img, s->var, &size);
    char *name = g_strdup_printf("__managed__ %s", s->name);
    GError *e = NULL;
    uint64_t base = gmem_alloc_host_mapped(d->gmem, size, name, &e);
    g_free(name);
    if (!base) {
        cudart_message("%s", e->message);
        g_error_free(e);
        return 0;
    }
    memcpy((void *)(uintptr_t)base, old, size);
    gmem_release(d->gmem, img->var_addr[s->var]);
    img->var_addr[s->var] = base;
    return base;
}

/* A __managed__ variable: the host reaches it through *hostVarPtrAddress,
 * which we point at the variable's (moved) storage. */
CUDART_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                                         const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress;
    (void)ext;
    (void)constant;
    (void)global;
    register_var(handle, hostVarPtrAddress, deviceName, size);
    CudartDevice *d = cudart_enter();
    CudartSymbol *s = g_hash_table_lookup(d->symbols, hostVarPtrAddress);
    uint64_t base = s ? move_to_host_mapped(d, s) : 0;
    if (base && hostVarPtrAddress) {
        s->managed_addr = base;
        g_hash_table_replace(d->managed_vars, (gpointer)(uintptr_t)base, s);
        *hostVarPtrAddress = (void *)(uintptr_t)base;
    }
    g_mutex_unlock(&d->lock);
}

CudartKernel *cudart_kernel_for(CudartDevice *d, const void *host_fn)
{
    return g_hash_table_lookup(d->kernels, host_fn);
}

CudartSymbol *cudart_symbol_for(CudartDevice *d, const void *host_var)
{
    CudartSymbol *s = g_hash_table_lookup(d->symbols, host_var);
    return s ? s : g_hash_table_lookup(d->managed_vars, host_var);
}

/* C++ names are demangled by the C++ runtime the program itself loaded
 * (nvcc links host code with libstdc++); without it they stay mangled. */
typedef char *(*DemangleFn)(const char *mangled, char *buf, size_t *len, int *status);

const char *cudart_kernel_display_name(CudartKernel *k)
{
    if (k->display_name)
        return k->display_name;
    DemangleFn demangle = NULL;
    if (g_str_has_prefix(k->name, "_Z")) {
        void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
        memcpy(&demangle, &sym, sizeof demangle);
    }
    int status = -1;
    char *plain = demangle ? demangle(k->name, NULL, NULL, &status) : NULL;
    k->display_name = g_strdup(plain && status == 0 ? plain : k->name);
    free(plain); /* malloc'd by the C++ runtime */
    return k->display_name;
}
