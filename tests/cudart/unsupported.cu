// unsupported.cu — a call warpsim does not implement returns
// cudaErrorNotSupported and says so once on stderr (the runner counts the
// lines), and the program goes on working.
#include <string>
#include "check.h"

int main()
{
    cudaArray_t array;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaExtent e = make_cudaExtent(64, 4, 4);
    EXPECT(cudaMalloc3DArray(&array, &desc, e) == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    EXPECT(cudaMalloc3DArray(&array, &desc, e) == cudaErrorNotSupported); // second call: no second line
    cudaGetLastError();
    cudaIpcMemHandle_t handle;
    float *d0;
    CHECK_CUDA(cudaMalloc(&d0, 64));
    EXPECT(cudaIpcGetMemHandle(&handle, d0) == cudaErrorNotSupported);
    CHECK_CUDA(cudaFree(d0));
    EXPECT(std::string(cudaGetErrorString(cudaErrorNotSupported)) == "operation not supported");
    EXPECT(std::string(cudaGetErrorName(cudaErrorNotSupported)) == "cudaErrorNotSupported");
    cudaGetLastError();
    float *d;
    CHECK_CUDA(cudaMalloc(&d, 64)); // the device is still usable
    CHECK_CUDA(cudaFree(d));
    std::printf("PASS unsupported\n");
    return 0;
}
