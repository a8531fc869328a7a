/* fatbin.c — reads the PTX entries out of nvcc's fat binaries (fatbin.h).
 *
 * The layout (docs/fatbin.md, found by experiment with nvcc 13.0): a 16-byte
 * fat binary header, then entries laid end to end, each a header of
 * `header_size` bytes (fixed fields, then the identifier and options strings
 * it points at) followed by `payload_size` bytes of payload.  All fields are
 * little-endian and read byte by byte, so neither alignment nor the host's
 * byte order matters.  A compressed payload is the first `compressed_size`
 * bytes of the payload: a zstd frame (nvcc 13's default, "size" and
 * "balance" modes; decoded by libzstd) or one raw LZ4 block ("speed" mode;
 * decoded here).  Every offset and size is checked against the bytes given
 * before it is used.
 */
#include "fatbin.h"

#include <stdarg.h>
#include <string.h>
#include <zstd.h>

#include "errors.h"

/* ----------------------------------------------------------- the format */

enum {
    WRAPPER_MAGIC = 0x466243b1,       /* __fatBinC_Wrapper_t.magic */
    FATBIN_MAGIC = 0xBA55ED50,
    FATBIN_HEADER_BYTES = 16,         /* magic u32, version u16, header size u16, rest u64 */
    ENTRY_FIXED_BYTES = 0x40,         /* the fixed part of an entry header */
    ENTRY_KIND_PTX = 1,
    ENTRY_KIND_ELF = 2,
};

/* Field offsets in the fat binary header and in an entry header. */
enum {
    FH_MAGIC = 0, FH_VERSION = 4, FH_HEADER_SIZE = 6, FH_REST_SIZE = 8,
    EH_KIND = 0x00, EH_HEADER_SIZE = 0x04, EH_PAYLOAD_SIZE = 0x08, EH_COMPRESSED_SIZE = 0x10,
    EH_OPTIONS_OFFSET = 0x14, EH_ARCH = 0x1c, EH_IDENT_OFFSET = 0x20, EH_IDENT_LEN = 0x24,
    EH_FLAGS = 0x28, EH_UNCOMPRESSED_SIZE = 0x38,
};

/* Entry flag bits; the others seen (0x1 64-bit, 0x2 debug, 0x10 Linux host)
 * do not matter for reading the PTX. */
#define ENTRY_FLAG_LZ4 UINT64_C(0x2000)
#define ENTRY_FLAG_ZSTD UINT64_C(0x8000)

/* Nothing real comes near these; they keep a corrupt size field from asking
 * for an absurd allocation or a wild read through a wrapper's pointer. */
#define FATBIN_MAX_BYTES (UINT64_C(1) << 30)
#define PTX_MAX_BYTES (UINT64_C(1) << 30)
#define PRELINKED_MAX 65536

/* The layout of __fatBinC_Wrapper_t (fatbinary_section.h). */
typedef struct {
    int32_t magic;
    int32_t version;                   /* 1: one object; 2: device-linked (-rdc) */
    const void *data;                  /* the fat binary */
    const void *filename_or_fatbins;   /* version 2: NULL-ended array of fat binaries */
} FatbinWrapper;

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* ------------------------------------------------------------ messages */

/* Whose bytes the reader is in, for messages: "fat binary" or
 * "fat binary (prelinked object 2)".  Byte offsets in messages count from
 * the start of those bytes. */
typedef struct {
    const char *label;
} Where;

static bool fail(GError **error, int code, const Where *w, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static bool fail(GError **error, int code, const Where *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, WARPSIM_ERROR, code, "%s: error: %s", w->label, what);
    g_free(what);
    return false;
}

/* ------------------------------------------------------- decompression */

/* Adds LZ4's 255-continued length bytes at src[*s] to *len. */
static bool lz4_more_length(const uint8_t *src, size_t srclen, size_t *s, size_t *len, size_t cap)
{
    for (;;) {
        if (*s >= srclen)
            return false;
        uint8_t b = src[(*s)++];
        *len += b;
        if (*len > cap) /* longer than the output can hold: corrupt */
            return false;
        if (b != 255)
            return true;
    }
}

/* Decodes one raw LZ4 block into exactly dstlen bytes.  On failure *at is the
 * offset in src where the data stopped making sense. */
static bool lz4_block_decode(const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstlen, size_t *at)
{
    size_t s = 0, d = 0;
    for (;;) {
        *at = s;
        if (s >= srclen)
            return false;
        uint8_t token = src[s++];
        size_t lit = token >> 4;
        if (lit == 15 && !lz4_more_length(src, srclen, &s, &lit, dstlen))
            return false;
        if (lit > srclen - s || lit > dstlen - d)
            return false;
        memcpy(dst + d, src + s, lit);
        s += lit;
        d += lit;
        if (s == srclen) /* the last sequence is literals only */
            return d == dstlen;
        *at = s;
        if (srclen - s < 2)
            return false;
        size_t back = (size_t)src[s] | (size_t)src[s + 1] << 8;
        s += 2;
        if (back == 0 || back > d)
            return false;
        size_t match = token & 15;
        if (match == 15 && !lz4_more_length(src, srclen, &s, &match, dstlen))
            return false;
        match += 4;
        if (match > dstlen - d)
            return false;
        for (size_t i = 0; i < match; i++, d++) /* byte by byte: the copy may overlap itself */
            dst[d] = dst[d - back];
    }
}

/* The payload of a compressed entry, decompressed into a new buffer of
 * *out_len bytes (g_free it), or NULL with error. */
static uint8_t *decompress_payload(const uint8_t *entry, uint32_t header_size, uint64_t payload_size,
                                   uint64_t flags, const Where *w, unsigned index, size_t at, size_t *out_len,
                                   GError **error)
{
    uint32_t csize = rd32(entry + EH_COMPRESSED_SIZE);
    uint64_t usize = rd64(entry + EH_UNCOMPRESSED_SIZE);
    const uint8_t *src = entry + header_size;
    if ((flags & ENTRY_FLAG_LZ4) && (flags & ENTRY_FLAG_ZSTD)) {
        fail(error, WS_ERR_UNSUPPORTED, w,
             "entry %u (byte %zu): flags 0x%" G_GINT64_MODIFIER "x name two compression methods", index, at, flags);
        return NULL;
    }
    if (csize == 0 || csize > payload_size) {
        fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): compressed size %u does not fit the %" G_GUINT64_FORMAT
             "-byte payload", index, at, csize, payload_size);
        return NULL;
    }
    if (usize == 0 || usize > PTX_MAX_BYTES) {
        fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): implausible uncompressed size %" G_GUINT64_FORMAT,
             index, at, usize);
        return NULL;
    }
    if (flags & ENTRY_FLAG_ZSTD) {
        /* A frame that states its size must agree with the header. */
        unsigned long long stated = ZSTD_getFrameContentSize(src, csize);
        if (stated != ZSTD_CONTENTSIZE_UNKNOWN && stated != ZSTD_CONTENTSIZE_ERROR && stated != usize) {
            fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): the zstd frame holds %llu bytes, the header says %"
                 G_GUINT64_FORMAT, index, at, stated, usize);
            return NULL;
        }
    }
    uint8_t *dst = g_try_malloc(usize);
    if (dst == NULL) {
        fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): cannot allocate %" G_GUINT64_FORMAT
             " bytes for the uncompressed payload", index, at, usize);
        return NULL;
    }
    if (flags & ENTRY_FLAG_ZSTD) {
        size_t got = ZSTD_decompress(dst, usize, src, csize);
        if (ZSTD_isError(got) || got != usize) {
            if (ZSTD_isError(got))
                fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): corrupt zstd payload: %s", index, at,
                     ZSTD_getErrorName(got));
            else
                fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): zstd payload gives %zu bytes, the header says %"
                     G_GUINT64_FORMAT, index, at, got, usize);
            g_free(dst);
            return NULL;
        }
    } else {
        size_t bad;
        if (!lz4_block_decode(src, csize, dst, usize, &bad)) {
            fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): corrupt LZ4 payload (at byte %zu of %u, expecting %"
                 G_GUINT64_FORMAT " bytes out)", index, at, bad, csize, usize);
            g_free(dst);
            return NULL;
        }
    }
    *out_len = usize;
    return dst;
}

/* ------------------------------------------------------------- entries */

void fatbin_ptx_free(FatbinPtx *p)
{
    if (p == NULL)
        return;
    g_free(p->ptx);
    g_free(p->identifier);
    g_free(p->options);
    g_free(p);
}

/* A string the entry header points at (offset and length within the header),
 * trimmed, or NULL when there is none; false if it lies outside the header. */
static bool header_string(const uint8_t *entry, uint32_t header_size, uint32_t offset, uint32_t len, char **out)
{
    *out = NULL;
    if (offset == 0 || len == 0)
        return true;
    if (offset > header_size || len > header_size - offset)
        return false;
    char *s = g_strstrip(g_strndup((const char *)entry + offset, len));
    if (*s == '\0')
        g_clear_pointer(&s, g_free);
    *out = s;
    return true;
}

/* Builds the FatbinPtx of the PTX entry at `entry`, byte `at` of the input
 * (its header and payload already known to lie within the fat binary). */
static FatbinPtx *read_ptx_entry(const uint8_t *entry, uint32_t header_size, uint64_t payload_size, const Where *w,
                                 unsigned index, size_t at, uint32_t unit, GError **error)
{
    char *identifier, *options = NULL;
    if (!header_string(entry, header_size, rd32(entry + EH_IDENT_OFFSET), rd32(entry + EH_IDENT_LEN), &identifier)) {
        fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): identifier lies outside the %u-byte entry header", index,
             at, header_size);
        return NULL;
    }
    /* The options offset points at an (offset, length) pair, both relative
     * to the entry like everything else. */
    uint32_t opt_at = rd32(entry + EH_OPTIONS_OFFSET);
    if (opt_at != 0 &&
        (opt_at > header_size - 8 ||
         !header_string(entry, header_size, rd32(entry + opt_at), rd32(entry + opt_at + 4), &options))) {
        fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): options lie outside the %u-byte entry header", index, at,
             header_size);
        g_free(identifier);
        return NULL;
    }

    uint64_t flags = rd64(entry + EH_FLAGS);
    const uint8_t *text = entry + header_size;
    size_t text_len = payload_size;
    uint8_t *inflated = NULL;
    if (flags & (ENTRY_FLAG_LZ4 | ENTRY_FLAG_ZSTD)) {
        inflated = decompress_payload(entry, header_size, payload_size, flags, w, index, at, &text_len, error);
        if (inflated == NULL) {
            g_free(identifier);
            g_free(options);
            return NULL;
        }
        text = inflated;
    }
    FatbinPtx *p = g_new0(FatbinPtx, 1);
    /* The text ends at its NUL; an uncompressed payload is zero-padded to 8. */
    p->ptx_len = strnlen((const char *)text, text_len);
    p->ptx = g_strndup((const char *)text, p->ptx_len);
    p->arch = rd32(entry + EH_ARCH);
    p->identifier = identifier;
    p->options = options;
    p->unit = unit;
    g_free(inflated);
    return p;
}

/* --------------------------------------------------------- fat binaries */

/* What reading accumulates: the PTX entries and the machine-code
 * architectures (for the message when there is no PTX). */
typedef struct {
    GPtrArray *ptx;   /* FatbinPtx* */
    GArray *elf_arch; /* uint32_t, sorted, distinct */
} Found;

static void note_elf_arch(Found *f, uint32_t arch)
{
    guint i = 0;
    while (i < f->elf_arch->len && g_array_index(f->elf_arch, uint32_t, i) < arch)
        i++;
    if (i == f->elf_arch->len || g_array_index(f->elf_arch, uint32_t, i) != arch)
        g_array_insert_val(f->elf_arch, i, arch);
}

/* Reads the fat binary at data[start..size): its header and every entry.
 * Sets *extent to the bytes it spans. */
static bool read_fatbin(const uint8_t *data, size_t size, size_t start, const Where *w, uint32_t unit, Found *f,
                        size_t *extent, GError **error)
{
    size_t avail = size - start;
    if (avail < FATBIN_HEADER_BYTES) /* before any pointer into data: it may be NULL when empty */
        return fail(error, WS_ERR_INPUT, w, "byte %zu: the %d-byte fat binary header runs past the end (%zu bytes)",
                    start, FATBIN_HEADER_BYTES, size);
    const uint8_t *fh = data + start;
    uint32_t magic = rd32(fh + FH_MAGIC);
    if (magic != FATBIN_MAGIC)
        return fail(error, WS_ERR_INPUT, w, "byte %zu: bad magic 0x%08x (a fat binary starts with 0x%08x)", start,
                    magic, (unsigned)FATBIN_MAGIC);
    uint16_t version = rd16(fh + FH_VERSION);
    if (version != 1)
        return fail(error, WS_ERR_UNSUPPORTED, w, "byte %zu: fat binary version %u (only version 1 is known)", start,
                    version);
    uint16_t header_size = rd16(fh + FH_HEADER_SIZE);
    uint64_t rest = rd64(fh + FH_REST_SIZE);
    if (header_size < FATBIN_HEADER_BYTES || header_size > avail)
        return fail(error, WS_ERR_INPUT, w, "byte %zu: header size %u is out of range (16..%zu)", start, header_size,
                    avail);
    if (rest > avail - header_size)
        return fail(error, WS_ERR_INPUT, w, "byte %zu: the fat binary's %" G_GUINT64_FORMAT
                    " bytes of entries run past the end (%zu bytes)", start, rest, size);

    size_t end = start + header_size + (size_t)rest;
    size_t at = start + header_size;
    for (unsigned index = 0; at < end; index++) {
        const uint8_t *entry = data + at;
        size_t left = end - at;
        if (left < ENTRY_FIXED_BYTES)
            return fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): the %d-byte entry header runs past the end "
                        "of the fat binary (byte %zu)", index, at, ENTRY_FIXED_BYTES, end);
        uint16_t kind = rd16(entry + EH_KIND);
        uint32_t entry_header = rd32(entry + EH_HEADER_SIZE);
        uint64_t payload = rd64(entry + EH_PAYLOAD_SIZE);
        if (entry_header < ENTRY_FIXED_BYTES || entry_header > left)
            return fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): header size %u is out of range (%d..%zu)", index,
                        at, entry_header, ENTRY_FIXED_BYTES, left);
        if (payload > left - entry_header)
            return fail(error, WS_ERR_INPUT, w, "entry %u (byte %zu): the %" G_GUINT64_FORMAT
                        "-byte payload runs past the end of the fat binary (byte %zu)", index, at, payload, end);
        if (kind == ENTRY_KIND_PTX) {
            FatbinPtx *p = read_ptx_entry(entry, entry_header, payload, w, index, at, unit, error);
            if (p == NULL)
                return false;
            g_ptr_array_add(f->ptx, p);
        } else if (kind == ENTRY_KIND_ELF) {
            note_elf_arch(f, rd32(entry + EH_ARCH));
        } /* other kinds (none seen from nvcc 13) carry nothing to run */
        at += entry_header + (size_t)payload;
    }
    *extent = end - start;
    return true;
}

/* The verdict once everything is read: the PTX entries, or why there are none. */
static GPtrArray *finish(Found *f, const Where *w, GError **error)
{
    GPtrArray *ptx = f->ptx;
    if (ptx->len == 0) {
        if (f->elf_arch->len == 0) {
            fail(error, WS_ERR_INPUT, w, "the fat binary holds neither PTX nor machine code");
        } else {
            GString *archs = g_string_new(NULL);
            for (guint i = 0; i < f->elf_arch->len; i++)
                g_string_append_printf(archs, "%ssm_%u", i ? ", " : "", g_array_index(f->elf_arch, uint32_t, i));
            uint32_t top = g_array_index(f->elf_arch, uint32_t, f->elf_arch->len - 1);
            fail(error, WS_ERR_UNSUPPORTED, w,
                 "the program's fat binary holds machine code only (%s); rebuild with PTX, e.g. nvcc -arch=sm_%u "
                 "(which embeds compute_%u PTX) or -gencode arch=compute_%u,code=compute_%u",
                 archs->str, top, top, top, top);
            g_string_free(archs, TRUE);
        }
        g_ptr_array_free(ptx, TRUE);
        ptx = NULL;
    }
    g_array_free(f->elf_arch, TRUE);
    return ptx;
}

static Found found_new(void)
{
    return (Found){ g_ptr_array_new_with_free_func((GDestroyNotify)fatbin_ptx_free),
                    g_array_new(FALSE, FALSE, sizeof(uint32_t)) };
}

static void found_discard(Found *f)
{
    g_ptr_array_free(f->ptx, TRUE);
    g_array_free(f->elf_arch, TRUE);
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return false;
    return true;
}

GPtrArray *fatbin_extract_ptx_blob(const void *data, size_t size, GError **error)
{
    const uint8_t *bytes = data;
    Where w = { "fat binary" };
    if (bytes == NULL && size != 0) {
        fail(error, WS_ERR_INPUT, &w, "no data");
        return NULL;
    }
    Found f = found_new();
    size_t at = 0;
    for (uint32_t unit = 0;; unit++) {
        size_t extent;
        if (!read_fatbin(bytes, size, at, &w, unit, &f, &extent, error)) {
            found_discard(&f);
            return NULL;
        }
        at += extent;
        /* The next fat binary, if any, starts at the next 8-byte boundary;
         * a tail of zeros is padding. */
        while (at < size && at % 8 != 0 && bytes[at] == 0)
            at++;
        if (all_zero(bytes + at, size - at))
            break;
    }
    return finish(&f, &w, error);
}

/* The size of the fat binary at `data`, read from its header (a wrapper's
 * data pointer comes without one). */
static bool fatbin_extent(const uint8_t *data, const Where *w, size_t *size, GError **error)
{
    if (data == NULL)
        return fail(error, WS_ERR_INPUT, w, "null fat binary pointer");
    uint32_t magic = rd32(data + FH_MAGIC);
    if (magic != FATBIN_MAGIC)
        return fail(error, WS_ERR_INPUT, w, "byte 0: bad magic 0x%08x (a fat binary starts with 0x%08x)", magic,
                    (unsigned)FATBIN_MAGIC);
    uint64_t total = (uint64_t)rd16(data + FH_HEADER_SIZE) + rd64(data + FH_REST_SIZE);
    if (total > FATBIN_MAX_BYTES)
        return fail(error, WS_ERR_INPUT, w, "byte 0: implausible fat binary size %" G_GUINT64_FORMAT, total);
    *size = (size_t)total;
    return true;
}

GPtrArray *fatbin_extract_ptx(const void *wrapper, GError **error)
{
    Where w = { "fat binary" };
    if (wrapper == NULL) {
        fail(error, WS_ERR_INPUT, &w, "null fat binary wrapper");
        return NULL;
    }
    FatbinWrapper fw;
    memcpy(&fw, wrapper, sizeof fw);
    if ((uint32_t)fw.magic != WRAPPER_MAGIC) {
        fail(error, WS_ERR_INPUT, &w, "bad wrapper magic 0x%08x (expected 0x%08x)", (uint32_t)fw.magic,
             (unsigned)WRAPPER_MAGIC);
        return NULL;
    }
    if (fw.version != 1 && fw.version != 2) {
        fail(error, WS_ERR_UNSUPPORTED, &w, "wrapper version %d (versions 1 and 2 are known)", fw.version);
        return NULL;
    }
    Found f = found_new();
    size_t size, extent;
    if (!fatbin_extent(fw.data, &w, &size, error) || !read_fatbin(fw.data, size, 0, &w, 0, &f, &extent, error)) {
        found_discard(&f);
        return NULL;
    }
    /* Version 2 (-rdc=true): `data` is the device-linked machine code and
     * the objects' own fat binaries, with their PTX, hang off the wrapper. */
    const void *const *prelinked = fw.version == 2 ? fw.filename_or_fatbins : NULL;
    for (uint32_t unit = 1; prelinked != NULL && prelinked[unit - 1] != NULL; unit++) {
        char label[64];
        g_snprintf(label, sizeof label, "fat binary (prelinked object %u)", unit);
        Where pw = { label };
        if (unit > PRELINKED_MAX) {
            fail(error, WS_ERR_INPUT, &w, "more than %d prelinked objects", PRELINKED_MAX);
            found_discard(&f);
            return NULL;
        }
        if (!fatbin_extent(prelinked[unit - 1], &pw, &size, error) ||
            !read_fatbin(prelinked[unit - 1], size, 0, &pw, unit, &f, &extent, error)) {
            found_discard(&f);
            return NULL;
        }
    }
    return finish(&f, &w, error);
}

const FatbinPtx *fatbin_pick(const GPtrArray *entries)
{
    const FatbinPtx *best = NULL;
    for (guint i = 0; entries != NULL && i < entries->len; i++) {
        const FatbinPtx *p = g_ptr_array_index((GPtrArray *)entries, i);
        if (best == NULL || p->arch > best->arch)
            best = p;
    }
    return best;
}

GPtrArray *fatbin_pick_units(const GPtrArray *entries)
{
    GPtrArray *picks = g_ptr_array_new();
    for (guint i = 0; entries != NULL && i < entries->len; i++) {
        FatbinPtx *p = g_ptr_array_index((GPtrArray *)entries, i);
        guint at = 0; /* the slot of the entry's unit, if it has one yet */
        while (at < picks->len && ((FatbinPtx *)g_ptr_array_index(picks, at))->unit != p->unit)
            at++;
        if (at == picks->len)
            g_ptr_array_add(picks, p);
        else if (p->arch > ((FatbinPtx *)g_ptr_array_index(picks, at))->arch)
            g_ptr_array_index(picks, at) = p;
    }
    return picks;
}
