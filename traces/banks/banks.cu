// Shared-memory bank microkernels after seed 004's bank slides (Bonnefoi,
// GPGPU course: 32 banks of 4 bytes, conflicts serialise, broadcast).
//
// bankFloat / bankDouble / bankChar / bankShort: thread t owns the element
// tile[t * s] of a dynamic shared array (blockDim.x * s elements) and, for
// `iters` rounds, reads it and writes it back incremented, through a
// volatile pointer so that every round is one shared load and one shared
// store.  The stride s sets how many lanes of a warp hit the same bank.
// The sum of the values read goes to out[] so nothing is optimised away.
//
// tileColumns / tileColumnsPadded: a 32 x 32 float tile written by rows
// and read `iters` times by columns (the transpose pattern), unpadded
// [32][32] (all 32 lanes of a warp in one bank) vs padded [32][33].
template <typename T, typename Acc>
__device__ void bank_rw(Acc *out, int s, int iters)
{
    extern __shared__ __align__(8) unsigned char smem[];
    volatile T *tile = reinterpret_cast<volatile T *>(smem);
    unsigned t = threadIdx.x;
    unsigned idx = t * s;
    tile[idx] = (T)t;
    Acc acc = 0;
    for (int k = 0; k < iters; k++) {
        T v = tile[idx];
        acc += v;
        tile[idx] = (T)(v + 1);
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

extern "C" __global__ void bankFloat(float *out, int s, int iters)
{
    bank_rw<float, float>(out, s, iters);
}

extern "C" __global__ void bankDouble(double *out, int s, int iters)
{
    bank_rw<double, double>(out, s, iters);
}

extern "C" __global__ void bankChar(unsigned *out, int s, int iters)
{
    bank_rw<unsigned char, unsigned>(out, s, iters);
}

extern "C" __global__ void bankShort(unsigned *out, int s, int iters)
{
    bank_rw<unsigned short, unsigned>(out, s, iters);
}

template <int W>
__device__ void tile_columns(const float *in, float *out, int iters)
{
    __shared__ float tile[32][W];
    int tx = threadIdx.x, ty = threadIdx.y;
    size_t base = (size_t)blockIdx.x * 1024 + ty * 32 + tx;
    tile[ty][tx] = in[base];
    __syncthreads();
    volatile float(*vt)[W] = tile;
    float acc = 0.0f;
    for (int k = 0; k < iters; k++)
        acc += vt[tx][ty];
    out[base] = acc;
}

extern "C" __global__ void tileColumns(const float *in, float *out, int iters)
{
    tile_columns<32>(in, out, iters);
}

extern "C" __global__ void tileColumnsPadded(const float *in, float *out, int iters)
{
    tile_columns<33>(in, out, iters);
}
