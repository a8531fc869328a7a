// Per-thread insertion sort of K = 8 ints in a local array.  The inner
// loop's indices depend on the data, so nvcc cannot keep the array in
// registers: it lives in .local memory (ld.local / st.local).
#define K 8

extern "C" __global__ void sortLocal(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int a[K];
    for (int i = 0; i < K; i++)
        a[i] = in[t * K + i];
    for (int i = 1; i < K; i++) {
        int v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
    for (int i = 0; i < K; i++)
        out[t * K + i] = a[i];
}
