// Matrix transpose, naive and shared-memory tiled (the classic CUDA sample
// by Harris, "An Efficient Matrix Transpose in CUDA C/C++").  idata is
// height rows x width columns, odata width rows x height columns.  A block
// of 32 x 8 threads moves a 32 x 32 tile, each thread four elements.
// transposeNaive reads coalesced rows but writes with a stride of `height`
// floats; transposeTiled stages the tile in shared memory so both global
// accesses are coalesced, and pads each tile row by one float so that the
// column-wise shared reads fall in 32 different banks.
#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transposeNaive(float *odata, const float *idata,
                                          int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

extern "C" __global__ void transposeTiled(float *odata, const float *idata,
                                          int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
