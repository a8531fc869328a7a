/* unsupported.c — the rest of the runtime API's common surface, generated
 * from unsupported.def: each function says once on stderr that warpsim does
 * not implement it and returns cudaErrorNotSupported, so a program sees a
 * CUDA error rather than a missing symbol or a silent success.
 *
 * The stubs take no parameters: on x86-64 the caller owns its arguments, so
 * a function that ignores them may be declared without any. */
#include "cudart_internal.h"

static cudaError_t unsupported(const char *name)
{
    CudartDevice *d = cudart_enter();
    if (!g_hash_table_contains(d->warned, name)) {
        g_hash_table_add(d->warned, g_strdup(name));
        cudart_message("%s is not supported by warpsim; it returns cudaErrorNotSupported", name);
    }
    return cudart_leave(d, cudaErrorNotSupported);
}

/* Textures are not supported, but a channel descriptor is plain data that
 * programs build before they ask for one; returned by value as in CUDA. */
struct cudaChannelFormatDesc {
    int x, y, z, w;
    int f; /* enum cudaChannelFormatKind */
};

CUDART_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudaChannelFormatDesc desc = {x, y, z, w, f};
    return desc;
}

#define UNSUPPORTED(name) \
    CUDART_API cudaError_t name(void); \
    CUDART_API cudaError_t name(void) { return unsupported(#name); }
#include "unsupported.def"
#undef UNSUPPORTED
