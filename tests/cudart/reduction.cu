// reduction.cu — the reduction sample's kernel ladder: interleaved
// addressing, sequential addressing, first add during load, an unrolled last
// warp on volatile shared memory, a completely unrolled templated kernel,
// and a multi-element-per-thread warp-shuffle kernel; each sums the same
// integers over several passes until one value is left.
#include "sample_helpers.h"

template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <class T>
__global__ void reduce0(const T *g_idata, T *g_odata, unsigned n)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

template <class T>
__global__ void reduce2(const T *g_idata, T *g_odata, unsigned n)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

template <class T>
__global__ void reduce3(const T *g_idata, T *g_odata, unsigned n)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n)
        mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = mySum;
}

// Unrolled last warp through volatile shared memory (warp-synchronous, with
// __syncwarp between steps as post-Volta code must).
template <class T>
__global__ void reduce4(const T *g_idata, T *g_odata, unsigned n)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n)
        mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile T *vs = sdata;
        for (int offset = 32; offset > 0; offset >>= 1) {
            vs[tid] = mySum = mySum + vs[tid + offset];
            __syncwarp();
        }
    }
    if (tid == 0)
        g_odata[blockIdx.x] = mySum;
}

template <class T, unsigned blockSize>
__global__ void reduce5(const T *g_idata, T *g_odata, unsigned n)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x, i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockSize < n)
        mySum += g_idata[i + blockSize];
    sdata[tid] = mySum;
    __syncthreads();
    if (blockSize >= 512) { if (tid < 256) sdata[tid] = mySum = mySum + sdata[tid + 256]; __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) sdata[tid] = mySum = mySum + sdata[tid + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64]; __syncthreads(); }
    if (tid < 32) {
        if (blockSize >= 64)
            mySum += sdata[tid + 32];
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2)
            mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }
    if (tid == 0)
        g_odata[blockIdx.x] = mySum;
}

// Grid-stride loads of many elements per thread, then a shuffle reduction
// per warp and one shared slot per warp.
template <class T, unsigned blockSize>
__global__ void reduce6(const T *g_idata, T *g_odata, unsigned n)
{
    __shared__ T warpSums[blockSize / 32];
    unsigned tid = threadIdx.x, gridSize = blockSize * 2 * gridDim.x;
    T mySum = 0;
    for (unsigned i = blockIdx.x * blockSize * 2 + tid; i < n; i += gridSize) {
        mySum += g_idata[i];
        if (i + blockSize < n)
            mySum += g_idata[i + blockSize];
    }
    unsigned mask = __ballot_sync(0xffffffff, tid < blockSize);
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        mySum += __shfl_down_sync(mask, mySum, offset);
    if ((tid & 31) == 0)
        warpSums[tid / 32] = mySum;
    __syncthreads();
    if (tid < 32) {
        mySum = tid < blockSize / 32 ? warpSums[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1)
            mySum += __shfl_xor_sync(0xffffffff, mySum, offset);
        if (tid == 0)
            g_odata[blockIdx.x] = mySum;
    }
}

typedef void (*ReduceKernel)(const int *, int *, unsigned);

// Reduces n values of d_in (which it overwrites) to one, by passes.
static int reduce_all(int which, int *d_in, int *d_out, unsigned n)
{
    const unsigned threads = 128;
    while (n > 1) {
        unsigned per_block = which == 0 || which == 2 ? threads : threads * 2;
        unsigned blocks = (n + per_block - 1) / per_block;
        if (which == 6 && blocks > 8)
            blocks = 8;
        size_t smem = threads * sizeof(int);
        switch (which) {
        case 0: reduce0<int><<<blocks, threads, smem>>>(d_in, d_out, n); break;
        case 2: reduce2<int><<<blocks, threads, smem>>>(d_in, d_out, n); break;
        case 3: reduce3<int><<<blocks, threads, smem>>>(d_in, d_out, n); break;
        case 4: reduce4<int><<<blocks, threads, smem>>>(d_in, d_out, n); break;
        case 5: reduce5<int, threads><<<blocks, threads, smem>>>(d_in, d_out, n); break;
        case 6: reduce6<int, threads><<<blocks, threads>>>(d_in, d_out, n); break;
        }
        getLastCudaError("reduction kernel");
        checkCudaErrors(cudaMemcpy(d_in, d_out, blocks * sizeof(int), cudaMemcpyDeviceToDevice));
        n = blocks;
    }
    int result;
    checkCudaErrors(cudaMemcpy(&result, d_in, sizeof(int), cudaMemcpyDeviceToHost));
    return result;
}

int main(int argc, char **argv)
{
    std::printf("reduction Starting...\n\n");
    findCudaDevice(argc, (const char **)argv);
    const unsigned n = 10000;
    int *h = (int *)std::malloc(n * sizeof(int));
    long long cpu = 0;
    for (unsigned i = 0; i < n; i++) {
        h[i] = (int)((i * 2654435761u) >> 24) - 100;
        cpu += h[i];
    }
    int *d_in, *d_out;
    checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&d_out, n * sizeof(int)));
    const int kernels[] = {0, 2, 3, 4, 5, 6};
    bool ok = true;
    for (int which : kernels) {
        checkCudaErrors(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
        int gpu = reduce_all(which, d_in, d_out, n);
        std::printf("reduce%d: GPU result = %d, CPU result = %lld\n", which, gpu, cpu);
        ok = ok && gpu == cpu;
    }
    checkCudaErrors(cudaFree(d_in));
    checkCudaErrors(cudaFree(d_out));
    std::free(h);
    std::printf("Test %s\n", ok ? "passed" : "failed");
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS reduction\n");
    return 0;
}
