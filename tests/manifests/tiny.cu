// tiny.cu: the kernels of tests/manifests/tiny.ptx (nvcc -ptx -arch=sm_90 tiny.cu)
__constant__ float coeff[2];
__device__ int bias;

extern "C" __global__ void scale(float *x, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        if (i & 1)
            v = v * coeff[0];
        else
            v = v + coeff[1];
        x[i] = v;
    }
}

extern "C" __global__ void addk(int *a, int k, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += k + bias;
}
