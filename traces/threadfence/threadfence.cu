// Memory fences (__threadfence, membar.gl in the PTX) in two common shapes.
// fenceStores: every thread publishes one value per round and fences after
//   each, so that a reader that sees round k's value also sees the earlier
//   ones: the fence waits for the store to reach L2 every round.
// sumLastBlock: the single-pass sum of the CUDA samples' threadFenceReduction:
//   each block sums 512 inputs in shared memory (as reduce.cu's
//   reduceShared), thread 0 stores the block's partial sum, fences, and
//   takes a ticket with atomicInc; the block that draws the last ticket sums
//   the partial sums (thread t those at t, t + 256, ...; then the same tree)
//   and resets the counter for the next launch.
#define BLOCK 256

extern "C" __global__ void fenceStores(float *out, int n, int rounds)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < rounds; k++) {
        out[(size_t)k * n + i] = (float)(i + k);
        __threadfence();
    }
}

__device__ void blockTree(float *s, unsigned tid)
{
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
}

extern "C" __global__ void sumLastBlock(const float *in, float *partial, unsigned *count, float *total, int n)
{
    __shared__ float s[BLOCK];
    __shared__ bool last;
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BLOCK * 2 + tid;
    float v = 0.0f;
    if (i < n)
        v = in[i];
    if (i + BLOCK < n)
        v += in[i + BLOCK];
    s[tid] = v;
    blockTree(s, tid);
    if (tid == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(count, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        v = 0.0f;
        for (unsigned j = tid; j < gridDim.x; j += BLOCK)
            v += ((volatile float *)partial)[j];
        s[tid] = v;
        blockTree(s, tid);
        if (tid == 0) {
            *total = s[0];
            *count = 0;
        }
    }
}
