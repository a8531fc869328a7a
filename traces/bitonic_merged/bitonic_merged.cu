// bitonicSort with blocks L5 and L6 merged ("3 branches -> 2"): seed 000
// Fig. 1.33, seed 002 §11.3.2 first rewrite (+6.7 % on an 8800 GTX).  The
// direction test only picks which element plays "b" and which "a"; one
// compare-and-swap follows.
#define NUM 512
// `#pragma unroll 1` keeps both loops rolled, as the documents' PTX (and
// their CFG, Fig. 1.29) shows them; nvcc 13 would otherwise unroll all
// 45 stages.

__device__ inline void swap(int &a, int &b)
{
    int t = a;
    a = b;
    b = t;
}

extern "C" __global__ void bitonicSortMerged(int *values)
{
    extern __shared__ int sh[];
    const unsigned int tid = threadIdx.x;
    sh[tid] = values[tid];
    __syncthreads();
#pragma unroll 1
    for (unsigned int k = 2; k <= NUM; k *= 2) {
#pragma unroll 1
        for (unsigned int j = k / 2; j > 0; j /= 2) {
            unsigned int ixj = tid ^ j;
            if (ixj > tid) {
                unsigned int a, b;
                if ((tid & k) == 0) {
                    b = tid;
                    a = ixj;
                } else {
                    b = ixj;
                    a = tid;
                }
                if (sh[b] > sh[a]) {
                    swap(sh[b], sh[a]);
                }
            }
            __syncthreads();
        }
    }
    values[tid] = sh[tid];
}
