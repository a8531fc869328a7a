// Seven everyday kernels (traces/common_kernels): not from the seeds, written to check the timing model on code its parameters were not fitted to.
extern "C" __global__ void spmvEll(int n, int k, const float *val, const int *col, const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    float sum = 0.0f;
    for (int j = 0; j < k; j++) {
        int c = col[j * n + row];
        if (c >= 0) sum += val[j * n + row] * x[c];
    }
    y[row] = sum;
}

extern "C" __global__ void nbody(int n, const float4 *pos, float4 *acc)
{
    extern __shared__ float4 tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = pos[i];
    float3 a = {0.f, 0.f, 0.f};
    for (int t = 0; t < n; t += blockDim.x) {
        tile[threadIdx.x] = pos[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < blockDim.x; j++) {
            float4 q = tile[j];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float d2 = dx * dx + dy * dy + dz * dz + 1e-3f;
            float inv = rsqrtf(d2);
            float s = q.w * inv * inv * inv;
            a.x += dx * s; a.y += dy * s; a.z += dz * s;
        }
        __syncthreads();
    }
    acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

extern "C" __global__ void softmaxRows(int cols, const float *in, float *out)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    const float *r = in + (size_t)row * cols;
    float m = -1e30f;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, r[c]);
    for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += __expf(r[c] - m);
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    float inv = 1.f / s;
    for (int c = lane; c < cols; c += 32) out[(size_t)row * cols + c] = __expf(r[c] - m) * inv;
}

__constant__ float filt[25];
extern "C" __global__ void conv5x5(int w, int h, const float *in, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) return;
    float s = 0.f;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            s += filt[(dy + 2) * 5 + dx + 2] * in[(y + dy) * w + x + dx];
    out[y * w + x] = s;
}

extern "C" __global__ void vecAdd4(int n4, const float4 *a, const float4 *b, float4 *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" __global__ void histGlobal(int n, const unsigned *data, unsigned *bins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i] % 64], 1u);
}

extern "C" __global__ void transposeSmem(int n, const float *in, float *out)
{
    __shared__ float t[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}
