#include <cuda_fp16.h>
__constant__ float coeff[4] = {1.0f, 2.0f, 3.0f, 4.5f};
__device__ int gcount;
__device__ int *gptr = &gcount;
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ __noinline__ float twice(float x) { return 2.0f * x; }
__device__ __noinline__ float thrice(float x) { return 3.0f * x; }
typedef float (*fp_t)(float);
__device__ fp_t table[2] = {twice, thrice};
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void misc(float *out, double *d, int *ci, int sel) {
  __shared__ float tile[64];
  extern __shared__ float dyn[];
  float loc[8];
  int t = threadIdx.x;
  for (int k = 0; k < 8; k++) loc[k] = out[t + k * sel];
  tile[t % 64] = loc[sel & 7];
  dyn[t] = tile[(t + 1) % 64];
  __syncthreads();
  float v = dyn[t] + coeff[t & 3];
  v += __shfl_down_sync(0xffffffff, v, 16);
  atomicAdd(ci, fact(t));
  atomicAdd(out, 1.0f);
  atomicCAS(ci + 1, 0, t);
  fp_t f = table[sel & 1];
  v = f(v);
  d[t] = d[t] * 1.5 + (double)v;
  __half h = __float2half(v);
  out[t] = __half2float(h) + __shfl_xor_sync(0xffffffff, v, 1);
  out[t+1] = (float)__ballot_sync(0xffffffff, v > 0);
  *gptr += 1;
}
