/* test_timing.c — the timing model on microkernels whose cycle counts
 * follow from the configuration: dependent chains cost the latency per
 * instruction, independent streams the issue interval, DRAM streams the
 * bandwidth; stall states add up; runs are deterministic; outputs equal the
 * functional run's. */
#include <check.h>
#include <glib.h>
#include <sched.h>
#include <string.h>

#include "cfg.h"
#include "config.h"
#include "exec.h"
#include "isa.h"
#include "launch.h"
#include "memory.h"
#include "ptx_parser.h"
#include "timing.h"
#include "testutil.h"

typedef struct {
    TimingStats ts;
    LaunchStats ls;
    uint64_t out[64];
} Result;

/* Run kernel `k` of ptx with one buffer parameter (nbytes, zeroed) and an
 * optional u32 scalar, `regs` registers per thread, on config `cfg` (or
 * `name` with overrides), its memory system kept in `keep` (or not); with
 * general_only, every instruction on the general handlers (no plan). */
static void run_timed_on(const char *ptx, uint32_t grid, uint32_t block, uint64_t nbytes, uint32_t scalar,
                         uint32_t regs, GpuConfig *given, const char *name, const char *const *overrides,
                         uint64_t budget, TimingKeep *keep, bool general_only, Result *r)
{
    GError *error = NULL;
    GpuConfig *cfg = given ? given : config_load(name, overrides, &error);
    ck_assert_msg(cfg, "config: %s", error ? error->message : "");
    Module *m = ptx_parse_string(ptx, "t.ptx", &error);
    ck_assert_msg(m && cfg_build_all(m, &error), "ptx: %s", error ? error->message : "");
    GlobalMemory *g = gmem_new();
    ModuleImage *img = image_load(m, g, &error);
    ck_assert(img);
    if (general_only)
        g_clear_pointer(&img->plan, exec_plan_free);
    uint32_t k = module_find_kernel(m, "k", &error);
    ck_assert(k != NO_INDEX);
    uint64_t buf = gmem_alloc(g, nbytes ? nbytes : 8, "buf", &error);
    uint8_t params[64] = {0};
    ck_assert(launch_pack_param(m, k, 0, buf, params, &error));
    if (module_func(m, k)->params->len > 1)
        ck_assert(launch_pack_param(m, k, 1, scalar, params, &error));
    LaunchSpec spec = {.kernel = k, .grid = {grid, 1, 1}, .block = {block, 1, 1}, .params = params,
                       .max_instructions = budget, .timing_keep = keep};
    launch_stats_init(&r->ls, m);
    timing_stats_init(&r->ts, m);
    ck_assert_msg(timing_run(img, &spec, cfg, regs, &r->ls, &r->ts, &error), "run: %s", error ? error->message : "");
    memset(r->out, 0, sizeof r->out);
    memcpy(r->out, gmem_ptr(g, buf, MIN(nbytes ? nbytes : 8, sizeof r->out)), MIN(nbytes ? nbytes : 8, sizeof r->out));
    /* keep the counts, free the per-instruction arrays */
    TimingStats ts = r->ts;
    LaunchStats ls = r->ls;
    launch_stats_clear(&r->ls);
    timing_stats_clear(&r->ts);
    r->ts = ts;
    r->ts.insn_stall = NULL;
    r->ts.nfuncs = 0;
    r->ls = ls;
    r->ls.block_visits = r->ls.block_divergent = r->ls.insn_warp_count = NULL;
    r->ls.nfuncs = 0;
    image_free(img);
    gmem_free(g);
    module_free(m);
    if (!given)
        config_free(cfg);
}

static void run_timed_budget(const char *ptx, uint32_t grid, uint32_t block, uint64_t nbytes, uint32_t scalar,
                             uint32_t regs, const char *name, const char *const *overrides, uint64_t budget,
                             Result *r)
{
    run_timed_on(ptx, grid, block, nbytes, scalar, regs, NULL, name, overrides, budget, NULL, false, r);
}

static void run_timed_regs(const char *ptx, uint32_t grid, uint32_t block, uint64_t nbytes, uint32_t scalar,
                           uint32_t regs, const char *name, const char *const *overrides, Result *r)
{
    run_timed_budget(ptx, grid, block, nbytes, scalar, regs, name, overrides, 0, r);
}

static void run_timed(const char *ptx, uint32_t grid, uint32_t block, uint64_t nbytes, uint32_t scalar,
                      const char *name, const char *const *overrides, Result *r)
{
    run_timed_regs(ptx, grid, block, nbytes, scalar, 16, name, overrides, r);
}

/* A chain of n dependent adds (or n independent ones) per thread. */
static char *alu_kernel(int n, bool dependent)
{
    GString *s = g_string_new(".version 7.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
                              ".reg .b32 %r<40>;\n.reg .b64 %rd<4>;\n"
                              "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n");
    for (int i = 0; i < n; i++) {
        if (dependent)
            g_string_append(s, "add.s32 %r1, %r1, 3;\n");
        else
            g_string_append_printf(s, "add.s32 %%r%d, %%r1, %d;\n", 2 + i % 32, i);
    }
    g_string_append(s, "st.global.u32 [%rd1], %r1;\nret;\n}\n");
    return g_string_free(s, FALSE);
}

static const char *const no_overrides[] = {NULL};

START_TEST(dependent_chain_costs_latency)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    uint32_t lat = cfg->latency[LAT_ALU];
    config_free(cfg);
    Result a, b;
    char *k1 = alu_kernel(32, true), *k2 = alu_kernel(96, true);
    run_timed(k1, 1, 32, 8, 0, "h200", no_overrides, &a);
    run_timed(k2, 1, 32, 8, 0, "h200", no_overrides, &b);
    ck_assert_uint_eq(b.ts.cycles - a.ts.cycles, 64 * lat);
    g_free(k1);
    g_free(k2);
}
END_TEST

/* n independent divisions (or remainders) of the thread's index by the
 * parameter. */
static char *div_kernel(int n, const char *op)
{
    GString *s = g_string_new(".version 7.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
                              ".reg .b32 %r<40>;\n.reg .b64 %rd<4>;\n"
                              "ld.param.u64 %rd1, [p];\nld.param.u32 %r3, [n];\nmov.u32 %r1, %tid.x;\n");
    for (int i = 0; i < n; i++)
        g_string_append_printf(s, "%s %%r%d, %%r1, %%r3;\n", op, 4 + i % 32);
    g_string_append(s, "st.global.u32 [%rd1], %r4;\nret;\n}\n");
    return g_string_free(s, FALSE);
}

/* A PTX instruction that is a sequence of machine instructions holds its
 * scheduler one cycle per instruction (isa/ptx_latency.def's slots): a
 * stream of independent divisions in one warp issues one per `slots`
 * cycles, and its warp is selected all that time. */
START_TEST(sequences_hold_the_scheduler)
{
    static const char *const ops[] = {"div.u32", "rem.s32"};
    for (size_t k = 0; k < G_N_ELEMENTS(ops); k++) {
        PtxType type = k ? PTX_TYPE_S32 : PTX_TYPE_U32;
        uint32_t slots = isa_issue_slots_for(k ? OP_REM : OP_DIV, type, 0, 0);
        ck_assert_uint_gt(slots, 4);
        Result a, b;
        char *k1 = div_kernel(32, ops[k]), *k2 = div_kernel(96, ops[k]);
        run_timed(k1, 1, 32, 8, 7, "h200", no_overrides, &a);
        run_timed(k2, 1, 32, 8, 7, "h200", no_overrides, &b);
        ck_assert_uint_eq(b.ts.cycles - a.ts.cycles, 64 * slots);
        ck_assert_uint_eq(b.ts.state_cycles[STATE_SELECTED] - a.ts.state_cycles[STATE_SELECTED], 64 * slots);
        g_free(k1);
        g_free(k2);
    }
}
END_TEST

/* n atomics in one thread on one word, each old value into %r2: read
 * after each (an accumulation) or never. */
static char *atom_kernel(int n, bool read)
{
    GString *s = g_string_new(".version 7.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
                              ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                              "ld.param.u64 %rd1, [p];\nmov.u32 %r1, 0;\n");
    for (int i = 0; i < n; i++) {
        g_string_append(s, "atom.global.add.u32 %r2, [%rd1], 1;\n");
        if (read)
            g_string_append(s, "add.s32 %r1, %r1, %r2;\n");
    }
    g_string_append(s, "st.global.u32 [%rd1+4], %r1;\nret;\n}\n");
    return g_string_free(s, FALSE);
}

/* An atom whose old value nothing reads is a reduction in the machine code:
 * the next atomic on the same register does not wait for it to come back
 * (an output dependence ptxas does not have), so 32 more of them cost far
 * less than 32 round trips; with the old values read, each is a round
 * trip.  Every version adds 1 per atomic to the word. */
START_TEST(dead_atomic_results_are_not_waited_for)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    uint32_t lat = cfg->atomic_latency;
    config_free(cfg);
    Result dead[2], read[2];
    for (int k = 0; k < 2; k++) {
        char *d = atom_kernel(32 * (k + 1), false), *r = atom_kernel(32 * (k + 1), true);
        run_timed(d, 1, 1, 8, 0, "h200", no_overrides, &dead[k]);
        run_timed(r, 1, 1, 8, 0, "h200", no_overrides, &read[k]);
        ck_assert_uint_eq(dead[k].out[0] & 0xFFFFFFFFu, 32 * (k + 1));
        ck_assert_uint_eq(read[k].out[0] & 0xFFFFFFFFu, 32 * (k + 1));
        g_free(d);
        g_free(r);
    }
    ck_assert_uint_eq(read[0].out[0] >> 32, 31 * 32 / 2); /* the old values 0..31 */
    ck_assert_uint_ge(read[1].ts.cycles - read[0].ts.cycles, 32 * lat);
    ck_assert_uint_lt(dead[1].ts.cycles - dead[0].ts.cycles, 32 * lat / 8);
}
END_TEST

/* A chain of n adds of constants from a table: at fixed addresses
 * (`ctab+4`: operands in the SASS, insn_const_operand) or through a
 * register holding the table's address (a load each). */
static char *const_kernel(int n, bool fixed)
{
    GString *s = g_string_new(".version 7.0\n.target sm_90\n.address_size 64\n"
                              ".const .align 4 .u32 ctab[4] = {3, 5, 7, 11};\n"
                              ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
                              ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                              "ld.param.u64 %rd1, [p];\nmov.u64 %rd2, ctab;\nmov.u32 %r1, 0;\n");
    for (int i = 0; i < n; i++) {
        if (fixed)
            g_string_append_printf(s, "ld.const.u32 %%r2, [ctab+%d];\n", 4 * (i % 4));
        else
            g_string_append_printf(s, "ld.const.u32 %%r2, [%%rd2+%d];\n", 4 * (i % 4));
        g_string_append(s, "add.s32 %r1, %r1, %r2;\n");
    }
    g_string_append(s, "st.global.u32 [%rd1], %r1;\nret;\n}\n");
    return g_string_free(s, FALSE);
}

/* A constant at a fixed address is an operand: no request to the constant
 * cache and no wait for one, where the same value through a register is a
 * load of const_latency.  The sums agree. */
START_TEST(fixed_constants_are_operands)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    uint32_t alu = cfg->latency[LAT_ALU], load = cfg->const_latency;
    config_free(cfg);
    Result fixed[2], reg[2];
    for (int k = 0; k < 2; k++) {
        char *f = const_kernel(32 * (k + 1), true), *r = const_kernel(32 * (k + 1), false);
        run_timed(f, 1, 32, 8, 0, "h200", no_overrides, &fixed[k]);
        run_timed(r, 1, 32, 8, 0, "h200", no_overrides, &reg[k]);
        ck_assert_uint_eq(fixed[k].out[0], reg[k].out[0]);
        ck_assert_uint_eq(fixed[k].out[0] & 0xFFFFFFFFu, 26u * 8 * (k + 1)); /* 8 (k + 1) times 3+5+7+11 */
        ck_assert_uint_eq(fixed[k].ts.mem.const_requests, 0); /* the parameter too */
        ck_assert_uint_eq(reg[k].ts.mem.const_requests, 32 * (k + 1)); /* the table only */
        g_free(f);
        g_free(r);
    }
    /* 32 more steps: the fixed chain pays about its adds, the loaded one each load's latency as well */
    uint64_t fixed_step = fixed[1].ts.cycles - fixed[0].ts.cycles, reg_step = reg[1].ts.cycles - reg[0].ts.cycles;
    ck_assert_uint_le(fixed_step, 32 * 2 * alu);
    ck_assert_uint_ge(reg_step, 32 * load);
}
END_TEST

START_TEST(independent_stream_costs_interval)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    uint32_t interval = (32 + cfg->unit_lanes[UNIT_INT] - 1) / cfg->unit_lanes[UNIT_INT];
    config_free(cfg);
    /* one warp on a G80-like SM: 8 lanes per scheduler -> 4 cycles per add */
    const char *ov[] = {"unit_lanes.int=8", NULL};
    Result a, b;
    char *k1 = alu_kernel(64, false), *k2 = alu_kernel(128, false);
    run_timed(k1, 1, 32, 8, 0, "h200", ov, &a);
    run_timed(k2, 1, 32, 8, 0, "h200", ov, &b);
    ck_assert_uint_eq(b.ts.cycles - a.ts.cycles, 64 * 4);
    /* 16 warps over 4 schedulers: 4 warps per scheduler, one add per interval */
    run_timed(k1, 1, 512, 8, 0, "h200", no_overrides, &a);
    run_timed(k2, 1, 512, 8, 0, "h200", no_overrides, &b);
    ck_assert_uint_eq(b.ts.cycles - a.ts.cycles, 64 * 4 * interval);
    g_free(k1);
    g_free(k2);
}
END_TEST

/* n pairs of an independent xor and integer multiply-add per thread */
static char *xor_mad_kernel(int n)
{
    GString *s = g_string_new(".version 7.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
                              ".reg .b32 %r<40>;\n.reg .b64 %rd<4>;\n"
                              "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n");
    for (int i = 0; i < n; i++)
        g_string_append_printf(s, "xor.b32 %%r%d, %%r1, %d;\nmad.lo.s32 %%r%d, %%r1, 3, %d;\n", 2 + i % 16, i,
                               18 + i % 16, i);
    g_string_append(s, "st.global.u32 [%rd1], %r1;\nret;\n}\n");
    return g_string_free(s, FALSE);
}

START_TEST(integers_share_the_fma_pipe)
{
    /* 16 warps over 4 schedulers, 4 per scheduler; the H200's integer and
     * FP32 units both take a warp instruction every 2 cycles */
    const char *on[] = {"scheduler.integer_fma_pipe=true", NULL};
    const char *off[] = {"scheduler.integer_fma_pipe=false", NULL};
    Result a, b;
    char *k1 = xor_mad_kernel(32), *k2 = xor_mad_kernel(64);
    /* on one pipe, 64 more instructions per warp take 2 cycles each */
    run_timed(k1, 1, 512, 8, 0, "h200", off, &a);
    run_timed(k2, 1, 512, 8, 0, "h200", off, &b);
    ck_assert_uint_eq(b.ts.cycles - a.ts.cycles, 64 * 4 * 2);
    /* the multiply-adds on the FMA pipe: one instruction a cycle */
    run_timed(k1, 1, 512, 8, 0, "h200", on, &a);
    run_timed(k2, 1, 512, 8, 0, "h200", on, &b);
    ck_assert_uint_eq(b.ts.cycles - a.ts.cycles, 64 * 4);
    g_free(k1);
    g_free(k2);
    /* adds can take either pipe: they alternate */
    k1 = alu_kernel(64, false);
    k2 = alu_kernel(128, false);
    run_timed(k1, 1, 512, 8, 0, "h200", on, &a);
    run_timed(k2, 1, 512, 8, 0, "h200", on, &b);
    ck_assert_uint_eq(b.ts.cycles - a.ts.cycles, 64 * 4);
    g_free(k1);
    g_free(k2);
}
END_TEST

/* One warp counts to the parameter in a PTX loop (add, setp, bra back).
 * where: 0 no pragma, 1 .pragma "nounroll" in the loop's header, 2 before
 * the kernel's body, 3 at module level; 4 no pragma but a bar.sync in the
 * loop, 5 no pragma but the branch also tests data (a flag in the counter's
 * bit 30, never set). */
static char *count_loop_kernel(int where)
{
    return g_strdup_printf(".version 7.0\n.target sm_90\n.address_size 64\n%s"
                           ".visible .entry k(.param .u64 p, .param .u32 n)%s\n{\n"
                           ".reg .b32 %%r<6>;\n.reg .pred %%p<4>;\n.reg .b64 %%rd<2>;\n"
                           "ld.param.u64 %%rd1, [p];\nld.param.u32 %%r1, [n];\nmov.u32 %%r2, 0;\n"
                           "$L_loop:\n%s"
                           "add.s32 %%r2, %%r2, 1;\nsetp.lt.s32 %%p1, %%r2, %%r1;\n%s"
                           "@%%p1 bra $L_loop;\n"
                           "st.global.u32 [%%rd1], %%r2;\nret;\n}\n",
                           where == 3 ? ".pragma \"nounroll\";\n" : "", where == 2 ? " .pragma \"nounroll\";" : "",
                           where == 1 ? ".pragma \"nounroll\";\n" : where == 4 ? "bar.sync 0;\n" : "",
                           where == 5 ? "and.b32 %r3, %r2, 1073741824;\nsetp.eq.s32 %p2, %r3, 0;\n"
                                        "and.pred %p1, %p1, %p2;\n" : "");
}

/* The cycles 32 more iterations of the count loop take (64 against 32). */
static uint64_t loop_cycles(const char *ptx, const char *config, const char *const *overrides)
{
    Result a, b;
    run_timed(ptx, 1, 32, 8, 32, config, overrides, &a);
    run_timed(ptx, 1, 32, 8, 64, config, overrides, &b);
    ck_assert_uint_eq(a.out[0], 32);
    ck_assert_uint_eq(b.out[0], 64);
    return b.ts.cycles - a.ts.cycles;
}

/* A loop's branch back delays the next fetch by latency.loop_branch when
 * ptxas keeps the loop rolled (a .pragma "nounroll" in its header, before
 * the kernel or in the module; a barrier in the loop; a branch that tests
 * data, not only a counter).  When ptxas unrolls it loop_unroll times,
 * the branch, the compare that decides it and the counter's step are done
 * once for that many PTX iterations: each iteration is charged that share
 * of their latencies.  One warp's loop waits for all three each time
 * around; without the keys, a loop is charged as the PTX has it. */
START_TEST(loop_control_is_shared_out_when_ptxas_unrolls)
{
    const char *lb40[] = {"latency.loop_branch=40", "scheduler.loop_unroll=4", "latency.alu=8", NULL};
    const char *lb80[] = {"latency.loop_branch=80", "scheduler.loop_unroll=4", "latency.alu=8", NULL};
    const char *alu16[] = {"latency.loop_branch=40", "scheduler.loop_unroll=4", "latency.alu=16", NULL};
    const char *none[] = {"latency.branch=6", NULL};
    char *unrolled = count_loop_kernel(0);
    /* a quarter of the branch, and of the step's and the compare's latency */
    ck_assert_uint_eq(loop_cycles(unrolled, "h200", lb80) - loop_cycles(unrolled, "h200", lb40), 32 * 10);
    ck_assert_uint_eq(loop_cycles(unrolled, "h200", alu16) - loop_cycles(unrolled, "h200", lb40), 32 * (2 + 2));
    uint64_t plain = loop_cycles(unrolled, "gtx1060", none);
    for (int where = 1; where <= 5; where++) {
        char *kept = count_loop_kernel(where);
        ck_assert_uint_eq(loop_cycles(kept, "h200", lb80) - loop_cycles(kept, "h200", lb40), 32 * 40);
        if (where <= 3) { /* the same loop: the same chain, in full */
            ck_assert_uint_eq(loop_cycles(kept, "h200", alu16) - loop_cycles(kept, "h200", lb40), 32 * (8 + 8));
            ck_assert_uint_eq(loop_cycles(kept, "gtx1060", none), plain);
        }
        g_free(kept);
    }
    g_free(unrolled);
}
END_TEST

START_TEST(states_add_up_and_runs_repeat)
{
    Result a, b;
    char *k = alu_kernel(40, true);
    run_timed(k, 300, 256, 8, 0, "h200", no_overrides, &a);
    run_timed(k, 300, 256, 8, 0, "h200", no_overrides, &b);
    uint64_t sum = 0;
    for (int s = 0; s < STATE_COUNT; s++)
        sum += a.ts.state_cycles[s];
    ck_assert_uint_eq(sum, a.ts.warp_active_cycles);
    ck_assert_uint_eq(a.ts.state_cycles[STATE_SELECTED], a.ls.warp_insts);
    ck_assert_uint_eq(a.ts.cycles, b.ts.cycles);
    ck_assert_uint_eq(a.ts.warp_active_cycles, b.ts.warp_active_cycles);
    ck_assert_uint_eq(a.ts.state_cycles[STATE_WAIT], b.ts.state_cycles[STATE_WAIT]);
    ck_assert_uint_eq(a.ls.ctas, 300);
    /* a dual-issue scheduler (GF104, Kepler) may take two of a warp's
     * instructions in one cycle: still one selected warp-cycle, so the
     * states still sum to the warp-cycles and selected stays below the
     * instructions when any cycle issued two */
    static const char *const dual_issue[] = {"gtx460", "k40"};
    for (size_t i = 0; i < G_N_ELEMENTS(dual_issue); i++) {
        Result d;
        run_timed(k, 300, 256, 8, 0, dual_issue[i], no_overrides, &d);
        sum = 0;
        for (int s = 0; s < STATE_COUNT; s++)
            sum += d.ts.state_cycles[s];
        ck_assert_uint_eq(sum, d.ts.warp_active_cycles);
        ck_assert_uint_lt(d.ts.state_cycles[STATE_SELECTED], d.ls.warp_insts);
    }
    g_free(k);
}
END_TEST

/* each thread copies `reps` consecutive floats: a DRAM stream */
static const char *copy_ptx =
    ".version 7.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [p];\nld.param.u32 %r5, [n];\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ntid.x;\nmov.u32 %r3, %tid.x;\nmad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "setp.ge.u32 %p1, %r4, %r5;\n@%p1 bra DONE;\n"
    "mul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.f32 %r6, [%rd3];\n"
    "add.f32 %r6, %r6, 0f3F800000;\nmul.wide.u32 %rd4, %r5, 4;\nadd.s64 %rd5, %rd3, %rd4;\n"
    "st.global.f32 [%rd5], %r6;\nDONE:\nret;\n}\n";

/* What a run keeps from one timed launch to the next (TimingKeep: the
 * memory system, the SMs' block) starts the next one as cold and clear as
 * new: a DRAM stream whose data a warm L2 would hold times and counts the
 * same on every launch (a stale block changes the cycles too). */
START_TEST(kept_state_starts_cold)
{
    const uint32_t n = 1u << 16;
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert_msg(cfg, "config: %s", error ? error->message : "");
    TimingKeep *keep = timing_keep_new();
    Result fresh, kept[3];
    run_timed_on(copy_ptx, n / 256, 256, 2ull * n * 4, n, 16, cfg, NULL, NULL, 0, NULL, false, &fresh);
    for (int i = 0; i < 3; i++)
        run_timed_on(copy_ptx, n / 256, 256, 2ull * n * 4, n, 16, cfg, NULL, NULL, 0, keep, false, &kept[i]);
    ck_assert_uint_eq(fresh.ts.mem.dram_bytes_read, (uint64_t)n * 4);
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(kept[i].ts.cycles, fresh.ts.cycles);
        ck_assert_mem_eq(&kept[i].ts.mem, &fresh.ts.mem, sizeof fresh.ts.mem);
        ck_assert_mem_eq(kept[i].ts.state_cycles, fresh.ts.state_cycles, sizeof fresh.ts.state_cycles);
    }
    timing_keep_free(keep);
    config_free(cfg);
}
END_TEST

START_TEST(dram_stream_saturates_bandwidth)
{
    /* 1M floats read (4 MiB) at 64 B per cycle: 65536 cycles at least, a
     * little more for the latency of the first and last requests.  The
     * written half stays in the (60 MB) L2 until the launch ends. */
    const char *ov[] = {"memory.dram.bandwidth_gbs=112.32", "sm.clock_mhz=1755", NULL};
    const uint32_t n = 1u << 20;
    Result r;
    run_timed(copy_ptx, n / 256, 256, 2ull * n * 4, n, "h200", ov, &r);
    double bytes = (double)r.ts.mem.dram_bytes_read;
    ck_assert_uint_eq(r.ts.mem.dram_bytes_read, (uint64_t)n * 4);
    ck_assert_uint_eq(r.ts.mem.dram_bytes_write, (uint64_t)n * 4);
    double min_cycles = bytes / 64.0;
    ck_assert_msg(r.ts.cycles >= min_cycles && r.ts.cycles <= min_cycles * 1.15,
                  "cycles %" G_GUINT64_FORMAT " for %.0f bytes at 64 B/cycle", r.ts.cycles, bytes);
    ck_assert_uint_eq(r.ts.mem.gld_requests, n / 32);
    ck_assert_uint_eq(r.ts.mem.gld_sectors, n / 8);
}
END_TEST

START_TEST(occupancy_limits_resident_blocks)
{
    /* 64 registers x 1024 threads: one block per H200 SM at a time */
    GError *error = NULL;
    const char *ov[] = {"sm.launch_overhead_cycles=0", NULL};
    GpuConfig *cfg = config_load("h200", ov, &error);
    ck_assert(cfg);
    uint32_t nsm = cfg->num_sms;
    config_free(cfg);
    char *k = alu_kernel(8, true);
    Result two, one;
    run_timed_regs(k, nsm * 2, 1024, 8, 0, 64, "h200", ov, &two);
    ck_assert_uint_eq(two.ts.occ.blocks_per_sm, 1);
    ck_assert_uint_eq(two.ts.occ.limiter, LIMIT_REGISTERS);
    ck_assert_uint_eq(two.ts.sms_used, nsm);
    run_timed_regs(k, nsm, 1024, 8, 0, 64, "h200", ov, &one);
    /* two waves take about twice one wave */
    ck_assert_msg(two.ts.cycles >= 2 * one.ts.cycles - 8 && two.ts.cycles <= 2 * one.ts.cycles + 8,
                  "%" G_GUINT64_FORMAT " vs %" G_GUINT64_FORMAT, two.ts.cycles, one.ts.cycles);
    g_free(k);
}
END_TEST

/* Two kernels in one module: each is charged only for the shared arrays it
 * (or a function it calls) uses, as ptxas allocates them. */
static const char *two_kernels_ptx =
    ".version 7.0\n.target sm_90\n.address_size 64\n"
    ".shared .align 4 .b8 big[40000];\n"
    ".shared .align 4 .b8 small[1000];\n"
    ".shared .align 4 .b8 helper_buf[3000];\n"
    ".func touch()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 0;\nst.shared.u32 [helper_buf], %r1;\nret;\n}\n"
    ".visible .entry other(.param .u64 p)\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 0;\n"
    "st.shared.u32 [big], %r1;\nret;\n}\n"
    ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
    ".shared .align 8 .b8 own[24];\n"
    "ld.param.u64 %rd1, [p];\nmov.u32 %r1, 7;\nst.shared.u32 [small], %r1;\nst.shared.u32 [own], %r1;\n"
    "call touch, ();\nld.shared.u32 %r1, [small];\nst.global.u32 [%rd1], %r1;\nret;\n}\n";

START_TEST(shared_memory_is_counted_per_kernel)
{
    const char *ov[] = {"shared_memory.alloc_unit=1", "shared_memory.reserved_per_block=0", NULL};
    Result r;
    run_timed(two_kernels_ptx, 1, 32, 8, 0, "h200", ov, &r);
    ck_assert_uint_eq(r.out[0] & 0xffffffffu, 7);
    /* small (1000) + helper_buf (3000) + own (24, at an 8-byte boundary) */
    ck_assert_uint_eq(r.ts.occ.smem_per_block, 4024);
}
END_TEST

static const char *barrier_ptx =
    ".version 7.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 0;\n"
    "mov.u32 %r2, 0;\n@%p1 bra WAIT;\n"
    "LOOP:\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 100;\n@%p1 bra LOOP;\n"
    "WAIT:\nbar.sync 0;\nst.global.u32 [%rd1], %r2;\nret;\n}\n";

START_TEST(barrier_wait_is_attributed)
{
    /* warp 1 waits at the barrier while lane 0 of warp 0 loops 100 times */
    Result r;
    run_timed(barrier_ptx, 1, 64, 8, 0, "h200", no_overrides, &r);
    ck_assert_uint_gt(r.ts.state_cycles[STATE_BARRIER], 100 * 4);
    uint64_t sum = 0;
    for (int s = 0; s < STATE_COUNT; s++)
        sum += r.ts.state_cycles[s];
    ck_assert_uint_eq(sum, r.ts.warp_active_cycles);
}
END_TEST

/* n bar.sync back to back: all warps arrive together. */
static char *barrier_chain_kernel(int n)
{
    GString *s = g_string_new(".version 7.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                              "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n");
    for (int i = 0; i < n; i++)
        g_string_append(s, "bar.sync 0;\n");
    g_string_append(s, "st.global.u32 [%rd1], %r1;\nret;\n}\n");
    return g_string_free(s, FALSE);
}

/* A barrier opens once the SM has counted every warp's arrival, one after
 * another, and the SM counts no arrival for its reset time after: a chain
 * of barriers that all warps reach together costs warps x arrival + reset
 * per barrier (the H200's measured shape, tools/hw-measure/latency.cu). */
START_TEST(barrier_chain_costs_counts_and_reset)
{
    static const char *const shape[] = {"scheduler.barrier_arrival_cycles=3", "scheduler.barrier_reset_cycles=15",
                                        "latency.barrier=1", NULL};
    char *k32 = barrier_chain_kernel(32), *k96 = barrier_chain_kernel(96);
    for (uint32_t warps = 1; warps <= 16; warps *= 4) {
        Result a, b;
        run_timed(k32, 1, 32 * warps, 8, 0, "h200", shape, &a);
        run_timed(k96, 1, 32 * warps, 8, 0, "h200", shape, &b);
        ck_assert_msg(b.ts.cycles - a.ts.cycles == 64 * (warps * 3 + 15), "%u warps: %" G_GUINT64_FORMAT
                      " cycles for 64 barriers", warps, b.ts.cycles - a.ts.cycles);
    }
    /* without counts or reset a barrier costs its latency */
    static const char *const flat[] = {"scheduler.barrier_arrival_cycles=0", "scheduler.barrier_reset_cycles=0",
                                       "latency.barrier=20", NULL};
    Result a, b;
    run_timed(k32, 1, 32 * 4, 8, 0, "h200", flat, &a);
    run_timed(k96, 1, 32 * 4, 8, 0, "h200", flat, &b);
    ck_assert_uint_eq(b.ts.cycles - a.ts.cycles, 64 * 20);
    g_free(k32);
    g_free(k96);
}
END_TEST

/* A global store, then `fence` (or nothing), then another store. */
static char *fence_kernel(const char *fence)
{
    return g_strdup_printf(".version 7.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
                           "ld.param.u64 %%rd1, [p];\nmov.u32 %%r1, %%tid.x;\nst.global.u32 [%%rd1], %%r1;\n%s\n"
                           "st.global.u32 [%%rd1+4], %%r1;\nret;\n}\n",
                           fence);
}

/* A fence beyond the CTA holds the warp until its earlier store has
 * reached L2 and then for the fence's latency, in the membar state; a
 * CTA-scope fence only for its own latency. */
START_TEST(fence_waits_for_stores_then_its_latency)
{
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error);
    ck_assert(cfg);
    uint64_t l2 = cfg->l2.latency, gpu = cfg->latency[LAT_MEMBAR], cta = cfg->latency[LAT_MEMBAR_CTA];
    config_free(cfg);
    char *none = fence_kernel(""), *gl = fence_kernel("membar.gl;"), *fcta = fence_kernel("fence.sc.cta;");
    Result a, b, c;
    run_timed(none, 1, 32, 8, 0, "h200", no_overrides, &a);
    run_timed(gl, 1, 32, 8, 0, "h200", no_overrides, &b);
    run_timed(fcta, 1, 32, 8, 0, "h200", no_overrides, &c);
    ck_assert_uint_eq(a.ts.state_cycles[STATE_MEMBAR], 0);
    /* the fence issues a few cycles after the store (the load/store unit
     * takes the store first); its warp goes on l2 + gpu after the store */
    ck_assert_uint_le(b.ts.state_cycles[STATE_MEMBAR], l2 + gpu - 1);
    ck_assert_uint_ge(b.ts.state_cycles[STATE_MEMBAR], l2 + gpu - 8);
    ck_assert_uint_eq(c.ts.state_cycles[STATE_MEMBAR], cta - 1); /* the cycles after its issue */
    ck_assert_uint_ge(b.ts.cycles, a.ts.cycles + l2 + gpu - 8);
    ck_assert_uint_lt(c.ts.cycles, b.ts.cycles);
    g_free(none);
    g_free(gl);
    g_free(fcta);
}
END_TEST

/* Each thread reads %clock between dependent adds and stores what it saw:
 * the outputs record issue times. */
static const char *clock_ptx =
    ".version 7.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %clock;\n"
    "add.s32 %r3, %r1, 1;\nmul.lo.s32 %r3, %r3, 3;\nadd.s32 %r3, %r3, 7;\n"
    "setp.lt.u32 %p1, %r1, 40;\n@%p1 bra SKIP;\nmul.lo.s32 %r3, %r3, 5;\nSKIP:\n"
    "mov.u32 %r4, %clock;\nsub.s32 %r5, %r4, %r2;\nadd.s32 %r6, %r5, %r3;\n"
    "shr.u32 %r7, %r1, 3;\nmul.wide.u32 %rd2, %r7, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r6;\nret;\n}\n";

/* Shared memory written with a stride (bank conflicts for even ones),
 * read back after a barrier from the neighbouring thread's word, plus a
 * constant-bank lookup: what runs ahead as accesses timed by their
 * addresses. */
static const char shared_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".const .align 4 .u32 ctab[4] = {3, 5, 7, 11};\n"
    ".visible .entry k(.param .u64 out, .param .u32 stride)\n{\n"
    ".reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n.shared .align 4 .u32 tile[2048];\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [stride];\nmov.u32 %r2, %tid.x;\n"
    "mul.lo.u32 %r3, %r2, %r1;\nand.b32 %r3, %r3, 2047;\nshl.b32 %r4, %r3, 2;\nmov.u32 %r5, tile;\n"
    "add.u32 %r6, %r5, %r4;\nst.shared.u32 [%r6], %r2;\n"
    "and.b32 %r7, %r2, 3;\nmul.wide.u32 %rd2, %r7, 4;\nmov.u64 %rd3, ctab;\nadd.s64 %rd4, %rd3, %rd2;\n"
    "ld.const.u32 %r8, [%rd4];\nbar.sync 0;\n"
    "xor.b32 %r9, %r2, 1;\nmul.lo.u32 %r10, %r9, %r1;\nand.b32 %r10, %r10, 2047;\nshl.b32 %r11, %r10, 2;\n"
    "add.u32 %r12, %r5, %r11;\nld.shared.u32 %r13, [%r12];\nmad.lo.u32 %r14, %r13, %r8, %r2;\n"
    "mov.u32 %r15, %ctaid.x;\nmov.u32 %r16, %ntid.x;\nmad.lo.u32 %r17, %r15, %r16, %r2;\n"
    "mul.wide.u32 %rd5, %r17, 4;\nadd.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], %r14;\nret;\n}\n";

/* Eight global loads per thread, n words apart after its output word,
 * summed into it: with 64 warps per H200 SM, more than the SM keeps
 * records for (two per warp), so some warps run them ahead and some at
 * issue.  No thread loads a word another stores. */
static const char loads8_ptx[] =
    ".version 7.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 buf, .param .u32 n)\n{\n"
    ".reg .b32 %r<24>;\n.reg .b64 %rd<24>;\n"
    "ld.param.u64 %rd1, [buf];\nld.param.u32 %r1, [n];\ncvta.to.global.u64 %rd2, %rd1;\n"
    "mov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmov.u32 %r4, %tid.x;\nmad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "mul.wide.u32 %rd3, %r5, 4;\nadd.s64 %rd4, %rd2, %rd3;\nmul.wide.u32 %rd5, %r1, 4;\n"
    "add.s64 %rd6, %rd4, %rd5;\nld.global.u32 %r6, [%rd6];\n"
    "add.s64 %rd7, %rd6, %rd5;\nld.global.u32 %r7, [%rd7];\nadd.s64 %rd8, %rd7, %rd5;\n"
    "ld.global.u32 %r8, [%rd8];\nadd.s64 %rd9, %rd8, %rd5;\nld.global.u32 %r9, [%rd9];\n"
    "add.s64 %rd10, %rd9, %rd5;\nld.global.u32 %r10, [%rd10];\nadd.s64 %rd11, %rd10, %rd5;\n"
    "ld.global.u32 %r11, [%rd11];\nadd.s64 %rd12, %rd11, %rd5;\nld.global.u32 %r12, [%rd12];\n"
    "add.s64 %rd13, %rd12, %rd5;\nld.global.u32 %r13, [%rd13];\n"
    "add.u32 %r14, %r6, %r7;\nadd.u32 %r14, %r14, %r8;\nadd.u32 %r14, %r14, %r9;\nadd.u32 %r14, %r14, %r10;\n"
    "add.u32 %r14, %r14, %r11;\nadd.u32 %r14, %r14, %r12;\nadd.u32 %r14, %r14, %r13;\n"
    "add.u32 %r15, %r14, %r5;\nst.global.u32 [%rd4], %r15;\nret;\n}\n";

/* The kernel reaches `dbl` only through a function pointer: the timing
 * model decodes only the functions a kernel can run, and an indirect call
 * can run any. */
static const char indirect_ptx[] =
    ".version 7.0\n.target sm_90\n.address_size 64\n"
    ".func (.param .b32 r) dbl(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
    "ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n"
    ".visible .entry other(.param .u64 p)\n{\nret;\n}\n"
    ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "mov.u64 %rd4, dbl;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n"
    "prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "call (retval0), %rd4, (param0), prototype_0;\nld.param.b32 %r2, [retval0+0];\n}\n"
    "st.global.u32 [%rd3], %r2;\nret;\n}\n";

START_TEST(indirect_calls_reach_any_function)
{
    Result r;
    run_timed(indirect_ptx, 1, 32, 128, 0, "h200", no_overrides, &r);
    const uint32_t *words = (const uint32_t *)r.out;
    for (uint32_t i = 0; i < 32; i++)
        ck_assert_uint_eq(words[i], 2 * i);
    ck_assert_uint_gt(r.ts.cycles, 0);
}
END_TEST

/* Sixteen independent loads per thread, from global or shared memory, at
 * immediate offsets: nothing but the load/store units to wait for. */
static char *loads_kernel(const char *space)
{
    GString *s = g_string_new(".version 7.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
                              ".reg .b32 %r<40>;\n.reg .b64 %rd<4>;\n.shared .align 4 .u32 tile[1024];\n");
    if (strcmp(space, "global") == 0)
        g_string_append(s, "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
                           "add.s64 %rd3, %rd1, %rd2;\n");
    else
        g_string_append(s, "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\ncvt.u64.u32 %rd3, %r2;\n");
    for (int i = 0; i < 16; i++)
        g_string_append_printf(s, "ld.%s.u32 %%r%d, [%%rd3+%d];\n", space, 8 + i, 4 * i);
    g_string_append(s, "ret;\n}\n");
    return g_string_free(s, FALSE);
}

/* A memory instruction waiting for the load/store unit is lg_throttle
 * (global and local) or mio_throttle (shared and the rest), as Nsight
 * names them, never math_pipe_throttle, which is the arithmetic pipes'. */
START_TEST(memory_throttles_are_named_by_queue)
{
    char *global = loads_kernel("global"), *shared = loads_kernel("shared");
    Result g, sh;
    run_timed(global, 132 * 8, 256, 132 * 8 * 256 * 4 + 64, 0, "h200", no_overrides, &g);
    run_timed(shared, 132 * 8, 256, 8, 0, "h200", no_overrides, &sh);
    ck_assert_uint_gt(g.ts.state_cycles[STATE_LG_THROTTLE], 0);
    ck_assert_uint_gt(sh.ts.state_cycles[STATE_MIO_THROTTLE], 0);
    ck_assert_uint_eq(sh.ts.state_cycles[STATE_LG_THROTTLE], 0);
    /* the loads wait for their unit far longer than the few arithmetic
     * instructions before them wait for theirs */
    ck_assert_uint_gt(g.ts.state_cycles[STATE_LG_THROTTLE], 10 * g.ts.state_cycles[STATE_MATH_PIPE_THROTTLE]);
    ck_assert_uint_gt(sh.ts.state_cycles[STATE_MIO_THROTTLE], 10 * sh.ts.state_cycles[STATE_MATH_PIPE_THROTTLE]);
    g_free(global);
    g_free(shared);
}
END_TEST

/* One warp's eight independent shared loads, each with all 32 lanes in
 * bank 0 (32 wavefronts), then their sum stored. */
static const char conflicted_loads_ptx[] =
    ".version 7.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
    ".reg .b32 %r<40>;\n.reg .b64 %rd<4>;\n.shared .align 4 .u32 tile[1024];\n"
    "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 7;\nmov.u32 %r3, tile;\nadd.u32 %r4, %r3, %r2;\n"
    "ld.shared.u32 %r8, [%r4];\nld.shared.u32 %r9, [%r4+4];\nld.shared.u32 %r10, [%r4+8];\n"
    "ld.shared.u32 %r11, [%r4+12];\nld.shared.u32 %r12, [%r4+16];\nld.shared.u32 %r13, [%r4+20];\n"
    "ld.shared.u32 %r14, [%r4+24];\nld.shared.u32 %r15, [%r4+28];\n"
    "add.u32 %r20, %r8, %r9;\nadd.u32 %r20, %r20, %r10;\nadd.u32 %r20, %r20, %r11;\n"
    "add.u32 %r20, %r20, %r12;\nadd.u32 %r20, %r20, %r13;\nadd.u32 %r20, %r20, %r14;\n"
    "add.u32 %r20, %r20, %r15;\nld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r20;\nret;\n}\n";

/* The queue in front of the memory pipe (scheduler.lsu_queue_depth)
 * changes where a warp waits, not when the pipe is done: without one, each
 * conflicted load waits at issue for the last one's 32 wavefronts
 * (mio_throttle); with room for all eight they issue back to back and the
 * warp waits for their results instead (short_scoreboard); with room for
 * four, both.  The pipe serves the same wavefronts in the same order, so
 * the results, and the cycles, are the same. */
START_TEST(memory_queue_moves_the_wait_to_the_scoreboard)
{
    static const char *const none[] = {"scheduler.lsu_queue_depth=0", NULL};
    static const char *const four[] = {"scheduler.lsu_queue_depth=4", NULL};
    static const char *const eight[] = {"scheduler.lsu_queue_depth=8", NULL};
    Result r0, r4, r8;
    run_timed(conflicted_loads_ptx, 1, 32, 8, 0, "h200", none, &r0);
    run_timed(conflicted_loads_ptx, 1, 32, 8, 0, "h200", four, &r4);
    run_timed(conflicted_loads_ptx, 1, 32, 8, 0, "h200", eight, &r8);
    ck_assert_uint_eq(r0.ts.mem.shared_ld_wavefronts, 8 * 32);
    /* seven loads wait for most of the previous one's 32 wavefronts */
    ck_assert_uint_ge(r0.ts.state_cycles[STATE_MIO_THROTTLE], 7 * 24);
    /* with room for all, only the load/store unit's issue interval between
     * them (h200: 8 lanes per scheduler, one issue every 4 cycles, so 3
     * cycles of waiting per gap) */
    ck_assert_uint_le(r8.ts.state_cycles[STATE_MIO_THROTTLE], 7 * 3);
    ck_assert_uint_gt(r4.ts.state_cycles[STATE_MIO_THROTTLE], 0);
    ck_assert_uint_lt(r4.ts.state_cycles[STATE_MIO_THROTTLE], r0.ts.state_cycles[STATE_MIO_THROTTLE]);
    ck_assert_uint_gt(r8.ts.state_cycles[STATE_SHORT_SCOREBOARD], r0.ts.state_cycles[STATE_SHORT_SCOREBOARD] + 7 * 24);
    ck_assert_uint_eq(r0.ts.cycles, r8.ts.cycles);
    ck_assert_uint_eq(r0.ts.cycles, r4.ts.cycles);
}
END_TEST

/* Volatile shared loads after the barrier behind the tile's writes
 * (epochs.h: nothing can race them, so they run ahead), eight a thread at
 * `stride` words apart: out = the sum of tile[(tid * stride + i) % 256]. */
static const char volatile_tile_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 stride)\n{\n"
    ".reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n.shared .align 4 .u32 tile[256];\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [stride];\nmov.u32 %r2, %tid.x;\nmov.u32 %r5, tile;\n"
    "shl.b32 %r3, %r2, 2;\nadd.u32 %r4, %r5, %r3;\nst.shared.u32 [%r4], %r2;\nbar.sync 0;\n"
    "mul.lo.u32 %r6, %r2, %r1;\nmov.u32 %r7, 0;\nmov.u32 %r8, 0;\n"
    "LOOP:\nadd.u32 %r9, %r6, %r7;\nand.b32 %r9, %r9, 255;\nshl.b32 %r9, %r9, 2;\nadd.u32 %r10, %r5, %r9;\n"
    "ld.volatile.shared.u32 %r11, [%r10];\nadd.u32 %r8, %r8, %r11;\nadd.u32 %r7, %r7, 1;\n"
    "setp.lt.u32 %p1, %r7, 8;\n@%p1 bra LOOP;\n"
    "mov.u32 %r15, %ctaid.x;\nmov.u32 %r16, %ntid.x;\nmad.lo.u32 %r17, %r15, %r16, %r2;\n"
    "mul.wide.u32 %rd5, %r17, 4;\nadd.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], %r8;\nret;\n}\n";

/* Warp 0 spins on a volatile shared flag that warp 1 sets after some
 * work, in the same epoch: the load races the store, so it executes at
 * issue, and out[tid] of warp 0 counts the spins it took. */
static const char spin_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
    ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n.shared .align 4 .u32 flag[1];\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, flag;\nmov.u32 %r2, %tid.x;\nmov.u32 %r3, 0;\n"
    "setp.ne.u32 %p1, %r2, 0;\n@%p1 bra SET;\nst.shared.u32 [%r1], %r3;\nSET:\nbar.sync 0;\n"
    "setp.lt.u32 %p2, %r2, 32;\n@%p2 bra WAIT;\nmov.u32 %r5, 0;\n"
    "WORK:\nadd.u32 %r5, %r5, 1;\nsetp.lt.u32 %p3, %r5, 50;\n@%p3 bra WORK;\n"
    "st.volatile.shared.u32 [%r1], %r5;\nmov.u32 %r6, 0;\nbra DONE;\n"
    "WAIT:\nmov.u32 %r6, 0;\n"
    "SPIN:\nadd.u32 %r6, %r6, 1;\nld.volatile.shared.u32 %r7, [%r1];\nsetp.eq.u32 %p3, %r7, 0;\n@%p3 bra SPIN;\n"
    "DONE:\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\nret;\n}\n";

/* A warp runs its warp-private instructions (arithmetic, branches), its
 * shared, constant and parameter accesses and (when the CTAs cannot see
 * each other's) its weak global ones ahead of their issue; a launch with
 * an instruction budget does not.  Nothing either way may show it:
 * outputs, cycles, states and memory counts. */
START_TEST(run_ahead_changes_nothing)
{
    char *alu = alu_kernel(40, true);
    struct {
        const char *ptx;
        uint32_t grid, block, n;
        uint64_t bytes;
    } cases[] = {
        {alu, 300, 256, 0, 8},
        {barrier_ptx, 4, 64, 0, 8},
        {copy_ptx, 64, 256, 8192, 2 * 8192 * 4},
        {clock_ptx, 2, 256, 0, 256},
        {shared_ptx, 8, 256, 2, 8 * 256 * 4},
        /* 132 x 8 CTAs of 256 fill every SM */
        {loads8_ptx, 132 * 8, 256, 132 * 8 * 256, 9 * 132 * 8 * 256 * 4},
        {volatile_tile_ptx, 8, 256, 2, 8 * 256 * 4},
        {spin_ptx, 1, 64, 0, 64 * 4},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        Result ahead, issued;
        run_timed_budget(cases[i].ptx, cases[i].grid, cases[i].block, cases[i].bytes, cases[i].n, 16, "h200",
                         no_overrides, 0, &ahead);
        run_timed_budget(cases[i].ptx, cases[i].grid, cases[i].block, cases[i].bytes, cases[i].n, 16, "h200",
                         no_overrides, 1u << 30, &issued);
        ck_assert_msg(memcmp(ahead.out, issued.out, sizeof ahead.out) == 0, "case %zu: outputs differ", i);
        ck_assert_uint_eq(ahead.ts.cycles, issued.ts.cycles);
        ck_assert_uint_eq(ahead.ts.warp_active_cycles, issued.ts.warp_active_cycles);
        for (int s = 0; s < STATE_COUNT; s++)
            ck_assert_msg(ahead.ts.state_cycles[s] == issued.ts.state_cycles[s], "case %zu: state %s", i,
                          timing_state_names[s]);
        ck_assert_msg(memcmp(&ahead.ts.mem, &issued.ts.mem, sizeof ahead.ts.mem) == 0, "case %zu: memory", i);
        ck_assert_uint_eq(ahead.ls.warp_insts, issued.ls.warp_insts);
        ck_assert_uint_eq(ahead.ls.thread_insts, issued.ls.thread_insts);
        if (cases[i].ptx == loads8_ptx) /* what it was for: every load happened */
            ck_assert_uint_eq(ahead.ts.mem.gld_requests, 132 * 8 * 8 * 8);
        if (cases[i].ptx == shared_ptx) { /* what it was for: the accesses happened, and conflicted */
            ck_assert_uint_eq(ahead.ts.mem.shared_st_requests, 8 * 8);
            ck_assert_uint_eq(ahead.ts.mem.shared_ld_requests, 8 * 8);
            ck_assert_uint_gt(ahead.ts.mem.shared_st_conflicts, 0);
            ck_assert_uint_eq(ahead.ts.mem.const_requests, 8 * 8); /* ctab; the parameters are operands */
            /* thread 1 of CTA 0 read thread 0's word: 0 * ctab[1] + 1 */
            ck_assert_uint_eq(((const uint32_t *)ahead.out)[1], 1);
            ck_assert_uint_eq(((const uint32_t *)ahead.out)[2], 3 * 7 + 2);
        }
        uint32_t out32[2];
        memcpy(out32, ahead.out, sizeof out32);
        if (cases[i].ptx == volatile_tile_ptx) { /* thread 1: tile[2..9] summed; two-way conflicts */
            ck_assert_uint_eq(out32[1], 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9);
            ck_assert_uint_eq(ahead.ts.mem.shared_ld_requests, 8 * 8 * 8);
            ck_assert_uint_gt(ahead.ts.mem.shared_ld_conflicts, 0);
        }
        if (cases[i].ptx == spin_ptx) /* warp 0 spun while warp 1 worked */
            ck_assert_uint_gt(out32[0], 1);
    }
    g_free(alu);
}
END_TEST

/* The executor's fast forms leave each whole warp's address scan in the
 * access log (memory.h, warp_scan) for the coalescer and the banks; the
 * general handlers leave none, so those scan the addresses themselves.
 * Either way every count and cycle is the same: on shared strides that
 * conflict by 1 to 32 ways, an odd stride, a broadcast, and global loads
 * strided, consecutive and on one address. */
START_TEST(executor_scans_change_nothing)
{
    static const uint32_t strides[] = {0, 1, 2, 3, 4, 8, 16, 17, 32};
    for (size_t i = 0; i < 2 * G_N_ELEMENTS(strides); i++) {
        bool shared = i < G_N_ELEMENTS(strides);
        uint32_t stride = strides[i % G_N_ELEMENTS(strides)];
        const char *ptx = shared ? shared_ptx : loads8_ptx;
        uint32_t grid = shared ? 8 : 16;
        uint64_t bytes = shared ? 8 * 256 * 4 : (uint64_t)(9 * MAX(stride, 1u) + 1) * grid * 256 * 4;
        Result fast, general;
        run_timed_on(ptx, grid, 256, bytes, stride, 16, NULL, "h200", no_overrides, 0, NULL, false, &fast);
        run_timed_on(ptx, grid, 256, bytes, stride, 16, NULL, "h200", no_overrides, 0, NULL, true, &general);
        ck_assert_msg(memcmp(fast.out, general.out, sizeof fast.out) == 0, "case %zu: outputs differ", i);
        ck_assert_msg(memcmp(&fast.ts.mem, &general.ts.mem, sizeof fast.ts.mem) == 0, "case %zu: memory", i);
        ck_assert_uint_eq(fast.ts.cycles, general.ts.cycles);
        for (int s = 0; s < STATE_COUNT; s++)
            ck_assert_msg(fast.ts.state_cycles[s] == general.ts.state_cycles[s], "case %zu: state %s", i,
                          timing_state_names[s]);
        /* what it was for: the accesses happened, conflicting as the stride says */
        if (shared && (stride == 2 || stride == 32))
            ck_assert_uint_gt(fast.ts.mem.shared_st_conflicts, 0);
        if (shared && (stride == 1 || stride == 17))
            ck_assert_uint_eq(fast.ts.mem.shared_st_conflicts, 0);
        if (!shared)
            ck_assert_uint_eq(fast.ts.mem.gld_requests, grid * 8 * 8);
    }
}
END_TEST

/* A kernel whose warps run ahead to their end gives their registers back
 * as they get there, to serve the SM's next warps (timing.c, pool_regs):
 * a block lent again starts with the registers read before written
 * cleared, as a new warp's.  Every warp leaves tid + 1000 in %r9, which
 * it reads before writing; the last CTA, whose warps run on blocks used
 * by hundreds before them, stores what it got. */
static const char pooled_regs_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 last)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<12>;\n"
    ".reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [last];\ncvta.to.global.u64 %rd2, %rd1;\n"
    "mov.u32 %r2, %ctaid.x;\nmov.u32 %r4, %tid.x;\nadd.u32 %r9, %r9, %r4;\nadd.u32 %r9, %r9, 1000;\n"
    "setp.eq.u32 %p1, %r2, %r1;\nmul.wide.u32 %rd3, %r4, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "@%p1 st.global.u32 [%rd4], %r9;\nret;\n}\n";

START_TEST(pooled_registers_start_clean)
{
    uint32_t grid = 132 * 16 + 1;
    Result ahead, issued;
    run_timed_budget(pooled_regs_ptx, grid, 128, 128 * 4, grid - 1, 16, "h200", no_overrides, 0, &ahead);
    run_timed_budget(pooled_regs_ptx, grid, 128, 128 * 4, grid - 1, 16, "h200", no_overrides, 1u << 30, &issued);
    for (uint32_t i = 0; i < 128; i++)
        ck_assert_uint_eq(((const uint32_t *)ahead.out)[i], i + 1000);
    ck_assert_uint_eq(ahead.ts.cycles, issued.ts.cycles);
    ck_assert(memcmp(ahead.out, issued.out, sizeof ahead.out) == 0);
    /* a pool kept from launch to launch (TimingKeep) holds the last
     * launch's registers: the next launch's warps start clean all the same */
    GError *error = NULL;
    GpuConfig *cfg = config_load("h200", NULL, &error); /* the keep's memory system refers to it */
    ck_assert(cfg);
    TimingKeep *keep = timing_keep_new();
    for (int launch = 0; launch < 2; launch++) {
        Result kept;
        run_timed_on(pooled_regs_ptx, grid, 128, 128 * 4, grid - 1, 16, cfg, NULL, NULL, 0, keep, false, &kept);
        for (uint32_t i = 0; i < 128; i++)
            ck_assert_uint_eq(((const uint32_t *)kept.out)[i], i + 1000);
        ck_assert_uint_eq(kept.ts.cycles, ahead.ts.cycles);
    }
    timing_keep_free(keep);
    config_free(cfg);
}
END_TEST

/* A timed CTA's warps start in storage the model lends them (exec.h,
 * cta_lend): a reconvergence stack deeper and a call chain longer than
 * what is lent must move to the warp's own, and the next CTA in that slot
 * must start clean.  sum(n) = n + sum(n - 1) to a depth that differs per
 * lane (up to 23 calls), on one SM holding one CTA at a time. */
static const char deep_calls_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".func (.param .b32 r) sum(.param .b32 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<6>;\n"
    "ld.param.u32 %r1, [p];\nmov.u32 %r3, 0;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra Z;\n"
    "add.s32 %r2, %r1, -1;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r2;\n.param .b32 retval0;\n"
    "call (retval0), sum, (param0);\nld.param.b32 %r3, [retval0+0];\n}\n"
    "Z:\nadd.u32 %r4, %r3, %r1;\nst.param.b32 [r+0], %r4;\nret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
    "mad.lo.s32 %r4, %r2, %r3, %r1;\nrem.u32 %r5, %r4, 24;\n"
    "{\n.param .b32 param0;\nst.param.b32 [param0+0], %r5;\n.param .b32 retval0;\n"
    "call (retval0), sum, (param0);\nld.param.b32 %r6, [retval0+0];\n}\n"
    "mul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\nret;\n}\n";

START_TEST(deep_calls_outgrow_lent_storage)
{
    const char *const one_sm[] = {"num_sms=1", "sm.max_blocks=1", NULL};
    Result r;
    run_timed(deep_calls_ptx, 4, 32, 4 * 32 * 4, 0, "h200", one_sm, &r);
    const uint32_t *out = (const uint32_t *)r.out;
    for (uint32_t t = 0; t < 4 * 32; t++)
        ck_assert_msg(out[t] == (t % 24) * (t % 24 + 1) / 2, "thread %u: %u", t, out[t]);
    ck_assert_uint_eq(r.ts.occ.blocks_per_sm, 1);
}
END_TEST

#ifdef CPU_COUNT
static gpointer pinned_cpus(gpointer data)
{
    launch_host_pin(data, 1);
    cpu_set_t *mine = g_new(cpu_set_t, 1);
    ck_assert_int_eq(sched_getaffinity(0, sizeof *mine, mine), 0);
    return mine;
}
#endif

/* The quanta's threads each hold a CPU of their own while they spin: the
 * creator keeps the CPU it is on, thread 1 gets another it may use, and
 * the creator's CPUs come back at the end; asking for more threads than
 * CPUs pins nobody. */
START_TEST(host_threads_pin_and_unpin)
{
#ifdef CPU_COUNT
    cpu_set_t before, now;
    ck_assert_int_eq(sched_getaffinity(0, sizeof before, &before), 0);
    uint32_t cores = launch_host_cores();
    ck_assert(launch_host_pins_new(cores + 1) == NULL);
    ck_assert_int_eq(sched_getaffinity(0, sizeof now, &now), 0);
    ck_assert(CPU_EQUAL(&before, &now));
    if (cores < 2)
        return;
    HostPins *p = launch_host_pins_new(2);
    ck_assert(p);
    ck_assert_int_eq(sched_getaffinity(0, sizeof now, &now), 0);
    ck_assert_int_eq(CPU_COUNT(&now), 1);
    int creator = sched_getcpu();
    ck_assert(CPU_ISSET(creator, &now));
    cpu_set_t *other = g_thread_join(g_thread_new("pinned", pinned_cpus, p));
    ck_assert_int_eq(CPU_COUNT(other), 1);
    ck_assert(!CPU_ISSET(creator, other));
    CPU_AND(other, other, &before);
    ck_assert_int_eq(CPU_COUNT(other), 1);
    g_free(other);
    launch_host_pins_free(p);
    ck_assert_int_eq(sched_getaffinity(0, sizeof now, &now), 0);
    ck_assert(CPU_EQUAL(&before, &now));
#endif
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("timing");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, dependent_chain_costs_latency);
    tcase_add_test(t, dead_atomic_results_are_not_waited_for);
    tcase_add_test(t, sequences_hold_the_scheduler);
    tcase_add_test(t, fixed_constants_are_operands);
    tcase_add_test(t, memory_throttles_are_named_by_queue);
    tcase_add_test(t, memory_queue_moves_the_wait_to_the_scoreboard);
    tcase_add_test(t, indirect_calls_reach_any_function);
    tcase_add_test(t, independent_stream_costs_interval);
    tcase_add_test(t, integers_share_the_fma_pipe);
    tcase_add_test(t, loop_control_is_shared_out_when_ptxas_unrolls);
    tcase_add_test(t, states_add_up_and_runs_repeat);
    tcase_add_test(t, dram_stream_saturates_bandwidth);
    tcase_add_test(t, kept_state_starts_cold);
    tcase_add_test(t, occupancy_limits_resident_blocks);
    tcase_add_test(t, barrier_wait_is_attributed);
    tcase_add_test(t, barrier_chain_costs_counts_and_reset);
    tcase_add_test(t, fence_waits_for_stores_then_its_latency);
    tcase_add_test(t, run_ahead_changes_nothing);
    tcase_add_test(t, executor_scans_change_nothing);
    tcase_add_test(t, pooled_registers_start_clean);
    tcase_add_test(t, shared_memory_is_counted_per_kernel);
    tcase_add_test(t, deep_calls_outgrow_lent_storage);
    tcase_add_test(t, host_threads_pin_and_unpin);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
