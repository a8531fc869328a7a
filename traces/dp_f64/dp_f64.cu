// Double precision: a degree-5 polynomial (Horner, fused into fma.rn.f64)
// with coefficients in __constant__ memory set by the manifest's `globals`,
// divided by 1 + x^2 (div.rn.f64) plus sqrt|x| (sqrt.rn.f64).
__constant__ double coeff[6];

extern "C" __global__ void polyF64(const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = x[i];
        double p = coeff[5];
        for (int k = 4; k >= 0; --k)
            p = p * v + coeff[k];
        y[i] = p / (1.0 + v * v) + sqrt(fabs(v));
    }
}
