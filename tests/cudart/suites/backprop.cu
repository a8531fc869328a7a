// backprop.cu — models Rodinia backprop: a layer-forward kernel over 16x16
// blocks (shared input vector, shared weight tile, a log-step tree reduction
// over rows using __powf for the stride), partial sums finished and squashed
// with exp on the host, then an adjust-weights kernel.  Checked against the
// host with a tolerance.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3f
#define MOMENTUM 0.3f

__global__ void layerforward(const float *input, float *weights, float *partial, int in, int hid)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];
    if (tx == 0) input_node[ty] = input[index_in];
    __syncthreads();
    weight_matrix[ty][tx] = weights[index];
    __syncthreads();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    __syncthreads();
    for (int i = 1; i <= __log2f(HEIGHT); i++) {
        int power_two = __powf(2, i);
        if (ty % power_two == 0) weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        __syncthreads();
    }
    weights[index] = weight_matrix[ty][tx];
    __syncthreads();
    if (tx == 0) partial[by * hid + ty] = weight_matrix[tx][ty];
}

__global__ void adjust_weights(const float *delta, int hid, const float *ly, int in, float *w, float *oldw)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1, index_x = tx + 1;
    w[index] += ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    oldw[index] = ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    __syncthreads();
    if (ty == 0 && by == 0) {
        w[index_x] += ETA * delta[index_x] + MOMENTUM * oldw[index_x];
        oldw[index_x] = ETA * delta[index_x] + MOMENTUM * oldw[index_x];
    }
}

static float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

int main()
{
    const int in = 1024, hid = 16;  // in must be a multiple of 16, hid == 16 (as in Rodinia)
    int nblocks = in / 16;
    int wsz = (in + 1) * (hid + 1);
    float *input = (float *)malloc((in + 1) * 4), *w = (float *)malloc(wsz * 4), *oldw = (float *)calloc(wsz, 4);
    float *delta = (float *)malloc((hid + 1) * 4);
    srand(13);
    input[0] = 1.0f;
    for (int i = 1; i <= in; i++) input[i] = (rand() % 1000) / 1000.0f;
    for (int i = 0; i < wsz; i++) w[i] = (rand() % 2000) / 1000.0f - 1.0f;
    for (int i = 0; i <= hid; i++) delta[i] = (rand() % 1000) / 10000.0f;
    float *d_in, *d_w, *d_part, *d_delta, *d_oldw;
    cudaMalloc((void **)&d_in, (in + 1) * 4); cudaMalloc((void **)&d_w, wsz * 4);
    cudaMalloc((void **)&d_part, nblocks * hid * 4); cudaMalloc((void **)&d_delta, (hid + 1) * 4);
    cudaMalloc((void **)&d_oldw, wsz * 4);
    cudaMemcpy(d_in, input, (in + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_w, w, wsz * 4, cudaMemcpyHostToDevice);
    dim3 grid(1, nblocks), threads(16, 16);
    layerforward<<<grid, threads>>>(d_in, d_w, d_part, in, hid);
    cudaDeviceSynchronize();
    float *part = (float *)malloc(nblocks * hid * 4);
    cudaMemcpy(part, d_part, nblocks * hid * 4, cudaMemcpyDeviceToHost);
    float hidden[17];
    for (int j = 1; j <= hid; j++) {
        float sum = 0;
        for (int k = 0; k < nblocks; k++) sum += part[k * hid + j - 1];
        sum += w[j];  // bias row 0
        hidden[j] = squash(sum);
    }
    // host reference of the forward pass (double accumulation)
    int bad = 0;
    for (int j = 1; j <= hid; j++) {
        double s = 0;
        for (int k = 0; k <= in; k++) s += (double)w[k * (hid + 1) + j] * input[k];
        float r = squash((float)s);
        if (fabsf(r - hidden[j]) > 1e-4f) { if (bad < 5) printf("hidden %d: gpu %f cpu %f\n", j, hidden[j], r); bad++; }
    }
    // adjust weights on the device and on the host
    cudaMemcpy(d_delta, delta, (hid + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_w, w, wsz * 4, cudaMemcpyHostToDevice);
    cudaMemset(d_oldw, 0, wsz * 4);
    adjust_weights<<<grid, threads>>>(d_delta, hid, d_in, in, d_w, d_oldw);
    float *gw = (float *)malloc(wsz * 4);
    cudaMemcpy(gw, d_w, wsz * 4, cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();
    for (int k = 1; k <= in; k++)
        for (int j = 1; j <= hid; j++) {
            int idx = k * (hid + 1) + j;
            float nw = ETA * delta[j] * input[k] + MOMENTUM * oldw[idx];
            float r = w[idx] + nw;
            if (fabsf(r - gw[idx]) > 1e-5f) { if (bad < 5) printf("w[%d][%d]: gpu %f cpu %f\n", k, j, gw[idx], r); bad++; }
        }
    for (int j = 1; j <= hid; j++) {
        float r = w[j] + ETA * delta[j];
        if (fabsf(r - gw[j]) > 1e-5f) { if (bad < 5) printf("bias %d: gpu %f cpu %f\n", j, gw[j], r); bad++; }
    }
    printf("backprop in=%d hid=%d, err %s\n", in, hid, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
