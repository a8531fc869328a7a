// nvcc-flags: -rdc=true
// rdc_two_units — separate compilation (nvcc -rdc=true) across two files:
// kernels in main.cu call __device__ functions defined in support.cu (and
// share a __device__ variable defined there (extern here); both files
// printf (nvcc names each file's format strings alike: they must stay
// apart); support.cu has kernels of its own.  Each file's PTX is loaded and
// the modules are linked by name.
#include "../check.h"
#include "support.h"

extern __device__ int g_calls; // defined in support.cu

__global__ void scaleAndOffset(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = affine(x[i]) + (float)bias_from_other_unit();
        atomicAdd(&g_calls, 1);
    }
    if (i == 0)
        printf("main unit: x[0] = %g\n", x[0]);
}

int main()
{
    const int n = 1000;
    float h[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    float *d;
    CHECK_CUDA(cudaMalloc(&d, sizeof h));
    CHECK_CUDA(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    set_bias(5);                     // host code of the other unit, launching its kernel
    scaleAndOffset<<<(n + 127) / 128, 128>>>(d, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 2.0f * i + 1.0f + 5.0f);
    EXPECT(calls_so_far() == n); // the other unit reads what this one counted
    int calls = 0;
    CHECK_CUDA(cudaMemcpyFromSymbol(&calls, g_calls, sizeof calls));
    EXPECT(calls == n);
    CHECK_CUDA(cudaFree(d));
    std::printf("PASS rdc_two_units\n");
    return 0;
}
