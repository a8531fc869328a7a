// thrust_algorithms.cu — Thrust on device_vector: reduce, count_if, transform,
// inclusive_scan and sort of ints, checked against the C++ library.  Built
// for the default arch (sm_75): CUB picks its tuning policy and kernels by
// cudaFuncAttributes.ptxVersion, which must be the target's (75), not the
// PTX ISA version.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/scan.h>
#include <thrust/count.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <numeric>

#include "check.h"


struct square { __host__ __device__ int operator()(int v) const { return v * v; } };
struct is_odd { __host__ __device__ bool operator()(int v) const { return v & 1; } };

int main()
{
    const int n = 10000;
    std::vector<int> h(n);
    unsigned s = 12345;
    for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; h[i] = (int)((s >> 8) % 100000) - 50000; }
    thrust::device_vector<int> d(h.begin(), h.end());

    long long sum = thrust::reduce(d.begin(), d.end(), 0LL, thrust::plus<long long>());
    EXPECT(sum == std::accumulate(h.begin(), h.end(), 0LL));

    int odd = (int)thrust::count_if(d.begin(), d.end(), is_odd());
    EXPECT(odd == (int)std::count_if(h.begin(), h.end(), [](int v) { return v & 1; }));

    thrust::device_vector<int> sq(n);
    thrust::transform(d.begin(), d.end(), sq.begin(), square());
    thrust::host_vector<int> hsq = sq;
    for (int i = 0; i < n; i++) EXPECT(hsq[i] == h[i] * h[i]);

    thrust::device_vector<int> sc(n);
    thrust::inclusive_scan(d.begin(), d.end(), sc.begin());
    thrust::host_vector<int> hsc = sc;
    int run = 0;
    for (int i = 0; i < n; i++) { run += h[i]; EXPECT(hsc[i] == run); }

    thrust::sort(d.begin(), d.end());
    std::vector<int> sorted = h;
    std::sort(sorted.begin(), sorted.end());
    thrust::host_vector<int> hd = d;
    for (int i = 0; i < n; i++) EXPECT(hd[i] == sorted[i]);

    std::printf("PASS thrust_algorithms\n");
    return 0;
}
