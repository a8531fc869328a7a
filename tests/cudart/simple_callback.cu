// simple_callback.cu — simpleCallback and asyncAPI: host worker threads,
// each with its own stream, enqueue a kernel and a callback
// (cudaStreamAddCallback) that checks the kernel's output and wakes the
// worker; cudaLaunchHostFunc in between copies; and asyncAPI's loop that
// counts host iterations while polling cudaEventQuery until the GPU work
// is done (it must end, and the result must be right).
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#include <cuda_profiler_api.h>
#include "sample_helpers.h"

__global__ void incKernel(int *data, int n, int by)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += by;
}

struct Worker {
    int id;
    int n;
    int *h_data, *d_data;
    cudaStream_t stream;
    std::mutex m;
    std::condition_variable cv;
    bool done;
    int wrong;
    cudaError_t status;
};

static void CUDART_CB myStreamCallback(cudaStream_t stream, cudaError_t status, void *data)
{
    Worker *w = (Worker *)data;
    std::lock_guard<std::mutex> lock(w->m);
    w->status = status;
    if (stream != w->stream)
        w->wrong = -1;
    for (int i = 0; i < w->n; i++)
        if (w->h_data[i] != i + w->id + 1)
            w->wrong++;
    w->done = true;
    w->cv.notify_one();
}

static std::atomic<int> hostFuncCalls{0};

static void CUDART_CB countHostFunc(void *data)
{
    hostFuncCalls += *(int *)data;
}

static void workerThread(Worker *w)
{
    checkCudaErrors(cudaSetDevice(0));
    checkCudaErrors(cudaStreamCreate(&w->stream));
    checkCudaErrors(cudaMallocHost(&w->h_data, w->n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&w->d_data, w->n * sizeof(int)));
    for (int i = 0; i < w->n; i++)
        w->h_data[i] = i;
    static int one = 1;
    checkCudaErrors(cudaMemcpyAsync(w->d_data, w->h_data, w->n * sizeof(int), cudaMemcpyHostToDevice, w->stream));
    checkCudaErrors(cudaLaunchHostFunc(w->stream, countHostFunc, &one));
    incKernel<<<(w->n + 127) / 128, 128, 0, w->stream>>>(w->d_data, w->n, w->id + 1);
    getLastCudaError("incKernel");
    checkCudaErrors(cudaMemcpyAsync(w->h_data, w->d_data, w->n * sizeof(int), cudaMemcpyDeviceToHost, w->stream));
    checkCudaErrors(cudaStreamAddCallback(w->stream, myStreamCallback, w, 0));
    std::unique_lock<std::mutex> lock(w->m);
    w->cv.wait(lock, [w] { return w->done; });
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);

    // --- simpleCallback: one stream and one callback per worker thread
    const int workers = 4;
    std::vector<Worker> w(workers);
    std::vector<std::thread> threads;
    for (int i = 0; i < workers; i++) {
        w[i].id = i;
        w[i].n = 1000 + 100 * i;
        w[i].done = false;
        w[i].wrong = 0;
        w[i].status = cudaErrorUnknown;
        threads.emplace_back(workerThread, &w[i]);
    }
    for (auto &t : threads)
        t.join();
    for (int i = 0; i < workers; i++) {
        if (!w[i].done || w[i].wrong != 0 || w[i].status != cudaSuccess) {
            std::printf("worker %d: done %d, %d wrong, status %s\n", i, w[i].done, w[i].wrong,
                        cudaGetErrorName(w[i].status));
            return 1;
        }
        checkCudaErrors(cudaStreamSynchronize(w[i].stream));
        checkCudaErrors(cudaStreamDestroy(w[i].stream));
        checkCudaErrors(cudaFree(w[i].d_data));
        checkCudaErrors(cudaFreeHost(w[i].h_data));
    }
    if (hostFuncCalls != workers) {
        std::printf("cudaLaunchHostFunc ran %d times, expected %d\n", hostFuncCalls.load(), workers);
        return 1;
    }
    // invalid use: no callback, or flags other than 0
    if (cudaStreamAddCallback(0, NULL, NULL, 0) != cudaErrorInvalidValue ||
        cudaStreamAddCallback(0, myStreamCallback, &w[0], 1) != cudaErrorInvalidValue ||
        cudaLaunchHostFunc(0, NULL, NULL) != cudaErrorInvalidValue) {
        std::printf("invalid callbacks were accepted\n");
        return 1;
    }
    cudaGetLastError();

    // --- asyncAPI: issue everything, then count while polling
    const int n = 16 * 1024 * 1024 / 4;
    const int value = 26;
    int *a, *d_a;
    checkCudaErrors(cudaMallocHost(&a, n * sizeof(int)));
    std::memset(a, 0, n * sizeof(int));
    checkCudaErrors(cudaMalloc(&d_a, n * sizeof(int)));
    checkCudaErrors(cudaMemset(d_a, 255, n * sizeof(int)));
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync));
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaProfilerStart());
    cudaEventRecord(start, 0);
    cudaMemcpyAsync(d_a, a, n * sizeof(int), cudaMemcpyHostToDevice, 0);
    incKernel<<<n / 512, 512, 0, 0>>>(d_a, n, value);
    cudaMemcpyAsync(a, d_a, n * sizeof(int), cudaMemcpyDeviceToHost, 0);
    cudaEventRecord(stop, 0);
    checkCudaErrors(cudaProfilerStop());
    unsigned long counter = 0;
    while (cudaEventQuery(stop) == cudaErrorNotReady) {
        counter++;
        if (counter > 100000000ul) {
            std::printf("cudaEventQuery never reported completion\n");
            return 1;
        }
    }
    float gpu_time = 0;
    checkCudaErrors(cudaEventElapsedTime(&gpu_time, start, stop));
    std::printf("time spent executing by the GPU: %.2f\n", gpu_time);
    std::printf("CPU executed %lu iterations while waiting for GPU to finish\n", counter);
    bool ok = gpu_time > 0;
    for (int i = 0; i < n && ok; i++)
        ok = a[i] == value;
    // a stream is polled the same way
    while (cudaStreamQuery(0) == cudaErrorNotReady)
        counter++;
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFree(d_a));
    if (!ok) {
        std::printf("asyncAPI: wrong result\n");
        return 1;
    }
    std::printf("PASS simple_callback\n");
    return 0;
}
