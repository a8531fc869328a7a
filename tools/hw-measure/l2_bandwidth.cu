// l2_bandwidth.cu — how many sectors per cycle the L2 serves to loads that
// bypass L1 (ld.global.cg), for three address patterns over a table that
// fits in L2: random 32 B sectors (one per lane), random 128 B lines (a
// warp per line) and a coalesced stream of float4s.  Run it under
//   ncu --metrics sm__cycles_elapsed.max,lts__t_sectors_op_read.sum,gpu__time_duration.sum ./l2_bandwidth
// and divide the sectors by the cycles; `warpsim exec ./l2_bandwidth`
// gives warpsim's cycles for the same launches.  Each kernel runs after a
// warm-up pass over the table, so its loads hit in L2.
#include <cstdio>
#include <cstdlib>

#define TABLE_BYTES (8u << 20)   // 8 MiB: in the L2 of every GPU since Volta
#define SECTORS (TABLE_BYTES / 32u)

__global__ void warm(const float4 *t, float *out)
{
    float s = 0.f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < TABLE_BYTES / 16u; i += gridDim.x * blockDim.x)
        s += __ldcg(&t[i]).x;
    if (s == 12345.f)
        out[0] = s;
}

// every lane a random sector; 8 independent loads per round
__global__ void randomSectors(const float *t, int rounds, float *out)
{
    unsigned x = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u + 12345u;
    float s = 0.f;
    for (int r = 0; r < rounds; r++) {
#pragma unroll
        for (int k = 0; k < 8; k++) {
            x = x * 1664525u + 1013904223u;
            s += __ldcg(&t[((x >> 7) % SECTORS) * 8u]);
        }
    }
    if (s == 12345.f)
        out[0] = s;
}

// every warp a random 128 B line, a lane per word
__global__ void randomLines(const float *t, int rounds, float *out)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32u, lane = threadIdx.x % 32u;
    unsigned x = warp * 2654435761u + 12345u;
    float s = 0.f;
    for (int r = 0; r < rounds; r++) {
#pragma unroll
        for (int k = 0; k < 8; k++) {
            x = x * 1664525u + 1013904223u;
            s += __ldcg(&t[((x >> 7) % (SECTORS / 4u)) * 32u + lane]);
        }
    }
    if (s == 12345.f)
        out[0] = s;
}

// a coalesced stream of float4s through the table, round after round
__global__ void streamFloat4(const float4 *t, int rounds, float *out)
{
    unsigned n = TABLE_BYTES / 16u, stride = gridDim.x * blockDim.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int r = 0; r < rounds; r++) {
#pragma unroll
        for (int k = 0; k < 8; k++) {
            s += __ldcg(&t[i % n]).x;
            i += stride;
        }
    }
    if (s == 12345.f)
        out[0] = s;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 64;
    float *t, *out;
    if (cudaMalloc(&t, TABLE_BYTES) != cudaSuccess || cudaMalloc(&out, 4) != cudaSuccess) {
        fprintf(stderr, "l2_bandwidth: cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(t, 0, TABLE_BYTES);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    dim3 grid(sms * 8), block(256);  // 64 warps per SM
    warm<<<grid, block>>>((const float4 *)t, out);
    randomSectors<<<grid, block>>>(t, rounds, out);
    warm<<<grid, block>>>((const float4 *)t, out);
    randomLines<<<grid, block>>>(t, rounds, out);
    warm<<<grid, block>>>((const float4 *)t, out);
    streamFloat4<<<grid, block>>>((const float4 *)t, rounds, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("l2_bandwidth: %d SMs, %d rounds of 8 loads per thread: %s\n", sms, rounds, cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
