// more_kernels.cu — five kernels written to check warpsim's timing model on
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
