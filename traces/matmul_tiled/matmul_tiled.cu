// matMulTiled: seed 000 Fig. 1.24 (printed as matMultTiled; Table 1.1 calls
// it matMulTiled), third row of Table 1.1 (11.75x).  16x16 tiles of B and C
// are staged in shared memory; `#pragma unroll 1` keeps the inner loop
// rolled as in the document (11 registers on G80, 2/3 occupancy).
#define TILE_WIDTH 16

extern "C" __global__ void matMulTiled(float *B, float *C, float *A, int Width)
{
    __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Cs[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    // Identify the row and column of the A element to work on
    int Row = blockIdx.x * TILE_WIDTH + tx;
    int Col = blockIdx.y * TILE_WIDTH + ty;
    float Pvalue = 0;
    // Loop over the B and C tiles required to compute the A element
    for (int m = 0; m < Width / TILE_WIDTH; ++m) {
        // Collaborative loading of B and C tiles into shared memory
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
