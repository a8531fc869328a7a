// divergence / noDivergence: seed 004 §3 (Bonnefoi, GPGPU course), run on
// 16 blocks x 64 threads.  In `divergence` lane 0 of every warp takes the
// other branch, so each warp runs both loops one after the other; in
// `noDivergence` the branch follows warp boundaries (threadIdx.x >= 32).
// The course does not print ITERATIONS; 64 keeps the simulation short.
#define WARP_SIZE 32
#define ITERATIONS 64

extern "C" __global__ void divergence(float *A, float *B)
{
    int a = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x % WARP_SIZE) == 0) {
        for (int i = 0; i < ITERATIONS; i++) {
            B[a] = A[a] + 1;
        }
    } else
        for (int i = 0; i < ITERATIONS; i++) {
            B[a] = A[a] - 1;
        }
}

extern "C" __global__ void noDivergence(float *A, float *B)
{
    int a = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x >= WARP_SIZE) {
        for (int i = 0; i < ITERATIONS; i++) {
            B[a] = A[a] + 1;
        }
    } else
        for (int i = 0; i < ITERATIONS; i++) {
            B[a] = A[a] - 1;
        }
}
