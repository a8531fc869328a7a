// cub_device.cu — CUB device-wide algorithms with their two-call temporary
// storage protocol: DeviceReduce::Sum and ::Max, DeviceRadixSort::SortPairs
// (stable) and DeviceScan::ExclusiveSum, checked against the host.
#include <cub/cub.cuh>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#include "check.h"


int main()
{
    const int n = 20000;
    std::vector<int> h(n);
    unsigned s = 99;
    for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; h[i] = (int)((s >> 8) % 2000) - 1000; }
    int *d_in, *d_out, *d_sorted, *d_vals, *d_vals_out;
    CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_sorted, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_vals, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_vals_out, n * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    void *tmp = nullptr; size_t tmp_bytes = 0;
    CHECK_CUDA(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_out, n));
    CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
    CHECK_CUDA(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_out, n));
    int sum; CHECK_CUDA(cudaMemcpy(&sum, d_out, sizeof sum, cudaMemcpyDeviceToHost));
    long long ref = 0; for (int v : h) ref += v;
    EXPECT(sum == ref);
    CHECK_CUDA(cudaFree(tmp));

    tmp = nullptr; tmp_bytes = 0;
    CHECK_CUDA(cub::DeviceReduce::Max(tmp, tmp_bytes, d_in, d_out, n));
    CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
    CHECK_CUDA(cub::DeviceReduce::Max(tmp, tmp_bytes, d_in, d_out, n));
    int mx; CHECK_CUDA(cudaMemcpy(&mx, d_out, sizeof mx, cudaMemcpyDeviceToHost));
    EXPECT(mx == *std::max_element(h.begin(), h.end()));
    CHECK_CUDA(cudaFree(tmp));

    std::vector<int> idx(n); for (int i = 0; i < n; i++) idx[i] = i;
    CHECK_CUDA(cudaMemcpy(d_vals, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    tmp = nullptr; tmp_bytes = 0;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, d_in, d_sorted, d_vals, d_vals_out, n));
    CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, d_in, d_sorted, d_vals, d_vals_out, n));
    std::vector<int> hs(n), hv(n);
    CHECK_CUDA(cudaMemcpy(hs.data(), d_sorted, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hv.data(), d_vals_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        EXPECT(hs[i] == h[hv[i]]);
        if (i) { EXPECT(hs[i - 1] <= hs[i]); if (hs[i - 1] == hs[i]) EXPECT(hv[i - 1] < hv[i]); }
    }
    CHECK_CUDA(cudaFree(tmp));

    tmp = nullptr; tmp_bytes = 0;
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_in, d_out, n));
    CHECK_CUDA(cudaMalloc(&tmp, tmp_bytes));
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_in, d_out, n));
    std::vector<int> ho(n);
    CHECK_CUDA(cudaMemcpy(ho.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int run = 0;
    for (int i = 0; i < n; i++) { EXPECT(ho[i] == run); run += h[i]; }
    CHECK_CUDA(cudaFree(tmp));
    std::printf("PASS cub_device\n");
    return 0;
}
