/* smem_banks.h — shared-memory bank conflicts of one warp access.
 *
 * Contract: smem_banks() is a pure function of the lane addresses, the
 * access size and the bank layout.  Shared memory has `banks` banks of
 * `bank_bytes` bytes; successive bank-width words go to successive banks.
 * Since cc 2.0 a wavefront serves at most one word per bank and every
 * lane reading a delivered word (any number of words broadcast, the bytes
 * of one word multicast); accesses wider than a bank are split into phases
 * the way the hardware does (8 B: two half-warps, 16 B: four quarter-warps
 * on 4-byte banks; on 8-byte banks 8 B is one phase, 16 B two).
 * With SMEM_WIDE_QUADS (measured on the H200: tools/hw-measure/shared_wide.cu)
 * an access of 8 or 16 B per lane on 4-byte banks is one phase instead:
 * a wavefront gives each lane at most 8 B and each quad of lanes (0-3,
 * 4-7, ...) at most 16 B of distinct data, so it costs the most of
 * size / 8, the quads' distinct bytes / 16 and the banks' distinct words;
 * the conflicts are what the banks add to the first two (a broadcast
 * float4 is 2 wavefronts, consecutive ones 4, lane & 3 over float2s 2).
 * Before cc 2.0 (half_warp) each half-warp is served alone, wider accesses
 * are split into one 32-bit request per word, and each step serves all
 * lanes inside ONE broadcast word plus one lane per other bank, so lanes
 * sharing any other word, or reading different bytes of it, take a step
 * each; the step count is the least over choices of broadcast word (the
 * guide leaves the choice unspecified).  Reads are modelled (a write to one
 * address by several lanes is one write; the read rule overcounts it on 1.x).
 *   wavefronts = sum over phases of the steps the phase needs: since cc 2.0
 *                the largest number of distinct words any one bank must
 *                deliver (at least 1 per phase with lanes)
 *   conflicts  = wavefronts - phases (the extra wavefronts; Nsight's
 *                l1tex__data_bank_conflicts_pipe_lsu_mem_shared)
 */
#ifndef WARPSIM_SMEM_BANKS_H
#define WARPSIM_SMEM_BANKS_H

#include <stdbool.h>
#include <stdint.h>

#include "coalesce.h"

typedef struct {
    uint32_t wavefronts;    /* l1tex__data_pipe_lsu_wavefronts_mem_shared */
    uint32_t conflicts;     /* extra wavefronts caused by bank conflicts */
} BankResult;

void smem_banks(const WarpAccess *a, uint32_t banks, uint32_t bank_bytes, bool half_warp, SmemWideRule wide,
                BankResult *out);

/* An atomic (atom, red) on shared memory: nothing is broadcast, every
 * lane's update takes its bank words once, lanes on the same address
 * included.  Measured on the H200 (traces/shared_atomics): 32 lanes on one
 * word take 32 wavefronts, as 32 words of one bank do; two lanes per word
 * on 16 words of distinct banks 2, like 32 words two to a bank.
 *   wavefronts = the most lane-words any bank serves, per half-warp before
 *                cc 2.0 (half_warp), summed over them
 *   conflicts  = wavefronts - 1 per (half-)warp with lanes (Nsight's
 *                l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom) */
void smem_atomic_banks(const WarpAccess *a, uint32_t banks, uint32_t bank_bytes, bool half_warp, BankResult *out);

#endif
