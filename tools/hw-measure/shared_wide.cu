// shared_wide.cu: shared-memory wavefronts of 4, 8 and 16-byte loads by address pattern
// (tools/hw-measure/README.md).  One warp per launch, REPS loads per lane; run it under
//   ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum
// and divide the wavefronts by the requests.  Each launch's line on stdout names its pattern.
#include <cstdio>
#include <cuda_runtime.h>
#define REPS 64

// the element index lane l reads, for pattern p
__device__ int pick(int p, int l)
{
    switch (p) {
    case 0: return 0;            // every lane the same element
    case 1: return l;            // consecutive
    case 2: return l >> 1;       // pairs share
    case 3: return l >> 2;       // fours share
    case 4: return l >> 3;       // eights share: 4 distinct, consecutive
    case 5: return l >> 4;       // half-warps share: 2 distinct, consecutive
    case 6: return l & 1;        // 2 distinct, alternating
    case 7: return l & 3;        // 4 distinct, repeating
    case 8: return l & 7;        // 8 distinct, repeating
    case 9: return l & 15;       // 16 distinct, repeating
    case 10: return 2 * l;       // stride 2 elements
    case 11: return (l >> 3) * 8; // 4 distinct, 8 elements apart
    default: return 0;
    }
}

template <typename T> __global__ void k(T *out, int p)
{
    __shared__ T buf[1024];
    int l = threadIdx.x;
    for (int i = l; i < 1024; i += 32)
        buf[i] = T{};
    __syncthreads();
    int idx = pick(p, l);
    T acc{};
    for (int j = 0; j < REPS; j++) {
        T v = buf[(idx + j * 32) & 1023];   // 32 elements on: the same banks
        acc = acc + v;
    }
    out[l] = acc;
}

__device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }

int main()
{
    float4 *out;
    cudaMalloc(&out, 32 * sizeof(float4));
    for (int p = 0; p < 12; p++) {
        k<float><<<1, 32>>>((float *)out, p);
        cudaDeviceSynchronize();
        printf("4B pattern %d\n", p);
        k<float2><<<1, 32>>>((float2 *)out, p);
        cudaDeviceSynchronize();
        printf("8B pattern %d\n", p);
        k<float4><<<1, 32>>>(out, p);
        cudaDeviceSynchronize();
        printf("16B pattern %d\n", p);
    }
    return cudaGetLastError() != cudaSuccess;
}
