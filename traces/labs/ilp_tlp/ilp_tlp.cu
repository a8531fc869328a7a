// Lab "ilp_tlp": seed 004 (Bonnefoi, GPGPU course, "Exemple d'ILP : on
// déroule le kernel"): kernel0, kernel1 and kernel2 run 1, 2 and 4
// independent FMA chains a = a * b + c per thread, so the same N elements
// need N, N/2 and N/4 threads.  N_ITERATIONS is 256 instead of the
// course's 8192 to keep the simulation short; kernel2's "global__" typo is
// fixed.
#define N_ITERATIONS 256

extern "C" __global__ void kernel0(float *d_a, float *d_b, float *d_c, int N)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < N) {
        float a = d_a[tid];
        float b = d_b[tid];
        float c = d_c[tid];
        for (unsigned int i = 0; i < N_ITERATIONS; i++)
            a = a * b + c;
        d_a[tid] = a;
    }
}

extern "C" __global__ void kernel1(float *d_a, float *d_b, float *d_c, int N)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < N / 2) {
        float a1 = d_a[tid], b1 = d_b[tid], c1 = d_c[tid];
        float a2 = d_a[tid + N / 2], b2 = d_b[tid + N / 2], c2 = d_c[tid + N / 2];
        for (unsigned int i = 0; i < N_ITERATIONS; i++) {
            a1 = a1 * b1 + c1;
            a2 = a2 * b2 + c2;
        }
        d_a[tid] = a1;
        d_a[tid + N / 2] = a2;
    }
}

extern "C" __global__ void kernel2(float *d_a, float *d_b, float *d_c, int N)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < N / 4) {
        float a1 = d_a[tid], b1 = d_b[tid], c1 = d_c[tid];
        float a2 = d_a[tid + N / 4], b2 = d_b[tid + N / 4], c2 = d_c[tid + N / 4];
        float a3 = d_a[tid + N / 2], b3 = d_b[tid + N / 2], c3 = d_c[tid + N / 2];
        float a4 = d_a[tid + 3 * N / 4], b4 = d_b[tid + 3 * N / 4], c4 = d_c[tid + 3 * N / 4];
        for (unsigned int i = 0; i < N_ITERATIONS; i++) {
            a1 = a1 * b1 + c1;
            a2 = a2 * b2 + c2;
            a3 = a3 * b3 + c3;
            a4 = a4 * b4 + c4;
        }
        d_a[tid] = a1;
        d_a[tid + N / 4] = a2;
        d_a[tid + N / 2] = a3;
        d_a[tid + 3 * N / 4] = a4;
    }
}
