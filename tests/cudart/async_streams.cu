// async_streams.cu — simpleStreams/asyncAPI-style: pinned buffers copied
// with cudaMemcpyAsync in chunks over several streams, kernels per stream,
// timing events and a cudaEventDisableTiming event polled with
// cudaEventQuery, cross-stream ordering with cudaStreamWaitEvent,
// stream-ordered cudaMallocAsync/cudaFreeAsync, device limits (printf FIFO,
// malloc heap, stack) and device printf.
#include "sample_helpers.h"

__global__ void init_array(int *g_data, const int *factor, int num_iterations)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < num_iterations; i++)
        g_data[idx] += *factor;
}

__global__ void increment_kernel(int *g_data, int inc_value)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    g_data[idx] = g_data[idx] + inc_value;
}

__global__ void scaleAndReport(int *data, int n, int scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= scale;
    if (i == 0)
        printf("device: block %d of %d scaled %d values by %d, first now %d\n", blockIdx.x, gridDim.x, n, scale,
               data[0]);
}

int main(int argc, char **argv)
{
    std::printf("[ simpleStreams / asyncAPI ]\n");
    int dev = findCudaDevice(argc, (const char **)argv);
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    std::printf("> Device supports %d async engine(s), concurrentKernels=%d\n", prop.asyncEngineCount,
                prop.concurrentKernels);
    checkCudaErrors(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    bool ok = true;

    // --- limits
    size_t fifo = 0, heap = 0, stack = 0;
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4u << 20));
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20));
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    checkCudaErrors(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    checkCudaErrors(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    checkCudaErrors(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    std::printf("> limits: printf FIFO %zu, malloc heap %zu, stack %zu\n", fifo, heap, stack);
    ok = ok && fifo >= (4u << 20) && heap >= (16u << 20) && stack >= 4096;

    // --- simpleStreams: chunks over streams
    const int nstreams = 4, n = 16 * 1024, nbytes = n * sizeof(int), niterations = 3;
    int *a, *d_a, *d_c, c = 5;
    checkCudaErrors(cudaMallocHost((void **)&a, nbytes));
    checkCudaErrors(cudaMalloc((void **)&d_a, nbytes));
    checkCudaErrors(cudaMalloc((void **)&d_c, sizeof(int)));
    checkCudaErrors(cudaMemcpy(d_c, &c, sizeof(int), cudaMemcpyHostToDevice));
    cudaStream_t streams[nstreams];
    for (int i = 0; i < nstreams; i++)
        checkCudaErrors(cudaStreamCreate(&streams[i]));
    cudaEvent_t start_event, stop_event;
    checkCudaErrors(cudaEventCreateWithFlags(&start_event, cudaEventBlockingSync));
    checkCudaErrors(cudaEventCreateWithFlags(&stop_event, cudaEventBlockingSync));
    dim3 threads(512, 1), blocks(n / (nstreams * threads.x), 1);
    checkCudaErrors(cudaMemset(d_a, 0, nbytes));
    checkCudaErrors(cudaEventRecord(start_event, 0));
    for (int k = 0; k < niterations; k++) {
        for (int i = 0; i < nstreams; i++)
            init_array<<<blocks, threads, 0, streams[i]>>>(d_a + i * n / nstreams, d_c, 2);
        for (int i = 0; i < nstreams; i++)
            checkCudaErrors(cudaMemcpyAsync(a + i * n / nstreams, d_a + i * n / nstreams, nbytes / nstreams,
                                            cudaMemcpyDeviceToHost, streams[i]));
    }
    checkCudaErrors(cudaEventRecord(stop_event, 0));
    checkCudaErrors(cudaEventSynchronize(stop_event));
    float elapsed;
    checkCudaErrors(cudaEventElapsedTime(&elapsed, start_event, stop_event));
    std::printf("%d streams:\t%.2f ms\n", nstreams, elapsed);
    for (int i = 0; i < n && ok; i++)
        ok = a[i] == c * 2 * niterations;
    std::printf("simpleStreams check: %s\n", ok ? "ok" : "WRONG");

    // --- asyncAPI: a non-timing event polled until done
    int value = 26;
    int *h_b, *d_b;
    checkCudaErrors(cudaMallocHost((void **)&h_b, nbytes));
    for (int i = 0; i < n; i++)
        h_b[i] = i;
    checkCudaErrors(cudaMalloc((void **)&d_b, nbytes));
    cudaEvent_t done;
    checkCudaErrors(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    checkCudaErrors(cudaMemcpyAsync(d_b, h_b, nbytes, cudaMemcpyHostToDevice, 0));
    increment_kernel<<<n / 512, 512, 0, 0>>>(d_b, value);
    checkCudaErrors(cudaMemcpyAsync(h_b, d_b, nbytes, cudaMemcpyDeviceToHost, 0));
    checkCudaErrors(cudaEventRecord(done, 0));
    unsigned long counter = 0;
    while (cudaEventQuery(done) == cudaErrorNotReady)
        counter++;
    std::printf("CPU executed %lu iterations while waiting for GPU to finish\n", counter);
    for (int i = 0; i < n; i++)
        if (h_b[i] != i + value) {
            std::printf("asyncAPI: h_b[%d] = %d\n", i, h_b[i]);
            ok = false;
            break;
        }
    float bogus;
    ok = ok && cudaEventElapsedTime(&bogus, start_event, done) != cudaSuccess;
    (void)cudaGetLastError();

    // --- cross-stream dependency and stream-ordered allocation
    cudaEvent_t produced;
    checkCudaErrors(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));
    int *d_tmp;
    checkCudaErrors(cudaMallocAsync((void **)&d_tmp, nbytes, streams[0]));
    checkCudaErrors(cudaMemcpyAsync(d_tmp, d_b, nbytes, cudaMemcpyDeviceToDevice, streams[0]));
    checkCudaErrors(cudaEventRecord(produced, streams[0]));
    checkCudaErrors(cudaStreamWaitEvent(streams[1], produced, 0));
    scaleAndReport<<<n / 256, 256, 0, streams[1]>>>(d_tmp, n, 3);
    getLastCudaError("scaleAndReport");
    checkCudaErrors(cudaMemcpyAsync(h_b, d_tmp, nbytes, cudaMemcpyDeviceToHost, streams[1]));
    checkCudaErrors(cudaFreeAsync(d_tmp, streams[1]));
    checkCudaErrors(cudaStreamSynchronize(streams[1]));
    for (int i = 0; i < n; i++)
        if (h_b[i] != 3 * (i + value)) {
            std::printf("stream-ordered: h_b[%d] = %d\n", i, h_b[i]);
            ok = false;
            break;
        }
    checkCudaErrors(cudaStreamQuery(streams[1]));

    for (int i = 0; i < nstreams; i++)
        checkCudaErrors(cudaStreamDestroy(streams[i]));
    checkCudaErrors(cudaEventDestroy(start_event));
    checkCudaErrors(cudaEventDestroy(stop_event));
    checkCudaErrors(cudaEventDestroy(done));
    checkCudaErrors(cudaEventDestroy(produced));
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFreeHost(h_b));
    checkCudaErrors(cudaFree(d_a));
    checkCudaErrors(cudaFree(d_b));
    checkCudaErrors(cudaFree(d_c));
    checkCudaErrors(cudaDeviceSynchronize());
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS async_streams\n");
    return 0;
}
