// device_query — the device facts hw_measure.py records beside its
// measurements, printed as one JSON object (CUDA runtime attributes only,
// so it builds with any nvcc that knows the device).
// Build: nvcc -O2 -o device_query device_query.cu
#include <cstdio>
#include <cuda_runtime.h>

#define ATTR(name, attr)                                                        \
    do {                                                                        \
        int v_ = -1;                                                            \
        cudaDeviceGetAttribute(&v_, attr, dev);                                 \
        printf(",\n  \"%s\": %d", name, v_);                                  \
    } while (0)

int main()
{
    int dev = 0, driver = 0, runtime = 0;
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
        fprintf(stderr, "device_query: no CUDA device\n");
        return 1;
    }
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    printf("{\n  \"name\": \"%s\",\n  \"driver_version\": %d,\n  \"runtime_version\": %d,\n"
           "  \"total_global_mem_bytes\": %zu,\n  \"l2_cache_bytes\": %d,\n"
           "  \"shared_mem_per_block_bytes\": %zu,\n  \"shared_mem_per_sm_bytes\": %zu,\n"
           "  \"shared_mem_per_block_optin_bytes\": %zu,\n  \"regs_per_sm\": %d,\n"
           "  \"regs_per_block\": %d,\n  \"warp_size\": %d,\n  \"max_threads_per_sm\": %d,\n"
           "  \"max_blocks_per_sm\": %d,\n  \"persisting_l2_max_bytes\": %d",
           p.name, driver, runtime, p.totalGlobalMem, p.l2CacheSize, p.sharedMemPerBlock,
           p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin, p.regsPerMultiprocessor,
           p.regsPerBlock, p.warpSize, p.maxThreadsPerMultiProcessor,
           p.maxBlocksPerMultiProcessor, p.persistingL2CacheMaxSize);
    ATTR("compute_capability_major", cudaDevAttrComputeCapabilityMajor);
    ATTR("compute_capability_minor", cudaDevAttrComputeCapabilityMinor);
    ATTR("sm_count", cudaDevAttrMultiProcessorCount);
    ATTR("clock_rate_khz", cudaDevAttrClockRate);
    ATTR("memory_clock_rate_khz", cudaDevAttrMemoryClockRate);
    ATTR("memory_bus_width_bits", cudaDevAttrGlobalMemoryBusWidth);
    ATTR("reserved_shared_mem_per_block_bytes", cudaDevAttrReservedSharedMemoryPerBlock);
    ATTR("ecc_enabled", cudaDevAttrEccEnabled);
    printf("\n}\n");
    return 0;
}
