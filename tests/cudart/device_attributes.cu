// device_attributes.cu — every cudaDeviceAttr of CUDA 13 (all but the
// reserved numbers), as deviceQuery and helper_cuda.h's
// gpuGetMaxGflopsDeviceId/_ConvertSMVer2Cores read them: each must be
// answered, and agree with cudaGetDeviceProperties where both say it.
#include "sample_helpers.h"

#define A(x) {x, #x}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    static const struct { cudaDeviceAttr attr; const char *name; } all[] = {
        A(cudaDevAttrMaxThreadsPerBlock),
        A(cudaDevAttrMaxBlockDimX),
        A(cudaDevAttrMaxBlockDimY),
        A(cudaDevAttrMaxBlockDimZ),
        A(cudaDevAttrMaxGridDimX),
        A(cudaDevAttrMaxGridDimY),
        A(cudaDevAttrMaxGridDimZ),
        A(cudaDevAttrMaxSharedMemoryPerBlock),
        A(cudaDevAttrTotalConstantMemory),
        A(cudaDevAttrWarpSize),
        A(cudaDevAttrMaxPitch),
        A(cudaDevAttrMaxRegistersPerBlock),
        A(cudaDevAttrClockRate),
        A(cudaDevAttrTextureAlignment),
        A(cudaDevAttrGpuOverlap),
        A(cudaDevAttrMultiProcessorCount),
        A(cudaDevAttrKernelExecTimeout),
        A(cudaDevAttrIntegrated),
        A(cudaDevAttrCanMapHostMemory),
        A(cudaDevAttrComputeMode),
        A(cudaDevAttrMaxTexture1DWidth),
        A(cudaDevAttrMaxTexture2DWidth),
        A(cudaDevAttrMaxTexture2DHeight),
        A(cudaDevAttrMaxTexture3DWidth),
        A(cudaDevAttrMaxTexture3DHeight),
        A(cudaDevAttrMaxTexture3DDepth),
        A(cudaDevAttrMaxTexture2DLayeredWidth),
        A(cudaDevAttrMaxTexture2DLayeredHeight),
        A(cudaDevAttrMaxTexture2DLayeredLayers),
        A(cudaDevAttrSurfaceAlignment),
        A(cudaDevAttrConcurrentKernels),
        A(cudaDevAttrEccEnabled),
        A(cudaDevAttrPciBusId),
        A(cudaDevAttrPciDeviceId),
        A(cudaDevAttrTccDriver),
        A(cudaDevAttrMemoryClockRate),
        A(cudaDevAttrGlobalMemoryBusWidth),
        A(cudaDevAttrL2CacheSize),
        A(cudaDevAttrMaxThreadsPerMultiProcessor),
        A(cudaDevAttrAsyncEngineCount),
        A(cudaDevAttrUnifiedAddressing),
        A(cudaDevAttrMaxTexture1DLayeredWidth),
        A(cudaDevAttrMaxTexture1DLayeredLayers),
        A(cudaDevAttrMaxTexture2DGatherWidth),
        A(cudaDevAttrMaxTexture2DGatherHeight),
        A(cudaDevAttrMaxTexture3DWidthAlt),
        A(cudaDevAttrMaxTexture3DHeightAlt),
        A(cudaDevAttrMaxTexture3DDepthAlt),
        A(cudaDevAttrPciDomainId),
        A(cudaDevAttrTexturePitchAlignment),
        A(cudaDevAttrMaxTextureCubemapWidth),
        A(cudaDevAttrMaxTextureCubemapLayeredWidth),
        A(cudaDevAttrMaxTextureCubemapLayeredLayers),
        A(cudaDevAttrMaxSurface1DWidth),
        A(cudaDevAttrMaxSurface2DWidth),
        A(cudaDevAttrMaxSurface2DHeight),
        A(cudaDevAttrMaxSurface3DWidth),
        A(cudaDevAttrMaxSurface3DHeight),
        A(cudaDevAttrMaxSurface3DDepth),
        A(cudaDevAttrMaxSurface1DLayeredWidth),
        A(cudaDevAttrMaxSurface1DLayeredLayers),
        A(cudaDevAttrMaxSurface2DLayeredWidth),
        A(cudaDevAttrMaxSurface2DLayeredHeight),
        A(cudaDevAttrMaxSurface2DLayeredLayers),
        A(cudaDevAttrMaxSurfaceCubemapWidth),
        A(cudaDevAttrMaxSurfaceCubemapLayeredWidth),
        A(cudaDevAttrMaxSurfaceCubemapLayeredLayers),
        A(cudaDevAttrMaxTexture1DLinearWidth),
        A(cudaDevAttrMaxTexture2DLinearWidth),
        A(cudaDevAttrMaxTexture2DLinearHeight),
        A(cudaDevAttrMaxTexture2DLinearPitch),
        A(cudaDevAttrMaxTexture2DMipmappedWidth),
        A(cudaDevAttrMaxTexture2DMipmappedHeight),
        A(cudaDevAttrComputeCapabilityMajor),
        A(cudaDevAttrComputeCapabilityMinor),
        A(cudaDevAttrMaxTexture1DMipmappedWidth),
        A(cudaDevAttrStreamPrioritiesSupported),
        A(cudaDevAttrGlobalL1CacheSupported),
        A(cudaDevAttrLocalL1CacheSupported),
        A(cudaDevAttrMaxSharedMemoryPerMultiprocessor),
        A(cudaDevAttrMaxRegistersPerMultiprocessor),
        A(cudaDevAttrManagedMemory),
        A(cudaDevAttrIsMultiGpuBoard),
        A(cudaDevAttrMultiGpuBoardGroupID),
        A(cudaDevAttrHostNativeAtomicSupported),
        A(cudaDevAttrSingleToDoublePrecisionPerfRatio),
        A(cudaDevAttrPageableMemoryAccess),
        A(cudaDevAttrConcurrentManagedAccess),
        A(cudaDevAttrComputePreemptionSupported),
        A(cudaDevAttrCanUseHostPointerForRegisteredMem),
        A(cudaDevAttrCooperativeLaunch),
        A(cudaDevAttrMaxSharedMemoryPerBlockOptin),
        A(cudaDevAttrCanFlushRemoteWrites),
        A(cudaDevAttrHostRegisterSupported),
        A(cudaDevAttrPageableMemoryAccessUsesHostPageTables),
        A(cudaDevAttrDirectManagedMemAccessFromHost),
        A(cudaDevAttrMaxBlocksPerMultiprocessor),
        A(cudaDevAttrMaxPersistingL2CacheSize),
        A(cudaDevAttrMaxAccessPolicyWindowSize),
        A(cudaDevAttrSparseCudaArraySupported),
        A(cudaDevAttrHostRegisterReadOnlySupported),
        A(cudaDevAttrTimelineSemaphoreInteropSupported),
        A(cudaDevAttrMemoryPoolsSupported),
        A(cudaDevAttrGPUDirectRDMASupported),
        A(cudaDevAttrGPUDirectRDMAFlushWritesOptions),
        A(cudaDevAttrGPUDirectRDMAWritesOrdering),
        A(cudaDevAttrMemoryPoolSupportedHandleTypes),
        A(cudaDevAttrClusterLaunch),
        A(cudaDevAttrDeferredMappingCudaArraySupported),
        A(cudaDevAttrIpcEventSupport),
        A(cudaDevAttrMemSyncDomainCount),
        A(cudaDevAttrNumaConfig),
        A(cudaDevAttrNumaId),
        A(cudaDevAttrMpsEnabled),
        A(cudaDevAttrHostNumaId),
        A(cudaDevAttrD3D12CigSupported),
        A(cudaDevAttrVulkanCigSupported),
        A(cudaDevAttrGpuPciDeviceId),
        A(cudaDevAttrGpuPciSubsystemId),
        A(cudaDevAttrHostNumaMemoryPoolsSupported),
        A(cudaDevAttrHostNumaMultinodeIpcSupported),
        A(cudaDevAttrHostMemoryPoolsSupported),
        A(cudaDevAttrOnlyPartialHostNativeAtomicSupported),
    };
    int values[256] = {0};
    for (const auto &a : all) {
        int v = -12345;
        cudaError_t err = cudaDeviceGetAttribute(&v, a.attr, dev);
        if (err != cudaSuccess || v == -12345) {
            std::printf("%s (%d): %s\n", a.name, (int)a.attr, cudaGetErrorName(err));
            return 1;
        }
        if ((int)a.attr < 256)
            values[a.attr] = v;
    }
    cudaDeviceProp p;
    checkCudaErrors(cudaGetDeviceProperties(&p, dev));
    struct { cudaDeviceAttr attr; long long prop; } agree[] = {
        {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock}, {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0]},
        {cudaDevAttrMaxGridDimX, p.maxGridSize[0]}, {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock},
        {cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem}, {cudaDevAttrWarpSize, p.warpSize},
        {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock}, {cudaDevAttrMultiProcessorCount, p.multiProcessorCount},
        {cudaDevAttrComputeCapabilityMajor, p.major}, {cudaDevAttrComputeCapabilityMinor, p.minor},
        {cudaDevAttrMaxTexture1DWidth, p.maxTexture1D}, {cudaDevAttrMaxTexture2DWidth, p.maxTexture2D[0]},
        {cudaDevAttrMaxTexture2DHeight, p.maxTexture2D[1]}, {cudaDevAttrMaxTexture3DDepth, p.maxTexture3D[2]},
        {cudaDevAttrMaxTexture2DLayeredLayers, p.maxTexture2DLayered[2]},
        {cudaDevAttrMaxSurface2DWidth, p.maxSurface2D[0]}, {cudaDevAttrTextureAlignment, (long long)p.textureAlignment},
        {cudaDevAttrTexturePitchAlignment, (long long)p.texturePitchAlignment},
        {cudaDevAttrSurfaceAlignment, (long long)p.surfaceAlignment},
        {cudaDevAttrL2CacheSize, p.l2CacheSize}, {cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth},
        {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin},
        {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
        {cudaDevAttrManagedMemory, p.managedMemory}, {cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess},
        {cudaDevAttrUnifiedAddressing, p.unifiedAddressing}, {cudaDevAttrCanMapHostMemory, p.canMapHostMemory},
        {cudaDevAttrHostRegisterSupported, p.hostRegisterSupported},
        {cudaDevAttrMemoryPoolsSupported, p.memoryPoolsSupported},
        {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch},
        {cudaDevAttrPciBusId, p.pciBusID}, {cudaDevAttrAsyncEngineCount, p.asyncEngineCount},
    };
    for (const auto &a : agree)
        if (values[a.attr] != a.prop) {
            std::printf("attribute %d is %d, cudaGetDeviceProperties says %lld\n", (int)a.attr, values[a.attr], a.prop);
            return 1;
        }
    // the values deviceQuery prints must be plausible for a CUDA GPU
    if (values[cudaDevAttrClockRate] <= 0 || values[cudaDevAttrMemoryClockRate] <= 0 ||
        values[cudaDevAttrWarpSize] != 32 || values[cudaDevAttrMaxTexture1DWidth] < 65536 ||
        values[cudaDevAttrMaxTexture3DWidth] < 2048 || values[cudaDevAttrMaxPitch] <= 0)
        return 1;
    int cores = convertSMVer2Cores(values[cudaDevAttrComputeCapabilityMajor], values[cudaDevAttrComputeCapabilityMinor]);
    std::printf("  (%3d) Multiprocessors, (%3d) CUDA Cores/MP: %d CUDA Cores\n",
                values[cudaDevAttrMultiProcessorCount], cores, cores * values[cudaDevAttrMultiProcessorCount]);
    std::printf("  GPU Max Clock rate: %.0f MHz\n", values[cudaDevAttrClockRate] * 1e-3f);
    std::printf("  Max Texture Dimension Size (x,y,z) 1D=(%d), 2D=(%d, %d), 3D=(%d, %d, %d)\n",
                p.maxTexture1D, p.maxTexture2D[0], p.maxTexture2D[1], p.maxTexture3D[0], p.maxTexture3D[1],
                p.maxTexture3D[2]);
    // reserved and unknown numbers are refused
    int v = 0;
    if (cudaDeviceGetAttribute(&v, (cudaDeviceAttr)92, dev) != cudaErrorInvalidValue ||
        cudaDeviceGetAttribute(&v, (cudaDeviceAttr)100000, dev) != cudaErrorInvalidValue ||
        cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 99) != cudaErrorInvalidDevice)
        return 1;
    cudaGetLastError();
    std::printf("PASS device_attributes\n");
    return 0;
}
