// bfs.cu — Rodinia-style breadth-first search: a graph in CSR form, two
// kernels per level (expand the frontier, then update the masks) and a host
// loop that copies a "keep going" flag back after every level; costs are
// checked against a host BFS.
#include <queue>
#include <vector>
#include "sample_helpers.h"

struct Node {
    int starting;
    int no_of_edges;
};

__global__ void Kernel(const Node *g_graph_nodes, const int *g_graph_edges, bool *g_graph_mask,
                       bool *g_updating_graph_mask, const bool *g_graph_visited, int *g_cost, int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting; i < g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting;
             i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

__global__ void Kernel2(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited, bool *g_over,
                        int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    const int no_of_nodes = 3000, degree = 3;
    std::vector<Node> nodes(no_of_nodes);
    std::vector<int> edges;
    unsigned seed = 7;
    for (int i = 0; i < no_of_nodes; i++) {
        nodes[i].starting = (int)edges.size();
        nodes[i].no_of_edges = degree;
        edges.push_back((i + 1) % no_of_nodes); // a ring keeps everything reachable
        for (int e = 1; e < degree; e++) {
            seed = seed * 1664525u + 1013904223u;
            edges.push_back((int)(seed >> 8) % no_of_nodes);
        }
    }
    const int source = 0;
    std::vector<char> h_mask(no_of_nodes, 0), h_updating(no_of_nodes, 0), h_visited(no_of_nodes, 0);
    std::vector<int> h_cost(no_of_nodes, -1);
    h_mask[source] = 1;
    h_visited[source] = 1;
    h_cost[source] = 0;
    Node *d_graph_nodes;
    int *d_graph_edges, *d_cost;
    bool *d_graph_mask, *d_updating_graph_mask, *d_graph_visited, *d_over;
    checkCudaErrors(cudaMalloc((void **)&d_graph_nodes, sizeof(Node) * no_of_nodes));
    checkCudaErrors(cudaMalloc((void **)&d_graph_edges, sizeof(int) * edges.size()));
    checkCudaErrors(cudaMalloc((void **)&d_graph_mask, sizeof(bool) * no_of_nodes));
    checkCudaErrors(cudaMalloc((void **)&d_updating_graph_mask, sizeof(bool) * no_of_nodes));
    checkCudaErrors(cudaMalloc((void **)&d_graph_visited, sizeof(bool) * no_of_nodes));
    checkCudaErrors(cudaMalloc((void **)&d_cost, sizeof(int) * no_of_nodes));
    checkCudaErrors(cudaMalloc((void **)&d_over, sizeof(bool)));
    checkCudaErrors(cudaMemcpy(d_graph_nodes, nodes.data(), sizeof(Node) * no_of_nodes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_graph_edges, edges.data(), sizeof(int) * edges.size(), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_graph_mask, h_mask.data(), no_of_nodes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_updating_graph_mask, h_updating.data(), no_of_nodes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_graph_visited, h_visited.data(), no_of_nodes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_cost, h_cost.data(), sizeof(int) * no_of_nodes, cudaMemcpyHostToDevice));
    dim3 grid((no_of_nodes + 255) / 256), threads(256);
    int k = 0;
    bool stop;
    do {
        stop = false;
        checkCudaErrors(cudaMemcpy(d_over, &stop, sizeof(bool), cudaMemcpyHostToDevice));
        Kernel<<<grid, threads, 0>>>(d_graph_nodes, d_graph_edges, d_graph_mask, d_updating_graph_mask,
                                     d_graph_visited, d_cost, no_of_nodes);
        Kernel2<<<grid, threads, 0>>>(d_graph_mask, d_updating_graph_mask, d_graph_visited, d_over, no_of_nodes);
        getLastCudaError("BFS kernels");
        checkCudaErrors(cudaMemcpy(&stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost));
        k++;
    } while (stop);
    std::printf("Kernel Executed %d times\n", k);
    checkCudaErrors(cudaMemcpy(h_cost.data(), d_cost, sizeof(int) * no_of_nodes, cudaMemcpyDeviceToHost));
    std::vector<int> ref(no_of_nodes, -1);
    std::queue<int> q;
    ref[source] = 0;
    q.push(source);
    while (!q.empty()) {
        int u = q.front();
        q.pop();
        for (int i = nodes[u].starting; i < nodes[u].starting + nodes[u].no_of_edges; i++)
            if (ref[edges[i]] < 0) {
                ref[edges[i]] = ref[u] + 1;
                q.push(edges[i]);
            }
    }
    bool ok = true;
    for (int i = 0; i < no_of_nodes; i++)
        if (ref[i] != h_cost[i]) {
            std::printf("cost[%d] = %d, expected %d\n", i, h_cost[i], ref[i]);
            ok = false;
            break;
        }
    checkCudaErrors(cudaFree(d_graph_nodes));
    checkCudaErrors(cudaFree(d_graph_edges));
    checkCudaErrors(cudaFree(d_graph_mask));
    checkCudaErrors(cudaFree(d_updating_graph_mask));
    checkCudaErrors(cudaFree(d_graph_visited));
    checkCudaErrors(cudaFree(d_cost));
    checkCudaErrors(cudaFree(d_over));
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS bfs\n");
    return 0;
}
