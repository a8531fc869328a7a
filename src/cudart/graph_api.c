/* graph_api.c — CUDA graphs: building them node by node or by stream
 * capture, instantiating and launching them.
 *
 * A graph is a set of nodes, each holding one unit of stream work as a
 * CudartOp (a kernel with its packed arguments, a copy, a fill, a host
 * function, an event record or wait, an empty node, a child graph) and the
 * nodes it depends on.  Instantiation orders the nodes topologically (ties
 * in creation order, which for a captured graph is issue order), flattens
 * child graphs and copies every op, so an executable graph is a list of
 * ops that cudaGraphLaunch runs in order, synchronously, like all work.
 *
 * Stream capture: a stream in capture records the work issued to it as
 * nodes instead of doing it (cudart_capture_begin_op/_add, called by the
 * launch, copy, fill and host-function entry points).  An event recorded
 * in a capturing stream carries the capture's dependencies, so a stream
 * that waits on it joins the capture (the fork/join pattern of
 * simpleCudaGraphs); ending the capture on the stream that began it
 * detaches every stream and hands over the graph.  Memory a captured
 * cudaMallocAsync allocates is allocated when captured and freed at
 * cudaDeviceReset (graph memory nodes are no-ops). */
#include <stdio.h>
#include <string.h>

#include "cudart_internal.h"

#define GRAPH_MAGIC 0x57534752
#define NODE_MAGIC  0x57534e44
#define EXEC_MAGIC  0x57534758

/* enum cudaGraphNodeType */
enum {
    NODE_KERNEL = 0, NODE_MEMCPY = 1, NODE_MEMSET = 2, NODE_HOST = 3, NODE_GRAPH = 4, NODE_EMPTY = 5,
    NODE_WAIT_EVENT = 6, NODE_EVENT_RECORD = 7, NODE_MEM_ALLOC = 10, NODE_MEM_FREE = 11,
};

/* enum cudaStreamCaptureStatus / Mode */
enum { CAPTURE_NONE = 0, CAPTURE_ACTIVE = 1, CAPTURE_INVALIDATED = 2 };
enum { MODE_GLOBAL = 0, MODE_THREAD_LOCAL = 1, MODE_RELAXED = 2 };

typedef struct CudartGraphNode CudartGraphNode;

struct CudartGraph {
    int magic;
    GPtrArray *nodes;           /* CudartGraphNode*, owned, in creation order */
    CudartGraphNode *parent;    /* a child graph: the node owning it; else NULL */
};

struct CudartGraphNode {
    int magic;
    CudartGraph *graph;
    int type;                   /* enum cudaGraphNodeType */
    CudartOp op;                /* owned (a kernel's packed parameters) */
    GPtrArray *deps;            /* CudartGraphNode* of the same graph, borrowed */
    CudartGraph *child;         /* NODE_GRAPH: its own copy of the child graph (owned) */
    void **arg_ptrs;            /* NODE_KERNEL: one pointer per parameter into op's frame */
    struct cudaMemcpy3DParms copy_parms; /* NODE_MEMCPY: as given, for GetParams */
    struct cudaMemsetParams fill_parms;  /* NODE_MEMSET: as given */
    const CudartGraphNode *original;     /* a clone's node: the one it was copied from */
};

typedef struct {
    CudartOp op;                /* owned copy */
    const CudartGraphNode *node; /* the graph node it came from: compared, never dereferenced */
    bool enabled;
} ExecStep;

typedef struct {
    int magic;
    GArray *steps;              /* ExecStep, in run order */
    unsigned long long flags;
} CudartGraphExec;

struct CudartCapture {
    CudartGraph *graph;         /* owned until cudaStreamEndCapture hands it over */
    bool owns_graph;            /* false: cudaStreamBeginCaptureToGraph's graph */
    cudaStream_t origin;
    int mode;
    unsigned long long id;
    bool invalidated;
};

/* ------------------------------------------------------------ handles */

static CudartGraph *graph_of(CudartDevice *d, const void *handle)
{
    return handle && g_hash_table_contains(d->graphs, handle) ? (CudartGraph *)handle : NULL;
}

static CudartGraphNode *node_of(CudartDevice *d, const void *handle)
{
    return handle && g_hash_table_contains(d->graph_nodes, handle) ? (CudartGraphNode *)handle : NULL;
}

static CudartGraphExec *exec_of(CudartDevice *d, const void *handle)
{
    return handle && g_hash_table_contains(d->graph_execs, handle) ? (CudartGraphExec *)handle : NULL;
}

/* A stream that can capture: a created one, or cudaStreamPerThread (one
 * record for the process: warpsim does not tell host threads apart). */
static CudartStream *stream_record(CudartDevice *d, cudaStream_t s)
{
    if (s == CUDART_STREAM_PER_THREAD)
        return &d->per_thread_stream;
    return s && g_hash_table_contains(d->streams, s) ? (CudartStream *)s : NULL;
}

static CudartGraph *graph_new(CudartDevice *d, CudartGraphNode *parent)
{
    CudartGraph *g = g_new0(CudartGraph, 1);
    g->magic = GRAPH_MAGIC;
    g->nodes = g_ptr_array_new();
    g->parent = parent;
    g_hash_table_add(d->graphs, g);
    return g;
}

static void graph_free(CudartDevice *d, CudartGraph *g);

static void node_free(CudartDevice *d, CudartGraphNode *n)
{
    g_hash_table_remove(d->graph_nodes, n);
    cudart_op_clear(&n->op);
    if (n->child)
        graph_free(d, n->child);
    g_ptr_array_unref(n->deps);
    g_free(n->arg_ptrs);
    g_free(n);
}

static void graph_free(CudartDevice *d, CudartGraph *g)
{
    for (guint i = 0; i < g->nodes->len; i++)
        node_free(d, g_ptr_array_index(g->nodes, i));
    g_ptr_array_unref(g->nodes);
    g_hash_table_remove(d->graphs, g);
    g_free(g);
}

static void exec_free(CudartDevice *d, CudartGraphExec *x)
{
    for (guint i = 0; i < x->steps->len; i++)
        cudart_op_clear(&g_array_index(x->steps, ExecStep, i).op);
    g_array_unref(x->steps);
    g_hash_table_remove(d->graph_execs, x);
    g_free(x);
}

/* ------------------------------------------------------------ nodes */

static int node_type_of(CudartOpKind kind)
{
    static const int types[] = {
        [CUDART_OP_KERNEL] = NODE_KERNEL, [CUDART_OP_COPY] = NODE_MEMCPY, [CUDART_OP_FILL] = NODE_MEMSET,
        [CUDART_OP_HOST] = NODE_HOST, [CUDART_OP_EVENT_RECORD] = NODE_EVENT_RECORD,
        [CUDART_OP_EVENT_WAIT] = NODE_WAIT_EVENT, [CUDART_OP_EMPTY] = NODE_EMPTY, [CUDART_OP_CHILD] = NODE_GRAPH,
        [CUDART_OP_MEM_ALLOC] = NODE_MEM_ALLOC, [CUDART_OP_MEM_FREE] = NODE_MEM_FREE,
    };
    return types[kind];
}

/* Pointers to each parameter in a kernel op's frame (KernelNodeGetParams). */
static void **kernel_arg_ptrs(const CudartOp *op)
{
    const CudartKernel *k = op->u.kernel.k;
    const Module *m = k->mod->module;
    const Function *f = module_func(m, k->kernel);
    void **ptrs = g_new0(void *, f->params->len + 1);
    for (guint i = 0; i < f->params->len; i++)
        ptrs[i] = op->u.kernel.params + module_var(m, g_array_index(f->params, uint32_t, i))->offset;
    return ptrs;
}

/* Adds a node (taking op over) after checking the dependencies belong to
 * the graph; *err says why not. */
static CudartGraphNode *add_node(CudartDevice *d, CudartGraph *g, const void *const *deps, size_t ndeps,
                                 CudartOp *op, cudaError_t *err)
{
    *err = cudaSuccess;
    if (ndeps && !deps)
        *err = cudaErrorInvalidValue;
    for (size_t i = 0; i < ndeps && !*err; i++) {
        CudartGraphNode *dep = node_of(d, deps[i]);
        if (!dep || dep->graph != g)
            *err = cudaErrorInvalidValue;
        for (size_t j = 0; j < i && !*err; j++)
            if (deps[j] == deps[i])
                *err = cudaErrorInvalidValue; /* a duplicate dependency */
    }
    if (*err) {
        cudart_op_clear(op);
        return NULL;
    }
    CudartGraphNode *n = g_new0(CudartGraphNode, 1);
    n->magic = NODE_MAGIC;
    n->graph = g;
    n->type = node_type_of(op->kind);
    n->op = *op;
    memset(op, 0, sizeof *op);
    n->deps = g_ptr_array_new();
    for (size_t i = 0; i < ndeps; i++)
        g_ptr_array_add(n->deps, (gpointer)deps[i]);
    if (n->type == NODE_KERNEL)
        n->arg_ptrs = kernel_arg_ptrs(&n->op);
    g_ptr_array_add(g->nodes, n);
    g_hash_table_add(d->graph_nodes, n);
    return n;
}

/* Copies graph `from` into the empty graph `to`, each new node knowing its
 * original (cudaGraphClone, child graph nodes). */
static void graph_copy(CudartDevice *d, CudartGraph *to, const CudartGraph *from)
{
    GHashTable *map = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (guint i = 0; i < from->nodes->len; i++) {
        const CudartGraphNode *src = g_ptr_array_index(from->nodes, i);
        CudartGraphNode *n = g_new0(CudartGraphNode, 1);
        *n = *src;
        n->graph = to;
        n->original = src;
        cudart_op_copy(&n->op, &src->op);
        n->deps = g_ptr_array_new();
        n->arg_ptrs = src->type == NODE_KERNEL ? kernel_arg_ptrs(&n->op) : NULL;
        if (src->child) {
            n->child = graph_new(d, n);
            graph_copy(d, n->child, src->child);
            n->op.u.child = n->child;
        }
        g_hash_table_insert(map, (gpointer)src, n);
        g_ptr_array_add(to->nodes, n);
        g_hash_table_add(d->graph_nodes, n);
    }
    /* dependencies once every node exists: an edge may point to a later node */
    for (guint i = 0; i < from->nodes->len; i++) {
        const CudartGraphNode *src = g_ptr_array_index(from->nodes, i);
        CudartGraphNode *n = g_ptr_array_index(to->nodes, i);
        for (guint j = 0; j < src->deps->len; j++)
            g_ptr_array_add(n->deps, g_hash_table_lookup(map, g_ptr_array_index(src->deps, j)));
    }
    g_hash_table_unref(map);
}

/* The nodes in an order that respects every dependency (ties: creation
 * order); NULL when the dependencies form a cycle. */
static GPtrArray *topological_order(const CudartGraph *g)
{
    guint n = g->nodes->len;
    GHashTable *index = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (guint i = 0; i < n; i++)
        g_hash_table_insert(index, g_ptr_array_index(g->nodes, i), GUINT_TO_POINTER(i));
    bool *done = g_new0(bool, n);
    GPtrArray *order = g_ptr_array_new();
    bool progress = true;
    while (order->len < n && progress) {
        progress = false;
        for (guint i = 0; i < n; i++) {
            const CudartGraphNode *node = g_ptr_array_index(g->nodes, i);
            bool ready = !done[i];
            for (guint j = 0; j < node->deps->len && ready; j++)
                ready = done[GPOINTER_TO_UINT(g_hash_table_lookup(index, g_ptr_array_index(node->deps, j)))];
            if (ready) {
                done[i] = true;
                g_ptr_array_add(order, (gpointer)node);
                progress = true;
                break; /* restart: the earliest ready node goes first */
            }
        }
    }
    g_free(done);
    g_hash_table_unref(index);
    if (order->len < n) {
        g_ptr_array_unref(order);
        return NULL;
    }
    return order;
}

/* Appends g's ops in run order to steps, child graphs inlined. */
static bool flatten(const CudartGraph *g, GArray *steps)
{
    GPtrArray *order = topological_order(g);
    if (!order)
        return false;
    bool ok = true;
    for (guint i = 0; i < order->len && ok; i++) {
        const CudartGraphNode *node = g_ptr_array_index(order, i);
        if (node->type == NODE_GRAPH) {
            ok = flatten(node->child, steps);
            continue;
        }
        ExecStep step = {.node = node, .enabled = true};
        cudart_op_copy(&step.op, &node->op);
        g_array_append_val(steps, step);
    }
    g_ptr_array_unref(order);
    return ok;
}

/* ------------------------------------------------------------ graphs */

CUDART_API cudaError_t cudaGraphCreate(void **pGraph, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (!pGraph || flags)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pGraph = graph_new(d, NULL);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphDestroy(void *graph)
{
    CudartDevice *d = cudart_enter();
    CudartGraph *g = graph_of(d, graph);
    if (!g || g->parent)
        return cudart_leave(d, cudaErrorInvalidValue);
    graph_free(d, g);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphClone(void **pGraphClone, void *originalGraph)
{
    CudartDevice *d = cudart_enter();
    CudartGraph *g = graph_of(d, originalGraph);
    if (!pGraphClone || !g)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartGraph *clone = graph_new(d, NULL);
    graph_copy(d, clone, g);
    *pGraphClone = clone;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphNodeFindInClone(void **pNode, void *originalNode, void *clonedGraph)
{
    CudartDevice *d = cudart_enter();
    CudartGraph *g = graph_of(d, clonedGraph);
    if (!pNode || !g || !node_of(d, originalNode))
        return cudart_leave(d, cudaErrorInvalidValue);
    for (guint i = 0; i < g->nodes->len; i++) {
        CudartGraphNode *n = g_ptr_array_index(g->nodes, i);
        if (n->original == originalNode) {
            *pNode = n;
            return cudart_leave(d, cudaSuccess);
        }
    }
    return cudart_leave(d, cudaErrorInvalidValue);
}

/* Writes up to *count handles (all of them when out is NULL: the count). */
static cudaError_t list_nodes(GPtrArray *nodes, bool (*keep)(const CudartGraphNode *, const void *),
                              const void *arg, void **out, void *edge_data, size_t *count)
{
    if (!count)
        return cudaErrorInvalidValue;
    size_t n = 0;
    for (guint i = 0; i < nodes->len; i++) {
        CudartGraphNode *node = g_ptr_array_index(nodes, i);
        if (keep && !keep(node, arg))
            continue;
        if (out && n < *count) {
            out[n] = node;
            if (edge_data)
                memset((char *)edge_data + n * 8, 0, 8); /* cudaGraphEdgeData: a default edge */
        }
        n++;
    }
    if (out && n < *count) {
        for (size_t i = n; i < *count; i++)
            out[i] = NULL;
    }
    *count = out ? MIN(*count, n) : n;
    return cudaSuccess;
}

static bool is_root(const CudartGraphNode *n, const void *unused)
{
    (void)unused;
    return n->deps->len == 0;
}

static bool depends_on(const CudartGraphNode *n, const void *dep)
{
    for (guint i = 0; i < n->deps->len; i++)
        if (g_ptr_array_index(n->deps, i) == dep)
            return true;
    return false;
}

CUDART_API cudaError_t cudaGraphGetNodes(void *graph, void **nodes, size_t *numNodes)
{
    CudartDevice *d = cudart_enter();
    CudartGraph *g = graph_of(d, graph);
    if (!g)
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, list_nodes(g->nodes, NULL, NULL, nodes, NULL, numNodes));
}

CUDART_API cudaError_t cudaGraphGetRootNodes(void *graph, void **pRootNodes, size_t *pNumRootNodes)
{
    CudartDevice *d = cudart_enter();
    CudartGraph *g = graph_of(d, graph);
    if (!g)
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, list_nodes(g->nodes, is_root, NULL, pRootNodes, NULL, pNumRootNodes));
}

/* CUDA 12's forms of the edge queries lack CUDA 13's edge data: for a
 * program that linked libcudart.so.12 the argument where 13 passes it is
 * the count (the _v2 names are 13's forms). */
static void cuda12_edges(const CudartDevice *d, void **edge_data, size_t **count)
{
    if (d->abi_release == 12) {
        *count = *edge_data;
        *edge_data = NULL;
    }
}

static cudaError_t node_dependencies(void *node, void **pDependencies, void *edgeData, size_t *pNumDependencies,
                                     bool v13)
{
    CudartDevice *d = cudart_enter();
    if (!v13)
        cuda12_edges(d, &edgeData, &pNumDependencies);
    CudartGraphNode *n = node_of(d, node);
    if (!n)
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, list_nodes(n->deps, NULL, NULL, pDependencies, edgeData, pNumDependencies));
}

CUDART_API cudaError_t cudaGraphNodeGetDependencies(void *node, void **pDependencies, void *edgeData,
                                                    size_t *pNumDependencies)
{
    return node_dependencies(node, pDependencies, edgeData, pNumDependencies, false);
}

CUDART_API cudaError_t cudaGraphNodeGetDependencies_v2(void *node, void **pDependencies, void *edgeData,
                                                       size_t *pNumDependencies)
{
    return node_dependencies(node, pDependencies, edgeData, pNumDependencies, true);
}

static cudaError_t dependent_nodes(void *node, void **pDependentNodes, void *edgeData, size_t *pNumDependentNodes,
                                   bool v13)
{
    CudartDevice *d = cudart_enter();
    if (!v13)
        cuda12_edges(d, &edgeData, &pNumDependentNodes);
    CudartGraphNode *n = node_of(d, node);
    if (!n)
        return cudart_leave(d, cudaErrorInvalidValue);
    return cudart_leave(d, list_nodes(n->graph->nodes, depends_on, n, pDependentNodes, edgeData,
                                      pNumDependentNodes));
}

CUDART_API cudaError_t cudaGraphNodeGetDependentNodes(void *node, void **pDependentNodes, void *edgeData,
                                                      size_t *pNumDependentNodes)
{
    return dependent_nodes(node, pDependentNodes, edgeData, pNumDependentNodes, false);
}

CUDART_API cudaError_t cudaGraphNodeGetDependentNodes_v2(void *node, void **pDependentNodes, void *edgeData,
                                                         size_t *pNumDependentNodes)
{
    return dependent_nodes(node, pDependentNodes, edgeData, pNumDependentNodes, true);
}

static cudaError_t graph_edges(void *graph, void **from, void **to, void *edgeData, size_t *numEdges, bool v13)
{
    CudartDevice *d = cudart_enter();
    if (!v13)
        cuda12_edges(d, &edgeData, &numEdges);
    CudartGraph *g = graph_of(d, graph);
    if (!g || !numEdges || (!from) != (!to))
        return cudart_leave(d, cudaErrorInvalidValue);
    size_t n = 0;
    for (guint i = 0; i < g->nodes->len; i++) {
        CudartGraphNode *node = g_ptr_array_index(g->nodes, i);
        for (guint j = 0; j < node->deps->len; j++, n++) {
            if (from && n < *numEdges) {
                from[n] = g_ptr_array_index(node->deps, j);
                to[n] = node;
                if (edgeData)
                    memset((char *)edgeData + n * 8, 0, 8);
            }
        }
    }
    *numEdges = from ? MIN(*numEdges, n) : n;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphGetEdges(void *graph, void **from, void **to, void *edgeData, size_t *numEdges)
{
    return graph_edges(graph, from, to, edgeData, numEdges, false);
}

CUDART_API cudaError_t cudaGraphGetEdges_v2(void *graph, void **from, void **to, void *edgeData, size_t *numEdges)
{
    return graph_edges(graph, from, to, edgeData, numEdges, true);
}

/* CUDA 12's (graph, from, to, count) has the count where 13 passes edge
 * data: `edge_or_count` is read as the program's release says. */
static cudaError_t edit_dependencies(void *graph, void *const *from, void *const *to, uintptr_t edge_or_count,
                                     size_t n, bool add, bool v13)
{
    CudartDevice *d = cudart_enter();
    if (!v13 && d->abi_release == 12)
        n = edge_or_count;
    CudartGraph *g = graph_of(d, graph);
    if (!g || (n && (!from || !to)))
        return cudart_leave(d, cudaErrorInvalidValue);
    for (size_t i = 0; i < n; i++) {
        CudartGraphNode *a = node_of(d, from[i]), *b = node_of(d, to[i]);
        if (!a || !b || a->graph != g || b->graph != g || a == b)
            return cudart_leave(d, cudaErrorInvalidValue);
        bool present = depends_on(b, a);
        if (add == present)
            return cudart_leave(d, cudaErrorInvalidValue);
        if (add)
            g_ptr_array_add(b->deps, a);
        else
            g_ptr_array_remove(b->deps, a);
    }
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphAddDependencies(void *graph, void *const *from, void *const *to,
                                                const void *edgeData, size_t numDependencies)
{
    return edit_dependencies(graph, from, to, (uintptr_t)edgeData, numDependencies, true, false);
}

CUDART_API cudaError_t cudaGraphAddDependencies_v2(void *graph, void *const *from, void *const *to,
                                                   const void *edgeData, size_t numDependencies)
{
    return edit_dependencies(graph, from, to, (uintptr_t)edgeData, numDependencies, true, true);
}

CUDART_API cudaError_t cudaGraphRemoveDependencies(void *graph, void *const *from, void *const *to,
                                                   const void *edgeData, size_t numDependencies)
{
    return edit_dependencies(graph, from, to, (uintptr_t)edgeData, numDependencies, false, false);
}

CUDART_API cudaError_t cudaGraphRemoveDependencies_v2(void *graph, void *const *from, void *const *to,
                                                      const void *edgeData, size_t numDependencies)
{
    return edit_dependencies(graph, from, to, (uintptr_t)edgeData, numDependencies, false, true);
}

CUDART_API cudaError_t cudaGraphDestroyNode(void *node)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n)
        return cudart_leave(d, cudaErrorInvalidValue);
    for (guint i = 0; i < n->graph->nodes->len; i++)
        g_ptr_array_remove(((CudartGraphNode *)g_ptr_array_index(n->graph->nodes, i))->deps, n);
    g_ptr_array_remove(n->graph->nodes, n);
    node_free(d, n);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphNodeGetType(void *node, int *pType)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || !pType)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pType = n->type;
    return cudart_leave(d, cudaSuccess);
}

/* A DOT rendering: one vertex per node (its type, a kernel's name), one
 * arrow per dependency. */
CUDART_API cudaError_t cudaGraphDebugDotPrint(void *graph, const char *path, unsigned int flags)
{
    (void)flags;
    static const char *const names[] = {"kernel", "memcpy", "memset", "host", "graph", "empty", "wait event",
                                        "event record", "", "", "mem alloc", "mem free"};
    CudartDevice *d = cudart_enter();
    CudartGraph *g = graph_of(d, graph);
    if (!g || !path)
        return cudart_leave(d, cudaErrorInvalidValue);
    FILE *f = fopen(path, "w");
    if (!f)
        return cudart_leave(d, cudaErrorOperatingSystem);
    fprintf(f, "digraph warpsim_graph {\n");
    for (guint i = 0; i < g->nodes->len; i++) {
        const CudartGraphNode *n = g_ptr_array_index(g->nodes, i);
        fprintf(f, "  n%p [label=\"%s%s%s\"];\n", (const void *)n, names[n->type], n->type == NODE_KERNEL ? " " : "",
                n->type == NODE_KERNEL ? n->op.u.kernel.k->name : "");
        for (guint j = 0; j < n->deps->len; j++)
            fprintf(f, "  n%p -> n%p;\n", g_ptr_array_index(n->deps, j), (const void *)n);
    }
    fprintf(f, "}\n");
    fclose(f);
    return cudart_leave(d, cudaSuccess);
}

/* ------------------------------------------------------- adding nodes */

static cudaError_t kernel_op_from(CudartDevice *d, const struct cudaKernelNodeParams *p, CudartOp *op)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->extra && !p->kernelParams) {
        cudart_message("kernel graph nodes: arguments given by `extra` are not supported by warpsim");
        return cudaErrorNotSupported;
    }
    CudartKernel *k = cudart_kernel_for(d, p->func);
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    return cudart_kernel_op(d, k, p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, op);
}

static cudaError_t fill_op_from(const struct cudaMemsetParams *p, CudartOp *op)
{
    if (!p || !p->dst || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
        return cudaErrorInvalidValue;
    if (p->height > 1 && p->width * p->elementSize > p->pitch)
        return cudaErrorInvalidValue;
    memset(op, 0, sizeof *op);
    op->kind = CUDART_OP_FILL;
    op->u.fill = (CudartFill){.dst = p->dst, .pitch = p->height > 1 ? p->pitch : p->width * p->elementSize,
                              .value = p->value, .elem_size = p->elementSize, .width = p->width,
                              .height = p->height};
    return cudaSuccess;
}

static cudaError_t finish_add(CudartDevice *d, void **pNode, void *graph, const void *const *deps, size_t ndeps,
                              CudartOp *op, cudaError_t err, CudartGraphNode **added)
{
    CudartGraph *g = graph_of(d, graph);
    if (!err && (!pNode || !g))
        err = cudaErrorInvalidValue;
    if (err) {
        cudart_op_clear(op);
        return cudart_leave(d, err);
    }
    CudartGraphNode *n = add_node(d, g, deps, ndeps, op, &err);
    if (n)
        *pNode = n;
    if (added)
        *added = n;
    return cudart_leave(d, err);
}

CUDART_API cudaError_t cudaGraphAddKernelNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                              size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {0};
    cudaError_t err = kernel_op_from(d, pNodeParams, &op);
    return finish_add(d, pGraphNode, graph, pDependencies, numDependencies, &op, err, NULL);
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                              size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {0};
    cudaError_t err = cudart_copy_from_parms(pCopyParams, &op);
    CudartGraphNode *n = NULL;
    err = finish_add(d, pGraphNode, graph, pDependencies, numDependencies, &op, err, &n);
    if (n)
        n->copy_parms = *pCopyParams; /* written after the lock is released: the node is the caller's now */
    return err;
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode1D(void **pGraphNode, void *graph, const void *const *pDependencies,
                                                size_t numDependencies, void *dst, const void *src, size_t count,
                                                enum cudaMemcpyKind kind)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {.kind = CUDART_OP_COPY};
    op.u.copy = (CudartCopy){.dst = dst, .src = src, .dpitch = count, .spitch = count, .dslice = count,
                             .sslice = count, .width = count, .height = 1, .depth = 1, .kind = kind};
    cudaError_t err = (!dst || !src) && count ? cudaErrorInvalidValue : cudaSuccess;
    CudartGraphNode *n = NULL;
    err = finish_add(d, pGraphNode, graph, pDependencies, numDependencies, &op, err, &n);
    if (n)
        n->copy_parms = (struct cudaMemcpy3DParms){
            .srcPtr = {(void *)src, count, count, 1}, .dstPtr = {dst, count, count, 1}, .extent = {count, 1, 1},
            .kind = kind};
    return err;
}

CUDART_API cudaError_t cudaGraphAddMemsetNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                              size_t numDependencies, const struct cudaMemsetParams *pMemsetParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {0};
    cudaError_t err = fill_op_from(pMemsetParams, &op);
    CudartGraphNode *n = NULL;
    err = finish_add(d, pGraphNode, graph, pDependencies, numDependencies, &op, err, &n);
    if (n)
        n->fill_parms = *pMemsetParams;
    return err;
}

CUDART_API cudaError_t cudaGraphAddHostNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                            size_t numDependencies, const struct cudaHostNodeParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {.kind = CUDART_OP_HOST};
    cudaError_t err = pNodeParams && pNodeParams->fn ? cudaSuccess : cudaErrorInvalidValue;
    if (!err) {
        op.u.host.fn = pNodeParams->fn;
        op.u.host.data = pNodeParams->userData;
    }
    return finish_add(d, pGraphNode, graph, pDependencies, numDependencies, &op, err, NULL);
}

CUDART_API cudaError_t cudaGraphAddEmptyNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                             size_t numDependencies)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {.kind = CUDART_OP_EMPTY};
    return finish_add(d, pGraphNode, graph, pDependencies, numDependencies, &op, cudaSuccess, NULL);
}

static cudaError_t add_event_node(void **pGraphNode, void *graph, const void *const *deps, size_t ndeps,
                                  cudaEvent_t event, CudartOpKind kind)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {.kind = kind};
    op.u.event = event;
    cudaError_t err = g_hash_table_contains(d->events, event) ? cudaSuccess : cudaErrorInvalidResourceHandle;
    return finish_add(d, pGraphNode, graph, deps, ndeps, &op, err, NULL);
}

CUDART_API cudaError_t cudaGraphAddEventRecordNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                                   size_t numDependencies, cudaEvent_t event)
{
    return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event, CUDART_OP_EVENT_RECORD);
}

CUDART_API cudaError_t cudaGraphAddEventWaitNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                                 size_t numDependencies, cudaEvent_t event)
{
    return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event, CUDART_OP_EVENT_WAIT);
}

CUDART_API cudaError_t cudaGraphAddChildGraphNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                                  size_t numDependencies, void *childGraph)
{
    CudartDevice *d = cudart_enter();
    CudartGraph *child = graph_of(d, childGraph);
    CudartOp op = {.kind = CUDART_OP_CHILD};
    CudartGraphNode *n = NULL;
    cudaError_t err = child && childGraph != graph ? cudaSuccess : cudaErrorInvalidValue;
    CudartGraph *g = graph_of(d, graph);
    if (!err && g && pGraphNode) {
        n = add_node(d, g, pDependencies, numDependencies, &op, &err);
        if (n) {
            n->child = graph_new(d, n);
            graph_copy(d, n->child, child);
            n->op.u.child = n->child;
            *pGraphNode = n;
        }
        return cudart_leave(d, err);
    }
    return cudart_leave(d, err ? err : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphChildGraphNodeGetGraph(void *node, void **pGraph)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_GRAPH || !pGraph)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pGraph = n->child;
    return cudart_leave(d, cudaSuccess);
}

/* cudaMemAllocNodeParams: the pool properties (88 bytes), the access
 * descriptors and their count, then bytesize and dptr (out). */
struct MemAllocNodeParams {
    unsigned char pool_props[88];
    const void *access_descs;
    size_t access_desc_count;
    size_t bytesize;
    void *dptr;
};

/* The memory is allocated when the node is added, so dptr is fixed for
 * every launch of every instantiation; it lives until cudaDeviceReset (or
 * the program's cudaFree). */
CUDART_API cudaError_t cudaGraphAddMemAllocNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                                size_t numDependencies, struct MemAllocNodeParams *nodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {.kind = CUDART_OP_MEM_ALLOC};
    cudaError_t err = nodeParams && nodeParams->bytesize ? cudaSuccess : cudaErrorInvalidValue;
    if (!err && (!graph_of(d, graph) || !pGraphNode))
        err = cudaErrorInvalidValue;
    if (!err)
        err = cudart_graph_alloc(d, &op.u.ptr, nodeParams->bytesize);
    CudartGraphNode *n = NULL;
    err = finish_add(d, pGraphNode, graph, pDependencies, numDependencies, &op, err, &n);
    if (n)
        nodeParams->dptr = n->op.u.ptr;
    return err;
}

CUDART_API cudaError_t cudaGraphAddMemFreeNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                               size_t numDependencies, void *dptr)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {.kind = CUDART_OP_MEM_FREE};
    op.u.ptr = dptr;
    cudaError_t err = dptr && cudart_device_bytes(d, dptr, 1) ? cudaSuccess : cudaErrorInvalidValue;
    return finish_add(d, pGraphNode, graph, pDependencies, numDependencies, &op, err, NULL);
}

/* cudaGraphNodeParams (CUDA 12.2's generic form): the type, then a union
 * whose members for the node types above have the layouts of their
 * specific parameter structs (a memcpy's cudaMemcpy3DParms after 16
 * bytes of flags). */
struct GraphNodeParams {
    int type;
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParams kernel;
        struct { int flags; int reserved[3]; struct cudaMemcpy3DParms copy; } memcpy;
        struct cudaMemsetParams memset;
        struct cudaHostNodeParams host;
        struct { void *graph; int ownership; } child;
        cudaEvent_t event;
        struct MemAllocNodeParams alloc;
        void *free_ptr;
    } u;
    long long reserved2;
};

_Static_assert(sizeof(struct GraphNodeParams) == 256, "cudaGraphNodeParams layout");

static cudaError_t add_node_generic(void **pGraphNode, void *graph, const void *const *pDependencies,
                                    size_t numDependencies, struct GraphNodeParams *p)
{
    if (!p) {
        CudartDevice *d = cudart_enter();
        return cudart_leave(d, cudaErrorInvalidValue);
    }
    const void *const *deps = pDependencies;
    size_t n = numDependencies;
    switch (p->type) {
    case NODE_KERNEL: return cudaGraphAddKernelNode(pGraphNode, graph, deps, n, &p->u.kernel);
    case NODE_MEMCPY: return cudaGraphAddMemcpyNode(pGraphNode, graph, deps, n, &p->u.memcpy.copy);
    case NODE_MEMSET: return cudaGraphAddMemsetNode(pGraphNode, graph, deps, n, &p->u.memset);
    case NODE_HOST: return cudaGraphAddHostNode(pGraphNode, graph, deps, n, &p->u.host);
    case NODE_GRAPH: return cudaGraphAddChildGraphNode(pGraphNode, graph, deps, n, p->u.child.graph);
    case NODE_EMPTY: return cudaGraphAddEmptyNode(pGraphNode, graph, deps, n);
    case NODE_WAIT_EVENT: return cudaGraphAddEventWaitNode(pGraphNode, graph, deps, n, p->u.event);
    case NODE_EVENT_RECORD: return cudaGraphAddEventRecordNode(pGraphNode, graph, deps, n, p->u.event);
    case NODE_MEM_ALLOC: return cudaGraphAddMemAllocNode(pGraphNode, graph, deps, n, &p->u.alloc);
    case NODE_MEM_FREE: return cudaGraphAddMemFreeNode(pGraphNode, graph, deps, n, p->u.free_ptr);
    default: {
        CudartDevice *d = cudart_enter();
        cudart_message("cudaGraphAddNode: node type %d (external semaphores, conditional nodes) is not supported "
                       "by warpsim", p->type);
        return cudart_leave(d, cudaErrorNotSupported);
    }
    }
}

/* CUDA 13's form (12.3's _v2); CUDA 12's has no edge data: (node, graph,
 * deps, count, params). */
CUDART_API cudaError_t cudaGraphAddNode(void **pGraphNode, void *graph, const void *const *pDependencies,
                                        const void *dependencyData, size_t numDependencies,
                                        struct GraphNodeParams *p)
{
    CudartDevice *d = cudart_enter();
    bool cuda12 = d->abi_release == 12;
    g_mutex_unlock(&d->lock);
    if (cuda12)
        return add_node_generic(pGraphNode, graph, pDependencies, (size_t)(uintptr_t)dependencyData,
                                (struct GraphNodeParams *)(uintptr_t)numDependencies);
    return add_node_generic(pGraphNode, graph, pDependencies, numDependencies, p);
}

CUDART_API cudaError_t cudaGraphAddNode_v2(void **pGraphNode, void *graph, const void *const *pDependencies,
                                           const void *dependencyData, size_t numDependencies,
                                           struct GraphNodeParams *p)
{
    (void)dependencyData;
    return add_node_generic(pGraphNode, graph, pDependencies, numDependencies, p);
}

/* ------------------------------------------------- node parameters */

static void kernel_params_out(const CudartGraphNode *n, struct cudaKernelNodeParams *p)
{
    memset(p, 0, sizeof *p);
    p->func = (void *)n->op.u.kernel.func;
    p->gridDim = n->op.u.kernel.grid;
    p->blockDim = n->op.u.kernel.block;
    p->sharedMemBytes = n->op.u.kernel.smem;
    p->kernelParams = n->arg_ptrs;
}

CUDART_API cudaError_t cudaGraphKernelNodeGetParams(void *node, struct cudaKernelNodeParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_KERNEL || !pNodeParams)
        return cudart_leave(d, cudaErrorInvalidValue);
    kernel_params_out(n, pNodeParams);
    return cudart_leave(d, cudaSuccess);
}

/* Replaces a node's op with a new one of the same type. */
static void node_set_op(CudartGraphNode *n, CudartOp *op)
{
    cudart_op_clear(&n->op);
    n->op = *op;
    memset(op, 0, sizeof *op);
    if (n->type == NODE_KERNEL) {
        g_free(n->arg_ptrs);
        n->arg_ptrs = kernel_arg_ptrs(&n->op);
    }
}

CUDART_API cudaError_t cudaGraphKernelNodeSetParams(void *node, const struct cudaKernelNodeParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_KERNEL)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartOp op;
    cudaError_t err = kernel_op_from(d, pNodeParams, &op);
    if (!err)
        node_set_op(n, &op);
    return cudart_leave(d, err);
}

CUDART_API cudaError_t cudaGraphMemcpyNodeGetParams(void *node, struct cudaMemcpy3DParms *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_MEMCPY || !pNodeParams)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pNodeParams = n->copy_parms;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams(void *node, const struct cudaMemcpy3DParms *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_MEMCPY)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartOp op;
    cudaError_t err = cudart_copy_from_parms(pNodeParams, &op);
    if (!err) {
        node_set_op(n, &op);
        n->copy_parms = *pNodeParams;
    }
    return cudart_leave(d, err);
}

CUDART_API cudaError_t cudaGraphMemsetNodeGetParams(void *node, struct cudaMemsetParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_MEMSET || !pNodeParams)
        return cudart_leave(d, cudaErrorInvalidValue);
    *pNodeParams = n->fill_parms;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphMemsetNodeSetParams(void *node, const struct cudaMemsetParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_MEMSET)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartOp op;
    cudaError_t err = fill_op_from(pNodeParams, &op);
    if (!err) {
        node_set_op(n, &op);
        n->fill_parms = *pNodeParams;
    }
    return cudart_leave(d, err);
}

CUDART_API cudaError_t cudaGraphHostNodeGetParams(void *node, struct cudaHostNodeParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_HOST || !pNodeParams)
        return cudart_leave(d, cudaErrorInvalidValue);
    pNodeParams->fn = n->op.u.host.fn;
    pNodeParams->userData = n->op.u.host.data;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphHostNodeSetParams(void *node, const struct cudaHostNodeParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartGraphNode *n = node_of(d, node);
    if (!n || n->type != NODE_HOST || !pNodeParams || !pNodeParams->fn)
        return cudart_leave(d, cudaErrorInvalidValue);
    n->op.u.host.fn = pNodeParams->fn;
    n->op.u.host.data = pNodeParams->userData;
    return cudart_leave(d, cudaSuccess);
}

/* The generic setters, for the node types whose parameters can change. */
CUDART_API cudaError_t cudaGraphNodeSetParams(void *node, struct GraphNodeParams *p)
{
    if (p) {
        switch (p->type) {
        case NODE_KERNEL: return cudaGraphKernelNodeSetParams(node, &p->u.kernel);
        case NODE_MEMCPY: return cudaGraphMemcpyNodeSetParams(node, &p->u.memcpy.copy);
        case NODE_MEMSET: return cudaGraphMemsetNodeSetParams(node, &p->u.memset);
        case NODE_HOST: return cudaGraphHostNodeSetParams(node, &p->u.host);
        default: break;
        }
    }
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudaErrorInvalidValue);
}

/* -------------------------------------------------- executable graphs */

static cudaError_t instantiate(CudartDevice *d, void **pGraphExec, void *graph, unsigned long long flags,
                               int *result)
{
    *result = 1; /* cudaGraphInstantiateError */
    CudartGraph *g = graph_of(d, graph);
    if (!pGraphExec || !g)
        return cudaErrorInvalidValue;
    CudartGraphExec *x = g_new0(CudartGraphExec, 1);
    x->magic = EXEC_MAGIC;
    x->flags = flags;
    x->steps = g_array_new(FALSE, TRUE, sizeof(ExecStep));
    g_hash_table_add(d->graph_execs, x);
    if (!flatten(g, x->steps)) {
        exec_free(d, x);
        *result = 2; /* cudaGraphInstantiateInvalidStructure: a cycle */
        return cudaErrorInvalidValue;
    }
    *pGraphExec = x;
    *result = 0;
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGraphInstantiate(void **pGraphExec, void *graph, unsigned long long flags)
{
    CudartDevice *d = cudart_enter();
    int result;
    return cudart_leave(d, instantiate(d, pGraphExec, graph, flags, &result));
}

CUDART_API cudaError_t cudaGraphInstantiateWithFlags(void **pGraphExec, void *graph, unsigned long long flags)
{
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

CUDART_API cudaError_t cudaGraphInstantiateWithParams(void **pGraphExec, void *graph,
                                                      cudaGraphInstantiateParams *params)
{
    CudartDevice *d = cudart_enter();
    if (!params)
        return cudart_leave(d, cudaErrorInvalidValue);
    params->errNode_out = NULL;
    return cudart_leave(d, instantiate(d, pGraphExec, graph, params->flags, &params->result_out));
}

CUDART_API cudaError_t cudaGraphExecDestroy(void *graphExec)
{
    CudartDevice *d = cudart_enter();
    CudartGraphExec *x = exec_of(d, graphExec);
    if (!x)
        return cudart_leave(d, cudaErrorInvalidValue);
    exec_free(d, x);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphExecGetFlags(void *graphExec, unsigned long long *flags)
{
    CudartDevice *d = cudart_enter();
    CudartGraphExec *x = exec_of(d, graphExec);
    if (!x || !flags)
        return cudart_leave(d, cudaErrorInvalidValue);
    *flags = x->flags;
    return cudart_leave(d, cudaSuccess);
}

/* Nothing to upload: the graph's work runs from host memory. */
CUDART_API cudaError_t cudaGraphUpload(void *graphExec, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!exec_of(d, graphExec))
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, cudart_unusable(d));
}

/* Runs the steps in order, as the stream would; into a capturing stream,
 * the steps are recorded one after another. */
CUDART_API cudaError_t cudaGraphLaunch(void *graphExec, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    CudartGraphExec *x = exec_of(d, graphExec);
    cudaError_t err = cudart_unusable(d);
    if (err)
        return cudart_leave(d, err);
    if (!x)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    bool record = false;
    if ((err = cudart_capture_begin_op(d, stream, &record)))
        return cudart_leave(d, err);
    for (guint i = 0; i < x->steps->len && !err; i++) {
        ExecStep step = g_array_index(x->steps, ExecStep, i); /* a copy: a host step may edit the array */
        if (!step.enabled)
            continue;
        if (record) {
            CudartOp op;
            cudart_op_copy(&op, &step.op);
            err = cudart_capture_add(d, stream, &op);
        } else {
            err = cudart_run_op(d, &step.op);
        }
        if (!exec_of(d, x))
            break; /* destroyed by a host node */
    }
    return cudart_leave(d, err);
}

static ExecStep *exec_step(CudartGraphExec *x, const CudartGraphNode *n)
{
    for (guint i = 0; i < x->steps->len; i++)
        if (g_array_index(x->steps, ExecStep, i).node == n)
            return &g_array_index(x->steps, ExecStep, i);
    return NULL;
}

/* Sets an instantiated node's op (of the node's type) without touching the graph. */
static cudaError_t exec_set(CudartDevice *d, void *graphExec, void *node, int type, CudartOp *op, cudaError_t err)
{
    CudartGraphExec *x = exec_of(d, graphExec);
    CudartGraphNode *n = node_of(d, node);
    ExecStep *step = x && n && n->type == type ? exec_step(x, n) : NULL;
    if (!err && !step)
        err = cudaErrorInvalidValue;
    if (err) {
        cudart_op_clear(op);
        return cudart_leave(d, err);
    }
    cudart_op_clear(&step->op);
    step->op = *op;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphExecKernelNodeSetParams(void *hGraphExec, void *node,
                                                        const struct cudaKernelNodeParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {0};
    cudaError_t err = kernel_op_from(d, pNodeParams, &op);
    return exec_set(d, hGraphExec, node, NODE_KERNEL, &op, err);
}

CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams(void *hGraphExec, void *node,
                                                        const struct cudaMemcpy3DParms *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {0};
    cudaError_t err = cudart_copy_from_parms(pNodeParams, &op);
    return exec_set(d, hGraphExec, node, NODE_MEMCPY, &op, err);
}

CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams1D(void *hGraphExec, void *node, void *dst, const void *src,
                                                          size_t count, enum cudaMemcpyKind kind)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {.kind = CUDART_OP_COPY};
    op.u.copy = (CudartCopy){.dst = dst, .src = src, .dpitch = count, .spitch = count, .dslice = count,
                             .sslice = count, .width = count, .height = 1, .depth = 1, .kind = kind};
    return exec_set(d, hGraphExec, node, NODE_MEMCPY, &op, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphExecMemsetNodeSetParams(void *hGraphExec, void *node,
                                                        const struct cudaMemsetParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {0};
    cudaError_t err = fill_op_from(pNodeParams, &op);
    return exec_set(d, hGraphExec, node, NODE_MEMSET, &op, err);
}

CUDART_API cudaError_t cudaGraphExecHostNodeSetParams(void *hGraphExec, void *node,
                                                      const struct cudaHostNodeParams *pNodeParams)
{
    CudartDevice *d = cudart_enter();
    CudartOp op = {.kind = CUDART_OP_HOST};
    cudaError_t err = pNodeParams && pNodeParams->fn ? cudaSuccess : cudaErrorInvalidValue;
    if (!err) {
        op.u.host.fn = pNodeParams->fn;
        op.u.host.data = pNodeParams->userData;
    }
    return exec_set(d, hGraphExec, node, NODE_HOST, &op, err);
}

CUDART_API cudaError_t cudaGraphExecNodeSetParams(void *graphExec, void *node, struct GraphNodeParams *p)
{
    if (p) {
        switch (p->type) {
        case NODE_KERNEL: return cudaGraphExecKernelNodeSetParams(graphExec, node, &p->u.kernel);
        case NODE_MEMCPY: return cudaGraphExecMemcpyNodeSetParams(graphExec, node, &p->u.memcpy.copy);
        case NODE_MEMSET: return cudaGraphExecMemsetNodeSetParams(graphExec, node, &p->u.memset);
        case NODE_HOST: return cudaGraphExecHostNodeSetParams(graphExec, node, &p->u.host);
        default: break;
        }
    }
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphNodeSetEnabled(void *hGraphExec, void *hNode, unsigned int isEnabled)
{
    CudartDevice *d = cudart_enter();
    CudartGraphExec *x = exec_of(d, hGraphExec);
    CudartGraphNode *n = node_of(d, hNode);
    ExecStep *step = x && n ? exec_step(x, n) : NULL;
    if (!step)
        return cudart_leave(d, cudaErrorInvalidValue);
    step->enabled = isEnabled != 0;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaGraphNodeGetEnabled(void *hGraphExec, void *hNode, unsigned int *isEnabled)
{
    CudartDevice *d = cudart_enter();
    CudartGraphExec *x = exec_of(d, hGraphExec);
    CudartGraphNode *n = node_of(d, hNode);
    ExecStep *step = x && n ? exec_step(x, n) : NULL;
    if (!step || !isEnabled)
        return cudart_leave(d, cudaErrorInvalidValue);
    *isEnabled = step->enabled;
    return cudart_leave(d, cudaSuccess);
}

/* Takes the parameters of a graph with the exec's topology: the same
 * number of steps with the same node types, kernels of the same function
 * (cudaGraphExecUpdateErrorTopologyChanged / NodeTypeChanged /
 * FunctionChanged otherwise, and nothing changes). */
CUDART_API cudaError_t cudaGraphExecUpdate(void *hGraphExec, void *hGraph, cudaGraphExecUpdateResultInfo *resultInfo)
{
    CudartDevice *d = cudart_enter();
    CudartGraphExec *x = exec_of(d, hGraphExec);
    CudartGraph *g = graph_of(d, hGraph);
    if (!x || !g)
        return cudart_leave(d, cudaErrorInvalidValue);
    GArray *steps = g_array_new(FALSE, TRUE, sizeof(ExecStep));
    int result = flatten(g, steps) ? 0 : 1;
    if (!result && steps->len != x->steps->len)
        result = 2;
    guint i = 0;
    for (; i < steps->len && !result; i++) {
        const ExecStep *a = &g_array_index(steps, ExecStep, i), *b = &g_array_index(x->steps, ExecStep, i);
        if (a->op.kind != b->op.kind)
            result = 3;
        else if (a->op.kind == CUDART_OP_KERNEL && a->op.u.kernel.k != b->op.u.kernel.k)
            result = 7;
    }
    if (resultInfo) {
        resultInfo->result = result;
        resultInfo->errorNode = result >= 3 ? (void *)g_array_index(steps, ExecStep, i - 1).node : NULL;
        resultInfo->errorFromNode = NULL;
    }
    GArray *drop = result ? steps : x->steps;
    for (guint j = 0; j < drop->len; j++)
        cudart_op_clear(&g_array_index(drop, ExecStep, j).op);
    g_array_unref(drop);
    if (!result)
        x->steps = steps;
    return cudart_leave(d, result ? cudaErrorGraphExecUpdateFailure : cudaSuccess);
}

/* ------------------------------------------------------ stream capture */

static void capture_invalidate(CudartCapture *c)
{
    c->invalidated = true;
}

/* Is any capture the legacy stream's work would have to wait on: a global
 * or thread-local capture in a blocking stream. */
static CudartCapture *blocking_capture(CudartDevice *d)
{
    for (guint i = 0; i < d->captures->len; i++) {
        CudartCapture *c = g_ptr_array_index(d->captures, i);
        const CudartStream *s = stream_record(d, c->origin);
        if (c->mode != MODE_RELAXED && s && !(s->flags & 1u) && !c->invalidated)
            return c;
    }
    return NULL;
}

static bool legacy_stream(cudaStream_t s)
{
    return s == NULL || s == CUDART_STREAM_LEGACY;
}

cudaError_t cudart_capture_begin_op(CudartDevice *d, cudaStream_t stream, bool *record)
{
    *record = false;
    CudartStream *s = stream_record(d, stream);
    if (s && s->capture) {
        if (s->capture->invalidated)
            return cudaErrorStreamCaptureInvalidated;
        *record = true;
        return cudaSuccess;
    }
    if (legacy_stream(stream)) {
        CudartCapture *c = blocking_capture(d);
        if (c) {
            capture_invalidate(c);
            return cudaErrorStreamCaptureImplicit;
        }
    }
    return cudaSuccess;
}

cudaError_t cudart_capture_add(CudartDevice *d, cudaStream_t stream, CudartOp *op)
{
    CudartStream *s = stream_record(d, stream);
    cudaError_t err;
    CudartGraphNode *n = add_node(d, s->capture->graph, (const void *const *)s->capture_deps->pdata,
                                  s->capture_deps->len, op, &err);
    if (!n) {
        capture_invalidate(s->capture);
        return err;
    }
    g_ptr_array_set_size(s->capture_deps, 0);
    g_ptr_array_add(s->capture_deps, n);
    return cudaSuccess;
}

cudaError_t cudart_capture_sync_check(CudartDevice *d, cudaStream_t stream, bool device)
{
    CudartStream *s = stream_record(d, stream);
    if (device && d->captures->len) {
        for (guint i = 0; i < d->captures->len; i++)
            capture_invalidate(g_ptr_array_index(d->captures, i));
        return cudaErrorStreamCaptureUnsupported;
    }
    if (s && s->capture) {
        capture_invalidate(s->capture);
        return cudaErrorStreamCaptureUnsupported;
    }
    if (!device && legacy_stream(stream)) {
        CudartCapture *c = blocking_capture(d);
        if (c) {
            capture_invalidate(c);
            return cudaErrorStreamCaptureImplicit;
        }
    }
    return cudaSuccess;
}

/* An event recorded in a capturing stream remembers where the stream was;
 * false when the stream is not capturing (the event is recorded as usual). */
bool cudart_capture_event_record(CudartDevice *d, cudaStream_t stream, CudartEvent *e)
{
    CudartStream *s = stream_record(d, stream);
    if (!s || !s->capture)
        return false;
    e->capture = s->capture;
    if (!e->capture_deps)
        e->capture_deps = g_ptr_array_new();
    g_ptr_array_set_size(e->capture_deps, 0);
    for (guint i = 0; i < s->capture_deps->len; i++)
        g_ptr_array_add(e->capture_deps, g_ptr_array_index(s->capture_deps, i));
    return true;
}

/* A stream waiting on an event recorded during a capture joins it (or, in
 * it already, gains the event's dependencies). */
cudaError_t cudart_capture_event_wait(CudartDevice *d, cudaStream_t stream, CudartEvent *e)
{
    CudartStream *s = stream_record(d, stream);
    if (!e->capture) {
        return cudaSuccess; /* an event of finished work: nothing to wait for */
    }
    if (!s)
        return cudaErrorStreamCaptureImplicit; /* the legacy stream cannot join a capture */
    if (s->capture && s->capture != e->capture)
        return cudaErrorStreamCaptureMerge;
    if (!s->capture) {
        s->capture = e->capture;
        s->capture_deps = g_ptr_array_new();
    }
    for (guint i = 0; i < e->capture_deps->len; i++) {
        gpointer n = g_ptr_array_index(e->capture_deps, i);
        bool have = false;
        for (guint j = 0; j < s->capture_deps->len && !have; j++)
            have = g_ptr_array_index(s->capture_deps, j) == n;
        if (!have)
            g_ptr_array_add(s->capture_deps, n);
    }
    return cudaSuccess;
}

static void stream_detach(CudartStream *s)
{
    s->capture = NULL;
    if (s->capture_deps)
        g_ptr_array_unref(s->capture_deps);
    s->capture_deps = NULL;
}

static void capture_end(CudartDevice *d, CudartCapture *c);

/* A stream going away leaves its capture; the capture it began ends
 * (its graph dropped: nobody can end it now). */
void cudart_stream_forget_capture(CudartDevice *d, CudartStream *s)
{
    CudartCapture *c = s->capture;
    if (c && c->origin == (cudaStream_t)s) {
        CudartGraph *g = c->owns_graph ? c->graph : NULL;
        capture_end(d, c);
        if (g)
            graph_free(d, g);
    }
    stream_detach(s);
}

/* Detaches every stream and event from c and drops it. */
static void capture_end(CudartDevice *d, CudartCapture *c)
{
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, d->streams);
    while (g_hash_table_iter_next(&it, &key, NULL))
        if (((CudartStream *)key)->capture == c)
            stream_detach(key);
    if (d->per_thread_stream.capture == c)
        stream_detach(&d->per_thread_stream);
    g_hash_table_iter_init(&it, d->events);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        CudartEvent *e = key;
        if (e->capture == c) {
            e->capture = NULL;
            g_ptr_array_set_size(e->capture_deps, 0);
        }
    }
    g_ptr_array_remove(d->captures, c);
    g_free(c);
}

static cudaError_t begin_capture(CudartDevice *d, cudaStream_t stream, CudartGraph *into, const void *const *deps,
                                 size_t ndeps, int mode)
{
    CudartStream *s = stream_record(d, stream);
    if (mode < MODE_GLOBAL || mode > MODE_RELAXED)
        return cudaErrorInvalidValue;
    if (!s) {
        /* the legacy default stream cannot be captured */
        return cudart_stream_ok(d, stream) ? cudaErrorStreamCaptureUnsupported : cudaErrorInvalidResourceHandle;
    }
    if (s->capture)
        return cudaErrorIllegalState;
    CudartCapture *c = g_new0(CudartCapture, 1);
    c->graph = into ? into : graph_new(d, NULL);
    c->owns_graph = !into;
    c->origin = stream;
    c->mode = mode;
    c->id = ++d->capture_serial;
    g_ptr_array_add(d->captures, c);
    s->capture = c;
    s->capture_deps = g_ptr_array_new();
    for (size_t i = 0; i < ndeps; i++)
        g_ptr_array_add(s->capture_deps, (gpointer)deps[i]);
    return cudaSuccess;
}

CUDART_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int mode)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, begin_capture(d, stream, NULL, NULL, 0, mode));
}

CUDART_API cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, void *graph, const void *const *dependencies,
                                                     const void *dependencyData, size_t numDependencies, int mode)
{
    (void)dependencyData;
    CudartDevice *d = cudart_enter();
    CudartGraph *g = graph_of(d, graph);
    if (!g || (numDependencies && !dependencies))
        return cudart_leave(d, cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++) {
        CudartGraphNode *n = node_of(d, dependencies[i]);
        if (!n || n->graph != g)
            return cudart_leave(d, cudaErrorInvalidValue);
    }
    return cudart_leave(d, begin_capture(d, stream, g, dependencies, numDependencies, mode));
}

CUDART_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, void **pGraph)
{
    CudartDevice *d = cudart_enter();
    CudartStream *s = stream_record(d, stream);
    if (!pGraph)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if (!s || !s->capture)
        return cudart_leave(d, cudaErrorIllegalState);
    CudartCapture *c = s->capture;
    if (c->origin != stream) {
        capture_invalidate(c);
        return cudart_leave(d, cudaErrorStreamCaptureUnmatched);
    }
    CudartGraph *g = c->graph;
    bool invalidated = c->invalidated, owned = c->owns_graph;
    capture_end(d, c);
    if (invalidated) {
        if (owned)
            graph_free(d, g);
        *pGraph = NULL;
        return cudart_leave(d, cudaErrorStreamCaptureInvalidated);
    }
    *pGraph = g;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int *pCaptureStatus)
{
    CudartDevice *d = cudart_enter();
    if (!pCaptureStatus)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if (legacy_stream(stream) && blocking_capture(d))
        return cudart_leave(d, cudaErrorStreamCaptureImplicit);
    CudartStream *s = stream_record(d, stream);
    *pCaptureStatus = !s || !s->capture ? CAPTURE_NONE : s->capture->invalidated ? CAPTURE_INVALIDATED
                                                                                   : CAPTURE_ACTIVE;
    return cudart_leave(d, cudaSuccess);
}

static cudaError_t capture_info(cudaStream_t stream, int *captureStatus_out, unsigned long long *id_out,
                                 void **graph_out, const void *const **dependencies_out, const void **edgeData_out,
                                 size_t *numDependencies_out)
{
    CudartDevice *d = cudart_enter();
    if (!captureStatus_out)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if (legacy_stream(stream) && blocking_capture(d))
        return cudart_leave(d, cudaErrorStreamCaptureImplicit);
    CudartStream *s = stream_record(d, stream);
    CudartCapture *c = s ? s->capture : NULL;
    *captureStatus_out = !c ? CAPTURE_NONE : c->invalidated ? CAPTURE_INVALIDATED : CAPTURE_ACTIVE;
    if (id_out && c)
        *id_out = c->id;
    if (graph_out)
        *graph_out = c ? c->graph : NULL;
    if (dependencies_out)
        *dependencies_out = c ? (const void *const *)s->capture_deps->pdata : NULL;
    if (edgeData_out)
        *edgeData_out = NULL; /* every edge is a default one */
    if (numDependencies_out)
        *numDependencies_out = c ? s->capture_deps->len : 0;
    return cudart_leave(d, cudaSuccess);
}

/* CUDA 13's form (12.3's _v3); CUDA 12's unversioned name is 11.3's
 * (stream, status, id), and its _v2 lacks the edge data. */
CUDART_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, int *captureStatus_out,
                                                unsigned long long *id_out, void **graph_out,
                                                const void *const **dependencies_out, const void **edgeData_out,
                                                size_t *numDependencies_out)
{
    CudartDevice *d = cudart_enter();
    bool cuda12 = d->abi_release == 12;
    g_mutex_unlock(&d->lock);
    if (cuda12)
        return capture_info(stream, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
    return capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                        numDependencies_out);
}

CUDART_API cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream, int *captureStatus_out,
                                                   unsigned long long *id_out, void **graph_out,
                                                   const void *const **dependencies_out, size_t *numDependencies_out)
{
    return capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, NULL, numDependencies_out);
}

CUDART_API cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t stream, int *captureStatus_out,
                                                   unsigned long long *id_out, void **graph_out,
                                                   const void *const **dependencies_out, const void **edgeData_out,
                                                   size_t *numDependencies_out)
{
    return capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                        numDependencies_out);
}

/* The capture interaction mode: kept per thread and swapped as asked;
 * warpsim checks every capture alike (see cudart_capture_begin_op). */
CUDART_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    CudartDevice *d = cudart_enter();
    if (!mode || *mode < MODE_GLOBAL || *mode > MODE_RELAXED)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartThread *t = cudart_thread();
    int old = t->capture_mode;
    t->capture_mode = *mode;
    *mode = old;
    return cudart_leave(d, cudaSuccess);
}

/* cudaDeviceReset: every graph, executable graph and capture goes. */
void cudart_graphs_release(CudartDevice *d)
{
    while (d->captures->len) {
        CudartCapture *c = g_ptr_array_index(d->captures, 0);
        CudartGraph *g = c->owns_graph ? c->graph : NULL;
        capture_end(d, c);
        if (g)
            graph_free(d, g);
    }
    GList *execs = g_hash_table_get_keys(d->graph_execs);
    for (GList *l = execs; l; l = l->next)
        exec_free(d, l->data);
    g_list_free(execs);
    /* top-level graphs, which free their children */
    GPtrArray *top = g_ptr_array_new();
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, d->graphs);
    while (g_hash_table_iter_next(&it, &key, NULL))
        if (!((CudartGraph *)key)->parent)
            g_ptr_array_add(top, key);
    for (guint i = 0; i < top->len; i++)
        graph_free(d, g_ptr_array_index(top, i));
    g_ptr_array_unref(top);
}
