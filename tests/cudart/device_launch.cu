// nvcc-flags: -rdc=true -lcudadevrt
// device_launch.cu — dynamic parallelism (a kernel launching a kernel) is
// not simulated: libcudadevrt's PTX calls into machine code.  The parent
// kernel's launch fails with cudaErrorNotSupported (not sticky) after one
// line naming it and the device-runtime function; the other kernels of the
// program, the child included, run.
#include "check.h"

__global__ void child(int *p) { p[threadIdx.x] = threadIdx.x * 3; }

__global__ void parent(int *p)
{
    if (threadIdx.x == 0)
        child<<<1, 32>>>(p);
}

int main()
{
    int *d;
    CHECK_CUDA(cudaMalloc(&d, 32 * sizeof(int)));
    parent<<<1, 1>>>(d);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    child<<<1, 32>>>(d);
    CHECK_CUDA(cudaGetLastError());
    int h[32];
    CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        EXPECT(h[i] == 3 * i);
    CHECK_CUDA(cudaFree(d));
    std::printf("PASS device_launch\n");
    return 0;
}
