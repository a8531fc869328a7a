// zero_copy.cu — simpleZeroCopy: cudaSetDeviceFlags(cudaDeviceMapHost),
// mapped (and write-combined) page-locked buffers from cudaHostAlloc,
// their device pointers from cudaHostGetDevicePointer, and a kernel that
// reads and writes host memory directly, with no cudaMemcpy.
#include <cmath>
#include "sample_helpers.h"

__global__ void vectorAddGPU(const float *a, const float *b, float *c, int N)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N)
        c[idx] = a[idx] + b[idx];
}

// Host flags a mapped counter: the kernel's atomics land in host memory.
__global__ void countOdd(const float *a, int N, unsigned *hostCounter)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N && ((int)a[idx] & 1))
        atomicAdd(hostCounter, 1u);
}

int main(int argc, char **argv)
{
    std::printf("  Device %d: ", 0);
    int dev = findCudaDevice(argc, (const char **)argv);
    cudaDeviceProp deviceProp;
    checkCudaErrors(cudaGetDeviceProperties(&deviceProp, dev));
    if (!deviceProp.canMapHostMemory) {
        std::fprintf(stderr, "Device %d does not support mapping CPU host memory!\n", dev);
        return EXIT_FAILURE;
    }
    checkCudaErrors(cudaSetDeviceFlags(cudaDeviceMapHost));
    unsigned flags;
    checkCudaErrors(cudaGetDeviceFlags(&flags));
    if (!(flags & cudaDeviceMapHost)) {
        std::printf("cudaGetDeviceFlags lost cudaDeviceMapHost (0x%x)\n", flags);
        return EXIT_FAILURE;
    }
    const int nelem = 1 << 14;
    const size_t bytes = nelem * sizeof(float);
    float *a, *b, *c, *d_a, *d_b, *d_c;
    std::printf("> cudaHostAlloc() allocating %zu bytes of mapped memory\n", bytes);
    checkCudaErrors(cudaHostAlloc((void **)&a, bytes, cudaHostAllocMapped));
    checkCudaErrors(cudaHostAlloc((void **)&b, bytes, cudaHostAllocMapped));
    checkCudaErrors(cudaHostAlloc((void **)&c, bytes, cudaHostAllocMapped | cudaHostAllocWriteCombined));
    for (int n = 0; n < nelem; n++) {
        a[n] = (float)(n % 1000);
        b[n] = 0.25f * (float)(n % 7);
    }
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_a, (void *)a, 0));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_b, (void *)b, 0));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_c, (void *)c, 0));
    unsigned hflags = 0;
    checkCudaErrors(cudaHostGetFlags(&hflags, c));
    if (!(hflags & cudaHostAllocMapped) || !(hflags & cudaHostAllocWriteCombined)) {
        std::printf("cudaHostGetFlags: 0x%x\n", hflags);
        return EXIT_FAILURE;
    }
    std::printf("> vectorAddGPU kernel will add vectors using mapped CPU memory...\n");
    dim3 block(256), grid((unsigned)ceil((float)nelem / (float)block.x));
    vectorAddGPU<<<grid, block>>>(d_a, d_b, d_c, nelem);
    checkCudaErrors(cudaDeviceSynchronize());
    getLastCudaError("vectorAddGPU() execution failed");
    std::printf("> Checking the results from vectorAddGPU() ...\n");
    float errorNorm = 0.f, refNorm = 0.f;
    for (int n = 0; n < nelem; n++) {
        float ref = a[n] + b[n];
        float diff = c[n] - ref;
        errorNorm += diff * diff;
        refNorm += ref * ref;
    }
    errorNorm = (float)std::sqrt((double)errorNorm);
    refNorm = (float)std::sqrt((double)refNorm);
    bool ok = errorNorm / refNorm < 1.e-6f;

    unsigned *counter, *d_counter;
    checkCudaErrors(cudaMallocHost(&counter, sizeof(unsigned)));
    *counter = 0;
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_counter, counter, 0));
    countOdd<<<grid, block>>>(d_a, nelem, d_counter);
    getLastCudaError("countOdd");
    checkCudaErrors(cudaDeviceSynchronize());
    unsigned odd = 0;
    for (int n = 0; n < nelem; n++)
        odd += (int)a[n] & 1;
    std::printf("> odd elements counted by the GPU in host memory: %u (host: %u)\n", *counter, odd);
    ok = ok && *counter == odd;
    cudaPointerAttributes attr;
    checkCudaErrors(cudaPointerGetAttributes(&attr, a));
    ok = ok && attr.type == cudaMemoryTypeHost && attr.devicePointer == d_a && attr.hostPointer == a;

    std::printf("> Releasing CPU memory...\n");
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFreeHost(b));
    checkCudaErrors(cudaFreeHost(c));
    checkCudaErrors(cudaFreeHost(counter));
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS zero_copy\n");
    return 0;
}
