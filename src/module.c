/* module.c — Module lifetime, lookups and instruction rendering (module.h). */
#include "module.h"

#include <inttypes.h>
#include <string.h>

#include "cfg.h"
#include "errors.h"

Module *module_new(const char *path)
{
    Module *m = g_new0(Module, 1);
    m->path = g_strdup(path ? path : "<input>");
    m->address_size = 64;
    m->funcs = g_array_new(FALSE, TRUE, sizeof(Function));
    m->vars = g_array_new(FALSE, TRUE, sizeof(Variable));
    m->files = g_ptr_array_new_with_free_func(g_free);
    return m;
}

static void free_function(Function *f)
{
    g_free(f->name);
    if (f->params)
        g_array_unref(f->params);
    if (f->rets)
        g_array_unref(f->rets);
    if (f->regs) {
        for (guint i = 0; i < f->regs->len; i++)
            g_free(g_array_index(f->regs, RegInfo, i).name);
        g_array_unref(f->regs);
    }
    if (f->insns)
        g_array_unref(f->insns);
    if (f->calls) {
        for (guint i = 0; i < f->calls->len; i++) {
            CallSite *c = &g_array_index(f->calls, CallSite, i);
            g_free(c->rets);
            g_free(c->args);
            g_free(c->arg_opds);
            g_free(c->ret_opds);
        }
        g_array_unref(f->calls);
    }
    if (f->frame_vars)
        g_array_unref(f->frame_vars);
    if (f->labels) {
        for (guint i = 0; i < f->labels->len; i++)
            g_free(g_array_index(f->labels, Label, i).name);
        g_array_unref(f->labels);
    }
    if (f->cfg)
        cfg_free(f->cfg);
    g_free(f->unsupported_insn);
    g_free(f->unsupported_why);
}

void module_free(Module *m)
{
    if (m == NULL)
        return;
    for (guint i = 0; i < m->funcs->len; i++)
        free_function(module_func(m, i));
    g_array_unref(m->funcs);
    for (guint i = 0; i < m->vars->len; i++) {
        Variable *v = module_var(m, i);
        g_free(v->name);
        g_free(v->init);
        if (v->init_fixups)
            g_array_unref(v->init_fixups);
    }
    g_array_unref(m->vars);
    g_ptr_array_unref(m->files);
    g_free(m->target);
    g_free(m->path);
    g_free(m);
}

uint32_t module_find_func(const Module *m, const char *name)
{
    for (guint i = 0; i < m->funcs->len; i++)
        if (strcmp(module_func(m, i)->name, name) == 0)
            return i;
    return NO_INDEX;
}

uint32_t module_find_global(const Module *m, const char *name)
{
    for (guint i = 0; i < m->vars->len; i++) {
        const Variable *v = module_var(m, i);
        if (v->scope == VAR_MODULE && strcmp(v->name, name) == 0)
            return i;
    }
    return NO_INDEX;
}

/* The plain name inside an Itanium-mangled symbol (_Z5saxpyifPKfPf ->
 * "saxpy"), or NULL when `mangled` is not of that form. */
static const char *demangled_name(const char *mangled, size_t *len)
{
    if (strncmp(mangled, "_Z", 2) != 0)
        return NULL;
    const char *p = mangled + 2;
    if (*p == 'L') /* internal linkage */
        p++;
    if (!g_ascii_isdigit(*p))
        return NULL;
    size_t n = 0;
    while (g_ascii_isdigit(*p)) {
        n = n * 10 + (size_t)(*p - '0');
        if (n > 4096)
            return NULL;
        p++;
    }
    if (strlen(p) < n)
        return NULL;
    *len = n;
    return p;
}

uint32_t module_find_kernel(const Module *m, const char *name, GError **error)
{
    uint32_t found = NO_INDEX;
    unsigned matches = 0;
    size_t qlen = strlen(name);

    for (guint i = 0; i < m->funcs->len; i++) {
        const Function *f = module_func(m, i);
        if (f->is_entry && strcmp(f->name, name) == 0)
            return module_func_runnable(m, i, error) ? i : NO_INDEX;
    }
    /* exact demangled name first, then a demangled prefix */
    for (int pass = 0; pass < 2 && matches == 0; pass++) {
        for (guint i = 0; i < m->funcs->len; i++) {
            const Function *f = module_func(m, i);
            size_t dlen;
            const char *d = f->is_entry ? demangled_name(f->name, &dlen) : NULL;
            if (d == NULL || qlen == 0 || qlen > dlen || strncmp(d, name, qlen) != 0)
                continue;
            if (pass == 0 && dlen != qlen)
                continue;
            found = i;
            matches++;
        }
    }
    if (matches == 1)
        return module_func_runnable(m, found, error) ? found : NO_INDEX;

    GString *list = g_string_new(NULL);
    for (guint i = 0; i < m->funcs->len; i++) {
        const Function *f = module_func(m, i);
        if (f->is_entry)
            g_string_append_printf(list, "%s%s", list->len ? ", " : "", f->name);
    }
    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: %s kernel '%s' (kernels: %s)",
                m->path, matches ? "ambiguous" : "no", name, list->len ? list->str : "none");
    g_string_free(list, TRUE);
    return NO_INDEX;
}

bool module_func_runnable(const Module *m, uint32_t fi, GError **error)
{
    const Function *f = module_func(m, fi);
    if (f->unsupported_insn == NULL)
        return true;
    char *via = f->unsupported_via == NO_INDEX
                    ? g_strdup("")
                    : g_strdup_printf("calls '%s', which ", module_func(m, f->unsupported_via)->name);
    g_set_error(error, WARPSIM_ERROR, WS_ERR_UNSUPPORTED,
                "%s:%u:%u: error: %s '%s' cannot run on warpsim: it %suses '%s' (%s)", m->path, f->unsupported_line,
                f->unsupported_col, f->is_entry ? "kernel" : "function", f->name, via, f->unsupported_insn,
                f->unsupported_why);
    g_free(via);
    return false;
}

/* Repeated until nothing changes: callers and callees come in any order. */
void module_propagate_unsupported(Module *m)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (guint i = 0; i < m->funcs->len; i++) {
            Function *f = module_func(m, i);
            if (f->unsupported_insn != NULL || !f->is_defined)
                continue;
            for (guint c = 0; c < f->calls->len; c++) {
                uint32_t callee = g_array_index(f->calls, CallSite, c).callee;
                if (callee == NO_INDEX || callee == i)
                    continue;
                const Function *g = module_func(m, callee);
                if (g->unsupported_insn == NULL)
                    continue;
                f->unsupported_insn = g_strdup(g->unsupported_insn);
                f->unsupported_why = g_strdup(g->unsupported_why);
                f->unsupported_line = g->unsupported_line;
                f->unsupported_col = g->unsupported_col;
                f->unsupported_via = callee;
                changed = true;
                break;
            }
        }
    }
}

/* ---- rendering ---------------------------------------------------------- */

static const char *reg_name(const Function *f, uint32_t r)
{
    if (r == NO_INDEX)
        return "_";
    if (f == NULL || r >= f->regs->len)
        return "%?";
    return g_array_index(f->regs, RegInfo, r).name;
}

static bool field_matches(const Insn *in, const ModInfo *mi)
{
    switch (mi->field) {
    case F_ROUND: return in->round == mi->value;
    case F_FLAG: return (in->flags & mi->value) != 0;
    case F_MUL: return in->mul == mi->value;
    case F_CMP: return in->cmp == mi->value;
    case F_BOOL: return in->boolop == mi->value;
    case F_MODE: return in->mode == mi->value;
    case F_SPACE: return in->space == mi->value;
    case F_VEC: return in->vec == mi->value;
    case F_CACHE: return in->cache == mi->value;
    case F_SEM: return in->sem == mi->value;
    case F_SCOPE: return in->scope == mi->value;
    case F_ATOM: return in->atom == mi->value;
    case F_IGNORE: return false;
    }
    return false;
}

/* PTX's customary suffix order (ld.relaxed.gpu.global.nc.v4, cvta.to.global,
 * bar.warp.sync, shfl.sync.down, setp.lt.and.ftz); within a group rows print
 * in table order, except that barrier flags (.warp) precede the mode.  Groups
 * not listed here print last, so a new table group is never dropped. */
static const ModGroups print_order[] = {
    MG_TO, MG_SEM, MG_SCOPE, MG_FENCE, MG_SPACE, MG_NC, MG_CACHE, MG_VEC, MG_BAR, MG_REDOP, MG_SYNC,
    MG_VOTE, MG_SHFL, MG_MATCH, MG_ATOM, MG_MULMODE, MG_CMP, MG_BOOL, MG_ROUND, MG_IROUND, MG_TESTP,
    MG_SHF, MG_BFIND, MG_PRMT, MG_APPROX, MG_FTZ, MG_SAT, MG_NANMODE, MG_NOFTZ, MG_CC, MG_UNI,
};

typedef struct {
    uint32_t fields_done; /* bit per ModField (flags: per flag bit below) */
    uint32_t flags_done;
} ModPrint;

static void append_group(GString *s, const Insn *in, ModGroups group_mask, ModPrint *st)
{
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < isa_mod_count; i++) {
            const ModInfo *mi = &isa_mods[i];
            if (!(mi->group & group_mask) || mi->value == 0 || !field_matches(in, mi))
                continue;
            bool flag_first = mi->group == MG_BAR;
            if (flag_first ? (pass == 0) != (mi->field == F_FLAG) : pass == 1)
                continue;
            if (mi->field == F_FLAG) {
                if (st->flags_done & mi->value)
                    continue;
                st->flags_done |= mi->value;
            } else {
                if (st->fields_done & (1u << mi->field))
                    continue;
                st->fields_done |= 1u << mi->field;
            }
            g_string_append_printf(s, ".%s", mi->spelling);
            if (mi->field == F_SPACE && in->space2 != SPACE_GENERIC) /* cp.async.shared.global */
                g_string_append_printf(s, ".%s", isa_space_name((PtxSpace)in->space2));
        }
    }
}

static void append_modifiers(GString *s, const Insn *in)
{
    ModGroups groups = isa_ops[in->op].modifier_groups, listed = 0;
    ModPrint st = {0, 0};
    for (size_t g = 0; g < G_N_ELEMENTS(print_order); g++) {
        listed |= print_order[g];
        if (groups & print_order[g])
            append_group(s, in, print_order[g], &st);
    }
    if (groups & ~listed)
        append_group(s, in, groups & ~listed, &st);
}

static void append_imm(GString *s, int64_t v, PtxType t)
{
    if (t == PTX_TYPE_F32)
        g_string_append_printf(s, "0f%08" PRIX32, (uint32_t)v);
    else if (t == PTX_TYPE_F64)
        g_string_append_printf(s, "0d%016" PRIX64, (uint64_t)v);
    else
        g_string_append_printf(s, "%" PRId64, v);
}

static void append_offset(GString *s, int64_t v)
{
    if (v > 0)
        g_string_append_printf(s, "+%" PRId64, v);
    else if (v < 0)
        g_string_append_printf(s, "-%" PRIu64, (uint64_t)0 - (uint64_t)v);
}

/* `slot` is the operand's index in in->opd, INSN_MAX_OPERANDS for call lists */
static void append_operand(GString *s, const Module *m, const Function *f, const Insn *in,
                           const Operand *o, unsigned slot)
{
    switch ((OperandKind)o->kind) {
    case OPD_NONE:
        break;
    case OPD_REG:
        g_string_append_printf(s, "%s%s", o->negate ? "!" : "", reg_name(f, o->reg));
        break;
    case OPD_PAIR:
        g_string_append(s, reg_name(f, o->reg));
        if (o->reg2 != NO_INDEX)
            g_string_append_printf(s, "|%s", reg_name(f, o->reg2));
        break;
    case OPD_SINK:
        g_string_append(s, "_");
        break;
    case OPD_IMM: {
        /* the slot's read type decides float rendering: cvt and set read
         * their sources at the second type, slct its selector */
        PtxType t = (PtxType)in->type;
        if ((in->op == OP_CVT && slot >= 1) || (in->op == OP_SET && (slot == 1 || slot == 2)) ||
            (in->op == OP_SLCT && slot == 3))
            t = (PtxType)in->type2;
        if (slot >= INSN_MAX_OPERANDS || ((in->op == OP_SETP || in->op == OP_SET || in->op == OP_SELP) && slot == 3))
            t = PTX_TYPE_NONE; /* call arguments, predicate slots */
        append_imm(s, o->imm, t);
        break;
    }
    case OPD_SREG:
        if (o->reg < SREG_COUNT) {
            if (o->reg == SREG_ENVREG)
                g_string_append_printf(s, "%s%u", isa_sregs[o->reg].name, o->component);
            else if (isa_sregs[o->reg].vector)
                g_string_append_printf(s, "%s.%c", isa_sregs[o->reg].name, "xyz"[o->component % 3]);
            else
                g_string_append(s, isa_sregs[o->reg].name);
        } else {
            g_string_append(s, "%?sreg");
        }
        break;
    case OPD_ADDR:
        g_string_append_c(s, '[');
        if (o->reg != NO_INDEX)
            g_string_append(s, reg_name(f, o->reg));
        else if (o->sym != NO_INDEX && m && o->sym < m->vars->len)
            g_string_append(s, module_var(m, o->sym)->name);
        if (o->reg == NO_INDEX && o->sym == NO_INDEX)
            g_string_append_printf(s, "%" PRId64, o->imm);
        else
            append_offset(s, o->imm);
        g_string_append_c(s, ']');
        break;
    case OPD_VEC:
        g_string_append_c(s, '{');
        for (unsigned i = 0; i < o->vec_count && i < VEC_MAX; i++)
            g_string_append_printf(s, "%s%s", i ? ", " : "", reg_name(f, o->vec_regs[i]));
        g_string_append_c(s, '}');
        break;
    case OPD_LABEL: {
        const char *name = f ? func_label_at(f, (uint32_t)o->imm) : NULL;
        if (name)
            g_string_append(s, name);
        else
            g_string_append_printf(s, "$L_%" PRId64, o->imm);
        break;
    }
    case OPD_SYMBOL:
        if (o->sym != NO_INDEX && m && o->sym < m->vars->len)
            g_string_append(s, module_var(m, o->sym)->name);
        else if (o->func != NO_INDEX && m && o->func < m->funcs->len)
            g_string_append(s, module_func(m, o->func)->name);
        else
            g_string_append(s, "?sym");
        append_offset(s, o->imm);
        break;
    }
}

static void append_call(GString *s, const Module *m, const Function *f, const Insn *in)
{
    if (f == NULL || in->call >= f->calls->len)
        return;
    const CallSite *c = &g_array_index(f->calls, CallSite, in->call);
    g_string_append_c(s, ' ');
    if (c->nrets) {
        g_string_append_c(s, '(');
        for (uint32_t i = 0; i < c->nrets; i++) {
            if (i)
                g_string_append(s, ", ");
            if (c->rets[i] != NO_INDEX && m)
                g_string_append(s, module_var(m, c->rets[i])->name);
            else
                append_operand(s, m, f, in, &c->ret_opds[i], INSN_MAX_OPERANDS);
        }
        g_string_append(s, "), ");
    }
    if (c->callee != NO_INDEX && m)
        g_string_append(s, module_func(m, c->callee)->name);
    else
        g_string_append(s, reg_name(f, c->callee_reg));
    g_string_append(s, ", (");
    for (uint32_t i = 0; i < c->nargs; i++) {
        if (i)
            g_string_append(s, ", ");
        if (c->args[i] != NO_INDEX && m)
            g_string_append(s, module_var(m, c->args[i])->name);
        else
            append_operand(s, m, f, in, &c->arg_opds[i], INSN_MAX_OPERANDS);
    }
    g_string_append_c(s, ')');
}

char *insn_to_string(const Module *m, const Function *f, const Insn *in)
{
    GString *s = g_string_new(NULL);
    if (in->guard != NO_INDEX)
        g_string_append_printf(s, "@%s%s ", in->guard_negate ? "!" : "", reg_name(f, in->guard));
    g_string_append(s, in->op < OP_COUNT ? isa_ops[in->op].name : "?");
    append_modifiers(s, in);
    if (in->type)
        g_string_append_printf(s, ".%s", isa_types[in->type].spelling);
    if (in->type2)
        g_string_append_printf(s, ".%s", isa_types[in->type2].spelling);
    if (in->type3)
        g_string_append_printf(s, ".%s", isa_types[in->type3].spelling);
    if (in->op == OP_CALL) {
        append_call(s, m, f, in);
    } else {
        for (unsigned i = 0; i < in->nopd && i < INSN_MAX_OPERANDS; i++) {
            g_string_append(s, i ? ", " : " ");
            append_operand(s, m, f, in, &in->opd[i], i);
        }
    }
    return g_string_free(s, FALSE);
}

const char *func_label_at(const Function *f, uint32_t insn)
{
    if (!f->labels)
        return NULL;
    for (guint i = 0; i < f->labels->len; i++) {
        const Label *l = &g_array_index(f->labels, Label, i);
        if (l->insn == insn)
            return l->name;
    }
    return NULL;
}
