/* memory.c — sparse global memory. */
#include "memory.h"

#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "hostmem.h"

GlobalMemory *gmem_new(void)
{
    GlobalMemory *g = g_new0(GlobalMemory, 1);
    g->allocs = g_array_new(FALSE, FALSE, sizeof(Allocation));
    g->next_low = GLOBAL_HEAP_BASE;
    g->next_high = GLOBAL_HIGH_BASE;
    g->store_counts = g_aligned_alloc0(GMEM_STORE_COUNTS, sizeof(GmemStoreCount), _Alignof(GmemStoreCount));
    return g;
}

uint64_t gmem_stores(const GlobalMemory *g)
{
    uint64_t sum = 0;
    for (uint32_t k = 0; k < GMEM_STORE_COUNTS; k++)
        sum += __atomic_load_n(&g->store_counts[k].n, __ATOMIC_RELAXED);
    return sum;
}

/* Host bytes behind an allocation of `size` device bytes. */
static size_t alloc_bytes(uint64_t size)
{
    return size ? (size_t)size : 1;
}

/* Buffers from this size on are in huge pages (hostmem.h), which a kernel
 * streaming through them touches for the first time during the launch;
 * the rounding to whole huge pages then adds at most an eighth. */
#define HUGE_BUFFER_BYTES (8 * HOSTMEM_HUGE_BYTES)

static void *buffer_alloc0(uint64_t size)
{
    return size >= HUGE_BUFFER_BYTES ? hostmem_try_alloc0(alloc_bytes(size)) : g_try_malloc0(alloc_bytes(size));
}

static void buffer_free(void *data, uint64_t size)
{
    if (size >= HUGE_BUFFER_BYTES)
        hostmem_free(data, alloc_bytes(size));
    else
        g_free(data);
}

void gmem_free(GlobalMemory *g)
{
    if (!g)
        return;
    for (guint i = 0; i < g->allocs->len; i++) {
        Allocation *a = &g_array_index(g->allocs, Allocation, i);
        if (!a->borrowed)
            buffer_free(a->data, a->size);
        g_free(a->name);
        g_free(a->written);
    }
    g_array_free(g->allocs, TRUE);
    g_aligned_free(g->store_counts);
    g_free(g);
}

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

uint64_t gmem_bytes(const GlobalMemory *g)
{
    uint64_t n = 0;
    for (guint i = 0; i < g->allocs->len; i++)
        n += g_array_index(g->allocs, Allocation, i).size;
    return n;
}

/* Index of the first allocation whose base lies above addr. */
static guint first_above(const GlobalMemory *g, uint64_t addr)
{
    guint lo = 0, hi = g->allocs->len;
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        if (g_array_index(g->allocs, Allocation, mid).base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first address at or after `from` where `span` bytes and a guard gap
 * on each side touch no allocation: the high region is shared with host
 * buffers (host-mapped and borrowed ones), which it steps over. */
static uint64_t next_free_high(const GlobalMemory *g, uint64_t from, uint64_t span)
{
    for (;;) {
        guint pos = first_above(g, from);
        const Allocation *before = pos ? &g_array_index(g->allocs, Allocation, pos - 1) : NULL;
        const Allocation *after = pos < g->allocs->len ? &g_array_index(g->allocs, Allocation, pos) : NULL;
        if (before && before->base + before->size + ALLOC_GUARD > from)
            from = round_up(before->base + before->size + ALLOC_GUARD, ALLOC_ALIGN);
        else if (after && from + span + ALLOC_GUARD > after->base)
            from = round_up(after->base + after->size + ALLOC_GUARD, ALLOC_ALIGN);
        else
            return from;
    }
}

uint64_t gmem_alloc(GlobalMemory *g, uint64_t size, const char *name, GError **error)
{
    uint64_t span = round_up(size ? size : 1, ALLOC_ALIGN);
    uint64_t base;
    if (g->next_low + span + ALLOC_GUARD <= GENERIC_WINDOWS_BASE) {
        base = g->next_low;
        g->next_low += span + ALLOC_GUARD;
    } else {
        base = next_free_high(g, g->next_high, span);
        g->next_high = base + span + ALLOC_GUARD;
    }
    uint8_t *data = buffer_alloc0(size);
    if (!data) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "cannot allocate %" G_GUINT64_FORMAT " bytes of device memory for '%s'",
                    size, name);
        return 0;
    }
    Allocation a = {.base = base, .size = size, .data = data, .name = g_strdup(name)};
    /* bases only grow within each region, and the low region lies below the
     * high one, so insertion keeps the array sorted */
    guint pos = g->allocs->len;
    while (pos > 0 && g_array_index(g->allocs, Allocation, pos - 1).base > base)
        pos--;
    g_array_insert_val(g->allocs, pos, a);
    return base;
}

bool gmem_track_writes(GlobalMemory *g, uint64_t base)
{
    Allocation *a = gmem_lookup(g, NULL, base, 1);
    if (!a || a->base != base)
        return false;
    if (!a->written)
        a->written = g_try_malloc0(a->size ? a->size : 1);
    return a->written != NULL;
}

Allocation *gmem_lookup(GlobalMemory *g, guint *hint, uint64_t addr, uint64_t size)
{
    guint n = g->allocs->len;
    if (n == 0)
        return NULL;
    Allocation *all = (Allocation *)g->allocs->data;
    Allocation *a = &all[hint && *hint < n ? *hint : 0];
    if (addr >= a->base && addr - a->base + size <= a->size && addr + size >= addr)
        return a;
    guint lo = 0, hi = n;
    while (lo < hi) { /* first allocation with base > addr */
        guint mid = (lo + hi) / 2;
        if (all[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    a = &all[lo - 1];
    if (addr - a->base + size <= a->size && addr + size >= addr) {
        if (hint)
            *hint = lo - 1;
        return a;
    }
    return NULL;
}

const Allocation *gmem_nearest(GlobalMemory *g, uint64_t addr)
{
    const Allocation *best = NULL;
    uint64_t best_dist = UINT64_MAX;
    for (guint i = 0; i < g->allocs->len; i++) {
        const Allocation *a = &g_array_index(g->allocs, Allocation, i);
        uint64_t end = a->base + a->size;
        uint64_t d = addr < a->base ? a->base - addr : addr >= end ? addr - end + 1 : 0;
        if (d < best_dist) {
            best_dist = d;
            best = a;
        }
    }
    return best;
}

bool gmem_release(GlobalMemory *g, uint64_t base)
{
    Allocation *a = gmem_lookup(g, NULL, base, 1);
    if (!a || a->base != base)
        return false;
    if (!a->borrowed)
        buffer_free(a->data, a->size);
    g_free(a->name);
    g_free(a->written);
    g_array_remove_index(g->allocs, (guint)(a - (Allocation *)g->allocs->data));
    return true;
}

uint64_t gmem_alloc_host_mapped(GlobalMemory *g, uint64_t size, const char *name, GError **error)
{
    uint64_t bytes = size ? size : 1;
    /* Every host-mapped buffer carries a guard's worth of unmapped slack
     * after it, so malloc's neighbouring chunks keep the guard gap between
     * them; one that still lands too close (next to another kind of
     * buffer) is retried larger, which moves it. */
    for (uint64_t pad = ALLOC_GUARD;; pad *= 4) {
        void *data = NULL;
        /* malloc's memory, so that g_free releases it like every other buffer */
        if (posix_memalign(&data, ALLOC_ALIGN, bytes + pad) != 0 || !data) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "cannot allocate %" G_GUINT64_FORMAT " bytes of host-mapped memory for '%s'", size, name);
            return 0;
        }
        uint64_t base = (uint64_t)(uintptr_t)data;
        guint pos = 0; /* first allocation with base > ours */
        while (pos < g->allocs->len && g_array_index(g->allocs, Allocation, pos).base <= base)
            pos++;
        const Allocation *before = pos ? &g_array_index(g->allocs, Allocation, pos - 1) : NULL;
        const Allocation *after = pos < g->allocs->len ? &g_array_index(g->allocs, Allocation, pos) : NULL;
        if (base >= GLOBAL_HIGH_BASE && !(before && before->base + before->size + ALLOC_GUARD > base) &&
            !(after && base + bytes + ALLOC_GUARD > after->base)) {
            memset(data, 0, bytes);
            Allocation a = {.base = base, .size = size, .data = data, .name = g_strdup(name)};
            g_array_insert_val(g->allocs, pos, a);
            return base;
        }
        free(data);
        if (pad >= (1u << 20)) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "host buffer for '%s' at 0x%" G_GINT64_MODIFIER "x overlaps the simulated device's address space",
                        name, base);
            return 0;
        }
    }
}

uint64_t gmem_map_host(GlobalMemory *g, void *host, uint64_t size, const char *name, GError **error)
{
    uint64_t base = (uint64_t)(uintptr_t)host;
    uint64_t bytes = size ? size : 1;
    if (base < GLOBAL_HIGH_BASE || base + bytes < base) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_UNSUPPORTED,
                    "host buffer '%s' at 0x%" G_GINT64_MODIFIER "x lies in the simulated device's address space "
                    "(below 0x%" G_GINT64_MODIFIER "x); warpsim cannot map it",
                    name, base, (uint64_t)GLOBAL_HIGH_BASE);
        return 0;
    }
    guint pos = first_above(g, base);
    const Allocation *before = pos ? &g_array_index(g->allocs, Allocation, pos - 1) : NULL;
    const Allocation *after = pos < g->allocs->len ? &g_array_index(g->allocs, Allocation, pos) : NULL;
    const Allocation *clash = before && before->base + (before->size ? before->size : 1) > base ? before
                            : after && base + bytes > after->base ? after : NULL;
    if (clash) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "host buffer '%s' at 0x%" G_GINT64_MODIFIER "x (%" G_GUINT64_FORMAT " bytes) overlaps '%s'",
                    name, base, size, clash->name);
        return 0;
    }
    Allocation a = {.base = base, .size = size, .data = host, .name = g_strdup(name), .borrowed = true};
    g_array_insert_val(g->allocs, pos, a);
    return base;
}
