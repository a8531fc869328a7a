/* cudart_internal.h — the simulated device behind the CUDA runtime API.
 *
 * Contract: one CudartDevice per process holds everything the API calls
 * share: the GPU configuration, the global memory every registered module
 * lives in, the registered kernels and variables, user allocations, streams,
 * events, the error state, the simulated device clock and the profile.
 * Every exported function takes the lock with cudart_enter() and releases it
 * with cudart_leave(), which records a failure as the last error.
 *
 * Execution is synchronous: a kernel runs to completion inside the launch
 * call, so streams only order nothing and events read the simulated clock.
 */
#ifndef WARPSIM_CUDART_INTERNAL_H
#define WARPSIM_CUDART_INTERNAL_H

#include <glib.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "launch.h"
#include "memory.h"
#include "module.h"
#include "timing.h"
#include "cudart_abi.h"

typedef struct {
    void *handle_slot;      /* first field: __cudaRegisterFatBinary returns &handle_slot */
    const void *wrapper;    /* what the program registered */
    Module *module;         /* NULL when the fat binary could not be loaded */
    ModuleImage *image;
    cudaError_t load_error; /* why module is NULL */
} CudartModule;

typedef struct {
    char *name;             /* the .entry's (mangled) name */
    char *display_name;     /* demangled, made on first use; NULL until then */
    CudartModule *mod;
    uint32_t kernel;        /* function index, NO_INDEX when the module lacks it */
    uint32_t regs;          /* cfg_estimate_registers */
    uint32_t max_dynamic_smem; /* cudaFuncAttributeMaxDynamicSharedMemorySize, */
    bool max_dynamic_smem_set; /* once set (else 48 KiB less static shared memory) */
    bool unsupported_reported; /* its PTX uses an instruction warpsim lacks: said once */
    /* profile: summed over launches */
    uint64_t calls, warp_insts;
    double sim_ns;
} CudartKernel;

typedef struct {
    char *name;
    CudartModule *mod;
    uint32_t var;           /* module variable, NO_INDEX when absent */
    size_t size;            /* as registered */
    uint64_t managed_addr;  /* __managed__: its storage, host and device address alike; else 0 */
    uint64_t const_shadow;  /* __constant__ whose address was asked for: its global-memory
                               mirror (symbol_api.c); else 0 */
} CudartSymbol;

/* ALLOC_REGISTERED: the program's own memory (cudaHostRegister), mapped
 * where it lies; unregistering unmaps it and frees nothing. */
typedef enum { ALLOC_DEVICE, ALLOC_MANAGED, ALLOC_HOST, ALLOC_REGISTERED } CudartAllocKind;

typedef struct {
    CudartAllocKind kind;
    uint64_t size;
    unsigned flags;         /* host: cudaHostAlloc's flags (cudaHostGetFlags);
                               registered: cudaHostRegister's flags;
                               device: CUDART_ALLOC_FROM_POOL or 0 */
    /* managed-memory advice and prefetching, as cudaMemRangeGetAttribute
     * reports them: cudaMemLocation {type, id}, type 0 when none */
    bool read_mostly;
    int preferred_type, preferred_id;
    int prefetch_type, prefetch_id;
} CudartAlloc;

#define CUDART_ALLOC_FROM_POOL 1u  /* cudaMallocAsync: counted in the pool's usage */
#define CUDART_ALLOC_GRAPH 2u      /* a graph's allocation (memory node, captured cudaMallocAsync) */

typedef struct CudartCapture CudartCapture;

#define CUDART_STREAM_ATTR_BYTES 64 /* union cudaLaunchAttributeValue */

typedef struct {
    int magic;              /* validates a handle the program passes back */
    unsigned flags;
    int priority;           /* as created, clamped to the device's range */
    CudartCapture *capture; /* the capture this stream records into, else NULL (graph_api.c) */
    GPtrArray *capture_deps; /* while capturing: the nodes the stream's next node depends on */
    int sync_policy;        /* cudaStreamAttributeSynchronizationPolicy, as set (0: never set) */
    unsigned char access_policy[CUDART_STREAM_ATTR_BYTES]; /* the access-policy window, as set */
} CudartStream;

/* Stream priorities: lower numbers are higher priority (CUDA's range on
 * Hopper).  Accepted and reported; work runs in issue order regardless. */
#define CUDART_PRIORITY_LEAST    0
#define CUDART_PRIORITY_GREATEST (-5)

/* cudaLimit values the device keeps (cudaDeviceSetLimit/GetLimit). */
#define CUDART_LIMIT_COUNT 7

typedef struct {
    int magic;
    unsigned flags;
    bool recorded;
    double at_ns;           /* simulated clock when recorded */
    CudartCapture *capture; /* recorded in a capturing stream: that capture, else NULL */
    GPtrArray *capture_deps; /* then: the nodes a stream waiting on it depends on */
} CudartEvent;

#define CUDART_STREAM_MAGIC 0x57535452
#define CUDART_EVENT_MAGIC  0x57534556

typedef struct {
    dim3 grid, block;
    size_t shared_mem;
    cudaStream_t stream;
} CudartCallConfig;

/* The process's device.  Process-global because the CUDA runtime API is:
 * its functions take no context argument, and nvcc's generated constructors
 * register modules before main() runs. */
typedef struct {
    GMutex lock;
    bool initialised;
    cudaError_t init_error;     /* the configuration could not be loaded */
    int abi_release;            /* 12 or 13: the CUDA release whose libcudart
                                   soname the program linked (device_state.c) */
    GpuConfig *gpu;
    bool functional;
    bool ptx_order;             /* WARPSIM_ISSUE_ORDER=ptx: modules not list-scheduled (schedule.h) */
    uint32_t host_threads;
    uint64_t max_instructions;  /* WARPSIM_MAX_INSTRUCTIONS: each launch's budget, 0 = none */
    uint64_t max_cycles;        /* WARPSIM_MAX_CYCLES: each timed launch's, 0 = none */
    struct HostPool *pool;      /* the launches' host threads (hostpool.h), owned */
    int owner_pid;              /* the process that set the device up (at_exit) */
    TimingKeep *timing_keep;    /* what timed launches keep between them (timing.h), owned */
    char *report_path;          /* WARPSIM_REPORT */
    bool summary;               /* WARPSIM_SUMMARY */
    GlobalMemory *gmem;
    GPtrArray *modules;         /* CudartModule*, owned */
    GHashTable *kernels;        /* host stub -> CudartKernel* (owned) */
    GHashTable *symbols;        /* host shadow -> CudartSymbol* (owned) */
    GHashTable *managed_vars;   /* a __managed__ variable's address -> CudartSymbol* (borrowed) */
    GPtrArray *const_shadows;   /* CudartSymbol* (borrowed) with a const_shadow */
    GHashTable *allocs;         /* base address -> CudartAlloc* (owned) */
    GHashTable *streams;        /* CudartStream* set (owned) */
    GHashTable *events;         /* CudartEvent* set (owned) */
    GHashTable *warned;         /* names of unsupported functions already reported */
    GHashTable *graphs;         /* CudartGraph* set (graph_api.c; freed by cudart_graphs_release) */
    GHashTable *graph_nodes;    /* CudartGraphNode* set: every node of every live graph */
    GHashTable *graph_execs;    /* CudartGraphExec* set */
    GPtrArray *captures;        /* CudartCapture*, active (owned) */
    CudartStream per_thread_stream; /* cudaStreamPerThread's capture state (one per process) */
    uint64_t capture_serial;
    uint64_t graph_mem_high;    /* graph memory's high-water mark (cudaGraphMemAttrUsedMemHigh) */
    cudaError_t sticky_error;   /* a kernel fault: every later call fails */
    uint32_t device_flags;
    size_t limits[CUDART_LIMIT_COUNT]; /* cudaLimit -> value */
    uint64_t pool_release_threshold;   /* the default memory pool's attributes */
    uint64_t pool_used_high;
    int pool_reuse[3];                 /* cudaMemPoolReuse* (attributes 1..3) */
    uint64_t alloc_serial;
    uint32_t gridid;
    double clock_ns;            /* the simulated device clock */
    json_t *report;             /* per-launch profile entries */
    GPtrArray *kernel_order;    /* CudartKernel*, in order of first launch */
} CudartDevice;

/* What the CUDA runtime keeps per host thread: a <<<>>> launch's
 * configuration (pushed and popped by the same thread, so two threads
 * launching at once never take each other's), the last error, and the
 * capture interaction mode.  Created on first use, freed at thread exit. */
typedef struct {
    GArray *call_configs;       /* CudartCallConfig stack: <<<>>> push/pop */
    cudaError_t last_error;     /* cudaGetLastError returns and clears it */
    int capture_mode;           /* cudaThreadExchangeStreamCaptureMode's */
} CudartThread;

/* The calling thread's state. */
CudartThread *cudart_thread(void);

/* Locks the device (initialising it on first use). */
CudartDevice *cudart_enter(void);
/* Records err (unless success) as the last error, unlocks, returns err. */
cudaError_t cudart_leave(CudartDevice *d, cudaError_t err);
/* The error a call returns when the device is unusable, else cudaSuccess. */
cudaError_t cudart_unusable(const CudartDevice *d);

/* One line on stderr, prefixed "warpsim: " (messages already carrying an
 * "error:" are printed as they are). */
void cudart_message(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* Simulated time of moving `bytes` between host and device (PCIe-like). */
double cudart_copy_ns(const CudartDevice *d, uint64_t bytes, bool host_side);


/* Host pointer for [p, p+n) of device memory, NULL when it is not a device range. */
uint8_t *cudart_device_bytes(CudartDevice *d, const void *p, uint64_t n);

/* Profile: one launch done.  A launch that faulted comes with `fault` and
 * the counts of what ran before it (timing NULL when functional). */
void cudart_profile_launch(CudartDevice *d, CudartKernel *k, Dim3 grid, Dim3 block, const LaunchStats *ls,
                           const TimingStats *ts, double sim_ns, const char *fault);
/* At exit: writes the report and prints the summary table as asked. */
void cudart_profile_finish(CudartDevice *d);

/* The default streams or one cudaStreamCreate made. */
bool cudart_stream_ok(CudartDevice *d, cudaStream_t s);

/* __constant__ variables' global mirrors (symbol_api.c): the host side of
 * a mirror's range is the constant bytes themselves (NULL when addr is in
 * no mirror); around a launch the mirrors are refreshed from the constant
 * bank and written back after it. */
uint8_t *cudart_const_shadow_bytes(CudartDevice *d, uint64_t addr, uint64_t n);
void cudart_const_shadows_sync(CudartDevice *d, bool before_launch);

/* Registry lookups (registry.c).  A symbol is its host shadow or, for a
 * __managed__ variable, also its storage address (what `&var` gives host
 * code, which reaches the variable through a pointer nvcc generates). */
CudartKernel *cudart_kernel_for(CudartDevice *d, const void *host_fn);
CudartSymbol *cudart_symbol_for(CudartDevice *d, const void *host_var);
/* The kernel's demangled name for people (the summary table), owned by the
 * kernel; its PTX name when it is not a mangled C++ name. */
const char *cudart_kernel_display_name(CudartKernel *k);

/* module_link.c: the PTX modules of a -rdc=true program's n translation
 * units as one Module named `path` (references to .extern functions and
 * variables resolved to the unit that defines them).  The units are left
 * empty shells: module_free them.  NULL with error when they do not fit. */
Module *cudart_link_modules(Module **units, guint n, const char *path, GError **error);

/* Frees every user allocation, stream and event (cudaDeviceReset). */
void cudart_release_user_state(CudartDevice *d);

/* ------------------------------------------------ work as data (graphs)
 * One unit of stream work, as a graph node holds it and a graph launch
 * replays it: stream capture records these instead of doing the work. */
typedef enum {
    CUDART_OP_KERNEL, CUDART_OP_COPY, CUDART_OP_FILL, CUDART_OP_HOST, CUDART_OP_EVENT_RECORD,
    CUDART_OP_EVENT_WAIT, CUDART_OP_EMPTY, CUDART_OP_CHILD, CUDART_OP_MEM_ALLOC, CUDART_OP_MEM_FREE,
} CudartOpKind;

/* A 3D copy between linear memories: each side's first byte and its row
 * and slice strides; width in bytes. */
typedef struct {
    uint8_t *dst;
    const uint8_t *src;
    size_t dpitch, dslice, spitch, sslice;
    size_t width, height, depth;
    enum cudaMemcpyKind kind;
} CudartCopy;

/* A 2D fill of 1-, 2- or 4-byte elements; width in elements. */
typedef struct {
    uint8_t *dst;
    size_t pitch;
    unsigned value, elem_size;
    size_t width, height;
} CudartFill;

typedef struct CudartGraph CudartGraph;

typedef struct {
    CudartOpKind kind;
    union {
        struct {
            CudartKernel *k;
            const void *func;       /* the host stub the program named */
            dim3 grid, block;
            unsigned smem;
            uint8_t *params;        /* the packed .param frame (owned) */
            size_t param_bytes;
            bool cooperative;       /* LaunchSpec.cooperative (cooperative_api.c) */
        } kernel;
        CudartCopy copy;
        CudartFill fill;
        struct { void (*fn)(void *); void *data; } host;
        cudaEvent_t event;
        CudartGraph *child;         /* borrowed from the node that owns it */
        void *ptr;                  /* memory alloc / free nodes */
    } u;
} CudartOp;

/* launch_api.c: checks the kernel can run (CUDA's launch-time checks)
 * and packs args (one pointer per parameter) into its .param frame. */
cudaError_t cudart_kernel_op(CudartDevice *d, CudartKernel *k, const void *func, dim3 grid, dim3 block,
                             size_t smem, void **args, CudartOp *op);
/* launch_api.c: every kernel launch (<<<>>>, cudaLaunchKernel[Ex],
 * cudaLaunchCooperativeKernel): CUDA's checks, then the kernel op run now
 * or captured.  A cooperative one (cudaLaunchAttributeCooperative) must
 * pass cudart_cooperative_fits and runs with LaunchSpec.cooperative. */
cudaError_t cudart_launch(CudartDevice *d, CudartKernel *k, const void *func, dim3 grid, dim3 block, void **args,
                          size_t smem, cudaStream_t stream, bool cooperative);
/* cooperative_api.c: cudaSuccess when the whole grid can be resident at
 * once, else cudaErrorCooperativeLaunchTooLarge (named on stderr). */
cudaError_t cudart_cooperative_fits(CudartDevice *d, CudartKernel *k, dim3 grid, dim3 block, size_t smem);
/* Runs one op now (the lock held; a host function runs with it released). */
cudaError_t cudart_run_op(CudartDevice *d, const CudartOp *op);
void cudart_op_copy(CudartOp *to, const CudartOp *from);
void cudart_op_clear(CudartOp *op);

/* memory_api.c: copies and fills as ops run them. */
cudaError_t cudart_copy_3d(CudartDevice *d, const CudartCopy *c);
cudaError_t cudart_fill_2d(CudartDevice *d, const CudartFill *f);
/* Device memory for a graph's memory node (CUDART_ALLOC_GRAPH). */
cudaError_t cudart_graph_alloc(CudartDevice *d, void **ptr, size_t size);
/* A cudaMemcpy3DParms (linear memory only) as a copy op. */
cudaError_t cudart_copy_from_parms(const struct cudaMemcpy3DParms *p, CudartOp *op);

/* graph_api.c: stream capture.  cudart_capture_begin_op says what a call
 * issuing work to `stream` does: *record is set when the stream is
 * capturing (the caller then builds the op and hands it to
 * cudart_capture_add, which takes it over); an error when the work may not
 * be issued now (legacy-stream work during a global capture, which also
 * invalidates that capture). */
cudaError_t cudart_capture_begin_op(CudartDevice *d, cudaStream_t stream, bool *record);
cudaError_t cudart_capture_add(CudartDevice *d, cudaStream_t stream, CudartOp *op);
/* A synchronising call (stream/device synchronize, query) on something
 * capturing: cudaErrorStreamCaptureUnsupported, and the capture is
 * invalidated; else cudaSuccess.  stream NULL with `device` for the
 * device-wide calls. */
cudaError_t cudart_capture_sync_check(CudartDevice *d, cudaStream_t stream, bool device);
/* Events in capture (stream_event_api.c): recording in a capturing stream
 * marks the event (false: the stream is not capturing, record as usual);
 * waiting on a marked event joins the stream to that capture. */
bool cudart_capture_event_record(CudartDevice *d, cudaStream_t stream, CudartEvent *e);
cudaError_t cudart_capture_event_wait(CudartDevice *d, cudaStream_t stream, CudartEvent *e);
/* cudaDeviceReset: every graph, executable graph and capture goes. */
void cudart_graphs_release(CudartDevice *d);
void cudart_stream_forget_capture(CudartDevice *d, CudartStream *s);

#endif
