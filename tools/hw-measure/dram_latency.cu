// dram_latency.cu: how long a load that misses L2 takes (tools/hw-measure/README.md).
// One thread chases pointers through lines that are not in L2 (the chain
// is written, then a larger buffer is written over the L2 so that it holds
// none of it), STEPS dependent ld.global.cg, timed with clock64: cycles per
// step is the latency of an L2 miss, DRAM included, as one warp sees it on
// an idle GPU.  Strides from one line to 64 KiB show what the DRAM page
// and the TLB add.  Then every warp of a full grid loads one line per
// iteration, each load waiting for the last (a grid-stride sum without
// unrolling): cycles per iteration under that load.  `dram_latency N` runs
// case N only (for warpsim exec).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define STEPS 512

__global__ void build(unsigned long long *buf, unsigned long long stride_words, int steps)
{
    for (int s = threadIdx.x + blockIdx.x * blockDim.x; s < steps; s += blockDim.x * gridDim.x)
        buf[(unsigned long long)s * stride_words] = (unsigned long long)&buf[(unsigned long long)(s + 1) * stride_words];
}

__global__ void chase(unsigned long long *buf, long long *cycles, unsigned long long *sink)
{
    unsigned long long p = (unsigned long long)buf;
    long long t0 = clock64();
    for (int s = 0; s < STEPS; s++)
        asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = p;
}

// one load per iteration, each waiting for the last: s += in[i] where the
// next index comes from the value loaded (always 0), so nothing overlaps
__global__ void stream(const unsigned *in, int n, long long *cycles, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    unsigned s = 0;
    long long t0 = clock64();
    int iters = 0;
    for (; i < n; iters++) {
        unsigned v;
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(in + i));
        s += v;
        i += stride + (int)(v & 1);
    }
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *cycles = iters ? (t1 - t0) / iters : 0;
}

int main(int argc, char **argv)
{
    const size_t big = 512ull << 20;
    unsigned long long *buf, *sink;
    unsigned char *flush;
    long long *cycles;
    unsigned *out;
    if (cudaMalloc(&buf, big) != cudaSuccess || cudaMalloc(&flush, 256u << 20) != cudaSuccess ||
        cudaMalloc(&cycles, sizeof *cycles) != cudaSuccess || cudaMalloc(&sink, sizeof *sink) != cudaSuccess ||
        cudaMalloc(&out, 264 * 256 * sizeof *out) != cudaSuccess)
        return 1;
    struct { unsigned long long stride_bytes; const char *what; } cases[] = {
        {128, "chase, 128 B apart"},
        {4096 + 128, "chase, 4 KiB + 128 B apart"},
        {65536 + 128, "chase, 64 KiB + 128 B apart"},
        {0, "every warp, one load per iteration"},
    };
    int only = argc > 1 ? atoi(argv[1]) : -1;
    for (int c = 0; c < 4; c++) {
        if (only >= 0 && c != only)
            continue;
        long long best = -1, host;
        for (int rep = 0; rep < 3; rep++) {
            if (cases[c].stride_bytes) {
                build<<<64, 256>>>(buf, cases[c].stride_bytes / 8, STEPS + 1);
                cudaMemset(flush, rep, 256u << 20); // L2 holds none of the chain now
                chase<<<1, 1>>>(buf, cycles, sink);
            } else {
                cudaMemset(buf, 0, 16u << 20);
                cudaMemset(flush, rep, 256u << 20);
                stream<<<264, 256>>>((const unsigned *)buf, 4 << 20, cycles, out);
            }
            if (cudaMemcpy(&host, cycles, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess)
                return 1;
            if (best < 0 || host < best)
                best = host;
        }
        if (cases[c].stride_bytes)
            printf("%d %-36s %.1f cycles per step\n", c, cases[c].what, (double)best / STEPS);
        else
            printf("%d %-36s %lld cycles per iteration\n", c, cases[c].what, best);
    }
    return 0;
}
