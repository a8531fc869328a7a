/* contract.h — ptxas's contraction of a multiply and an add into one fused
 * multiply-add.
 *
 * The PTX ISA lets the code generator fuse a `mul` and an `add` or `sub`
 * (f32 or f64) that have no rounding modifier, and ptxas does, which
 * changes the last bit of results.  contract_module() rewrites every such
 * add of every function into the `fma` ptxas makes of it (opcode OP_FMA,
 * the multiply's operands, FL_NEG_PRODUCT and/or FL_NEG_ADDEND for the
 * signs), by the rules measured on ptxas 13 for sm_90 (SASS of 80 probe
 * kernels):
 *   - the multiply and the add are of one type, f32 or f64, `.ftz` on both
 *     or neither, without a rounding modifier, `.sat`, or a guard on the
 *     multiply;
 *   - they are in one basic block, and nothing between them writes the
 *     multiply's operands;
 *   - every use of the product is such an add (then each is fused: the
 *     product is used by a store, a compare, another multiply... and none
 *     is);
 *   - a `neg` between them folds into the product's sign (FFMA -a, b, c)
 *     when the product's one use is the neg and every use of the neg is
 *     such an add; `abs` does not fold;
 *   - of an add of two products the first fuses (48 probes, whatever
 *     the chains behind either: deeper, farther (up to 60 instructions
 *     apart, its operands used later or not), through selects or MUFU
 *     sequences).  One add of the Black-Scholes kernel (`call`) fuses
 *     the product defined later, whichever operand it is (5 variants of
 *     that kernel), which no probe outside it reproduces: there warpsim
 *     still differs from the GPU.
 * The multiply stays in place (its result may be dead).  Run before
 * schedule_module() and cfg_build(), which see the fused form.
 */
#ifndef WARPSIM_CONTRACT_H
#define WARPSIM_CONTRACT_H

#include "module.h"

void contract_module(Module *m);

#endif
