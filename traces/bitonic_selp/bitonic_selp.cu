// bitonicSort with ternaries ("2 branches -> 1"): seed 000 Fig. 1.34, seed
// 002 §11.3.2 second rewrite (+9.2 %).  The direction choice becomes two
// selects (selp in PTX); only the compare-and-swap branch is left.
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

extern "C" __global__ void bitonicSortSelp(int *values)
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
                int p = (tid & k) == 0;
                unsigned b = p ? tid : ixj;
                unsigned a = p ? ixj : tid;
                if (sh[b] > sh[a]) {
                    swap(sh[b], sh[a]);
                }
            }
            __syncthreads();
        }
    }
    values[tid] = sh[tid];
}
