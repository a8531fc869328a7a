/* test_html_escape.c — html_escape_append (html_report.h): markup, quotes,
 * control characters and invalid UTF-8, and the rendered page's handling
 * of text from the report. */
#include <check.h>
#include <glib.h>
#include <jansson.h>
#include <string.h>

#include "html_report.h"

static char *escaped(const char *s, gssize len)
{
    GString *o = g_string_new(NULL);
    html_escape_append(o, s, len);
    return g_string_free(o, FALSE);
}

#define EXPECT_ESCAPED(in, want)                                                                                       \
    do {                                                                                                               \
        char *got = escaped(in, -1);                                                                                   \
        ck_assert_str_eq(got, want);                                                                                   \
        g_free(got);                                                                                                   \
    } while (0)

START_TEST(markup_characters)
{
    EXPECT_ESCAPED("a<b>c", "a&lt;b&gt;c");
    EXPECT_ESCAPED("&amp;", "&amp;amp;");
    EXPECT_ESCAPED("\"x\" 'y'", "&quot;x&quot; &#39;y&#39;");
    EXPECT_ESCAPED("</script><script>alert(1)</script>", "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    EXPECT_ESCAPED("plain text, tabs\tand\nnewlines", "plain text, tabs\tand\nnewlines");
    EXPECT_ESCAPED("", "");
}
END_TEST

START_TEST(unicode_kept_invalid_replaced)
{
    EXPECT_ESCAPED("τ δ — ü", "τ δ — ü");
    /* a lone continuation byte and a truncated sequence: one U+FFFD each */
    EXPECT_ESCAPED("a\x80" "b", "a\xEF\xBF\xBD" "b");
    EXPECT_ESCAPED("c\xE2\x82", "c\xEF\xBF\xBD\xEF\xBF\xBD");
    /* control characters (not tab, newline) would be parse errors or invisible */
    EXPECT_ESCAPED("x\x01y\x7f", "x\xEF\xBF\xBDy\xEF\xBF\xBD");
}
END_TEST

START_TEST(length_limits_input)
{
    char *got = escaped("<<>>", 2);
    ck_assert_str_eq(got, "&lt;&lt;");
    g_free(got);
    /* NUL inside the given length is a control character, not the end */
    got = escaped("a\0<", 3);
    ck_assert_str_eq(got, "a\xEF\xBF\xBD&lt;");
    g_free(got);
}
END_TEST

/* Text that reaches the page from the report (manifest name, kernel, fault
 * message, buffer names) is escaped too: no tag from it survives. */
START_TEST(page_escapes_report_text)
{
    json_t *report = json_pack("{s:s,s:s,s:s,s:[]}", "warpsim", "0.1.0", "config", "<i>gpu</i>", "name",
                               "<script>bad()</script>", "launches");
    json_t *entry = json_pack("{s:s,s:[iii],s:[iii],s:{},s:{s:s},s:s}", "kernel", "k<b>", "grid", 1, 1, 1, "block", 32,
                              1, 1, "metrics", "checks", "<buf>", "pass", "error", "fault at <addr> & \"more\"");
    json_array_append(json_object_get(report, "launches"), entry);
    HtmlReport *h = html_report_new();
    Module m = {.path = (char *)"/nonexistent/<x>.ptx", .funcs = g_array_new(FALSE, TRUE, sizeof(Function))};
    html_report_note_launch(h, entry, &m, 0);
    char *page = html_report_render(h, report);
    ck_assert_ptr_null(strstr(page, "<script>bad"));
    ck_assert_ptr_null(strstr(page, "<i>gpu"));
    ck_assert_ptr_null(strstr(page, "k<b>"));
    ck_assert_ptr_null(strstr(page, "<buf>"));
    ck_assert_ptr_null(strstr(page, "<addr>"));
    ck_assert_ptr_nonnull(strstr(page, "&lt;script&gt;bad()&lt;/script&gt;"));
    ck_assert_ptr_nonnull(strstr(page, "fault at &lt;addr&gt; &amp; &quot;more&quot;"));
    ck_assert_ptr_nonnull(strstr(page, "/nonexistent/&lt;x&gt;.ptx"));
    /* exactly one script element: the page's own */
    const char *p = page;
    int scripts = 0;
    while ((p = strstr(p, "<script")))
        scripts++, p++;
    ck_assert_int_eq(scripts, 1);
    g_free(page);
    html_report_free(h);
    g_array_free(m.funcs, TRUE);
    json_decref(entry);
    json_decref(report);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("html_escape");
    TCase *tc = tcase_create("escape");
    tcase_add_test(tc, markup_characters);
    tcase_add_test(tc, unicode_kept_invalid_replaced);
    tcase_add_test(tc, length_limits_input);
    tcase_add_test(tc, page_escapes_report_text);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
