// coop_groups.cu — cooperative groups and warp intrinsics as the samples
// use them: this_thread_block().sync(), tiled_partition<32> and <16>,
// cg::reduce, tile shuffles and votes, __ballot_sync, __activemask,
// __any_sync/__all_sync, __popc and __ffs.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "sample_helpers.h"

namespace cg = cooperative_groups;

// Block sum through a per-tile shuffle reduction then shared memory.
__device__ int sumReduction(cg::thread_block_tile<32> tile, int value)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        value += tile.shfl_down(value, offset);
    return value;
}

__global__ void blockSums(const int *in, int *out, int *tileRanks, int n)
{
    extern __shared__ int partial[];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    unsigned gid = block.group_index().x * block.size() + block.thread_rank();
    int v = gid < (unsigned)n ? in[gid] : 0;
    int tileSum = sumReduction(tile, v);
    if (tile.thread_rank() == 0)
        partial[tile.meta_group_rank()] = tileSum;
    if (gid < (unsigned)n)
        tileRanks[gid] = tile.meta_group_rank() * 1000 + tile.thread_rank();
    block.sync();
    if (block.thread_rank() == 0) {
        int s = 0;
        for (unsigned t = 0; t < tile.meta_group_size(); t++)
            s += partial[t];
        out[block.group_index().x] = s;
    }
}

// cg::reduce over 16-thread tiles with plus, and greater for the max.
__global__ void tileReduce(const int *in, int *sums, int *maxes)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int s = cg::reduce(tile, v, cg::plus<int>());
    int m = cg::reduce(tile, v, cg::greater<int>());
    unsigned index = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
    if (tile.thread_rank() == 0) {
        sums[index] = s;
        maxes[index] = m;
    }
}

// Votes: per warp, which lanes have odd values, and what the active mask is
// inside a divergent branch.
__global__ void votes(const int *in, unsigned *ballots, unsigned *active, int *anyAll, int *firstLane)
{
    unsigned lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned b = __ballot_sync(0xffffffff, v & 1);
    if (lane < 20) {
        unsigned a = __activemask();
        if (lane == 0)
            active[warp] = a;
    }
    int any = __any_sync(0xffffffff, v > 90);
    int all = __all_sync(0xffffffff, v >= 0);
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int tileAny = tile.any(v > 90);
    if (lane == 0) {
        ballots[warp] = b;
        anyAll[warp] = any * 4 + all * 2 + tileAny;
        firstLane[warp] = __ffs(b) * 100 + __popc(b);
    }
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
    int *in, *out, *ranks;
    checkCudaErrors(cudaMallocManaged(&in, blocks * threads * sizeof(int)));
    checkCudaErrors(cudaMallocManaged(&out, blocks * sizeof(int)));
    checkCudaErrors(cudaMallocManaged(&ranks, n * sizeof(int)));
    for (int i = 0; i < blocks * threads; i++)
        in[i] = (i * 37 + 11) % 97;
    blockSums<<<blocks, threads, threads / 32 * sizeof(int)>>>(in, out, ranks, n);
    getLastCudaError("blockSums");
    checkCudaErrors(cudaDeviceSynchronize());
    bool ok = true;
    for (int b = 0; b < blocks; b++) {
        int s = 0;
        for (int i = b * threads; i < (b + 1) * threads && i < n; i++)
            s += in[i];
        if (out[b] != s) {
            std::printf("blockSums[%d] = %d, expected %d\n", b, out[b], s);
            ok = false;
        }
    }
    for (int i = 0; i < n; i++)
        ok = ok && ranks[i] == (i % threads) / 32 * 1000 + i % 32;

    const int groups = blocks * threads / 16;
    int *sums, *maxes;
    checkCudaErrors(cudaMallocManaged(&sums, groups * sizeof(int)));
    checkCudaErrors(cudaMallocManaged(&maxes, groups * sizeof(int)));
    tileReduce<<<blocks, threads>>>(in, sums, maxes);
    getLastCudaError("tileReduce");
    checkCudaErrors(cudaDeviceSynchronize());
    for (int g = 0; g < groups; g++) {
        int s = 0, m = -1;
        for (int i = g * 16; i < g * 16 + 16; i++) {
            s += in[i];
            m = in[i] > m ? in[i] : m;
        }
        if (sums[g] != s || maxes[g] != m) {
            std::printf("tile %d: sum %d max %d, expected %d %d\n", g, sums[g], maxes[g], s, m);
            ok = false;
        }
    }

    const int warps = blocks * threads / 32;
    unsigned *ballots, *active;
    int *anyAll, *firstLane;
    checkCudaErrors(cudaMallocManaged(&ballots, warps * sizeof(unsigned)));
    checkCudaErrors(cudaMallocManaged(&active, warps * sizeof(unsigned)));
    checkCudaErrors(cudaMallocManaged(&anyAll, warps * sizeof(int)));
    checkCudaErrors(cudaMallocManaged(&firstLane, warps * sizeof(int)));
    votes<<<blocks, threads>>>(in, ballots, active, anyAll, firstLane);
    getLastCudaError("votes");
    checkCudaErrors(cudaDeviceSynchronize());
    for (int w = 0; w < warps; w++) {
        unsigned b = 0;
        int any = 0;
        for (int l = 0; l < 32; l++) {
            b |= (unsigned)(in[w * 32 + l] & 1) << l;
            any |= in[w * 32 + l] > 90;
        }
        int first = 0;
        for (int l = 31; l >= 0; l--)
            if (b >> l & 1)
                first = l + 1;
        ok = ok && ballots[w] == b && active[w] == 0xfffffu && anyAll[w] == any * 4 + 2 + any &&
             firstLane[w] == first * 100 + __builtin_popcount(b);
        if (!ok) {
            std::printf("warp %d: ballot %08x (want %08x) active %08x anyAll %d firstLane %d\n", w, ballots[w], b,
                        active[w], anyAll[w], firstLane[w]);
            break;
        }
    }
    checkCudaErrors(cudaFree(in));
    checkCudaErrors(cudaFree(out));
    checkCudaErrors(cudaFree(ranks));
    checkCudaErrors(cudaFree(sums));
    checkCudaErrors(cudaFree(maxes));
    checkCudaErrors(cudaFree(ballots));
    checkCudaErrors(cudaFree(active));
    checkCudaErrors(cudaFree(anyAll));
    checkCudaErrors(cudaFree(firstLane));
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS coop_groups\n");
    return 0;
}
