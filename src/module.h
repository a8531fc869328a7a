/* module.h — a parsed and decoded PTX module.
 *
 * Contract: the parser (ptx_parser.c) builds a Module; analyses (cfg.c) add to
 * each Function's `cfg`; the executor only reads it.  A Module owns every
 * string, array and sub-structure below it; module_free() releases all.
 *
 * Instructions are pre-decoded: each Insn holds its opcode, types, modifier
 * fields and operands resolved to register indices, immediates, symbol ids
 * and branch targets (instruction indices), so the executor never looks at
 * text.
 */
#ifndef WARPSIM_MODULE_H
#define WARPSIM_MODULE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "isa.h"

#define INSN_MAX_OPERANDS 6
#define VEC_MAX 4
#define NO_INDEX UINT32_MAX

typedef enum {
    OPD_NONE,
    OPD_REG,    /* reg: register index in the function */
    OPD_IMM,    /* imm: raw bits (floats already converted to the insn type's bits) */
    OPD_SREG,   /* sreg id, component 0..2 (x,y,z) or envreg number */
    OPD_ADDR,   /* memory [base + imm]: base is a register (reg), a symbol (sym) or none */
    OPD_VEC,    /* {r0, r1, ...}: vec_regs[0..vec_count), NO_INDEX for the sink `_` */
    OPD_LABEL,  /* target: instruction index in the function */
    OPD_SYMBOL, /* address of a variable (sym) or function (func) plus imm */
    OPD_PAIR,   /* p|q destination pair: reg and reg2 (reg2 may be NO_INDEX) */
    OPD_SINK,   /* `_` */
} OperandKind;

typedef struct {
    uint8_t kind;      /* OperandKind */
    uint8_t negate;    /* !p on a predicate source */
    uint8_t vec_count;
    uint8_t component; /* special register component / envreg number */
    uint32_t reg;      /* register index, NO_INDEX if none */
    uint32_t reg2;
    uint32_t sym;      /* variable index (module-wide, see Module.vars), NO_INDEX if none */
    uint32_t func;     /* function index for OPD_SYMBOL naming a function */
    int64_t imm;       /* immediate bits or address offset */
    uint32_t vec_regs[VEC_MAX];
} Operand;

typedef struct {
    uint16_t op;        /* PtxOpcode */
    uint8_t type;       /* first type suffix (PtxType) */
    uint8_t type2;      /* second type suffix: cvt/set/slct source type */
    uint8_t type3;      /* third type suffix: video instructions' b type */
    uint8_t space;      /* PtxSpace for memory ops and cvta */
    uint8_t space2;     /* a second state-space suffix: the source's of a copy
                           between spaces (cp.async.shared.global), else
                           SPACE_GENERIC; see insn_operand_space() */
    uint8_t vec;        /* 1, 2 or 4 */
    uint8_t round, mul, cmp, boolop, mode, atom, cache, sem, scope;
    uint32_t flags;     /* FL_* */
    uint32_t guard;     /* predicate register or NO_INDEX */
    bool guard_negate;
    uint8_t nopd;
    Operand opd[INSN_MAX_OPERANDS];
    uint32_t call;      /* index into Function.calls for OP_CALL */
    uint32_t line, col; /* position in the PTX file */
    uint32_t src_file, src_line; /* from the last .loc, 0 if none */
} Insn;

typedef struct {
    char *name;
    PtxType type;
    uint32_t line;
} RegInfo;

typedef enum {
    VAR_MODULE,      /* module scope: .global .const .shared */
    VAR_KERNEL_PARAM,/* parameter of an .entry: in the launch's param buffer */
    VAR_FUNC_PARAM,  /* parameter or return value of a .func: per-thread frame */
    VAR_FRAME,       /* declared inside a function body (.local .param .shared) */
} VarScope;

typedef struct {
    char *name;
    PtxSpace space;
    VarScope scope;
    PtxType type;
    uint32_t align;
    uint64_t size;      /* bytes; 0 for an unsized .extern .shared array */
    bool is_extern;     /* .extern (dynamic shared memory when unsized) */
    uint8_t *init;      /* size bytes of initial value, or NULL for zeros */
    GArray *init_fixups;/* VarFixup: symbol addresses inside init, or NULL */
    uint32_t owner;     /* function index, NO_INDEX at module scope */
    uint64_t offset;    /* assigned by layout: offset in its space or frame */
    uint32_t line;
} Variable;

typedef struct {
    uint64_t byte_offset; /* where in init */
    uint32_t size;        /* 4 or 8 */
    uint32_t sym;         /* variable, or NO_INDEX */
    uint32_t func;        /* function, or NO_INDEX */
    bool generic;         /* generic(x) rather than x */
    int64_t addend;
} VarFixup;

typedef struct {
    uint32_t callee;      /* function index, or NO_INDEX for an indirect call */
    uint32_t callee_reg;  /* register holding the target for an indirect call */
    uint32_t nrets, nargs;
    uint32_t *rets;       /* variable indices (caller-frame .param) */
    uint32_t *args;       /* variable indices, or NO_INDEX when the argument is a
                             register/immediate given in arg_opds */
    Operand *arg_opds;    /* nargs operands (register/immediate forms) */
    Operand *ret_opds;    /* nrets operands (register forms) */
} CallSite;

typedef struct {
    char *name;
    uint32_t insn;        /* instruction the label marks */
} Label;

struct Cfg; /* cfg.h */

typedef struct {
    char *name;
    bool is_entry;
    bool is_defined;      /* false for a prototype or .extern declaration */
    uint32_t line;
    GArray *params;       /* uint32_t variable indices, in order */
    GArray *rets;         /* uint32_t variable indices */
    GArray *regs;         /* RegInfo */
    GArray *insns;        /* Insn */
    GArray *calls;        /* CallSite */
    GArray *frame_vars;   /* uint32_t variable indices declared in the body */
    GArray *labels;       /* Label, in order of appearance */
    uint64_t frame_param_bytes; /* per-thread .param frame: params, rets, body .param */
    bool body_params;     /* the body declares .param variables (call argument blocks) */
    uint64_t frame_local_bytes; /* per-thread .local frame of this function */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
    uint32_t cluster_line;    /* line of a .reqnctapercluster of more than one CTA or an
                                 .explicitcluster (launches refuse it), 0: none */
    bool nounroll;        /* .pragma "nounroll" before its body: ptxas unrolls none of its loops */
    struct Cfg *cfg;      /* owned; NULL until cfg_build */
    bool scheduled;       /* insns are in issue order (schedule.h; cfg_build) */
    /* the peak of live registers in the PTX's own order, recorded by
     * schedule_module() before it reorders (ptx_live_known), for the
     * register estimate (cfg_estimate_registers) */
    bool ptx_live_known;
    uint32_t ptx_live_regs;
    /* Only in a module parsed with deferral (ptx_parse_string_deferring):
     * the first instruction outside warpsim's subset in this body or in a
     * function it calls (directly or not).  The instruction itself was
     * replaced by a `trap`.  unsupported_insn is NULL when the function can
     * run; see module_func_runnable(). */
    char *unsupported_insn;   /* owned: the instruction as written */
    char *unsupported_why;    /* owned: what the parser objected to ("unknown instruction 'tex'") */
    uint32_t unsupported_line, unsupported_col; /* its position in the PTX */
    uint32_t unsupported_via; /* the callee it is in, NO_INDEX when in this body */
} Function;

typedef struct {
    char *path;           /* file name used in messages */
    uint32_t version_major, version_minor;
    char *target;         /* e.g. "sm_90" */
    uint32_t address_size;/* 32 or 64 */
    GArray *funcs;        /* Function */
    GArray *vars;         /* Variable: every variable of every scope */
    GPtrArray *files;     /* .file table: index -> name (may hold NULLs) */
    bool nounroll;        /* a module-level .pragma "nounroll": ptxas unrolls no loop of it */
    bool reads_reserved_smem; /* some function reads %reserved_smem_offset_*: its CTAs
                                 get the reserved region (cta_shared_bytes) */
} Module;

Module *module_new(const char *path);
void module_free(Module *m);

static inline Function *module_func(const Module *m, uint32_t i)
{
    return &g_array_index(m->funcs, Function, i);
}
static inline Variable *module_var(const Module *m, uint32_t i)
{
    return &g_array_index(m->vars, Variable, i);
}
static inline Insn *func_insn(const Function *f, uint32_t i)
{
    return &g_array_index(f->insns, Insn, i);
}
static inline uint32_t func_ninsns(const Function *f) { return f->insns->len; }

/* The state space memory operand i addresses: an instruction naming two
 * spaces (cp.async.shared.global [dst], [src]) has its second memory
 * operand in the second one; every other memory operand is in `space`. */
static inline PtxSpace insn_operand_space(const Insn *in, unsigned i)
{
    return i == 1 && in->space2 != SPACE_GENERIC && in->opd[0].kind == OPD_ADDR ? (PtxSpace)in->space2
                                                                                  : (PtxSpace)in->space;
}

/* bar.red writes its first operand (when the barrier completes): the only
 * destination the instruction shapes of isa/ do not mark with 'd'. */
static inline bool insn_writes_first_operand_late(const Insn *in)
{
    return (in->op == OP_BAR || in->op == OP_BARRIER) && in->mode == BAR_RED;
}

/* A barrier of the CTA (bar, barrier), not bar.warp.sync. */
static inline bool insn_is_cta_barrier(const Insn *in)
{
    return (in->op == OP_BAR || in->op == OP_BARRIER) && !(in->flags & FL_WARP);
}

/* A barrier instruction naming how many threads it waits for (its last
 * operand but bar.red's predicate), not all of the CTA's. */
static inline bool insn_barrier_counted(const Insn *in)
{
    return in->mode == BAR_RED ? in->nopd == 4 : in->nopd >= 2;
}

/* A barrier instruction every thread of a warp must execute together
 * (bar, barrier.aligned): a divergent arrival is a synccheck fault. */
static inline bool insn_barrier_aligned(const Insn *in)
{
    return in->op == OP_BAR || (in->flags & FL_ALIGNED);
}

/* The CUDA source file of the instruction's line info (.loc: src_line in
 * it), or NULL when the PTX has none for it (nvcc without -lineinfo/-G). */
static inline const char *insn_source_file(const Module *m, const Insn *in)
{
    return in->src_line && m->files && in->src_file < m->files->len ? g_ptr_array_index(m->files, in->src_file)
                                                                     : NULL;
}

/* The instruction reads a clock (%clock, %clock64, %globaltimer...): its
 * result depends on when it runs, so it neither runs ahead nor moves. */
static inline bool insn_reads_clock(const Insn *in)
{
    for (unsigned i = 0; i < in->nopd && i < INSN_MAX_OPERANDS; i++) {
        const Operand *o = &in->opd[i];
        if (o->kind == OPD_SREG && (o->reg == SREG_CLOCK || o->reg == SREG_CLOCK_HI || o->reg == SREG_CLOCK64 ||
                                    o->reg == SREG_GLOBALTIMER || o->reg == SREG_GLOBALTIMER_LO ||
                                    o->reg == SREG_GLOBALTIMER_HI))
            return true;
    }
    return false;
}

/* A load of the constant or parameter space from an address fixed when
 * the kernel is compiled (a variable or parameter plus an offset, no
 * register): ptxas makes it an operand of the instructions that use it
 * (c[bank][offset] in the SASS), so it needs no load/store pipe and its
 * value is there at once. */
static inline bool insn_const_operand(const Insn *in)
{
    return (in->op == OP_LD || in->op == OP_LDU) && (in->space == SPACE_CONST || in->space == SPACE_PARAM) &&
           in->nopd >= 2 && in->opd[1].kind == OPD_ADDR && in->opd[1].reg == NO_INDEX;
}

/* NO_INDEX when absent */
uint32_t module_find_func(const Module *m, const char *name);
/* Find a kernel by exact .entry name or unique demangled-name prefix
 * ("saxpy" finds _Z5saxpyifPKfPf).  Errors name the candidates; a kernel
 * that is found but cannot run gives module_func_runnable's error. */
uint32_t module_find_kernel(const Module *m, const char *name, GError **error);
/* True when function fi can run.  Otherwise false with a WS_ERR_UNSUPPORTED
 * error "file:line:col: error: kernel 'k' cannot run on warpsim: it uses
 * 'tex.1d...' (unknown instruction 'tex')" at the offending instruction. */
bool module_func_runnable(const Module *m, uint32_t fi, GError **error);
/* A function calling one that cannot run (directly; indirect calls are not
 * followed) cannot run either: marks such callers, unsupported_via naming
 * the callee.  The deferring parser calls it; so does whoever joins
 * modules (the CUDA runtime's -rdc link). */
void module_propagate_unsupported(Module *m);
/* module-scope variable by name */
uint32_t module_find_global(const Module *m, const char *name);

/* Name of a label marking instruction insn, or NULL. */
const char *func_label_at(const Function *f, uint32_t insn);

/* Render one instruction back to PTX-like text (for traces, listings, errors). */
char *insn_to_string(const Module *m, const Function *f, const Insn *in);

#endif
