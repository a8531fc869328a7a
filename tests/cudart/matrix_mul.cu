// matrix_mul.cu — matrixMul as the samples do it: a tiled kernel templated
// on BLOCK_SIZE, a warm-up launch, events around repeated launches, the
// GFlop/s printout, and a relative-error check against a host product.
#include <cmath>
#include "sample_helpers.h"

template <int BLOCK_SIZE>
__global__ void matrixMulCUDA(float *C, const float *A, const float *B, int wA, int wB)
{
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1, aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx, bStep = BLOCK_SIZE * wB;
    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

static void constantInit(float *data, int size, float val)
{
    for (int i = 0; i < size; ++i)
        data[i] = val;
}

template <int BLOCK_SIZE>
static bool run(dim3 dimsA, dim3 dimsB)
{
    unsigned sizeA = dimsA.x * dimsA.y, sizeB = dimsB.x * dimsB.y;
    float *h_A, *h_B, *h_C;
    checkCudaErrors(cudaMallocHost(&h_A, sizeA * sizeof(float)));
    checkCudaErrors(cudaMallocHost(&h_B, sizeB * sizeof(float)));
    const float valB = 0.01f;
    constantInit(h_A, sizeA, 1.0f);
    constantInit(h_B, sizeB, valB);
    dim3 dimsC(dimsB.x, dimsA.y, 1);
    unsigned sizeC = dimsC.x * dimsC.y;
    checkCudaErrors(cudaMallocHost(&h_C, sizeC * sizeof(float)));
    float *d_A, *d_B, *d_C;
    checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_A), sizeA * sizeof(float)));
    checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_B), sizeB * sizeof(float)));
    checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_C), sizeC * sizeof(float)));
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    checkCudaErrors(cudaMemcpyAsync(d_A, h_A, sizeA * sizeof(float), cudaMemcpyHostToDevice, stream));
    checkCudaErrors(cudaMemcpyAsync(d_B, h_B, sizeB * sizeof(float), cudaMemcpyHostToDevice, stream));
    dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
    dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
    std::printf("Computing result using CUDA Kernel...\n");
    matrixMulCUDA<BLOCK_SIZE><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
    getLastCudaError("warm-up launch");
    std::printf("done\n");
    checkCudaErrors(cudaStreamSynchronize(stream));
    checkCudaErrors(cudaEventRecord(start, stream));
    const int nIter = 3;
    for (int j = 0; j < nIter; j++)
        matrixMulCUDA<BLOCK_SIZE><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
    checkCudaErrors(cudaEventRecord(stop, stream));
    checkCudaErrors(cudaEventSynchronize(stop));
    float msecTotal = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&msecTotal, start, stop));
    float msecPerMatrixMul = msecTotal / nIter;
    double flopsPerMatrixMul = 2.0 * dimsA.x * dimsA.y * dimsB.x;
    double gigaFlops = (flopsPerMatrixMul * 1.0e-9f) / (msecPerMatrixMul / 1000.0f);
    std::printf("Performance= %.2f GFlop/s, Time= %.3f msec, Size= %.0f Ops, WorkgroupSize= %u threads/block\n",
                gigaFlops, msecPerMatrixMul, flopsPerMatrixMul, threads.x * threads.y);
    checkCudaErrors(cudaMemcpyAsync(h_C, d_C, sizeC * sizeof(float), cudaMemcpyDeviceToHost, stream));
    checkCudaErrors(cudaStreamSynchronize(stream));
    std::printf("Checking computed result for correctness: ");
    bool correct = msecTotal > 0.0f;
    double eps = 1.e-6;
    for (int i = 0; i < (int)sizeC; i++) {
        double abs_err = std::fabs(h_C[i] - (dimsA.x * valB));
        double abs_val = std::fabs(h_C[i]);
        double rel_err = abs_err / abs_val / dimsA.x;
        if (rel_err > eps) {
            std::printf("Error! Matrix[%05d]=%.8f, ref=%.8f error term is > %E\n", i, h_C[i], dimsA.x * valB, eps);
            correct = false;
        }
    }
    std::printf("%s\n", correct ? "Result = PASS" : "Result = FAIL");
    checkCudaErrors(cudaFreeHost(h_A));
    checkCudaErrors(cudaFreeHost(h_B));
    checkCudaErrors(cudaFreeHost(h_C));
    checkCudaErrors(cudaFree(d_A));
    checkCudaErrors(cudaFree(d_B));
    checkCudaErrors(cudaFree(d_C));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaStreamDestroy(stream));
    return correct;
}

int main(int argc, char **argv)
{
    std::printf("[Matrix Multiply Using CUDA] - Starting...\n");
    findCudaDevice(argc, (const char **)argv);
    bool ok = run<16>(dim3(64, 64, 1), dim3(96, 64, 1));
    ok = run<32>(dim3(64, 32, 1), dim3(32, 64, 1)) && ok;
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS matrix_mul\n");
    return 0;
}
