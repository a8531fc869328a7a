/* builtins.c — device library functions that PTX declares `.extern .func`
 * and the CUDA driver supplies: vprintf (printf) and __assertfail (assert).
 *
 * A call to an extern function without a body comes here; a name not in
 * the table is a fault naming it.  printf output goes to stdout in lane
 * order, one call of all lanes at a time, as the GPU's buffer would show it.
 */
#include "builtins.h"

#include <stdio.h>

#define MAX_STRING 4096

/* argument i of the call for lane l, as up to 8 bytes */
static uint64_t call_arg(ExecCtx *x, const CallSite *cs, uint32_t i, uint32_t lane)
{
    if (i >= cs->nargs)
        return 0;
    if (cs->args[i] == NO_INDEX)
        return opd_value(x, &cs->arg_opds[i], lane);
    const Variable *v = module_var(x->m, cs->args[i]);
    uint64_t val = 0;
    memcpy(&val, x->fr->params + (size_t)lane * x->fr->param_stride + v->offset, MIN(v->size, 8u));
    return val;
}

static void set_return(ExecCtx *x, const CallSite *cs, uint32_t lane, uint32_t value)
{
    if (cs->nrets == 0)
        return;
    if (cs->rets[0] != NO_INDEX) {
        const Variable *v = module_var(x->m, cs->rets[0]);
        memcpy(x->fr->params + (size_t)lane * x->fr->param_stride + v->offset, &value, MIN(v->size, 4u));
    } else if (cs->ret_opds[0].kind == OPD_REG) {
        reg_write(x, cs->ret_opds[0].reg, lane, value, 4);
    }
}

static bool read_string(ExecCtx *x, uint32_t lane, uint64_t addr, GString *out)
{
    for (int i = 0; i < MAX_STRING; i++) {
        const uint8_t *p = mem_access(x, SPACE_GENERIC, NULL, addr + (uint64_t)i, 1, lane, false);
        if (!p)
            return false;
        if (*p == 0)
            return true;
        g_string_append_c(out, (char)*p);
    }
    return true;
}

/* Read `size` bytes of the argument buffer at *cursor, aligned to size. */
static bool next_arg(ExecCtx *x, uint32_t lane, uint64_t base, uint64_t *cursor, unsigned size, uint64_t *val)
{
    *cursor = (*cursor + size - 1) / size * size;
    const uint8_t *p = mem_access(x, SPACE_GENERIC, NULL, base + *cursor, size, lane, false);
    if (!p)
        return false;
    *val = 0;
    memcpy(val, p, size);
    *cursor += size;
    return true;
}

/* Format one printf call for one lane (the argument buffer packs each value
 * at its natural alignment; floats arrive promoted to double). */
static bool format_lane(ExecCtx *x, uint32_t lane, const char *fmt, uint64_t args, GString *out)
{
    uint64_t cursor = 0;
    for (const char *c = fmt; *c; c++) {
        if (*c != '%') {
            g_string_append_c(out, *c);
            continue;
        }
        const char *start = c++;
        if (*c == '%') {
            g_string_append_c(out, '%');
            continue;
        }
        while (*c && strchr("-+ #0", *c))
            c++;
        while (*c && (g_ascii_isdigit(*c) || *c == '.'))
            c++;
        int longs = 0;
        while (*c && strchr("hlLzjt", *c)) {
            if (*c == 'l' || *c == 'L' || *c == 'z' || *c == 'j' || *c == 't')
                longs++;
            c++;
        }
        if (!*c)
            break;
        char conv = *c;
        /* the spec without length modifiers, then our own length */
        GString *spec = g_string_new_len(start, c - start);
        for (gsize i = spec->len; i > 0 && strchr("hlLzjt", spec->str[i - 1]); i--)
            g_string_truncate(spec, i - 1);
        uint64_t v = 0;
        bool ok = true;
        switch (conv) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
            ok = next_arg(x, lane, args, &cursor, longs ? 8 : 4, &v);
            g_string_append(spec, "ll");
            g_string_append_c(spec, conv);
            if (conv == 'd' || conv == 'i')
                g_string_append_printf(out, spec->str, longs ? (long long)v : (long long)(int32_t)v);
            else if (conv == 'c')
                g_string_append_c(out, (char)v);
            else
                g_string_append_printf(out, spec->str, longs ? (unsigned long long)v : (unsigned long long)(uint32_t)v);
            break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            ok = next_arg(x, lane, args, &cursor, 8, &v);
            g_string_append_c(spec, conv);
            g_string_append_printf(out, spec->str, fp_f64_from_bits(v));
            break;
        }
        case 's': {
            ok = next_arg(x, lane, args, &cursor, 8, &v);
            GString *s = g_string_new(NULL);
            ok = ok && read_string(x, lane, v, s);
            g_string_append_c(spec, 's');
            g_string_append_printf(out, spec->str, s->str);
            g_string_free(s, TRUE);
            break;
        }
        case 'p':
            ok = next_arg(x, lane, args, &cursor, 8, &v);
            g_string_append_printf(out, "0x%" G_GINT64_MODIFIER "x", v);
            break;
        default:
            g_string_append(out, spec->str);
            g_string_append_c(out, conv);
            break;
        }
        g_string_free(spec, TRUE);
        if (!ok)
            return false;
    }
    return true;
}

static bool builtin_vprintf(ExecCtx *x, const CallSite *cs)
{
    GString *out = g_string_new(NULL);
    GString *fmt = g_string_new(NULL);
    bool ok = true;
    FOR_LANES(x->exec, l) {
        if (!ok)
            break;
        g_string_truncate(fmt, 0);
        gsize before = out->len;
        ok = read_string(x, l, call_arg(x, cs, 0, l), fmt) &&
             format_lane(x, l, fmt->str, call_arg(x, cs, 1, l), out);
        set_return(x, cs, l, (uint32_t)(out->len - before));
    }
    if (ok) {
        fputs(out->str, stdout);
        fflush(stdout);
    }
    g_string_free(out, TRUE);
    g_string_free(fmt, TRUE);
    return ok;
}

static bool builtin_assertfail(ExecCtx *x, const CallSite *cs)
{
    uint32_t lane = (uint32_t)__builtin_ctz(x->exec);
    GString *msg = g_string_new(NULL), *file = g_string_new(NULL), *fn = g_string_new(NULL);
    read_string(x, lane, call_arg(x, cs, 0, lane), msg);
    read_string(x, lane, call_arg(x, cs, 1, lane), file);
    read_string(x, lane, call_arg(x, cs, 3, lane), fn);
    exec_fault(x, lane, "device-side assertion `%s' failed at %s:%u in %s", msg->str, file->str,
               (uint32_t)call_arg(x, cs, 2, lane), fn->str);
    g_string_free(msg, TRUE);
    g_string_free(file, TRUE);
    g_string_free(fn, TRUE);
    return false;
}

typedef struct {
    const char *name;
    bool (*fn)(ExecCtx *x, const CallSite *cs);
} Builtin;

static const Builtin builtins[] = {
    {"vprintf", builtin_vprintf},
    {"__assertfail", builtin_assertfail},
};

bool builtin_call(ExecCtx *x, const Function *callee, const CallSite *cs, bool *handled)
{
    *handled = false;
    for (size_t i = 0; i < G_N_ELEMENTS(builtins); i++)
        if (strcmp(builtins[i].name, callee->name) == 0) {
            *handled = true;
            return builtins[i].fn(x, cs);
        }
    return true;
}
