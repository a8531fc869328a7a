// adj_diff_naive / adj_diff: seed 004 "Exemple de code utilisant la shared
// memory" (Bonnefoi, GPGPU course): result[i] = input[i] - input[i-1].
// The naive kernel loads input[i] and input[i-1] from global memory; the
// shared one loads each element once into a block-wide tile, synchronises,
// and reads the left neighbour from the tile (from global memory only for
// the first thread of a block).  The course's `__device__ int result[N]`
// (shadowed by the parameter) is dropped; result is a kernel argument.
#define BLOCK_SIZE 256

extern "C" __global__ void adj_diff_naive(int *result, int *input)
{
    unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;

    if (i > 0) {
        int x_i = input[i];
        int x_i_minus_one = input[i - 1];
        result[i] = x_i - x_i_minus_one;
    }
}

extern "C" __global__ void adj_diff(int *result, int *input)
{
    int tx = threadIdx.x;
    __shared__ int s_data[BLOCK_SIZE];
    unsigned int i = blockDim.x * blockIdx.x + tx;
    s_data[tx] = input[i];

    __syncthreads();
    if (tx > 0)
        result[i] = s_data[tx] - s_data[tx - 1];
    else if (i > 0) {
        result[i] = s_data[tx] - input[i - 1];
    }
}
