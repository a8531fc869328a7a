/* cudart_abi.h — the CUDA runtime's types as programs compiled by nvcc 13
 * see them, restated so that warpsim builds without CUDA installed.
 *
 * Contract: every enum value and struct layout here equals the one in CUDA
 * 13's driver_types.h / vector_types.h (x86-64 Linux): a program passes
 * pointers to these structs and reads them back byte for byte.  Only what
 * the implemented functions need is restated.
 */
#ifndef WARPSIM_CUDART_ABI_H
#define WARPSIM_CUDART_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Exported API functions: everything else in the library is hidden. */
#define CUDART_API __attribute__((visibility("default")))

/* cudaError_t: the numbers of driver_types.h's enum cudaError. */
typedef enum {
#define CUDART_ERROR(name, value, text) name = value,
#include "errors.def"
#undef CUDART_ERROR
} cudaError_t;

typedef struct {
    unsigned int x, y, z;
} dim3;

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef void *cudaKernel_t;     /* __cudaGetKernel's handle: our CudartKernel */

#define CUDART_STREAM_LEGACY     ((cudaStream_t)0x1)
#define CUDART_STREAM_PER_THREAD ((cudaStream_t)0x2)

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3,
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

/* cudaLaunchKernelEx's configuration; an attribute's value is a 64-byte
 * union, of which only the cluster dimension is read here. */
enum cudaLaunchAttributeID {
    cudaLaunchAttributeCooperative = 2,
    cudaLaunchAttributeClusterDimension = 4,
};

struct cudaLaunchAttribute {
    int id;
    char pad[4];
    union {
        char bytes[64];
        struct { unsigned int x, y, z; } clusterDim;
    } val;
};

struct cudaLaunchConfig {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    struct cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
};

/* 3D memory: positions and extents (width in bytes for linear memory),
 * pitched pointers and the copy parameters cudaMemcpy3D and memcpy graph
 * nodes take.  Arrays are opaque handles warpsim never creates. */
struct cudaPos { size_t x, y, z; };
struct cudaExtent { size_t width, height, depth; };
struct cudaPitchedPtr {
    void *ptr;
    size_t pitch;
    size_t xsize, ysize;
};
struct cudaMemcpy3DParms {
    void *srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    void *dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};
struct cudaMemcpy3DPeerParms {
    void *srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    int srcDevice;
    void *dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    int dstDevice;
    struct cudaExtent extent;
};

/* Graph node parameters (driver_types.h). */
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};
struct cudaHostNodeParams {
    void (*fn)(void *userData);
    void *userData;
};
typedef struct {
    int result;             /* enum cudaGraphExecUpdateResult */
    void *errorNode;
    void *errorFromNode;
} cudaGraphExecUpdateResultInfo;
typedef struct {
    unsigned long long flags;
    cudaStream_t uploadStream;
    void *errNode_out;
    int result_out;         /* enum cudaGraphInstantiateResult */
} cudaGraphInstantiateParams;

/* CUDA 13's cudaDeviceProp (clockRate, memoryClockRate and other fields of
 * CUDA 12 are gone: programs ask cudaDeviceGetAttribute for them). */
struct cudaDeviceProp {
    char name[256];
    struct { char bytes[16]; } uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

/* CUDA 12's cudaDeviceProp, as cudaGetDeviceProperties_v2 (what CUDA 12's
 * header names cudaGetDeviceProperties) fills it: CUDA 13's fields plus
 * clockRate, deviceOverlap, kernelExecTimeoutEnabled, computeMode,
 * maxTexture1DLinear, memoryClockRate, singleToDoublePrecisionPerfRatio
 * and cooperativeMultiDeviceLaunch, and without the NUMA/PCI fields 13
 * added (CUDA 12.6's driver_types.h). */
struct cudaDeviceProp12 {
    char name[256];
    struct { char bytes[16]; } uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture1DLinear;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    /* the older (CUDA 11) struct, which libcudart.so.12's unversioned
     * cudaGetDeviceProperties fills, ends here */
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved2[2];
    int reserved1[1];
    int reserved[60];
};

/* CUDA 12: the size every CUDA 12 release's header gives; the offsets follow
 * from 12.6's field order. */
_Static_assert(offsetof(struct cudaDeviceProp12, clockRate) == 348, "cudaDeviceProp (12) layout");
_Static_assert(offsetof(struct cudaDeviceProp12, totalConstMem) == 352, "cudaDeviceProp (12) layout");
_Static_assert(offsetof(struct cudaDeviceProp12, maxTexture1DLinear) == 416, "cudaDeviceProp (12) layout");
_Static_assert(sizeof(struct cudaMemcpy3DParms) == 160, "cudaMemcpy3DParms layout");
_Static_assert(sizeof(struct cudaKernelNodeParams) == 56, "cudaKernelNodeParams layout");
_Static_assert(sizeof(struct cudaMemsetParams) == 40, "cudaMemsetParams layout");
_Static_assert(offsetof(struct cudaDeviceProp12, memoryClockRate) == 608, "cudaDeviceProp (12) layout");
_Static_assert(offsetof(struct cudaDeviceProp12, sharedMemPerBlockOptin) == 696, "cudaDeviceProp (12) layout");
_Static_assert(offsetof(struct cudaDeviceProp12, hostRegisterSupported) == 728, "cudaDeviceProp (12) layout");
_Static_assert(offsetof(struct cudaDeviceProp12, reserved) == 792, "cudaDeviceProp (12) layout");
_Static_assert(sizeof(struct cudaDeviceProp12) == 1032, "cudaDeviceProp (12) layout");

/* Offsets and size checked against CUDA 13.0's driver_types.h. */
_Static_assert(offsetof(struct cudaDeviceProp, totalGlobalMem) == 288, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, totalConstMem) == 352, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, memoryBusWidth) == 592, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, reserved) == 784, "cudaDeviceProp layout");
_Static_assert(sizeof(struct cudaDeviceProp) == 1008, "cudaDeviceProp layout");
_Static_assert(sizeof(struct cudaLaunchAttribute) == 72, "cudaLaunchAttribute layout");
_Static_assert(sizeof(struct cudaLaunchConfig) == 56, "cudaLaunchConfig_t layout");
_Static_assert(offsetof(struct cudaLaunchConfig, attrs) == 40, "cudaLaunchConfig_t layout");
_Static_assert(sizeof(struct cudaFuncAttributes) == 144, "cudaFuncAttributes layout");
_Static_assert(sizeof(struct cudaPointerAttributes) == 88, "cudaPointerAttributes layout");

#endif
