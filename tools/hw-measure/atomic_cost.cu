// atomic_cost.cu: what one global atomic request costs L2's atomic unit, by
// the shape of the request (tools/hw-measure/README.md).  Every case runs
// `iters` atomicAdds per warp whose old value is unused (RED in the SASS),
// all warps on the same few words, so the unit that owns them is the
// bottleneck; cycles per request = kernel cycles / requests, once the
// empty launch's cycles are taken off.  `atomic_cost N` runs case N only
// (for warpsim exec), `atomic_cost` every case.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// mode: which lanes take part and which word each adds to
enum { SAME_WORD, WORD_PER_LANE, SECTOR_PER_LANE, LANE_MOD_K, LINE_PER_LANE, EMPTY };

__global__ void k(unsigned *buf, int mode, int iters, int lanes)
{
    int lane = threadIdx.x & 31;
    unsigned idx = 0;
    bool on = lane < lanes;
    switch (mode) {
    case SAME_WORD: idx = 0; break;
    case WORD_PER_LANE: idx = lane; break;        // consecutive words, 8 per sector
    case SECTOR_PER_LANE: idx = lane * 8; break;  // one word per 32 B sector
    case LINE_PER_LANE: idx = lane * 32; break;   // one word per 128 B line
    case LANE_MOD_K: idx = lane % lanes; on = true; break; // 32 lanes on `lanes` words
    default: on = false;
    }
    if (!on)
        return;
    for (int it = 0; it < iters; it++)
        atomicAdd(&buf[idx], 1u);
}

int main(int argc, char **argv)
{
    unsigned *buf;
    cudaMalloc(&buf, 1 << 20);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    int clk;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    struct { int mode, blocks, threads, iters, lanes; const char *what; } cases[] = {
        {EMPTY, 132, 256, 0, 0, "empty launch"},
        {SAME_WORD, 132, 256, 256, 1, "one word, 1 lane"},
        {SAME_WORD, 132, 256, 128, 2, "one word, 2 lanes"},
        {SAME_WORD, 132, 256, 64, 4, "one word, 4 lanes"},
        {SAME_WORD, 132, 256, 32, 8, "one word, 8 lanes"},
        {SAME_WORD, 132, 256, 16, 16, "one word, 16 lanes"},
        {SAME_WORD, 132, 256, 8, 32, "one word, 32 lanes"},
        {WORD_PER_LANE, 132, 256, 256, 2, "words of one sector, 2 lanes"},
        {WORD_PER_LANE, 132, 256, 256, 4, "words of one sector, 4 lanes"},
        {WORD_PER_LANE, 132, 256, 256, 8, "words of one sector, 8 lanes"},
        {WORD_PER_LANE, 132, 256, 128, 16, "words of one line, 16 lanes"},
        {WORD_PER_LANE, 132, 256, 128, 32, "words of one line, 32 lanes"},
        {SECTOR_PER_LANE, 132, 256, 256, 2, "sectors of one line, 2 lanes"},
        {SECTOR_PER_LANE, 132, 256, 128, 4, "sectors of one line, 4 lanes"},
        {SECTOR_PER_LANE, 132, 256, 64, 8, "sectors of 2 lines, 8 lanes"},
        {LINE_PER_LANE, 132, 256, 128, 2, "lines, 2 lanes"},
        {LINE_PER_LANE, 132, 256, 64, 4, "lines, 4 lanes"},
        {LANE_MOD_K, 132, 256, 16, 2, "32 lanes on 2 words"},
        {LANE_MOD_K, 132, 256, 32, 4, "32 lanes on 4 words"},
        {LANE_MOD_K, 132, 256, 64, 8, "32 lanes on 8 words"},
        {LANE_MOD_K, 132, 256, 64, 16, "32 lanes on 16 words"},
        {SAME_WORD, 1, 32, 1024, 32, "one SM, 1 warp, 32 lanes"},
        {SAME_WORD, 1, 64, 512, 32, "one SM, 2 warps, 32 lanes"},
        {SAME_WORD, 1, 128, 256, 32, "one SM, 4 warps, 32 lanes"},
        {SAME_WORD, 1, 256, 128, 32, "one SM, 8 warps, 32 lanes"},
        {SAME_WORD, 1, 1024, 32, 32, "one SM, 32 warps, 32 lanes"},
        {SAME_WORD, 1, 32, 4096, 1, "one SM, 1 warp, 1 lane"},
        {SAME_WORD, 1, 256, 1024, 1, "one SM, 8 warps, 1 lane"},
        {SAME_WORD, 1, 1024, 256, 1, "one SM, 32 warps, 1 lane"},
        {SAME_WORD, 8, 256, 128, 32, "8 SMs, 8 warps, 32 lanes"},
        {SAME_WORD, 32, 256, 32, 32, "32 SMs, 8 warps, 32 lanes"},
    };
    int only = argc > 1 ? atoi(argv[1]) : -1;
    int n = (int)(sizeof cases / sizeof cases[0]);
    for (int ci = 0; ci < n; ci++) {
        if (only >= 0 && ci != only)
            continue;
        auto &c = cases[ci];
        float best = 1e30f;
        for (int rep = 0; rep < 3; rep++) {
            cudaMemset(buf, 0, 1 << 20);
            cudaEventRecord(a);
            k<<<c.blocks, c.threads>>>(buf, c.mode, c.iters, c.lanes);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms;
            cudaEventElapsedTime(&ms, a, b);
            if (rep && ms < best)
                best = ms;
        }
        double requests = (double)c.blocks * (c.threads / 32) * c.iters;
        double cyc = best * 1e-3 * clk * 1e3;
        printf("%2d %-32s %4d x %4d iters %4d: %9.0f cycles, %.3f cycles/request\n", ci, c.what, c.blocks,
               c.threads, c.iters, cyc, requests ? cyc / requests : 0.0);
    }
    return 0;
}
