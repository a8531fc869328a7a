// tex_module.cu — what textures do to a program under warpsim: (1) a `tex.`
// instruction anywhere in the module makes the whole module fail to load, so
// a kernel that never touches textures (plain) fails to launch too; (2)
// cudaCreateChannelDesc (the C function behind cudaCreateChannelDesc<T>())
// is not exported, so the process dies with a dynamic-linker "symbol lookup
// error" instead of getting cudaErrorNotSupported.  Real CUDA prints PASS.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void plain(float *o) { o[threadIdx.x] = threadIdx.x * 2.0f; }
__global__ void fetch(cudaTextureObject_t t, float *o) { o[threadIdx.x] = 3.0f * tex1Dfetch<float>(t, threadIdx.x); }

int main()
{
    setvbuf(stdout, NULL, _IONBF, 0);
    float *d, *d2, h[32];
    cudaMalloc((void **)&d, sizeof(h));
    cudaMalloc((void **)&d2, sizeof(h));
    plain<<<1, 32>>>(d);
    cudaError_t le = cudaGetLastError();
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    int bad = le != cudaSuccess;
    for (int i = 0; i < 32; i++) bad += h[i] != i * 2.0f;
    printf("plain kernel: launch %s, %s\n", cudaGetErrorString(le), bad ? "wrong" : "right");
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = d;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = sizeof(h);
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    cudaError_t te = cudaCreateTextureObject(&t, &rd, &td, NULL);
    printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(te));
    if (te == cudaSuccess) {
        fetch<<<1, 32>>>(t, d2);
        cudaMemcpy(h, d2, sizeof(h), cudaMemcpyDeviceToHost);
        for (int i = 0; i < 32; i++) bad += h[i] != i * 6.0f;
    } else {
        bad++;
    }
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
