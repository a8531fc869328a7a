/* fatbin.h — the PTX inside the fat binaries that nvcc embeds in programs.
 *
 * Contract: nvcc's host code hands __cudaRegisterFatBinary() a wrapper
 * (magic 0x466243b1) whose `data` points at a fat binary: a header (magic
 * 0xBA55ED50) followed by entries, each PTX text or machine code (cubin) for
 * one architecture, possibly compressed.  fatbin_extract_ptx() returns every
 * PTX entry, decompressed, as NUL-terminated text.  A fat binary that holds
 * machine code only is an error whose message says how to rebuild with PTX.
 * Malformed input (bad magic, sizes past the end, corrupt compressed data)
 * is an error naming what is wrong and where (entry index, byte offset);
 * nothing here crashes or reads outside the given bytes.
 */
#ifndef WARPSIM_FATBIN_H
#define WARPSIM_FATBIN_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *ptx;          /* owned, NUL-terminated PTX text */
    size_t ptx_len;     /* strlen(ptx) */
    uint32_t arch;      /* the entry's virtual architecture, e.g. 75 for compute_75 */
    char *identifier;   /* owned, the entry's identifier (source file name) or NULL;
                         * nvcc 13 records one only under -G */
    char *options;      /* owned, the ptxas options nvcc recorded for JIT, or NULL
                         * ("--compile-only" marks -rdc=true objects, "-g ..." -G) */
    uint32_t unit;      /* which fat binary the entry came from: 0 the registered
                         * one (or the first in a blob); for a -rdc=true program
                         * (wrapper version 2) 1..n the prelinked objects, whose
                         * PTX modules reference each other and must all be loaded */
} FatbinPtx;

void fatbin_ptx_free(FatbinPtx *p);

/* From the pointer __cudaRegisterFatBinary() receives.  Returns a GPtrArray
 * of FatbinPtx* (it frees them), in the fat binary's order, or NULL with
 * error.  The fat binary's extent is read from its own header (the wrapper
 * carries no size).  A version-2 wrapper (-rdc=true programs) points at the
 * device-linked machine code; the PTX is then gathered from the NULL-ended
 * array of prelinked objects' fat binaries it also carries (unit 1..n). */
GPtrArray *fatbin_extract_ptx(const void *wrapper, GError **error);

/* The same from the bytes of a fat binary (starting at its header); `size`
 * bounds every read.  Fat binaries laid end to end (as in an executable's
 * .nv_fatbin section, zero-padded to 8 bytes) are read in turn, unit 0..n. */
GPtrArray *fatbin_extract_ptx_blob(const void *data, size_t size, GError **error);

/* The entry a runtime should load: the highest architecture present (PTX is
 * forward compatible, and the newest has the most features); the first one
 * among equals.  NULL if the array is empty. */
const FatbinPtx *fatbin_pick(const GPtrArray *entries);

/* One entry per unit, in unit order: each unit's fatbin_pick.  A -rdc=true
 * program's units (1..n) are separate translation units, all of which a
 * runtime must load and link; other programs have one.  A GPtrArray of
 * borrowed FatbinPtx* (free only the array); empty if entries is. */
GPtrArray *fatbin_pick_units(const GPtrArray *entries);

#endif
