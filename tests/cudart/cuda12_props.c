/* cuda12_props.c — a CUDA 12 program's view of the device: linked (by the
 * runner) against a library whose soname is libcudart.so.12, as
 * `nvcc -cudart shared` of CUDA 12 links, and declaring what CUDA 12's
 * headers declare, with the struct read at CUDA 12's offsets (driver_types.h
 * of CUDA 12.6; sizeof 1032).  No CUDA header is used: this machine has
 * CUDA 13's.
 *
 * usage: cuda12_props SMS MAJOR MINOR CLOCK_KHZ (from the configuration) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int cudaError_t;
typedef void *cudaStream_t;
/* CUDA 12's cuda_runtime_api.h: #define cudaGetDeviceProperties cudaGetDeviceProperties_v2 */
cudaError_t cudaGetDeviceProperties_v2(void *prop, int device);
cudaError_t cudaGetDeviceProperties(void *prop, int device); /* the pre-12 layout */
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned flags);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
/* CUDA 12's form: a device number, then the stream */
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, int dstDevice, cudaStream_t stream);
/* removed in CUDA 13, still in CUDA 12 */
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadSetLimit(int limit, size_t value);
cudaError_t cudaThreadGetLimit(size_t *value, int limit);

#define PROP_SIZE 1032
#define CANARY 0xAB

static int failures;
#define EXPECT(cond)                                                                 \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);      \
            failures++;                                                              \
        }                                                                            \
    } while (0)

static int int_at(const unsigned char *p, size_t off)
{
    int v;
    memcpy(&v, p + off, sizeof v);
    return v;
}

static size_t size_at(const unsigned char *p, size_t off)
{
    size_t v;
    memcpy(&v, p + off, sizeof v);
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: cuda12_props SMS MAJOR MINOR CLOCK_KHZ\n");
        return 2;
    }
    int sms = atoi(argv[1]), major = atoi(argv[2]), minor = atoi(argv[3]), clock_khz = atoi(argv[4]);
    unsigned char buf[PROP_SIZE + 64];
    memset(buf, CANARY, sizeof buf);
    EXPECT(cudaGetDeviceProperties_v2(buf, 0) == 0);
    EXPECT(memchr(buf, 0, 256) != NULL && buf[0] != 0 && buf[0] != CANARY); /* name[256] */
    EXPECT(size_at(buf, 288) == 80ull << 30);  /* totalGlobalMem */
    EXPECT(int_at(buf, 308) == 32);            /* warpSize */
    EXPECT(int_at(buf, 348) == clock_khz);     /* clockRate (gone in 13) */
    EXPECT(size_at(buf, 352) == 65536);        /* totalConstMem */
    EXPECT(int_at(buf, 360) == major);         /* major */
    EXPECT(int_at(buf, 364) == minor);         /* minor */
    EXPECT(int_at(buf, 384) == 1);             /* deviceOverlap (gone in 13) */
    EXPECT(int_at(buf, 388) == sms);           /* multiProcessorCount */
    EXPECT(int_at(buf, 400) == 1);             /* canMapHostMemory */
    int v;
    EXPECT(cudaDeviceGetAttribute(&v, 36, 0) == 0 && v > 0); /* cudaDevAttrMemoryClockRate */
    EXPECT(int_at(buf, 608) == v);             /* memoryClockRate (gone in 13) */
    EXPECT(cudaDeviceGetAttribute(&v, 37, 0) == 0);
    EXPECT(int_at(buf, 612) == v);             /* memoryBusWidth */
    EXPECT(cudaDeviceGetAttribute(&v, 38, 0) == 0);
    EXPECT(int_at(buf, 616) == v);             /* l2CacheSize */
    EXPECT(cudaDeviceGetAttribute(&v, 39, 0) == 0);
    EXPECT(int_at(buf, 624) == v);             /* maxThreadsPerMultiProcessor */
    EXPECT(cudaDeviceGetAttribute(&v, 97, 0) == 0);
    EXPECT(size_at(buf, 696) == (size_t)v);    /* sharedMemPerBlockOptin */
    EXPECT(cudaDeviceGetAttribute(&v, 106, 0) == 0);
    EXPECT(int_at(buf, 712) == v);             /* maxBlocksPerMultiProcessor */
    EXPECT(int_at(buf, 744) == 1);             /* memoryPoolsSupported */
    EXPECT(int_at(buf, 792) == 0);             /* reserved[0] */
    for (size_t i = PROP_SIZE; i < sizeof buf; i++) /* nothing past CUDA 12's struct */
        EXPECT(buf[i] == CANARY);

    /* the unversioned name in libcudart.so.12: the pre-12 struct, which
     * ends after reservedSharedMemPerBlock (offset 720) */
    memset(buf, CANARY, sizeof buf);
    EXPECT(cudaGetDeviceProperties(buf, 0) == 0);
    EXPECT(int_at(buf, 388) == sms && int_at(buf, 348) == clock_khz);
    EXPECT(buf[728] == CANARY);

    int version = 0;
    EXPECT(cudaRuntimeGetVersion(&version) == 0 && version >= 12000 && version < 13000);

    /* CUDA 12's cudaMemPrefetchAsync(ptr, count, device, stream) */
    void *m = NULL;
    cudaStream_t s = NULL;
    EXPECT(cudaMallocManaged(&m, 4096, 1) == 0);
    EXPECT(cudaStreamCreate(&s) == 0);
    EXPECT(cudaMemPrefetchAsync(m, 4096, 0, s) == 0);
    EXPECT(cudaMemPrefetchAsync(m, 4096, -1, s) == 0); /* cudaCpuDeviceId */
    EXPECT(cudaMemPrefetchAsync(m, 4096, 0, (cudaStream_t)(uintptr_t)0x1234) != 0); /* not a stream */
    EXPECT(cudaStreamDestroy(s) == 0);
    EXPECT(cudaFree(m) == 0);

    EXPECT(cudaThreadSynchronize() == 0);
    size_t limit = 0;
    EXPECT(cudaThreadSetLimit(1, 4u << 20) == 0); /* cudaLimitPrintfFifoSize */
    EXPECT(cudaThreadGetLimit(&limit, 1) == 0 && limit == 4u << 20);

    if (failures)
        return 1;
    printf("PASS cuda12_props\n");
    return 0;
}
