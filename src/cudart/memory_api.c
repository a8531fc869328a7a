/* memory_api.c — allocation, copies and fills: cudaMalloc and its host,
 * managed and pitched forms, cudaMemcpy/2D/Memset (all synchronous; the
 * Async forms only validate the stream), cudaMemGetInfo and
 * cudaPointerGetAttributes.
 *
 * Device memory is the simulator's global memory: a cudaMalloc'd pointer is
 * a simulated address the host cannot dereference.  Managed and page-locked
 * host memory are host buffers whose address is also their device address,
 * so the host and kernels share one pointer (unified addressing).  Copies
 * advance the simulated clock (docs/cudart.md). */
#include <string.h>

#include "cudart_internal.h"

/* What cudaMemGetInfo and totalGlobalMem report: the configuration does not
 * say, and the simulator allocates host memory on demand (docs/cudart.md). */
#define DEVICE_MEMORY_BYTES (80ull << 30)
#define PITCH_ALIGN 512u

static cudaError_t track(CudartDevice *d, uint64_t base, CudartAllocKind kind, uint64_t size)
{
    uint64_t *key = g_new(uint64_t, 1);
    *key = base;
    CudartAlloc *a = g_new(CudartAlloc, 1);
    a->kind = kind;
    a->size = size;
    g_hash_table_replace(d->allocs, key, a);
    return cudaSuccess;
}

static cudaError_t allocate(CudartDevice *d, void **ptr, size_t size, CudartAllocKind kind)
{
    static const char *const what[] = {"cudaMalloc", "cudaMallocManaged", "cudaMallocHost"};
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    if (!ptr)
        return cudaErrorInvalidValue;
    *ptr = NULL;
    if (size == 0)
        return cudaSuccess;
    char *name = g_strdup_printf("%s #%" G_GUINT64_FORMAT " (%zu bytes)", what[kind], ++d->alloc_serial, size);
    GError *e = NULL;
    uint64_t base = kind == ALLOC_DEVICE ? gmem_alloc(d->gmem, size, name, &e)
                                         : gmem_alloc_host_mapped(d->gmem, size, name, &e);
    g_free(name);
    if (!base) {
        cudart_message("%s", e->message);
        g_error_free(e);
        return cudaErrorMemoryAllocation;
    }
    *ptr = (void *)(uintptr_t)base;
    return track(d, base, kind, size);
}

static cudaError_t release(CudartDevice *d, void *ptr, bool host)
{
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    if (!ptr)
        return cudaSuccess;
    uint64_t base = (uint64_t)(uintptr_t)ptr;
    CudartAlloc *a = g_hash_table_lookup(d->allocs, &base);
    if (!a || (a->kind == ALLOC_HOST) != host)
        return host ? cudaErrorInvalidHostPointer : cudaErrorInvalidValue;
    gmem_release(d->gmem, base);
    g_hash_table_remove(d->allocs, &base);
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, allocate(d, devPtr, size, ALLOC_DEVICE));
}

CUDART_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (flags != 1 && flags != 2) /* cudaMemAttachGlobal, cudaMemAttachHost */
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, allocate(d, devPtr, size, ALLOC_MANAGED));
}

CUDART_API cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, allocate(d, ptr, size, ALLOC_HOST));
}

CUDART_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (flags & ~0xfu)
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, allocate(d, pHost, size, ALLOC_HOST));
}

/* Page-locked memory is mapped at its own address. */
CUDART_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    uint64_t base = (uint64_t)(uintptr_t)pHost;
    if (!pDevice || flags != 0)
        return cudart_leave(d, cudaErrorInvalidValue);
    Allocation *a = gmem_lookup(d->gmem, base, 1);
    uint64_t key = a ? a->base : 0;
    CudartAlloc *ca = a ? g_hash_table_lookup(d->allocs, &key) : NULL;
    if (!ca || ca->kind == ALLOC_DEVICE)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pDevice = pHost;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    CudartDevice *d = cudart_enter();
    if (!pitch)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pitch = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    return cudart_leave(d, allocate(d, devPtr, *pitch * height, ALLOC_DEVICE));
}

CUDART_API cudaError_t cudaFree(void *devPtr)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, release(d, devPtr, false));
}

CUDART_API cudaError_t cudaFreeHost(void *ptr)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, release(d, ptr, true));
}

CUDART_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err = cudart_unusable(d);
    if (err)
        return cudart_leave(d, err);
    uint64_t used = 0;
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, d->allocs);
    while (g_hash_table_iter_next(&it, &key, &value))
        if (((CudartAlloc *)value)->kind != ALLOC_HOST)
            used += ((CudartAlloc *)value)->size;
    if (free_bytes)
        *free_bytes = used < DEVICE_MEMORY_BYTES ? DEVICE_MEMORY_BYTES - used : 0;
    if (total)
        *total = DEVICE_MEMORY_BYTES;
    return cudart_leave(d, cudaSuccess);
}

/* ---------------------------------------------------------------- copies */

/* Bytes of one side of a copy: a device side must be simulated memory; a
 * host side is the host pointer itself unless it is simulated memory
 * (cudaMemcpyDefault, managed and page-locked buffers). */
static uint8_t *side_bytes(CudartDevice *d, const void *p, size_t n, bool must_be_device, bool *on_device)
{
    uint8_t *dev = cudart_device_bytes(d, p, n);
    *on_device = dev != NULL;
    if (dev || must_be_device)
        return dev;
    return (uint8_t *)p;
}

static cudaError_t copy(CudartDevice *d, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    if ((unsigned)kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    bool dst_dev, src_dev;
    bool want_dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool want_src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    uint8_t *to = side_bytes(d, dst, count, want_dst_dev, &dst_dev);
    uint8_t *from = side_bytes(d, src, count, want_src_dev, &src_dev);
    if (!to || !from)
        return cudaErrorInvalidValue;
    memmove(to, from, count);
    if (dst_dev || src_dev)
        d->clock_ns += cudart_copy_ns(d, count, !(dst_dev && src_dev));
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, copy(d, dst, src, count, kind));
}

CUDART_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                       cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, copy(d, dst, src, count, kind));
}

static cudaError_t copy_2d(CudartDevice *d, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                           size_t height, enum cudaMemcpyKind kind)
{
    if (height && (width > dpitch || width > spitch))
        return cudaErrorInvalidPitchValue;
    for (size_t row = 0; row < height; row++) {
        cudaError_t err = copy(d, (uint8_t *)dst + row * dpitch, (const uint8_t *)src + row * spitch, width, kind);
        if (err)
            return err;
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                    size_t height, enum cudaMemcpyKind kind)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, copy_2d(d, dst, dpitch, src, spitch, width, height, kind));
}

CUDART_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                         size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, copy_2d(d, dst, dpitch, src, spitch, width, height, kind));
}

static cudaError_t fill(CudartDevice *d, void *ptr, int value, size_t count)
{
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    if (count == 0)
        return cudaSuccess;
    uint8_t *bytes = cudart_device_bytes(d, ptr, count);
    if (!bytes)
        return cudaErrorInvalidValue;
    memset(bytes, value, count);
    d->clock_ns += cudart_copy_ns(d, count, false) / 2; /* writes only */
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, fill(d, devPtr, value, count));
}

CUDART_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, fill(d, devPtr, value, count));
}

CUDART_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    CudartDevice *d = cudart_enter();
    if (height && width > pitch)
        return cudart_leave(d, cudaErrorInvalidPitchValue);
    for (size_t row = 0; row < height; row++) {
        cudaError_t err = fill(d, (uint8_t *)devPtr + row * pitch, value, width);
        if (err)
            return cudart_leave(d, err);
    }
    return cudart_leave(d, cudaSuccess);
}

/* Memory on one device is always where it is needed. */
CUDART_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int location, unsigned flags,
                                            cudaStream_t stream)
{
    (void)location;
    (void)flags;
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, cudart_device_bytes(d, devPtr, count) ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    CudartDevice *d = cudart_enter();
    if (!attributes)
        return cudart_leave(d, cudaErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    attributes->device = -2; /* what CUDA reports for unregistered memory */
    Allocation *a = gmem_lookup(d->gmem, (uint64_t)(uintptr_t)ptr, 1);
    uint64_t key = a ? a->base : 0;
    CudartAlloc *ca = a ? g_hash_table_lookup(d->allocs, &key) : NULL;
    if (a) {
        CudartAllocKind kind = ca ? ca->kind : ALLOC_DEVICE; /* module variables are device memory */
        attributes->type = kind == ALLOC_DEVICE ? cudaMemoryTypeDevice
                         : kind == ALLOC_MANAGED ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
        attributes->device = 0;
        attributes->devicePointer = (void *)ptr;
        attributes->hostPointer = kind == ALLOC_DEVICE ? NULL : (void *)ptr;
    }
    return cudart_leave(d, cudaSuccess);
}
