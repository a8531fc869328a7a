/* host_ref_kernels.h — plain sequential C models of the traces/ kernels.
 *
 * Contract: host_reference.c builds a manifest's buffers on the host and,
 * for each launch, calls the model registered for the launch's kernel (and
 * PTX file, where two listings share an entry name) in host_ref_kernels.c.
 * A model reads its arguments through the accessors below, updates the
 * buffers in place as the kernel would, and reports a mismatch between the
 * manifest and what it expects (wrong type, buffer too short) in a GError.
 * Nothing here uses warpsim's own code: the point is an independent answer.
 */
#ifndef HOST_REF_KERNELS_H
#define HOST_REF_KERNELS_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    HT_U8, HT_S8, HT_U16, HT_S16, HT_U32, HT_S32, HT_U64, HT_S64, HT_F32, HT_F64,
    HT_COUNT
} HostType;

typedef struct {
    char *name;      /* owned */
    HostType type;
    size_t count;    /* elements */
    uint8_t *data;   /* owned, count * element size bytes */
} HostBuf;

typedef struct {
    bool is_buffer;
    HostBuf *buf;          /* borrowed, when is_buffer */
    uint64_t offset_bytes;
    HostType type;         /* scalar type, when !is_buffer */
    int64_t i;             /* scalar value as an integer */
    double f;              /* scalar value as a float */
} HostArg;

typedef struct {
    const char *kernel;
    const char *ptx;       /* file name as the manifest gives it */
    uint32_t grid[3], block[3];
    const HostArg *args;
    unsigned nargs;
    GHashTable *globals;   /* name -> HostBuf* (borrowed) */
} HostLaunch;

typedef bool (*HostModel)(const HostLaunch *l, GError **error);

/* The model for `kernel` from PTX file `ptx`, or NULL. */
HostModel host_ref_find_model(const char *kernel, const char *ptx);

unsigned host_type_size(HostType t);
const char *host_type_name(HostType t);

#endif
