/* test_lexer.c — token classes, positions, comments and lexical errors. */
#include <check.h>
#include <string.h>

#include "errors.h"
#include "ptx_lexer.h"
#include "testutil.h"

static GArray *lex_ok(const char *src)
{
    GError *e = NULL;
    GArray *t = ptx_lex(src, strlen(src), "t.ptx", &e);
    ck_assert_msg(t != NULL, "lex failed: %s", e ? e->message : "?");
    return t;
}

static const Token *tk(GArray *t, guint i) { return &g_array_index(t, Token, i); }

static void assert_tok(const char *src, GArray *t, guint i, TokenKind kind, const char *text, uint32_t line,
                       uint32_t col)
{
    const Token *x = tk(t, i);
    ck_assert_msg(x->kind == kind, "token %u: kind %d, wanted %d", i, x->kind, kind);
    ck_assert_int_eq((int)x->len, (int)strlen(text));
    ck_assert_msg(memcmp(src + x->start, text, x->len) == 0, "token %u: '%.*s', wanted '%s'", i, (int)x->len,
                  src + x->start, text);
    ck_assert_uint_eq(x->line, line);
    ck_assert_uint_eq(x->col, col);
}

START_TEST(test_instruction_tokens)
{
    const char *src = "\tld.global.nc.v4.f32 {%f1, %f2}, [%rd4+-8];\n@!%p1 bra $L__BB0_2;";
    GArray *t = lex_ok(src);
    assert_tok(src, t, 0, TK_IDENT, "ld.global.nc.v4.f32", 1, 2);
    ck_assert_int_eq(tk(t, 1)->punct, '{');
    assert_tok(src, t, 2, TK_IDENT, "%f1", 1, 23);
    ck_assert_int_eq(tk(t, 3)->punct, ',');
    assert_tok(src, t, 4, TK_IDENT, "%f2", 1, 28);
    ck_assert_int_eq(tk(t, 5)->punct, '}');
    ck_assert_int_eq(tk(t, 6)->punct, ',');
    ck_assert_int_eq(tk(t, 7)->punct, '[');
    assert_tok(src, t, 8, TK_IDENT, "%rd4", 1, 35);
    ck_assert_int_eq(tk(t, 9)->punct, '+');
    ck_assert_int_eq(tk(t, 10)->punct, '-');
    assert_tok(src, t, 11, TK_NUMBER, "8", 1, 41);
    ck_assert_int_eq(tk(t, 12)->punct, ']');
    ck_assert_int_eq(tk(t, 13)->punct, ';');
    assert_tok(src, t, 14, TK_PUNCT, "@", 2, 1);
    assert_tok(src, t, 15, TK_PUNCT, "!", 2, 2);
    assert_tok(src, t, 16, TK_IDENT, "%p1", 2, 3);
    assert_tok(src, t, 17, TK_IDENT, "bra", 2, 7);
    assert_tok(src, t, 18, TK_IDENT, "$L__BB0_2", 2, 11);
    ck_assert_int_eq(tk(t, 19)->punct, ';');
    ck_assert_int_eq(tk(t, 20)->kind, TK_EOF);
    ck_assert_uint_eq(t->len, 21);
    g_array_unref(t);
}
END_TEST

START_TEST(test_double_colon_and_labels)
{
    const char *src = "ld.global.L1::evict_last.f32 x;\nL1: st.shared::cta.u32\nproto : .callprototype";
    GArray *t = lex_ok(src);
    assert_tok(src, t, 0, TK_IDENT, "ld.global.L1::evict_last.f32", 1, 1);
    assert_tok(src, t, 3, TK_IDENT, "L1", 2, 1);
    assert_tok(src, t, 4, TK_PUNCT, ":", 2, 3);
    assert_tok(src, t, 5, TK_IDENT, "st.shared::cta.u32", 2, 5);
    assert_tok(src, t, 6, TK_IDENT, "proto", 3, 1);
    assert_tok(src, t, 7, TK_PUNCT, ":", 3, 7);
    assert_tok(src, t, 8, TK_DIRECTIVE, ".callprototype", 3, 9);
    g_array_unref(t);
}
END_TEST

START_TEST(test_directives_and_registers)
{
    const char *src = ".reg .b32 %r<10>;\n.visible .entry _Z5saxpyifPKfPf(";
    GArray *t = lex_ok(src);
    assert_tok(src, t, 0, TK_DIRECTIVE, ".reg", 1, 1);
    assert_tok(src, t, 1, TK_DIRECTIVE, ".b32", 1, 6);
    assert_tok(src, t, 2, TK_IDENT, "%r", 1, 11);
    assert_tok(src, t, 3, TK_PUNCT, "<", 1, 13);
    assert_tok(src, t, 4, TK_NUMBER, "10", 1, 14);
    assert_tok(src, t, 5, TK_PUNCT, ">", 1, 16);
    assert_tok(src, t, 7, TK_DIRECTIVE, ".visible", 2, 1);
    assert_tok(src, t, 8, TK_DIRECTIVE, ".entry", 2, 10);
    assert_tok(src, t, 9, TK_IDENT, "_Z5saxpyifPKfPf", 2, 17);
    g_array_unref(t);
}
END_TEST

START_TEST(test_numbers)
{
    const char *src = "0f3F800000 0d3FF8000000000000 1.5e-3 0x1fU 017 0b101 9.0 2E+5 0xe-1";
    GArray *t = lex_ok(src);
    assert_tok(src, t, 0, TK_NUMBER, "0f3F800000", 1, 1);
    assert_tok(src, t, 1, TK_NUMBER, "0d3FF8000000000000", 1, 12);
    assert_tok(src, t, 2, TK_NUMBER, "1.5e-3", 1, 31);
    assert_tok(src, t, 3, TK_NUMBER, "0x1fU", 1, 38);
    assert_tok(src, t, 4, TK_NUMBER, "017", 1, 44);
    assert_tok(src, t, 5, TK_NUMBER, "0b101", 1, 48);
    assert_tok(src, t, 6, TK_NUMBER, "9.0", 1, 54);
    assert_tok(src, t, 7, TK_NUMBER, "2E+5", 1, 58);
    /* a hex literal never takes an exponent sign: 0xe - 1 */
    assert_tok(src, t, 8, TK_NUMBER, "0xe", 1, 63);
    assert_tok(src, t, 9, TK_PUNCT, "-", 1, 66);
    assert_tok(src, t, 10, TK_NUMBER, "1", 1, 67);
    g_array_unref(t);
}
END_TEST

START_TEST(test_comments_strings_dwarf)
{
    const char *src = "// line comment\n/* block\n comment */ .file 1 \"a \\\"b\\\".cu\"\n"
                      "@@DWARF .byte 0x11, 0x22\n  exit; // trailing";
    GArray *t = lex_ok(src);
    assert_tok(src, t, 0, TK_DIRECTIVE, ".file", 3, 13);
    assert_tok(src, t, 1, TK_NUMBER, "1", 3, 19);
    assert_tok(src, t, 2, TK_STRING, "\"a \\\"b\\\".cu\"", 3, 21);
    assert_tok(src, t, 3, TK_IDENT, "exit", 5, 3);
    assert_tok(src, t, 4, TK_PUNCT, ";", 5, 7);
    ck_assert_int_eq(tk(t, 5)->kind, TK_EOF);
    ck_assert_uint_eq(tk(t, 5)->line, 5);
    g_array_unref(t);
}
END_TEST

START_TEST(test_empty_input)
{
    GArray *t = lex_ok("");
    ck_assert_uint_eq(t->len, 1);
    ck_assert_int_eq(tk(t, 0)->kind, TK_EOF);
    ck_assert_uint_eq(tk(t, 0)->line, 1);
    ck_assert_uint_eq(tk(t, 0)->col, 1);
    g_array_unref(t);
}
END_TEST

static void assert_lex_error(const char *src, const char *msg)
{
    GError *e = NULL;
    GArray *t = ptx_lex(src, strlen(src), "bad.ptx", &e);
    ck_assert_ptr_null(t);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->code, WS_ERR_INPUT);
    ck_assert_str_eq(e->message, msg);
    g_error_free(e);
}

/* The same text with LF, CRLF and bare-CR line ends gives the same
 * positions, through comments (line and block) and strings. */
START_TEST(test_line_endings)
{
    const char *const ends[] = {"\n", "\r\n", "\r"};
    for (size_t e = 0; e < G_N_ELEMENTS(ends); e++) {
        const char *nl = ends[e];
        char *src = g_strconcat("a // c", nl, "/* x", nl, nl, "y */ b", nl, nl, "  \"s\" c", nl, "d", NULL);
        GArray *t = lex_ok(src);
        ck_assert_uint_eq(t->len, 6);
        assert_tok(src, t, 0, TK_IDENT, "a", 1, 1);
        assert_tok(src, t, 1, TK_IDENT, "b", 4, 6);
        assert_tok(src, t, 2, TK_STRING, "\"s\"", 6, 3);
        assert_tok(src, t, 3, TK_IDENT, "c", 6, 7);
        assert_tok(src, t, 4, TK_IDENT, "d", 7, 1);
        ck_assert_uint_eq(tk(t, 5)->line, 7);
        g_array_unref(t);
        g_free(src);
    }
    /* a CR ends a string like LF does, and a CRLF pair is one line end */
    GError *err = NULL;
    const char *bad = "x\r\n\r\n \"open\rmore\"";
    ck_assert_ptr_null(ptx_lex(bad, strlen(bad), "t.ptx", &err));
    ck_assert_str_eq(err->message, "t.ptx:3:2: error: unterminated string");
    g_error_free(err);
    err = NULL;
    const char *bad2 = "x\r\r\r\n `";
    ck_assert_ptr_null(ptx_lex(bad2, strlen(bad2), "t.ptx", &err));
    ck_assert_str_eq(err->message, "t.ptx:4:2: error: unexpected character '`'");
    g_error_free(err);
}
END_TEST

START_TEST(test_errors)
{
    assert_lex_error("add.s32\n  /* never closed", "bad.ptx:2:3: error: unterminated comment");
    assert_lex_error("add.s32\n  /* never closed *", "bad.ptx:2:3: error: unterminated comment");
    assert_lex_error(".file 1 \"abc\n\"", "bad.ptx:1:9: error: unterminated string");
    assert_lex_error(".pragma \"abc", "bad.ptx:1:9: error: unterminated string");
    assert_lex_error("mov.u32 %r1, 1;\n\t# 3", "bad.ptx:2:2: error: unexpected character '#'");
    assert_lex_error("a\x01", "bad.ptx:1:2: error: unexpected byte 0x01");
}
END_TEST

static Suite *lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_instruction_tokens);
    tcase_add_test(tc, test_double_colon_and_labels);
    tcase_add_test(tc, test_directives_and_registers);
    tcase_add_test(tc, test_numbers);
    tcase_add_test(tc, test_comments_strings_dwarf);
    tcase_add_test(tc, test_empty_input);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_line_endings);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(lexer_suite());
}
