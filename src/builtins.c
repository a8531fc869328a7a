/* builtins.c — device library functions that PTX declares `.extern .func`
 * and the CUDA driver supplies: vprintf (printf), __assertfail (assert),
 * malloc and free (in-kernel malloc/free/new/delete).
 *
 * A call to an extern function without a body comes here; a name not in
 * the table is a fault naming it.  printf output goes to stdout in lane
 * order, one call of all lanes at a time, as the GPU's buffer would show it.
 *
 * The device heap.  CUDA's default heap (cudaLimitMallocHeapSize) is 8 MiB,
 * or GlobalMemory.heap_bytes when the program set the limit before;
 * here it is one allocation of global memory, made by the first malloc of
 * the GlobalMemory and kept for its life, so blocks stay valid for later
 * kernels of the program.  Its allocator state (HeapState) lives in a
 * second global allocation beside it, found again by its name: global
 * memory is the only thing every launch on one GlobalMemory shares.  Blocks
 * are whole 16-byte granules (malloc's alignment on the GPU), placed next
 * fit: the search starts after the last block handed out and wraps once.
 * malloc(0) returns a unique pointer (as an H200 does); a request that does
 * not fit returns NULL, as CUDA does when the heap is exhausted;
 * free(NULL) does nothing; freeing anything else
 * that is not a live block malloc returned is a fault naming the pointer.
 *
 * Order: kernels that call an extern function never run their CTAs on
 * several host threads (launch_ctas_independent), so calls reach the heap
 * one at a time in simulated issue order, and the lanes of one call in
 * increasing lane order.  Addresses therefore depend only on the program
 * and the execution mode (functional or timing: the two issue warps in
 * different orders), never on the number of host threads.
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
    memcpy(&val, param_var_bytes(x, x->fr, v, lane), MIN(v->size, 8u));
    return val;
}

/* The return value of lane l: the low `bytes` bytes of value. */
static void set_return(ExecCtx *x, const CallSite *cs, uint32_t lane, uint64_t value, unsigned bytes)
{
    if (cs->nrets == 0)
        return;
    if (cs->rets[0] != NO_INDEX) {
        const Variable *v = module_var(x->m, cs->rets[0]);
        memcpy(param_var_bytes(x, x->fr, v, lane), &value, MIN(v->size, (uint64_t)bytes));
    } else if (cs->ret_opds[0].kind == OPD_REG) {
        reg_write(x, cs->ret_opds[0].reg, lane, value, bytes);
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
        set_return(x, cs, l, out->len - before, 4);
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

/* ---- the device heap ------------------------------------------------ */

#define HEAP_DEFAULT_BYTES ((uint64_t)8 << 20)
#define HEAP_GRANULE 16u
#define HEAP_NAME "device heap (malloc)"
#define HEAP_STATE_NAME "device heap allocator state"

/* In the state allocation: this header, then len[granules] (uint32_t:
 * granules of the live block starting there, else 0), then
 * used[granules] (uint8_t: 1 for every granule of a live block). */
typedef struct {
    uint64_t base;                 /* device address of the heap's first byte */
    uint64_t bytes;                /* its size: granules * HEAP_GRANULE */
    uint32_t granules;
    uint32_t rover;                /* granule where the next search starts */
} HeapState;

static uint32_t *heap_len(HeapState *h)
{
    return (uint32_t *)(h + 1);
}

static uint8_t *heap_used(HeapState *h)
{
    return (uint8_t *)(heap_len(h) + h->granules);
}

/* The GlobalMemory's heap, created when `create`; NULL if there is none
 * (or no memory for one: then malloc returns NULL, as on the GPU). */
static HeapState *heap_of(GlobalMemory *g, bool create)
{
    for (guint i = 0; i < g->allocs->len; i++) {
        const Allocation *a = &g_array_index(g->allocs, Allocation, i);
        if (a->size >= sizeof(HeapState) && strcmp(a->name, HEAP_STATE_NAME) == 0)
            return (HeapState *)a->data;
    }
    if (!create)
        return NULL;
    g->heap_made = true;
    uint64_t granules = (g->heap_bytes ? g->heap_bytes : HEAP_DEFAULT_BYTES) / HEAP_GRANULE;
    granules = MIN(MAX(granules, 1u), (uint64_t)UINT32_MAX); /* cudart keeps the limit in range */
    uint64_t base = gmem_alloc(g, granules * HEAP_GRANULE, HEAP_NAME, NULL);
    if (base == 0)
        return NULL;
    uint64_t state_bytes = sizeof(HeapState) + granules * (sizeof(uint32_t) + 1);
    uint64_t state = gmem_alloc(g, state_bytes, HEAP_STATE_NAME, NULL);
    if (state == 0) {
        gmem_release(g, base);
        return NULL;
    }
    HeapState *h = (HeapState *)gmem_ptr(g, state, state_bytes);
    h->base = base;
    h->granules = (uint32_t)granules;
    h->bytes = granules * HEAP_GRANULE;
    return h;
}

/* First granule of a free run of n granules, next fit; false if none. */
static bool heap_find(HeapState *h, uint32_t n, uint32_t *at)
{
    const uint32_t *len = heap_len(h);
    const uint8_t *used = heap_used(h);
    /* from the rover to the end, then from the start to just past the
     * rover (a run may straddle it) */
    uint32_t from[2] = {h->rover, 0};
    uint32_t to[2] = {h->granules, (uint32_t)MIN((uint64_t)h->granules, (uint64_t)h->rover + n - 1)};
    for (int pass = 0; pass < 2; pass++) {
        uint32_t run = 0;
        for (uint32_t i = from[pass]; i < to[pass];) {
            if (used[i]) {
                run = 0;
                i += len[i] ? len[i] : 1; /* a block start skips the block */
                continue;
            }
            if (++run == n) {
                *at = i + 1 - n;
                return true;
            }
            i++;
        }
    }
    return false;
}

static uint64_t heap_malloc(HeapState *h, uint64_t size)
{
    if (size > h->bytes)
        return 0;
    /* malloc(0) takes a granule: a unique pointer, as an H200 returns */
    uint32_t n = size == 0 ? 1 : (uint32_t)((size + HEAP_GRANULE - 1) / HEAP_GRANULE), at;
    if (!heap_find(h, n, &at))
        return 0;
    memset(heap_used(h) + at, 1, n);
    heap_len(h)[at] = n;
    h->rover = at + n == h->granules ? 0 : at + n;
    return h->base + (uint64_t)at * HEAP_GRANULE;
}

static bool builtin_malloc(ExecCtx *x, const CallSite *cs)
{
    GlobalMemory *g = x->cta->image->gmem;
    HeapState *h = heap_of(g, true);
    FOR_LANES(x->exec, l) {
        uint64_t p = h ? heap_malloc(h, call_arg(x, cs, 0, l)) : 0;
        if (p)
            gmem_count_store(g, x->cta->host_thread); /* the heap changed: not a hang */
        set_return(x, cs, l, p, 8);
    }
    return true;
}

/* Why p is not a live block malloc returned (for the fault message). */
static void describe_bad_free(GlobalMemory *g, HeapState *h, uint64_t p, GString *why)
{
    uint64_t off = h ? p - h->base : 0;
    if (!h || p < h->base || off >= h->bytes) {
        const Allocation *a = gmem_lookup(g, NULL, p, 1);
        if (a)
            g_string_append_printf(why, "it points into '%s', which malloc did not allocate", a->name);
        else
            g_string_append(why, "it is not an address malloc returned");
        return;
    }
    uint32_t gi = (uint32_t)(off / HEAP_GRANULE);
    const uint32_t *len = heap_len(h);
    if (!heap_used(h)[gi]) {
        g_string_append(why, "no live block starts there (freed twice, or never returned by malloc)");
        return;
    }
    uint32_t start = gi;
    while (len[start] == 0 && start > 0)
        start--;
    g_string_append_printf(why, "it points %" G_GUINT64_FORMAT " bytes into the %u-byte block malloc returned at 0x%"
                           G_GINT64_MODIFIER "x", off - (uint64_t)start * HEAP_GRANULE, len[start] * HEAP_GRANULE,
                           h->base + (uint64_t)start * HEAP_GRANULE);
}

static bool builtin_free(ExecCtx *x, const CallSite *cs)
{
    GlobalMemory *g = x->cta->image->gmem;
    HeapState *h = heap_of(g, false);
    FOR_LANES(x->exec, l) {
        uint64_t p = call_arg(x, cs, 0, l);
        if (p == 0)
            continue;
        uint64_t off = h ? p - h->base : 0;
        uint32_t gi = (uint32_t)(off / HEAP_GRANULE);
        if (h && p >= h->base && off < h->bytes && off % HEAP_GRANULE == 0 && heap_len(h)[gi] != 0) {
            memset(heap_used(h) + gi, 0, heap_len(h)[gi]);
            heap_len(h)[gi] = 0;
            gmem_count_store(g, x->cta->host_thread);
            continue;
        }
        GString *why = g_string_new(NULL);
        describe_bad_free(g, h, p, why);
        bool go_on = exec_report(x, l, "free(0x%" G_GINT64_MODIFIER "x) of a pointer malloc did not return: %s", p,
                                 why->str);
        g_string_free(why, TRUE);
        if (!go_on)
            return false;
    }
    return true;
}

typedef struct {
    const char *name;
    bool (*fn)(ExecCtx *x, const CallSite *cs);
} Builtin;

static const Builtin builtins[] = {
    {"vprintf", builtin_vprintf},
    {"__assertfail", builtin_assertfail},
    {"malloc", builtin_malloc},
    {"free", builtin_free},
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
