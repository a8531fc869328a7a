// Lab "banks": shared-memory bank conflicts (seed 004's bank slides: 32
// banks of 4 bytes, conflicting accesses serialised, padding as the cure).
//
// bankFloat: thread t owns tile[t * s] of a dynamic shared array of
// blockDim.x * s floats and, `iters` times, reads it and writes it back
// plus one, through a volatile pointer so that every round is one shared
// load and one shared store.  The stride s decides how many lanes of a
// warp land in the same bank.  The sum of the values read goes to out[] so
// that nothing is optimised away.
//
// tileColumns / tileColumnsPadded: a 32 x 32 float tile written by rows and
// read `iters` times by columns (the access pattern of a transpose):
// float tile[32][32] against the padded float tile[32][33].
extern "C" __global__ void bankFloat(float *out, int s, int iters)
{
    extern __shared__ float smem[];
    volatile float *tile = smem;
    unsigned t = threadIdx.x;
    unsigned idx = t * s;
    tile[idx] = (float)t;
    float acc = 0.0f;
    for (int k = 0; k < iters; k++) {
        float v = tile[idx];
        acc += v;
        tile[idx] = v + 1.0f;
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

template <int W>
__device__ void tile_columns(const float *in, float *out, int iters)
{
    __shared__ float tile[32][W];
    int tx = threadIdx.x, ty = threadIdx.y;
    size_t base = (size_t)blockIdx.x * 1024 + ty * 32 + tx;
    tile[ty][tx] = in[base];                 // by rows: lanes in 32 banks
    __syncthreads();
    volatile float(*vt)[W] = tile;
    float acc = 0.0f;
    for (int k = 0; k < iters; k++)
        acc += vt[tx][ty];                   // by columns: W = 32 puts a warp in one bank
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
