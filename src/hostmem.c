/* hostmem.c — large zeroed host allocations (contract in hostmem.h).
 *
 * A large block is an anonymous mapping of its own: the kernel hands it out
 * zeroed (nothing to clear), and MADV_HUGEPAGE asks for 2 MiB pages even
 * where transparent huge pages are only given on request (the default of
 * many distributions).  The mapping is rounded up to whole huge pages and
 * aligned to one, so that every page of it can be huge.  Where mmap or the
 * advice is not there, the block comes from g_malloc0 and behaves the same,
 * only slower to touch.
 */
#include "hostmem.h"

#include <glib.h>
#include <stdint.h>

#if defined(__linux__)
#include <sys/mman.h>
#define HOSTMEM_MMAP 1
#endif

static size_t huge_round(size_t n)
{
    return (n + HOSTMEM_HUGE_BYTES - 1) & ~(HOSTMEM_HUGE_BYTES - 1);
}

void *hostmem_alloc0(size_t bytes)
{
    if (bytes < HOSTMEM_HUGE_BYTES)
        return g_malloc0(MAX(bytes, 1u));
#ifdef HOSTMEM_MMAP
    /* one huge page more, to align the start to one */
    size_t len = huge_round(bytes) + HOSTMEM_HUGE_BYTES;
    uint8_t *raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        g_error("hostmem: cannot map %zu bytes", bytes);
    uint8_t *start = (uint8_t *)(((uintptr_t)raw + HOSTMEM_HUGE_BYTES - 1) & ~(uintptr_t)(HOSTMEM_HUGE_BYTES - 1));
    uint8_t *end = start + huge_round(bytes);
    /* the unaligned ends go back at once */
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    if (raw + len > end)
        munmap(end, (size_t)(raw + len - end));
#ifdef MADV_HUGEPAGE
    (void)madvise(start, huge_round(bytes), MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
    return start;
#else
    return g_malloc0(bytes);
#endif
}

void hostmem_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < HOSTMEM_HUGE_BYTES) {
        g_free(p);
        return;
    }
#ifdef HOSTMEM_MMAP
    munmap(p, huge_round(bytes));
#else
    g_free(p);
#endif
}
