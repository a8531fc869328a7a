// matMulUnroll: seed 000 Fig. 1.26, last row of Table 1.1 (26.28x, 2.25x
// over matMulTiled).  matMulTiled with the 16-step inner loop written out
// by hand, so the induction variable and its branch disappear.
#define TILE_WIDTH 16

extern "C" __global__ void matMulUnroll(float *B, float *C, float *Pd, int Width)
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
        Pvalue += Bs[ty][0] * Cs[0][tx];
        Pvalue += Bs[ty][1] * Cs[1][tx];
        Pvalue += Bs[ty][2] * Cs[2][tx];
        Pvalue += Bs[ty][3] * Cs[3][tx];
        Pvalue += Bs[ty][4] * Cs[4][tx];
        Pvalue += Bs[ty][5] * Cs[5][tx];
        Pvalue += Bs[ty][6] * Cs[6][tx];
        Pvalue += Bs[ty][7] * Cs[7][tx];
        Pvalue += Bs[ty][8] * Cs[8][tx];
        Pvalue += Bs[ty][9] * Cs[9][tx];
        Pvalue += Bs[ty][10] * Cs[10][tx];
        Pvalue += Bs[ty][11] * Cs[11][tx];
        Pvalue += Bs[ty][12] * Cs[12][tx];
        Pvalue += Bs[ty][13] * Cs[13][tx];
        Pvalue += Bs[ty][14] * Cs[14][tx];
        Pvalue += Bs[ty][15] * Cs[15][tx];
        __syncthreads();
    }
    Pd[Col * Width + Row] = Pvalue;
}
