// ilp_full: traces/ilp's kernel0/1/2 at the course's full length (8192
// iterations), so the per-launch costs that dominate the 256-iteration
// version do not hide the ILP effect the course measured.
#define N_ITERATIONS 8192
#include "../ilp/ilp.cu"
