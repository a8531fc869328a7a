// polybench.cu — models polybench-GPU GEMM, 2MM, ATAX and BICG in both float
// and double (DATA_TYPE as a template parameter): 2D grids of 32x8 blocks for
// the matrix kernels, 1D 256-thread grids for the matrix-vector kernels,
// alpha/beta scalars passed by value.  Checked against host loops with a
// relative tolerance.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <sys/time.h>
#include <cuda_runtime.h>

#define DIM_X 32
#define DIM_Y 8

template <typename T> __global__ void gemm_kernel(int ni, int nj, int nk, T alpha, T beta, const T *a, const T *b, T *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        c[i * nj + j] *= beta;
        for (int k = 0; k < nk; k++) c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
}

template <typename T> __global__ void mm2_kernel1(int ni, int nj, int nk, T alpha, const T *a, const T *b, T *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        tmp[i * nj + j] = 0;
        for (int k = 0; k < nk; k++) tmp[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
}

template <typename T> __global__ void mm2_kernel2(int ni, int nl, int nj, T beta, const T *tmp, const T *c, T *d)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        d[i * nl + j] *= beta;
        for (int k = 0; k < nj; k++) d[i * nl + j] += tmp[i * nj + k] * c[k * nl + j];
    }
}

template <typename T> __global__ void atax_kernel1(int nx, int ny, const T *A, const T *x, T *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        tmp[i] = 0;
        for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * x[j];
    }
}

template <typename T> __global__ void atax_kernel2(int nx, int ny, const T *A, T *y, const T *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        y[j] = 0;
        for (int i = 0; i < nx; i++) y[j] += A[i * ny + j] * tmp[i];
    }
}

template <typename T> __global__ void bicg_kernel1(int nx, int ny, const T *A, const T *r, T *s)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        s[j] = 0;
        for (int i = 0; i < nx; i++) s[j] += r[i] * A[i * ny + j];
    }
}

template <typename T> __global__ void bicg_kernel2(int nx, int ny, const T *A, const T *p, T *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        q[i] = 0;
        for (int j = 0; j < ny; j++) q[i] += A[i * ny + j] * p[j];
    }
}

template <typename T> static T *dev(const T *h, size_t n)
{
    T *d;
    cudaMalloc((void **)&d, n * sizeof(T));
    if (h) cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <typename T> static int compare(const char *what, const T *gpu, const T *cpu, int n, double tol)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double e = fabs((double)gpu[i] - (double)cpu[i]) / (fabs((double)cpu[i]) + 1e-2);
        if (e > tol) { if (bad < 3) printf("%s[%d]: gpu %.9g cpu %.9g\n", what, i, (double)gpu[i], (double)cpu[i]); bad++; }
    }
    return bad;
}

template <typename T> static int run(const char *tname, double tol)
{
    const int N = 96, NX = 200, NY = 160;
    T alpha = (T)32412, beta = (T)2123;
    int bad = 0;
    T *A = new T[N * N], *B = new T[N * N], *C = new T[N * N], *D = new T[N * N], *tmp = new T[N * N], *out = new T[N * N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i * N + j] = ((T)i * j) / N; B[i * N + j] = ((T)i * (j + 1)) / N;
            C[i * N + j] = ((T)i * (j + 3)) / N; D[i * N + j] = ((T)i * (j + 2)) / N;
        }
    dim3 block(DIM_X, DIM_Y), grid((N + DIM_X - 1) / DIM_X, (N + DIM_Y - 1) / DIM_Y);
    // GEMM
    T *dA = dev(A, N * N), *dB = dev(B, N * N), *dC = dev(C, N * N);
    gemm_kernel<T><<<grid, block>>>(N, N, N, alpha, beta, dA, dB, dC);
    cudaMemcpy(out, dC, N * N * sizeof(T), cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            T c = C[i * N + j] * beta;
            for (int k = 0; k < N; k++) c += alpha * A[i * N + k] * B[k * N + j];
            tmp[i * N + j] = c;
        }
    bad += compare("gemm", out, tmp, N * N, tol);
    // 2MM: tmp = alpha*A*B; D = beta*D + tmp*C
    T *dTmp = dev<T>(NULL, N * N), *dD = dev(D, N * N);
    mm2_kernel1<T><<<grid, block>>>(N, N, N, alpha, dA, dB, dTmp);
    mm2_kernel2<T><<<grid, block>>>(N, N, N, beta, dTmp, dC, dD);  // dC holds the GEMM result: use it as "C"
    T *C2 = new T[N * N];
    cudaMemcpy(C2, dC, N * N * sizeof(T), cudaMemcpyDeviceToHost);
    cudaMemcpy(out, dD, N * N * sizeof(T), cudaMemcpyDeviceToHost);
    T *t2 = new T[N * N], *d2 = new T[N * N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            T s = 0;
            for (int k = 0; k < N; k++) s += alpha * A[i * N + k] * B[k * N + j];
            t2[i * N + j] = s;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            T s = D[i * N + j] * beta;
            for (int k = 0; k < N; k++) s += t2[i * N + k] * C2[k * N + j];
            d2[i * N + j] = s;
        }
    bad += compare("2mm", out, d2, N * N, tol);
    // ATAX and BICG on an NX x NY matrix
    T *M = new T[NX * NY], *x = new T[NY], *r = new T[NX];
    for (int i = 0; i < NX; i++) r[i] = i * (T)3.14159;
    for (int j = 0; j < NY; j++) x[j] = j * (T)3.14159;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) M[i * NY + j] = ((T)i * (j + 1)) / NX;
    T *dM = dev(M, NX * NY), *dx = dev(x, NY), *dr = dev(r, NX), *dt = dev<T>(NULL, NX), *dy = dev<T>(NULL, NY);
    int tb = 256;
    atax_kernel1<T><<<(NX + tb - 1) / tb, tb>>>(NX, NY, dM, dx, dt);
    atax_kernel2<T><<<(NY + tb - 1) / tb, tb>>>(NX, NY, dM, dy, dt);
    T *y = new T[NY], *ht = new T[NX], *hy = new T[NY];
    cudaMemcpy(y, dy, NY * sizeof(T), cudaMemcpyDeviceToHost);
    for (int i = 0; i < NX; i++) { ht[i] = 0; for (int j = 0; j < NY; j++) ht[i] += M[i * NY + j] * x[j]; }
    for (int j = 0; j < NY; j++) { hy[j] = 0; for (int i = 0; i < NX; i++) hy[j] += M[i * NY + j] * ht[i]; }
    bad += compare("atax", y, hy, NY, tol);
    T *ds = dev<T>(NULL, NY), *dq = dev<T>(NULL, NX);
    bicg_kernel1<T><<<(NY + tb - 1) / tb, tb>>>(NX, NY, dM, dr, ds);
    bicg_kernel2<T><<<(NX + tb - 1) / tb, tb>>>(NX, NY, dM, dx, dq);
    T *s = new T[NY], *q = new T[NX], *hs = new T[NY], *hq = new T[NX];
    cudaMemcpy(s, ds, NY * sizeof(T), cudaMemcpyDeviceToHost);
    cudaMemcpy(q, dq, NX * sizeof(T), cudaMemcpyDeviceToHost);
    for (int j = 0; j < NY; j++) { hs[j] = 0; for (int i = 0; i < NX; i++) hs[j] += r[i] * M[i * NY + j]; }
    for (int i = 0; i < NX; i++) { hq[i] = 0; for (int j = 0; j < NY; j++) hq[i] += M[i * NY + j] * x[j]; }
    bad += compare("bicg_s", s, hs, NY, tol);
    bad += compare("bicg_q", q, hq, NX, tol);
    printf("polybench<%s>: %d mismatches\n", tname, bad);
    return bad;
}

int main()
{
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    int bad = run<float>("float", 1e-3) + run<double>("double", 1e-10);
    gettimeofday(&t1, NULL);
    cudaError_t err = cudaGetLastError();
    printf("elapsed %.1f ms, err %s\n", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_usec - t0.tv_usec) / 1e3, cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
