// offset / stride: seed 004 "Des accès décalés ou répartis" (Bonnefoi, GPGPU
// course, after M. Harris's "How to Access Global Memory Efficiently"):
// every thread adds 1 to one element, at index gid + s (offset) or gid * s
// (stride).  Float instances of the course's templates, extern "C".  The
// course's second listing of the stride kernel (named offset, with
// threadIdx.x * s) is a typo; the template's (gid) * s is used.
template <typename T> __device__ void offset_body(T *a, int s)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x + s;
    a[i] = a[i] + 1;
}

template <typename T> __device__ void stride_body(T *a, int s)
{
    int i = (blockDim.x * blockIdx.x + threadIdx.x) * s;
    a[i] = a[i] + 1;
}

extern "C" __global__ void offsetFloat(float *a, int s) { offset_body(a, s); }
extern "C" __global__ void strideFloat(float *a, int s) { stride_body(a, s); }
extern "C" __global__ void offsetDouble(double *a, int s) { offset_body(a, s); }
extern "C" __global__ void strideDouble(double *a, int s) { stride_body(a, s); }
