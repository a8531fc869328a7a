// atomics.cu — simpleAtomicIntrinsics-style: every integer atomic on global
// memory (add, sub, exch, max, min, inc, dec, cas, and, or, xor), the same
// on shared memory, float and double atomicAdd, and an atomicCAS loop
// building a float max; the host recomputes each result.
#include <cmath>
#include "sample_helpers.h"

__global__ void globalAtomics(int *g_odata)
{
    const unsigned tid = blockDim.x * blockIdx.x + threadIdx.x;
    atomicAdd(&g_odata[0], 10);
    atomicExch(&g_odata[1], tid);
    atomicMax(&g_odata[2], tid);
    atomicMin(&g_odata[3], tid);
    atomicInc((unsigned int *)&g_odata[4], 17);
    atomicDec((unsigned int *)&g_odata[5], 137);
    atomicCAS(&g_odata[6], tid - 1, tid);
    atomicAnd(&g_odata[7], 2 * tid + 7);
    atomicOr(&g_odata[8], 1 << (tid % 32));
    atomicXor(&g_odata[9], tid);
    atomicSub(&g_odata[10], 3);
}

__global__ void sharedAtomics(int *g_odata)
{
    __shared__ int s[11];
    const unsigned tid = threadIdx.x;
    if (tid == 0) {
        s[0] = 0; s[1] = 0; s[2] = -(1 << 30); s[3] = 1 << 30; s[4] = 0; s[5] = 0;
        s[6] = 0; s[7] = 0xff; s[8] = 0; s[9] = 0; s[10] = 1000;
    }
    __syncthreads();
    atomicAdd(&s[0], 10);
    atomicExch(&s[1], 1);
    atomicMax(&s[2], (int)tid);
    atomicMin(&s[3], (int)tid);
    atomicInc((unsigned int *)&s[4], 17);
    atomicDec((unsigned int *)&s[5], 137);
    atomicCAS(&s[6], (int)tid - 1, (int)tid);
    atomicAnd(&s[7], 2 * (int)tid + 7);
    atomicOr(&s[8], 1 << (tid % 32));
    atomicXor(&s[9], (int)tid);
    atomicSub(&s[10], 3);
    __syncthreads();
    if (tid < 11)
        g_odata[blockIdx.x * 11 + tid] = s[tid];
}

__device__ float atomicMaxFloat(float *addr, float value)
{
    int *as_int = (int *)addr;
    int old = *as_int, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(as_int, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void floatAtomics(const float *in, float *sum, double *dsum, float *fmax, unsigned long long *u64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicAdd(sum, in[i]);
    atomicAdd(dsum, (double)in[i]);
    atomicMaxFloat(fmax, in[i]);
    atomicAdd(u64, 1ull << 33);
    atomicMax(u64 + 1, (unsigned long long)i * 1000003ull);
}

static bool checkGlobal(const int *d, int len)
{
    int v = 0;
    bool ok = true;
    ok &= d[0] == 10 * len;
    ok &= d[1] >= 0 && d[1] < len;
    v = -(1 << 8);
    for (int i = 0; i < len; i++) v = i > v ? i : v;
    ok &= d[2] == v;
    ok &= d[3] == 0;
    /* inc/dec wrap: the final value is the same in any order */
    unsigned limit = 17, inc = 0;
    for (int i = 0; i < len; i++) inc = inc >= limit ? 0 : inc + 1;
    ok &= (unsigned)d[4] == inc;
    limit = 137;
    unsigned dec = 0;
    for (int i = 0; i < len; i++) dec = (dec == 0 || dec > limit) ? limit : dec - 1;
    ok &= (unsigned)d[5] == dec;
    ok &= d[6] >= 0 && d[6] <= len; /* a CAS chain from 0 */
    v = 0xff;
    for (int i = 0; i < len; i++) v &= 2 * i + 7;
    ok &= d[7] == v;
    v = 0;
    for (int i = 0; i < len; i++) v |= 1 << (i % 32);
    ok &= d[8] == v;
    v = 0;
    for (int i = 0; i < len; i++) v ^= i;
    ok &= d[9] == v;
    ok &= d[10] == 1000 - 3 * len;
    return ok;
}

int main(int argc, char **argv)
{
    std::printf("simpleAtomicIntrinsics starting...\n");
    findCudaDevice(argc, (const char **)argv);
    const unsigned numThreads = 256, numBlocks = 4, len = numThreads * numBlocks;
    int init[11] = {0, 0, -(1 << 8), 1 << 30, 0, 0, 0, 0xff, 0, 0, 1000};
    int *d_data, h_data[11];
    checkCudaErrors(cudaMalloc(&d_data, sizeof init));
    checkCudaErrors(cudaMemcpy(d_data, init, sizeof init, cudaMemcpyHostToDevice));
    globalAtomics<<<numBlocks, numThreads>>>(d_data);
    getLastCudaError("Kernel execution failed");
    checkCudaErrors(cudaMemcpy(h_data, d_data, sizeof h_data, cudaMemcpyDeviceToHost));
    bool ok = checkGlobal(h_data, len);
    std::printf("global atomics: %s (CAS chain reached %d)\n", ok ? "ok" : "WRONG", h_data[6]);

    int *d_shared, h_shared[11 * numBlocks];
    checkCudaErrors(cudaMalloc(&d_shared, sizeof h_shared));
    sharedAtomics<<<numBlocks, numThreads>>>(d_shared);
    getLastCudaError("sharedAtomics");
    checkCudaErrors(cudaMemcpy(h_shared, d_shared, sizeof h_shared, cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < numBlocks; b++) {
        int *s = h_shared + 11 * b;
        if (!checkGlobal(s, numThreads)) {
            std::printf("shared atomics block %u wrong\n", b);
            ok = false;
        }
    }

    const int n = 3000;
    float *in, *fsum, *fmax;
    double *dsum;
    unsigned long long *u64;
    checkCudaErrors(cudaMallocManaged(&in, n * sizeof(float)));
    checkCudaErrors(cudaMallocManaged(&fsum, sizeof(float)));
    checkCudaErrors(cudaMallocManaged(&fmax, sizeof(float)));
    checkCudaErrors(cudaMallocManaged(&dsum, sizeof(double)));
    checkCudaErrors(cudaMallocManaged(&u64, 2 * sizeof(unsigned long long)));
    double ref = 0;
    float refMax = -1e30f;
    for (int i = 0; i < n; i++) {
        in[i] = (float)((i * 7919) % 1000) / 8.0f; /* exact in float: sums do not round */
        ref += in[i];
        refMax = in[i] > refMax ? in[i] : refMax;
    }
    *fsum = 0;
    *dsum = 0;
    *fmax = -1e30f;
    u64[0] = u64[1] = 0;
    floatAtomics<<<(n + 255) / 256, 256>>>(in, fsum, dsum, fmax, u64, n);
    getLastCudaError("floatAtomics");
    checkCudaErrors(cudaDeviceSynchronize());
    bool fok = *fsum == (float)ref && *dsum == ref && *fmax == refMax && u64[0] == (unsigned long long)n << 33 &&
               u64[1] == (unsigned long long)(n - 1) * 1000003ull;
    std::printf("float atomics: sum %.3f (%.3f) double %.3f max %.3f (%.3f): %s\n", *fsum, ref, *dsum, *fmax, refMax,
                fok ? "ok" : "WRONG");
    ok = ok && fok;
    checkCudaErrors(cudaFree(d_data));
    checkCudaErrors(cudaFree(d_shared));
    checkCudaErrors(cudaFree(in));
    checkCudaErrors(cudaFree(fsum));
    checkCudaErrors(cudaFree(fmax));
    checkCudaErrors(cudaFree(dsum));
    checkCudaErrors(cudaFree(u64));
    std::printf("simpleAtomicIntrinsics completed, returned %s\n", ok ? "OK" : "ERROR!");
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS atomics\n");
    return 0;
}
