// support.h — what support.cu offers the other unit.
#pragma once
__device__ float affine(float x);            // 2x + 1
__device__ int bias_from_other_unit();       // the bias set_bias stored
void set_bias(int b);
int calls_so_far();                          // g_calls, read by a kernel of support.cu
