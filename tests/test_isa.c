/* test_isa.c — the instruction tables of isa/ (isa.c): their consistency
 * (names unique, shapes well formed, every modifier group reachable) and
 * the decoding of the instructions nvcc 13 emits for sm_80/sm_90 that the
 * subset gained with them (redux.sync, dp4a/dp2a, fns, bmsk, szext,
 * elect.sync): each nvcc-shaped line decodes to the opcode, types and
 * modifier fields its handler reads, and malformed variants are refused
 * with a message naming the problem.
 */
#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "isa.h"
#include "ptx_parser.h"
#include "testutil.h"

START_TEST(test_op_names_unique_and_shapes_valid)
{
    for (int i = 0; i < OP_COUNT; i++) {
        PtxOpcode found;
        ck_assert_msg(isa_find_op(isa_ops[i].name, strlen(isa_ops[i].name), &found) && found == (PtxOpcode)i,
                      "'%s' does not look up to itself", isa_ops[i].name);
        ck_assert_uint_le(isa_ops[i].min_types, isa_ops[i].max_types);
        ck_assert_uint_le(isa_ops[i].max_types, 3); /* Insn holds three type suffixes (video: d.a.b) */
        ck_assert_msg(isa_ops[i].max_types == 0 || isa_ops[i].type_classes != 0, "'%s' takes types of no class",
                      isa_ops[i].name);
        unsigned operands = 0;
        for (const char *c = isa_ops[i].shape; *c; c++) {
            if (*c == ',' || *c == '?')
                continue;
            ck_assert_msg(strchr("dabcmlf", *c) || strcmp(isa_ops[i].shape, "call") == 0,
                          "'%s' has operand kind '%c'", isa_ops[i].name, *c);
            operands++;
        }
        ck_assert_msg(strcmp(isa_ops[i].shape, "call") == 0 || operands <= 6, "'%s' has %u operands",
                      isa_ops[i].name, operands);
    }
}
END_TEST

START_TEST(test_every_modifier_group_is_used)
{
    ModGroups accepted = 0;
    for (int i = 0; i < OP_COUNT; i++)
        accepted |= isa_ops[i].modifier_groups;
    for (unsigned k = 0; k < isa_mod_count; k++) {
        ck_assert_msg(__builtin_popcountll(isa_mods[k].group) == 1, "'.%s' is in %d groups", isa_mods[k].spelling,
                      __builtin_popcountll(isa_mods[k].group));
        ck_assert_msg(isa_mods[k].group & accepted, "no opcode accepts '.%s' (group 0x%llx)", isa_mods[k].spelling,
                      (unsigned long long)isa_mods[k].group);
    }
}
END_TEST

START_TEST(test_dotted_names)
{
    PtxOpcode op;
    size_t used;
    const char *s = "cp.async.wait_group";
    ck_assert(isa_find_op_prefix(s, strlen(s), &op, &used));
    ck_assert_int_eq(op, OP_CP_ASYNC_WAIT_GROUP);
    ck_assert_uint_eq(used, strlen(s));
    s = "cp.async.ca.shared.global";
    ck_assert(isa_find_op_prefix(s, strlen(s), &op, &used));
    ck_assert_int_eq(op, OP_CP_ASYNC);
    ck_assert_uint_eq(used, 8);
    s = "mbarrier.arrive_drop.shared.b64"; /* not mbarrier.arrive: names end at a dot */
    ck_assert(isa_find_op_prefix(s, strlen(s), &op, &used));
    ck_assert_int_eq(op, OP_MBARRIER_ARRIVE_DROP);
    s = "addc.cc.u32";
    ck_assert(isa_find_op_prefix(s, strlen(s), &op, &used));
    ck_assert_int_eq(op, OP_ADDC);
    ck_assert(!isa_find_op_prefix("cp", 2, &op, &used));
    ck_assert(!isa_find_op_prefix("mbarrier.frob", 13, &op, &used));
    /* every name is found whole, and no name is a dotted prefix of a
     * modifier spelling that would hide it */
    for (int i = 0; i < OP_COUNT; i++) {
        ck_assert(isa_find_op_prefix(isa_ops[i].name, strlen(isa_ops[i].name), &op, &used));
        ck_assert_int_eq(op, i);
    }
}
END_TEST

START_TEST(test_redux_modifiers)
{
    PtxOpcode op;
    ck_assert(isa_find_op("redux", 5, &op));
    ModGroups g = isa_ops[op].modifier_groups;
    static const struct {
        const char *s;
        uint32_t atom;
    } ops[] = {{"add", ATOM_ADD}, {"min", ATOM_MIN}, {"max", ATOM_MAX},
               {"and", ATOM_AND}, {"or", ATOM_OR},   {"xor", ATOM_XOR}};
    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
        const ModInfo *mi = isa_find_mod(ops[i].s, strlen(ops[i].s), g);
        ck_assert_msg(mi && mi->field == F_ATOM && mi->value == ops[i].atom, ".%s", ops[i].s);
    }
    ck_assert_ptr_null(isa_find_mod("inc", 3, g)); /* an atom operation redux does not have */
    ck_assert_ptr_null(isa_find_mod("cas", 3, g));
    ck_assert_ptr_nonnull(isa_find_mod("sync", 4, g));
}
END_TEST

/* One kernel around `body`; returns its first instruction after the
 * register declarations, or NULL with *err set. */
static Module *parse_body(const char *body, char **err)
{
    char *ptx = g_strdup_printf(".version 8.0\n.target sm_90\n.address_size 64\n"
                                ".visible .entry k()\n{\n.reg .b32 %%r<10>;\n.reg .pred %%p<4>;\n"
                                ".reg .f32 %%f<10>;\n.reg .f64 %%fd<10>;\n%s\nret;\n}\n", body);
    GError *e = NULL;
    Module *m = ptx_parse_string(ptx, "t.ptx", &e);
    g_free(ptx);
    *err = e ? g_strdup(e->message) : NULL;
    g_clear_error(&e);
    return m;
}

/* cvt between integer types is timed as the ALU operation the machine code
 * makes of it; a conversion to, from or between floating-point types keeps
 * the cvt class, and other ops their table's class. */
START_TEST(test_latency_by_types)
{
    const struct {
        PtxOpcode op;
        PtxType t, t2;
        LatencyClass want;
    } cases[] = {
        {OP_CVT, PTX_TYPE_S64, PTX_TYPE_S32, LAT_ALU},
        {OP_CVT, PTX_TYPE_U32, PTX_TYPE_U16, LAT_ALU},
        {OP_CVT, PTX_TYPE_F32, PTX_TYPE_S32, LAT_CVT},
        {OP_CVT, PTX_TYPE_S32, PTX_TYPE_F32, LAT_CVT},
        {OP_CVT, PTX_TYPE_F32, PTX_TYPE_F16, LAT_CVT},
        {OP_DIV, PTX_TYPE_S32, PTX_TYPE_S32, LAT_DIV},
        {OP_ADD, PTX_TYPE_F32, PTX_TYPE_F32, isa_ops[OP_ADD].latency},
        /* double-precision arithmetic has the FP64 pipe's own latency; what
         * is not arithmetic on it keeps its class */
        {OP_ADD, PTX_TYPE_F64, PTX_TYPE_F64, LAT_FP64},
        {OP_MUL, PTX_TYPE_F64, PTX_TYPE_F64, LAT_FP64},
        {OP_FMA, PTX_TYPE_F64, PTX_TYPE_F64, LAT_FP64},
        {OP_DIV, PTX_TYPE_F64, PTX_TYPE_F64, LAT_DIV_FP64},
        {OP_CVT, PTX_TYPE_F64, PTX_TYPE_F32, LAT_CVT},
        {OP_ADD, PTX_TYPE_S64, PTX_TYPE_S64, LAT_ALU},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
        ck_assert_msg(isa_latency_for(cases[i].op, cases[i].t, cases[i].t2, 0, 0) == cases[i].want,
                      "case %zu (%s.%s.%s): class %s, want %s", i, isa_ops[cases[i].op].name,
                      isa_types[cases[i].t].spelling, isa_types[cases[i].t2].spelling,
                      isa_latency_names[isa_latency_for(cases[i].op, cases[i].t, cases[i].t2, 0, 0)],
                      isa_latency_names[cases[i].want]);
}
END_TEST

/* The SFU's functions and division, written as nvcc writes them, take the
 * class of what their machine code is (isa/ptx_latency.def): one SFU
 * instruction, a sequence around it, or a division sequence. */
START_TEST(test_latency_by_form)
{
    static const struct {
        const char *text;
        LatencyClass want;
    } cases[] = {
        {"rcp.approx.ftz.f32 %f1, %f2;", LAT_SFU},
        {"rcp.approx.f32 %f1, %f2;", LAT_SFU_SEQ},
        {"rcp.rn.f32 %f1, %f2;", LAT_DIV},
        {"rcp.rn.ftz.f32 %f1, %f2;", LAT_DIV},
        {"rcp.rn.f64 %fd1, %fd2;", LAT_DIV},
        {"rcp.approx.ftz.f64 %fd1, %fd2;", LAT_SFU},
        {"sqrt.approx.ftz.f32 %f1, %f2;", LAT_SFU},
        {"sqrt.approx.f32 %f1, %f2;", LAT_SFU_SEQ},
        {"sqrt.rn.f32 %f1, %f2;", LAT_SFU_SEQ},
        {"sqrt.rn.f64 %fd1, %fd2;", LAT_DIV},
        {"rsqrt.approx.ftz.f32 %f1, %f2;", LAT_SFU},
        {"rsqrt.approx.f32 %f1, %f2;", LAT_SFU_SEQ},
        {"rsqrt.approx.f64 %fd1, %fd2;", LAT_SFU_SEQ},
        {"lg2.approx.ftz.f32 %f1, %f2;", LAT_SFU},
        {"lg2.approx.f32 %f1, %f2;", LAT_SFU_SEQ},
        {"ex2.approx.f32 %f1, %f2;", LAT_SFU},
        {"ex2.approx.ftz.f32 %f1, %f2;", LAT_SFU},
        {"sin.approx.f32 %f1, %f2;", LAT_SFU},
        {"cos.approx.ftz.f32 %f1, %f2;", LAT_SFU},
        {"div.approx.f32 %f1, %f2, %f3;", LAT_SFU},
        {"div.full.f32 %f1, %f2, %f3;", LAT_SFU},
        {"div.rn.f32 %f1, %f2, %f3;", LAT_DIV},
        {"div.rz.ftz.f32 %f1, %f2, %f3;", LAT_DIV},
        {"div.rn.f64 %fd1, %fd2, %fd3;", LAT_DIV_FP64},
        {"div.s32 %r1, %r2, %r3;", LAT_DIV},
        {"rem.u32 %r1, %r2, %r3;", LAT_DIV},
        {"membar.cta;", LAT_MEMBAR_CTA},
        {"membar.gl;", LAT_MEMBAR},
        {"membar.sys;", LAT_MEMBAR_SYS},
        {"fence.sc.cta;", LAT_MEMBAR_CTA},
        {"fence.acq_rel.gpu;", LAT_MEMBAR},
        {"fence.sc.sys;", LAT_MEMBAR_SYS},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *err;
        Module *m = parse_body(cases[i].text, &err);
        ck_assert_msg(m != NULL, "%s: %s", cases[i].text, err);
        const Insn *in = func_insn(module_func(m, 0), 0);
        LatencyClass got =
            isa_latency_for((PtxOpcode)in->op, (PtxType)in->type, (PtxType)in->type2, in->flags, in->scope);
        ck_assert_msg(got == cases[i].want, "%s: class %s, want %s", cases[i].text, isa_latency_names[got],
                      isa_latency_names[cases[i].want]);
        module_free(m);
    }
}
END_TEST

/* Every row of isa/ptx_latency.def can match something: its opcode takes
 * its type and the modifiers it needs. */
START_TEST(test_latency_rules_reachable)
{
    for (unsigned i = 0; i < isa_latency_rule_count; i++) {
        const LatencyRule *r = &isa_latency_rules[i];
        const OpInfo *o = &isa_ops[r->op];
        ck_assert_msg(r->type == PTX_TYPE_NONE || (isa_type_class(r->type) & o->type_classes),
                      "rule %u: '%s' takes no .%s", i, o->name, isa_types[r->type].spelling);
        uint32_t offered = 0;
        for (unsigned k = 0; k < isa_mod_count; k++)
            if (isa_mods[k].field == F_FLAG && (isa_mods[k].group & o->modifier_groups))
                offered |= isa_mods[k].value;
        ck_assert_msg((r->needs & offered) == r->needs, "rule %u: '%s' takes no modifier of flags 0x%x", i,
                      o->name, r->needs & ~offered);
        ck_assert_int_lt(r->latency, LAT_COUNT);
    }
}
END_TEST

/* A config that leaves an optional latency key out gets the latency of the
 * class isa/latency_classes.def names, which config.c reads once: that
 * class must be a required one, or it would itself still be unset. */
START_TEST(test_latency_fallbacks_are_required_classes)
{
    for (unsigned c = 0; c < LAT_COUNT; c++) {
        LatencyClass to = isa_latency_absent[c];
        ck_assert_msg(isa_latency_absent[to] == to, "latency class %s falls back to %s, which is optional",
                      isa_latency_names[c], isa_latency_names[to]);
        for (unsigned d = 0; d < c; d++)
            ck_assert_msg(strcmp(isa_latency_names[c], isa_latency_names[d]) != 0, "latency class %s named twice",
                          isa_latency_names[c]);
    }
}
END_TEST

START_TEST(test_new_instructions_decode)
{
    static const struct {
        const char *text;
        const char *op;
        PtxType type, type2;
        uint8_t atom, mul;
        uint32_t flags;
        uint8_t nopd;
    } cases[] = {
        {"redux.sync.add.s32 %r1, %r2, %r3;", "redux", PTX_TYPE_S32, 0, ATOM_ADD, 0, FL_SYNC, 3},
        {"redux.sync.max.u32 %r1, %r2, -1;", "redux", PTX_TYPE_U32, 0, ATOM_MAX, 0, FL_SYNC, 3},
        {"redux.sync.xor.b32 %r1, %r2, 0xffff;", "redux", PTX_TYPE_B32, 0, ATOM_XOR, 0, FL_SYNC, 3},
        {"dp4a.u32.s32 %r1, %r2, %r3, %r4;", "dp4a", PTX_TYPE_U32, PTX_TYPE_S32, 0, 0, 0, 4},
        {"dp2a.hi.s32.u32 %r1, %r2, %r3, 5;", "dp2a", PTX_TYPE_S32, PTX_TYPE_U32, 0, MUL_HI, 0, 4},
        {"dp2a.lo.u32.u32 %r1, %r2, %r3, %r4;", "dp2a", PTX_TYPE_U32, PTX_TYPE_U32, 0, MUL_LO, 0, 4},
        {"fns.b32 %r1, %r2, 3, -2;", "fns", PTX_TYPE_B32, 0, 0, 0, 0, 4},
        {"bmsk.clamp.b32 %r1, %r2, %r3;", "bmsk", PTX_TYPE_B32, 0, 0, 0, FL_CLAMP, 3},
        {"szext.wrap.s32 %r1, %r2, 8;", "szext", PTX_TYPE_S32, 0, 0, 0, FL_WRAP, 3},
        {"elect.sync %r1|%p1, -1;", "elect", PTX_TYPE_NONE, 0, 0, 0, FL_SYNC, 2},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *err;
        Module *m = parse_body(cases[i].text, &err);
        ck_assert_msg(m != NULL, "%s: %s", cases[i].text, err);
        const Function *f = module_func(m, 0);
        const Insn *in = func_insn(f, 0);
        ck_assert_str_eq(isa_ops[in->op].name, cases[i].op);
        ck_assert_msg(in->type == cases[i].type && in->type2 == cases[i].type2, "%s: types %u %u", cases[i].text,
                      in->type, in->type2);
        ck_assert_msg(in->atom == cases[i].atom && in->mul == cases[i].mul, "%s: atom %u mul %u", cases[i].text,
                      in->atom, in->mul);
        ck_assert_msg((in->flags & cases[i].flags) == cases[i].flags, "%s: flags 0x%x", cases[i].text, in->flags);
        ck_assert_msg(in->nopd == cases[i].nopd, "%s: %u operands", cases[i].text, in->nopd);
        module_free(m);
    }
    /* elect's destination pair */
    char *err;
    Module *m = parse_body("elect.sync %r1|%p1, 0xff;", &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(func_insn(module_func(m, 0), 0)->opd[0].kind, OPD_PAIR);
    module_free(m);
}
END_TEST

START_TEST(test_new_instructions_refused_when_malformed)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"redux.sync.inc.u32 %r1, %r2, -1;", "modifier '.inc' is not allowed for 'redux'"},
        {"redux.sync.add.f32 %r1, %r2, -1;", "type '.f32' is not allowed for 'redux'"},
        {"redux.sync.add.u32 %r1, %r2;", "redux"},
        {"dp4a.u32 %r1, %r2, %r3, %r4;", "needs 2 type suffixes"},
        {"fns.u32 %r1, %r2, 3, 1;", "type '.u32' is not allowed for 'fns'"},
        {"elect.sync %r1|%r2, -1;", "must be a predicate"},
        {"bmsk.clamp.s32 %r1, %r2, %r3;", "type '.s32' is not allowed for 'bmsk'"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *err;
        Module *m = parse_body(cases[i].text, &err);
        ck_assert_msg(m == NULL, "accepted: %s", cases[i].text);
        ck_assert_msg(strstr(err, cases[i].want), "%s: %s", cases[i].text, err);
        g_free(err);
    }
}
END_TEST

static Suite *isa_suite(void)
{
    Suite *s = suite_create("isa");
    TCase *t = tcase_create("tables");
    tcase_add_test(t, test_op_names_unique_and_shapes_valid);
    tcase_add_test(t, test_every_modifier_group_is_used);
    tcase_add_test(t, test_redux_modifiers);
    tcase_add_test(t, test_dotted_names);
    tcase_add_test(t, test_latency_by_types);
    tcase_add_test(t, test_latency_by_form);
    tcase_add_test(t, test_latency_rules_reachable);
    tcase_add_test(t, test_latency_fallbacks_are_required_classes);
    suite_add_tcase(s, t);
    TCase *d = tcase_create("decode");
    tcase_add_test(d, test_new_instructions_decode);
    tcase_add_test(d, test_new_instructions_refused_when_malformed);
    suite_add_tcase(s, d);
    return s;
}

int main(void)
{
    return tu_run_suite(isa_suite());
}
