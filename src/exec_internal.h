/* exec_internal.h — what exec.c (control flow, memory) and exec_ops.c (the
 * per-opcode handlers) share.  Not for use outside the executor.
 */
#ifndef WARPSIM_EXEC_INTERNAL_H
#define WARPSIM_EXEC_INTERNAL_H

#include <fenv.h>
#include <string.h>

#include "errors.h"
#include "fpconv.h"
#include "exec.h"
#include "memory.h"

typedef struct ExecCtx ExecCtx;
typedef bool (*OpHandler)(ExecCtx *x);

/* What a step needs to know of an instruction beyond its text, worked out
 * once by exec_plan_new so that step_one does no per-step decoding. */
enum {
    STEP_CONTROL = 1,      /* may change masks, paths or frames, or block the warp */
    STEP_BRANCH = 2,       /* bra: counted in the branch statistics */
    STEP_STORE = 4,        /* st, atom, red: a memory write (hang detection), unless
                              the atomic sets ExecCtx.wrote_nothing */
    STEP_GLOBAL_STORE = 8, /* ... that may reach global memory */
};

typedef struct {
    OpHandler handler;     /* fast form, else exec_handlers[op] */
    /* Operand i's 32 lanes: fixed[i] when set (an immediate broadcast once
     * into the plan, zeros for a non-value), else the frame's registers
     * from lane value row_at[i] on (its register's row, Cfg.slot_of times
     * WARP_SIZE, worked out here rather than looked up at every step).
     * rows_only is false when some operand needs work per step (special
     * register, symbol address, negated predicate): then the general
     * resolver runs. */
    const uint64_t *fixed[INSN_MAX_OPERANDS];
    uint32_t row_at[INSN_MAX_OPERANDS];
    uint32_t block;        /* basic block this instruction begins, NO_INDEX if none */
    /* Instructions from this one on that execute one after the other
     * whatever they compute: none is control (STEP_CONTROL) and none after
     * the first begins a block, so no reconvergence point (always a
     * block's first instruction) lies among them and the warp's stack only
     * sees its pc advance (run_steps runs them without settling). */
    uint16_t straight;
    uint8_t traits;        /* STEP_* */
    bool rows_only;
    bool fast;             /* handler is a fast form (exec_fast.c), not exec_handlers[op] */
} InsnPlan;

/* STEP_* of an instruction (also for runs without a plan). */
uint8_t exec_insn_traits(const Insn *in);

/* Everything a handler needs for one warp instruction. */
struct ExecCtx {
    Warp *w;
    Cta *cta;
    Frame *fr;
    uint64_t *regs;            /* fr->regs */
    const uint32_t *slot_of;   /* fr->slot_of */
    const Module *m;
    const Function *fn;
    const Insn *in;
    uint32_t func;     /* function index of the instruction (x->fr may move on a call) */
    uint32_t pc;
    uint32_t live;     /* the warp's live lanes before the instruction */
    uint32_t active;   /* lanes on the current path */
    uint32_t exec;     /* active lanes whose guard holds */
    uint32_t next_pc;  /* handlers that redirect control set this */
    /* Source operands as 32-lane vectors, resolved once per instruction
     * (operands_resolve): a register points into the frame, anything else
     * is a row the plan built once (immediates) or is expanded into
     * per-step scratch (special register, symbol address, negated
     * predicate).  Kinds that are not values read
     * as zeros, as opd_value reads them. */
    const uint64_t *v[INSN_MAX_OPERANDS];
    /* Set instead of v, to the instruction's plan, when a fast form runs
     * with every operand a register or a fixed row (InsnPlan.rows_only):
     * the form takes the rows it reads from the plan (src_lanes), and no
     * step fills v for operands nobody reads.  NULL: v is filled. */
    const InsnPlan *ip;
    const InsnPlan *insns;     /* the plan of this function, NULL: none */
    bool fast_forms;           /* run the plan's handlers (no checks asked) */
    uint64_t *insn_counts;     /* this function's LaunchStats.insn_warp_count, or NULL */
    uint64_t *block_visits;    /* its block_visits and block_divergent, or NULL */
    uint64_t *block_divergent;
    uint64_t *block_splits;    /* its block_splits, or NULL */
    bool diverged;
    bool blocked;
    /* set by an atomic that left every byte it touched as it was (a
     * compare-and-swap that failed, an exchange with the value there):
     * not a write to the hang detector, which a spin lock must not fool */
    bool wrote_nothing;
    GError **error;
};

/* Operand i's 32 lanes as the plan places them: its fixed row, else its
 * register's row in the current frame (InsnPlan.rows_only instructions). */
static inline const uint64_t *plan_row(const ExecCtx *x, const InsnPlan *ip, uint32_t i)
{
    return ip->fixed[i] ? ip->fixed[i] : x->regs + ip->row_at[i];
}

/* x->v for an instruction whose operands are all registers or fixed rows
 * of its plan (InsnPlan.rows_only): no per-step fill. */
static inline void plan_operands(ExecCtx *x, const InsnPlan *ip)
{
    for (uint32_t i = 0; i < x->in->nopd; i++)
        x->v[i] = plan_row(x, ip, i);
}

/* Directed rounding for one float operation; the default (.rn) leaves the
 * environment alone so the common path costs nothing. */
static inline int round_enter(int rnd)
{
    int old = fegetround();
    switch (rnd) {
    case RND_RZ: fesetround(FE_TOWARDZERO); break;
    case RND_RM: fesetround(FE_DOWNWARD); break;
    case RND_RP: fesetround(FE_UPWARD); break;
    default: break;
    }
    return old;
}

static inline void round_leave(int rnd, int old)
{
    if (rnd == RND_RZ || rnd == RND_RM || rnd == RND_RP)
        fesetround(old);
}

/* iterate over the set bits of a lane mask */
#define FOR_LANES(mask, lane) \
    for (uint32_t _m = (mask), lane; _m && ((lane = (uint32_t)__builtin_ctz(_m)), 1); _m &= _m - 1)

/* The 32 lanes of register reg in the current frame (ctx_set_frame keeps
 * the frame's rows and layout at hand: this is the hottest lookup). */
static inline uint64_t *ctx_row(const ExecCtx *x, uint32_t reg)
{
    return x->regs + (size_t)x->slot_of[reg] * WARP_SIZE;
}
static inline uint64_t *reg_slot(const ExecCtx *x, uint32_t reg, uint32_t lane)
{
    return ctx_row(x, reg) + lane;
}
static inline void ctx_set_frame(ExecCtx *x, Frame *f)
{
    x->fr = f;
    x->regs = f->regs;
    x->slot_of = f->slot_of;
}

/* bit helpers */
static inline uint64_t width_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
}
/* The `size` bytes at p as a register value, sign-extended when sgn. */
static inline uint64_t load_bits(const uint8_t *p, unsigned size, bool sgn)
{
    uint64_t v = 0;
    memcpy(&v, p, size);
    return sgn ? (uint64_t)fp_sext(v, size * 8) : v;
}

/* The warp's access log (Warp.mem_log) with `lanes` and the access's kind
 * noted, for the caller to fill in those lanes' addresses; NULL when
 * nobody keeps a log. */
static inline WarpAccess *access_log(const ExecCtx *x, uint32_t lanes, uint32_t size, PtxSpace space, bool write)
{
    WarpAccess *log = x->w->mem_log;
    if (log) {
        log->mask |= lanes;
        log->size = size;
        log->space = (uint8_t)space;
        log->write = write;
        log->scanned = false; /* the lanes' addresses are about to change */
    }
    return log;
}

/* Operand access (exec.c).  opd_value returns the raw bits of a source
 * operand for one lane; callers interpret them at their type. */
uint64_t opd_value(ExecCtx *x, const Operand *o, uint32_t lane);
/* Store bits into a destination register, keeping the low `bytes` bytes. */
static inline void reg_write(ExecCtx *x, uint32_t reg, uint32_t lane, uint64_t bits, unsigned bytes)
{
    if (reg != NO_INDEX)
        *reg_slot(x, reg, lane) = bits & width_mask(bytes * 8);
}
/* Lane `lane`'s bytes of .param variable v as frame fr sees it: a kernel
 * parameter lives in the launch's buffer (one copy for every lane,
 * read-only), any other one in the frame's per-lane area. */
static inline uint8_t *param_var_bytes(const ExecCtx *x, const Frame *fr, const Variable *v, uint32_t lane)
{
    if (v->scope == VAR_KERNEL_PARAM)
        return (uint8_t *)x->cta->spec->params + v->offset;
    return fr->params + (size_t)lane * fr->param_stride + v->offset;
}
/* Address of a memory operand for one lane, in the instruction's space. */
uint64_t opd_address(ExecCtx *x, const Operand *o, uint32_t lane);
/* Whether [reg + imm] is computed in 32 bits: under .address_size 32, or
 * when the base register itself is 32 bits wide (nvcc forms shared
 * addresses as 32-bit sums that may wrap, e.g. `array - 64*tid` plus an
 * offset that brings it back in range). */
static inline bool exec_address_wraps(const ExecCtx *x, uint32_t reg)
{
    return x->m->address_size == 32 ||
           isa_type_size(g_array_index(x->fn->regs, RegInfo, reg).type) <= 4;
}
/* Host pointer for an access of `size` bytes at addr in `space` by lane, or
 * NULL after setting a WS_ERR_FAULT error (out of bounds, misaligned, write
 * to read-only); when the launch keeps going past faults, a scratch buffer
 * instead (reads zeros, writes go nowhere).  For .param accesses through a frame variable, `o` gives
 * the operand (may be NULL otherwise). */
uint8_t *mem_access(ExecCtx *x, PtxSpace space, const Operand *o, uint64_t addr, uint32_t size,
                    uint32_t lane, bool write);
/* Address of a symbol operand in its own state space (mov r, sym). */
uint64_t symbol_address(ExecCtx *x, uint32_t sym, uint32_t lane);

bool exec_fault(ExecCtx *x, uint32_t lane, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* A fault the launch may survive (memcheck, racecheck, initcheck): with the
 * launch's fault log (--keep-going) it is recorded and true returned, so
 * execution goes on; else it stops the launch like exec_fault. */
bool exec_report(ExecCtx *x, uint32_t lane, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* control-flow handlers live in exec.c beside the stack they manipulate */
bool exec_BRA(ExecCtx *x);
bool exec_CALL(ExecCtx *x);
bool exec_RET(ExecCtx *x);
bool exec_EXIT(ExecCtx *x);
bool exec_TRAP(ExecCtx *x);
bool exec_BAR(ExecCtx *x);
bool exec_BARRIER(ExecCtx *x);

extern const OpHandler exec_handlers[OP_COUNT];

/* The handler bound to each instruction before the launch: a fast form of
 * exec_fast.c where one applies, else exec_handlers[op]. */
struct ExecPlan {
    InsnPlan **by_func;  /* per function, per instruction */
    uint32_t nfuncs;
    GPtrArray *rows;     /* owned: the 32-lane rows that InsnPlan.fixed point to */
};

#endif
