// managed.cu — cudaMallocManaged: the host and the kernel use one pointer.
#include "check.h"

__global__ void square_plus(int *v, int n, int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i] + add;
}

int main()
{
    const int n = 777;
    int *v;
    CHECK_CUDA(cudaMallocManaged(&v, n * sizeof(int), cudaMemAttachGlobal));
    for (int i = 0; i < n; i++)
        v[i] = i - 300; // written by the host through the same pointer
    square_plus<<<(n + 127) / 128, 128>>>(v, n, 5);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(v[i] == (i - 300) * (i - 300) + 5);
    cudaPointerAttributes a;
    CHECK_CUDA(cudaPointerGetAttributes(&a, v));
    EXPECT(a.type == cudaMemoryTypeManaged && a.devicePointer == v && a.hostPointer == v);
    // a managed buffer is also a cudaMemcpy source and destination
    int first[3];
    CHECK_CUDA(cudaMemcpy(first, v, sizeof first, cudaMemcpyDefault));
    EXPECT(first[0] == 300 * 300 + 5);
    CHECK_CUDA(cudaFree(v));
    std::printf("PASS managed\n");
    return 0;
}
