// support.cu — device functions and a __device__ variable other units use.
#include "../check.h"
#include "support.h"

__device__ int g_bias;
__device__ int g_calls;

__device__ __noinline__ float affine(float x) { return 2.0f * x + 1.0f; }

__device__ __noinline__ int bias_from_other_unit() { return g_bias; }

__global__ void storeBias(int b) { g_bias = b; }

__global__ void readCalls(int *out)
{
    *out = g_calls;
    printf("support unit: %d calls\n", *out);
}

int calls_so_far()
{
    int *d, h = -1;
    CHECK_CUDA(cudaMalloc(&d, sizeof(int)));
    readCalls<<<1, 1>>>(d);
    CHECK_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d));
    return h;
}

void set_bias(int b)
{
    storeBias<<<1, 1>>>(b);
    CHECK_CUDA(cudaGetLastError());
}
