// testKernel1: seed 004 "ILP : est-ce automatique ?" (Bonnefoi, GPGPU
// course, Limoges; GTX 1060): each thread sums the n_loop = 8 consecutive
// floats input[n_loop * tid + i]; nvcc unrolls the loop into 8 independent
// loads feeding one chain of adds (the course prints that PTX).  The course
// profiled it with nvprof: 262144 warps launched, i.e. N = 8388608 threads
// reading 8 N floats (256 MiB).  The course's testKernel2-4 are not printed
// and are not reproduced here.
// Not extern "C": the profile names it testKernel1(float*, float*, int).
#define n_loop 8

__global__ void testKernel1(float *input, float *output, int N)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;

    if (tid < N) {
        float accum = 0.f;

        for (int i = 0; i < 8; i++) {
            accum = accum + input[n_loop * tid + i];
        }
        output[tid] = accum;
    }
}
