// nvcc-flags: -arch=sm_80
// async_copy.cu — asynchronous global-to-shared copies as the sm_80 samples
// (globalToShmemAsyncCopy) write them: cooperative_groups::memcpy_async,
// the __pipeline primitives (with zero fill), cuda::pipeline in two stages
// and cuda::barrier (cp.async, cp.async.mbarrier.arrive and the mbarrier
// instructions), each checked against the host.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

#include <cstdio>
#include <vector>

#include "check.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;

constexpr int BLOCK = 128;

// each block reverses its slice through shared memory
__global__ void cgCopy(const float *in, float *out)
{
    extern __shared__ float tile[];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, tile, in + blockIdx.x * BLOCK, sizeof(float) * BLOCK);
    cg::wait(block);
    out[blockIdx.x * BLOCK + threadIdx.x] = tile[BLOCK - 1 - threadIdx.x] * 2.0f;
}

// 16-byte copies, and 4-byte copies whose odd threads zero-fill all 4 bytes
// (the fourth argument counts the bytes to fill, not those to copy)
__global__ void primitiveCopy(const int4 *in4, int4 *out4, const int *in, int *out)
{
    __shared__ int4 wide[BLOCK];
    __shared__ int narrow[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    narrow[threadIdx.x] = -1;
    __syncthreads();
    __pipeline_memcpy_async(&wide[threadIdx.x], &in4[i], sizeof(int4));
    __pipeline_memcpy_async(&narrow[threadIdx.x], &in[i], sizeof(int), (threadIdx.x & 1) ? sizeof(int) : 0);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out4[i] = wide[(threadIdx.x + 1) % BLOCK];
    out[i] = narrow[threadIdx.x];
}

// a two-stage cuda::pipeline: stage s + 1 is in flight while s is summed
__global__ void pipelineSum(const float *in, float *out, int stages)
{
    __shared__ float buf[2][BLOCK];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const float *base = in + (size_t)blockIdx.x * stages * BLOCK;
    float acc = 0;
    pipe.producer_acquire();
    cuda::memcpy_async(block, buf[0], base, sizeof(float) * BLOCK, pipe);
    pipe.producer_commit();
    for (int s = 0; s < stages; s++) {
        if (s + 1 < stages) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[(s + 1) & 1], base + (s + 1) * BLOCK, sizeof(float) * BLOCK, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += buf[s & 1][(threadIdx.x * 7) % BLOCK];
        pipe.consumer_release();
    }
    out[blockIdx.x * BLOCK + threadIdx.x] = acc;
}

// cuda::barrier completing a copy: every thread arrives and waits, twice
__global__ void barrierCopy(const float *in, float *out)
{
    __shared__ float tile[BLOCK];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    for (int round = 0; round < 2; round++) {
        cuda::memcpy_async(block, tile, in + blockIdx.x * BLOCK + round * 8, sizeof(float) * BLOCK, bar);
        bar.arrive_and_wait();
        out[(blockIdx.x * 2 + round) * BLOCK + threadIdx.x] = tile[BLOCK - 1 - threadIdx.x];
        bar.arrive_and_wait();
    }
}

int main()
{
    const int blocks = 6, stages = 5, n = blocks * BLOCK;
    std::vector<float> hf(n * stages + 64);
    std::vector<int> hi(n), h4(n * 4);
    for (size_t i = 0; i < hf.size(); i++) hf[i] = (float)((i * 37) % 1000) * 0.25f;
    for (int i = 0; i < n; i++) hi[i] = i * 3 + 1;
    for (int i = 0; i < n * 4; i++) h4[i] = i ^ 0x5A5A;

    float *df, *dout; int *di, *dio; int4 *d4, *d4o;
    CHECK_CUDA(cudaMalloc(&df, hf.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dout, n * 2 * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&di, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dio, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d4, n * sizeof(int4)));
    CHECK_CUDA(cudaMalloc(&d4o, n * sizeof(int4)));
    CHECK_CUDA(cudaMemcpy(df, hf.data(), hf.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(di, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d4, h4.data(), n * sizeof(int4), cudaMemcpyHostToDevice));
    std::vector<float> out(n * 2);

    cgCopy<<<blocks, BLOCK, BLOCK * sizeof(float)>>>(df, dout);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < BLOCK; t++)
            EXPECT(out[b * BLOCK + t] == hf[b * BLOCK + BLOCK - 1 - t] * 2.0f);

    primitiveCopy<<<blocks, BLOCK>>>(d4, d4o, di, dio);
    CHECK_CUDA(cudaGetLastError());
    std::vector<int> o4(n * 4), oi(n);
    CHECK_CUDA(cudaMemcpy(o4.data(), d4o, n * sizeof(int4), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(oi.data(), dio, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < BLOCK; t++) {
            int src = b * BLOCK + (t + 1) % BLOCK;
            for (int k = 0; k < 4; k++)
                EXPECT(o4[(b * BLOCK + t) * 4 + k] == h4[src * 4 + k]);
            EXPECT(oi[b * BLOCK + t] == ((t & 1) ? 0 : hi[b * BLOCK + t]));
        }

    pipelineSum<<<blocks, BLOCK>>>(df, dout, stages);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < BLOCK; t++) {
            float acc = 0;
            for (int s = 0; s < stages; s++)
                acc += hf[(size_t)b * stages * BLOCK + s * BLOCK + (t * 7) % BLOCK];
            EXPECT(out[b * BLOCK + t] == acc);
        }

    barrierCopy<<<blocks, BLOCK>>>(df, dout);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out.data(), dout, n * 2 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int r = 0; r < 2; r++)
            for (int t = 0; t < BLOCK; t++)
                EXPECT(out[(b * 2 + r) * BLOCK + t] == hf[b * BLOCK + r * 8 + BLOCK - 1 - t]);

    std::printf("PASS async_copy\n");
    return 0;
}
