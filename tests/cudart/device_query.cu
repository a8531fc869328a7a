// device_query.cu — deviceQuery's walk over the device: driver and runtime
// versions, every property it prints (with the CUDA 13 attributes that
// replaced clockRate and the memory clock), and "Result = PASS"; the values
// are checked for consistency between cudaGetDeviceProperties and
// cudaDeviceGetAttribute.
#include <string>
#include "sample_helpers.h"

int main(int argc, char **argv)
{
    std::printf("%s Starting...\n\n", argv[0]);
    std::printf(" CUDA Device Query (Runtime API) version (CUDART static linking)\n\n");
    int deviceCount = 0;
    cudaError_t error_id = cudaGetDeviceCount(&deviceCount);
    if (error_id != cudaSuccess) {
        std::printf("cudaGetDeviceCount returned %d\n-> %s\n", (int)error_id, cudaGetErrorString(error_id));
        std::printf("Result = FAIL\n");
        return EXIT_FAILURE;
    }
    if (deviceCount == 0)
        std::printf("There are no available device(s) that support CUDA\n");
    else
        std::printf("Detected %d CUDA Capable device(s)\n", deviceCount);
    bool ok = deviceCount >= 1;
    int driverVersion = 0, runtimeVersion = 0;
    for (int dev = 0; dev < deviceCount; ++dev) {
        checkCudaErrors(cudaSetDevice(dev));
        cudaDeviceProp deviceProp;
        checkCudaErrors(cudaGetDeviceProperties(&deviceProp, dev));
        std::printf("\nDevice %d: \"%s\"\n", dev, deviceProp.name);
        checkCudaErrors(cudaDriverGetVersion(&driverVersion));
        checkCudaErrors(cudaRuntimeGetVersion(&runtimeVersion));
        std::printf("  CUDA Driver Version / Runtime Version          %d.%d / %d.%d\n", driverVersion / 1000,
                    (driverVersion % 100) / 10, runtimeVersion / 1000, (runtimeVersion % 100) / 10);
        std::printf("  CUDA Capability Major/Minor version number:    %d.%d\n", deviceProp.major, deviceProp.minor);
        std::printf("  Total amount of global memory:                 %.0f MBytes (%llu bytes)\n",
                    (float)deviceProp.totalGlobalMem / 1048576.0f, (unsigned long long)deviceProp.totalGlobalMem);
        int cores = convertSMVer2Cores(deviceProp.major, deviceProp.minor);
        std::printf("  (%03d) Multiprocessors, (%03d) CUDA Cores/MP:    %d CUDA Cores\n",
                    deviceProp.multiProcessorCount, cores, cores * deviceProp.multiProcessorCount);
        int clockRate, memoryClock, memBusWidth, l2;
        checkCudaErrors(cudaDeviceGetAttribute(&clockRate, cudaDevAttrClockRate, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&memoryClock, cudaDevAttrMemoryClockRate, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&memBusWidth, cudaDevAttrGlobalMemoryBusWidth, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
        std::printf("  GPU Max Clock rate:                            %.0f MHz (%0.2f GHz)\n", clockRate * 1e-3f,
                    clockRate * 1e-6f);
        std::printf("  Memory Clock rate:                             %.0f Mhz\n", memoryClock * 1e-3f);
        std::printf("  Memory Bus Width:                              %d-bit\n", memBusWidth);
        if (l2)
            std::printf("  L2 Cache Size:                                 %d bytes\n", l2);
        std::printf("  Total amount of constant memory:               %zu bytes\n", deviceProp.totalConstMem);
        std::printf("  Total amount of shared memory per block:       %zu bytes\n", deviceProp.sharedMemPerBlock);
        std::printf("  Total shared memory per multiprocessor:        %zu bytes\n",
                    deviceProp.sharedMemPerMultiprocessor);
        std::printf("  Total number of registers available per block: %d\n", deviceProp.regsPerBlock);
        std::printf("  Warp size:                                     %d\n", deviceProp.warpSize);
        std::printf("  Maximum number of threads per multiprocessor:  %d\n", deviceProp.maxThreadsPerMultiProcessor);
        std::printf("  Maximum number of threads per block:           %d\n", deviceProp.maxThreadsPerBlock);
        std::printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n", deviceProp.maxThreadsDim[0],
                    deviceProp.maxThreadsDim[1], deviceProp.maxThreadsDim[2]);
        std::printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n", deviceProp.maxGridSize[0],
                    deviceProp.maxGridSize[1], deviceProp.maxGridSize[2]);
        std::printf("  Maximum memory pitch:                          %zu bytes\n", deviceProp.memPitch);
        std::printf("  Texture alignment:                             %zu bytes\n", deviceProp.textureAlignment);
        int gpuOverlap, kernelTimeout, computeMode;
        checkCudaErrors(cudaDeviceGetAttribute(&gpuOverlap, cudaDevAttrGpuOverlap, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&kernelTimeout, cudaDevAttrKernelExecTimeout, dev));
        checkCudaErrors(cudaDeviceGetAttribute(&computeMode, cudaDevAttrComputeMode, dev));
        std::printf("  Concurrent copy and kernel execution:          %s with %d copy engine(s)\n",
                    gpuOverlap ? "Yes" : "No", deviceProp.asyncEngineCount);
        std::printf("  Run time limit on kernels:                     %s\n", kernelTimeout ? "Yes" : "No");
        std::printf("  Integrated GPU sharing Host Memory:            %s\n", deviceProp.integrated ? "Yes" : "No");
        std::printf("  Support host page-locked memory mapping:       %s\n", deviceProp.canMapHostMemory ? "Yes" : "No");
        std::printf("  Alignment requirement for Surfaces:            %s\n", deviceProp.surfaceAlignment ? "Yes" : "No");
        std::printf("  Device has ECC support:                        %s\n", deviceProp.ECCEnabled ? "Enabled" : "Disabled");
        std::printf("  Device supports Unified Addressing (UVA):      %s\n", deviceProp.unifiedAddressing ? "Yes" : "No");
        std::printf("  Device supports Managed Memory:                %s\n", deviceProp.managedMemory ? "Yes" : "No");
        std::printf("  Device supports Compute Preemption:            %s\n",
                    deviceProp.computePreemptionSupported ? "Yes" : "No");
        std::printf("  Supports Cooperative Kernel Launch:            %s\n", deviceProp.cooperativeLaunch ? "Yes" : "No");
        std::printf("  Device PCI Domain ID / Bus ID / location ID:   %d / %d / %d\n", deviceProp.pciDomainID,
                    deviceProp.pciBusID, deviceProp.pciDeviceID);
        const char *sComputeMode[] = {"Default (multiple host threads can use ::cudaSetDevice() with device "
                                      "simultaneously)",
                                      "Exclusive (only one host thread in one process is able to use "
                                      "::cudaSetDevice() with this device)",
                                      "Prohibited (no host thread can use ::cudaSetDevice() with this device)",
                                      "Exclusive Process (many threads in one process is able to use "
                                      "::cudaSetDevice() with this device)",
                                      "Unknown", NULL};
        std::printf("  Compute Mode:\n     < %s >\n", sComputeMode[computeMode >= 0 && computeMode < 4 ? computeMode : 4]);

        // attributes and properties agree
        struct { cudaDeviceAttr attr; long long prop; const char *name; } same[] = {
            {cudaDevAttrMaxThreadsPerBlock, deviceProp.maxThreadsPerBlock, "maxThreadsPerBlock"},
            {cudaDevAttrMultiProcessorCount, deviceProp.multiProcessorCount, "multiProcessorCount"},
            {cudaDevAttrComputeCapabilityMajor, deviceProp.major, "major"},
            {cudaDevAttrComputeCapabilityMinor, deviceProp.minor, "minor"},
            {cudaDevAttrMaxSharedMemoryPerBlock, (long long)deviceProp.sharedMemPerBlock, "sharedMemPerBlock"},
            {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)deviceProp.sharedMemPerBlockOptin, "optin"},
            {cudaDevAttrWarpSize, deviceProp.warpSize, "warpSize"},
            {cudaDevAttrMaxRegistersPerBlock, deviceProp.regsPerBlock, "regsPerBlock"},
            {cudaDevAttrTotalConstantMemory, (long long)deviceProp.totalConstMem, "totalConstMem"},
            {cudaDevAttrMaxBlocksPerMultiprocessor, deviceProp.maxBlocksPerMultiProcessor, "maxBlocksPerSM"},
            {cudaDevAttrL2CacheSize, deviceProp.l2CacheSize, "l2CacheSize"},
            {cudaDevAttrConcurrentManagedAccess, deviceProp.concurrentManagedAccess, "concurrentManagedAccess"},
            {cudaDevAttrCanMapHostMemory, deviceProp.canMapHostMemory, "canMapHostMemory"},
            {cudaDevAttrStreamPrioritiesSupported, deviceProp.streamPrioritiesSupported, "streamPriorities"},
        };
        for (auto &s : same) {
            int v = -1;
            checkCudaErrors(cudaDeviceGetAttribute(&v, s.attr, dev));
            if (v != s.prop) {
                std::printf("attribute %s = %d, property = %lld\n", s.name, v, s.prop);
                ok = false;
            }
        }
        ok = ok && clockRate > 0 && memoryClock > 0 && deviceProp.warpSize == 32 && deviceProp.major >= 7 &&
             std::string(deviceProp.name).size() > 0;
    }
    std::printf("deviceQuery, CUDA Driver = CUDART, CUDA Driver Version = %d.%d, CUDA Runtime Version = %d.%d, "
                "NumDevs = %d\n",
                driverVersion / 1000, (driverVersion % 100) / 10, runtimeVersion / 1000, (runtimeVersion % 100) / 10,
                deviceCount);
    std::printf("Result = %s\n", ok ? "PASS" : "FAIL");
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS device_query\n");
    return 0;
}
