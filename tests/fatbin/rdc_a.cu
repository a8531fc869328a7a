// rdc_a.cu — with rdc_b.cu, the -rdc=true fixtures: a kernel calling a
// device function defined in the other file.
__device__ float twice_plus_one(float v);

__global__ void rdc_kernel_a(float *p)
{
    p[threadIdx.x] = twice_plus_one(p[threadIdx.x]);
}

void launch_a(float *p)
{
    rdc_kernel_a<<<1, 32>>>(p);
}
