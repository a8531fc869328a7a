// printf_assert.cu — simplePrintf and simpleAssert: device printf with
// every common conversion (the runner checks the lines on stdout), asserts
// that hold, and finally one that fails: the launch's error is
// cudaErrorAssert, sticky until cudaDeviceReset, after which the device
// works again.
#include <cassert>
#include "check.h"

__global__ void testKernel(int val)
{
    printf("[%d, %d]:\t\tValue is:%d\n", blockIdx.y * gridDim.x + blockIdx.x,
           threadIdx.z * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x, val);
}

__global__ void formats(float f, double d, long long ll, unsigned u, const char *s)
{
    if (threadIdx.x == 0)
        printf("f=%.3f d=%.5e ll=%lld u=%u x=%08x c=%c s=%s p=%%\n", f, d, ll, u, u, 'W', s);
}

__global__ void checked(const int *data, int n, int *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(data[i] >= 0);
        atomicAdd(sum, data[i]);
    }
}

__global__ void mustBePositive(const int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(data[i] > 0);
}

int main()
{
    dim3 dimGrid(2, 2), dimBlock(2, 2, 2);
    testKernel<<<dimGrid, dimBlock>>>(10);
    CHECK_CUDA(cudaDeviceSynchronize());
    char *s;
    CHECK_CUDA(cudaMallocManaged(&s, 16));
    std::snprintf(s, 16, "warpsim");
    formats<<<1, 32>>>(1.5f, 12345.678, -9000000000ll, 3054u, s);
    CHECK_CUDA(cudaDeviceSynchronize());

    const int n = 1000;
    int *data, *sum;
    CHECK_CUDA(cudaMallocManaged(&data, n * sizeof(int)));
    CHECK_CUDA(cudaMallocManaged(&sum, sizeof(int)));
    for (int i = 0; i < n; i++)
        data[i] = i;
    *sum = 0;
    checked<<<(n + 127) / 128, 128>>>(data, n, sum);
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT(*sum == n * (n - 1) / 2);

    // data[0] == 0: the assertion fails in thread 0 of block 0
    mustBePositive<<<(n + 127) / 128, 128>>>(data, n);
    cudaError_t err = cudaDeviceSynchronize();
    std::printf("after the failed assertion: %s\n", cudaGetErrorName(err));
    EXPECT(err == cudaErrorAssert);
    EXPECT(cudaGetLastError() == cudaErrorAssert);
    EXPECT(cudaMemset(sum, 0, 4) == cudaErrorAssert); // sticky
    CHECK_CUDA(cudaDeviceReset());
    int *again;
    CHECK_CUDA(cudaMalloc(&again, 4));
    CHECK_CUDA(cudaMemset(again, 0, 4));
    CHECK_CUDA(cudaFree(again));
    std::printf("PASS printf_assert\n");
    return 0;
}
