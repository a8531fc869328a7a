// expansion.cu: how many machine instructions a PTX division, remainder,
// square root or reciprocal becomes where it runs, and what that costs
// (tools/hw-measure/README.md).  Each kernel runs ITERS iterations of one
// operation on values that change every iteration (so nothing is hoisted
// but what ptxas hoists: a reciprocal of a loop-invariant divisor); the
// `base` kernel is the same loop with an add.  Run under
//   ncu --metrics smsp__inst_executed.sum,sm__cycles_elapsed.max
// (SASS instructions per warp: inst_executed / warps; the difference to
// `base` over ITERS is the operation's length less one), or alone: cycles
// per operation per SM sub-partition, timed with events, on a grid of 32
// warps per SM.  `expansion N` runs kernel N only (for warpsim exec).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ITERS 64

// one loop: x advances by an LCG (integers) or a multiply-add (floats)
#define LOOP_U(T, EXPR)                                                    \
    T x = (T)(blockIdx.x * blockDim.x + threadIdx.x) * (T)2654435761u, acc = 0; \
    for (int i = 0; i < ITERS; i++) {                                      \
        acc += (EXPR);                                                     \
        x = x * (T)1664525u + (T)1013904223u;                              \
    }                                                                      \
    out[blockIdx.x * blockDim.x + threadIdx.x] = (unsigned long long)acc;

#define LOOP_F(T, EXPR)                                                    \
    T x = (T)(threadIdx.x + 1) * (T)0.37, acc = 0;                         \
    for (int i = 0; i < ITERS; i++) {                                      \
        acc += (EXPR);                                                     \
        x = x * (T)1.0001 + (T)0.5;                                        \
    }                                                                      \
    out[blockIdx.x * blockDim.x + threadIdx.x] = (unsigned long long)acc;

__global__ void base_u32(unsigned d, unsigned long long *out) { LOOP_U(unsigned, x + d) }
__global__ void div_u32(unsigned d, unsigned long long *out) { LOOP_U(unsigned, x / d) }
__global__ void rem_u32(unsigned d, unsigned long long *out) { LOOP_U(unsigned, x % d) }
__global__ void div_u32_var(unsigned d, unsigned long long *out) { LOOP_U(unsigned, d / ((x >> 20) | 1u)) }
__global__ void div_s32(unsigned d, unsigned long long *out) { LOOP_U(int, x / (int)d) }
__global__ void rem_s32(unsigned d, unsigned long long *out) { LOOP_U(int, x % (int)d) }
__global__ void div_u64(unsigned d, unsigned long long *out) { LOOP_U(unsigned long long, x / (d * 0x100000001ull)) }
__global__ void rem_u64(unsigned d, unsigned long long *out) { LOOP_U(unsigned long long, x % (d * 0x100000001ull)) }
__global__ void div_s64(unsigned d, unsigned long long *out) { LOOP_U(long long, x / (long long)(d * 0x100000001ull)) }
__global__ void div_u64_small(unsigned d, unsigned long long *out) { LOOP_U(unsigned long long, (x & 0xFFFFFFFFu) / (unsigned long long)d) }
__global__ void base_f32(unsigned d, unsigned long long *out) { float y = (float)d; LOOP_F(float, x + y) }
__global__ void div_f32(unsigned d, unsigned long long *out) { float y = (float)d; LOOP_F(float, x / y) }
__global__ void rcp_f32(unsigned d, unsigned long long *out) { LOOP_F(float, 1.0f / x) }
__global__ void sqrt_f32(unsigned d, unsigned long long *out) { LOOP_F(float, sqrtf(x)) }
__global__ void base_f64(unsigned d, unsigned long long *out) { double y = (double)d; LOOP_F(double, x + y) }
__global__ void div_f64(unsigned d, unsigned long long *out) { double y = (double)d; LOOP_F(double, x / y) }
__global__ void rcp_f64(unsigned d, unsigned long long *out) { LOOP_F(double, 1.0 / x) }
__global__ void sqrt_f64(unsigned d, unsigned long long *out) { LOOP_F(double, sqrt(x)) }

typedef void (*Kernel)(unsigned, unsigned long long *);

int main(int argc, char **argv)
{
    struct { Kernel k; const char *name; } ks[] = {
        {base_u32, "base_u32"}, {div_u32, "div_u32"}, {rem_u32, "rem_u32"}, {div_u32_var, "div_u32_var"},
        {div_s32, "div_s32"}, {rem_s32, "rem_s32"}, {div_u64, "div_u64"}, {rem_u64, "rem_u64"},
        {div_s64, "div_s64"}, {div_u64_small, "div_u64_small"}, {base_f32, "base_f32"}, {div_f32, "div_f32"},
        {rcp_f32, "rcp_f32"}, {sqrt_f32, "sqrt_f32"}, {base_f64, "base_f64"}, {div_f64, "div_f64"},
        {rcp_f64, "rcp_f64"}, {sqrt_f64, "sqrt_f64"},
    };
    int sms, clk;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    const int blocks = sms * 4, threads = 256; // 32 warps per SM
    unsigned long long *out;
    cudaMalloc(&out, sizeof *out * blocks * threads);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    int only = argc > 1 ? atoi(argv[1]) : -1;
    int n = (int)(sizeof ks / sizeof ks[0]);
    for (int i = 0; i < n; i++) {
        if (only >= 0 && i != only)
            continue;
        float best = 1e30f;
        for (int rep = 0; rep < 3; rep++) {
            cudaEventRecord(a);
            ks[i].k<<<blocks, threads>>>(7u + i, out);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms;
            cudaEventElapsedTime(&ms, a, b);
            if (rep && ms < best)
                best = ms;
        }
        double cyc = best * 1e-3 * clk * 1e3;
        // per SM sub-partition: 8 warps of 4 per SM, ITERS operations each
        printf("%2d %-14s %9.0f cycles, %.2f cycles per warp operation per SMSP\n", i, ks[i].name, cyc,
               cyc / (8.0 * ITERS));
    }
    return 0;
}
