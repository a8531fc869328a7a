// shoc.cu — models SHOC level-1 kernels: Triad (c = a + s*b, float, with
// cudaEvent timing), Reduction (shared-memory tree whose last warp is
// unrolled over a volatile shared pointer, warp-synchronous as in SHOC and the
// old SDK; float and double) and Scan (SHOC's three-phase scan: per-block
// reduce, single-block top scan, bottom scan of each block plus its offset).
// Also __syncthreads_count/and/or.  Checked against the host.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

__global__ void triad(const float *A, const float *B, float *C, float s)
{
    int gid = threadIdx.x + blockIdx.x * blockDim.x;
    C[gid] = A[gid] + s * B[gid];
}

template <class T, int blockSize>
__global__ void reduce(const T *__restrict__ g_idata, T *__restrict__ g_odata, unsigned int n)
{
    extern __shared__ unsigned char smem_raw[];
    T *sdata = (T *)smem_raw;
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    sdata[tid] = 0;
    while (i < n) {
        sdata[tid] += g_idata[i] + (i + blockSize < n ? g_idata[i + blockSize] : 0);
        i += gridSize;
    }
    __syncthreads();
    if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
    if (tid < 32) {
        volatile T *s = sdata;
        if (blockSize >= 64) s[tid] += s[tid + 32];
        if (blockSize >= 32) s[tid] += s[tid + 16];
        if (blockSize >= 16) s[tid] += s[tid + 8];
        if (blockSize >= 8) s[tid] += s[tid + 4];
        if (blockSize >= 4) s[tid] += s[tid + 2];
        if (blockSize >= 2) s[tid] += s[tid + 1];
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Scan: block b owns [b*per_block, (b+1)*per_block)
__global__ void scan_reduce(const int *in, int *isums, int n, int per_block)
{
    __shared__ int s[256];
    int start = blockIdx.x * per_block, end = min(start + per_block, n);
    int sum = 0;
    for (int i = start + threadIdx.x; i < end; i += blockDim.x) sum += in[i];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d >>= 1) {
        if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
        __syncthreads();
    }
    if (threadIdx.x == 0) isums[blockIdx.x] = s[0];
}

__device__ int block_scan_inclusive(int v, int *s)  // Hillis-Steele, blockDim.x == 256
{
    int t = threadIdx.x;
    s[t] = v;
    __syncthreads();
#pragma unroll
    for (int d = 1; d < 256; d <<= 1) {
        int x = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += x;
        __syncthreads();
    }
    return s[t];
}

__global__ void scan_top(int *isums, int nblocks)
{
    __shared__ int s[256];
    int v = threadIdx.x < nblocks ? isums[threadIdx.x] : 0;
    int inc = block_scan_inclusive(v, s);
    if (threadIdx.x < nblocks) isums[threadIdx.x] = inc - v;  // exclusive
}

__global__ void scan_bottom(const int *in, int *out, const int *isums, int n, int per_block)
{
    __shared__ int s[256];
    __shared__ int carry;
    int start = blockIdx.x * per_block, end = min(start + per_block, n);
    if (threadIdx.x == 0) carry = isums[blockIdx.x];
    __syncthreads();
    for (int base = start; base < end; base += blockDim.x) {
        int i = base + threadIdx.x;
        int v = i < end ? in[i] : 0;
        int inc = block_scan_inclusive(v, s);
        if (i < end) out[i] = carry + inc - v;  // exclusive scan
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1) carry += inc;
        __syncthreads();
    }
}

__global__ void sync_preds(const int *in, int *out)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int c = __syncthreads_count(v > 0);
    int a = __syncthreads_and(v > 0);
    int o = __syncthreads_or(v > 5);
    if (threadIdx.x == 0) { out[3 * blockIdx.x] = c; out[3 * blockIdx.x + 1] = a; out[3 * blockIdx.x + 2] = o; }
}

int main()
{
    int bad = 0;
    // triad
    const int n = 1 << 16;
    float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4), *c = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) { a[i] = i * 0.5f; b[i] = (i % 100) * 0.25f; }
    float *d_a, *d_b, *d_c;
    cudaMalloc((void **)&d_a, n * 4); cudaMalloc((void **)&d_b, n * 4); cudaMalloc((void **)&d_c, n * 4);
    cudaMemcpy(d_a, a, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b, n * 4, cudaMemcpyHostToDevice);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    cudaEventRecord(e0, 0);
    triad<<<n / 128, 128>>>(d_a, d_b, d_c, 1.75f);
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    float ms = -1;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaMemcpy(c, d_c, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + 1.75f * b[i]) { if (bad < 5) printf("triad %d: %f vs %f\n", i, c[i], a[i] + 1.75f * b[i]); bad++; }
    printf("triad %d: %.4f ms, %.2f GFLOP/s (simulated)\n", n, ms, 2.0 * n / (ms * 1e6));

    // reduction, float and double
    const int rn = 100000, rblocks = 64;
    float *rf = (float *)malloc(rn * 4); double *rd = (double *)malloc(rn * 8);
    double ref = 0;
    for (int i = 0; i < rn; i++) { rf[i] = (float)(i % 17); rd[i] = (i % 17) * 0.125; ref += i % 17; }
    float *d_rf, *d_of; double *d_rd, *d_od;
    cudaMalloc((void **)&d_rf, rn * 4); cudaMalloc((void **)&d_of, rblocks * 4);
    cudaMalloc((void **)&d_rd, rn * 8); cudaMalloc((void **)&d_od, rblocks * 8);
    cudaMemcpy(d_rf, rf, rn * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_rd, rd, rn * 8, cudaMemcpyHostToDevice);
    reduce<float, 256><<<rblocks, 256, 256 * sizeof(float)>>>(d_rf, d_of, rn);
    reduce<double, 128><<<rblocks, 128, 128 * sizeof(double)>>>(d_rd, d_od, rn);
    float of[rblocks]; double od[rblocks];
    cudaMemcpy(of, d_of, sizeof(of), cudaMemcpyDeviceToHost);
    cudaMemcpy(od, d_od, sizeof(od), cudaMemcpyDeviceToHost);
    double sf = 0, sd = 0;
    for (int i = 0; i < rblocks; i++) { sf += of[i]; sd += od[i]; }
    if (sf != ref) { printf("reduce<float>: %f vs %f\n", sf, ref); bad++; }
    if (sd != ref * 0.125) { printf("reduce<double>: %f vs %f\n", sd, ref * 0.125); bad++; }

    // scan
    const int sn = 20000, sblocks = 64, per = (sn + sblocks - 1) / sblocks;
    int *si = (int *)malloc(sn * 4), *so = (int *)malloc(sn * 4);
    for (int i = 0; i < sn; i++) si[i] = (i * 7) % 13;
    int *d_si, *d_so, *d_isums;
    cudaMalloc((void **)&d_si, sn * 4); cudaMalloc((void **)&d_so, sn * 4); cudaMalloc((void **)&d_isums, sblocks * 4);
    cudaMemcpy(d_si, si, sn * 4, cudaMemcpyHostToDevice);
    scan_reduce<<<sblocks, 256>>>(d_si, d_isums, sn, per);
    scan_top<<<1, 256>>>(d_isums, sblocks);
    scan_bottom<<<sblocks, 256>>>(d_si, d_so, d_isums, sn, per);
    cudaMemcpy(so, d_so, sn * 4, cudaMemcpyDeviceToHost);
    int run = 0;
    for (int i = 0; i < sn; i++) {
        if (so[i] != run) { if (bad < 5) printf("scan %d: %d vs %d\n", i, so[i], run); bad++; }
        run += si[i];
    }

    // __syncthreads_count / and / or
    int pin[4 * 128], pout[12];
    for (int blk = 0; blk < 4; blk++)
        for (int t = 0; t < 128; t++) pin[blk * 128 + t] = blk == 0 ? 1 : blk == 1 ? (t % 3 == 0) : blk == 2 ? 0 : (t == 77 ? 9 : 1);
    int *d_pin, *d_pout;
    cudaMalloc((void **)&d_pin, sizeof(pin)); cudaMalloc((void **)&d_pout, sizeof(pout));
    cudaMemcpy(d_pin, pin, sizeof(pin), cudaMemcpyHostToDevice);
    sync_preds<<<4, 128>>>(d_pin, d_pout);
    cudaMemcpy(pout, d_pout, sizeof(pout), cudaMemcpyDeviceToHost);
    int expect[12] = {128, 1, 0, 43, 0, 0, 0, 0, 0, 128, 1, 1};
    for (int i = 0; i < 12; i++)
        if ((i % 3 == 0 ? pout[i] : pout[i] != 0) != expect[i]) { printf("syncthreads pred %d: %d vs %d\n", i, pout[i], expect[i]); bad++; }

    cudaError_t err = cudaGetLastError();
    printf("err %s\n", cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess && ms > 0) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
