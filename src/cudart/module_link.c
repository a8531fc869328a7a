/* module_link.c — links the PTX modules of a program built with
 * `nvcc -rdc=true` (one per translation unit) into one Module, as nvlink
 * links their machine code: a function a unit only declares (`.extern
 * .func`) is the one another unit defines, and likewise an `.extern` .global
 * or .const variable.  Everything else keeps its own unit's copy, so the
 * unit-local functions and variables nvcc gives the same name in every unit
 * (`$str` format strings, internal math helpers) stay apart.
 *
 * The units are parsed separately (each checks against its own
 * declarations); the link moves their functions and variables into one
 * module and renumbers every reference.  A function still without a body
 * afterwards is either the simulator's (vprintf, malloc: resolved when
 * called) or missing; a missing one of the CUDA device runtime (dynamic
 * parallelism's cudaLaunchDeviceV2, __cuda_syscall_*: libcudadevrt's PTX
 * calls into machine code) makes its callers unsupported, so their launch
 * fails cleanly, naming it.
 */
#include <string.h>

#include "cudart_internal.h"
#include "errors.h"

/* The defining unit's function for a name: the first unit that defines a
 * non-entry function of that name. */
static bool find_definition(Module **units, guint n, const char *name, bool function, PtxSpace space, guint *unit,
                            uint32_t *index)
{
    for (guint u = 0; u < n; u++) {
        if (function) {
            uint32_t f = module_find_func(units[u], name);
            if (f != NO_INDEX && module_func(units[u], f)->is_defined && !module_func(units[u], f)->is_entry) {
                *unit = u;
                *index = f;
                return true;
            }
        } else {
            uint32_t v = module_find_global(units[u], name);
            const Variable *var = v != NO_INDEX ? module_var(units[u], v) : NULL;
            if (var && !var->is_extern && var->space == space) {
                *unit = u;
                *index = v;
                return true;
            }
        }
    }
    return false;
}

static void remap_operand(Operand *o, const uint32_t *var_map, const uint32_t *func_map)
{
    if (o->sym != NO_INDEX)
        o->sym = var_map[o->sym];
    if (o->func != NO_INDEX)
        o->func = func_map[o->func];
}

static void remap_indices(GArray *a, const uint32_t *map)
{
    for (guint i = 0; a && i < a->len; i++)
        if (g_array_index(a, uint32_t, i) != NO_INDEX)
            g_array_index(a, uint32_t, i) = map[g_array_index(a, uint32_t, i)];
}

/* Renumbers what function f refers to: its variables, callees, files. */
static void remap_function(Function *f, const uint32_t *var_map, const uint32_t *func_map, uint32_t file_base)
{
    remap_indices(f->params, var_map);
    remap_indices(f->rets, var_map);
    remap_indices(f->frame_vars, var_map);
    for (guint i = 0; f->insns && i < f->insns->len; i++) {
        Insn *in = func_insn(f, i);
        for (unsigned k = 0; k < in->nopd; k++)
            remap_operand(&in->opd[k], var_map, func_map);
        if (in->src_line != 0)
            in->src_file += file_base;
    }
    for (guint i = 0; f->calls && i < f->calls->len; i++) {
        CallSite *cs = &g_array_index(f->calls, CallSite, i);
        if (cs->callee != NO_INDEX)
            cs->callee = func_map[cs->callee];
        for (uint32_t a = 0; a < cs->nargs; a++) {
            if (cs->args[a] != NO_INDEX)
                cs->args[a] = var_map[cs->args[a]];
            remap_operand(&cs->arg_opds[a], var_map, func_map);
        }
        for (uint32_t r = 0; r < cs->nrets; r++) {
            if (cs->rets[r] != NO_INDEX)
                cs->rets[r] = var_map[cs->rets[r]];
            remap_operand(&cs->ret_opds[r], var_map, func_map);
        }
    }
    if (f->unsupported_via != NO_INDEX && f->unsupported_insn)
        f->unsupported_via = func_map[f->unsupported_via];
}

/* Callers of a device-runtime function no unit defines cannot run. */
static void mark_device_runtime_calls(Module *m)
{
    for (guint i = 0; i < m->funcs->len; i++) {
        Function *f = module_func(m, i);
        if (f->is_defined || f->is_entry || f->unsupported_insn ||
            !(g_str_has_prefix(f->name, "cuda") || g_str_has_prefix(f->name, "__cuda")))
            continue;
        f->unsupported_insn = g_strdup_printf(".extern .func %s", f->name);
        f->unsupported_why = g_strdup("the CUDA device runtime (dynamic parallelism, libcudadevrt) is not "
                                      "supported by warpsim");
        f->unsupported_line = f->line;
        f->unsupported_col = 1;
        f->unsupported_via = NO_INDEX;
    }
    module_propagate_unsupported(m);
}

/* A declaration another unit's definition stands for stays in the module,
 * referenced by nothing; renamed, so that lookups by name (kernels,
 * cudaMemcpyToSymbol) find the definition. */
static void hide_resolved(char **name, guint unit)
{
    char *hidden = g_strdup_printf("%s (unit %u's declaration)", *name, unit + 1);
    g_free(*name);
    *name = hidden;
}

Module *cudart_link_modules(Module **units, guint n, const char *path, GError **error)
{
    for (guint u = 1; u < n; u++)
        if (units[u]->address_size != units[0]->address_size) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "%s: error: -rdc link: unit %u has .address_size %u, unit 1 has %u", path, u + 1,
                        units[u]->address_size, units[0]->address_size);
            return NULL;
        }
    Module *out = module_new(path);
    out->address_size = units[0]->address_size;
    out->target = g_strdup(units[0]->target);
    uint32_t *func_base = g_new0(uint32_t, n), *var_base = g_new0(uint32_t, n);
    uint32_t nfuncs = 0, nvars = 0;
    for (guint u = 0; u < n; u++) {
        func_base[u] = nfuncs;
        var_base[u] = nvars;
        nfuncs += units[u]->funcs->len;
        nvars += units[u]->vars->len;
        if (units[u]->version_major * 100 + units[u]->version_minor > out->version_major * 100 + out->version_minor) {
            out->version_major = units[u]->version_major;
            out->version_minor = units[u]->version_minor;
        }
    }
    /* where each unit's references go: its own entry, or the definition
     * another unit holds */
    uint32_t **func_map = g_new0(uint32_t *, n), **var_map = g_new0(uint32_t *, n);
    for (guint u = 0; u < n; u++) {
        Module *m = units[u];
        func_map[u] = g_new(uint32_t, m->funcs->len + 1);
        var_map[u] = g_new(uint32_t, m->vars->len + 1);
        for (guint i = 0; i < m->funcs->len; i++) {
            const Function *f = module_func(m, i);
            guint du;
            uint32_t di;
            func_map[u][i] = func_base[u] + i;
            if (!f->is_defined && !f->is_entry && find_definition(units, n, f->name, true, SPACE_GLOBAL, &du, &di))
                func_map[u][i] = func_base[du] + di;
        }
        for (guint i = 0; i < m->vars->len; i++) {
            const Variable *v = module_var(m, i);
            guint du;
            uint32_t dv;
            var_map[u][i] = var_base[u] + i;
            if (v->is_extern && v->scope == VAR_MODULE && (v->space == SPACE_GLOBAL || v->space == SPACE_CONST) &&
                find_definition(units, n, v->name, false, v->space, &du, &dv))
                var_map[u][i] = var_base[du] + dv;
        }
    }
    /* move each unit's functions, variables and file names over */
    for (guint u = 0; u < n; u++) {
        Module *m = units[u];
        uint32_t file_base = out->files->len;
        for (guint i = 0; i < m->files->len; i++)
            g_ptr_array_add(out->files, g_strdup(g_ptr_array_index(m->files, i)));
        for (guint i = 0; i < m->funcs->len; i++) {
            Function f = *module_func(m, i);
            memset(module_func(m, i), 0, sizeof f); /* now out's */
            remap_function(&f, var_map[u], func_map[u], file_base);
            if (func_map[u][i] != func_base[u] + i)
                hide_resolved(&f.name, u);
            g_array_append_val(out->funcs, f);
        }
        for (guint i = 0; i < m->vars->len; i++) {
            Variable v = *module_var(m, i);
            memset(module_var(m, i), 0, sizeof v);
            if (v.owner != NO_INDEX)
                v.owner = func_map[u][v.owner];
            for (guint k = 0; v.init_fixups && k < v.init_fixups->len; k++) {
                VarFixup *fx = &g_array_index(v.init_fixups, VarFixup, k);
                if (fx->sym != NO_INDEX)
                    fx->sym = var_map[u][fx->sym];
                if (fx->func != NO_INDEX)
                    fx->func = func_map[u][fx->func];
            }
            if (var_map[u][i] != var_base[u] + i)
                hide_resolved(&v.name, u);
            g_array_append_val(out->vars, v);
        }
    }
    for (guint u = 0; u < n; u++) {
        g_free(func_map[u]);
        g_free(var_map[u]);
    }
    g_free(func_map);
    g_free(var_map);
    g_free(func_base);
    g_free(var_base);
    /* a kernel calling an unsupported function of another unit */
    module_propagate_unsupported(out);
    mark_device_runtime_calls(out);
    return out;
}
