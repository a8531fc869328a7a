// atomic_contention.cu: global atomics under contention (tools/hw-measure/README.md). Cycles per kernel, timed with events at the SM clock.
#include <cstdio>
#include <cuda_runtime.h>
// mode: how lane l of global warp w picks its word
__global__ void k(unsigned *buf, int mode, int iters, int nbins)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, warp = tid >> 5;
    for (int it = 0; it < iters; it++) {
        unsigned idx;
        switch (mode) {
        case 0: idx = 0; break;                               // one word, everyone
        case 1: idx = lane; break;                            // 32 words (4 sectors), shared by all warps
        case 2: idx = lane * 8; break;                        // 32 words, one per sector (32 sectors)
        case 3: idx = (unsigned)((tid * 2654435761u + it * 40503u) >> 7) % nbins; break; // random bins
        case 4: idx = tid * 8 + (it & 7) ; break;             // no contention, one sector per lane
        case 5: idx = warp * 8; break;                        // all lanes of a warp on one word, warps apart
        case 6: idx = (warp % nbins) * 8; break;              // warp-uniform word, nbins hot words
        default: idx = 0;
        }
        atomicAdd(&buf[idx], 1u);
    }
}
int main()
{
    unsigned *buf; cudaMalloc(&buf, 64 << 20);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    int clk; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    struct { int mode, blocks, threads, iters, nbins; const char *what; } cases[] = {
        {0, 132, 256, 16, 1, "one word, all threads"},
        {0, 1, 32, 256, 1, "one word, one warp"},
        {0, 1, 256, 64, 1, "one word, one block"},
        {1, 132, 256, 16, 1, "32 words in 4 sectors, all warps"},
        {2, 132, 256, 16, 1, "32 words in 32 sectors, all warps"},
        {3, 264, 256, 4, 64, "random of 64 words"},
        {3, 264, 256, 4, 1024, "random of 1024 words"},
        {3, 264, 256, 4, 65536, "random of 65536 words"},
        {4, 264, 256, 4, 1, "no contention"},
        {5, 264, 256, 4, 1, "warp-uniform, distinct per warp"},
        {6, 264, 256, 4, 1, "warp-uniform, 1 hot word"},
        {6, 264, 256, 4, 8, "warp-uniform, 8 hot words"},
        {6, 264, 256, 4, 64, "warp-uniform, 64 hot words"},
    };
    for (auto &c : cases) {
        for (int rep = 0; rep < 2; rep++) {
            cudaMemset(buf, 0, 64 << 20);
            cudaEventRecord(a);
            k<<<c.blocks, c.threads>>>(buf, c.mode, c.iters, c.nbins);
            cudaEventRecord(b); cudaEventSynchronize(b);
            float ms; cudaEventElapsedTime(&ms, a, b);
            if (rep) {
                double ops = (double)c.blocks * c.threads * c.iters;
                double cyc = ms * 1e-3 * clk * 1e3;
                printf("%-38s blocks %4d x %3d iters %3d: %9.0f cycles, %.3f cycles/op, ops %.0f\n", c.what, c.blocks, c.threads, c.iters, cyc, cyc / ops, ops);
            }
        }
    }
    return 0;
}
