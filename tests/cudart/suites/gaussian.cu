// gaussian.cu — models Rodinia gaussian elimination: for every pivot column
// t the host launches Fan1 (1D: multipliers of column t) and Fan2 (2D grid:
// update the trailing matrix and the right-hand side), i.e. 2*(n-1) small
// launches; back substitution on the host.  Solution checked against a known
// x with a tolerance.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <sys/time.h>
#include <cuda_runtime.h>

#define MAXBLOCKSIZE 512
#define BLOCK_SIZE_XY 4

__global__ void Fan1(float *m, float *a, int size, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= size - 1 - t) return;
    int row = blockDim.x * blockIdx.x + threadIdx.x + t + 1;
    m[size * row + t] = a[size * row + t] / a[size * t + t];
}

__global__ void Fan2(float *m, float *a, float *b, int size, int j1, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= size - 1 - t) return;
    if (threadIdx.y + blockIdx.y * blockDim.y >= size - t) return;
    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;
    a[size * (xidx + 1 + t) + (yidx + t)] -= m[size * (xidx + 1 + t) + t] * a[size * t + (yidx + t)];
    if (yidx == 0) b[xidx + 1 + t] -= m[size * (xidx + 1 + t) + (yidx + t)] * b[t];
}

int main()
{
    const int size = 48;
    float *a = (float *)malloc(size * size * 4), *b = (float *)malloc(size * 4), *x = (float *)malloc(size * 4);
    float *m = (float *)calloc(size * size, 4);
    srand(17);
    for (int i = 0; i < size; i++) x[i] = (rand() % 200) / 100.0f - 1.0f;
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++) a[i * size + j] = (i == j) ? size + 1.0f : (rand() % 100) / 100.0f;
    for (int i = 0; i < size; i++) {
        double s = 0;
        for (int j = 0; j < size; j++) s += (double)a[i * size + j] * x[j];
        b[i] = (float)s;
    }
    float *d_m, *d_a, *d_b;
    cudaMalloc((void **)&d_m, size * size * 4); cudaMalloc((void **)&d_a, size * size * 4); cudaMalloc((void **)&d_b, size * 4);
    cudaMemcpy(d_m, m, size * size * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_a, a, size * size * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b, size * 4, cudaMemcpyHostToDevice);
    int block1 = MAXBLOCKSIZE, grid1 = size / block1 + (size % block1 != 0);
    int grid2 = size / BLOCK_SIZE_XY + (size % BLOCK_SIZE_XY != 0);
    dim3 dimBlock(block1), dimGrid(grid1), dimBlockXY(BLOCK_SIZE_XY, BLOCK_SIZE_XY), dimGridXY(grid2, grid2);
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    for (int t = 0; t < size - 1; t++) {
        Fan1<<<dimGrid, dimBlock>>>(d_m, d_a, size, t);
        cudaDeviceSynchronize();
        Fan2<<<dimGridXY, dimBlockXY>>>(d_m, d_a, d_b, size, size - t, t);
        cudaDeviceSynchronize();
    }
    gettimeofday(&t1, NULL);
    cudaMemcpy(a, d_a, size * size * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(b, d_b, size * 4, cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();
    float *sol = (float *)malloc(size * 4);
    for (int i = size - 1; i >= 0; i--) {
        float s = b[i];
        for (int j = i + 1; j < size; j++) s -= a[i * size + j] * sol[j];
        sol[i] = s / a[i * size + i];
    }
    int bad = 0;
    for (int i = 0; i < size; i++)
        if (fabsf(sol[i] - x[i]) > 1e-3f) { if (bad < 5) printf("x[%d]: gpu %f expected %f\n", i, sol[i], x[i]); bad++; }
    printf("gaussian %d, %d launches, %.1f ms host time, err %s\n", size, 2 * (size - 1),
           (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) / 1e3, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
