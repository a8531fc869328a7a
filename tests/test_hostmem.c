/* test_hostmem.c — the arena of small blocks (hostmem.h): block sizes by
 * class, alignment, blocks that do not overlap and keep what is written
 * to them, a block given back serving the next one of its size, the rest
 * of a slab given out before a new one is taken, reset starting over in
 * the same memory, large blocks of their own, and lent memory used first
 * until the next reset; blocks mapped at once are zeroed, aligned and, where
 * the kernel can populate a mapping, resident before their first touch.
 */
#include <check.h>
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hostmem.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#include "testutil.h"
#endif

START_TEST(class_sizes_round_up_by_lines_then_powers_of_two)
{
    ck_assert_uint_eq(host_arena_class_bytes(1), 64);
    ck_assert_uint_eq(host_arena_class_bytes(64), 64);
    ck_assert_uint_eq(host_arena_class_bytes(65), 128);
    ck_assert_uint_eq(host_arena_class_bytes(368), 384);
    ck_assert_uint_eq(host_arena_class_bytes(4096), 4096);
    ck_assert_uint_eq(host_arena_class_bytes(4097), 8192);
    ck_assert_uint_eq(host_arena_class_bytes(8193), 16384);
    ck_assert_uint_eq(host_arena_class_bytes((size_t)3 << 20), (size_t)4 << 20);
}
END_TEST

/* Blocks of many sizes from two slabs: aligned, apart, and each keeps its
 * own bytes. */
START_TEST(blocks_are_aligned_apart_and_keep_their_bytes)
{
    HostArena *a = host_arena_new();
    HostSlab slabs[2] = {0};
    enum { N = 600 };
    unsigned char *p[N];
    size_t n[N];
    for (int i = 0; i < N; i++) {
        n[i] = 1 + (size_t)(i * 37) % 9000; /* fine classes, powers of two and slab-sized blocks */
        p[i] = host_arena_alloc(a, &slabs[i % 2], n[i]);
        ck_assert_uint_eq((uintptr_t)p[i] % HOST_CACHE_LINE, 0);
        memset(p[i], i & 0xFF, n[i]);
    }
    for (int i = 0; i < N; i++) { /* one assertion per block: Check's are slow, 2.7 M of them took seconds */
        size_t b = 0;
        while (b < n[i] && p[i][b] == (unsigned char)(i & 0xFF))
            b++;
        ck_assert_msg(b == n[i], "block %d (%zu bytes): byte %zu is 0x%02x, expected 0x%02x", i, n[i], b,
                      b < n[i] ? p[i][b] : 0, (unsigned)(i & 0xFF));
    }
    host_arena_free(a);
}
END_TEST

START_TEST(a_block_given_back_serves_the_next_of_its_size)
{
    HostArena *a = host_arena_new();
    HostSlab slab = {0};
    void *x = host_arena_alloc(a, &slab, 300);
    void *y = host_arena_alloc(a, &slab, 300);
    ck_assert_ptr_ne(x, y);
    host_arena_give(&slab, x, host_arena_class_bytes(300));
    /* another size does not get it; the same class does, once */
    void *z = host_arena_alloc(a, &slab, 1000);
    ck_assert_ptr_ne(z, x);
    ck_assert_ptr_eq(host_arena_alloc(a, &slab, 270), x);
    ck_assert_ptr_ne(host_arena_alloc(a, &slab, 300), x);
    host_arena_free(a);
}
END_TEST

/* When a block does not fit what is left of the slab, the rest is given
 * out as blocks of the fine classes rather than lost. */
START_TEST(the_rest_of_a_slab_is_given_out)
{
    HostArena *a = host_arena_new();
    HostSlab slab = {0};
    unsigned char *first = host_arena_alloc(a, &slab, 64);
    /* fine-class blocks from the slab, in order, until 192 bytes are left */
    size_t left = (size_t)(slab.end - slab.at);
    unsigned char *at = first + 64;
    while (left > 192) {
        size_t n = MIN(left - 192, (size_t)4096);
        ck_assert_ptr_eq(host_arena_alloc(a, &slab, n), at);
        at += n;
        left -= n;
    }
    unsigned char *rest = at;
    ck_assert_uint_eq((size_t)(slab.end - rest), 192);
    unsigned char *other = host_arena_alloc(a, &slab, 512); /* a new slab */
    ck_assert(other < rest || other >= rest + 192);
    ck_assert_ptr_eq(host_arena_alloc(a, &slab, 192), rest);
    host_arena_free(a);
}
END_TEST

START_TEST(reset_starts_over_in_the_same_memory)
{
    HostArena *a = host_arena_new();
    HostSlab slab = {0};
    void *first = host_arena_alloc(a, &slab, 100);
    for (int i = 0; i < 2000; i++) /* past the first chunks */
        (void)host_arena_alloc(a, &slab, 2048);
    host_arena_reset(a);
    slab = (HostSlab){0};
    ck_assert_ptr_eq(host_arena_alloc(a, &slab, 100), first);
    host_arena_free(a);
}
END_TEST

START_TEST(a_large_block_is_one_of_its_own)
{
    HostArena *a = host_arena_new();
    HostSlab slab = {0};
    unsigned char *small = host_arena_alloc(a, &slab, 64);
    size_t big_bytes = (size_t)20 << 20;
    unsigned char *big = host_arena_alloc(a, &slab, big_bytes);
    memset(big, 0x5A, big_bytes);
    /* the slab still gives out what it had, next to the first block */
    ck_assert_ptr_eq(host_arena_alloc(a, &slab, 64), small + 64);
    ck_assert(big + big_bytes <= small || big >= small + 128);
    ck_assert_uint_eq(big[big_bytes - 1], 0x5A);
    host_arena_free(a);
}
END_TEST

/* Lent memory is given out before the arena's own, only until it runs
 * out, and is forgotten at the next reset. */
START_TEST(lent_memory_goes_first_until_the_reset)
{
    HostArena *a = host_arena_new();
    size_t lent_bytes = (size_t)64 << 10;
    unsigned char *lent = g_malloc(lent_bytes + HOST_CACHE_LINE);
    host_arena_lend(a, lent + 1, lent_bytes); /* not aligned: the arena aligns it */
    HostSlab slab = {0};
    size_t in_lent = 0, outside = 0;
    for (int i = 0; i < 64; i++) {
        unsigned char *p = host_arena_alloc(a, &slab, 2048);
        ck_assert_uint_eq((uintptr_t)p % HOST_CACHE_LINE, 0);
        bool inside = p >= lent + 1 && p + 2048 <= lent + 1 + lent_bytes;
        ck_assert(inside || p + 2048 <= lent || p >= lent + lent_bytes + 1);
        if (inside)
            ck_assert_uint_eq(outside, 0); /* none of the arena's own before it is used up */
        in_lent += inside;
        outside += !inside;
        memset(p, 0x33, 2048);
    }
    ck_assert_uint_ge(in_lent, 24); /* 64 KiB less the alignment: most of it, a slab at a time */
    ck_assert_uint_gt(outside, 0);
    /* lent again, used in part, then reset: none of it after that */
    unsigned char *aligned = (unsigned char *)(((uintptr_t)lent + HOST_CACHE_LINE - 1) & ~(uintptr_t)(HOST_CACHE_LINE - 1));
    host_arena_lend(a, aligned, lent_bytes);
    slab = (HostSlab){0};
    unsigned char *p = host_arena_alloc(a, &slab, 2048);
    ck_assert_ptr_eq(p, aligned);
    host_arena_reset(a);
    slab = (HostSlab){0};
    for (int i = 0; i < 64; i++) {
        p = host_arena_alloc(a, &slab, 2048);
        ck_assert(p + 2048 <= lent || p >= lent + lent_bytes + HOST_CACHE_LINE);
    }
    host_arena_free(a);
    g_free(lent);
}
END_TEST

/* Whether this kernel maps a block's pages on request (Linux 5.14 on). */
static bool kernel_populates(void)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return false;
    bool ok = madvise(p, 4096, MADV_POPULATE_WRITE) == 0;
    munmap(p, 4096);
    return ok;
#else
    return false;
#endif
}

START_TEST(a_block_mapped_now_is_zeroed_and_resident)
{
    size_t sizes[] = {100, HOSTMEM_MAPPED_BYTES, (size_t)120 << 10};
    for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
        unsigned char *p = hostmem_alloc0_mapped_now(sizes[i]);
        ck_assert_uint_eq((uintptr_t)p % HOST_CACHE_LINE, 0);
#if defined(__linux__)
        if (sizes[i] >= HOSTMEM_MAPPED_BYTES && kernel_populates()) {
            /* every page present before anything touched it */
            size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (sizes[i] + page - 1) / page;
            unsigned char *in_core = g_malloc(pages);
            ck_assert_int_eq(mincore(p, pages * page, in_core), 0);
            for (size_t k = 0; k < pages; k++)
                ck_assert_msg(in_core[k] & 1, "page %zu of %zu not mapped", k, pages);
            g_free(in_core);
        }
#endif
        for (size_t k = 0; k < sizes[i]; k++)
            ck_assert_uint_eq(p[k], 0);
        memset(p, 0x77, sizes[i]);
        hostmem_free(p, sizes[i]);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hostmem");
    TCase *t = tcase_create("arena");
    tcase_add_test(t, class_sizes_round_up_by_lines_then_powers_of_two);
    tcase_add_test(t, blocks_are_aligned_apart_and_keep_their_bytes);
    tcase_add_test(t, a_block_given_back_serves_the_next_of_its_size);
    tcase_add_test(t, the_rest_of_a_slab_is_given_out);
    tcase_add_test(t, reset_starts_over_in_the_same_memory);
    tcase_add_test(t, a_large_block_is_one_of_its_own);
    tcase_add_test(t, lent_memory_goes_first_until_the_reset);
    tcase_add_test(t, a_block_mapped_now_is_zeroed_and_resident);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
