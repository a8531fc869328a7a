#!/usr/bin/env python3
# gen_malformed.py — regenerates tests/ptx/malformed/*.ptx.
#
# Usage: python3 tests/ptx/gen_malformed.py tests/ptx/malformed
#
# Each case is written by hand: a name, the PTX source with the marker ^^
# placed where the error must be reported, the expected message and its class
# (input = WS_ERR_INPUT, unsupported = WS_ERR_UNSUPPORTED).  The marker is
# removed; its line:col (counting the two header lines) becomes the
# expectation on the file's first line, which test_parser.c compares with the
# parser's message.  The parser is never run here, so expectations cannot
# drift to whatever the code happens to print.
import os, sys
OUT = sys.argv[1]
HDR = ".version 9.0\n.target sm_90\n.address_size 64\n"
def kern(body, extra_top=""):
    return (HDR + extra_top + ".visible .entry k(.param .u64 k_p0)\n{\n"
            "\t.reg .b32 %r<4>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
            + body + "\tret;\n}\n")
FUNC_F = ".func (.param .b32 f_ret) f(.param .b32 f_a)\n{\n\tret;\n}\n"
cases = [
 ("unknown_opcode", kern("\t^^frob.b32 %r1, %r2;\n"), "unknown instruction 'frob'", "unsupported"),
 ("unknown_modifier", kern("\t^^add.foo.s32 %r1, %r2, %r3;\n"), "unknown modifier '.foo' in 'add.foo.s32'", "unsupported"),
 ("modifier_not_allowed", kern("\t^^add.wide.s32 %r1, %r2, %r3;\n"), "modifier '.wide' is not allowed for 'add' in 'add.wide.s32'", "input"),
 ("wrong_type", kern("\t^^and.f32 %f1, %f2, %f3;\n"), "type '.f32' is not allowed for 'and' in 'and.f32'", "input"),
 ("missing_type", kern("\t^^add %r1, %r2, %r3;\n"), "'add' needs 1 type suffix, got 0", "input"),
 ("cvt_one_type", kern("\t^^cvt.f32 %f1, %r1;\n"), "'cvt.f32' needs 2 type suffixes, got 1", "input"),
 ("too_many_types", kern("\t^^add.s32.s32 %r1, %r2, %r3;\n"), "too many type suffixes in 'add.s32.s32' ('add' takes 1)", "input"),
 ("too_few_operands", kern("\t^^add.s32 %r1, %r2;\n"), "'add.s32' expects 3 operands, got 2", "input"),
 ("too_many_operands", kern("\tadd.s32 %r1, %r2, %r3, ^^%r0;\n"), "too many operands for 'add.s32' (expects 3)", "input"),
 ("setp_too_few", kern("\t^^setp.lt.s32 %p1, %r1;\n"), "'setp.lt.s32' expects 3 operands, got 2", "input"),
 ("undefined_register", kern("\tadd.s32 %r1, %r2, ^^%r9;\n"), "undefined register '%r9'", "input"),
 ("undefined_dest_register", kern("\tmov.u32 ^^%q1, %r2;\n"), "undefined register '%q1'", "input"),
 ("undefined_label", kern("\tbra ^^L_nowhere;\n"), "undefined label 'L_nowhere'", "input"),
 ("duplicate_label", kern("L1:\n\tadd.s32 %r1, %r2, %r3;\n^^L1:\n"), "duplicate label 'L1'", "input"),
 ("duplicate_register", kern("\t.reg .b32 %x;\n\t.reg .b32 ^^%x;\n"), "duplicate declaration of '%x'", "input"),
 ("duplicate_register_range", kern("\t.reg .b32 ^^%r2;\n"), "duplicate declaration of '%r2'", "input"),
 ("duplicate_global", HDR + ".global .u32 g;\n.global .f32 ^^g;\n", "duplicate declaration of 'g'", "input"),
 ("duplicate_local", kern("\t.local .u32 buf;\n\t.local .u32 ^^buf;\n"), "duplicate declaration of 'buf'", "input"),
 ("duplicate_param", HDR + ".entry k2(.param .u32 a, .param .u32 ^^a)\n{\n\tret;\n}\n", "duplicate declaration of 'a'", "input"),
 ("unterminated_comment", kern("\t^^/* this comment never ends\n\tadd.s32 %r1, %r2, %r3;\n"), "unterminated comment", "input"),
 ("unterminated_string", HDR + ".file 1 ^^\"/tmp/x.cu\n", "unterminated string", "input"),
 ("unterminated_brace", HDR + ".entry k3()\n^^{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n\t{\n\tret;\n}\n",
    None, "input"),
 ("truncated_file", HDR + ".entry k4()\n{\n\t.reg .b32 %r<3>;\n\tadd.s32 %r1, ^^", "operand 2 of 'add.s32' must be a source operand but found end of file", "input"),
 ("truncated_decl", HDR + ".global .u32 ^^", "expected a name in declaration but found end of file", "input"),
 ("bad_number", kern("\tadd.s32 %r1, %r2, ^^12abc;\n"), "bad number '12abc'", "input"),
 ("bad_float_bits", kern("\tadd.f32 %f1, %f2, ^^0f3F80;\n"), "bad number '0f3F80'", "input"),
 ("bad_octal", kern("\tadd.s32 %r1, %r2, ^^0789;\n"), "bad number '0789'", "input"),
 ("number_overflow", kern("\tadd.s32 %r1, %r2, ^^99999999999999999999999;\n"), "bad number '99999999999999999999999'", "input"),
 ("float_for_integer", kern("\tadd.s32 %r1, %r2, ^^1.5;\n"), "floating-point literal where an integer is expected", "input"),
 ("half_float_literal", kern("\t.reg .b16 %h<3>;\n\tadd.f16 %h1, %h2, ^^0f3F800000;\n"), "floating-point literal for a .f16 operand is not supported (use its bit pattern)", "unsupported"),
 ("missing_semicolon", kern("\tadd.s32 %r1, %r2, %r3\n\t^^mov.u32 %r1, 0;\n"), "expected ';' but found 'mov.u32'", "input"),
 ("call_arity", HDR + FUNC_F + ".entry k5()\n{\n\t.reg .b32 %r<2>;\n\t{\n\t.param .b32 a0;\n\t.param .b32 a1;\n\t.param .b32 r0;\n\t^^call.uni (r0), f, (a0, a1);\n\t}\n\tret;\n}\n",
    "call to 'f' passes 2 arguments but it takes 1", "input"),
 ("call_missing_return", HDR + FUNC_F + ".entry k6()\n{\n\t{\n\t.param .b32 a0;\n\t^^call.uni f, (a0);\n\t}\n\tret;\n}\n",
    "call to 'f' expects 0 return values but it returns 1", "input"),
 ("call_undeclared", kern("\tcall.uni ^^nothere, ();\n"), "call to undeclared function 'nothere'", "input"),
 ("call_bad_prototype", kern("\tcall.uni %rd1, (), ^^proto_x;\n"), "undefined call prototype 'proto_x'", "input"),
 ("indirect_call_mismatch", kern("\tproto_1 : .callprototype (.param .b32 _) _ (.param .b32 _);\n\t{\n\t.param .b32 q0;\n\t.param .b32 q1;\n\t^^call (q0), %rd1, (q0, q1), proto_1;\n\t}\n"),
    "indirect call does not match its prototype (1 argument, 1 return value expected)", "input"),
 ("ld_needs_memory", kern("\tld.global.f32 %f1, ^^%rd1;\n"), "operand 2 of 'ld.global.f32' must be a memory reference [...]", "input"),
 ("st_needs_memory", kern("\tst.global.f32 ^^%rd1, %f1;\n"), "operand 1 of 'st.global.f32' must be a memory reference [...]", "input"),
 ("dest_immediate", kern("\tmov.u32 ^^5, %r1;\n"), "operand 1 of 'mov.u32' must be a destination register", "input"),
 ("dest_special_register", kern("\tmov.u32 ^^%tid.x, %r1;\n"), "operand 1 of 'mov.u32' must be a destination register", "input"),
 ("branch_to_number", kern("\tbra ^^5;\n"), "operand 1 of 'bra' must be a label", "input"),
 ("guard_not_predicate", kern("L0:\n\t@^^%r1 bra L0;\n"), "guard '%r1' is not a predicate register", "input"),
 ("vector_width_mismatch", kern("\t^^ld.global.v4.f32 {%f1, %f2}, [%rd1];\n"), "'ld.global.v4.f32' moves 4 elements but its operand has 2", "input"),
 ("vector_three", kern("\tld.global.v4.f32 ^^{%f1, %f2, %f3}, [%rd1];\n"), "vector operand must have 2 or 4 elements, not 3", "input"),
 ("vector_not_allowed", kern("\tadd.f32 %f1, ^^{%f2, %f3}, %f1;\n"), "operand 2 of 'add.f32' must be a source operand", "input"),
 ("unknown_special_register", kern("\tmov.u32 %r1, ^^%tidd.x;\n"), "undefined register '%tidd.x'", "input"),
 ("bad_sreg_component", kern("\tmov.u32 %r1, ^^%tid.w;\n"), "undefined register '%tid.w'", "input"),
 ("sink_as_source", kern("\tadd.s32 %r1, ^^_, %r2;\n"), "'_' is only allowed in destinations", "input"),
 ("instruction_outside_function", HDR + "^^add.s32 %r1, %r2, %r3;\n", "instruction or label 'add.s32' outside a function", "input"),
 ("stray_close_brace", HDR + "^^}\n", "unexpected '}' at module scope", "input"),
 ("unsupported_directive", HDR + "^^.alias a, b;\n", "unsupported directive '.alias'", "unsupported"),
 ("bad_address_size", ".version 9.0\n.target sm_90\n.address_size ^^48\n", ".address_size must be 32 or 64", "input"),
 ("bad_version", "^^.version x\n", None, "input"),
 ("too_many_initialisers", HDR + ".global .u32 a[2] ^^= {1, 2, 3};\n", "too many initialisers for 'a' (3 for 2 elements)", "input"),
 ("initialiser_undefined_symbol", HDR + ".global .u64 p = generic(^^nope);\n", "undefined symbol 'nope' in initialiser", "input"),
 ("initialiser_empty", HDR + ".global .u32 a[2] = {^^};\n", "empty initialiser list", "input"),
 ("undefined_memory_symbol", kern("\tld.param.u32 %r1, [^^nope];\n"), "undefined symbol 'nope'", "input"),
 ("unexpected_character", kern("\t^^#include <x>\n"), "unexpected character '#'", "input"),
 ("prototype_mismatch", HDR + ".func f(.param .b32 a);\n.func ^^f(.param .b32 a, .param .b32 b)\n{\n\tret;\n}\n", "'f' does not match its earlier declaration", "input"),
 ("duplicate_function", HDR + ".func g()\n{\n\tret;\n}\n.func ^^g()\n{\n\tret;\n}\n", "duplicate definition of function 'g'", "input"),
 ("missing_decl_type", kern("\t.reg ^^%x;\n"), "expected a type in declaration but found '%x'", "input"),
 ("bad_alignment", HDR + ".global .align ^^3 .u32 g;\n", "alignment 3 is not a power of two", "input"),
 ("empty_suffix", kern("\t^^add..s32 %r1, %r2, %r3;\n"), "empty suffix in 'add..s32'", "input"),
 ("unsized_inner_dimension", HDR + ".global .u32 a[2]^^[];\n", "only the first array dimension may be omitted", "input"),
 ("unterminated_section", HDR + "^^.section .debug_info\n{\n.b8 1\n", "unterminated .section (missing '}')", "input"),
 ("directive_in_body", kern("\t^^.version 9.0\n"), "unexpected directive '.version' in a function body", "input"),
 ("not_a_register", HDR + ".global .u32 gv;\n" + ".entry k7()\n{\n\t.reg .pred %p1;\n\t@^^gv bra L;\nL:\n\tret;\n}\n", "'gv' is not a register", "input"),
 ("global_in_body", kern("\t^^.global .u32 inner;\n"), "'.global' variables inside a function are not supported", "unsupported"),
 ("vector_register", kern("\t.reg .v4 .f32 ^^%v;\n"), "vector registers are not supported", "unsupported"),
 ("ret_missing_semicolon", HDR + ".entry k()\n{\n\tret\n^^}\n", "expected ';' but found '}'", "input"),
 ("texref", HDR + ".global ^^.texref tex0;\n", "'.texref' variables are not supported", "unsupported"),
 ("redeclared_function_mismatch", HDR + ".func (.param .b32 r) h(.param .b32 a);\n.func ^^h(.param .b32 a);\n", "'h' does not match its earlier declaration", "input"),
 ("unmodelled_special_register", kern("\tmov.u32 %r1, ^^%pm0;\n"), "special register '%pm0' is not supported", "unsupported"),
 ("vector_nonzero_immediate", kern("\t.reg .b16 %h1;\n\tmov.b32 %r1, {^^1, %h1};\n"), "non-zero immediate inside a vector operand", "unsupported"),
]

# Issue 5's list: truncations, unknown directives/instructions/modifiers,
# vector sizes, undefined labels and registers, duplicates, .entry parameter
# lists, stray characters and bytes, very long tokens, deep nesting.
# EOF_BRACE: the marker is the '{' left open; the error is at end of file.
EOF_BRACE = object()
LONG = "x" * 4100      # longer than any fixed 4 KiB buffer
HEX_BYTE = "\udcff"    # written as the single byte 0xff (not UTF-8)
def trunc(body):
    return HDR + ".entry k()\n{\n\t.reg .b32 %r<3>;\n" + body
cases += [
 # truncated files
 ("trunc_mid_opcode", trunc("\t^^ad"), "unknown instruction 'ad'", "unsupported"),
 ("trunc_mid_modifier", trunc("\t^^add.s"), "unknown modifier '.s' in 'add.s'", "unsupported"),
 ("trunc_mid_register", trunc("\tadd.s32 %r1, ^^%r"), "undefined register '%r'", "input"),
 ("trunc_mid_memref", HDR + ".entry k(.param .u64 a)\n{\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [a^^",
    "expected ']' but found end of file", "input"),
 ("trunc_mid_directive", trunc("\t.reg ^^.b3"), "expected a type in declaration but found '.b3'", "input"),
 ("trunc_reg_range", HDR + ".entry k()\n{\n\t.reg .b32 %r<3^^", "expected '>' but found end of file", "input"),
 ("trunc_mid_params", HDR + ".entry k(.param .u64 a,^^", "expected a parameter (.param) but found end of file", "input"),
 ("trunc_after_entry", HDR + ".visible .entry^^", "expected a function name but found end of file", "input"),
 ("trunc_mid_initialiser", HDR + ".global .u32 a[2] = {1, 2^^", "expected '}' but found end of file", "input"),
 ("trunc_mid_hex", trunc("\tmov.b32 %r1, ^^0x"), "bad number '0x'", "input"),
 ("trunc_mid_float_bits", trunc("\tmov.b32 %r1, ^^0f3F80"), "bad number '0f3F80'", "input"),
 ("trunc_version", ".version^^", "expected a version number but found end of file", "input"),
 ("trunc_target", ".version 9.0\n.target^^", "expected a target name but found end of file", "input"),
 ("trunc_after_guard", HDR + ".entry k()\n{\n\t.reg .pred %p<3>;\n\t@%p1^^", "expected an instruction but found end of file", "input"),
 ("trunc_mid_vector", HDR + ".entry k()\n{\n\t.reg .f32 %f<5>;\n\t.reg .b64 %rd<2>;\n\tld.global.v2.f32 {%f1, ^^",
    "expected a register in vector but found end of file", "input"),
 ("trunc_missing_final_brace", HDR + ".entry k()\n^^{\n\t.reg .b32 %r<3>;\n\tret;\n", EOF_BRACE, "input"),
 ("trunc_outer_brace", HDR + ".entry k()\n^^{\n\t.reg .b32 %r<3>;\n\t{\n\t.reg .b32 %x;\n\tret;\n}\n", EOF_BRACE, "input"),
 # unknown directives, instructions, modifiers
 ("unknown_directive_module", HDR + "^^.frobnicate 3;\n", "unsupported directive '.frobnicate'", "unsupported"),
 ("unknown_directive_body", kern("\t^^.frob 1;\n"), "unexpected directive '.frob' in a function body", "input"),
 ("unknown_param_directive", HDR + ".entry k(^^.parm .u32 a)\n{\n\tret;\n}\n", "expected a parameter (.param) but found '.parm'", "input"),
 ("unknown_type", HDR + ".global ^^.u31 g;\n", "expected a type in declaration but found '.u31'", "input"),
 ("unknown_register_type", kern("\t.reg ^^.i32 %x;\n"), "expected a type in declaration but found '.i32'", "input"),
 ("unknown_opcode_typo", kern("\t^^adds.s32 %r1, %r2, %r3;\n"), "unknown instruction 'adds'", "unsupported"),
 ("unknown_state_space", kern("\t^^ld.globl.f32 %f1, [%rd1];\n"), "unknown modifier '.globl' in 'ld.globl.f32'", "unsupported"),
 ("unknown_rounding", kern("\t^^add.rx.f32 %f1, %f2, %f3;\n"), "unknown modifier '.rx' in 'add.rx.f32'", "unsupported"),
 ("unknown_comparison", kern("\t^^setp.lte.s32 %p1, %r1, %r2;\n"), "unknown modifier '.lte' in 'setp.lte.s32'", "unsupported"),
 ("unknown_type_suffix", kern("\t^^add.s33 %r1, %r2, %r3;\n"), "unknown modifier '.s33' in 'add.s33'", "unsupported"),
 ("entry_inside_entry", kern("\t^^.entry inner()\n\t{\n\tret;\n\t}\n"), "unexpected directive '.entry' in a function body", "input"),
 # vector sizes
 ("vector_v8", kern("\t^^ld.global.v8.f32 {%f1, %f2}, [%rd2];\n"), "unknown modifier '.v8' in 'ld.global.v8.f32'", "unsupported"),
 ("vector_v3", kern("\t^^st.global.v3.f32 [%rd2], {%f1, %f2, %f3};\n"), "unknown modifier '.v3' in 'st.global.v3.f32'", "unsupported"),
 ("vector_too_few_for_v2", kern("\tld.global.v2.f32 ^^{%f1}, [%rd1];\n"), "vector operand must have 2 or 4 elements, not 1", "input"),
 ("vector_nested", kern("\tmov.b64 %rd1, {^^" + "{" * 3000 + "%r1, %r2" + "}" * 3000 + "};\n"),
    "expected a register in vector but found '{'", "input"),
 # undefined labels and registers
 ("undefined_label_guarded", kern("\t@%p1 bra ^^$L__BB0_9;\n"), "undefined label '$L__BB0_9'", "input"),
 ("undefined_label_other_function", HDR + ".func f()\n{\nLf:\n\tret;\n}\n.entry k()\n{\n\tbra ^^Lf;\n\tret;\n}\n",
    "undefined label 'Lf'", "input"),
 ("undefined_register_past_range", kern("\tadd.s32 %r1, %r2, ^^%r4;\n"), "undefined register '%r4'", "input"),
 ("undefined_predicate_past_range", kern("\t@^^%p2 bra L;\nL:\n"), "undefined register '%p2'", "input"),
 ("undefined_register_in_address", kern("\tld.global.f32 %f1, [^^%rd7+4];\n"), "undefined symbol '%rd7'", "input"),
 ("undefined_register_in_vector", kern("\tld.global.v2.f32 {%f1, ^^%g2}, [%rd1];\n"), "undefined register '%g2'", "input"),
 ("undefined_register_out_of_scope", kern("\t{\n\t.reg .b32 %inner;\n\t}\n\tmov.u32 ^^%inner, 1;\n"), "undefined register '%inner'", "input"),
 ("undefined_register_other_function", HDR + ".func f()\n{\n\t.reg .b32 %fr;\n\tret;\n}\n.entry k()\n{\n\tmov.u32 ^^%fr, 1;\n\tret;\n}\n",
    "undefined register '%fr'", "input"),
 ("undefined_param", kern("\tld.param.u64 %rd1, [^^k_p1];\n"), "undefined symbol 'k_p1'", "input"),
 ("guard_negated_not_predicate", kern("L0:\n\t@!^^%r1 bra L0;\n"), "guard '%r1' is not a predicate register", "input"),
 ("guard_immediate", kern("\t@^^1 bra L;\nL:\n"), "expected a predicate after '@' but found '1'", "input"),
 ("call_a_variable", HDR + ".global .u32 g;\n.entry k()\n{\n\tcall ^^g, ();\n\tret;\n}\n", "call to undeclared function 'g'", "input"),
 # duplicate definitions
 ("duplicate_label_nested_block", kern("L1:\n\t{\n^^L1:\n\t}\n"), "duplicate label 'L1'", "input"),
 ("duplicate_register_ranges", kern("\t.reg .b32 %s<3>;\n\t.reg .f32 ^^%s<2>;\n"), "duplicate declaration of '%s0'", "input"),
 ("duplicate_shared", kern("\t.shared .u32 sm[4];\n\t.shared .f32 ^^sm[4];\n"), "duplicate declaration of 'sm'", "input"),
 ("duplicate_const_global", HDR + ".const .u32 c;\n.global .u32 ^^c;\n", "duplicate declaration of 'c'", "input"),
 ("duplicate_entry", HDR + ".entry k()\n{\n\tret;\n}\n.entry ^^k()\n{\n\tret;\n}\n", "duplicate definition of function 'k'", "input"),
 ("duplicate_func_entry", HDR + ".func k()\n{\n\tret;\n}\n.entry ^^k()\n{\n\tret;\n}\n", "'k' does not match its earlier declaration", "input"),
 ("duplicate_variable_function", HDR + ".global .u32 f;\n.func ^^f()\n{\n\tret;\n}\n", "duplicate declaration of 'f'", "input"),
 # .entry parameter lists
 ("param_missing_type", HDR + ".entry k(.param ^^a)\n{\n\tret;\n}\n", "expected a type in declaration but found 'a'", "input"),
 ("param_missing_name", HDR + ".entry k(.param .u32^^)\n{\n\tret;\n}\n", "expected a parameter name but found ')'", "input"),
 ("param_missing_comma", HDR + ".entry k(.param .u32 a ^^.param .u32 b)\n{\n\tret;\n}\n", "expected ')' but found '.param'", "input"),
 ("param_trailing_comma", HDR + ".entry k(.param .u32 a,^^)\n{\n\tret;\n}\n", "expected a parameter (.param) but found ')'", "input"),
 ("param_reg_in_entry", HDR + ".entry k(^^.reg .u32 a)\n{\n\tret;\n}\n", "expected a parameter (.param) but found '.reg'", "input"),
 ("param_list_unclosed", HDR + ".entry k(.param .u32 a\n^^{\n\tret;\n}\n", "expected ')' but found '{'", "input"),
 ("param_array_unclosed", HDR + ".entry k(.param .align 8 .b8 a[16^^)\n{\n\tret;\n}\n", "expected ']' but found ')'", "input"),
 ("param_align_zero", HDR + ".entry k(.param .align ^^0 .b8 a[16])\n{\n\tret;\n}\n", "alignment 0 is not a power of two", "input"),
 ("param_bad_ptr_space", HDR + ".entry k(.param .u64 .ptr ^^.glob .align 4 a)\n{\n\tret;\n}\n", "expected a parameter name but found '.glob'", "input"),
 ("entry_return_value", HDR + ".entry ^^(.param .u32 r) k()\n{\n\tret;\n}\n", "expected a function name but found '('", "input"),
 ("entry_numeric_name", HDR + ".entry ^^5k()\n{\n\tret;\n}\n", "expected a function name but found '5k'", "input"),
 ("maxntid_not_number", HDR + ".entry k() .maxntid ^^abc\n{\n\tret;\n}\n", "expected a number but found 'abc'", "input"),
 ("reqntid_too_big", HDR + ".entry k() .reqntid ^^99999999999\n{\n\tret;\n}\n", "expected an integer from 0 to 4294967295", "input"),
 # stray characters and bytes
 ("stray_backtick", kern("\tadd.s32 %r1, %r2, ^^`%r3;\n"), "unexpected character '`'", "input"),
 ("stray_backslash", kern("\tadd.s32 %r1, %r2, %r3; ^^\\\n"), "unexpected character '\\'", "input"),
 ("stray_colon", kern("\t^^: add.s32 %r1, %r2, %r3;\n"), "unexpected ':' in a function body", "input"),
 ("stray_open_brace_module", HDR + "^^{\n}\n", "unexpected '{' at module scope", "input"),
 ("stray_comma", kern("\tadd.s32 %r1,^^, %r2, %r3;\n"), "operand 2 of 'add.s32' must be a source operand but found ','", "input"),
 ("stray_close_paren", kern("\tadd.s32 %r1, %r2, %r3^^);\n"), "expected ';' but found ')'", "input"),
 ("stray_bracket", kern("\tld.global.f32 %f1, [^^[%rd1]];\n"), "expected a number but found '['", "input"),
 ("address_unclosed", kern("\tld.global.f32 %f1, [%rd1^^;\n"), "expected ']' but found ';'", "input"),
 ("address_empty", kern("\tld.global.f32 %f1, [^^];\n"), "expected a number but found ']'", "input"),
 ("address_double_plus", kern("\tld.global.f32 %f1, [%rd1+^^+4];\n"), "expected a number but found '+'", "input"),
 ("non_utf8_byte", kern("\tadd.s32 %r1, %r2, %r3; ^^" + HEX_BYTE + "\udcfe\n"), "unexpected byte 0xff", "input"),
 ("non_utf8_in_name", kern("\tmov.u32 %r^^\udce91, 1;\n"), "unexpected byte 0xe9", "input"),
 ("utf8_in_name", kern("\tmov.u32 %r^^\u00e9, 1;\n"), "unexpected byte 0xc3", "input"),
 # extremely long tokens, deep nesting
 ("long_register_name", kern("\tmov.u32 ^^%" + LONG + ", 1;\n"), "undefined register '%" + LONG + "'", "input"),
 ("long_label_name", kern("\tbra ^^" + LONG + ";\n"), "undefined label '" + LONG + "'", "input"),
 ("long_number", kern("\tmov.u32 %r1, ^^" + "9" * 4100 + ";\n"), "bad number '" + "9" * 4100 + "'", "input"),
 ("long_opcode", kern("\t^^" + LONG + ".b32 %r1, 1;\n"), "unknown instruction '" + LONG + "'", "unsupported"),
 ("long_string", HDR + ".file 1 ^^\"" + "a" * 8000 + "\n", "unterminated string", "input"),
 ("many_type_suffixes", kern("\t^^add" + ".s32" * 600 + " %r1, %r2, %r3;\n"),
    "too many type suffixes in 'add" + ".s32" * 600 + "' ('add' takes 1)", "input"),
 ("many_operands", kern("\tadd.s32 %r1, %r2, %r2, ^^%r2" + ", %r2" * 2000 + ";\n"), "too many operands for 'add.s32' (expects 3)", "input"),
 ("deep_blocks_error", kern("\t" + "{\n" * 3000 + "\tmov.u32 %r1, ^^%zz;\n" + "}\n" * 3000), "undefined register '%zz'", "input"),
 ("deep_blocks_unclosed", HDR + ".entry k()\n^^{\n\t" + "{\n" * 3000, EOF_BRACE, "input"),
 ("register_range_too_big", kern("\t.reg .b32 %z<^^4000000000>;\n"), "expected an integer from 0 to 16777216", "input"),
 ("array_too_big", HDR + ".global .u32 a[^^4000000000000];\n", "expected an integer from 0 to 4294967295", "input"),
 ("array_negative", HDR + ".global .u32 a[^^-4];\n", "expected an integer from 0 to 4294967295", "input"),
 ("label_at_module_scope", HDR + "^^L0:\n", "instruction or label 'L0' outside a function", "input"),
]

# Operand types (PTX ISA "Type Checking Rules"), operand counts the
# modifiers fix, labels, and line counting with CRLF and bare-CR line ends.
# EXTRA_REGS adds registers kern() does not declare.
EXTRA_REGS = "\t.reg .f64 %fd<3>;\n\t.reg .s32 %s<3>;\n\t.reg .b16 %rs<3>;\n"
def kx(body):
    return kern(EXTRA_REGS + body)
# files written with other line ends than LF (after the two header lines)
LINE_ENDS = {}
cases += [
 # a register whose type does not fit the slot
 ("type_f32_reg_for_s32", kern("\tadd.s32 %r1, ^^%f1, %r2;\n"), "operand 2 of 'add.s32' has type .s32 but register '%f1' is .f32", "input"),
 ("type_mov_u32_64bit_dest", kern("\tmov.u32 ^^%rd1, %r1;\n"), "operand 1 of 'mov.u32' has type .u32 but register '%rd1' is .b64", "input"),
 ("type_pred_for_f32", kern("\tadd.f32 %f1, %f2, ^^%p1;\n"), "operand 3 of 'add.f32' has type .f32 but register '%p1' is .pred", "input"),
 ("type_s32_reg_for_f32", kx("\tadd.f32 %f1, %f2, ^^%s1;\n"), "operand 3 of 'add.f32' has type .f32 but register '%s1' is .s32", "input"),
 ("type_setp_f64_source", kern("\tsetp.lt.f64 %p1, ^^%f1, %f2;\n"), "operand 2 of 'setp.lt.f64' has type .f64 but register '%f1' is .f32", "input"),
 ("type_setp_dest_not_pred", kern("\tsetp.lt.s32 ^^%r1, %r2, %r3;\n"), "operand 1 of 'setp.lt.s32' has type .pred but register '%r1' is .b32", "input"),
 ("type_selp_selector", kern("\tselp.b32 %r1, %r2, %r3, ^^%r1;\n"), "operand 4 of 'selp.b32' has type .pred but register '%r1' is .b32", "input"),
 ("type_testp_dest", kern("\ttestp.finite.f32 ^^%r1, %f1;\n"), "operand 1 of 'testp.finite.f32' has type .pred but register '%r1' is .b32", "input"),
 ("type_mul_wide_dest", kern("\tmul.wide.s32 ^^%r1, %r2, %r3;\n"), "operand 1 of 'mul.wide.s32' has type .s64 but register '%r1' is .b32", "input"),
 ("type_mad_wide_addend", kern("\tmad.wide.u32 %rd1, %r1, %r2, ^^%r3;\n"), "operand 4 of 'mad.wide.u32' has type .u64 but register '%r3' is .b32", "input"),
 ("type_shift_amount_64", kern("\tshl.b64 %rd1, %rd2, ^^%rd3;\n"), "operand 3 of 'shl.b64' has type .u32 but register '%rd3' is .b64", "input"),
 ("type_popc_dest", kern("\tpopc.b64 ^^%rd1, %rd2;\n"), "operand 1 of 'popc.b64' has type .u32 but register '%rd1' is .b64", "input"),
 ("type_bfe_position", kern("\tbfe.u64 %rd1, %rd2, ^^%rd3, 8;\n"), "operand 3 of 'bfe.u64' has type .u32 but register '%rd3' is .b64", "input"),
 ("type_prmt_selector", kern("\tprmt.b32 %r1, %r2, %r3, ^^%rd1;\n"), "operand 4 of 'prmt.b32' has type .b32 but register '%rd1' is .b64", "input"),
 ("type_vote_mask", kern("\tvote.sync.ballot.b32 %r1, %p1, ^^%rd1;\n"), "operand 3 of 'vote.sync.ballot.b32' has type .b32 but register '%rd1' is .b64", "input"),
 ("type_vote_source", kern("\tvote.sync.any.pred %p1, ^^%r1, -1;\n"), "operand 2 of 'vote.sync.any.pred' has type .pred but register '%r1' is .b32", "input"),
 ("type_atom_value", kern("\tatom.global.add.u32 %r1, [%rd1], ^^%f1;\n"), "operand 3 of 'atom.global.add.u32' has type .u32 but register '%f1' is .f32", "input"),
 ("type_cvta_dest", kern("\tcvta.to.global.u64 ^^%r1, %rd1;\n"), "operand 1 of 'cvta.to.global.u64' has type .u64 but register '%r1' is .b32", "input"),
 ("type_cvt_source", kern("\tcvt.rn.f32.s32 %f1, ^^%f2;\n"), "operand 2 of 'cvt.rn.f32.s32' has type .s32 but register '%f2' is .f32", "input"),
 ("type_cvt_narrow_dest", kern("\tcvt.u64.u32 ^^%r1, %r2;\n"), "operand 1 of 'cvt.u64.u32' has type .u64 but register '%r1' is .b32", "input"),
 ("type_ld_f32_into_f64", kx("\tld.global.f32 ^^%fd1, [%rd1];\n"), "operand 1 of 'ld.global.f32' has type .f32 but register '%fd1' is .f64", "input"),
 ("type_ld_u32_into_16bit", kx("\tld.global.u32 ^^%rs1, [%rd1];\n"), "operand 1 of 'ld.global.u32' has type .u32 but register '%rs1' is .b16", "input"),
 ("type_st_f64_from_f32", kern("\tst.global.f64 [%rd1], ^^%f1;\n"), "operand 2 of 'st.global.f64' has type .f64 but register '%f1' is .f32", "input"),
 ("type_ld_vector_element", kern("\tld.global.v2.f32 {%f1, ^^%p1}, [%rd1];\n"), "element 2 of operand 1 of 'ld.global.v2.f32' has type .f32 but register '%p1' is .pred", "input"),
 ("type_mov_pack_element", kern("\tmov.b64 %rd1, {%r1, ^^%rd2};\n"), "element 2 of operand 2 of 'mov.b64' must be a 32-bit register but '%rd2' is .b64", "input"),
 ("type_mov_unpack_element", kx("\tmov.b32 {%rs1, ^^%r2}, %r1;\n"), "element 2 of operand 1 of 'mov.b32' must be a 16-bit register but '%r2' is .b32", "input"),
 ("type_sreg_as_f32", kern("\tmov.f32 %f1, ^^%tid.x;\n"), "operand 2 of 'mov.f32' has type .f32 but special register '%tid.x' is .u32", "input"),
 ("type_sreg_as_u64", kern("\tmov.u64 %rd1, ^^%ntid.y;\n"), "operand 2 of 'mov.u64' has type .u64 but special register '%ntid.y' is .u32", "input"),
 ("type_pair_not_pred", kern("\tshfl.sync.down.b32 %r1|^^%r2, %r3, 1, 31, -1;\n"), "operand 1 of 'shfl.sync.down.b32': '%r2' after '|' must be a predicate register but is .b32", "input"),
 ("type_negated_not_pred", kern("\tand.b32 %r1, %r1, ^^!%r2;\n"), "'!' needs a predicate register but '%r2' is .b32", "input"),
 # addresses
 ("addr_32bit_global", kern("\tld.global.f32 %f1, [^^%r1];\n"), "address register '%r1' of 'ld.global.f32' is 32-bit but .global addresses are 64-bit (.address_size 64)", "input"),
 ("addr_32bit_generic", kern("\tst.u32 [^^%r1+4], %r2;\n"), "address register '%r1' of 'st.u32' is 32-bit but generic addresses are 64-bit (.address_size 64)", "input"),
 ("addr_32bit_atom", kern("\tatom.global.add.u32 %r1, [^^%r2], 1;\n"), "address register '%r2' of 'atom.global.add.u32' is 32-bit but .global addresses are 64-bit (.address_size 64)", "input"),
 ("addr_float_register", kern("\tld.shared.f32 %f1, [^^%f2];\n"), "address register '%f2' of 'ld.shared.f32' must be a 32- or 64-bit integer register, not .f32", "input"),
 ("addr_pred_register", kern("\tld.global.u32 %r1, [^^%p1];\n"), "address register '%p1' of 'ld.global.u32' must be a 32- or 64-bit integer register, not .pred", "input"),
 # operand counts the modifiers fix
 ("setp_extra_operand", kern("\tsetp.lt.s32 %p1, %r1, %r2, ^^%p0;\n"), "too many operands for 'setp.lt.s32' (expects 3)", "input"),
 ("setp_bool_missing_operand", kern("\t^^setp.lt.and.s32 %p1, %r1, %r2;\n"), "'setp.lt.and.s32' expects 4 operands, got 3", "input"),
 ("set_too_few", kern("\t^^set.lt.u32.s32 %r1, %r2;\n"), "'set.lt.u32.s32' expects 3 operands, got 2", "input"),
 ("atom_cas_missing_operand", kern("\t^^atom.global.cas.b32 %r1, [%rd1], %r2;\n"), "'atom.global.cas.b32' expects 4 operands, got 3", "input"),
 ("atom_add_extra_operand", kern("\tatom.global.add.u32 %r1, [%rd1], %r2, ^^%r3;\n"), "too many operands for 'atom.global.add.u32' (expects 3)", "input"),
 ("vote_sync_missing_mask", kern("\t^^vote.sync.ballot.b32 %r1, %p1;\n"), "'vote.sync.ballot.b32' expects 3 operands, got 2", "input"),
 ("shfl_sync_missing_mask", kern("\t^^shfl.sync.idx.b32 %r1, %r2, 0, 31;\n"), "'shfl.sync.idx.b32' expects 5 operands, got 4", "input"),
 ("cvt_pair_missing_source", kern("\t^^cvt.rn.f16x2.f32 %r1, %f1;\n"), "'cvt.rn.f16x2.f32' expects 3 operands, got 2", "input"),
 ("cvt_extra_operand", kern("\tcvt.rn.f32.s32 %f1, %r1, ^^%r2;\n"), "too many operands for 'cvt.rn.f32.s32' (expects 2)", "input"),
 ("mad_too_few", kern("\t^^mad.lo.s32 %r1, %r2, %r3;\n"), "'mad.lo.s32' expects 4 operands, got 3", "input"),
 # a label expected, something else found
 ("branch_to_register", kern("\tbra.uni ^^%r1;\n"), "operand 1 of 'bra.uni' must be a label but found register '%r1'", "input"),
 ("branch_to_special_register", kern("\t@%p1 bra ^^%tid.x;\n"), "operand 1 of 'bra' must be a label but found special register '%tid.x'", "input"),
 ("branch_to_undefined_register", kern("\tbra ^^%r9;\n"), "operand 1 of 'bra' must be a label but found undefined register '%r9'", "input"),
 ("branch_to_variable", kern("\tbra ^^gv;\n", ".global .u32 gv;\n"), "expected a label but found variable 'gv'", "input"),
 ("branch_to_parameter", kern("\tbra.uni ^^k_p0;\n"), "expected a label but found variable 'k_p0'", "input"),
 # line ends: CRLF, bare CR (old Mac files), mixed
 ("line_ends_crlf", kern("\t/* two\n\tlines */ // and a comment\n\tadd.s32 %r1, %r2, ^^%r9;\n"), "undefined register '%r9'", "input"),
 ("line_ends_cr", kern("\t/* two\n\tlines */ // and a comment\n\n\tadd.s32 %r1, ^^%f1, %r2;\n"), "operand 2 of 'add.s32' has type .s32 but register '%f1' is .f32", "input"),
 ("line_ends_cr_late", kern("\tmov.u32 %r1, 1;\n" * 20 + "\tbra ^^L_none;\n"), "undefined label 'L_none'", "input"),
 ("line_ends_mixed", kern("\tmov.u32 %r1, 1;\n\tmov.u32 %r1, 2;\n\tmov.u32 %r1, 3;\n\tmov.u32 ^^%rd1, 4;\n"), "operand 1 of 'mov.u32' has type .u32 but register '%rd1' is .b64", "input"),
]
LINE_ENDS = {"line_ends_crlf": "\r\n", "line_ends_cr": "\r", "line_ends_cr_late": "\r", "line_ends_mixed": "mixed"}

def with_line_ends(body, ends):
    """The body's LF line ends replaced: all by `ends`, or in turn by LF,
    CRLF and CR for "mixed" (positions stay those of the LF text)."""
    if ends == "mixed":
        parts = body.split("\n")
        seps = ["\n", "\r\n", "\r"]
        return "".join(part + (seps[i % 3] if i < len(parts) - 1 else "") for i, part in enumerate(parts))
    return body.replace("\n", ends)

os.makedirs(OUT, exist_ok=True)
for name, src, msg, code in cases:
    idx = src.index("^^")
    before = src[:idx]
    hdr_lines = 2
    line = before.count("\n") + 1 + hdr_lines
    # columns count bytes, as the parser does
    col = len(before[before.rfind("\n") + 1:].encode("utf-8", "surrogateescape")) + 1
    body = src.replace("^^", "", 1)
    if msg is EOF_BRACE:
        msg = "unexpected end of file: missing '}' for the body opened at %d:%d" % (line, col)
        line = body.count("\n") + 1 + hdr_lines
        col = len(body[body.rfind("\n") + 1:].encode("utf-8", "surrogateescape")) + 1
    elif msg is None:
        msg = {"unterminated_brace": "unexpected end of file: missing '}' for the body opened at %d:%d" % (line, col),
               "bad_version": "expected a version number but found 'x'"}[name]
        if name == "unterminated_brace":
            # reported at end of file: after the last newline
            line = body.count("\n") + 1 + hdr_lines
            col = 1
        if name == "bad_version":
            col += len(".version ")
    if name in LINE_ENDS:
        body = with_line_ends(body, LINE_ENDS[name])
    with open(os.path.join(OUT, name + ".ptx"), "wb") as f:
        text = "// expect: %d:%d: error: %s\n// code: %s\n%s" % (line, col, msg, code, body)
        f.write(text.encode("utf-8", "surrogateescape"))
print(len(cases), "cases")
