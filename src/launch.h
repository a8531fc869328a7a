/* launch.h — loading a module onto the simulated device and running kernels.
 *
 * Contract:
 *   image_load()   allocates the module's .global variables in global memory
 *                  and builds its .const bank (initialisers applied);
 *   launch_run()   runs one kernel over a grid, functionally, CTA by CTA,
 *                  and fills LaunchStats.  A kernel fault stops the launch
 *                  with a WS_ERR_FAULT error naming thread, block, address,
 *                  space and PTX line; global memory then holds whatever the
 *                  kernel wrote before the fault, and the process is healthy.
 * The caller owns the GlobalMemory, the Module and the image; the image only
 * borrows the first two.
 */
#ifndef WARPSIM_LAUNCH_H
#define WARPSIM_LAUNCH_H

#include <glib.h>
#include <stdint.h>

#include "config.h"
#include "faultlog.h"
#include "memory.h"
#include "module.h"

typedef struct {
    uint32_t x, y, z;
} Dim3;

typedef struct ExecPlan ExecPlan;
struct ExecObserver; /* exec.h */

typedef struct {
    const Module *module;   /* borrowed */
    ExecPlan *plan;         /* owned: each instruction's handler (exec.h) */
    GlobalMemory *gmem;     /* borrowed */
    uint64_t *var_addr;     /* per module variable: address of a .global (global
                               address) or .const (offset in const bank); 0 otherwise */
    uint8_t *const_bank;    /* owned */
    uint64_t const_size;
    /* cooperative launches (LaunchSpec.cooperative) of this image, one at a
     * time: the grid workspace this_grid().sync() counts arrivals in, whose
     * address %envreg1 (high half) and %envreg2 (low half) give, as the CUDA
     * driver does; and the CTAs of the running launch, which cta_init joins
     * and cta_release leaves (the hang check looks at all of them) */
    uint64_t grid_workspace;    /* global address; 0 until a cooperative launch needs it */
    uint32_t coop_gridid;       /* %gridid of the launch the workspace was set up for */
    GPtrArray *coop_ctas;       /* struct Cta *, borrowed; NULL until needed */
    guint coop_hint;            /* where the hang check last found a warp that can go on */
} ModuleImage;

ModuleImage *image_load(const Module *m, GlobalMemory *g, GError **error);
void image_free(ModuleImage *img);
/* Host view of a module-scope .global/.const variable's bytes, NULL if the
 * variable is of another space.  *size receives its size. */
uint8_t *image_var_bytes(ModuleImage *img, uint32_t var, uint64_t *size);

typedef struct {
    uint32_t kernel;        /* function index of the .entry */
    Dim3 grid, block;
    uint32_t dynamic_shared_bytes;
    const uint8_t *params;  /* the kernel's parameter buffer, laid out by the
                               param variables' offsets (Function.frame_param_bytes long) */
    uint32_t gridid;        /* %gridid: launch sequence number */
    uint32_t nsm;           /* %nsmid; CTAs get %smid = ctaid_linear % nsm */
    uint64_t max_instructions; /* warp-instruction budget, 0 = unlimited */
    uint32_t host_threads;  /* host threads that may simulate the launch (0, 1:
                               this one); the results never depend on it */
    bool lockstep;          /* timing model: every SM cycle by cycle on this thread,
                               the reference order its quanta reproduce (slower) */
    uint64_t cta_first;     /* run only CTAs cta_first .. cta_first + cta_count - 1 */
    uint64_t cta_count;     /* (linear ids, x fastest); 0 = through the last CTA */
    uint32_t checks;        /* LAUNCH_CHECK_*: opt-in run-time checks */
    uint64_t max_cycles;    /* timing model: cycle budget, 0 = unlimited */
    FaultLog *fault_log;    /* borrowed; when set (--keep-going), memcheck, racecheck
                               and initcheck faults are recorded here and the launch
                               goes on; else the first fault stops it */
    const GpuConfig *gpu;   /* borrowed; the GPU whose launch limits apply (threads,
                               shared memory, registers per block), NULL: CUDA's
                               generic ones */
    uint32_t regs_per_thread; /* for the register limit with gpu */
    const struct ExecObserver *observer; /* borrowed; NULL: none.  Hears each step
                               of the warps it selects (exec.h; warpsim trace) */
    struct HostPool *pool;  /* borrowed; the host threads of the launches of a run
                               (hostpool.h).  NULL: the launch makes its own */
    struct TimingKeep *timing_keep; /* borrowed; timed launches of a run keep their
                               host state in it (timing.h). NULL: each makes its own */
    bool cooperative;       /* cudaLaunchCooperativeKernel: every CTA of the grid is
                               resident at once (with gpu, the grid must fit: blocks per
                               SM x SMs), this_grid().sync() finds its workspace, and a
                               CTA may wait for another; the functional run interleaves
                               all CTAs' warps on one host thread (launch_run) */
} LaunchSpec;

/* Opt-in checks of shared-memory use (like compute-sanitizer's tools):
 * racecheck reports two warps of a CTA touching a byte of shared memory
 * between the same two barriers when one of them writes it; initcheck a
 * read of a shared byte no thread of the CTA wrote, or a global byte that
 * neither the host (gmem_track_writes) nor a thread wrote. */
enum {
    LAUNCH_CHECK_RACE = 1u << 0,
    LAUNCH_CHECK_INIT = 1u << 1,
};

/* Functional counts of one launch.  Per-block arrays are indexed by function
 * then basic block (Cfg numbering). */
typedef struct {
    uint64_t warp_insts;        /* smsp__inst_executed.sum */
    uint64_t thread_insts;      /* smsp__thread_inst_executed.sum: lanes active on the path */
    uint64_t thread_insts_pred_on; /* smsp__thread_inst_executed_pred_on.sum: active and guard true */
    uint64_t branches;          /* warp-level branch instructions executed */
    uint64_t divergent_branches;/* of those, how many split the warp */
    uint64_t ctas, warps, threads;
    uint32_t nfuncs;
    uint64_t **block_visits;    /* tau: warp entries into each basic block */
    uint64_t **block_divergent; /* delta: entries with some live lanes elsewhere */
    uint64_t **block_splits;    /* branches ending the block that split the warp */
    uint64_t **insn_warp_count; /* per instruction: warp executions */
} LaunchStats;

void launch_stats_init(LaunchStats *s, const Module *m);
void launch_stats_clear(LaunchStats *s);
/* Adds every count of `from` to `into`; both were initialised for module m. */
void launch_stats_add(LaunchStats *into, const LaunchStats *from, const Module *m);

/* The cores this process may run on (its CPU affinity, which taskset and
 * container limits narrow; GLib's g_get_num_processors() counts the whole
 * machine): the default number of host threads. */
uint32_t launch_host_cores(void);

/* A thread that works beside its creator, which goes on working: runs
 * fn(data) on a new thread, and returns once that thread has started and
 * moved off the creator's CPU (its allowed CPUs left as they were).
 * Linux starts a thread on its creator's CPU, and on a 2-vCPU KVM guest
 * it stayed there until the busy creator's time slice ended, 1-3 ms later
 * (measured): the creator yields until the thread has left. */
GThread *launch_host_thread_new(const char *name, GThreadFunc fn, gpointer data);

/* The threads of one launch that spin-wait for each other, each held on a
 * CPU of its own while they work.  On a 2-vCPU KVM guest Linux now and
 * then moved the creator onto its busy worker's CPU (5 of 72 instrumented
 * timed launches, in bursts; none once pinned): the worker then got the
 * CPU only when the creator yielded, and ran next to nothing.
 * launch_host_pins_new(n) pins the calling thread to the CPU it runs on
 * and picks n - 1 other allowed CPUs for threads 1 .. n - 1; NULL where
 * the process may not use n CPUs or the host cannot pin (then nobody is
 * pinned).  Thread k calls launch_host_pin(p, k) on itself;
 * launch_host_pins_free(p) gives the creator its CPUs back (the pinned
 * threads must have ended).  Results never depend on it. */
typedef struct HostPins HostPins;
HostPins *launch_host_pins_new(uint32_t nthreads);
void launch_host_pin(const HostPins *p, uint32_t k);
void launch_host_pins_free(HostPins *p);

/* Functional execution of a whole launch.  With spec->host_threads > 1 the
 * CTAs run on several threads when they may run apart
 * (launch_ctas_run_apart); outputs and statistics are the same as on one
 * thread.  On a fault the error of the lowest-numbered faulting CTA is
 * reported. */
bool launch_run(ModuleImage *img, const LaunchSpec *spec, LaunchStats *stats, GError **error);

/* A launch's CTAs shared out among threads, for launches whose CTAs may
 * run apart (launch_ctas_run_apart): launch_share_new() starts `helpers`
 * threads taking CTAs one at a time (fewer when there are fewer CTAs); the
 * caller, free to do other work meanwhile, then joins them with
 * launch_share_join(), which takes the CTAs left until none is, waits for
 * the helpers, adds every thread's statistics to `stats`, frees the share
 * and reports the fault of the lowest-numbered faulting CTA.  Results are
 * launch_run()'s. */
typedef struct LaunchShare LaunchShare;
LaunchShare *launch_share_new(ModuleImage *img, const LaunchSpec *spec, uint32_t helpers, GError **error);
bool launch_share_join(LaunchShare *sh, LaunchStats *stats, GError **error);

/* The functions a launch of `kernel` can execute, a flag per function of
 * the module (g_free it): the kernel and everything it calls, directly or
 * through calls it makes.  An indirect call could reach any defined
 * function, so it marks them all and sets *indirect. */
gboolean *launch_kernel_functions(const Module *m, uint32_t kernel, bool *indirect);

/* True when the kernel's CTAs can run in any order with the same results:
 * no global atomics or reductions, no strong (volatile, or relaxed, acquire
 * or release at gpu or system scope) global or generic loads and stores,
 * no fences at gpu or system scope, no calls to built-ins with side effects
 * in order (printf, malloc), no indirect calls.  Plain global stores from
 * different CTAs to the same word are a data race in CUDA; warpsim does not
 * order them: launch_ctas_run_apart() also asks cta_overlap.h whether
 * the launch's plain accesses can meet. */
bool launch_ctas_independent(const Module *m, uint32_t kernel);

/* True when something in the launch can tell the order its accesses
 * execute in, even with independent CTAs: the run-time checks and the
 * fault log of --keep-going report them as they happen, and a cooperative
 * grid's CTAs wait for each other.  Work is only moved in time (CTAs on
 * other threads, accesses ahead of their issue) where nothing does. */
static inline bool launch_order_watched(const LaunchSpec *spec)
{
    return spec->checks || spec->fault_log || spec->cooperative;
}

/* True when the launch's CTAs may run apart (on several host threads, or
 * each SM of the timing model a quantum ahead of the others) with the
 * results of the reference order: the CTAs are independent, no CTA
 * writes global bytes another reads or writes (cta_overlap.h: bfs's
 * frontier test reads costs other CTAs of the launch set), no
 * instruction budget must stop the launch at one issued instruction, and
 * nothing tells the order of different CTAs' accesses.  Global initcheck
 * does (it notes which bytes any thread wrote, so a read of another CTA's
 * output is reported or not by which ran first), as do a cooperative
 * grid's waits; racecheck and shared initcheck look within a CTA, and
 * faults are reported in launch order whenever they happen.  Otherwise the
 * CTAs keep the reference order: one after another (launch_run), the SMs
 * in lockstep (timing). */
bool launch_ctas_run_apart(const ModuleImage *img, const LaunchSpec *spec);
/* Why they may not, as a sentence (with the PTX line where one
 * instruction is the reason), for reports; NULL when they may.  g_free it. */
char *launch_in_order_reason(const ModuleImage *img, const LaunchSpec *spec);

/* The linear CTA ids a spec selects: [*first, *end).  Linear ids number
 * CTAs x fastest, then y, then z (launch order). */
void launch_cta_range(const LaunchSpec *spec, uint64_t *first, uint64_t *end);
Dim3 launch_cta_id(const LaunchSpec *spec, uint64_t linear);
uint64_t launch_cta_linear(const LaunchSpec *spec, Dim3 id);

struct Cta;
/* Cooperative launches: cta_init of a CTA of a cooperative launch joins it
 * to the image's running grid (the first CTA of a launch zeroes the grid
 * workspace, allocating it once per image); cta_release leaves.  Both are
 * for exec.c.  Fails only when the workspace cannot be allocated. */
bool launch_coop_join(ModuleImage *img, const LaunchSpec *spec, struct Cta *cta, GError **error);
void launch_coop_leave(ModuleImage *img, struct Cta *cta);
/* Bytes of a grid workspace.  A fresh one holds the 32-bit words an H200's
 * driver puts there: this size, the arrival counter (0), 1, 0. */
#define GRID_WORKSPACE_BYTES 16u

/* Counts a CTA that ran (ctas, warps, threads); stats may be NULL. */
void launch_stats_count_cta(LaunchStats *stats, const struct Cta *cta);
/* The error of a launch that ran past spec->max_instructions, with each
 * warp of the CTA that went over; returns false. */
bool launch_budget_exhausted(const struct Cta *cta, uint64_t budget, GError **error);

/* What launch_run and the timing model share: validates the launch shape
 * (CUDA's limits) and lays out shared memory — *shared_offset (g_free it)
 * holds each module variable's offset, *shared_size the bytes per CTA. */
bool launch_prepare(const Module *m, const LaunchSpec *spec, uint64_t **shared_offset,
                    uint32_t *shared_size, GError **error);
struct Cta;
/* Appends one line per unfinished warp of the CTA: state, pc, line, mask. */
void launch_describe_warps(GString *s, const struct Cta *cta);

/* Pack one kernel argument into a parameter buffer: value holds the bits
 * (little-endian, low `size` bytes used). */
bool launch_pack_param(const Module *m, uint32_t kernel, uint32_t index, uint64_t value,
                       uint8_t *params, GError **error);

#endif
