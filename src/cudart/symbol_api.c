/* symbol_api.c — __device__ and __constant__ variables from the host:
 * cudaMemcpyToSymbol/FromSymbol (+Async), cudaGetSymbolAddress and
 * cudaGetSymbolSize.  A symbol is the host shadow variable nvcc registered;
 * its bytes are the module variable's storage (image_var_bytes). */
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

/* The device address of a __device__ variable; __constant__ memory has no
 * global address in the simulator (its bank is separate), so CUDA's
 * "address of constant" answer is not available for it. */
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
    if (module_var(s->mod->module, s->var)->space != SPACE_GLOBAL) {
        cudart_message("cudaGetSymbolAddress: __constant__ variable %s has no global address in warpsim", s->name);
        return cudart_leave(d, cudaErrorInvalidSymbol);
    }
    *devPtr = (void *)(uintptr_t)s->mod->image->var_addr[s->var];
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
