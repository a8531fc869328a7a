// sfu_tables.cu — measures the GPU's SFU approximations and writes the
// tables warpsim reproduces them from (isa/sfu/README.md).  Run on the GPU
// machine: nvcc -O2 -Xcompiler -ffp-contract=off -I../../src -o sfu_tables
// sfu_tables.cu && ./sfu_tables OUTDIR.  Each table is one entry per input
// class (2^23 of them), the GPU's result minus sfu_ref.h's reference in
// units of the last place, which must lie in [-2, 1]: stored as 2 bits
// (entry + 2), four entries a byte, low bits first.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include "sfu_ref.h"

enum { T_RCP, T_RSQRT_EVEN, T_RSQRT_ODD, T_EX2_POS, T_EX2_NEG, T_SQRT_EVEN, T_SQRT_ODD, T_COUNT };
static const char *const names[T_COUNT] = {"rcp", "rsqrt_even", "rsqrt_odd", "ex2_pos", "ex2_neg", "sqrt_even",
                                           "sqrt_odd"};

// The input of entry i: the mantissa i on [1, 2) (rcp, rsqrt), on [2, 4)
// (rsqrt of an odd exponent), or the fraction i / 2^23 of ex2, positive or
// negative.
__host__ __device__ static float input_of(int t, uint32_t i)
{
    union { uint32_t u; float f; } v;
    switch (t) {
    case T_RCP: case T_RSQRT_EVEN: case T_SQRT_EVEN: v.u = 0x3f800000u | i; return v.f;
    case T_RSQRT_ODD: case T_SQRT_ODD: v.u = 0x40000000u | i; return v.f;
    case T_EX2_POS: return (float)i * (1.0f / 8388608.0f);
    default: return -(float)i * (1.0f / 8388608.0f);
    }
}

__global__ void measure(int t, uint32_t *out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = input_of(t, i), y;
    if (t == T_RCP)
        asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (t == T_RSQRT_EVEN || t == T_RSQRT_ODD)
        asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (t == T_SQRT_EVEN || t == T_SQRT_ODD)
        asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    else
        asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    out[i] = __float_as_uint(y);
}

static SfuEx2Steps steps;

static float reference(int t, uint32_t i)
{
    double x = (double)input_of(t, i);
    if (t == T_SQRT_EVEN || t == T_SQRT_ODD)
        return sfu_ref_sqrt(x);
    return t == T_RCP ? sfu_ref_rcp(x) : t <= T_RSQRT_ODD ? sfu_ref_rsqrt(x) : sfu_ref_ex2(&steps, i, t == T_EX2_NEG);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sfu_tables OUTDIR\n");
        return 2;
    }
    uint32_t *d, *h = (uint32_t *)malloc(SFU_TABLE_ENTRIES * 4);
    uint8_t *packed = (uint8_t *)malloc(SFU_TABLE_ENTRIES / 4);
    if (cudaMalloc(&d, SFU_TABLE_ENTRIES * 4) != cudaSuccess || !h || !packed) {
        fprintf(stderr, "sfu_tables: out of memory\n");
        return 1;
    }
    sfu_ref_ex2_steps(&steps);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("GPU: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
    for (int t = 0; t < T_COUNT; t++) {
        measure<<<SFU_TABLE_ENTRIES / 256, 256>>>(t, d);
        cudaError_t e = cudaMemcpy(h, d, SFU_TABLE_ENTRIES * 4, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            fprintf(stderr, "sfu_tables: %s\n", cudaGetErrorString(e));
            return 1;
        }
        memset(packed, 0, SFU_TABLE_ENTRIES / 4);
        long count[4] = {0};
        for (uint32_t i = 0; i < SFU_TABLE_ENTRIES; i++) {
            float r = reference(t, i);
            uint32_t rb;
            memcpy(&rb, &r, 4);
            long delta = (long)(int32_t)h[i] - (long)(int32_t)rb;
            if (delta < -2 || delta > 1) {
                fprintf(stderr, "sfu_tables: %s entry %u: the GPU's %08x is %ld units from the reference %08x\n",
                        names[t], i, h[i], delta, rb);
                return 1;
            }
            count[delta + 2]++;
            packed[i / 4] |= (uint8_t)((delta + 2) << (2 * (i % 4)));
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bin", argv[1], names[t]);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(packed, 1, SFU_TABLE_ENTRIES / 4, f) != SFU_TABLE_ENTRIES / 4 || fclose(f)) {
            fprintf(stderr, "sfu_tables: cannot write %s\n", path);
            return 1;
        }
        printf("%-11s -2: %ld  -1: %ld  0: %ld  +1: %ld\n", names[t], count[0], count[1], count[2], count[3]);
    }
    return 0;
}
