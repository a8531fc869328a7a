// histo.cu — models Parboil/SDK histogram: 256 bins, per-block sub-histograms
// in shared memory built with shared atomicAdd, merged into the global
// histogram with global atomicAdd; a second kernel saturates the bins at 255
// into unsigned char (Parboil histo's final step, byte stores).  Grid-stride
// loop over uchar4 input reads.  Checked exactly against the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BINS 256

__global__ void histo_shared(const unsigned char *__restrict__ data, int n, unsigned int *__restrict__ hist)
{
    __shared__ unsigned int s_hist[BINS];
    for (int i = threadIdx.x; i < BINS; i += blockDim.x) s_hist[i] = 0;
    __syncthreads();
    const uchar4 *d4 = (const uchar4 *)data;
    int n4 = n / 4;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        uchar4 v = d4[i];
        atomicAdd(&s_hist[v.x], 1u);
        atomicAdd(&s_hist[v.y], 1u);
        atomicAdd(&s_hist[v.z], 1u);
        atomicAdd(&s_hist[v.w], 1u);
    }
    if (blockIdx.x == 0)
        for (int i = n4 * 4 + threadIdx.x; i < n; i += blockDim.x) atomicAdd(&s_hist[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < BINS; i += blockDim.x)
        if (s_hist[i]) atomicAdd(&hist[i], s_hist[i]);
}

__global__ void histo_final(const unsigned int *hist, unsigned char *out8)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < BINS) out8[i] = (unsigned char)min(hist[i], 255u);
}

int main()
{
    const int n = 300003;
    unsigned char *data = (unsigned char *)malloc(n);
    srand(37);
    for (int i = 0; i < n; i++) data[i] = (unsigned char)((rand() % 64) + (i % 3 == 0 ? rand() % 192 : 0));
    unsigned char *d_data, *d_out8; unsigned int *d_hist;
    cudaMalloc((void **)&d_data, n); cudaMalloc((void **)&d_hist, BINS * 4); cudaMalloc((void **)&d_out8, BINS);
    cudaMemcpy(d_data, data, n, cudaMemcpyHostToDevice);
    cudaMemset(d_hist, 0, BINS * 4);
    histo_shared<<<48, 256>>>(d_data, n, d_hist);
    histo_final<<<1, BINS>>>(d_hist, d_out8);
    unsigned int hist[BINS]; unsigned char out8[BINS];
    cudaMemcpy(hist, d_hist, sizeof(hist), cudaMemcpyDeviceToHost);
    cudaMemcpy(out8, d_out8, sizeof(out8), cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();
    unsigned int ref[BINS] = {0};
    for (int i = 0; i < n; i++) ref[data[i]]++;
    int bad = 0;
    for (int b = 0; b < BINS; b++) {
        if (hist[b] != ref[b]) { if (bad < 5) printf("bin %d: gpu %u cpu %u\n", b, hist[b], ref[b]); bad++; }
        if (out8[b] != (ref[b] > 255 ? 255 : ref[b])) { if (bad < 5) printf("sat bin %d: %u\n", b, out8[b]); bad++; }
    }
    printf("histo %d values, err %s\n", n, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
