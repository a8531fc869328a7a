#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define TILE 16
__global__ void matMulTiled(const float *A, const float *B, float *C, int W) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0;
#pragma unroll 1
  for (int m = 0; m < W / TILE; m++) {
    As[ty][tx] = A[row * W + m * TILE + tx]; Bs[ty][tx] = B[(m * TILE + ty) * W + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * W + col] = acc;
}
__global__ void reduce(const double *in, double *out, int n) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  extern __shared__ double sm[];
  double v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  for (int o = 16; o > 0; o /= 2) v += w.shfl_down(v, o);
  if (w.thread_rank() == 0) sm[threadIdx.x / 32] = v;
  b.sync();
  if (threadIdx.x == 0) { double s = 0; for (int i = 0; i < blockDim.x / 32; i++) s += sm[i]; atomicAdd(out, s); }
}
__global__ void histo(const unsigned char *d, unsigned *h, int n) {
  __shared__ unsigned sh[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&sh[d[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&h[i], sh[i]);
}
__global__ void bitonic(int *v, int j, int k) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x, ixj = i ^ j;
  if (ixj > i) {
    if ((i & k) == 0) { if (v[i] > v[ixj]) { int t = v[i]; v[i] = v[ixj]; v[ixj] = t; } }
    else { if (v[i] < v[ixj]) { int t = v[i]; v[i] = v[ixj]; v[ixj] = t; } }
  }
}
__global__ void hello(int x) { if (threadIdx.x == 0) printf("hello %d %f\n", x, 1.5); }
struct Big { double a[5]; int b; };
__device__ __noinline__ Big mkbig(Big in, int k) { in.a[k & 3] += 1; in.b = k; return in; }
__global__ void bigk(Big *o) { o[threadIdx.x] = mkbig(o[threadIdx.x], threadIdx.x); }
