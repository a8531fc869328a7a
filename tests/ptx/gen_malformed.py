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
 ("setp_too_few", kern("\t^^setp.lt.s32 %p1, %r1;\n"), "'setp.lt.s32' expects at least 3 operands, got 2", "input"),
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
 ("unmodelled_special_register", kern("\tmov.u32 %r1, ^^%reserved_smem_offset_1;\n"), "special register '%reserved_smem_offset_1' is not supported", "unsupported"),
 ("vector_nonzero_immediate", kern("\t.reg .b16 %h1;\n\tmov.b32 %r1, {^^1, %h1};\n"), "non-zero immediate inside a vector operand", "unsupported"),
]
os.makedirs(OUT, exist_ok=True)
for name, src, msg, code in cases:
    idx = src.index("^^")
    before = src[:idx]
    hdr_lines = 2
    line = before.count("\n") + 1 + hdr_lines
    col = idx - (before.rfind("\n") + 1) + 1
    body = src.replace("^^", "", 1)
    if msg is None:
        msg = {"unterminated_brace": "unexpected end of file: missing '}' for the body opened at %d:%d" % (line, col),
               "bad_version": "expected a version number but found 'x'"}[name]
        if name == "unterminated_brace":
            # reported at end of file: after the last newline
            line = body.count("\n") + 1 + hdr_lines
            col = 1
        if name == "bad_version":
            col += len(".version ")
    with open(os.path.join(OUT, name + ".ptx"), "w") as f:
        f.write("// expect: %d:%d: error: %s\n// code: %s\n%s" % (line, col, msg, code, body))
print(len(cases), "cases")
