// transpose.cu — the transpose sample's kernels: copy (the bandwidth
// reference), naive, coalesced through a shared tile, and the tile padded by
// one column against bank conflicts; TILE_DIM x BLOCK_ROWS threads each
// moving TILE_DIM/BLOCK_ROWS elements; the effective-bandwidth printout.
#include "sample_helpers.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void copy(float *odata, const float *idata, int width, int height)
{
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x, yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index = xIndex + width * yIndex;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index + i * width] = idata[index + i * width];
}

__global__ void transposeNaive(float *odata, const float *idata, int width, int height)
{
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x, yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + width * yIndex, index_out = yIndex + height * xIndex;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index_out + i] = idata[index_in + i * width];
}

__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x, yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + yIndex * width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + yIndex * height;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

__global__ void transposeNoBankConflicts(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x, yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + yIndex * width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + yIndex * height;
#pragma unroll
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

typedef void (*Kernel)(float *, const float *, int, int);

int main(int argc, char **argv)
{
    std::printf("Transpose Starting...\n\n");
    int dev = findCudaDevice(argc, (const char **)argv);
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    std::printf("> Device %d: \"%s\"\n> SM Capability %d.%d detected:\n", dev, prop.name, prop.major, prop.minor);
    const int size_x = 128, size_y = 96;
    dim3 grid(size_x / TILE_DIM, size_y / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
    std::printf("> [%s] has %d MP(s) x %d (Cores/MP) = %d (Cores)\n", prop.name, prop.multiProcessorCount,
                convertSMVer2Cores(prop.major, prop.minor),
                convertSMVer2Cores(prop.major, prop.minor) * prop.multiProcessorCount);
    std::printf("> matrix size: %dx%d (%dx%d tiles), tile size: %dx%d, block size: %dx%d\n\n", size_x, size_y,
                size_x / TILE_DIM, size_y / TILE_DIM, TILE_DIM, TILE_DIM, TILE_DIM, BLOCK_ROWS);
    const int mem_size = sizeof(float) * size_x * size_y;
    float *h_idata = (float *)std::malloc(mem_size), *h_odata = (float *)std::malloc(mem_size);
    float *gold = (float *)std::malloc(mem_size);
    for (int i = 0; i < size_x * size_y; ++i)
        h_idata[i] = (float)i;
    for (int y = 0; y < size_y; y++)
        for (int x = 0; x < size_x; x++)
            gold[x * size_y + y] = h_idata[y * size_x + x];
    float *d_idata, *d_odata;
    checkCudaErrors(cudaMalloc(&d_idata, mem_size));
    checkCudaErrors(cudaMalloc(&d_odata, mem_size));
    checkCudaErrors(cudaMemcpy(d_idata, h_idata, mem_size, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    struct { Kernel k; const char *name; bool is_copy; } kernels[] = {
        {copy, "simple copy", true},
        {transposeNaive, "naive", false},
        {transposeCoalesced, "coalesced", false},
        {transposeNoBankConflicts, "optimized", false},
    };
    bool ok = true;
    const int NUM_REPS = 2;
    for (auto &kd : kernels) {
        checkCudaErrors(cudaMemset(d_odata, 0, mem_size));
        kd.k<<<grid, threads>>>(d_odata, d_idata, size_x, size_y); // warm-up
        getLastCudaError(kd.name);
        checkCudaErrors(cudaEventRecord(start, 0));
        for (int i = 0; i < NUM_REPS; i++)
            kd.k<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
        checkCudaErrors(cudaEventRecord(stop, 0));
        checkCudaErrors(cudaEventSynchronize(stop));
        float kernelTime;
        checkCudaErrors(cudaEventElapsedTime(&kernelTime, start, stop));
        checkCudaErrors(cudaMemcpy(h_odata, d_odata, mem_size, cudaMemcpyDeviceToHost));
        const float *ref = kd.is_copy ? h_idata : gold;
        bool res = kernelTime > 0;
        for (int i = 0; i < size_x * size_y && res; i++)
            res = h_odata[i] == ref[i];
        float avg = kernelTime / NUM_REPS;
        std::printf("transpose %-12s, Throughput = %.4f GB/s, Time = %.5f ms, Size = %u fp32 elements, "
                    "NumDevsUsed = %u, Workgroup = %u\n",
                    kd.name, 2.0f * mem_size / 1.0e9f / (avg / 1000.0f), avg, size_x * size_y, 1,
                    TILE_DIM * BLOCK_ROWS);
        if (!res) {
            std::printf("*** %s kernel FAILED ***\n", kd.name);
            ok = false;
        }
    }
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFree(d_idata));
    checkCudaErrors(cudaFree(d_odata));
    std::free(h_idata);
    std::free(h_odata);
    std::free(gold);
    if (!ok) {
        std::printf("Test failed!\n");
        return EXIT_FAILURE;
    }
    std::printf("Test passed\n");
    std::printf("PASS transpose\n");
    return 0;
}
