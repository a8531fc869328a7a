// rdc_b.cu — see rdc_a.cu.
__device__ float twice_plus_one(float v)
{
    return v * 2.0f + 1.0f;
}

__global__ void rdc_kernel_b(float *p)
{
    p[threadIdx.x] += 1.0f;
}

void launch_a(float *p);

int main()
{
    float *p;
    cudaMalloc(&p, 32 * sizeof(float));
    launch_a(p);
    rdc_kernel_b<<<1, 32>>>(p);
    cudaDeviceSynchronize();
    return 0;
}
