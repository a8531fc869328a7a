/* test_sha256.c — SHA-256 digests of output buffers.
 *
 * Known answers are FIPS 180-4's examples; every other expected digest is
 * GLib's (an implementation independent of ours) for the same bytes.
 */
#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "testutil.h"

static void check_digest(const uint8_t *data, size_t size, const char *want)
{
    char *got = sha256_hex(data, size);
    ck_assert_str_eq(got, want);
    g_free(got);
    got = sha256_hex_glib(data, size);
    ck_assert_str_eq(got, want);
    g_free(got);
}

START_TEST(known_answers)
{
    check_digest((const uint8_t *)"abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check_digest((const uint8_t *)"", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    check_digest((const uint8_t *)two_blocks, strlen(two_blocks),
                 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* a million 'a's: many blocks through one call */
    size_t n = 1000000;
    uint8_t *a = g_malloc(n);
    memset(a, 'a', n);
    check_digest(a, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    g_free(a);
}
END_TEST

/* Every length around the padding's edges (55, 56, 63, 64 bytes into the
 * last block) and some large ones, at offsets that leave the data
 * unaligned: the same digest as GLib's. */
START_TEST(agrees_with_glib)
{
    size_t max = 70000;
    uint8_t *buf = g_malloc(max + 16);
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < max + 16; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        buf[i] = (uint8_t)(s >> 56);
    }
    size_t sizes[300], nsizes = 0;
    for (size_t n = 0; n <= 200; n++)
        sizes[nsizes++] = n;
    for (size_t k = 1; k <= 20; k++) {
        sizes[nsizes++] = 64 * 50 * k - 9;
        sizes[nsizes++] = 64 * 50 * k + 55;
    }
    sizes[nsizes++] = max;
    for (size_t i = 0; i < nsizes; i++) {
        const uint8_t *p = buf + i % 7;
        char *want = sha256_hex_glib(p, sizes[i]);
        char *got = sha256_hex(p, sizes[i]);
        ck_assert_msg(strcmp(got, want) == 0, "size %zu: %s, GLib %s", sizes[i], got, want);
        g_free(got);
        g_free(want);
    }
    g_free(buf);
}
END_TEST

static Suite *sha256_suite(void)
{
    Suite *s = suite_create("sha256");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, known_answers);
    tcase_add_test(tc, agrees_with_glib);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    /* says which path the comparisons above exercised */
    g_print("sha256: %s\n", sha256_accelerated() ? "SHA instructions" : "GLib only (no SHA instructions here)");
    return tu_run_suite(sha256_suite());
}
