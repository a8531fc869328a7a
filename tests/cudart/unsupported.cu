// unsupported.cu — a call warpsim does not implement returns
// cudaErrorNotSupported and says so once on stderr (the runner counts the
// lines), and the program goes on working.
#include <string>
#include "check.h"

int main()
{
    cudaPitchedPtr p;
    cudaExtent e = make_cudaExtent(64, 4, 4);
    EXPECT(cudaMalloc3D(&p, e) == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    EXPECT(cudaMalloc3D(&p, e) == cudaErrorNotSupported); // second call: no second line
    cudaGetLastError();
    cudaGraph_t g;
    EXPECT(cudaGraphCreate(&g, 0) == cudaErrorNotSupported);
    EXPECT(std::string(cudaGetErrorString(cudaErrorNotSupported)) == "operation not supported");
    EXPECT(std::string(cudaGetErrorName(cudaErrorNotSupported)) == "cudaErrorNotSupported");
    cudaGetLastError();
    float *d;
    CHECK_CUDA(cudaMalloc(&d, 64)); // the device is still usable
    CHECK_CUDA(cudaFree(d));
    std::printf("PASS unsupported\n");
    return 0;
}
