// spmv.cu — models SHOC/Parboil SpMV on CSR: a scalar kernel (one thread per
// row) and a vector kernel (one warp per row, partial sums combined with
// __shfl_down_sync), reading the vector through __ldg; float and double.
// Also a Parboil-style JDS/ELL column-major kernel.  Checked against the host.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

template <typename T>
__global__ void spmv_csr_scalar(const T *__restrict__ val, const int *__restrict__ cols, const int *__restrict__ rowDelim,
                                const T *__restrict__ vec, int dim, T *__restrict__ out)
{
    int myRow = blockIdx.x * blockDim.x + threadIdx.x;
    if (myRow < dim) {
        T t = 0;
        int start = rowDelim[myRow], end = rowDelim[myRow + 1];
        for (int j = start; j < end; j++) t += val[j] * __ldg(&vec[cols[j]]);
        out[myRow] = t;
    }
}

template <typename T>
__global__ void spmv_csr_vector(const T *__restrict__ val, const int *__restrict__ cols, const int *__restrict__ rowDelim,
                                const T *__restrict__ vec, int dim, T *__restrict__ out)
{
    int t = threadIdx.x;
    int id = t & (warpSize - 1);
    int warpsPerBlock = blockDim.x / warpSize;
    int myRow = (blockIdx.x * warpsPerBlock) + (t / warpSize);
    if (myRow < dim) {
        int warpStart = rowDelim[myRow], warpEnd = rowDelim[myRow + 1];
        T mySum = 0;
        for (int j = warpStart + id; j < warpEnd; j += warpSize) mySum += val[j] * __ldg(&vec[cols[j]]);
#pragma unroll
        for (int off = warpSize / 2; off > 0; off >>= 1) mySum += __shfl_down_sync(0xffffffffu, mySum, off);
        if (id == 0) out[myRow] = mySum;
    }
}

// ELLPACK, column-major: element k of row r at k*dim + r
__global__ void spmv_ell(const float *val, const int *cols, const int *rowLen, const float *vec, int dim, float *out)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < dim) {
        float s = 0;
        for (int k = 0; k < rowLen[r]; k++) s += val[k * dim + r] * vec[cols[k * dim + r]];
        out[r] = s;
    }
}

template <typename T> static int run(const char *name, double tol)
{
    const int dim = 2000, maxper = 40;
    int *rowDelim = new int[dim + 1], *rowLen = new int[dim];
    srand(31);
    rowDelim[0] = 0;
    for (int r = 0; r < dim; r++) { rowLen[r] = rand() % maxper; rowDelim[r + 1] = rowDelim[r] + rowLen[r]; }
    int nnz = rowDelim[dim];
    T *val = new T[nnz], *vec = new T[dim], *out = new T[dim], *ref = new T[dim];
    int *cols = new int[nnz];
    for (int i = 0; i < nnz; i++) { val[i] = (T)((rand() % 1000) / 100.0); cols[i] = rand() % dim; }
    for (int i = 0; i < dim; i++) vec[i] = (T)((rand() % 1000) / 100.0);
    for (int r = 0; r < dim; r++) {
        double s = 0;
        for (int j = rowDelim[r]; j < rowDelim[r + 1]; j++) s += (double)val[j] * vec[cols[j]];
        ref[r] = (T)s;
    }
    T *d_val, *d_vec, *d_out; int *d_cols, *d_rd;
    cudaMalloc((void **)&d_val, nnz * sizeof(T)); cudaMalloc((void **)&d_vec, dim * sizeof(T));
    cudaMalloc((void **)&d_out, dim * sizeof(T)); cudaMalloc((void **)&d_cols, nnz * 4); cudaMalloc((void **)&d_rd, (dim + 1) * 4);
    cudaMemcpy(d_val, val, nnz * sizeof(T), cudaMemcpyHostToDevice);
    cudaMemcpy(d_vec, vec, dim * sizeof(T), cudaMemcpyHostToDevice);
    cudaMemcpy(d_cols, cols, nnz * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_rd, rowDelim, (dim + 1) * 4, cudaMemcpyHostToDevice);
    int bad = 0;
    for (int pass = 0; pass < 2; pass++) {
        cudaMemset(d_out, 0, dim * sizeof(T));
        if (pass == 0)
            spmv_csr_scalar<T><<<(dim + 127) / 128, 128>>>(d_val, d_cols, d_rd, d_vec, dim, d_out);
        else
            spmv_csr_vector<T><<<(dim * 32 + 127) / 128, 128>>>(d_val, d_cols, d_rd, d_vec, dim, d_out);
        cudaMemcpy(out, d_out, dim * sizeof(T), cudaMemcpyDeviceToHost);
        for (int r = 0; r < dim; r++)
            if (fabs((double)out[r] - ref[r]) > tol * (fabs((double)ref[r]) + 1)) {
                if (bad < 5) printf("%s %s row %d: gpu %f cpu %f\n", name, pass ? "vector" : "scalar", r, (double)out[r], (double)ref[r]);
                bad++;
            }
    }
    if (sizeof(T) == 4) {  // ELL from the same matrix
        float *ev = new float[dim * maxper]();
        int *ec = new int[dim * maxper]();
        for (int r = 0; r < dim; r++)
            for (int k = 0; k < rowLen[r]; k++) { ev[k * dim + r] = (float)val[rowDelim[r] + k]; ec[k * dim + r] = cols[rowDelim[r] + k]; }
        float *d_ev, *d_v, *d_o; int *d_ec, *d_rl;
        cudaMalloc((void **)&d_ev, dim * maxper * 4); cudaMalloc((void **)&d_ec, dim * maxper * 4);
        cudaMalloc((void **)&d_rl, dim * 4); cudaMalloc((void **)&d_v, dim * 4); cudaMalloc((void **)&d_o, dim * 4);
        cudaMemcpy(d_ev, ev, dim * maxper * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(d_ec, ec, dim * maxper * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(d_rl, rowLen, dim * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(d_v, vec, dim * 4, cudaMemcpyHostToDevice);
        spmv_ell<<<(dim + 127) / 128, 128>>>(d_ev, d_ec, d_rl, d_v, dim, d_o);
        float *o = new float[dim];
        cudaMemcpy(o, d_o, dim * 4, cudaMemcpyDeviceToHost);
        for (int r = 0; r < dim; r++)
            if (fabs(o[r] - (double)ref[r]) > tol * (fabs((double)ref[r]) + 1)) { if (bad < 5) printf("ell row %d: %f vs %f\n", r, o[r], (double)ref[r]); bad++; }
    }
    printf("spmv<%s> dim %d nnz %d: %d mismatches\n", name, dim, nnz, bad);
    return bad;
}

int main()
{
    int bad = run<float>("float", 1e-4) + run<double>("double", 1e-12);
    cudaError_t err = cudaGetLastError();
    printf("err %s\n", cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
