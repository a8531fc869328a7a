// runaway.cu — a kernel that never ends (it waits for a flag nobody sets):
// under `warpsim exec --max-instructions N` the launch stops with
// cudaErrorLaunchTimeout, as a GPU's watchdog would end it, instead of
// hanging, and the error is sticky like any kernel failure.
#include "check.h"

__global__ void spin(volatile int *flag, int *count)
{
    while (*flag == 0)
        atomicAdd(count, 1);
}

int main()
{
    int *flag, *count;
    CHECK_CUDA(cudaMalloc(&flag, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&count, sizeof(int)));
    CHECK_CUDA(cudaMemset(flag, 0, sizeof(int)));
    spin<<<2, 64>>>(flag, count);
    EXPECT(cudaDeviceSynchronize() == cudaErrorLaunchTimeout);
    EXPECT(cudaGetLastError() == cudaErrorLaunchTimeout); // sticky
    CHECK_CUDA(cudaDeviceReset());
    std::printf("PASS runaway\n");
    return 0;
}
