// warp_sz.cu — reduced reproduction for spmv.cu's failure: any use of the
// built-in warpSize makes nvcc emit `mov.u32 %r1, WARP_SZ;` (PTX's predefined
// constant WARP_SZ); a module that warpsim cannot load fails every kernel in
// the program ("a PTX JIT compilation failed").  Prints PASS when it works.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void lane_of(int *out)
{
    out[threadIdx.x] = threadIdx.x % warpSize + 100 * (blockDim.x / warpSize);
}

int main()
{
    int *d, h[64];
    cudaMalloc((void **)&d, sizeof(h));
    lane_of<<<1, 64>>>(d);
    cudaError_t le = cudaGetLastError();
    cudaError_t e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    int bad = le != cudaSuccess || e != cudaSuccess;
    for (int i = 0; i < 64 && !bad; i++) bad += h[i] != i % 32 + 200;
    printf("launch %s, copy %s\n", cudaGetErrorString(le), cudaGetErrorString(e));
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad;
}
