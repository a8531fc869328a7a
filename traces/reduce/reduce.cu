// Sum reductions, two classic forms.
// reduceShared: Harris' "first add during load" tree in shared memory with
// __syncthreads between levels; each block of 256 threads sums 512 inputs
// and writes one partial sum (run twice: inputs -> partials -> total).
// reduceShfl: each warp sums its 32 values with __shfl_down_sync, lane 0
// parks the warp's sum in shared memory, and warp 0 reduces those.
#define BLOCK 256

extern "C" __global__ void reduceShared(const float *in, float *out, int n)
{
    __shared__ float s[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float v = 0.0f;
    if (i < n)
        v = in[i];
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduceShfl(const float *in, float *out, int n)
{
    __shared__ float warpSums[32];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float v = (i < n) ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0)
        warpSums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < blockDim.x / 32) ? warpSums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
