// fork_child.cu — a program that forks after its launches ran on the
// simulator's host threads, and whose child exits without exec: the child
// ends cleanly and prints no summary of the parent's kernels (before, it
// printed the table of the launches so far a second time); the parent
// goes on launching.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

__global__ void add(int *d, int n, int by)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] += by;
}

int main()
{
    const int n = 64 * 128;
    int *d;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
    CHECK_CUDA(cudaMemset(d, 0, n * sizeof(int)));
    add<<<64, 128>>>(d, n, 1);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::fflush(stdout);
    pid_t child = fork();
    EXPECT(child >= 0);
    if (child == 0) {
        alarm(30); /* a child stuck at exit dies of SIGALRM instead */
        std::exit(0);
    }
    int status = 0;
    EXPECT(waitpid(child, &status, 0) == child);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("the child did not exit cleanly (status %d)\n", status);
        return 1;
    }
    add<<<64, 128>>>(d, n, 2);
    int h[n];
    CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 3);
    std::printf("PASS fork_child\n");
    return 0;
}
