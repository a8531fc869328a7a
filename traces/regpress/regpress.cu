// nonShared1 and regPress2: seed 000 Fig. 1.40 and 1.41 (register pressure
// and variable sharing).  Out[tid] accumulates In[k] / (a - b) - In[k] / (c - d)
// down column tid of the Width x Width matrix In, while a, b, c, d rotate.
// The divergence analysis proves a, b, c, d uniform, so regPress2 keeps two
// of them (common0, common1) in shared memory, written by thread 0 only.
// Typo fixed: Fig. 1.41 reads `ln[k]`; the parameter is `In`.
extern "C" __global__ void nonShared1(float *In, float *Out, int Width)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < Width) {
        Out[tid] = 0.0;
        float a = 2.0F, b = 3.0F, c = 5.0F, d = 7.0F;
        for (int k = tid; k < Width * Width; k += Width) {
            Out[tid] += In[k] / (a - b);
            Out[tid] -= In[k] / (c - d);
            float aux = a;
            a = b;
            b = c;
            c = d;
            d = aux;
        }
    }
}

extern "C" __global__ void regPress2(float *In, float *Out, int Width)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < Width) {
        __shared__ float common0, common1;
        float c = 5.0F;
        float d = 7.0F;
        if (threadIdx.x == 0) {
            common0 = 2.0F;
            common1 = 3.0F;
        }
        __syncthreads();
        Out[tid] = 0.0;
        for (int k = tid; k < Width * Width; k += Width) {
            Out[tid] += In[k] / (common0 - common1);
            Out[tid] -= In[k] / (c - d);
            float aux = common0;
            if (threadIdx.x == 0) {
                common0 = common1;
                common1 = c;
            }
            __syncthreads();
            c = d;
            d = aux;
        }
    }
}
