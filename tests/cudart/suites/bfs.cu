// bfs.cu — models Rodinia BFS: bool frontier/updating/visited arrays, two
// kernels per level, and a host loop that copies a bool "over" flag in and
// out every level until it stays false.  Costs checked against a host BFS.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/time.h>
#include <cuda_runtime.h>

struct Node { int starting; int no_of_edges; };

__global__ void expand(const Node *nodes, const int *edges, bool *mask, bool *updating,
                       const bool *visited, int *cost, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && mask[tid]) {
        mask[tid] = false;
        for (int i = nodes[tid].starting; i < nodes[tid].starting + nodes[tid].no_of_edges; i++) {
            int id = edges[i];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = true;
            }
        }
    }
}

__global__ void update(bool *mask, bool *updating, bool *visited, bool *over, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && updating[tid]) {
        mask[tid] = true;
        visited[tid] = true;
        *over = true;
        updating[tid] = false;
    }
}

int main()
{
    const int n = 6000, degree = 3;
    srand(7);
    Node *nodes = (Node *)malloc(n * sizeof(Node));
    int ne = n * degree;
    int *edges = (int *)malloc(ne * sizeof(int));
    for (int i = 0; i < n; i++) {
        nodes[i].starting = i * degree;
        nodes[i].no_of_edges = degree;
        for (int j = 0; j < degree; j++) edges[i * degree + j] = rand() % n;
    }
    bool *mask = (bool *)calloc(n, 1), *upd = (bool *)calloc(n, 1), *vis = (bool *)calloc(n, 1);
    int *cost = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) cost[i] = -1;
    mask[0] = true; vis[0] = true; cost[0] = 0;

    Node *d_nodes; int *d_edges, *d_cost; bool *d_mask, *d_upd, *d_vis, *d_over;
    cudaMalloc((void **)&d_nodes, n * sizeof(Node));
    cudaMalloc((void **)&d_edges, ne * sizeof(int));
    cudaMalloc((void **)&d_mask, n); cudaMalloc((void **)&d_upd, n); cudaMalloc((void **)&d_vis, n);
    cudaMalloc((void **)&d_cost, n * sizeof(int));
    cudaMalloc((void **)&d_over, sizeof(bool));
    cudaMemcpy(d_nodes, nodes, n * sizeof(Node), cudaMemcpyHostToDevice);
    cudaMemcpy(d_edges, edges, ne * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_mask, mask, n, cudaMemcpyHostToDevice);
    cudaMemcpy(d_upd, upd, n, cudaMemcpyHostToDevice);
    cudaMemcpy(d_vis, vis, n, cudaMemcpyHostToDevice);
    cudaMemcpy(d_cost, cost, n * sizeof(int), cudaMemcpyHostToDevice);

    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    int threads = 512;
    dim3 grid((n + threads - 1) / threads), block(threads);
    bool stop;
    int levels = 0;
    do {
        stop = false;
        cudaMemcpy(d_over, &stop, sizeof(bool), cudaMemcpyHostToDevice);
        expand<<<grid, block>>>(d_nodes, d_edges, d_mask, d_upd, d_vis, d_cost, n);
        update<<<grid, block>>>(d_mask, d_upd, d_vis, d_over, n);
        cudaMemcpy(&stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost);
        levels++;
    } while (stop && levels < 1000);
    cudaDeviceSynchronize();
    gettimeofday(&t1, NULL);
    int *gcost = (int *)malloc(n * sizeof(int));
    cudaMemcpy(gcost, d_cost, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();

    // host BFS
    int *hc = (int *)malloc(n * sizeof(int)), *queue = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) hc[i] = -1;
    int head = 0, tail = 0; queue[tail++] = 0; hc[0] = 0;
    while (head < tail) {
        int u = queue[head++];
        for (int i = nodes[u].starting; i < nodes[u].starting + nodes[u].no_of_edges; i++)
            if (hc[edges[i]] < 0) { hc[edges[i]] = hc[u] + 1; queue[tail++] = edges[i]; }
    }
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (hc[i] != gcost[i]) { if (bad < 5) printf("mismatch node %d: gpu %d cpu %d\n", i, gcost[i], hc[i]); bad++; }
    printf("levels %d, time %.3f ms, err %s\n", levels,
           (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) / 1e3, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
