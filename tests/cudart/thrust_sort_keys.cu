// nvcc-flags: -arch=sm_90
// thrust_sort_keys.cu — Thrust sort_by_key on float keys, max_element, a
// minimum reduction and a descending sort of 64-bit keys (CUB's onesweep
// radix sort underneath), checked against std::sort.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/sequence.h>
#include <thrust/extrema.h>
#include <thrust/reduce.h>
#include <thrust/functional.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#include "check.h"


int main()
{
    const int n = 5000;
    std::vector<float> keys(n);
    unsigned s = 777;
    for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; keys[i] = (float)((s >> 9) % 1000000) / 97.0f - 3000.0f; }
    thrust::device_vector<float> dk(keys.begin(), keys.end());
    thrust::device_vector<int> dv(n);
    thrust::sequence(dv.begin(), dv.end());
    thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
    thrust::host_vector<float> hk = dk;
    thrust::host_vector<int> hv = dv;
    for (int i = 0; i < n; i++) {
        EXPECT(hk[i] == keys[hv[i]]);
        if (i) EXPECT(hk[i - 1] <= hk[i]);
    }
    thrust::device_vector<float> d2(keys.begin(), keys.end());
    auto it = thrust::max_element(d2.begin(), d2.end());
    EXPECT(*it == *std::max_element(keys.begin(), keys.end()));
    float mn = thrust::reduce(d2.begin(), d2.end(), 1e30f, thrust::minimum<float>());
    EXPECT(mn == *std::min_element(keys.begin(), keys.end()));

    // 64-bit keys, descending
    std::vector<unsigned long long> k64(n);
    for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; k64[i] = ((unsigned long long)s << 20) ^ i; }
    thrust::device_vector<unsigned long long> d64(k64.begin(), k64.end());
    thrust::sort(d64.begin(), d64.end(), thrust::greater<unsigned long long>());
    std::sort(k64.begin(), k64.end(), std::greater<unsigned long long>());
    thrust::host_vector<unsigned long long> h64 = d64;
    for (int i = 0; i < n; i++) EXPECT(h64[i] == k64[i]);
    std::printf("PASS thrust_sort_keys\n");
    return 0;
}
