// matMulCoalesced: seed 000 Fig. 1.22, second row of Table 1.1 (9.54x over
// matMul on a 9400M).  Same product as matMul with tx and ty swapped in the
// indices, so a half-warp reads one B element (broadcast) and 16
// consecutive C elements, and writes consecutive A elements.
extern "C" __global__ void matMulCoalesced(float *B, float *C, float *A, int W)
{
    float Pvalue = 0.0;
    int tx = blockIdx.x * blockDim.x + threadIdx.x;
    int ty = blockIdx.y * blockDim.y + threadIdx.y;
    for (int k = 0; k < W; ++k) {
        Pvalue += B[ty * W + k] * C[k * W + tx];
    }
    A[tx + ty * W] = Pvalue;
}
