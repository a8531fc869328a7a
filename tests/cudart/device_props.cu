// device_props.cu — the device as the configuration describes it.  The
// runner passes the expected SM count and compute capability, read from the
// configuration file: device_props SMS MAJOR MINOR.
#include <cstring>
#include "check.h"

__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }

int main(int argc, char **argv)
{
    EXPECT(argc == 4);
    int sms = std::atoi(argv[1]), major = std::atoi(argv[2]), minor = std::atoi(argv[3]);
    int count = 0, dev = -1;
    CHECK_CUDA(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    CHECK_CUDA(cudaSetDevice(0));
    EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice);
    cudaGetLastError();
    CHECK_CUDA(cudaGetDevice(&dev));
    EXPECT(dev == 0);
    cudaDeviceProp p;
    std::memset(&p, 0xab, sizeof p);
    CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
    std::printf("%s: cc %d.%d, %d SMs, %d threads/block, warp %d\n", p.name, p.major, p.minor,
                p.multiProcessorCount, p.maxThreadsPerBlock, p.warpSize);
    EXPECT(p.multiProcessorCount == sms && p.major == major && p.minor == minor);
    EXPECT(p.warpSize == 32 && p.maxThreadsPerBlock >= 512 && p.name[0] != 0);
    EXPECT(p.totalGlobalMem > 0 && p.sharedMemPerBlock > 0 && p.regsPerBlock > 0);
    int v;
    CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == sms);
    CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT(v == major);
    CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0));
    EXPECT(v == p.maxThreadsPerBlock);
    CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    EXPECT((size_t)v == p.sharedMemPerBlock);
    CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0));
    EXPECT(v == p.l2CacheSize);
    CHECK_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    EXPECT(v > 100000);
    int version = 0;
    CHECK_CUDA(cudaRuntimeGetVersion(&version));
    EXPECT(version >= 12000);
    CHECK_CUDA(cudaDriverGetVersion(&version));
    EXPECT(version >= 12000);
    CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
    // kernel attributes and occupancy
    cudaFuncAttributes fa;
    CHECK_CUDA(cudaFuncGetAttributes(&fa, k));
    EXPECT(fa.numRegs > 0 && fa.maxThreadsPerBlock == p.maxThreadsPerBlock);
    int blocks = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 128, 0));
    EXPECT(blocks > 0 && blocks * 128 <= p.maxThreadsPerMultiProcessor);
    int min_grid = 0, block = 0;
    CHECK_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, k, 0, 0));
    EXPECT(block > 0 && block <= p.maxThreadsPerBlock && min_grid >= sms);
    CHECK_CUDA(cudaFuncSetCacheConfig(k, cudaFuncCachePreferShared));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaDeviceReset());
    std::printf("PASS device_props\n");
    return 0;
}
