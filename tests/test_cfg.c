/* test_cfg.c — basic blocks, post-dominators, reconvergence points and
 * liveness (cfg.c), on Functions built by hand and on parsed PTX. */
#include <check.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "errors.h"
#include "module.h"
#include "ptx_parser.h"
#include "reaching.h"
#include "schedule.h"
#include "testutil.h"

/* ------------------------------------------------ hand-built modules */

static Module *mod_new(void)
{
    Module *m = g_new0(Module, 1);
    m->path = g_strdup("test.ptx");
    m->funcs = g_array_new(FALSE, TRUE, sizeof(Function));
    m->vars = g_array_new(FALSE, TRUE, sizeof(Variable));
    return m;
}

static void mod_free(Module *m)
{
    for (guint i = 0; i < m->funcs->len; i++) {
        Function *f = module_func(m, i);
        if (f->cfg)
            cfg_free(f->cfg);
        for (guint r = 0; r < f->regs->len; r++)
            g_free(g_array_index(f->regs, RegInfo, r).name);
        for (guint k = 0; k < f->calls->len; k++) {
            CallSite *cs = &g_array_index(f->calls, CallSite, k);
            g_free(cs->args);
            g_free(cs->rets);
            g_free(cs->arg_opds);
            g_free(cs->ret_opds);
        }
        g_array_free(f->regs, TRUE);
        g_array_free(f->insns, TRUE);
        g_array_free(f->calls, TRUE);
        g_array_free(f->params, TRUE);
        g_array_free(f->rets, TRUE);
        g_array_free(f->frame_vars, TRUE);
        g_free(f->name);
    }
    g_array_free(m->funcs, TRUE);
    g_array_free(m->vars, TRUE);
    g_free(m->path);
    g_free(m);
}

static uint32_t fn_new(Module *m, const char *name, bool entry)
{
    Function f = {0};
    f.name = g_strdup(name);
    f.is_entry = entry;
    f.is_defined = true;
    f.regs = g_array_new(FALSE, TRUE, sizeof(RegInfo));
    f.insns = g_array_new(FALSE, TRUE, sizeof(Insn));
    f.calls = g_array_new(FALSE, TRUE, sizeof(CallSite));
    f.params = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    f.rets = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    f.frame_vars = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    g_array_append_val(m->funcs, f);
    return m->funcs->len - 1;
}

static uint32_t reg(Module *m, uint32_t fi, const char *name, PtxType t)
{
    Function *f = module_func(m, fi);
    RegInfo r = {g_strdup(name), t, 1};
    g_array_append_val(f->regs, r);
    return f->regs->len - 1;
}

static Operand o_reg(uint32_t r)
{
    Operand o = {.kind = OPD_REG, .reg = r, .reg2 = NO_INDEX, .sym = NO_INDEX, .func = NO_INDEX};
    return o;
}
static Operand o_imm(int64_t v)
{
    Operand o = {.kind = OPD_IMM, .reg = NO_INDEX, .reg2 = NO_INDEX, .sym = NO_INDEX,
                 .func = NO_INDEX, .imm = v};
    return o;
}
static Operand o_addr(uint32_t base)
{
    Operand o = o_reg(base);
    o.kind = OPD_ADDR;
    return o;
}

/* Append an instruction; returns its index.  Line = index + 10. */
static uint32_t emit(Module *m, uint32_t fi, uint16_t op, PtxType type, uint32_t guard,
                     int nopd, const Operand *opds)
{
    Function *f = module_func(m, fi);
    Insn in = {0};
    in.op = op;
    in.type = type;
    in.vec = 1;
    in.guard = guard;
    in.call = NO_INDEX;
    in.nopd = (uint8_t)nopd;
    for (int i = 0; i < nopd; i++)
        in.opd[i] = opds[i];
    in.line = f->insns->len + 10;
    in.col = 5;
    g_array_append_val(f->insns, in);
    return f->insns->len - 1;
}

#define NG NO_INDEX
static uint32_t I_mov(Module *m, uint32_t fi, PtxType t, uint32_t guard, uint32_t d, Operand a)
{
    Operand o[2] = {o_reg(d), a};
    return emit(m, fi, OP_MOV, t, guard, 2, o);
}
static uint32_t I_add(Module *m, uint32_t fi, PtxType t, uint32_t d, Operand a, Operand b)
{
    Operand o[3] = {o_reg(d), a, b};
    return emit(m, fi, OP_ADD, t, NG, 3, o);
}
static uint32_t I_setp(Module *m, uint32_t fi, uint32_t p, Operand a, Operand b)
{
    Operand o[3] = {o_reg(p), a, b};
    return emit(m, fi, OP_SETP, PTX_TYPE_U32, NG, 3, o);
}
static uint32_t I_st(Module *m, uint32_t fi, PtxType t, uint32_t base, Operand v)
{
    Operand o[2] = {o_addr(base), v};
    return emit(m, fi, OP_ST, t, NG, 2, o);
}
static uint32_t I_ld(Module *m, uint32_t fi, PtxType t, uint32_t d, uint32_t base)
{
    Operand o[2] = {o_reg(d), o_addr(base)};
    return emit(m, fi, OP_LD, t, NG, 2, o);
}
static uint32_t I_bra(Module *m, uint32_t fi, uint32_t guard, uint32_t target)
{
    Operand o = {.kind = OPD_LABEL, .reg = NO_INDEX, .reg2 = NO_INDEX, .sym = NO_INDEX,
                 .func = NO_INDEX, .imm = target};
    return emit(m, fi, OP_BRA, PTX_TYPE_NONE, guard, 1, &o);
}
static uint32_t I_ctl(Module *m, uint32_t fi, uint16_t op, uint32_t guard)
{
    return emit(m, fi, op, PTX_TYPE_NONE, guard, 0, NULL);
}
/* call (ret) = callee(arg): register forms of one argument and one result */
static uint32_t I_call(Module *m, uint32_t fi, uint32_t callee, uint32_t ret, uint32_t arg)
{
    Function *f = module_func(m, fi);
    CallSite cs = {0};
    cs.callee = callee;
    cs.callee_reg = NO_INDEX;
    cs.nargs = arg == NO_INDEX ? 0 : 1;
    cs.nrets = ret == NO_INDEX ? 0 : 1;
    if (cs.nargs) {
        cs.args = g_new(uint32_t, 1);
        cs.args[0] = NO_INDEX;
        cs.arg_opds = g_new(Operand, 1);
        cs.arg_opds[0] = o_reg(arg);
    }
    if (cs.nrets) {
        cs.rets = g_new(uint32_t, 1);
        cs.rets[0] = NO_INDEX;
        cs.ret_opds = g_new(Operand, 1);
        cs.ret_opds[0] = o_reg(ret);
    }
    g_array_append_val(f->calls, cs);
    Operand o = {.kind = OPD_SYMBOL, .reg = NO_INDEX, .reg2 = NO_INDEX, .sym = NO_INDEX,
                 .func = callee};
    uint32_t i = emit(m, fi, OP_CALL, PTX_TYPE_NONE, NG, 1, &o);
    func_insn(module_func(m, fi), i)->call = f->calls->len - 1;
    return i;
}

static const Cfg *build(Module *m, uint32_t fi)
{
    GError *err = NULL;
    bool ok = cfg_build(m, fi, &err);
    ck_assert_msg(ok, "cfg_build failed: %s", err ? err->message : "?");
    const Cfg *c = module_func(m, fi)->cfg;
    ck_assert_ptr_nonnull(c);
    return c;
}

static void assert_block(const Cfg *c, uint32_t b, uint32_t first, uint32_t last, int nsucc,
                         uint32_t s0, uint32_t s1, uint32_t ipdom)
{
    ck_assert_uint_lt(b, c->nblocks);
    const BasicBlock *bb = &c->blocks[b];
    ck_assert_msg(bb->first == first && bb->last == last, "B%u is [%u,%u], want [%u,%u]", b,
                  bb->first, bb->last, first, last);
    ck_assert_msg(bb->nsucc == nsucc, "B%u has %u successors, want %d", b, bb->nsucc, nsucc);
    if (nsucc >= 1)
        ck_assert_msg(bb->succ[0] == s0, "B%u succ[0] = %u, want %u", b, bb->succ[0], s0);
    if (nsucc >= 2)
        ck_assert_msg(bb->succ[1] == s1, "B%u succ[1] = %u, want %u", b, bb->succ[1], s1);
    ck_assert_msg(bb->ipdom == ipdom, "B%u ipdom = %u, want %u", b, bb->ipdom, ipdom);
    for (uint32_t i = first; i <= last; i++)
        ck_assert_uint_eq(c->block_of[i], b);
}

/* reconv_pc is NO_INDEX everywhere except at the listed instructions */
static void assert_reconv(const Cfg *c, int n, const uint32_t *at, const uint32_t *pc)
{
    for (uint32_t i = 0; i < c->ninsns; i++) {
        uint32_t want = NO_INDEX;
        for (int k = 0; k < n; k++)
            if (at[k] == i)
                want = pc[k];
        ck_assert_msg(c->reconv_pc[i] == want, "reconv_pc[%u] = %u, want %u", i, c->reconv_pc[i],
                      want);
    }
}

#define X CFG_EXIT

/* ------------------------------------------------------------- shapes */

START_TEST(test_if_else)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), r1 = reg(m, f, "%r1", PTX_TYPE_U32);
    uint32_t r2 = reg(m, f, "%r2", PTX_TYPE_U32), r3 = reg(m, f, "%rd3", PTX_TYPE_U64);
    uint32_t p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_setp(m, f, p, o_reg(r0), o_reg(r1));          /* 0 */
    I_bra(m, f, p, 4);                               /* 1 */
    I_add(m, f, PTX_TYPE_U32, r2, o_reg(r0), o_reg(r1)); /* 2 */
    I_bra(m, f, NG, 5);                              /* 3 */
    I_mov(m, f, PTX_TYPE_U32, NG, r2, o_reg(r0));    /* 4 else */
    I_st(m, f, PTX_TYPE_U32, r3, o_reg(r2));         /* 5 join */
    I_ctl(m, f, OP_RET, NG);                         /* 6 */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 4);
    assert_block(c, 0, 0, 1, 2, 2, 1, 3);
    assert_block(c, 1, 2, 3, 1, 3, 0, 3);
    assert_block(c, 2, 4, 4, 1, 3, 0, 3);
    assert_block(c, 3, 5, 6, 1, X, 0, X);
    assert_reconv(c, 3, (uint32_t[]){1, 3, 6}, (uint32_t[]){5, 5, 7});
    /* liveness: r0,r1,rd3 at entry = 1+1+2 */
    ck_assert(cfg_live_in(c, 0, r0) && cfg_live_in(c, 0, r1) && cfg_live_in(c, 0, r3));
    ck_assert(!cfg_live_in(c, 0, r2) && !cfg_live_in(c, 0, p));
    ck_assert(cfg_live_in(c, 3, r2) && cfg_live_in(c, 3, r3) && !cfg_live_in(c, 3, r0));
    ck_assert(!cfg_live_in(c, 2, r1) && cfg_live_in(c, 2, r0));
    ck_assert(cfg_live_out(c, 1, r2) && !cfg_live_out(c, 3, r2));
    ck_assert_uint_eq(c->max_live_regs, 4);
    ck_assert_uint_eq(cfg_estimate_registers(m, f), 4 + CFG_REG_OVERHEAD);
    mod_free(m);
}
END_TEST

START_TEST(test_if_without_else)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), r1 = reg(m, f, "%r1", PTX_TYPE_U32);
    uint32_t r2 = reg(m, f, "%rd2", PTX_TYPE_U64), p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_setp(m, f, p, o_reg(r0), o_reg(r1));
    I_bra(m, f, p, 3);
    func_insn(module_func(m, f), 1)->guard_negate = true;
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_reg(r1));
    I_st(m, f, PTX_TYPE_U32, r2, o_reg(r0));
    I_ctl(m, f, OP_EXIT, NG);
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 3);
    assert_block(c, 0, 0, 1, 2, 2, 1, 2);
    assert_block(c, 1, 2, 2, 1, 2, 0, 2);
    assert_block(c, 2, 3, 4, 1, X, 0, X);
    assert_reconv(c, 2, (uint32_t[]){1, 4}, (uint32_t[]){3, 5});
    mod_free(m);
}
END_TEST

START_TEST(test_nested_if)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), r1 = reg(m, f, "%r1", PTX_TYPE_U32);
    uint32_t r2 = reg(m, f, "%r2", PTX_TYPE_U32), rd = reg(m, f, "%rd1", PTX_TYPE_U64);
    uint32_t p = reg(m, f, "%p1", PTX_TYPE_PRED), q = reg(m, f, "%p2", PTX_TYPE_PRED);
    I_setp(m, f, p, o_reg(r0), o_reg(r1));                 /* 0 */
    I_bra(m, f, p, 7);                                      /* 1 outer if */
    I_setp(m, f, q, o_reg(r0), o_reg(r2));                  /* 2 */
    I_bra(m, f, q, 5);                                      /* 3 inner if */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_reg(r1));    /* 4 */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_reg(r2));    /* 5 inner join */
    I_mov(m, f, PTX_TYPE_U32, NG, r1, o_reg(r0));           /* 6 */
    I_st(m, f, PTX_TYPE_U32, rd, o_reg(r1));                /* 7 outer join */
    I_ctl(m, f, OP_RET, NG);                                /* 8 */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 5);
    assert_block(c, 0, 0, 1, 2, 4, 1, 4);
    assert_block(c, 1, 2, 3, 2, 3, 2, 3);
    assert_block(c, 2, 4, 4, 1, 3, 0, 3);
    assert_block(c, 3, 5, 6, 1, 4, 0, 4);
    assert_block(c, 4, 7, 8, 1, X, 0, X);
    assert_reconv(c, 3, (uint32_t[]){1, 3, 8}, (uint32_t[]){7, 5, 9});
    mod_free(m);
}
END_TEST

START_TEST(test_loop_with_break)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), r1 = reg(m, f, "%r1", PTX_TYPE_U32);
    uint32_t r2 = reg(m, f, "%r2", PTX_TYPE_U32), rd = reg(m, f, "%rd1", PTX_TYPE_U64);
    uint32_t p = reg(m, f, "%p1", PTX_TYPE_PRED), q = reg(m, f, "%p2", PTX_TYPE_PRED);
    I_mov(m, f, PTX_TYPE_U32, NG, r0, o_imm(0));            /* 0 */
    I_setp(m, f, p, o_reg(r0), o_reg(r1));                  /* 1 head */
    I_bra(m, f, p, 7);                                      /* 2 exit test */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(1));     /* 3 */
    I_setp(m, f, q, o_reg(r0), o_reg(r2));                  /* 4 */
    I_bra(m, f, q, 7);                                      /* 5 break */
    I_bra(m, f, NG, 1);                                     /* 6 back edge */
    I_st(m, f, PTX_TYPE_U32, rd, o_reg(r0));                /* 7 after loop */
    I_ctl(m, f, OP_RET, NG);                                /* 8 */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 5);
    assert_block(c, 0, 0, 0, 1, 1, 0, 1);
    assert_block(c, 1, 1, 2, 2, 4, 2, 4);
    assert_block(c, 2, 3, 5, 2, 4, 3, 4);
    assert_block(c, 3, 6, 6, 1, 1, 0, 1);
    assert_block(c, 4, 7, 8, 1, X, 0, X);
    assert_reconv(c, 4, (uint32_t[]){2, 5, 6, 8}, (uint32_t[]){7, 7, 1, 9});
    /* loop-carried: r0, r1, r2, rd live around the back edge */
    ck_assert(cfg_live_in(c, 1, r0) && cfg_live_in(c, 1, r1) && cfg_live_in(c, 1, r2));
    ck_assert(cfg_live_out(c, 3, r0) && cfg_live_out(c, 3, rd) && cfg_live_out(c, 3, r2));
    ck_assert(!cfg_live_in(c, 0, r0));
    /* peak: r0 r1 r2 rd = 1+1+1+2 */
    ck_assert_uint_eq(c->max_live_regs, 5);
    mod_free(m);
}
END_TEST

/* while (x != 0) x--; in nvcc's rotated form: the loop's exit diverges */
START_TEST(test_dec2zero)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "dec2zero", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), rd = reg(m, f, "%rd1", PTX_TYPE_U64);
    uint32_t p = reg(m, f, "%p1", PTX_TYPE_PRED), q = reg(m, f, "%p2", PTX_TYPE_PRED);
    I_ld(m, f, PTX_TYPE_U32, r0, rd);                       /* 0 */
    I_setp(m, f, p, o_reg(r0), o_imm(0));                   /* 1 */
    I_bra(m, f, p, 6);                                      /* 2 skip loop */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(-1));    /* 3 loop */
    I_setp(m, f, q, o_reg(r0), o_imm(0));                   /* 4 */
    I_bra(m, f, q, 3);                                      /* 5 back edge, divergent */
    I_st(m, f, PTX_TYPE_U32, rd, o_reg(r0));                /* 6 done */
    I_ctl(m, f, OP_RET, NG);                                /* 7 */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 3);
    assert_block(c, 0, 0, 2, 2, 2, 1, 2);
    assert_block(c, 1, 3, 5, 2, 1, 2, 2);
    assert_block(c, 2, 6, 7, 1, X, 0, X);
    assert_reconv(c, 3, (uint32_t[]){2, 5, 7}, (uint32_t[]){6, 6, 8});
    ck_assert(cfg_live_in(c, 1, r0) && cfg_live_in(c, 1, rd) && !cfg_live_in(c, 1, q));
    ck_assert(cfg_live_in(c, 0, rd) && !cfg_live_in(c, 0, r0));
    ck_assert_uint_eq(c->max_live_regs, 3);
    mod_free(m);
}
END_TEST

START_TEST(test_early_return)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), r1 = reg(m, f, "%r1", PTX_TYPE_U32);
    uint32_t rd = reg(m, f, "%rd1", PTX_TYPE_U64), p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_setp(m, f, p, o_reg(r0), o_imm(0));                   /* 0 */
    I_bra(m, f, p, 4);                                      /* 1 */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(1));     /* 2 */
    I_ctl(m, f, OP_RET, NG);                                /* 3 early return */
    I_mov(m, f, PTX_TYPE_U32, NG, r1, o_reg(r0));           /* 4 */
    I_st(m, f, PTX_TYPE_U32, rd, o_reg(r1));                /* 5 */
    I_ctl(m, f, OP_RET, NG);                                /* 6 */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 3);
    assert_block(c, 0, 0, 1, 2, 2, 1, X);
    assert_block(c, 1, 2, 3, 1, X, 0, X);
    assert_block(c, 2, 4, 6, 1, X, 0, X);
    assert_reconv(c, 3, (uint32_t[]){1, 3, 6}, (uint32_t[]){7, 7, 7});
    mod_free(m);
}
END_TEST

START_TEST(test_partial_exit)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), rd = reg(m, f, "%rd1", PTX_TYPE_U64);
    uint32_t p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_setp(m, f, p, o_reg(r0), o_imm(0));                   /* 0 */
    I_ctl(m, f, OP_EXIT, p);                                /* 1 @p exit */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(1));     /* 2 */
    I_st(m, f, PTX_TYPE_U32, rd, o_reg(r0));                /* 3 */
    I_ctl(m, f, OP_EXIT, NG);                               /* 4 */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 2);
    assert_block(c, 0, 0, 1, 2, X, 1, X);
    assert_block(c, 1, 2, 4, 1, X, 0, X);
    assert_reconv(c, 2, (uint32_t[]){1, 4}, (uint32_t[]){5, 5});
    mod_free(m);
}
END_TEST

START_TEST(test_unreachable)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), rd2 = reg(m, f, "%rd2", PTX_TYPE_U64);
    uint32_t rd5 = reg(m, f, "%rd5", PTX_TYPE_U64), rd6 = reg(m, f, "%rd6", PTX_TYPE_U64);
    uint32_t rd7 = reg(m, f, "%rd7", PTX_TYPE_U64);
    I_mov(m, f, PTX_TYPE_U32, NG, r0, o_imm(1));            /* 0 */
    I_bra(m, f, NG, 3);                                     /* 1 */
    I_add(m, f, PTX_TYPE_U64, rd5, o_reg(rd6), o_reg(rd7)); /* 2 unreachable */
    I_st(m, f, PTX_TYPE_U32, rd2, o_reg(r0));               /* 3 */
    I_ctl(m, f, OP_RET, NG);                                /* 4 */
    I_st(m, f, PTX_TYPE_U64, rd6, o_reg(rd7));              /* 5 unreachable */
    I_ctl(m, f, OP_RET, NG);                                /* 6 */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 4);
    assert_block(c, 0, 0, 1, 1, 2, 0, 2);
    assert_block(c, 1, 2, 2, 1, 2, 0, 2);
    assert_block(c, 2, 3, 4, 1, X, 0, X);
    assert_block(c, 3, 5, 6, 1, X, 0, X);
    ck_assert(c->blocks[0].flags & BB_REACHABLE);
    ck_assert(!(c->blocks[1].flags & BB_REACHABLE));
    ck_assert(c->blocks[2].flags & BB_REACHABLE);
    ck_assert(!(c->blocks[3].flags & BB_REACHABLE));
    assert_reconv(c, 3, (uint32_t[]){1, 4, 6}, (uint32_t[]){3, 7, 7});
    /* the dead block's registers do not leak into reachable code */
    ck_assert(cfg_live_in(c, 1, rd6) && cfg_live_in(c, 1, rd7) && cfg_live_in(c, 1, r0));
    ck_assert(!cfg_live_in(c, 0, rd6) && !cfg_live_in(c, 0, rd7));
    ck_assert_uint_eq(c->blocks[1].max_live, 2 + 2 + 1 + 2); /* rd6 rd7 r0 rd2 */
    ck_assert_uint_eq(c->max_live_regs, 3);                  /* r0 rd2 */
    mod_free(m);
}
END_TEST

START_TEST(test_infinite_loop)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "spin", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), r1 = reg(m, f, "%r1", PTX_TYPE_U32);
    uint32_t p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_mov(m, f, PTX_TYPE_U32, NG, r0, o_imm(0));            /* 0 */
    I_setp(m, f, p, o_reg(r0), o_reg(r1));                  /* 1 top */
    I_bra(m, f, p, 4);                                      /* 2 */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(1));     /* 3 */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(2));     /* 4 join */
    I_bra(m, f, NG, 1);                                     /* 5 forever */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 4);
    assert_block(c, 0, 0, 0, 1, 1, 0, 1);
    assert_block(c, 1, 1, 2, 2, 3, 2, 3);
    assert_block(c, 2, 3, 3, 1, 3, 0, 3);
    assert_block(c, 3, 4, 5, 1, 1, 0, X);
    ck_assert(c->blocks[3].flags & BB_EXIT_LINK);
    ck_assert(!(c->blocks[1].flags & BB_EXIT_LINK));
    assert_reconv(c, 2, (uint32_t[]){2, 5}, (uint32_t[]){4, 6});
    ck_assert(cfg_live_in(c, 1, r0) && cfg_live_in(c, 1, r1));
    ck_assert_uint_eq(c->max_live_regs, 2);
    mod_free(m);
}
END_TEST

/* an infinite loop beside an exiting path: only the loop gets the link */
START_TEST(test_infinite_loop_one_arm)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_setp(m, f, p, o_reg(r0), o_imm(0));                   /* 0 */
    I_bra(m, f, p, 5);                                      /* 1 */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(1));     /* 2 spin */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(1));     /* 3 */
    I_bra(m, f, NG, 2);                                     /* 4 */
    I_ctl(m, f, OP_RET, NG);                                /* 5 */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 3);
    assert_block(c, 0, 0, 1, 2, 2, 1, X);
    assert_block(c, 1, 2, 4, 1, 1, 0, X);
    assert_block(c, 2, 5, 5, 1, X, 0, X);
    ck_assert(c->blocks[1].flags & BB_EXIT_LINK);
    ck_assert(!(c->blocks[0].flags & BB_EXIT_LINK) && !(c->blocks[2].flags & BB_EXIT_LINK));
    assert_reconv(c, 3, (uint32_t[]){1, 4, 5}, (uint32_t[]){6, 6, 6});
    mod_free(m);
}
END_TEST

START_TEST(test_call)
{
    Module *m = mod_new();
    uint32_t g = fn_new(m, "callee", false);
    uint32_t a = reg(m, g, "%rd1", PTX_TYPE_U64), b = reg(m, g, "%rd2", PTX_TYPE_U64);
    uint32_t cc = reg(m, g, "%rd3", PTX_TYPE_U64);
    I_mov(m, g, PTX_TYPE_U64, NG, a, o_imm(1));
    I_mov(m, g, PTX_TYPE_U64, NG, b, o_imm(2));
    I_mov(m, g, PTX_TYPE_U64, NG, cc, o_imm(3));
    I_add(m, g, PTX_TYPE_U64, a, o_reg(a), o_reg(b));
    I_add(m, g, PTX_TYPE_U64, a, o_reg(a), o_reg(cc));
    I_ctl(m, g, OP_RET, NG);

    uint32_t k = fn_new(m, "kern", true);
    uint32_t k0 = reg(m, k, "%r0", PTX_TYPE_U32), k1 = reg(m, k, "%rd1", PTX_TYPE_U64);
    uint32_t k2 = reg(m, k, "%r2", PTX_TYPE_U32), k3 = reg(m, k, "%rd3", PTX_TYPE_U64);
    I_mov(m, k, PTX_TYPE_U32, NG, k0, o_imm(5));            /* 0 */
    I_bra(m, k, NG, 2);                                     /* 1 */
    I_call(m, k, g, k1, k0);                                /* 2 (rd1) = callee(r0) */
    I_add(m, k, PTX_TYPE_U32, k2, o_reg(k1), o_reg(k1));    /* 3 */
    I_st(m, k, PTX_TYPE_U32, k3, o_reg(k2));                /* 4 */
    I_ctl(m, k, OP_RET, NG);                                /* 5 */

    GError *err = NULL;
    ck_assert(cfg_build_all(m, &err));
    const Cfg *ck = module_func(m, k)->cfg, *cg = module_func(m, g)->cfg;
    ck_assert_uint_eq(ck->nblocks, 2);
    assert_block(ck, 0, 0, 1, 1, 1, 0, 1);
    assert_block(ck, 1, 2, 5, 1, X, 0, X); /* call does not end the block */
    assert_reconv(ck, 2, (uint32_t[]){1, 5}, (uint32_t[]){2, 6});
    ck_assert(cfg_live_in(ck, 1, k0));  /* the argument is read */
    ck_assert(!cfg_live_in(ck, 1, k1)); /* the result is written */
    ck_assert(cfg_live_in(ck, 1, k3));
    ck_assert_uint_eq(ck->max_live_regs, 4); /* rd1 + rd3 after the call */
    ck_assert_uint_eq(cg->max_live_regs, 6); /* three 64-bit values */
    ck_assert_uint_eq(cfg_estimate_registers(m, k), 6 + CFG_REG_OVERHEAD);
    ck_assert_uint_eq(cfg_estimate_registers(m, g), 6 + CFG_REG_OVERHEAD);
    module_func(m, k)->maxnreg = 5;
    ck_assert_uint_eq(cfg_estimate_registers(m, k), 5);
    mod_free(m);
}
END_TEST

/* The estimate works without prebuilt CFGs and follows calls transitively. */
START_TEST(test_estimate_transitive)
{
    Module *m = mod_new();
    uint32_t leaf = fn_new(m, "leaf", false);
    uint32_t l[5];
    for (int i = 0; i < 5; i++) {
        char name[8];
        snprintf(name, sizeof name, "%%rd%d", i);
        l[i] = reg(m, leaf, name, PTX_TYPE_F64);
        I_mov(m, leaf, PTX_TYPE_F64, NG, l[i], o_imm(i));
    }
    for (int i = 1; i < 5; i++)
        I_add(m, leaf, PTX_TYPE_F64, l[0], o_reg(l[0]), o_reg(l[i]));
    I_ctl(m, leaf, OP_RET, NG);
    uint32_t mid = fn_new(m, "mid", false);
    I_call(m, mid, leaf, NO_INDEX, NO_INDEX);
    I_ctl(m, mid, OP_RET, NG);
    uint32_t k = fn_new(m, "kern", true);
    uint32_t r = reg(m, k, "%r1", PTX_TYPE_U32);
    I_mov(m, k, PTX_TYPE_U32, NG, r, o_imm(0));
    I_call(m, k, mid, NO_INDEX, NO_INDEX);
    I_ctl(m, k, OP_RET, NG);
    uint32_t other = fn_new(m, "lonely", true); /* calls nothing */
    I_ctl(m, other, OP_RET, NG);
    ck_assert_uint_eq(cfg_estimate_registers(m, k), 10 + CFG_REG_OVERHEAD);
    ck_assert_uint_eq(cfg_estimate_registers(m, other), 1 + CFG_REG_OVERHEAD);
    ck_assert_ptr_null(module_func(m, k)->cfg); /* the estimate leaves the module as it was */
    mod_free(m);
}
END_TEST

/* ----------------------------------------------------- liveness details */

static uint32_t reg_named(const Function *f, const char *name)
{
    for (uint32_t i = 0; i < f->regs->len; i++)
        if (strcmp(g_array_index(f->regs, RegInfo, i).name, name) == 0)
            return i;
    ck_abort_msg("no register %s", name);
    return NO_INDEX;
}

/* Whether a result may still be read after its instruction: read later in
 * the block, replaced by an unguarded write first (dead), replaced only
 * under a guard (still live), or decided by the block's live-out set. */
START_TEST(test_live_after)
{
    static const char ptx[] = ".version 7.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p)\n{\n"
                              ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                              "ld.param.u64 %rd1, [p];\n"             /* 0 */
                              "atom.global.add.u32 %r1, [%rd1], 1;\n" /* 1 */
                              "add.s32 %r2, %r1, 1;\n"                /* 2 */
                              "atom.global.add.u32 %r3, [%rd1], 1;\n" /* 3 */
                              "mov.u32 %r3, 5;\n"                     /* 4 */
                              "atom.global.add.u32 %r4, [%rd1], 1;\n" /* 5 */
                              "setp.eq.u32 %p1, %r2, 0;\n"            /* 6 */
                              "@%p1 mov.u32 %r4, 7;\n"                /* 7 */
                              "@%p1 bra L;\n"                         /* 8 */
                              "st.global.u32 [%rd1], %r3;\n"          /* 9 */
                              "L:\n"
                              "st.global.u32 [%rd1+4], %r4;\n"        /* 10 */
                              "ret;\n}\n";
    GError *error = NULL;
    Module *m = ptx_parse_string(ptx, "t.ptx", &error);
    ck_assert_msg(m && cfg_build_all(m, &error), "%s", error ? error->message : "");
    const Function *f = module_func(m, 0);
    uint32_t r1 = reg_named(f, "%r1"), r2 = reg_named(f, "%r2"), r3 = reg_named(f, "%r3"), r4 = reg_named(f, "%r4");
    ck_assert(cfg_reg_live_after(f, 1, r1));  /* read by the next instruction */
    ck_assert(!cfg_reg_live_after(f, 2, r1)); /* never read again */
    ck_assert(!cfg_reg_live_after(f, 3, r3)); /* replaced before any read */
    ck_assert(cfg_reg_live_after(f, 4, r3));  /* read in a later block */
    ck_assert(cfg_reg_live_after(f, 5, r4));  /* replaced only under a guard, read after the join */
    ck_assert(cfg_reg_live_after(f, 2, r2));
    module_free(m);
}
END_TEST


START_TEST(test_guarded_def_does_not_kill)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), r1 = reg(m, f, "%r1", PTX_TYPE_U32);
    uint32_t rd = reg(m, f, "%rd2", PTX_TYPE_U64), p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_setp(m, f, p, o_reg(r0), o_imm(0));                   /* 0 */
    I_mov(m, f, PTX_TYPE_U32, p, r1, o_imm(5));             /* 1 @p mov */
    I_bra(m, f, NG, 3);                                     /* 2 */
    I_st(m, f, PTX_TYPE_U32, rd, o_reg(r1));                /* 3 st: all uses */
    I_ctl(m, f, OP_RET, NG);                                /* 4 */
    const Cfg *c = build(m, f);
    ck_assert(cfg_live_in(c, 0, r1)); /* the old value survives where p is false */
    ck_assert(cfg_live_in(c, 0, r0) && cfg_live_in(c, 0, rd) && !cfg_live_in(c, 0, p));
    ck_assert(cfg_live_in(c, 1, r1) && cfg_live_in(c, 1, rd) && !cfg_live_in(c, 1, r0));
    ck_assert_uint_eq(c->max_live_regs, 4); /* r0 r1 rd at entry */
    mod_free(m);
}
END_TEST

START_TEST(test_vector_pair_and_dead_defs)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), r1 = reg(m, f, "%r1", PTX_TYPE_U32);
    uint32_t rd = reg(m, f, "%rd2", PTX_TYPE_U64), r3 = reg(m, f, "%r3", PTX_TYPE_U32);
    uint32_t p = reg(m, f, "%p1", PTX_TYPE_PRED), q = reg(m, f, "%p2", PTX_TYPE_PRED);
    uint32_t dead = reg(m, f, "%rd9", PTX_TYPE_U64);
    /* 0: ld.v2.u32 {r0, r1}, [rd] */
    Operand v = {.kind = OPD_VEC, .vec_count = 2, .reg = NO_INDEX, .reg2 = NO_INDEX,
                 .sym = NO_INDEX, .func = NO_INDEX, .vec_regs = {r0, r1}};
    Operand ld[2] = {v, o_addr(rd)};
    emit(m, f, OP_LD, PTX_TYPE_U32, NG, 2, ld);
    /* 1: setp p|q, r0, r1 */
    Operand pair = {.kind = OPD_PAIR, .reg = p, .reg2 = q, .sym = NO_INDEX, .func = NO_INDEX};
    Operand sp[3] = {pair, o_reg(r0), o_reg(r1)};
    emit(m, f, OP_SETP, PTX_TYPE_U32, NG, 3, sp);
    I_mov(m, f, PTX_TYPE_U64, NG, dead, o_imm(7));          /* 2: never read */
    I_add(m, f, PTX_TYPE_U32, r3, o_reg(r0), o_reg(r1));    /* 3 */
    I_bra(m, f, q, 6);                                      /* 4 */
    I_mov(m, f, PTX_TYPE_U32, p, r3, o_imm(0));             /* 5 */
    I_st(m, f, PTX_TYPE_U32, rd, o_reg(r3));                /* 6 */
    I_ctl(m, f, OP_RET, NG);                                /* 7 */
    const Cfg *c = build(m, f);
    ck_assert(cfg_live_in(c, 0, rd));
    ck_assert(!cfg_live_in(c, 0, r0) && !cfg_live_in(c, 0, r1));
    ck_assert(!cfg_live_in(c, 0, p) && !cfg_live_in(c, 0, q) && !cfg_live_in(c, 0, dead));
    ck_assert(cfg_live_in(c, 1, p) && cfg_live_in(c, 1, r3) && cfg_live_in(c, 1, rd));
    /* at insn 2: r0 r1 rd live + the dead 64-bit result = 1+1+2+2 */
    ck_assert_uint_eq(c->max_live_regs, 6);
    ck_assert_uint_eq(c->blocks[0].max_live, 6);
    ck_assert_uint_eq(c->blocks[1].max_live, 3);
    mod_free(m);
}
END_TEST

/* --------------------------------------------------------- edge cases */

START_TEST(test_edge_cases)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_setp(m, f, p, o_reg(r0), o_imm(0));                   /* 0 */
    I_bra(m, f, p, 2);                                      /* 1 to the next insn */
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(1));     /* 2 */
    I_bra(m, f, p, 4);                                      /* 3 to just past the end */
    const Cfg *c = build(m, f);
    ck_assert_uint_eq(c->nblocks, 2);
    assert_block(c, 0, 0, 1, 1, 1, 0, 1);  /* both arms the same block */
    assert_block(c, 1, 2, 3, 1, X, 0, X);  /* both arms off the end */
    assert_reconv(c, 2, (uint32_t[]){1, 3}, (uint32_t[]){2, 4});

    uint32_t e = fn_new(m, "empty", false);
    c = build(m, e);
    ck_assert_uint_eq(c->nblocks, 0);
    ck_assert_uint_eq(c->max_live_regs, 0);

    uint32_t d = fn_new(m, "decl", false);
    module_func(m, d)->is_defined = false;
    ck_assert(cfg_build(m, d, NULL));
    ck_assert_ptr_null(module_func(m, d)->cfg);

    /* falling off the end: the last block goes to the exit */
    uint32_t g = fn_new(m, "fall", false);
    uint32_t gr = reg(m, g, "%r0", PTX_TYPE_U32);
    I_mov(m, g, PTX_TYPE_U32, NG, gr, o_imm(1));
    c = build(m, g);
    assert_block(c, 0, 0, 0, 1, X, 0, X);
    ck_assert_uint_eq(c->max_live_regs, 1);
    mod_free(m);
}
END_TEST

START_TEST(test_bad_input)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "k", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32);
    I_mov(m, f, PTX_TYPE_U32, NG, r0, o_imm(1));
    I_bra(m, f, NG, 9); /* out of range */
    GError *err = NULL;
    ck_assert(!cfg_build(m, f, &err));
    ck_assert_ptr_nonnull(err);
    ck_assert(g_error_matches(err, WARPSIM_ERROR, WS_ERR_INPUT));
    ck_assert_msg(strstr(err->message, "test.ptx:11:5: error:"), "%s", err->message);
    g_clear_error(&err);
    ck_assert_ptr_null(module_func(m, f)->cfg);
    func_insn(module_func(m, f), 1)->opd[0].imm = 2; /* repair: now only g is bad */

    uint32_t g = fn_new(m, "g", false);
    I_mov(m, g, PTX_TYPE_U32, NG, 3, o_imm(1)); /* register 3 does not exist */
    ck_assert(!cfg_build_all(m, &err));
    ck_assert(g_error_matches(err, WARPSIM_ERROR, WS_ERR_INPUT));
    ck_assert_msg(strstr(err->message, "test.ptx:10:5: error:"), "%s", err->message);
    g_clear_error(&err);
    mod_free(m);
}
END_TEST

/* ------------------------------------------------------------ printing */

static char *print_to_string(void (*fn)(FILE *, const Module *, uint32_t), const Module *m,
                             uint32_t f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    fn(out, m, f);
    fclose(out);
    return buf;
}

START_TEST(test_print)
{
    Module *m = mod_new();
    uint32_t f = fn_new(m, "dec2zero", true);
    uint32_t r0 = reg(m, f, "%r0", PTX_TYPE_U32), rd = reg(m, f, "%rd1", PTX_TYPE_U64);
    uint32_t p = reg(m, f, "%p1", PTX_TYPE_PRED);
    I_ld(m, f, PTX_TYPE_U32, r0, rd);
    I_setp(m, f, p, o_reg(r0), o_imm(0));
    I_bra(m, f, p, 6);
    I_add(m, f, PTX_TYPE_U32, r0, o_reg(r0), o_imm(-1));
    I_setp(m, f, p, o_reg(r0), o_imm(0));
    I_bra(m, f, p, 3);
    func_insn(module_func(m, f), 5)->guard_negate = true;
    I_st(m, f, PTX_TYPE_U32, rd, o_reg(r0));
    I_ctl(m, f, OP_RET, NG);
    build(m, f);
    char *text = print_to_string(cfg_print_text, m, f);
    ck_assert_msg(strstr(text, "B1: insns 3-5"), "%s", text);
    ck_assert_msg(strstr(text, "succ B1 B2, ipdom B2"), "%s", text);
    ck_assert_msg(strstr(text, "@!%p1 bra B1 -> reconverges at insn 6 (B2)"), "%s", text);
    ck_assert_msg(strstr(text, "ret -> reconverges at EXIT"), "%s", text);
    free(text);
    char *dot = print_to_string(cfg_print_dot, m, f);
    ck_assert_msg(strstr(dot, "digraph"), "%s", dot);
    ck_assert_msg(strstr(dot, "B0 -> B2 [label=\"taken\"]"), "%s", dot);
    ck_assert_msg(strstr(dot, "B1 -> B2 [style=dashed"), "%s", dot);
    ck_assert_msg(strstr(dot, "B2 -> EXIT;"), "%s", dot);
    free(dot);
    mod_free(m);
}
END_TEST

/* --------------------------------------------------------- parsed PTX */

static const char *call_loop_ptx =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".func (.param .b32 r) twice(.param .b32 x)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    ld.param.b32 %r1, [x];\n"
    "    add.s32 %r2, %r1, %r1;\n"
    "    st.param.b32 [r], %r2;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out, .param .u32 n)\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<6>;\n"
    "    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd1, [out];\n"          /* 0 */
    "    ld.param.u32 %r1, [n];\n"             /* 1 */
    "    mov.u32 %r2, %tid.x;\n"               /* 2 */
    "    setp.lt.u32 %p1, %r2, %r1;\n"         /* 3 */
    "    @%p1 bra THEN;\n"                     /* 4 */
    "    mov.u32 %r3, 7;\n"                    /* 5 */
    "    bra.uni JOIN;\n"                      /* 6 */
    "THEN:\n"
    "    mov.u32 %r3, 9;\n"                    /* 7 */
    "JOIN:\n"
    "LOOP:\n"
    "    setp.eq.u32 %p2, %r3, 0;\n"           /* 8 */
    "    @%p2 bra DONE;\n"                     /* 9 */
    "    sub.u32 %r3, %r3, 1;\n"               /* 10 */
    "    bra.uni LOOP;\n"                      /* 11 */
    "DONE:\n"
    "    { // callseq 0, 0\n"
    "    .param .b32 param0;\n"
    "    st.param.b32 [param0], %r3;\n"        /* 12 */
    "    .param .b32 retval0;\n"
    "    call.uni (retval0), twice, (param0);\n" /* 13 */
    "    ld.param.b32 %r4, [retval0];\n"       /* 14 */
    "    } // callseq 0\n"
    "    st.global.u32 [%rd1], %r4;\n"         /* 15 */
    "    ret;\n"                               /* 16 */
    "}\n";

/* ------------------------------------------------ load scheduling */

static const char SCHED_PTX[] =
    ".version 7.0\n"                                   /* 1 */
    ".target sm_80\n"                                  /* 2 */
    ".address_size 64\n"                               /* 3 */
    ".visible .entry k(.param .u64 p, .param .u64 q)\n" /* 4 */
    "{\n"                                              /* 5 */
    "  .reg .f32 %f<8>;\n"                             /* 6 */
    "  .reg .b64 %rd<4>;\n"                            /* 7 */
    "  ld.param.u64 %rd1, [p];\n"                      /* 8 */
    "  ld.param.u64 %rd2, [q];\n"                      /* 9 */
    "  ld.global.f32 %f1, [%rd1];\n"                   /* 10 */
    "  add.f32 %f2, %f1, 0f3F800000;\n"                /* 11: waits for line 10 */
    "  st.shared.f32 [%rd2], %f2;\n"                   /* 12: shared, cannot alias global */
    "  ld.global.f32 %f3, [%rd1+4];\n"                 /* 13: may pass 11 and 12 */
    "  add.f32 %f4, %f3, %f2;\n"                       /* 14 */
    "  st.global.f32 [%rd2], %f4;\n"                   /* 15 */
    "  ld.global.f32 %f5, [%rd1+8];\n"                 /* 16: may not pass the global store */
    "  mul.f32 %f6, %f5, %f5;\n"                       /* 17 */
    "$L_next:\n"                                       /* 18 */
    "  ld.global.f32 %f7, [%rd1+12];\n"                /* 19: a branch target starts a stretch */
    "  bar.sync 0;\n"                                  /* 20: fixed */
    "  add.f32 %f7, %f7, %f6;\n"                       /* 21 */
    "  ret;\n"                                         /* 22 */
    "}\n";

/* The first function of `text`, parsed but not analysed (schedule_function
 * comes before cfg_build); the module is the caller's. */
static Function *parse_unanalysed(const char *text, Module **m)
{
    GError *err = NULL;
    *m = ptx_parse_string(text, "inline.ptx", &err);
    ck_assert_msg(*m != NULL, "parse failed: %s", err ? err->message : "?");
    return module_func(*m, 0);
}

/* For each pair, the instruction of the first PTX line issues before the
 * second's. */
static void assert_lines_before(Function *f, const uint32_t (*pairs)[2], size_t n)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(tu_insn_at_line(f, pairs[i][0]) < tu_insn_at_line(f, pairs[i][1]),
                      "line %u should issue before line %u", pairs[i][0], pairs[i][1]);
}

START_TEST(test_schedule_hoists_loads)
{
    GError *err = NULL;
    Module *m;
    Function *f = parse_unanalysed(SCHED_PTX, &m);
    uint32_t label_at = tu_insn_at_line(f, 19), n = func_ninsns(f);
    schedule_function(f);
    ck_assert(f->scheduled);
    ck_assert_uint_eq(func_ninsns(f), n);
    static const uint32_t order[][2] = {
        {13, 11}, {13, 12},                   /* the second load passes the arithmetic and the shared store */
        {8, 10}, {10, 11}, {11, 12}, {13, 14}, /* dependences hold: the address first, each use after its load */
        {15, 16},                             /* a global load never passes a global store (they may alias) */
    };
    assert_lines_before(f, order, G_N_ELEMENTS(order));
    /* the branch target, the barrier and what follows stay where they were */
    ck_assert_uint_eq(tu_insn_at_line(f, 19), label_at);
    for (uint32_t line = 20; line <= 22; line++)
        ck_assert_uint_eq(tu_insn_at_line(f, line), label_at + line - 19);
    /* once only: a second call changes nothing */
    Insn before[32];
    ck_assert_uint_le(n, G_N_ELEMENTS(before));
    memcpy(before, func_insn(f, 0), n * sizeof(Insn));
    schedule_function(f);
    ck_assert(memcmp(before, func_insn(f, 0), n * sizeof(Insn)) == 0);
    /* the analyses accept the new order */
    ck_assert_msg(cfg_build_all(m, &err), "cfg failed: %s", err ? err->message : "?");
    ck_assert_uint_eq(cfg_block_line(f, &f->cfg->blocks[0]), 8);
    module_free(m);
}
END_TEST

/* Two independent chains of arithmetic, one after the other in the PTX
 * (an unrolled loop's iterations): the scheduler interleaves them by
 * their expected latency, so that the second chain's steps fill the
 * first's waits; a constant at a fixed address (an operand) weighs
 * nothing, so it does not go ahead of a longer chain. */
static const char CHAINS_PTX[] =
    ".version 7.0\n"                                   /* 1 */
    ".target sm_80\n"                                  /* 2 */
    ".address_size 64\n"                               /* 3 */
    ".const .align 4 .f32 c[2];\n"                     /* 4 */
    ".visible .entry k(.param .u64 p)\n"               /* 5 */
    "{\n"                                              /* 6 */
    "  .reg .f32 %f<12>;\n"                            /* 7 */
    "  .reg .b64 %rd<2>;\n"                            /* 8 */
    "  ld.param.u64 %rd1, [p];\n"                      /* 9 */
    "  add.f32 %f1, %f0, 0f3F800000;\n"                /* 10: chain 1 */
    "  rsqrt.approx.f32 %f2, %f1;\n"                   /* 11 */
    "  mul.f32 %f3, %f2, %f2;\n"                       /* 12 */
    "  add.f32 %f4, %f0, 0f40000000;\n"                /* 13: chain 2 */
    "  rsqrt.approx.f32 %f5, %f4;\n"                   /* 14 */
    "  mul.f32 %f6, %f5, %f5;\n"                       /* 15 */
    "  ld.const.f32 %f7, [c+4];\n"                     /* 16: an operand */
    "  add.f32 %f8, %f3, %f7;\n"                       /* 17 */
    "  add.f32 %f9, %f8, %f6;\n"                       /* 18 */
    "  st.global.f32 [%rd1], %f9;\n"                   /* 19 */
    "  ret;\n"                                         /* 20 */
    "}\n";

START_TEST(test_schedule_interleaves_chains)
{
    Module *m;
    Function *f = parse_unanalysed(CHAINS_PTX, &m);
    schedule_function(f);
    static const uint32_t before[][2] = {
        {13, 11}, {14, 12},                     /* chain 2 starts before chain 1's SFU result is waited for */
        {10, 11}, {11, 12}, {13, 14}, {14, 15}, /* each chain keeps its own order */
        /* the operand, on a short path, comes after both chains' heads: it
         * fills a cycle in which neither chain's next step is due */
        {13, 16}, {16, 11},
    };
    assert_lines_before(f, before, G_N_ELEMENTS(before));
    module_free(m);
}
END_TEST

static Module *parse_or_fail(const char *text)
{
    GError *err = NULL;
    Module *m = ptx_parse_string(text, "inline.ptx", &err);
    ck_assert_msg(m != NULL, "parse failed: %s", err ? err->message : "?");
    ck_assert_msg(cfg_build_all(m, &err), "cfg failed: %s", err ? err->message : "?");
    return m;
}

/* The sources of instruction pc's read of `reg`, as the instructions that
 * wrote them (their first write) or -1 for REACHING_ENTRY, ascending. */
static GString *sources_of(const Reaching *r, const Function *f, uint32_t pc, const char *reg)
{
    uint32_t n;
    const uint32_t *w = reaching_sources(r, pc, reg_named(f, reg), &n);
    GString *s = g_string_new(NULL);
    for (uint32_t k = 0; k < n; k++) {
        int64_t by = -1;
        for (uint32_t i = 0; i < func_ninsns(f) && w[k] != REACHING_ENTRY; i++)
            if (reaching_first_write(r, i) <= w[k] && w[k] < reaching_first_write(r, i + 1))
                by = i;
        g_string_append_printf(s, "%s%" G_GINT64_FORMAT, k ? " " : "", by);
    }
    return s;
}

#define ASSERT_SOURCES(r, f, pc, reg, want)                  \
    do {                                                     \
        GString *got_ = sources_of((r), (f), (pc), (reg));   \
        ck_assert_str_eq(got_->str, (want));                 \
        g_string_free(got_, TRUE);                           \
    } while (0)

/* A register reused for a loop variable after an index; guarded writes
 * that do not hide the ones before; a read before any write. */
START_TEST(test_reaching_writes)
{
    Module *m = parse_or_fail(
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u32 n)\n"
        "{\n"
        "    .reg .pred %p<3>;\n"
        "    .reg .b32 %r<6>;\n"
        "    ld.param.u32 %r1, [n];\n"       /* 0 */
        "    mov.u32 %r2, %tid.x;\n"         /* 1 */
        "    mov.u32 %r3, %r2;\n"            /* 2 */
        "    setp.ge.u32 %p1, %r2, %r1;\n"   /* 3 */
        "    @%p1 mov.u32 %r3, 7;\n"         /* 4 */
        "    add.u32 %r4, %r3, 1;\n"         /* 5 */
        "LOOP:\n"
        "    add.u32 %r3, %r3, %r1;\n"       /* 6 */
        "    setp.lt.u32 %p2, %r3, 100;\n"   /* 7 */
        "    @%p2 bra LOOP;\n"               /* 8 */
        "    @%p1 mov.u32 %r5, 1;\n"         /* 9 */
        "    add.u32 %r4, %r5, %r3;\n"       /* 10 */
        "    ret;\n"
        "}\n");
    const Function *f = module_func(m, module_find_kernel(m, "k", NULL));
    Reaching *r = reaching_new(f);
    ck_assert_ptr_nonnull(r);
    ASSERT_SOURCES(r, f, 3, "%r1", "0");       /* written once, before every read */
    ASSERT_SOURCES(r, f, 5, "%r3", "2 4");     /* the guarded write hides nothing */
    ASSERT_SOURCES(r, f, 6, "%r3", "2 4 6");   /* into the loop, and around it */
    ASSERT_SOURCES(r, f, 7, "%r3", "6");
    ASSERT_SOURCES(r, f, 10, "%r3", "6");
    ASSERT_SOURCES(r, f, 10, "%r5", "-1 9");   /* %p1 false: the frame's zero */
    ASSERT_SOURCES(r, f, 5, "%r5", "");        /* not read there */
    ck_assert_uint_eq(reaching_first_write(r, 3), 3); /* one write per instruction so far */
    reaching_free(r);
    module_free(m);
}
END_TEST

START_TEST(test_parsed_call_loop)
{
    Module *m = parse_or_fail(call_loop_ptx);
    uint32_t k = module_find_func(m, "k"), t = module_find_func(m, "twice");
    ck_assert_uint_ne(k, NO_INDEX);
    ck_assert_uint_ne(t, NO_INDEX);
    const Function *f = module_func(m, k);
    const Cfg *c = f->cfg;
    ck_assert_uint_eq(c->ninsns, 17);
    ck_assert_uint_eq(c->nblocks, 6);
    assert_block(c, 0, 0, 4, 2, 2, 1, 3);
    assert_block(c, 1, 5, 6, 1, 3, 0, 3);
    assert_block(c, 2, 7, 7, 1, 3, 0, 3);
    assert_block(c, 3, 8, 9, 2, 5, 4, 5);
    assert_block(c, 4, 10, 11, 1, 3, 0, 3);
    assert_block(c, 5, 12, 16, 1, X, 0, X); /* the call stays inside its block */
    assert_reconv(c, 5, (uint32_t[]){4, 6, 9, 11, 16}, (uint32_t[]){8, 8, 12, 8, 17});
    uint32_t rd1 = reg_named(f, "%rd1"), r3 = reg_named(f, "%r3"), r1 = reg_named(f, "%r1");
    uint32_t p2 = reg_named(f, "%p2"), r4 = reg_named(f, "%r4");
    ck_assert(cfg_live_in(c, 3, rd1) && cfg_live_in(c, 3, r3) && !cfg_live_in(c, 3, p2));
    ck_assert(cfg_live_in(c, 5, rd1) && cfg_live_in(c, 5, r3) && !cfg_live_in(c, 5, r4));
    ck_assert(!cfg_live_in(c, 0, rd1) && !cfg_live_in(c, 0, r1));
    ck_assert(cfg_live_out(c, 0, rd1) && !cfg_live_out(c, 0, r1));
    /* peak at the setp: %rd1 %r1 %r2 = 2+1+1 */
    ck_assert_uint_eq(c->max_live_regs, 4);
    ck_assert_uint_eq(module_func(m, t)->cfg->max_live_regs, 1);
    ck_assert_uint_eq(cfg_estimate_registers(m, k), 4 + CFG_REG_OVERHEAD);
    module_free(m);
}
END_TEST

/* a .func with a guarded early ret and a guarded trap */
START_TEST(test_parsed_guarded_ret)
{
    Module *m = parse_or_fail(
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".func clamp(.param .u64 p)\n"
        "{\n"
        "    .reg .pred %p<3>;\n"
        "    .reg .b32 %r<4>;\n"
        "    .reg .b64 %rd<2>;\n"
        "    ld.param.u64 %rd1, [p];\n"      /* 0 */
        "    ld.u32 %r1, [%rd1];\n"          /* 1 */
        "    setp.gt.u32 %p1, %r1, 100;\n"   /* 2 */
        "    @%p1 ret;\n"                    /* 3 */
        "    setp.eq.u32 %p2, %r1, 0;\n"     /* 4 */
        "    @%p2 trap;\n"                   /* 5 */
        "    add.u32 %r2, %r1, 1;\n"         /* 6 */
        "    st.u32 [%rd1], %r2;\n"          /* 7 */
        "    ret;\n"                         /* 8 */
        "}\n");
    uint32_t fi = module_find_func(m, "clamp");
    const Cfg *c = module_func(m, fi)->cfg;
    ck_assert_uint_eq(c->nblocks, 3);
    assert_block(c, 0, 0, 3, 2, X, 1, X);
    assert_block(c, 1, 4, 5, 2, X, 2, X);
    assert_block(c, 2, 6, 8, 1, X, 0, X);
    assert_reconv(c, 3, (uint32_t[]){3, 5, 8}, (uint32_t[]){9, 9, 9});
    ck_assert_uint_eq(c->max_live_regs, 3); /* %rd1 and %r1 */
    module_free(m);
}
END_TEST

/* Structural invariants on every function of every PTX file under traces/. */
/* The first write that lands in the row of a register live after it,
 * read by it or written beside it, described (g_free it), or NULL: an
 * independent walk of each block from its live-out set.  One assertion
 * for the whole walk: Check's per-assertion cost would dominate a
 * function of thousands of registers. */
static char *first_clobber(const Function *f)
{
    const Cfg *c = f->cfg;
    CfgRegList uses = {0}, defs = {0};
    uint64_t *live = g_new(uint64_t, c->words), *near = g_new(uint64_t, c->words);
    char *why = NULL;
    for (uint32_t b = 0; b < c->nblocks && !why; b++) {
        memcpy(live, c->live_out + (size_t)b * c->words, c->words * sizeof *live);
        for (uint32_t i = c->blocks[b].last + 1; i-- > c->blocks[b].first && !why;) {
            const Insn *in = func_insn(f, i);
            cfg_insn_regs(f, in, &uses, &defs);
            memcpy(near, live, c->words * sizeof *near);
            for (uint32_t k = 0; k < uses.n; k++)
                near[uses.v[k] / 64] |= 1ull << (uses.v[k] % 64);
            for (uint32_t k = 0; k < defs.n; k++)
                near[defs.v[k] / 64] |= 1ull << (defs.v[k] % 64);
            for (uint32_t j = 0; j < defs.n && !why; j++) {
                uint32_t d = defs.v[j];
                for (uint32_t x = 0; x < c->words && !why; x++)
                    for (uint64_t bits = near[x]; bits && !why; bits &= bits - 1) {
                        uint32_t r = x * 64 + (uint32_t)__builtin_ctzll(bits);
                        if (r != d && c->slot_of[r] == c->slot_of[d])
                            why = g_strdup_printf("%s insn %u: writing reg %u clobbers reg %u (row %u)", f->name,
                                                  i, d, r, c->slot_of[d]);
                    }
            }
            if (in->guard == NO_INDEX)
                for (uint32_t j = 0; j < defs.n; j++)
                    live[defs.v[j] / 64] &= ~(1ull << (defs.v[j] % 64));
            for (uint32_t j = 0; j < uses.n; j++)
                live[uses.v[j] / 64] |= 1ull << (uses.v[j] % 64);
        }
    }
    g_free(live);
    g_free(near);
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
    return why;
}

static void check_invariants(const Module *m, uint32_t fi)
{
    const Function *f = module_func(m, fi);
    const Cfg *c = f->cfg;
    if (!f->is_defined)
        return;
    ck_assert_ptr_nonnull(c);
    uint32_t n = func_ninsns(f);
    for (uint32_t b = 0; b < c->nblocks; b++) {
        const BasicBlock *bb = &c->blocks[b];
        ck_assert_uint_eq(bb->first, b == 0 ? 0 : c->blocks[b - 1].last + 1);
        const Insn *last = func_insn(f, bb->last);
        /* a single successor is the immediate post-dominator */
        if (bb->nsucc == 1 && !(bb->flags & BB_EXIT_LINK))
            ck_assert_msg(bb->ipdom == bb->succ[0], "%s B%u", f->name, b);
        /* the IPDOM post-dominates every successor: it lies on its pdom chain */
        for (uint8_t s = 0; s < bb->nsucc && bb->ipdom != CFG_EXIT; s++) {
            uint32_t v = bb->succ[s], steps = 0;
            while (v != bb->ipdom && v != CFG_EXIT && steps++ <= c->nblocks)
                v = c->blocks[v].ipdom;
            ck_assert_msg(v == bb->ipdom, "%s B%u: ipdom B%u is not above succ", f->name, b,
                          bb->ipdom);
        }
        if (last->op == OP_BRA) {
            uint32_t want = bb->ipdom == CFG_EXIT ? n : c->blocks[bb->ipdom].first;
            ck_assert_uint_eq(c->reconv_pc[bb->last], want);
            uint32_t t = (uint32_t)last->opd[0].imm;
            if (t < n)
                ck_assert_uint_eq(c->blocks[c->block_of[t]].first, t);
        }
        /* live-out is the union of the successors' live-in */
        for (uint32_t r = 0; r < c->nregs; r++) {
            bool any = false;
            for (uint8_t s = 0; s < bb->nsucc; s++)
                if (bb->succ[s] != CFG_EXIT && cfg_live_in(c, bb->succ[s], r))
                    any = true;
            ck_assert_msg(any == cfg_live_out(c, b, r), "%s B%u reg %u", f->name, b, r);
        }
    }
    ck_assert_uint_le(c->max_live_regs, 2 * c->nregs);
    char *clobber = first_clobber(f);
    ck_assert_msg(!clobber, "%s", clobber);
    /* storage rows: in range, and registers live together never share one */
    ck_assert_uint_ge(c->nslots, 1);
    ck_assert_uint_le(c->nslots, MAX(c->nregs, 1u));
    uint32_t *holder = g_new(uint32_t, c->nslots);
    for (uint32_t b = 0; b < c->nblocks; b++) {
        for (uint32_t s = 0; s < c->nslots; s++)
            holder[s] = NO_INDEX;
        for (uint32_t r = 0; r < c->nregs; r++) {
            ck_assert_uint_lt(c->slot_of[r], c->nslots);
            if (!cfg_live_in(c, b, r))
                continue;
            ck_assert_msg(holder[c->slot_of[r]] == NO_INDEX, "%s B%u: regs %u and %u live in row %u", f->name, b,
                          holder[c->slot_of[r]], r, c->slot_of[r]);
            holder[c->slot_of[r]] = r;
        }
    }
    g_free(holder);
    /* rows a frame starts with zeroed: distinct, in range, every row of a
     * register live at entry among them, and every row with a shuffle */
    bool shfl = false;
    for (uint32_t i = 0; i < c->ninsns; i++)
        shfl |= func_insn(f, i)->op == OP_SHFL;
    uint8_t *listed = g_new0(uint8_t, c->nslots);
    for (uint32_t i = 0; i < c->nentry_rows; i++) {
        ck_assert_uint_lt(c->entry_rows[i], c->nslots);
        ck_assert_msg(!listed[c->entry_rows[i]], "%s: row %u listed twice", f->name, c->entry_rows[i]);
        listed[c->entry_rows[i]] = 1;
    }
    for (uint32_t r = 0; r < c->nregs; r++)
        if (c->nblocks && cfg_live_in(c, 0, r))
            ck_assert_msg(listed[c->slot_of[r]], "%s: reg %u live at entry, row %u not zeroed", f->name, r,
                          c->slot_of[r]);
    if (shfl)
        ck_assert_uint_eq(c->nentry_rows, c->nslots);
    g_free(listed);
}

/* cfg_walk_live_after's answer for one register after one instruction,
 * worked out the slow way it promises to equal: the rest of the block in
 * order (a read makes it live, an unguarded write dead), else the block's
 * live-out set. */
static bool live_after_by_scan(const Function *f, uint32_t pc, uint32_t reg)
{
    const Cfg *c = f->cfg;
    uint32_t b = c->block_of[pc];
    CfgRegList uses = {0}, defs = {0};
    int live = -1;
    for (uint32_t i = pc + 1; i <= c->blocks[b].last && live < 0; i++) {
        const Insn *in = func_insn(f, i);
        cfg_insn_regs(f, in, &uses, &defs);
        for (uint32_t j = 0; j < uses.n && live < 0; j++)
            if (uses.v[j] == reg)
                live = 1;
        for (uint32_t j = 0; in->guard == NO_INDEX && j < defs.n && live < 0; j++)
            if (defs.v[j] == reg)
                live = 0;
    }
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
    return live < 0 ? cfg_live_out(c, b, reg) : live == 1;
}

typedef struct {
    const Function *f;
    uint32_t *visits;
    uint64_t checked;
} LiveWalkCheck;

/* Each result and operand register of the instruction, as the walk sees it
 * after pc, against the scan. */
static void check_live_visit(uint32_t pc, const uint64_t *live, void *user)
{
    LiveWalkCheck *k = user;
    k->visits[pc]++;
    CfgRegList uses = {0}, defs = {0};
    cfg_insn_regs(k->f, func_insn(k->f, pc), &uses, &defs);
    for (int list = 0; list < 2; list++) {
        const CfgRegList *l = list ? &uses : &defs;
        for (uint32_t j = 0; j < l->n; j++) {
            ck_assert_msg(cfg_reg_in(live, l->v[j]) == live_after_by_scan(k->f, pc, l->v[j]),
                          "%s: register %u after instruction %u", k->f->name, l->v[j], pc);
            k->checked++;
        }
    }
    cfg_reglist_clear(&uses);
    cfg_reglist_clear(&defs);
}

/* The one-pass walk visits every instruction once and agrees with the
 * scan on every register an instruction names; returns the checks made. */
static uint64_t check_live_walk(const Function *f)
{
    LiveWalkCheck k = {f, g_new0(uint32_t, MAX(func_ninsns(f), 1u)), 0};
    cfg_walk_live_after(f, check_live_visit, &k);
    for (uint32_t i = 0; i < func_ninsns(f); i++)
        ck_assert_msg(k.visits[i] == 1, "%s: instruction %u visited %u times", f->name, i, k.visits[i]);
    g_free(k.visits);
    return k.checked;
}

/* A kernel of `n` adds, each of the one before (so 2 registers live),
 * in %f<declared>, with a jump to the next line every 100 adds so that
 * liveness crosses blocks. */
static char *long_chain_kernel(uint32_t n, uint32_t declared)
{
    GString *s = g_string_new(".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p)\n{\n .reg .b64 %rd<2>;\n .reg .b32 %r<2>;\n"
                              " .reg .pred %q<2>;\n");
    g_string_append_printf(s, " .reg .f32 %%f<%u>;\n ld.param.u64 %%rd1, [p];\n mov.u32 %%r1, %%tid.x;\n"
                              " setp.eq.u32 %%q1, %%r1, 0;\n mov.f32 %%f0, 0f3F800000;\n", declared);
    for (uint32_t i = 1; i <= n; i++) {
        if (i % 100 == 0)
            g_string_append_printf(s, " @%%q1 bra L%u;\nL%u:\n", i, i);
        g_string_append_printf(s, " add.f32 %%f%u, %%f%u, 0f3F800000;\n", i, i - 1);
    }
    g_string_append_printf(s, " st.global.f32 [%%rd1], %%f%u;\n ret;\n}\n", n);
    return g_string_free(s, FALSE);
}

/* Above PACK_MAX_REGS (8192) registers, rows are not one per declared
 * register: an unused declaration costs nothing, and a long chain shares
 * a few rows (a 60000-register chain timed on h200 needed 16 GB). */
START_TEST(test_many_registers_share_rows)
{
    static const uint32_t shapes[][2] = {{3, 50000}, {9000, 9001}, {100, 101}};
    for (size_t k = 0; k < G_N_ELEMENTS(shapes); k++) {
        char *ptx = long_chain_kernel(shapes[k][0], shapes[k][1]);
        GError *err = NULL;
        Module *m = ptx_parse_string(ptx, "chain.ptx", &err);
        ck_assert_msg(m && cfg_build_all(m, &err), "%s", err ? err->message : "?");
        const Cfg *c = module_func(m, 0)->cfg;
        char *clobber = first_clobber(module_func(m, 0));
        ck_assert_msg(!clobber, "%u adds: %s", shapes[k][0], clobber);
        ck_assert_msg(c->nslots <= 12, "%u adds in %%f<%u>: %u rows", shapes[k][0], shapes[k][1], c->nslots);
        module_free(m);
        g_free(ptx);
    }
}
END_TEST

START_TEST(test_traces_invariants)
{
    char *root = tu_source_path("traces");
    GDir *dir = g_dir_open(root, 0, NULL);
    ck_assert_ptr_nonnull(dir);
    const char *name;
    int files = 0;
    uint64_t regs = 0, rows = 0, live_checks = 0;
    while ((name = g_dir_read_name(dir))) {
        char *sub = g_build_filename(root, name, NULL);
        GDir *d2 = g_dir_open(sub, 0, NULL);
        const char *fname;
        while (d2 && (fname = g_dir_read_name(d2))) {
            if (!g_str_has_suffix(fname, ".ptx"))
                continue;
            char *path = g_build_filename(sub, fname, NULL);
            GError *err = NULL;
            Module *m = ptx_parse_file(path, &err);
            if (m) { /* parsing is another suite's business */
                ck_assert_msg(cfg_build_all(m, &err), "%s: %s", path, err ? err->message : "?");
                for (uint32_t fi = 0; fi < m->funcs->len; fi++) {
                    check_invariants(m, fi);
                    const Cfg *c = module_func(m, fi)->cfg;
                    if (c) {
                        regs += c->nregs;
                        rows += c->nslots;
                        live_checks += check_live_walk(module_func(m, fi));
                    }
                }
                files++;
                module_free(m);
            }
            g_clear_error(&err);
            g_free(path);
        }
        if (d2)
            g_dir_close(d2);
        g_free(sub);
    }
    g_dir_close(dir);
    g_free(root);
    ck_assert_int_gt(files, 0);
    ck_assert_uint_gt(live_checks, 1000);
    /* nvcc names a fresh virtual register for nearly every value: sharing
     * rows must shrink the register files several times over */
    ck_assert_msg(rows * 3 < regs, "%llu registers in %llu rows", (unsigned long long)regs,
                  (unsigned long long)rows);
}
END_TEST

static Suite *cfg_suite(void)
{
    Suite *s = suite_create("cfg");
    TCase *t = tcase_create("shapes");
    tcase_add_test(t, test_if_else);
    tcase_add_test(t, test_if_without_else);
    tcase_add_test(t, test_nested_if);
    tcase_add_test(t, test_loop_with_break);
    tcase_add_test(t, test_dec2zero);
    tcase_add_test(t, test_early_return);
    tcase_add_test(t, test_partial_exit);
    tcase_add_test(t, test_unreachable);
    tcase_add_test(t, test_infinite_loop);
    tcase_add_test(t, test_infinite_loop_one_arm);
    tcase_add_test(t, test_call);
    tcase_add_test(t, test_estimate_transitive);
    tcase_add_test(t, test_live_after);
    suite_add_tcase(s, t);
    TCase *l = tcase_create("liveness");
    tcase_add_test(l, test_guarded_def_does_not_kill);
    tcase_add_test(l, test_vector_pair_and_dead_defs);
    suite_add_tcase(s, l);
    TCase *e = tcase_create("edges");
    tcase_add_test(e, test_edge_cases);
    tcase_add_test(e, test_bad_input);
    tcase_add_test(e, test_print);
    suite_add_tcase(s, e);
    TCase *p = tcase_create("parsed");
    tcase_add_test(p, test_parsed_call_loop);
    tcase_add_test(p, test_parsed_guarded_ret);
    tcase_add_test(p, test_reaching_writes);
    tcase_add_test(p, test_traces_invariants);
    tcase_add_test(p, test_many_registers_share_rows);
    tcase_add_test(p, test_schedule_hoists_loads);
    tcase_add_test(p, test_schedule_interleaves_chains);
    tcase_set_timeout(p, 60);
    suite_add_tcase(s, p);
    return s;
}

int main(void)
{
    return tu_run_suite(cfg_suite());
}
