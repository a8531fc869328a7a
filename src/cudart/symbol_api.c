/* symbol_api.c — __device__ and __constant__ variables from the host:
 * cudaMemcpyToSymbol/FromSymbol (+Async), cudaGetSymbolAddress and
 * cudaGetSymbolSize.  A symbol is the host shadow variable nvcc registered;
 * its bytes are the module variable's storage (image_var_bytes).
 *
 * The simulator keeps constant memory in a bank of its own, which kernels
 * reach by name; a pointer into it (cudaGetSymbolAddress) would be read
 * with ld.global.  So such a variable gets a mirror in global memory: host
 * copies through the mirror's address reach the constant bytes directly,
 * and each launch sees the mirror refreshed from them and writes it back. */
#include <string.h>

#include "cudart_internal.h"

static cudaError_t symbol_bytes(CudartDevice *d, const void *symbol, uint8_t **bytes, uint64_t *size,
                                CudartSymbol **out)
{
    cudaError_t err = cudart_unusable(d);
    if (err)
        return err;
    CudartSymbol *s = cudart_symbol_for(d, symbol);
    if (!s || s->var == NO_INDEX || !s->mod || !s->mod->image)
        return cudaErrorInvalidSymbol;
    *bytes = image_var_bytes(s->mod->image, s->var, size);
    if (!*bytes)
        return cudaErrorInvalidSymbol;
    if (out)
        *out = s;
    return cudaSuccess;
}

static cudaError_t symbol_copy(const void *symbol, void *host, size_t count, size_t offset, bool to_symbol,
                               enum cudaMemcpyKind kind, cudaStream_t stream, bool check_stream)
{
    CudartDevice *d = cudart_enter();
    if (check_stream && !cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    uint8_t *bytes;
    uint64_t size;
    cudaError_t err = symbol_bytes(d, symbol, &bytes, &size, NULL);
    if (err)
        return cudart_leave(d, err);
    if (offset > size || count > size - offset)
        return cudart_leave(d, cudaErrorInvalidValue);
    bool device_side = kind == cudaMemcpyDeviceToDevice;
    if (kind != cudaMemcpyDefault && kind != cudaMemcpyDeviceToDevice &&
        kind != (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
        return cudart_leave(d, cudaErrorInvalidMemcpyDirection);
    uint8_t *other = cudart_device_bytes(d, host, count);
    if (device_side && !other)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!other)
        other = host;
    bool record = false;
    if (check_stream && (err = cudart_capture_begin_op(d, stream, &record)))
        return cudart_leave(d, err);
    if (record) {
        /* a capturing stream: a copy node between the bytes themselves */
        CudartOp op = {.kind = CUDART_OP_COPY};
        op.u.copy = (CudartCopy){.dst = to_symbol ? bytes + offset : other,
                                 .src = to_symbol ? other : bytes + offset, .dpitch = count, .spitch = count,
                                 .dslice = count, .sslice = count, .width = count, .height = 1, .depth = 1,
                                 .kind = cudaMemcpyHostToHost};
        return cudart_leave(d, cudart_capture_add(d, stream, &op));
    }
    if (count) {
        if (to_symbol)
            memmove(bytes + offset, other, count);
        else
            memmove(other, bytes + offset, count);
    }
    d->clock_ns += cudart_copy_ns(d, count, !device_side);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                          enum cudaMemcpyKind kind)
{
    return symbol_copy(symbol, (void *)src, count, offset, true, kind, NULL, false);
}

CUDART_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                            enum cudaMemcpyKind kind)
{
    return symbol_copy(symbol, dst, count, offset, false, kind, NULL, false);
}

CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                               enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy(symbol, (void *)src, count, offset, true, kind, stream, true);
}

CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy(symbol, dst, count, offset, false, kind, stream, true);
}

uint8_t *cudart_const_shadow_bytes(CudartDevice *d, uint64_t addr, uint64_t n)
{
    for (guint i = 0; i < d->const_shadows->len; i++) {
        CudartSymbol *s = g_ptr_array_index(d->const_shadows, i);
        uint64_t size;
        uint8_t *bytes = image_var_bytes(s->mod->image, s->var, &size);
        if (bytes && addr >= s->const_shadow && addr - s->const_shadow + n <= size)
            return bytes + (addr - s->const_shadow);
    }
    return NULL;
}

void cudart_const_shadows_sync(CudartDevice *d, bool before_launch)
{
    for (guint i = 0; i < d->const_shadows->len; i++) {
        CudartSymbol *s = g_ptr_array_index(d->const_shadows, i);
        uint64_t size;
        uint8_t *bytes = image_var_bytes(s->mod->image, s->var, &size);
        uint8_t *mirror = gmem_ptr(d->gmem, s->const_shadow, size ? size : 1);
        if (!bytes || !mirror || !size)
            continue;
        if (before_launch)
            memcpy(mirror, bytes, size);
        else
            memcpy(bytes, mirror, size);
    }
}

/* The global mirror of a __constant__ variable, made on first use. */
static uint64_t const_shadow(CudartDevice *d, CudartSymbol *s, uint64_t size)
{
    if (s->const_shadow)
        return s->const_shadow;
    char *name = g_strdup_printf("__constant__ %s", s->name);
    GError *e = NULL;
    s->const_shadow = gmem_alloc(d->gmem, size ? size : 1, name, &e);
    g_free(name);
    if (!s->const_shadow) {
        cudart_message("%s", e->message);
        g_error_free(e);
        return 0;
    }
    g_ptr_array_add(d->const_shadows, s);
    return s->const_shadow;
}

/* The device address of a __device__ variable, or of a __constant__ one's
 * global mirror. */
CUDART_API cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    CudartDevice *d = cudart_enter();
    uint8_t *bytes;
    uint64_t size;
    CudartSymbol *s = NULL;
    cudaError_t err = symbol_bytes(d, symbol, &bytes, &size, &s);
    if (err)
        return cudart_leave(d, err);
    if (!devPtr)
        return cudart_leave(d, cudaErrorInvalidValue);
    uint64_t addr = module_var(s->mod->module, s->var)->space == SPACE_CONST ? const_shadow(d, s, size)
                                                                             : s->mod->image->var_addr[s->var];
    if (!addr)
        return cudart_leave(d, cudaErrorMemoryAllocation);
    *devPtr = (void *)(uintptr_t)addr;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    CudartDevice *d = cudart_enter();
    uint8_t *bytes;
    uint64_t n;
    cudaError_t err = symbol_bytes(d, symbol, &bytes, &n, NULL);
    if (err)
        return cudart_leave(d, err);
    if (!size)
        return cudart_leave(d, cudaErrorInvalidValue);
    *size = n;
    return cudart_leave(d, cudaSuccess);
}
