// texture_kernels.cu — a program whose module holds texture and surface
// kernels (instructions outside warpsim's PTX subset) next to plain ones:
// the plain kernels run; launching a texture kernel returns
// cudaErrorNotSupported as a launch error (the last error, not sticky) after
// one line naming the kernel, its PTX line and the instruction (the runner
// counts it: once, though launched twice); the texture object API returns
// cudaErrorNotSupported.
#include "check.h"

__global__ void fetchTexture(cudaTextureObject_t tex, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(tex, i);
}

__global__ void touchSurface(cudaSurfaceObject_t surf, int n)
{
    int x = threadIdx.x;
    if (x < n) {
        float v;
        surf2Dread(&v, surf, x * 4, 0);
        surf2Dwrite(v + 1.0f, surf, x * 4, 0);
    }
}

// a device function with a texture fetch, not inlined: its callers cannot run either
__device__ __noinline__ float fetchOne(cudaTextureObject_t tex, int i) { return tex1Dfetch<float>(tex, i); }

__global__ void viaHelper(cudaTextureObject_t tex, float *out) { out[threadIdx.x] = fetchOne(tex, threadIdx.x); }

__global__ void squares(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i * i;
}

int main()
{
    const int n = 1000;
    int *d_out;
    float *d_f;
    CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_f, n * sizeof(float)));

    // the texture object API
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d_f;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = n * sizeof(float);
    EXPECT(res.res.linear.desc.x == 32 && res.res.linear.desc.f == cudaChannelFormatKindFloat);
    cudaTextureDesc td = {};
    cudaTextureObject_t tex = 0;
    EXPECT(cudaCreateTextureObject(&tex, &res, &td, nullptr) == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    cudaArray_t arr;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    EXPECT(cudaMallocArray(&arr, &cd, 16, 16) == cudaErrorNotSupported);
    cudaGetLastError();

    // texture kernels are refused before they run
    fetchTexture<<<4, 256>>>(tex, d_f, n);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaSuccess); // read and cleared: not sticky
    fetchTexture<<<4, 256>>>(tex, d_f, n);     // no second line on stderr
    EXPECT(cudaPeekAtLastError() == cudaErrorNotSupported);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess); // the context is fine
    cudaGetLastError();
    int count = n;
    void *args[] = {&tex, &count};
    EXPECT(cudaLaunchKernel((const void *)touchSurface, dim3(1), dim3(32), args, 0, 0) == cudaErrorNotSupported);
    cudaGetLastError();
    viaHelper<<<1, 32>>>(tex, d_f);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);

    // and the plain kernel of the same module runs
    squares<<<(n + 255) / 256, 256>>>(d_out, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    int h[n];
    CHECK_CUDA(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == i * i);
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_f));
    std::printf("PASS texture_kernels\n");
    return 0;
}
