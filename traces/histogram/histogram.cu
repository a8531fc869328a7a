// 256-bin histogram: each block counts into a shared-memory histogram with
// atomicAdd (shared atomics, contended when lanes hit the same bin), then
// adds its non-zero bins into the global histogram (global atomics).  The
// input is walked with a grid-stride loop.
#define BINS 256

extern "C" __global__ void histogram(const unsigned *data, int n, unsigned *bins)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}
