// Exclusive prefix sum (Blelloch work-efficient scan, GPU Gems 3 ch. 39,
// without the bank-conflict padding): each block of 256 threads scans 512
// consecutive elements in shared memory, an up-sweep building partial sums
// in a tree and a down-sweep distributing them, with __syncthreads between
// levels.  Blocks scan independent segments.
#define ELEMS 512

extern "C" __global__ void scanExclusive(const unsigned *in, unsigned *out)
{
    __shared__ unsigned t[ELEMS];
    unsigned tid = threadIdx.x;
    unsigned base = blockIdx.x * ELEMS;
    t[2 * tid] = in[base + 2 * tid];
    t[2 * tid + 1] = in[base + 2 * tid + 1];
    unsigned offset = 1;
    for (unsigned d = ELEMS >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            unsigned ai = offset * (2 * tid + 1) - 1;
            unsigned bi = offset * (2 * tid + 2) - 1;
            t[bi] += t[ai];
        }
        offset <<= 1;
    }
    if (tid == 0)
        t[ELEMS - 1] = 0;
    for (unsigned d = 1; d < ELEMS; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            unsigned ai = offset * (2 * tid + 1) - 1;
            unsigned bi = offset * (2 * tid + 2) - 1;
            unsigned x = t[ai];
            t[ai] = t[bi];
            t[bi] += x;
        }
    }
    __syncthreads();
    out[base + 2 * tid] = t[2 * tid];
    out[base + 2 * tid + 1] = t[2 * tid + 1];
}
