// dec2zero: seed 002 §11.2.3 (DCC888 notes), verbatim.  Each thread counts
// its element down to zero, so a warp runs as long as its largest element
// and the input decides how divergent the loop is.
extern "C" __global__ void dec2zero(int *v, int N)
{
    int xIndex = blockIdx.x * blockDim.x + threadIdx.x;
    if (xIndex < N) {
        while (v[xIndex] > 0) {
            v[xIndex]--;
        }
    }
}
