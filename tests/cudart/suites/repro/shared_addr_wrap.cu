// shared_addr_wrap.cu — reduced reproduction for nw.cu's failure: a diagonal
// read a[m - tx + 1][tx + 1] of a 2D shared array, unrolled over m.  nvcc folds
// it into a 32-bit base register a - 64*tx (which wraps below 0 for tx > 0 when
// the array sits at shared offset 0) plus an immediate: ld.shared.u32 [%r+136].
// Hardware wraps 32-bit shared addresses; an access computed in 64 bits lands
// at 0x1_0000_00xx and faults.  Prints PASS when the sum wraps at 32 bits.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void diag(int *out)
{
    __shared__ int a[17][17];
    int tx = threadIdx.x;
    for (int i = 0; i < 17; i++) a[i][tx + 1] = i * 100 + tx + 1;
    __syncthreads();
#pragma unroll
    for (int m = 0; m < 16; m++)
        if (tx <= m) out[m * 16 + tx] = a[m - tx + 1][tx + 1];
}

int main()
{
    int *d, h[256];
    cudaMalloc((void **)&d, sizeof(h));
    cudaMemset(d, 0, sizeof(h));
    diag<<<1, 16>>>(d);
    cudaError_t e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int m = 0; m < 16; m++)
        for (int tx = 0; tx <= m; tx++)
            if (h[m * 16 + tx] != (m - tx + 1) * 100 + tx + 1) bad++;
    printf("%d wrong, %s\n", bad, cudaGetErrorString(e));
    printf("%s\n", bad || e ? "FAIL" : "PASS");
    return bad || e;
}
