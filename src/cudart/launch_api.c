/* launch_api.c — kernel launches (<<<>>> and cudaLaunchKernel), which run
 * on the simulator synchronously, and the per-kernel queries: attributes
 * and occupancy.
 *
 * A launch packs the arguments by the kernel's .param layout (args[i]
 * points at parameter i's bytes), runs the timing model on the configured
 * GPU (or the functional core when WARPSIM_FUNCTIONAL is set), advances the
 * simulated clock by the modelled time and records the profile.  A fault
 * is printed with warpsim's message and becomes the sticky error CUDA
 * would report at the next synchronising call.  A launch is a CudartOp
 * (cudart_kernel_op) run at once, or recorded when its stream is
 * capturing; cudart_run_op runs every kind of op (graph launches). */
#include <string.h>

#include "cudart_internal.h"
#include "errors.h"
#include "occupancy.h"
#include "timing.h"

/* cudaError_t for a launch's error: shape and resources are rejected before
 * the kernel runs; faults are classified as CUDA reports them. */
static cudaError_t launch_error_code(const GError *e)
{
    if (e->code == WS_ERR_INPUT)
        return strstr(e->message, "too many resources") ? cudaErrorLaunchOutOfResources
                                                        : cudaErrorInvalidConfiguration;
    if (strstr(e->message, "device-side assertion"))
        return cudaErrorAssert;
    if (strstr(e->message, "misaligned"))
        return cudaErrorMisalignedAddress;
    if (strstr(e->message, "error: invalid "))
        return cudaErrorIllegalAddress;
    if (strstr(e->message, " budget of ")) /* --max-instructions, --max-cycles: a watchdog's timeout */
        return cudaErrorLaunchTimeout;
    return cudaErrorLaunchFailure;
}

/* Kernel time without the timing model: every warp instruction issued at
 * the GPU's peak rate (a lower bound; docs/cudart.md). */
static double functional_ns(const GpuConfig *gpu, const LaunchStats *ls)
{
    double per_cycle = (double)gpu->num_sms * gpu->schedulers_per_sm * (gpu->issue_width ? gpu->issue_width : 1);
    return (double)ls->warp_insts / per_cycle * 1000.0 / gpu->clock_mhz;
}

/* What CUDA checks before a kernel runs: the kernel has an image warpsim
 * can run.  Not sticky: the last error only. */
static cudaError_t kernel_ready(CudartKernel *k)
{
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (!k->mod || !k->mod->module)
        return k->mod ? k->mod->load_error : cudaErrorInvalidDeviceFunction;
    if (k->kernel == NO_INDEX) {
        cudart_message("error: kernel %s is not in the program's PTX", k->name);
        return cudaErrorInvalidDeviceFunction;
    }
    GError *why = NULL;
    if (!module_func_runnable(k->mod->module, k->kernel, &why)) {
        /* refused before it runs, as CUDA refuses a kernel it has no image
         * for: the last error, not a sticky one */
        if (!k->unsupported_reported)
            cudart_message("%s", why->message);
        k->unsupported_reported = true;
        g_error_free(why);
        return cudaErrorNotSupported;
    }
    return cudaSuccess;
}

static uint64_t static_shared_bytes(const Module *m, uint32_t kernel)
{
    uint64_t *offsets = NULL;
    uint32_t size = 0;
    LaunchSpec spec = {.kernel = kernel, .grid = {1, 1, 1}, .block = {1, 1, 1}};
    GError *e = NULL;
    if (!launch_prepare(m, &spec, &offsets, &size, &e))
        g_clear_error(&e);
    g_free(offsets);
    return size;
}

/* Without the opt-in, a block may use 48 KiB of shared memory (CUDA's
 * default on every GPU that allows more; those before allow no more). */
#define SHARED_WITHOUT_OPT_IN 49152u

/* The most dynamic shared memory a launch of the kernel may ask for:
 * cudaFuncAttributeMaxDynamicSharedMemorySize once set, else what 48 KiB
 * leaves beside its static shared memory (as cudaFuncGetAttributes says). */
static uint64_t max_dynamic_smem(const CudartDevice *d, const CudartKernel *k)
{
    if (k->max_dynamic_smem_set)
        return k->max_dynamic_smem;
    uint64_t cap = MIN(SHARED_WITHOUT_OPT_IN, d->gpu->smem_per_block);
    uint64_t fixed = static_shared_bytes(k->mod->module, k->kernel);
    return cap > fixed ? cap - fixed : 0;
}

cudaError_t cudart_kernel_op(CudartDevice *d, CudartKernel *k, const void *func, dim3 grid, dim3 block,
                             size_t smem, void **args, CudartOp *op)
{
    memset(op, 0, sizeof *op);
    cudaError_t err = kernel_ready(k);
    if (err)
        return err;
    /* more than the kernel opted in to (a GPU refuses the launch) */
    if (smem && smem > max_dynamic_smem(d, k))
        return cudaErrorInvalidValue;
    const Module *mod = k->mod->module;
    const Function *f = module_func(mod, k->kernel);
    if (f->params->len && !args)
        return cudaErrorInvalidValue;
    op->kind = CUDART_OP_KERNEL;
    op->u.kernel.k = k;
    op->u.kernel.func = func;
    op->u.kernel.grid = grid;
    op->u.kernel.block = block;
    op->u.kernel.smem = (unsigned)smem;
    op->u.kernel.param_bytes = f->frame_param_bytes;
    op->u.kernel.params = g_malloc0(f->frame_param_bytes ? f->frame_param_bytes : 1);
    for (guint i = 0; i < f->params->len; i++) {
        const Variable *pv = module_var(mod, g_array_index(f->params, uint32_t, i));
        if (pv->size)
            memcpy(op->u.kernel.params + pv->offset, args[i], pv->size);
    }
    return cudaSuccess;
}

/* Runs a kernel op: the timing model (or the functional core), the clock,
 * the profile; a fault becomes the sticky error. */
static cudaError_t run_kernel(CudartDevice *d, const CudartOp *op)
{
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    CudartKernel *k = op->u.kernel.k;
    if ((err = kernel_ready(k)))
        return err;
    const Module *mod = k->mod->module;
    dim3 grid = op->u.kernel.grid, block = op->u.kernel.block;
    const GpuConfig *gpu = d->gpu;
    const GpuConfig *timed = d->functional ? NULL : gpu;
    Dim3 g = {grid.x, grid.y, grid.z}, b = {block.x, block.y, block.z};
    LaunchSpec spec = {
        .kernel = k->kernel, .grid = g, .block = b, .dynamic_shared_bytes = op->u.kernel.smem,
        .params = op->u.kernel.params, .gridid = ++d->gridid, .nsm = gpu->num_sms,
        .host_threads = d->host_threads, .gpu = gpu, .regs_per_thread = k->regs,
        .cooperative = op->u.kernel.cooperative, .pool = d->pool, .timing_keep = d->timing_keep,
        .max_instructions = d->max_instructions, .max_cycles = timed ? d->max_cycles : 0,
    };
    LaunchStats ls;
    TimingStats ts;
    launch_stats_init(&ls, mod);
    if (timed)
        timing_stats_init(&ts, mod);
    GError *e = NULL;
    cudart_const_shadows_sync(d, true);
    bool ok = timed ? timing_run(k->mod->image, &spec, timed, k->regs, &ls, &ts, &e)
                    : launch_run(k->mod->image, &spec, &ls, &e);
    cudart_const_shadows_sync(d, false);
    double ns = 0;
    if (ok)
        ns = timed ? (double)ts.cycles * 1000.0 / gpu->clock_mhz : functional_ns(gpu, &ls);
    d->clock_ns += ns;
    if (ok) {
        cudart_profile_launch(d, k, g, b, &ls, timed ? &ts : NULL, ns, NULL);
    } else {
        cudart_message("%s", e->message);
        err = launch_error_code(e);
        if (e->code != WS_ERR_INPUT) {
            /* the kernel ran and faulted: the context is lost, as on a GPU */
            d->sticky_error = err;
            cudart_profile_launch(d, k, g, b, &ls, timed ? &ts : NULL, ns, e->message);
        }
        g_error_free(e);
    }
    launch_stats_clear(&ls);
    if (timed)
        timing_stats_clear(&ts);
    return err;
}

/* The host stub a kernel was registered under (the registry maps stubs to
 * kernels; this is the other way, for the rare caller that needs it). */
static const void *host_stub_of(CudartDevice *d, const CudartKernel *k)
{
    GHashTableIter it;
    gpointer stub, kernel;
    g_hash_table_iter_init(&it, d->kernels);
    while (g_hash_table_iter_next(&it, &stub, &kernel))
        if (kernel == k)
            return stub;
    return NULL;
}

cudaError_t cudart_launch(CudartDevice *d, CudartKernel *k, const void *func, dim3 grid, dim3 block, void **args,
                          size_t shared_mem, cudaStream_t stream, bool cooperative)
{
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (!cudart_stream_ok(d, stream))
        return cudaErrorInvalidResourceHandle;
    bool record = false;
    if ((err = cudart_capture_begin_op(d, stream, &record)))
        return err;
    CudartOp op;
    if ((err = cudart_kernel_op(d, k, func, grid, block, shared_mem, args, &op)))
        return err;
    if (cooperative) {
        if ((err = cudart_cooperative_fits(d, k, grid, block, shared_mem))) {
            cudart_op_clear(&op);
            return err;
        }
        op.u.kernel.cooperative = true;
    }
    if (record) {
        /* nvcc 13's stubs launch by handle: the node still names the host
         * stub (cudaGraphKernelNodeGetParams' func, passed back to SetParams) */
        if (!op.u.kernel.func)
            op.u.kernel.func = host_stub_of(d, k);
        return cudart_capture_add(d, stream, &op);
    }
    err = run_kernel(d, &op);
    cudart_op_clear(&op);
    return err;
}

/* ----------------------------------------------------------- ops */

cudaError_t cudart_run_op(CudartDevice *d, const CudartOp *op)
{
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    switch (op->kind) {
    case CUDART_OP_KERNEL:
        return run_kernel(d, op);
    case CUDART_OP_COPY:
        return cudart_copy_3d(d, &op->u.copy);
    case CUDART_OP_FILL:
        return cudart_fill_2d(d, &op->u.fill);
    case CUDART_OP_HOST:
        /* host work runs without the lock: it may call back into the runtime */
        g_mutex_unlock(&d->lock);
        op->u.host.fn(op->u.host.data);
        g_mutex_lock(&d->lock);
        return cudaSuccess;
    case CUDART_OP_EVENT_RECORD:
        if (g_hash_table_contains(d->events, op->u.event)) {
            CudartEvent *e = (CudartEvent *)op->u.event;
            e->recorded = true;
            e->at_ns = d->clock_ns;
        }
        return cudaSuccess;
    default: /* waits, empty nodes, graph memory (allocated when captured); children are flattened */
        return cudaSuccess;
    }
}

void cudart_op_copy(CudartOp *to, const CudartOp *from)
{
    *to = *from;
    if (from->kind == CUDART_OP_KERNEL)
        to->u.kernel.params = g_memdup2(from->u.kernel.params, MAX(from->u.kernel.param_bytes, 1));
}

void cudart_op_clear(CudartOp *op)
{
    if (op->kind == CUDART_OP_KERNEL)
        g_clear_pointer(&op->u.kernel.params, g_free);
    memset(op, 0, sizeof *op);
}

CUDART_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    CudartCallConfig c = {gridDim, blockDim, sharedMem, stream};
    g_array_append_val(cudart_thread()->call_configs, c);
    g_mutex_unlock(&d->lock);
    return 0;
}

CUDART_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    CudartDevice *d = cudart_enter();
    GArray *configs = cudart_thread()->call_configs;
    if (configs->len == 0)
        return cudart_leave(d, cudaErrorMissingConfiguration);
    CudartCallConfig c = g_array_index(configs, CudartCallConfig, configs->len - 1);
    g_array_set_size(configs, configs->len - 1);
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared_mem;
    *(cudaStream_t *)stream = c.stream;
    g_mutex_unlock(&d->lock);
    return cudaSuccess;
}

CUDART_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudart_launch(d, cudart_kernel_for(d, func), func, gridDim, blockDim, args, sharedMem, stream,
                                         false));
}

CUDART_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                             size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

/* cudaLaunchKernelEx: attributes that only tune scheduling are ignored;
 * cudaLaunchAttributeCooperative makes a cooperative launch
 * (cooperative_api.c); thread-block clusters are not modelled. */
CUDART_API cudaError_t cudaLaunchKernelExC(const struct cudaLaunchConfig *config, const void *func, void **args)
{
    CudartDevice *d = cudart_enter();
    if (!config || (config->numAttrs && !config->attrs))
        return cudart_leave(d, cudaErrorInvalidValue);
    bool cooperative = false;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const struct cudaLaunchAttribute *a = &config->attrs[i];
        if (a->id == cudaLaunchAttributeCooperative) {
            int on; /* the value's first member: an int */
            memcpy(&on, a->val.bytes, sizeof on);
            cooperative = on != 0;
        }
        if (a->id == cudaLaunchAttributeClusterDimension &&
            a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1) {
            cudart_message("cudaLaunchKernelEx: thread-block clusters are not supported by warpsim");
            return cudart_leave(d, cudaErrorNotSupported);
        }
    }
    return cudart_leave(d, cudart_launch(d, cudart_kernel_for(d, func), func, config->gridDim, config->blockDim, args,
                                         config->dynamicSmemBytes, config->stream, cooperative));
}

CUDART_API cudaError_t cudaLaunchKernelExC_ptsz(const struct cudaLaunchConfig *config, const void *func, void **args)
{
    return cudaLaunchKernelExC(config, func, args);
}

/* nvcc 13's stubs: a handle per kernel, fetched once, then launches by handle. */
CUDART_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
    CudartDevice *d = cudart_enter();
    CudartKernel *k = cudart_kernel_for(d, func);
    if (kernel)
        *kernel = k;
    return cudart_leave(d, k ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

CUDART_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                          size_t sharedMem, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudart_launch(d, kernel, NULL, gridDim, blockDim, args, sharedMem, stream, false));
}

CUDART_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                               size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

/* ------------------------------------------------------------ queries */

static CudartKernel *loaded_kernel(CudartDevice *d, const void *func)
{
    CudartKernel *k = cudart_kernel_for(d, func);
    return k && k->mod && k->mod->module && k->kernel != NO_INDEX ? k : NULL;
}

/* The architecture of a module's `.target sm_XY[a|f]` as XY, 0 when the
 * target names none. */
static int ptx_target_arch(const Module *m)
{
    const char *t = m->target;
    if (t && g_str_has_prefix(t, "sm_") && g_ascii_isdigit(t[3]))
        return (int)g_ascii_strtoull(t + 3, NULL, 10);
    return 0;
}

CUDART_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err = cudart_unusable(d);
    if (err)
        return cudart_leave(d, err);
    CudartKernel *k = loaded_kernel(d, func);
    if (!attr)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!k)
        return cudart_leave(d, cudaErrorInvalidDeviceFunction);
    const Module *m = k->mod->module;
    const Function *f = module_func(m, k->kernel);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = static_shared_bytes(m, k->kernel);
    for (guint i = 0; i < m->vars->len; i++)
        if (module_var(m, i)->space == SPACE_CONST && module_var(m, i)->scope == VAR_MODULE)
            attr->constSizeBytes += module_var(m, i)->size;
    attr->localSizeBytes = f->frame_local_bytes;
    attr->maxThreadsPerBlock = (int)d->gpu->max_threads_per_block;
    attr->numRegs = (int)k->regs;
    /* what CUDA reports here is the PTX's target architecture (75 for
     * .target sm_75), not the PTX ISA version: CUB picks its kernels by it */
    attr->binaryVersion = (int)(d->gpu->cc_major * 10 + d->gpu->cc_minor);
    attr->ptxVersion = ptx_target_arch(m) ? ptx_target_arch(m) : attr->binaryVersion;
    attr->maxDynamicSharedSizeBytes = (int)max_dynamic_smem(d, k);
    attr->preferredShmemCarveout = -1;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    CudartDevice *d = cudart_enter();
    CudartKernel *k = loaded_kernel(d, func);
    if (!k)
        return cudart_leave(d, cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        /* with its static shared memory, within what a block may opt in to */
        if (value < 0 || (uint64_t)value + static_shared_bytes(k->mod->module, k->kernel) > d->gpu->smem_per_block)
            return cudart_leave(d, cudaErrorInvalidValue);
        k->max_dynamic_smem = (uint32_t)value;
        k->max_dynamic_smem_set = true;
        return cudart_leave(d, cudaSuccess);
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return cudart_leave(d, value >= -1 && value <= 100 ? cudaSuccess : cudaErrorInvalidValue);
    return cudart_leave(d, cudaErrorInvalidValue);
}

/* The kernel's name as the module has it (mangled, as CUDA returns it). */
CUDART_API cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    CudartDevice *d = cudart_enter();
    if (!name)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartKernel *k = cudart_kernel_for(d, func);
    if (!k)
        return cudart_leave(d, cudaErrorInvalidDeviceFunction);
    *name = k->name;
    return cudart_leave(d, cudaSuccess);
}

/* The timing model has one L1/shared split per configuration: a preference
 * is accepted and has no effect, as on GPUs without a configurable split. */
CUDART_API cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    CudartDevice *d = cudart_enter();
    CudartKernel *k = loaded_kernel(d, func);
    if (!k)
        return cudart_leave(d, cudaErrorInvalidDeviceFunction);
    return cudart_leave(d, cacheConfig >= 0 && cacheConfig <= 3 ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                              int blockSize, size_t dynamicSMemSize,
                                                                              unsigned int flags)
{
    (void)flags;
    CudartDevice *d = cudart_enter();
    CudartKernel *k = loaded_kernel(d, func);
    if (!k)
        return cudart_leave(d, cudaErrorInvalidDeviceFunction);
    if (!numBlocks || blockSize <= 0)
        return cudart_leave(d, cudaErrorInvalidValue);
    if ((uint32_t)blockSize > d->gpu->max_threads_per_block) {
        *numBlocks = 0;
        return cudart_leave(d, cudaSuccess);
    }
    Occupancy o;
    uint64_t smem = static_shared_bytes(k->mod->module, k->kernel) + dynamicSMemSize;
    occupancy_compute(d->gpu, (uint32_t)blockSize, k->regs, (uint32_t)MIN(smem, UINT32_MAX), &o);
    *numBlocks = (int)o.blocks_per_sm;
    return cudart_leave(d, cudaSuccess);
}

/* The dynamic shared memory each of numBlocks blocks of blockSize threads
 * can have with all of them resident on one SM: the SM's shared memory
 * split numBlocks ways (less what the driver reserves per block and the
 * kernel's static shared memory), capped by the per-block limit; 0 when
 * that many blocks cannot be resident for other reasons. */
CUDART_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                 int numBlocks, int blockSize)
{
    CudartDevice *d = cudart_enter();
    CudartKernel *k = loaded_kernel(d, func);
    if (!k)
        return cudart_leave(d, cudaErrorInvalidDeviceFunction);
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
        return cudart_leave(d, cudaErrorInvalidValue);
    const GpuConfig *gpu = d->gpu;
    uint64_t static_smem = static_shared_bytes(k->mod->module, k->kernel);
    Occupancy o;
    occupancy_compute(gpu, (uint32_t)blockSize, k->regs, (uint32_t)static_smem, &o);
    *dynamicSmemSize = 0;
    if ((uint32_t)blockSize > gpu->max_threads_per_block || o.blocks_per_sm < (uint32_t)numBlocks)
        return cudart_leave(d, cudaSuccess);
    uint64_t per_block = gpu->smem_per_sm / (uint64_t)numBlocks;
    per_block = per_block > gpu->smem_reserved_per_block ? per_block - gpu->smem_reserved_per_block : 0;
    per_block = MIN(per_block, (uint64_t)gpu->smem_per_block);
    *dynamicSmemSize = per_block > static_smem ? per_block - static_smem : 0;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                     size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}
