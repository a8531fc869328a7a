/* memory_api.c — allocation, copies and fills: cudaMalloc and its host,
 * managed, pitched and stream-ordered (cudaMallocAsync, the default memory
 * pool) forms, cudaMemcpy/2D/Memset (all synchronous; the Async forms only
 * validate the stream), managed-memory hints (attach, prefetch, advise),
 * cudaMemGetInfo and cudaPointerGetAttributes.
 *
 * Device memory is the simulator's global memory: a cudaMalloc'd pointer is
 * a simulated address the host cannot dereference.  Managed and page-locked
 * host memory are host buffers whose address is also their device address,
 * so the host and kernels share one pointer (unified addressing).  Copies
 * advance the simulated clock (docs/cudart.md). */
#include <string.h>

#include "cudart_internal.h"
#include "errors.h"

/* What cudaMemGetInfo and totalGlobalMem report: the configuration does not
 * say, and the simulator allocates host memory on demand (docs/cudart.md). */
#define DEVICE_MEMORY_BYTES (80ull << 30)
#define PITCH_ALIGN 512u

static cudaError_t track(CudartDevice *d, uint64_t base, CudartAllocKind kind, uint64_t size, unsigned flags)
{
    uint64_t *key = g_new(uint64_t, 1);
    *key = base;
    CudartAlloc *a = g_new(CudartAlloc, 1);
    a->kind = kind;
    a->size = size;
    a->flags = flags;
    g_hash_table_replace(d->allocs, key, a);
    return cudaSuccess;
}

/* The tracked allocation holding p (anywhere inside it), or NULL. */
static CudartAlloc *alloc_holding(CudartDevice *d, const void *p)
{
    Allocation *a = gmem_lookup(d->gmem, (uint64_t)(uintptr_t)p, 1);
    uint64_t key = a ? a->base : 0;
    return a ? g_hash_table_lookup(d->allocs, &key) : NULL;
}

static cudaError_t allocate(CudartDevice *d, void **ptr, size_t size, CudartAllocKind kind, unsigned flags)
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
    return track(d, base, kind, size, flags);
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
    if (a && a->kind == ALLOC_REGISTERED)
        return cudaErrorInvalidValue; /* cudaHostUnregister's, as CUDA answers */
    if (!a || (a->kind == ALLOC_HOST) != host)
        return host ? cudaErrorInvalidHostPointer : cudaErrorInvalidValue;
    gmem_release(d->gmem, base);
    g_hash_table_remove(d->allocs, &base);
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, allocate(d, devPtr, size, ALLOC_DEVICE, 0));
}

CUDART_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (flags != 1 && flags != 2) /* cudaMemAttachGlobal, cudaMemAttachHost */
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, allocate(d, devPtr, size, ALLOC_MANAGED, flags));
}

CUDART_API cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, allocate(d, ptr, size, ALLOC_HOST, 0));
}

CUDART_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (flags & ~0xfu)
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, allocate(d, pHost, size, ALLOC_HOST, flags));
}

/* Page-locked memory is mapped at its own address. */
CUDART_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    uint64_t base = (uint64_t)(uintptr_t)pHost;
    if (!pDevice || flags != 0)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartAlloc *ca = alloc_holding(d, pHost);
    if (!ca || ca->kind == ALLOC_DEVICE)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pDevice = (void *)(uintptr_t)base;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    CudartDevice *d = cudart_enter();
    if (!pFlags)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartAlloc *ca = alloc_holding(d, pHost);
    if (!ca || (ca->kind != ALLOC_HOST && ca->kind != ALLOC_REGISTERED))
        return cudart_leave(d, cudaErrorInvalidValue);
    /* unified addressing: page-locked memory is always mapped; of the
     * registration flags CUDA reports only portability (as seen on CUDA 13) */
    unsigned flags = ca->kind == ALLOC_REGISTERED ? ca->flags & 0x1u /* cudaHostRegisterPortable */ : ca->flags;
    *pFlags = flags | 0x2u; /* cudaHostAllocMapped */
    return cudart_leave(d, cudaSuccess);
}

/* The program's own memory, mapped where it lies: kernels read and write
 * the very bytes the host does (zero copy), from registration until
 * cudaHostUnregister.  Errors as CUDA 13 gives them: a range that overlaps
 * registered or page-locked memory is cudaErrorHostMemoryAlreadyRegistered
 * (cudaErrorInvalidValue for cudaMallocHost memory). */
CUDART_API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err = cudart_unusable(d);
    if (err)
        return cudart_leave(d, err);
    /* Default 0, Portable 1, Mapped 2, IoMemory 4, ReadOnly 8 */
    if (!ptr || size == 0 || (flags & ~0xfu))
        return cudart_leave(d, cudaErrorInvalidValue);
    if ((flags & 0x4u) != 0) {
        cudart_message("cudaHostRegister: cudaHostRegisterIoMemory (device memory of another PCIe device) is not "
                       "supported by warpsim");
        return cudart_leave(d, cudaErrorNotSupported);
    }
    CudartAlloc *held = alloc_holding(d, ptr);
    if (held && held->kind == ALLOC_HOST)
        return cudart_leave(d, cudaErrorInvalidValue);
    char *name = g_strdup_printf("cudaHostRegister #%" G_GUINT64_FORMAT " (%zu bytes)", ++d->alloc_serial, size);
    GError *e = NULL;
    uint64_t base = gmem_map_host(d->gmem, ptr, size, name, &e);
    g_free(name);
    if (!base) {
        bool overlap = e->code == WS_ERR_INPUT;
        if (!overlap)
            cudart_message("cudaHostRegister: %s", e->message);
        g_error_free(e);
        return cudart_leave(d, overlap ? cudaErrorHostMemoryAlreadyRegistered : cudaErrorNotSupported);
    }
    return cudart_leave(d, track(d, base, ALLOC_REGISTERED, size, flags));
}

CUDART_API cudaError_t cudaHostUnregister(void *ptr)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err = cudart_unusable(d);
    if (err)
        return cudart_leave(d, err);
    uint64_t base = (uint64_t)(uintptr_t)ptr;
    CudartAlloc *a = ptr ? g_hash_table_lookup(d->allocs, &base) : NULL;
    if (!a || a->kind != ALLOC_REGISTERED) {
        /* inside a registered range or some other allocation: invalid; else unknown */
        return cudart_leave(d, alloc_holding(d, ptr) ? cudaErrorInvalidValue : cudaErrorHostMemoryNotRegistered);
    }
    gmem_release(d->gmem, base);
    g_hash_table_remove(d->allocs, &base);
    return cudart_leave(d, cudaSuccess);
}

/* ------------------------------------------------ stream-ordered memory */

/* One device, one memory pool: the default pool's handle is this address
 * (a handle the program only passes back). */
static const char default_pool_tag = 0;
#define DEFAULT_POOL ((void *)&default_pool_tag)

static uint64_t pool_used(CudartDevice *d)
{
    uint64_t used = 0;
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, d->allocs);
    while (g_hash_table_iter_next(&it, &key, &value)) {
        const CudartAlloc *a = value;
        if (a->kind == ALLOC_DEVICE && (a->flags & CUDART_ALLOC_FROM_POOL))
            used += a->size;
    }
    return used;
}

/* Work is done in issue order, so the allocation exists when the stream
 * reaches this point: an ordinary allocation, counted in the pool. */
static cudaError_t allocate_async(CudartDevice *d, void **devPtr, size_t size, cudaStream_t stream)
{
    if (!cudart_stream_ok(d, stream))
        return cudaErrorInvalidResourceHandle;
    cudaError_t err = allocate(d, devPtr, size, ALLOC_DEVICE, CUDART_ALLOC_FROM_POOL);
    if (!err)
        d->pool_used_high = MAX(d->pool_used_high, pool_used(d));
    return err;
}

CUDART_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, allocate_async(d, devPtr, size, hStream));
}

CUDART_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, void *memPool, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (memPool != DEFAULT_POOL)
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, allocate_async(d, ptr, size, stream));
}

CUDART_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, hStream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, release(d, devPtr, false));
}

CUDART_API cudaError_t cudaDeviceGetDefaultMemPool(void **memPool, int device)
{
    CudartDevice *d = cudart_enter();
    if (!memPool)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (device != 0)
        return cudart_leave(d, cudaErrorInvalidDevice);
    *memPool = DEFAULT_POOL;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceGetMemPool(void **memPool, int device)
{
    return cudaDeviceGetDefaultMemPool(memPool, device);
}

CUDART_API cudaError_t cudaDeviceSetMemPool(int device, void *memPool)
{
    CudartDevice *d = cudart_enter();
    if (device != 0)
        return cudart_leave(d, cudaErrorInvalidDevice);
    return cudart_leave(d, memPool == DEFAULT_POOL ? cudaSuccess : cudaErrorInvalidValue);
}

/* CUDA 13's pools by location (struct cudaMemLocation *) and allocation
 * type: one device, one pool, whatever is asked. */
CUDART_API cudaError_t cudaMemGetDefaultMemPool(void **memPool, const void *location, int type)
{
    (void)type;
    CudartDevice *d = cudart_enter();
    if (!memPool || !location)
        return cudart_leave(d, cudaErrorInvalidValue);
    *memPool = DEFAULT_POOL;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaMemGetMemPool(void **memPool, const void *location, int type)
{
    return cudaMemGetDefaultMemPool(memPool, location, type);
}

CUDART_API cudaError_t cudaMemSetMemPool(const void *location, int type, void *memPool)
{
    (void)type;
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, location && memPool == DEFAULT_POOL ? cudaSuccess : cudaErrorInvalidValue);
}

/* Attributes 1-3 are int flags, 4-8 are 64-bit byte counts; of those only
 * the release threshold and the high-water marks' reset are settable. */
static cudaError_t pool_attribute(CudartDevice *d, void *memPool, int attr, void *value, bool set)
{
    if (memPool != DEFAULT_POOL || !value || attr < 1 || attr > 8)
        return cudaErrorInvalidValue;
    if (attr <= 3) {
        if (set)
            d->pool_reuse[attr - 1] = *(int *)value != 0;
        else
            *(int *)value = d->pool_reuse[attr - 1];
        return cudaSuccess;
    }
    uint64_t *v = value;
    uint64_t used = pool_used(d);
    if (set) {
        if (attr == 4)
            d->pool_release_threshold = *v;
        else if (attr == 6 || attr == 8)
            d->pool_used_high = used; /* CUDA only accepts 0 here: reset the high-water mark */
        else
            return cudaErrorInvalidValue;
        return cudaSuccess;
    }
    switch (attr) {
    case 4: *v = d->pool_release_threshold; break;
    case 5: case 7: *v = used; break;
    default: *v = MAX(d->pool_used_high, used); break;
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemPoolSetAttribute(void *memPool, int attr, void *value)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, pool_attribute(d, memPool, attr, value, true));
}

CUDART_API cudaError_t cudaMemPoolGetAttribute(void *memPool, int attr, void *value)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, pool_attribute(d, memPool, attr, value, false));
}

/* Freed memory goes back at once: nothing is held to trim. */
CUDART_API cudaError_t cudaMemPoolTrimTo(void *memPool, size_t minBytesToKeep)
{
    (void)minBytesToKeep;
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, memPool == DEFAULT_POOL ? cudaSuccess : cudaErrorInvalidValue);
}

/* ------------------------------------------------ managed-memory hints */

/* Managed memory is visible to every stream at once; attaching it to a
 * stream (or to the host) only has to name managed memory. */
CUDART_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                                unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if (flags != 1 && flags != 2 && flags != 4) /* Global, Host, Single */
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartAlloc *ca = alloc_holding(d, devPtr);
    bool managed = (ca && ca->kind == ALLOC_MANAGED) || g_hash_table_contains(d->managed_vars, devPtr);
    if (!managed || (ca && length > ca->size))
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, cudart_unusable(d));
}

/* Advice changes where pages live, which one device does not model.
 * `location` is CUDA 13's struct cudaMemLocation {type, id}, eight bytes
 * passed by value in one register (x86-64), here unused. */
CUDART_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, uint64_t location)
{
    (void)location;
    CudartDevice *d = cudart_enter();
    if (advice < 1 || advice > 6)
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, cudart_device_bytes(d, devPtr, count) ? cudaSuccess : cudaErrorInvalidValue);
}

/* CUDA 12.2's name for CUDA 13's cudaMemAdvise (a cudaMemLocation where 12
 * passes an int device: either is only validated) */
CUDART_API cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, int advice, uint64_t location)
{
    return cudaMemAdvise(devPtr, count, advice, location);
}

CUDART_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    CudartDevice *d = cudart_enter();
    if (!pitch)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pitch = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    return cudart_leave(d, allocate(d, devPtr, *pitch * height, ALLOC_DEVICE, 0));
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
        if (((CudartAlloc *)value)->kind == ALLOC_DEVICE || ((CudartAlloc *)value)->kind == ALLOC_MANAGED)
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

static cudaError_t fill_2d(CudartDevice *d, void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    if (height && width > pitch)
        return cudaErrorInvalidPitchValue;
    for (size_t row = 0; row < height; row++) {
        cudaError_t err = fill(d, (uint8_t *)devPtr + row * pitch, value, width);
        if (err)
            return err;
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, fill_2d(d, devPtr, pitch, value, width, height));
}

CUDART_API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                         cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, fill_2d(d, devPtr, pitch, value, width, height));
}

/* Memory on one device is always where it is needed.  `location`: CUDA 13's
 * struct cudaMemLocation by value, as in cudaMemAdvise. */
/* CUDA 13 (and CUDA 12.2's _v2): (devPtr, count, cudaMemLocation, unsigned
 * flags, stream); CUDA 12: (devPtr, count, int dstDevice, stream), whose
 * stream arrives where 13 passes the flags, so that argument is taken at
 * full width and read by the program's release (d->abi_release). */
static cudaError_t prefetch(const void *devPtr, size_t count, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, cudart_device_bytes(d, devPtr, count) ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, uint64_t location,
                                            uint64_t flags_or_stream, cudaStream_t stream)
{
    (void)location;
    CudartDevice *d = cudart_enter();
    bool cuda12 = d->abi_release == 12;
    g_mutex_unlock(&d->lock);
    return prefetch(devPtr, count, cuda12 ? (cudaStream_t)(uintptr_t)flags_or_stream : stream);
}

CUDART_API cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count, uint64_t location, unsigned flags,
                                               cudaStream_t stream)
{
    (void)location;
    (void)flags;
    return prefetch(devPtr, count, stream);
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
        /* module variables are device memory, or managed when __managed__ */
        CudartAllocKind kind = ca ? ca->kind
                             : g_hash_table_contains(d->managed_vars, (gpointer)(uintptr_t)a->base) ? ALLOC_MANAGED
                                                                                                    : ALLOC_DEVICE;
        attributes->type = kind == ALLOC_DEVICE ? cudaMemoryTypeDevice
                         : kind == ALLOC_MANAGED ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
        attributes->device = 0;
        attributes->devicePointer = (void *)ptr;
        attributes->hostPointer = kind == ALLOC_DEVICE ? NULL : (void *)ptr;
    }
    return cudart_leave(d, cudaSuccess);
}
