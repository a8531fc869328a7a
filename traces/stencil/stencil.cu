// 3D star stencils of seed 001 (Nasciutti & Panetta, Códigos 1 and 2):
// radius R, 6R+1 points, coefficients in __constant__ memory.
//
// stencilBase_rR: BASE, plain global loads.  stencilCsl_rR: CSL, every
// load through __ldg (the read-only data cache).  Each thread computes one
// interior point; blocks of 32 x 16 x 1 tile X and Y and the grid's Z
// dimension covers the interior planes, as in the paper.  The interior is
// Dx x Dy x Dz points; the arrays carry an R-point halo on every side, so
// they are (Dx+2R) x (Dy+2R) x (Dz+2R) floats, X fastest.  The sizes are
// kernel arguments so that one PTX serves the X sweep of the paper's
// second experiment.
//
// Terms are summed in the paper's order, extended to radius k:
// centre, then for k = 1..R: -k, +k (X), -k*dimx, +k*dimx (Y),
// +k*plane, -k*plane (Z), with coeff[6(k-1)+1 .. 6k].  nvcc contracts the
// sum into one multiply and 6R fused multiply-adds in that order.
#define MAX_RADIUS 5

__constant__ float coeff[6 * MAX_RADIUS + 1];

template <int R, bool LDG> __device__ __forceinline__ float load(const float *p)
{
    if (LDG)
        return __ldg(p);
    return *p;
}

template <int R, bool LDG>
__device__ void stencil(const float *a, float *b, int Dx, int Dy, int Dz)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int depth = blockIdx.z * blockDim.z + threadIdx.z;
    if (col >= Dx || row >= Dy || depth >= Dz)
        return;
    int dimx = Dx + 2 * R;
    int plane = dimx * (Dy + 2 * R);
    int index = (depth + R) * plane + (row + R) * dimx + (col + R);
    float acc = coeff[0] * load<R, LDG>(&a[index]);
#pragma unroll
    for (int k = 1; k <= R; k++) {
        acc += coeff[6 * k - 5] * load<R, LDG>(&a[index - k]);
        acc += coeff[6 * k - 4] * load<R, LDG>(&a[index + k]);
        acc += coeff[6 * k - 3] * load<R, LDG>(&a[index - k * dimx]);
        acc += coeff[6 * k - 2] * load<R, LDG>(&a[index + k * dimx]);
        acc += coeff[6 * k - 1] * load<R, LDG>(&a[index + k * plane]);
        acc += coeff[6 * k] * load<R, LDG>(&a[index - k * plane]);
    }
    b[index] = acc;
}

#define STENCIL_PAIR(R)                                                              \
    extern "C" __global__ void stencilBase_r##R(const float *a, float *b, int Dx,    \
                                                int Dy, int Dz)                      \
    {                                                                                \
        stencil<R, false>(a, b, Dx, Dy, Dz);                                         \
    }                                                                                \
    extern "C" __global__ void stencilCsl_r##R(const float *a, float *b, int Dx,     \
                                               int Dy, int Dz)                       \
    {                                                                                \
        stencil<R, true>(a, b, Dx, Dy, Dz);                                          \
    }

STENCIL_PAIR(1)
STENCIL_PAIR(2)
STENCIL_PAIR(3)
STENCIL_PAIR(4)
STENCIL_PAIR(5)
