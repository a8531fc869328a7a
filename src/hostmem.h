/* hostmem.h — large host allocations, in huge pages where the kernel
 * offers them.
 *
 * Contract: hostmem_alloc(n) returns n bytes aligned to a host cache line
 * (HOST_CACHE_LINE), not necessarily zeroed; hostmem_alloc0(n) zeroed ones; both abort
 * like g_malloc when memory runs out, hostmem_try_alloc0(n) returns NULL
 * instead.  hostmem_free(p, n) gives them back, n as allocated (NULL is
 * fine).  Below HOSTMEM_MAPPED_BYTES a block comes from the C heap.  From
 * there on a block is a mapping of its own, zeroed by the host page by page
 * as it is first touched, rounded up to whole 2 MiB pages and, on Linux,
 * marked for transparent huge pages, except a last one that it fills less
 * than a quarter of: its resident size may exceed n by up to a huge page.
 *
 * Why: a timed launch's state (thousands of resident warps, the L2's tags)
 * is tens of MiB touched for the first time within milliseconds.  In 4 KiB
 * pages every first touch is a page fault, and for a short launch those
 * faults cost more than the simulation; in 2 MiB pages they are a few.  A
 * small launch's state is not cleared whole, as the C heap's would be:
 * its untouched pages cost nothing.
 *
 * hostmem_alloc_sparse(n, touched, spanned) is hostmem_alloc(n) for a block
 * of which only about `touched` bytes will ever be used, all within
 * `spanned` bytes of it (the caller's estimates): when that is under a
 * quarter of the huge pages they span, no huge pages at all, since the
 * first touch of a huge page clears all 2 MiB of it (200 us measured,
 * against 1.9 us for a 4 KiB page).  A small launch touches a few sets of
 * caches sized for the whole GPU.
 */
#ifndef WARPSIM_HOSTMEM_H
#define WARPSIM_HOSTMEM_H

#include <stddef.h>

#define HOST_CACHE_LINE 64                      /* bytes: what blocks are aligned to */
#define HOSTMEM_HUGE_BYTES ((size_t)2 << 20)   /* one huge page */
#define HOSTMEM_MAPPED_BYTES ((size_t)1 << 16) /* smaller blocks come from the C heap */

void *hostmem_alloc(size_t bytes);
void *hostmem_alloc0(size_t bytes);
void *hostmem_alloc_sparse(size_t bytes, size_t touched, size_t spanned);
void *hostmem_try_alloc0(size_t bytes);
void hostmem_free(void *p, size_t bytes);

#endif
