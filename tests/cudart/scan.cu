// scan.cu — work-efficient (Blelloch) exclusive prefix sum in dynamic
// shared memory with the bank-conflict-avoiding offset, over many blocks:
// scan each block, scan the block sums, add them back (the scan sample /
// GPU Gems recipe).  Also a warp-shuffle inclusive scan.
#include "sample_helpers.h"

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

// Each block scans 2*blockDim.x elements; its total goes to sums.
__global__ void prescan(unsigned *g_odata, const unsigned *g_idata, unsigned *sums, int n)
{
    extern __shared__ unsigned temp[];
    int thid = threadIdx.x, blockN = 2 * blockDim.x, base = blockIdx.x * blockN;
    int ai = thid, bi = thid + blockDim.x;
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = base + ai < n ? g_idata[base + ai] : 0;
    temp[bi + bankOffsetB] = base + bi < n ? g_idata[base + bi] : 0;
    int offset = 1;
    for (int d = blockN >> 1; d > 0; d >>= 1) { // up-sweep
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) {
        int last = blockN - 1 + CONFLICT_FREE_OFFSET(blockN - 1);
        sums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }
    for (int d = 1; d < blockN; d *= 2) { // down-sweep
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            unsigned t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n)
        g_odata[base + ai] = temp[ai + bankOffsetA];
    if (base + bi < n)
        g_odata[base + bi] = temp[bi + bankOffsetB];
}

__global__ void uniformAdd(unsigned *data, const unsigned *incr, int n)
{
    __shared__ unsigned uni;
    if (threadIdx.x == 0)
        uni = incr[blockIdx.x];
    __syncthreads();
    int i = blockIdx.x * 2 * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += uni;
    if (i + blockDim.x < n)
        data[i + blockDim.x] += uni;
}

// Inclusive scan of each warp's values with __shfl_up_sync.
template <typename T>
__global__ void warpScan(T *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    T v = i < n ? data[i] : T(0);
#pragma unroll
    for (int delta = 1; delta < 32; delta <<= 1) {
        T up = __shfl_up_sync(0xffffffff, v, delta);
        if (lane >= delta)
            v += up;
    }
    if (i < n)
        data[i] = v;
}

// Exclusive scan of n values on the device, recursively over block sums.
static void scanDevice(unsigned *d_out, const unsigned *d_in, int n)
{
    const int threads = 128, perBlock = 2 * threads;
    int blocks = (n + perBlock - 1) / perBlock;
    unsigned *d_sums, *d_sumsScanned;
    checkCudaErrors(cudaMalloc(&d_sums, blocks * sizeof(unsigned)));
    checkCudaErrors(cudaMalloc(&d_sumsScanned, blocks * sizeof(unsigned)));
    size_t smem = (perBlock + perBlock / NUM_BANKS) * sizeof(unsigned);
    prescan<<<blocks, threads, smem>>>(d_out, d_in, d_sums, n);
    getLastCudaError("prescan");
    if (blocks > 1) {
        scanDevice(d_sumsScanned, d_sums, blocks);
        uniformAdd<<<blocks, threads>>>(d_out, d_sumsScanned, n);
        getLastCudaError("uniformAdd");
    }
    checkCudaErrors(cudaFree(d_sums));
    checkCudaErrors(cudaFree(d_sumsScanned));
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int sizes[] = {1, 255, 256, 1000, 70000};
    for (int n : sizes) {
        unsigned *h_in = new unsigned[n], *h_out = new unsigned[n];
        for (int i = 0; i < n; i++)
            h_in[i] = (i * 13 + 7) % 17;
        unsigned *d_in, *d_out;
        checkCudaErrors(cudaMalloc(&d_in, n * sizeof(unsigned)));
        checkCudaErrors(cudaMalloc(&d_out, n * sizeof(unsigned)));
        checkCudaErrors(cudaMemcpy(d_in, h_in, n * sizeof(unsigned), cudaMemcpyHostToDevice));
        scanDevice(d_out, d_in, n);
        checkCudaErrors(cudaMemcpy(h_out, d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        unsigned run = 0;
        int bad = -1;
        for (int i = 0; i < n && bad < 0; i++) {
            if (h_out[i] != run)
                bad = i;
            run += h_in[i];
        }
        std::printf("scan of %d elements: %s\n", n, bad < 0 ? "ok" : "WRONG");
        if (bad >= 0) {
            std::printf("  first difference at %d: %u\n", bad, h_out[bad]);
            ok = false;
        }
        checkCudaErrors(cudaFree(d_in));
        checkCudaErrors(cudaFree(d_out));
        delete[] h_in;
        delete[] h_out;
    }
    const int m = 300;
    float *f;
    checkCudaErrors(cudaMallocManaged(&f, m * sizeof(float)));
    for (int i = 0; i < m; i++)
        f[i] = 0.5f * (i % 5);
    warpScan<float><<<(m + 63) / 64, 64>>>(f, m);
    getLastCudaError("warpScan");
    checkCudaErrors(cudaDeviceSynchronize());
    float run = 0;
    for (int i = 0; i < m; i++) {
        run = (i % 32 ? run : 0) + 0.5f * (i % 5);
        if (f[i] != run) {
            std::printf("warpScan[%d] = %f, expected %f\n", i, f[i], run);
            ok = false;
            break;
        }
    }
    checkCudaErrors(cudaFree(f));
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS scan\n");
    return 0;
}
