/* hostmem.h — large host allocations, in huge pages where the kernel
 * offers them, and arenas of small blocks that come from such blocks.
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
void *hostmem_try_alloc_sparse(size_t bytes, size_t touched, size_t spanned); /* NULL when out of memory */
/* hostmem_alloc0(n) in 4 KiB pages, all of them mapped at once where the
 * kernel can (Linux 5.14 on): one call instead of a fault at each page's
 * first touch, about 0.65 against 1 us a page on the project's VMs.  For
 * a block whose every page is soon touched, such as an index read at
 * random. */
void *hostmem_alloc0_mapped_now(size_t bytes);
void hostmem_free(void *p, size_t bytes);
/* The bytes that a block of `bytes` from the calls above really holds:
 * a mapped one is whole huge pages, and the caller may use what lies
 * beyond `bytes` too (still freeing it as `bytes`).  When its last huge
 * page is touched, the host has cleared all of it: the rest is memory
 * paid for (host_arena_lend). */
size_t hostmem_spanned(size_t bytes);

/* An arena of small blocks that all go at once: host_arena_alloc(a, slab,
 * n) returns a block of host_arena_class_bytes(n) bytes (n rounded up to
 * a multiple of HOST_CACHE_LINE up to 4 KiB, to a power of two beyond),
 * aligned to a host cache line, not zeroed:
 * one given back to the slab earlier by host_arena_give(slab, p, n) when
 * there is one of that size, else from the slab's free space, which it
 * refills from the arena (under the arena's lock) when short.  One slab per
 * owner that allocates alone (an SM, run by one host thread at a time)
 * needs no lock per block.  A slab starts zeroed (empty).
 * host_arena_reset(a) forgets every block (every slab taken from it must
 * be zeroed too) and keeps the memory, so that its next user finds the
 * pages touched; host_arena_free(a) gives it back.
 *
 * Why: a timed launch makes thousands of small growing lists (its warps'
 * instructions run ahead, its memory requests waiting for their quantum's
 * end), first touched within milliseconds.  From the C heap every one of
 * their 4 KiB pages is a fault of its own (1 to 2 us on the project's
 * VMs); the arena's memory after its first 288 KiB comes in huge pages
 * (hostmem_alloc), as blocks of many lists, and a list that grows leaves
 * its old block to the next list of that size in its slab. */
#define HOST_ARENA_CLASSES 84 /* 64 B .. 4 KiB by 64 B, then 8 KiB .. 4 GiB by powers of two */
typedef struct HostArena HostArena;
typedef struct {
    unsigned char *at, *end;
    void *given[HOST_ARENA_CLASSES]; /* blocks given back, by size class, linked through their first bytes */
} HostSlab;

HostArena *host_arena_new(void);
size_t host_arena_class_bytes(size_t bytes);
void *host_arena_alloc(HostArena *a, HostSlab *slab, size_t bytes);
void host_arena_give(HostSlab *slab, void *block, size_t bytes);
/* Lends the arena `bytes` at `p`, which it gives out before any memory of
 * its own until its next reset, when it forgets them (the lender keeps
 * them alive until then): the slack at the end of a block in huge pages,
 * which costs nothing more to touch once the block's last page is. */
void host_arena_lend(HostArena *a, void *p, size_t bytes);
void host_arena_reset(HostArena *a);
void host_arena_free(HostArena *a);

#endif
