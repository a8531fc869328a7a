// Lab "occupancy": seed 000 (Pereira, code optimisation for GPUs, §1.2 and
// Table 1.1): the matrix products of Fig. 1.22 and Fig. 1.24, whose
// register counts (9 and 11 on a G80) decide how many 256-thread blocks an
// 8800 GTX SM holds (8,192 registers, 768 threads: 3 blocks or 2).
//
// matMulCoalesced (Fig. 1.22): A = B x C, one thread per element of A, any
// block shape whose grid covers the W x W matrix.
// matMulTiled (Fig. 1.24): the same product through 16 x 16 tiles of B and
// C in shared memory (2 KiB per block); blocks must be 16 x 16.
// `#pragma unroll 1` keeps the inner loop rolled, as in the document.
extern "C" __global__ void matMulCoalesced(float *B, float *C, float *A, int W)
{
    float Pvalue = 0.0;
    int tx = blockIdx.x * blockDim.x + threadIdx.x;
    int ty = blockIdx.y * blockDim.y + threadIdx.y;
    for (int k = 0; k < W; ++k)
        Pvalue += B[ty * W + k] * C[k * W + tx];
    A[tx + ty * W] = Pvalue;
}

#define TILE_WIDTH 16
extern "C" __global__ void matMulTiled(float *B, float *C, float *A, int Width)
{
    __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Cs[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int Row = blockIdx.x * TILE_WIDTH + tx;
    int Col = blockIdx.y * TILE_WIDTH + ty;
    float Pvalue = 0;
    for (int m = 0; m < Width / TILE_WIDTH; ++m) {
        Bs[ty][tx] = B[Col * Width + (m * TILE_WIDTH + tx)];
        Cs[ty][tx] = C[Row + (m * TILE_WIDTH + ty) * Width];
        __syncthreads();
#pragma unroll 1
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Bs[ty][k] * Cs[k][tx];
        __syncthreads();
    }
    A[Col * Width + Row] = Pvalue;
}
