// streams_events.cu — streams and events: work completes in order, events
// measure the simulated time, and elapsed times are positive and add up.
#include "check.h"

__global__ void busy(float *v, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = v[i];
        for (int r = 0; r < rounds; r++)
            x = x * 0.999f + 0.5f;
        v[i] = x;
    }
}

static bool near(float a, float b) { return a - b < 1e-3f * b + 1e-6f && b - a < 1e-3f * b + 1e-6f; }

int main()
{
    const int n = 4096;
    float *v;
    CHECK_CUDA(cudaMalloc(&v, n * sizeof(float)));
    CHECK_CUDA(cudaMemset(v, 0, n * sizeof(float)));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1, e2;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    CHECK_CUDA(cudaEventCreateWithFlags(&e2, cudaEventDefault));
    CHECK_CUDA(cudaEventRecord(e0, s));
    busy<<<n / 256, 256, 0, s>>>(v, n, 10);
    CHECK_CUDA(cudaEventRecord(e1, s));
    busy<<<n / 256, 256, 0, s>>>(v, n, 100);
    CHECK_CUDA(cudaEventRecord(e2, s));
    CHECK_CUDA(cudaEventSynchronize(e2));
    CHECK_CUDA(cudaStreamQuery(s));
    CHECK_CUDA(cudaEventQuery(e2));
    float t01, t12, t02;
    CHECK_CUDA(cudaEventElapsedTime(&t01, e0, e1));
    CHECK_CUDA(cudaEventElapsedTime(&t12, e1, e2));
    CHECK_CUDA(cudaEventElapsedTime(&t02, e0, e2));
    std::printf("simulated: %.6f ms + %.6f ms = %.6f ms\n", t01, t12, t02);
    EXPECT(t01 > 0 && t12 > 0);
    EXPECT(t12 > t01); // ten times the work takes longer
    EXPECT(near(t01 + t12, t02));
    // results of both kernels, in order
    float h[4];
    CHECK_CUDA(cudaMemcpyAsync(h, v, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    float want = 0;
    for (int r = 0; r < 110; r++)
        want = want * 0.999f + 0.5f;
    EXPECT(near(h[0], want));
    // a timing-disabled event cannot be measured; a destroyed one is invalid
    cudaEvent_t nt;
    CHECK_CUDA(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    CHECK_CUDA(cudaEventRecord(nt, 0));
    float t;
    EXPECT(cudaEventElapsedTime(&t, e0, nt) == cudaErrorInvalidResourceHandle);
    CHECK_CUDA(cudaEventDestroy(nt));
    EXPECT(cudaEventRecord(nt, 0) == cudaErrorInvalidResourceHandle);
    CHECK_CUDA(cudaStreamDestroy(s));
    EXPECT(cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    CHECK_CUDA(cudaEventDestroy(e0));
    CHECK_CUDA(cudaEventDestroy(e1));
    CHECK_CUDA(cudaEventDestroy(e2));
    CHECK_CUDA(cudaFree(v));
    std::printf("PASS streams_events\n");
    return 0;
}
