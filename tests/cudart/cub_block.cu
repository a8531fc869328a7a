// nvcc-flags: -arch=sm_90
// cub_block.cu — CUB block- and warp-level collectives inside user kernels:
// BlockReduce (default and raking), WarpReduce, BlockScan and
// BlockRadixSort sharing one union of TempStorage, checked against the host.
#include <cub/cub.cuh>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#include "check.h"


constexpr int BLOCK = 128;

__global__ void block_sums(const float *in, float *out, int *maxes)
{
    using BR = cub::BlockReduce<float, BLOCK>;
    using BRi = cub::BlockReduce<int, BLOCK, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename BR::TempStorage t;
    __shared__ typename BRi::TempStorage ti;
    float v = in[blockIdx.x * BLOCK + threadIdx.x];
    float s = BR(t).Sum(v);
    int m = BRi(ti).Reduce((int)(v * 4), cuda::maximum<int>());
    if (threadIdx.x == 0) { out[blockIdx.x] = s; maxes[blockIdx.x] = m; }
}

__global__ void warp_sums(const int *in, int *out)
{
    using WR = cub::WarpReduce<int>;
    __shared__ typename WR::TempStorage t[BLOCK / 32];
    int warp = threadIdx.x / 32;
    int v = in[blockIdx.x * BLOCK + threadIdx.x];
    int s = WR(t[warp]).Sum(v);
    if (threadIdx.x % 32 == 0) out[blockIdx.x * (BLOCK / 32) + warp] = s;
}

__global__ void block_scan_sort(const int *in, int *scanned, int *sorted)
{
    using BS = cub::BlockScan<int, BLOCK>;
    using BSort = cub::BlockRadixSort<int, BLOCK, 4>;
    __shared__ union { typename BS::TempStorage scan; typename BSort::TempStorage sort; } t;
    int base = blockIdx.x * BLOCK * 4;
    int x = in[base + threadIdx.x];
    int y;
    BS(t.scan).InclusiveSum(x, y);
    scanned[blockIdx.x * BLOCK + threadIdx.x] = y;
    __syncthreads();
    int keys[4];
    for (int i = 0; i < 4; i++) keys[i] = in[base + threadIdx.x * 4 + i];
    BSort(t.sort).Sort(keys);
    for (int i = 0; i < 4; i++) sorted[base + threadIdx.x * 4 + i] = keys[i];
}

int main()
{
    const int blocks = 8, n = blocks * BLOCK;
    std::vector<float> hf(n); std::vector<int> hi(n * 4);
    unsigned s = 5;
    for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; hf[i] = (float)((s >> 10) % 1024) / 8.0f; }
    for (int i = 0; i < n * 4; i++) { s = s * 1103515245u + 12345u; hi[i] = (int)((s >> 10) % 100000) - 50000; }
    float *df, *dsum; int *dmax, *di, *dws, *dscan, *dsort;
    CHECK_CUDA(cudaMalloc(&df, n * 4)); CHECK_CUDA(cudaMalloc(&dsum, blocks * 4)); CHECK_CUDA(cudaMalloc(&dmax, blocks * 4));
    CHECK_CUDA(cudaMalloc(&di, n * 16)); CHECK_CUDA(cudaMalloc(&dws, n / 32 * 4)); CHECK_CUDA(cudaMalloc(&dscan, n * 4)); CHECK_CUDA(cudaMalloc(&dsort, n * 16));
    CHECK_CUDA(cudaMemcpy(df, hf.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(di, hi.data(), n * 16, cudaMemcpyHostToDevice));
    block_sums<<<blocks, BLOCK>>>(df, dsum, dmax);
    warp_sums<<<blocks, BLOCK>>>(di, dws);
    block_scan_sort<<<blocks, BLOCK>>>(di, dscan, dsort);
    CHECK_CUDA(cudaGetLastError()); CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float> sums(blocks); std::vector<int> maxes(blocks), ws(n / 32), scan(n), sorted(n * 4);
    CHECK_CUDA(cudaMemcpy(sums.data(), dsum, blocks * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(maxes.data(), dmax, blocks * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ws.data(), dws, n / 32 * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(scan.data(), dscan, n * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(sorted.data(), dsort, n * 16, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        float rs = 0; int rm = -1 << 30;
        for (int i = 0; i < BLOCK; i++) { rs += hf[b * BLOCK + i]; rm = std::max(rm, (int)(hf[b * BLOCK + i] * 4)); }
        EXPECT(sums[b] == rs);  // multiples of 1/8 below 2^24: exact in any order
        EXPECT(maxes[b] == rm);
        for (int w = 0; w < BLOCK / 32; w++) {
            int r = 0; for (int i = 0; i < 32; i++) r += hi[b * BLOCK + w * 32 + i];
            EXPECT(ws[b * (BLOCK / 32) + w] == r);
        }
        int run = 0;
        for (int i = 0; i < BLOCK; i++) { run += hi[b * BLOCK * 4 + i]; EXPECT(scan[b * BLOCK + i] == run); }
        std::vector<int> ref(hi.begin() + b * BLOCK * 4, hi.begin() + (b + 1) * BLOCK * 4);
        std::sort(ref.begin(), ref.end());
        for (int i = 0; i < BLOCK * 4; i++) EXPECT(sorted[b * BLOCK * 4 + i] == ref[i]);
    }
    std::printf("PASS cub_block\n");
    return 0;
}
