// Transcendental functions.  mathAccurate uses the CUDA math library's
// accurate versions (software sequences in the PTX built on fma, ex2.approx,
// lg2.approx, sqrt.rn and friends); mathFast uses the fast intrinsics that
// map to single SFU instructions (sin.approx, ex2.approx, lg2.approx,
// rsqrt.approx, div.approx).  x lies in [-4, 4], p in [0.01, 100].
extern "C" __global__ void mathAccurate(const float *x, const float *p, int n,
                                        float *o_sin, float *o_exp, float *o_log,
                                        float *o_sqrt, float *o_tanh, float *o_pow)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = x[i], b = p[i];
        o_sin[i] = sinf(a);
        o_exp[i] = expf(a);
        o_log[i] = logf(b);
        o_sqrt[i] = sqrtf(b);
        o_tanh[i] = tanhf(a);
        o_pow[i] = powf(b, a);
    }
}

extern "C" __global__ void mathFast(const float *x, const float *p, int n,
                                    float *o_sin, float *o_exp, float *o_log,
                                    float *o_rsqrt, float *o_div, float *o_pow)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = x[i], b = p[i];
        o_sin[i] = __sinf(a);
        o_exp[i] = __expf(a);
        o_log[i] = __logf(b);
        o_rsqrt[i] = rsqrtf(b);
        o_div[i] = __fdividef(a, b);
        o_pow[i] = __powf(b, a);
    }
}
