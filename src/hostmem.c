/* hostmem.c — large host allocations (contract in hostmem.h).
 *
 * A large block is an anonymous mapping of its own: the kernel hands it out
 * zeroed (nothing to clear) and only as it is touched, and MADV_HUGEPAGE
 * asks for 2 MiB pages even where transparent huge pages are only given on
 * request (the default of many distributions).  The mapping starts on a
 * huge page boundary and covers whole huge pages, since a huge page must
 * lie entirely inside it.  Where mmap or the advice is not there, the block
 * comes from the C heap and behaves the same, only slower to touch.
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

#ifdef HOSTMEM_MMAP
static size_t huge_round(size_t n)
{
    return (n + HOSTMEM_HUGE_BYTES - 1) & ~(HOSTMEM_HUGE_BYTES - 1);
}

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

void *hostmem_alloc_sparse(size_t bytes, size_t touched, size_t spanned)
{
    if (bytes < HOSTMEM_MAPPED_BYTES)
        return hostmem_alloc(bytes);
    /* the huge pages the touched part lies in, one more where it straddles */
    size_t huge_pages = MIN(spanned, bytes) / HOSTMEM_HUGE_BYTES + 1;
    return or_abort(try_alloc0(bytes, touched / (HOSTMEM_HUGE_BYTES / 4) >= huge_pages), bytes);
}

void *hostmem_alloc(size_t bytes)
{
    if (bytes >= HOSTMEM_MAPPED_BYTES)
        return hostmem_alloc0(bytes);
    return or_abort(heap_alloc(bytes, false), bytes);
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
