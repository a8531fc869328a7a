/* hostmem.h — large zeroed host allocations, in huge pages where the kernel
 * offers them.
 *
 * Contract: hostmem_alloc0(n) returns n zeroed bytes, aligned to a host
 * cache line (64 B), and aborts like g_malloc when memory runs out;
 * hostmem_free(p, n) gives them back, n as allocated (NULL is fine).
 * Below HOSTMEM_HUGE_BYTES it is g_malloc0/g_free; from there on the block is
 * mapped on its own and, on Linux, marked for transparent huge pages.
 *
 * Why: a timed launch's state (thousands of resident warps, the L2's tags)
 * is tens of MiB touched for the first time within milliseconds.  In 4 KiB
 * pages every first touch is a page fault, and for a short launch those
 * faults cost more than the simulation; in 2 MiB pages they are a few.
 */
#ifndef WARPSIM_HOSTMEM_H
#define WARPSIM_HOSTMEM_H

#include <stddef.h>

#define HOSTMEM_HUGE_BYTES ((size_t)2 << 20)

void *hostmem_alloc0(size_t bytes);
void hostmem_free(void *p, size_t bytes);

#endif
