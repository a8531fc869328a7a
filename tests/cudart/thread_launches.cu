// thread_launches.cu — host threads launching at the same time: each
// thread's <<<>>> configuration is its own (a launch never takes another
// thread's grid or stream), and so is its last error (a failed launch in
// one thread is not another's cudaGetLastError).  With one configuration
// stack or one last error for the process, some launch here runs with
// another thread's grid and leaves elements unwritten, or a thread reads
// an error it did not make.
#include <atomic>
#include <thread>
#include <vector>
#include "check.h"

__global__ void stamp(int *out, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = value;
}

static std::atomic<int> failures{0};

static void launcher(int id, int rounds)
{
    // every thread its own size, so a borrowed grid covers too few or too many blocks
    const int n = 64 * (id + 1) + 7 * id;
    int *d_out;
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(int)));
    std::vector<int> h(n);
    for (int r = 0; r < rounds; r++) {
        int value = id * 100000 + r;
        stamp<<<(n + 31) / 32, 32, 0, stream>>>(d_out, n, value);
        if (cudaGetLastError() != cudaSuccess)
            failures++;
        if (id % 2 == 1) {
            // a launch that must fail: more threads per block than any GPU has
            stamp<<<1, 4096, 0, stream>>>(d_out, n, -1);
            if (cudaGetLastError() != cudaErrorInvalidConfiguration)
                failures++;
        }
        CHECK_CUDA(cudaMemcpyAsync(h.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
        CHECK_CUDA(cudaStreamSynchronize(stream));
        for (int i = 0; i < n; i++)
            if (h[i] != value) {
                failures++;
                break;
            }
    }
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaStreamDestroy(stream));
}

int main()
{
    const int threads = 8, rounds = 60;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back(launcher, t, rounds);
    for (auto &t : pool)
        t.join();
    if (failures != 0) {
        std::printf("%d launches went wrong\n", failures.load());
        return 1;
    }
    // a thread that made no error reads none, whatever the others did
    EXPECT(cudaGetLastError() == cudaSuccess);
    std::printf("PASS thread_launches\n");
    return 0;
}
