/* launch.c — module images and functional grid execution.
 *
 * CTAs run one after another in linear order (x fastest); inside a CTA the
 * warps are stepped round-robin, each for a bounded quantum so that a warp
 * spinning on a flag another warp sets still lets that warp run.  The order
 * is fixed, so every run of the same inputs is identical.
 *
 * A cooperative launch keeps every CTA resident and steps the warps of all
 * of them round-robin, CTA after CTA, with the same quantum: a CTA spinning
 * at this_grid().sync() lets the others reach it.  It runs on one host
 * thread whatever host_threads says, so its results never depend on it.
 */
#include "launch.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "cta_overlap.h"
#include "errors.h"
#include "exec.h"
#include "hostpool.h"
#include "occupancy.h"

#define WARP_QUANTUM 256
#define MAX_THREADS_PER_BLOCK 1024
#define MAX_SHARED_PER_BLOCK (227u * 1024u)

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

/* ------------------------------------------------------------------ */
/* module image                                                         */

static bool apply_fixups(ModuleImage *img, GError **error)
{
    const Module *m = img->module;
    for (guint i = 0; i < m->vars->len; i++) {
        const Variable *v = module_var(m, i);
        if (!v->init_fixups)
            continue;
        uint64_t size;
        uint8_t *bytes = image_var_bytes(img, i, &size);
        if (!bytes)
            continue;
        for (guint k = 0; k < v->init_fixups->len; k++) {
            const VarFixup *fx = &g_array_index(v->init_fixups, VarFixup, k);
            uint64_t addr;
            if (fx->func != NO_INDEX) {
                addr = FUNC_ADDR_BASE + (uint64_t)fx->func * FUNC_ADDR_STRIDE;
            } else {
                const Variable *t = module_var(m, fx->sym);
                if (t->space != SPACE_GLOBAL && t->space != SPACE_CONST) {
                    g_set_error(error, WARPSIM_ERROR, WS_ERR_UNSUPPORTED,
                                "%s:%u: error: initialiser of '%s' takes the address of '%s' in .%s space, "
                                "which is not supported",
                                m->path, v->line, v->name, t->name, isa_space_name(t->space));
                    return false;
                }
                addr = img->var_addr[fx->sym];
                if (t->space == SPACE_CONST && fx->generic)
                    addr += CONST_WINDOW_BASE;
            }
            addr += (uint64_t)fx->addend;
            if (fx->byte_offset + fx->size <= size)
                memcpy(bytes + fx->byte_offset, &addr, fx->size);
        }
    }
    return true;
}

ModuleImage *image_load(const Module *m, GlobalMemory *g, GError **error)
{
    /* the executor reconverges and lays out registers by the analyses */
    for (guint i = 0; i < m->funcs->len; i++) {
        const Function *f = module_func(m, i);
        if (f->is_defined && f->insns && !f->cfg) {
            g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                        "%s: function %s has no control-flow analysis (cfg_build_all before image_load)",
                        m->path ? m->path : "<ptx>", f->name);
            return NULL;
        }
    }
    ModuleImage *img = g_new0(ModuleImage, 1);
    img->module = m;
    img->gmem = g;
    img->var_addr = g_new0(uint64_t, MAX(m->vars->len, 1u));
    uint64_t const_size = 0;
    for (guint i = 0; i < m->vars->len; i++) {
        const Variable *v = module_var(m, i);
        if (v->scope != VAR_MODULE)
            continue;
        if (v->space == SPACE_GLOBAL) {
            uint64_t base = gmem_alloc(g, v->size, v->name, error);
            if (!base) {
                image_free(img);
                return NULL;
            }
            img->var_addr[i] = base;
            if (v->init)
                memcpy(gmem_ptr(g, base, v->size), v->init, v->size);
        } else if (v->space == SPACE_CONST) {
            const_size = align_up(const_size, MAX(v->align, 1u));
            img->var_addr[i] = const_size;
            const_size += v->size;
        }
    }
    img->const_size = const_size;
    img->const_bank = g_malloc0(MAX(const_size, 1u));
    for (guint i = 0; i < m->vars->len; i++) {
        const Variable *v = module_var(m, i);
        if (v->scope == VAR_MODULE && v->space == SPACE_CONST && v->init)
            memcpy(img->const_bank + img->var_addr[i], v->init, v->size);
    }
    if (!apply_fixups(img, error)) {
        image_free(img);
        return NULL;
    }
    img->plan = exec_plan_new(m);
    return img;
}

void image_free(ModuleImage *img)
{
    if (!img)
        return;
    if (img->coop_ctas)
        g_ptr_array_free(img->coop_ctas, TRUE);
    exec_plan_free(img->plan);
    g_free(img->var_addr);
    g_free(img->const_bank);
    g_free(img);
}

uint8_t *image_var_bytes(ModuleImage *img, uint32_t var, uint64_t *size)
{
    const Variable *v = module_var(img->module, var);
    if (v->scope != VAR_MODULE)
        return NULL;
    *size = v->size;
    if (v->space == SPACE_GLOBAL)
        return gmem_ptr(img->gmem, img->var_addr[var], v->size ? v->size : 1);
    if (v->space == SPACE_CONST)
        return img->const_bank + img->var_addr[var];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* statistics                                                           */

void launch_stats_init(LaunchStats *s, const Module *m)
{
    *s = (LaunchStats){0};
    s->nfuncs = m->funcs->len;
    s->block_visits = g_new0(uint64_t *, MAX(s->nfuncs, 1u));
    s->block_divergent = g_new0(uint64_t *, MAX(s->nfuncs, 1u));
    s->block_splits = g_new0(uint64_t *, MAX(s->nfuncs, 1u));
    s->insn_warp_count = g_new0(uint64_t *, MAX(s->nfuncs, 1u));
    for (uint32_t i = 0; i < s->nfuncs; i++) {
        const Function *f = module_func(m, i);
        if (!f->is_defined)
            continue;
        s->insn_warp_count[i] = g_new0(uint64_t, MAX(func_ninsns(f), 1u));
        if (f->cfg) {
            s->block_visits[i] = g_new0(uint64_t, MAX(f->cfg->nblocks, 1u));
            s->block_divergent[i] = g_new0(uint64_t, MAX(f->cfg->nblocks, 1u));
            s->block_splits[i] = g_new0(uint64_t, MAX(f->cfg->nblocks, 1u));
        }
    }
}

void launch_stats_add(LaunchStats *into, const LaunchStats *from, const Module *m)
{
    into->warp_insts += from->warp_insts;
    into->thread_insts += from->thread_insts;
    into->thread_insts_pred_on += from->thread_insts_pred_on;
    into->branches += from->branches;
    into->divergent_branches += from->divergent_branches;
    into->ctas += from->ctas;
    into->warps += from->warps;
    into->threads += from->threads;
    uint32_t nf = MIN(into->nfuncs, from->nfuncs);
    for (uint32_t f = 0; f < nf; f++) {
        const Function *fn = module_func(m, f);
        uint32_t nb = fn->cfg ? fn->cfg->nblocks : 0;
        for (uint32_t b = 0; b < nb; b++) {
            if (into->block_visits[f] && from->block_visits[f])
                into->block_visits[f][b] += from->block_visits[f][b];
            if (into->block_divergent[f] && from->block_divergent[f])
                into->block_divergent[f][b] += from->block_divergent[f][b];
            if (into->block_splits[f] && from->block_splits[f])
                into->block_splits[f][b] += from->block_splits[f][b];
        }
        if (into->insn_warp_count[f] && from->insn_warp_count[f])
            for (uint32_t i = 0; i < func_ninsns(fn); i++)
                into->insn_warp_count[f][i] += from->insn_warp_count[f][i];
    }
}

void launch_stats_clear(LaunchStats *s)
{
    for (uint32_t i = 0; i < s->nfuncs; i++) {
        g_free(s->block_visits[i]);
        g_free(s->block_divergent[i]);
        g_free(s->block_splits[i]);
        g_free(s->insn_warp_count[i]);
    }
    g_free(s->block_visits);
    g_free(s->block_divergent);
    g_free(s->block_splits);
    g_free(s->insn_warp_count);
    *s = (LaunchStats){0};
}

/* ------------------------------------------------------------------ */
/* parameters                                                           */

bool launch_pack_param(const Module *m, uint32_t kernel, uint32_t index, uint64_t value,
                       uint8_t *params, GError **error)
{
    const Function *k = module_func(m, kernel);
    if (index >= k->params->len) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "kernel '%s' has %u parameters, argument %u does not exist", k->name,
                    k->params->len, index + 1);
        return false;
    }
    const Variable *v = module_var(m, g_array_index(k->params, uint32_t, index));
    memcpy(params + v->offset, &value, MIN(v->size, 8u));
    return true;
}

/* ------------------------------------------------------------------ */
/* running a grid                                                       */

gboolean *launch_kernel_functions(const Module *m, uint32_t kernel, bool *indirect)
{
    gboolean *seen = g_new0(gboolean, MAX(m->funcs->len, 1u));
    GArray *todo = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_array_append_val(todo, kernel);
    seen[kernel] = TRUE;
    *indirect = false;
    while (todo->len) {
        uint32_t f = g_array_index(todo, uint32_t, todo->len - 1);
        g_array_set_size(todo, todo->len - 1);
        const Function *fn = module_func(m, f);
        for (guint c = 0; fn->calls && c < fn->calls->len; c++) {
            const CallSite *cs = &g_array_index(fn->calls, CallSite, c);
            if (cs->callee == NO_INDEX) {
                *indirect = true;
                for (guint g = 0; g < m->funcs->len; g++)
                    seen[g] = seen[g] || module_func(m, g)->is_defined;
            } else if (!seen[cs->callee]) {
                seen[cs->callee] = TRUE;
                g_array_append_val(todo, cs->callee);
            }
        }
    }
    g_array_free(todo, TRUE);
    return seen;
}

/* Marks in `used` the variables that the functions in `funcs` name in an
 * operand, their own body declarations, and every variable whose address an
 * initialiser holds (a pointer table could reach it from anywhere). */
static void mark_used_vars(const Module *m, const gboolean *funcs, gboolean *used)
{
    for (guint f = 0; f < m->funcs->len; f++) {
        if (!funcs[f])
            continue;
        const Function *fn = module_func(m, f);
        for (uint32_t i = 0; i < func_ninsns(fn); i++) {
            const Insn *in = func_insn(fn, i);
            for (unsigned o = 0; o < in->nopd; o++)
                if (in->opd[o].sym != NO_INDEX && in->opd[o].sym < m->vars->len)
                    used[in->opd[o].sym] = TRUE;
        }
    }
    for (guint i = 0; i < m->vars->len; i++) {
        const Variable *v = module_var(m, i);
        if (v->scope == VAR_FRAME && v->owner != NO_INDEX && funcs[v->owner])
            used[i] = TRUE;
        for (guint k = 0; v->init_fixups && k < v->init_fixups->len; k++) {
            const VarFixup *fx = &g_array_index(v->init_fixups, VarFixup, k);
            if (fx->sym != NO_INDEX && fx->sym < m->vars->len)
                used[fx->sym] = TRUE;
        }
    }
}

/* Shared-memory layout of a kernel: the static .shared variables that the
 * kernel and its callees use (as ptxas allocates them: a module's other
 * kernels' arrays cost this one nothing), then the dynamic (unsized .extern)
 * array, which all extern declarations alias. */
static uint32_t shared_layout(const Module *m, const LaunchSpec *spec, uint64_t *offsets)
{
    bool indirect;
    gboolean *funcs = launch_kernel_functions(m, spec->kernel, &indirect);
    gboolean *used = g_new0(gboolean, MAX(m->vars->len, 1u));
    mark_used_vars(m, funcs, used);
    uint64_t top = 0, ext_align = 16;
    bool dynamic = spec->dynamic_shared_bytes > 0;
    for (guint i = 0; i < m->vars->len; i++) {
        const Variable *v = module_var(m, i);
        if (v->space != SPACE_SHARED || !used[i])
            continue;
        if (v->is_extern && v->size == 0) {
            ext_align = MAX(ext_align, (uint64_t)v->align);
            dynamic = true;
            continue;
        }
        top = align_up(top, MAX(v->align, 1u));
        offsets[i] = top;
        top += v->size;
    }
    if (dynamic) /* the dynamic array starts aligned after the static ones */
        top = align_up(top, ext_align);
    for (guint i = 0; i < m->vars->len; i++) {
        const Variable *v = module_var(m, i);
        if (v->space == SPACE_SHARED && v->is_extern && v->size == 0)
            offsets[i] = top;
    }
    g_free(used);
    g_free(funcs);
    return (uint32_t)MIN(top + spec->dynamic_shared_bytes, UINT32_MAX);
}

/* The launch limits of the chosen GPU, for functional and timed runs alike:
 * the same launch fails on the same GPU in both. */
static bool check_gpu_limits(const LaunchSpec *spec, uint32_t threads, uint32_t shared_size, GError **error)
{
    const GpuConfig *gpu = spec->gpu;
    const char *name = gpu->display_name ? gpu->display_name : gpu->name;
    const Dim3 b = spec->block, gr = spec->grid;
    /* a key the config leaves out (0) means CUDA's limit since cc 3.0 */
    const uint32_t cuda_grid[3] = {0x7FFFFFFFu, 65535u, 65535u}, grid[3] = {gr.x, gr.y, gr.z};
    uint32_t max_grid[3];
    bool fits = true;
    for (int d = 0; d < 3; d++) {
        max_grid[d] = gpu->max_grid[d] ? gpu->max_grid[d] : cuda_grid[d];
        fits = fits && grid[d] <= max_grid[d];
    }
    if (!fits) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "invalid configuration argument: grid (%u,%u,%u) exceeds the %s's (%u,%u,%u)", gr.x, gr.y,
                    gr.z, name, max_grid[0], max_grid[1], max_grid[2]);
        return false;
    }
    if (gpu->max_threads_per_block && threads > gpu->max_threads_per_block) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "invalid configuration argument: block (%u,%u,%u) has %u threads; the %s allows at most %u "
                    "per block", b.x, b.y, b.z, threads, name, gpu->max_threads_per_block);
        return false;
    }
    if (gpu->smem_per_block && shared_size > gpu->smem_per_block) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "too many resources requested for launch: %u bytes of shared memory per block; the %s allows "
                    "at most %u", shared_size, name, gpu->smem_per_block);
        return false;
    }
    Occupancy occ;
    occupancy_compute(gpu, threads, spec->regs_per_thread, shared_size, &occ);
    if (occ.blocks_per_sm == 0) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "too many resources requested for launch: a block of %u threads with %u registers per thread "
                    "and %u bytes of shared memory does not fit on one SM of %s (limited by %s)",
                    threads, spec->regs_per_thread, shared_size, name, occupancy_limiter_name(occ.limiter));
        return false;
    }
    uint64_t ctas = (uint64_t)gr.x * gr.y * gr.z, resident = (uint64_t)occ.blocks_per_sm * gpu->num_sms;
    if (spec->cooperative && ctas > resident) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "too many blocks in cooperative launch: a grid of %" G_GUINT64_FORMAT " blocks; the %s "
                    "keeps at most %u blocks of this kernel per SM (limited by %s) x %u SMs = %" G_GUINT64_FORMAT
                    " resident at once", ctas, name, occ.blocks_per_sm, occupancy_limiter_name(occ.limiter),
                    gpu->num_sms, resident);
        return false;
    }
    return true;
}

/* Without a GPU to size it, a cooperative grid is held to what the largest
 * GPUs keep resident (every CTA is allocated at once); with one,
 * check_gpu_limits applies the GPU's own limit. */
#define MAX_COOPERATIVE_CTAS 65536u

static bool check_cooperative(const LaunchSpec *spec, GError **error)
{
    const Dim3 gr = spec->grid;
    uint64_t ctas = (uint64_t)gr.x * gr.y * gr.z;
    if (spec->cta_first || (spec->cta_count && spec->cta_count < ctas)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_UNSUPPORTED,
                    "a cooperative launch runs its whole grid: CTAs %" G_GUINT64_FORMAT " .. +%" G_GUINT64_FORMAT
                    " of %" G_GUINT64_FORMAT " cannot be run alone (they may wait for the others)",
                    spec->cta_first, spec->cta_count, ctas);
        return false;
    }
    if (!spec->gpu && ctas > MAX_COOPERATIVE_CTAS) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "too many blocks in cooperative launch: a grid of %" G_GUINT64_FORMAT " blocks; without a GPU "
                    "configuration warpsim keeps at most %u resident at once", ctas, MAX_COOPERATIVE_CTAS);
        return false;
    }
    return true;
}

static bool check_spec(const Module *m, const LaunchSpec *spec, uint32_t shared_size, GError **error)
{
    const Function *k = module_func(m, spec->kernel);
    if (!k->is_entry || !k->is_defined) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: '%s' is not a kernel (.entry) with a body",
                    m->path, k->name);
        return false;
    }
    if (k->cluster_line) {
        /* its CTAs would read the cluster registers of clusters of one */
        g_set_error(error, WARPSIM_ERROR, WS_ERR_UNSUPPORTED,
                    "%s:%u: error: kernel '%s' declares thread-block clusters (.reqnctapercluster or "
                    ".explicitcluster), which are not supported",
                    m->path, k->cluster_line, k->name);
        return false;
    }
    const Dim3 b = spec->block, gr = spec->grid;
    if (!b.x || !b.y || !b.z || !gr.x || !gr.y || !gr.z) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "invalid configuration argument: grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero",
                    gr.x, gr.y, gr.z, b.x, b.y, b.z);
        return false;
    }
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (threads > MAX_THREADS_PER_BLOCK || b.z > 64) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "invalid configuration argument: block (%u,%u,%u) has %" G_GUINT64_FORMAT
                    " threads; at most %u per block, z at most 64",
                    b.x, b.y, b.z, threads, MAX_THREADS_PER_BLOCK);
        return false;
    }
    if (gr.y > 65535 || gr.z > 65535 || gr.x > 0x7FFFFFFFu) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "invalid configuration argument: grid (%u,%u,%u) exceeds (2147483647,65535,65535)",
                    gr.x, gr.y, gr.z);
        return false;
    }
    if (shared_size > MAX_SHARED_PER_BLOCK) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "too many resources requested for launch: %u bytes of shared memory per block, "
                    "at most %u", shared_size, MAX_SHARED_PER_BLOCK);
        return false;
    }
    const uint32_t *req = k->reqntid;
    if (req[0] && (req[0] != b.x || MAX(req[1], 1u) != b.y || MAX(req[2], 1u) != b.z)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "invalid configuration argument: kernel '%s' requires .reqntid %u,%u,%u but the block is (%u,%u,%u)",
                    k->name, req[0], MAX(req[1], 1u), MAX(req[2], 1u), b.x, b.y, b.z);
        return false;
    }
    const uint32_t *maxt = k->maxntid;
    if (maxt[0] && threads > (uint64_t)maxt[0] * MAX(maxt[1], 1u) * MAX(maxt[2], 1u)) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT,
                    "too many resources requested for launch: kernel '%s' allows .maxntid %u,%u,%u, block has %"
                    G_GUINT64_FORMAT " threads", k->name, maxt[0], MAX(maxt[1], 1u), MAX(maxt[2], 1u), threads);
        return false;
    }
    if (spec->cooperative && !check_cooperative(spec, error))
        return false;
    return !spec->gpu || check_gpu_limits(spec, (uint32_t)threads, shared_size, error);
}

void launch_describe_warps(GString *s, const Cta *cta)
{
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        const Warp *w = &cta->warps[i];
        if (w->state == WARP_DONE)
            continue;
        const Frame *f = &w->frames[w->nframes - 1];
        const Function *fn = module_func(cta->module, f->func);
        uint32_t pc = w->depth ? w->stack[w->depth - 1].pc : 0;
        uint32_t line = pc < func_ninsns(fn) ? func_insn(fn, pc)->line : 0;
        g_string_append_printf(s, "\n  warp %u: %s, pc %u (line %u) in %s, active mask 0x%08x",
                               i, w->state == WARP_AT_BARRIER ? "waiting at barrier" : "ready", pc,
                               line, fn->name, w->depth ? w->stack[w->depth - 1].mask : 0);
    }
}

/* ------------------------------------------------------------------ */
/* cooperative launches                                                 */

bool launch_coop_join(ModuleImage *img, const LaunchSpec *spec, Cta *cta, GError **error)
{
    if (!img->coop_ctas)
        img->coop_ctas = g_ptr_array_new();
    if (img->coop_ctas->len == 0 || img->coop_gridid != spec->gridid) {
        /* the first CTA of a launch (CTAs of an earlier launch left, or were
         * dropped unreleased after a failure): a fresh grid */
        for (guint i = 0; i < img->coop_ctas->len; i++)
            ((Cta *)g_ptr_array_index(img->coop_ctas, i))->coop_slot = 0;
        g_ptr_array_set_size(img->coop_ctas, 0);
        img->coop_hint = 0;
        img->coop_gridid = spec->gridid;
        if (!img->grid_workspace) {
            img->grid_workspace = gmem_alloc(img->gmem, GRID_WORKSPACE_BYTES, "cooperative grid workspace", error);
            if (!img->grid_workspace)
                return false;
        }
        const uint32_t fresh[GRID_WORKSPACE_BYTES / 4] = {GRID_WORKSPACE_BYTES, 0, 1, 0};
        memcpy(gmem_ptr(img->gmem, img->grid_workspace, sizeof fresh), fresh, sizeof fresh);
    }
    g_ptr_array_add(img->coop_ctas, cta);
    cta->coop_slot = img->coop_ctas->len;
    return true;
}

void launch_coop_leave(ModuleImage *img, Cta *cta)
{
    GPtrArray *a = img->coop_ctas;
    guint i = cta->coop_slot - 1;
    cta->coop_slot = 0;
    if (!a || i >= a->len || g_ptr_array_index(a, i) != cta)
        return; /* dropped when a later launch began */
    Cta *last = g_ptr_array_index(a, a->len - 1);
    g_ptr_array_index(a, i) = last;
    last->coop_slot = i + 1;
    g_ptr_array_set_size(a, a->len - 1);
}

bool launch_budget_exhausted(const Cta *cta, uint64_t budget, GError **error)
{
    GString *s = g_string_new(NULL);
    g_string_printf(s, "%s: error: instruction budget of %" G_GUINT64_FORMAT
                       " warp instructions exhausted in block (%u,%u,%u)",
                    cta->module->path, budget, cta->ctaid.x, cta->ctaid.y, cta->ctaid.z);
    launch_describe_warps(s, cta);
    g_set_error_literal(error, WARPSIM_ERROR, WS_ERR_FAULT, s->str);
    g_string_free(s, TRUE);
    return false;
}

/* Every unfinished warp of the CTA waits at a barrier: only its own warps
 * could release them. */
static bool barrier_deadlock(const Cta *cta, GError **error)
{
    GString *s = g_string_new(NULL);
    g_string_printf(s, "%s: error: deadlock in block (%u,%u,%u): every unfinished warp waits at a "
                       "barrier that the others will never reach",
                    cta->module->path, cta->ctaid.x, cta->ctaid.y, cta->ctaid.z);
    launch_describe_warps(s, cta);
    g_set_error_literal(error, WARPSIM_ERROR, WS_ERR_FAULT, s->str);
    g_string_free(s, TRUE);
    return false;
}

/* One turn of a ready warp: up to WARP_QUANTUM instructions, counted
 * against the launch's budget (with a budget, it stops on the instruction
 * that exceeds it).  False on a fault or a spent budget. */
static bool warp_turn(Cta *cta, Warp *w, uint64_t *budget_used, uint64_t budget, uint32_t *executed,
                      GError **error)
{
    uint64_t allowed = budget ? MIN((uint64_t)WARP_QUANTUM, budget - *budget_used + 1) : WARP_QUANTUM;
    *executed = 0;
    bool ok = warp_run(w, (uint32_t)allowed, executed, error);
    *budget_used += *executed;
    if (!ok)
        return false;
    if (budget && *budget_used > budget)
        return launch_budget_exhausted(cta, budget, error);
    return true;
}

/* Each ready warp of the CTA takes a turn; *progress tells whether any
 * executed something or finished.  False on a fault or a spent budget. */
static bool cta_round(Cta *cta, uint64_t *budget_used, uint64_t budget, bool *progress, GError **error)
{
    *progress = false;
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        Warp *w = &cta->warps[i];
        if (w->state != WARP_READY)
            continue;
        uint32_t executed;
        if (!warp_turn(cta, w, budget_used, budget, &executed, error))
            return false;
        *progress |= executed > 0 || w->state == WARP_DONE;
    }
    return true;
}

static bool run_cta(Cta *cta, uint64_t *budget_used, uint64_t budget, GError **error)
{
    for (;;) {
        bool progress;
        if (!cta_round(cta, budget_used, budget, &progress, error))
            return false;
        if (cta->done_warps == cta->nwarps)
            return true;
        if (!progress)
            return barrier_deadlock(cta, error);
    }
}

/* One round of a cooperative grid's CTA: each ready warp runs for a
 * quantum.  False on a fault, a spent budget, or a CTA whose unfinished
 * warps all wait at barriers (only its own warps could release them). */
static bool coop_round(Cta *cta, uint64_t *budget_used, uint64_t budget, GError **error)
{
    bool progress, ready = false;
    if (!cta_round(cta, budget_used, budget, &progress, error))
        return false;
    for (uint32_t i = 0; i < cta->nwarps && !ready; i++)
        ready = cta->warps[i].state == WARP_READY;
    return ready || cta->done_warps == cta->nwarps || barrier_deadlock(cta, error);
}

/* A cooperative launch: every CTA set up first, then rounds over all of
 * them until each has finished.  A grid whose CTAs all spin is stopped by
 * the executor's hang check, which in a cooperative launch looks at the
 * whole grid (exec.c). */
static bool run_grid_cooperative(ModuleImage *img, const LaunchSpec *s, const uint64_t *shared_offset,
                                 uint32_t shared_size, uint64_t first, uint64_t end, LaunchStats *stats,
                                 GError **error)
{
    uint64_t n = end - first, set_up = 0, budget_used = 0;
    Cta *ctas = g_new0(Cta, n);
    bool ok = true;
    for (; ok && set_up < n; set_up++)
        ok = cta_init(&ctas[set_up], img->module, img, s, shared_offset, shared_size, launch_cta_id(s, first + set_up),
                      stats, error);
    uint64_t unfinished = n;
    while (ok && unfinished) {
        unfinished = 0;
        for (uint64_t i = 0; ok && i < n; i++) {
            Cta *c = &ctas[i];
            if (c->done_warps == c->nwarps)
                continue;
            ok = coop_round(c, &budget_used, s->max_instructions, error);
            unfinished += c->done_warps < c->nwarps;
        }
    }
    for (uint64_t i = 0; i < set_up; i++) {
        launch_stats_count_cta(stats, &ctas[i]);
        cta_release(&ctas[i]);
    }
    g_free(ctas);
    return ok;
}

bool launch_prepare(const Module *m, const LaunchSpec *spec, uint64_t **shared_offset,
                    uint32_t *shared_size, GError **error)
{
    *shared_offset = NULL;
    if (spec->kernel >= m->funcs->len) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: no such kernel", m->path);
        return false;
    }
    uint64_t *offsets = g_new0(uint64_t, MAX(m->vars->len, 1u));
    *shared_size = shared_layout(m, spec, offsets);
    if (!check_spec(m, spec, *shared_size, error)) {
        g_free(offsets);
        return false;
    }
    *shared_offset = offsets;
    return true;
}

/* An instruction through which CTAs may see each other's progress: a
 * global atomic or reduction; a strong load or store of memory other CTAs
 * can reach (volatile, .cv, or relaxed/acquire/release at gpu or system
 * scope: what cub's decoupled look-back and a hand-written chained scan
 * spin on, and no data race in the PTX memory model); a fence at gpu or
 * system scope (__threadfence(), the other half of such code). */
static bool insn_crosses_ctas(const Insn *in)
{
    if (in->op == OP_ATOM || in->op == OP_RED)
        return in->space != SPACE_SHARED;
    if (in->op == OP_MEMBAR || in->op == OP_FENCE)
        return in->scope >= SCOPE_GPU;
    if (in->op != OP_LD && in->op != OP_ST)
        return false;
    if (in->space == SPACE_SHARED || in->space == SPACE_LOCAL || in->space == SPACE_PARAM || in->space == SPACE_CONST)
        return false;
    bool strong = in->sem == SEM_RELAXED || in->sem == SEM_ACQUIRE || in->sem == SEM_RELEASE ||
                  in->sem == SEM_ACQ_REL || in->sem == SEM_SC;
    return in->sem == SEM_VOLATILE || in->cache == CACHE_CV ||
           (strong && (in->scope == SCOPE_NONE || in->scope >= SCOPE_GPU));
}

/* What lets the launch's CTAs see each other (launch_ctas_independent),
 * as a sentence; NULL when nothing does. */
static char *crossing_reason(const Module *m, uint32_t kernel)
{
    bool indirect;
    gboolean *funcs = launch_kernel_functions(m, kernel, &indirect);
    char *why = indirect ? g_strdup("an indirect call may reach any function") : NULL;
    for (guint f = 0; f < m->funcs->len && !why; f++) {
        const Function *fn = module_func(m, f);
        if (!funcs[f])
            continue;
        if (!fn->is_defined) {
            why = g_strdup_printf("it calls %s, which is not defined in the module", fn->name);
            break;
        }
        for (uint32_t i = 0; i < func_ninsns(fn) && !why; i++) {
            const Insn *in = func_insn(fn, i);
            if (!insn_crosses_ctas(in))
                continue;
            const char *what = in->op == OP_ATOM || in->op == OP_RED         ? "a global atomic"
                               : in->op == OP_MEMBAR || in->op == OP_FENCE ? "a fence at gpu or system scope"
                                                                           : "a volatile or scoped global access";
            why = g_strdup_printf("PTX line %u: %s lets CTAs see each other's progress", in->line, what);
        }
    }
    g_free(funcs);
    return why;
}

bool launch_ctas_independent(const Module *m, uint32_t kernel)
{
    char *why = crossing_reason(m, kernel);
    bool independent = why == NULL;
    g_free(why);
    return independent;
}

char *launch_in_order_reason(const ModuleImage *img, const LaunchSpec *spec)
{
    if (spec->max_instructions)
        return g_strdup("an instruction budget must stop the launch at one instruction");
    if (spec->checks & LAUNCH_CHECK_INIT)
        return g_strdup("global initcheck's reports depend on which CTA ran first");
    if (spec->cooperative)
        return g_strdup("a cooperative launch's CTAs wait for each other");
    char *why = crossing_reason(img->module, spec->kernel);
    uint32_t line;
    if (!why && cta_overlap_possible(img, spec, &line))
        why = line ? g_strdup_printf("PTX line %u: a store may touch bytes another CTA reads or writes", line)
                   : g_strdup("the kernel's global accesses could not be followed (a callee touches global "
                              "memory, or the analysis did not settle)");
    return why;
}

bool launch_ctas_run_apart(const ModuleImage *img, const LaunchSpec *spec)
{
    char *why = launch_in_order_reason(img, spec);
    bool apart = why == NULL;
    g_free(why);
    return apart;
}

void launch_cta_range(const LaunchSpec *spec, uint64_t *first, uint64_t *end)
{
    uint64_t n = (uint64_t)spec->grid.x * spec->grid.y * spec->grid.z;
    *first = MIN(spec->cta_first, n);
    *end = spec->cta_count ? MIN(n, *first + spec->cta_count) : n;
}

Dim3 launch_cta_id(const LaunchSpec *s, uint64_t linear)
{
    Dim3 id = {(uint32_t)(linear % s->grid.x), (uint32_t)(linear / s->grid.x % s->grid.y),
               (uint32_t)(linear / ((uint64_t)s->grid.x * s->grid.y))};
    return id;
}

uint64_t launch_cta_linear(const LaunchSpec *s, Dim3 id)
{
    return id.x + (uint64_t)s->grid.x * (id.y + (uint64_t)s->grid.y * id.z);
}

void launch_stats_count_cta(LaunchStats *stats, const Cta *cta)
{
    if (!stats)
        return;
    stats->ctas++;
    stats->warps += cta->nwarps;
    stats->threads += cta->nthreads;
}

/* The CTAs of one launch, shared by the threads that simulate it. */
typedef struct {
    ModuleImage *img;
    const LaunchSpec *spec;
    const uint64_t *shared_offset;
    uint32_t shared_size;
    uint64_t end;        /* one past the last CTA to run */
    uint64_t next;       /* next CTA to hand out (atomic) */
    uint64_t stop_at;    /* lowest faulting CTA so far (atomic); end if none */
} CtaQueue;

typedef struct {
    CtaQueue *q;
    uint32_t thread;     /* its index among the launch's host threads */
    LaunchStats stats;
    GError *error;       /* of the lowest faulting CTA this worker ran */
    uint64_t error_cta;
} CtaWorker;

/* Runs the queue's CTAs, one at a time, until none is left. */
static gpointer cta_worker_main(gpointer data)
{
    CtaWorker *wk = data;
    CtaQueue *q = wk->q;
    Cta cta = {0};
    uint64_t unused_budget = 0;
    for (;;) {
        uint64_t i = __atomic_fetch_add(&q->next, 1, __ATOMIC_RELAXED);
        if (i >= q->end || i > __atomic_load_n(&q->stop_at, __ATOMIC_RELAXED))
            break;
        GError *e = NULL;
        bool ok = cta_init(&cta, q->img->module, q->img, q->spec, q->shared_offset, q->shared_size,
                           launch_cta_id(q->spec, i), &wk->stats, &e);
        cta.host_thread = wk->thread;
        ok = ok && run_cta(&cta, &unused_budget, 0, &e);
        launch_stats_count_cta(&wk->stats, &cta);
        if (!ok) {
            if (!wk->error || i < wk->error_cta) {
                g_clear_error(&wk->error);
                wk->error = e;
                wk->error_cta = i;
            } else {
                g_clear_error(&e);
            }
            uint64_t cur = __atomic_load_n(&q->stop_at, __ATOMIC_RELAXED);
            while (i < cur && !__atomic_compare_exchange_n(&q->stop_at, &cur, i, false, __ATOMIC_RELAXED,
                                                           __ATOMIC_RELAXED)) {
            }
        }
    }
    cta_release(&cta);
    return NULL;
}

struct LaunchShare {
    LaunchSpec spec;
    uint8_t empty_params[8];
    uint64_t *shared_offset;
    CtaQueue q;
    uint32_t nhelpers;
    CtaWorker *wk;       /* nhelpers + 1: the helpers', then the joining caller's */
    HostJob *helpers;    /* running the first nhelpers; NULL without */
};

LaunchShare *launch_share_new(ModuleImage *img, const LaunchSpec *spec, uint32_t helpers, GError **error)
{
    LaunchShare *sh = g_new0(LaunchShare, 1);
    uint32_t shared_size;
    if (!launch_prepare(img->module, spec, &sh->shared_offset, &shared_size, error)) {
        g_free(sh);
        return NULL;
    }
    sh->spec = *spec;
    if (!sh->spec.params)
        sh->spec.params = sh->empty_params;
    uint64_t first, end;
    launch_cta_range(&sh->spec, &first, &end);
    sh->q = (CtaQueue){.img = img, .spec = &sh->spec, .shared_offset = sh->shared_offset,
                       .shared_size = shared_size, .end = end, .next = first, .stop_at = end};
    /* no helper without a CTA of its own to start on */
    sh->nhelpers = (uint32_t)MIN((uint64_t)helpers, end - first > 0 ? end - first - 1 : 0);
    sh->wk = g_new0(CtaWorker, sh->nhelpers + 1);
    for (uint32_t t = 0; t <= sh->nhelpers; t++) {
        sh->wk[t].q = &sh->q;
        sh->wk[t].thread = t;
        launch_stats_init(&sh->wk[t].stats, img->module);
    }
    if (sh->nhelpers)
        sh->helpers = host_pool_run(spec->pool, sh->nhelpers, cta_worker_main, sh->wk, sizeof *sh->wk);
    return sh;
}

bool launch_share_join(LaunchShare *sh, LaunchStats *stats, GError **error)
{
    const Module *m = sh->q.img->module;
    cta_worker_main(&sh->wk[sh->nhelpers]);
    if (sh->helpers)
        host_job_wait(sh->helpers);
    CtaWorker *first_fault = NULL;
    for (uint32_t t = 0; t <= sh->nhelpers; t++) {
        CtaWorker *wk = &sh->wk[t];
        if (stats)
            launch_stats_add(stats, &wk->stats, m);
        launch_stats_clear(&wk->stats);
        if (wk->error && (!first_fault || wk->error_cta < first_fault->error_cta))
            first_fault = wk;
    }
    bool ok = first_fault == NULL;
    if (first_fault)
        g_propagate_error(error, g_steal_pointer(&first_fault->error));
    for (uint32_t t = 0; t <= sh->nhelpers; t++)
        g_clear_error(&sh->wk[t].error);
    g_free(sh->wk);
    g_free(sh->shared_offset);
    g_free(sh);
    return ok;
}

bool launch_run(ModuleImage *img, const LaunchSpec *spec, LaunchStats *stats, GError **error)
{
    const Module *m = img->module;
    uint64_t first, end;
    launch_cta_range(spec, &first, &end);
    uint32_t nthreads = (uint32_t)MIN((uint64_t)MAX(spec->host_threads, 1u), end - first);
    if (nthreads > 1 && launch_ctas_run_apart(img, spec)) {
        LaunchShare *sh = launch_share_new(img, spec, nthreads - 1, error);
        return sh && launch_share_join(sh, stats, error);
    }
    uint64_t *shared_offset;
    uint32_t shared_size;
    if (!launch_prepare(m, spec, &shared_offset, &shared_size, error))
        return false;
    uint8_t empty_params[8] = {0};
    LaunchSpec s = *spec;
    if (!s.params)
        s.params = empty_params;
    bool ok = true;
    if (s.cooperative) {
        ok = run_grid_cooperative(img, &s, shared_offset, shared_size, first, end, stats, error);
        g_free(shared_offset);
        return ok;
    }
    uint64_t budget_used = 0;
    Cta cta = {0}; /* one CTA after another, reusing its buffers */
    for (uint64_t i = first; ok && i < end; i++) {
        ok = cta_init(&cta, m, img, &s, shared_offset, shared_size, launch_cta_id(&s, i), stats, error);
        if (!ok)
            break;
        ok = run_cta(&cta, &budget_used, s.max_instructions, error);
        launch_stats_count_cta(stats, &cta);
    }
    cta_release(&cta);
    g_free(shared_offset);
    return ok;
}

/* The host CPU the calling thread runs on, -1 where unknown. */
static int host_cpu(void)
{
#ifdef CPU_COUNT
    return sched_getcpu();
#else
    return -1;
#endif
}

/* Moves the calling thread off `cpu` if it runs there; then any of its
 * allowed CPUs may hold it again. */
static void host_leave_cpu(int cpu)
{
#ifdef CPU_COUNT
    cpu_set_t allowed, others;
    if (cpu < 0 || sched_getcpu() != cpu || sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
        !CPU_ISSET(cpu, &allowed) || CPU_COUNT(&allowed) < 2)
        return;
    others = allowed;
    CPU_CLR(cpu, &others);
    if (sched_setaffinity(0, sizeof others, &others) == 0)
        (void)sched_setaffinity(0, sizeof allowed, &allowed);
#else
    (void)cpu;
#endif
}

typedef struct {
    GThreadFunc fn;
    gpointer data;
    int creator_cpu;
    gint started;        /* set once the thread has left creator_cpu */
} HostStart;

static gpointer host_thread_main(gpointer p)
{
    HostStart *s = p;
    GThreadFunc fn = s->fn;
    gpointer data = s->data;
    host_leave_cpu(s->creator_cpu);
    g_atomic_int_set(&s->started, 1); /* s lives on the creator's stack: not touched again */
    return fn(data);
}

/* Yielding lets a thread queued on this CPU run; after this long the
 * creator sleeps instead (a real-time creator's yield would not). */
#define HOST_START_WAIT_US 5000

GThread *launch_host_thread_new(const char *name, GThreadFunc fn, gpointer data)
{
    HostStart s = {.fn = fn, .data = data, .creator_cpu = host_cpu()};
    GThread *t = g_thread_new(name, host_thread_main, &s);
    int64_t until = g_get_monotonic_time() + HOST_START_WAIT_US;
    while (!g_atomic_int_get(&s.started)) {
        if (g_get_monotonic_time() < until)
            sched_yield();
        else
            g_usleep(100);
    }
    return t;
}

struct HostPins {
#ifdef CPU_COUNT
    cpu_set_t creator;   /* the creator's allowed CPUs, given back at the end */
#endif
    uint32_t n;
    int *cpu;            /* thread k's CPU */
};

HostPins *launch_host_pins_new(uint32_t nthreads)
{
#ifdef CPU_COUNT
    cpu_set_t allowed;
    int here = host_cpu();
    if (nthreads < 2 || here < 0 || here >= CPU_SETSIZE || sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
        !CPU_ISSET(here, &allowed) || (uint32_t)CPU_COUNT(&allowed) < nthreads)
        return NULL;
    HostPins *p = g_new0(HostPins, 1);
    p->creator = allowed;
    p->n = nthreads;
    p->cpu = g_new(int, nthreads);
    /* the creator keeps its CPU; the others follow it in CPU order */
    uint32_t k = 0;
    for (int j = 0; j < CPU_SETSIZE && k < nthreads; j++) {
        int cpu = (here + j) % CPU_SETSIZE;
        if (CPU_ISSET(cpu, &allowed))
            p->cpu[k++] = cpu;
    }
    cpu_set_t mine;
    CPU_ZERO(&mine);
    CPU_SET(here, &mine);
    if (sched_setaffinity(0, sizeof mine, &mine) != 0) {
        launch_host_pins_free(p);
        return NULL;
    }
    return p;
#else
    (void)nthreads;
    return NULL;
#endif
}

void launch_host_pin(const HostPins *p, uint32_t k)
{
#ifdef CPU_COUNT
    if (!p || k >= p->n)
        return;
    cpu_set_t mine;
    CPU_ZERO(&mine);
    CPU_SET(p->cpu[k], &mine);
    (void)sched_setaffinity(0, sizeof mine, &mine); /* a hint: unpinned, it still works */
#else
    (void)p;
    (void)k;
#endif
}

void launch_host_pins_free(HostPins *p)
{
    if (!p)
        return;
#ifdef CPU_COUNT
    (void)sched_setaffinity(0, sizeof p->creator, &p->creator);
#endif
    g_free(p->cpu);
    g_free(p);
}

uint32_t launch_host_cores(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (uint32_t)CPU_COUNT(&set);
#endif
    return g_get_num_processors();
}
