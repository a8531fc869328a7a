/* contract.h — ptxas's contraction of a multiply and an add into one fused
 * multiply-add.
 *
 * The PTX ISA lets the code generator fuse a `mul.f32` and an `add.f32` or
 * `sub.f32` that have no rounding modifier, and ptxas does, which changes
 * the last bit of results.  contract_module() rewrites every such add of
 * every function into the `fma` ptxas makes of it (opcode OP_FMA, the
 * multiply's operands, FL_NEG_PRODUCT or FL_NEG_ADDEND for a subtraction),
 * by the rules measured on ptxas 13 for sm_90 (SASS of 32 f32 probe kernels):
 *   - the multiply and the add are f32, `.ftz` on both or neither, without
 *     a rounding modifier, `.sat`, or a guard on the multiply;
 *   - they are in one basic block, and nothing between them writes the
 *     multiply's operands;
 *   - every use of the product is such an add (then each is fused: the
 *     product is used by a store, a compare, another multiply... and none
 *     is);
 *   - of an add of two products the first fuses (16 probes, whatever
 *     the chains behind either: deeper, farther, through selects).  One
 *     add of the Black-Scholes kernel (`call`) fuses its second, which no
 *     probe has reproduced: there warpsim still differs from the GPU.
 * The multiply stays in place (its result may be dead).  Run before
 * schedule_module() and cfg_build(), which see the fused form.
 */
#ifndef WARPSIM_CONTRACT_H
#define WARPSIM_CONTRACT_H

#include "module.h"

void contract_module(Module *m);

#endif
