/* host_ref_kernels.c — sequential C models of every kernel under traces/.
 *
 * Each model does, thread by thread and in the kernel's own floating-point
 * operation order, what the CUDA source (or printed PTX) does, so that the
 * expected files it yields are bit-exact wherever the GPU result is
 * deterministic: fused multiply-adds are written with fmaf/fma where nvcc
 * contracts a*b+c, tree and shuffle reductions replay the same pairings.
 * Transcendentals are the exception: they are computed in double with the
 * host libm and rounded to float, and the manifests give tolerances.
 */
#include "host_ref_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"

static const struct {
    const char *name;
    unsigned size;
} type_table[HT_COUNT] = {
    [HT_U8] = {"u8", 1},   [HT_S8] = {"s8", 1},   [HT_U16] = {"u16", 2},
    [HT_S16] = {"s16", 2}, [HT_U32] = {"u32", 4}, [HT_S32] = {"s32", 4},
    [HT_U64] = {"u64", 8}, [HT_S64] = {"s64", 8}, [HT_F32] = {"f32", 4},
    [HT_F64] = {"f64", 8},
};

unsigned host_type_size(HostType t) { return type_table[t].size; }
const char *host_type_name(HostType t) { return type_table[t].name; }

/* ---- argument accessors: every mismatch is an error, never a crash ---- */

static bool need_args(const HostLaunch *l, unsigned n, GError **error)
{
    if (l->nargs == n)
        return true;
    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                "%s: error: kernel takes %u arguments, the manifest gives %u",
                l->kernel, n, l->nargs);
    return false;
}

/* Pointer to argument i, a buffer of type t holding at least `need`
 * elements past its offset. */
static void *buf_arg(const HostLaunch *l, unsigned i, HostType t, size_t need,
                     GError **error)
{
    const HostArg *a = &l->args[i];
    if (!a->is_buffer || a->buf->type != t) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: argument %u must be a %s buffer", l->kernel, i,
                    host_type_name(t));
        return NULL;
    }
    size_t bytes = a->buf->count * host_type_size(t);
    if (a->offset_bytes > bytes ||
        (bytes - a->offset_bytes) / host_type_size(t) < need) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: buffer '%s' (argument %u) needs %zu elements",
                    l->kernel, a->buf->name, i, need);
        return NULL;
    }
    return a->buf->data + a->offset_bytes;
}

/* Argument i, a buffer of type t: all of it past the offset, *len elements. */
static void *buf_all(const HostLaunch *l, unsigned i, HostType t, size_t *len, GError **error)
{
    void *p = buf_arg(l, i, t, 0, error);
    if (p)
        *len = (l->args[i].buf->count * host_type_size(t) - l->args[i].offset_bytes) / host_type_size(t);
    return p;
}

/* Every one of the m indices of a gather lies in a table of len elements. */
static bool indices_within(const HostLaunch *l, const int32_t *idx, size_t m, size_t len, GError **error)
{
    for (size_t i = 0; i < m; i++)
        if (idx[i] < 0 || (size_t)idx[i] >= len) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: index %d of element %zu is outside the table",
                        l->kernel, idx[i], i);
            return false;
        }
    return true;
}

static bool int_arg(const HostLaunch *l, unsigned i, int64_t *out, GError **error)
{
    const HostArg *a = &l->args[i];
    if (a->is_buffer || a->type == HT_F32 || a->type == HT_F64) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: argument %u must be an integer scalar", l->kernel, i);
        return false;
    }
    *out = a->i;
    return true;
}

static bool f32_arg(const HostLaunch *l, unsigned i, float *out, GError **error)
{
    const HostArg *a = &l->args[i];
    if (a->is_buffer || a->type != HT_F32) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: argument %u must be an f32 scalar", l->kernel, i);
        return false;
    }
    *out = (float)a->f;
    return true;
}

static bool nonneg(const HostLaunch *l, int64_t v, GError **error)
{
    if (v >= 0 && v <= (1 << 28))
        return true;
    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                "%s: error: size argument %lld out of range", l->kernel, (long long)v);
    return false;
}

static size_t threads_x(const HostLaunch *l) { return (size_t)l->grid[0] * l->block[0]; }
static size_t threads_y(const HostLaunch *l) { return (size_t)l->grid[1] * l->block[1]; }

/* ---- saxpy (both the nvcc 13 and the PTX 1.x listing) ---- */

static bool model_saxpy(const HostLaunch *l, GError **error)
{
    int64_t n;
    float a;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error) ||
        !f32_arg(l, 1, &a, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const float *x = buf_arg(l, 2, HT_F32, m, error);
    float *y = x ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    if (!y)
        return false;
    for (size_t i = 0; i < m; i++)
        y[i] = fmaf(a, x[i], y[i]);
    return true;
}

/* ---- dec2zero: the loop only ever ends at 0 for a positive element ---- */

static bool model_dec2zero(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 2, error) || !int_arg(l, 1, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    int32_t *v = buf_arg(l, 0, HT_S32, m, error);
    if (!v)
        return false;
    for (size_t i = 0; i < m; i++)
        if (v[i] > 0)
            v[i] = 0;
    return true;
}

/* ---- bitonic sorts: one block sorts blockDim.x ints ascending ---- */

static int cmp_s32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static bool model_bitonic(const HostLaunch *l, GError **error)
{
    if (!need_args(l, 1, error))
        return false;
    if (l->grid[0] != 1 || l->block[0] != 512) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the kernel sorts NUM = 512 values in one block of 512",
                    l->kernel);
        return false;
    }
    int32_t *v = buf_arg(l, 0, HT_S32, 512, error);
    if (!v)
        return false;
    qsort(v, 512, sizeof *v, cmp_s32);
    return true;
}

/* ---- matrix products A = B x C (W x W), k ascending, fused ---- */

static bool matrix_args(const HostLaunch *l, unsigned wi, const float **b,
                        const float **c, float **a, size_t *w, GError **error)
{
    int64_t width;
    if (!need_args(l, 4, error) || !int_arg(l, wi, &width, error) ||
        !nonneg(l, width, error))
        return false;
    *w = (size_t)width;
    if (threads_x(l) < *w || threads_y(l) < *w) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the grid must cover the %zu x %zu matrix", l->kernel,
                    *w, *w);
        return false;
    }
    size_t need = *w * *w;
    *b = buf_arg(l, 0, HT_F32, need, error);
    *c = *b ? buf_arg(l, 1, HT_F32, need, error) : NULL;
    *a = *c ? buf_arg(l, 2, HT_F32, need, error) : NULL;
    return *a != NULL;
}

static void matrix_product(const float *b, const float *c, float *a, size_t w)
{
    for (size_t i = 0; i < w; i++)
        for (size_t j = 0; j < w; j++) {
            float acc = 0.0f;
            for (size_t k = 0; k < w; k++)
                acc = fmaf(b[i * w + k], c[k * w + j], acc);
            a[i * w + j] = acc;
        }
}

/* matMul*, MatrixMulti (P5): pointers B, C, A and the width by value */
static bool model_matmul(const HostLaunch *l, GError **error)
{
    const float *b, *c;
    float *a;
    size_t w;
    if (!matrix_args(l, 3, &b, &c, &a, &w, error))
        return false;
    matrix_product(b, c, a, w);
    return true;
}

/* OpenCL matrixmulti (P4): the width behind a pointer in argument 3 */
static bool model_matrixmulti_ocl(const HostLaunch *l, GError **error)
{
    if (!need_args(l, 4, error))
        return false;
    const int32_t *np = buf_arg(l, 3, HT_S32, 1, error);
    if (!np)
        return false;
    if (!nonneg(l, *np, error))
        return false;
    size_t w = (size_t)*np;
    if (threads_x(l) < w || threads_y(l) < w) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the grid must cover the matrix", l->kernel);
        return false;
    }
    const float *a = buf_arg(l, 0, HT_F32, w * w, error);
    const float *b = a ? buf_arg(l, 1, HT_F32, w * w, error) : NULL;
    float *c = b ? buf_arg(l, 2, HT_F32, w * w, error) : NULL;
    if (!c)
        return false;
    matrix_product(a, b, c, w);
    return true;
}

/* ---- matrix copies of seed 003: every thread (x, y) copies one float ---- */

typedef enum { COPY_X_MAJOR, COPY_Y_MAJOR } CopyOrder;

static bool copy_matrix(const HostLaunch *l, const float *src, float *dst, size_t w,
                        CopyOrder order)
{
    (void)l;
    for (size_t y = 0; y < w; y++)
        for (size_t x = 0; x < w; x++) {
            size_t idx = order == COPY_X_MAJOR ? x * w + y : y * w + x;
            dst[idx] = src[idx];
        }
    return true;
}

static bool copy_cuda(const HostLaunch *l, CopyOrder order, GError **error)
{
    int64_t rows, cols;
    if (!need_args(l, 4, error) || !int_arg(l, 2, &rows, error) ||
        !int_arg(l, 3, &cols, error) || !nonneg(l, cols, error))
        return false;
    size_t w = (size_t)cols;
    if (rows != cols || threads_x(l) != w || threads_y(l) != w) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: model expects a square matrix covered by the grid",
                    l->kernel);
        return false;
    }
    const float *a = buf_arg(l, 0, HT_F32, w * w, error);
    float *b = a ? buf_arg(l, 1, HT_F32, w * w, error) : NULL;
    return b && copy_matrix(l, a, b, w, order);
}

/* P1: index row * columnSize + column (the transposed form) */
static bool model_copy_p1(const HostLaunch *l, GError **error)
{
    return copy_cuda(l, COPY_X_MAJOR, error);
}

/* P3: index column * columnSize + row (as the printed CUDA source) */
static bool model_copy_p3(const HostLaunch *l, GError **error)
{
    return copy_cuda(l, COPY_Y_MAJOR, error);
}

/* P2: OpenCL, rowSize behind a pointer, index y * rowSize + x */
static bool model_copy_ocl(const HostLaunch *l, GError **error)
{
    if (!need_args(l, 4, error))
        return false;
    const int32_t *rs = buf_arg(l, 2, HT_S32, 1, error);
    if (!rs || !nonneg(l, *rs, error))
        return false;
    size_t w = (size_t)*rs;
    if (threads_x(l) != w || threads_y(l) != w) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: model expects the grid to cover the square matrix",
                    l->kernel);
        return false;
    }
    const float *a = buf_arg(l, 0, HT_F32, w * w, error);
    float *b = a ? buf_arg(l, 1, HT_F32, w * w, error) : NULL;
    return b && copy_matrix(l, a, b, w, COPY_Y_MAJOR);
}

/* ---- divergence / noDivergence (seed 004) ---- */

static bool divergence_common(const HostLaunch *l, bool warp_aligned, GError **error)
{
    if (!need_args(l, 2, error))
        return false;
    size_t n = threads_x(l);
    const float *a = buf_arg(l, 0, HT_F32, n, error);
    float *b = a ? buf_arg(l, 1, HT_F32, n, error) : NULL;
    if (!b)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned tid = (unsigned)(i % l->block[0]);
        bool plus = warp_aligned ? tid >= 32 : tid % 32 == 0;
        b[i] = plus ? a[i] + 1.0f : a[i] - 1.0f;
    }
    return true;
}

static bool model_divergence(const HostLaunch *l, GError **error)
{
    return divergence_common(l, false, error);
}

static bool model_no_divergence(const HostLaunch *l, GError **error)
{
    return divergence_common(l, true, error);
}

/* ---- transposes: odata (width x height) = idata (height x width)^T ---- */

static bool model_transpose(const HostLaunch *l, GError **error)
{
    int64_t width, height;
    if (!need_args(l, 4, error) || !int_arg(l, 2, &width, error) ||
        !int_arg(l, 3, &height, error) || !nonneg(l, width, error) ||
        !nonneg(l, height, error))
        return false;
    size_t w = (size_t)width, h = (size_t)height;
    if (threads_x(l) != w || (size_t)l->grid[1] * 32 != h) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the grid must tile the matrix in 32 x 32 tiles",
                    l->kernel);
        return false;
    }
    float *out = buf_arg(l, 0, HT_F32, w * h, error);
    const float *in = out ? buf_arg(l, 1, HT_F32, w * h, error) : NULL;
    if (!in)
        return false;
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++)
            out[x * h + y] = in[y * w + x];
    return true;
}

/* ---- reductions, replaying the kernels' pairings exactly ---- */

/* The 256-thread shared-memory tree of reduceShared and sumLastBlock. */
static float block_tree_256(float s[256])
{
    for (size_t stride = 128; stride > 0; stride >>= 1)
        for (size_t t = 0; t < stride; t++)
            s[t] += s[t + stride];
    return s[0];
}

/* Each block's sum of its 512 inputs, first added during the load and then
 * by the tree (reduceShared, sumLastBlock): in and out from the launch's
 * arguments 0 and 1, n from argument n_arg. */
static bool block_sums_256(const HostLaunch *l, unsigned nargs, unsigned n_arg, float **sums_out, GError **error)
{
    int64_t n;
    if (!need_args(l, nargs, error) || !int_arg(l, n_arg, &n, error) || !nonneg(l, n, error))
        return false;
    size_t bs = l->block[0], nb = l->grid[0];
    if (bs != 256) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the kernel's shared array holds 256 floats", l->kernel);
        return false;
    }
    const float *in = buf_arg(l, 0, HT_F32, MIN((size_t)n, nb * bs * 2), error);
    float *out = in ? buf_arg(l, 1, HT_F32, nb, error) : NULL;
    if (!out)
        return false;
    float s[256];
    for (size_t b = 0; b < nb; b++) {
        for (size_t t = 0; t < bs; t++) {
            size_t i = b * bs * 2 + t;
            float v = 0.0f;
            if (i < (size_t)n)
                v = in[i];
            if (i + bs < (size_t)n)
                v += in[i + bs];
            s[t] = v;
        }
        out[b] = block_tree_256(s);
    }
    *sums_out = out;
    return true;
}

static bool model_reduce_shared(const HostLaunch *l, GError **error)
{
    float *out;
    return block_sums_256(l, 3, 2, &out, error);
}

/* ---- memory fences (traces/threadfence) ---- */

static bool model_fence_stores(const HostLaunch *l, GError **error)
{
    int64_t n, rounds;
    if (!need_args(l, 3, error) || !int_arg(l, 1, &n, error) || !nonneg(l, n, error) ||
        !int_arg(l, 2, &rounds, error) || !nonneg(l, rounds, error))
        return false;
    size_t m = threads_x(l);
    float *out = buf_arg(l, 0, HT_F32, (size_t)rounds * (size_t)n, error);
    if (!out)
        return false;
    for (size_t k = 0; k < (size_t)rounds; k++)
        for (size_t i = 0; i < m && i < (size_t)n; i++)
            out[k * (size_t)n + i] = (float)(uint32_t)(i + k);
    return true;
}

static bool model_sum_last_block(const HostLaunch *l, GError **error)
{
    float *partial;
    if (!block_sums_256(l, 5, 4, &partial, error))
        return false;
    uint32_t *count = buf_arg(l, 2, HT_U32, 1, error);
    float *total = count ? buf_arg(l, 3, HT_F32, 1, error) : NULL;
    if (!total)
        return false;
    /* whichever block is last, it sums the same partials the same way */
    size_t bs = l->block[0], nb = l->grid[0];
    float s[256];
    for (size_t t = 0; t < bs; t++) {
        float v = 0.0f;
        for (size_t j = t; j < nb; j += bs)
            v += partial[j];
        s[t] = v;
    }
    *total = block_tree_256(s);
    *count = 0;
    return true;
}

/* One warp's __shfl_down_sync tree: lanes whose source is past lane 31 get
 * their own value back, as the hardware does. */
static float warp_shfl_sum(float v[32])
{
    for (unsigned off = 16; off > 0; off >>= 1) {
        float next[32];
        for (unsigned lane = 0; lane < 32; lane++)
            next[lane] = v[lane] + (lane + off < 32 ? v[lane + off] : v[lane]);
        memcpy(v, next, sizeof next);
    }
    return v[0];
}

static bool model_reduce_shfl(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 2, &n, error) || !nonneg(l, n, error))
        return false;
    size_t bs = l->block[0], nb = l->grid[0];
    if (bs % 32 != 0 || bs > 1024) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: block size must be a multiple of 32 up to 1024", l->kernel);
        return false;
    }
    const float *in = buf_arg(l, 0, HT_F32, MIN((size_t)n, nb * bs), error);
    float *out = in ? buf_arg(l, 1, HT_F32, nb, error) : NULL;
    if (!out)
        return false;
    for (size_t b = 0; b < nb; b++) {
        float sums[32];
        size_t nwarps = bs / 32;
        for (size_t w = 0; w < nwarps; w++) {
            float v[32];
            for (size_t lane = 0; lane < 32; lane++) {
                size_t i = b * bs + w * 32 + lane;
                v[lane] = i < (size_t)n ? in[i] : 0.0f;
            }
            sums[w] = warp_shfl_sum(v);
        }
        float v[32];
        for (size_t lane = 0; lane < 32; lane++)
            v[lane] = lane < nwarps ? sums[lane] : 0.0f;
        out[b] = warp_shfl_sum(v);
    }
    return true;
}

/* ---- exclusive scan of 512-element segments (unsigned, wrapping) ---- */

static bool model_scan(const HostLaunch *l, GError **error)
{
    if (!need_args(l, 2, error))
        return false;
    size_t n = (size_t)l->grid[0] * 512;
    if (l->block[0] != 256) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: 256 threads scan 512 elements per block", l->kernel);
        return false;
    }
    const uint32_t *in = buf_arg(l, 0, HT_U32, n, error);
    uint32_t *out = in ? buf_arg(l, 1, HT_U32, n, error) : NULL;
    if (!out)
        return false;
    for (size_t base = 0; base < n; base += 512) {
        uint32_t sum = 0;
        for (size_t i = 0; i < 512; i++) {
            uint32_t v = in[base + i];
            out[base + i] = sum;
            sum += v;
        }
    }
    return true;
}

/* ---- histogram: counts of data[i] % 256 added into bins ---- */

static bool model_histogram(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 1, &n, error) || !nonneg(l, n, error))
        return false;
    const uint32_t *data = buf_arg(l, 0, HT_U32, (size_t)n, error);
    uint32_t *bins = data ? buf_arg(l, 2, HT_U32, 256, error) : NULL;
    if (!bins)
        return false;
    for (size_t i = 0; i < (size_t)n; i++)
        bins[data[i] % 256]++;
    return true;
}

/* ---- shared_atomics: lane l of warp w updates word ((l >> shift) * stride
 * + 64 w) % 1024 of a block's words iters times; the block writes them out */

typedef enum { SA_ADD_LANE, SA_ADD_ONE, SA_ADD_THREE, SA_ADD_ITERS, SA_MAX_LANE } SharedAtomicUpdate;

static bool shared_atomics(const HostLaunch *l, SharedAtomicUpdate update, GError **error)
{
    int64_t shift, stride, iters;
    if (!need_args(l, 4, error) || !int_arg(l, 1, &shift, error) || !int_arg(l, 2, &stride, error) ||
        !int_arg(l, 3, &iters, error) || !nonneg(l, iters, error))
        return false;
    uint32_t *out = buf_arg(l, 0, HT_U32, (size_t)l->grid[0] * 1024, error);
    if (!out)
        return false;
    uint32_t words[1024] = {0};
    for (uint32_t t = 0; t < l->block[0]; t++) {
        uint32_t lane = t & 31, warp = t >> 5;
        uint32_t w = (((lane >> (uint32_t)shift) * (uint32_t)stride) + 64 * warp) % 1024;
        for (uint32_t k = 0; k < (uint32_t)iters; k++) {
            uint32_t v = update == SA_ADD_ONE ? 1 : update == SA_ADD_THREE ? 3 : update == SA_ADD_ITERS ? (uint32_t)iters : lane + k;
            words[w] = update == SA_MAX_LANE ? MAX(words[w], v) : words[w] + v;
        }
    }
    for (uint32_t b = 0; b < l->grid[0]; b++)
        memcpy(out + (size_t)b * 1024, words, sizeof words);
    return true;
}

static bool model_shared_atomics(const HostLaunch *l, GError **error) { return shared_atomics(l, SA_ADD_LANE, error); }
static bool model_shared_atomics_one(const HostLaunch *l, GError **error) { return shared_atomics(l, SA_ADD_ONE, error); }
static bool model_shared_atomics_three(const HostLaunch *l, GError **error) { return shared_atomics(l, SA_ADD_THREE, error); }
static bool model_shared_atomics_uniform(const HostLaunch *l, GError **error) { return shared_atomics(l, SA_ADD_ITERS, error); }
static bool model_shared_atomics_max(const HostLaunch *l, GError **error) { return shared_atomics(l, SA_MAX_LANE, error); }

/* ---- per-thread sort of 8 ints in a local array ---- */

static bool model_sort_local(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 2, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const int32_t *in = buf_arg(l, 0, HT_S32, m * 8, error);
    int32_t *out = in ? buf_arg(l, 1, HT_S32, m * 8, error) : NULL;
    if (!out)
        return false;
    for (size_t t = 0; t < m; t++) {
        memcpy(out + t * 8, in + t * 8, 8 * sizeof *out);
        qsort(out + t * 8, 8, sizeof *out, cmp_s32);
    }
    return true;
}

/* ---- f64 polynomial with __constant__ coefficients ---- */

static bool model_poly_f64(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 2, &n, error) || !nonneg(l, n, error))
        return false;
    HostBuf *coeff = l->globals ? g_hash_table_lookup(l->globals, "coeff") : NULL;
    if (!coeff || coeff->type != HT_F64 || coeff->count < 6) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: needs the global 'coeff' as 6 f64 values", l->kernel);
        return false;
    }
    const double *c = (const double *)coeff->data;
    size_t m = MIN((size_t)n, threads_x(l));
    const double *x = buf_arg(l, 0, HT_F64, m, error);
    double *y = x ? buf_arg(l, 1, HT_F64, m, error) : NULL;
    if (!y)
        return false;
    for (size_t i = 0; i < m; i++) {
        double v = x[i], p = c[5];
        for (int k = 4; k >= 0; --k)
            p = fma(p, v, c[k]);
        y[i] = p / fma(v, v, 1.0) + sqrt(fabs(v));
    }
    return true;
}

/* ---- transcendentals: host libm in double, rounded to float ---- */

typedef double (*UnaryFn)(double a, double b);

static double f_sin(double a, double b) { (void)b; return sin(a); }
static double f_exp(double a, double b) { (void)b; return exp(a); }
static double f_log(double a, double b) { (void)a; return log(b); }
static double f_sqrt(double a, double b) { (void)a; return sqrt(b); }
static double f_tanh(double a, double b) { (void)b; return tanh(a); }
static double f_pow(double a, double b) { return pow(b, a); }
static double f_rsqrt(double a, double b) { (void)a; return 1.0 / sqrt(b); }
static double f_div(double a, double b) { return a / b; }

static bool math_common(const HostLaunch *l, const UnaryFn fns[6], GError **error)
{
    int64_t n;
    if (!need_args(l, 9, error) || !int_arg(l, 2, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const float *x = buf_arg(l, 0, HT_F32, m, error);
    const float *p = x ? buf_arg(l, 1, HT_F32, m, error) : NULL;
    if (!p)
        return false;
    for (unsigned f = 0; f < 6; f++) {
        float *o = buf_arg(l, 3 + f, HT_F32, m, error);
        if (!o)
            return false;
        for (size_t i = 0; i < m; i++)
            o[i] = (float)fns[f](x[i], p[i]);
    }
    return true;
}

static bool model_math_accurate(const HostLaunch *l, GError **error)
{
    static const UnaryFn fns[6] = {f_sin, f_exp, f_log, f_sqrt, f_tanh, f_pow};
    return math_common(l, fns, error);
}

static bool model_math_fast(const HostLaunch *l, GError **error)
{
    static const UnaryFn fns[6] = {f_sin, f_exp, f_log, f_rsqrt, f_div, f_pow};
    return math_common(l, fns, error);
}

/* ---- ILP chains of seed 004: kernel0/1/2 run 1, 2, 4 FMA chains ---- */

/* N_ITERATIONS: 256 in traces/ilp/ilp.cu, 8192 in traces/ilp_full/ilp_full.cu */
static unsigned ilp_iterations(const HostLaunch *l)
{
    return l->ptx && strstr(l->ptx, "ilp_full") ? 8192 : 256;
}

static bool ilp_common(const HostLaunch *l, unsigned chains, GError **error)
{
    const unsigned iterations = ilp_iterations(l);
    int64_t n;
    if (!need_args(l, 4, error) || !int_arg(l, 3, &n, error) || !nonneg(l, n, error))
        return false;
    size_t part = (size_t)n / chains, m = MIN(part, threads_x(l));
    float *a = buf_arg(l, 0, HT_F32, (size_t)n, error);
    const float *b = a ? buf_arg(l, 1, HT_F32, (size_t)n, error) : NULL;
    const float *c = b ? buf_arg(l, 2, HT_F32, (size_t)n, error) : NULL;
    if (!c)
        return false;
    for (size_t tid = 0; tid < m; tid++)
        for (unsigned j = 0; j < chains; j++) {
            /* the kernels' offsets N/4, N/2, 3*N/4 are (j*N)/chains */
            size_t i = tid + (size_t)((uint64_t)j * (uint64_t)n / chains);
            float v = a[i];
            for (unsigned k = 0; k < iterations; k++)
                v = fmaf(v, b[i], c[i]);
            a[i] = v;
        }
    return true;
}

static bool model_ilp1(const HostLaunch *l, GError **error) { return ilp_common(l, 1, error); }
static bool model_ilp2(const HostLaunch *l, GError **error) { return ilp_common(l, 2, error); }
static bool model_ilp4(const HostLaunch *l, GError **error) { return ilp_common(l, 4, error); }

/* ---- seed 004 TD1: CUDA by Example's dot product in double ---- */

/* N = 33 * 1024 is a constant of traces/dot_td1/dot_td1.cu.  Each thread's
 * grid-stride sum is fma(a, b, temp) as the PTX computes it; then the
 * block's tree, cache[k] = cache[k + i] + cache[k] for i = blockDim/2, /4,
 * ... 1, and c[blockIdx.x] = cache[0]. */
#define DOT_TD1_N 33792
#define DOT_TD1_BLOCK 256

static bool model_dot_td1(const HostLaunch *l, GError **error)
{
    if (!need_args(l, 3, error))
        return false;
    size_t bs = l->block[0], stride = threads_x(l);
    if (bs > DOT_TD1_BLOCK || l->block[1] * l->block[2] != 1 || l->grid[1] * l->grid[2] != 1) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: one-dimensional blocks of at most %d threads", l->kernel,
                    DOT_TD1_BLOCK);
        return false;
    }
    const double *a = buf_arg(l, 0, HT_F64, DOT_TD1_N, error);
    const double *b = a ? buf_arg(l, 1, HT_F64, DOT_TD1_N, error) : NULL;
    double *c = b ? buf_arg(l, 2, HT_F64, l->grid[0], error) : NULL;
    if (!c)
        return false;
    double cache[DOT_TD1_BLOCK];
    for (size_t blk = 0; blk < l->grid[0]; blk++) {
        for (size_t t = 0; t < bs; t++) {
            double temp = 0.0;
            for (size_t i = blk * bs + t; i < DOT_TD1_N; i += stride)
                temp = fma(a[i], b[i], temp);
            cache[t] = temp;
        }
        for (size_t half = bs / 2; half != 0; half /= 2)
            for (size_t t = 0; t < half; t++)
                cache[t] = cache[t + half] + cache[t];
        c[blk] = cache[0];
    }
    return true;
}

/* ---- seed 004 "ILP : est-ce automatique ?": testKernel1 ---- */

/* output[tid] = ((0 + in[8 tid]) + in[8 tid + 1]) + ... + in[8 tid + 7] in
 * float, for tid < min(N, threads). */
static bool model_test_kernel1(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 2, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const float *in = buf_arg(l, 0, HT_F32, 8 * m, error);
    float *out = in ? buf_arg(l, 1, HT_F32, m, error) : NULL;
    if (!out)
        return false;
    for (size_t tid = 0; tid < m; tid++) {
        float accum = 0.0f;
        for (size_t i = 0; i < 8; i++)
            accum = accum + in[8 * tid + i];
        out[tid] = accum;
    }
    return true;
}

/* ---- adjacent difference (both kernels): result[i] = in[i] - in[i-1] ---- */

static bool model_adj_diff(const HostLaunch *l, GError **error)
{
    if (!need_args(l, 2, error))
        return false;
    size_t n = threads_x(l);
    int32_t *result = buf_arg(l, 0, HT_S32, n, error);
    const int32_t *input = result ? buf_arg(l, 1, HT_S32, n, error) : NULL;
    if (!input)
        return false;
    for (size_t i = 1; i < n; i++) /* int subtraction wraps on the GPU */
        result[i] = (int32_t)((uint32_t)input[i] - (uint32_t)input[i - 1]);
    return true;
}

/* ---- coalescing sweeps: a[gid + s] += 1 or a[gid * s] += 1 ---- */

typedef enum { ACCESS_OFFSET, ACCESS_STRIDE } AccessPattern;

static bool coalescing_common(const HostLaunch *l, HostType t, AccessPattern p,
                              GError **error)
{
    int64_t s;
    if (!need_args(l, 2, error) || !int_arg(l, 1, &s, error) || !nonneg(l, s, error))
        return false;
    size_t n = threads_x(l);
    size_t need = p == ACCESS_OFFSET ? n + (size_t)s : (n - 1) * (size_t)s + 1;
    void *a = buf_arg(l, 0, t, need, error);
    if (!a)
        return false;
    for (size_t gid = 0; gid < n; gid++) {
        size_t i = p == ACCESS_OFFSET ? gid + (size_t)s : gid * (size_t)s;
        if (t == HT_F32)
            ((float *)a)[i] += 1.0f;
        else
            ((double *)a)[i] += 1.0;
    }
    return true;
}

static bool model_offset_f32(const HostLaunch *l, GError **error)
{
    return coalescing_common(l, HT_F32, ACCESS_OFFSET, error);
}

static bool model_stride_f32(const HostLaunch *l, GError **error)
{
    return coalescing_common(l, HT_F32, ACCESS_STRIDE, error);
}

static bool model_offset_f64(const HostLaunch *l, GError **error)
{
    return coalescing_common(l, HT_F64, ACCESS_OFFSET, error);
}

static bool model_stride_f64(const HostLaunch *l, GError **error)
{
    return coalescing_common(l, HT_F64, ACCESS_STRIDE, error);
}

/* ---- shared-memory bank kernels: thread t reads tile[t*s] `iters` times,
 * writing back the value read plus one; out = the sum of the values read.
 * Every thread owns its own element (s >= 1), so the order of threads does
 * not matter. ---- */

static bool bank_args(const HostLaunch *l, HostType out_type, void **out, size_t *n,
                      int64_t *iters, GError **error)
{
    int64_t s;
    if (!need_args(l, 3, error) || !int_arg(l, 1, &s, error) ||
        !int_arg(l, 2, iters, error) || !nonneg(l, *iters, error))
        return false;
    if (s < 1 && l->block[0] * l->block[1] * l->block[2] > 1) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: stride %lld makes threads share an element", l->kernel,
                    (long long)s);
        return false;
    }
    *n = threads_x(l);
    *out = buf_arg(l, 0, out_type, *n, error);
    return *out != NULL;
}

static bool model_bank_float(const HostLaunch *l, GError **error)
{
    void *out;
    size_t n;
    int64_t iters;
    if (!bank_args(l, HT_F32, &out, &n, &iters, error))
        return false;
    for (size_t g = 0; g < n; g++) {
        float v = (float)(unsigned)(g % l->block[0]), acc = 0.0f;
        for (int64_t k = 0; k < iters; k++) {
            acc += v;
            v = v + 1.0f;
        }
        ((float *)out)[g] = acc;
    }
    return true;
}

static bool model_bank_double(const HostLaunch *l, GError **error)
{
    void *out;
    size_t n;
    int64_t iters;
    if (!bank_args(l, HT_F64, &out, &n, &iters, error))
        return false;
    for (size_t g = 0; g < n; g++) {
        double v = (double)(unsigned)(g % l->block[0]), acc = 0.0;
        for (int64_t k = 0; k < iters; k++) {
            acc += v;
            v = v + 1.0;
        }
        ((double *)out)[g] = acc;
    }
    return true;
}

/* char and short: the element wraps at its width, the u32 sum does not */
static bool bank_narrow(const HostLaunch *l, uint32_t wrap_mask, GError **error)
{
    void *out;
    size_t n;
    int64_t iters;
    if (!bank_args(l, HT_U32, &out, &n, &iters, error))
        return false;
    for (size_t g = 0; g < n; g++) {
        uint32_t v = (uint32_t)(g % l->block[0]) & wrap_mask, acc = 0;
        for (int64_t k = 0; k < iters; k++) {
            acc += v;
            v = (v + 1) & wrap_mask;
        }
        ((uint32_t *)out)[g] = acc;
    }
    return true;
}

static bool model_bank_char(const HostLaunch *l, GError **error)
{
    return bank_narrow(l, 0xffu, error);
}

static bool model_bank_short(const HostLaunch *l, GError **error)
{
    return bank_narrow(l, 0xffffu, error);
}

/* tileColumns(Padded): thread (tx, ty) of block b sums `iters` copies of
 * in[b*1024 + tx*32 + ty] (the tile read by columns) into out[b*1024 +
 * ty*32 + tx]; padding changes the banks, not the result. */
/* ---- mio_queue: K independent loads per round (K from the kernel's name),
 * each round's addresses (round * 8) & mask elements on ---- */

static bool model_mio_loads(const HostLaunch *l, GError **error)
{
    int64_t stride, iters, mask;
    const char *digits = l->kernel + strcspn(l->kernel, "0123456789");
    int64_t k_loads = g_ascii_strtoll(digits, NULL, 10);
    if (!need_args(l, 5, error) || !int_arg(l, 2, &stride, error) || !nonneg(l, stride, error) ||
        !int_arg(l, 3, &iters, error) || !nonneg(l, iters, error) || !int_arg(l, 4, &mask, error) ||
        !nonneg(l, mask, error))
        return false;
    if (k_loads < 1 || k_loads > 8) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: no load count in the kernel's name", l->kernel);
        return false;
    }
    /* every warp of a block stores the same 32 sums at out[block * 32 + lane] */
    size_t n = (size_t)l->grid[0] * 32;
    const float *in = buf_arg(l, 0, HT_F32, (size_t)(31 * stride + k_loads + mask), error);
    float *out = in ? buf_arg(l, 1, HT_F32, n, error) : NULL;
    if (!out)
        return false;
    for (size_t g = 0; g < n; g++) {
        const float *p = in + (g % 32) * (size_t)stride;
        float acc = 0.0f;
        for (int64_t it = 0; it < iters; it++)
            for (int64_t k = 0; k < k_loads; k++)
                acc += p[((it * 8) & mask) + k];
        out[g] = acc;
    }
    return true;
}

static bool model_tile_columns(const HostLaunch *l, GError **error)
{
    int64_t iters;
    if (!need_args(l, 3, error) || !int_arg(l, 2, &iters, error) ||
        !nonneg(l, iters, error))
        return false;
    if (l->block[0] != 32 || l->block[1] != 32) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the kernel needs blocks of 32 x 32 threads", l->kernel);
        return false;
    }
    size_t n = (size_t)l->grid[0] * 1024;
    const float *in = buf_arg(l, 0, HT_F32, n, error);
    float *out = in ? buf_arg(l, 1, HT_F32, n, error) : NULL;
    if (!out)
        return false;
    for (size_t b = 0; b < l->grid[0]; b++)
        for (size_t ty = 0; ty < 32; ty++)
            for (size_t tx = 0; tx < 32; tx++) {
                float v = in[b * 1024 + tx * 32 + ty], acc = 0.0f;
                for (int64_t k = 0; k < iters; k++)
                    acc += v;
                out[b * 1024 + ty * 32 + tx] = acc;
            }
    return true;
}

/* ---- 3D star stencils of seed 001 (BASE and CSL compute the same) ----
 * Radius R from the entry name (stencilBase_rR); interior Dx x Dy x Dz,
 * arrays with an R halo.  nvcc evaluates c0*x0 + c1*x1 + ... as
 * fma(c0, x0, c1*x1) followed by one fma per further term, in the order
 * -k, +k (X), -k*dimx, +k*dimx (Y), +k*plane, -k*plane (Z), k = 1..R. */
static bool model_stencil(const HostLaunch *l, GError **error)
{
    const char *r_at = strstr(l->kernel, "_r");
    int radius = r_at ? atoi(r_at + 2) : 0;
    int64_t dx, dy, dz;
    if (radius < 1 || radius > 5) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: no radius 1..5 in the kernel name", l->kernel);
        return false;
    }
    if (!need_args(l, 5, error) || !int_arg(l, 2, &dx, error) || !int_arg(l, 3, &dy, error) ||
        !int_arg(l, 4, &dz, error) || !nonneg(l, dx, error) || !nonneg(l, dy, error) ||
        !nonneg(l, dz, error))
        return false;
    size_t ncoeff = 6 * (size_t)radius + 1;
    HostBuf *coeff = l->globals ? g_hash_table_lookup(l->globals, "coeff") : NULL;
    if (!coeff || coeff->type != HT_F32 || coeff->count < ncoeff) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: needs the global 'coeff' as %zu f32 values", l->kernel,
                    ncoeff);
        return false;
    }
    const float *c = (const float *)coeff->data;
    size_t dimx = (size_t)dx + 2 * radius, dimy = (size_t)dy + 2 * radius;
    size_t plane = dimx * dimy, total = plane * ((size_t)dz + 2 * radius);
    const float *a = buf_arg(l, 0, HT_F32, total, error);
    float *b = a ? buf_arg(l, 1, HT_F32, total, error) : NULL;
    if (!b)
        return false;
    size_t nx = MIN((size_t)dx, threads_x(l)), ny = MIN((size_t)dy, threads_y(l));
    size_t nz = MIN((size_t)dz, (size_t)l->grid[2] * l->block[2]);
    for (size_t z = 0; z < nz; z++)
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < nx; x++) {
                size_t i = (z + radius) * plane + (y + radius) * dimx + (x + radius);
                float acc = 0.0f;
                for (int k = 1; k <= radius; k++) {
                    const size_t off[6] = {i - k, i + k, i - k * dimx, i + k * dimx,
                                           i + k * plane, i - k * plane};
                    for (int t = 0; t < 6; t++) {
                        float term_c = c[6 * (k - 1) + 1 + t], term_x = a[off[t]];
                        acc = (k == 1 && t == 0) ? fmaf(c[0], a[i], term_c * term_x)
                                                 : fmaf(term_c, term_x, acc);
                    }
                }
                b[i] = acc;
            }
    return true;
}

/* ---- nonShared1 / regPress2 (seed 000 Fig. 1.40/1.41): both compute, per
 * column tid of the Width x Width matrix In, acc += In[k] / (a - b);
 * acc -= In[k] / (c - d) in float, k = tid, tid + Width, ..., with
 * a, b, c, d = 2, 3, 5, 7 rotating (a <- b <- c <- d <- a) each step ---- */
static bool model_regpress(const HostLaunch *l, GError **error)
{
    int64_t width;
    if (!need_args(l, 3, error) || !int_arg(l, 2, &width, error) || !nonneg(l, width, error))
        return false;
    size_t w = (size_t)width;
    const float *in = buf_arg(l, 0, HT_F32, w * w, error);
    float *out = in ? buf_arg(l, 1, HT_F32, w, error) : NULL;
    if (!out)
        return false;
    size_t n = MIN(threads_x(l), w);
    for (size_t tid = 0; tid < n; tid++) {
        float acc = 0.0f, a = 2.0f, b = 3.0f, c = 5.0f, d = 7.0f;
        for (size_t k = tid; k < w * w; k += w) {
            acc = acc + in[k] / (a - b);
            acc = acc - in[k] / (c - d);
            float aux = a; a = b; b = c; c = d; d = aux;
        }
        out[tid] = acc;
    }
    return true;
}

/* ---- common_kernels: seven everyday kernels (traces/common_kernels) ---- */

static bool model_spmv_ell(const HostLaunch *l, GError **error)
{
    int64_t n, k;
    if (!need_args(l, 6, error) || !int_arg(l, 0, &n, error) || !int_arg(l, 1, &k, error) ||
        !nonneg(l, n, error) || !nonneg(l, k, error))
        return false;
    size_t rows = MIN((size_t)n, threads_x(l)), nk = (size_t)n * (size_t)k;
    const float *val = buf_arg(l, 2, HT_F32, nk, error);
    const int32_t *col = val ? buf_arg(l, 3, HT_S32, nk, error) : NULL;
    size_t nx = 0;
    const float *x = col ? buf_all(l, 4, HT_F32, &nx, error) : NULL;
    float *y = x ? buf_arg(l, 5, HT_F32, rows, error) : NULL;
    if (!y)
        return false;
    for (size_t row = 0; row < rows; row++) {
        float sum = 0.0f;
        for (size_t j = 0; j < (size_t)k; j++) {
            int32_t c = col[j * (size_t)n + row];
            if (c < 0)
                continue;
            if ((size_t)c >= nx) {
                g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: column %d beyond x", l->kernel, c);
                return false;
            }
            sum = fmaf(val[j * (size_t)n + row], x[c], sum);
        }
        y[row] = sum;
    }
    return true;
}

/* rsqrtf is rsqrt.approx on the GPU: the host's 1/sqrtf differs in the
 * last bits, which the manifest's tolerance covers. */
static bool model_nbody(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    size_t bodies = threads_x(l);
    const float *pos = buf_arg(l, 1, HT_F32, 4 * MAX(bodies, (size_t)n), error);
    float *acc = pos ? buf_arg(l, 2, HT_F32, 4 * bodies, error) : NULL;
    if (!acc)
        return false;
    for (size_t i = 0; i < bodies; i++) {
        const float *p = pos + 4 * i;
        float ax = 0.f, ay = 0.f, az = 0.f;
        for (size_t j = 0; j < (size_t)n; j++) {
            const float *q = pos + 4 * j;
            float dx = q[0] - p[0], dy = q[1] - p[1], dz = q[2] - p[2];
            float d2 = fmaf(dz, dz, fmaf(dx, dx, dy * dy)) + 1e-3f;
            float inv = 1.0f / sqrtf(d2);
            float s = inv * (inv * (q[3] * inv));
            ax = fmaf(dx, s, ax);
            ay = fmaf(dy, s, ay);
            az = fmaf(dz, s, az);
        }
        acc[4 * i] = ax;
        acc[4 * i + 1] = ay;
        acc[4 * i + 2] = az;
        acc[4 * i + 3] = 0.f;
    }
    return true;
}

/* __expf is ex2.approx(x * log2(e)) on the GPU: the host's exp2f differs
 * in the last bits, which the manifest's tolerance covers.  The sums keep
 * the kernel's order: each lane's columns, then the xor-shuffle tree. */
static bool model_softmax_rows(const HostLaunch *l, GError **error)
{
    int64_t cols;
    if (!need_args(l, 3, error) || !int_arg(l, 0, &cols, error) || !nonneg(l, cols, error))
        return false;
    size_t rows = threads_x(l) / 32, nc = (size_t)cols;
    const float *in = buf_arg(l, 1, HT_F32, rows * nc, error);
    float *out = in ? buf_arg(l, 2, HT_F32, rows * nc, error) : NULL;
    if (!out)
        return false;
    for (size_t row = 0; row < rows; row++) {
        const float *r = in + row * nc;
        float m = -1e30f, s[32], t[32];
        for (size_t c = 0; c < nc; c++)
            m = fmaxf(m, r[c]);
        for (size_t lane = 0; lane < 32; lane++) {
            s[lane] = 0.f;
            for (size_t c = lane; c < nc; c += 32)
                s[lane] += exp2f((r[c] - m) * 1.44269502f);
        }
        for (size_t o = 16; o; o >>= 1) {
            for (size_t lane = 0; lane < 32; lane++)
                t[lane] = s[lane] + s[lane ^ o];
            memcpy(s, t, sizeof s);
        }
        float inv = 1.f / s[0];
        for (size_t c = 0; c < nc; c++)
            out[row * nc + c] = exp2f((r[c] - m) * 1.44269502f) * inv;
    }
    return true;
}

static bool model_conv5x5(const HostLaunch *l, GError **error)
{
    int64_t w, h;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &w, error) || !int_arg(l, 1, &h, error) ||
        !nonneg(l, w, error) || !nonneg(l, h, error))
        return false;
    HostBuf *filt = l->globals ? g_hash_table_lookup(l->globals, "filt") : NULL;
    if (!filt || filt->type != HT_F32 || filt->count < 25) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: needs the global 'filt' as 25 f32 values",
                    l->kernel);
        return false;
    }
    const float *f = (const float *)filt->data;
    size_t nx = MIN((size_t)w, threads_x(l)), ny = MIN((size_t)h, threads_y(l));
    const float *in = buf_arg(l, 2, HT_F32, (size_t)w * (size_t)h, error);
    float *out = in ? buf_arg(l, 3, HT_F32, (size_t)w * (size_t)h, error) : NULL;
    if (!out)
        return false;
    for (size_t y = 2; y + 2 < ny; y++)
        for (size_t x = 2; x + 2 < nx; x++) {
            float s = 0.f;
            for (size_t dy = 0; dy < 5; dy++)
                for (size_t dx = 0; dx < 5; dx++)
                    s = fmaf(f[dy * 5 + dx], in[(y + dy - 2) * (size_t)w + x + dx - 2], s);
            out[y * (size_t)w + x] = s;
        }
    return true;
}

static bool model_vec_add4(const HostLaunch *l, GError **error)
{
    int64_t n4;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n4, error) || !nonneg(l, n4, error))
        return false;
    size_t m = 4 * MIN((size_t)n4, threads_x(l));
    const float *a = buf_arg(l, 1, HT_F32, m, error);
    const float *b = a ? buf_arg(l, 2, HT_F32, m, error) : NULL;
    float *c = b ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    if (!c)
        return false;
    for (size_t i = 0; i < m; i++)
        c[i] = a[i] + b[i];
    return true;
}

static bool model_hist_global(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    const uint32_t *data = buf_arg(l, 1, HT_U32, (size_t)n, error);
    uint32_t *bins = data ? buf_arg(l, 2, HT_U32, 64, error) : NULL;
    if (!bins)
        return false;
    for (size_t i = 0; i < (size_t)n; i++)
        bins[data[i] % 64]++;
    return true;
}

/* A grid of 32 x 32 tiles, each block 32 x 8 threads. */
static bool model_transpose_smem(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = (size_t)n;
    if ((size_t)l->grid[0] * 32 != m || (size_t)l->grid[1] * 32 != m || l->block[0] != 32 || l->block[1] != 8) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the grid must tile the matrix in 32 x 32 tiles of 32 x 8 threads", l->kernel);
        return false;
    }
    const float *in = buf_arg(l, 1, HT_F32, m * m, error);
    float *out = in ? buf_arg(l, 2, HT_F32, m * m, error) : NULL;
    if (!out)
        return false;
    for (size_t r = 0; r < m; r++)
        for (size_t c = 0; c < m; c++)
            out[c * m + r] = in[r * m + c];
    return true;
}

/* ---- classic_kernels: eight classic kernels (traces/classic_kernels) ---- */

/* nvcc keeps zr*zr and zi*zi of the loop test for the next iteration
 * (plain mul, and their sum a plain add: no fma there), computes the new
 * zr as cr + (zr2 - zi2) and contracts 2*zr*zi + ci into fma(zr + zr, zi,
 * ci); the first test (0 <= 4) is folded away.  cr and ci are fmas too. */
static bool model_mandelbrot(const HostLaunch *l, GError **error)
{
    int64_t w, h, maxit;
    float x0, y0, dx, dy;
    if (!need_args(l, 8, error) || !int_arg(l, 0, &w, error) || !int_arg(l, 1, &h, error) ||
        !nonneg(l, w, error) || !nonneg(l, h, error) || !f32_arg(l, 2, &x0, error) ||
        !f32_arg(l, 3, &y0, error) || !f32_arg(l, 4, &dx, error) || !f32_arg(l, 5, &dy, error) ||
        !int_arg(l, 6, &maxit, error))
        return false;
    size_t nx = MIN((size_t)w, threads_x(l)), ny = MIN((size_t)h, threads_y(l));
    int32_t *iters = buf_arg(l, 7, HT_S32, nx && ny ? (ny - 1) * (size_t)w + nx : 0, error);
    if (!iters)
        return false;
    int32_t limit = (int32_t)maxit;
    for (size_t py = 0; py < ny; py++)
        for (size_t px = 0; px < nx; px++) {
            float cr = fmaf((float)(int32_t)px, dx, x0), ci = fmaf((float)(int32_t)py, dy, y0);
            int32_t i = 0;
            if (limit >= 1) {
                float zr = 0.f, zi = 0.f, zr2 = 0.f, zi2 = 0.f;
                do {
                    float t = cr + (zr2 - zi2);
                    zi = fmaf(zr + zr, zi, ci);
                    zr = t;
                    i++;
                    zr2 = zr * zr;
                    zi2 = zi * zi;
                } while (i < limit && zr2 + zi2 <= 4.f);
            }
            iters[py * (size_t)w + px] = i;
        }
    return true;
}

/* The cumulative normal of blackScholes, in the PTX's order: k is a
 * correctly rounded reciprocal (rcp.rn), the polynomial is Horner with
 * fmas, and expf (ex2.approx based on the GPU) comes from the host libm in
 * double, rounded to float. */
static float bs_cnd(float d)
{
    float k = 1.f / fmaf(fabsf(d), 0.2316419f, 1.f);
    float e = (float)exp((double)(d * (d * -0.5f)));
    float p = fmaf(k, fmaf(k, fmaf(k, fmaf(k, 1.330274429f, -1.821255978f), 1.781477937f),
                       -0.356563782f),
                   0.31938153f);
    float c = (e * 0.3989422804f) * (k * p);
    return d > 0.f ? 1.f - c : c;
}

/* logf and expf are the CUDA math library's (last bits differ from any
 * host libm, so the manifest gives tolerances); the rest replays the PTX:
 * (r + 0.5*v*v)*t + log is two fmas, the two products of call and put are
 * separate muls (no fma), sqrtf and the divisions are correctly rounded. */
static bool model_black_scholes(const HostLaunch *l, GError **error)
{
    int64_t n;
    float r, v;
    if (!need_args(l, 8, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error) ||
        !f32_arg(l, 4, &r, error) || !f32_arg(l, 5, &v, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const float *price = buf_arg(l, 1, HT_F32, m, error);
    const float *strike = price ? buf_arg(l, 2, HT_F32, m, error) : NULL;
    const float *years = strike ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    float *call = years ? buf_arg(l, 6, HT_F32, m, error) : NULL;
    float *put = call ? buf_arg(l, 7, HT_F32, m, error) : NULL;
    if (!put)
        return false;
    for (size_t i = 0; i < m; i++) {
        float s = price[i], x = strike[i], t = years[i];
        float lg = (float)log((double)(s / x));
        float vs = sqrtf(t) * v;
        float d1 = fmaf(fmaf(v * 0.5f, v, r), t, lg) / vs;
        float d2 = d1 - vs;
        float e = (float)exp((double)-(t * r));
        float c1 = bs_cnd(d1), c2 = bs_cnd(d2), xe = x * e;
        call[i] = s * c1 - xe * c2;
        put[i] = xe * (1.f - c2) - s * (1.f - c1);
    }
    return true;
}

/* One warp per row: each lane's columns with fma, then the shuffle tree. */
static bool model_gemv_warp(const HostLaunch *l, GError **error)
{
    int64_t rows, cols;
    if (!need_args(l, 5, error) || !int_arg(l, 0, &rows, error) || !int_arg(l, 1, &cols, error) ||
        !nonneg(l, rows, error) || !nonneg(l, cols, error))
        return false;
    if (l->block[0] % 32 != 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the block must be whole warps (one row per warp)", l->kernel);
        return false;
    }
    size_t nr = MIN((size_t)rows, threads_x(l) / 32), nc = (size_t)cols;
    const float *a = buf_arg(l, 2, HT_F32, nr * nc, error);
    const float *x = a ? buf_arg(l, 3, HT_F32, nc, error) : NULL;
    float *y = x ? buf_arg(l, 4, HT_F32, nr, error) : NULL;
    if (!y)
        return false;
    for (size_t row = 0; row < nr; row++) {
        float s[32];
        for (size_t lane = 0; lane < 32; lane++) {
            s[lane] = 0.f;
            for (size_t c = lane; c < nc; c += 32)
                s[lane] = fmaf(a[row * nc + c], x[c], s[lane]);
        }
        y[row] = warp_shfl_sum(s);
    }
    return true;
}

static bool model_gather_scale(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l)), nt = 0;
    const int32_t *idx = buf_arg(l, 1, HT_S32, m, error);
    const float *table = idx ? buf_all(l, 2, HT_F32, &nt, error) : NULL;
    float *out = table ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    if (!out || !indices_within(l, idx, m, nt, error))
        return false;
    for (size_t i = 0; i < m; i++)
        out[i] = fmaf(table[idx[i]], 2.f, 1.f);
    return true;
}

/* Each element of C is one fma chain over k ascending (tile by tile, kk
 * ascending within a tile), whatever the 4 x 4 register blocking. */
static bool model_sgemm_tiled(const HostLaunch *l, GError **error)
{
    int64_t m, n, k;
    if (!need_args(l, 6, error) || !int_arg(l, 0, &m, error) || !int_arg(l, 1, &n, error) ||
        !int_arg(l, 2, &k, error) || !nonneg(l, m, error) || !nonneg(l, n, error) ||
        !nonneg(l, k, error))
        return false;
    size_t rows = (size_t)l->grid[1] * 64, cols = (size_t)l->grid[0] * 64;
    if (l->block[0] != 256 || l->block[1] != 1 || k % 8 != 0 || rows > (size_t)m ||
        cols > (size_t)n) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: 256-thread blocks of 64 x 64 tiles inside C, k a multiple of 8",
                    l->kernel);
        return false;
    }
    size_t nn = (size_t)n, nk = (size_t)k;
    const float *a = buf_arg(l, 3, HT_F32, (size_t)m * nk, error);
    const float *b = a ? buf_arg(l, 4, HT_F32, nk * nn, error) : NULL;
    float *c = b ? buf_arg(l, 5, HT_F32, (size_t)m * nn, error) : NULL;
    if (!c)
        return false;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++) {
            float acc = 0.f;
            for (size_t kk = 0; kk < nk; kk++)
                acc = fmaf(a[i * nk + kk], b[kk * nn + j], acc);
            c[i * nn + j] = acc;
        }
    return true;
}

static bool model_xorshift_hash(const HostLaunch *l, GError **error)
{
    int64_t n, rounds;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error) ||
        !int_arg(l, 1, &rounds, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const uint32_t *in = buf_arg(l, 2, HT_U32, m, error);
    uint32_t *out = in ? buf_arg(l, 3, HT_U32, m, error) : NULL;
    if (!out)
        return false;
    int32_t nr = (int32_t)rounds;
    for (size_t i = 0; i < m; i++) {
        uint32_t x = in[i];
        for (int32_t r = 0; r < nr; r++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x = x * 0x9E3779B1u + (uint32_t)r;
        }
        out[i] = x;
    }
    return true;
}

/* 16 x 16 blocks, edges clamped; the nine taps are added to 0 row by row
 * and the sum multiplied by the float nearest 1/9 (no division). */
static bool model_blur3x3(const HostLaunch *l, GError **error)
{
    int64_t w, h;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &w, error) || !int_arg(l, 1, &h, error) ||
        !nonneg(l, w, error) || !nonneg(l, h, error))
        return false;
    size_t nw = (size_t)w, nh = (size_t)h;
    if (l->block[0] != 16 || l->block[1] != 16 || (size_t)l->grid[0] * 16 > nw ||
        (size_t)l->grid[1] * 16 > nh) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: 16 x 16 blocks must tile inside the %zu x %zu image", l->kernel,
                    nw, nh);
        return false;
    }
    const float *in = buf_arg(l, 2, HT_F32, nw * nh, error);
    float *out = in ? buf_arg(l, 3, HT_F32, nw * nh, error) : NULL;
    if (!out)
        return false;
    size_t ny = (size_t)l->grid[1] * 16, nx = (size_t)l->grid[0] * 16;
    for (size_t y = 0; y < ny; y++)
        for (size_t x = 0; x < nx; x++) {
            float s = 0.f;
            for (size_t dy = 0; dy < 3; dy++) {
                size_t gy = y + dy == 0 ? 0 : MIN(y + dy - 1, nh - 1);
                for (size_t dx = 0; dx < 3; dx++) {
                    size_t gx = x + dx == 0 ? 0 : MIN(x + dx - 1, nw - 1);
                    s += in[gy * nw + gx];
                }
            }
            out[y * nw + x] = s * (1.f / 9.f);
        }
    return true;
}

/* Integer sums wrap, so any order gives the same total: each warp's sum is
 * added (atomically) to what total held. */
static bool model_sum_shfl(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    if (l->block[0] % 32 != 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: the block must be whole warps (full-mask shuffles)", l->kernel);
        return false;
    }
    const int32_t *in = buf_arg(l, 1, HT_S32, threads_x(l) ? (size_t)n : 0, error);
    int32_t *total = in ? buf_arg(l, 2, HT_S32, 1, error) : NULL;
    if (!total)
        return false;
    uint32_t s = (uint32_t)*total;
    for (size_t i = 0; threads_x(l) && i < (size_t)n; i++)
        s += (uint32_t)in[i];
    *total = (int32_t)s;
    return true;
}

/* traces/more_kernels: one row per thread, the row's products summed in
 * order with one rounding each (nvcc's fma.rn). */
static bool model_gemv_rows(const HostLaunch *l, GError **error)
{
    int64_t rows, cols;
    if (!need_args(l, 5, error) || !int_arg(l, 0, &rows, error) || !int_arg(l, 1, &cols, error) ||
        !nonneg(l, rows, error) || !nonneg(l, cols, error))
        return false;
    size_t nr = MIN((size_t)rows, threads_x(l)), nc = (size_t)cols;
    const float *a = buf_arg(l, 2, HT_F32, nr * nc, error);
    const float *x = a ? buf_arg(l, 3, HT_F32, nc, error) : NULL;
    float *y = x ? buf_arg(l, 4, HT_F32, nr, error) : NULL;
    if (!y)
        return false;
    for (size_t r = 0; r < nr; r++) {
        float acc = 0.f;
        for (size_t c = 0; c < nc; c++)
            acc = fmaf(a[r * nc + c], x[c], acc);
        y[r] = acc;
    }
    return true;
}

/* The sum of a[i] * b[i] in 64-bit integers, added to *total (the order of
 * the blocks' atomics does not matter). */
static bool model_dot_atomic(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    const int32_t *a = buf_arg(l, 1, HT_S32, (size_t)n, error);
    const int32_t *b = a ? buf_arg(l, 2, HT_S32, (size_t)n, error) : NULL;
    uint64_t *total = b ? buf_arg(l, 3, HT_U64, 1, error) : NULL;
    if (!total)
        return false;
    uint64_t sum = 0;
    for (size_t i = 0; i < (size_t)n; i++)
        sum += (uint64_t)((int64_t)a[i] * b[i]);
    *total += sum;
    return true;
}

static bool model_gather(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l)), len = 0;
    const int32_t *idx = buf_arg(l, 1, HT_S32, m, error);
    const float *in = idx ? buf_all(l, 2, HT_F32, &len, error) : NULL;
    float *out = in ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    if (!out || !indices_within(l, idx, m, len, error))
        return false;
    for (size_t i = 0; i < m; i++)
        out[i] = in[idx[i]];
    return true;
}

static bool model_chase(const HostLaunch *l, GError **error)
{
    int64_t n, steps;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !int_arg(l, 1, &steps, error) ||
        !nonneg(l, n, error) || !nonneg(l, steps, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l)), len = 0;
    const int32_t *next = buf_all(l, 2, HT_S32, &len, error);
    int32_t *end = next ? buf_arg(l, 3, HT_S32, m, error) : NULL;
    if (!end)
        return false;
    for (size_t i = 0; i < m; i++) {
        int32_t p = (int32_t)i;
        for (int64_t k = 0; k < steps; k++) {
            if (p < 0 || (size_t)p >= len) {
                g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: link %d from thread %zu is outside the table",
                            l->kernel, p, i);
                return false;
            }
            p = next[p];
        }
        end[i] = p;
    }
    return true;
}

static bool model_hash_mix(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const uint32_t *in = buf_arg(l, 1, HT_U32, m, error);
    uint32_t *out = in ? buf_arg(l, 2, HT_U32, m, error) : NULL;
    if (!out)
        return false;
    for (size_t i = 0; i < m; i++) {
        uint32_t h = in[i];
        for (uint32_t r = 0; r < 64; r++) {
            h ^= h >> 16;
            h *= 0x85ebca6bu;
            h ^= h >> 13;
            h *= 0xc2b2ae35u;
            h ^= h >> 16;
            h += r;
        }
        out[i] = h;
    }
    return true;
}

/* Every element above the threshold, in index order (the kernel's warps
 * place theirs in the order their atomics arrive; the count is the same). */
static bool model_compact_warp(const HostLaunch *l, GError **error)
{
    int64_t n;
    float threshold;
    if (!need_args(l, 5, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error) ||
        !f32_arg(l, 1, &threshold, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const float *in = buf_arg(l, 2, HT_F32, m, error);
    float *out = in ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    int32_t *count = out ? buf_arg(l, 4, HT_S32, 1, error) : NULL;
    if (!count)
        return false;
    for (size_t i = 0; i < m; i++)
        if (in[i] > threshold)
            out[(*count)++] = in[i];
    return true;
}

static bool model_div_mod(const HostLaunch *l, GError **error)
{
    int64_t n, d1, d2;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !int_arg(l, 1, &d1, error) ||
        !int_arg(l, 2, &d2, error) || !nonneg(l, n, error))
        return false;
    if ((uint32_t)d1 == 0 || (uint32_t)d2 == 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: a divisor is 0", l->kernel);
        return false;
    }
    size_t m = MIN((size_t)n, threads_x(l));
    uint32_t *out = buf_arg(l, 3, HT_U32, m, error);
    if (!out)
        return false;
    for (size_t i = 0; i < m; i++) {
        uint32_t x = (uint32_t)i * 2654435761u, acc = 0;
        for (int r = 0; r < 16; r++) {
            acc += x / (uint32_t)d1 + x % (uint32_t)d2;
            x = x * 1664525u + 1013904223u;
        }
        out[i] = acc;
    }
    return true;
}

/* 15 taps over a zero-padded signal, one rounding per tap (fma.rn). */
static bool model_conv1d(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const float *in = buf_arg(l, 1, HT_F32, (size_t)n, error);
    const float *taps = in ? buf_arg(l, 2, HT_F32, 15, error) : NULL;
    float *out = taps ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    if (!out)
        return false;
    for (size_t i = 0; i < m; i++) {
        float acc = 0.f;
        for (int k = -7; k <= 7; k++) {
            int64_t j = (int64_t)i + k;
            float x = j >= 0 && j < n ? in[j] : 0.f;
            acc = fmaf(taps[k + 7], x, acc);
        }
        out[i] = acc;
    }
    return true;
}

/* traces/polybench: PolyBench/GPU-style kernels, one thread per output
 * element.  Every dot product is a chain of fma.rn in index order from
 * 0.0f (or from the old value, for mvt), as nvcc compiles the loops; an
 * epilogue alpha * s + beta * t is fma(s, alpha, beta * t). */

/* n x n size argument i, checked; also n * n must fit in an int index. */
static bool pb_size(const HostLaunch *l, unsigned i, int64_t *n, GError **error)
{
    if (!int_arg(l, i, n, error) || !nonneg(l, *n, error))
        return false;
    if (*n > 46340) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: size %lld too large",
                    l->kernel, (long long)*n);
        return false;
    }
    return true;
}

static bool model_pb_gemm(const HostLaunch *l, GError **error)
{
    int64_t n;
    float alpha, beta;
    if (!need_args(l, 6, error) || !pb_size(l, 0, &n, error) || !f32_arg(l, 1, &alpha, error) ||
        !f32_arg(l, 2, &beta, error))
        return false;
    size_t nn = (size_t)n, rows = MIN(nn, threads_y(l)), cols = MIN(nn, threads_x(l));
    const float *a = buf_arg(l, 3, HT_F32, nn * nn, error);
    const float *b = a ? buf_arg(l, 4, HT_F32, nn * nn, error) : NULL;
    float *c = b ? buf_arg(l, 5, HT_F32, nn * nn, error) : NULL;
    if (!c)
        return false;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++) {
            float acc = 0.f;
            for (size_t k = 0; k < nn; k++)
                acc = fmaf(a[i * nn + k], b[k * nn + j], acc);
            c[i * nn + j] = fmaf(acc, alpha, beta * c[i * nn + j]);
        }
    return true;
}

/* out[t] = init + sum_k a[row t, k] * v[k] (by_rows) or a[k, column t] *
 * v[k] (by columns), for the threads t < n; init is out[t] when
 * accumulate, else 0.  atax1/atax2, bicgS/bicgQ, mvt1/mvt2. */
static bool pb_matvec(const HostLaunch *l, bool by_rows, bool accumulate, GError **error)
{
    int64_t n;
    if (!need_args(l, 4, error) || !pb_size(l, 0, &n, error))
        return false;
    size_t nn = (size_t)n, m = MIN(nn, threads_x(l));
    const float *a = buf_arg(l, 1, HT_F32, nn * nn, error);
    const float *v = a ? buf_arg(l, 2, HT_F32, nn, error) : NULL;
    float *out = v ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    if (!out)
        return false;
    for (size_t t = 0; t < m; t++) {
        float acc = accumulate ? out[t] : 0.f;
        for (size_t k = 0; k < nn; k++)
            acc = fmaf(by_rows ? a[t * nn + k] : a[k * nn + t], v[k], acc);
        out[t] = acc;
    }
    return true;
}

static bool model_pb_rows(const HostLaunch *l, GError **error) { return pb_matvec(l, true, false, error); }
static bool model_pb_cols(const HostLaunch *l, GError **error) { return pb_matvec(l, false, false, error); }
static bool model_pb_rows_acc(const HostLaunch *l, GError **error) { return pb_matvec(l, true, true, error); }
static bool model_pb_cols_acc(const HostLaunch *l, GError **error) { return pb_matvec(l, false, true, error); }

static bool model_pb_gesummv(const HostLaunch *l, GError **error)
{
    int64_t n;
    float alpha, beta;
    if (!need_args(l, 8, error) || !pb_size(l, 0, &n, error) || !f32_arg(l, 1, &alpha, error) ||
        !f32_arg(l, 2, &beta, error))
        return false;
    size_t nn = (size_t)n, m = MIN(nn, threads_x(l));
    const float *a = buf_arg(l, 3, HT_F32, nn * nn, error);
    const float *b = a ? buf_arg(l, 4, HT_F32, nn * nn, error) : NULL;
    const float *x = b ? buf_arg(l, 5, HT_F32, nn, error) : NULL;
    float *tmp = x ? buf_arg(l, 6, HT_F32, m, error) : NULL;
    float *y = tmp ? buf_arg(l, 7, HT_F32, m, error) : NULL;
    if (!y)
        return false;
    for (size_t i = 0; i < m; i++) {
        float sa = 0.f, sb = 0.f;
        for (size_t j = 0; j < nn; j++) {
            sa = fmaf(a[i * nn + j], x[j], sa);
            sb = fmaf(b[i * nn + j], x[j], sb);
        }
        tmp[i] = sa;
        y[i] = fmaf(sa, alpha, beta * sb);
    }
    return true;
}

/* The kernel's nine weighted taps: the centre-top product first, then one
 * fma per tap in the order nvcc emits them (subtractions as negated
 * weights); the border is untouched. */
static bool model_pb_conv2d(const HostLaunch *l, GError **error)
{
    int64_t h, w;
    if (!need_args(l, 4, error) || !pb_size(l, 0, &h, error) || !pb_size(l, 1, &w, error))
        return false;
    size_t hh = (size_t)h, ww = (size_t)w;
    const float *in = buf_arg(l, 2, HT_F32, hh * ww, error);
    float *out = in ? buf_arg(l, 3, HT_F32, hh * ww, error) : NULL;
    if (!out)
        return false;
    size_t ylim = MIN(hh, threads_y(l)), xlim = MIN(ww, threads_x(l));
    for (size_t y = 1; y + 1 < hh && y < ylim; y++)
        for (size_t x = 1; x + 1 < ww && x < xlim; x++) {
            const float *up = in + (y - 1) * ww + x, *mid = in + y * ww + x, *dn = in + (y + 1) * ww + x;
            float s = up[0] * -0.35f;
            s = fmaf(up[-1], 0.15f, s);
            s = fmaf(up[1], 0.25f, s);
            s = fmaf(mid[-1], 0.55f, s);
            s = fmaf(mid[0], 0.90f, s);
            s = fmaf(mid[1], -0.45f, s);
            s = fmaf(dn[-1], -0.20f, s);
            s = fmaf(dn[0], 0.65f, s);
            s = fmaf(dn[1], 0.10f, s);
            out[y * ww + x] = s;
        }
    return true;
}

/* One sweep, in -> out: the five values summed left to right, times 0.2f. */
static bool model_pb_jacobi2d(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 3, error) || !pb_size(l, 0, &n, error))
        return false;
    size_t nn = (size_t)n;
    const float *in = buf_arg(l, 1, HT_F32, nn * nn, error);
    float *out = in ? buf_arg(l, 2, HT_F32, nn * nn, error) : NULL;
    if (!out)
        return false;
    if (in == out) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: in and out are the same buffer", l->kernel);
        return false;
    }
    size_t ilim = MIN(nn, threads_y(l)), jlim = MIN(nn, threads_x(l));
    for (size_t i = 1; i + 1 < nn && i < ilim; i++)
        for (size_t j = 1; j + 1 < nn && j < jlim; j++) {
            float s = in[i * nn + j] + in[i * nn + j - 1];
            s = s + in[i * nn + j + 1];
            s = s + in[(i + 1) * nn + j];
            s = s + in[(i - 1) * nn + j];
            out[i * nn + j] = 0.2f * s;
        }
    return true;
}

static bool model_pb_syrk(const HostLaunch *l, GError **error)
{
    int64_t n, m;
    float alpha, beta;
    if (!need_args(l, 6, error) || !pb_size(l, 0, &n, error) || !pb_size(l, 1, &m, error) ||
        !f32_arg(l, 2, &alpha, error) || !f32_arg(l, 3, &beta, error))
        return false;
    size_t nn = (size_t)n, mm = (size_t)m;
    size_t rows = MIN(nn, threads_y(l)), cols = MIN(nn, threads_x(l));
    const float *a = buf_arg(l, 4, HT_F32, nn * mm, error);
    float *c = a ? buf_arg(l, 5, HT_F32, nn * nn, error) : NULL;
    if (!c)
        return false;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++) {
            float acc = 0.f;
            for (size_t k = 0; k < mm; k++)
                acc = fmaf(a[i * mm + k], a[j * mm + k], acc);
            c[i * nn + j] = fmaf(acc, alpha, beta * c[i * nn + j]);
        }
    return true;
}

/* traces/app_kernels: application-style kernels (session 70).  Every float
 * operation of the CUDA source is an _rn intrinsic, so these models follow
 * it one rounding at a time and are bit-exact. */

/* One launch of hotspotTile: HS_STEPS = 4 steps of the whole grid, a missing
 * neighbour at the grid's edge being the cell itself (what the tiles give). */
static bool model_hotspot_tile(const HostLaunch *l, GError **error)
{
    int64_t n;
    float k, cp, ca, amb;
    if (!need_args(l, 8, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error) ||
        !f32_arg(l, 1, &k, error) || !f32_arg(l, 2, &cp, error) || !f32_arg(l, 3, &ca, error) ||
        !f32_arg(l, 4, &amb, error))
        return false;
    size_t nn = (size_t)n;
    if (nn == 0 || nn > 46340 || l->block[0] != 16 || l->block[1] != 16 ||
        (size_t)l->grid[0] * 8 < nn || (size_t)l->grid[1] * 8 < nn) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: needs 16 x 16 blocks whose 8 x 8 centres cover the grid", l->kernel);
        return false;
    }
    const float *pw = buf_arg(l, 5, HT_F32, nn * nn, error);
    const float *tin = pw ? buf_arg(l, 6, HT_F32, nn * nn, error) : NULL;
    float *tout = tin ? buf_arg(l, 7, HT_F32, nn * nn, error) : NULL;
    if (!tout)
        return false;
    float *t = g_new(float, nn * nn), *u = g_new(float, nn * nn);
    memcpy(t, tin, nn * nn * sizeof *t);
    for (int s = 0; s < 4; s++) {
        for (size_t y = 0; y < nn; y++)
            for (size_t x = 0; x < nn; x++) {
                size_t yn = y == 0 ? y : y - 1, ys = y == nn - 1 ? y : y + 1;
                size_t xw = x == 0 ? x : x - 1, xe = x == nn - 1 ? x : x + 1;
                float c = t[y * nn + x];
                float lap = (t[yn * nn + x] + t[ys * nn + x]) + (t[y * nn + xw] + t[y * nn + xe]);
                lap = lap - 4.0f * c;
                float v = fmaf(ca, amb - c, c);
                v = fmaf(cp, pw[y * nn + x], v);
                u[y * nn + x] = fmaf(k, lap, v);
            }
        float *sw = t;
        t = u;
        u = sw;
    }
    memcpy(tout, t, nn * nn * sizeof *t);
    g_free(t);
    g_free(u);
    return true;
}

/* One launch of pathRows: rows row0 + 1 ... row0 + steps of the DP. */
static bool model_path_rows(const HostLaunch *l, GError **error)
{
    int64_t cols, row0, steps;
    if (!need_args(l, 6, error) || !int_arg(l, 0, &cols, error) || !nonneg(l, cols, error) ||
        !int_arg(l, 1, &row0, error) || !nonneg(l, row0, error) || !int_arg(l, 2, &steps, error))
        return false;
    if (steps < 1 || steps > 127 || l->block[0] != 256 ||
        (size_t)l->grid[0] * (size_t)(256 - 2 * steps) < (size_t)cols) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: needs blocks of 256 whose 256 - 2 steps columns cover the row", l->kernel);
        return false;
    }
    size_t c = (size_t)cols;
    const int32_t *wall = buf_arg(l, 3, HT_S32, ((size_t)row0 + (size_t)steps + 1) * c, error);
    const int32_t *src = wall ? buf_arg(l, 4, HT_S32, c, error) : NULL;
    int32_t *dst = src ? buf_arg(l, 5, HT_S32, c, error) : NULL;
    if (!dst)
        return false;
    int32_t *a = g_new(int32_t, c), *b = g_new(int32_t, c);
    memcpy(a, src, c * sizeof *a);
    for (int64_t r = row0 + 1; r <= row0 + steps; r++) {
        for (size_t j = 0; j < c; j++) {
            int32_t m = a[j];
            if (j > 0 && a[j - 1] < m)
                m = a[j - 1];
            if (j + 1 < c && a[j + 1] < m)
                m = a[j + 1];
            b[j] = m + wall[(size_t)r * c + j];
        }
        int32_t *sw = a;
        a = b;
        b = sw;
    }
    memcpy(dst, a, c * sizeof *a);
    g_free(a);
    g_free(b);
    return true;
}

/* nwBatch: one pair of 64-long sequences per block; the last row of each
 * pair's score matrix (linear gap penalty). */
static bool model_nw_batch(const HostLaunch *l, GError **error)
{
    int64_t match, mismatch, gap;
    if (!need_args(l, 6, error) || !int_arg(l, 0, &match, error) ||
        !int_arg(l, 1, &mismatch, error) || !int_arg(l, 2, &gap, error))
        return false;
    if (l->block[0] != 64) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: needs blocks of 64", l->kernel);
        return false;
    }
    size_t pairs = l->grid[0];
    const uint8_t *sa = buf_arg(l, 3, HT_U8, pairs * 64, error);
    const uint8_t *sb = sa ? buf_arg(l, 4, HT_U8, pairs * 64, error) : NULL;
    int32_t *last = sb ? buf_arg(l, 5, HT_S32, pairs * 64, error) : NULL;
    if (!last)
        return false;
    static int32_t h[65][65];
    for (size_t p = 0; p < pairs; p++) {
        for (int i = 0; i <= 64; i++)
            h[i][0] = h[0][i] = (int32_t)(i * gap);
        for (int i = 1; i <= 64; i++)
            for (int j = 1; j <= 64; j++) {
                int32_t d = h[i - 1][j - 1] + (int32_t)(sa[p * 64 + i - 1] == sb[p * 64 + j - 1] ? match : mismatch);
                int32_t up = h[i - 1][j] + (int32_t)gap, left = h[i][j - 1] + (int32_t)gap;
                int32_t m = d > up ? d : up;
                h[i][j] = m > left ? m : left;
            }
        for (int j = 0; j < 64; j++)
            last[p * 64 + j] = h[64][j + 1];
    }
    return true;
}

/* One BFS level: the frontier (at level 1, the source alone, which takes
 * cost 1) leaves it; its unvisited neighbours get level + 1 and join the
 * next frontier.  Order-independent. */
static bool model_bfs_level(const HostLaunch *l, GError **error)
{
    int64_t n, level, src;
    if (!need_args(l, 8, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error) ||
        !int_arg(l, 1, &level, error) || !int_arg(l, 2, &src, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const int32_t *deg = buf_arg(l, 3, HT_S32, m, error);
    const int32_t *adj = deg ? buf_arg(l, 4, HT_S32, m * 16, error) : NULL;
    int32_t *cost = adj ? buf_arg(l, 5, HT_S32, (size_t)n, error) : NULL;
    uint8_t *fin = cost ? buf_arg(l, 6, HT_U8, m, error) : NULL;
    uint8_t *fout = fin ? buf_arg(l, 7, HT_U8, (size_t)n, error) : NULL;
    if (!fout)
        return false;
    for (size_t v = 0; v < m; v++) {
        bool frontier = fin[v];
        if (level == 1 && (int64_t)v == src) {
            cost[v] = 1;
            frontier = true;
        }
        if (!frontier)
            continue;
        fin[v] = 0;
        if (deg[v] > 16) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: degree %d over 16", l->kernel, deg[v]);
            return false;
        }
        if (!indices_within(l, adj + v * 16, (size_t)MAX(deg[v], 0), (size_t)n, error))
            return false;
        for (int e = 0; e < deg[v]; e++) {
            int32_t u = adj[v * 16 + e];
            if (cost[u] == 0) {
                cost[u] = (int32_t)(level + 1);
                fout[u] = 1;
            }
        }
    }
    return true;
}

/* kmeansAssign: nearest of 32 centroids (the global kmCentroids), 16
 * feature-major features; the first of equal distances wins. */
static bool model_kmeans_assign(const HostLaunch *l, GError **error)
{
    int64_t n;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error))
        return false;
    HostBuf *cent = l->globals ? g_hash_table_lookup(l->globals, "kmCentroids") : NULL;
    if (!cent || cent->type != HT_F32 || cent->count < 512) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: needs the global 'kmCentroids' as 512 f32 values", l->kernel);
        return false;
    }
    const float *c = (const float *)cent->data;
    size_t nn = (size_t)n, m = MIN(nn, threads_x(l));
    const float *f = buf_arg(l, 1, HT_F32, nn * 16, error);
    int32_t *assign = f ? buf_arg(l, 2, HT_S32, m, error) : NULL;
    float *dist = assign ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    if (!dist)
        return false;
    for (size_t i = 0; i < m; i++) {
        float best = INFINITY;
        int32_t bk = 0;
        for (int k = 0; k < 32; k++) {
            float s = 0.0f;
            for (int d = 0; d < 16; d++) {
                float diff = f[(size_t)d * nn + i] - c[k * 16 + d];
                s = fmaf(diff, diff, s);
            }
            if (s < best) {
                best = s;
                bk = k;
            }
        }
        assign[i] = bk;
        dist[i] = best;
    }
    return true;
}

/* spmvCsrWarp: lane l sums the row's elements l, l + 32, ... with fma.rn,
 * then the __shfl_down_sync tree (16, 8, 4, 2, 1) of warp_shfl_sum. */
static bool model_spmv_csr_warp(const HostLaunch *l, GError **error)
{
    int64_t rows;
    if (!need_args(l, 6, error) || !int_arg(l, 0, &rows, error) || !nonneg(l, rows, error))
        return false;
    size_t m = MIN((size_t)rows, threads_x(l) / 32), ncol = 0, nval = 0, nx = 0;
    const int32_t *rp = buf_arg(l, 1, HT_S32, m + 1, error);
    const int32_t *col = rp ? buf_all(l, 2, HT_S32, &ncol, error) : NULL;
    const float *val = col ? buf_all(l, 3, HT_F32, &nval, error) : NULL;
    const float *x = val ? buf_all(l, 4, HT_F32, &nx, error) : NULL;
    float *y = x ? buf_arg(l, 5, HT_F32, m, error) : NULL;
    if (!y)
        return false;
    for (size_t r = 0; r < m; r++) {
        if (rp[r] < 0 || rp[r] > rp[r + 1] || (size_t)rp[r + 1] > MIN(ncol, nval)) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: row %zu's range is wrong", l->kernel, r);
            return false;
        }
        if (!indices_within(l, col + rp[r], (size_t)(rp[r + 1] - rp[r]), nx, error))
            return false;
        float s[32];
        for (int ln = 0; ln < 32; ln++) {
            s[ln] = 0.0f;
            for (int32_t j = rp[r] + ln; j < rp[r + 1]; j += 32)
                s[ln] = fmaf(val[j], x[col[j]], s[ln]);
        }
        y[r] = warp_shfl_sum(s);
    }
    return true;
}

/* binary16, round to nearest even, from a double that holds the exact value
 * to be rounded (true of every use below: halves' products and sums are
 * exact in double) */
static uint16_t app_f64_to_half(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (isnan(x))
        return 0x7fff;
    if (a >= 65520.0)
        return sign | 0x7c00;
    int e;
    frexp(a, &e);
    double q = e - 1 < -14 ? 0x1p-24 : ldexp(1.0, e - 11);
    double r = nearbyint(a / q) * q;
    if (r == 0)
        return sign;
    frexp(r, &e);
    if (e - 1 < -14)
        return sign | (uint16_t)(r / 0x1p-24);
    return sign | (uint16_t)(((e + 14) << 10) | ((uint16_t)(r / ldexp(1.0, e - 11)) - 1024));
}

static double app_half_to_f64(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* hfma2Chains: four chains h = h * h + c of __half2 (c = -1.5 low, -1.25
 * high), then (h0 + h1) + (h2 + h3); out holds the half2 bits. */
static bool model_hfma2_chains(const HostLaunch *l, GError **error)
{
    int64_t n, rounds;
    if (!need_args(l, 4, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error) ||
        !int_arg(l, 1, &rounds, error))
        return false;
    size_t m = MIN((size_t)n, threads_x(l));
    const float *in = buf_arg(l, 2, HT_F32, 2 * m, error);
    uint32_t *out = in ? buf_arg(l, 3, HT_U32, m, error) : NULL;
    if (!out)
        return false;
    static const double c[2] = {-1.5, -1.25};
    for (size_t i = 0; i < m; i++) {
        float fx = in[2 * i], fy = in[2 * i + 1];
        float init[4][2] = {{fx, fy}, {fy, fx}, {-fx, fy}, {fx, -fy}};
        uint32_t r = 0;
        for (int hf = 0; hf < 2; hf++) {
            uint16_t h[4];
            for (int k = 0; k < 4; k++)
                h[k] = app_f64_to_half(init[k][hf]);
            for (int64_t it = 0; it < rounds; it++)
                for (int k = 0; k < 4; k++) {
                    double v = app_half_to_f64(h[k]);
                    h[k] = app_f64_to_half(v * v + c[hf]);
                }
            uint16_t s01 = app_f64_to_half(app_half_to_f64(h[0]) + app_half_to_f64(h[1]));
            uint16_t s23 = app_f64_to_half(app_half_to_f64(h[2]) + app_half_to_f64(h[3]));
            r |= (uint32_t)app_f64_to_half(app_half_to_f64(s01) + app_half_to_f64(s23)) << (16 * hf);
        }
        out[i] = r;
    }
    return true;
}

/* clenshawF64: the 256-term Chebyshev series (global chebCoef) by
 * Clenshaw's recurrence at the 2 * threads points. */
static bool model_clenshaw_f64(const HostLaunch *l, GError **error)
{
    if (!need_args(l, 2, error))
        return false;
    HostBuf *coef = l->globals ? g_hash_table_lookup(l->globals, "chebCoef") : NULL;
    if (!coef || coef->type != HT_F64 || coef->count < 256) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "%s: error: needs the global 'chebCoef' as 256 f64 values", l->kernel);
        return false;
    }
    const double *c = (const double *)coef->data;
    size_t m = 2 * threads_x(l);
    const double *x = buf_arg(l, 0, HT_F64, m, error);
    double *y = x ? buf_arg(l, 1, HT_F64, m, error) : NULL;
    if (!y)
        return false;
    for (size_t i = 0; i < m; i++) {
        double t = x[i], t2 = t + t, b1 = 0.0, b2 = 0.0;
        for (int k = 255; k >= 1; k--) {
            double b0 = fma(t2, b1, c[k] - b2);
            b2 = b1;
            b1 = b0;
        }
        y[i] = fma(t, b1, c[0] - b2);
    }
    return true;
}

/* histBytes: counts of the bytes of nwords 32-bit words, added to bins. */
static bool model_hist_bytes(const HostLaunch *l, GError **error)
{
    int64_t nwords;
    if (!need_args(l, 3, error) || !int_arg(l, 0, &nwords, error) || !nonneg(l, nwords, error))
        return false;
    const uint8_t *d = buf_arg(l, 1, HT_U8, 4 * (size_t)nwords, error);
    uint32_t *bins = d ? buf_arg(l, 2, HT_U32, 256, error) : NULL;
    if (!bins)
        return false;
    for (size_t i = 0; i < 4 * (size_t)nwords; i++)
        bins[d[i]]++;
    return true;
}

/* blockCompact: each block's 8 * blockDim.x elements above the threshold,
 * in order, from the block's own offset; their number in counts. */
static bool model_block_compact(const HostLaunch *l, GError **error)
{
    int64_t n;
    float th;
    if (!need_args(l, 5, error) || !int_arg(l, 0, &n, error) || !nonneg(l, n, error) ||
        !f32_arg(l, 1, &th, error))
        return false;
    size_t per = (size_t)l->block[0] * 8, nb = l->grid[0], m = MIN((size_t)n, nb * per);
    const float *in = buf_arg(l, 2, HT_F32, m, error);
    float *out = in ? buf_arg(l, 3, HT_F32, m, error) : NULL;
    int32_t *counts = out ? buf_arg(l, 4, HT_S32, nb, error) : NULL;
    if (!counts)
        return false;
    for (size_t b = 0; b < nb; b++) {
        int32_t w = 0;
        for (size_t i = b * per; i < m && i < (b + 1) * per; i++)
            if (in[i] > th)
                out[b * per + (size_t)w++] = in[i];
        counts[b] = w;
    }
    return true;
}

/* ---- registry: kernel entry name (and PTX file where names collide) ---- */

static const struct {
    const char *kernel;
    const char *ptx; /* NULL: any file */
    HostModel model;
} models[] = {
    {"_Z5saxpyifPKfPf", NULL, model_saxpy},
    {"saxpy", "saxpy_ptx1.ptx", model_saxpy},
    {"dec2zero", NULL, model_dec2zero},
    {"bitonicSort", NULL, model_bitonic},
    {"bitonicSortMerged", NULL, model_bitonic},
    {"bitonicSortSelp", NULL, model_bitonic},
    {"matMul", NULL, model_matmul},
    {"matMulCoalesced", NULL, model_matmul},
    {"matMulTiled", NULL, model_matmul},
    {"matMulUnroll", NULL, model_matmul},
    {"nonShared1", NULL, model_regpress},
    {"regPress2", NULL, model_regpress},
    {"divergence", NULL, model_divergence},
    {"noDivergence", NULL, model_no_divergence},
    {"_Z10MatrixCopyPfS_ii", "p1.ptx", model_copy_p1},
    {"_Z10MatrixCopyPfS_ii", "p3.ptx", model_copy_p3},
    {"matrixcopy", "p2.ptx", model_copy_ocl},
    {"matrixmulti", "p4.ptx", model_matrixmulti_ocl},
    {"_Z10MatrixMultiPfS_S_i", "p5.ptx", model_matmul},
    {"transposeNaive", NULL, model_transpose},
    {"transposeTiled", NULL, model_transpose},
    {"reduceShared", NULL, model_reduce_shared},
    {"reduceShfl", NULL, model_reduce_shfl},
    {"fenceStores", NULL, model_fence_stores},
    {"sumLastBlock", NULL, model_sum_last_block},
    {"scanExclusive", NULL, model_scan},
    {"histogram", NULL, model_histogram},
    {"sharedAtomics", NULL, model_shared_atomics},
    {"sharedAtomicsOne", NULL, model_shared_atomics_one},
    {"sharedAtomicsThree", NULL, model_shared_atomics_three},
    {"sharedAtomicsUniform", NULL, model_shared_atomics_uniform},
    {"sharedAtomicsMax", NULL, model_shared_atomics_max},
    {"sortLocal", NULL, model_sort_local},
    {"polyF64", NULL, model_poly_f64},
    {"mathAccurate", NULL, model_math_accurate},
    {"mathFast", NULL, model_math_fast},
    {"kernel0", NULL, model_ilp1},
    {"kernel1", NULL, model_ilp2},
    {"kernel2", NULL, model_ilp4},
    {"_Z3dotPdS_S_", "dot_td1.ptx", model_dot_td1},
    {"_Z11testKernel1PfS_i", "ilp_loads.ptx", model_test_kernel1},
    {"adj_diff_naive", NULL, model_adj_diff},
    {"adj_diff", NULL, model_adj_diff},
    {"offsetFloat", NULL, model_offset_f32},
    {"strideFloat", NULL, model_stride_f32},
    {"offsetDouble", NULL, model_offset_f64},
    {"strideDouble", NULL, model_stride_f64},
    {"bankFloat", NULL, model_bank_float},
    {"bankDouble", NULL, model_bank_double},
    {"bankChar", NULL, model_bank_char},
    {"bankShort", NULL, model_bank_short},
    {"tileColumns", NULL, model_tile_columns},
    {"tileColumnsPadded", NULL, model_tile_columns},
    {"sharedLoads1", NULL, model_mio_loads},
    {"sharedLoads2", NULL, model_mio_loads},
    {"sharedLoads4", NULL, model_mio_loads},
    {"sharedLoads8", NULL, model_mio_loads},
    {"globalLoads1", NULL, model_mio_loads},
    {"globalLoads2", NULL, model_mio_loads},
    {"globalLoads4", NULL, model_mio_loads},
    {"globalLoads8", NULL, model_mio_loads},
    {"stencilBase_r1", NULL, model_stencil},
    {"stencilCsl_r1", NULL, model_stencil},
    {"stencilComp_r1", NULL, model_stencil},
    {"stencilBase_r2", NULL, model_stencil},
    {"stencilCsl_r2", NULL, model_stencil},
    {"stencilComp_r2", NULL, model_stencil},
    {"stencilBase_r3", NULL, model_stencil},
    {"stencilCsl_r3", NULL, model_stencil},
    {"stencilComp_r3", NULL, model_stencil},
    {"stencilBase_r4", NULL, model_stencil},
    {"stencilCsl_r4", NULL, model_stencil},
    {"stencilComp_r4", NULL, model_stencil},
    {"stencilBase_r5", NULL, model_stencil},
    {"stencilCsl_r5", NULL, model_stencil},
    {"stencilComp_r5", NULL, model_stencil},
    {"spmvEll", NULL, model_spmv_ell},
    {"nbody", NULL, model_nbody},
    {"softmaxRows", NULL, model_softmax_rows},
    {"conv5x5", NULL, model_conv5x5},
    {"vecAdd4", NULL, model_vec_add4},
    {"histGlobal", NULL, model_hist_global},
    {"transposeSmem", NULL, model_transpose_smem},
    {"mandelbrot", NULL, model_mandelbrot},
    {"blackScholes", NULL, model_black_scholes},
    {"gemvWarp", NULL, model_gemv_warp},
    {"gatherScale", NULL, model_gather_scale},
    {"sgemmTiled", NULL, model_sgemm_tiled},
    {"xorshiftHash", NULL, model_xorshift_hash},
    {"blur3x3", NULL, model_blur3x3},
    {"sumShfl", NULL, model_sum_shfl},
    {"gemvRows", NULL, model_gemv_rows},
    {"dotAtomic", NULL, model_dot_atomic},
    {"gather", NULL, model_gather},
    {"chase", NULL, model_chase},
    {"hashMix", NULL, model_hash_mix},
    {"compactWarp", NULL, model_compact_warp},
    {"divMod", NULL, model_div_mod},
    {"conv1d", NULL, model_conv1d},
    {"gemm", "polybench.ptx", model_pb_gemm},
    {"atax1", "polybench.ptx", model_pb_rows},
    {"atax2", "polybench.ptx", model_pb_cols},
    {"bicgS", "polybench.ptx", model_pb_cols},
    {"bicgQ", "polybench.ptx", model_pb_rows},
    {"mvt1", "polybench.ptx", model_pb_rows_acc},
    {"mvt2", "polybench.ptx", model_pb_cols_acc},
    {"gesummv", "polybench.ptx", model_pb_gesummv},
    {"conv2d", "polybench.ptx", model_pb_conv2d},
    {"jacobi2d", "polybench.ptx", model_pb_jacobi2d},
    {"syrk", "polybench.ptx", model_pb_syrk},
    {"hotspotTile", "app_kernels.ptx", model_hotspot_tile},
    {"pathRows", "app_kernels.ptx", model_path_rows},
    {"nwBatch", "app_kernels.ptx", model_nw_batch},
    {"bfsLevel", "app_kernels.ptx", model_bfs_level},
    {"kmeansAssign", "app_kernels.ptx", model_kmeans_assign},
    {"spmvCsrWarp", "app_kernels.ptx", model_spmv_csr_warp},
    {"hfma2Chains", "app_kernels.ptx", model_hfma2_chains},
    {"clenshawF64", "app_kernels.ptx", model_clenshaw_f64},
    {"histBytes", "app_kernels.ptx", model_hist_bytes},
    {"blockCompact", "app_kernels.ptx", model_block_compact},
};

HostModel host_ref_find_model(const char *kernel, const char *ptx)
{
    const char *base = ptx ? strrchr(ptx, '/') : NULL;
    base = base ? base + 1 : ptx;
    for (size_t i = 0; i < G_N_ELEMENTS(models); i++)
        if (strcmp(models[i].kernel, kernel) == 0 &&
            (!models[i].ptx || (base && strcmp(models[i].ptx, base) == 0)))
            return models[i].model;
    return NULL;
}
