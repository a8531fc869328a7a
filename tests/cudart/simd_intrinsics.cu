// nvcc-flags: -arch=sm_80
// simd_intrinsics.cu — the intrinsics nvcc 13 turns into video instructions
// (__vabsdiffu4, __vsadu4: vabsdiff4) and into .relu/.NaN half arithmetic
// (__hfma2_relu, __hmax2_nan, bf16 __hfma_relu), checked against host models.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

__global__ void simd(const unsigned *a, const unsigned *b, unsigned *absdiff, unsigned *sad, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        absdiff[i] = __vabsdiffu4(a[i], b[i]);
        sad[i] = __vsadu4(a[i], b[i]);
    }
}

__global__ void halves(const __half2 *x, const __half2 *y, __half2 *fma_relu, __half2 *max_nan,
                       const __nv_bfloat16 *p, const __nv_bfloat16 *q, __nv_bfloat16 *bf_relu, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        fma_relu[i] = __hfma2_relu(x[i], y[i], x[i]);
        max_nan[i] = __hmax2_nan(x[i], y[i]);
        bf_relu[i] = __hfma_relu(p[i], q[i], p[i]);
    }
}

static float relu(float v) { return v < 0 ? 0.0f : v; }

int main()
{
    const int n = 1000;
    std::vector<unsigned> a(n), b(n);
    unsigned s = 2024;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u; a[i] = s;
        s = s * 1103515245u + 12345u; b[i] = s ^ (s >> 7);
    }
    unsigned *da, *db, *dd, *ds;
    CHECK_CUDA(cudaMalloc(&da, n * 4)); CHECK_CUDA(cudaMalloc(&db, n * 4));
    CHECK_CUDA(cudaMalloc(&dd, n * 4)); CHECK_CUDA(cudaMalloc(&ds, n * 4));
    CHECK_CUDA(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
    simd<<<(n + 127) / 128, 128>>>(da, db, dd, ds, n);
    CHECK_CUDA(cudaGetLastError());
    std::vector<unsigned> absdiff(n), sad(n);
    CHECK_CUDA(cudaMemcpy(absdiff.data(), dd, n * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(sad.data(), ds, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        unsigned want = 0, total = 0;
        for (int k = 0; k < 4; k++) {
            int x = (a[i] >> (8 * k)) & 0xFF, y = (b[i] >> (8 * k)) & 0xFF;
            want |= (unsigned)std::abs(x - y) << (8 * k);
            total += (unsigned)std::abs(x - y);
        }
        EXPECT(absdiff[i] == want);
        EXPECT(sad[i] == total);
    }

    // small values in steps of 1/8: every sum and product is exact in half and bf16
    std::vector<__half2> x(n), y(n);
    std::vector<__nv_bfloat16> p(n), q(n);
    for (int i = 0; i < n; i++) {
        float u = (float)((i * 7) % 33 - 16) / 8.0f, v = (float)((i * 5) % 17 - 8) / 4.0f;
        x[i] = __floats2half2_rn(u, v);
        y[i] = __floats2half2_rn(v, i % 50 == 0 ? NAN : u);
        p[i] = __float2bfloat16(u);
        q[i] = __float2bfloat16(v);
    }
    __half2 *dx, *dy, *dfr, *dmn;
    __nv_bfloat16 *dp, *dq, *dbr;
    CHECK_CUDA(cudaMalloc(&dx, n * 4)); CHECK_CUDA(cudaMalloc(&dy, n * 4));
    CHECK_CUDA(cudaMalloc(&dfr, n * 4)); CHECK_CUDA(cudaMalloc(&dmn, n * 4));
    CHECK_CUDA(cudaMalloc(&dp, n * 2)); CHECK_CUDA(cudaMalloc(&dq, n * 2)); CHECK_CUDA(cudaMalloc(&dbr, n * 2));
    CHECK_CUDA(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dy, y.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dp, p.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dq, q.data(), n * 2, cudaMemcpyHostToDevice));
    halves<<<(n + 127) / 128, 128>>>(dx, dy, dfr, dmn, dp, dq, dbr, n);
    CHECK_CUDA(cudaGetLastError());
    std::vector<__half2> fr(n), mn(n);
    std::vector<__nv_bfloat16> br(n);
    CHECK_CUDA(cudaMemcpy(fr.data(), dfr, n * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(mn.data(), dmn, n * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(br.data(), dbr, n * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float2 fx = __half22float2(x[i]), fy = __half22float2(y[i]), r = __half22float2(fr[i]), m = __half22float2(mn[i]);
        EXPECT(r.x == relu(fx.x * fy.x + fx.x));
        if (std::isnan(fy.y)) {
            EXPECT(std::isnan(r.y));   // NaN is not clamped
            EXPECT(std::isnan(m.y));   // .NaN: a NaN operand gives NaN
        } else {
            EXPECT(r.y == relu(fx.y * fy.y + fx.y));
            EXPECT(m.y == std::fmax(fx.y, fy.y));
        }
        EXPECT(m.x == std::fmax(fx.x, fy.x));
        float fp = __bfloat162float(p[i]), fq = __bfloat162float(q[i]);
        EXPECT(__bfloat162float(br[i]) == relu(fp * fq + fp));
    }
    std::printf("PASS simd_intrinsics\n");
    return 0;
}
