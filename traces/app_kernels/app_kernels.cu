// app_kernels.cu — ten application-style kernels written to check warpsim's
// timing model blind, on code it has not been fitted to (after
// traces/common_kernels, traces/more_kernels, traces/classic_kernels and
// traces/polybench).  README.md says what each stresses.  Floating-point
// results use the _rn intrinsics, so that nvcc cannot contract or reorder
// them and a plain C model reproduces them bit for bit.
#include <cstdint>
#include <cuda_fp16.h>

// ---------------------------------------------------------------------------
// Thermal diffusion on an n x n grid, HS_STEPS time steps per launch.  Each
// 16 x 16 block stages a tile with a halo of HS_STEPS cells, advances it in
// shared memory (the cells still correct shrink by one per step, a barrier
// between steps) and writes the 8 x 8 centre.  At the grid's edges a missing
// neighbour is the cell itself.
#define HS_TILE 16
#define HS_STEPS 4
extern "C" __global__ void hotspotTile(int n, float k, float cp, float ca, float amb,
                                       const float *power, const float *tin, float *tout)
{
    __shared__ float buf[2][HS_TILE][HS_TILE];
    const int span = HS_TILE - 2 * HS_STEPS;
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * span - HS_STEPS + tx;
    int gy = blockIdx.y * span - HS_STEPS + ty;
    int cx = min(max(gx, 0), n - 1), cy = min(max(gy, 0), n - 1);
    buf[0][ty][tx] = tin[cy * n + cx];
    float p = power[cy * n + cx];
    int xw = gx == 0 ? tx : tx - 1, xe = gx == n - 1 ? tx : tx + 1;
    int yn = gy == 0 ? ty : ty - 1, ys = gy == n - 1 ? ty : ty + 1;
    int cur = 0;
    for (int s = 1; s <= HS_STEPS; s++) {
        __syncthreads();
        if (tx >= s && tx < HS_TILE - s && ty >= s && ty < HS_TILE - s) {
            float t = buf[cur][ty][tx];
            float lap = __fsub_rn(__fadd_rn(__fadd_rn(buf[cur][yn][tx], buf[cur][ys][tx]),
                                            __fadd_rn(buf[cur][ty][xw], buf[cur][ty][xe])),
                                  __fmul_rn(4.0f, t));
            float v = __fmaf_rn(ca, __fsub_rn(amb, t), t);
            v = __fmaf_rn(cp, p, v);
            v = __fmaf_rn(k, lap, v);
            buf[cur ^ 1][ty][tx] = v;
        }
        cur ^= 1;
    }
    if (tx >= HS_STEPS && tx < HS_TILE - HS_STEPS && ty >= HS_STEPS && ty < HS_TILE - HS_STEPS &&
        gx < n && gy < n)
        tout[gy * n + gx] = buf[cur][ty][tx];
}

// ---------------------------------------------------------------------------
// Minimum-cost path down a grid of weights (dynamic programming): row r's
// cost at column c is wall[r][c] plus the least of row r-1's costs at c-1, c,
// c+1.  A block of 256 threads advances `steps` rows over 256 columns held in
// shared memory (a barrier per row) and writes the 256 - 2 steps in the
// middle, whose inputs stayed inside the block.
#define PF_BLOCK 256
extern "C" __global__ void pathRows(int cols, int row0, int steps, const int *wall,
                                    const int *src, int *dst)
{
    __shared__ int prev[PF_BLOCK];
    const int big = 1 << 30;
    int tx = threadIdx.x;
    int width = PF_BLOCK - 2 * steps;
    int c = blockIdx.x * width - steps + tx;
    bool inside = c >= 0 && c < cols;
    prev[tx] = inside ? src[c] : big;
    for (int i = 0; i < steps; i++) {
        __syncthreads();
        int v = prev[tx];
        if (inside && tx > i && tx < PF_BLOCK - 1 - i) {
            int m = min(prev[tx - 1], min(v, prev[tx + 1]));
            v = m + wall[(size_t)(row0 + i + 1) * cols + c];
        }
        __syncthreads();
        prev[tx] = v;
    }
    if (inside && tx >= steps && tx < PF_BLOCK - steps)
        dst[c] = prev[tx];
}

// ---------------------------------------------------------------------------
// Needleman-Wunsch global alignment of a batch of sequence pairs of length
// NW_L, one pair per block of NW_L threads: thread t owns row t + 1 of the
// score matrix in shared memory and computes its cell of each anti-diagonal
// (active lanes change every diagonal; a barrier per diagonal).  The rows
// are padded to NW_L + 2 so that a diagonal's cells lie in different banks.
// Writes the last row of each pair's matrix.
#define NW_L 64
extern "C" __global__ void nwBatch(int match, int mismatch, int gap, const uint8_t *seqa,
                                   const uint8_t *seqb, int *lastRow)
{
    __shared__ int h[NW_L + 1][NW_L + 2];
    __shared__ uint8_t b[NW_L];
    int t = threadIdx.x;
    size_t pair = blockIdx.x;
    int ai = seqa[pair * NW_L + t];
    b[t] = seqb[pair * NW_L + t];
    h[t + 1][0] = (t + 1) * gap;
    h[0][t + 1] = (t + 1) * gap;
    if (t == 0)
        h[0][0] = 0;
    __syncthreads();
    for (int d = 0; d < 2 * NW_L - 1; d++) {
        int j = d - t;
        if (j >= 0 && j < NW_L) {
            int diag = h[t][j] + (ai == b[j] ? match : mismatch);
            int up = h[t][j + 1] + gap;
            int left = h[t + 1][j] + gap;
            h[t + 1][j + 1] = max(diag, max(up, left));
        }
        __syncthreads();
    }
    lastRow[pair * NW_L + t] = h[NW_L][t + 1];
}

// ---------------------------------------------------------------------------
// One level of a breadth-first search, one thread per vertex.  Vertex v has
// deg[v] neighbours, adj[v * BFS_SLOTS + e] for e < deg[v].  A vertex of the
// frontier (fin[v] set; at level 1, the source alone, which takes cost 1)
// leaves it and gives every unvisited neighbour (cost 0) the cost level + 1
// and a place in the next frontier.  Racing writers write the same values,
// so the result does not depend on their order.
#define BFS_SLOTS 16
extern "C" __global__ void bfsLevel(int n, int level, int src, const int *deg, const int *adj,
                                    int *cost, uint8_t *fin, uint8_t *fout)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    bool frontier = fin[v];
    if (level == 1 && v == src) {
        cost[v] = 1;
        frontier = true;
    }
    if (!frontier)
        return;
    fin[v] = 0;
    int d = deg[v];
    for (int e = 0; e < d; e++) {
        int u = adj[(size_t)v * BFS_SLOTS + e];
        if (cost[u] == 0) {
            cost[u] = level + 1;
            fout[u] = 1;
        }
    }
}

// ---------------------------------------------------------------------------
// k-means assignment step: each point (KM_D features, stored feature-major)
// finds the nearest of KM_K centroids, which live in __constant__ memory and
// are read at the same address by every lane (a broadcast).
#define KM_K 32
#define KM_D 16
__constant__ float kmCentroids[KM_K * KM_D];
extern "C" __global__ void kmeansAssign(int n, const float *feat, int *assign, float *dist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x[KM_D];
#pragma unroll
    for (int d = 0; d < KM_D; d++)
        x[d] = feat[(size_t)d * n + i];
    float best = __int_as_float(0x7f800000);
    int bk = 0;
    for (int k = 0; k < KM_K; k++) {
        float s = 0.0f;
#pragma unroll
        for (int d = 0; d < KM_D; d++) {
            float diff = __fsub_rn(x[d], kmCentroids[k * KM_D + d]);
            s = __fmaf_rn(diff, diff, s);
        }
        if (s < best) {
            best = s;
            bk = k;
        }
    }
    assign[i] = bk;
    dist[i] = best;
}

// ---------------------------------------------------------------------------
// Sparse matrix-vector product, CSR, one warp per row: the lanes stride
// through the row's non-zeros, x is read through the read-only path, and a
// __shfl_down_sync tree sums the lanes.
extern "C" __global__ void spmvCsrWarp(int rows, const int *rowptr, const int *col,
                                       const float *val, const float *__restrict__ x,
                                       float *y)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows)
        return;
    int begin = rowptr[row], end = rowptr[row + 1];
    float s = 0.0f;
    for (int j = begin + lane; j < end; j += 32)
        s = __fmaf_rn(val[j], __ldg(&x[col[j]]), s);
    for (int off = 16; off > 0; off /= 2)
        s = __fadd_rn(s, __shfl_down_sync(0xffffffffu, s, off));
    if (lane == 0)
        y[row] = s;
}

// ---------------------------------------------------------------------------
// Half-precision arithmetic: four chains of the quadratic map h = h * h + c
// on __half2 pairs (c = -1.5 in the low half, -1.25 in the high half, which
// keep [-1, 1] inputs bounded), `rounds` __hfma2 each, summed with __hadd2.
// Launched in blocks of 32 threads, so the blocks-per-SM limit, not warps,
// bounds occupancy.
extern "C" __global__ void hfma2Chains(int n, int rounds, const float2 *in, __half2 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float2 f = in[i];
    __half2 c = __floats2half2_rn(-1.5f, -1.25f);
    __half2 h0 = __floats2half2_rn(f.x, f.y);
    __half2 h1 = __floats2half2_rn(f.y, f.x);
    __half2 h2 = __floats2half2_rn(-f.x, f.y);
    __half2 h3 = __floats2half2_rn(f.x, -f.y);
#pragma unroll 4
    for (int r = 0; r < rounds; r++) {
        h0 = __hfma2(h0, h0, c);
        h1 = __hfma2(h1, h1, c);
        h2 = __hfma2(h2, h2, c);
        h3 = __hfma2(h3, h3, c);
    }
    out[i] = __hadd2(__hadd2(h0, h1), __hadd2(h2, h3));
}

// ---------------------------------------------------------------------------
// Double precision, compute-bound: a Chebyshev series of CH_TERMS terms
// (coefficients in __constant__ memory, at addresses known at compile time
// once the loop is unrolled) summed by Clenshaw's recurrence, two FP64
// operations per term, for two points per thread (x[i] and x[i + half]:
// two independent chains).  The grid is sized to 1.1 waves.
#define CH_TERMS 256
__constant__ double chebCoef[CH_TERMS];
extern "C" __global__ void clenshawF64(const double *x, double *y)
{
    int half = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double t = x[i], u = x[i + half];
    double t2 = __dadd_rn(t, t), u2 = __dadd_rn(u, u);
    double a1 = 0.0, a2 = 0.0, c1 = 0.0, c2 = 0.0;
#pragma unroll
    for (int k = CH_TERMS - 1; k >= 1; k--) {
        double ck = chebCoef[k];
        double a0 = __fma_rn(t2, a1, __dsub_rn(ck, a2));
        double c0 = __fma_rn(u2, c1, __dsub_rn(ck, c2));
        a2 = a1;
        a1 = a0;
        c2 = c1;
        c1 = c0;
    }
    y[i] = __fma_rn(t, a1, __dsub_rn(chebCoef[0], a2));
    y[i + half] = __fma_rn(u, c1, __dsub_rn(chebCoef[0], c2));
}

// ---------------------------------------------------------------------------
// Byte histogram of 256 bins: per-block counts with atomicAdd on shared
// memory (four per 32-bit word read, lanes of a warp often on the same bin),
// then one global atomicAdd per non-empty bin per block.
#define HB_BINS 256
extern "C" __global__ void histBytes(int nwords, const uint32_t *data, unsigned *bins)
{
    __shared__ unsigned h[HB_BINS];
    for (int b = threadIdx.x; b < HB_BINS; b += blockDim.x)
        h[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
        uint32_t w = data[i];
        atomicAdd(&h[w & 0xffu], 1u);
        atomicAdd(&h[(w >> 8) & 0xffu], 1u);
        atomicAdd(&h[(w >> 16) & 0xffu], 1u);
        atomicAdd(&h[w >> 24], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < HB_BINS; b += blockDim.x)
        if (h[b])
            atomicAdd(&bins[b], h[b]);
}

// ---------------------------------------------------------------------------
// Order-preserving stream compaction within a block: each block walks
// BC_ITEMS tiles of blockDim.x elements; __syncthreads_count gives the
// tile's kept total, a ballot and the warps' counts in shared memory give
// each kept element its place.  Block b writes its kept elements, in order,
// from out[b * blockDim.x * BC_ITEMS] and their number to counts[b].
#define BC_ITEMS 8
extern "C" __global__ void blockCompact(int n, float threshold, const float *in, float *out,
                                        int *counts)
{
    __shared__ int warpCount[32];
    int tid = threadIdx.x, lane = tid % 32, wid = tid / 32;
    int base = blockIdx.x * blockDim.x * BC_ITEMS;
    int written = 0;
    for (int it = 0; it < BC_ITEMS; it++) {
        int i = base + it * blockDim.x + tid;
        float v = i < n ? in[i] : 0.0f;
        int keep = i < n && v > threshold;
        unsigned bal = __ballot_sync(0xffffffffu, keep);
        if (lane == 0)
            warpCount[wid] = __popc(bal);
        int total = __syncthreads_count(keep);
        int before = 0;
        for (int w = 0; w < wid; w++)
            before += warpCount[w];
        if (keep)
            out[base + written + before + __popc(bal & ((1u << lane) - 1u))] = v;
        written += total;
        __syncthreads();
    }
    if (tid == 0)
        counts[blockIdx.x] = written;
}
