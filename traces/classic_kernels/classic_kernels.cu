// Eight classic kernels (traces/classic_kernels): not from the seeds, written after the timing model's last fit to check it on code it has not seen.
extern "C" __global__ void mandelbrot(int w, int h, float x0, float y0, float dx, float dy, int maxit, int *iters)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h) return;
    float cr = x0 + px * dx, ci = y0 + py * dy;
    float zr = 0.f, zi = 0.f;
    int i = 0;
    while (i < maxit && zr * zr + zi * zi <= 4.f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.f * zr * zi + ci;
        zr = t;
        i++;
    }
    iters[py * w + px] = i;
}

__device__ float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.f / (1.f + 0.2316419f * fabsf(d));
    float c = 0.3989422804f * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.f - c : c;
}

extern "C" __global__ void blackScholes(int n, const float *price, const float *strike, const float *years,
                                        float r, float v, float *call, float *put)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = price[i], x = strike[i], t = years[i];
    float sq = sqrtf(t);
    float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
    float d2 = d1 - v * sq;
    float e = expf(-r * t);
    call[i] = s * cnd(d1) - x * e * cnd(d2);
    put[i] = x * e * (1.f - cnd(d2)) - s * (1.f - cnd(d1));
}

extern "C" __global__ void gemvWarp(int rows, int cols, const float *a, const float *x, float *y)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += a[(size_t)row * cols + c] * x[c];
    for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0) y[row] = s;
}

extern "C" __global__ void gatherScale(int n, const int *idx, const float *table, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[idx[i]] * 2.f + 1.f;
}

// C = A * B, A m x k, B k x n, row-major; 64 x 64 tiles of C per 256-thread block, 4 x 4 per thread
extern "C" __global__ void sgemmTiled(int m, int n, int k, const float *a, const float *b, float *c)
{
    __shared__ float as[8][64];
    __shared__ float bs[8][64];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < k; k0 += 8) {
        for (int e = threadIdx.x; e < 8 * 64; e += 256) {
            int r = e / 8, kk = e % 8;
            as[kk][r] = a[(row0 + r) * k + k0 + kk];
            int kb = e / 64, cb = e % 64;
            bs[kb][cb] = b[(k0 + kb) * n + col0 + cb];
        }
        __syncthreads();
        for (int kk = 0; kk < 8; kk++) {
            float av[4], bv[4];
            for (int i = 0; i < 4; i++) av[i] = as[kk][ty * 4 + i];
            for (int j = 0; j < 4; j++) bv[j] = bs[kk][tx * 4 + j];
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) c[(row0 + ty * 4 + i) * n + col0 + tx * 4 + j] = acc[i][j];
}

extern "C" __global__ void xorshiftHash(int n, int rounds, const unsigned *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];
    for (int r = 0; r < rounds; r++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x = x * 0x9E3779B1u + (unsigned)r;
    }
    out[i] = x;
}

// 3 x 3 box blur of a w x h image through a shared 18 x 18 tile (16 x 16 blocks), edges clamped
extern "C" __global__ void blur3x3(int w, int h, const float *in, float *out)
{
    __shared__ float tile[18][18];
    int bx = blockIdx.x * 16, by = blockIdx.y * 16;
    for (int e = threadIdx.y * 16 + threadIdx.x; e < 18 * 18; e += 256) {
        int ty = e / 18, tx = e % 18;
        int gx = min(max(bx + tx - 1, 0), w - 1), gy = min(max(by + ty - 1, 0), h - 1);
        tile[ty][tx] = in[gy * w + gx];
    }
    __syncthreads();
    float s = 0.f;
    for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++) s += tile[threadIdx.y + dy][threadIdx.x + dx];
    out[(by + threadIdx.y) * w + bx + threadIdx.x] = s * (1.f / 9.f);
}

extern "C" __global__ void sumShfl(int n, const int *in, int *total)
{
    int s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if (threadIdx.x % 32 == 0) atomicAdd(total, s);
}
