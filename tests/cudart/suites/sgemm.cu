// sgemm.cu — models Parboil sgemm (register tiling), column-major:
// C(m,n) = alpha*sum_k A(m,k)*B(k,n) + beta*C(m,n).  Each block of
// TILE_M threads computes a TILE_M x TILE_N tile of C: every thread keeps
// TILE_N accumulators in registers (a fully unrolled array), one row of A
// streams through registers, and a TILE_TB_HEIGHT x TILE_N tile of B sits in
// shared memory.  __restrict__, #pragma unroll, float fma.  Checked against
// the host with a tolerance.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

__global__ void mysgemmNT(const float *__restrict__ A, int lda, const float *__restrict__ B, int ldb,
                          float *__restrict__ C, int ldc, int k, float alpha, float beta)
{
    float c[TILE_N];
#pragma unroll
    for (int i = 0; i < TILE_N; i++) c[i] = 0.0f;
    int mid = threadIdx.y * blockDim.x + threadIdx.x;  // 0..TILE_M-1
    int m = blockIdx.x * TILE_M + mid;
    int n = blockIdx.y * TILE_N + threadIdx.x;
    __shared__ float b_s[TILE_TB_HEIGHT][TILE_N];
    for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
        float a;
        b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb];  // B is k x n, ldb = n (NT form)
        __syncthreads();
#pragma unroll
        for (int j = 0; j < TILE_TB_HEIGHT; j++) {
            a = A[m + (i + j) * lda];
#pragma unroll
            for (int kk = 0; kk < TILE_N; kk++) c[kk] += a * b_s[j][kk];
        }
        __syncthreads();
    }
    int t = ldc * blockIdx.y * TILE_N + m;
#pragma unroll
    for (int i = 0; i < TILE_N; i++) C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
}

int main()
{
    const int M = 256, N = 96, K = 64;  // M % TILE_M == 0, N % TILE_N == 0, K % TILE_TB_HEIGHT == 0
    const float alpha = 1.5f, beta = 0.5f;
    float *A = (float *)malloc(M * K * 4), *B = (float *)malloc(K * N * 4), *C = (float *)malloc(M * N * 4),
          *out = (float *)malloc(M * N * 4);
    srand(29);
    for (int i = 0; i < M * K; i++) A[i] = (rand() % 2000) / 1000.0f - 1.0f;  // column-major M x K: A[m + k*M]
    for (int i = 0; i < K * N; i++) B[i] = (rand() % 2000) / 1000.0f - 1.0f;  // B[n + k*N]
    for (int i = 0; i < M * N; i++) C[i] = (rand() % 2000) / 1000.0f - 1.0f;  // column-major M x N: C[m + n*M]
    float *dA, *dB, *dC;
    cudaMalloc((void **)&dA, M * K * 4); cudaMalloc((void **)&dB, K * N * 4); cudaMalloc((void **)&dC, M * N * 4);
    cudaMemcpy(dA, A, M * K * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, K * N * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, C, M * N * 4, cudaMemcpyHostToDevice);
    dim3 grid(M / TILE_M, N / TILE_N), threads(TILE_N, TILE_TB_HEIGHT);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    cudaEventRecord(e0);
    mysgemmNT<<<grid, threads>>>(dA, M, dB, N, dC, M, K, alpha, beta);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaMemcpy(out, dC, M * N * 4, cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();
    int bad = 0;
    for (int n = 0; n < N; n++)
        for (int m = 0; m < M; m++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += (double)A[m + k * M] * B[n + k * N];
            double r = C[m + n * M] * beta + alpha * s;
            if (fabs(r - out[m + n * M]) > 1e-4 * (fabs(r) + 1)) {
                if (bad < 5) printf("C(%d,%d): gpu %f cpu %f\n", m, n, out[m + n * M], r);
                bad++;
            }
        }
    printf("sgemm %dx%dx%d: %.4f ms, %.1f GFLOP/s (simulated), err %s\n", M, N, K, ms, 2.0 * M * N * K / (ms * 1e6),
           cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
