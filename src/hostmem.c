/* hostmem.c — large host allocations (contract in hostmem.h).
 *
 * A large block is an anonymous mapping of its own: the kernel hands it out
 * zeroed (nothing to clear) and only as it is touched, and MADV_HUGEPAGE
 * asks for 2 MiB pages even where transparent huge pages are only given on
 * request (the default of many distributions).  The mapping starts on a
 * huge page boundary and covers whole huge pages, since a huge page must
 * lie entirely inside it.  Where mmap or the advice is not there, the block
 * comes from the C heap and behaves the same, only slower to touch.
 *
 * An arena is a list of such blocks (chunks), given out front to back in
 * slabs; a slab hands out blocks of size classes and keeps those given
 * back in one free list per class, linked through the blocks themselves.
 */
#include "hostmem.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#define HOSTMEM_MMAP 1
#endif

/* n rounded up to whole huge pages */
static size_t huge_round(size_t n)
{
    return (n + HOSTMEM_HUGE_BYTES - 1) & ~(HOSTMEM_HUGE_BYTES - 1);
}

#ifdef HOSTMEM_MMAP

/* A zeroed mapping of whole huge pages holding `bytes`, or NULL; given in
 * 4 KiB pages only, unless `huge_pages`. */
static void *map_huge(size_t bytes, bool huge_pages)
{
    size_t len = huge_round(bytes);
    if (len < bytes || len > SIZE_MAX - HOSTMEM_HUGE_BYTES)
        return NULL;
    /* a huge page more than needed, so that the start can be aligned */
    uint8_t *raw = mmap(NULL, len + HOSTMEM_HUGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *start = (uint8_t *)(((uintptr_t)raw + HOSTMEM_HUGE_BYTES - 1) & ~(uintptr_t)(HOSTMEM_HUGE_BYTES - 1));
    /* the slack on either side goes back at once */
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    if (raw + HOSTMEM_HUGE_BYTES > start)
        munmap(start + len, (size_t)(raw + HOSTMEM_HUGE_BYTES - start));
#ifdef MADV_HUGEPAGE
    /* a hint: without it, 4 KiB pages.  Not for a last huge page that the
     * block fills less than a quarter of: the first touch of a huge page
     * clears all of it, where 4 KiB pages clear only what is used, and a
     * huge page costs about what 400 KiB of 4 KiB pages do (measured on
     * the project's machines: 200 us against 1.9 us a page) */
    size_t huge = huge_pages ? (bytes + HOSTMEM_HUGE_BYTES / 4 * 3) & ~(HOSTMEM_HUGE_BYTES - 1) : 0;
    if (huge)
        (void)madvise(start, huge, MADV_HUGEPAGE);
#ifdef MADV_NOHUGEPAGE
    if (huge < len) /* where huge pages are the system's default */
        (void)madvise(start + huge, len - huge, MADV_NOHUGEPAGE);
#endif
#endif
    return start;
}
#endif

/* From the C heap, aligned to a host cache line, or NULL. */
static void *heap_alloc(size_t bytes, bool zero)
{
    void *p = NULL;
    if (posix_memalign(&p, HOST_CACHE_LINE, MAX(bytes, 1u)) != 0)
        return NULL;
    if (zero)
        memset(p, 0, bytes);
    return p;
}

/* Zeroed: a mapping of its own from HOSTMEM_MAPPED_BYTES on (in huge
 * pages when `huge_pages`), else from the C heap; NULL when memory ran out. */
static void *try_alloc0(size_t bytes, bool huge_pages)
{
#ifdef HOSTMEM_MMAP
    if (bytes >= HOSTMEM_MAPPED_BYTES)
        return map_huge(bytes, huge_pages);
#else
    (void)huge_pages;
#endif
    return heap_alloc(bytes, true);
}

static void *or_abort(void *p, size_t bytes)
{
    if (!p)
        g_error("%s: failed to allocate %zu bytes", G_STRLOC, bytes);
    return p;
}

void *hostmem_try_alloc0(size_t bytes)
{
    return try_alloc0(bytes, true);
}

void *hostmem_alloc0(size_t bytes)
{
    return or_abort(try_alloc0(bytes, true), bytes);
}

void *hostmem_alloc0_mapped_now(size_t bytes)
{
    void *p = or_abort(try_alloc0(bytes, false), bytes);
#if defined(HOSTMEM_MMAP) && defined(MADV_POPULATE_WRITE)
    /* a hint: on kernels before 5.14 the pages fault one by one */
    if (bytes >= HOSTMEM_MAPPED_BYTES)
        (void)madvise(p, (bytes + 4095) & ~(size_t)4095, MADV_POPULATE_WRITE);
#endif
    return p;
}

void *hostmem_try_alloc_sparse(size_t bytes, size_t touched, size_t spanned)
{
    if (bytes < HOSTMEM_MAPPED_BYTES)
        return heap_alloc(bytes, false);
    /* the huge pages the touched part lies in, one more where it straddles */
    size_t huge_pages = MIN(spanned, bytes) / HOSTMEM_HUGE_BYTES + 1;
    return try_alloc0(bytes, touched / (HOSTMEM_HUGE_BYTES / 4) >= huge_pages);
}

void *hostmem_alloc_sparse(size_t bytes, size_t touched, size_t spanned)
{
    return or_abort(hostmem_try_alloc_sparse(bytes, touched, spanned), bytes);
}

void *hostmem_alloc(size_t bytes)
{
    if (bytes >= HOSTMEM_MAPPED_BYTES)
        return hostmem_alloc0(bytes);
    return or_abort(heap_alloc(bytes, false), bytes);
}

size_t hostmem_spanned(size_t bytes)
{
#ifdef HOSTMEM_MMAP
    if (bytes >= HOSTMEM_MAPPED_BYTES)
        return huge_round(bytes);
#endif
    return bytes;
}

void hostmem_free(void *p, size_t bytes)
{
    if (!p)
        return;
#ifdef HOSTMEM_MMAP
    if (bytes >= HOSTMEM_MAPPED_BYTES) {
        munmap(p, huge_round(bytes));
        return;
    }
#endif
    free(p);
}

/* ------------------------------------------------------------------ */
/* arenas                                                               */

/* A small first chunk from the C heap (whose pages a run has often
 * touched already) and a second in 4 KiB pages, since a small launch uses
 * a few pages of them; then chunks of whole huge pages, each twice the
 * last.
 * (4 KiB pages mapped ahead with MADV_POPULATE_WRITE instead measured no
 * faster than the C heap.) */
#define ARENA_FIRST_CHUNK ((size_t)32 << 10) /* below HOSTMEM_MAPPED_BYTES */
#define ARENA_SECOND_CHUNK ((size_t)256 << 10)
#define ARENA_HUGE_CHUNK ((size_t)4 << 20)
#define ARENA_MAX_CHUNK ((size_t)64 << 20)
/* what a slab takes at a time: enough for a few dozen blocks, little
 * enough that the SMs of a small launch do not spread over many pages */
#define ARENA_SLAB ((size_t)8 << 10)

typedef struct {
    unsigned char *base;
    size_t bytes;
} ArenaChunk;

struct HostArena {
    GMutex lock;
    GArray *chunks;   /* ArenaChunk, in the order made: reset starts over at the first */
    guint current;    /* the chunk being given out (chunks->len: none yet) */
    size_t used;      /* bytes of it given out */
    unsigned char *lent_at, *lent_end; /* what is left of host_arena_lend()'s memory */
};

HostArena *host_arena_new(void)
{
    HostArena *a = g_new0(HostArena, 1);
    g_mutex_init(&a->lock);
    a->chunks = g_array_new(FALSE, FALSE, sizeof(ArenaChunk));
    return a;
}

/* `bytes` (a multiple of a host cache line) from the chunks, in order,
 * making a chunk when none left has room.  Under the lock. */
static unsigned char *arena_take(HostArena *a, size_t bytes)
{
    if ((size_t)(a->lent_end - a->lent_at) >= bytes) {
        unsigned char *p = a->lent_at;
        a->lent_at += bytes;
        return p;
    }
    for (;;) {
        if (a->current < a->chunks->len) {
            ArenaChunk *c = &g_array_index(a->chunks, ArenaChunk, a->current);
            if (c->bytes - a->used >= bytes) {
                unsigned char *p = c->base + a->used;
                a->used += bytes;
                return p;
            }
            if (a->current + 1 < a->chunks->len) { /* a kept chunk after a reset */
                a->current++;
                a->used = 0;
                continue;
            }
        }
        size_t last = a->chunks->len ? g_array_index(a->chunks, ArenaChunk, a->chunks->len - 1).bytes : 0;
        size_t size = !last                       ? ARENA_FIRST_CHUNK
                      : last < ARENA_SECOND_CHUNK ? ARENA_SECOND_CHUNK
                      : last < ARENA_HUGE_CHUNK   ? ARENA_HUGE_CHUNK
                                                  : MIN(2 * last, ARENA_MAX_CHUNK);
        if (bytes > size) /* a block larger than the chunk would be: whole huge pages of its own */
            size = huge_round(bytes);
        ArenaChunk c = {hostmem_alloc(size), size};
        g_array_append_val(a->chunks, c);
        a->current = a->chunks->len - 1;
        a->used = 0;
    }
}

/* Size classes: every multiple of a host cache line up to ARENA_FINE
 * bytes (a list takes what it needs, as from the C heap), then powers of
 * two (lists that double as they grow). */
#define ARENA_FINE ((size_t)4 << 10)
#define ARENA_FINE_CLASSES (ARENA_FINE / HOST_CACHE_LINE)

static unsigned arena_class(size_t bytes)
{
    if (bytes <= ARENA_FINE)
        return (unsigned)((MAX(bytes, 1u) + HOST_CACHE_LINE - 1) / HOST_CACHE_LINE - 1);
    unsigned k = ARENA_FINE_CLASSES;
    while ((ARENA_FINE << (k - ARENA_FINE_CLASSES + 1)) < bytes)
        k++;
    return k;
}

static size_t class_bytes(unsigned k)
{
    return k < ARENA_FINE_CLASSES ? (size_t)(k + 1) * HOST_CACHE_LINE : ARENA_FINE << (k - ARENA_FINE_CLASSES + 1);
}

size_t host_arena_class_bytes(size_t bytes)
{
    return class_bytes(arena_class(bytes));
}

/* The slab's free space as blocks of the fine classes, to be taken by
 * the next lists of their sizes, rather than left behind. */
static void slab_give_rest(HostSlab *slab)
{
    while ((size_t)(slab->end - slab->at) >= HOST_CACHE_LINE) {
        size_t piece = MIN((size_t)(slab->end - slab->at) / HOST_CACHE_LINE * HOST_CACHE_LINE, ARENA_FINE);
        host_arena_give(slab, slab->at, piece);
        slab->at += piece;
    }
}

void *host_arena_alloc(HostArena *a, HostSlab *slab, size_t bytes)
{
    unsigned k = arena_class(bytes);
    g_assert(k < HOST_ARENA_CLASSES);
    bytes = class_bytes(k);
    void *p = slab->given[k];
    if (p) {
        memcpy(&slab->given[k], p, sizeof(void *));
        return p;
    }
    if ((size_t)(slab->end - slab->at) < bytes) {
        size_t take = MAX(bytes, ARENA_SLAB);
        g_mutex_lock(&a->lock);
        unsigned char *fresh = arena_take(a, take);
        g_mutex_unlock(&a->lock);
        if (take > ARENA_SLAB)
            return fresh; /* a large block of its own: the slab keeps what it had */
        slab_give_rest(slab);
        slab->at = fresh;
        slab->end = fresh + take;
    }
    p = slab->at;
    slab->at += bytes;
    return p;
}

void host_arena_give(HostSlab *slab, void *block, size_t bytes)
{
    if (!block)
        return;
    unsigned k = arena_class(bytes);
    memcpy(block, &slab->given[k], sizeof(void *));
    slab->given[k] = block;
}

void host_arena_lend(HostArena *a, void *p, size_t bytes)
{
    /* blocks start at a host cache line, and are multiples of it */
    uintptr_t start = ((uintptr_t)p + HOST_CACHE_LINE - 1) & ~(uintptr_t)(HOST_CACHE_LINE - 1);
    uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)(HOST_CACHE_LINE - 1);
    g_mutex_lock(&a->lock);
    a->lent_at = a->lent_end = NULL;
    if (end > start) {
        a->lent_at = (unsigned char *)start;
        a->lent_end = (unsigned char *)end;
    }
    g_mutex_unlock(&a->lock);
}

void host_arena_reset(HostArena *a)
{
    a->current = 0;
    a->used = 0;
    a->lent_at = a->lent_end = NULL;
}

void host_arena_free(HostArena *a)
{
    if (!a)
        return;
    for (guint i = 0; i < a->chunks->len; i++) {
        ArenaChunk *c = &g_array_index(a->chunks, ArenaChunk, i);
        hostmem_free(c->base, c->bytes);
    }
    g_array_free(a->chunks, TRUE);
    g_mutex_clear(&a->lock);
    g_free(a);
}
