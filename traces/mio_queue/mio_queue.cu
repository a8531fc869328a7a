// mio_queue.cu — how many memory instructions a warp scheduler can hand to
// the load/store pipe before it must stop issuing them.
//
// Every warp runs `iters` rounds of K independent loads (K = 1, 2, 4, 8)
// followed by the K additions that use them.  Lane l of every load reads
// element l * stride + k, so with stride 32 all 32 lanes hit one bank (32
// wavefronts per shared load; 32 distinct 128 B lines per global load),
// and with stride 1 a load is one wavefront.  While the pipe works through
// the queued loads, a warp that waits for a result stalls on the
// scoreboard; a warp that cannot hand over its next load because the
// queue is full stalls on mio_throttle (shared) or lg_throttle (global).
// Every warp of a block computes the same 32 sums (they depend on the
// lane only) and stores them to the same place: the output stays small.
// The loads are asm volatile so that nvcc keeps them in order, and each
// round's address moves by (round * 8) & mask elements (mask = 8: 0, 32,
// 0, 32 ... bytes, the same banks and lines) so that ptxas cannot take
// them out of the loop as it would loads whose address never changes.
template <int K>
__device__ void shared_loads(const float *in, float *out, int stride, int iters, int mask)
{
    extern __shared__ float tile[];
    int n = 31 * stride + K + mask;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        tile[i] = in[i];
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(tile + (threadIdx.x & 31) * stride);
    float acc = 0.0f;
    for (int it = 0; it < iters; it++) {
        float r[K];
        unsigned at = base + 4 * ((it * 8) & mask);
#pragma unroll
        for (int k = 0; k < K; k++)
            asm volatile("ld.shared.f32 %0, [%1];" : "=f"(r[k]) : "r"(at + 4 * k));
#pragma unroll
        for (int k = 0; k < K; k++)
            acc += r[k];
    }
    out[blockIdx.x * 32 + (threadIdx.x & 31)] = acc; /* the same in every warp of the block */
}

template <int K>
__device__ void global_loads(const float *in, float *out, int stride, int iters, int mask)
{
    const float *p = in + (threadIdx.x & 31) * stride;
    float acc = 0.0f;
    for (int it = 0; it < iters; it++) {
        float r[K];
        const float *at = p + ((it * 8) & mask);
#pragma unroll
        for (int k = 0; k < K; k++)
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(r[k]) : "l"(at + k));
#pragma unroll
        for (int k = 0; k < K; k++)
            acc += r[k];
    }
    out[blockIdx.x * 32 + (threadIdx.x & 31)] = acc; /* the same in every warp of the block */
}

#define LOADS(K)                                                                        \
    extern "C" __global__ void sharedLoads##K(const float *in, float *out, int stride, int iters, int mask) \
    {                                                                                   \
        shared_loads<K>(in, out, stride, iters, mask);                                        \
    }                                                                                   \
    extern "C" __global__ void globalLoads##K(const float *in, float *out, int stride, int iters, int mask) \
    {                                                                                   \
        global_loads<K>(in, out, stride, iters, mask);                                        \
    }
LOADS(1)
LOADS(2)
LOADS(4)
LOADS(8)
