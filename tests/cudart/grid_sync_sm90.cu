// nvcc-flags: -arch=sm_90
// grid_sync_sm90.cu — grid_sync.cu built for sm_90 (Hopper's PTX for
// this_grid().sync(): the same workspace protocol), checked the same way.
#define PROGRAM_NAME "grid_sync_sm90"
#include "grid_sync.cu"
