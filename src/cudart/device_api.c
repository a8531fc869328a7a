/* device_api.c — the one simulated device: count, selection, flags, reset,
 * versions, cudaGetDeviceProperties and cudaDeviceGetAttribute.
 *
 * Properties come from the active GpuConfig (name, compute capability, SMs,
 * clock, per-SM and per-block limits, L2); what a configuration does not
 * model (memory size, memory clock and bus, PCI ids) has a fixed plausible
 * value listed in docs/cudart.md.  Attributes are read from the same
 * properties, so the two never disagree. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cudart_internal.h"

#define DEVICE_MEMORY_BYTES (80ull << 30)
#define MEMORY_BUS_BITS 5120        /* HBM3e stacks of an H100/H200 */
#define MEMORY_CLOCK_KHZ 2619000
#define RUNTIME_VERSION 13000       /* CUDA 13.0 */
#define RUNTIME_VERSION_12 12090    /* CUDA 12.9, the last CUDA 12: for programs that linked libcudart.so.12 */

#define GPU_PCI_DEVICE_ID 0x233510deu /* device id << 16 | NVIDIA's vendor id */

/* Texture and surface size limits: warpsim runs no texture instructions,
 * but programs print and check these (deviceQuery), so they are a Hopper
 * GPU's. */
static void fill_texture_limits(struct cudaDeviceProp *p)
{
    static const struct cudaDeviceProp hopper = {
        .maxTexture1D = 131072, .maxTexture1DMipmap = 32768, .maxTexture2D = {131072, 65536},
        .maxTexture2DMipmap = {32768, 32768}, .maxTexture2DLinear = {131072, 65000, 2097120},
        .maxTexture2DGather = {32768, 32768}, .maxTexture3D = {16384, 16384, 16384},
        .maxTexture3DAlt = {8192, 8192, 32768}, .maxTextureCubemap = 32768, .maxTexture1DLayered = {32768, 2048},
        .maxTexture2DLayered = {32768, 32768, 2048}, .maxTextureCubemapLayered = {32768, 2046},
        .maxSurface1D = 32768, .maxSurface2D = {131072, 65536}, .maxSurface3D = {16384, 16384, 16384},
        .maxSurface1DLayered = {32768, 2048}, .maxSurface2DLayered = {32768, 32768, 2048},
        .maxSurfaceCubemap = 32768, .maxSurfaceCubemapLayered = {32768, 2046},
    };
    size_t from = offsetof(struct cudaDeviceProp, maxTexture1D);
    size_t to = offsetof(struct cudaDeviceProp, surfaceAlignment);
    memcpy((char *)p + from, (const char *)&hopper + from, to - from);
}

static void fill_properties(const GpuConfig *g, struct cudaDeviceProp *p)
{
    memset(p, 0, sizeof *p);
    g_strlcpy(p->name, g->display_name ? g->display_name : g->name, sizeof p->name);
    memcpy(p->uuid.bytes, "warpsim-device-0", 16);
    p->totalGlobalMem = DEVICE_MEMORY_BYTES;
    p->sharedMemPerBlock = MIN(g->smem_per_block, 48u * 1024u);
    p->regsPerBlock = (int)g->regs_per_block;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = (int)g->max_threads_per_block;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = (int)g->max_threads_per_block;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = g->max_grid[0] ? (int)g->max_grid[0] : 2147483647;
    p->maxGridSize[1] = g->max_grid[1] ? (int)g->max_grid[1] : 65535;
    p->maxGridSize[2] = g->max_grid[2] ? (int)g->max_grid[2] : 65535;
    p->totalConstMem = 65536;
    p->major = (int)g->cc_major;
    p->minor = (int)g->cc_minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = (int)g->num_sms;
    p->canMapHostMemory = 1;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->streamPrioritiesSupported = 1;
    p->memoryPoolsSupported = 1;
    p->memoryPoolSupportedHandleTypes = 0;
    p->pciBusID = 1;
    p->asyncEngineCount = 1;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = MEMORY_BUS_BITS;
    p->l2CacheSize = (int)g->l2.size_bytes;
    p->maxThreadsPerMultiProcessor = (int)g->max_threads_per_sm;
    p->globalL1CacheSupported = g->l1_caches_global;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = g->smem_per_sm;
    p->regsPerMultiprocessor = (int)g->regs_per_sm;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;
    p->directManagedMemAccessFromHost = 1;
    p->sharedMemPerBlockOptin = g->smem_per_block;
    p->maxBlocksPerMultiProcessor = (int)g->max_blocks_per_sm;
    p->cooperativeLaunch = 1; /* cooperative_api.c */
    p->reservedSharedMemPerBlock = g->smem_reserved_per_block;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
    p->hostRegisterSupported = 1;
    p->sparseCudaArraySupported = 1;
    p->hostRegisterReadOnlySupported = 1;
    p->timelineSemaphoreInteropSupported = 1;
    p->deferredMappingCudaArraySupported = 1;
    p->gpuPciDeviceID = GPU_PCI_DEVICE_ID;
    /* L2 residency controls (simpleAttributes sizes its window from them):
     * three quarters of L2 may persist, windows up to Hopper's 128 MiB - 4 KiB */
    p->persistingL2CacheMaxSize = (int)(g->l2.size_bytes / 4 * 3);
    p->accessPolicyMaxWindowSize = 134213632;
    fill_texture_limits(p);
}

/* CUDA 12's layout: the fields both releases have, copied, and those 13
 * dropped, from the same configuration. */
static void fill_properties12(const GpuConfig *g, struct cudaDeviceProp12 *p)
{
    struct cudaDeviceProp p13;
    fill_properties(g, &p13);
    memset(p, 0, sizeof *p);
#define SAME(field) memcpy(&p->field, &p13.field, sizeof p->field)
    SAME(name); SAME(uuid); SAME(luid); SAME(luidDeviceNodeMask); SAME(totalGlobalMem); SAME(sharedMemPerBlock);
    SAME(regsPerBlock); SAME(warpSize); SAME(memPitch); SAME(maxThreadsPerBlock); SAME(maxThreadsDim);
    SAME(maxGridSize); SAME(totalConstMem); SAME(major); SAME(minor); SAME(textureAlignment);
    SAME(texturePitchAlignment); SAME(multiProcessorCount); SAME(integrated); SAME(canMapHostMemory);
    SAME(maxTexture1D); SAME(maxTexture1DMipmap); SAME(maxTexture2D); SAME(maxTexture2DMipmap);
    SAME(maxTexture2DLinear); SAME(maxTexture2DGather); SAME(maxTexture3D); SAME(maxTexture3DAlt);
    SAME(maxTextureCubemap); SAME(maxTexture1DLayered); SAME(maxTexture2DLayered); SAME(maxTextureCubemapLayered);
    SAME(maxSurface1D); SAME(maxSurface2D); SAME(maxSurface3D); SAME(maxSurface1DLayered);
    SAME(maxSurface2DLayered); SAME(maxSurfaceCubemap); SAME(maxSurfaceCubemapLayered); SAME(surfaceAlignment);
    SAME(concurrentKernels); SAME(ECCEnabled); SAME(pciBusID); SAME(pciDeviceID); SAME(pciDomainID);
    SAME(tccDriver); SAME(asyncEngineCount); SAME(unifiedAddressing); SAME(memoryBusWidth); SAME(l2CacheSize);
    SAME(persistingL2CacheMaxSize); SAME(maxThreadsPerMultiProcessor); SAME(streamPrioritiesSupported);
    SAME(globalL1CacheSupported); SAME(localL1CacheSupported); SAME(sharedMemPerMultiprocessor);
    SAME(regsPerMultiprocessor); SAME(managedMemory); SAME(isMultiGpuBoard); SAME(multiGpuBoardGroupID);
    SAME(hostNativeAtomicSupported); SAME(pageableMemoryAccess); SAME(concurrentManagedAccess);
    SAME(computePreemptionSupported); SAME(canUseHostPointerForRegisteredMem); SAME(cooperativeLaunch);
    SAME(sharedMemPerBlockOptin); SAME(pageableMemoryAccessUsesHostPageTables);
    SAME(directManagedMemAccessFromHost); SAME(maxBlocksPerMultiProcessor); SAME(accessPolicyMaxWindowSize);
    SAME(reservedSharedMemPerBlock); SAME(hostRegisterSupported); SAME(sparseCudaArraySupported);
    SAME(hostRegisterReadOnlySupported); SAME(timelineSemaphoreInteropSupported); SAME(memoryPoolsSupported);
    SAME(gpuDirectRDMASupported); SAME(gpuDirectRDMAFlushWritesOptions); SAME(gpuDirectRDMAWritesOrdering);
    SAME(memoryPoolSupportedHandleTypes); SAME(deferredMappingCudaArraySupported); SAME(ipcEventSupported);
    SAME(clusterLaunch); SAME(unifiedFunctionPointers);
#undef SAME
    /* what cudaDeviceGetAttribute reads for them */
    p->clockRate = (int)(g->clock_mhz * 1000.0);
    p->memoryClockRate = MEMORY_CLOCK_KHZ;
    p->deviceOverlap = 1;               /* = asyncEngineCount > 0 */
    p->kernelExecTimeoutEnabled = 0;
    p->computeMode = 0;                 /* cudaComputeModeDefault */
    p->singleToDoublePrecisionPerfRatio = 2;
    p->cooperativeMultiDeviceLaunch = 0;
    p->maxTexture1DLinear = 268435456;
}

/* cudaDeviceAttr -> the int property it reads (offset), or a constant. */
static const struct {
    int attr;
    size_t offset;      /* SIZE_MAX: use value */
    int value;
} attribute_table[] = {
#define P(attr, field) {attr, offsetof(struct cudaDeviceProp, field), 0}
#define C(attr, v) {attr, SIZE_MAX, v}
    P(1, maxThreadsPerBlock), P(2, maxThreadsDim[0]), P(3, maxThreadsDim[1]), P(4, maxThreadsDim[2]),
    P(5, maxGridSize[0]), P(6, maxGridSize[1]), P(7, maxGridSize[2]), C(10, 32), P(12, regsPerBlock),
    C(15, 1), P(16, multiProcessorCount), C(17, 0), P(18, integrated), P(19, canMapHostMemory), C(20, 0),
    P(31, concurrentKernels), P(32, ECCEnabled), P(33, pciBusID), P(34, pciDeviceID), P(35, tccDriver),
    C(36, MEMORY_CLOCK_KHZ), P(37, memoryBusWidth), P(38, l2CacheSize), P(39, maxThreadsPerMultiProcessor),
    P(40, asyncEngineCount), P(41, unifiedAddressing), P(50, pciDomainID), P(75, major), P(76, minor),
    P(78, streamPrioritiesSupported), P(79, globalL1CacheSupported), P(80, localL1CacheSupported),
    P(82, regsPerMultiprocessor), P(83, managedMemory), P(84, isMultiGpuBoard), P(85, multiGpuBoardGroupID),
    P(86, hostNativeAtomicSupported), C(87, 2), P(88, pageableMemoryAccess), P(89, concurrentManagedAccess),
    P(90, computePreemptionSupported), P(91, canUseHostPointerForRegisteredMem), P(95, cooperativeLaunch),
    P(100, pageableMemoryAccessUsesHostPageTables), P(101, directManagedMemAccessFromHost),
    P(106, maxBlocksPerMultiProcessor), P(108, persistingL2CacheMaxSize), P(109, accessPolicyMaxWindowSize),
    P(115, memoryPoolsSupported), P(120, clusterLaunch), P(125, ipcEventSupported), P(130, deviceNumaConfig),
    P(131, deviceNumaId), P(133, mpsEnabled), P(134, hostNumaId),
    /* texture and surface limits */
    P(21, maxTexture1D), P(22, maxTexture2D[0]), P(23, maxTexture2D[1]), P(24, maxTexture3D[0]),
    P(25, maxTexture3D[1]), P(26, maxTexture3D[2]), P(27, maxTexture2DLayered[0]), P(28, maxTexture2DLayered[1]),
    P(29, maxTexture2DLayered[2]), P(42, maxTexture1DLayered[0]), P(43, maxTexture1DLayered[1]),
    P(45, maxTexture2DGather[0]), P(46, maxTexture2DGather[1]), P(47, maxTexture3DAlt[0]),
    P(48, maxTexture3DAlt[1]), P(49, maxTexture3DAlt[2]), P(52, maxTextureCubemap),
    P(53, maxTextureCubemapLayered[0]), P(54, maxTextureCubemapLayered[1]), P(55, maxSurface1D),
    P(56, maxSurface2D[0]), P(57, maxSurface2D[1]), P(58, maxSurface3D[0]), P(59, maxSurface3D[1]),
    P(60, maxSurface3D[2]), P(61, maxSurface1DLayered[0]), P(62, maxSurface1DLayered[1]),
    P(63, maxSurface2DLayered[0]), P(64, maxSurface2DLayered[1]), P(65, maxSurface2DLayered[2]),
    P(66, maxSurfaceCubemap), P(67, maxSurfaceCubemapLayered[0]), P(68, maxSurfaceCubemapLayered[1]),
    C(69, 268435456), P(70, maxTexture2DLinear[0]), P(71, maxTexture2DLinear[1]), P(72, maxTexture2DLinear[2]),
    P(73, maxTexture2DMipmap[0]), P(74, maxTexture2DMipmap[1]), P(77, maxTexture1DMipmap),
    /* the rest of CUDA 13's attributes */
    C(98, 0), P(99, hostRegisterSupported), P(112, sparseCudaArraySupported),
    P(113, hostRegisterReadOnlySupported), P(114, timelineSemaphoreInteropSupported),
    P(116, gpuDirectRDMASupported), C(117, 0), C(118, 0), C(119, 0), P(121, deferredMappingCudaArraySupported),
    C(126, 4), C(135, 0), C(138, 0), C(139, (int)GPU_PCI_DEVICE_ID), C(140, 0), C(142, 0), C(143, 0), C(144, 0),
    C(147, 0),
#undef P
#undef C
};

CUDART_API cudaError_t cudaGetDeviceCount(int *count)
{
    CudartDevice *d = cudart_enter();
    if (!count)
        return cudart_leave(d, cudaErrorInvalidValue);
    *count = d->init_error ? 0 : 1;
    return cudart_leave(d, d->init_error ? cudaErrorNoDevice : cudaSuccess);
}

CUDART_API cudaError_t cudaGetDevice(int *device)
{
    CudartDevice *d = cudart_enter();
    if (!device)
        return cudart_leave(d, cudaErrorInvalidValue);
    *device = 0;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaSetDevice(int device)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, device == 0 ? cudart_unusable(d) : cudaErrorInvalidDevice);
}

CUDART_API cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    (void)deviceFlags;
    (void)flags;
    return cudaSetDevice(device);
}

CUDART_API cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (flags & ~0x1fu)
        return cudart_leave(d, cudaErrorInvalidValue);
    d->device_flags = flags;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    CudartDevice *d = cudart_enter();
    if (!flags)
        return cudart_leave(d, cudaErrorInvalidValue);
    *flags = d->device_flags;
    return cudart_leave(d, cudaSuccess);
}

/* Frees the program's allocations, streams and events and clears errors;
 * registered modules stay loaded (CUDA reloads them on next use). */
CUDART_API cudaError_t cudaDeviceReset(void)
{
    CudartDevice *d = cudart_enter();
    cudart_release_user_state(d);
    d->sticky_error = cudaSuccess;
    cudart_thread()->last_error = cudaSuccess;
    return cudart_leave(d, cudart_unusable(d));
}

CUDART_API cudaError_t cudaDriverGetVersion(int *version)
{
    CudartDevice *d = cudart_enter();
    if (!version)
        return cudart_leave(d, cudaErrorInvalidValue);
    *version = RUNTIME_VERSION;
    return cudart_leave(d, cudaSuccess);
}

/* Driver API functions by name: warpsim has no driver API (no libcuda), so
 * every symbol is "not found", which CUDA reports as success with a NULL
 * pointer and cudaDriverEntryPointSymbolNotFound; a program is expected to
 * check.  Said once per symbol on stderr. */
static cudaError_t driver_entry_point(const char *symbol, void **funcPtr, unsigned long long flags, int *status)
{
    CudartDevice *d = cudart_enter();
    if (!symbol || !funcPtr || flags > 2) /* cudaEnableDefault, LegacyStream, PerThreadDefaultStream */
        return cudart_leave(d, cudaErrorInvalidValue);
    *funcPtr = NULL;
    if (status)
        *status = 1; /* cudaDriverEntryPointSymbolNotFound */
    char *key = g_strdup_printf("driver:%s", symbol);
    if (!g_hash_table_contains(d->warned, key)) {
        cudart_message("cudaGetDriverEntryPoint: the driver API function %s is not provided by warpsim", symbol);
        g_hash_table_add(d->warned, key);
    } else {
        g_free(key);
    }
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                               int *driverStatus)
{
    return driver_entry_point(symbol, funcPtr, flags, driverStatus);
}

CUDART_API cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                        unsigned long long flags, int *driverStatus)
{
    (void)cudaVersion;
    return driver_entry_point(symbol, funcPtr, flags, driverStatus);
}

/* The runtime a program built for CUDA 12 expects is a CUDA 12 one (the
 * driver, which runs both, stays 13.0). */
CUDART_API cudaError_t cudaRuntimeGetVersion(int *version)
{
    CudartDevice *d = cudart_enter();
    if (!version)
        return cudart_leave(d, cudaErrorInvalidValue);
    *version = d->abi_release == 12 ? RUNTIME_VERSION_12 : RUNTIME_VERSION;
    return cudart_leave(d, cudaSuccess);
}

/* CUDA 13's cudaGetDeviceProperties fills 13's struct.  libcudart.so.12
 * exports the same name for programs built before CUDA 12 (whose header did
 * not yet redirect it to _v2): their struct is CUDA 12's up to
 * reservedSharedMemPerBlock, so a program that linked libcudart.so.12 gets
 * only that much. */
CUDART_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    CudartDevice *d = cudart_enter();
    if (!prop)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (device != 0)
        return cudart_leave(d, cudaErrorInvalidDevice);
    if (d->init_error)
        return cudart_leave(d, d->init_error);
    if (d->abi_release == 12) {
        struct cudaDeviceProp12 p12;
        fill_properties12(d->gpu, &p12);
        memcpy(prop, &p12, offsetof(struct cudaDeviceProp12, hostRegisterSupported));
    } else {
        fill_properties(d->gpu, prop);
    }
    return cudart_leave(d, cudaSuccess);
}

/* CUDA 12's header names cudaGetDeviceProperties this (a macro), with 12's
 * struct: only CUDA 12 programs call it. */
CUDART_API cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp12 *prop, int device)
{
    CudartDevice *d = cudart_enter();
    if (!prop)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (device != 0)
        return cudart_leave(d, cudaErrorInvalidDevice);
    if (d->init_error)
        return cudart_leave(d, d->init_error);
    fill_properties12(d->gpu, prop);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    CudartDevice *d = cudart_enter();
    if (!value)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (device != 0)
        return cudart_leave(d, cudaErrorInvalidDevice);
    if (d->init_error)
        return cudart_leave(d, d->init_error);
    struct cudaDeviceProp p;
    fill_properties(d->gpu, &p);
    /* size_t properties and the clock (not in CUDA 13's struct) */
    switch (attr) {
    case 8: *value = (int)p.sharedMemPerBlock; return cudart_leave(d, cudaSuccess);
    case 9: *value = (int)p.totalConstMem; return cudart_leave(d, cudaSuccess);
    case 11: *value = (int)p.memPitch; return cudart_leave(d, cudaSuccess);
    case 13: *value = (int)(d->gpu->clock_mhz * 1000.0); return cudart_leave(d, cudaSuccess);
    case 14: *value = (int)p.textureAlignment; return cudart_leave(d, cudaSuccess);
    case 30: *value = (int)p.surfaceAlignment; return cudart_leave(d, cudaSuccess);
    case 51: *value = (int)p.texturePitchAlignment; return cudart_leave(d, cudaSuccess);
    case 81: *value = (int)p.sharedMemPerMultiprocessor; return cudart_leave(d, cudaSuccess);
    case 97: *value = (int)p.sharedMemPerBlockOptin; return cudart_leave(d, cudaSuccess);
    case 111: *value = (int)p.reservedSharedMemPerBlock; return cudart_leave(d, cudaSuccess);
    default: break;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(attribute_table); i++) {
        if (attribute_table[i].attr != attr)
            continue;
        if (attribute_table[i].offset == SIZE_MAX)
            *value = attribute_table[i].value;
        else
            memcpy(value, (const char *)&p + attribute_table[i].offset, sizeof *value);
        return cudart_leave(d, cudaSuccess);
    }
    /* reserved numbers and values CUDA 13 does not define */
    *value = 0;
    return cudart_leave(d, cudaErrorInvalidValue);
}

/* Limits are kept and reported.  The simulator needs only the malloc heap
 * size (device printf writes straight to stdout, local memory is
 * allocated as used); as on the GPU, it is fixed once a kernel called
 * malloc. */
CUDART_API cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    CudartDevice *d = cudart_enter();
    if (!value || limit < 0 || limit >= CUDART_LIMIT_COUNT)
        return cudart_leave(d, cudaErrorUnsupportedLimit);
    *value = d->limits[limit];
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    enum { STACK_SIZE, PRINTF_FIFO, MALLOC_HEAP, SYNC_DEPTH, PENDING_LAUNCHES, L2_FETCH, PERSISTING_L2 };
    CudartDevice *d = cudart_enter();
    if (limit < 0 || limit >= CUDART_LIMIT_COUNT)
        return cudart_leave(d, cudaErrorUnsupportedLimit);
    if (limit == L2_FETCH && value > 128)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (limit == PERSISTING_L2 && value > (size_t)d->gpu->l2.size_bytes)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (limit == MALLOC_HEAP) {
        /* the heap is made at the first device malloc, then kept; its
         * allocator counts 16-byte granules in 32 bits */
        if (d->gmem->heap_made || value / 16 > UINT32_MAX)
            return cudart_leave(d, cudaErrorInvalidValue);
        d->gmem->heap_bytes = value;
    }
    /* CUDA rounds the stack up to its granularity and keeps at least the default */
    if (limit == STACK_SIZE)
        value = (value + 15) / 16 * 16;
    d->limits[limit] = value;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    CudartDevice *d = cudart_enter();
    if (leastPriority)
        *leastPriority = CUDART_PRIORITY_LEAST;
    if (greatestPriority)
        *greatestPriority = CUDART_PRIORITY_GREATEST;
    return cudart_leave(d, cudaSuccess);
}

/* The device's L1/shared split preference: one fixed split is modelled. */
CUDART_API cudaError_t cudaDeviceGetCacheConfig(int *cacheConfig)
{
    CudartDevice *d = cudart_enter();
    if (!cacheConfig)
        return cudart_leave(d, cudaErrorInvalidValue);
    *cacheConfig = 0; /* cudaFuncCachePreferNone */
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    CudartDevice *d = cudart_enter();
    if (!pciBusId || len <= 0)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (device != 0)
        return cudart_leave(d, cudaErrorInvalidDevice);
    g_strlcpy(pciBusId, "0000:01:00.0", (size_t)len); /* pciDomainID:pciBusID:pciDeviceID.0 */
    return cudart_leave(d, cudaSuccess);
}

/* Accepts what cudaDeviceGetPCIBusId gives and its shorter forms:
 * [domain:]bus:device[.function], hexadecimal. */
CUDART_API cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    CudartDevice *d = cudart_enter();
    if (!device || !pciBusId)
        return cudart_leave(d, cudaErrorInvalidValue);
    unsigned domain = 0, bus = 0, dev = 0, function = 0;
    char tail = 0;
    int n = sscanf(pciBusId, "%x:%x:%x.%x%c", &domain, &bus, &dev, &function, &tail);
    if (n < 3) {
        domain = 0;
        n = sscanf(pciBusId, "%x:%x.%x%c", &bus, &dev, &function, &tail);
        if (n < 2 || n > 3)
            return cudart_leave(d, cudaErrorInvalidValue);
    } else if (n > 4) {
        return cudart_leave(d, cudaErrorInvalidValue);
    }
    struct cudaDeviceProp p;
    if (d->init_error)
        return cudart_leave(d, d->init_error);
    fill_properties(d->gpu, &p);
    if (domain != (unsigned)p.pciDomainID || bus != (unsigned)p.pciBusID || dev != (unsigned)p.pciDeviceID)
        return cudart_leave(d, cudaErrorInvalidDevice);
    *device = 0;
    return cudart_leave(d, cudaSuccess);
}

/* ---------------------------------------------------------------- peers
 * One device has no peer: it cannot "access" itself as a peer (CUDA answers
 * 0 and refuses to enable it), and any other ordinal is not a device. */
CUDART_API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    CudartDevice *d = cudart_enter();
    if (!canAccessPeer)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0)
        return cudart_leave(d, cudaErrorInvalidDevice);
    *canAccessPeer = 0;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    (void)peerDevice;
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, flags ? cudaErrorInvalidValue : cudaErrorInvalidDevice);
}

CUDART_API cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, peerDevice == 0 ? cudaErrorPeerAccessNotEnabled : cudaErrorInvalidDevice);
}

/* Attributes of a link between two devices: there is none. */
CUDART_API cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int srcDevice, int dstDevice)
{
    (void)attr;
    CudartDevice *d = cudart_enter();
    if (!value)
        return cudart_leave(d, cudaErrorInvalidValue);
    (void)srcDevice;
    (void)dstDevice;
    return cudart_leave(d, cudaErrorInvalidDevice);
}

CUDART_API cudaError_t cudaDeviceSetCacheConfig(int cacheConfig)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cacheConfig >= 0 && cacheConfig <= 3 ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    CudartDevice *d = cudart_enter();
    if (len < 0 || (len > 0 && !device_arr))
        return cudart_leave(d, cudaErrorInvalidValue);
    for (int i = 0; i < len; i++)
        if (device_arr[i] != 0)
            return cudart_leave(d, cudaErrorInvalidDevice);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    CudartDevice *d = cudart_enter();
    if (!device || !prop)
        return cudart_leave(d, cudaErrorInvalidValue);
    *device = 0;
    return cudart_leave(d, cudaSuccess);
}

/* Bank-width preferences (deprecated since CUDA 12): accepted; the shared
 * memory model has 4-byte banks. */
CUDART_API cudaError_t cudaDeviceSetSharedMemConfig(int config)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, config >= 0 && config <= 2 ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaDeviceGetSharedMemConfig(int *config)
{
    CudartDevice *d = cudart_enter();
    if (!config)
        return cudart_leave(d, cudaErrorInvalidValue);
    *config = 1; /* cudaSharedMemBankSizeFourByte */
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_kernel_for(d, func))
        return cudart_leave(d, cudaErrorInvalidDeviceFunction);
    return cudart_leave(d, config >= 0 && config <= 2 ? cudaSuccess : cudaErrorInvalidValue);
}

/* Nothing persists in the modelled L2 between launches' accounting. */
CUDART_API cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudart_unusable(d));
}

/* Every launch is profiled already; the profiler range markers are accepted. */
CUDART_API cudaError_t cudaProfilerStart(void)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaProfilerStop(void)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudaSuccess);
}

/* CUDA 12's names that CUDA 13 removed (deprecated since CUDA 4: the
 * "thread" was the context), still called by CUDA 12 programs and the
 * benchmark suites written before 4.0. */
CUDART_API cudaError_t cudaDeviceSynchronize(void); /* stream_event_api.c */

CUDART_API cudaError_t cudaThreadSynchronize(void)
{
    return cudaDeviceSynchronize();
}

CUDART_API cudaError_t cudaThreadExit(void)
{
    return cudaDeviceReset();
}

CUDART_API cudaError_t cudaThreadGetLimit(size_t *value, int limit)
{
    return cudaDeviceGetLimit(value, limit);
}

CUDART_API cudaError_t cudaThreadSetLimit(int limit, size_t value)
{
    return cudaDeviceSetLimit(limit, value);
}

CUDART_API cudaError_t cudaThreadGetCacheConfig(int *cacheConfig)
{
    return cudaDeviceGetCacheConfig(cacheConfig);
}

CUDART_API cudaError_t cudaThreadSetCacheConfig(int cacheConfig)
{
    return cudaDeviceSetCacheConfig(cacheConfig);
}
