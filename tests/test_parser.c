/* test_parser.c — PTX to Module: decoded fields of valid inputs (old PTX 1.x,
 * OpenCL-style 32-bit PTX, nvcc 13 output), the malformed corpus in
 * tests/ptx/malformed (expected message on each file's first line), and
 * robustness against truncated input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "errors.h"
#include "module.h"
#include "ptx_parser.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------ */

static char *src_path(const char *rel) { return g_build_filename(SOURCE_ROOT, rel, NULL); }

static Module *parse_file_ok(const char *rel)
{
    char *path = src_path(rel);
    GError *e = NULL;
    Module *m = ptx_parse_file(path, &e);
    ck_assert_msg(m != NULL, "%s: %s", rel, e ? e->message : "?");
    g_free(path);
    return m;
}

static Module *parse_ok(const char *text)
{
    GError *e = NULL;
    Module *m = ptx_parse_string(text, "t.ptx", &e);
    ck_assert_msg(m != NULL, "parse failed: %s", e ? e->message : "?");
    return m;
}

static void parse_fails(const char *text, int code, const char *msg)
{
    GError *e = NULL;
    Module *m = ptx_parse_string(text, "t.ptx", &e);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->message, msg);
    ck_assert_int_eq(e->code, code);
    g_error_free(e);
}

static const Function *func(const Module *m, const char *name)
{
    uint32_t i = module_find_func(m, name);
    ck_assert_msg(i != NO_INDEX, "no function %s", name);
    return module_func(m, i);
}

static uint32_t reg(const Function *f, const char *name)
{
    /* the first one when nested scopes redeclare the name */
    for (guint i = 0; i < f->regs->len; i++)
        if (strcmp(g_array_index(f->regs, RegInfo, i).name, name) == 0)
            return i;
    ck_abort_msg("no register %s", name);
    return NO_INDEX;
}

/* variable `name` owned by function `owner` (NO_INDEX: module scope); the
 * n-th one when several scopes reuse the name */
static uint32_t var_nth(const Module *m, const char *name, uint32_t owner, unsigned nth)
{
    for (guint i = 0; i < m->vars->len; i++) {
        const Variable *v = module_var(m, i);
        if (v->owner == owner && strcmp(v->name, name) == 0 && nth-- == 0)
            return i;
    }
    ck_abort_msg("no variable %s", name);
    return NO_INDEX;
}
static uint32_t var(const Module *m, const char *name, uint32_t owner) { return var_nth(m, name, owner, 0); }

static const Insn *insn(const Function *f, uint32_t i)
{
    ck_assert_uint_lt(i, func_ninsns(f));
    return func_insn(f, i);
}


static uint32_t f32b(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
static uint64_t f64b(double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
}

static void assert_text(const Module *m, const Function *f, uint32_t i, const char *want)
{
    char *s = insn_to_string(m, f, insn(f, i));
    ck_assert_str_eq(s, want);
    g_free(s);
}

#define KHEAD ".version 9.0\n.target sm_90\n.address_size 64\n"

/* ---- the PTX 1.x saxpy listing of reference document 000 ------------------ */

/* nvcc 13 declares __managed__ variables with .attribute(.managed) */
START_TEST(test_managed_attribute)
{
    Module *m = parse_ok(".version 8.0\n.target sm_75\n.address_size 64\n"
                         ".global .attribute(.managed) .align 4 .u32 counter;\n"
                         ".global .attribute(.managed) .align 8 .b8 table[64];\n"
                         ".visible .entry k()\n{\n  ret;\n}\n");
    uint32_t v = module_find_global(m, "counter");
    ck_assert_uint_ne(v, NO_INDEX);
    ck_assert_uint_eq(module_var(m, v)->space, SPACE_GLOBAL);
    ck_assert_uint_eq(module_var(m, v)->align, 4);
    ck_assert_uint_ne(module_find_global(m, "table"), NO_INDEX);
    module_free(m);
}
END_TEST

START_TEST(test_old_saxpy)
{
    Module *m = parse_file_ok("tests/ptx/valid/saxpy_ptx1.ptx");
    ck_assert_uint_eq(m->address_size, 64);
    ck_assert_uint_eq(m->funcs->len, 1);
    const Function *f = func(m, "saxpy");
    uint32_t k = module_find_func(m, "saxpy");
    ck_assert(f->is_entry && f->is_defined);
    /* parameters: s32 n, f32 alpha, u64 x, u64 y */
    ck_assert_uint_eq(f->params->len, 4);
    const char *pn[] = {"n", "alpha", "x", "y"};
    const uint64_t off[] = {0, 4, 8, 16};
    for (int i = 0; i < 4; i++) {
        const Variable *v = module_var(m, g_array_index(f->params, uint32_t, i));
        ck_assert_str_eq(v->name, pn[i]);
        ck_assert_uint_eq(v->offset, off[i]);
        ck_assert_int_eq(v->scope, VAR_KERNEL_PARAM);
        ck_assert_int_eq(v->space, SPACE_PARAM);
        ck_assert_uint_eq(v->owner, k);
    }
    ck_assert_uint_eq(f->frame_param_bytes, 24);
    /* .reg .u16 %rh<4> ... .reg .pred %p<3> */
    ck_assert_uint_eq(f->regs->len, 4 + 6 + 8 + 6 + 3);
    ck_assert_int_eq(g_array_index(f->regs, RegInfo, reg(f, "%rh3")).type, PTX_TYPE_U16);
    ck_assert_uint_eq(func_ninsns(f), 20);

    const Insn *in = insn(f, 0); /* mov.u16 %rh1, %ctaid.x */
    ck_assert_int_eq(in->op, OP_MOV);
    ck_assert_int_eq(in->type, PTX_TYPE_U16);
    ck_assert_int_eq(in->opd[0].kind, OPD_REG);
    ck_assert_uint_eq(in->opd[0].reg, reg(f, "%rh1"));
    ck_assert_int_eq(in->opd[1].kind, OPD_SREG);
    ck_assert_uint_eq(in->opd[1].reg, SREG_CTAID);
    ck_assert_uint_eq(in->opd[1].component, 0);
    ck_assert_uint_eq(in->guard, NO_INDEX);
    ck_assert_uint_eq(in->vec, 1);
    ck_assert_uint_eq(in->line, 257 - 251);
    ck_assert_uint_eq(in->col, 5);

    in = insn(f, 2); /* mul.wide.u16 %r1, %rh1, %rh2 */
    ck_assert_int_eq(in->op, OP_MUL);
    ck_assert_int_eq(in->mul, MUL_WIDE);
    ck_assert_int_eq(in->type, PTX_TYPE_U16);
    ck_assert_uint_eq(in->nopd, 3);

    in = insn(f, 3); /* cvt.u32.u16 %r2, %tid.x */
    ck_assert_int_eq(in->op, OP_CVT);
    ck_assert_int_eq(in->type, PTX_TYPE_U32);
    ck_assert_int_eq(in->type2, PTX_TYPE_U16);
    ck_assert_uint_eq(in->opd[1].reg, SREG_TID);

    in = insn(f, 5); /* ld.param.s32 %r4, [n] */
    ck_assert_int_eq(in->op, OP_LD);
    ck_assert_int_eq(in->space, SPACE_PARAM);
    ck_assert_int_eq(in->type, PTX_TYPE_S32);
    ck_assert_int_eq(in->opd[1].kind, OPD_ADDR);
    ck_assert_uint_eq(in->opd[1].sym, var(m, "n", k));
    ck_assert_uint_eq(in->opd[1].reg, NO_INDEX);
    ck_assert_int_eq(in->opd[1].imm, 0);

    in = insn(f, 6); /* setp.le.s32 %p1, %r4, %r3 */
    ck_assert_int_eq(in->op, OP_SETP);
    ck_assert_int_eq(in->cmp, CMP_LE);

    in = insn(f, 7); /* @p1 bra $Lt_0_770 : p1 is %p1, the target is exit */
    ck_assert_int_eq(in->op, OP_BRA);
    ck_assert_uint_eq(in->guard, reg(f, "%p1"));
    ck_assert(!in->guard_negate);
    ck_assert_int_eq(in->opd[0].kind, OPD_LABEL);
    ck_assert_int_eq(in->opd[0].imm, 19);
    ck_assert_int_eq(insn(f, 19)->op, OP_EXIT);

    in = insn(f, 9); /* mul.lo.u64 %rd2, %rd1, 4 */
    ck_assert_int_eq(in->mul, MUL_LO);
    ck_assert_int_eq(in->opd[2].kind, OPD_IMM);
    ck_assert_int_eq(in->opd[2].imm, 4);

    in = insn(f, 12); /* ld.global.f32 %f1, [%rd4+0] */
    ck_assert_int_eq(in->space, SPACE_GLOBAL);
    ck_assert_int_eq(in->opd[1].kind, OPD_ADDR);
    ck_assert_uint_eq(in->opd[1].reg, reg(f, "%rd4"));
    ck_assert_uint_eq(in->opd[1].sym, NO_INDEX);

    in = insn(f, 17); /* mad.f32 %f4, %f2, %f3, %f1 */
    ck_assert_int_eq(in->op, OP_MAD);
    ck_assert_int_eq(in->type, PTX_TYPE_F32);
    ck_assert_uint_eq(in->nopd, 4);
    ck_assert_uint_eq(in->opd[3].reg, reg(f, "%f1"));

    in = insn(f, 18); /* st.global.f32 [%rd4+0], %f4 */
    ck_assert_int_eq(in->op, OP_ST);
    ck_assert_int_eq(in->opd[0].kind, OPD_ADDR);
    ck_assert_uint_eq(in->opd[1].reg, reg(f, "%f4"));

    assert_text(m, f, 0, "mov.u16 %rh1, %ctaid.x");
    assert_text(m, f, 7, "@%p1 bra $Lt_0_770");
    assert_text(m, f, 12, "ld.global.f32 %f1, [%rd4]");
    assert_text(m, f, 5, "ld.param.s32 %r4, [n]");
    assert_text(m, f, 17, "mad.f32 %f4, %f2, %f3, %f1");
    module_free(m);
}
END_TEST

/* ---- OpenCL-style PTX 3.0 of reference document 003 ------------------------ */

START_TEST(test_opencl_32bit)
{
    Module *m = parse_file_ok("tests/ptx/valid/opencl_matrixmulti.ptx");
    ck_assert_uint_eq(m->version_major, 3);
    ck_assert_uint_eq(m->version_minor, 0);
    ck_assert_str_eq(m->target, "sm_21");
    ck_assert_uint_eq(m->address_size, 32);
    const Function *f = func(m, "matrixmulti");
    ck_assert_uint_eq(f->params->len, 4);
    for (int i = 0; i < 4; i++) {
        const Variable *v = module_var(m, g_array_index(f->params, uint32_t, i));
        ck_assert_uint_eq(v->offset, 4u * i);
        ck_assert_uint_eq(v->size, 4);
        ck_assert_uint_eq(v->align, 4);
        ck_assert_int_eq(v->type, PTX_TYPE_U32);
    }
    ck_assert_uint_eq(f->frame_param_bytes, 16);
    /* counted by hand: 24 instructions before BB0_2, 22 in the loop, ret */
    ck_assert_uint_eq(func_ninsns(f), 47);
    const Insn *in = insn(f, 2); /* mov.u32 %r12, %envreg3 */
    ck_assert_int_eq(in->opd[1].kind, OPD_SREG);
    ck_assert_uint_eq(in->opd[1].reg, SREG_ENVREG);
    ck_assert_uint_eq(in->opd[1].component, 3);
    ck_assert_uint_eq(insn(f, 8)->opd[1].component, 4);
    ck_assert_uint_eq(insn(f, 9)->opd[1].reg, SREG_NTID);
    ck_assert_uint_eq(insn(f, 9)->opd[1].component, 1);
    in = insn(f, 22); /* @%p1 bra BB0_3 */
    ck_assert_int_eq(in->op, OP_BRA);
    ck_assert_uint_eq(in->guard, reg(f, "%p1"));
    ck_assert_int_eq(in->opd[0].imm, 46);
    in = insn(f, 45); /* @%p2 bra BB0_2 */
    ck_assert_int_eq(in->opd[0].imm, 24);
    ck_assert_int_eq(insn(f, 46)->op, OP_RET);
    in = insn(f, 14); /* ld.global.u32 %r22, [%r4] */
    ck_assert_uint_eq(in->opd[1].reg, reg(f, "%r4"));
    in = insn(f, 39); /* fma.rn.f32 */
    ck_assert_int_eq(in->op, OP_FMA);
    ck_assert_int_eq(in->round, RND_RN);
    module_free(m);
}
END_TEST

/* ---- nvcc 13 output --------------------------------------------------------- */

START_TEST(test_nvcc_misc)
{
    Module *m = parse_file_ok("tests/ptx/valid/nvcc13_misc.ptx");
    ck_assert_uint_eq(m->version_major, 9);
    ck_assert_uint_eq(m->version_minor, 0);
    ck_assert_str_eq(m->target, "sm_90");
    ck_assert_uint_eq(m->funcs->len, 5);
    uint32_t twice = module_find_func(m, "_Z5twicef"), thrice = module_find_func(m, "_Z6thricef");
    uint32_t fact = module_find_func(m, "_Z4facti"), misc = module_find_func(m, "_Z4miscPfPdPii");
    /* prototypes then definitions: one Function each, defined */
    ck_assert(module_func(m, twice)->is_defined && !module_func(m, twice)->is_entry);
    ck_assert_uint_eq(module_func(m, twice)->params->len, 1);
    ck_assert_uint_eq(module_func(m, twice)->rets->len, 1);
    /* .func frame: params, then rets */
    const Function *ff = module_func(m, fact);
    ck_assert_uint_eq(module_var(m, g_array_index(ff->params, uint32_t, 0))->offset, 0);
    const Variable *rv = module_var(m, g_array_index(ff->rets, uint32_t, 0));
    ck_assert_str_eq(rv->name, "func_retval0");
    ck_assert_int_eq(rv->scope, VAR_FUNC_PARAM);
    ck_assert_uint_eq(rv->offset, 4);
    ck_assert_uint_eq(ff->frame_param_bytes, 8);

    /* __constant__ float coeff[4] = {1, 2, 3, 4.5} as .b8 bytes */
    const Variable *coeff = module_var(m, module_find_global(m, "coeff"));
    ck_assert_int_eq(coeff->space, SPACE_CONST);
    ck_assert_int_eq(coeff->scope, VAR_MODULE);
    ck_assert_uint_eq(coeff->size, 16);
    ck_assert_uint_eq(coeff->align, 4);
    ck_assert_ptr_nonnull(coeff->init);
    const float want[4] = {1.0f, 2.0f, 3.0f, 4.5f};
    ck_assert_int_eq(memcmp(coeff->init, want, 16), 0);
    /* gptr = generic(gcount) */
    const Variable *gptr = module_var(m, module_find_global(m, "gptr"));
    ck_assert_ptr_nonnull(gptr->init_fixups);
    ck_assert_uint_eq(gptr->init_fixups->len, 1);
    const VarFixup *fx = &g_array_index(gptr->init_fixups, VarFixup, 0);
    ck_assert_uint_eq(fx->sym, module_find_global(m, "gcount"));
    ck_assert(fx->generic);
    ck_assert_uint_eq(fx->size, 8);
    ck_assert_uint_eq(fx->byte_offset, 0);
    /* table = {_Z5twicef, _Z6thricef}: function fixups */
    const Variable *table = module_var(m, module_find_global(m, "table"));
    ck_assert_uint_eq(table->size, 16);
    ck_assert_uint_eq(table->init_fixups->len, 2);
    ck_assert_uint_eq(g_array_index(table->init_fixups, VarFixup, 0).func, twice);
    ck_assert_uint_eq(g_array_index(table->init_fixups, VarFixup, 1).func, thrice);
    ck_assert_uint_eq(g_array_index(table->init_fixups, VarFixup, 1).byte_offset, 8);
    ck_assert_uint_eq(g_array_index(table->init_fixups, VarFixup, 1).sym, NO_INDEX);
    /* extern dynamic shared */
    const Variable *dyn = module_var(m, module_find_global(m, "dyn"));
    ck_assert(dyn->is_extern);
    ck_assert_uint_eq(dyn->size, 0);
    ck_assert_uint_eq(dyn->align, 16);
    ck_assert_int_eq(dyn->space, SPACE_SHARED);

    const Function *f = module_func(m, misc);
    /* kernel params (0..28), then the body's call blocks in one frame */
    ck_assert_uint_eq(module_var(m, g_array_index(f->params, uint32_t, 3))->offset, 24);
    uint32_t p0a = var_nth(m, "param0", misc, 0), p0b = var_nth(m, "param0", misc, 1);
    uint32_t r0a = var_nth(m, "retval0", misc, 0), r0b = var_nth(m, "retval0", misc, 1);
    ck_assert_uint_ne(p0a, p0b);
    ck_assert_uint_eq(module_var(m, p0a)->offset, 28);
    ck_assert_uint_eq(module_var(m, r0a)->offset, 32);
    ck_assert_uint_eq(module_var(m, p0b)->offset, 36);
    ck_assert_uint_eq(module_var(m, r0b)->offset, 40);
    ck_assert_int_eq(module_var(m, p0b)->scope, VAR_FRAME);
    ck_assert_uint_eq(f->frame_param_bytes, 44);
    /* .local depot and the demoted .shared tile */
    const Variable *depot = module_var(m, var(m, "__local_depot4", misc));
    ck_assert_int_eq(depot->space, SPACE_LOCAL);
    ck_assert_uint_eq(depot->size, 32);
    ck_assert_uint_eq(depot->align, 16);
    ck_assert_uint_eq(f->frame_local_bytes, 32);
    uint32_t tile = var(m, "_ZZ4miscPfPdPiiE4tile", misc);
    ck_assert_int_eq(module_var(m, tile)->space, SPACE_SHARED);
    ck_assert_int_eq(module_var(m, tile)->scope, VAR_FRAME);
    ck_assert_uint_eq(f->frame_vars->len, 6);

    /* call sites */
    ck_assert_uint_eq(f->calls->len, 2);
    const CallSite *c0 = &g_array_index(f->calls, CallSite, 0);
    ck_assert_uint_eq(c0->callee, fact);
    ck_assert_uint_eq(c0->nargs, 1);
    ck_assert_uint_eq(c0->nrets, 1);
    ck_assert_uint_eq(c0->args[0], p0a);
    ck_assert_uint_eq(c0->rets[0], r0a);
    const CallSite *c1 = &g_array_index(f->calls, CallSite, 1);
    ck_assert_uint_eq(c1->callee, NO_INDEX);
    ck_assert_uint_eq(c1->callee_reg, reg(f, "%rd32"));
    ck_assert_uint_eq(c1->args[0], p0b);
    ck_assert_uint_eq(c1->rets[0], r0b);
    uint32_t ci = tu_insn_at_line(f, 256);
    ck_assert_int_eq(insn(f, ci)->op, OP_CALL);
    ck_assert_uint_eq(insn(f, ci)->call, 0);
    ck_assert(insn(f, ci)->flags & FL_UNI);
    ck_assert_uint_eq(insn(f, tu_insn_at_line(f, 279))->call, 1);
    /* st.param.b32 [param0+0] in the first block names the first param0 */
    const Insn *in = insn(f, tu_insn_at_line(f, 254));
    ck_assert_uint_eq(in->opd[0].sym, p0a);
    in = insn(f, tu_insn_at_line(f, 276));
    ck_assert_uint_eq(in->opd[0].sym, p0b);

    in = insn(f, tu_insn_at_line(f, 174)); /* mov.u64 %SPL, __local_depot4 */
    ck_assert_int_eq(in->opd[1].kind, OPD_SYMBOL);
    ck_assert_uint_eq(in->opd[1].sym, var(m, "__local_depot4", misc));
    in = insn(f, tu_insn_at_line(f, 220)); /* mov.u32 %r14, tile */
    ck_assert_uint_eq(in->opd[1].sym, tile);
    in = insn(f, tu_insn_at_line(f, 197)); /* st.local.v4.f32 [%rd6], {...} */
    ck_assert_int_eq(in->vec, 4);
    ck_assert_int_eq(in->space, SPACE_LOCAL);
    ck_assert_int_eq(in->opd[1].kind, OPD_VEC);
    ck_assert_uint_eq(in->opd[1].vec_count, 4);
    ck_assert_uint_eq(in->opd[1].vec_regs[3], reg(f, "%f6"));
    in = insn(f, tu_insn_at_line(f, 206));
    ck_assert_int_eq(in->opd[0].imm, 16);
    in = insn(f, tu_insn_at_line(f, 248)); /* shfl.sync.down.b32 %r31|%p1, ... */
    ck_assert_int_eq(in->op, OP_SHFL);
    ck_assert_int_eq(in->mode, SHFL_DOWN);
    ck_assert(in->flags & FL_SYNC);
    ck_assert_int_eq(in->opd[0].kind, OPD_PAIR);
    ck_assert_uint_eq(in->opd[0].reg, reg(f, "%r31"));
    ck_assert_uint_eq(in->opd[0].reg2, reg(f, "%p1"));
    ck_assert_uint_eq(in->nopd, 5);
    in = insn(f, tu_insn_at_line(f, 264)); /* atom.global.add.f32 ..., 0f3F800000 */
    ck_assert_int_eq(in->op, OP_ATOM);
    ck_assert_int_eq(in->atom, ATOM_ADD);
    ck_assert_int_eq(in->type, PTX_TYPE_F32);
    ck_assert_int_eq(in->opd[2].imm, 0x3F800000);
    in = insn(f, tu_insn_at_line(f, 266));
    ck_assert_int_eq(in->atom, ATOM_CAS);
    ck_assert_uint_eq(in->nopd, 4);
    in = insn(f, tu_insn_at_line(f, 291)); /* fma.rn.f64 ..., 0d3FF8000000000000 */
    ck_assert_uint_eq((uint64_t)in->opd[2].imm, f64b(1.5));
    in = insn(f, tu_insn_at_line(f, 307)); /* vote.sync.ballot.b32 */
    ck_assert_int_eq(in->mode, VOTE_BALLOT);
    ck_assert(in->flags & FL_SYNC);
    in = insn(f, tu_insn_at_line(f, 311)); /* ld.u32: generic */
    ck_assert_int_eq(in->space, SPACE_GENERIC);
    in = insn(f, tu_insn_at_line(f, 179)); /* cvta.to.global.u64 */
    ck_assert_int_eq(in->op, OP_CVTA);
    ck_assert_int_eq(in->space, SPACE_GLOBAL);
    ck_assert(in->flags & FL_TO);
    in = insn(f, tu_insn_at_line(f, 236)); /* bar.sync 0 */
    ck_assert_int_eq(in->op, OP_BAR);
    ck_assert_int_eq(in->mode, BAR_SYNC);
    ck_assert_int_eq(in->opd[0].kind, OPD_IMM);
    /* facti: the loop label and .pragma inside the body */
    in = insn(ff, tu_insn_at_line(ff, 108)); /* @%p5 bra $L__BB2_5 */
    ck_assert_int_eq(in->opd[0].imm, tu_insn_at_line(ff, 103));
    ck_assert_int_eq(insn(ff, tu_insn_at_line(ff, 70))->opd[2].imm, -3);
    module_free(m);
}
END_TEST

/* .pragma "nounroll": at statement level it flags the next instruction
 * (the first of the loop's header); before a body it marks the function,
 * at module level the module; a pragma ending a body flags nothing of the
 * next function.  Other pragmas change nothing. */
START_TEST(test_pragma_nounroll)
{
    Module *m = parse_ok(".version 7.0\n.target sm_90\n.address_size 64\n"
                         ".visible .entry a() .pragma \"nounroll\";\n{\nret;\n.pragma \"nounroll\";\n}\n"
                         ".visible .entry b()\n{\n.reg .b32 %r<3>;\n.reg .pred %p<2>;\n"
                         "mov.u32 %r1, 0;\n$L:\n.pragma \"used_bytes_mask 0xf\";\n.pragma \"nounroll\";\n"
                         "add.s32 %r1, %r1, 1;\nsetp.lt.s32 %p1, %r1, 9;\n@%p1 bra $L;\nret;\n}\n");
    const Function *a = func(m, "a"), *b = func(m, "b");
    ck_assert(a->nounroll);
    ck_assert(!b->nounroll);
    ck_assert(!m->nounroll);
    ck_assert(!(insn(b, 0)->flags & FL_NOUNROLL));
    ck_assert(insn(b, 1)->flags & FL_NOUNROLL);
    for (uint32_t i = 2; i < func_ninsns(b); i++)
        ck_assert(!(insn(b, i)->flags & FL_NOUNROLL));
    module_free(m);
    m = parse_ok(".version 7.0\n.target sm_90\n.address_size 64\n.pragma \"nounroll\";\n"
                 ".visible .entry c()\n{\nret;\n}\n");
    ck_assert(m->nounroll);
    module_free(m);
}
END_TEST

START_TEST(test_nvcc_structs_half)
{
    Module *m = parse_file_ok("tests/ptx/valid/nvcc13_structs_half.ptx");
    const Function *f = func(m, "_Z2k2P1PP6__halfPdPy");
    ck_assert_uint_eq(f->maxntid[0], 256);
    ck_assert_uint_eq(f->maxntid[1], 1);
    ck_assert_uint_eq(f->maxntid[2], 1);
    ck_assert_uint_eq(f->minnctapersm, 2);
    /* two inline-asm scopes each declare .reg .f16 low, high */
    uint32_t lows = 0;
    for (guint i = 0; i < f->regs->len; i++)
        lows += strcmp(g_array_index(f->regs, RegInfo, i).name, "low") == 0;
    ck_assert_uint_eq(lows, 2);
    const Insn *in = insn(f, tu_insn_at_line(f, 94)); /* mov.b32 {low,high}, %r2 */
    ck_assert_int_eq(in->opd[0].kind, OPD_VEC);
    ck_assert_uint_eq(in->opd[0].vec_count, 2);
    const Insn *in2 = insn(f, tu_insn_at_line(f, 95)); /* mov.b16 %rs3, low: same scope */
    ck_assert_uint_eq(in2->opd[1].reg, in->opd[0].vec_regs[0]);
    const Insn *in3 = insn(f, tu_insn_at_line(f, 99)); /* the second scope's {low,high} */
    ck_assert_uint_ne(in3->opd[0].vec_regs[0], in->opd[0].vec_regs[0]);
    ck_assert_uint_eq(insn(f, tu_insn_at_line(f, 100))->opd[1].reg, in3->opd[0].vec_regs[1]);
    in = insn(f, tu_insn_at_line(f, 120)); /* mov.b64 %fd2, {%r9,%r10} */
    ck_assert_int_eq(in->opd[1].kind, OPD_VEC);
    ck_assert_uint_eq(in->opd[1].vec_regs[1], reg(f, "%r10"));
    in = insn(f, tu_insn_at_line(f, 89)); /* add.f16x2 */
    ck_assert_int_eq(in->type, PTX_TYPE_F16X2);
    in = insn(f, tu_insn_at_line(f, 111)); /* div.rn.f64 ..., 0d4008000000000000 */
    ck_assert_uint_eq((uint64_t)in->opd[2].imm, f64b(3.0));
    in = insn(f, tu_insn_at_line(f, 126)); /* atom.global.exch.b64 ..., 5 */
    ck_assert_int_eq(in->atom, ATOM_EXCH);
    ck_assert_int_eq(in->opd[2].imm, 5);
    in = insn(f, tu_insn_at_line(f, 134)); /* bfind.shiftamt.u32 */
    ck_assert(in->flags & FL_SHIFTAMT);
    const Function *mk = func(m, "_Z2mkifd");
    in = insn(mk, 2); /* cvt.rzi.s32.f64 */
    ck_assert_int_eq(in->round, RND_RZI);
    ck_assert_int_eq(in->type, PTX_TYPE_S32);
    ck_assert_int_eq(in->type2, PTX_TYPE_F64);
    ck_assert_uint_eq(module_var(m, g_array_index(mk->params, uint32_t, 1))->offset, 8);
    ck_assert_uint_eq(module_var(m, g_array_index(mk->rets, uint32_t, 0))->offset, 16);
    module_free(m);
}
END_TEST

START_TEST(test_nvcc_debug_build)
{
    Module *m = parse_file_ok("tests/ptx/valid/nvcc13_debug_G.ptx");
    ck_assert_str_eq(m->target, "sm_90");
    ck_assert_uint_ge(m->files->len, 2);
    ck_assert_str_eq(g_ptr_array_index(m->files, 1), "/tmp/pp/c.cu");
    const Function *fib = func(m, "_Z3fibi");
    /* labels after the last instruction point one past the end */
    ck_assert_uint_eq(func_ninsns(fib), 21);
    const Insn *in = insn(fib, tu_insn_at_line(fib, 29)); /* setp after .loc 1 1 42 */
    ck_assert_uint_eq(in->src_file, 1);
    ck_assert_uint_eq(in->src_line, 1);
    ck_assert_uint_eq(fib->calls->len, 2);
    ck_assert_uint_eq(g_array_index(fib->calls, CallSite, 0).callee, module_find_func(m, "_Z3fibi"));
    in = insn(fib, tu_insn_at_line(fib, 31)); /* @%p2 bra $L__BB0_2 */
    ck_assert_int_eq(in->opd[0].imm, tu_insn_at_line(fib, 40));
    module_free(m);
}
END_TEST

START_TEST(test_nvcc_inlined_loc)
{
    Module *m = parse_file_ok("tests/ptx/valid/nvcc13_lineinfo_inlined.ptx");
    const Function *f = func(m, "_Z2kdPf");
    const Insn *in = insn(f, tu_insn_at_line(f, 35)); /* mul.f32 %f2 after the inlined_at .loc of sq */
    ck_assert_int_eq(in->op, OP_MUL);
    ck_assert_uint_eq(in->src_line, 1);
    in = insn(f, tu_insn_at_line(f, 37));
    ck_assert_uint_eq(in->src_line, 2);
    in = insn(f, tu_insn_at_line(f, 39));
    ck_assert_uint_eq(in->src_line, 3);
    ck_assert_uint_eq(in->src_file, 1);
    module_free(m);
}
END_TEST

/* nvcc's many operand shapes (nvcc13_operand_types.cu) pass the operand
 * type checks: all eleven kernels load, with their CFGs. */
START_TEST(test_nvcc_operand_types_accepted)
{
    Module *m = parse_file_ok("tests/ptx/valid/nvcc13_operand_types.ptx");
    unsigned entries = 0;
    for (guint i = 0; i < m->funcs->len; i++)
        entries += module_func(m, i)->is_entry && module_func(m, i)->is_defined;
    ck_assert_uint_eq(entries, 11);
    module_free(m);
}
END_TEST

START_TEST(test_nvcc_kernels)
{
    Module *m = parse_file_ok("tests/ptx/valid/nvcc13_kernels.ptx");
    /* printf: an .extern .func that is declared, never defined, and called */
    uint32_t vp = module_find_func(m, "vprintf");
    ck_assert_uint_ne(vp, NO_INDEX);
    ck_assert(!module_func(m, vp)->is_defined);
    ck_assert_uint_eq(module_func(m, vp)->params->len, 2);
    uint32_t hi = module_find_func(m, "_Z5helloi");
    const Function *hello = module_func(m, hi);
    ck_assert_uint_eq(hello->calls->len, 1);
    ck_assert_uint_eq(g_array_index(hello->calls, CallSite, 0).callee, vp);
    ck_assert_uint_eq(g_array_index(hello->calls, CallSite, 0).nargs, 2);
    const Variable *str = module_var(m, module_find_global(m, "$str"));
    ck_assert_uint_eq(str->size, 13);
    ck_assert_str_eq((const char *)str->init, "hello %d %f\n");
    const Insn *in = insn(hello, tu_insn_at_line(hello, 536)); /* mov.u64 %rd3, 4609434218613702656 */
    ck_assert_uint_eq((uint64_t)in->opd[1].imm, f64b(1.5));
    /* struct by value: .param .align 8 .b8 x[48] */
    const Function *mk = func(m, "_Z5mkbig3Bigi");
    const Variable *ret = module_var(m, g_array_index(mk->rets, uint32_t, 0));
    ck_assert_uint_eq(ret->size, 48);
    ck_assert_uint_eq(ret->align, 8);
    ck_assert_uint_eq(module_var(m, g_array_index(mk->params, uint32_t, 1))->offset, 48);
    ck_assert_uint_eq(ret->offset, 56);
    ck_assert_uint_eq(mk->frame_param_bytes, 104);
    uint32_t bi = module_find_func(m, "_Z4bigkP3Big");
    const Function *bk = module_func(m, bi);
    in = insn(bk, tu_insn_at_line(bk, 592)); /* st.param.v4.b8 [param0+44], {...} */
    ck_assert_int_eq(in->vec, 4);
    ck_assert_int_eq(in->type, PTX_TYPE_B8);
    ck_assert_int_eq(in->opd[0].imm, 44);
    ck_assert_uint_eq(in->opd[0].sym, var(m, "param0", bi));
    ck_assert_uint_eq(module_var(m, var(m, "param0", bi))->size, 48);
    /* demoted __shared__ tiles live in the kernel body */
    uint32_t mm = module_find_func(m, "_Z11matMulTiledPKfS0_Pfi");
    ck_assert_uint_eq(module_var(m, var(m, "_ZZ11matMulTiledPKfS0_PfiE2Bs", mm))->size, 1024);
    const Function *mf = module_func(m, mm);
    in = insn(mf, tu_insn_at_line(mf, 150)); /* ld.shared.f32 %f11, [%r8+64] */
    ck_assert_int_eq(in->space, SPACE_SHARED);
    ck_assert_int_eq(in->opd[1].imm, 64);
    module_free(m);
}
END_TEST

/* sm_80 nvcc widens bf16 with `mov.b32 %f, {0, %rs}`: the zero element has
 * no register and reads as zero (NO_INDEX). */
START_TEST(test_vector_zero_element)
{
    Module *m = parse_ok(KHEAD ".entry k()\n{\n.reg .f32 %f1; .reg .b16 %rs1;\n{ mov.b32 %f1, {0,%rs1};}\nret;\n}\n");
    const Function *f = func(m, "k");
    const Insn *in = insn(f, 0);
    ck_assert_int_eq(in->opd[1].kind, OPD_VEC);
    ck_assert_uint_eq(in->opd[1].vec_count, 2);
    ck_assert_uint_eq(in->opd[1].vec_regs[0], NO_INDEX);
    ck_assert_uint_eq(in->opd[1].vec_regs[1], reg(f, "%rs1"));
    module_free(m);
}
END_TEST

/* ---- old-style .func with .reg parameters, initialisers, scopes ------------ */

START_TEST(test_old_reg_func)
{
    Module *m = parse_file_ok("tests/ptx/valid/old_reg_func.ptx");
    uint32_t ai = module_find_func(m, "addmul");
    const Function *am = module_func(m, ai);
    ck_assert_uint_eq(am->params->len, 2);
    const Variable *pa = module_var(m, g_array_index(am->params, uint32_t, 0));
    ck_assert_int_eq(pa->space, SPACE_REG);
    ck_assert_int_eq(pa->scope, VAR_FUNC_PARAM);
    ck_assert_uint_eq(pa->offset, reg(am, "%a"));
    const Variable *pr = module_var(m, g_array_index(am->rets, uint32_t, 0));
    ck_assert_uint_eq(pr->offset, reg(am, "%ret"));
    ck_assert_uint_eq(insn(am, 1)->opd[0].reg, reg(am, "%ret"));
    ck_assert_uint_eq(insn(am, 0)->opd[2].reg, reg(am, "%b"));

    uint32_t ki = module_find_func(m, "old_kernel");
    const Function *k = module_func(m, ki);
    ck_assert_uint_eq(k->maxntid[0], 128);
    ck_assert_uint_eq(k->maxntid[1], 2);
    ck_assert_uint_eq(k->maxntid[2], 1);
    ck_assert_uint_eq(k->reqntid[0], 64);
    ck_assert_uint_eq(k->minnctapersm, 4);
    ck_assert_uint_eq(k->maxnreg, 32);
    /* .local scratch[24] (align 8) then counter (align 4) */
    ck_assert_uint_eq(module_var(m, var(m, "scratch", ki))->offset, 0);
    ck_assert_uint_eq(module_var(m, var(m, "counter", ki))->offset, 24);
    ck_assert_uint_eq(k->frame_local_bytes, 28);

    const CallSite *c = &g_array_index(k->calls, CallSite, 0);
    ck_assert_uint_eq(c->callee, ai);
    ck_assert_uint_eq(c->nargs, 2);
    ck_assert_uint_eq(c->args[0], NO_INDEX);
    ck_assert_int_eq(c->arg_opds[0].kind, OPD_REG);
    ck_assert_uint_eq(c->arg_opds[0].reg, reg(k, "%r1"));
    ck_assert_int_eq(c->arg_opds[1].kind, OPD_IMM);
    ck_assert_int_eq(c->arg_opds[1].imm, 3);
    ck_assert_uint_eq(c->rets[0], NO_INDEX);
    ck_assert_uint_eq(c->ret_opds[0].reg, reg(k, "%r2"));

    const Insn *in = insn(k, 4); /* @!%p1 bra done */
    ck_assert(in->guard_negate);
    ck_assert_int_eq(in->opd[0].imm, 17);
    /* the nested scope's %r1 shadows the outer one */
    uint32_t outer_r1 = insn(k, 0)->opd[0].reg;
    uint32_t inner_r1 = insn(k, 5)->opd[0].reg;
    ck_assert_uint_ne(outer_r1, inner_r1);
    ck_assert_uint_eq(insn(k, 6)->opd[2].reg, inner_r1);
    ck_assert_uint_eq(insn(k, 6)->opd[0].reg, insn(k, 1 + 2)->opd[1].reg); /* %r2 */
    ck_assert_int_eq(insn(k, 8)->opd[2].imm, (int64_t)f32b(2.5f));
    in = insn(k, 10); /* st.global.f32 [%rd1+-4], %f2 */
    ck_assert_int_eq(in->opd[0].imm, -4);
    in = insn(k, 13); /* st.shared.u32 [tile+4], 0xFFFFFFFF */
    ck_assert_uint_eq(in->opd[0].sym, module_find_global(m, "tile"));
    ck_assert_int_eq(in->opd[0].imm, 4);
    ck_assert_int_eq(in->opd[1].imm, 0xFFFFFFFFll);
    in = insn(k, 16); /* cvt.rn.f32.s32 %f1, 3: read as s32 */
    ck_assert_int_eq(in->opd[1].imm, 3);

    const Variable *g2 = module_var(m, module_find_global(m, "grid2"));
    ck_assert_uint_eq(g2->size, 24);
    const int32_t gw[6] = {1, 2, 3, -4, 16, 5};
    ck_assert_int_eq(memcmp(g2->init, gw, 24), 0);
    const Variable *ptrs = module_var(m, module_find_global(m, "ptrs"));
    ck_assert_uint_eq(ptrs->init_fixups->len, 2);
    const VarFixup *f1 = &g_array_index(ptrs->init_fixups, VarFixup, 1);
    ck_assert_uint_eq(f1->sym, module_find_global(m, "grid2"));
    ck_assert_int_eq(f1->addend, 8);
    ck_assert_uint_eq(f1->size, 4);
    ck_assert_uint_eq(f1->byte_offset, 4);
    ck_assert(!f1->generic);
    const Variable *hd = module_var(m, module_find_global(m, "half_d"));
    uint64_t hb;
    memcpy(&hb, hd->init, 8);
    ck_assert_uint_eq(hb, f64b(0.5));
    const Variable *sc = module_var(m, module_find_global(m, "scale"));
    uint32_t sb;
    memcpy(&sb, sc->init, 4);
    ck_assert_uint_eq(sb, 0x3F800000u);
    module_free(m);
}
END_TEST

/* ---- immediates ------------------------------------------------------------- */

START_TEST(test_immediates)
{
    Module *m = parse_ok(KHEAD
                         ".entry k()\n{\n"
                         ".reg .f32 %f<4>; .reg .f64 %fd<4>; .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
                         "add.f32 %f1, %f2, 3;\n"                      /* 0 */
                         "add.f64 %fd1, %fd2, 0f3F800000;\n"           /* 1 */
                         "cvt.rn.f32.f64 %f1, 0d3FF8000000000000;\n"   /* 2 */
                         "setp.lt.f32 %p1, %f1, 2;\n"                  /* 3 */
                         "shl.b64 %rd1, %rd2, 3;\n"                    /* 4 */
                         "selp.f32 %f1, 1.0, 0f00000000, %p1;\n"       /* 5 */
                         "slct.f32.s32 %f1, %f2, %f3, -1;\n"           /* 6 */
                         "set.lt.u32.f32 %r1, %f1, 1.5;\n"             /* 7 */
                         "mov.b32 %r1, 0f3F800000;\n"                  /* 8 */
                         "add.s32 %r1, %r2, -0x10;\n"                  /* 9 */
                         "add.u32 %r1, %r2, 0b101;\n"                  /* 10 */
                         "add.u32 %r1, %r2, 017;\n"                    /* 11 */
                         "add.u32 %r1, %r2, 42U;\n"                    /* 12 */
                         "mov.f64 %fd1, 1e-3;\n"                       /* 13 */
                         "mov.f32 %f1, -0f3F800000;\n"                 /* 14 */
                         "bfe.u32 %r1, %r2, 8, 4;\n"                   /* 15 */
                         "shfl.sync.idx.b32 %r1|%p1, %r2, 0, 31, -1;\n"/* 16 */
                         "mov.f32 %f1, -2.5;\n"                        /* 17 */
                         "mov.u64 %rd1, -1;\n"                         /* 18 */
                         "mov.f64 %fd1, -0d3FF0000000000000;\n"        /* 19 */
                         "cvt.f64.f32 %fd1, 0f40490FDB;\n"             /* 20 */
                         "ret;\n}\n");
    const Function *f = func(m, "k");
    ck_assert_int_eq(insn(f, 0)->opd[2].imm, 0x40400000);
    ck_assert_uint_eq((uint64_t)insn(f, 1)->opd[2].imm, f64b(1.0));
    ck_assert_uint_eq((uint64_t)insn(f, 2)->opd[1].imm, f64b(1.5));
    ck_assert_int_eq(insn(f, 3)->opd[2].imm, 0x40000000);
    ck_assert_int_eq(insn(f, 4)->opd[2].imm, 3);
    ck_assert_int_eq(insn(f, 5)->opd[1].imm, 0x3F800000);
    ck_assert_int_eq(insn(f, 5)->opd[2].imm, 0);
    ck_assert_int_eq(insn(f, 6)->opd[3].imm, -1);
    ck_assert_int_eq(insn(f, 7)->opd[2].imm, 0x3FC00000);
    ck_assert_int_eq(insn(f, 8)->opd[1].imm, 0x3F800000);
    ck_assert_int_eq(insn(f, 9)->opd[2].imm, -16);
    ck_assert_int_eq(insn(f, 10)->opd[2].imm, 5);
    ck_assert_int_eq(insn(f, 11)->opd[2].imm, 15);
    ck_assert_int_eq(insn(f, 12)->opd[2].imm, 42);
    ck_assert_uint_eq((uint64_t)insn(f, 13)->opd[1].imm, f64b(1e-3));
    ck_assert_int_eq(insn(f, 14)->opd[1].imm, (int64_t)0xBF800000u);
    ck_assert_int_eq(insn(f, 15)->opd[2].imm, 8);
    ck_assert_int_eq(insn(f, 15)->opd[3].imm, 4);
    ck_assert_int_eq(insn(f, 16)->opd[2].imm, 0);
    ck_assert_int_eq(insn(f, 16)->opd[3].imm, 31);
    ck_assert_int_eq(insn(f, 16)->opd[4].imm, -1);
    ck_assert_int_eq(insn(f, 17)->opd[1].imm, (int64_t)f32b(-2.5f));
    ck_assert_int_eq(insn(f, 18)->opd[1].imm, -1);
    ck_assert_uint_eq((uint64_t)insn(f, 19)->opd[1].imm, f64b(-1.0));
    ck_assert_uint_eq((uint64_t)insn(f, 20)->opd[1].imm, 0x40490FDBu); /* read as f32 */
    for (uint32_t i = 0; i < func_ninsns(f); i++)
        ck_assert_uint_eq(insn(f, i)->guard, NO_INDEX);
    assert_text(m, f, 2, "cvt.rn.f32.f64 %f1, 0d3FF8000000000000");
    assert_text(m, f, 7, "set.lt.u32.f32 %r1, %f1, 0f3FC00000");
    assert_text(m, f, 9, "add.s32 %r1, %r2, -16");
    assert_text(m, f, 5, "selp.f32 %f1, 0f3F800000, 0f00000000, %p1");
    module_free(m);
}
END_TEST

/* ---- calls, scopes, labels ---------------------------------------------------- */

START_TEST(test_call_forms)
{
    Module *m = parse_ok(KHEAD
                         ".extern .func (.param .b32 r) ext_f (.param .b32 a);\n"
                         ".func baz ()\n{\n ret;\n}\n"
                         ".func bar\n{\n ret;\n}\n"
                         ".visible .entry k(.param .u64 p)\n{\n"
                         ".reg .b64 %rd<3>; .reg .b32 %r<3>;\n"
                         "call.uni baz;\n"
                         "call bar, ();\n"
                         "{\n .param .b32 param0;\n .param .b32 retval0;\n"
                         " st.param.b32 [param0+0], %r1;\n"
                         " call.uni (retval0), ext_f, (param0);\n"
                         " ld.param.b32 %r2, [retval0+0];\n}\n"
                         "{\n .param .b64 param0;\n .param .b32 param1;\n"
                         " pr : .callprototype _ (.param .b64 _, .param .b32 _);\n"
                         " call %rd1, (param0, param1), pr;\n}\n"
                         "mov.u64 %rd2, baz;\n"
                         "ret;\n}\n");
    uint32_t ki = module_find_func(m, "k");
    const Function *k = module_func(m, ki);
    const Function *ext = func(m, "ext_f");
    ck_assert(!ext->is_defined);
    ck_assert(func(m, "baz")->is_defined);
    ck_assert_uint_eq(k->calls->len, 4);
    const CallSite *c = &g_array_index(k->calls, CallSite, 0);
    ck_assert_uint_eq(c->callee, module_find_func(m, "baz"));
    ck_assert_uint_eq(c->nargs + c->nrets, 0);
    c = &g_array_index(k->calls, CallSite, 1);
    ck_assert_uint_eq(c->callee, module_find_func(m, "bar"));
    c = &g_array_index(k->calls, CallSite, 2);
    ck_assert_uint_eq(c->callee, module_find_func(m, "ext_f"));
    ck_assert_uint_eq(c->args[0], var_nth(m, "param0", ki, 0));
    c = &g_array_index(k->calls, CallSite, 3);
    ck_assert_uint_eq(c->callee, NO_INDEX);
    ck_assert_uint_eq(c->callee_reg, reg(k, "%rd1"));
    ck_assert_uint_eq(c->nargs, 2);
    ck_assert_uint_eq(c->args[0], var_nth(m, "param0", ki, 1));
    ck_assert_uint_eq(c->args[1], var(m, "param1", ki));
    /* second block's .b64 param0 is aligned to 8 after the first block */
    ck_assert_uint_eq(module_var(m, var_nth(m, "param0", ki, 0))->offset, 8);
    ck_assert_uint_eq(module_var(m, var_nth(m, "retval0", ki, 0))->offset, 12);
    ck_assert_uint_eq(module_var(m, var_nth(m, "param0", ki, 1))->offset, 16);
    ck_assert_uint_eq(k->frame_param_bytes, 28);
    const Insn *in = insn(k, 6); /* mov.u64 %rd2, baz */
    ck_assert_int_eq(in->opd[1].kind, OPD_SYMBOL);
    ck_assert_uint_eq(in->opd[1].func, module_find_func(m, "baz"));
    ck_assert_uint_eq(in->opd[1].sym, NO_INDEX);
    assert_text(m, k, 3, "call.uni (retval0), ext_f, (param0)");
    module_free(m);
}
END_TEST

START_TEST(test_repeated_prototypes)
{
    Module *m = parse_ok(KHEAD ".func (.param .b32 r) f(.param .b32 a);\n.extern .func (.param .b32 r) f(.param .b32 a);\n"
                               ".func (.param .b32 ret0) f(.param .b32 b)\n{\nst.param.b32 [ret0], 1;\nret;\n}\n");
    ck_assert_uint_eq(m->funcs->len, 1);
    const Function *f = func(m, "f");
    ck_assert_uint_eq(f->params->len, 1);
    ck_assert_uint_eq(f->rets->len, 1);
    ck_assert_uint_eq(m->vars->len, 2);
    ck_assert_str_eq(module_var(m, g_array_index(f->params, uint32_t, 0))->name, "b");
    ck_assert_uint_eq(insn(f, 0)->opd[0].sym, g_array_index(f->rets, uint32_t, 0));
    ck_assert_uint_eq(f->frame_param_bytes, 8);
    module_free(m);
}
END_TEST

START_TEST(test_labels_forward_and_end)
{
    Module *m = parse_ok(KHEAD
                         ".entry k()\n{\n.reg .pred %p<2>;\n"
                         "bra.uni L_end;\n"
                         "L_top:\n"
                         "@%p1 bra L_top;\n"
                         "L_mid: L_mid2:\n"
                         "bra L_mid;\n"
                         "L_end:\n}\n");
    const Function *f = func(m, "k");
    ck_assert_uint_eq(func_ninsns(f), 3);
    ck_assert_int_eq(insn(f, 0)->opd[0].imm, 3);
    ck_assert(insn(f, 0)->flags & FL_UNI);
    ck_assert_int_eq(insn(f, 1)->opd[0].imm, 1);
    ck_assert_int_eq(insn(f, 2)->opd[0].imm, 2);
    module_free(m);
}
END_TEST

START_TEST(test_modifiers)
{
    Module *m = parse_ok(KHEAD
                         ".entry k()\n{\n.reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .f32 %f<5>; .reg .pred %p<3>;\n"
                         "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n" /* 0 */
                         "ld.global.L1::evict_last.f32 %f1, [%rd1];\n"            /* 1 */
                         "st.volatile.shared::cta.u32 [%rd1], %r1;\n"            /* 2 */
                         "atom.acq_rel.gpu.global.cas.b32 %r1, [%rd1], %r2, %r3;\n" /* 3 */
                         "setp.ne.and.s32 %p1|%p2, %r1, %r2, !%p2;\n"            /* 4 */
                         "mul.hi.u32 %r1, %r2, %r3;\n"                           /* 5 */
                         "div.full.f32 %f1, %f2, %f3;\n"                         /* 6 */
                         "ex2.approx.ftz.f32 %f1, %f2;\n"                        /* 7 */
                         "membar.gl;\n"                                          /* 8 */
                         "fence.sc.cta;\n"                                       /* 9 */
                         "red.global.add.u32 [%rd1], 1;\n"                       /* 10 */
                         "bar.warp.sync -1;\n"                                   /* 11 */
                         "shf.l.wrap.b32 %r1, %r2, %r3, 5;\n"                    /* 12 */
                         "testp.finite.f32 %p1, %f1;\n"                          /* 13 */
                         "cvt.rni.sat.f32.f32 %f1, %f2;\n"                       /* 14 */
                         "prmt.b32.f4e %r1, %r2, %r3, 0x3210;\n"                 /* 15 */
                         "add.cc.u32 %r1, %r2, %r3;\n"                           /* 16 */
                         "st.global.v2.f32 [%rd1], {%f1, %f2};\n"                /* 17 */
                         "ld.global.v2.f32 {%f1, _}, [%rd1];\n"                  /* 18 */
                         "ret;\n}\n");
    const Function *f = func(m, "k");
    const Insn *in = insn(f, 0);
    ck_assert_int_eq(in->space, SPACE_GLOBAL);
    ck_assert_int_eq(in->vec, 4);
    ck_assert(in->flags & FL_NC);
    ck_assert_int_eq(in->opd[0].vec_count, 4);
    ck_assert_int_eq(in->opd[1].imm, 16);
    ck_assert_int_eq(insn(f, 1)->cache, CACHE_NONE);
    ck_assert_int_eq(insn(f, 1)->space, SPACE_GLOBAL);
    ck_assert_int_eq(insn(f, 2)->sem, SEM_VOLATILE);
    ck_assert_int_eq(insn(f, 2)->space, SPACE_SHARED);
    in = insn(f, 3);
    ck_assert_int_eq(in->sem, SEM_ACQ_REL);
    ck_assert_int_eq(in->scope, SCOPE_GPU);
    ck_assert_int_eq(in->atom, ATOM_CAS);
    in = insn(f, 4);
    ck_assert_int_eq(in->cmp, CMP_NE);
    ck_assert_int_eq(in->boolop, BOOL_AND);
    ck_assert_int_eq(in->opd[0].kind, OPD_PAIR);
    ck_assert_int_eq(in->opd[3].kind, OPD_REG);
    ck_assert(in->opd[3].negate);
    ck_assert_uint_eq(in->opd[3].reg, reg(f, "%p2"));
    ck_assert_int_eq(insn(f, 5)->mul, MUL_HI);
    ck_assert(insn(f, 6)->flags & FL_FULL);
    ck_assert(insn(f, 7)->flags & FL_APPROX);
    ck_assert(insn(f, 7)->flags & FL_FTZ);
    ck_assert_int_eq(insn(f, 8)->scope, SCOPE_GPU);
    ck_assert_int_eq(insn(f, 9)->sem, SEM_SC);
    ck_assert_int_eq(insn(f, 9)->scope, SCOPE_CTA);
    ck_assert_int_eq(insn(f, 10)->atom, ATOM_ADD);
    ck_assert(insn(f, 11)->flags & FL_WARP);
    ck_assert_int_eq(insn(f, 11)->mode, BAR_SYNC);
    ck_assert_int_eq(insn(f, 12)->mode, SHF_L);
    ck_assert(insn(f, 12)->flags & FL_WRAP);
    ck_assert_int_eq(insn(f, 13)->mode, TESTP_FINITE);
    ck_assert_int_eq(insn(f, 14)->round, RND_RNI);
    ck_assert(insn(f, 14)->flags & FL_SAT);
    ck_assert_int_eq(insn(f, 15)->mode, PRMT_F4E);
    ck_assert_int_eq(insn(f, 15)->opd[3].imm, 0x3210);
    ck_assert(insn(f, 16)->flags & FL_CC);
    ck_assert_int_eq(insn(f, 17)->opd[1].kind, OPD_VEC);
    ck_assert_uint_eq(insn(f, 18)->opd[0].vec_regs[1], NO_INDEX);
    assert_text(m, f, 4, "setp.ne.and.s32 %p1|%p2, %r1, %r2, !%p2");
    assert_text(m, f, 0, "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16]");
    assert_text(m, f, 3, "atom.acq_rel.gpu.global.cas.b32 %r1, [%rd1], %r2, %r3");
    assert_text(m, f, 11, "bar.warp.sync -1");
    assert_text(m, f, 12, "shf.l.wrap.b32 %r1, %r2, %r3, 5");
    assert_text(m, f, 7, "ex2.approx.ftz.f32 %f1, %f2");
    assert_text(m, f, 14, "cvt.rni.sat.f32.f32 %f1, %f2");
    assert_text(m, f, 17, "st.global.v2.f32 [%rd1], {%f1, %f2}");
    module_free(m);
}
END_TEST

START_TEST(test_find_kernel)
{
    Module *m = parse_file_ok("tests/ptx/valid/nvcc13_misc.ptx");
    GError *e = NULL;
    ck_assert_uint_eq(module_find_kernel(m, "saxpy", &e), module_find_func(m, "_Z5saxpyifPKfPf"));
    ck_assert_uint_eq(module_find_kernel(m, "_Z4miscPfPdPii", &e), module_find_func(m, "_Z4miscPfPdPii"));
    ck_assert_uint_eq(module_find_kernel(m, "mis", &e), module_find_func(m, "_Z4miscPfPdPii"));
    ck_assert_ptr_null(e);
    /* a .func is not a kernel */
    ck_assert_uint_eq(module_find_kernel(m, "facti", &e), NO_INDEX);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->code, WS_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(e->message, "_Z5saxpyifPKfPf"));
    ck_assert_ptr_nonnull(strstr(e->message, "_Z4miscPfPdPii"));
    g_clear_error(&e);
    module_free(m);

    m = parse_ok(KHEAD ".entry _Z3fooi(.param .u32 a)\n{\nret;\n}\n.entry _Z3foof(.param .f32 a)\n{\nret;\n}\n"
                       ".entry _Z6foobarv()\n{\nret;\n}\n");
    ck_assert_uint_eq(module_find_kernel(m, "foo", &e), NO_INDEX);
    ck_assert_ptr_nonnull(e);
    ck_assert_ptr_nonnull(strstr(e->message, "ambiguous"));
    g_clear_error(&e);
    ck_assert_uint_eq(module_find_kernel(m, "foob", &e), module_find_func(m, "_Z6foobarv"));
    ck_assert_uint_eq(module_find_kernel(m, "_Z3foof", &e), module_find_func(m, "_Z3foof"));
    ck_assert_ptr_null(e);
    module_free(m);
}
END_TEST

START_TEST(test_io_error)
{
    GError *e = NULL;
    Module *m = ptx_parse_file("/nonexistent/dir/x.ptx", &e);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(e->code, WS_ERR_IO);
    ck_assert_ptr_nonnull(strstr(e->message, "/nonexistent/dir/x.ptx"));
    g_error_free(e);
}
END_TEST

START_TEST(test_inline_errors)
{
    parse_fails(KHEAD ".entry k()\n{\n.reg .b32 %r1;\nmov.u32 %r1, %r1\n}\n", WS_ERR_INPUT,
                "t.ptx:8:1: error: expected ';' but found '}'");
    parse_fails(KHEAD ".global .u32 g;\n.func g()\n{\nret;\n}\n", WS_ERR_INPUT,
                "t.ptx:5:7: error: duplicate declaration of 'g'");
    parse_fails(KHEAD ".func f(.param .b32 a)\n{\nret;\n}\n.entry k()\n{\n.reg .b32 %r<2>;\ncall f, (%r1, 2);\nret;\n}\n",
                WS_ERR_INPUT, "t.ptx:11:1: error: call to 'f' passes 2 arguments but it takes 1");
    parse_fails(KHEAD ".entry k()\n{\n.reg .b32 %r<2>;\nadd.s32 %r1, %r0, -99999999999999999999;\n}\n", WS_ERR_INPUT,
                "t.ptx:7:19: error: bad number '-99999999999999999999'");
    parse_fails(KHEAD ".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}\n.entry k(.param .b32 v)\n{\ncall (v), f, (v);\nret;\n}\n",
                WS_ERR_INPUT, "t.ptx:10:7: error: call return value 'v' is a kernel parameter, which is read-only");
}
END_TEST

/* Operand forms the PTX ISA's type rules allow and nvcc emits: each must
 * parse (the malformed corpus holds their rejected neighbours). */
START_TEST(test_operand_types_legal)
{
    static const char *const lines[] = {
        "mov.b32 %f1, %r1;",                 /* .bN: any register of N bits */
        "mov.f32 %f1, %r1;",                 /* .f32 takes an untyped .b32 register */
        "add.s32 %r1, %u1, %r2;",            /* .u32 register where .s32 is read */
        "ld.global.u8 %r1, [%rd1];",         /* ld: integer register wider than the type */
        "ld.u16 %r1, [%rd1];",
        "ld.global.u8 %rs1, [%rd1+3];",
        "st.global.u8 [%rd1], %r1;",         /* st: the low bits of a wider register */
        "ld.global.f32 %f1, [%rd1];",
        "ld.shared.f32 %f1, [%r1];",         /* 32-bit .shared/.local addresses in 64-bit code */
        "st.local.u32 [%r1+8], %r2;",
        "ld.global.v2.u32 {%r1, %r2}, [%rd1];",
        "cvt.u32.u64 %r1, %rd1;",
        "cvt.u32.u16 %r1, %r2;",             /* cvt: source wider than its type */
        "cvt.u16.u32 %r1, %r2;",
        "cvt.rn.f32.s32 %f1, %r1;",
        "cvt.f32.f16 %f1, %rs1;",
        "cvt.rn.f16x2.f32 %r1, %f1, %f2;",
        "mov.b64 %rd1, {%r1, %r2};",         /* vector pack and unpack */
        "mov.b32 {%rs1, %rs2}, %r1;",
        "mov.b64 {%r1, _}, %rd1;",
        "mov.u32 %r1, %tid.x;",              /* special registers are .u32 */
        "mov.u16 %rs1, %ctaid.x;",           /* PTX 1.x reads them at 16 bits */
        "mov.u64 %rd1, %clock64;",
        "mul.wide.s32 %rd1, %r1, %r2;",      /* .wide: a destination of twice the size */
        "mul.wide.u16 %r1, %rs1, %rs2;",
        "mad.wide.u32 %rd1, %r1, %r2, %rd2;",
        "mul.hi.u32 %r1, %r2, %r3;",
        "shl.b64 %rd1, %rd2, %r1;",          /* shift amounts are .u32 */
        "shr.s64 %rd1, %rd2, 3;",
        "bfe.u64 %rd1, %rd2, %r1, 8;",
        "bfi.b64 %rd1, %rd2, %rd3, %r1, 8;",
        "popc.b64 %r1, %rd1;",
        "clz.b64 %r1, %rd1;",
        "prmt.b32 %r1, %r2, %r3, 0x3210;",
        "shf.l.wrap.b32 %r1, %r2, %r3, %r1;",
        "setp.lt.s32 %p1, %r1, %r2;",
        "setp.lt.and.f32 %p1|%p0, %f1, %f2, !%p1;",
        "selp.f32 %f1, %f2, 0f3F800000, %p1;",
        "set.lt.u32.f32 %r1, %f1, %f2;",
        "slct.f32.s32 %f1, %f2, %f3, %r1;",
        "testp.finite.f32 %p1, %f1;",
        "and.pred %p1, %p0, %p1;",
        "vote.sync.ballot.b32 %r1, %p1, -1;",
        "vote.ballot.b32 %r1, %p1;",
        "shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;",
        "shfl.down.b32 %r1, %r2, 1, 31;",
        "match.any.sync.b64 %r1, %rd1, -1;",
        "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;",
        "atom.shared.add.f32 %f1, [%r1], %f2;",
        "red.global.add.u64 [%rd1], %rd2;",
        "cvta.to.global.u64 %rd1, %rd2;",
        "isspacep.shared %p1, %rd1;",
        "mov.u64 %rd1, gv;",
        "bar.sync 0;",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
        char *text = g_strdup_printf(".version 9.0\n.target sm_90\n.address_size 64\n.global .u32 gv;\n"
                                     ".entry k()\n{\n.reg .b32 %%r<4>;\n.reg .u32 %%u<2>;\n.reg .f32 %%f<4>;\n"
                                     ".reg .b64 %%rd<4>;\n.reg .b16 %%rs<3>;\n.reg .pred %%p<2>;\n%s\nret;\n}\n",
                                     lines[i]);
        GError *e = NULL;
        Module *m = ptx_parse_string(text, "t.ptx", &e);
        ck_assert_msg(m != NULL, "'%s' rejected: %s", lines[i], e ? e->message : "?");
        module_free(m);
        g_free(text);
    }
}
END_TEST

/* The address rule follows .address_size: a 32-bit .global address is right
 * in 32-bit code and in old listings without the directive, wrong in 64-bit
 * code. */
START_TEST(test_address_size_rule)
{
    static const char *const body = ".entry k()\n{\n.reg .b32 %r<3>;\n.reg .f32 %f1;\n"
                                    "ld.global.f32 %f1, [%r1];\nst.f32 [%r2+4], %f1;\nret;\n}\n";
    char *a32 = g_strconcat(".version 3.0\n.target sm_20\n.address_size 32\n", body, NULL);
    char *none = g_strconcat(".version 1.4\n.target sm_10\n", body, NULL);
    char *a64 = g_strconcat(".version 9.0\n.target sm_90\n.address_size 64\n", body, NULL);
    Module *m = parse_ok(a32);
    ck_assert_uint_eq(m->address_size, 32);
    module_free(m);
    module_free(parse_ok(none));
    parse_fails(a64, WS_ERR_INPUT, "t.ptx:8:21: error: address register '%r1' of 'ld.global.f32' is 32-bit but "
                ".global addresses are 64-bit (.address_size 64)");
    g_free(a32);
    g_free(none);
    g_free(a64);
}
END_TEST

/* ---- deferral: instructions outside the subset mark their function ----------- */

static const char deferral_ptx[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"             /* 1-3 */
    ".func (.param .b32 r) helper(.param .b64 t);\n"                 /* 4 */
    ".visible .entry caller(.param .u64 p)\n{\n"                      /* 5-6 */
    "\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"                      /* 7-8 */
    "\tld.param.u64 %rd1, [p];\n"                                    /* 9 */
    "\t{\n\t.param .b64 a0;\n\tst.param.b64 [a0], %rd1;\n"          /* 10-12 */
    "\t.param .b32 r0;\n\tcall.uni (r0), helper, (a0);\n\t}\n"        /* 13-15 */
    "\tret;\n}\n"                                                     /* 16-17 */
    ".visible .entry texk(.param .u64 t, .param .u64 out)\n{\n"      /* 18-19 */
    "\t.reg .f32 %f<5>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<2>;\n" /* 20-23 */
    "\tld.param.u64 %rd1, [t];\n"                                    /* 24 */
    "\tmov.u32 %r1, 0;\n"                                            /* 25 */
    "\tsetp.eq.s32 %p1, %r1, 0;\n"                                   /* 26 */
    "\t@%p1 bra DONE;\n"                                             /* 27 */
    "\ttex.1d.v4.f32.s32\t{%f1, %f2, %f3, %f4},   [%rd1, {%r1}];\n"  /* 28 */
    "\tsuld.b.2d.b32.trap {%r1}, [%rd1, {%r1, %r1}];\n"             /* 29 */
    "DONE:\n\tadd.s32 %r1, %r1, 1;\n\tret;\n}\n"                      /* 30-33 */
    ".visible .entry plain(.param .u64 out)\n{\n"                    /* 34-35 */
    "\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n\tret;\n}\n"  /* 36-39 */
    ".func (.param .b32 r) helper(.param .b64 t)\n{\n"               /* 40-41 */
    "\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n\t.reg .f32 %f<5>;\n"  /* 42-44 */
    "\tld.param.b64 %rd1, [t];\n\tmov.u32 %r1, 1;\n"                 /* 45-46 */
    "\ttxq.width.b32 %r1, [%rd1];\n"                                 /* 47 */
    "\tst.param.b32 [r], %r1;\n\tret;\n}\n";                         /* 48-50 */

START_TEST(test_deferred_unsupported)
{
    /* the strict parser still rejects the module at the first one */
    GError *e = NULL;
    ck_assert_ptr_null(ptx_parse_string(deferral_ptx, "t.ptx", &e));
    ck_assert_int_eq(e->code, WS_ERR_UNSUPPORTED);
    ck_assert_str_eq(e->message, "t.ptx:28:2: error: unknown instruction 'tex'");
    g_clear_error(&e);

    Module *m = ptx_parse_string_deferring(deferral_ptx, "t.ptx", &e);
    ck_assert_msg(m != NULL, "%s", e ? e->message : "?");
    uint32_t texk = module_find_func(m, "texk"), plain = module_find_func(m, "plain");
    uint32_t caller = module_find_func(m, "caller"), helper = module_find_func(m, "helper");
    ck_assert(module_func_runnable(m, plain, NULL));
    ck_assert_uint_eq(module_find_kernel(m, "plain", NULL), plain);

    /* the first unsupported instruction is recorded, as written */
    const Function *f = module_func(m, texk);
    ck_assert_str_eq(f->unsupported_insn, "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}]");
    ck_assert_str_eq(f->unsupported_why, "unknown instruction 'tex'");
    ck_assert_uint_eq(f->unsupported_line, 28);
    ck_assert_uint_eq(f->unsupported_via, NO_INDEX);
    ck_assert(!module_func_runnable(m, texk, &e));
    ck_assert_int_eq(e->code, WS_ERR_UNSUPPORTED);
    ck_assert_str_eq(e->message, "t.ptx:28:2: error: kernel 'texk' cannot run on warpsim: it uses "
                                 "'tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}]' (unknown instruction 'tex')");
    g_clear_error(&e);
    ck_assert_uint_eq(module_find_kernel(m, "texk", &e), NO_INDEX);
    ck_assert_int_eq(e->code, WS_ERR_UNSUPPORTED);
    g_clear_error(&e);

    /* each dropped instruction is a trap at its line; the label after them
     * still marks the add */
    ck_assert_uint_eq(func_ninsns(f), 8);
    ck_assert_uint_eq(func_insn(f, 4)->op, OP_TRAP);
    ck_assert_uint_eq(func_insn(f, 4)->line, 28);
    ck_assert_uint_eq(func_insn(f, 5)->op, OP_TRAP);
    ck_assert_uint_eq(func_insn(f, 5)->line, 29);
    ck_assert_uint_eq(func_insn(f, 3)->op, OP_BRA);
    ck_assert_uint_eq(func_insn(f, 3)->opd[0].imm, 6);
    ck_assert_uint_eq(func_insn(f, 6)->op, OP_ADD);

    /* a caller of a function that cannot run cannot run either (the callee
     * is defined after it) */
    ck_assert_str_eq(module_func(m, helper)->unsupported_why, "unknown instruction 'txq'");
    ck_assert_uint_eq(module_func(m, caller)->unsupported_via, helper);
    ck_assert(!module_func_runnable(m, caller, &e));
    ck_assert_str_eq(e->message, "t.ptx:47:2: error: kernel 'caller' cannot run on warpsim: it calls 'helper', "
                                 "which uses 'txq.width.b32 %r1, [%rd1]' (unknown instruction 'txq')");
    g_clear_error(&e);
    module_free(m);

    /* malformed PTX is still an error under deferral */
    char *bad = g_strdup(deferral_ptx);
    char *at = strstr(bad, "add.s32 %r1, %r1, 1;");
    memcpy(at, "add.s32 %r1, %r1;   ", 20);
    ck_assert_ptr_null(ptx_parse_string_deferring(bad, "t.ptx", &e));
    ck_assert_int_eq(e->code, WS_ERR_INPUT);
    g_clear_error(&e);
    /* as is an unsupported instruction with no ';' before the function ends */
    strcpy(bad, ".version 9.0\n.target sm_90\n.entry k()\n{\n\ttex.1d.v4.f32.s32 {%f1}\n}\n");
    ck_assert_ptr_null(ptx_parse_string_deferring(bad, "t.ptx", &e));
    g_clear_error(&e);
    g_free(bad);
}
END_TEST

/* ---- malformed corpus --------------------------------------------------------- */

START_TEST(test_malformed_corpus)
{
    char *dir = src_path("tests/ptx/malformed");
    GDir *d = g_dir_open(dir, 0, NULL);
    ck_assert_ptr_nonnull(d);
    const char *name;
    unsigned count = 0;
    while ((name = g_dir_read_name(d)) != NULL) {
        if (!g_str_has_suffix(name, ".ptx"))
            continue;
        char *path = g_build_filename(dir, name, NULL);
        char *text = NULL;
        ck_assert(g_file_get_contents(path, &text, NULL, NULL));
        ck_assert_msg(g_str_has_prefix(text, "// expect: "), "%s: no expectation line", name);
        char *nl = strchr(text, '\n');
        char *want = g_strndup(text + 11, (gsize)(nl - text - 11));
        int want_code = strstr(nl, "// code: unsupported") == nl + 1 ? WS_ERR_UNSUPPORTED : WS_ERR_INPUT;
        GError *e = NULL;
        Module *m = ptx_parse_file(path, &e);
        ck_assert_msg(m == NULL, "%s parsed but should fail with: %s", name, want);
        ck_assert_msg(g_str_has_prefix(e->message, path), "%s: message lacks the file name: %s", name, e->message);
        const char *got = e->message + strlen(path) + 1;
        ck_assert_msg(strcmp(got, want) == 0, "%s:\n  want %s\n  got  %s", name, want, got);
        ck_assert_msg(e->code == want_code, "%s: code %d, want %d", name, e->code, want_code);
        g_error_free(e);
        g_free(want);
        g_free(text);
        g_free(path);
        count++;
    }
    g_dir_close(d);
    g_free(dir);
    ck_assert_uint_ge(count, 40);
}
END_TEST

/* Every prefix of valid files must give a module or a clean error: never a
 * crash or a hang (run under the sanitizers too). */
START_TEST(test_truncations_never_crash)
{
    const char *files[] = {"tests/ptx/valid/nvcc13_misc.ptx", "tests/ptx/valid/old_reg_func.ptx",
                           "tests/ptx/valid/saxpy_ptx1.ptx"};
    for (size_t fi = 0; fi < G_N_ELEMENTS(files); fi++) {
        char *path = src_path(files[fi]);
        char *text;
        gsize len;
        ck_assert(g_file_get_contents(path, &text, &len, NULL));
        unsigned failures = 0;
        for (gsize cut = 0; cut < len; cut += 3) {
            char saved = text[cut];
            text[cut] = '\0';
            GError *e = NULL;
            Module *m = ptx_parse_string(text, "cut.ptx", &e);
            if (m == NULL) {
                ck_assert_ptr_nonnull(e);
                ck_assert_msg(g_str_has_prefix(e->message, "cut.ptx:"), "%s", e->message);
                failures++;
                g_error_free(e);
            } else {
                ck_assert_ptr_null(e);
                module_free(m);
            }
            text[cut] = saved;
        }
        ck_assert_uint_gt(failures, 0);
        g_free(text);
        g_free(path);
    }
}
END_TEST

START_TEST(test_large_file)
{
    /* 100k instructions and labels: parse must stay linear */
    GString *s = g_string_new(KHEAD ".entry big()\n{\n.reg .b32 %r<100>;\n.reg .pred %p1;\n");
    for (int i = 0; i < 50000; i++)
        g_string_append_printf(s, "L%d:\nadd.s32 %%r%d, %%r%d, %d;\n@%%p1 bra L%d;\n", i, i % 100, (i * 7) % 100, i,
                               (i * 13) % 50000);
    g_string_append(s, "ret;\n}\n");
    Module *m = parse_ok(s->str);
    const Function *f = func(m, "big");
    ck_assert_uint_eq(func_ninsns(f), 100001);
    ck_assert_int_eq(insn(f, 2 * 777 + 1)->opd[0].imm, 2 * ((777 * 13) % 50000));
    module_free(m);
    g_string_free(s, TRUE);
}
END_TEST

/* Dotted instruction names (cp.async.wait_group before cp.async), a
 * second state space for the copy's source, `_|%p`, three type suffixes
 * and modifier groups past bit 31 (.relu). */
START_TEST(test_async_copy_and_newer_forms)
{
    Module *m = parse_ok(KHEAD
                         ".entry k()\n{\n.reg .b16 %h<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
                         "cp.async.ca.shared.global [%r1], [%rd2], 16, 16;\n"             /* 0 */
                         "cp.async.cg.shared::cta.global.L2::128B [%r1+16], [%rd2], 16, %p1;\n" /* 1 */
                         "cp.async.commit_group;\n"                                       /* 2 */
                         "cp.async.wait_group 0;\n"                                       /* 3 */
                         "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];\n"             /* 4 */
                         "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [%r1], %r2;\n" /* 5 */
                         "mbarrier.arrive.shared.b64 _, [%r1];\n"                         /* 6 */
                         "elect.sync _|%p2, -1;\n"                                        /* 7 */
                         "vabsdiff4.u32.s32.u32.add %r3, %r4, %r5, %r6;\n"                /* 8 */
                         "fma.rn.relu.f16 %h1, %h2, %h3, %h1;\n"                          /* 9 */
                         "prefetch.global.L2 [%rd2];\n"                                   /* 10 */
                         "prefetch.global.L2::evict_last [%rd2];\n"                       /* 11 */
                         "cvt.rn.satfinite.relu.f16.f32 %h1, %r4;\n"                      /* 12 */
                         "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd3;\n"              /* 13 */
                         "ret;\n}\n");
    const Function *f = func(m, "k");
    const Insn *in = insn(f, 0);
    ck_assert_int_eq(in->op, OP_CP_ASYNC);
    ck_assert_int_eq(in->space, SPACE_SHARED);
    ck_assert_int_eq(in->space2, SPACE_GLOBAL);
    ck_assert_int_eq(insn_operand_space(in, 0), SPACE_SHARED);
    ck_assert_int_eq(insn_operand_space(in, 1), SPACE_GLOBAL);
    ck_assert_int_eq(in->nopd, 4);
    ck_assert_int_eq(in->cache, CACHE_CA);
    assert_text(m, f, 0, "cp.async.shared.global.ca [%r1], [%rd2], 16, 16");
    in = insn(f, 1);
    ck_assert_int_eq(in->cache, CACHE_CG);
    ck_assert_int_eq(in->opd[3].kind, OPD_REG); /* the ignore-src predicate */
    ck_assert_int_eq(in->opd[0].imm, 16);
    ck_assert_int_eq(insn(f, 2)->op, OP_CP_ASYNC_COMMIT_GROUP);
    ck_assert_int_eq(insn(f, 3)->op, OP_CP_ASYNC_WAIT_GROUP);
    in = insn(f, 4);
    ck_assert_int_eq(in->op, OP_CP_ASYNC_MBARRIER_ARRIVE);
    ck_assert(in->flags & FL_NOINC);
    in = insn(f, 5);
    ck_assert_int_eq(in->op, OP_MBARRIER_TRY_WAIT);
    ck_assert(in->flags & FL_PARITY);
    ck_assert_int_eq(in->sem, SEM_ACQUIRE);
    ck_assert_int_eq(insn(f, 6)->opd[0].kind, OPD_SINK);
    in = insn(f, 7);
    ck_assert_int_eq(in->opd[0].kind, OPD_PAIR);
    ck_assert_uint_eq(in->opd[0].reg, NO_INDEX);
    ck_assert_uint_eq(in->opd[0].reg2, reg(f, "%p2"));
    assert_text(m, f, 7, "elect.sync _|%p2, -1");
    in = insn(f, 8);
    ck_assert_int_eq(in->type, PTX_TYPE_U32);
    ck_assert_int_eq(in->type2, PTX_TYPE_S32);
    ck_assert_int_eq(in->type3, PTX_TYPE_U32);
    ck_assert(in->flags & FL_ADD);
    ck_assert(insn(f, 9)->flags & FL_RELU);
    ck_assert(MG_RELU > UINT32_MAX); /* the group lives above bit 31 */
    ck_assert_int_eq(insn(f, 10)->op, OP_PREFETCH);
    ck_assert(insn(f, 12)->flags & FL_SATFINITE);
    ck_assert(insn(f, 12)->flags & FL_RELU);
    module_free(m);

    /* a second space only where two memory operands are; a 32-bit global
     * address in the copy's source is still refused */
    parse_fails(KHEAD ".entry k()\n{\n.reg .b32 %r<4>;\nld.global.shared.u32 %r1, [%r2];\nret;\n}\n",
                WS_ERR_INPUT, "t.ptx:7:1: error: too many state spaces in 'ld.global.shared.u32'");
    parse_fails(KHEAD ".entry k()\n{\n.reg .b32 %r<4>;\ncp.async.ca.shared.global [%r1], [%r2], 4;\nret;\n}\n",
                WS_ERR_INPUT, "t.ptx:7:35: error: address register '%r2' of 'cp.async.ca.shared.global' is 32-bit "
                "but .global addresses are 64-bit (.address_size 64)");
    parse_fails(KHEAD ".entry k()\n{\n.reg .b32 %r<4>;\nmbarrier.init.shared.b64 [%r1], %p1;\nret;\n}\n",
                WS_ERR_INPUT, "t.ptx:7:33: error: undefined register '%p1'");
    /* an unknown part right after an opcode of several parts names the
     * instruction it most likely is; a later one, the modifier */
    parse_fails(KHEAD ".entry k()\n{\n.reg .b32 %r<4>;\ncp.async.bulk.shared::cluster.global [%r1], [%r2], 16;\nret;\n}\n",
                WS_ERR_UNSUPPORTED, "t.ptx:7:1: error: unsupported instruction 'cp.async.bulk' in "
                "'cp.async.bulk.shared::cluster.global' (the subset has 'cp.async', which takes no '.bulk'; "
                "docs/isa.md lists the subset)");
    /* a vector atomic's value has its width */
    parse_fails(KHEAD ".entry k()\n{\n.reg .f32 %f<4>;\n.reg .b64 %rd<2>;\n"
                "red.global.add.v4.f32 [%rd1], {%f1, %f2};\nret;\n}\n",
                WS_ERR_INPUT, "t.ptx:8:1: error: 'red.global.add.v4.f32' works on 4 elements but operand 2 has 2");
    parse_fails(KHEAD ".entry k()\n{\n.reg .b32 %r<4>;\ncp.async.ca.shared.global.bulk [%r1], [%r2], 16;\nret;\n}\n",
                WS_ERR_UNSUPPORTED, "t.ptx:7:1: error: unknown modifier '.bulk' in "
                "'cp.async.ca.shared.global.bulk'");
}
END_TEST

static Suite *parser_suite(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("valid");
    tcase_add_test(tc, test_old_saxpy);
    tcase_add_test(tc, test_managed_attribute);
    tcase_add_test(tc, test_opencl_32bit);
    tcase_add_test(tc, test_nvcc_misc);
    tcase_add_test(tc, test_nvcc_structs_half);
    tcase_add_test(tc, test_pragma_nounroll);
    tcase_add_test(tc, test_nvcc_debug_build);
    tcase_add_test(tc, test_nvcc_inlined_loc);
    tcase_add_test(tc, test_nvcc_kernels);
    tcase_add_test(tc, test_nvcc_operand_types_accepted);
    tcase_add_test(tc, test_vector_zero_element);
    tcase_add_test(tc, test_old_reg_func);
    tcase_add_test(tc, test_immediates);
    tcase_add_test(tc, test_call_forms);
    tcase_add_test(tc, test_repeated_prototypes);
    tcase_add_test(tc, test_labels_forward_and_end);
    tcase_add_test(tc, test_modifiers);
    tcase_add_test(tc, test_async_copy_and_newer_forms);
    tcase_add_test(tc, test_find_kernel);
    tcase_add_test(tc, test_operand_types_legal);
    tcase_add_test(tc, test_address_size_rule);
    tcase_add_test(tc, test_deferred_unsupported);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("errors");
    tcase_set_timeout(te, 300);
    tcase_add_test(te, test_io_error);
    tcase_add_test(te, test_inline_errors);
    tcase_add_test(te, test_malformed_corpus);
    tcase_add_test(te, test_truncations_never_crash);
    tcase_add_test(te, test_large_file);
    suite_add_tcase(s, te);
    return s;
}

int main(void)
{
    return tu_run_suite(parser_suite());
}
