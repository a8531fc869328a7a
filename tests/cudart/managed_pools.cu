// managed_pools.cu — UnifiedMemoryPerf-style hints and streamOrderedAllocation:
// cudaMemAdvise / cudaMemPrefetchAsync (to the device and to the host)
// read back through cudaMemRangeGetAttribute(s), attaching managed memory
// to streams; then cudaMallocAsync/cudaFreeAsync in a loop over streams on
// the default pool with a release threshold, its usage attributes, and a
// stream-ordered allocation captured into a graph.
#include <cstdint>
#include <vector>
#include "sample_helpers.h"

__global__ void saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void vectorSum(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

static cudaMemLocation deviceLocation(int dev)
{
    cudaMemLocation l;
    l.type = cudaMemLocationTypeDevice;
    l.id = dev;
    return l;
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    const int n = 1 << 20;

    // --- managed memory with advice and prefetching
    float *x, *y;
    checkCudaErrors(cudaMallocManaged(&x, n * sizeof(float)));
    checkCudaErrors(cudaMallocManaged(&y, n * sizeof(float)));
    for (int i = 0; i < n; i++) {
        x[i] = 1.0f;
        y[i] = (float)i;
    }
    cudaMemLocation hostLoc;
    hostLoc.type = cudaMemLocationTypeHost;
    hostLoc.id = 0;
    checkCudaErrors(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, deviceLocation(dev)));
    checkCudaErrors(cudaMemAdvise(y, n * sizeof(float), cudaMemAdviseSetPreferredLocation, deviceLocation(dev)));
    checkCudaErrors(cudaMemAdvise(y, n * sizeof(float), cudaMemAdviseSetAccessedBy, hostLoc));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreate(&s));
    checkCudaErrors(cudaMemPrefetchAsync(x, n * sizeof(float), deviceLocation(dev), 0, s));
    checkCudaErrors(cudaMemPrefetchAsync(y, n * sizeof(float), deviceLocation(dev), 0, s));
    saxpy<<<n / 256, 256, 0, s>>>(y, x, 2.0f, n);
    getLastCudaError("saxpy");
    checkCudaErrors(cudaMemPrefetchAsync(y, n * sizeof(float), hostLoc, 0, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        if (y[i] != (float)i + 2.0f)
            return 1;

    int readMostly = -1, preferred = -5, lastPrefetch = -5;
    checkCudaErrors(cudaMemRangeGetAttribute(&readMostly, sizeof readMostly, cudaMemRangeAttributeReadMostly, x,
                                             n * sizeof(float)));
    checkCudaErrors(cudaMemRangeGetAttribute(&preferred, sizeof preferred, cudaMemRangeAttributePreferredLocation, y,
                                             n * sizeof(float)));
    checkCudaErrors(cudaMemRangeGetAttribute(&lastPrefetch, sizeof lastPrefetch,
                                             cudaMemRangeAttributeLastPrefetchLocation, y, n * sizeof(float)));
    std::printf("read mostly %d, preferred location %d, last prefetched to %d\n", readMostly, preferred,
                lastPrefetch);
    if (readMostly != 1 || preferred != dev || lastPrefetch != cudaCpuDeviceId)
        return 1;
    int type = -1, id = -1;
    void *data[] = {&type, &id};
    size_t sizes[] = {sizeof type, sizeof id};
    cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributeLastPrefetchLocationType,
                                     cudaMemRangeAttributeLastPrefetchLocationType};
    attrs[1] = cudaMemRangeAttributePreferredLocationId;
    checkCudaErrors(cudaMemRangeGetAttributes(data, sizes, attrs, 2, y, n * sizeof(float)));
    if (type != cudaMemLocationTypeHost || id != dev)
        return 1;
    checkCudaErrors(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseUnsetReadMostly, deviceLocation(dev)));
    checkCudaErrors(cudaMemRangeGetAttribute(&readMostly, sizeof readMostly, cudaMemRangeAttributeReadMostly, x,
                                             n * sizeof(float)));
    if (readMostly != 0)
        return 1;
    // outside any allocation: refused
    int stack = 0;
    if (cudaMemRangeGetAttribute(&readMostly, sizeof readMostly, cudaMemRangeAttributeReadMostly, &stack,
                                 sizeof stack) != cudaErrorInvalidValue)
        return 1;
    cudaGetLastError();
    checkCudaErrors(cudaStreamAttachMemAsync(s, y, 0, cudaMemAttachSingle));
    checkCudaErrors(cudaStreamSynchronize(s));
    y[0] = 42.0f; // the host may touch memory attached to an idle stream

    // --- streamOrderedAllocation
    cudaMemPool_t pool;
    checkCudaErrors(cudaDeviceGetDefaultMemPool(&pool, dev));
    uint64_t threshold = UINT64_MAX;
    checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    const int streams = 3, iterations = 10, m = 100000;
    cudaStream_t st[streams];
    for (int i = 0; i < streams; i++)
        checkCudaErrors(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    std::vector<float> a(m), b(m), c(m);
    for (int i = 0; i < m; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * i;
    }
    for (int it = 0; it < iterations; it++) {
        cudaStream_t t = st[it % streams];
        float *da, *db, *dc;
        checkCudaErrors(cudaMallocAsync(&da, m * sizeof(float), t));
        checkCudaErrors(cudaMallocAsync(&db, m * sizeof(float), t));
        checkCudaErrors(cudaMallocFromPoolAsync(&dc, m * sizeof(float), pool, t));
        checkCudaErrors(cudaMemcpyAsync(da, a.data(), m * sizeof(float), cudaMemcpyHostToDevice, t));
        checkCudaErrors(cudaMemcpyAsync(db, b.data(), m * sizeof(float), cudaMemcpyHostToDevice, t));
        vectorSum<<<(m + 255) / 256, 256, 0, t>>>(da, db, dc, m);
        checkCudaErrors(cudaFreeAsync(da, t));
        checkCudaErrors(cudaFreeAsync(db, t));
        checkCudaErrors(cudaMemcpyAsync(c.data(), dc, m * sizeof(float), cudaMemcpyDeviceToHost, t));
        checkCudaErrors(cudaFreeAsync(dc, t));
        checkCudaErrors(cudaStreamSynchronize(t));
        for (int i = 0; i < m; i++)
            if (c[i] != 3.0f * i)
                return 1;
    }
    uint64_t used = 1, high = 0;
    checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    std::printf("pool: %llu bytes in use, high-water mark %llu\n", (unsigned long long)used,
                (unsigned long long)high);
    if (used != 0 || high < 3ull * m * sizeof(float))
        return 1;
    checkCudaErrors(cudaMemPoolTrimTo(pool, 0));

    // a stream-ordered allocation inside a captured graph, used and freed there
    cudaGraph_t g;
    cudaGraphExec_t ge;
    float *out;
    checkCudaErrors(cudaMallocManaged(&out, m * sizeof(float)));
    checkCudaErrors(cudaStreamBeginCapture(st[0], cudaStreamCaptureModeThreadLocal));
    float *tmp;
    checkCudaErrors(cudaMallocAsync(&tmp, m * sizeof(float), st[0]));
    checkCudaErrors(cudaMemcpyAsync(tmp, a.data(), m * sizeof(float), cudaMemcpyHostToDevice, st[0]));
    vectorSum<<<(m + 255) / 256, 256, 0, st[0]>>>(tmp, tmp, out, m);
    checkCudaErrors(cudaFreeAsync(tmp, st[0]));
    checkCudaErrors(cudaStreamEndCapture(st[0], &g));
    checkCudaErrors(cudaGraphInstantiate(&ge, g, 0));
    for (int rep = 0; rep < 2; rep++) {
        checkCudaErrors(cudaMemset(out, 0, m * sizeof(float)));
        checkCudaErrors(cudaGraphLaunch(ge, st[1]));
        checkCudaErrors(cudaStreamSynchronize(st[1]));
        for (int i = 0; i < m; i++)
            if (out[i] != 2.0f * i)
                return 1;
    }
    checkCudaErrors(cudaGraphExecDestroy(ge));
    checkCudaErrors(cudaGraphDestroy(g));

    for (int i = 0; i < streams; i++)
        checkCudaErrors(cudaStreamDestroy(st[i]));
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaFree(out));
    checkCudaErrors(cudaFree(x));
    checkCudaErrors(cudaFree(y));
    std::printf("PASS managed_pools\n");
    return 0;
}
