// Lab "divergence": warp divergence decided by the thread index (seed 004)
// and by the data (seed 002).
//
// divergence / noDivergence: seed 004 (Bonnefoi, GPGPU course, "Exemples de
// Kernels : divergence et noDivergence"), verbatim but for ITERATIONS,
// which the course does not print.  Both run the same two loops; only the
// condition that picks the loop differs: lane 0 of every warp
// (threadIdx.x % 32 == 0) against a whole warp (threadIdx.x >= 32).
//
// dec2zero: seed 002 (DCC888 divergence notes, §11.2.3), verbatim: each
// thread counts its element down to zero, so a warp loops as long as its
// largest element and the input decides whether the warp splits.
#define WARP_SIZE 32
#define ITERATIONS 64

extern "C" __global__ void divergence(float *A, float *B)
{
    int a = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x % WARP_SIZE) == 0) {
        for (int i = 0; i < ITERATIONS; i++)
            B[a] = A[a] + 1;
    } else {
        for (int i = 0; i < ITERATIONS; i++)
            B[a] = A[a] - 1;
    }
}

extern "C" __global__ void noDivergence(float *A, float *B)
{
    int a = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x >= WARP_SIZE) {
        for (int i = 0; i < ITERATIONS; i++)
            B[a] = A[a] + 1;
    } else {
        for (int i = 0; i < ITERATIONS; i++)
            B[a] = A[a] - 1;
    }
}

extern "C" __global__ void dec2zero(int *v, int N)
{
    int xIndex = blockIdx.x * blockDim.x + threadIdx.x;
    if (xIndex < N) {
        while (v[xIndex] > 0) {
            v[xIndex]--;
        }
    }
}
