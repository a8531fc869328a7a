// nw.cu — models Rodinia needleman-wunsch: a score matrix processed in 16x16
// blocks along block anti-diagonals (one kernel for the growing half, one for
// the shrinking half, one launch per block diagonal); inside a block a
// diagonal wavefront over 2D shared arrays with __syncthreads per step.
// Checked exactly against a host DP.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16

__device__ __host__ int maximum(int a, int b, int c)
{
    int k = a <= b ? b : a;
    return k <= c ? c : k;
}

__device__ void nw_block(int *ref, int *score, int cols, int penalty, int b_index_x, int b_index_y)
{
    int tx = threadIdx.x;
    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref_s[BLOCK_SIZE][BLOCK_SIZE];
    int base = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;
    int index = base + tx + 1 + cols;           // (row 1, col tx+1) relative to block origin
    int index_n = base + tx + 1;                // row 0
    int index_w = base + cols;                  // col 0
    int index_nw = base;
    if (tx == 0) temp[tx][0] = score[index_nw];
    for (int ty = 0; ty < BLOCK_SIZE; ty++) ref_s[ty][tx] = ref[index + cols * ty];
    __syncthreads();
    temp[tx + 1][0] = score[index_w + cols * tx];
    __syncthreads();
    temp[0][tx + 1] = score[index_n];
    __syncthreads();
    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int t_x = tx + 1, t_y = m - tx + 1;
            temp[t_y][t_x] = maximum(temp[t_y - 1][t_x - 1] + ref_s[t_y - 1][t_x - 1],
                                     temp[t_y][t_x - 1] - penalty, temp[t_y - 1][t_x] - penalty);
        }
        __syncthreads();
    }
    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int t_x = tx + BLOCK_SIZE - m, t_y = BLOCK_SIZE - tx;
            temp[t_y][t_x] = maximum(temp[t_y - 1][t_x - 1] + ref_s[t_y - 1][t_x - 1],
                                     temp[t_y][t_x - 1] - penalty, temp[t_y - 1][t_x] - penalty);
        }
        __syncthreads();
    }
    for (int ty = 0; ty < BLOCK_SIZE; ty++) score[index + ty * cols] = temp[ty + 1][tx + 1];
}

__global__ void nw_kernel1(int *ref, int *score, int cols, int penalty, int i, int block_width)
{
    int bx = blockIdx.x;
    nw_block(ref, score, cols, penalty, bx, i - 1 - bx);
}

__global__ void nw_kernel2(int *ref, int *score, int cols, int penalty, int i, int block_width)
{
    int bx = blockIdx.x;
    nw_block(ref, score, cols, penalty, bx + block_width - i, block_width - bx - 1);
}

int main()
{
    const int n = 256, penalty = 10;
    int cols = n + 1, rows = n + 1, size = rows * cols;
    int *score = (int *)calloc(size, sizeof(int)), *ref = (int *)calloc(size, sizeof(int));
    int *in1 = (int *)malloc(rows * sizeof(int)), *in2 = (int *)malloc(cols * sizeof(int));
    srand(5);
    for (int i = 1; i < rows; i++) in1[i] = rand() % 10 + 1;
    for (int j = 1; j < cols; j++) in2[j] = rand() % 10 + 1;
    for (int i = 1; i < rows; i++)
        for (int j = 1; j < cols; j++) ref[i * cols + j] = ((in1[i] * 7 + in2[j] * 3) % 21) - 10;
    for (int i = 1; i < rows; i++) score[i * cols] = -i * penalty;
    for (int j = 1; j < cols; j++) score[j] = -j * penalty;
    int *d_ref, *d_score;
    cudaMalloc((void **)&d_ref, size * sizeof(int));
    cudaMalloc((void **)&d_score, size * sizeof(int));
    cudaMemcpy(d_ref, ref, size * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_score, score, size * sizeof(int), cudaMemcpyHostToDevice);
    int block_width = n / BLOCK_SIZE;
    dim3 threads(BLOCK_SIZE);
    for (int i = 1; i <= block_width; i++)
        nw_kernel1<<<dim3(i), threads>>>(d_ref, d_score, cols, penalty, i, block_width);
    for (int i = block_width - 1; i >= 1; i--)
        nw_kernel2<<<dim3(i), threads>>>(d_ref, d_score, cols, penalty, i, block_width);
    int *out = (int *)malloc(size * sizeof(int));
    cudaMemcpy(out, d_score, size * sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();
    for (int i = 1; i < rows; i++)
        for (int j = 1; j < cols; j++)
            score[i * cols + j] = maximum(score[(i - 1) * cols + j - 1] + ref[i * cols + j],
                                          score[i * cols + j - 1] - penalty, score[(i - 1) * cols + j] - penalty);
    int bad = 0;
    for (int i = 0; i < size; i++)
        if (score[i] != out[i]) { if (bad < 5) printf("mismatch (%d,%d): gpu %d cpu %d\n", i / cols, i % cols, out[i], score[i]); bad++; }
    printf("nw %d, final score %d, err %s\n", n, out[size - 1], cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
