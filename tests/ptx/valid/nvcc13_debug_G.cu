__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n-1) + fib(n-2); }
__global__ void kf(int *o) { int loc[4]; for (int i=0;i<4;i++) loc[i]=fib(threadIdx.x+i); o[threadIdx.x] = loc[o[0]&3]; }
