/* memory.h — the simulated device's global memory and address map.
 *
 * Contract: global memory is a sparse 64-bit address space of allocations,
 * each a contiguous host buffer, kept sorted by base address; a lookup is a
 * binary search behind a one-entry cache.  Allocations are separated by
 * unmapped guard gaps so that running off the end of one is a fault, not a
 * silent read of its neighbour.
 *
 * Generic addresses: the global allocations live below GENERIC_WINDOWS_BASE;
 * above it lie fixed windows for the const bank, kernel parameters, the
 * calling thread's local memory and its CTA's shared memory (the same layout
 * for every CTA and thread, as on hardware).  All of it fits in 32 bits so
 * that `.address_size 32` kernels work unchanged.
 */
#ifndef WARPSIM_MEMORY_H
#define WARPSIM_MEMORY_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define GLOBAL_HEAP_BASE      0x10000000ull
#define GENERIC_WINDOWS_BASE  0xC0000000ull
#define CONST_WINDOW_BASE     0xC0000000ull /* 64 MiB */
#define PARAM_WINDOW_BASE     0xC4000000ull /* 64 MiB */
#define LOCAL_WINDOW_BASE     0xC8000000ull /* 128 MiB per thread */
#define SHARED_WINDOW_BASE    0xD0000000ull /* 256 MiB per CTA */
#define GENERIC_WINDOWS_END   0xE0000000ull
#define GLOBAL_HIGH_BASE      0x100000000ull /* allocations that no longer fit below 3 GiB */
 /* Function "addresses" (function pointers, indirect calls): above every
  * window, never dereferenceable. */
#define FUNC_ADDR_BASE        0xE0000000ull
#define FUNC_ADDR_STRIDE      16u
#define ALLOC_ALIGN           256u
#define ALLOC_GUARD           256u

typedef struct {
    uint64_t base;
    uint64_t size;
    uint8_t *data;     /* owned, size bytes (at least 1), unless borrowed */
    char *name;        /* owned: buffer or variable name, for messages */
    bool read_only;
    uint8_t *written;  /* owned, size bytes or NULL: for initcheck, per byte 1 once
                          the host or a thread wrote it; NULL: all initialised */
    bool borrowed;     /* data is the caller's (gmem_map_host): never freed here */
} Allocation;

/* Store and atomic instructions that may have written global memory,
 * counted per host thread (gmem_count_store) in host cache lines of their
 * own: one count for all, added to at every store, moved between the cores
 * as often (saxpy's first wave on 2 threads: 20 % longer).  Their sum is
 * the hang detector's proof that nothing changed (gmem_stores). */
#define GMEM_STORE_COUNTS 16
typedef struct {
    _Alignas(64) uint64_t n;
} GmemStoreCount;

typedef struct {
    GArray *allocs;    /* Allocation, sorted by base */
    uint64_t next_low, next_high;
    GmemStoreCount *store_counts; /* GMEM_STORE_COUNTS, by host thread modulo their number */
    uint64_t heap_bytes; /* size of the device malloc heap (builtins.c), made at
                            the first malloc; 0: CUDA's default, 8 MiB */
    bool heap_made;      /* that malloc came: heap_bytes no longer changes anything */
} GlobalMemory;

/* What the coalescer, banks and caches ask first of a warp with every lane
 * active (warp_scan). */
typedef struct {
    uint64_t any;      /* OR of the addresses: their low zero bits are an alignment all share */
    uint64_t spread;   /* OR of addr[l] ^ addr[0]: 0 when all are on one address, and its
                          highest bit bounds how far apart they lie */
    uint64_t stride;   /* addr[1] - addr[0] (modulo 2^64) */
    uint64_t unstrided; /* OR of addr[l] ^ (addr[0] + l * stride): 0 when lanes step by stride */
} WarpScan;

/* One warp instruction's memory accesses, as the executor performed them:
 * the lanes in mask accessed size bytes each at addr[lane] (an address in
 * `space`, generic addresses already resolved).  The executor fills it when
 * the timing model asks (Warp.mem_log); coalescer, banks and caches read it.
 * With every lane active, the executor may also leave the scan of the
 * addresses (warp_scan), worked out as it wrote them: cheaper there, in a
 * loop vectorised for the host, than read back again by each reader. */
typedef struct {
    uint32_t mask;
    uint32_t size;          /* 1, 2, 4, 8 or 16 bytes per lane */
    uint8_t space;          /* PtxSpace */
    bool write;
    bool scanned;           /* scan holds warp_scan() of addr (mask is every lane) */
    WarpScan scan;
    uint64_t addr[32];
} WarpAccess;

/* The scan of 32 lanes' addresses in one pass, four lanes a step (GCC/Clang
 * vector extension), which -O2 does not find in the plain loop: two SSE2
 * operations each on baseline x86-64, one AVX2 operation in the executor's
 * host-specific clones.  Inline, so that a caller pays only for what it
 * reads. */
static inline WarpScan warp_scan_addresses(const uint64_t *addr)
{
    typedef uint64_t U64x4 __attribute__((vector_size(32)));
    uint64_t first = addr[0], step = addr[1] - first;
    U64x4 base = {first, first, first, first};
    U64x4 want = {first, first + step, first + 2 * step, first + 3 * step};
    U64x4 inc = {4 * step, 4 * step, 4 * step, 4 * step};
    U64x4 any = {0}, spread = {0}, unstrided = {0};
    for (int l = 0; l < 32; l += 4) {
        U64x4 v;
        memcpy(&v, &addr[l], sizeof v);
        any |= v;
        spread |= v ^ base;
        unstrided |= v ^ want;
        want += inc;
    }
    return (WarpScan){any[0] | any[1] | any[2] | any[3], spread[0] | spread[1] | spread[2] | spread[3], step,
                      unstrided[0] | unstrided[1] | unstrided[2] | unstrided[3]};
}

/* The scan of a whole warp's addresses: the executor's (scanned), or one
 * pass over them. */
static inline WarpScan warp_scan(const WarpAccess *a)
{
    return a->scanned ? a->scan : warp_scan_addresses(a->addr);
}

/* Whether the active lanes (mask not 0) step up by one stride without
 * wrapping: lane l at addr[first] + (l - first) * stride, first the
 * lowest active lane (the stride is 0 for one lane), so that lane order
 * is address order.  What warp_scan tells of a whole warp, for any mask
 * (a divergent warp's accesses): the inactive lanes' stale addresses are
 * read, four lanes a step, and masked off. */
static inline bool warp_lanes_ascending(const WarpAccess *a, uint32_t *first, uint64_t *stride)
{
    typedef uint64_t U64x4 __attribute__((vector_size(32)));
    uint32_t m = a->mask;
    if (m == 0xFFFFFFFFu) {
        WarpScan scan = warp_scan(a);
        *first = 0;
        *stride = scan.stride;
        return !scan.unstrided && scan.stride <= UINT64_MAX / 32 && a->addr[0] <= UINT64_MAX - 32 * scan.stride;
    }
    uint32_t l0 = (uint32_t)__builtin_ctz(m), rest = m & (m - 1);
    *first = l0;
    *stride = 0;
    if (!rest)
        return true;
    uint32_t gap = (uint32_t)__builtin_ctz(rest) - l0;
    uint64_t diff = a->addr[l0 + gap] - a->addr[l0], step = diff / gap;
    if (step * gap != diff || step > UINT64_MAX / 32 || a->addr[l0] > UINT64_MAX - 32 * step)
        return false; /* no whole step, a step down, or one that wraps */
    *stride = step;
    /* lane 0's address, were it active: lane l's is base + l * step */
    uint64_t base = a->addr[l0] - (uint64_t)l0 * step;
    U64x4 want = {base, base + step, base + 2 * step, base + 3 * step};
    U64x4 inc = {4 * step, 4 * step, 4 * step, 4 * step};
    U64x4 off = {0};
    /* four lanes' mask bits as whole lanes of ones */
#define L(n) ((n) & 1 ? ~0ull : 0)
#define NIBBLE(n) {L(n), L((n) >> 1), L((n) >> 2), L((n) >> 3)}
    static const U64x4 lanes_of[16] = {NIBBLE(0),  NIBBLE(1),  NIBBLE(2),  NIBBLE(3), NIBBLE(4),  NIBBLE(5),
                                       NIBBLE(6),  NIBBLE(7),  NIBBLE(8),  NIBBLE(9), NIBBLE(10), NIBBLE(11),
                                       NIBBLE(12), NIBBLE(13), NIBBLE(14), NIBBLE(15)};
#undef NIBBLE
#undef L
    for (int l = 0; l < 32; l += 4) {
        U64x4 v;
        memcpy(&v, &a->addr[l], sizeof v);
        off |= (v ^ want) & lanes_of[m >> l & 0xFu];
        want += inc;
    }
    return !(off[0] | off[1] | off[2] | off[3]);
}

/* The lowest and highest address of the lanes `lanes` (at least one). */
static inline void warp_bounds(const WarpAccess *a, uint32_t lanes, uint64_t *lo, uint64_t *hi)
{
    uint64_t low = UINT64_MAX, high = 0;
    if (lanes == 0xFFFFFFFFu) { /* every lane: a loop without the mask */
        for (uint32_t l = 0; l < 32; l++) {
            low = MIN(low, a->addr[l]);
            high = MAX(high, a->addr[l]);
        }
    } else {
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint64_t addr = a->addr[__builtin_ctz(m)];
            low = MIN(low, addr);
            high = MAX(high, addr);
        }
    }
    *lo = low;
    *hi = high;
}

GlobalMemory *gmem_new(void);
void gmem_free(GlobalMemory *g);
/* Returns the base address of a fresh zeroed allocation, or 0 with error. */
uint64_t gmem_alloc(GlobalMemory *g, uint64_t size, const char *name, GError **error);
/* Frees the allocation that starts at base (cudaFree); a borrowed one is
 * only unmapped.  Its addresses are not handed out again by gmem_alloc.
 * False if no allocation starts at base. */
bool gmem_release(GlobalMemory *g, uint64_t base);
/* An allocation whose device address is the address of its host buffer
 * (managed and page-locked host memory: host and kernels use one pointer).
 * Returns that address, or 0 with error; the buffer must lie at or above
 * GLOBAL_HIGH_BASE, clear of the device heap and the generic windows, and a
 * guard gap clear of every other allocation (slack after each such buffer
 * keeps malloc's neighbours apart). */
uint64_t gmem_alloc_host_mapped(GlobalMemory *g, uint64_t size, const char *name, GError **error);
/* Maps `size` bytes of a buffer the caller owns and keeps alive
 * (cudaHostRegister of malloc'd memory) at its own address, so kernels read
 * and write it in place.  Returns that address, or 0 with error:
 * WS_ERR_UNSUPPORTED when the buffer lies below GLOBAL_HIGH_BASE (the device
 * heap and the generic windows), WS_ERR_INPUT when it overlaps an
 * allocation.  Unlike the other allocations it needs no guard gap (the
 * caller chose its neighbours).  gmem_release unmaps it without freeing. */
uint64_t gmem_map_host(GlobalMemory *g, void *host, uint64_t size, const char *name, GError **error);
/* initcheck: from now on, track which bytes of the allocation at `base` are
 * written; until written, a byte counts as uninitialised (cudaMalloc'd memory
 * the host never filled).  False if there is no allocation at base or no
 * memory for the map. */
bool gmem_track_writes(GlobalMemory *g, uint64_t base);
/* Allocation holding [addr, addr+size), or NULL.  *hint (NULL: none) is the
 * caller's guess, the index of the allocation its last lookup found: a CTA
 * keeps its own, since one shared by the host threads would be written
 * from all of them as each CTA goes from one buffer to the next. */
Allocation *gmem_lookup(GlobalMemory *g, guint *hint, uint64_t addr, uint64_t size);
/* A store instruction of host thread `thread` may have written global memory. */
static inline void gmem_count_store(GlobalMemory *g, uint32_t thread)
{
    __atomic_fetch_add(&g->store_counts[thread % GMEM_STORE_COUNTS].n, 1, __ATOMIC_RELAXED);
}
/* Store instructions so far that may have written global memory: the same
 * value twice means none came in between (each count only grows). */
uint64_t gmem_stores(const GlobalMemory *g);
/* Bytes in all allocations. */
uint64_t gmem_bytes(const GlobalMemory *g);
/* Nearest allocation to addr (for "n bytes past the end of x" messages), or NULL. */
const Allocation *gmem_nearest(GlobalMemory *g, uint64_t addr);
/* host pointer for [addr, addr+size) or NULL */
static inline uint8_t *gmem_ptr(GlobalMemory *g, uint64_t addr, uint64_t size)
{
    Allocation *a = gmem_lookup(g, NULL, addr, size);
    return a ? a->data + (addr - a->base) : NULL;
}

#endif
