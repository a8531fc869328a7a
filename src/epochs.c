/* epochs.c — barrier epochs (contract in epochs.h).
 *
 * An epoch set is a 64-bit mask: bit j, the instruction may execute after
 * j barriers; bit 63, after 63 or more.  A forward may-analysis over the
 * blocks (union at merges) finds the sets; a barrier moves its warp one
 * epoch on.  The sets only grow and the mask is finite, so the iteration
 * ends: a loop with a barrier in it fills up to bit 63 and stays there.
 */
#include "epochs.h"

#include <glib.h>

#include "cfg.h"
#include "isa.h"

#define LAST_EPOCH (1ull << 63)

/* A barrier after which epochs.h's argument holds: all live warps wait
 * there, each once (aligned: the whole warp at one instruction, else a
 * synccheck fault), for all of them (no thread count). */
static bool is_full_barrier(const Insn *in)
{
    return in->mode != BAR_ARRIVE && in->scope != SCOPE_CLUSTER && !insn_barrier_counted(in) &&
           insn_barrier_aligned(in) && in->guard == NO_INDEX;
}

/* Whether the instruction may write the CTA's shared memory: any memory
 * operand of something other than a load, unless that operand's space is
 * one shared memory is not part of. */
static bool may_write_shared(const Insn *in)
{
    if (in->op == OP_LD || in->op == OP_LDU)
        return false;
    for (unsigned i = 0; i < in->nopd && i < INSN_MAX_OPERANDS; i++) {
        if (in->opd[i].kind != OPD_ADDR)
            continue;
        PtxSpace s = insn_operand_space(in, i);
        if (s == SPACE_SHARED || s == SPACE_GENERIC)
            return true;
    }
    return false;
}

static uint64_t next_epoch(uint64_t set)
{
    return set << 1 | (set & LAST_EPOCH);
}

/* The epochs after the block, given those at its start. */
static uint64_t through_block(const Function *fn, const BasicBlock *bb, uint64_t set)
{
    for (uint32_t i = bb->first; i <= bb->last; i++)
        if (insn_is_cta_barrier(func_insn(fn, i)))
            set = next_epoch(set);
    return set;
}

bool *epochs_unraced_shared_loads(const Function *fn)
{
    uint32_t n = func_ninsns(fn);
    bool *unraced = g_new0(bool, MAX(n, 1u));
    const Cfg *c = fn->cfg;
    if (!fn->is_defined || !c || c->ninsns != n || c->nblocks == 0)
        return unraced;
    bool shared_loads = false; /* else nothing to find: no fixpoint at each launch's decode */
    for (uint32_t i = 0; i < n; i++) {
        const Insn *in = func_insn(fn, i);
        if (in->op == OP_CALL || (insn_is_cta_barrier(in) && !is_full_barrier(in)))
            return unraced;
        shared_loads |= in->op == OP_LD && in->space == SPACE_SHARED;
    }
    if (!shared_loads)
        return unraced;

    uint64_t *at_start = g_new0(uint64_t, c->nblocks);
    at_start[0] = 1; /* the entry: no barrier passed */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = 0; b < c->nblocks; b++) {
            if (!at_start[b])
                continue;
            uint64_t out = through_block(fn, &c->blocks[b], at_start[b]);
            for (unsigned k = 0; k < c->blocks[b].nsucc; k++) {
                uint32_t s = c->blocks[b].succ[k];
                if (s != CFG_EXIT && (at_start[s] | out) != at_start[s]) {
                    at_start[s] |= out;
                    changed = true;
                }
            }
        }
    }

    /* each instruction's epochs, and those in which shared memory may be written */
    uint64_t *epochs = g_new0(uint64_t, n), written = 0;
    for (uint32_t b = 0; b < c->nblocks; b++) {
        uint64_t set = at_start[b];
        for (uint32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
            const Insn *in = func_insn(fn, i);
            epochs[i] = set;
            if (may_write_shared(in))
                written |= set;
            if (insn_is_cta_barrier(in))
                set = next_epoch(set);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        const Insn *in = func_insn(fn, i);
        unraced[i] = in->op == OP_LD && in->space == SPACE_SHARED && epochs[i] && !(epochs[i] & written);
    }
    g_free(epochs);
    g_free(at_start);
    return unraced;
}
