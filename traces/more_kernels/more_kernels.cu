// more_kernels.cu — eight kernels written to check warpsim's timing model on
// code it has not been fitted to (after traces/classic_kernels and
// traces/common_kernels).  README.md says what each stresses.
#include <cstdint>

// y = A x with one thread per row of a row-major A: each warp reads 32 rows
// a row apart (uncoalesced, served by L1 lines).
extern "C" __global__ void gemvRows(int rows, int cols, const float *a, const float *x, float *y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
        s += a[(size_t)r * cols + c] * x[c];
    y[r] = s;
}

// Dot product: grid-stride loop, a shared-memory tree per block, one
// atomicAdd per block into an integer total (order-independent result).
extern "C" __global__ void dotAtomic(int n, const int *a, const int *b, unsigned long long *total)
{
    __shared__ long long part[256];
    long long s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += (long long)a[i] * b[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k)
            part[threadIdx.x] += part[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, (unsigned long long)part[0]);
}

// out[i] = in[idx[i]]: random reads over a large table (L2 and DRAM).
extern "C" __global__ void gather(int n, const int *idx, const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[idx[i]];
}

// Each thread follows `steps` links of a random table: dependent loads.
extern "C" __global__ void chase(int n, int steps, const int *next, int *end)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int p = i;
    for (int k = 0; k < steps; k++)
        p = next[p];
    end[i] = p;
}

// 64 rounds of an integer mixing function per element: integer ALU.
extern "C" __global__ void hashMix(int n, const uint32_t *in, uint32_t *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t h = in[i];
    for (int r = 0; r < 64; r++) {
        h ^= h >> 16;
        h *= 0x85ebca6bu;
        h ^= h >> 13;
        h *= 0xc2b2ae35u;
        h ^= h >> 16;
        h += (uint32_t)r;
    }
    out[i] = h;
}

// Stream compaction: the elements above a threshold, each warp's kept ones
// counted with a ballot and placed with one atomicAdd per warp (the order
// of the warps' slices varies; the count does not).
extern "C" __global__ void compactWarp(int n, float threshold, const float *in, float *out, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    float v = i < n ? in[i] : 0.0f;
    bool keep = i < n && v > threshold;
    unsigned ballot = __ballot_sync(0xffffffffu, keep);
    int base = 0;
    if (lane == 0 && ballot)
        base = atomicAdd(count, __popc(ballot));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep)
        out[base + __popc(ballot & ((1u << lane) - 1u))] = v;
}

// Integer division and remainder by divisors known only at run time (each
// a sequence of multiplies in SASS), on a hash of the index.
extern "C" __global__ void divMod(int n, unsigned d1, unsigned d2, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = (unsigned)i * 2654435761u, acc = 0;
    for (int r = 0; r < 16; r++) {
        acc += x / d1 + x % d2;
        x = x * 1664525u + 1013904223u;
    }
    out[i] = acc;
}

// A 1-D convolution with 15 taps: each block stages its span and a halo of
// 7 on each side in shared memory, then every thread reads 15 of them.
#define CONV_RADIUS 7
extern "C" __global__ void conv1d(int n, const float *in, const float *taps, float *out)
{
    __shared__ float span[256 + 2 * CONV_RADIUS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = threadIdx.x + CONV_RADIUS;
    span[s] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < CONV_RADIUS) {
        int lo = i - CONV_RADIUS, hi = i + blockDim.x;
        span[threadIdx.x] = lo >= 0 ? in[lo] : 0.0f;
        span[s + blockDim.x] = hi < n ? in[hi] : 0.0f;
    }
    __syncthreads();
    if (i >= n)
        return;
    float acc = 0.0f;
    for (int k = -CONV_RADIUS; k <= CONV_RADIUS; k++)
        acc += taps[k + CONV_RADIUS] * span[s + k];
    out[i] = acc;
}
