// latency.cu — the H200's latency for the instructions whose latency class
// in configs/h200.json had no published measurement.
//
// Each kernel runs, in one warp, 64 dependent copies of one PTX instruction
// (or pair: cvt goes int -> float -> int) between two clock64() reads, and
// prints the cycles per copy once the empty kernel's cycles (the same
// set-up, no instructions) are taken off.  The instructions are inline
// PTX, so ptxas compiles exactly them; those that are software sequences
// in SASS (div.rn, rcp.rn, sqrt.rn, integer div/rem, f64 division, and
// the approximate ones without .ftz, which handle denormals) are measured
// as the whole sequence, which is what one PTX instruction costs
// (isa/ptx_latency.def sorts the forms into latency classes by these
// figures).  A division is timed through its dividend and, in the
// "divisor chain" variants, through its divisor: the reciprocal of a
// fixed divisor is computed once, out of the chain.  Chains
// that ptxas folds are left out, since they would measure the folding:
// integer adds, rcp.approx.ftz applied twice (x again) and any shuffle
// of the same lanes twice (shfl.idx by one lane is idempotent), and any
// shuffle of a value the same in every lane.  So the integer operand
// starts as the kernel argument plus the lane id, and a shuffle whose
// source lane is its own operand cannot be folded: it is measured so.  Memory latencies are pointer chases (each load's
// address is the value the last one read: a shared word, a global line
// hit in L1, a global line read through L2 only with .cg) and chains of
// atomics whose operand is the last one's result (32 lanes, one word
// each, in one shared bank row or one global line).
// Build and run on the GPU machine: nvcc -arch=sm_90 -o latency latency.cu
// && ./latency.  configs/h200.json's latency sources quote the results.
// tools/hw-measure/latency_sim.py runs the same kernels (latency.ptx, from
// nvcc -arch=sm_90 -ptx latency.cu) in warpsim and prints the same figures.
#include <cstdio>
#include <cuda_runtime.h>

#define R4(x) x x x x
#define R64(x) R4(R4(R4(x)))

#define LAT_KERNEL(name, body)                                                                       \
    __global__ void name(float x, float y, int a, int b, long long *cycles, float *out)              \
    {                                                                                                \
        float r;                                                                                     \
        long long t0 = clock64();                                                                    \
        asm volatile("{ .reg .f32 f, g, t; .reg .s32 i, j, k; .reg .f64 d, e;\n\t"                      \
                     "mov.f32 f, %1; mov.f32 g, %2; mov.s32 i, %3; mov.s32 j, %4;\n\t"                \
                     "mov.u32 k, %%laneid; add.s32 i, i, k;\n\t"                                      \
                     "cvt.f64.f32 d, f; cvt.f64.f32 e, g;\n\t" R64(body)                             \
                                          "cvt.rn.f32.s32 t, i; add.f32 f, f, t; cvt.rn.f32.f64 t, d; add.f32 %0, f, t; }" \
                     : "=f"(r)                                                                       \
                     : "f"(x), "f"(y), "r"(a), "r"(b));                                              \
        long long t1 = clock64();                                                                    \
        out[threadIdx.x] = r;                                                                        \
        if (threadIdx.x == 0)                                                                        \
            *cycles = t1 - t0;                                                                       \
    }

LAT_KERNEL(k_empty, "")
LAT_KERNEL(k_add_f32, "add.f32 f, f, g;\n\t")
LAT_KERNEL(k_fma_f32, "fma.rn.f32 f, f, g, g;\n\t")
LAT_KERNEL(k_div_rn_f32, "div.rn.f32 f, f, g;\n\t")
LAT_KERNEL(k_div_full_f32, "div.full.f32 f, f, g;\n\t")
LAT_KERNEL(k_div_s32, "div.s32 i, i, j;\n\t")
LAT_KERNEL(k_rem_s32, "rem.s32 i, i, j;\n\t")
LAT_KERNEL(k_div_rn_f64, "div.rn.f64 d, d, e;\n\t")
LAT_KERNEL(k_fma_f64, "fma.rn.f64 d, d, e, e;\n\t")
LAT_KERNEL(k_rcp_rn_f32, "rcp.rn.f32 f, f;\n\t")
LAT_KERNEL(k_rcp_approx_f32, "rcp.approx.f32 f, f;\n\t")
LAT_KERNEL(k_sqrt_rn_f32, "sqrt.rn.f32 f, f;\n\t")
LAT_KERNEL(k_sqrt_approx_f32, "sqrt.approx.f32 f, f;\n\t")
LAT_KERNEL(k_rsqrt_approx_f32, "rsqrt.approx.f32 f, f;\n\t")
LAT_KERNEL(k_sin_approx_f32, "sin.approx.f32 f, f;\n\t")
LAT_KERNEL(k_ex2_approx_f32, "ex2.approx.f32 f, f;\n\t")
LAT_KERNEL(k_lg2_approx_f32, "lg2.approx.f32 f, f;\n\t")
LAT_KERNEL(k_div_rn_f32_divisor, "div.rn.f32 f, g, f;\n\t")
LAT_KERNEL(k_div_full_f32_divisor, "div.full.f32 f, g, f;\n\t")
LAT_KERNEL(k_div_approx_f32, "div.approx.f32 f, f, g;\n\t")
LAT_KERNEL(k_div_approx_f32_divisor, "div.approx.f32 f, g, f;\n\t")
LAT_KERNEL(k_div_rn_f64_divisor, "div.rn.f64 d, e, d;\n\t")
LAT_KERNEL(k_rcp_rn_f64, "rcp.rn.f64 d, d;\n\t")
LAT_KERNEL(k_sqrt_rn_f64, "sqrt.rn.f64 d, d;\n\t")
LAT_KERNEL(k_rcp_approx_ftz_f64, "rcp.approx.ftz.f64 d, d;\n\t")
LAT_KERNEL(k_rsqrt_approx_f64, "rsqrt.approx.f64 d, d;\n\t")
LAT_KERNEL(k_cos_approx_ftz_f32, "cos.approx.ftz.f32 f, f;\n\t")
LAT_KERNEL(k_cvt_pair, "cvt.rn.f32.s32 f, i;\n\tcvt.rzi.s32.f32 i, f;\n\t")
LAT_KERNEL(k_sqrt_approx_ftz_f32, "sqrt.approx.ftz.f32 f, f;\n\t")
LAT_KERNEL(k_rsqrt_approx_ftz_f32, "rsqrt.approx.ftz.f32 f, f;\n\t")
LAT_KERNEL(k_sin_approx_ftz_f32, "sin.approx.ftz.f32 f, f;\n\t")
LAT_KERNEL(k_ex2_approx_ftz_f32, "ex2.approx.ftz.f32 f, f;\n\t")
LAT_KERNEL(k_lg2_approx_ftz_f32, "lg2.approx.ftz.f32 f, f;\n\t")
LAT_KERNEL(k_shfl_idx, "shfl.sync.idx.b32 i, i, i, 0x1f, 0xffffffff;\n\t")
LAT_KERNEL(k_shfl_bfly, "shfl.sync.bfly.b32 i, i, i, 0x1f, 0xffffffff;\n\t")
LAT_KERNEL(k_bar_sync, "bar.sync 0;\n\t")
LAT_KERNEL(k_membar_gl, "membar.gl;\n\t")
LAT_KERNEL(k_membar_cta, "membar.cta;\n\t")
LAT_KERNEL(k_membar_sys, "membar.sys;\n\t")
LAT_KERNEL(k_fence_sc_gpu, "fence.sc.gpu;\n\t")
LAT_KERNEL(k_fence_acq_rel_gpu, "fence.acq_rel.gpu;\n\t")

/* Memory: each lane starts at its own word (shared: a 32-bit shared
 * address; global: a 64-bit pointer), which holds its own address, so
 * every load's address is the value the previous one returned.  The
 * spread chase instead visits 64 lines SPREAD words apart, in a ring (each
 * lane's word holds the address of its word in the next line): one line
 * sits in one L2 slice, near or far from the SM, so the one-line chase
 * measures one slice's latency and the spread one an average over many.
 * The one-line atomics add 0 plus the last result's low bit, which is
 * always 0, to the lane's word: each waits for the last one, and the word
 * stays 0.  An atom.global.add of 0 returns the word unchanged, the next
 * address, so the spread ring is chased through atomics too. */
#define SPREAD 2048 /* words: 16 KiB between the spread chase's lines */
#define MEM_KERNEL(name, spread, body)                                                                 \
    __global__ void name(unsigned long long *global_words, long long *cycles, float *out)     \
    {                                                                                          \
        __shared__ unsigned shared_words[32];                                                  \
        unsigned lane = threadIdx.x % 32;                                                      \
        unsigned s = (unsigned)__cvta_generic_to_shared(&shared_words[lane]);                  \
        unsigned long long *g = &global_words[lane];                                           \
        shared_words[lane] = s;                                                                \
        for (int step = 0; step < 64; step++)                                                  \
            g[step * (spread)] = (unsigned long long)&g[(step + 1) % 64 * (spread)];           \
        __syncthreads();                                                                       \
        unsigned long long p = (unsigned long long)g, r;                                       \
        long long t0 = clock64();                                                              \
        asm volatile("{ .reg .u32 i, z; .reg .u64 p; mov.u32 i, %1; mov.u64 p, %2; mov.u32 z, 0;\n\t" \
                     R64(body) "cvt.u64.u32 %0, i; add.u64 %0, %0, p; }"                        \
                     : "=l"(r)                                                                 \
                     : "r"(s), "l"(p)                                                          \
                     : "memory");                                                              \
        long long t1 = clock64();                                                              \
        out[threadIdx.x] = (float)r;                                                           \
        if (threadIdx.x == 0)                                                                  \
            *cycles = t1 - t0;                                                                 \
    }

MEM_KERNEL(m_empty, 0, "")
MEM_KERNEL(m_ld_shared, 0, "ld.shared.u32 i, [i];\n\t")
MEM_KERNEL(m_ld_global_l1, 0, "ld.global.ca.u64 p, [p];\n\t")
MEM_KERNEL(m_ld_global_l2, 0, "ld.global.cg.u64 p, [p];\n\t")
MEM_KERNEL(m_ld_global_l2_spread, SPREAD, "ld.global.cg.u64 p, [p];\n\t")
MEM_KERNEL(m_atom_shared, 0, "and.b32 z, z, 1;\n\tatom.shared.add.u32 z, [i], z;\n\t")
MEM_KERNEL(m_atom_global, 0, "and.b32 z, z, 1;\n\tatom.global.add.u32 z, [p], z;\n\t")
MEM_KERNEL(m_atom_global_spread, SPREAD, "atom.global.add.u64 p, [p], 0;\n\t")
MEM_KERNEL(m_st_membar_gl, 0, "st.global.u64 [p], p;\n\tmembar.gl;\n\t")
MEM_KERNEL(m_st_membar_cta, 0, "st.global.u64 [p], p;\n\tmembar.cta;\n\t")
MEM_KERNEL(m_st_fence_acq_rel_gpu, 0, "st.global.u64 [p], p;\n\tfence.acq_rel.gpu;\n\t")
MEM_KERNEL(m_st_only, 0, "st.global.u64 [p], p;\n\t")

/* Warps that reach a barrier apart: warp w spins until `gap` * w cycles
 * after the block's start, then records when it arrives and when bar.sync
 * lets it go.  Whether the barrier's cost per warp (the all-at-once rows)
 * is paid per arrival or per release shows in when each warp leaves after
 * the last one came. */
__global__ void k_bar_staggered(long long gap, long long *times)
{
    __shared__ long long start;
    if (threadIdx.x == 0)
        start = clock64();
    __syncthreads();
    unsigned w = threadIdx.x / 32;
    while (clock64() < start + gap * w)
        ;
    long long arrive = clock64();
    asm volatile("bar.sync 1;" ::: "memory");
    long long leave = clock64();
    if (threadIdx.x % 32 == 0) {
        times[2 * w] = arrive;
        times[2 * w + 1] = leave;
    }
}

typedef void (*Kernel)(float, float, int, int, long long *, float *);

/* The fewest cycles the kernel's clock64() pair saw over runs 2-5 (the
 * first is cold: instruction cache), or -1 when a run failed. */
template <typename Launch> static long long best_of_runs(Launch launch, long long *cycles)
{
    long long best = -1, host;
    for (int rep = 0; rep < 5; rep++) {
        launch();
        if (cudaMemcpy(&host, cycles, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess)
            return -1;
        if (rep > 0 && (best < 0 || host < best))
            best = host;
    }
    return best;
}

/* Threads per block: one warp, but for the barrier also measured with 8. */
#define WARP 32
#define BLOCK 256

int main()
{
    static const struct {
        const char *name;
        Kernel k;
        int per_step; /* instructions per copy */
        int threads;
    } cases[] = {
        {"empty", k_empty, 1, WARP},
        {"add.f32", k_add_f32, 1, WARP},
        {"fma.rn.f32", k_fma_f32, 1, WARP},
        {"div.rn.f32", k_div_rn_f32, 1, WARP},
        {"div.full.f32", k_div_full_f32, 1, WARP},
        {"div.s32", k_div_s32, 1, WARP},
        {"rem.s32", k_rem_s32, 1, WARP},
        {"div.rn.f64", k_div_rn_f64, 1, WARP},
        {"fma.rn.f64", k_fma_f64, 1, WARP},
        {"rcp.rn.f32", k_rcp_rn_f32, 1, WARP},
        {"rcp.approx.f32", k_rcp_approx_f32, 1, WARP},
        {"sqrt.rn.f32", k_sqrt_rn_f32, 1, WARP},
        {"sqrt.approx.f32", k_sqrt_approx_f32, 1, WARP},
        {"rsqrt.approx.f32", k_rsqrt_approx_f32, 1, WARP},
        {"sin.approx.f32", k_sin_approx_f32, 1, WARP},
        {"ex2.approx.f32", k_ex2_approx_f32, 1, WARP},
        {"lg2.approx.f32", k_lg2_approx_f32, 1, WARP},
        {"div.rn.f32 (divisor chain)", k_div_rn_f32_divisor, 1, WARP},
        {"div.full.f32 (divisor chain)", k_div_full_f32_divisor, 1, WARP},
        {"div.approx.f32", k_div_approx_f32, 1, WARP},
        {"div.approx.f32 (divisor chain)", k_div_approx_f32_divisor, 1, WARP},
        {"div.rn.f64 (divisor chain)", k_div_rn_f64_divisor, 1, WARP},
        {"rcp.rn.f64", k_rcp_rn_f64, 1, WARP},
        {"sqrt.rn.f64", k_sqrt_rn_f64, 1, WARP},
        {"rcp.approx.ftz.f64", k_rcp_approx_ftz_f64, 1, WARP},
        {"rsqrt.approx.f64", k_rsqrt_approx_f64, 1, WARP},
        {"cos.approx.ftz.f32", k_cos_approx_ftz_f32, 1, WARP},
        {"cvt s32->f32->s32", k_cvt_pair, 2, WARP},
        {"sqrt.approx.ftz.f32", k_sqrt_approx_ftz_f32, 1, WARP},
        {"rsqrt.approx.ftz.f32", k_rsqrt_approx_ftz_f32, 1, WARP},
        {"sin.approx.ftz.f32", k_sin_approx_ftz_f32, 1, WARP},
        {"ex2.approx.ftz.f32", k_ex2_approx_ftz_f32, 1, WARP},
        {"lg2.approx.ftz.f32", k_lg2_approx_ftz_f32, 1, WARP},
        {"shfl.idx (own lane)", k_shfl_idx, 1, WARP},
        {"shfl.bfly (own mask)", k_shfl_bfly, 1, WARP},
        {"bar.sync, one warp", k_bar_sync, 1, WARP},
        {"bar.sync, 2 warps", k_bar_sync, 1, 2 * WARP},
        {"bar.sync, 4 warps", k_bar_sync, 1, 4 * WARP},
        {"bar.sync, 8 warps", k_bar_sync, 1, BLOCK},
        {"bar.sync, 16 warps", k_bar_sync, 1, 16 * WARP},
        {"bar.sync, 32 warps", k_bar_sync, 1, 32 * WARP},
        {"membar.gl, no stores", k_membar_gl, 1, WARP},
        {"membar.cta, no stores", k_membar_cta, 1, WARP},
        {"membar.sys, no stores", k_membar_sys, 1, WARP},
        {"fence.sc.gpu, no stores", k_fence_sc_gpu, 1, WARP},
        {"fence.acq_rel.gpu, no stores", k_fence_acq_rel_gpu, 1, WARP},
    };
    typedef void (*MemKernel)(unsigned long long *, long long *, float *);
    static const struct {
        const char *name;
        MemKernel k;
    } mem_cases[] = {
        {"empty", m_empty},
        {"ld.shared chase", m_ld_shared},
        {"ld.global.ca chase (L1 hit)", m_ld_global_l1},
        {"ld.global.cg chase (L2 hit)", m_ld_global_l2},
        {"ld.global.cg, 64 lines apart", m_ld_global_l2_spread},
        {"and + atom.shared.add", m_atom_shared},
        {"and + atom.global.add", m_atom_global},
        {"atom.global.add 0 chase, spread", m_atom_global_spread},
        {"st.global alone", m_st_only},
        {"st.global + membar.gl", m_st_membar_gl},
        {"st.global + membar.cta", m_st_membar_cta},
        {"st.global + fence.acq_rel.gpu", m_st_fence_acq_rel_gpu},
    };
    long long *cycles, empty = 0;
    float *out;
    unsigned long long *words; /* the kernels store each word's own address in it */
    if (cudaMalloc(&cycles, sizeof *cycles) != cudaSuccess || cudaMalloc(&out, 32 * WARP * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&words, (64 * SPREAD + WARP) * sizeof *words) != cudaSuccess) {
        fprintf(stderr, "latency: cudaMalloc failed\n");
        return 1;
    }
    for (const auto &c : cases) {
        long long best =
            best_of_runs([&] { c.k<<<1, c.threads>>>(1.0001f, 0.9999f, 1000003, 7, cycles, out); }, cycles);
        if (best < 0) {
            fprintf(stderr, "latency: %s failed\n", c.name);
            return 1;
        }
        if (c.k == k_empty)
            empty = best;
        printf("%-32s %6lld cycles for 64, %.1f per instruction\n", c.name, best,
               (double)(best - empty) / (64.0 * c.per_step));
    }
    for (const auto &c : mem_cases) {
        long long best = best_of_runs([&] { c.k<<<1, WARP>>>(words, cycles, out); }, cycles);
        if (best < 0) {
            fprintf(stderr, "latency: %s failed\n", c.name);
            return 1;
        }
        if (c.k == m_empty)
            empty = best;
        printf("%-32s %6lld cycles for 64, %.1f per step\n", c.name, best, (double)(best - empty) / 64.0);
    }
    long long *times, host[64];
    if (cudaMalloc(&times, sizeof host) != cudaSuccess)
        return 1;
    for (long long gap : {0LL, 200LL}) {
        for (int run = 0; run < 3; run++)
            k_bar_staggered<<<1, 32 * WARP>>>(gap, times);
        if (cudaMemcpy(host, times, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess)
            return 1;
        long long last = 0, first_out = -1, last_out = 0;
        for (int w = 0; w < 32; w++)
            last = host[2 * w] > last ? host[2 * w] : last;
        for (int w = 0; w < 32; w++) {
            long long out = host[2 * w + 1] - last;
            first_out = first_out < 0 || out < first_out ? out : first_out;
            last_out = out > last_out ? out : last_out;
        }
        printf("bar.sync, 32 warps %lld cycles apart: warps leave %lld to %lld cycles after the last arrived\n", gap,
               first_out, last_out);
    }
    return 0;
}
