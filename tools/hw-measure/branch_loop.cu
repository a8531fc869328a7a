// branch_loop.cu — what a tight loop's taken branch costs on the real GPU.
//
// One block of 1-8 warps runs, between two clock64() reads:
//   loop  the PTX loop of traces/dec2zero (add -4; setp.gt; @p bra) for
//         100 and 1000 iterations;
//   fma   64 dependent fma.rn.f32 (the FMA latency, for comparison).
// Build and run on the GPU machine: nvcc -arch=sm_90 -o branch_loop
// branch_loop.cu && ./branch_loop; read the loop's SASS with
// cuobjdump -sass branch_loop: ptxas unrolls the loop 4x (the SASS loop
// steps -16), so a SASS iteration is 4 of the printed PTX iterations.
// docs/validation.md (tools/validate.py) quotes the H200's numbers.
#include <cstdio>
#include <cuda_runtime.h>

#define F4 "fma.rn.f32 f, f, f, f;\n\t" "fma.rn.f32 f, f, f, f;\n\t" "fma.rn.f32 f, f, f, f;\n\t" "fma.rn.f32 f, f, f, f;\n\t"
#define F16 F4 F4 F4 F4

__global__ void loop_kernel(int n, int *out, long long *cycles)
{
    int r;
    long long t0 = clock64();
    asm volatile("{ .reg .pred p; .reg .s32 r; mov.s32 r, %1;\n"
                 " LOOP: add.s32 r, r, -4;\n setp.gt.s32 p, r, 4;\n @p bra LOOP;\n mov.s32 %0, r; }"
                 : "=r"(r) : "r"(n));
    long long t1 = clock64();
    out[threadIdx.x] = r;
    if (threadIdx.x % 32 == 0)
        cycles[threadIdx.x / 32] = t1 - t0;
}

__global__ void fma_kernel(float x, float *out, long long *cycles)
{
    float v;
    long long t0 = clock64();
    asm volatile("{ .reg .f32 f; mov.f32 f, %1;\n\t" F16 F16 F16 F16 "mov.f32 %0, f; }" : "=f"(v) : "f"(x));
    long long t1 = clock64();
    out[threadIdx.x] = v;
    if (threadIdx.x % 32 == 0)
        cycles[threadIdx.x / 32] = t1 - t0;
}

int main()
{
    int *out;
    long long *cycles, host[8];
    if (cudaMalloc(&out, 8 * 32 * sizeof(int)) != cudaSuccess || cudaMalloc(&cycles, sizeof host) != cudaSuccess) {
        fprintf(stderr, "branch_loop: cudaMalloc failed\n");
        return 1;
    }
    for (int warps = 1; warps <= 8; warps *= 2) {
        for (int iters : {100, 1000}) {
            for (int rep = 0; rep < 2; rep++) /* the second run is the warm one */
                loop_kernel<<<1, 32 * warps>>>(4 + 4 * iters, out, cycles);
            cudaMemcpy(host, cycles, sizeof(long long) * warps, cudaMemcpyDeviceToHost);
            printf("loop warps %d iterations %d: %lld cycles (%.2f per PTX iteration)\n", warps, iters, host[0],
                   (double)host[0] / iters);
        }
        for (int rep = 0; rep < 2; rep++)
            fma_kernel<<<1, 32 * warps>>>(1.0f, (float *)out, cycles);
        cudaMemcpy(host, cycles, sizeof(long long) * warps, cudaMemcpyDeviceToHost);
        printf("fma64 warps %d: %lld cycles\n", warps, host[0]);
    }
    cudaError_t e = cudaGetLastError();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
