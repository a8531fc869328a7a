// nvcc-flags: -arch=sm_80
// warp_reduce.cu — the warp reductions sm_80 and later do in one
// instruction (redux.sync): __reduce_{add,min,max,and,or,xor}_sync over the
// whole warp, over half-warp masks and over the lanes left in a divergent
// branch; cooperative_groups::reduce on a 32-thread tile and on
// coalesced_threads(); and the byte dot products (__dp4a, __dp2a_lo/hi)
// and __fns.  The host recomputes every value.  warp_reduce_sm90.cu builds
// the same program for sm_90.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdint>
#include <vector>
#include "check.h"

#ifndef PROGRAM_NAME
#define PROGRAM_NAME "warp_reduce"
#endif

namespace cg = cooperative_groups;

constexpr int kThreads = 256;
constexpr int kBlocks = 3;
constexpr int kN = kThreads * kBlocks;
constexpr int kFields = 16;

__global__ void reduceKernel(const int *in, int *out)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32;
    const int v = in[gid];
    const unsigned u = static_cast<unsigned>(v);
    int *o = out + gid * kFields;
    o[0] = __reduce_add_sync(0xffffffffu, v);
    o[1] = __reduce_min_sync(0xffffffffu, v);
    o[2] = __reduce_max_sync(0xffffffffu, v);
    o[3] = static_cast<int>(__reduce_min_sync(0xffffffffu, u));
    o[4] = static_cast<int>(__reduce_max_sync(0xffffffffu, u));
    o[5] = static_cast<int>(__reduce_and_sync(0xffffffffu, u));
    o[6] = static_cast<int>(__reduce_or_sync(0xffffffffu, u));
    o[7] = static_cast<int>(__reduce_xor_sync(0xffffffffu, u));
    // each half warp passes its own mask to the same instruction
    const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    o[8] = __reduce_add_sync(half, v);
    // only the lanes whose value is odd reach this reduction
    o[9] = -1;
    if (v & 1)
        o[9] = __reduce_add_sync(__activemask(), v);
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    o[10] = cg::reduce(tile, v, cg::plus<int>());
    o[11] = cg::reduce(tile, v, cg::greater<int>());
    o[12] = static_cast<int>(cg::reduce(tile, u, cg::bit_xor<unsigned>()));
    o[13] = -1;
    if (lane % 3 == 0) {
        auto group = cg::coalesced_threads();
        o[13] = cg::reduce(group, v, cg::less<int>());
    }
    o[14] = __dp4a(v, gid * 0x01020304 - 0x7f000000, lane - 40) + static_cast<int>(__dp4a(u, 0x80ff7f01u, 7u));
    o[15] = __dp2a_lo(v, gid * 0x01fe3a05, 3) + static_cast<int>(__dp2a_hi(u, 0xfe807f02u, 11u)) +
            static_cast<int>(__fns(u, lane, (lane % 5) - 2));
}

static int32_t sext(uint32_t v, int bits) { return static_cast<int32_t>(v << (32 - bits)) >> (32 - bits); }

static int32_t dp4a_ref(uint32_t a, uint32_t b, uint32_t c, bool sa, bool sb)
{
    uint32_t d = c;
    for (int i = 0; i < 4; i++) {
        uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
        int64_t xa = sa ? sext(x, 8) : x, yb = sb ? sext(y, 8) : y;
        d += static_cast<uint32_t>(xa * yb);
    }
    return static_cast<int32_t>(d);
}

static int32_t dp2a_ref(uint32_t a, uint32_t b, uint32_t c, bool hi, bool sa, bool sb)
{
    uint32_t d = c;
    for (int i = 0; i < 2; i++) {
        uint32_t x = (a >> (16 * i)) & 0xffff, y = (b >> (8 * (i + (hi ? 2 : 0)))) & 0xff;
        int64_t xa = sa ? sext(x, 16) : x, yb = sb ? sext(y, 8) : y;
        d += static_cast<uint32_t>(xa * yb);
    }
    return static_cast<int32_t>(d);
}

static uint32_t fns_ref(uint32_t mask, uint32_t base, int offset)
{
    if (offset == 0)
        return (mask >> base) & 1 ? base : 0xffffffffu;
    int need = offset > 0 ? offset : -offset;
    for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += offset > 0 ? 1 : -1)
        if (((mask >> pos) & 1) && --need == 0)
            return static_cast<uint32_t>(pos);
    return 0xffffffffu;
}

int main()
{
    std::vector<int> in(kN);
    uint32_t seed = 12345;
    for (int i = 0; i < kN; i++) {
        seed = seed * 1664525u + 1013904223u;
        in[i] = static_cast<int>(seed); // full range: sums wrap, signs differ
    }
    in[5] = INT32_MIN;
    in[6] = INT32_MAX;
    int *d_in, *d_out;
    CHECK_CUDA(cudaMalloc(&d_in, kN * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_out, kN * kFields * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
    reduceKernel<<<kBlocks, kThreads>>>(d_in, d_out);
    CHECK_CUDA(cudaGetLastError());
    std::vector<int> out(kN * kFields);
    CHECK_CUDA(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));

    for (int gid = 0; gid < kN; gid++) {
        const int lane = gid % 32, warp0 = gid - lane;
        auto over = [&](auto pick, auto init, auto op) {
            auto acc = init;
            for (int k = 0; k < 32; k++)
                if (pick(k))
                    acc = op(acc, in[warp0 + k]);
            return acc;
        };
        auto all = [](int) { return true; };
        uint32_t sum = over(all, 0u, [](uint32_t a, int b) { return a + static_cast<uint32_t>(b); });
        int smin = over(all, INT32_MAX, [](int a, int b) { return b < a ? b : a; });
        int smax = over(all, INT32_MIN, [](int a, int b) { return b > a ? b : a; });
        uint32_t umin = over(all, 0xffffffffu, [](uint32_t a, int b) { return static_cast<uint32_t>(b) < a ? b : a; });
        uint32_t umax = over(all, 0u, [](uint32_t a, int b) { return static_cast<uint32_t>(b) > a ? b : a; });
        uint32_t uand = over(all, 0xffffffffu, [](uint32_t a, int b) { return a & static_cast<uint32_t>(b); });
        uint32_t uor = over(all, 0u, [](uint32_t a, int b) { return a | static_cast<uint32_t>(b); });
        uint32_t uxor = over(all, 0u, [](uint32_t a, int b) { return a ^ static_cast<uint32_t>(b); });
        uint32_t halfsum = over([&](int k) { return (k < 16) == (lane < 16); }, 0u,
                                [](uint32_t a, int b) { return a + static_cast<uint32_t>(b); });
        uint32_t oddsum = over([&](int k) { return (in[warp0 + k] & 1) != 0; }, 0u,
                               [](uint32_t a, int b) { return a + static_cast<uint32_t>(b); });
        int third_min = over([](int k) { return k % 3 == 0; }, INT32_MAX, [](int a, int b) { return b < a ? b : a; });
        const int *o = &out[gid * kFields];
        const uint32_t u = static_cast<uint32_t>(in[gid]);
        EXPECT(static_cast<uint32_t>(o[0]) == sum);
        EXPECT(o[1] == smin);
        EXPECT(o[2] == smax);
        EXPECT(static_cast<uint32_t>(o[3]) == umin);
        EXPECT(static_cast<uint32_t>(o[4]) == umax);
        EXPECT(static_cast<uint32_t>(o[5]) == uand);
        EXPECT(static_cast<uint32_t>(o[6]) == uor);
        EXPECT(static_cast<uint32_t>(o[7]) == uxor);
        EXPECT(static_cast<uint32_t>(o[8]) == halfsum);
        EXPECT(o[9] == ((in[gid] & 1) ? static_cast<int>(oddsum) : -1));
        EXPECT(static_cast<uint32_t>(o[10]) == sum);
        EXPECT(o[11] == smax);
        EXPECT(static_cast<uint32_t>(o[12]) == uxor);
        EXPECT(o[13] == (lane % 3 == 0 ? third_min : -1));
        uint32_t b4 = static_cast<uint32_t>(gid) * 0x01020304u - 0x7f000000u;
        uint32_t want14 = static_cast<uint32_t>(dp4a_ref(u, b4, static_cast<uint32_t>(lane - 40), true, true)) +
                          static_cast<uint32_t>(dp4a_ref(u, 0x80ff7f01u, 7u, false, false));
        EXPECT(static_cast<uint32_t>(o[14]) == want14);
        uint32_t b2 = static_cast<uint32_t>(gid) * 0x01fe3a05u;
        uint32_t want15 = static_cast<uint32_t>(dp2a_ref(u, b2, 3, false, true, true)) +
                          static_cast<uint32_t>(dp2a_ref(u, 0xfe807f02u, 11u, true, false, false)) +
                          fns_ref(u, static_cast<uint32_t>(lane), lane % 5 - 2);
        EXPECT(static_cast<uint32_t>(o[15]) == want15);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    std::printf("PASS %s\n", PROGRAM_NAME);
    return 0;
}
