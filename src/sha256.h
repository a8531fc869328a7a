/* sha256.h — SHA-256 digests of buffers, for manifests' output checks.
 *
 * Contract: sha256_hex(data, size) returns the digest as 64 lowercase hex
 * digits (g_free it), the same as g_compute_checksum_for_data with
 * G_CHECKSUM_SHA256.  Where the host CPU has the SHA extensions (x86-64
 * SHA-NI, asked of the CPU at run time) the blocks go through them; else
 * through GLib.  sha256_hex_glib always takes GLib's path, and
 * sha256_accelerated says which one sha256_hex takes (tests compare them).
 *
 * Why: checking a launch's output against its expected digest read every
 * byte through GLib's portable code, about 55 host instructions a byte:
 * 8 MiB took several times the simulation of the kernel that wrote them
 * (coalescing/stride_s8: 447 M host instructions against 45 M).
 */
#ifndef WARPSIM_SHA256_H
#define WARPSIM_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

char *sha256_hex(const uint8_t *data, size_t size);
char *sha256_hex_glib(const uint8_t *data, size_t size);
bool sha256_accelerated(void);

#endif
