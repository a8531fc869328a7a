// const_mem.cu — __constant__ memory as convolution samples use it: a filter
// uploaded with cudaMemcpyToSymbol (whole and at an offset), read by every
// thread of a 1D convolution with a halo in shared memory; a __constant__
// struct; cudaGetSymbolAddress/Size on __constant__ and __device__
// variables (the constant's address also read by a kernel), and a
// device-to-device copy into constant memory.
#include "sample_helpers.h"

#define KERNEL_RADIUS 4
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define BLOCK 128

__constant__ float c_Kernel[KERNEL_LENGTH];
struct Params {
    int scale;
    int bias;
    float weights[4];
};
__constant__ Params c_params;
__device__ int d_calls;

__global__ void convolutionRows(float *d_Dst, const float *d_Src, int n)
{
    __shared__ float s_Data[BLOCK + 2 * KERNEL_RADIUS];
    int gid = blockIdx.x * BLOCK + threadIdx.x;
    s_Data[threadIdx.x + KERNEL_RADIUS] = gid < n ? d_Src[gid] : 0;
    if (threadIdx.x < KERNEL_RADIUS) {
        int left = gid - KERNEL_RADIUS, right = gid + BLOCK;
        s_Data[threadIdx.x] = left >= 0 ? d_Src[left] : 0;
        s_Data[threadIdx.x + BLOCK + KERNEL_RADIUS] = right < n ? d_Src[right] : 0;
    }
    __syncthreads();
    float sum = 0;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
        sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.x + KERNEL_RADIUS + j];
    if (gid < n)
        d_Dst[gid] = sum;
    if (gid == 0)
        atomicAdd(&d_calls, 1);
}

// Reads the filter through a pointer (cudaGetSymbolAddress), not by name.
__global__ void sumThroughPointer(const float *taps, float *out)
{
    float s = 0;
    for (int i = 0; i < KERNEL_LENGTH; i++)
        s += taps[i];
    *out = s;
}

__global__ void applyParams(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i * c_params.scale + c_params.bias + (int)c_params.weights[i % 4];
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    const int n = 1000;
    float h_Kernel[KERNEL_LENGTH];
    for (int i = 0; i < KERNEL_LENGTH; i++)
        h_Kernel[i] = (float)(i + 1) / 8.0f;
    checkCudaErrors(cudaMemcpyToSymbol(c_Kernel, h_Kernel, KERNEL_LENGTH * sizeof(float)));
    // overwrite the last two taps through an offset copy
    h_Kernel[KERNEL_LENGTH - 2] = 2.0f;
    h_Kernel[KERNEL_LENGTH - 1] = -1.0f;
    checkCudaErrors(cudaMemcpyToSymbol(c_Kernel, h_Kernel + KERNEL_LENGTH - 2, 2 * sizeof(float),
                                       (KERNEL_LENGTH - 2) * sizeof(float), cudaMemcpyHostToDevice));
    float *h_Src = new float[n], *h_Dst = new float[n];
    for (int i = 0; i < n; i++)
        h_Src[i] = (float)(i % 16);
    float *d_Src, *d_Dst;
    checkCudaErrors(cudaMalloc(&d_Src, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_Dst, n * sizeof(float)));
    checkCudaErrors(cudaMemcpy(d_Src, h_Src, n * sizeof(float), cudaMemcpyHostToDevice));
    int zero = 0;
    checkCudaErrors(cudaMemcpyToSymbol(d_calls, &zero, sizeof zero));
    convolutionRows<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_Dst, d_Src, n);
    getLastCudaError("convolutionRows");
    convolutionRows<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_Dst, d_Src, n);
    getLastCudaError("convolutionRows");
    checkCudaErrors(cudaMemcpy(h_Dst, d_Dst, n * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; i++) {
        float sum = 0;
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            if (i + j >= 0 && i + j < n)
                sum += h_Kernel[KERNEL_RADIUS - j] * h_Src[i + j];
        if (sum != h_Dst[i]) {
            std::printf("conv[%d] = %f, expected %f\n", i, h_Dst[i], sum);
            ok = false;
            break;
        }
    }
    int calls = 0;
    checkCudaErrors(cudaMemcpyFromSymbol(&calls, d_calls, sizeof calls));
    ok = ok && calls == 2;

    // symbol address and size; a device-to-device copy into constant memory
    size_t kernelSize = 0, paramsSize = 0;
    checkCudaErrors(cudaGetSymbolSize(&kernelSize, c_Kernel));
    checkCudaErrors(cudaGetSymbolSize(&paramsSize, c_params));
    ok = ok && kernelSize == sizeof h_Kernel && paramsSize == sizeof(Params);
    int *d_callsPtr = nullptr;
    checkCudaErrors(cudaGetSymbolAddress((void **)&d_callsPtr, d_calls));
    checkCudaErrors(cudaMemcpy(&calls, d_callsPtr, sizeof calls, cudaMemcpyDeviceToHost));
    ok = ok && calls == 2;
    float *d_KernelPtr = nullptr;
    checkCudaErrors(cudaGetSymbolAddress((void **)&d_KernelPtr, c_Kernel));
    float back[KERNEL_LENGTH];
    checkCudaErrors(cudaMemcpy(back, d_KernelPtr, sizeof back, cudaMemcpyDeviceToHost));
    float tapSum = 0, *d_sum;
    for (int i = 0; i < KERNEL_LENGTH; i++) {
        ok = ok && back[i] == h_Kernel[i];
        tapSum += h_Kernel[i];
    }
    checkCudaErrors(cudaMallocManaged(&d_sum, sizeof(float)));
    sumThroughPointer<<<1, 1>>>(d_KernelPtr, d_sum);
    getLastCudaError("sumThroughPointer");
    checkCudaErrors(cudaDeviceSynchronize());
    ok = ok && *d_sum == tapSum;
    checkCudaErrors(cudaFree(d_sum));

    Params p = {3, -7, {0.0f, 10.0f, 20.0f, 30.0f}};
    Params *d_p;
    checkCudaErrors(cudaMalloc(&d_p, sizeof p));
    checkCudaErrors(cudaMemcpy(d_p, &p, sizeof p, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpyToSymbol(c_params, d_p, sizeof p, 0, cudaMemcpyDeviceToDevice));
    int *out;
    checkCudaErrors(cudaMallocManaged(&out, n * sizeof(int)));
    applyParams<<<(n + 255) / 256, 256>>>(out, n);
    getLastCudaError("applyParams");
    checkCudaErrors(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        if (out[i] != i * 3 - 7 + 10 * (i % 4)) {
            std::printf("applyParams[%d] = %d\n", i, out[i]);
            ok = false;
            break;
        }
    checkCudaErrors(cudaFree(d_Src));
    checkCudaErrors(cudaFree(d_Dst));
    checkCudaErrors(cudaFree(d_p));
    checkCudaErrors(cudaFree(out));
    delete[] h_Src;
    delete[] h_Dst;
    if (!ok)
        return EXIT_FAILURE;
    std::printf("PASS const_mem\n");
    return 0;
}
