#include <cuda_fp16.h>
struct P { int a; float b; };
__device__ __noinline__ P mk(int a, float b, double c) { P p; p.a = a + (int)c; p.b = b; return p; }
__device__ __noinline__ void nothing() { }
__global__ void __launch_bounds__(256, 2) k2(P *out, __half *h, double *dd, unsigned long long *u) {
  int t = threadIdx.x + blockIdx.y;
  out[t] = mk(t, 1.5f, dd[t]);
  nothing();
  __half2 x = __halves2half2(h[0], h[1]);
  x = __hadd2(x, x);
  h[t] = __hmul(__low2half(x), __high2half(x));
  dd[t] = sqrt(dd[t]) / 3.0 + __shfl_sync(0xffffffff, dd[t], 0);
  atomicMax((int*)u, t);
  atomicExch(u + 1, 5ull);
  atomicAdd(dd + 2, 1.0);
  u[2] = __popcll(u[3]) + __clzll(u[4]) + __brev(t) + __ffs(t);
  if (t == 0) __trap();
}
