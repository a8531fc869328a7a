/* sha256.c — SHA-256 digests (contract in sha256.h).
 *
 * The accelerated path follows FIPS 180-4 with the x86 SHA instructions:
 * SHA256RNDS2 does two rounds on the state held as two registers, ABEF and
 * CDGH (its operand order), SHA256MSG1 and SHA256MSG2 extend the message
 * schedule four words at a time.  Padding and the hex text are plain C.
 */
#include "sha256.h"

#include <glib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

char *sha256_hex_glib(const uint8_t *data, size_t size)
{
    return g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, size);
}

#ifdef SHA256_X86
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Runs `nblocks` 64-byte blocks through the hash state h[0..7] (a .. h). */
__attribute__((target("sha,sse4.1,ssse3"))) static void compress_blocks(uint32_t h[8], const uint8_t *p,
                                                                         size_t nblocks)
{
    /* the message words are big-endian; the registers below are named by
     * their words from the top lane down */
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
    __m128i badc = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(badc, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, badc, 0xF0);
    for (; nblocks; nblocks--, p += 64) {
        __m128i abef0 = abef, cdgh0 = cdgh;
        /* w[i % 4]: the schedule's words 4i .. 4i + 3, the last 16 kept */
        __m128i w[4];
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), byte_swap);
        for (int i = 0; i < 16; i++) {
            if (i >= 4) { /* words 4i - 16 .. 4i - 1 give 4i .. 4i + 3 */
                __m128i w16 = w[i % 4], w12 = w[(i + 1) % 4], w8 = w[(i + 2) % 4], w4 = w[(i + 3) % 4];
                __m128i x = _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8(w4, w8, 4));
                w[i % 4] = _mm_sha256msg2_epu32(x, w4);
            }
            __m128i wk = _mm_add_epi32(w[i % 4], _mm_loadu_si128((const __m128i *)&round_constants[4 * i]));
            /* two rounds each: after the first, cdgh holds the new abef
             * and abef is the new cdgh; the second swaps them back */
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

static char *digest_accelerated(const uint8_t *data, size_t size)
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    size_t whole = size / 64;
    compress_blocks(h, data, whole);
    /* the rest, 0x80, zeros and the length in bits: one block or two */
    uint8_t tail[128] = {0};
    size_t rest = size - whole * 64;
    memcpy(tail, data + whole * 64, rest);
    tail[rest] = 0x80;
    size_t nblocks = rest + 1 + 8 <= 64 ? 1 : 2;
    uint64_t bits = (uint64_t)size * 8;
    for (int i = 0; i < 8; i++)
        tail[nblocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress_blocks(h, tail, nblocks);
    char *hex = g_malloc(65);
    for (int i = 0; i < 8; i++)
        g_snprintf(hex + 8 * i, 9, "%08x", h[i]);
    return hex;
}
#endif

bool sha256_accelerated(void)
{
#ifdef SHA256_X86
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3))
        return false;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
#else
    return false;
#endif
}

char *sha256_hex(const uint8_t *data, size_t size)
{
#ifdef SHA256_X86
    if (sha256_accelerated())
        return digest_accelerated(data, size);
#endif
    return sha256_hex_glib(data, size);
}
