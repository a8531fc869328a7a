// hotspot.cu — models Rodinia hotspot: a 2D thermal stencil over a grid of
// 16x16 blocks, each loading its tile plus a one-cell halo into shared memory,
// power input, ping-pong buffers swapped on the host for many iterations.
// Timed with cudaEvent.  Checked against a host stencil with a tolerance.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define BS 16
#define MAX_PD 3.0e6f

__global__ void hotspot_step(const float *__restrict__ power, const float *__restrict__ tin,
                             float *__restrict__ tout, int rows, int cols,
                             float cap_inv, float rx_inv, float ry_inv, float rz_inv, float amb)
{
    __shared__ float tile[BS + 2][BS + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * BS + tx, gy = blockIdx.y * BS + ty;
    // load the tile and halo: each thread loads its own cell, edge threads the halo
    int cx = min(max(gx, 0), cols - 1), cy = min(max(gy, 0), rows - 1);
    tile[ty + 1][tx + 1] = tin[cy * cols + cx];
    if (tx == 0) tile[ty + 1][0] = tin[cy * cols + max(cx - 1, 0)];
    if (tx == BS - 1) tile[ty + 1][BS + 1] = tin[cy * cols + min(cx + 1, cols - 1)];
    if (ty == 0) tile[0][tx + 1] = tin[max(cy - 1, 0) * cols + cx];
    if (ty == BS - 1) tile[BS + 1][tx + 1] = tin[min(cy + 1, rows - 1) * cols + cx];
    __syncthreads();
    if (gx < cols && gy < rows) {
        float c = tile[ty + 1][tx + 1];
        float n = tile[ty][tx + 1], s = tile[ty + 2][tx + 1];
        float w = tile[ty + 1][tx], e = tile[ty + 1][tx + 2];
        float delta = cap_inv * (power[gy * cols + gx] + (s + n - 2.0f * c) * ry_inv +
                                 (e + w - 2.0f * c) * rx_inv + (amb - c) * rz_inv);
        tout[gy * cols + gx] = fminf(c + delta, 1000.0f);
    }
}

int main()
{
    const int rows = 64, cols = 80, iters = 30;
    const float cap_inv = 0.5f, rx_inv = 0.1f, ry_inv = 0.12f, rz_inv = 0.01f, amb = 80.0f;
    int sz = rows * cols;
    float *temp = (float *)malloc(sz * 4), *power = (float *)malloc(sz * 4), *ref = (float *)malloc(sz * 4),
          *tmp = (float *)malloc(sz * 4), *out = (float *)malloc(sz * 4);
    srand(3);
    for (int i = 0; i < sz; i++) {
        temp[i] = 300.0f + (rand() % 1000) / 100.0f;
        power[i] = (rand() % 1000) / 1000.0f;
        ref[i] = temp[i];
    }
    float *d_t[2], *d_p;
    cudaMalloc((void **)&d_t[0], sz * 4); cudaMalloc((void **)&d_t[1], sz * 4);
    cudaMalloc((void **)&d_p, sz * 4);
    cudaMemcpy(d_t[0], temp, sz * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_p, power, sz * 4, cudaMemcpyHostToDevice);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    dim3 block(BS, BS), grid((cols + BS - 1) / BS, (rows + BS - 1) / BS);
    int src = 0;
    cudaEventRecord(e0, 0);
    for (int it = 0; it < iters; it++) {
        hotspot_step<<<grid, block>>>(d_p, d_t[src], d_t[1 - src], rows, cols, cap_inv, rx_inv, ry_inv, rz_inv, amb);
        src = 1 - src;
    }
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaMemcpy(out, d_t[src], sz * 4, cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();

    for (int it = 0; it < iters; it++) {
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                float c = ref[y * cols + x];
                float n = ref[(y > 0 ? y - 1 : 0) * cols + x], s = ref[(y < rows - 1 ? y + 1 : y) * cols + x];
                float w = ref[y * cols + (x > 0 ? x - 1 : 0)], e = ref[y * cols + (x < cols - 1 ? x + 1 : x)];
                float d = cap_inv * (power[y * cols + x] + (s + n - 2.0f * c) * ry_inv + (e + w - 2.0f * c) * rx_inv +
                                     (amb - c) * rz_inv);
                tmp[y * cols + x] = fminf(c + d, 1000.0f);
            }
        float *t = ref; ref = tmp; tmp = t;
    }
    int bad = 0;
    for (int i = 0; i < sz; i++)
        if (fabsf(out[i] - ref[i]) > 1e-3f * fabsf(ref[i])) {
            if (bad < 5) printf("mismatch %d: gpu %f cpu %f\n", i, out[i], ref[i]);
            bad++;
        }
    printf("hotspot %dx%d, %d iterations, %.3f ms (simulated), err %s\n", rows, cols, iters, ms, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess && ms > 0) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
