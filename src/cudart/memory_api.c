/* memory_api.c — allocation, copies and fills: cudaMalloc and its host,
 * managed, pitched and stream-ordered (cudaMallocAsync, the default memory
 * pool) forms, cudaMemcpy/2D/3D/Peer and cudaMemset/2D/3D (work done at
 * once; an Async form issued to a capturing stream becomes a graph node
 * instead, graph_api.c), managed-memory hints (attach, prefetch, advise,
 * read back by cudaMemRangeGetAttribute), graph memory attributes,
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
    CudartAlloc *a = g_new0(CudartAlloc, 1);
    a->kind = kind;
    a->size = size;
    a->flags = flags;
    g_hash_table_replace(d->allocs, key, a);
    return cudaSuccess;
}

/* The tracked allocation holding p (anywhere inside it), or NULL. */
static CudartAlloc *alloc_holding(CudartDevice *d, const void *p)
{
    Allocation *a = gmem_lookup(d->gmem, NULL, (uint64_t)(uintptr_t)p, 1);
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
    bool record = false;
    cudaError_t err = cudart_capture_begin_op(d, stream, &record);
    if (err)
        return err;
    err = allocate(d, devPtr, size, ALLOC_DEVICE, record ? CUDART_ALLOC_GRAPH : CUDART_ALLOC_FROM_POOL);
    if (!err)
        d->pool_used_high = MAX(d->pool_used_high, pool_used(d));
    if (!err && record) {
        /* a graph's allocation: made now, so its address is fixed for every
         * launch, and kept until cudaDeviceReset (docs/cudart.md) */
        CudartOp op = {.kind = CUDART_OP_MEM_ALLOC};
        op.u.ptr = *devPtr;
        err = cudart_capture_add(d, stream, &op);
    }
    return err;
}

cudaError_t cudart_graph_alloc(CudartDevice *d, void **ptr, size_t size)
{
    return allocate(d, ptr, size, ALLOC_DEVICE, CUDART_ALLOC_GRAPH);
}

/* cudaGraphMemAttr*: 0/1 used now / at most, 2/3 reserved (the same: graph
 * memory is allocated exactly); only the high-water marks can be reset. */
static cudaError_t graph_mem_attribute(CudartDevice *d, int device, int attr, void *value, bool set)
{
    if (device != 0)
        return cudaErrorInvalidDevice;
    if (!value || attr < 0 || attr > 3)
        return cudaErrorInvalidValue;
    uint64_t used = 0;
    GHashTableIter it;
    gpointer key, v;
    g_hash_table_iter_init(&it, d->allocs);
    while (g_hash_table_iter_next(&it, &key, &v))
        if (((CudartAlloc *)v)->flags & CUDART_ALLOC_GRAPH)
            used += ((CudartAlloc *)v)->size;
    d->graph_mem_high = MAX(d->graph_mem_high, used);
    if (set) {
        if ((attr != 1 && attr != 3) || *(uint64_t *)value != 0)
            return cudaErrorInvalidValue;
        d->graph_mem_high = used;
        return cudaSuccess;
    }
    *(uint64_t *)value = attr == 0 || attr == 2 ? used : d->graph_mem_high;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, graph_mem_attribute(d, device, attr, value, false));
}

CUDART_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, graph_mem_attribute(d, device, attr, value, true));
}

/* Graph memory is allocated exactly: nothing is cached to trim. */
CUDART_API cudaError_t cudaDeviceGraphMemTrim(int device)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
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

/* Freed at once; in a capture, a free node (the memory stays: a graph's
 * allocations live as long as the device). */
CUDART_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, hStream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    bool record = false;
    cudaError_t err = cudart_capture_begin_op(d, hStream, &record);
    if (err)
        return cudart_leave(d, err);
    if (record) {
        uint64_t base = (uint64_t)(uintptr_t)devPtr;
        CudartAlloc *a = g_hash_table_lookup(d->allocs, &base);
        if (!a || a->kind != ALLOC_DEVICE)
            return cudart_leave(d, cudaErrorInvalidValue);
        CudartOp op = {.kind = CUDART_OP_MEM_FREE};
        op.u.ptr = devPtr;
        return cudart_leave(d, cudart_capture_add(d, hStream, &op));
    }
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

/* The advice and prefetch location recorded for the allocation holding
 * ptr (none for module variables); ints except AccessedBy's list. */
static int legacy_device(int type, int id)
{
    return type == 1 ? id : type == 2 ? -1 : -2; /* device, cudaCpuDeviceId, cudaInvalidDeviceId */
}

static cudaError_t range_attribute(CudartDevice *d, void *data, size_t size, int attr, const void *ptr, size_t count)
{
    if (!data || !cudart_device_bytes(d, ptr, count))
        return cudaErrorInvalidValue;
    CudartAlloc none = {0}, *a = alloc_holding(d, ptr);
    if (!a)
        a = &none;
    if (attr == 3) { /* AccessedBy: a list of devices, padded with cudaInvalidDeviceId */
        if (size % 4)
            return cudaErrorInvalidValue;
        for (size_t i = 0; i < size / 4; i++)
            ((int *)data)[i] = -2;
        return cudaSuccess;
    }
    if (size != 4)
        return cudaErrorInvalidValue;
    int v;
    switch (attr) {
    case 1: v = a->read_mostly; break;
    case 2: v = legacy_device(a->preferred_type, a->preferred_id); break;
    case 4: v = legacy_device(a->prefetch_type, a->prefetch_id); break;
    case 5: v = a->preferred_type; break;
    case 6: v = a->preferred_id; break;
    case 7: v = a->prefetch_type; break;
    case 8: v = a->prefetch_id; break;
    default: return cudaErrorInvalidValue;
    }
    *(int *)data = v;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, int attribute, const void *devPtr,
                                                size_t count)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, range_attribute(d, data, dataSize, attribute, devPtr, count));
}

CUDART_API cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes, int *attributes,
                                                 size_t numAttributes, const void *devPtr, size_t count)
{
    CudartDevice *d = cudart_enter();
    if (!data || !dataSizes || !attributes)
        return cudart_leave(d, cudaErrorInvalidValue);
    for (size_t i = 0; i < numAttributes; i++) {
        cudaError_t err = range_attribute(d, data[i], dataSizes[i], attributes[i], devPtr, count);
        if (err)
            return cudart_leave(d, err);
    }
    return cudart_leave(d, cudaSuccess);
}

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

/* A location argument as {type, id}: CUDA 13's struct cudaMemLocation,
 * eight bytes passed by value in one register (x86-64), or CUDA 12's int
 * device (cudaCpuDeviceId -1 for the host). */
static void location_of(const CudartDevice *d, uint64_t location, bool cuda12_int, int *type, int *id)
{
    if (cuda12_int && d->abi_release == 12) {
        int device = (int)(uint32_t)location;
        *type = device == -1 ? 2 : 1;
        *id = device == -1 ? 0 : device;
        return;
    }
    *type = (int)(uint32_t)location;
    *id = (int)(uint32_t)(location >> 32);
}

/* Advice changes where pages live, which one device does not model: it is
 * validated and remembered for cudaMemRangeGetAttribute. */
static cudaError_t advise(const void *devPtr, size_t count, int advice, uint64_t location, bool cuda12_int)
{
    CudartDevice *d = cudart_enter();
    if (advice < 1 || advice > 6)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_device_bytes(d, devPtr, count))
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartAlloc *a = alloc_holding(d, devPtr);
    if (a) {
        int type, id;
        location_of(d, location, cuda12_int, &type, &id);
        if (advice == 1 || advice == 2)
            a->read_mostly = advice == 1;
        else if (advice == 3 || advice == 4) {
            a->preferred_type = advice == 3 ? type : 0;
            a->preferred_id = advice == 3 ? id : 0;
        }
    }
    return cudart_leave(d, cudaSuccess);
}

/* CUDA 12.2's name for CUDA 13's cudaMemAdvise (a cudaMemLocation where 12
 * passes an int device: either is only validated) */
CUDART_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, uint64_t location)
{
    return advise(devPtr, count, advice, location, true);
}

CUDART_API cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, int advice, uint64_t location)
{
    return advise(devPtr, count, advice, location, false);
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



/* A copy's rows must fit their pitches (2D and 3D forms). */
static cudaError_t copy_check(CudartDevice *d, const CudartCopy *c)
{
    (void)d;
    if ((unsigned)c->kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (c->height && c->depth && (c->width > c->dpitch || c->width > c->spitch))
        return cudaErrorInvalidPitchValue;
    if (c->width && c->height && c->depth && (!c->dst || !c->src))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t cudart_copy_3d(CudartDevice *d, const CudartCopy *c)
{
    cudaError_t err = cudart_unusable(d);
    if (err || (err = copy_check(d, c)))
        return err;
    bool packed = c->width == c->dpitch && c->width == c->spitch;
    for (size_t z = 0; z < c->depth; z++) {
        uint8_t *to = c->dst + z * c->dslice;
        const uint8_t *from = c->src + z * c->sslice;
        if (packed) {
            if ((err = copy(d, to, from, c->width * c->height, c->kind)))
                return err;
            continue;
        }
        for (size_t row = 0; row < c->height; row++)
            if ((err = copy(d, to + row * c->dpitch, from + row * c->spitch, c->width, c->kind)))
                return err;
    }
    return cudaSuccess;
}

static cudaError_t fill_check(CudartDevice *d, const CudartFill *f)
{
    size_t row_bytes = f->width * f->elem_size;
    if (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4)
        return cudaErrorInvalidValue;
    if (f->height && row_bytes > f->pitch)
        return cudaErrorInvalidPitchValue;
    for (size_t row = 0; row < f->height && row_bytes; row++)
        if (!cudart_device_bytes(d, f->dst + row * f->pitch, row_bytes))
            return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t cudart_fill_2d(CudartDevice *d, const CudartFill *f)
{
    cudaError_t err = cudart_unusable(d);
    if (err || (err = fill_check(d, f)))
        return err;
    size_t row_bytes = f->width * f->elem_size;
    for (size_t row = 0; row < f->height && row_bytes; row++) {
        uint8_t *bytes = cudart_device_bytes(d, f->dst + row * f->pitch, row_bytes);
        if (f->elem_size == 1) {
            memset(bytes, (int)(f->value & 0xff), row_bytes);
        } else {
            for (size_t i = 0; i < f->width; i++)
                memcpy(bytes + i * f->elem_size, &f->value, f->elem_size); /* little-endian: the low bytes */
        }
        d->clock_ns += cudart_copy_ns(d, row_bytes, false) / 2; /* writes only */
    }
    return cudaSuccess;
}

/* Issues a copy or fill to a stream: done now, or recorded as a graph node
 * when the stream is capturing (validated first, as CUDA validates at
 * capture). */
static cudaError_t issue(CudartDevice *d, cudaStream_t stream, CudartOp *op)
{
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    if (!cudart_stream_ok(d, stream))
        return cudaErrorInvalidResourceHandle;
    bool record = false;
    if ((err = cudart_capture_begin_op(d, stream, &record)))
        return err;
    if (!record)
        return cudart_run_op(d, op);
    if (op->kind == CUDART_OP_COPY && (err = copy_check(d, &op->u.copy)))
        return err;
    if (op->kind == CUDART_OP_FILL && (err = fill_check(d, &op->u.fill)))
        return err;
    return cudart_capture_add(d, stream, op);
}

static CudartOp copy_op(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                        enum cudaMemcpyKind kind)
{
    CudartOp op = {.kind = CUDART_OP_COPY};
    op.u.copy = (CudartCopy){.dst = dst, .src = src, .dpitch = dpitch, .spitch = spitch, .dslice = dpitch * height,
                             .sslice = spitch * height, .width = width, .height = height, .depth = 1, .kind = kind};
    return op;
}

static CudartOp fill_op(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    CudartOp op = {.kind = CUDART_OP_FILL};
    op.u.fill = (CudartFill){.dst = dst, .pitch = pitch, .value = (unsigned)(value & 0xff), .elem_size = 1,
                             .width = width, .height = height};
    return op;
}

/* The synchronous forms run on the legacy stream: during a global capture
 * in a blocking stream they are cudaErrorStreamCaptureImplicit, as in CUDA. */
CUDART_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = copy_op(dst, count, src, count, count, 1, kind);
    return cudart_leave(d, issue(d, NULL, &op)); /* the legacy stream */
}

CUDART_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                       cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = copy_op(dst, count, src, count, count, 1, kind);
    return cudart_leave(d, issue(d, stream, &op));
}

CUDART_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                    size_t height, enum cudaMemcpyKind kind)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = copy_op(dst, dpitch, src, spitch, width, height, kind);
    return cudart_leave(d, issue(d, NULL, &op)); /* the legacy stream */
}

CUDART_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                         size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = copy_op(dst, dpitch, src, spitch, width, height, kind);
    return cudart_leave(d, issue(d, stream, &op));
}

CUDART_API cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = fill_op(devPtr, count, value, count, 1);
    return cudart_leave(d, issue(d, NULL, &op)); /* the legacy stream */
}

CUDART_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = fill_op(devPtr, count, value, count, 1);
    return cudart_leave(d, issue(d, stream, &op));
}

CUDART_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = fill_op(devPtr, pitch, value, width, height);
    return cudart_leave(d, issue(d, NULL, &op)); /* the legacy stream */
}

CUDART_API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                         cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = fill_op(devPtr, pitch, value, width, height);
    return cudart_leave(d, issue(d, stream, &op));
}

/* ------------------------------------------------------ 3D and peers */

/* Pitched allocations: rows padded to PITCH_ALIGN, as cudaMallocPitch. */
CUDART_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    CudartDevice *d = cudart_enter();
    if (!pitchedDevPtr)
        return cudart_leave(d, cudaErrorInvalidValue);
    size_t pitch = (extent.width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    void *p = NULL;
    cudaError_t err = allocate(d, &p, pitch * extent.height * extent.depth, ALLOC_DEVICE, 0);
    if (err)
        return cudart_leave(d, err);
    *pitchedDevPtr = (struct cudaPitchedPtr){p, pitch, extent.width, extent.height};
    return cudart_leave(d, cudaSuccess);
}

/* A slice at a time: slices are ysize rows apart. */
static cudaError_t memset_3d(CudartDevice *d, struct cudaPitchedPtr p, int value, struct cudaExtent e,
                             cudaStream_t stream, bool async)
{
    if (e.depth > 1 && e.height > p.ysize)
        return cudaErrorInvalidValue;
    for (size_t z = 0; z < e.depth; z++) {
        CudartOp op = fill_op((uint8_t *)p.ptr + z * p.pitch * p.ysize, p.pitch, value, e.width, e.height);
        cudaError_t err = issue(d, async ? stream : NULL, &op);
        if (err)
            return err;
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, memset_3d(d, pitchedDevPtr, value, extent, NULL, false));
}

CUDART_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                         cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, memset_3d(d, pitchedDevPtr, value, extent, stream, true));
}

/* cudaMemcpy3DParms between linear memories as a copy op: the positions'
 * x in bytes; slices are ysize rows apart. */
cudaError_t cudart_copy_from_parms(const struct cudaMemcpy3DParms *p, CudartOp *op)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->srcArray || p->dstArray) {
        cudart_message("cudaMemcpy3D: CUDA arrays are not supported by warpsim");
        return cudaErrorNotSupported;
    }
    if (!p->srcPtr.ptr || !p->dstPtr.ptr)
        return cudaErrorInvalidValue;
    const struct cudaPitchedPtr *s = &p->srcPtr, *t = &p->dstPtr;
    size_t s_rows = s->ysize ? s->ysize : p->extent.height, t_rows = t->ysize ? t->ysize : p->extent.height;
    size_t spitch = s->pitch ? s->pitch : p->extent.width, dpitch = t->pitch ? t->pitch : p->extent.width;
    memset(op, 0, sizeof *op);
    op->kind = CUDART_OP_COPY;
    op->u.copy = (CudartCopy){
        .src = (const uint8_t *)s->ptr + p->srcPos.z * spitch * s_rows + p->srcPos.y * spitch + p->srcPos.x,
        .dst = (uint8_t *)t->ptr + p->dstPos.z * dpitch * t_rows + p->dstPos.y * dpitch + p->dstPos.x,
        .spitch = spitch, .sslice = spitch * s_rows, .dpitch = dpitch, .dslice = dpitch * t_rows,
        .width = p->extent.width, .height = p->extent.height, .depth = p->extent.depth, .kind = p->kind,
    };
    return cudaSuccess;
}

static cudaError_t memcpy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, bool async)
{
    CudartDevice *d = cudart_enter();
    CudartOp op;
    cudaError_t err = cudart_copy_from_parms(p, &op);
    if (err)
        return cudart_leave(d, err);
    return cudart_leave(d, issue(d, async ? stream : NULL, &op));
}

CUDART_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return memcpy_3d(p, NULL, false);
}

CUDART_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return memcpy_3d(p, stream, true);
}

static cudaError_t memcpy_3d_peer(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream, bool async)
{
    if (p && (p->srcDevice != 0 || p->dstDevice != 0)) {
        CudartDevice *d = cudart_enter();
        return cudart_leave(d, cudaErrorInvalidDevice);
    }
    struct cudaMemcpy3DParms q;
    if (p)
        q = (struct cudaMemcpy3DParms){p->srcArray, p->srcPos, p->srcPtr, p->dstArray, p->dstPos, p->dstPtr,
                                       p->extent, cudaMemcpyDeviceToDevice};
    return memcpy_3d(p ? &q : NULL, stream, async);
}

CUDART_API cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
    return memcpy_3d_peer(p, NULL, false);
}

CUDART_API cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    return memcpy_3d_peer(p, stream, true);
}

/* The one device is its own "peer": a device-to-device copy. */
static cudaError_t memcpy_peer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                               cudaStream_t stream, bool async)
{
    CudartDevice *d = cudart_enter();
    if (dstDevice != 0 || srcDevice != 0)
        return cudart_leave(d, cudaErrorInvalidDevice);
    CudartOp op = copy_op(dst, count, src, count, count, 1, cudaMemcpyDeviceToDevice);
    return cudart_leave(d, issue(d, async ? stream : NULL, &op));
}

CUDART_API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    return memcpy_peer(dst, dstDevice, src, srcDevice, count, NULL, false);
}

CUDART_API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                           cudaStream_t stream)
{
    return memcpy_peer(dst, dstDevice, src, srcDevice, count, stream, true);
}

/* Memory on one device is always where it is needed.  `location`: CUDA 13's
 * struct cudaMemLocation by value, as in cudaMemAdvise. */
/* CUDA 13 (and CUDA 12.2's _v2): (devPtr, count, cudaMemLocation, unsigned
 * flags, stream); CUDA 12: (devPtr, count, int dstDevice, stream), whose
 * stream arrives where 13 passes the flags, so that argument is taken at
 * full width and read by the program's release (d->abi_release). */
static cudaError_t prefetch(const void *devPtr, size_t count, uint64_t location, bool cuda12_int,
                            cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if (!cudart_device_bytes(d, devPtr, count))
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartAlloc *a = alloc_holding(d, devPtr);
    if (a)
        location_of(d, location, cuda12_int, &a->prefetch_type, &a->prefetch_id);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, uint64_t location,
                                            uint64_t flags_or_stream, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    bool cuda12 = d->abi_release == 12;
    g_mutex_unlock(&d->lock);
    return prefetch(devPtr, count, location, true, cuda12 ? (cudaStream_t)(uintptr_t)flags_or_stream : stream);
}

CUDART_API cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count, uint64_t location, unsigned flags,
                                               cudaStream_t stream)
{
    (void)flags;
    return prefetch(devPtr, count, location, false, stream);
}

CUDART_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    CudartDevice *d = cudart_enter();
    if (!attributes)
        return cudart_leave(d, cudaErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    attributes->device = -2; /* what CUDA reports for unregistered memory */
    Allocation *a = gmem_lookup(d->gmem, NULL, (uint64_t)(uintptr_t)ptr, 1);
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
