/* cfg.h — control-flow analyses on a decoded Function.
 *
 * Contract: cfg_build() partitions a Function's instructions into basic
 * blocks, computes the post-dominator tree rooted at a virtual exit node, the
 * reconvergence point of every control-transfer instruction (the first
 * instruction of its block's immediate post-dominator) for the executor's
 * SIMT stack, register liveness (max simultaneously live 32-bit units) and
 * a storage row per register: registers never live at the same time share
 * a row, so a warp's register file is about as small as its live set (the
 * executor indexes rows through slot_of; analyses and the timing model keep
 * using register indices).
 * The result hangs off Function.cfg and is owned by it (module_free calls
 * cfg_free).  After cfg_build the Cfg is read-only.
 *
 * Block rules: a block starts at instruction 0, at every branch target and
 * after every bra/ret/exit/trap.  A guarded bra has two successors (target,
 * fall-through), an unguarded one one; an unguarded ret/exit/trap goes to the
 * virtual exit, a guarded one to the exit and the fall-through.  Falling off
 * the end of the body (or branching to the position just after the last
 * instruction) goes to the exit too.  `call` does not end a block.
 *
 * Blocks from which the exit cannot be reached (infinite loops) are given an
 * artificial edge to the exit (flag BB_EXIT_LINK) for the post-dominator
 * computation only; `succ` never shows it.  For each such region the
 * highest-numbered block (the loop's bottom in program order) gets the link,
 * so inner blocks reconverge there.
 */
#ifndef WARPSIM_CFG_H
#define WARPSIM_CFG_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "module.h"

#define CFG_EXIT UINT32_MAX /* the virtual exit node, as block index */

/* BasicBlock.flags */
enum {
    BB_REACHABLE = 1u << 0, /* reachable from the function's entry */
    BB_EXIT_LINK = 1u << 1, /* got an artificial edge to the exit (no path to exit) */
};

typedef struct {
    uint32_t first, last; /* instruction indices, inclusive */
    uint32_t succ[2];     /* block indices or CFG_EXIT; taken target first */
    uint8_t nsucc;
    uint8_t flags;        /* BB_* */
    uint32_t ipdom;       /* immediate post-dominator: block index or CFG_EXIT */
    char *label;          /* label at its start, or NULL (owned) */
    uint32_t max_live;    /* max simultaneously live 32-bit units inside the block */
} BasicBlock;

typedef struct Cfg {
    uint32_t nblocks;
    BasicBlock *blocks;
    uint32_t ninsns;
    uint32_t *block_of;   /* per instruction: its block */
    uint32_t *reconv_pc;  /* per instruction: for a control transfer (bra, ret,
                             exit, trap) the first instruction of its block's
                             IPDOM, or ninsns (CFG_EXIT_PC) when the IPDOM is the
                             virtual exit; NO_INDEX for other instructions */
    uint32_t stack_entries; /* reconvergence-stack entries a warp running this
                               body alone needs unless it nests divergence deeper
                               than it has branches: its bottom entry and two for
                               each guarded bra (a divergent one pushes both paths) */
    uint32_t max_live_regs;  /* 32-bit units: 64-bit registers count 2, predicates 0 */
    uint32_t nregs;          /* registers of the function (bitset width) */
    uint32_t words;          /* 64-bit words per bitset */
    uint64_t *live_in;       /* nblocks * words: registers live at block entry */
    uint64_t *live_out;      /* nblocks * words: registers live at block exit */
    uint32_t *slot_of;       /* per register: the row of the executor's register
                                file that holds it (registers never live at once
                                share a row) */
    uint32_t nslots;         /* rows a frame of this function needs, >= 1 */
    /* the rows a frame must start with zeroed: those of registers some
     * path reads before writing (live at entry); every row when a lane may
     * read another lane's register (shfl), which liveness does not follow.
     * Any other row is written before it is read, in every lane that reads
     * it, so what it held before cannot be seen. */
    uint32_t *entry_rows;
    uint32_t nentry_rows;
} Cfg;

/* reconv_pc value meaning "reconverge at the virtual exit" */
#define CFG_EXIT_PC(f) (func_ninsns(f))

/* Registers reserved beyond the PTX-level liveness estimate: ptxas keeps
 * some registers for the stack pointer and address temporaries. */
#define CFG_REG_OVERHEAD 2

/* A growable list of register indices, reused across instructions. */
typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} CfgRegList;

/* The registers an instruction reads (uses: sources, address bases, its
 * guard) and writes (defs), as liveness sees them; the lists are reset and
 * grown as needed.  cfg_reglist_clear frees one. */
void cfg_insn_regs(const Function *f, const Insn *in, CfgRegList *uses, CfgRegList *defs);
/* The PTX line the block starts at: its instructions' first line (the
 * scheduler may have moved a later one to its front; schedule.h), 0 for
 * an empty block. */
uint32_t cfg_block_line(const Function *f, const BasicBlock *bb);
void cfg_reglist_clear(CfgRegList *l);

bool cfg_build(Module *m, uint32_t func_index, GError **error);   /* sets Function.cfg */
bool cfg_build_all(Module *m, GError **error);                    /* every defined function */
void cfg_free(struct Cfg *c);

/* Whether `reg` is in a register set (a bitset of Cfg.words words). */
static inline bool cfg_reg_in(const uint64_t *set, uint32_t reg)
{
    return (set[reg / 64] >> (reg % 64)) & 1;
}

/* Adds `reg` to a register set, or takes it out. */
static inline void cfg_reg_add(uint64_t *set, uint32_t reg)
{
    set[reg / 64] |= UINT64_C(1) << (reg % 64);
}
static inline void cfg_reg_remove(uint64_t *set, uint32_t reg)
{
    set[reg / 64] &= ~(UINT64_C(1) << (reg % 64));
}

static inline bool cfg_live_in(const Cfg *c, uint32_t block, uint32_t reg)
{
    return cfg_reg_in(c->live_in + (size_t)block * c->words, reg);
}
static inline bool cfg_live_out(const Cfg *c, uint32_t block, uint32_t reg)
{
    return cfg_reg_in(c->live_out + (size_t)block * c->words, reg);
}

/* Whether `reg` may be read after instruction `pc` of f (whose cfg is
 * built) before an unguarded write replaces it: the rest of pc's block,
 * then the block's live-out set.  A GPU compiler drops a result that is
 * not (an atom's becomes a red). */
bool cfg_reg_live_after(const Function *f, uint32_t pc, uint32_t reg);

/* The same for every register and instruction at once, in one pass:
 * visit(pc, live, user) is called once for every instruction of f, from
 * each block's last to its first, with `live` the set of registers that
 * cfg_reg_live_after(f, pc, reg) finds live (Cfg.words words, read with
 * cfg_reg_in; registers from Cfg.nregs on are not in it).  Nothing is
 * visited when f has no cfg. */
typedef void (*CfgLiveAfterFn)(uint32_t pc, const uint64_t *live, void *user);
void cfg_walk_live_after(const Function *f, CfgLiveAfterFn visit, void *user);

/* The peak of f's live registers (Cfg.max_live_regs) with its instructions
 * in their present order: its CFG's, else from a temporary one. */
uint32_t cfg_live_regs(const Module *m, const Function *f);

/* Registers per thread for `kernel`: the max over the kernel and every
 * function it calls, transitively, of max_live_regs, plus CFG_REG_OVERHEAD,
 * at least 1 + overhead, at most 255 and at most .maxnreg when given.  An
 * indirect call counts every defined non-entry function as a callee.  Builds
 * temporary CFGs for functions that have none.  A function reordered for
 * issue (schedule.h) counts with the peak of its PTX order
 * (Function.ptx_live_regs): ptxas allocates registers for a schedule that
 * keeps their pressure in check, where warpsim's list schedule hoists loads
 * without a register budget (stencil radius 5: 68 registers in that order,
 * 29 in the PTX's, ptxas 32 for sm_90). */
uint32_t cfg_estimate_registers(const Module *m, uint32_t kernel);

/* For `warpsim cfg`: blocks with label, instruction range, successors,
 * IPDOM, and each control transfer's reconvergence point. */
void cfg_print_text(FILE *out, const Module *m, uint32_t func);
/* Graphviz dot; IPDOM edges dashed. */
void cfg_print_dot(FILE *out, const Module *m, uint32_t func);

#endif
