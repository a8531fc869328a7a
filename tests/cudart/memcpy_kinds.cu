// memcpy_kinds.cu — every cudaMemcpyKind, cudaMemset, the Async forms on a
// stream, pitched 2D copies, page-locked host memory, cudaMemGetInfo and
// cudaPointerGetAttributes.
#include <cstring>
#include "check.h"

__global__ void scale_rows(float *m, size_t pitch, int width, int height, float k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < width && y < height)
        ((float *)((char *)m + y * pitch))[x] *= k;
}

int main()
{
    const int n = 1000;
    int host[n], back[n];
    for (int i = 0; i < n; i++)
        host[i] = i * 7 - 3;
    int *d1, *d2;
    CHECK_CUDA(cudaMalloc(&d1, sizeof host));
    CHECK_CUDA(cudaMalloc(&d2, sizeof host));
    CHECK_CUDA(cudaMemcpy(d1, host, sizeof host, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d2, d1, sizeof host, cudaMemcpyDeviceToDevice));
    std::memset(back, 0, sizeof back);
    CHECK_CUDA(cudaMemcpy(back, d2, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT(std::memcmp(back, host, sizeof host) == 0);
    // cudaMemcpyDefault infers both directions from the pointers
    CHECK_CUDA(cudaMemset(d2, 0, sizeof host));
    CHECK_CUDA(cudaMemcpy(d2 + 10, host + 10, 40 * sizeof(int), cudaMemcpyDefault));
    CHECK_CUDA(cudaMemcpy(back, d2, sizeof back, cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == (i >= 10 && i < 50 ? host[i] : 0));
    int hh[4] = {1, 2, 3, 4}, hh2[4] = {0, 0, 0, 0};
    CHECK_CUDA(cudaMemcpy(hh2, hh, sizeof hh, cudaMemcpyHostToHost));
    EXPECT(hh2[3] == 4);
    // memset fills bytes
    CHECK_CUDA(cudaMemset(d1, 0x01, 8));
    CHECK_CUDA(cudaMemcpy(back, d1, 8, cudaMemcpyDeviceToHost));
    EXPECT(back[0] == 0x01010101 && back[1] == 0x01010101 && back[2] != 0x01010101);
    // a device pointer where a host one is not allowed, and a wrong direction
    EXPECT(cudaMemcpy(back, host, 4, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy(d1, host, 4, (cudaMemcpyKind)7) == cudaErrorInvalidMemcpyDirection);
    EXPECT(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);

    // Async forms on a stream, into page-locked memory
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    int *pinned;
    CHECK_CUDA(cudaMallocHost(&pinned, sizeof host));
    CHECK_CUDA(cudaMemsetAsync(d1, 0, sizeof host, s));
    CHECK_CUDA(cudaMemcpyAsync(d1, host, sizeof host, cudaMemcpyHostToDevice, s));
    CHECK_CUDA(cudaMemcpyAsync(pinned, d1, sizeof host, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    EXPECT(std::memcmp(pinned, host, sizeof host) == 0);

    // pitched 2D: copy a 37x5 float matrix in, scale it on the device, copy out
    const int w = 37, h = 5;
    float m[h][w], out[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            m[y][x] = (float)(y * 100 + x);
    float *dm;
    size_t pitch;
    CHECK_CUDA(cudaMallocPitch((void **)&dm, &pitch, w * sizeof(float), h));
    EXPECT(pitch >= w * sizeof(float));
    CHECK_CUDA(cudaMemcpy2D(dm, pitch, m, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    scale_rows<<<dim3(1, h), 64>>>(dm, pitch, w, h, 2.0f);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy2D(out, w * sizeof(float), dm, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            EXPECT(out[y][x] == 2.0f * m[y][x]);
    EXPECT(cudaMemcpy2D(out, 4, dm, pitch, 8, h, cudaMemcpyDeviceToHost) == cudaErrorInvalidPitchValue);

    // pointer attributes and memory info
    cudaPointerAttributes a;
    CHECK_CUDA(cudaPointerGetAttributes(&a, d1 + 5));
    EXPECT(a.type == cudaMemoryTypeDevice && a.device == 0);
    CHECK_CUDA(cudaPointerGetAttributes(&a, pinned));
    EXPECT(a.type == cudaMemoryTypeHost && a.hostPointer == pinned);
    CHECK_CUDA(cudaPointerGetAttributes(&a, host));
    EXPECT(a.type == cudaMemoryTypeUnregistered);
    size_t free_before, total, free_after;
    CHECK_CUDA(cudaMemGetInfo(&free_before, &total));
    int *big;
    CHECK_CUDA(cudaMalloc(&big, 1 << 20));
    CHECK_CUDA(cudaMemGetInfo(&free_after, &total));
    EXPECT(free_after < free_before && free_before <= total);
    CHECK_CUDA(cudaFree(big));
    CHECK_CUDA(cudaFreeHost(pinned));
    EXPECT(cudaFreeHost(host) == cudaErrorInvalidHostPointer);
    CHECK_CUDA(cudaFree(dm));
    CHECK_CUDA(cudaFree(d1));
    CHECK_CUDA(cudaFree(d2));
    CHECK_CUDA(cudaStreamDestroy(s));
    std::printf("PASS memcpy_kinds\n");
    return 0;
}
