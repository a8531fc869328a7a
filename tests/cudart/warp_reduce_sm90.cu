// nvcc-flags: -arch=sm_90
// warp_reduce_sm90.cu — warp_reduce.cu built for sm_90 (the PTX nvcc emits
// for Hopper: the same reductions through redux.sync, checked the same way).
#define PROGRAM_NAME "warp_reduce_sm90"
#include "warp_reduce.cu"
