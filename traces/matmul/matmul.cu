// matMul: seed 000 Fig. 1.21 (Ryoo et al.), first row of Table 1.1.
// A = B x C for W x W row-major matrices; thread (tx, ty) computes A[tx][ty].
// Typo fixed: the listing computes tx from blockDim.x * blockDim.x (and ty
// from blockDim.y * blockDim.y); blockIdx.x * blockDim.x is meant.
// Consecutive threads (tx) walk rows of B and write down a column of A:
// neither access is coalesced.
extern "C" __global__ void matMul(float *B, float *C, float *A, int W)
{
    float Pvalue = 0.0;
    int tx = blockIdx.x * blockDim.x + threadIdx.x;
    int ty = blockIdx.y * blockDim.y + threadIdx.y;
    for (int k = 0; k < W; ++k) {
        Pvalue += B[tx * W + k] * C[k * W + ty];
    }
    A[ty + tx * W] = Pvalue;
}
