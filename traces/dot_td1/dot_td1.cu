// dot: seed 004 "Utilisation du profiler nvprof", the course's TD1 exercise
// (Bonnefoi, GPGPU course, Limoges; GTX 1060): the dot product of
// "CUDA by Example" (Sanders & Kandrot, ch. 5) in double, with a
// __shared__ cache reduction per block.  The course runs N = 33 * 1024
// doubles (264 KB per vector, as its nvprof trace shows) on 132 blocks of
// 256 threads, a[i] = i, b[i] = 2 * i; each block writes its partial sum to
// c[blockIdx.x] and the host adds the 132 partial sums:
//     Result : 25723564731392.000000
// The document prints the profile, not the listing: this is the book's
// kernel with float replaced by double and blocksPerGrid = (N + 255) / 256
// (132, the trace's grid; the book caps it at 32).
// Not extern "C": the trace names it dot(double*, double*, double*).

const int N = 33 * 1024;
const int threadsPerBlock = 256;

__global__ void dot(double *a, double *b, double *c)
{
    __shared__ double cache[threadsPerBlock];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int cacheIndex = threadIdx.x;

    double temp = 0;
    while (tid < N) {
        temp += a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }

    // set the cache values
    cache[cacheIndex] = temp;

    // synchronize threads in this block
    __syncthreads();

    // for reductions, threadsPerBlock must be a power of 2
    int i = blockDim.x / 2;
    while (i != 0) {
        if (cacheIndex < i)
            cache[cacheIndex] += cache[cacheIndex + i];
        __syncthreads();
        i /= 2;
    }

    if (cacheIndex == 0)
        c[blockIdx.x] = cache[0];
}
