// saxpy: y = a*x + y, the kernel of seed 000 Fig. 1.4 (Nickolls & Kirk),
// with the parameter types nvcc users write today (const input).
// Not extern "C": the manifest names the mangled entry _Z5saxpyifPKfPf.
__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
