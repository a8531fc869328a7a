/* isa.c — tables generated from the isa/ definition files and their lookups. */
#include "isa.h"

#include <string.h>

const OpInfo isa_ops[OP_COUNT] = {
#define PTX_OP(id, name, shape, mint, maxt, tcls, mgroups, unit, lat, summary) \
    [OP_##id] = {name, shape, mint, maxt, tcls, mgroups, unit, lat, summary},
#include "ptx_ops.def"
#undef PTX_OP
};

const TypeInfo isa_types[PTX_TYPE_COUNT] = {
    [PTX_TYPE_NONE] = {"", 0, 0},
#define PTX_TYPE(id, s, sz, cls) [PTX_TYPE_##id] = {s, sz, cls},
#include "ptx_types.def"
#undef PTX_TYPE
};

const SregInfo isa_sregs[SREG_COUNT] = {
#define PTX_SREG(id, name, vec, bits, meaning) [SREG_##id] = {name, vec, bits, meaning},
#include "ptx_sregs.def"
#undef PTX_SREG
};

const ModInfo isa_mods[] = {
#define PTX_MOD(group, spelling, field, value) {group, spelling, field, value},
#include "ptx_modifiers.def"
#undef PTX_MOD
};
const unsigned isa_mod_count = sizeof isa_mods / sizeof isa_mods[0];

const char *const isa_unit_names[UNIT_COUNT] = {
    [UNIT_ARITH] = "by type",
#define FUNC_UNIT(id, name, key) [UNIT_##id] = name,
#include "func_units.def"
#undef FUNC_UNIT
};

const char *const isa_latency_names[LAT_COUNT] = {
#define LATENCY_CLASS(id, name, absent, sched) [LAT_##id] = name,
#include "latency_classes.def"
#undef LATENCY_CLASS
};

const LatencyClass isa_latency_absent[LAT_COUNT] = {
#define LATENCY_CLASS(id, name, absent, sched) [LAT_##id] = LAT_##absent,
#include "latency_classes.def"
#undef LATENCY_CLASS
};

const uint16_t isa_latency_sched_cycles[LAT_COUNT] = {
#define LATENCY_CLASS(id, name, absent, sched) [LAT_##id] = sched,
#include "latency_classes.def"
#undef LATENCY_CLASS
};

const LatencyRule isa_latency_rules[] = {
#define PTX_LATENCY(op, type, needs, scope, lat, slots, form) \
    {OP_##op, PTX_TYPE_##type, SCOPE_##scope, needs, lat, slots, form},
#include "ptx_latency.def"
#undef PTX_LATENCY
};
const unsigned isa_latency_rule_count = sizeof isa_latency_rules / sizeof isa_latency_rules[0];

static bool same(const char *table_name, const char *s, size_t len)
{
    return strncmp(table_name, s, len) == 0 && table_name[len] == '\0';
}

bool isa_find_op(const char *name, size_t len, PtxOpcode *out)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (same(isa_ops[i].name, name, len)) {
            *out = (PtxOpcode)i;
            return true;
        }
    return false;
}

bool isa_find_op_prefix(const char *s, size_t len, PtxOpcode *out, size_t *used)
{
    size_t best = 0;
    for (int i = 0; i < OP_COUNT; i++) {
        size_t n = strlen(isa_ops[i].name);
        if (n > best && n <= len && memcmp(isa_ops[i].name, s, n) == 0 && (n == len || s[n] == '.')) {
            best = n;
            *out = (PtxOpcode)i;
        }
    }
    *used = best;
    return best > 0;
}

PtxType isa_find_type(const char *name, size_t len)
{
    for (int i = 1; i < PTX_TYPE_COUNT; i++)
        if (same(isa_types[i].spelling, name, len))
            return (PtxType)i;
    return PTX_TYPE_NONE;
}

const ModInfo *isa_find_mod(const char *name, size_t len, ModGroups groups)
{
    for (unsigned i = 0; i < isa_mod_count; i++)
        if ((isa_mods[i].group & groups) && same(isa_mods[i].spelling, name, len))
            return &isa_mods[i];
    return NULL;
}

bool isa_mod_exists(const char *name, size_t len)
{
    return isa_find_mod(name, len, ~(ModGroups)0) != NULL;
}

bool isa_find_sreg(const char *name, size_t len, PtxSreg *out)
{
    for (int i = 0; i < SREG_COUNT; i++)
        if (same(isa_sregs[i].name, name, len)) {
            *out = (PtxSreg)i;
            return true;
        }
    return false;
}

const char *isa_space_name(PtxSpace s)
{
    static const char *const names[SPACE_COUNT] = {
        "generic", "global", "shared", "local", "const", "param", "reg"};
    return s < SPACE_COUNT ? names[s] : "?";
}

/* Whether any row of isa/ptx_latency.def names op: most opcodes have
 * none, and the compiler tests this as a bit of a constant, where the
 * rows took a scan each (a third of a launch's decoding). */
static bool op_has_latency_rule(PtxOpcode op)
{
    return false
#define PTX_LATENCY(o, type, needs, scope, lat, slots, form) || op == OP_##o
#include "ptx_latency.def"
#undef PTX_LATENCY
        ;
}

/* The first row of isa/ptx_latency.def that matches, or NULL. */
static const LatencyRule *latency_rule_for(PtxOpcode op, PtxType t, uint32_t flags, unsigned scope)
{
    if (!op_has_latency_rule(op))
        return NULL;
    for (unsigned i = 0; i < isa_latency_rule_count; i++) {
        const LatencyRule *r = &isa_latency_rules[i];
        if (r->op == op && (r->type == PTX_TYPE_NONE || r->type == t) && (flags & r->needs) == r->needs &&
            (r->scope == SCOPE_NONE || r->scope == scope))
            return r;
    }
    return NULL;
}

uint32_t isa_issue_slots_for(PtxOpcode op, PtxType t, uint32_t flags, unsigned scope)
{
    const LatencyRule *r = latency_rule_for(op, t, flags, scope);
    return r ? r->slots : 1;
}

LatencyClass isa_latency_for(PtxOpcode op, PtxType t, PtxType t2, uint32_t flags, unsigned scope)
{
    const LatencyRule *r = latency_rule_for(op, t, flags, scope);
    if (r)
        return r->latency;
    if (op == OP_CVT && (isa_type_class(t) & TC_INT) && (isa_type_class(t2) & TC_INT))
        return LAT_ALU;
    LatencyClass lat = isa_ops[op].latency;
    if (isa_unit_for(op, t) == UNIT_FP64 && (lat == LAT_ALU || lat == LAT_MUL || lat == LAT_FMA))
        return LAT_FP64;
    return lat;
}

FuncUnit isa_unit_for(PtxOpcode op, PtxType t)
{
    FuncUnit u = isa_ops[op].unit;
    if (u != UNIT_ARITH)
        return u;
    if (t == PTX_TYPE_F64)
        return UNIT_FP64;
    if (isa_type_class(t) & (TC_FLOAT | TC_HALF))
        return UNIT_FP32;
    return UNIT_INT;
}
