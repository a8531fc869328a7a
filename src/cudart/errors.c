/* errors.c — cudaGetLastError and friends, and the name and text of every
 * cudaError_t (errors.def). */
#include "cudart_internal.h"

static const struct {
    cudaError_t code;
    const char *name, *text;
} error_table[] = {
#define CUDART_ERROR(name, value, text) {name, #name, text},
#include "errors.def"
#undef CUDART_ERROR
};

CUDART_API const char *cudaGetErrorString(cudaError_t err)
{
    for (size_t i = 0; i < G_N_ELEMENTS(error_table); i++)
        if (error_table[i].code == err)
            return error_table[i].text;
    return "unrecognized error code";
}

CUDART_API const char *cudaGetErrorName(cudaError_t err)
{
    for (size_t i = 0; i < G_N_ELEMENTS(error_table); i++)
        if (error_table[i].code == err)
            return error_table[i].name;
    return "cudaErrorUnknown";
}

/* A sticky error (a kernel fault) is returned again on every call: the
 * context stays unusable until cudaDeviceReset, as in CUDA. */
CUDART_API cudaError_t cudaGetLastError(void)
{
    CudartDevice *d = cudart_enter();
    CudartThread *t = cudart_thread();
    cudaError_t err = t->last_error;
    t->last_error = d->sticky_error;
    g_mutex_unlock(&d->lock);
    return err;
}

CUDART_API cudaError_t cudaPeekAtLastError(void)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err = cudart_thread()->last_error;
    g_mutex_unlock(&d->lock);
    return err;
}
