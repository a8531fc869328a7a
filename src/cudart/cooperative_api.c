/* cooperative_api.c — cooperative launches: cudaLaunchCooperativeKernel
 * and cudaLaunchKernelEx with cudaLaunchAttributeCooperative.
 *
 * A cooperative grid must fit the device at once, as CUDA requires: no
 * more blocks than cudaOccupancyMaxActiveBlocksPerMultiprocessor allows per
 * SM times the SM count, else cudaErrorCooperativeLaunchTooLarge before
 * anything runs.  The launch itself is an ordinary kernel op marked
 * cooperative (LaunchSpec.cooperative: every CTA resident, the grid
 * workspace that this_grid().sync() uses at %envreg1:%envreg2), so it runs,
 * is captured into graphs and is profiled like any other launch. */
#include "cudart_internal.h"
#include "occupancy.h"

/* cudaSuccess when a cooperative grid of this shape fits the device;
 * shapes CUDA rejects for other reasons are left to the launch, which
 * reports them with their own error. */
cudaError_t cudart_cooperative_fits(CudartDevice *d, CudartKernel *k, dim3 grid, dim3 block, size_t smem)
{
    const GpuConfig *gpu = d->gpu;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    uint64_t blocks = (uint64_t)grid.x * grid.y * grid.z;
    if (threads == 0 || threads > gpu->max_threads_per_block || blocks == 0 || smem > UINT32_MAX)
        return cudaSuccess;
    LaunchSpec spec = {.kernel = k->kernel, .grid = {grid.x, grid.y, grid.z}, .block = {block.x, block.y, block.z},
                       .dynamic_shared_bytes = (uint32_t)smem};
    uint64_t *offsets = NULL;
    uint32_t shared = 0;
    GError *e = NULL;
    bool shaped = launch_prepare(k->mod->module, &spec, &offsets, &shared, &e);
    g_free(offsets);
    g_clear_error(&e);
    if (!shaped)
        return cudaSuccess;
    Occupancy occ;
    occupancy_compute(gpu, (uint32_t)threads, k->regs, shared, &occ);
    uint64_t resident = (uint64_t)occ.blocks_per_sm * gpu->num_sms;
    if (occ.blocks_per_sm == 0 || blocks <= resident)
        return cudaSuccess; /* a block that fits nowhere: the launch says why */
    cudart_message("cudaLaunchCooperativeKernel: a grid of %" G_GUINT64_FORMAT " blocks of %s is too large: at "
                   "most %u blocks per SM (limited by %s) x %u SMs = %" G_GUINT64_FORMAT " can be resident at once",
                   blocks, cudart_kernel_display_name(k), occ.blocks_per_sm, occupancy_limiter_name(occ.limiter),
                   gpu->num_sms, resident);
    return cudaErrorCooperativeLaunchTooLarge;
}

CUDART_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                   size_t sharedMem, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudart_launch(d, cudart_kernel_for(d, func), func, gridDim, blockDim, args, sharedMem,
                                         stream, true));
}

CUDART_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                        size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, stream);
}
