// store_loop.cu — what a global store inside a loop costs the loads after it.
//
// traces/opencl_vs_cuda/p5 (a matrix product that stores its running sum to
// C on every iteration) takes 44,516 cycles on the H200 and 14,408 in
// warpsim.  Each kernel below runs the same 64-step dot product per thread,
// on 64 x 64 floats in 16 x 16 blocks (p5's launch), between two clock64()
// reads, and differs in one thing:
//   each        sum stored to C every iteration (p5; C may alias A and B)
//   each_far    the same, into a buffer the loads never touch
//   end         sum stored once, after the loop
//   each_rst    as `each`, with __restrict__ pointers
//   ptx_each    p5's loop body as inline PTX: ld, ld, fma, st, pointer steps
//   ptx_noload  the same loop with its two loads replaced by adds
// Build and run on the GPU machine: nvcc -arch=sm_90 -o store_loop
// store_loop.cu && ./store_loop; cuobjdump -sass store_loop shows the loops.
#include <cstdio>
#include <cuda_runtime.h>

#define N 64
#define BLOCKS 16          /* 4 x 4 blocks */
#define WARPS 8            /* of 16 x 16 threads */
#define FAR (1024 * 1024)  /* each_far's buffer: floats past C */

__device__ __forceinline__ void note(long long t0, long long *cycles)
{
    long long t1 = clock64();
    unsigned warp = (threadIdx.y * blockDim.x + threadIdx.x) / 32, block = blockIdx.y * gridDim.x + blockIdx.x;
    if ((threadIdx.y * blockDim.x + threadIdx.x) % 32 == 0)
        cycles[block * WARPS + warp] = t1 - t0;
}

#define INDEXES                                                                                                        \
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;                      \
    int idx = row * n + col

/* the dot product, storing the running sum to OUT[idx] on every step */
#define STORE_EACH(OUT)                                                                                                \
    long long t0 = clock64();                                                                                          \
    float sum = 0;                                                                                                     \
    (OUT)[idx] = 0;                                                                                                    \
    for (int k = 0; k < n; k++) {                                                                                      \
        sum = fmaf(A[row * n + k], B[k * n + col], sum);                                                               \
        (OUT)[idx] = sum;                                                                                              \
    }                                                                                                                  \
    note(t0, cycles)

__global__ void each(const float *A, const float *B, float *C, int n, long long *cycles)
{
    INDEXES;
    STORE_EACH(C);
}

__global__ void each_far(const float *A, const float *B, float *C, int n, long long *cycles)
{
    INDEXES;
    STORE_EACH(C + FAR);
}

__global__ void end(const float *A, const float *B, float *C, int n, long long *cycles)
{
    INDEXES;
    long long t0 = clock64();
    float sum = 0;
    for (int k = 0; k < n; k++)
        sum = fmaf(A[row * n + k], B[k * n + col], sum);
    C[idx] = sum;
    note(t0, cycles);
}

__global__ void each_rst(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int n,
                         long long *cycles)
{
    INDEXES;
    STORE_EACH(C);
}

/* p5's loop as printed, timed: a, b step through A's row and B's column */
#define PTX_LOOP(LOADS)                                                                                                \
    long long t0 = clock64();                                                                                          \
    float sum = 0;                                                                                                     \
    asm volatile("{ .reg .pred p; .reg .f32 x, y; .reg .s32 k; .reg .u64 pa, pb, step;\n\t"                           \
                 "mov.u64 pa, %1; mov.u64 pb, %2; cvt.s64.s32 step, %4; shl.b64 step, step, 2; mov.s32 k, 0;\n"       \
                 "LOOP:\n\t" LOADS "fma.rn.f32 %0, y, x, %0;\n\t"                                                      \
                 "st.global.f32 [%3], %0;\n\t"                                                                         \
                 "add.s64 pb, pb, step; add.s64 pa, pa, 4; add.s32 k, k, 1;\n\t"                                       \
                 "setp.lt.s32 p, k, %4;\n\t"                                                                           \
                 "@p bra LOOP; }"                                                                                      \
                 : "+f"(sum)                                                                                           \
                 : "l"(A + row * n), "l"(B + col), "l"(C + idx), "r"(n)                                                \
                 : "memory");                                                                                  \
    note(t0, cycles)

__global__ void ptx_each(const float *A, const float *B, float *C, int n, long long *cycles)
{
    INDEXES;
    PTX_LOOP("ld.global.f32 x, [pb];\n\tld.global.f32 y, [pa];\n\t");
}

__global__ void ptx_noload(const float *A, const float *B, float *C, int n, long long *cycles)
{
    INDEXES;
    PTX_LOOP("cvt.rn.f32.u64 x, pb;\n\tcvt.rn.f32.u64 y, pa;\n\t");
}

typedef void (*Kernel)(const float *, const float *, float *, int, long long *);

int main()
{
    float *A, *B, *C;
    long long *cycles, host[BLOCKS * WARPS];
    size_t bytes = N * N * sizeof(float);
    if (cudaMalloc(&A, bytes) != cudaSuccess || cudaMalloc(&B, bytes) != cudaSuccess ||
        cudaMalloc(&C, FAR * sizeof(float) + bytes) != cudaSuccess ||
        cudaMalloc(&cycles, sizeof host) != cudaSuccess) {
        fprintf(stderr, "store_loop: cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(A, 0, bytes);
    cudaMemset(B, 0, bytes);
    struct { const char *name; Kernel k; } kernels[] = {
        {"each", each}, {"each_far", each_far}, {"end", end}, {"each_rst", each_rst},
        {"ptx_each", ptx_each}, {"ptx_noload", ptx_noload},
    };
    for (auto &k : kernels) {
        for (int rep = 0; rep < 2; rep++) { /* the second run is the warm one */
            cudaEvent_t a, b;
            cudaEventCreate(&a);
            cudaEventCreate(&b);
            cudaEventRecord(a);
            k.k<<<dim3(4, 4), dim3(16, 16)>>>(A, B, C, N, cycles);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms;
            cudaEventElapsedTime(&ms, a, b);
            cudaEventDestroy(a);
            cudaEventDestroy(b);
            cudaMemcpy(host, cycles, sizeof host, cudaMemcpyDeviceToHost);
            long long lo = host[0], hi = host[0];
            for (int i = 1; i < BLOCKS * WARPS; i++) {
                lo = host[i] < lo ? host[i] : lo;
                hi = host[i] > hi ? host[i] : hi;
            }
            if (rep)
                printf("%-10s warp cycles %lld..%lld (%.1f..%.1f per iteration), kernel %.1f us\n", k.name, lo, hi,
                       (double)lo / N, (double)hi / N, ms * 1000);
        }
    }
    cudaError_t e = cudaGetLastError();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
