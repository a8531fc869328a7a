// device_malloc.cu — in-kernel malloc/free and new/delete: every thread
// allocates a block of its own size, fills it and publishes the pointer; a
// second kernel (a later launch) reads the blocks through those pointers
// and frees half of them; a third allocates again (clear of the blocks
// still live) and a fourth frees the rest.  The host checks alignment,
// that no two live blocks overlap, every sum, that free(NULL) is harmless,
// and that a request larger than the heap (CUDA's default 8 MiB) returns
// NULL.
#include <algorithm>
#include <cstdint>
#include <vector>
#include "check.h"

constexpr int kThreads = 128;
constexpr int kBlocks = 4;
constexpr int kN = kThreads * kBlocks;

static __host__ __device__ int blockInts(int gid) { return 1 + gid % 13; }

struct Node {
    int value;
    Node *next;
};

__global__ void allocKernel(int **ptrs, unsigned long long *addrs, int *status)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    const int n = blockInts(gid);
    int *p = static_cast<int *>(malloc(n * sizeof(int)));
    ptrs[gid] = p;
    addrs[gid] = reinterpret_cast<unsigned long long>(p);
    if (p == nullptr)
        return;
    for (int i = 0; i < n; i++)
        p[i] = gid * 100 + i;
    free(nullptr); // a no-op
    if (gid == 0) {
        // bigger than the whole heap: NULL, not a fault
        void *huge = malloc(size_t(64) << 20);
        status[0] = huge == nullptr ? 1 : 2;
        // a linked list through new/delete
        Node *head = nullptr;
        for (int i = 1; i <= 10; i++)
            head = new Node{i, head};
        int sum = 0;
        while (head) {
            Node *next = head->next;
            sum += head->value;
            delete head;
            head = next;
        }
        status[1] = sum;
        int *arr = new int[40];
        for (int i = 0; i < 40; i++)
            arr[i] = i * i;
        int s2 = 0;
        for (int i = 0; i < 40; i++)
            s2 += arr[i];
        delete[] arr;
        status[2] = s2;
    }
}

__global__ void readAndFreeKernel(int **ptrs, int *sums)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = ptrs[gid];
    int s = 0;
    for (int i = 0; i < blockInts(gid); i++)
        s += p[i];
    sums[gid] = s;
    if (gid % 2 == 0) {
        free(p);
        ptrs[gid] = nullptr;
    }
}

__global__ void reallocKernel(int **ptrs, unsigned long long *addrs, int *sums)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid % 2 == 0) {
        int *q = static_cast<int *>(malloc(2 * sizeof(int)));
        addrs[gid] = reinterpret_cast<unsigned long long>(q);
        q[0] = gid;
        q[1] = -gid;
        sums[gid] = q[0] + q[1] + 7;
        free(q);
    } else {
        int *p = ptrs[gid]; // still live since the first launch
        sums[gid] = p[blockInts(gid) - 1];
    }
}

__global__ void freeKernel(int **ptrs)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    free(ptrs[gid]); // NULL for the blocks freed before
}

int main()
{
    int **d_ptrs;
    unsigned long long *d_addrs;
    int *d_sums, *d_status;
    CHECK_CUDA(cudaMalloc(&d_ptrs, kN * sizeof(int *)));
    CHECK_CUDA(cudaMalloc(&d_addrs, kN * sizeof(unsigned long long)));
    CHECK_CUDA(cudaMalloc(&d_sums, kN * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_status, 3 * sizeof(int)));
    CHECK_CUDA(cudaMemset(d_status, 0, 3 * sizeof(int)));

    allocKernel<<<kBlocks, kThreads>>>(d_ptrs, d_addrs, d_status);
    CHECK_CUDA(cudaGetLastError());
    std::vector<unsigned long long> addrs(kN);
    int status[3];
    CHECK_CUDA(cudaMemcpy(addrs.data(), d_addrs, kN * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(status, d_status, sizeof status, cudaMemcpyDeviceToHost));
    EXPECT(status[0] == 1);
    EXPECT(status[1] == 55);
    EXPECT(status[2] == 39 * 40 * 79 / 6);
    std::vector<std::pair<unsigned long long, unsigned long long>> ranges;
    for (int gid = 0; gid < kN; gid++) {
        EXPECT(addrs[gid] != 0);
        EXPECT(addrs[gid] % 16 == 0);
        ranges.push_back({addrs[gid], addrs[gid] + blockInts(gid) * sizeof(int)});
    }
    std::sort(ranges.begin(), ranges.end());
    for (size_t i = 1; i < ranges.size(); i++)
        EXPECT(ranges[i - 1].second <= ranges[i].first);

    readAndFreeKernel<<<kBlocks, kThreads>>>(d_ptrs, d_sums);
    CHECK_CUDA(cudaGetLastError());
    std::vector<int> sums(kN);
    CHECK_CUDA(cudaMemcpy(sums.data(), d_sums, kN * sizeof(int), cudaMemcpyDeviceToHost));
    for (int gid = 0; gid < kN; gid++) {
        int n = blockInts(gid);
        EXPECT(sums[gid] == gid * 100 * n + n * (n - 1) / 2);
    }

    reallocKernel<<<kBlocks, kThreads>>>(d_ptrs, d_addrs, d_sums);
    CHECK_CUDA(cudaGetLastError());
    std::vector<unsigned long long> again(kN);
    CHECK_CUDA(cudaMemcpy(again.data(), d_addrs, kN * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(sums.data(), d_sums, kN * sizeof(int), cudaMemcpyDeviceToHost));
    for (int gid = 0; gid < kN; gid++) {
        if (gid % 2 == 0) {
            EXPECT(again[gid] != 0 && again[gid] % 16 == 0);
            EXPECT(sums[gid] == 7);
            // the new block lies clear of every block still live (odd gids)
            for (int k = 1; k < kN; k += 2)
                EXPECT(again[gid] + 8 <= addrs[k] || again[gid] >= addrs[k] + blockInts(k) * sizeof(int));
        } else {
            EXPECT(sums[gid] == gid * 100 + blockInts(gid) - 1);
        }
    }
    freeKernel<<<kBlocks, kThreads>>>(d_ptrs);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaFree(d_ptrs));
    CHECK_CUDA(cudaFree(d_addrs));
    CHECK_CUDA(cudaFree(d_sums));
    CHECK_CUDA(cudaFree(d_status));
    std::printf("PASS device_malloc\n");
    return 0;
}
