// polybench.cu — linear-algebra and stencil kernels in the style of
// PolyBench/GPU and Rodinia, written for this project (not copied from those
// suites) to check warpsim's timing model on code it was never tuned on.
// Plain textbook CUDA: one thread per output element, no shared-memory
// tiling.  Matrices are row-major, n x n.  README.md gives launch shapes.

// C = alpha * A B + beta * C, one thread per element of C (2-D grid):
// a warp's lanes read one A element (broadcast) and 16 consecutive B
// elements per row of threads.
extern "C" __global__ void gemm(int n, float alpha, float beta, const float *a, const float *b, float *c)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = alpha * acc + beta * c[row * n + col];
}

// ATAX, first half: tmp = A x, one thread per row (each lane walks its own
// row: lanes are a row apart).
extern "C" __global__ void atax1(int n, const float *a, const float *x, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        s += a[i * n + j] * x[j];
    tmp[i] = s;
}

// ATAX, second half: y = A^T tmp, one thread per column (lanes read
// consecutive elements of a row: coalesced).
extern "C" __global__ void atax2(int n, const float *a, const float *tmp, float *y)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += a[i * n + j] * tmp[i];
    y[j] = s;
}

// BiCG sub-kernel, s = A^T r: one thread per column.
extern "C" __global__ void bicgS(int n, const float *a, const float *r, float *s)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
        acc += r[i] * a[i * n + j];
    s[j] = acc;
}

// BiCG sub-kernel, q = A p: one thread per row.
extern "C" __global__ void bicgQ(int n, const float *a, const float *p, float *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += a[i * n + j] * p[j];
    q[i] = acc;
}

// MVT, x1 += A y1: one thread per row, the sum kept in a register that
// starts from x1[i] and is stored once at the end.
extern "C" __global__ void mvt1(int n, const float *a, const float *y1, float *x1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = x1[i];
    for (int j = 0; j < n; j++)
        acc += a[i * n + j] * y1[j];
    x1[i] = acc;
}

// MVT, x2 += A^T y2: one thread per column.
extern "C" __global__ void mvt2(int n, const float *a, const float *y2, float *x2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = x2[i];
    for (int j = 0; j < n; j++)
        acc += a[j * n + i] * y2[j];
    x2[i] = acc;
}

// GESUMMV, y = alpha A x + beta B x: one thread per row, two matrices read
// row by row in the same loop; tmp keeps A x.
extern "C" __global__ void gesummv(int n, float alpha, float beta, const float *a, const float *b,
                                   const float *x, float *tmp, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float sa = 0.0f, sb = 0.0f;
    for (int j = 0; j < n; j++) {
        float xj = x[j];
        sa += a[i * n + j] * xj;
        sb += b[i * n + j] * xj;
    }
    tmp[i] = sa;
    y[i] = alpha * sa + beta * sb;
}

// 3 x 3 weighted stencil on an h x w image, weights in the code; the
// one-pixel border of the output is left as it was.
extern "C" __global__ void conv2d(int h, int w, const float *in, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < 1 || y >= h - 1 || x < 1 || x >= w - 1)
        return;
    const float *up = in + (y - 1) * w + x;
    const float *mid = in + y * w + x;
    const float *dn = in + (y + 1) * w + x;
    out[y * w + x] = 0.15f * up[-1] - 0.35f * up[0] + 0.25f * up[1]
                   + 0.55f * mid[-1] + 0.90f * mid[0] - 0.45f * mid[1]
                   - 0.20f * dn[-1] + 0.65f * dn[0] + 0.10f * dn[1];
}

// One Jacobi sweep of the 5-point average on an n x n grid, in -> out; the
// border is not written (both buffers start with the same border).
extern "C" __global__ void jacobi2d(int n, const float *in, float *out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1)
        return;
    out[i * n + j] = 0.2f * (in[i * n + j] + in[i * n + j - 1] + in[i * n + j + 1]
                             + in[(i + 1) * n + j] + in[(i - 1) * n + j]);
}

// C = alpha * A A^T + beta * C over all of C, one thread per element
// (2-D grid): lanes along x read rows of A a row apart.
extern "C" __global__ void syrk(int n, int m, float alpha, float beta, const float *a, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < m; k++)
        acc += a[i * m + k] * a[j * m + k];
    c[i * n + j] = alpha * acc + beta * c[i * n + j];
}
