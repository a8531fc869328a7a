// host_register.cu — simpleZeroCopy's "generic memory" path: the program's
// own malloc'd buffers, page-locked with cudaHostRegister, mapped with
// cudaHostGetDevicePointer and used by kernels in place: host writes made
// after registering reach later kernels, kernel writes reach the host with
// no copy.  Error codes as CUDA 13 gives them (double registration,
// unregistering an interior pointer, freeing registered memory ...).
#include <cstdint>
#include <cstring>
#include <vector>
#include "check.h"
#include "sample_helpers.h"

__global__ void vectorAddGPU(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void bump(int *p, int n, int by)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += by;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    checkCudaErrors(cudaSetDeviceFlags(cudaDeviceMapHost));
    const int n = 1 << 16;
    const size_t bytes = n * sizeof(float);
    // aligned as the sample does (MEMORY_ALIGNMENT 4096)
    float *a_unaligned = (float *)malloc(bytes + 4096), *b_unaligned = (float *)malloc(bytes + 4096);
    float *a = (float *)(((uintptr_t)a_unaligned + 4095) & ~(uintptr_t)4095);
    float *b = (float *)(((uintptr_t)b_unaligned + 4095) & ~(uintptr_t)4095);
    std::vector<float> c(n); // an ordinary vector's storage
    checkCudaErrors(cudaHostRegister(a, bytes, cudaHostRegisterMapped));
    checkCudaErrors(cudaHostRegister(b, bytes, cudaHostRegisterMapped));
    checkCudaErrors(cudaHostRegister(c.data(), bytes, cudaHostRegisterPortable | cudaHostRegisterMapped));
    // written after registering: the kernel must see these values
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 0.5f * i;
    }
    float *d_a, *d_b, *d_c;
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_a, a, 0));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_b, b, 0));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_c, c.data(), 0));
    vectorAddGPU<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(c[i] == 1.5f * i);
    // and again after the host changed its input
    a[7] = 100.0f;
    vectorAddGPU<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n);
    checkCudaErrors(cudaDeviceSynchronize());
    EXPECT(c[7] == 103.5f && c[8] == 12.0f);

    // queries
    unsigned flags = 0;
    checkCudaErrors(cudaHostGetFlags(&flags, c.data() + 5));
    EXPECT(flags == (cudaHostAllocPortable | cudaHostAllocMapped));
    checkCudaErrors(cudaHostGetFlags(&flags, a));
    EXPECT(flags == cudaHostAllocMapped);
    void *inner = nullptr;
    checkCudaErrors(cudaHostGetDevicePointer(&inner, a + 10, 0));
    EXPECT(inner == (void *)(a + 10));
    cudaPointerAttributes attr;
    checkCudaErrors(cudaPointerGetAttributes(&attr, b + 3));
    EXPECT(attr.type == cudaMemoryTypeHost && attr.devicePointer == (void *)(b + 3));
    // copies through registered memory (cudaMemcpyDefault, and device memory in between)
    float *d_tmp;
    checkCudaErrors(cudaMalloc(&d_tmp, bytes));
    checkCudaErrors(cudaMemcpy(d_tmp, a, bytes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(c.data(), d_tmp, bytes, cudaMemcpyDefault));
    EXPECT(c[7] == 100.0f && c[9] == 9.0f);
    checkCudaErrors(cudaFree(d_tmp));

    // errors (what CUDA 13 returns)
    EXPECT(cudaHostRegister(a, bytes, 0) == cudaErrorHostMemoryAlreadyRegistered);
    EXPECT(cudaHostRegister(a + 100, 64, 0) == cudaErrorHostMemoryAlreadyRegistered);
    EXPECT(cudaHostUnregister(a + 10) == cudaErrorInvalidValue);
    EXPECT(cudaFreeHost(a) == cudaErrorInvalidValue);
    EXPECT(cudaFree(a) == cudaErrorInvalidValue);
    EXPECT(cudaHostRegister(nullptr, 64, 0) == cudaErrorInvalidValue);
    EXPECT(cudaHostRegister(a_unaligned, 0, 0) == cudaErrorInvalidValue);
    EXPECT(cudaHostRegister(a_unaligned, 16, 0x40) == cudaErrorInvalidValue);
    int *pinned;
    checkCudaErrors(cudaMallocHost(&pinned, 64));
    EXPECT(cudaHostRegister(pinned, 64, 0) == cudaErrorInvalidValue);
    EXPECT(cudaHostUnregister(pinned) == cudaErrorInvalidValue);
    checkCudaErrors(cudaFreeHost(pinned));
    cudaGetLastError();

    // a small heap buffer, registered, bumped by a kernel, unregistered, registered again
    int *small = (int *)malloc(40 * sizeof(int));
    for (int i = 0; i < 40; i++)
        small[i] = i;
    checkCudaErrors(cudaHostRegister(small, 40 * sizeof(int), cudaHostRegisterDefault));
    bump<<<1, 64>>>(small, 40, 5); // unified addressing: the host pointer itself
    checkCudaErrors(cudaDeviceSynchronize());
    EXPECT(small[0] == 5 && small[39] == 44);
    checkCudaErrors(cudaHostUnregister(small));
    EXPECT(cudaHostUnregister(small) == cudaErrorHostMemoryNotRegistered);
    cudaGetLastError();
    EXPECT(cudaHostGetDevicePointer(&inner, small, 0) == cudaErrorInvalidValue);
    cudaGetLastError();
    checkCudaErrors(cudaHostRegister(small, 40 * sizeof(int), 0));
    bump<<<1, 64>>>(small, 40, 1);
    checkCudaErrors(cudaDeviceSynchronize());
    EXPECT(small[0] == 6);
    checkCudaErrors(cudaHostUnregister(small));
    EXPECT(small[1] == 7); // unregistering leaves the program's memory alone
    free(small);

    checkCudaErrors(cudaHostUnregister(a));
    checkCudaErrors(cudaHostUnregister(b));
    checkCudaErrors(cudaHostUnregister(c.data()));
    free(a_unaligned);
    free(b_unaligned);
    std::printf("PASS host_register\n");
    return 0;
}
