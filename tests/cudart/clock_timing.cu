// clock_timing.cu — the clock sample: each block records clock() when it
// starts and ends a shared-memory reduction, and the host averages the
// blocks' cycle counts; then clock64() and globaltimer-free spin loops,
// which must see time advance (a kernel that waits for clock64() to move
// must finish).
#include <cstdint>
#include "sample_helpers.h"

#define NUM_BLOCKS 64
#define NUM_THREADS 256

__global__ static void timedReduction(const float *input, float *output, clock_t *timer)
{
    extern __shared__ float shared[];
    const int tid = threadIdx.x, bid = blockIdx.x;
    if (tid == 0)
        timer[bid] = clock();
    shared[tid] = input[tid];
    shared[tid + blockDim.x] = input[tid + blockDim.x];
    for (int d = blockDim.x; d > 0; d /= 2) {
        __syncthreads();
        if (tid < d) {
            float f0 = shared[tid], f1 = shared[tid + d];
            if (f1 < f0)
                shared[tid] = f1;
        }
    }
    if (tid == 0)
        output[bid] = shared[0];
    __syncthreads();
    if (tid == 0)
        timer[bid + gridDim.x] = clock();
}

// waits until clock64() has advanced by `cycles`, counting its polls
__global__ void spin(long long cycles, long long *elapsed, unsigned *polls)
{
    long long start = clock64();
    long long now = start;
    unsigned n = 0;
    while (now - start < cycles) {
        now = clock64();
        n++;
    }
    elapsed[blockIdx.x * blockDim.x + threadIdx.x] = now - start;
    if (threadIdx.x == 0)
        polls[blockIdx.x] = n;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    float *dinput, *doutput;
    clock_t *dtimer;
    clock_t timer[NUM_BLOCKS * 2];
    float input[NUM_THREADS * 2], output[NUM_BLOCKS];
    for (int i = 0; i < NUM_THREADS * 2; i++)
        input[i] = (float)((i * 7919) % 1000);
    checkCudaErrors(cudaMalloc(&dinput, sizeof input));
    checkCudaErrors(cudaMalloc(&doutput, sizeof output));
    checkCudaErrors(cudaMalloc(&dtimer, sizeof timer));
    checkCudaErrors(cudaMemcpy(dinput, input, sizeof input, cudaMemcpyHostToDevice));
    timedReduction<<<NUM_BLOCKS, NUM_THREADS, sizeof(float) * 2 * NUM_THREADS>>>(dinput, doutput, dtimer);
    getLastCudaError("timedReduction");
    checkCudaErrors(cudaMemcpy(output, doutput, sizeof output, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(timer, dtimer, sizeof timer, cudaMemcpyDeviceToHost));
    long double avgElapsedClocks = 0;
    for (int i = 0; i < NUM_BLOCKS; i++) {
        if (output[i] != 0.0f) { // the minimum of the input
            std::printf("block %d: min %f\n", i, output[i]);
            return 1;
        }
        if (timer[i + NUM_BLOCKS] <= timer[i]) {
            std::printf("block %d: clock() did not advance (%ld -> %ld)\n", i, (long)timer[i],
                        (long)timer[i + NUM_BLOCKS]);
            return 1;
        }
        avgElapsedClocks += (long double)(timer[i + NUM_BLOCKS] - timer[i]);
    }
    avgElapsedClocks /= NUM_BLOCKS;
    std::printf("Average clocks/block = %Lf\n", avgElapsedClocks);

    const long long wait = 5000;
    long long *elapsed;
    unsigned *polls;
    checkCudaErrors(cudaMallocManaged(&elapsed, 4 * 64 * sizeof(long long)));
    checkCudaErrors(cudaMallocManaged(&polls, 4 * sizeof(unsigned)));
    spin<<<4, 64>>>(wait, elapsed, polls);
    checkCudaErrors(cudaDeviceSynchronize());
    for (int i = 0; i < 4 * 64; i++)
        if (elapsed[i] < wait) {
            std::printf("thread %d: waited %lld cycles\n", i, elapsed[i]);
            return 1;
        }
    for (int b = 0; b < 4; b++)
        if (polls[b] == 0)
            return 1;
    std::printf("clock64 spin: %u polls in block 0\n", polls[0]);
    checkCudaErrors(cudaFree(elapsed));
    checkCudaErrors(cudaFree(polls));
    checkCudaErrors(cudaFree(dinput));
    checkCudaErrors(cudaFree(doutput));
    checkCudaErrors(cudaFree(dtimer));
    std::printf("PASS clock_timing\n");
    return 0;
}
