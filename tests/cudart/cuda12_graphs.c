/* cuda12_graphs.c — a CUDA 12 program's graph calls, whose forms differ
 * from CUDA 13's: the edge queries and dependency edits without edge data
 * (cudaGraphGetEdges(graph, from, to, &count), ...), cudaGraphAddNode
 * without it, and cudaStreamGetCaptureInfo as 11.3 declared it (status and
 * id only) next to its _v2.  Linked as a CUDA 12 build is (see
 * cuda12_props.c); declarations as CUDA 12.6's cuda_runtime_api.h has them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int cudaError_t;
typedef void *cudaStream_t, *cudaGraph_t, *cudaGraphNode_t, *cudaGraphExec_t;
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n);
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, size_t *numEdges);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps, size_t *n);
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *deps, size_t *n);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     size_t n);
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                        size_t n);
struct NodeParams { int type; int reserved0[3]; long long u[29]; long long reserved2; };
cudaError_t cudaGraphAddNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                             struct NodeParams *params);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, int *status, unsigned long long *id);
cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream, int *status, unsigned long long *id, cudaGraph_t *graph,
                                        const cudaGraphNode_t **deps, size_t *n);
typedef void (*HostFn)(void *);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, HostFn fn, void *data);

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_) {                                                                       \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, e_);   \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)
#define EXPECT(c)                                                                       \
    do {                                                                                \
        if (!(c)) {                                                                     \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #c);            \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static void bump(void *p)
{
    ++*(int *)p;
}

int main(void)
{
    cudaGraph_t g;
    cudaGraphNode_t a, b, c;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddEmptyNode(&a, g, NULL, 0));
    CHECK(cudaGraphAddEmptyNode(&b, g, &a, 1));
    struct NodeParams empty;
    memset(&empty, 0, sizeof empty);
    empty.type = 5; /* cudaGraphNodeTypeEmpty */
    CHECK(cudaGraphAddNode(&c, g, &b, 1, &empty));
    CHECK(cudaGraphAddDependencies(g, &a, &c, 1));
    cudaGraphNode_t from[8], to[8];
    size_t n = 8;
    CHECK(cudaGraphGetEdges(g, from, to, &n));
    EXPECT(n == 3);
    n = 0;
    CHECK(cudaGraphGetEdges(g, NULL, NULL, &n));
    EXPECT(n == 3);
    cudaGraphNode_t deps[4];
    n = 4;
    CHECK(cudaGraphNodeGetDependencies(c, deps, &n));
    EXPECT(n == 2 && deps[0] == b && deps[1] == a);
    n = 4;
    CHECK(cudaGraphNodeGetDependentNodes(a, deps, &n));
    EXPECT(n == 2);
    CHECK(cudaGraphRemoveDependencies(g, &a, &c, 1));
    n = 0;
    CHECK(cudaGraphGetEdges(g, NULL, NULL, &n));
    EXPECT(n == 2);
    CHECK(cudaGraphDestroy(g));

    cudaStream_t s;
    int calls = 0, status = -1;
    unsigned long long id = 0;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamBeginCapture(s, 0));
    CHECK(cudaLaunchHostFunc(s, bump, &calls));
    CHECK(cudaStreamGetCaptureInfo(s, &status, &id));
    EXPECT(status == 1 && id != 0);
    cudaGraph_t inProgress = NULL;
    const cudaGraphNode_t *capDeps = NULL;
    n = 0;
    CHECK(cudaStreamGetCaptureInfo_v2(s, &status, &id, &inProgress, &capDeps, &n));
    EXPECT(inProgress != NULL && n == 1 && capDeps != NULL);
    CHECK(cudaStreamEndCapture(s, &g));
    EXPECT(calls == 0);
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(calls == 2);
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    printf("PASS cuda12_graphs\n");
    return 0;
}
