// Shared-memory atomics by pattern: every warp updates a shared array of
// 1024 words with atomics, its lanes' words chosen by two parameters, so
// that the wavefronts an atomic takes can be held beside the bank
// conflicts of plain loads and stores (traces/banks).  Lane l of warp w
// updates word ((l >> shift) * stride + 64 * w) % 1024: shift 5 puts the
// whole warp on one word, shift 1 pairs of lanes, stride 1 consecutive
// words (no bank twice), stride 2 a two-way bank conflict, stride 32
// every lane in one bank.  The kernels differ in the update: an add of a
// value that differs by lane and round (sharedAtomics), of the constant 1
// (a count, as a histogram's), of the constant 3, of a value the same in
// every lane (iters), and a max of a value that differs by lane.
#define WORDS 1024

#define SHARED_ATOMICS(name, update)                                             \
    extern "C" __global__ void name(unsigned *out, int shift, int stride, int iters) \
    {                                                                            \
        __shared__ unsigned words[WORDS];                                        \
        for (int i = threadIdx.x; i < WORDS; i += blockDim.x)                    \
            words[i] = 0;                                                        \
        __syncthreads();                                                         \
        unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;               \
        unsigned w = (((lane >> shift) * stride) + 64 * warp) % WORDS;           \
        for (int k = 0; k < iters; k++)                                          \
            update;                                                              \
        __syncthreads();                                                         \
        for (int i = threadIdx.x; i < WORDS; i += blockDim.x)                    \
            out[blockIdx.x * WORDS + i] = words[i];                              \
    }

SHARED_ATOMICS(sharedAtomics, atomicAdd(&words[w], lane + (unsigned)k))
SHARED_ATOMICS(sharedAtomicsOne, atomicAdd(&words[w], 1u))
SHARED_ATOMICS(sharedAtomicsThree, atomicAdd(&words[w], 3u))
SHARED_ATOMICS(sharedAtomicsUniform, atomicAdd(&words[w], (unsigned)iters))
SHARED_ATOMICS(sharedAtomicsMax, atomicMax(&words[w], lane + (unsigned)k))
