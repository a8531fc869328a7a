// unified_streams.cu — UnifiedMemoryStreams-style tasks on managed memory:
// each task's buffers are attached to its stream (cudaStreamAttachMemAsync),
// prefetched (CUDA 13's cudaMemPrefetchAsync with a cudaMemLocation), worked
// on by a kernel in a prioritised stream, and checked by the host after
// cudaStreamSynchronize; host functions enqueued with cudaLaunchHostFunc
// and cudaStreamAddCallback run in stream order; __managed__ variables are
// shared by host and kernels.
#include <vector>
#include "sample_helpers.h"

__managed__ int managedCounter;
__managed__ float managedScale = 2.5f;
__managed__ int managedTable[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__global__ void gemv(int m, int n, float alpha, const float *A, const float *x, float beta, float *result)
{
    for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < m; row += gridDim.x * blockDim.x) {
        float s = 0;
        for (int col = 0; col < n; col++)
            s += A[row * n + col] * x[col];
        result[row] = alpha * s + beta * result[row];
    }
    if (threadIdx.x == 0)
        atomicAdd(&managedCounter, 1);
}

__global__ void useTable(int *out)
{
    int i = threadIdx.x;
    if (i < 8)
        out[i] = managedTable[i] * (int)managedScale;
    if (i == 0)
        managedTable[0] = 100;
}

struct Task {
    int id, size;
    float *A, *x, *y;
    cudaStream_t stream;
    std::vector<int> *log;
};

static void CUDART_CB hostFunc(void *userData)
{
    Task *t = (Task *)userData;
    t->log->push_back(t->id * 10 + 1);
}

static void CUDART_CB streamCallback(cudaStream_t stream, cudaError_t status, void *userData)
{
    Task *t = (Task *)userData;
    t->log->push_back(status == cudaSuccess && stream == t->stream ? t->id * 10 + 2 : -1);
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    if (!prop.managedMemory || !prop.concurrentManagedAccess) {
        std::printf("Unified Memory not supported on this device\n");
        return EXIT_FAILURE;
    }
    int leastPriority, greatestPriority;
    checkCudaErrors(cudaDeviceGetStreamPriorityRange(&leastPriority, &greatestPriority));
    std::printf("stream priorities: least %d greatest %d\n", leastPriority, greatestPriority);
    bool ok = greatestPriority <= leastPriority;

    const int nTasks = 4;
    std::vector<int> log;
    Task tasks[nTasks];
    for (int t = 0; t < nTasks; t++) {
        Task &k = tasks[t];
        k.id = t;
        k.size = 16 + 8 * t;
        k.log = &log;
        int priority = t % 2 ? greatestPriority : leastPriority;
        checkCudaErrors(cudaStreamCreateWithPriority(&k.stream, cudaStreamNonBlocking, priority));
        int got;
        unsigned flags;
        checkCudaErrors(cudaStreamGetPriority(k.stream, &got));
        checkCudaErrors(cudaStreamGetFlags(k.stream, &flags));
        ok = ok && got == priority && flags == cudaStreamNonBlocking;
        checkCudaErrors(cudaMallocManaged(&k.A, sizeof(float) * k.size * k.size));
        checkCudaErrors(cudaMallocManaged(&k.x, sizeof(float) * k.size));
        checkCudaErrors(cudaMallocManaged(&k.y, sizeof(float) * k.size, cudaMemAttachHost));
        checkCudaErrors(cudaStreamAttachMemAsync(k.stream, k.A, 0, cudaMemAttachHost));
        checkCudaErrors(cudaStreamAttachMemAsync(k.stream, k.x, 0, cudaMemAttachHost));
        checkCudaErrors(cudaStreamSynchronize(k.stream));
        for (int i = 0; i < k.size * k.size; i++)
            k.A[i] = (float)((i + t) % 5);
        for (int i = 0; i < k.size; i++) {
            k.x[i] = 1.0f + (float)(i % 3);
            k.y[i] = 1.0f;
        }
    }
    managedCounter = 0;
    for (int t = 0; t < nTasks; t++) {
        Task &k = tasks[t];
        checkCudaErrors(cudaStreamAttachMemAsync(k.stream, k.A, 0, cudaMemAttachSingle));
        checkCudaErrors(cudaStreamAttachMemAsync(k.stream, k.x, 0, cudaMemAttachSingle));
        checkCudaErrors(cudaStreamAttachMemAsync(k.stream, k.y, 0, cudaMemAttachSingle));
        cudaMemLocation loc = {};
        loc.type = cudaMemLocationTypeDevice;
        loc.id = dev;
        checkCudaErrors(cudaMemPrefetchAsync(k.A, sizeof(float) * k.size * k.size, loc, 0, k.stream));
        gemv<<<2, 32, 0, k.stream>>>(k.size, k.size, 1.0f, k.A, k.x, 0.5f, k.y);
        getLastCudaError("gemv");
        checkCudaErrors(cudaLaunchHostFunc(k.stream, hostFunc, &k));
        checkCudaErrors(cudaStreamAddCallback(k.stream, streamCallback, &k, 0));
        loc.type = cudaMemLocationTypeHost;
        checkCudaErrors(cudaMemPrefetchAsync(k.y, sizeof(float) * k.size, loc, 0, k.stream));
    }
    for (int t = 0; t < nTasks; t++) {
        Task &k = tasks[t];
        checkCudaErrors(cudaStreamSynchronize(k.stream));
        for (int row = 0; row < k.size; row++) {
            float s = 0;
            for (int col = 0; col < k.size; col++)
                s += k.A[row * k.size + col] * k.x[col];
            if (k.y[row] != s + 0.5f) {
                std::printf("task %d row %d: %f, expected %f\n", t, row, k.y[row], s + 0.5f);
                ok = false;
                break;
            }
        }
    }
    // each task: its host function then its callback, after the kernel
    ok = ok && log.size() == 2 * nTasks;
    for (int t = 0; t < nTasks && ok; t++) {
        bool order = false;
        for (size_t i = 0; i + 1 < log.size(); i++)
            order |= log[i] == t * 10 + 1 && log[i + 1] == t * 10 + 2;
        ok = order;
    }
    std::printf("host functions ran: %zu, managedCounter = %d\n", log.size(), managedCounter);
    ok = ok && managedCounter == 2 * nTasks;

    int *out;
    checkCudaErrors(cudaMallocManaged(&out, 8 * sizeof(int)));
    managedScale = 3.0f;
    useTable<<<1, 32>>>(out);
    getLastCudaError("useTable");
    checkCudaErrors(cudaDeviceSynchronize());
    for (int i = 0; i < 8; i++)
        ok = ok && out[i] == (i + 1) * 3;
    ok = ok && managedTable[0] == 100 && managedTable[7] == 8;
    int fromSymbol = 0;
    checkCudaErrors(cudaMemcpyFromSymbol(&fromSymbol, managedTable, sizeof(int)));
    ok = ok && fromSymbol == 100;
    for (int t = 0; t < nTasks; t++) {
        checkCudaErrors(cudaFree(tasks[t].A));
        checkCudaErrors(cudaFree(tasks[t].x));
        checkCudaErrors(cudaFree(tasks[t].y));
        checkCudaErrors(cudaStreamDestroy(tasks[t].stream));
    }
    checkCudaErrors(cudaFree(out));
    std::printf("All Done!\n");
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS unified_streams\n");
    return 0;
}
