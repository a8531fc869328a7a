// vector_add.cu — the <<<>>> path end to end: allocate, copy in, launch with
// error checking, copy out, compare with the host's sums.
#include "check.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 5000; // not a multiple of the block: the bounds check matters
    float *a = new float[n], *b = new float[n], *c = new float[n];
    for (int i = 0; i < n; i++) {
        a[i] = 0.5f * i;
        b[i] = 3.0f - i;
    }
    float *da, *db, *dc;
    CHECK_CUDA(cudaMalloc(&da, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&db, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dc, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dc, 0xff, n * sizeof(float)));
    vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(c[i] == a[i] + b[i]);
    // an empty launch configuration is rejected, as CUDA does
    vector_add<<<0, 256>>>(da, db, dc, n);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaSuccess); // cleared by the first read
    CHECK_CUDA(cudaFree(da));
    CHECK_CUDA(cudaFree(db));
    CHECK_CUDA(cudaFree(dc));
    EXPECT(cudaFree(da) == cudaErrorInvalidValue);
    std::printf("PASS vector_add\n");
    return 0;
}
