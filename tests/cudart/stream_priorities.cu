// nvcc-flags: --default-stream per-thread
// stream_priorities.cu — simpleStreams / simpleMultiCopy / StreamPriorities
// (built with --default-stream per-thread, so it calls the _ptsz/_ptds names):
// pinned buffers copied in chunks with cudaMemcpyAsync over several
// streams created with flags and priorities, kernels between the copies,
// cross-stream ordering through cudaStreamWaitEvent, events created with
// cudaEventBlockingSync and cudaEventDisableTiming, and per-stream timing.
#include <vector>
#include "sample_helpers.h"

__global__ void incKernel(int *g_out, const int *g_in, int N, int inner_reps)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N)
        for (int i = 0; i < inner_reps; ++i)
            g_out[idx] = g_in[idx] + 1;
}

__global__ void memcpyKernel(int *dst, const int *src, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i] * 2;
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    checkCudaErrors(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    std::printf("> Device name: %s, %d copy engine(s), concurrent kernels %d\n", prop.name, prop.asyncEngineCount,
                prop.concurrentKernels);

    // --- simpleMultiCopy: chunks in, kernel, chunks out, over 4 streams
    const int STREAM_COUNT = 4;
    const int N = 1 << 18;
    const int memsize = N * sizeof(int);
    int *h_in[STREAM_COUNT], *h_out[STREAM_COUNT], *d_in[STREAM_COUNT], *d_out[STREAM_COUNT];
    cudaStream_t stream[STREAM_COUNT];
    cudaEvent_t cycleDone[STREAM_COUNT];
    for (int i = 0; i < STREAM_COUNT; i++) {
        checkCudaErrors(cudaHostAlloc(&h_in[i], memsize, cudaHostAllocDefault));
        checkCudaErrors(cudaHostAlloc(&h_out[i], memsize, cudaHostAllocPortable));
        checkCudaErrors(cudaMalloc(&d_in[i], memsize));
        checkCudaErrors(cudaMalloc(&d_out[i], memsize));
        checkCudaErrors(cudaStreamCreateWithFlags(&stream[i], cudaStreamNonBlocking));
        checkCudaErrors(cudaEventCreateWithFlags(&cycleDone[i], cudaEventBlockingSync));
        for (int j = 0; j < N; j++)
            h_in[i][j] = j + i;
    }
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start, 0));
    for (int i = 0; i < STREAM_COUNT; i++) {
        int next = (i + 1) % STREAM_COUNT;
        checkCudaErrors(cudaMemcpyAsync(d_in[i], h_in[i], memsize, cudaMemcpyHostToDevice, stream[i]));
        incKernel<<<N / 256, 256, 0, stream[i]>>>(d_out[i], d_in[i], N, 3);
        getLastCudaError("incKernel");
        checkCudaErrors(cudaEventRecord(cycleDone[i], stream[i]));
        // the next stream's copy back waits for this stream's kernel
        checkCudaErrors(cudaStreamWaitEvent(stream[next], cycleDone[i], 0));
        checkCudaErrors(cudaMemcpyAsync(h_out[i], d_out[i], memsize, cudaMemcpyDeviceToHost, stream[i]));
    }
    checkCudaErrors(cudaEventRecord(stop, 0));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms = 0;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    std::printf("Measured time for sample = %.3fms\n", ms);
    for (int i = 0; i < STREAM_COUNT; i++) {
        checkCudaErrors(cudaEventSynchronize(cycleDone[i]));
        for (int j = 0; j < N; j++)
            if (h_out[i][j] != j + i + 1) {
                std::printf("stream %d element %d: %d\n", i, j, h_out[i][j]);
                return 1;
            }
    }

    // --- StreamPriorities: the range, streams at both ends, clamping
    int priority_low, priority_hi;
    checkCudaErrors(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_hi));
    std::printf("CUDA stream priority range: LOW: %d to HIGH: %d\n", priority_low, priority_hi);
    if (priority_hi > priority_low) {
        std::printf("greatest priority must be numerically lower\n");
        return 1;
    }
    cudaStream_t st_low, st_hi, st_beyond;
    checkCudaErrors(cudaStreamCreateWithPriority(&st_low, cudaStreamNonBlocking, priority_low));
    checkCudaErrors(cudaStreamCreateWithPriority(&st_hi, cudaStreamNonBlocking, priority_hi));
    checkCudaErrors(cudaStreamCreateWithPriority(&st_beyond, cudaStreamDefault, priority_hi - 10));
    int p = 0;
    unsigned flags = 7;
    checkCudaErrors(cudaStreamGetPriority(st_hi, &p));
    if (p != priority_hi) return 1;
    checkCudaErrors(cudaStreamGetPriority(st_beyond, &p));
    if (p != priority_hi) return 1; // clamped
    checkCudaErrors(cudaStreamGetFlags(st_low, &flags));
    if (flags != cudaStreamNonBlocking) return 1;
    checkCudaErrors(cudaStreamGetFlags(st_beyond, &flags));
    if (flags != cudaStreamDefault) return 1;
    const size_t n = 1 << 20;
    int *src, *dst_low, *dst_hi;
    checkCudaErrors(cudaMalloc(&src, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dst_low, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dst_hi, n * sizeof(int)));
    std::vector<int> h(n);
    for (size_t i = 0; i < n; i++)
        h[i] = (int)(i % 1000);
    checkCudaErrors(cudaMemcpy(src, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    cudaEvent_t s_low, e_low, s_hi, e_hi;
    checkCudaErrors(cudaEventCreate(&s_low));
    checkCudaErrors(cudaEventCreate(&e_low));
    checkCudaErrors(cudaEventCreate(&s_hi));
    checkCudaErrors(cudaEventCreate(&e_hi));
    checkCudaErrors(cudaEventRecord(s_low, st_low));
    memcpyKernel<<<256, 256, 0, st_low>>>(dst_low, src, n);
    checkCudaErrors(cudaEventRecord(e_low, st_low));
    checkCudaErrors(cudaEventRecord(s_hi, st_hi));
    memcpyKernel<<<256, 256, 0, st_hi>>>(dst_hi, src, n);
    checkCudaErrors(cudaEventRecord(e_hi, st_hi));
    checkCudaErrors(cudaEventSynchronize(e_low));
    checkCudaErrors(cudaEventSynchronize(e_hi));
    float ms_low, ms_hi;
    checkCudaErrors(cudaEventElapsedTime(&ms_low, s_low, e_low));
    checkCudaErrors(cudaEventElapsedTime(&ms_hi, s_hi, e_hi));
    std::printf("elapsed time of kernels launched to LOW priority stream: %.3lf ms\n", ms_low);
    std::printf("elapsed time of kernels launched to HI  priority stream: %.3lf ms\n", ms_hi);
    if (ms_low <= 0 || ms_hi <= 0) return 1;
    std::vector<int> back(n);
    checkCudaErrors(cudaMemcpy(back.data(), dst_hi, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        if (back[i] != 2 * h[i]) return 1;

    // events without timing still order work; timing them is an error
    cudaEvent_t untimed;
    checkCudaErrors(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming | cudaEventBlockingSync));
    checkCudaErrors(cudaEventRecord(untimed, st_low));
    checkCudaErrors(cudaStreamWaitEvent(st_hi, untimed, 0));
    checkCudaErrors(cudaEventSynchronize(untimed));
    if (cudaEventQuery(untimed) != cudaSuccess) return 1;
    if (cudaEventElapsedTime(&ms, start, untimed) != cudaErrorInvalidResourceHandle) return 1;
    cudaGetLastError();
    // an event never recorded is complete; timing it is an error
    cudaEvent_t never;
    checkCudaErrors(cudaEventCreate(&never));
    if (cudaEventQuery(never) != cudaSuccess) return 1;
    if (cudaEventElapsedTime(&ms, start, never) == cudaSuccess) return 1;
    cudaGetLastError();

    checkCudaErrors(cudaEventDestroy(never));
    checkCudaErrors(cudaEventDestroy(untimed));
    for (cudaEvent_t e : {start, stop, s_low, e_low, s_hi, e_hi})
        checkCudaErrors(cudaEventDestroy(e));
    for (cudaStream_t s : {st_low, st_hi, st_beyond})
        checkCudaErrors(cudaStreamDestroy(s));
    for (int i = 0; i < STREAM_COUNT; i++) {
        checkCudaErrors(cudaStreamDestroy(stream[i]));
        checkCudaErrors(cudaEventDestroy(cycleDone[i]));
        checkCudaErrors(cudaFreeHost(h_in[i]));
        checkCudaErrors(cudaFreeHost(h_out[i]));
        checkCudaErrors(cudaFree(d_in[i]));
        checkCudaErrors(cudaFree(d_out[i]));
    }
    checkCudaErrors(cudaFree(src));
    checkCudaErrors(cudaFree(dst_low));
    checkCudaErrors(cudaFree(dst_hi));
    std::printf("PASS stream_priorities\n");
    return 0;
}
