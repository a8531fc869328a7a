// lud.cu — models Rodinia LUD: in-place blocked LU decomposition (no
// pivoting) with 16x16 blocks: a one-block diagonal kernel, a perimeter
// kernel (row and column panels against the factored diagonal block, shared
// arrays) and a 2D internal kernel (trailing update from shared panels), per
// block step on the host.  Checked by multiplying L*U back to A.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define BS 16

__global__ void lud_diagonal(float *m, int dim, int offset)
{
    __shared__ float s[BS][BS];
    int tx = threadIdx.x;
    int base = offset * dim + offset;
    for (int i = 0; i < BS; i++) s[i][tx] = m[base + i * dim + tx];
    __syncthreads();
    for (int i = 0; i < BS - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++) s[tx][i] -= s[tx][j] * s[j][i];
            s[tx][i] /= s[i][i];
        }
        __syncthreads();
        if (tx > i) {
            for (int j = 0; j < i + 1; j++) s[i + 1][tx] -= s[i + 1][j] * s[j][tx];
        }
        __syncthreads();
    }
    for (int i = 1; i < BS; i++) m[base + i * dim + tx] = s[i][tx];
}

// blockIdx.x selects one panel block to the right (row panel: U part) and one
// below (column panel: L part); threads 0..BS-1 do the row block, BS..2BS-1 the column block.
__global__ void lud_perimeter(float *m, int dim, int offset)
{
    __shared__ float dia[BS][BS];
    __shared__ float peri_row[BS][BS];
    __shared__ float peri_col[BS][BS];
    int tx = threadIdx.x;
    int bx = blockIdx.x;
    int base = offset * dim + offset;
    if (tx < BS) {
        for (int i = 0; i < BS; i++) dia[i][tx] = m[base + i * dim + tx];
        for (int i = 0; i < BS; i++) peri_row[i][tx] = m[base + (bx + 1) * BS + i * dim + tx];
    } else {
        int t = tx - BS;
        for (int i = 0; i < BS; i++) peri_col[i][t] = m[base + ((bx + 1) * BS + i) * dim + t];
    }
    __syncthreads();
    if (tx < BS) {  // forward substitution with unit-lower L: column tx of the row panel
        int c = tx;
        for (int i = 1; i < BS; i++)
            for (int j = 0; j < i; j++) peri_row[i][c] -= dia[i][j] * peri_row[j][c];
    } else {        // row r of the column panel solves x * U = a
        int r = tx - BS;
        for (int i = 0; i < BS; i++) {
            for (int j = 0; j < i; j++) peri_col[r][i] -= peri_col[r][j] * dia[j][i];
            peri_col[r][i] /= dia[i][i];
        }
    }
    __syncthreads();
    if (tx < BS) {
        for (int i = 1; i < BS; i++) m[base + (bx + 1) * BS + i * dim + tx] = peri_row[i][tx];
    } else {
        int t = tx - BS;
        for (int i = 0; i < BS; i++) m[base + ((bx + 1) * BS + i) * dim + t] = peri_col[i][t];
    }
}

__global__ void lud_internal(float *m, int dim, int offset)
{
    __shared__ float peri_row[BS][BS];
    __shared__ float peri_col[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gr = offset + (blockIdx.y + 1) * BS, gc = offset + (blockIdx.x + 1) * BS;
    peri_row[ty][tx] = m[(offset + ty) * dim + gc + tx];
    peri_col[ty][tx] = m[(gr + ty) * dim + offset + tx];
    __syncthreads();
    float sum = 0;
#pragma unroll
    for (int i = 0; i < BS; i++) sum += peri_col[ty][i] * peri_row[i][tx];
    m[(gr + ty) * dim + gc + tx] -= sum;
}

int main()
{
    const int dim = 96;
    int n = dim * dim;
    float *a = (float *)malloc(n * 4), *lu = (float *)malloc(n * 4);
    srand(19);
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++) a[i * dim + j] = (i == j) ? 4.0f * dim : (rand() % 1000) / 500.0f - 1.0f;
    float *d_m;
    cudaMalloc((void **)&d_m, n * 4);
    cudaMemcpy(d_m, a, n * 4, cudaMemcpyHostToDevice);
    int i;
    for (i = 0; i < dim - BS; i += BS) {
        lud_diagonal<<<1, BS>>>(d_m, dim, i);
        lud_perimeter<<<(dim - i) / BS - 1, BS * 2>>>(d_m, dim, i);
        dim3 g((dim - i) / BS - 1, (dim - i) / BS - 1);
        lud_internal<<<g, dim3(BS, BS)>>>(d_m, dim, i);
    }
    lud_diagonal<<<1, BS>>>(d_m, dim, i);
    cudaMemcpy(lu, d_m, n * 4, cudaMemcpyDeviceToHost);
    cudaError_t err = cudaGetLastError();
    int bad = 0;
    double maxerr = 0;
    for (int r = 0; r < dim; r++)
        for (int c = 0; c < dim; c++) {
            double s = 0;
            for (int k = 0; k <= (r < c ? r : c); k++) {
                double l = (k == r) ? 1.0 : lu[r * dim + k];
                s += l * lu[k * dim + c];
            }
            double e = fabs(s - a[r * dim + c]);
            if (e > maxerr) maxerr = e;
            if (e > 1e-3) { if (bad < 5) printf("A(%d,%d): L*U %f original %f\n", r, c, s, a[r * dim + c]); bad++; }
        }
    printf("lud %d, max |LU-A| %g, err %s\n", dim, maxerr, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
