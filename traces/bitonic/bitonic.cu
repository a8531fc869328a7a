// bitonicSort: seed 000 Fig. 1.32 (== seed 002 §11.3.2), the NVIDIA SDK
// bitonic sort used by Cederman & Tsigas' GPU-quicksort.  One block sorts
// NUM ints in dynamic shared memory.  Fig. 1.28 has a stray `}` that moves
// __syncthreads() out of the inner loop; 1.32's structure is used here.
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

extern "C" __global__ void bitonicSort(int *values)
{
    extern __shared__ int shared[];
    const unsigned int tid = threadIdx.x;
    shared[tid] = values[tid];
    __syncthreads();
#pragma unroll 1
    for (unsigned int k = 2; k <= NUM; k *= 2) {
#pragma unroll 1
        for (unsigned int j = k / 2; j > 0; j /= 2) {
            unsigned int ixj = tid ^ j;
            if (ixj > tid) {
                if ((tid & k) == 0) {
                    if (shared[tid] > shared[ixj]) {
                        swap(shared[tid], shared[ixj]);
                    }
                } else {
                    if (shared[tid] < shared[ixj]) {
                        swap(shared[tid], shared[ixj]);
                    }
                }
            }
            __syncthreads();
        }
    }
    values[tid] = shared[tid];
}
