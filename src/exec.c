/* exec.c — one warp instruction at a time: fetch, guard, dispatch, and the
 * reconvergence stack, calls, barriers and memory addressing that the
 * per-opcode handlers (exec_ops.c) rely on.
 */
#include "exec_internal.h"

#include <stdarg.h>
#include <stdio.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "builtins.h"
#include "cfg.h"
#include "hostmem.h"

#define MAX_CALL_DEPTH 1024
#define MAX_LOCAL_PER_THREAD (LOCAL_WINDOW_BASE - CONST_WINDOW_BASE) /* window size bound */

/* ------------------------------------------------------------------ */
/* lanes, thread indices, faults                                        */

void warp_lane_tid(const Warp *w, uint32_t lane, Dim3 *tid)
{
    const Dim3 b = w->cta->spec->block;
    uint32_t t = w->index * WARP_SIZE + lane;
    tid->x = t % b.x;
    tid->y = (t / b.x) % b.y;
    tid->z = t / (b.x * b.y);
}

static const char *insn_where(const ExecCtx *x, char *buf, size_t n)
{
    snprintf(buf, n, "%s:%u", x->m->path, x->in->line);
    return buf;
}

/* The full text of a fault: where, what, and by which thread. */
static char *fault_text(const ExecCtx *x, uint32_t lane, const char *fmt, va_list ap)
{
    char *what = g_strdup_vprintf(fmt, ap);
    Dim3 tid;
    warp_lane_tid(x->w, lane, &tid);
    char where[512];
    char *insn = insn_to_string(x->m, x->fn, x->in);
    /* the CUDA source line too, when the PTX has line info (nvcc -lineinfo, -G) */
    const char *src = insn_source_file(x->m, x->in);
    char *source = src ? g_strdup_printf(",\n  from %s:%u", src, x->in->src_line) : g_strdup("");
    char *text = g_strdup_printf("%s: error: %s\n  by thread (%u,%u,%u) in block (%u,%u,%u), warp %u lane %u, "
                                 "function %s, executing `%s`%s",
                                 insn_where(x, where, sizeof where), what, tid.x, tid.y, tid.z, x->cta->ctaid.x,
                                 x->cta->ctaid.y, x->cta->ctaid.z, x->w->index, lane, x->fn->name, insn, source);
    g_free(source);
    g_free(insn);
    g_free(what);
    return text;
}

static bool fault_stop(ExecCtx *x, uint32_t lane, const char *fmt, va_list ap)
{
    char *text = fault_text(x, lane, fmt, ap);
    g_set_error_literal(x->error, WARPSIM_ERROR, WS_ERR_FAULT, text);
    g_free(text);
    return false;
}

bool exec_fault(ExecCtx *x, uint32_t lane, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fault_stop(x, lane, fmt, ap);
    va_end(ap);
    return false;
}

bool exec_report(ExecCtx *x, uint32_t lane, const char *fmt, ...)
{
    FaultLog *log = x->cta->spec->fault_log;
    va_list ap;
    va_start(ap, fmt);
    if (!log) {
        fault_stop(x, lane, fmt, ap);
        va_end(ap);
        return false;
    }
    FaultKey key = {.cta = launch_cta_linear(x->cta->spec, x->cta->ctaid), .step = x->w->steps,
                    .warp = x->w->index, .lane = lane};
    if (fault_log_count(log, &key))
        fault_log_add(log, &key, fault_text(x, lane, fmt, ap));
    va_end(ap);
    return true;
}

/* Where a faulting access goes when the launch keeps going: a load reads
 * zeros, a store is dropped. */
static uint8_t *discard(ExecCtx *x, uint32_t size)
{
    if (size > sizeof x->cta->discard)
        return NULL;
    memset(x->cta->discard, 0, sizeof x->cta->discard);
    return (uint8_t *)x->cta->discard;
}

/* ------------------------------------------------------------------ */
/* operands                                                             */

static uint32_t reserved_smem_at(uint32_t user_shared)
{
    return (user_shared + 127u) & ~127u;
}

uint32_t cta_shared_bytes(const Module *m, uint32_t shared)
{
    return m->reads_reserved_smem ? reserved_smem_at(shared) + RESERVED_SMEM_BYTES : shared;
}

static uint64_t sreg_value(ExecCtx *x, const Operand *o, uint32_t lane)
{
    const Cta *c = x->cta;
    const LaunchSpec *s = c->spec;
    Dim3 tid;
    uint32_t comp = o->component;
    switch ((PtxSreg)o->reg) {
    case SREG_TID:
        warp_lane_tid(x->w, lane, &tid);
        return comp == 0 ? tid.x : comp == 1 ? tid.y : tid.z;
    case SREG_NTID:
        return comp == 0 ? s->block.x : comp == 1 ? s->block.y : s->block.z;
    case SREG_CTAID:
    case SREG_CLUSTERID: /* clusters of one CTA */
        return comp == 0 ? c->ctaid.x : comp == 1 ? c->ctaid.y : c->ctaid.z;
    case SREG_NCTAID:
    case SREG_NCLUSTERID:
        return comp == 0 ? s->grid.x : comp == 1 ? s->grid.y : s->grid.z;
    case SREG_LANEID: return lane;
    case SREG_WARPID: return x->w->index;
    case SREG_NWARPID: return 64;
    case SREG_SMID: return c->smid;
    case SREG_NSMID: return s->nsm ? s->nsm : 1;
    case SREG_GRIDID: return s->gridid;
    case SREG_CLOCK: return (uint32_t)c->clock;
    case SREG_CLOCK_HI: return (uint32_t)(c->clock >> 32);
    case SREG_CLOCK64: return c->clock;
    case SREG_GLOBALTIMER: return c->clock;
    case SREG_GLOBALTIMER_LO: return (uint32_t)c->clock;
    case SREG_GLOBALTIMER_HI: return (uint32_t)(c->clock >> 32);
    case SREG_LANEMASK_EQ: return 1u << lane;
    case SREG_LANEMASK_LE: return (uint32_t)width_mask(lane + 1);
    case SREG_LANEMASK_LT: return (uint32_t)width_mask(lane);
    case SREG_LANEMASK_GE: return (uint32_t)~width_mask(lane);
    case SREG_LANEMASK_GT: return (uint32_t)~width_mask(lane + 1);
    case SREG_DYNAMIC_SMEM_SIZE: return s->dynamic_shared_bytes;
    case SREG_TOTAL_SMEM_SIZE: return c->user_shared;
    case SREG_ENVREG: /* the driver's grid workspace of a cooperative launch (launch.h) */
        if (!s->cooperative)
            return 0;
        return comp == 1 ? c->image->grid_workspace >> 32
               : comp == 2 ? (uint32_t)c->image->grid_workspace : 0;
    case SREG_CLUSTER_CTAID: return 0;
    case SREG_CLUSTER_NCTAID: return 1;
    case SREG_CLUSTER_CTARANK: return 0;
    case SREG_CLUSTER_NCTARANK: return 1;
    case SREG_IS_EXPLICIT_CLUSTER: return 0;
    case SREG_RESERVED_SMEM_BEGIN:
    case SREG_RESERVED_SMEM_0:
    case SREG_RESERVED_SMEM_1: return reserved_smem_at(c->user_shared);
    case SREG_RESERVED_SMEM_END: return reserved_smem_at(c->user_shared) + RESERVED_SMEM_END;
    case SREG_RESERVED_SMEM_CAP: return RESERVED_SMEM_BYTES;
    case SREG_COUNT: break;
    }
    return 0;
}

uint64_t symbol_address(ExecCtx *x, uint32_t sym, uint32_t lane)
{
    (void)lane;
    const Variable *v = module_var(x->m, sym);
    switch (v->space) {
    case SPACE_GLOBAL:
    case SPACE_CONST:
        return x->cta->image->var_addr[sym];
    case SPACE_SHARED:
        return x->cta->shared_offset[sym];
    case SPACE_LOCAL:
        return x->fr->local_base + v->offset;
    case SPACE_PARAM:
        return v->offset;
    default:
        return 0;
    }
}

uint64_t opd_value(ExecCtx *x, const Operand *o, uint32_t lane)
{
    switch ((OperandKind)o->kind) {
    case OPD_REG: {
        uint64_t v = *reg_slot(x, o->reg, lane);
        return o->negate ? !(v & 1) : v;
    }
    case OPD_IMM:
        return (uint64_t)o->imm;
    case OPD_SREG:
        return sreg_value(x, o, lane);
    case OPD_SYMBOL:
        if (o->func != NO_INDEX)
            return FUNC_ADDR_BASE + (uint64_t)o->func * FUNC_ADDR_STRIDE + (uint64_t)o->imm;
        return symbol_address(x, o->sym, lane) + (uint64_t)o->imm;
    default:
        return 0;
    }
}

static const uint64_t zero_lanes[WARP_SIZE];

/* special registers whose value differs between the lanes of a warp */
static bool sreg_per_lane(uint32_t sreg)
{
    switch ((PtxSreg)sreg) {
    case SREG_TID:
    case SREG_LANEID:
    case SREG_LANEMASK_EQ:
    case SREG_LANEMASK_LE:
    case SREG_LANEMASK_LT:
    case SREG_LANEMASK_GE:
    case SREG_LANEMASK_GT:
        return true;
    default:
        return false;
    }
}

/* One component of %tid for the 32 lanes, stepping through the block
 * instead of dividing per lane (warp_lane_tid's numbering). */
static void tid_lanes(const Warp *w, uint32_t comp, uint64_t *out)
{
    Dim3 t;
    warp_lane_tid(w, 0, &t);
    const Dim3 b = w->cta->spec->block;
    if (t.x + WARP_SIZE <= b.x) { /* the warp lies in one row of x: the usual case */
        /* loops without a choice inside, which the compiler vectorises */
        if (comp == 0) {
            for (uint32_t l = 0; l < WARP_SIZE; l++)
                out[l] = (uint64_t)t.x + l;
        } else {
            uint64_t same = comp == 1 ? t.y : t.z;
            for (uint32_t l = 0; l < WARP_SIZE; l++)
                out[l] = same;
        }
        return;
    }
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        out[l] = comp == 0 ? t.x : comp == 1 ? t.y : t.z;
        if (++t.x == b.x) {
            t.x = 0;
            if (++t.y == b.y) {
                t.y = 0;
                t.z++;
            }
        }
    }
}

static inline void operands_resolve(ExecCtx *x, uint64_t (*scratch)[WARP_SIZE])
{
    const Insn *in = x->in;
    for (uint32_t i = 0; i < in->nopd; i++) {
        const Operand *o = &in->opd[i];
        uint64_t *s = scratch[i];
        switch ((OperandKind)o->kind) {
        case OPD_REG:
            if (!o->negate) {
                x->v[i] = ctx_row(x, o->reg);
                continue;
            }
            for (uint32_t l = 0; l < WARP_SIZE; l++)
                s[l] = !(ctx_row(x, o->reg)[l] & 1);
            break;
        case OPD_IMM:
        case OPD_SYMBOL: {
            /* the same for every lane (a local symbol is the frame's base) */
            uint64_t val = opd_value(x, o, 0);
            for (uint32_t l = 0; l < WARP_SIZE; l++)
                s[l] = val;
            break;
        }
        case OPD_SREG:
            if (o->reg == SREG_TID) {
                tid_lanes(x->w, o->component, s);
                break;
            }
            if (sreg_per_lane(o->reg)) {
                for (uint32_t l = 0; l < WARP_SIZE; l++)
                    s[l] = sreg_value(x, o, l);
            } else {
                uint64_t val = sreg_value(x, o, 0);
                for (uint32_t l = 0; l < WARP_SIZE; l++)
                    s[l] = val;
            }
            break;
        default:
            x->v[i] = zero_lanes;
            continue;
        }
        x->v[i] = s;
    }
}

uint64_t opd_address(ExecCtx *x, const Operand *o, uint32_t lane)
{
    uint64_t base = 0;
    if (o->reg != NO_INDEX)
        base = *reg_slot(x, o->reg, lane);
    else if (o->sym != NO_INDEX)
        base = symbol_address(x, o->sym, lane);
    uint64_t a = base + (uint64_t)o->imm;
    if (o->reg != NO_INDEX && exec_address_wraps(x, o->reg))
        a &= 0xFFFFFFFFull;
    return a;
}

/* ------------------------------------------------------------------ */
/* memory                                                               */

/* The warp is about to hold memory of its own (Cta.warps_own). */
static void warp_owns(Warp *w)
{
    w->cta->warps_own = true;
}

static bool local_ensure(ExecCtx *x, uint32_t need)
{
    Warp *w = x->w;
    if (need <= w->local_stride)
        return true;
    uint32_t stride = w->local_stride ? w->local_stride : 256;
    while (stride < need)
        stride *= 2;
    uint8_t *mem = g_try_malloc0((size_t)stride * WARP_SIZE);
    if (!mem)
        return exec_fault(x, 0, "cannot allocate %u bytes of local memory per thread", stride);
    warp_owns(w);
    for (uint32_t l = 0; l < WARP_SIZE && w->local; l++)
        memcpy(mem + (size_t)l * stride, w->local + (size_t)l * w->local_stride, w->local_stride);
    g_free(w->local);
    w->local = mem;
    w->local_stride = stride;
    return true;
}

static uint8_t *fault_out_of_bounds(ExecCtx *x, PtxSpace space, uint64_t addr, uint32_t size,
                                    uint32_t lane, bool write, const char *detail)
{
    if (exec_report(x, lane, "invalid %s %s of size %u at address 0x%" G_GINT64_MODIFIER "x%s%s",
                    isa_space_name(space), write ? "write" : "read", size, addr,
                    detail ? ": " : "", detail ? detail : ""))
        return discard(x, size);
    return NULL;
}

/* Read-modify-writes that the hardware makes atomic: atomics, reductions,
 * and the operations on an mbarrier after its initialisation (arrivals,
 * waits, transaction counts), through which warps synchronise. */
static bool is_atomic(const ExecCtx *x)
{
    switch (x->in->op) {
    case OP_ATOM:
    case OP_RED:
    case OP_MBARRIER_ARRIVE:
    case OP_MBARRIER_ARRIVE_DROP:
    case OP_MBARRIER_TEST_WAIT:
    case OP_MBARRIER_TRY_WAIT:
    case OP_MBARRIER_EXPECT_TX:
    case OP_MBARRIER_COMPLETE_TX:
    case OP_CP_ASYNC_MBARRIER_ARRIVE:
        return true;
    default:
        return false;
    }
}

/* initcheck on global memory: buffers the host left uninitialised track
 * which bytes the kernel has written (Allocation.written).  Atomics read
 * before they write. */
static bool global_init_check(ExecCtx *x, Allocation *a, uint64_t addr, uint32_t size, uint32_t lane,
                              bool write)
{
    uint8_t *w = a->written + (addr - a->base);
    if (!write || is_atomic(x)) {
        for (uint32_t i = 0; i < size; i++)
            if (!__atomic_load_n(&w[i], __ATOMIC_RELAXED)) {
                if (!exec_report(x, lane,
                                 "initcheck: read of uninitialised global memory at 0x%" G_GINT64_MODIFIER
                                 "x (%u bytes), %" G_GUINT64_FORMAT " bytes into '%s': neither the host "
                                 "nor a thread wrote byte 0x%" G_GINT64_MODIFIER "x",
                                 addr, size, addr - a->base, a->name, addr + i))
                    return false;
                break;
            }
    }
    if (write)
        for (uint32_t i = 0; i < size; i++)
            __atomic_store_n(&w[i], 1, __ATOMIC_RELAXED);
    return true;
}

static uint8_t *global_access(ExecCtx *x, uint64_t addr, uint32_t size, uint32_t lane, bool write)
{
    GlobalMemory *g = x->cta->image->gmem;
    Allocation *a = gmem_lookup(g, &x->cta->gmem_hint, addr, size);
    if (a) {
        if (write && a->read_only)
            return fault_out_of_bounds(x, SPACE_GLOBAL, addr, size, lane, write, "read-only");
        if (a->written && !global_init_check(x, a, addr, size, lane, write))
            return NULL;
        return a->data + (addr - a->base);
    }
    const Allocation *near = gmem_nearest(g, addr);
    char *detail = NULL;
    if (addr == 0)
        detail = g_strdup("null pointer");
    else if (near && addr >= near->base + near->size)
        detail = g_strdup_printf("%" G_GUINT64_FORMAT " bytes after the end of '%s' (%" G_GUINT64_FORMAT
                                 " bytes at 0x%" G_GINT64_MODIFIER "x)",
                                 addr - (near->base + near->size), near->name, near->size, near->base);
    else if (near && addr < near->base)
        detail = g_strdup_printf("%" G_GUINT64_FORMAT " bytes before '%s' (%" G_GUINT64_FORMAT
                                 " bytes at 0x%" G_GINT64_MODIFIER "x)",
                                 near->base - addr, near->name, near->size, near->base);
    else if (near)
        detail = g_strdup_printf("straddles the end of '%s'", near->name);
    uint8_t *p = fault_out_of_bounds(x, SPACE_GLOBAL, addr, size, lane, write, detail);
    g_free(detail);
    return p;
}

/* racecheck and initcheck on one lane's shared access (LaunchSpec.checks).
 * Hazards are between different warps only: a warp's lanes run in
 * lockstep.  Atomics never race with each other; against plain accesses
 * they count as a read and a write. */
static bool shared_check(ExecCtx *x, uint64_t addr, uint32_t size, uint32_t lane, bool write)
{
    Cta *c = x->cta;
    uint16_t me = (uint16_t)(x->w->index + 1);
    bool atomic = is_atomic(x);
    bool race = c->spec->checks & LAUNCH_CHECK_RACE, init = c->spec->checks & LAUNCH_CHECK_INIT;
    bool reported = false; /* one report per access; the shadow still records all of it */
    for (uint32_t i = 0; i < size; i++) {
        SharedShadow *s = &c->shadow[addr + i];
        const char *hazard = NULL, *did = "wrote";
        uint16_t other = 0;
        bool reads = !write || atomic, writes = write;
        if (!reported && init && reads && !s->write_epoch) {
            if (!exec_report(x, lane,
                             "initcheck: read of uninitialised shared memory at 0x%" G_GINT64_MODIFIER
                             "x (%u bytes): no thread of the block wrote byte 0x%" G_GINT64_MODIFIER "x",
                             addr, size, addr + i))
                return false;
            reported = true;
        }
        if (race && !atomic && s->write_epoch == c->epoch && s->writer != me) {
            hazard = writes ? "write-after-write" : "read-after-write";
            other = s->writer;
        } else if (race && !atomic && writes && s->read_epoch == c->epoch && s->reader != me) {
            hazard = "write-after-read";
            did = "read";
            other = s->reader;
        }
        if (hazard && !reported) {
            char who[48];
            if (other == SHADOW_MANY_READERS)
                g_snprintf(who, sizeof who, "other warps");
            else
                g_snprintf(who, sizeof who, "warp %u", other - 1u);
            if (!exec_report(x, lane,
                             "racecheck: %s hazard on shared memory at 0x%" G_GINT64_MODIFIER
                             "x (%u bytes): %s %s byte 0x%" G_GINT64_MODIFIER
                             "x in the same barrier interval (no barrier between the two accesses)",
                             hazard, addr, size, who, did, addr + i))
                return false;
            reported = true;
        }
        if (reads) {
            if (s->read_epoch != c->epoch) {
                s->read_epoch = c->epoch;
                s->reader = me;
            } else if (s->reader != me) {
                s->reader = SHADOW_MANY_READERS;
            }
        }
        if (writes) {
            s->write_epoch = c->epoch;
            s->writer = me;
        }
    }
    return true;
}

uint8_t *mem_access(ExecCtx *x, PtxSpace space, const Operand *o, uint64_t addr, uint32_t size,
                    uint32_t lane, bool write)
{
    if (size > 1 && (addr & (size - 1)) != 0) {
        if (exec_report(x, lane, "misaligned %s %s of size %u at address 0x%" G_GINT64_MODIFIER "x",
                        isa_space_name(space), write ? "write" : "read", size, addr))
            return discard(x, size);
        return NULL;
    }
    Cta *c = x->cta;
    if (space == SPACE_GENERIC) {
        if (addr >= SHARED_WINDOW_BASE && addr < GENERIC_WINDOWS_END) {
            space = SPACE_SHARED;
            addr -= SHARED_WINDOW_BASE;
        } else if (addr >= LOCAL_WINDOW_BASE && addr < SHARED_WINDOW_BASE) {
            space = SPACE_LOCAL;
            addr -= LOCAL_WINDOW_BASE;
        } else if (addr >= PARAM_WINDOW_BASE && addr < LOCAL_WINDOW_BASE) {
            space = SPACE_PARAM;
            addr -= PARAM_WINDOW_BASE;
            o = NULL;
        } else if (addr >= CONST_WINDOW_BASE && addr < PARAM_WINDOW_BASE) {
            space = SPACE_CONST;
            addr -= CONST_WINDOW_BASE;
        } else {
            space = SPACE_GLOBAL;
        }
    }
    WarpAccess *log = access_log(x, 1u << lane, size, space, write);
    if (log)
        log->addr[lane] = addr;
    switch (space) {
    case SPACE_GLOBAL:
        return global_access(x, addr, size, lane, write);
    case SPACE_SHARED:
        if (addr + size > c->shared_size || addr + size < addr)
            return fault_out_of_bounds(x, space, addr, size, lane, write,
                                       c->shared_size ? "outside the CTA's shared memory"
                                                      : "the CTA has no shared memory");
        if (c->shadow && !shared_check(x, addr, size, lane, write))
            return NULL;
        return c->shared + addr;
    case SPACE_LOCAL:
        if (addr + size > x->w->local_top || addr + size < addr)
            return fault_out_of_bounds(x, space, addr, size, lane, write,
                                       "outside the thread's local frames");
        if (!local_ensure(x, x->w->local_top))
            return NULL;
        return x->w->local + (size_t)lane * x->w->local_stride + addr;
    case SPACE_CONST:
        if (write)
            return fault_out_of_bounds(x, space, addr, size, lane, write, "constant memory is read-only");
        if (addr + size > c->image->const_size || addr + size < addr)
            return fault_out_of_bounds(x, space, addr, size, lane, write, "outside the constant bank");
        return c->image->const_bank + addr;
    case SPACE_PARAM: {
        const Variable *v = (o && o->sym != NO_INDEX) ? module_var(x->m, o->sym) : NULL;
        if (v && v->scope != VAR_KERNEL_PARAM) {
            /* a .func parameter or a call-site .param: this lane's frame */
            uint64_t off = (uint64_t)o->imm;
            if (off + size > v->size && !(v->size == 0))
                return fault_out_of_bounds(x, space, addr, size, lane, write, "outside the parameter");
            return param_var_bytes(x, x->fr, v, lane) + off;
        }
        const Function *k = module_func(x->m, c->spec->kernel);
        if (write)
            return fault_out_of_bounds(x, space, addr, size, lane, write, "kernel parameters are read-only");
        if (addr + size > k->frame_param_bytes || addr + size < addr)
            return fault_out_of_bounds(x, space, addr, size, lane, write, "outside the kernel parameters");
        return (uint8_t *)c->spec->params + addr;
    }
    default:
        return fault_out_of_bounds(x, space, addr, size, lane, write, "unsupported state space");
    }
}

/* ------------------------------------------------------------------ */
/* the reconvergence stack                                              */

/* Initial capacities: the reconvergence stack's entries and call frames. */
#define STACK_CAP0 16
#define FRAMES_CAP0 4

/* g_renew for a warp buffer that may be lent (cta_lend): a lent one is
 * copied into the warp's own allocation instead, `used` elements of it. */
static void *lent_renew(Warp *w, uint8_t which, void *p, size_t used, size_t n, size_t size)
{
    if (!(w->lent & which))
        return g_realloc_n(p, n, size);
    warp_owns(w);
    w->lent &= (uint8_t)~which;
    void *own = g_malloc_n(n, size);
    if (used)
        memcpy(own, p, used * size);
    return own;
}

static void stack_push(Warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->depth == w->stack_cap) {
        w->stack_cap = w->stack_cap ? w->stack_cap * 2 : STACK_CAP0;
        w->stack = lent_renew(w, WARP_LENT_STACK, w->stack, w->depth, w->stack_cap, sizeof *w->stack);
    }
    w->stack[w->depth++] = (StackEntry){pc, rpc, mask};
}

static Frame *top_frame(Warp *w) { return &w->frames[w->nframes - 1]; }

static void frame_release(Warp *w, Frame *f)
{
    /* the kernel frame's buffers belong to the warp, kept for reuse */
    if (f->regs != w->kernel_regs)
        g_free(f->regs);
    if (f->params != w->kernel_params)
        g_free(f->params);
    w->local_top = f->local_base;
}

/* Copy a callee's return values into the caller's destinations. */
static void copy_returns(const Module *m, Frame *callee, Frame *caller, uint32_t lanes)
{
    const Function *cf = module_func(m, caller->func);
    const Function *ef = module_func(m, callee->func);
    const Insn *call = func_insn(cf, callee->call_site);
    const CallSite *cs = &g_array_index(cf->calls, CallSite, call->call);
    uint32_t n = MIN(cs->nrets, ef->rets->len);
    for (uint32_t i = 0; i < n; i++) {
        const Variable *rv = module_var(m, g_array_index(ef->rets, uint32_t, i));
        FOR_LANES(lanes, l) {
            uint64_t val = 0;
            uint32_t size = (uint32_t)MIN(rv->size, 8u);
            const uint8_t *src = NULL;
            if (rv->space == SPACE_REG)
                val = frame_row(callee, (uint32_t)rv->offset)[l];
            else
                src = callee->params + (size_t)l * callee->param_stride + rv->offset;
            if (cs->rets[i] != NO_INDEX) {
                const Variable *dv = module_var(m, cs->rets[i]);
                uint8_t *dst = caller->params + (size_t)l * caller->param_stride + dv->offset;
                uint64_t bytes = MIN(dv->size, rv->size);
                if (src)
                    memcpy(dst, src, bytes);
                else
                    memcpy(dst, &val, MIN(bytes, 8u));
            } else if (cs->ret_opds[i].kind == OPD_REG) {
                if (src) {
                    val = 0;
                    memcpy(&val, src, size);
                }
                frame_row(caller, cs->ret_opds[i].reg)[l] = val;
            }
        }
    }
}

/* Pop finished paths: empty masks, reached joins, and frames whose lanes
 * have all returned.  Leaves the stack with a runnable top or empty. */
static void stack_settle(ExecCtx *x)
{
    Warp *w = x->w;
    for (;;) {
        if (w->nframes > 1 && w->depth == top_frame(w)->stack_base) {
            Frame *callee = top_frame(w);
            Frame *caller = &w->frames[w->nframes - 2];
            copy_returns(x->m, callee, caller, callee->lanes & w->live);
            frame_release(w, callee);
            w->nframes--;
            continue;
        }
        if (w->depth == 0)
            break;
        StackEntry *top = &w->stack[w->depth - 1];
        if (top->mask == 0 || top->pc == top->rpc) {
            w->depth--;
            continue;
        }
        break;
    }
}

/* Whether the instruction at target ends the threads that reach it: an
 * unguarded exit, or an unguarded ret of the kernel itself. */
static bool branch_exits(const ExecCtx *x, uint32_t target)
{
    if (target >= func_ninsns(x->fn))
        return false;
    const Insn *in = func_insn(x->fn, target);
    if (in->guard != NO_INDEX)
        return false;
    return in->op == OP_EXIT || (in->op == OP_RET && x->w->nframes == 1);
}

/* Remove lanes from every path at or above depth `from`. */
static void stack_remove_lanes(Warp *w, uint32_t from, uint32_t lanes)
{
    for (uint32_t i = from; i < w->depth; i++)
        w->stack[i].mask &= ~lanes;
}

/* A warp older than this many instructions has its loops watched, at
 * every HANG_CHECK_EVERY-th taken backward branch (the states seen there
 * repeat as soon as the states at every branch do, so sampling delays the
 * finding but never loses it, and a long legitimate loop pays 1/16 of a
 * state hash per iteration). */
#define HANG_CHECK_AFTER (1u << 17)
#define HANG_CHECK_EVERY 16

static inline uint64_t mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xFF51AFD7ED558CCDull;
}

/* Stores that could have changed what a warp of the CTA reads: its own
 * CTA's (shared memory included) and every global one. */
static uint64_t stores_seen(const Cta *c)
{
    return c->stores + gmem_stores(c->image->gmem);
}

/* A warp that may still change something: ready, and not known to repeat
 * itself since the last store it could see. */
static bool warp_may_progress(const Warp *o)
{
    return o->state == WARP_READY && !(o->cycling && o->cycling_stores == stores_seen(o->cta));
}

static bool cta_may_progress(const Cta *c)
{
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (warp_may_progress(&c->warps[i]))
            return true;
    return false;
}

/* Any CTA of the running cooperative launch, starting where one was found
 * last time (a grid of waiting CTAs is asked again and again while one
 * CTA works). */
static bool grid_may_progress(ModuleImage *img)
{
    guint n = img->coop_ctas->len;
    guint start = __atomic_load_n(&img->coop_hint, __ATOMIC_RELAXED);
    for (guint k = 0; k < n; k++) {
        guint i = (start + k) % n;
        if (cta_may_progress(g_ptr_array_index(img->coop_ctas, i))) {
            __atomic_store_n(&img->coop_hint, i, __ATOMIC_RELAXED);
            return true;
        }
    }
    return false;
}

/* Called at a taken backward branch.  When the warp's whole state (pc,
 * stack, frame, registers) is one it had before, and no thread wrote any
 * memory in between, the warp computes the same steps again forever: a
 * loop that can never end (a spin-wait on a flag nobody will set, or
 * `while (1)`).  Brent's algorithm: compare against a snapshot retaken at
 * power-of-two distances, so any cycle is found within twice its length.
 * States are compared by a 64-bit hash. */
static bool hang_check(ExecCtx *x, uint32_t target)
{
    Warp *w = x->w;
    uint64_t h = mix64(mix64(x->func, target), ((uint64_t)w->live << 32) | w->carry);
    h = mix64(h, w->nframes);
    for (uint32_t i = 0; i < w->depth; i++) {
        const StackEntry *e = &w->stack[i];
        h = mix64(h, ((uint64_t)e->pc << 32 | e->rpc) ^ ((uint64_t)e->mask << 17));
    }
    const uint64_t *r = x->regs;
    size_t n = (size_t)x->fn->cfg->nslots * WARP_SIZE;
    for (size_t i = 0; i < n; i++)
        h = mix64(h, r[i]);
    uint64_t stores = stores_seen(x->cta);
    if (w->snap_valid && w->snap_hash == h && w->snap_stores == stores) {
        /* the others may still write what it waits for: the loop is endless
         * once every unfinished warp of the CTA (of the grid, in a
         * cooperative launch) cycles or waits at a barrier, with still no
         * store */
        w->cycling = true;
        w->cycling_stores = stores;
        if (x->cta->coop_slot ? grid_may_progress(x->cta->image) : cta_may_progress(x->cta))
            return true;
        exec_fault(x, (uint32_t)__builtin_ctz(x->exec),
                   "hang: every unfinished warp of the %s loops back to a state it had before (pc, "
                   "reconvergence stack, registers) with no memory written by any thread in between, so "
                   "none of these loops can end (a spin-wait on a value nobody will change, or a loop "
                   "without an exit); this warp's loop:",
                   x->cta->coop_slot ? "cooperative grid not waiting at a barrier" : "block");
        if (x->error && *x->error) { /* followed by every warp's state */
            GString *s = g_string_new((*x->error)->message);
            /* lanes parked on a reconvergence stack while their warp's
             * others loop: this warp's, else the first such warp's (a lock
             * holder parked in one warp while whole warps spin for it) */
            uint32_t parked = w->live & ~x->active, looping = x->active;
            const Warp *holder = w;
            for (uint32_t i = 0; !parked && i < x->cta->nwarps; i++) {
                const Warp *o = &x->cta->warps[i];
                if (o == w || o->state == WARP_DONE || !o->depth)
                    continue;
                uint32_t top = o->stack[o->depth - 1].mask & o->live;
                if (o->live & ~top) {
                    parked = o->live & ~top;
                    looping = top;
                    holder = o;
                }
            }
            if (parked) {
                char which[32] = "this warp";
                if (holder != w)
                    g_snprintf(which, sizeof which, "warp %u", holder->index);
                g_string_append_printf(s,
                                       "\n  lanes 0x%08x of %s wait on its reconvergence stack until the "
                                       "looping lanes 0x%08x leave the loop: if those wait for a parked lane "
                                       "(a lock one lane of a warp holds while the others spin for it), the "
                                       "wait never ends under reconvergence stacks (pre-Volta scheduling, "
                                       "which warpsim models; GPUs since Volta schedule threads independently "
                                       "and finish it)",
                                       parked, which, looping);
            }
            launch_describe_warps(s, x->cta);
            g_free((*x->error)->message);
            (*x->error)->message = g_string_free(s, FALSE);
        }
        return false;
    }
    if (++w->loop_seen >= w->loop_power) {
        w->snap_hash = h;
        w->snap_stores = stores;
        w->snap_valid = true;
        w->loop_power *= 2;
        w->loop_seen = 0;
    }
    return true;
}

bool exec_BRA(ExecCtx *x)
{
    const Insn *in = x->in;
    uint32_t target = (uint32_t)in->opd[0].imm;
    uint32_t taken = x->exec, fall = x->active & ~x->exec;
    if (taken == 0)
        return true;
    if (fall == 0) {
        x->next_pc = target;
        if (target <= x->pc && x->w->steps > HANG_CHECK_AFTER && ++x->w->loop_branches % HANG_CHECK_EVERY == 0)
            return hang_check(x, target);
        return true;
    }
    /* bra.uni promises the lanes agree; a compiler that marks a divergent
     * branch uniform has a bug the hardware would not forgive */
    if ((in->flags & FL_UNI) &&
        !exec_report(x, (uint32_t)__builtin_ctz(fall),
                     "PTX contract violation: bra.uni whose active lanes disagree (lanes 0x%08x branch, "
                     "0x%08x fall through); a branch marked .uni must be taken by all or none",
                     taken, fall))
        return false;
    Warp *w = x->w;
    if (branch_exits(x, target)) {
        /* Lanes that branch straight to the thread's end leave here, as
         * the predicated EXIT that ptxas makes of such a branch does,
         * rather than wait at the join for the others: `if (i >= n)
         * return;` before a __syncthreads() then leaves the barrier to
         * the threads still running, as on the hardware.  The divergence
         * map still counts them as elsewhere (left_early), as the PTX
         * has them. */
        w->live &= ~taken;
        w->left_early |= taken;
        stack_remove_lanes(w, 0, taken);
        x->diverged = true;
        return true;
    }
    uint32_t join = x->fn->cfg->reconv_pc[x->pc];
    if (join == NO_INDEX)
        join = func_ninsns(x->fn);
    w->stack[w->depth - 1].pc = join;
    stack_push(w, x->pc + 1, join, fall);
    stack_push(w, target, join, taken);
    x->next_pc = NO_INDEX; /* the stack now says where each path goes */
    x->diverged = true;
    return true;
}

bool exec_EXIT(ExecCtx *x)
{
    Warp *w = x->w;
    w->live &= ~x->exec;
    stack_remove_lanes(w, 0, x->exec);
    if (x->exec == x->active)
        x->next_pc = NO_INDEX;
    return true;
}

bool exec_RET(ExecCtx *x)
{
    Warp *w = x->w;
    if (w->nframes == 1)
        return exec_EXIT(x);
    stack_remove_lanes(w, top_frame(w)->stack_base, x->exec);
    if (x->exec == x->active)
        x->next_pc = NO_INDEX;
    return true;
}

bool exec_TRAP(ExecCtx *x)
{
    if (x->exec == 0)
        return true;
    return exec_fault(x, (uint32_t)__builtin_ctz(x->exec), "trap instruction executed");
}

/* The callee of the lanes in x->exec.  An indirect call whose lanes hold
 * different targets calls one target at a time: the lanes of the first
 * target go now, the others wait on the stack to run the call again, and
 * everyone reconverges after it. */
static bool resolve_callee(ExecCtx *x, const CallSite *cs, uint32_t *callee)
{
    if (cs->callee != NO_INDEX) {
        *callee = cs->callee;
        return true;
    }
    uint32_t first = (uint32_t)__builtin_ctz(x->exec);
    uint64_t target = *reg_slot(x, cs->callee_reg, first);
    uint64_t idx = (target - FUNC_ADDR_BASE) / FUNC_ADDR_STRIDE;
    if (target < FUNC_ADDR_BASE || (target - FUNC_ADDR_BASE) % FUNC_ADDR_STRIDE ||
        idx >= x->m->funcs->len)
        return exec_fault(x, first, "indirect call to 0x%" G_GINT64_MODIFIER "x, which is not a function",
                          target);
    uint32_t same = 0;
    FOR_LANES(x->exec, l) {
        if (*reg_slot(x, cs->callee_reg, l) == target)
            same |= 1u << l;
    }
    if (same != x->exec) {
        Warp *w = x->w;
        w->stack[w->depth - 1].pc = x->pc + 1;
        stack_push(w, x->pc, x->pc + 1, x->exec & ~same);
        stack_push(w, x->pc + 1, x->pc + 1, same);
        x->exec = same;
        x->diverged = true;
    }
    *callee = (uint32_t)idx;
    return true;
}

bool exec_CALL(ExecCtx *x)
{
    if (x->exec == 0)
        return true;
    Warp *w = x->w;
    const CallSite *cs = &g_array_index(x->fn->calls, CallSite, x->in->call);
    uint32_t callee_index = 0;
    if (!resolve_callee(x, cs, &callee_index))
        return false;
    const Function *callee = module_func(x->m, callee_index);
    uint32_t first = (uint32_t)__builtin_ctz(x->exec);
    if (!callee->is_defined && !callee->is_entry) {
        bool handled;
        bool ok = builtin_call(x, callee, cs, &handled);
        if (handled)
            return ok;
    }
    if (!callee->is_defined || callee->is_entry)
        return exec_fault(x, first, "call to '%s', which has no body in this module", callee->name);
    if (w->nframes >= MAX_CALL_DEPTH)
        return exec_fault(x, first, "call stack overflow (%u nested calls)", w->nframes);
    if (w->nframes == w->frames_cap) {
        w->frames_cap *= 2;
        w->frames = lent_renew(w, WARP_LENT_FRAMES, w->frames, w->nframes, w->frames_cap, sizeof *w->frames);
        ctx_set_frame(x, top_frame(w));
    }
    Frame *caller = x->fr;
    Frame *f = &w->frames[w->nframes];
    *f = (Frame){0};
    f->func = callee_index;
    warp_owns(w);
    f->regs = g_new0(uint64_t, (size_t)callee->cfg->nslots * WARP_SIZE);
    f->slot_of = callee->cfg->slot_of;
    f->param_stride = (uint32_t)((callee->frame_param_bytes + 7) & ~7ull);
    f->params = f->param_stride ? g_malloc0((size_t)f->param_stride * WARP_SIZE) : NULL;
    f->local_base = (w->local_top + 15u) & ~15u;
    uint64_t local_end = f->local_base + callee->frame_local_bytes;
    if (local_end > 64u * 1024 * 1024) {
        frame_release(w, f);
        return exec_fault(x, first, "local memory stack exceeds 64 MiB per thread");
    }
    f->call_site = x->pc;
    f->lanes = x->exec;
    /* pass the arguments */
    uint32_t n = MIN(cs->nargs, callee->params->len);
    for (uint32_t i = 0; i < n; i++) {
        const Variable *pv = module_var(x->m, g_array_index(callee->params, uint32_t, i));
        FOR_LANES(x->exec, l) {
            /* an argument of any size (a struct by value is a .b8 array);
             * what it lacks of the parameter's size stays zero, as the
             * frame's parameters start */
            uint64_t value = 0, avail = sizeof value;
            const void *from = &value;
            if (cs->args[i] != NO_INDEX) {
                const Variable *av = module_var(x->m, cs->args[i]);
                from = param_var_bytes(x, caller, av, l);
                avail = av->size;
            } else {
                value = opd_value(x, &cs->arg_opds[i], l);
            }
            uint64_t bytes = MIN(pv->size, avail);
            if (pv->space == SPACE_REG) {
                uint64_t v = 0;
                memcpy(&v, from, MIN(bytes, 8u));
                frame_row(f, (uint32_t)pv->offset)[l] = v;
            } else {
                memcpy(param_var_bytes(x, f, pv, l), from, bytes);
            }
        }
    }
    w->local_top = (uint32_t)local_end;
    w->nframes++;
    /* the caller resumes after the call once every calling lane returned */
    w->stack[w->depth - 1].pc = x->pc + 1;
    f->stack_base = w->depth;
    stack_push(w, 0, RPC_NONE, x->exec);
    ctx_set_frame(x, f);
    x->next_pc = NO_INDEX;
    return true;
}

/* ------------------------------------------------------------------ */
/* barriers                                                             */

static bool barrier_arrive(ExecCtx *x, bool wait)
{
    const Insn *in = x->in;
    uint32_t lane = x->exec ? (uint32_t)__builtin_ctz(x->exec) : 0;
    uint32_t id = in->nopd > 0 ? (uint32_t)opd_value(x, &in->opd[in->mode == BAR_RED ? 1 : 0], lane) : 0;
    if (id >= MAX_BARRIERS)
        return exec_fault(x, lane, "barrier %u out of range (0..%d)", id, MAX_BARRIERS - 1);
    /* synccheck: bar.sync and barrier.sync.aligned promise that every
     * thread of the warp executes the same barrier instruction */
    if (insn_barrier_aligned(in) && x->exec != x->w->live) {
        uint32_t missing = x->w->live & ~x->exec;
        return exec_fault(x, lane,
                          "synccheck: barrier %u reached in divergent code: %u of the warp's %u live threads "
                          "execute it, lane %u does not (an aligned barrier needs the whole warp)",
                          id, lane_count(x->exec), lane_count(x->w->live), (uint32_t)__builtin_ctz(missing));
    }
    Barrier *b = &x->cta->barriers[id];
    uint32_t count_opd = in->mode == BAR_RED ? 2 : 1;
    if (insn_barrier_counted(in)) {
        uint32_t threads = (uint32_t)opd_value(x, &in->opd[count_opd], lane);
        if (threads % WARP_SIZE)
            return exec_fault(x, lane, "barrier thread count %u is not a multiple of the warp size", threads);
        b->expected = threads / WARP_SIZE;
    }
    if (in->mode == BAR_RED) {
        const Operand *p = &in->opd[in->nopd - 1];
        b->red_op = in->atom;
        FOR_LANES(x->exec, l) {
            uint32_t v = (uint32_t)(opd_value(x, p, l) & 1);
            b->red_popc += v;
            if (!v)
                b->red_and = 0;
            b->red_or |= v;
        }
        x->w->pending_red_dst = in->opd[0].reg;
        x->w->pending_red_type = in->type;
    }
    b->arrived++;
    if (wait) {
        x->w->state = WARP_AT_BARRIER;
        x->w->barrier_id = id;
        x->blocked = true;
    }
    cta_try_release_barriers(x->cta);
    return true;
}

/* synccheck for barrier.cluster.arrive/.wait (`what`): the .aligned form
 * needs the whole warp. */
static bool cluster_aligned_ok(ExecCtx *x, const char *what)
{
    if (!insn_barrier_aligned(x->in) || x->exec == x->w->live)
        return true;
    return exec_fault(x, (uint32_t)__builtin_ctz(x->exec), "synccheck: barrier.cluster.%s.aligned reached in "
                      "divergent code: %u of the warp's %u live threads execute it", what, lane_count(x->exec),
                      lane_count(x->w->live));
}

/* barrier.cluster.arrive: a warp has arrived once all its live lanes have
 * (the .aligned form: at once); a second arrival before a wait is an error. */
static bool cluster_arrive(ExecCtx *x)
{
    Warp *w = x->w;
    Cta *cta = x->cta;
    uint32_t lane = (uint32_t)__builtin_ctz(x->exec);
    if (!cluster_aligned_ok(x, "arrive"))
        return false;
    if (w->cluster_arrived_in || (w->cluster_lanes & x->exec))
        return exec_fault(x, lane, "barrier.cluster.arrive again before barrier.cluster.wait");
    w->cluster_lanes |= x->exec;
    if ((w->cluster_lanes & w->live) != w->live)
        return true;
    w->cluster_lanes = 0;
    w->cluster_arrived_in = cta->cluster_phase + 1;
    cta->cluster_arrived++;
    cta_try_release_barriers(cta);
    return true;
}

/* barrier.cluster.wait: on once the phase the warp arrived in completed. */
static bool cluster_wait(ExecCtx *x)
{
    Warp *w = x->w;
    uint32_t lane = (uint32_t)__builtin_ctz(x->exec);
    if (!cluster_aligned_ok(x, "wait"))
        return false;
    if (!w->cluster_arrived_in)
        return exec_fault(x, lane, "barrier.cluster.wait without a barrier.cluster.arrive of %s before it",
                          w->cluster_lanes ? "all the warp's live threads" : "the warp");
    if (x->cta->cluster_phase >= w->cluster_arrived_in) {
        w->cluster_arrived_in = 0;
        return true;
    }
    w->state = WARP_AT_BARRIER;
    w->barrier_id = CLUSTER_BARRIER;
    x->blocked = true;
    return true;
}

bool exec_BAR(ExecCtx *x)
{
    if (x->in->flags & FL_WARP)
        return true; /* bar.warp.sync: lanes of a warp execute together here */
    if (x->exec == 0)
        return true;
    if (x->in->scope == SCOPE_CLUSTER)
        return x->in->mode == BAR_ARRIVE ? cluster_arrive(x) : cluster_wait(x);
    return barrier_arrive(x, x->in->mode != BAR_ARRIVE);
}

bool exec_BARRIER(ExecCtx *x) { return exec_BAR(x); }

bool cta_try_release_barriers(Cta *cta)
{
    bool released = false;
    uint32_t live_warps = cta->nwarps - cta->done_warps;
    for (uint32_t id = 0; id < MAX_BARRIERS; id++) {
        Barrier *b = &cta->barriers[id];
        if (b->arrived == 0)
            continue;
        uint32_t need = b->expected ? b->expected : live_warps;
        if (b->arrived < need)
            continue;
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            Warp *w = &cta->warps[i];
            if (w->state != WARP_AT_BARRIER || w->barrier_id != id)
                continue;
            w->state = WARP_READY;
            if (w->pending_red_dst != NO_INDEX) {
                uint64_t v = b->red_op == ATOM_POPC ? b->red_popc
                           : b->red_op == ATOM_AND ? (b->red_and & 1) : (b->red_or & 1);
                Frame *f = &w->frames[w->nframes - 1];
                for (uint32_t l = 0; l < WARP_SIZE; l++)
                    frame_row(f, w->pending_red_dst)[l] = v;
                w->pending_red_dst = NO_INDEX;
            }
        }
        *b = (Barrier){.red_and = 1};
        cta->epoch++;
        released = true;
    }
    if (cta->cluster_arrived && cta->cluster_arrived >= live_warps) {
        cta->cluster_phase++;
        cta->cluster_arrived = 0;
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            Warp *w = &cta->warps[i];
            if (w->state == WARP_AT_BARRIER && w->barrier_id == CLUSTER_BARRIER) {
                w->state = WARP_READY;
                w->cluster_arrived_in = 0;
            }
        }
        released = true;
    }
    return released;
}

/* ------------------------------------------------------------------ */
/* CTA lifetime                                                         */

/* Free everything a warp owns. */
static void warp_free(Warp *w)
{
    while (w->nframes > 0)
        frame_release(w, &w->frames[--w->nframes]);
    if (!(w->lent & WARP_LENT_REGS)) {
        g_free(w->kernel_regs);
        g_free(w->kernel_params);
    }
    if (!(w->lent & WARP_LENT_FRAMES))
        g_free(w->frames);
    if (!(w->lent & WARP_LENT_STACK))
        g_free(w->stack);
    g_free(w->local);
}

/* Lane values of the kernel frame's register rows, and its per-lane
 * .param area's stride. */
static size_t kernel_regs_len(const Function *k)
{
    return (size_t)k->cfg->nslots * WARP_SIZE;
}

/* The kernel's own parameters are read from the launch's buffer; a lane's
 * area only serves the call argument blocks its body declares (laid out
 * after those parameters), so a kernel without any needs none. */
static uint32_t kernel_param_stride(const Function *k)
{
    return k->body_params ? (uint32_t)((k->frame_param_bytes + 7) & ~7ull) : 0;
}

/* Pieces of a lent store start on host cache lines, as the store does. */
static size_t lend_round(size_t n)
{
    return (n + HOST_CACHE_LINE - 1) & ~(size_t)(HOST_CACHE_LINE - 1);
}

/* The reconvergence-stack entries and frames lent to a warp of kernel k:
 * what it needs unless it nests divergence deeper than it has branches
 * (then the stack grows into the warp's own allocation, as any warp's
 * does).  Without calls: one frame, and Cfg.stack_entries.  Thousands of
 * warps are lent stores at once in timing mode, and the host first
 * touches them during the launch, so the usual capacities' unused bytes
 * (448 of a warp's 512, for a kernel with one bounds check) cost time. */
static uint32_t lend_stack_cap(const Function *k)
{
    return k->calls->len ? STACK_CAP0 : MIN(k->cfg->stack_entries, STACK_CAP0);
}

static uint32_t lend_frames_cap(const Function *k)
{
    return k->calls->len ? FRAMES_CAP0 : 1;
}

/* One warp's kernel registers as lent: in a store, or a pool's block. */
static size_t lend_regs_bytes(const Function *k)
{
    return lend_round(kernel_regs_len(k) * sizeof(uint64_t));
}

size_t warp_pooled_regs_bytes(const Function *k)
{
    return lend_regs_bytes(k);
}

/* One warp's share of a lent store: its stack, frames, registers, params. */
static size_t lend_warp_bytes(const Function *k, bool pooled)
{
    return lend_round(lend_stack_cap(k) * sizeof(StackEntry)) + lend_round(lend_frames_cap(k) * sizeof(Frame)) +
           (pooled ? 0 : lend_regs_bytes(k)) + lend_round((size_t)kernel_param_stride(k) * WARP_SIZE);
}

size_t cta_lend_bytes(const Function *k, uint32_t nwarps, bool pooled, uint32_t shared)
{
    return lend_round(MAX(shared, 1u)) + lend_round(nwarps * sizeof(Warp)) + nwarps * lend_warp_bytes(k, pooled);
}

void cta_lend(Cta *cta, const Function *k, uint32_t nwarps, void *store, bool pooled, uint32_t shared)
{
    uint8_t *p = store;
    cta->shared = p;
    cta->shared_cap = MAX(shared, 1u);
    cta->shared_lent = true;
    p += lend_round(cta->shared_cap);
    cta->warps = (Warp *)(void *)p;
    cta->warps_cap = nwarps;
    cta->warps_lent = true;
    p += lend_round(nwarps * sizeof(Warp));
    uint32_t stack_cap = lend_stack_cap(k), frames_cap = lend_frames_cap(k);
    for (uint32_t i = 0; i < nwarps; i++) {
        Warp *w = &cta->warps[i];
        w->lent = WARP_LENT_STACK | WARP_LENT_FRAMES | WARP_LENT_REGS | (pooled ? WARP_LENT_POOLED : 0);
        w->stack = (StackEntry *)(void *)p;
        w->stack_cap = stack_cap;
        p += lend_round(stack_cap * sizeof(StackEntry));
        w->frames = (Frame *)(void *)p;
        w->frames_cap = frames_cap;
        p += lend_round(frames_cap * sizeof(Frame));
        w->kernel_regs = pooled ? NULL : (uint64_t *)(void *)p;
        w->kernel_regs_len = kernel_regs_len(k);
        p += pooled ? 0 : lend_regs_bytes(k);
        w->kernel_params = p;
        w->kernel_params_len = (size_t)kernel_param_stride(k) * WARP_SIZE;
        p += lend_round(w->kernel_params_len);
    }
}

/* Kernel registers that held another warp's: the rows the kernel reads
 * before writing them (Cfg.entry_rows) start at 0, as in fresh storage;
 * what is left in the others cannot be read. */
static void clear_entry_rows(const Function *k, uint64_t *regs)
{
    for (uint32_t i = 0; i < k->cfg->nentry_rows; i++)
        memset(regs + (size_t)k->cfg->entry_rows[i] * WARP_SIZE, 0, WARP_SIZE * sizeof(uint64_t));
}

/* Make warp i of the CTA ready to start the kernel, reusing the buffers a
 * previous CTA left in *w (the allocations are what cost, not the zeroing). */
static void warp_start(Cta *cta, Warp *w, uint32_t i, const Function *k)
{
    while (w->nframes > 1) /* a warp stopped by a fault inside a call */
        frame_release(w, &w->frames[--w->nframes]);
    w->nframes = 0;
    w->cta = cta;
    w->index = i;
    uint32_t nlanes = MIN(WARP_SIZE, cta->nthreads - i * WARP_SIZE);
    w->live = (uint32_t)width_mask(nlanes);
    w->left_early = 0;
    w->state = WARP_READY;
    w->barrier_id = 0;
    w->cluster_lanes = w->cluster_arrived_in = 0;
    w->depth = 0;
    w->carry = 0;
    w->pending_red_dst = NO_INDEX;
    w->pending_red_type = 0;
    w->steps = 0;
    w->loop_branches = 0;
    w->loop_seen = 0;
    w->loop_power = 1;
    w->snap_valid = false;
    w->cycling = false;
    w->mem_log = NULL;
    if (!w->frames) {
        w->frames_cap = FRAMES_CAP0;
        w->frames = g_new0(Frame, w->frames_cap);
    }
    if (w->local)
        memset(w->local, 0, (size_t)w->local_stride * WARP_SIZE);
    size_t nregs = kernel_regs_len(k);
    uint32_t param_stride = kernel_param_stride(k);
    size_t nparams = (size_t)param_stride * WARP_SIZE;
    if ((w->lent & WARP_LENT_REGS) && (w->kernel_regs_len < nregs || w->kernel_params_len < nparams)) {
        /* another kernel than the one the storage was lent for */
        warp_owns(w);
        w->lent &= (uint8_t)~(WARP_LENT_REGS | WARP_LENT_POOLED);
        w->kernel_regs = NULL;
        w->kernel_params = NULL;
        w->kernel_regs_len = w->kernel_params_len = 0;
    }
    if (!w->kernel_regs && (w->lent & WARP_LENT_POOLED)) {
        /* registers come with warp_attach_regs() */
    } else if (w->kernel_regs_len < nregs) {
        g_free(w->kernel_regs);
        w->kernel_regs = g_new0(uint64_t, nregs);
        w->kernel_regs_len = nregs;
    } else {
        clear_entry_rows(k, w->kernel_regs);
    }
    if (w->kernel_params_len < nparams) {
        g_free(w->kernel_params);
        w->kernel_params = g_malloc0(nparams);
        w->kernel_params_len = nparams;
    } else if (nparams) {
        memset(w->kernel_params, 0, nparams);
    }
    w->nframes = 1;
    Frame *f = &w->frames[0];
    *f = (Frame){0};
    f->func = cta->spec->kernel;
    f->regs = w->kernel_regs;
    f->slot_of = k->cfg->slot_of;
    f->param_stride = param_stride;
    /* kernel parameters live in the launch's buffer; this per-lane area
     * holds the call-site .param variables declared in the body */
    f->params = param_stride ? w->kernel_params : NULL;
    f->local_base = 0;
    f->call_site = NO_INDEX;
    f->lanes = w->live;
    w->local_top = (uint32_t)k->frame_local_bytes;
    stack_push(w, 0, RPC_NONE, w->live);
}

void warp_attach_regs(Warp *w, uint64_t *regs)
{
    g_assert((w->lent & WARP_LENT_POOLED) && !w->kernel_regs && w->nframes == 1);
    const Function *k = module_func(w->cta->module, w->frames[0].func);
    w->kernel_regs = regs;
    clear_entry_rows(k, regs);
    w->frames[0].regs = regs;
}

/* Whether what the warp has left to execute reads and writes no register:
 * nothing, or one unguarded ret or exit of its kernel on its only path. */
static bool warp_done_with_regs(const Warp *w)
{
    if (w->state == WARP_DONE || w->depth == 0)
        return true;
    if (w->state != WARP_READY || w->depth != 1 || w->nframes != 1)
        return false;
    const Function *fn = module_func(w->cta->module, w->frames[0].func);
    uint32_t pc = w->stack[0].pc;
    return pc < func_ninsns(fn) && insn_ends_warp_alone(func_insn(fn, pc));
}

uint64_t *warp_detach_regs(Warp *w)
{
    g_assert(w->lent & WARP_LENT_POOLED);
    uint64_t *regs = w->kernel_regs;
    if (!regs || !warp_done_with_regs(w))
        return NULL;
    w->kernel_regs = NULL;
    if (w->nframes)
        w->frames[0].regs = NULL;
    return regs;
}

bool cta_init(Cta *cta, const Module *m, ModuleImage *img, const LaunchSpec *spec,
              const uint64_t *shared_offset, uint32_t shared_size, Dim3 ctaid,
              LaunchStats *stats, GError **error)
{
    if (cta->coop_slot) /* a CTA object reused for another launch */
        launch_coop_leave(cta->image, cta);
    Warp *warps = cta->warps;
    uint32_t warps_cap = cta->warps_cap;
    bool warps_lent = cta->warps_lent, warps_own = cta->warps_own;
    uint8_t *shared = cta->shared;
    uint32_t shared_cap = cta->shared_cap;
    bool shared_lent = cta->shared_lent;
    SharedShadow *shadow = cta->shadow;
    uint32_t shadow_cap = cta->shadow_cap;
    *cta = (Cta){0};
    cta->module = m;
    cta->image = img;
    cta->spec = spec;
    cta->stats = stats;
    cta->ctaid = ctaid;
    cta->shared_offset = shared_offset;
    cta->user_shared = shared_size;
    shared_size = cta_shared_bytes(m, shared_size);
    cta->shared_size = shared_size;
    if (shared && shared_cap >= MAX(shared_size, 1u)) {
        memset(shared, 0, shared_size);
    } else {
        if (!shared_lent)
            g_free(shared);
        shared_lent = false;
        shared_cap = MAX(shared_size, 1u);
        shared = g_malloc0(shared_cap);
    }
    cta->shared = shared;
    cta->shared_cap = shared_cap;
    cta->shared_lent = shared_lent;
    if ((spec->checks & (LAUNCH_CHECK_RACE | LAUNCH_CHECK_INIT)) && shared_size) {
        if (shadow_cap < shared_size) {
            g_free(shadow);
            shadow = g_new(SharedShadow, shared_size);
            shadow_cap = shared_size;
        }
        memset(shadow, 0, (size_t)shared_size * sizeof *shadow);
    }
    cta->shadow = shadow;
    cta->shadow_cap = shadow_cap;
    cta->epoch = 1;
    cta->nthreads = spec->block.x * spec->block.y * spec->block.z;
    cta->nwarps = (cta->nthreads + WARP_SIZE - 1) / WARP_SIZE;
    cta->smid = spec->nsm ? (uint32_t)(launch_cta_linear(spec, ctaid) % spec->nsm) : 0;
    if (!warps || warps_cap < cta->nwarps) {
        for (uint32_t i = 0; i < warps_cap; i++)
            warp_free(&warps[i]);
        if (!warps_lent)
            g_free(warps);
        warps_lent = warps_own = false;
        warps_cap = cta->nwarps;
        warps = g_new0(Warp, warps_cap);
    }
    cta->warps = warps;
    cta->warps_cap = warps_cap;
    cta->warps_lent = warps_lent;
    cta->warps_own = warps_own;
    for (uint32_t i = 0; i < MAX_BARRIERS; i++)
        cta->barriers[i].red_and = 1;
    const Function *k = module_func(m, spec->kernel);
    for (uint32_t i = 0; i < cta->nwarps; i++)
        warp_start(cta, &cta->warps[i], i, k);
    return !spec->cooperative || launch_coop_join(img, spec, cta, error);
}

void cta_release(Cta *cta)
{
    if (cta->coop_slot)
        launch_coop_leave(cta->image, cta);
    /* lent warps that took nothing of their own hold nothing to free (a
     * large grid's last CTAs: thousands of warps read for nothing) */
    for (uint32_t i = 0; (!cta->warps_lent || cta->warps_own) && i < cta->warps_cap; i++)
        warp_free(&cta->warps[i]);
    if (!cta->warps_lent)
        g_free(cta->warps);
    if (!cta->shared_lent)
        g_free(cta->shared);
    g_free(cta->shadow);
    *cta = (Cta){0};
}

/* ------------------------------------------------------------------ */
/* the step                                                             */

/* The basic block that instruction pc begins, NO_INDEX when it begins none
 * (InsnPlan.block, for runs without a plan). */
static uint32_t block_begun(const Function *fn, uint32_t pc)
{
    const struct Cfg *cfg = fn->cfg;
    if (cfg && cfg->block_of[pc] < cfg->nblocks && cfg->blocks[cfg->block_of[pc]].first == pc)
        return cfg->block_of[pc];
    return NO_INDEX;
}

/* A visit of `block` (NO_INDEX: none) by the instruction at pc, its first. */
static inline void count_block_visit(ExecCtx *x, uint32_t block, uint32_t pc)
{
    if (block != NO_INDEX && x->block_visits) {
        x->block_visits[block]++;
        /* lanes that left early are elsewhere until the block they left
         * for, the kernel's end, where the PTX would have them rejoin */
        uint32_t early = x->w->left_early;
        if (early && branch_exits(x, pc))
            early = 0;
        if (x->active != (x->live | early))
            x->block_divergent[block]++;
    }
}

/* The lanes of a mask, for the counts: full warps are the rule, and
 * skip the bit count. */
static inline uint32_t mask_lanes(uint32_t m)
{
    return m == FULL_MASK ? WARP_SIZE : lane_count(m);
}

/* The launch statistics of one step.  The per-function counters were
 * looked up when the frame was entered (ctx_enter_frame). */
static inline void count_step(ExecCtx *x, uint32_t block, uint8_t traits)
{
    LaunchStats *s = x->cta->stats;
    if (!s)
        return;
    s->warp_insts++;
    s->thread_insts += mask_lanes(x->active);
    s->thread_insts_pred_on += mask_lanes(x->exec);
    if (x->insn_counts)
        x->insn_counts[x->pc]++;
    count_block_visit(x, block, x->pc);
    if (traits & STEP_BRANCH) {
        s->branches++;
        if (x->diverged) {
            s->divergent_branches++;
            if (x->block_splits)
                x->block_splits[x->fn->cfg->block_of[x->pc]]++;
        }
    }
}

/* Settle the stack; a warp with no path left is done, which may complete a
 * barrier the others wait at.  Returns whether the warp has work left. */
static bool warp_settle(ExecCtx *x)
{
    Warp *w = x->w;
    stack_settle(x);
    if (w->depth > 0 && w->live != 0)
        return true;
    if (w->state != WARP_DONE) {
        w->state = WARP_DONE;
        w->cta->done_warps++;
        /* an exited thread is not waited for: nor is its arrival counted
         * among the live warps' */
        if (w->cluster_arrived_in == w->cta->cluster_phase + 1)
            w->cta->cluster_arrived--;
        cta_try_release_barriers(w->cta);
    }
    return false;
}

/* Point x at the warp's current frame and function (after a settle). */
static void ctx_enter_frame(ExecCtx *x)
{
    ctx_set_frame(x, top_frame(x->w));
    x->func = x->fr->func;
    x->fn = module_func(x->m, x->func);
    const ExecPlan *plan = x->cta->image->plan;
    x->insns = plan ? plan->by_func[x->func] : NULL;
    /* the checks sit in the general handlers' memory path */
    x->fast_forms = !x->cta->spec->checks;
    const LaunchStats *s = x->cta->stats;
    x->insn_counts = s && s->insn_warp_count ? s->insn_warp_count[x->func] : NULL;
    bool blocks = s && x->fn->cfg && s->block_visits && s->block_visits[x->func];
    x->block_visits = blocks ? s->block_visits[x->func] : NULL;
    x->block_divergent = blocks ? s->block_divergent[x->func] : NULL;
    x->block_splits = blocks ? s->block_splits[x->func] : NULL;
}

/* Bit l: bit 0 of lane l of a predicate row.  This file is built for the
 * baseline ISA, where the compiler leaves the plain loop scalar (28 % of
 * a divergent loop's step); SSE2, which every x86-64 has, takes four
 * lanes a movemask (two a movemask: dec2zero functional 4 % more host
 * instructions; that loop unrolled cost run_steps registers, ilp timing
 * +0.4 %). */
static inline uint32_t pred_mask(const uint64_t *p)
{
    uint32_t g = 0;
#ifdef __SSE2__
    for (uint32_t l = 0; l < WARP_SIZE; l += 4) {
        /* the low halves of four lanes, their bit 0 moved to the top */
        __m128 lo = _mm_shuffle_ps(_mm_loadu_ps((const float *)(const void *)(p + l)),
                                   _mm_loadu_ps((const float *)(const void *)(p + l + 2)), _MM_SHUFFLE(2, 0, 2, 0));
        g |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(lo), 31))) << l;
    }
#else
    for (uint32_t l = 0; l < WARP_SIZE; l++)
        g |= (uint32_t)(p[l] & 1) << l;
#endif
    return g;
}

/* The active lanes whose guard predicate holds. */
static inline uint32_t guard_lanes(const ExecCtx *x)
{
    uint32_t g = pred_mask(ctx_row(x, x->in->guard)) & x->active;
    return x->in->guard_negate ? x->active & ~g : g;
}

/* Execute instruction pc of the current frame (its plan ip, or NULL) on
 * the lanes x->active (x->live, x->diverged and x->blocked set), without
 * counting it in the statistics, and tell its STEP_* traits; the caller
 * moves the warp's stack on. */
static G_ALWAYS_INLINE inline bool step_exec(ExecCtx *x, uint32_t pc, const InsnPlan *ip, uint8_t *traits_out)
{
    Warp *w = x->w;
    x->pc = pc;
    x->in = func_insn(x->fn, pc);
    x->exec = x->active;
    if (x->in->guard != NO_INDEX)
        x->exec = guard_lanes(x);
    x->next_pc = pc + 1;
    uint64_t scratch[INSN_MAX_OPERANDS][WARP_SIZE];
    bool fast = ip && x->fast_forms && ip->fast;
    x->ip = NULL;
    if (fast && ip->rows_only)
        x->ip = ip; /* the form reads its rows from the plan */
    else if (ip && ip->rows_only)
        plan_operands(x, ip);
    else
        operands_resolve(x, scratch);
    w->cta->clock++;
    OpHandler handler = fast ? ip->handler : exec_handlers[x->in->op];
    if (!handler(x))
        return false;
    uint8_t traits = ip ? ip->traits : exec_insn_traits(x->in);
    *traits_out = traits;
    if (traits & STEP_STORE) {
        if (!x->wrote_nothing) {
            w->cta->stores++;
            if (traits & STEP_GLOBAL_STORE)
                gmem_count_store(w->cta->image->gmem, w->cta->host_thread);
        }
        x->wrote_nothing = false;
    }
    return true;
}

/* count_step's counts for the first `done` instructions of the stretch
 * from `first` (InsnPlan.straight), executed on x->active, `pred_on`
 * lanes of them with their guard holding: only the first can begin a
 * block, and none is a branch. */
static void count_stretch(ExecCtx *x, uint32_t first, uint32_t done, uint64_t pred_on)
{
    x->w->steps += done;
    LaunchStats *s = x->cta->stats;
    if (!s || !done)
        return;
    s->warp_insts += done;
    s->thread_insts += (uint64_t)done * mask_lanes(x->active);
    s->thread_insts_pred_on += pred_on;
    if (x->insn_counts)
        for (uint32_t pc = first; pc < first + done; pc++)
            x->insn_counts[pc]++;
    count_block_visit(x, x->insns[first].block, first);
}

/* Execute the instruction at the top of a settled, ready warp's stack.
 * Sets *settle when the stack may need settling before the next one. */
static bool step_one(ExecCtx *x, bool *settle)
{
    Warp *w = x->w;
    x->live = w->live;
    StackEntry *top = &w->stack[w->depth - 1];
    if (top->pc >= func_ninsns(x->fn)) {
        /* ran off the end of a function without ret/exit */
        x->pc = top->pc;
        x->in = func_insn(x->fn, func_ninsns(x->fn) - 1);
        return exec_fault(x, (uint32_t)__builtin_ctz(top->mask),
                          "execution ran past the last instruction of '%s'", x->fn->name);
    }
    x->active = top->mask;
    x->diverged = x->blocked = false;
    const InsnPlan *ip = x->insns ? &x->insns[top->pc] : NULL;
    uint8_t traits;
    if (!step_exec(x, top->pc, ip, &traits))
        return false;
    count_step(x, ip ? ip->block : block_begun(x->fn, x->pc), traits);
    w->steps++;
    *settle = (traits & STEP_CONTROL) || x->next_pc == NO_INDEX;
    if (x->next_pc != NO_INDEX) {
        /* the handler may have pushed a frame (call) — then it set NO_INDEX */
        StackEntry *t = &w->stack[w->depth - 1];
        t->pc = x->next_pc;
        *settle |= t->pc == t->rpc;
    }
    return true;
}

/* Tell the observer what the step did, the stack settled (ExecEvent). */
static bool observe_step(const ExecObserver *o, const ExecCtx *x, uint32_t live_before, uint64_t clock)
{
    ExecEvent ev = {.warp = x->w, .func = x->func, .pc = x->pc, .live_before = live_before,
                    .active = x->active, .exec = x->exec, .diverged = x->diverged,
                    .blocked = x->blocked, .clock = clock};
    return o->on_step(o->data, &ev, x->error);
}

bool warp_step(Warp *w, StepInfo *info, GError **error)
{
    ExecCtx x = {.w = w, .cta = w->cta, .m = w->cta->module, .error = error};
    ctx_set_frame(&x, top_frame(w));
    if (!warp_settle(&x)) {
        if (info)
            *info = (StepInfo){0};
        return true;
    }
    ctx_enter_frame(&x);
    const ExecObserver *obs = exec_observer_for(w);
    uint32_t live_before = w->live;
    uint64_t clock = w->cta->clock;
    if (obs && obs->on_before)
        obs->on_before(obs->data, w);
    bool settle;
    if (!step_one(&x, &settle))
        return false;
    if (info) {
        info->pc = x.pc;
        info->func = x.func;
        info->active = x.active;
        info->exec = x.exec;
        info->diverged = x.diverged;
        info->blocked = x.blocked;
    }
    warp_settle(&x);
    return !obs || observe_step(obs, &x, live_before, clock);
}

/* warp_run for an observed warp: one general step at a time. */
static bool run_observed(Warp *w, uint32_t max, uint32_t *executed, GError **error)
{
    uint32_t n = 0;
    bool ok = true;
    while (n < max && w->state == WARP_READY) {
        StepInfo info;
        ok = warp_step(w, &info, error);
        if (!ok || info.active == 0) /* a fault, or the warp had no path left */
            break;
        n++;
    }
    *executed = n;
    return ok;
}

/* Whether run-ahead may execute an instruction of kind `kind` (may_run),
 * `recorded` accesses recorded so far. */
static inline bool run_ahead_may_take(uint8_t kind, const AheadAccesses *accesses, uint32_t recorded)
{
    if (kind < RUN_AHEAD_ACCESS)
        return kind != RUN_AHEAD_NO;
    return accesses && (kind != RUN_AHEAD_RECORD || recorded < accesses->max_records);
}

/* The loops of warp_run and warp_run_ahead: straight-line instructions
 * back to back, the stack settled only after control flow.  With may_run,
 * it stops before an instruction not marked there and records each step. */
static bool run_steps(Warp *w, uint32_t max, const uint8_t *const *may_run, StepPos *steps, uint32_t *executed,
                      const AheadAccesses *accesses, GError **error)
{
    ExecCtx x = {.w = w, .cta = w->cta, .m = w->cta->module, .error = error};
    uint32_t n = 0, recorded = 0;
    bool settle = true, ok = true;
    uint8_t traits; /* step_exec's; a stretch's count in count_stretch, which needs none */
    while (n < max && w->state == WARP_READY) {
        if (settle) {
            ctx_set_frame(&x, top_frame(w));
            if (!warp_settle(&x))
                break;
            ctx_enter_frame(&x);
        }
        StackEntry *top = &w->stack[w->depth - 1];
        uint32_t pc = top->pc;
        /* a stretch that only moves the pc on runs with no stack work
         * between its instructions and its pc written once; anything else
         * goes one step at a time */
        const InsnPlan *ip = x.insns && pc < func_ninsns(x.fn) ? &x.insns[pc] : NULL;
        uint32_t stretch = ip && ip->straight > 1 ? MIN((uint32_t)ip->straight, max - n) : 0;
        if (stretch) {
            x.live = w->live;
            x.active = top->mask;
            x.diverged = x.blocked = false;
        }
        bool refused = false;
        uint32_t first = pc;
        uint64_t pred_on = 0;
        if (stretch && !may_run && !steps) { /* warp_run's: nothing to ask or record per step */
            for (uint32_t end = pc + stretch; pc < end; pc++) {
                if (!(ok = step_exec(&x, pc, &x.insns[pc], &traits)))
                    break;
                pred_on += mask_lanes(x.exec);
            }
            n += pc - first;
        } else {
            const uint8_t *kinds = may_run ? may_run[x.func] : NULL; /* the frame stays in a stretch */
            for (uint32_t end = pc + MAX(stretch, 1u); pc < end; pc++, n++) {
                uint8_t kind = RUN_AHEAD_YES;
                if (may_run) {
                    kind = pc < func_ninsns(x.fn) && kinds ? kinds[pc] : RUN_AHEAD_NO;
                    if ((refused = !run_ahead_may_take(kind, accesses, recorded)))
                        break;
                    if (kind >= RUN_AHEAD_ACCESS)
                        accesses->log->mask = 0;
                }
                ok = stretch ? step_exec(&x, pc, &x.insns[pc], &traits) : step_one(&x, &settle);
                if (!ok)
                    break;
                if (stretch)
                    pred_on += mask_lanes(x.exec);
                if (steps)
                    steps[n] = (StepPos){x.func, x.pc};
                if (kind >= RUN_AHEAD_ACCESS && accesses->log->mask) {
                    accesses->on_access(accesses->data, n, accesses->log);
                    recorded += kind == RUN_AHEAD_RECORD;
                }
            }
        }
        if (stretch) {
            count_stretch(&x, first, pc - first, pred_on);
            top->pc = pc;
            settle = pc == top->rpc;
        }
        if (!ok || refused)
            break;
    }
    if (ok && settle) {
        ctx_set_frame(&x, top_frame(w));
        warp_settle(&x);
    }
    *executed = n;
    return ok;
}

bool warp_run(Warp *w, uint32_t max_steps, uint32_t *executed, GError **error)
{
    if (exec_observer_for(w))
        return run_observed(w, max_steps, executed, error);
    return run_steps(w, max_steps, NULL, NULL, executed, NULL, error);
}

bool warp_run_ahead(Warp *w, const uint8_t *const *may_run, uint32_t max, StepPos *steps, uint32_t *executed,
                    const AheadAccesses *accesses, GError **error)
{
    if (exec_observer_for(w)) { /* it executes at issue, where the observer hears the cycle */
        *executed = 0;
        return true;
    }
    WarpAccess *at_issue = w->mem_log;
    w->mem_log = accesses ? accesses->log : NULL;
    bool ok = run_steps(w, max, may_run, steps, executed, accesses, error);
    w->mem_log = at_issue;
    return ok;
}
