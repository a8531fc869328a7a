/* sfu.h — the GPU's special-function unit, bit for bit.
 *
 * Contract: sfu_rcp(), sfu_rsqrt(), sfu_sqrt() and sfu_ex2() take an f32
 * operand's bits and return the bits the H200 gives for rcp, rsqrt, sqrt
 * and ex2 .approx{.ftz}.f32 (ftz: the .ftz form),
 * and sfu_div() those of div.approx{.ftz}.f32 (a times the reciprocal).  The
 * approximations are the hardware's own (the PTX ISA bounds their error,
 * not their bits): measured on the H200 for every mantissa (fraction, for
 * ex2) by tools/sfu-tables and stored in isa/sfu/ against the references
 * of sfu_ref.h.  Other GPUs' SFUs round differently; warpsim gives every
 * configuration the H200's.  Thread-safe; each table (2 MiB) is decoded
 * from the library on its first use.
 */
#ifndef WARPSIM_SFU_H
#define WARPSIM_SFU_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { SFU_RCP, SFU_RSQRT, SFU_SQRT, SFU_EX2 } SfuFn;

uint32_t sfu_rcp(uint32_t a, bool ftz);
uint32_t sfu_rsqrt(uint32_t a, bool ftz);
uint32_t sfu_sqrt(uint32_t a, bool ftz);
uint32_t sfu_ex2(uint32_t a, bool ftz);
uint32_t sfu_div(uint32_t a, uint32_t b, bool ftz);
/* rsqrt.approx.f64: 1/sqrt(a) rounded once (the H200 in 99.95 % of 6 M
 * operands); rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 (rsqrt), of and
 * into f64 bits: the upper 32 bits only, as the ISA defines them (93 % and
 * 94 % of the H200's; the rest one unit of the 20-bit mantissa off) */
double sfu_rsqrt_f64(double a);
uint64_t sfu_upper_f64(uint64_t a, bool rsqrt);
/* fn of a[l] into out[l] for each lane l in `lanes` (a warp at once: the
 * lanes' table reads overlap) */
void sfu_lanes(SfuFn fn, bool ftz, uint32_t lanes, const uint32_t a[32], uint32_t out[32]);

#endif
