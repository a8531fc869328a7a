// symbols.cu — __constant__ and __device__ variables from the host:
// cudaMemcpyToSymbol/FromSymbol, cudaGetSymbolSize, cudaGetSymbolAddress.
#include "check.h"

__constant__ float coeff[4];
__device__ int hits;
__device__ float table[16];

__global__ void poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((coeff[3] * v + coeff[2]) * v + coeff[1]) * v + coeff[0];
        atomicAdd(&hits, 1);
    }
}

__global__ void fill_table(float *t, float base)
{
    t[threadIdx.x] = base + threadIdx.x;
}

int main()
{
    const float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
    CHECK_CUDA(cudaMemcpyToSymbol(coeff, c, sizeof c));
    int zero = 0;
    CHECK_CUDA(cudaMemcpyToSymbol(hits, &zero, sizeof zero));
    const int n = 300;
    float x[n], y[n];
    for (int i = 0; i < n; i++)
        x[i] = 0.01f * i;
    float *dx, *dy;
    CHECK_CUDA(cudaMalloc(&dx, sizeof x));
    CHECK_CUDA(cudaMalloc(&dy, sizeof y));
    CHECK_CUDA(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    poly<<<3, 128>>>(dx, dy, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float v = x[i], want = ((c[3] * v + c[2]) * v + c[1]) * v + c[0];
        EXPECT(y[i] - want < 1e-5f && want - y[i] < 1e-5f);
    }
    int count = -1;
    CHECK_CUDA(cudaMemcpyFromSymbol(&count, hits, sizeof count));
    EXPECT(count == n);
    // a partial copy at an offset
    float two[2] = {0, 0};
    CHECK_CUDA(cudaMemcpyFromSymbol(two, coeff, sizeof two, 2 * sizeof(float)));
    EXPECT(two[0] == 0.5f && two[1] == 0.25f);
    EXPECT(cudaMemcpyFromSymbol(two, coeff, sizeof two, 3 * sizeof(float)) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue); // read and cleared
    size_t size = 0;
    CHECK_CUDA(cudaGetSymbolSize(&size, table));
    EXPECT(size == sizeof(float) * 16);
    // the device address of a __device__ array, used as a kernel argument
    float *dt = nullptr;
    CHECK_CUDA(cudaGetSymbolAddress((void **)&dt, table));
    fill_table<<<1, 16>>>(dt, 10.0f);
    CHECK_CUDA(cudaGetLastError());
    float t[16];
    CHECK_CUDA(cudaMemcpyFromSymbol(t, table, sizeof t));
    for (int i = 0; i < 16; i++)
        EXPECT(t[i] == 10.0f + i);
    int not_a_symbol;
    EXPECT(cudaMemcpyToSymbol(not_a_symbol, &zero, sizeof zero) == cudaErrorInvalidSymbol);
    std::printf("PASS symbols\n");
    return 0;
}
