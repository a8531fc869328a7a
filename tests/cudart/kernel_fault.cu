// kernel_fault.cu — an out-of-bounds store: warpsim prints where it
// happened, the launch's error is cudaErrorIllegalAddress at the next
// synchronisation, and it stays (sticky) until cudaDeviceReset.
#include "check.h"

__global__ void overrun(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i + n] = i; // every thread writes past the end
}

int main()
{
    int *v;
    CHECK_CUDA(cudaMalloc(&v, 64 * sizeof(int)));
    overrun<<<1, 64>>>(v, 4096);
    cudaError_t err = cudaDeviceSynchronize();
    EXPECT(err == cudaErrorIllegalAddress);
    EXPECT(cudaMemcpy(&err, v, sizeof(int), cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress);
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress);
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress); // sticky
    CHECK_CUDA(cudaDeviceReset());
    CHECK_CUDA(cudaMalloc(&v, 16));
    CHECK_CUDA(cudaFree(v));
    std::printf("PASS kernel_fault\n");
    return 0;
}
