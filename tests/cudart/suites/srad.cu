// srad.cu — models Rodinia srad (v1 style): an extract kernel (exp), then per
// iteration a host-side reduction of the ROI statistics (copy back, sum on the
// host), a diffusion-coefficient kernel using __fdividef and a divergence
// update kernel; finally a compress kernel (log).  2D grid of 16x16 blocks.
// Checked against a host implementation with a relative tolerance.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define BS 16

__global__ void extract(float *img, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) img[i] = expf(img[i] / 255.0f);
}

__global__ void compress(float *img, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) img[i] = logf(img[i]) * 255.0f;
}

__global__ void srad1(const float *J, float *dN, float *dS, float *dW, float *dE, float *C, int rows, int cols, float q0sqr)
{
    int x = blockIdx.x * BS + threadIdx.x, y = blockIdx.y * BS + threadIdx.y;
    if (x >= cols || y >= rows) return;
    int k = y * cols + x;
    float jc = J[k];
    float n = J[(y == 0 ? 0 : y - 1) * cols + x] - jc;
    float s = J[(y == rows - 1 ? y : y + 1) * cols + x] - jc;
    float w = J[y * cols + (x == 0 ? 0 : x - 1)] - jc;
    float e = J[y * cols + (x == cols - 1 ? x : x + 1)] - jc;
    float g2 = __fdividef(n * n + s * s + w * w + e * e, jc * jc);
    float l = __fdividef(n + s + w + e, jc);
    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
    dN[k] = n; dS[k] = s; dW[k] = w; dE[k] = e; C[k] = c;
}

__global__ void srad2(float *J, const float *dN, const float *dS, const float *dW, const float *dE, const float *C,
                      int rows, int cols, float lambda)
{
    int x = blockIdx.x * BS + threadIdx.x, y = blockIdx.y * BS + threadIdx.y;
    if (x >= cols || y >= rows) return;
    int k = y * cols + x;
    float cn = C[k], cw = C[k];
    float cs = C[(y == rows - 1 ? y : y + 1) * cols + x];
    float ce = C[y * cols + (x == cols - 1 ? x : x + 1)];
    float d = cn * dN[k] + cs * dS[k] + cw * dW[k] + ce * dE[k];
    J[k] = J[k] + 0.25f * lambda * d;
}

static void host_srad(float *J, int rows, int cols, int iters, float lambda, int r1, int r2, int c1, int c2)
{
    int n = rows * cols;
    float *dN = (float *)malloc(n * 4), *dS = (float *)malloc(n * 4), *dW = (float *)malloc(n * 4),
          *dE = (float *)malloc(n * 4), *C = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) J[i] = expf(J[i] / 255.0f);
    for (int it = 0; it < iters; it++) {
        double sum = 0, sum2 = 0;
        for (int y = r1; y <= r2; y++)
            for (int x = c1; x <= c2; x++) { sum += J[y * cols + x]; sum2 += (double)J[y * cols + x] * J[y * cols + x]; }
        int sz = (r2 - r1 + 1) * (c2 - c1 + 1);
        float mean = sum / sz, var = sum2 / sz - (double)mean * mean;
        float q0sqr = var / (mean * mean);
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                int k = y * cols + x;
                float jc = J[k];
                float nn = J[(y == 0 ? 0 : y - 1) * cols + x] - jc, s = J[(y == rows - 1 ? y : y + 1) * cols + x] - jc;
                float w = J[y * cols + (x == 0 ? 0 : x - 1)] - jc, e = J[y * cols + (x == cols - 1 ? x : x + 1)] - jc;
                float g2 = (nn * nn + s * s + w * w + e * e) / (jc * jc), l = (nn + s + w + e) / jc;
                float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l), den = 1.0f + 0.25f * l;
                float qsqr = num / (den * den);
                den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
                float c = 1.0f / (1.0f + den);
                C[k] = c < 0 ? 0 : (c > 1 ? 1 : c);
                dN[k] = nn; dS[k] = s; dW[k] = w; dE[k] = e;
            }
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                int k = y * cols + x;
                float cs = C[(y == rows - 1 ? y : y + 1) * cols + x], ce = C[y * cols + (x == cols - 1 ? x : x + 1)];
                J[k] += 0.25f * lambda * (C[k] * dN[k] + cs * dS[k] + C[k] * dW[k] + ce * dE[k]);
            }
    }
    for (int i = 0; i < n; i++) J[i] = logf(J[i]) * 255.0f;
}

int main()
{
    const int rows = 96, cols = 128, iters = 6, r1 = 0, r2 = 31, c1 = 0, c2 = 31;
    const float lambda = 0.5f;
    int n = rows * cols;
    float *img = (float *)malloc(n * 4), *ref = (float *)malloc(n * 4), *J = (float *)malloc(n * 4);
    srand(11);
    for (int i = 0; i < n; i++) ref[i] = img[i] = (float)(rand() % 256);
    float *d_J, *d_dN, *d_dS, *d_dW, *d_dE, *d_C;
    cudaMalloc((void **)&d_J, n * 4); cudaMalloc((void **)&d_dN, n * 4); cudaMalloc((void **)&d_dS, n * 4);
    cudaMalloc((void **)&d_dW, n * 4); cudaMalloc((void **)&d_dE, n * 4); cudaMalloc((void **)&d_C, n * 4);
    cudaMemcpy(d_J, img, n * 4, cudaMemcpyHostToDevice);
    extract<<<(n + 255) / 256, 256>>>(d_J, n);
    dim3 block(BS, BS), grid((cols + BS - 1) / BS, (rows + BS - 1) / BS);
    for (int it = 0; it < iters; it++) {
        cudaMemcpy(J, d_J, n * 4, cudaMemcpyDeviceToHost);
        double sum = 0, sum2 = 0;
        for (int y = r1; y <= r2; y++)
            for (int x = c1; x <= c2; x++) { sum += J[y * cols + x]; sum2 += (double)J[y * cols + x] * J[y * cols + x]; }
        int sz = (r2 - r1 + 1) * (c2 - c1 + 1);
        float mean = sum / sz, var = sum2 / sz - (double)mean * mean;
        float q0sqr = var / (mean * mean);
        srad1<<<grid, block>>>(d_J, d_dN, d_dS, d_dW, d_dE, d_C, rows, cols, q0sqr);
        srad2<<<grid, block>>>(d_J, d_dN, d_dS, d_dW, d_dE, d_C, rows, cols, lambda);
    }
    compress<<<(n + 255) / 256, 256>>>(d_J, n);
    cudaDeviceSynchronize();
    cudaMemcpy(J, d_J, n * 4, cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();
    host_srad(ref, rows, cols, iters, lambda, r1, r2, c1, c2);
    int bad = 0;
    double maxerr = 0;
    for (int i = 0; i < n; i++) {
        double e = fabs(J[i] - ref[i]) / (fabs(ref[i]) + 1.0);
        if (e > maxerr) maxerr = e;
        if (e > 1e-3) { if (bad < 5) printf("mismatch %d: gpu %f cpu %f\n", i, J[i], ref[i]); bad++; }
    }
    printf("srad %dx%d, %d iterations, max rel err %g, err %s\n", rows, cols, iters, maxerr, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
