/* ptx_parser.h — PTX text to a decoded Module.
 *
 * Contract: the parser accepts the PTX nvcc emits today (ISA 9.0) and the
 * older forms in the reference documents (PTX 1.x `.reg .u16 %rh<4>`,
 * OpenCL-style `.ptr .global` parameters, `.reg` function parameters), and
 * returns a Module whose instructions are fully decoded (module.h): opcode,
 * types and modifier fields from the isa/ tables, operands resolved to
 * register/variable/function indices, immediates as bit patterns of the type
 * they are read at, labels as instruction indices, call sites built and
 * checked against the callee's signature, parameter/local frames laid out.
 *
 * Checks beyond the grammar, as ptxas makes them: operand counts (the isa/
 * shapes, narrowed by modifiers: setp's c only with .and/.or/.xor, atom.cas,
 * .sync member masks), and operand types by the PTX ISA's type-checking
 * rules (a register's size and kind must fit the type its slot holds; ld,
 * st and cvt accept wider integer registers; addresses are 32/64-bit
 * integer registers, 64-bit for .global and generic ones under
 * .address_size 64).  Where a rule is in doubt the PTX is accepted: nvcc's
 * output must always parse.
 *
 * Frame layout: a .func's parameters, then its return values, then the
 * .param variables declared in its body share one per-thread param frame
 * (Function.frame_param_bytes).  For an .entry the kernel parameters come
 * first (their offsets are the launch's parameter buffer layout) and the
 * body's .param variables (call argument blocks) follow them in the same
 * frame.  Body .local variables are laid out in Function.frame_local_bytes.
 * Module-scope and body .shared variables keep offset 0 (the loader and the
 * launch lay them out).
 *
 * Errors: NULL is returned with WS_ERR_INPUT (malformed PTX),
 * WS_ERR_UNSUPPORTED (valid PTX outside the subset, e.g. an unknown opcode)
 * or WS_ERR_IO (unreadable file); messages read
 * "file:line:col: error: ..." and name the offending token.
 */
#ifndef WARPSIM_PTX_PARSER_H
#define WARPSIM_PTX_PARSER_H

#include <glib.h>

#include "module.h"

Module *ptx_parse_file(const char *path, GError **error);
/* `name` is the file name used in messages and stored as Module.path. */
Module *ptx_parse_string(const char *text, const char *name, GError **error);
/* ptx_parse_string with deferral: an instruction outside warpsim's subset
 * marks its function (Function.unsupported_insn; module_func_runnable says
 * why) instead of failing the module, so the module's other functions load
 * and run; the CUDA runtime parses with it.  Malformed PTX still fails. */
Module *ptx_parse_string_deferring(const char *text, const char *name, GError **error);

#endif
