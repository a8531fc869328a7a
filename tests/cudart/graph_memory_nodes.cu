// graph_memory_nodes.cu — graphMemoryNodes and the CUDA 12.2 generic node
// API: a graph that allocates its own scratch memory (cudaGraphAddMemAllocNode),
// fills and uses it in kernels, copies the result out and frees it
// (cudaGraphAddMemFreeNode), built with cudaGraphAddNode and
// cudaGraphNodeParams; launched repeatedly, with the device's graph-memory
// attributes and cudaDeviceGraphMemTrim.
#include <cstdint>
#include <vector>
#include "check.h"

__global__ void iota(int *v, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = base + i;
}

__global__ void square(const int *in, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (long long)in[i] * in[i];
}

int main()
{
    const int n = 5000;
    long long *result;
    CHECK_CUDA(cudaMallocHost(&result, n * sizeof(long long)));
    long long *out_d;
    CHECK_CUDA(cudaMalloc(&out_d, n * sizeof(long long)));

    cudaGraph_t g;
    CHECK_CUDA(cudaGraphCreate(&g, 0));
    // the scratch buffer: a memory allocation node
    cudaGraphNodeParams alloc = {};
    alloc.type = cudaGraphNodeTypeMemAlloc;
    alloc.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    alloc.alloc.poolProps.location.id = 0;
    alloc.alloc.bytesize = n * sizeof(int);
    cudaGraphNode_t allocNode, fillNode, squareNode, copyNode, freeNode;
    CHECK_CUDA(cudaGraphAddNode(&allocNode, g, NULL, NULL, 0, &alloc));
    int *scratch = (int *)alloc.alloc.dptr;
    EXPECT(scratch != NULL);

    int base = 7, count = n;
    void *fillArgs[] = {&scratch, &count, &base};
    cudaGraphNodeParams k = {};
    k.type = cudaGraphNodeTypeKernel;
    k.kernel.func = (void *)iota;
    k.kernel.gridDim = dim3((n + 255) / 256);
    k.kernel.blockDim = dim3(256);
    k.kernel.kernelParams = fillArgs;
    CHECK_CUDA(cudaGraphAddNode(&fillNode, g, &allocNode, NULL, 1, &k));

    void *squareArgs[] = {&scratch, &out_d, &count};
    k.kernel.func = (void *)square;
    k.kernel.kernelParams = squareArgs;
    CHECK_CUDA(cudaGraphAddNode(&squareNode, g, &fillNode, NULL, 1, &k));

    cudaGraphNodeParams c = {};
    c.type = cudaGraphNodeTypeMemcpy;
    c.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(out_d, n * sizeof(long long), n, 1);
    c.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(result, n * sizeof(long long), n, 1);
    c.memcpy.copyParams.extent = make_cudaExtent(n * sizeof(long long), 1, 1);
    c.memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
    CHECK_CUDA(cudaGraphAddNode(&copyNode, g, &squareNode, NULL, 1, &c));
    CHECK_CUDA(cudaGraphAddMemFreeNode(&freeNode, g, &squareNode, 1, scratch));

    uint64_t used = 0;
    CHECK_CUDA(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    EXPECT(used >= n * sizeof(int));

    cudaGraphExec_t exec;
    CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int rep = 0; rep < 3; rep++) {
        base = 7 + rep; // a new argument for the fill node, in the executable graph only
        k.kernel.func = (void *)iota;
        k.kernel.kernelParams = fillArgs;
        CHECK_CUDA(cudaGraphExecNodeSetParams(exec, fillNode, &k));
        CHECK_CUDA(cudaGraphLaunch(exec, s));
        CHECK_CUDA(cudaStreamSynchronize(s));
        for (int i = 0; i < n; i++) {
            long long v = base + i;
            if (result[i] != v * v) {
                std::printf("launch %d: result[%d] = %lld, expected %lld\n", rep, i, result[i], v * v);
                return 1;
            }
        }
    }
    uint64_t high = 0;
    CHECK_CUDA(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    EXPECT(high >= n * sizeof(int));
    uint64_t zero = 0;
    CHECK_CUDA(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
    EXPECT(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK_CUDA(cudaDeviceGraphMemTrim(0));

    cudaGraphNodeType type;
    CHECK_CUDA(cudaGraphNodeGetType(allocNode, &type));
    EXPECT(type == cudaGraphNodeTypeMemAlloc);
    CHECK_CUDA(cudaGraphNodeGetType(freeNode, &type));
    EXPECT(type == cudaGraphNodeTypeMemFree);
    size_t deps = 0;
    CHECK_CUDA(cudaGraphNodeGetDependentNodes(squareNode, NULL, NULL, &deps));
    EXPECT(deps == 2);

    CHECK_CUDA(cudaGraphExecDestroy(exec));
    CHECK_CUDA(cudaGraphDestroy(g));
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(out_d));
    CHECK_CUDA(cudaFreeHost(result));
    std::printf("PASS graph_memory_nodes\n");
    return 0;
}
