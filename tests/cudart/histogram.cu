// histogram.cu — 256-bin byte histogram the way the histogram sample and
// Parboil's histo do it: per-block sub-histograms in shared memory built
// with shared atomics, merged into the global histogram with global
// atomics; plus a 64-bin variant with one sub-histogram per warp, padded
// dynamic shared memory, and a merge kernel over per-block partials.
#include "sample_helpers.h"

#define BIN_COUNT 256
#define HIST64_BINS 64

__global__ void histogram256(unsigned *d_Histogram, const unsigned char *d_Data, unsigned byteCount)
{
    __shared__ unsigned s_Hist[BIN_COUNT];
    for (unsigned i = threadIdx.x; i < BIN_COUNT; i += blockDim.x)
        s_Hist[i] = 0;
    __syncthreads();
    for (unsigned pos = blockIdx.x * blockDim.x + threadIdx.x; pos < byteCount; pos += blockDim.x * gridDim.x)
        atomicAdd(&s_Hist[d_Data[pos]], 1u);
    __syncthreads();
    for (unsigned i = threadIdx.x; i < BIN_COUNT; i += blockDim.x)
        if (s_Hist[i])
            atomicAdd(&d_Histogram[i], s_Hist[i]);
}

// Per-warp sub-histograms (WARP_COUNT x 64, padded by one to spread banks),
// words read four bytes at a time.
__global__ void histogram64(unsigned *d_PartialHistograms, const unsigned *d_Data, unsigned wordCount)
{
    extern __shared__ unsigned s_Hist64[];
    const unsigned warps = blockDim.x / 32, stride = HIST64_BINS + 1;
    unsigned *myHist = s_Hist64 + (threadIdx.x / 32) * stride;
    for (unsigned i = threadIdx.x; i < warps * stride; i += blockDim.x)
        s_Hist64[i] = 0;
    __syncthreads();
    for (unsigned pos = blockIdx.x * blockDim.x + threadIdx.x; pos < wordCount; pos += blockDim.x * gridDim.x) {
        unsigned data = d_Data[pos];
#pragma unroll
        for (int b = 0; b < 4; b++)
            atomicAdd(myHist + ((data >> (8 * b + 2)) & 0x3fu), 1u);
    }
    __syncthreads();
    for (unsigned bin = threadIdx.x; bin < HIST64_BINS; bin += blockDim.x) {
        unsigned sum = 0;
        for (unsigned w = 0; w < warps; w++)
            sum += s_Hist64[w * stride + bin];
        d_PartialHistograms[blockIdx.x * HIST64_BINS + bin] = sum;
    }
}

__global__ void mergeHistogram64(unsigned *d_Histogram, const unsigned *d_Partial, unsigned partialCount)
{
    __shared__ unsigned data[128];
    unsigned sum = 0;
    for (unsigned i = threadIdx.x; i < partialCount; i += 128)
        sum += d_Partial[blockIdx.x + i * HIST64_BINS];
    data[threadIdx.x] = sum;
    for (unsigned stride = 64; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride)
            data[threadIdx.x] += data[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        d_Histogram[blockIdx.x] = data[0];
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    const unsigned byteCount = 64 * 1024;
    unsigned char *h_Data = (unsigned char *)std::malloc(byteCount);
    unsigned seed = 2009;
    for (unsigned i = 0; i < byteCount; i++) {
        seed = seed * 1103515245u + 12345u;
        h_Data[i] = (unsigned char)((seed >> 16) & 0xff) & (i % 3 ? 0xff : 0x0f); // skewed: hot bins
    }
    unsigned char *d_Data;
    unsigned *d_Histogram, *d_Partial;
    checkCudaErrors(cudaMalloc(&d_Data, byteCount));
    checkCudaErrors(cudaMalloc(&d_Histogram, BIN_COUNT * sizeof(unsigned)));
    checkCudaErrors(cudaMemcpy(d_Data, h_Data, byteCount, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemset(d_Histogram, 0, BIN_COUNT * sizeof(unsigned)));

    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start));
    histogram256<<<16, 192>>>(d_Histogram, d_Data, byteCount);
    getLastCudaError("histogram256() execution failed");
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    std::printf("histogram256() time: %.5f ms, %.4f MB/s\n", ms, (double)byteCount * 1.0e-6 / (ms * 1e-3));

    unsigned h_Hist[BIN_COUNT], cpu[BIN_COUNT] = {0}, cpu64[HIST64_BINS] = {0};
    checkCudaErrors(cudaMemcpy(h_Hist, d_Histogram, sizeof h_Hist, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < byteCount; i++) {
        cpu[h_Data[i]]++;
        cpu64[h_Data[i] >> 2]++;
    }
    bool ok = true;
    for (int i = 0; i < BIN_COUNT; i++)
        if (h_Hist[i] != cpu[i]) {
            std::printf("histogram256 bin %d: %u, expected %u\n", i, h_Hist[i], cpu[i]);
            ok = false;
        }

    const unsigned blocks64 = 12, threads64 = 128;
    checkCudaErrors(cudaMalloc(&d_Partial, blocks64 * HIST64_BINS * sizeof(unsigned)));
    histogram64<<<blocks64, threads64, threads64 / 32 * (HIST64_BINS + 1) * sizeof(unsigned)>>>(
        d_Partial, (const unsigned *)d_Data, byteCount / 4);
    getLastCudaError("histogram64() execution failed");
    mergeHistogram64<<<HIST64_BINS, 128>>>(d_Histogram, d_Partial, blocks64);
    getLastCudaError("mergeHistogram64() execution failed");
    checkCudaErrors(cudaMemcpy(h_Hist, d_Histogram, HIST64_BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < HIST64_BINS; i++)
        if (h_Hist[i] != cpu64[i]) {
            std::printf("histogram64 bin %d: %u, expected %u\n", i, h_Hist[i], cpu64[i]);
            ok = false;
        }
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFree(d_Data));
    checkCudaErrors(cudaFree(d_Histogram));
    checkCudaErrors(cudaFree(d_Partial));
    std::free(h_Data);
    std::printf(" ...histograms %s\n", ok ? "match" : "DIFFER");
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS histogram\n");
    return 0;
}
