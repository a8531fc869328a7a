// Lab "coalescing": seed 004 (Bonnefoi, GPGPU course, "Des accès décalés ou
// répartis", after M. Harris, "How to Access Global Memory Efficiently in
// CUDA C/C++ Kernels").  Every thread adds 1 to one float: a[gid + s]
// (offsetFloat) or a[gid * s] (strideFloat).  The float instances of the
// course's templates, extern "C" so the PTX names are readable.  The
// course's second listing of the stride kernel (named offset, indexing
// threadIdx.x * s) is a typo; the template's (gid) * s is used.
extern "C" __global__ void offsetFloat(float *a, int s)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x + s;
    a[i] = a[i] + 1;
}

extern "C" __global__ void strideFloat(float *a, int s)
{
    int i = (blockDim.x * blockIdx.x + threadIdx.x) * s;
    a[i] = a[i] + 1;
}
