// pathfinder.cu — models Rodinia pathfinder: dynamic programming down the rows
// of a wall; each launch advances a pyramid of several rows inside shared
// memory, with __syncthreads inside the row loop and a break on the last row.
// Checked exactly (integer) against a host DP.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_SIZE 256
#define HALO 1
#define IN_RANGE(x, lo, hi) (((x) >= (lo)) && ((x) <= (hi)))
#define CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : ((x) > (hi) ? (hi) : (x)))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

__global__ void dynproc(int iteration, const int *wall, const int *src, int *dst, int cols, int start_step, int border)
{
    __shared__ int prev[BLOCK_SIZE];
    __shared__ int result[BLOCK_SIZE];
    int bx = blockIdx.x, tx = threadIdx.x;
    int small_cols = BLOCK_SIZE - iteration * HALO * 2;
    int blk_x = small_cols * bx - border;
    int blk_x_max = blk_x + BLOCK_SIZE - 1;
    int xidx = blk_x + tx;
    int valid_x_min = (blk_x < 0) ? -blk_x : 0;
    int valid_x_max = (blk_x_max > cols - 1) ? BLOCK_SIZE - 1 - (blk_x_max - cols + 1) : BLOCK_SIZE - 1;
    int W = tx - 1, E = tx + 1;
    W = (W < valid_x_min) ? valid_x_min : W;
    E = (E > valid_x_max) ? valid_x_max : E;
    bool is_valid = IN_RANGE(tx, valid_x_min, valid_x_max);
    if (IN_RANGE(xidx, 0, cols - 1)) prev[tx] = src[xidx];
    __syncthreads();
    bool computed;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && is_valid) {
            computed = true;
            int left = prev[W], up = prev[tx], right = prev[E];
            int shortest = MIN(left, up);
            shortest = MIN(shortest, right);
            result[tx] = shortest + wall[cols * (start_step + i) + xidx];
        }
        __syncthreads();
        if (i == iteration - 1) break;
        if (computed) prev[tx] = result[tx];
        __syncthreads();
    }
    if (computed) dst[xidx] = result[tx];
}

int main()
{
    const int rows = 60, cols = 1500, pyramid = 8;
    int *data = (int *)malloc(rows * cols * sizeof(int));
    srand(9);
    for (int i = 0; i < rows * cols; i++) data[i] = rand() % 10;
    int border = pyramid * HALO;
    int small_cols = BLOCK_SIZE - pyramid * HALO * 2;
    int blocks = cols / small_cols + ((cols % small_cols == 0) ? 0 : 1);
    int *d_wall, *d_res[2];
    cudaMalloc((void **)&d_res[0], cols * sizeof(int));
    cudaMalloc((void **)&d_res[1], cols * sizeof(int));
    cudaMalloc((void **)&d_wall, (rows - 1) * cols * sizeof(int));
    cudaMemcpy(d_res[0], data, cols * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_wall, data + cols, (rows - 1) * cols * sizeof(int), cudaMemcpyHostToDevice);
    int src = 1, dst = 0;
    for (int t = 0; t < rows - 1; t += pyramid) {
        int tmp = src; src = dst; dst = tmp;
        dynproc<<<blocks, BLOCK_SIZE>>>(MIN(pyramid, rows - t - 1), d_wall, d_res[src], d_res[dst], cols, t, border);
    }
    int *out = (int *)malloc(cols * sizeof(int));
    cudaMemcpy(out, d_res[dst], cols * sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();

    int *a = (int *)malloc(cols * sizeof(int)), *b = (int *)malloc(cols * sizeof(int));
    for (int j = 0; j < cols; j++) a[j] = data[j];
    for (int r = 1; r < rows; r++) {
        for (int j = 0; j < cols; j++) {
            int m = a[j];
            if (j > 0) m = MIN(m, a[j - 1]);
            if (j < cols - 1) m = MIN(m, a[j + 1]);
            b[j] = m + data[r * cols + j];
        }
        int *t = a; a = b; b = t;
    }
    int bad = 0;
    for (int j = 0; j < cols; j++)
        if (a[j] != out[j]) { if (bad < 5) printf("mismatch col %d: gpu %d cpu %d\n", j, out[j], a[j]); bad++; }
    printf("pathfinder %dx%d pyramid %d, err %s\n", rows, cols, pyramid, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
