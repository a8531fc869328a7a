// grid_sync.cu — cooperative launches as reductionMultiBlockCG and
// conjugateGradientMultiBlockCG use them: the grid sized by
// cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs, launched with
// cudaLaunchCooperativeKernel, a multi-block reduction across
// this_grid().sync(), then the same through cudaLaunchKernelEx with
// cudaLaunchAttributeCooperative.  Also checks grid_group's thread_rank,
// size, num_blocks, block_rank and is_valid, the device attribute, and
// that a grid one block too large is refused with
// cudaErrorCooperativeLaunchTooLarge.
#include <cooperative_groups.h>
#include <vector>
#include "sample_helpers.h"

#ifndef PROGRAM_NAME
#define PROGRAM_NAME "grid_sync"
#endif

namespace cg = cooperative_groups;

// Each block sums a grid-stride slice into shared memory, block 0 adds the
// blocks' sums after the grid barrier, and after a second barrier every
// thread reads the total back: the barrier both orders and publishes.
__global__ void reduceSinglePassMultiBlockCG(const float *in, float *blockSums, float *out, unsigned *seen, int n)
{
    extern __shared__ float sdata[];
    cg::thread_block block = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    float sum = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        sum += in[i];
    sdata[block.thread_rank()] = sum;
    block.sync();
    for (unsigned s = block.size() / 2; s > 0; s >>= 1) {
        if (block.thread_rank() < s)
            sdata[block.thread_rank()] += sdata[block.thread_rank() + s];
        block.sync();
    }
    if (block.thread_rank() == 0)
        blockSums[blockIdx.x] = sdata[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        float total = 0.0f;
        for (unsigned b = 0; b < grid.num_blocks(); b++)
            total += blockSums[b];
        out[0] = total;
    }
    grid.sync();
    // out[0] was zero before the launch: count the threads that see the
    // total block 0 wrote before the barrier
    if (out[0] != 0.0f)
        atomicAdd(&seen[0], 1u);
    if (block.thread_rank() == 0) {
        seen[1 + 4 * blockIdx.x] = grid.is_valid();
        seen[2 + 4 * blockIdx.x] = (unsigned)grid.block_rank();
        seen[3 + 4 * blockIdx.x] = (unsigned)grid.size();
        seen[4 + 4 * blockIdx.x] = (unsigned)grid.num_blocks();
    }
}

// Several barriers in a row: each phase adds the previous phase's value of
// the next block (a ring), so any missed ordering shows in the result.
__global__ void ringPhases(int *values, int phases)
{
    cg::grid_group grid = cg::this_grid();
    unsigned b = blockIdx.x, nb = gridDim.x;
    for (int p = 0; p < phases; p++) {
        int next = 0;
        if (threadIdx.x == 0)
            next = values[p * nb + (b + 1) % nb];
        grid.sync();
        if (threadIdx.x == 0)
            values[(p + 1) * nb + b] = values[p * nb + b] + next;
        grid.sync();
    }
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    int supports = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, dev));
    if (!supports || !prop.cooperativeLaunch) {
        std::printf("device does not support cooperative launches (attribute %d, property %d)\n", supports,
                    prop.cooperativeLaunch);
        return EXIT_FAILURE;
    }

    const int n = 1 << 16, threads = 256;
    const size_t smem = threads * sizeof(float);
    int blocksPerSm = 0;
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, reduceSinglePassMultiBlockCG,
                                                                  threads, smem));
    // the samples use one block per SM when that is all the reduction needs
    int blocks = prop.multiProcessorCount;
    std::printf("%d SMs, %d blocks of %d threads per SM at most; launching %d blocks\n",
                prop.multiProcessorCount, blocksPerSm, threads, blocks);

    std::vector<float> h(n);
    double expected = 0.0;
    for (int i = 0; i < n; i++) {
        h[i] = (float)((i * 37) % 101) * 0.25f; // exact in float, sums exactly
        expected += h[i];
    }
    float *dIn, *dBlockSums, *dOut;
    unsigned *dSeen;
    checkCudaErrors(cudaMalloc(&dIn, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&dBlockSums, blocks * sizeof(float)));
    checkCudaErrors(cudaMalloc(&dOut, sizeof(float)));
    checkCudaErrors(cudaMalloc(&dSeen, (1 + 4 * blocks) * sizeof(unsigned)));
    checkCudaErrors(cudaMemcpy(dIn, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    int failures = 0;
    for (int round = 0; round < 2; round++) {
        checkCudaErrors(cudaMemset(dOut, 0, sizeof(float)));
        checkCudaErrors(cudaMemset(dSeen, 0, (1 + 4 * blocks) * sizeof(unsigned)));
        int nArg = n;
        void *args[] = {&dIn, &dBlockSums, &dOut, &dSeen, &nArg};
        if (round == 0) {
            checkCudaErrors(cudaLaunchCooperativeKernel((void *)reduceSinglePassMultiBlockCG, dim3(blocks),
                                                        dim3(threads), args, smem, 0));
        } else {
            cudaLaunchConfig_t config = {};
            cudaLaunchAttribute attr[1];
            attr[0].id = cudaLaunchAttributeCooperative;
            attr[0].val.cooperative = 1;
            config.gridDim = dim3(blocks);
            config.blockDim = dim3(threads);
            config.dynamicSmemBytes = smem;
            config.attrs = attr;
            config.numAttrs = 1;
            checkCudaErrors(cudaLaunchKernelEx(&config, reduceSinglePassMultiBlockCG, (const float *)dIn,
                                               dBlockSums, dOut, dSeen, n));
        }
        checkCudaErrors(cudaDeviceSynchronize());
        float got;
        std::vector<unsigned> seen(1 + 4 * blocks);
        checkCudaErrors(cudaMemcpy(&got, dOut, sizeof(float), cudaMemcpyDeviceToHost));
        checkCudaErrors(cudaMemcpy(seen.data(), dSeen, seen.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
        const char *how = round == 0 ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernelEx";
        if ((double)got != expected) {
            std::printf("%s: GPU sum %.2f, expected %.2f\n", how, got, expected);
            failures++;
        }
        if (seen[0] != (unsigned)(blocks * threads)) {
            std::printf("%s: %u threads saw the total, expected %d\n", how, seen[0], blocks * threads);
            failures++;
        }
        for (int b = 0; b < blocks; b++)
            if (seen[1 + 4 * b] != 1 || seen[2 + 4 * b] != (unsigned)b ||
                seen[3 + 4 * b] != (unsigned)(blocks * threads) || seen[4 + 4 * b] != (unsigned)blocks) {
                std::printf("%s: block %d: is_valid %u block_rank %u size %u num_blocks %u\n", how, b,
                            seen[1 + 4 * b], seen[2 + 4 * b], seen[3 + 4 * b], seen[4 + 4 * b]);
                failures++;
                break;
            }
        std::printf("%s: sum %.2f over %d blocks\n", how, got, blocks);
    }

    // many barriers, two blocks per SM on a few SMs' worth of blocks
    const int ringBlocks = 12, phases = 10;
    std::vector<int> ring((phases + 1) * ringBlocks, 0);
    for (int b = 0; b < ringBlocks; b++)
        ring[b] = b + 1;
    int *dRing;
    checkCudaErrors(cudaMalloc(&dRing, ring.size() * sizeof(int)));
    checkCudaErrors(cudaMemcpy(dRing, ring.data(), ring.size() * sizeof(int), cudaMemcpyHostToDevice));
    int phasesArg = phases;
    void *ringArgs[] = {&dRing, &phasesArg};
    checkCudaErrors(cudaLaunchCooperativeKernel((void *)ringPhases, dim3(ringBlocks), dim3(64), ringArgs, 0, 0));
    checkCudaErrors(cudaDeviceSynchronize());
    std::vector<int> got(ring.size());
    checkCudaErrors(cudaMemcpy(got.data(), dRing, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int p = 0; p < phases; p++)
        for (int b = 0; b < ringBlocks; b++)
            ring[(p + 1) * ringBlocks + b] = ring[p * ringBlocks + b] + ring[p * ringBlocks + (b + 1) % ringBlocks];
    if (got != ring) {
        std::printf("ringPhases: results differ from the host's\n");
        failures++;
    }

    // one block more than can be resident: refused, nothing runs
    int tooMany = blocksPerSm * prop.multiProcessorCount + 1;
    int nArg = n;
    void *args[] = {&dIn, &dBlockSums, &dOut, &dSeen, &nArg};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)reduceSinglePassMultiBlockCG, dim3(tooMany), dim3(threads),
                                                args, smem, 0);
    if (e != cudaErrorCooperativeLaunchTooLarge || cudaGetLastError() != cudaErrorCooperativeLaunchTooLarge) {
        std::printf("a grid of %d blocks: %s, expected cudaErrorCooperativeLaunchTooLarge\n", tooMany,
                    cudaGetErrorName(e));
        failures++;
    }
    checkCudaErrors(cudaDeviceSynchronize());

    checkCudaErrors(cudaFree(dIn));
    checkCudaErrors(cudaFree(dBlockSums));
    checkCudaErrors(cudaFree(dOut));
    checkCudaErrors(cudaFree(dSeen));
    checkCudaErrors(cudaFree(dRing));
    if (failures) {
        std::printf("FAIL %s\n", PROGRAM_NAME);
        return EXIT_FAILURE;
    }
    std::printf("PASS %s\n", PROGRAM_NAME);
    return EXIT_SUCCESS;
}
