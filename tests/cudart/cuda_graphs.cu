// cuda_graphs.cu — simpleCudaGraphs: the same reduction built twice, once
// node by node (memcpy, memset, kernel and host nodes with explicit
// dependencies) and once by stream capture forked across three streams
// with events; both instantiated, cloned and launched several times, with
// the host node checking each launch's result.  Then what newer samples
// do with graphs: updating a kernel node's arguments in the executable
// graph, cudaGraphExecUpdate, child graphs, disabled nodes, capture
// queries, and CUDA's errors for synchronising inside a capture.
#include <cmath>
#include <vector>
#include "check.h"

#define THREADS_PER_BLOCK 256

__global__ void reduce(const float *in, double *partial, size_t n)
{
    __shared__ double tmp[THREADS_PER_BLOCK];
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    double sum = 0;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x)
        sum += in[i];
    tmp[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            tmp[threadIdx.x] += tmp[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = tmp[0];
}

__global__ void reduceFinal(const double *partial, double *result, size_t n)
{
    __shared__ double tmp[THREADS_PER_BLOCK];
    double sum = 0;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        sum += partial[i];
    tmp[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            tmp[threadIdx.x] += tmp[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *result = tmp[0];
}

__constant__ float c_offset;

__global__ void addOffset(float *v, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        v[i] += c_offset;
}

__global__ void scale(float *v, size_t n, float by)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= by;
}

struct HostCheck {
    const double *result;   // where the graph copied the sum
    double expected;
    int calls, good;
    const char *name;
};

static void CUDART_CB checkResult(void *data)
{
    HostCheck *c = (HostCheck *)data;
    c->calls++;
    if (std::fabs(*c->result - c->expected) < 1e-3 * std::fabs(c->expected))
        c->good++;
    else
        std::printf("%s: host node saw %f, expected %f\n", c->name, *c->result, c->expected);
}

static const size_t N = 1 << 16;
static const int BLOCKS = 64;

static void buildManually(float *in_h, float *in_d, double *partial_d, double *result_d, double *result_h,
                          HostCheck *check, cudaGraph_t *graph)
{
    CHECK_CUDA(cudaGraphCreate(graph, 0));
    std::vector<cudaGraphNode_t> deps;
    cudaGraphNode_t copyIn, memsetPartial, memsetResult, kernel1, kernel2, copyOut, host;

    cudaMemcpy3DParms copy = {0};
    copy.srcPtr = make_cudaPitchedPtr(in_h, N * sizeof(float), N, 1);
    copy.dstPtr = make_cudaPitchedPtr(in_d, N * sizeof(float), N, 1);
    copy.extent = make_cudaExtent(N * sizeof(float), 1, 1);
    copy.kind = cudaMemcpyHostToDevice;
    CHECK_CUDA(cudaGraphAddMemcpyNode(&copyIn, *graph, NULL, 0, &copy));

    cudaMemsetParams ms = {0};
    ms.dst = partial_d;
    ms.value = 0;
    ms.elementSize = sizeof(float);
    ms.width = BLOCKS * 2;
    ms.height = 1;
    CHECK_CUDA(cudaGraphAddMemsetNode(&memsetPartial, *graph, NULL, 0, &ms));
    ms.dst = result_d;
    ms.width = 2;
    CHECK_CUDA(cudaGraphAddMemsetNode(&memsetResult, *graph, NULL, 0, &ms));

    size_t n = N;
    void *args1[] = {&in_d, &partial_d, &n};
    cudaKernelNodeParams kp = {0};
    kp.func = (void *)reduce;
    kp.gridDim = dim3(BLOCKS);
    kp.blockDim = dim3(THREADS_PER_BLOCK);
    kp.kernelParams = args1;
    cudaGraphNode_t before1[] = {copyIn, memsetPartial};
    CHECK_CUDA(cudaGraphAddKernelNode(&kernel1, *graph, before1, 2, &kp));

    size_t blocks = BLOCKS;
    void *args2[] = {&partial_d, &result_d, &blocks};
    kp.func = (void *)reduceFinal;
    kp.gridDim = dim3(1);
    kp.kernelParams = args2;
    cudaGraphNode_t before2[] = {kernel1, memsetResult};
    CHECK_CUDA(cudaGraphAddKernelNode(&kernel2, *graph, before2, 2, &kp));

    CHECK_CUDA(cudaGraphAddMemcpyNode1D(&copyOut, *graph, &kernel2, 1, result_h, result_d, sizeof(double),
                                        cudaMemcpyDeviceToHost));
    cudaHostNodeParams hp = {checkResult, check};
    CHECK_CUDA(cudaGraphAddHostNode(&host, *graph, &copyOut, 1, &hp));

    size_t count = 0;
    CHECK_CUDA(cudaGraphGetNodes(*graph, NULL, &count));
    EXPECT(count == 7);
    CHECK_CUDA(cudaGraphGetRootNodes(*graph, NULL, &count));
    EXPECT(count == 3);
    std::vector<cudaGraphNode_t> from(16), to(16);
    size_t edges = from.size();
    CHECK_CUDA(cudaGraphGetEdges(*graph, from.data(), to.data(), NULL, &edges));
    EXPECT(edges == 6);
    cudaGraphNodeType type;
    CHECK_CUDA(cudaGraphNodeGetType(kernel2, &type));
    EXPECT(type == cudaGraphNodeTypeKernel);
    CHECK_CUDA(cudaGraphNodeGetType(host, &type));
    EXPECT(type == cudaGraphNodeTypeHost);
    cudaKernelNodeParams back;
    CHECK_CUDA(cudaGraphKernelNodeGetParams(kernel2, &back));
    EXPECT(back.func == (void *)reduceFinal && back.gridDim.x == 1 && *(size_t *)back.kernelParams[2] == BLOCKS);
}

static void buildByCapture(float *in_h, float *in_d, double *partial_d, double *result_d, double *result_h,
                           HostCheck *check, cudaGraph_t *graph)
{
    cudaStream_t s1, s2, s3;
    cudaEvent_t fork, memset1, memset2;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreate(&s2));
    CHECK_CUDA(cudaStreamCreate(&s3));
    CHECK_CUDA(cudaEventCreate(&fork));
    CHECK_CUDA(cudaEventCreate(&memset1));
    CHECK_CUDA(cudaEventCreate(&memset2));

    CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus status;
    CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
    EXPECT(status == cudaStreamCaptureStatusActive);
    CHECK_CUDA(cudaStreamIsCapturing(s2, &status));
    EXPECT(status == cudaStreamCaptureStatusNone);

    CHECK_CUDA(cudaEventRecord(fork, s1));
    CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
    CHECK_CUDA(cudaStreamWaitEvent(s3, fork, 0));
    CHECK_CUDA(cudaStreamIsCapturing(s2, &status)); // s2 joined the capture
    EXPECT(status == cudaStreamCaptureStatusActive);

    CHECK_CUDA(cudaMemcpyAsync(in_d, in_h, N * sizeof(float), cudaMemcpyDefault, s1));
    CHECK_CUDA(cudaMemsetAsync(partial_d, 0, BLOCKS * sizeof(double), s2));
    CHECK_CUDA(cudaEventRecord(memset1, s2));
    CHECK_CUDA(cudaMemsetAsync(result_d, 0, sizeof(double), s3));
    CHECK_CUDA(cudaEventRecord(memset2, s3));
    CHECK_CUDA(cudaStreamWaitEvent(s1, memset1, 0));
    reduce<<<BLOCKS, THREADS_PER_BLOCK, 0, s1>>>(in_d, partial_d, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaStreamWaitEvent(s1, memset2, 0));
    reduceFinal<<<1, THREADS_PER_BLOCK, 0, s1>>>(partial_d, result_d, BLOCKS);
    CHECK_CUDA(cudaMemcpyAsync(result_h, result_d, sizeof(double), cudaMemcpyDefault, s1));
    CHECK_CUDA(cudaLaunchHostFunc(s1, checkResult, check));

    unsigned long long id = 0;
    cudaGraph_t inProgress = NULL;
    size_t ndeps = 0;
    CHECK_CUDA(cudaStreamGetCaptureInfo(s1, &status, &id, &inProgress, NULL, NULL, &ndeps));
    EXPECT(status == cudaStreamCaptureStatusActive && id != 0 && inProgress != NULL && ndeps == 1);
    EXPECT(check->calls == 0); // nothing ran while capturing
    CHECK_CUDA(cudaStreamEndCapture(s1, graph));
    EXPECT(*graph == inProgress);
    CHECK_CUDA(cudaStreamIsCapturing(s2, &status));
    EXPECT(status == cudaStreamCaptureStatusNone);

    size_t count = 0;
    CHECK_CUDA(cudaGraphGetNodes(*graph, NULL, &count));
    EXPECT(count == 7); // copy, 2 memsets, 2 kernels, copy, host
    CHECK_CUDA(cudaGraphGetRootNodes(*graph, NULL, &count));
    EXPECT(count == 3);

    CHECK_CUDA(cudaStreamDestroy(s1));
    CHECK_CUDA(cudaStreamDestroy(s2));
    CHECK_CUDA(cudaStreamDestroy(s3));
    CHECK_CUDA(cudaEventDestroy(fork));
    CHECK_CUDA(cudaEventDestroy(memset1));
    CHECK_CUDA(cudaEventDestroy(memset2));
}

static void runGraph(cudaGraph_t graph, HostCheck *check, float *in_h, double *expected, int launches)
{
    cudaGraph_t clone;
    cudaGraphExec_t exec, cloneExec;
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    CHECK_CUDA(cudaGraphClone(&clone, graph));
    CHECK_CUDA(cudaGraphInstantiate(&cloneExec, clone, 0));
    for (int i = 0; i < launches; i++) {
        // the input changes between launches: the graph reads it each time
        for (size_t j = 0; j < N; j++)
            in_h[j] = (float)((j + i) % 7);
        double sum = 0;
        for (size_t j = 0; j < N; j++)
            sum += in_h[j];
        *expected = sum;
        CHECK_CUDA(cudaGraphLaunch(i % 2 ? cloneExec : exec, stream));
    }
    CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT(check->calls == launches && check->good == launches);
    CHECK_CUDA(cudaGraphExecDestroy(exec));
    CHECK_CUDA(cudaGraphExecDestroy(cloneExec));
    CHECK_CUDA(cudaGraphDestroy(clone));
    CHECK_CUDA(cudaStreamDestroy(stream));
}

int main()
{
    float *in_h, *in_d;
    double *partial_d, *result_d, *result_h;
    CHECK_CUDA(cudaMallocHost(&in_h, N * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&result_h, sizeof(double)));
    CHECK_CUDA(cudaMalloc(&in_d, N * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&partial_d, BLOCKS * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&result_d, sizeof(double)));

    HostCheck manual = {result_h, 0, 0, 0, "cudaGraphsManual"};
    cudaGraph_t g1;
    buildManually(in_h, in_d, partial_d, result_d, result_h, &manual, &g1);
    runGraph(g1, &manual, in_h, &manual.expected, 3);

    HostCheck captured = {result_h, 0, 0, 0, "cudaGraphsUsingStreamCapture"};
    cudaGraph_t g2;
    buildByCapture(in_h, in_d, partial_d, result_d, result_h, &captured, &g2);
    runGraph(g2, &captured, in_h, &captured.expected, 4);

    // --- a kernel node's arguments changed in the executable graph only
    const size_t M = 1000;
    float *v;
    CHECK_CUDA(cudaMallocManaged(&v, M * sizeof(float)));
    for (size_t i = 0; i < M; i++)
        v[i] = 1.0f;
    cudaGraph_t g3;
    cudaGraphNode_t k;
    CHECK_CUDA(cudaGraphCreate(&g3, 0));
    size_t m = M;
    float by = 2.0f;
    void *args[] = {&v, &m, &by};
    cudaKernelNodeParams kp = {0};
    kp.func = (void *)scale;
    kp.gridDim = dim3((M + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = args;
    CHECK_CUDA(cudaGraphAddKernelNode(&k, g3, NULL, 0, &kp));
    by = 100.0f; // the node copied the arguments when it was added
    cudaGraphExec_t e3;
    CHECK_CUDA(cudaGraphInstantiate(&e3, g3, 0));
    CHECK_CUDA(cudaGraphLaunch(e3, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT(v[0] == 2.0f && v[M - 1] == 2.0f);
    by = 3.0f;
    CHECK_CUDA(cudaGraphExecKernelNodeSetParams(e3, k, &kp));
    CHECK_CUDA(cudaGraphLaunch(e3, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT(v[0] == 6.0f);
    // disabled, the node does nothing
    CHECK_CUDA(cudaGraphNodeSetEnabled(e3, k, 0));
    unsigned enabled = 1;
    CHECK_CUDA(cudaGraphNodeGetEnabled(e3, k, &enabled));
    EXPECT(enabled == 0);
    CHECK_CUDA(cudaGraphLaunch(e3, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT(v[0] == 6.0f);
    CHECK_CUDA(cudaGraphNodeSetEnabled(e3, k, 1));
    // whole-graph update from a graph of the same shape
    by = 0.5f;
    CHECK_CUDA(cudaGraphKernelNodeSetParams(k, &kp));
    cudaGraphExecUpdateResultInfo info;
    CHECK_CUDA(cudaGraphExecUpdate(e3, g3, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess);
    CHECK_CUDA(cudaGraphLaunch(e3, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT(v[0] == 3.0f);
    // a graph holding it as a child, twice in a row
    cudaGraph_t parent;
    cudaGraphNode_t c1, c2;
    CHECK_CUDA(cudaGraphCreate(&parent, 0));
    CHECK_CUDA(cudaGraphAddChildGraphNode(&c1, parent, NULL, 0, g3));
    CHECK_CUDA(cudaGraphAddChildGraphNode(&c2, parent, &c1, 1, g3));
    cudaGraphExec_t pe;
    CHECK_CUDA(cudaGraphInstantiate(&pe, parent, 0));
    CHECK_CUDA(cudaGraphLaunch(pe, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT(v[0] == 0.75f && v[M - 1] == 0.75f);
    // a different topology cannot be taken over
    cudaGraphNode_t extra;
    CHECK_CUDA(cudaGraphAddEmptyNode(&extra, g3, &k, 1));
    EXPECT(cudaGraphExecUpdate(e3, g3, &info) == cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);
    EXPECT(cudaGetLastError() == cudaErrorGraphExecUpdateFailure);

    // --- a constant updated by a captured symbol copy, read at each launch
    {
        float offset = 1.0f;
        cudaStream_t cs;
        CHECK_CUDA(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
        CHECK_CUDA(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
        CHECK_CUDA(cudaMemcpyToSymbolAsync(c_offset, &offset, sizeof offset, 0, cudaMemcpyHostToDevice, cs));
        addOffset<<<(M + 127) / 128, 128, 0, cs>>>(v, M);
        cudaGraph_t sg;
        cudaGraphExec_t se;
        CHECK_CUDA(cudaStreamEndCapture(cs, &sg));
        CHECK_CUDA(cudaGraphInstantiate(&se, sg, 0));
        EXPECT(v[0] == 0.75f); // nothing ran yet
        offset = 0.25f;        // the copy node reads the host value when it runs
        CHECK_CUDA(cudaGraphLaunch(se, cs));
        offset = 1.0f;
        CHECK_CUDA(cudaGraphLaunch(se, cs));
        CHECK_CUDA(cudaStreamSynchronize(cs));
        EXPECT(v[0] == 2.0f && v[M - 1] == 2.0f);
        float back = 0;
        CHECK_CUDA(cudaMemcpyFromSymbol(&back, c_offset, sizeof back));
        EXPECT(back == 1.0f);
        for (size_t i = 0; i < M; i++)
            v[i] = 0.75f;
        CHECK_CUDA(cudaGraphExecDestroy(se));
        CHECK_CUDA(cudaGraphDestroy(sg));
        CHECK_CUDA(cudaStreamDestroy(cs));
    }

    // --- jacobiCudaGraphs: a captured <<<>>> launch's node found by type,
    // its parameters read back and given new arguments in the executable graph
    {
        float *w;
        CHECK_CUDA(cudaMallocManaged(&w, M * sizeof(float)));
        for (size_t i = 0; i < M; i++)
            w[i] = 1.0f;
        cudaStream_t js;
        CHECK_CUDA(cudaStreamCreateWithFlags(&js, cudaStreamNonBlocking));
        CHECK_CUDA(cudaStreamBeginCapture(js, cudaStreamCaptureModeGlobal));
        scale<<<(M + 127) / 128, 128, 0, js>>>(v, M, 2.0f);
        cudaGraph_t jg;
        CHECK_CUDA(cudaStreamEndCapture(js, &jg));
        size_t numNodes = 0;
        CHECK_CUDA(cudaGraphGetNodes(jg, NULL, &numNodes));
        std::vector<cudaGraphNode_t> nodes(numNodes);
        CHECK_CUDA(cudaGraphGetNodes(jg, nodes.data(), &numNodes));
        cudaGraphNode_t kernelNode = NULL;
        cudaKernelNodeParams p0, p1;
        for (size_t i = 0; i < numNodes; i++) {
            cudaGraphNodeType t;
            CHECK_CUDA(cudaGraphNodeGetType(nodes[i], &t));
            if (t == cudaGraphNodeTypeKernel) {
                CHECK_CUDA(cudaGraphKernelNodeGetParams(nodes[i], &p0));
                kernelNode = nodes[i];
            }
        }
        EXPECT(kernelNode != NULL && p0.func == (void *)scale && p0.blockDim.x == 128);
        size_t mm = M;
        float three = 3.0f;
        void *args1[] = {&w, &mm, &three};
        p1 = p0;
        p1.kernelParams = args1;
        cudaGraphExec_t je;
        CHECK_CUDA(cudaGraphInstantiate(&je, jg, 0));
        for (int k = 0; k < 4; k++) {
            CHECK_CUDA(cudaGraphExecKernelNodeSetParams(je, kernelNode, (k & 1) == 0 ? &p0 : &p1));
            CHECK_CUDA(cudaGraphLaunch(je, js));
        }
        CHECK_CUDA(cudaStreamSynchronize(js));
        EXPECT(v[0] == 0.75f * 4.0f && w[0] == 9.0f && w[M - 1] == 9.0f);
        for (size_t i = 0; i < M; i++)
            v[i] = 0.75f;
        CHECK_CUDA(cudaGraphExecDestroy(je));
        CHECK_CUDA(cudaGraphDestroy(jg));
        CHECK_CUDA(cudaStreamDestroy(js));
        CHECK_CUDA(cudaFree(w));
    }

    // --- the per-thread default stream can be captured too
    {
        CHECK_CUDA(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal));
        scale<<<(M + 127) / 128, 128, 0, cudaStreamPerThread>>>(v, M, 4.0f);
        cudaGraph_t pg;
        cudaGraphExec_t pge;
        CHECK_CUDA(cudaStreamEndCapture(cudaStreamPerThread, &pg));
        EXPECT(v[0] == 0.75f);
        CHECK_CUDA(cudaGraphInstantiate(&pge, pg, 0));
        CHECK_CUDA(cudaGraphLaunch(pge, cudaStreamPerThread));
        CHECK_CUDA(cudaStreamSynchronize(cudaStreamPerThread));
        EXPECT(v[0] == 3.0f);
        for (size_t i = 0; i < M; i++)
            v[i] = 0.75f;
        CHECK_CUDA(cudaGraphExecDestroy(pge));
        CHECK_CUDA(cudaGraphDestroy(pg));
    }

    // --- synchronising inside a capture is refused and spoils the capture
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    scale<<<1, 32, 0, s>>>(v, 32, 2.0f);
    EXPECT(cudaStreamSynchronize(s) == cudaErrorStreamCaptureUnsupported);
    cudaStreamCaptureStatus status;
    CHECK_CUDA(cudaStreamIsCapturing(s, &status));
    EXPECT(status == cudaStreamCaptureStatusInvalidated);
    cudaGraph_t bad = (cudaGraph_t)1;
    EXPECT(cudaStreamEndCapture(s, &bad) == cudaErrorStreamCaptureInvalidated);
    EXPECT(bad == NULL);
    EXPECT(v[0] == 0.75f); // the captured kernel never ran
    cudaGetLastError();
    // the legacy stream cannot be captured; ending a capture never begun
    EXPECT(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
    EXPECT(cudaStreamEndCapture(s, &bad) == cudaErrorIllegalState);
    cudaGetLastError();
    // a global capture in a blocking stream: legacy-stream work would
    // implicitly wait on it
    cudaStream_t blocking;
    CHECK_CUDA(cudaStreamCreate(&blocking));
    CHECK_CUDA(cudaStreamBeginCapture(blocking, cudaStreamCaptureModeGlobal));
    EXPECT(cudaMemsetAsync(v, 0, 4, 0) == cudaErrorStreamCaptureImplicit);
    EXPECT(cudaStreamEndCapture(blocking, &bad) == cudaErrorStreamCaptureInvalidated);
    cudaGetLastError();
    EXPECT(v[0] == 0.75f);

    CHECK_CUDA(cudaGraphExecDestroy(pe));
    CHECK_CUDA(cudaGraphExecDestroy(e3));
    CHECK_CUDA(cudaGraphDestroy(parent));
    CHECK_CUDA(cudaGraphDestroy(g3));
    CHECK_CUDA(cudaGraphDestroy(g1));
    CHECK_CUDA(cudaGraphDestroy(g2));
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaStreamDestroy(blocking));
    CHECK_CUDA(cudaFree(v));
    CHECK_CUDA(cudaFree(in_d));
    CHECK_CUDA(cudaFree(partial_d));
    CHECK_CUDA(cudaFree(result_d));
    CHECK_CUDA(cudaFreeHost(in_h));
    CHECK_CUDA(cudaFreeHost(result_h));
    std::printf("PASS cuda_graphs\n");
    return 0;
}
