// Many operand shapes nvcc 13 emits (atomics, halves, warp intrinsics, math
// library, shared tiles, printf, malloc, templates over five types, cache
// hints): the operand type checks must accept all of it.  dp4a and redux are
// left out (outside the supported PTX subset).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int gcount;
__constant__ float ctab[16];
__global__ void k_atomics(int *a, unsigned *u, float *f, double *d, unsigned long long *ull, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(a, 1); atomicSub(a+1, 2); atomicMax(a+2, i); atomicMin(a+3, i); atomicExch(a+4, i);
  atomicCAS(a+5, 0, i); atomicAnd(a+6, i); atomicOr(a+7, i); atomicXor(a+8, i);
  atomicInc(u, 100); atomicDec(u+1, 100); atomicAdd(f, 1.5f); atomicAdd(d, 2.5); atomicAdd(ull, 3ull);
  atomicMax(ull+1, (unsigned long long)i); atomicAdd(&gcount, 1);
}
__global__ void k_half(__half *h, __nv_bfloat16 *b, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = h[i]; __half2 y = __halves2half2(x, x);
  y = __hmul2(y, y); y = __hfma2(y, y, y);
  __nv_bfloat16 z = b[i];
  o[i] = __half2float(__low2half(y)) + __bfloat162float(z) + __half2float(hsqrt(x));
  h[i] = __float2half_rn(o[i]); b[i] = __float2bfloat16(o[i] * 2);
}
__global__ void k_warp(int *o, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i;
  unsigned m = __ballot_sync(0xffffffff, v & 1);
  v += __shfl_sync(0xffffffff, v, 3) + __shfl_up_sync(0xffffffff, v, 1) + __shfl_down_sync(0xffffffff, v, 2) + __shfl_xor_sync(0xffffffff, v, 4);
  float g = __shfl_xor_sync(0xffffffff, f[i % n], 1);
  v += __popc(m) + __clz(v) + __ffs(v) + __brev(v) + __any_sync(0xffffffff, v > 3) + __all_sync(0xffffffff, v > 0);
  v += __match_any_sync(0xffffffff, v & 7);
#if __CUDA_ARCH__ >= 800
#endif
  long long w = (long long)v * i; w /= (i + 1); w %= 7; unsigned long long uw = (unsigned long long)w >> (i & 63);
  v += (int)uw + __mul24(v, i) + __umulhi(v, i) + __sad(v, i, 3) + __byte_perm(v, i, 0x5410) + __funnelshift_l(v, i, 5);
  o[i] = v + (int)g + (int)__float_as_int(ctab[i & 15]);
}
__global__ void k_math(float *f, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];
  f[i] = sinf(x) + cosf(x) + tanf(x) + expf(x) + logf(x + 2) + powf(x, 2.5f) + sqrtf(x) + rsqrtf(x + 1) + erff(x) + atan2f(x, 2) + fmodf(x, 3) + __sinf(x) + __expf(x) + __fdividef(x, 3) + truncf(x) + roundf(x) + floorf(x) + ceilf(x) + fabsf(x) + fminf(x, 1) + copysignf(x, -1) + (float)(int)x + (float)(unsigned)x + (float)(long long)x + ldexpf(x, 3) + cbrtf(x) + hypotf(x, 2) + lgammaf(x + 1);
  double y = d[i];
  d[i] = sin(y) + exp(y) + log(y + 2) + pow(y, 1.5) + sqrt(y) + rsqrt(y + 1) + (double)(long long)y + fma(y, y, y) + y / (y + 1) + (double)(float)y + floor(y);
}
extern __shared__ float dyn[];
__global__ void k_shared(float *o, int n) {
  __shared__ float tile[32][33];
  __shared__ double dt[64];
  int t = threadIdx.x;
  tile[t % 32][t / 32] = t; dt[t % 64] = t; dyn[t] = t * 2;
  __syncthreads();
  float s = tile[(t + 1) % 32][t / 32] + dt[(t + 3) % 64] + dyn[(t + 5) % blockDim.x];
  s += __syncthreads_count(s > 3) + __syncthreads_or(s > 100) + __syncthreads_and(s > 0);
  cg::thread_block b = cg::this_thread_block(); b.sync();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  s += w.shfl(s, 0);
  if (t == 0) printf("block %d sum %f\n", blockIdx.x, s);
  o[blockIdx.x * blockDim.x + t] = s;
}
struct P { int a; float b; double c; char d[3]; };
__device__ __noinline__ P make(int i) { P p; p.a = i; p.b = i * 0.5f; p.c = i * 0.25; p.d[0] = i; p.d[1] = 1; p.d[2] = 2; return p; }
__device__ __noinline__ float recur(int n) { return n <= 0 ? 1.f : n * recur(n - 1); }
template <typename T> __global__ void k_tmpl(T *o, P p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  P q = make(i);
  T local[8];
  for (int j = 0; j < 8; j++) local[j] = (T)(j * i);
  o[i] = local[i & 7] + (T)q.a + (T)p.b + (T)q.c + (T)q.d[1] + (T)recur(i & 3);
  int *mp = (int *)malloc(16); if (mp) { mp[0] = i; o[i] += (T)mp[0]; free(mp); }
}
template __global__ void k_tmpl<float>(float *, P, int);
template __global__ void k_tmpl<double>(double *, P, int);
template __global__ void k_tmpl<long long>(long long *, P, int);
template __global__ void k_tmpl<short>(short *, P, int);
template __global__ void k_tmpl<unsigned char>(unsigned char *, P, int);
__global__ void k_ldg(const float *__restrict__ a, float4 *v, int2 *w, double2 *dd, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 x = v[i]; int2 y = w[i]; double2 z = dd[i];
  x.x += __ldg(a + i) + __ldcs(a + i) + __ldlu(a + i) + __ldcv(a + i);
  __stcs(a + i == 0 ? (float *)a : (float *)a + i, x.y); __stwt((float*)a + i, x.z);
  v[i] = x; w[i] = make_int2(y.y, y.x); dd[i] = make_double2(z.y, z.x);
  __threadfence(); __threadfence_block(); __nanosleep(10);
  unsigned long long c = clock64(); int c2 = clock(); v[i].w = (float)(c + c2 + __activemask());
}
