// runtime_extras.cu — newer runtime calls the samples reach for:
// cudaLaunchKernelEx, the default memory pool (attributes, allocation from
// it), cudaMemset2DAsync, cudaMemAdvise, cudaFuncGetName, profiler ranges,
// cudaSetValidDevices, stream ids and a stream callback seeing a clean
// status.  Run with --summary: the runner checks demangled kernel names.
#include <cuda_profiler_api.h>
#include "sample_helpers.h"

template <typename T, int N>
__global__ void fillPattern(T *data, int n, T base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = base + (T)(i % N);
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    int valid[] = {0};
    checkCudaErrors(cudaSetValidDevices(valid, 1));
    checkCudaErrors(cudaProfilerStart());
    bool ok = true;

    const int n = 500;
    int *d;
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned long long id0 = 0, id1 = 1;
    checkCudaErrors(cudaStreamGetId(s, &id0));
    checkCudaErrors(cudaStreamGetId(0, &id1));
    ok = ok && id0 != id1;

    cudaMemPool_t pool;
    checkCudaErrors(cudaDeviceGetDefaultMemPool(&pool, 0));
    unsigned long long threshold = ~0ull, got = 0;
    checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
    ok = ok && got == threshold;
    checkCudaErrors(cudaMallocFromPoolAsync((void **)&d, n * sizeof(int), pool, s));
    unsigned long long used = 0;
    checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    ok = ok && used >= n * sizeof(int);

    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((n + 127) / 128);
    config.blockDim = dim3(128);
    config.stream = s;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributePriority;
    attr[0].val.priority = 0;
    config.attrs = attr;
    config.numAttrs = 1;
    checkCudaErrors(cudaLaunchKernelEx(&config, fillPattern<int, 7>, d, n, 100));
    int h[n];
    checkCudaErrors(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        ok = ok && h[i] == 100 + i % 7;

    const char *name = nullptr;
    checkCudaErrors(cudaFuncGetName(&name, (const void *)fillPattern<int, 7>));
    ok = ok && name && std::strstr(name, "fillPattern");

    // a 2D fill of a pitched allocation, then advice on managed memory
    size_t pitch;
    unsigned char *img;
    checkCudaErrors(cudaMallocPitch((void **)&img, &pitch, 100, 8));
    checkCudaErrors(cudaMemset2DAsync(img, pitch, 0, pitch, 8, s));
    checkCudaErrors(cudaMemset2DAsync(img, pitch, 0x5a, 100, 8, s));
    unsigned char row[200];
    checkCudaErrors(cudaMemcpy2DAsync(row, 100, img, pitch, 100, 2, cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    for (int i = 0; i < 200; i++)
        ok = ok && row[i] == 0x5a;
    float *m;
    checkCudaErrors(cudaMallocManaged(&m, n * sizeof(float)));
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    checkCudaErrors(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetReadMostly, loc));
    checkCudaErrors(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetPreferredLocation, loc));
    fillPattern<float, 3><<<(n + 127) / 128, 128, 0, s>>>(m, n, 0.5f);
    getLastCudaError("fillPattern<float, 3>");
    checkCudaErrors(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        ok = ok && m[i] == 0.5f + (float)(i % 3);

    checkCudaErrors(cudaFreeAsync(d, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    ok = ok && used == 0;
    checkCudaErrors(cudaFree(img));
    checkCudaErrors(cudaFree(m));
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaProfilerStop());
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS runtime_extras\n");
    return 0;
}
