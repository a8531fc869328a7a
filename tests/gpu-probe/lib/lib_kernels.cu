// Library-style kernels whose outputs were measured on an H200 (see ../README.md).
// Each exercises code nvcc 13 emits for sm_90 that the traces/ workloads do not.
#include <cuda_fp16.h>

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ float twice(float x) { return 2.0f * x; }
__device__ __noinline__ float square(float x) { return x * x; }
typedef float (*unary)(float);
__device__ unary table[2] = {twice, square};

// recursion, function pointers, divergent calls
extern "C" __global__ void calls(const int *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i] & 15;
    float r = (float)fib(v);
    if (i & 1) r += table[(i >> 1) & 1]((float)v);
    out[i] = r;
}

// warp intrinsics: xor shuffles with width, ballot, popc, ffs, brev, clz, any/all
extern "C" __global__ void warp_ops(const unsigned *in, unsigned *out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    unsigned s = v;
    for (int o = 8; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o, 16);
    unsigned b = __ballot_sync(0xffffffff, v & 1);
    unsigned a = __any_sync(0xffffffff, v == 7) | (__all_sync(0xffffffff, v != 0) << 1);
    unsigned u = __shfl_up_sync(0xffffffff, v, 2, 8);
    unsigned d = __shfl_down_sync(0xffffffff, v, 3);
    out[i * 8 + 0] = s;
    out[i * 8 + 1] = b;
    out[i * 8 + 2] = a;
    out[i * 8 + 3] = __popc(v) + (__ffs(v) << 8);
    out[i * 8 + 4] = __brev(v) ^ __clz(v);
    out[i * 8 + 5] = u;
    out[i * 8 + 6] = d;
    out[i * 8 + 7] = __umulhi(v, 0x9E3779B9u) + __mul24(v, 77) + (v % 13) + (v / 7);
}

// atomics: CAS loop float max, inc wrap, exch and min on shared, syncthreads_count/or
__device__ float atomicMaxFloat(float *addr, float val) {
    int *ia = (int *)addr;
    int old = *ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break;
        old = atomicCAS(ia, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}
extern "C" __global__ void atomics(const float *in, float *fmax, unsigned *counters, int *out, int n) {
    __shared__ int smin;
    __shared__ unsigned sexch;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) { smin = 1 << 30; sexch = 0; }
    __syncthreads();
    float v = i < n ? in[i] : -1e30f;
    atomicMaxFloat(fmax, v);
    atomicInc(&counters[0], 100);
    atomicAdd(&counters[1], (unsigned)(v > 0.0f));
    atomicMin(&smin, (int)(v * 1000.0f));
    atomicExch(&sexch, i);
    int cnt = __syncthreads_count(v > 0.5f);
    int any = __syncthreads_or(v > 0.99f);
    if (threadIdx.x == 0) {
        out[blockIdx.x * 3 + 0] = smin;
        out[blockIdx.x * 3 + 1] = cnt;
        out[blockIdx.x * 3 + 2] = any;
    }
}

// 2D/3D indexing, dynamic shared memory, half precision
extern "C" __global__ void grid3d(const float *in, float *out, __half *hout, int nx, int ny) {
    extern __shared__ float tile[];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int idx = (z * ny + y) * nx + x;
    tile[t] = in[idx];
    __syncthreads();
    int r = blockDim.x * blockDim.y - 1 - t;
    float v = tile[r] * 0.5f + (float)(z + 1);
    out[idx] = v;
    __half h = __float2half(v);
    hout[idx] = __hadd(h, __float2half(1.0f / (float)(x + 1)));
}

// double-precision library math and integer/float conversions
extern "C" __global__ void f64math(const double *in, double *out, long long *iout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i];
    out[i * 6 + 0] = sqrt(fabs(x));
    out[i * 6 + 1] = exp(x / 10.0);
    out[i * 6 + 2] = log(fabs(x) + 1.0);
    out[i * 6 + 3] = sin(x) * cos(x);
    out[i * 6 + 4] = pow(fabs(x), 1.5);
    out[i * 6 + 5] = rsqrt(fabs(x) + 0.5) + cbrt(x);
    iout[i * 2 + 0] = (long long)(x * 1e6);
    iout[i * 2 + 1] = llrint(x * 3.5) + __double2int_rn(x);
}
