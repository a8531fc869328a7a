/* test_occupancy.c — the occupancy calculator against worked examples.
 *
 * Every expectation is worked out by hand in the comment beside it with
 * the CUDA Occupancy Calculator's rules (register allocation per block
 * before cc 2.0, per warp after; warp allocation granularity; shared
 * memory units plus the per-block reservation), or, for the H200, was
 * measured with cudaOccupancyMaxActiveBlocksPerMultiprocessor on the lent
 * machine.  The per-SM facts each case relies on are asserted first so a
 * config change shows up as such and not as a calculator bug.
 */
#include <check.h>
#include <glib.h>
#include <stdlib.h>

#include "config.h"
#include "occupancy.h"
#include "testutil.h"

static GpuConfig *load(const char *name)
{
    GError *e = NULL;
    GpuConfig *c = config_load(name, NULL, &e);
    ck_assert_msg(c != NULL, "%s: %s", name, e ? e->message : "?");
    return c;
}

static Occupancy occ(const GpuConfig *c, uint32_t threads, uint32_t regs, uint32_t smem)
{
    Occupancy o;
    occupancy_compute(c, threads, regs, smem, &o);
    return o;
}

static void expect(const Occupancy *o, uint32_t blocks, OccupancyLimiter limiter)
{
    ck_assert_uint_eq(o->blocks_per_sm, blocks);
    ck_assert_msg(o->limiter == limiter, "limiter %s, expected %s", occupancy_limiter_name(o->limiter),
                  occupancy_limiter_name(limiter));
    ck_assert_uint_eq(o->active_warps, blocks * o->warps_per_block);
}

/* ---------------------------------------------------------- cc 1.x */

START_TEST(g80_seed_examples)
{
    GpuConfig *c = load("8800gtx");
    ck_assert_uint_eq(c->regs_per_sm, 8192);
    ck_assert_uint_eq(c->max_warps_per_sm, 24);
    ck_assert_uint_eq(c->reg_alloc_unit, 256);

    /* 9 regs x 256 threads: 8 warps x 9 x 32 = 2304 (a multiple of 256);
     * 8192 / 2304 = 3 blocks; warps 24 / 8 = 3: 768 threads, occupancy 1 */
    Occupancy o = occ(c, 256, 9, 0);
    ck_assert_uint_eq(o.regs_per_block, 2304);
    ck_assert_uint_eq(o.limit[LIMIT_REGISTERS], 3);
    ck_assert_uint_eq(o.limit[LIMIT_WARPS], 3);
    expect(&o, 3, LIMIT_WARPS); /* tie: the first in enum order */
    ck_assert_uint_eq(o.active_warps * 32, 768);
    ck_assert_double_eq_tol(o.occupancy, 1.0, 1e-12);

    /* 11 regs: 8 x 11 x 32 = 2816; 8192 / 2816 = 2 blocks, 16 of 24 warps */
    o = occ(c, 256, 11, 0);
    ck_assert_uint_eq(o.regs_per_block, 2816);
    expect(&o, 2, LIMIT_REGISTERS);
    ck_assert_double_eq_tol(o.occupancy, 2.0 / 3.0, 1e-12);
    config_free(c);
}
END_TEST

START_TEST(g80_rounding)
{
    GpuConfig *c = load("8800gtx");
    /* 3 warps round up to 4 (granularity 2): 4 x 10 x 32 = 1280 = 5 x 256;
     * 8192 / 1280 = 6 blocks.  Without the warp rounding it would be
     * 960 -> 1024 -> 8 blocks. */
    Occupancy o = occ(c, 96, 10, 0);
    ck_assert_uint_eq(o.warps_per_block, 3);
    ck_assert_uint_eq(o.regs_per_block, 1280);
    expect(&o, 6, LIMIT_REGISTERS);

    /* 2 warps x 10 x 32 = 640 -> 768; 8192 / 768 = 10; warps 12; blocks 8 */
    o = occ(c, 64, 10, 0);
    ck_assert_uint_eq(o.regs_per_block, 768);
    ck_assert_uint_eq(o.limit[LIMIT_REGISTERS], 10);
    expect(&o, 8, LIMIT_BLOCKS);
    ck_assert_double_eq_tol(o.occupancy, 16.0 / 24.0, 1e-12);

    /* shared memory in 512 B units: 5000 -> 5120, 16384 / 5120 = 3 (ties
     * the warps); 6000 -> 6144, 2 blocks */
    o = occ(c, 256, 0, 5000);
    ck_assert_uint_eq(o.smem_per_block, 5120);
    ck_assert_uint_eq(o.limit[LIMIT_SHARED_MEM], 3);
    expect(&o, 3, LIMIT_WARPS);
    o = occ(c, 256, 0, 6000);
    expect(&o, 2, LIMIT_SHARED_MEM);

    /* a block may hold the whole file: 512 threads x 16 regs = 8192 fits
     * once; 17 regs (8704) does not fit at all */
    o = occ(c, 512, 16, 0);
    expect(&o, 1, LIMIT_WARPS); /* warps 24 / 16 = 1, registers 1: tie */
    o = occ(c, 512, 17, 0);
    expect(&o, 0, LIMIT_REGISTERS);
    /* more threads than a block may have */
    o = occ(c, 513, 0, 0);
    expect(&o, 0, LIMIT_WARPS);
    config_free(c);
}
END_TEST

START_TEST(gt200_unit_512)
{
    GpuConfig *c = load("gtx280");
    ck_assert_uint_eq(c->regs_per_sm, 16384);
    ck_assert_uint_eq(c->reg_alloc_unit, 512);
    /* 8 x 16 x 32 = 4096; 16384 / 4096 = 4; warps 32 / 8 = 4 */
    Occupancy o = occ(c, 256, 16, 0);
    expect(&o, 4, LIMIT_WARPS);
    ck_assert_double_eq_tol(o.occupancy, 1.0, 1e-12);
    /* 4 x 17 x 32 = 2176 -> 2560 (unit 512); 16384 / 2560 = 6 of 8 */
    o = occ(c, 128, 17, 0);
    ck_assert_uint_eq(o.regs_per_block, 2560);
    expect(&o, 6, LIMIT_REGISTERS);
    ck_assert_double_eq_tol(o.occupancy, 24.0 / 32.0, 1e-12);
    config_free(c);
}
END_TEST

/* ---------------------------------------------------------- cc 2.x - 6.x */

START_TEST(fermi_per_warp_64)
{
    GpuConfig *c = load("gtx460");
    ck_assert_uint_eq(c->regs_per_sm, 32768);
    ck_assert_uint_eq(c->reg_alloc_unit, 64);
    ck_assert_uint_eq(c->warp_alloc_granularity, 2);
    /* 21 x 32 = 672 -> 704 per warp; 32768 / 704 = 46 warps (even);
     * 46 / 6 = 7 blocks; warps 48 / 6 = 8 */
    Occupancy o = occ(c, 192, 21, 0);
    ck_assert_uint_eq(o.regs_per_block, 6 * 704);
    expect(&o, 7, LIMIT_REGISTERS);
    ck_assert_double_eq_tol(o.occupancy, 42.0 / 48.0, 1e-12);
    /* 64 > 63 registers per thread */
    o = occ(c, 192, 64, 0);
    expect(&o, 0, LIMIT_REGISTERS);
    config_free(c);
}
END_TEST

/* The seed's ILP kernels: 512-thread blocks with 12, 20 and 30 registers. */
START_TEST(gtx1060_seed_table)
{
    GpuConfig *c = load("gtx1060");
    ck_assert_uint_eq(c->regs_per_sm, 65536);
    ck_assert_uint_eq(c->max_warps_per_sm, 64);
    const struct { uint32_t regs, per_warp, reg_blocks; } rows[] = {
        {12, 512, 8},  /* 384 -> 512; 128 warps; 128 / 16 = 8 */
        {20, 768, 5},  /* 640 -> 768; 85 warps -> 84; 84 / 16 = 5 */
        {30, 1024, 4}, /* 960 -> 1024; 64 warps; 64 / 16 = 4 */
    };
    for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
        Occupancy o = occ(c, 512, rows[i].regs, 0);
        ck_assert_uint_eq(o.warps_per_block, 16);
        ck_assert_uint_eq(o.regs_per_block, rows[i].per_warp * 16);
        ck_assert_uint_eq(o.limit[LIMIT_REGISTERS], rows[i].reg_blocks);
        ck_assert_uint_eq(o.limit[LIMIT_WARPS], 4); /* 2048 / 512 */
        ck_assert_uint_eq(o.blocks_per_sm, 4);
        ck_assert_double_eq_tol(o.occupancy, 1.0, 1e-12);
    }
    /* granularity matters: 20 regs, 160 threads (5 warps): 85 warps fit,
     * rounded down to 84 (multiple of 4); 84 / 5 = 16, where 85 / 5 = 17 */
    Occupancy o = occ(c, 160, 20, 0);
    ck_assert_uint_eq(o.limit[LIMIT_REGISTERS], 16);
    expect(&o, 12, LIMIT_WARPS); /* 64 / 5 */
    /* 64 regs x 1024 threads: 2048 per warp, 32 warps = 1 block of 32 */
    o = occ(c, 1024, 64, 0);
    expect(&o, 1, LIMIT_REGISTERS);
    ck_assert_double_eq_tol(o.occupancy, 0.5, 1e-12);
    /* shared memory: 20000 -> 20224 (256 B units); 98304 / 20224 = 4 */
    o = occ(c, 256, 0, 20000);
    ck_assert_uint_eq(o.smem_per_block, 20224);
    expect(&o, 4, LIMIT_SHARED_MEM);
    /* over the 48 KB per block: cannot launch */
    o = occ(c, 256, 0, 49153);
    expect(&o, 0, LIMIT_SHARED_MEM);
    config_free(c);
}
END_TEST

/* cc 3.7 allows 64 K registers per block of its 128 K: a block whose warps,
 * rounded up to the 4 schedulers, would need more cannot launch even
 * though the SM has room (cuda_occupancy.h's hardware check). */
START_TEST(k80_per_block_register_check)
{
    GpuConfig *c = load("k80");
    ck_assert_uint_eq(c->regs_per_sm, 131072);
    ck_assert_uint_eq(c->regs_per_block, 65536);
    /* 192 regs: 6144 per warp; 10 warps = 61440 fits the block limit, but
     * 12 warps (rounded to 4) x 6144 = 73728 does not */
    Occupancy o = occ(c, 320, 192, 0);
    expect(&o, 0, LIMIT_REGISTERS);
    /* 8 warps: 49152 for the block; 131072 / 6144 = 21 -> 20 warps; 2 blocks */
    o = occ(c, 256, 192, 0);
    ck_assert_uint_eq(o.regs_per_block, 49152);
    expect(&o, 2, LIMIT_REGISTERS);
    /* 112 KB shared: 40000 -> 40192 (256 B units), 114688 / 40192 = 2 */
    o = occ(c, 128, 0, 40000);
    expect(&o, 2, LIMIT_SHARED_MEM);
    /* 48 KB per block still */
    o = occ(c, 128, 0, 49153);
    expect(&o, 0, LIMIT_SHARED_MEM);
    config_free(c);
}
END_TEST

/* ---------------------------------------------------------- Hopper */

START_TEST(h100_calculator_cases)
{
    GpuConfig *c = load("h100");
    /* 256 threads, 32 regs: 1024 per warp, 64 warps, 8 blocks; 100 % */
    Occupancy o = occ(c, 256, 32, 0);
    expect(&o, 8, LIMIT_WARPS);
    ck_assert_uint_eq(o.limit[LIMIT_REGISTERS], 8);
    ck_assert_uint_eq(o.limit[LIMIT_BLOCKS], 32);
    ck_assert_uint_eq(o.smem_per_block, 1024);          /* the reservation alone */
    ck_assert_uint_eq(o.limit[LIMIT_SHARED_MEM], 228);  /* 233472 / 1024 */
    ck_assert_double_eq_tol(o.occupancy, 1.0, 1e-12);
    /* 128 regs: 4096 per warp, 16 warps, 2 blocks; 25 % */
    o = occ(c, 256, 128, 0);
    ck_assert_uint_eq(o.regs_per_block, 32768);
    expect(&o, 2, LIMIT_REGISTERS);
    ck_assert_double_eq_tol(o.occupancy, 0.25, 1e-12);
    /* 255 regs: 8160 -> 8192 per warp, 8 warps fit: one 256-thread block */
    o = occ(c, 256, 255, 0);
    expect(&o, 1, LIMIT_REGISTERS);
    o = occ(c, 512, 255, 0); /* 131072 > 65536 per block */
    expect(&o, 0, LIMIT_REGISTERS);
    o = occ(c, 256, 256, 0); /* over 255 per thread */
    expect(&o, 0, LIMIT_REGISTERS);
    /* tiny blocks hit the 32 block slots: 32 threads -> warps allow 64 */
    o = occ(c, 32, 16, 0);
    ck_assert_uint_eq(o.limit[LIMIT_WARPS], 64);
    expect(&o, 32, LIMIT_BLOCKS);
    ck_assert_double_eq_tol(o.occupancy, 0.5, 1e-12);
    /* 100 threads are 4 warps */
    o = occ(c, 100, 0, 0);
    ck_assert_uint_eq(o.warps_per_block, 4);
    expect(&o, 16, LIMIT_WARPS);
    /* the whole opt-in maximum: 232448 + 1024 = 233472, exactly one block */
    o = occ(c, 128, 0, 232448);
    expect(&o, 1, LIMIT_SHARED_MEM);
    o = occ(c, 128, 0, 232449);
    expect(&o, 0, LIMIT_SHARED_MEM);
    o = occ(c, 1025, 0, 0);
    expect(&o, 0, LIMIT_WARPS);
    o = occ(c, 0, 0, 0);
    ck_assert_uint_eq(o.blocks_per_sm, 0);
    config_free(c);
}
END_TEST

/* cudaOccupancyMaxActiveBlocksPerMultiprocessor on the lent H200, for a
 * kernel of 8 registers (x[i] *= 2): block sizes, then dynamic shared
 * memory with 128-thread blocks. */
START_TEST(h200_measured)
{
    GpuConfig *c = load("h200");
    const struct { uint32_t threads, smem, blocks; } rows[] = {
        {32, 0, 32}, {64, 0, 32}, {128, 0, 16}, {256, 0, 8}, {512, 0, 4}, {1024, 0, 2},
        {128, 12288, 16}, {128, 24576, 9}, {128, 36864, 6}, {128, 49152, 4},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
        Occupancy o = occ(c, rows[i].threads, 8, rows[i].smem);
        ck_assert_msg(o.blocks_per_sm == rows[i].blocks, "%u threads, %u B: %u blocks, the H200 says %u",
                      rows[i].threads, rows[i].smem, o.blocks_per_sm, rows[i].blocks);
    }
    config_free(c);
}
END_TEST

START_TEST(no_registers_means_no_register_limit)
{
    GpuConfig *c = load("h200");
    Occupancy o = occ(c, 64, 0, 0);
    ck_assert_uint_eq(o.limit[LIMIT_REGISTERS], c->max_blocks_per_sm);
    ck_assert_uint_eq(o.regs_per_block, 0);
    config_free(c);
    c = load("8800gtx");
    o = occ(c, 64, 0, 0);
    ck_assert_uint_eq(o.limit[LIMIT_REGISTERS], 8);
    ck_assert_uint_eq(o.limit[LIMIT_SHARED_MEM], 8); /* nothing to allocate on cc 1.x */
    config_free(c);
}
END_TEST

START_TEST(limiter_names)
{
    ck_assert_str_eq(occupancy_limiter_name(LIMIT_WARPS), "warps");
    ck_assert_str_eq(occupancy_limiter_name(LIMIT_BLOCKS), "blocks");
    ck_assert_str_eq(occupancy_limiter_name(LIMIT_REGISTERS), "registers");
    ck_assert_str_eq(occupancy_limiter_name(LIMIT_SHARED_MEM), "shared memory");
}
END_TEST

static Suite *occupancy_suite(void)
{
    Suite *s = suite_create("occupancy");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, g80_seed_examples);
    tcase_add_test(tc, g80_rounding);
    tcase_add_test(tc, gt200_unit_512);
    tcase_add_test(tc, fermi_per_warp_64);
    tcase_add_test(tc, gtx1060_seed_table);
    tcase_add_test(tc, k80_per_block_register_check);
    tcase_add_test(tc, h100_calculator_cases);
    tcase_add_test(tc, h200_measured);
    tcase_add_test(tc, no_registers_means_no_register_limit);
    tcase_add_test(tc, limiter_names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(occupancy_suite());
}
