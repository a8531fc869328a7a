// runtime_limits.cu — the runtime settings samples touch before their
// work: cudaDeviceSetLimit/GetLimit (stack, printf FIFO, malloc heap: set
// before the first launch, then used by a kernel's malloc), cache and
// shared-memory preferences per device and per kernel, the occupancy
// queries (including cudaOccupancyAvailableDynamicSMemPerBlock), stream
// attributes, profiler markers, versions, error names, and
// cudaGetDriverEntryPoint (warpsim has no driver API: "not found").
#include <cuda_profiler_api.h>
#include <string>
#include "sample_helpers.h"

__global__ void heapUser(int **slots, int per_thread)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(per_thread * sizeof(int));
    if (p)
        for (int i = 0; i < per_thread; i++)
            p[i] = t + i;
    slots[t] = p;
}

__global__ void heapCheck(int **slots, int per_thread, int *bad)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = slots[t];
    if (!p) {
        atomicAdd(bad, 1);
        return;
    }
    for (int i = 0; i < per_thread; i++)
        if (p[i] != t + i)
            atomicAdd(bad, 1);
    free(p);
}

__global__ void sharedUser(float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);

    // --- limits, before any launch (as samples set the heap)
    const size_t heap = 16u << 20, fifo = 4u << 20, stack = 2048;
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap));
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, fifo));
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitStackSize, stack));
    size_t v = 0;
    checkCudaErrors(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    if (v != heap) return 1;
    checkCudaErrors(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    if (v != fifo) return 1;
    checkCudaErrors(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    if (v < stack) return 1;
    if (cudaDeviceGetLimit(&v, (cudaLimit)0x1234) != cudaErrorUnsupportedLimit) return 1;
    cudaGetLastError();

    // 12 MiB of device heap: more than the default 8 MiB, within the 16 set
    const int threads = 256, blocks = 8, per_thread = 1536;
    int **slots, *bad;
    checkCudaErrors(cudaMalloc(&slots, threads * blocks * sizeof(int *)));
    checkCudaErrors(cudaMallocManaged(&bad, sizeof(int)));
    *bad = 0;
    heapUser<<<blocks, threads>>>(slots, per_thread);
    getLastCudaError("heapUser");
    heapCheck<<<blocks, threads>>>(slots, per_thread, bad);
    checkCudaErrors(cudaDeviceSynchronize());
    if (*bad) {
        std::printf("device malloc: %d bad\n", *bad);
        return 1;
    }
    // once a kernel called malloc the heap is made: its size no longer changes
    if (cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32u << 20) != cudaErrorInvalidValue) return 1;
    cudaGetLastError();

    // --- cache and shared-memory preferences
    checkCudaErrors(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    cudaFuncCache cc;
    checkCudaErrors(cudaDeviceGetCacheConfig(&cc));
    checkCudaErrors(cudaFuncSetCacheConfig(sharedUser, cudaFuncCachePreferL1));
    checkCudaErrors(cudaFuncSetCacheConfig(heapUser, cudaFuncCachePreferEqual));
    checkCudaErrors(cudaFuncSetSharedMemConfig(sharedUser, cudaSharedMemBankSizeFourByte));
    checkCudaErrors(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
    cudaSharedMemConfig smc;
    checkCudaErrors(cudaDeviceGetSharedMemConfig(&smc));
    if (cudaFuncSetCacheConfig((const void *)main, cudaFuncCachePreferL1) != cudaErrorInvalidDeviceFunction) return 1;
    cudaGetLastError();

    // --- occupancy
    int maxBlocks = 0;
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxBlocks, sharedUser, 128, 1024));
    if (maxBlocks <= 0) return 1;
    size_t dyn = 0;
    checkCudaErrors(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, sharedUser, 1, 128));
    int optin = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (dyn == 0 || dyn > (size_t)optin) return 1;
    size_t dyn4 = 0;
    checkCudaErrors(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn4, sharedUser, 4, 128));
    if (dyn4 == 0 || dyn4 > dyn) return 1;
    // that much dynamic shared memory with 4 blocks per SM leaves 4 resident
    int resident = 0;
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, sharedUser, 128, dyn4));
    if (resident < 4) {
        std::printf("with %zu bytes each, %d blocks fit, expected 4\n", dyn4, resident);
        return 1;
    }
    int minGrid = 0, blockSize = 0;
    checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, heapUser, 0, 0));
    if (blockSize <= 0 || minGrid <= 0) return 1;
    float *out;
    checkCudaErrors(cudaMallocManaged(&out, 128 * sizeof(float)));
    sharedUser<<<1, 128, 128 * sizeof(float)>>>(out);
    checkCudaErrors(cudaDeviceSynchronize());
    for (int i = 0; i < 128; i++)
        if (out[i] != 127 - i) return 1;

    // --- dynamic shared memory past 48 KiB needs the kernel's opt-in
    cudaFuncAttributes fa;
    checkCudaErrors(cudaFuncGetAttributes(&fa, sharedUser));
    if (fa.maxDynamicSharedSizeBytes != 49152 - (int)fa.sharedSizeBytes) {
        std::printf("maxDynamicSharedSizeBytes %d before the opt-in, expected %d\n", fa.maxDynamicSharedSizeBytes,
                    49152 - (int)fa.sharedSizeBytes);
        return 1;
    }
    sharedUser<<<1, 128, 64 * 1024>>>(out);
    if (cudaGetLastError() != cudaErrorInvalidValue) {
        std::printf("64 KiB of dynamic shared memory without the opt-in was not refused\n");
        return 1;
    }
    checkCudaErrors(cudaFuncSetAttribute(sharedUser, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    checkCudaErrors(cudaFuncGetAttributes(&fa, sharedUser));
    if (fa.maxDynamicSharedSizeBytes != 64 * 1024) return 1;
    sharedUser<<<1, 128, 64 * 1024>>>(out);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());
    sharedUser<<<1, 128, 64 * 1024 + 4>>>(out); // past what it opted in to
    if (cudaGetLastError() != cudaErrorInvalidValue) return 1;

    // --- stream attributes
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, 0));
    cudaStreamAttrValue val;
    std::memset(&val, 0, sizeof val);
    val.priority = -3;
    checkCudaErrors(cudaStreamSetAttribute(s, cudaStreamAttributePriority, &val));
    int prio = 0;
    checkCudaErrors(cudaStreamGetPriority(s, &prio));
    if (prio != -3) return 1;
    std::memset(&val, 0, sizeof val);
    val.accessPolicyWindow.base_ptr = out;
    val.accessPolicyWindow.num_bytes = 128 * sizeof(float);
    val.accessPolicyWindow.hitRatio = 0.6f;
    val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    checkCudaErrors(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &val));
    cudaStreamAttrValue got;
    checkCudaErrors(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
    if (got.accessPolicyWindow.base_ptr != out || got.accessPolicyWindow.hitRatio != 0.6f) return 1;
    cudaStream_t copy;
    checkCudaErrors(cudaStreamCreate(&copy));
    checkCudaErrors(cudaStreamCopyAttributes(copy, s));
    checkCudaErrors(cudaStreamGetAttribute(copy, cudaStreamAttributePriority, &got));
    if (got.priority != -3) return 1;
    checkCudaErrors(cudaCtxResetPersistingL2Cache());
    checkCudaErrors(cudaStreamDestroy(copy));
    checkCudaErrors(cudaStreamDestroy(s));

    // --- profiler markers, versions, error names
    checkCudaErrors(cudaProfilerStart());
    checkCudaErrors(cudaProfilerStop());
    int driver = 0, runtime = 0;
    checkCudaErrors(cudaDriverGetVersion(&driver));
    checkCudaErrors(cudaRuntimeGetVersion(&runtime));
    std::printf("CUDA Driver Version / Runtime Version %d.%d / %d.%d\n", driver / 1000, (driver % 100) / 10,
                runtime / 1000, (runtime % 100) / 10);
    if (driver < runtime || runtime < 13000) return 1;
    struct { cudaError_t e; const char *name; } names[] = {
        {cudaSuccess, "cudaSuccess"}, {cudaErrorInvalidValue, "cudaErrorInvalidValue"},
        {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation"}, {cudaErrorAssert, "cudaErrorAssert"},
        {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated"},
        {cudaErrorIllegalAddress, "cudaErrorIllegalAddress"}, {cudaErrorNotReady, "cudaErrorNotReady"},
        {cudaErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported"},
        {cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure"},
    };
    for (const auto &n : names)
        if (std::string(cudaGetErrorName(n.e)) != n.name || !*cudaGetErrorString(n.e)) {
            std::printf("%d is named %s\n", (int)n.e, cudaGetErrorName(n.e));
            return 1;
        }

    // --- driver entry points: none is provided, which CUDA reports as not found
    void *fn = (void *)1;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSuccess;
    checkCudaErrors(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, cudaEnableDefault, &q));
    if (fn != NULL || q != cudaDriverEntryPointSymbolNotFound) return 1;
    if (cudaGetDriverEntryPointByVersion("cuMemAlloc", NULL, 12000, cudaEnableDefault, &q) != cudaErrorInvalidValue)
        return 1;
    cudaGetLastError();

    checkCudaErrors(cudaFree(slots));
    checkCudaErrors(cudaFree(bad));
    checkCudaErrors(cudaFree(out));
    std::printf("PASS runtime_limits\n");
    return 0;
}
