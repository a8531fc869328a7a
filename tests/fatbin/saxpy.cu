// saxpy.cu — the kernel of the fat binary fixtures (tests/fatbin/regen.sh).
#include <cstdio>

__global__ void saxpy_kernel(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 256;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    saxpy_kernel<<<1, n>>>(n, 2.0f, x, y);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
