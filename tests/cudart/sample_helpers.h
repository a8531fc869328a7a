/* sample_helpers.h — the helpers CUDA sample programs carry (written here
 * from what they do, not copied): checkCudaErrors/getLastCudaError that
 * name the failing call, the SM-version -> cores-per-SM table, and
 * findCudaDevice, which picks the device with the most GFLOPS after asking
 * for every device's properties and attributes.  The programs using it
 * exercise the runtime the way the public samples do. */
#ifndef CUDART_TEST_SAMPLE_HELPERS_H
#define CUDART_TEST_SAMPLE_HELPERS_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

template <typename T>
static void sample_check(T result, const char *what, const char *file, int line)
{
    if (result) {
        std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)result,
                     cudaGetErrorName(result), what);
        std::exit(EXIT_FAILURE);
    }
}
#define checkCudaErrors(val) sample_check((val), #val, __FILE__, __LINE__)

static inline void sample_last_error(const char *msg, const char *file, int line)
{
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        std::fprintf(stderr, "%s(%d) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line, msg, (int)err,
                     cudaGetErrorString(err));
        std::exit(EXIT_FAILURE);
    }
}
#define getLastCudaError(msg) sample_last_error(msg, __FILE__, __LINE__)

/* Cores per SM by SM version (0xMm). */
static inline int convertSMVer2Cores(int major, int minor)
{
    static const struct { int sm, cores; } table[] = {
        {0x30, 192}, {0x32, 192}, {0x35, 192}, {0x37, 192}, {0x50, 128}, {0x52, 128}, {0x53, 128},
        {0x60, 64},  {0x61, 128}, {0x62, 128}, {0x70, 64},  {0x72, 64},  {0x75, 64},  {0x80, 64},
        {0x86, 128}, {0x87, 128}, {0x89, 128}, {0x90, 128}, {0xa0, 128}, {0xa1, 128}, {0xc0, 128},
        {-1, -1}};
    int i = 0;
    for (; table[i].sm != -1; i++)
        if (table[i].sm == ((major << 4) + minor))
            return table[i].cores;
    std::printf("MapSMtoCores for SM %d.%d is undefined.  Default to use %d Cores/SM\n", major, minor,
                table[i - 1].cores);
    return table[i - 1].cores;
}

static inline int gpuGetMaxGflopsDeviceId()
{
    int count = 0, best = -1;
    unsigned long long best_perf = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    if (count == 0) {
        std::fprintf(stderr, "gpuGetMaxGflopsDeviceId() CUDA error: no devices supporting CUDA.\n");
        std::exit(EXIT_FAILURE);
    }
    for (int dev = 0; dev < count; dev++) {
        int mode = -1, major = 0, minor = 0, sms = 0, clock = 0;
        checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, dev) != cudaSuccess)
            clock = 1;
        if (mode == cudaComputeModeProhibited)
            continue;
        unsigned long long perf = (unsigned long long)sms * convertSMVer2Cores(major, minor) * clock;
        if (perf > best_perf) {
            best_perf = perf;
            best = dev;
        }
    }
    return best;
}

/* "-device=N" on the command line, else the fastest device. */
static inline int findCudaDevice(int argc, const char **argv)
{
    int dev = -1;
    for (int i = 1; i < argc; i++)
        if (std::strncmp(argv[i], "-device=", 8) == 0)
            dev = std::atoi(argv[i] + 8);
    if (dev < 0)
        dev = gpuGetMaxGflopsDeviceId();
    checkCudaErrors(cudaSetDevice(dev));
    int major = 0, minor = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    std::printf("GPU Device %d: \"%s\" with compute capability %d.%d (%d cores/SM)\n\n", dev, prop.name, major,
                minor, convertSMVer2Cores(major, minor));
    return dev;
}

#endif
