/* test_analyze.c — the static analyses behind `warpsim analyze`.
 *
 * - divergence (divergence.c) on hand-written kernels whose answer is known
 *   (tests/analyze/divergence_cases.ptx: each branch's label says what it
 *   must be);
 * - soundness on every PTX workload (traces/, tests/gpu-probe/): run
 *   functionally, no branch classified uniform ever split a warp
 *   (warpsim__divergence_map "splits"), and every bra.uni nvcc wrote is
 *   classified uniform (tests/analyze/cases.json adds the hand-written
 *   kernels, whose sync-dependent branches do split);
 * - register pressure (regpressure.c) on kernels whose live counts are
 *   derived by hand (tests/analyze/pressure_cases.ptx), and the command's
 *   estimate and occupancy.
 */
#include <check.h>
#include <glib.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "divergence.h"
#include "errors.h"
#include "manifest.h"
#include "module.h"
#include "ptx_parser.h"
#include "regpressure.h"
#include "schedule.h"
#include "testutil.h"

#define WARPSIM_BIN BUILD_ROOT "/src/warpsim"
#define DIV_CASES SOURCE_ROOT "/tests/analyze/divergence_cases.ptx"
#define PRESSURE_CASES SOURCE_ROOT "/tests/analyze/pressure_cases.ptx"

/* ------------------------------------------------------------ helpers */

static Module *load(const char *path)
{
    GError *error = NULL;
    Module *m = ptx_parse_file(path, &error);
    ck_assert_msg(m, "%s", error ? error->message : "?");
    ck_assert_msg(cfg_build_all(m, &error), "%s", error ? error->message : "?");
    return m;
}

static uint32_t func_named(const Module *m, const char *name)
{
    uint32_t i = module_find_func(m, name);
    ck_assert_msg(i != NO_INDEX, "no function %s", name);
    return i;
}

static uint32_t reg_named(const Function *f, const char *name)
{
    for (uint32_t r = 0; r < f->regs->len; r++)
        if (strcmp(g_array_index(f->regs, RegInfo, r).name, name) == 0)
            return r;
    ck_abort_msg("no register %s in %s", name, f->name);
    return NO_INDEX;
}

/* The bra instructions of f whose target label is `label` (several labels
 * may mark one instruction, so the source line is what tells them apart):
 * the line of the PTX file holding "bra <tab>label;". */
static uint32_t bra_to(const char *path, const Function *f, const char *label)
{
    char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    char **lines = g_strsplit(text, "\n", -1);
    char *needle = g_strdup_printf("\t%s;", label);
    uint32_t found = NO_INDEX;
    for (uint32_t l = 0; lines[l] && found == NO_INDEX; l++) {
        if (!strstr(lines[l], "bra") || !g_str_has_suffix(lines[l], needle))
            continue;
        for (uint32_t i = 0; i < func_ninsns(f); i++)
            if (func_insn(f, i)->line == l + 1 && func_insn(f, i)->op == OP_BRA)
                found = i;
    }
    g_free(needle);
    g_strfreev(lines);
    g_free(text);
    ck_assert_msg(found != NO_INDEX, "no bra to %s in %s", label, f->name);
    return found;
}

static Divergence *analyze(const Module *m, uint32_t fi)
{
    GError *error = NULL;
    Divergence *d = divergence_analyze(m, fi, &error);
    ck_assert_msg(d, "%s", error ? error->message : "?");
    return d;
}

/* Every branch of function `fname` to a label ending in _DIVERGENT is
 * classified divergent, every one to a label ending in _UNIFORM uniform. */
static void check_labelled_branches(const Module *m, const char *fname)
{
    uint32_t fi = func_named(m, fname);
    const Function *f = module_func(m, fi);
    Divergence *d = analyze(m, fi);
    unsigned checked = 0;
    for (guint k = 0; k < f->labels->len; k++) {
        const char *label = g_array_index(f->labels, Label, k).name;
        bool want_div = g_str_has_suffix(label, "_DIVERGENT"), want_uni = g_str_has_suffix(label, "_UNIFORM");
        if (!want_div && !want_uni)
            continue;
        uint32_t i = bra_to(DIV_CASES, f, label);
        ck_assert_msg(divergence_branch_divergent(d, i) == want_div, "%s: branch to %s (line %u) should be %s",
                      fname, label, func_insn(f, i)->line, want_div ? "divergent" : "uniform");
        checked++;
    }
    ck_assert_uint_gt(checked, 0);
    divergence_free(d);
}

static void check_reg(const Module *m, const char *fname, const char *reg, bool want_div, DivReason want_why)
{
    uint32_t fi = func_named(m, fname);
    const Function *f = module_func(m, fi);
    Divergence *d = analyze(m, fi);
    uint32_t r = reg_named(f, reg);
    ck_assert_msg(divergence_reg_divergent(d, r) == want_div, "%s: %s should be %s (reason %d)", fname, reg,
                  want_div ? "divergent" : "uniform", d->reg[r].why);
    if (want_why != DIV_WHY_NONE)
        ck_assert_msg(d->reg[r].why == want_why, "%s: %s divergent for reason %d, expected %d", fname, reg,
                      d->reg[r].why, want_why);
    divergence_free(d);
}

/* --------------------------------------------------- divergence cases */

START_TEST(special_registers)
{
    Module *m = load(DIV_CASES);
    check_labelled_branches(m, "sreg_branches");
    check_reg(m, "sreg_branches", "%r2", true, DIV_WHY_SREG);   /* %tid.x */
    check_reg(m, "sreg_branches", "%r3", false, DIV_WHY_NONE);  /* %ctaid.x */
    check_reg(m, "sreg_branches", "%r4", false, DIV_WHY_NONE);  /* %ntid.x */
    check_reg(m, "sreg_branches", "%r5", false, DIV_WHY_NONE);  /* ctaid*ntid + n */
    check_reg(m, "sreg_branches", "%r6", true, DIV_WHY_SREG);   /* %laneid */
    check_reg(m, "sreg_branches", "%p1", true, DIV_WHY_DATA);
    module_free(m);
}
END_TEST

START_TEST(uniform_loop_counter)
{
    Module *m = load(DIV_CASES);
    check_labelled_branches(m, "uniform_loop");
    check_reg(m, "uniform_loop", "%r2", false, DIV_WHY_NONE);
    check_reg(m, "uniform_loop", "%r3", false, DIV_WHY_NONE);
    module_free(m);
}
END_TEST

START_TEST(divergent_loop_exit)
{
    Module *m = load(DIV_CASES);
    /* the branch on the counter inside the loop stays uniform; the one
     * after the loop diverges (seed 000, Fig. 1.38) */
    check_labelled_branches(m, "divergent_loop");
    check_reg(m, "divergent_loop", "%r2", true, DIV_WHY_SYNC);
    /* ... but every write of it is uniform among the lanes doing it */
    uint32_t fi = func_named(m, "divergent_loop");
    Divergence *d = analyze(m, fi);
    ck_assert(!(d->reg_flags[reg_named(module_func(m, fi), "%r2")] & DIV_REG_WRITTEN_DIVERGENT));
    ck_assert(d->reg_flags[reg_named(module_func(m, fi), "%r1")] & DIV_REG_WRITTEN_DIVERGENT);
    divergence_free(d);
    module_free(m);
}
END_TEST

/* Seed 000 Fig. 1.40: "a, b, c and d always hold the same values for all
 * active threads".  In nvcc 13's PTX they are %f64..%f67: written only
 * uniform values, divergent only after the tid-dependent loop exits (the
 * peeled remainder loop reaches the unrolled one with different rotations). */
START_TEST(seed_nonshared1_rotating_values)
{
    Module *m = load(SOURCE_ROOT "/traces/regpress/regpress.ptx");
    uint32_t fi = func_named(m, "nonShared1");
    const Function *f = module_func(m, fi);
    Divergence *d = analyze(m, fi);
    const char *abcd[] = {"%f64", "%f65", "%f66", "%f67"};
    for (size_t k = 0; k < G_N_ELEMENTS(abcd); k++) {
        uint32_t r = reg_named(f, abcd[k]);
        ck_assert_msg(!(d->reg_flags[r] & DIV_REG_WRITTEN_DIVERGENT), "%s written a divergent value", abcd[k]);
        ck_assert_int_eq(d->reg[r].why, DIV_WHY_SYNC);
    }
    /* the loaded matrix elements are divergent where they are written */
    ck_assert(d->reg_flags[reg_named(f, "%f29")] & DIV_REG_WRITTEN_DIVERGENT);
    divergence_free(d);
    module_free(m);
}
END_TEST

START_TEST(values_at_the_join)
{
    Module *m = load(DIV_CASES);
    check_labelled_branches(m, "join_values");
    check_reg(m, "join_values", "%r5", true, DIV_WHY_SYNC);   /* both sides */
    check_reg(m, "join_values", "%r6", false, DIV_WHY_NONE);  /* only before the branch */
    check_reg(m, "join_values", "%r7", true, DIV_WHY_SYNC);   /* before, and again on one side */
    check_reg(m, "join_values", "%r8", false, DIV_WHY_NONE);  /* one side, dead at the join */
    /* the unconditional bra.uni inside the region is uniform */
    uint32_t fi = func_named(m, "join_values");
    Divergence *d = analyze(m, fi);
    ck_assert(!divergence_branch_divergent(d, bra_to(DIV_CASES, module_func(m, fi), "JOIN")));
    divergence_free(d);
    module_free(m);
}
END_TEST

START_TEST(other_seeds)
{
    Module *m = load(DIV_CASES);
    check_labelled_branches(m, "seeds");
    check_reg(m, "seeds", "%r1", true, DIV_WHY_ATOMIC);
    check_reg(m, "seeds", "%r2", false, DIV_WHY_NONE);  /* global load from a uniform address */
    check_reg(m, "seeds", "%r4", false, DIV_WHY_NONE);  /* vote.ballot */
    check_reg(m, "seeds", "%r5", true, DIV_WHY_WARP_OP);
    check_reg(m, "seeds", "%r6", true, DIV_WHY_PRIVATE_MEMORY);
    check_reg(m, "seeds", "%r7", true, DIV_WHY_GUARD);
    /* the global load's address is uniform, the local one's too (but its
     * value is private) */
    uint32_t fi = func_named(m, "seeds");
    const Function *f = module_func(m, fi);
    Divergence *d = analyze(m, fi);
    unsigned uniform_global_loads = 0;
    for (uint32_t i = 0; i < func_ninsns(f); i++) {
        const Insn *in = func_insn(f, i);
        if (in->op == OP_LD && in->space == SPACE_GLOBAL && (d->insn_flags[i] & DIV_INSN_ADDRESS_UNIFORM))
            uniform_global_loads++;
    }
    ck_assert_uint_eq(uniform_global_loads, 1);
    divergence_free(d);
    module_free(m);
}
END_TEST

START_TEST(calls_and_parameters)
{
    Module *m = load(DIV_CASES);
    check_labelled_branches(m, "helper");
    check_labelled_branches(m, "calls");
    check_reg(m, "helper", "x", true, DIV_WHY_ENTRY);
    check_reg(m, "calls", "%r1", false, DIV_WHY_NONE);
    check_reg(m, "calls", "%r2", true, DIV_WHY_CALL);
    module_free(m);
}
END_TEST

/* Newer warp instructions, when the subset has them: elect.sync's
 * predicate is true in one lane; redux.sync gives every lane the reduction
 * of all lanes' values (uniform however divergent the value). */
START_TEST(elect_and_redux)
{
    PtxOpcode op;
    if (!isa_find_op("elect", 5, &op) || !isa_find_op("redux", 5, &op))
        return;
    static const char ptx[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
        "redux.sync.add.u32 %r2, %r1, -1;\n"
        "elect.sync %r3|%p1, -1;\n"
        "setp.eq.u32 %p2, %r2, 0;\n@%p2 bra L1;\n"
        "@%p1 bra L1;\n"
        "st.global.u32 [%rd1], %r2;\nL1:\nret;\n}\n";
    GError *error = NULL;
    Module *m = ptx_parse_string(ptx, "warp.ptx", &error);
    ck_assert_msg(m, "%s", error ? error->message : "?");
    ck_assert(cfg_build_all(m, &error));
    const Function *f = module_func(m, 0);
    Divergence *d = analyze(m, 0);
    ck_assert(!divergence_reg_divergent(d, reg_named(f, "%r2")));
    ck_assert(divergence_reg_divergent(d, reg_named(f, "%p1")));
    uint32_t bras[2], nb = 0;
    for (uint32_t i = 0; i < func_ninsns(f) && nb < 2; i++)
        if (func_insn(f, i)->op == OP_BRA)
            bras[nb++] = i;
    ck_assert_uint_eq(nb, 2);
    ck_assert(!divergence_branch_divergent(d, bras[0]));
    ck_assert(divergence_branch_divergent(d, bras[1]));
    divergence_free(d);
    module_free(m);
}
END_TEST

START_TEST(needs_a_cfg)
{
    GError *error = NULL;
    Module *m = ptx_parse_file(DIV_CASES, &error);
    ck_assert(m);
    ck_assert_ptr_null(divergence_analyze(m, 0, &error));
    ck_assert(error && error->code == WS_ERR_INPUT);
    g_clear_error(&error);
    ck_assert_ptr_null(regpressure_analyze(m, 0, &error));
    ck_assert(error && error->code == WS_ERR_INPUT);
    g_clear_error(&error);
    module_free(m);
}
END_TEST

/* ------------------------------------------------ soundness on workloads */

static bool is_manifest(const json_t *root)
{
    return json_is_object(root) &&
           (json_is_string(json_object_get(root, "kernel")) || json_is_array(json_object_get(root, "launches")));
}

static void collect(const char *dir, bool recurse, GPtrArray *out)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *path = g_build_filename(dir, name, NULL);
        if (recurse && g_file_test(path, G_FILE_TEST_IS_DIR)) {
            collect(path, recurse, out);
        } else if (g_str_has_suffix(name, ".json")) {
            json_t *root = json_load_file(path, 0, NULL);
            if (is_manifest(root))
                g_ptr_array_add(out, g_strdup(path));
            json_decref(root);
        }
        g_free(path);
    }
    if (d)
        g_dir_close(d);
}

/* The PTX file of launch k of a manifest (its own "ptx" or the top level's). */
static char *launch_ptx(const char *manifest, const json_t *root, size_t k)
{
    const json_t *launches = json_object_get(root, "launches");
    const char *ptx = NULL;
    if (json_is_array(launches))
        ptx = json_string_value(json_object_get(json_array_get(launches, k), "ptx"));
    if (!ptx)
        ptx = json_string_value(json_object_get(root, "ptx"));
    if (!ptx)
        return NULL;
    char *dir = g_path_get_dirname(manifest);
    char *path = g_build_filename(dir, ptx, NULL);
    g_free(dir);
    return path;
}

typedef struct {
    unsigned manifests, launches_checked, blocks_checked, splits_seen;
    unsigned uni_marked, bra_conditional, bra_conditional_uniform;
} Soundness;

/* Per PTX file, analysed once: function name -> Divergence. */
typedef struct {
    Module *m;
    GHashTable *by_name; /* char* -> Divergence* */
} Analysed;

static void analysed_free(gpointer p)
{
    Analysed *a = p;
    g_hash_table_destroy(a->by_name);
    module_free(a->m);
    g_free(a);
}

static Analysed *analyse_file(const char *path, Soundness *s, GString *failures)
{
    GError *error = NULL;
    Module *m = ptx_parse_file(path, &error);
    if (!m || !cfg_build_all(m, &error)) {
        g_string_append_printf(failures, "%s: %s\n", path, error ? error->message : "?");
        g_clear_error(&error);
        module_free(m);
        return NULL;
    }
    Analysed *a = g_new0(Analysed, 1);
    a->m = m;
    a->by_name = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify)divergence_free);
    for (uint32_t fi = 0; fi < m->funcs->len; fi++) {
        const Function *f = module_func(m, fi);
        if (!f->is_defined)
            continue;
        Divergence *d = divergence_analyze(m, fi, &error);
        if (!d) {
            g_string_append_printf(failures, "%s: %s\n", path, error->message);
            g_clear_error(&error);
            continue;
        }
        /* superset property: what nvcc marked uniform, the analysis proves */
        for (uint32_t i = 0; i < func_ninsns(f); i++) {
            const Insn *in = func_insn(f, i);
            if (in->op != OP_BRA)
                continue;
            if (in->guard != NO_INDEX) {
                s->bra_conditional++;
                s->bra_conditional_uniform += !divergence_branch_divergent(d, i);
            }
            if (in->flags & FL_UNI) {
                s->uni_marked++;
                if (divergence_branch_divergent(d, i))
                    g_string_append_printf(failures, "%s:%u: bra.uni classified divergent\n", path, in->line);
            }
        }
        g_hash_table_insert(a->by_name, f->name, d);
    }
    return a;
}

static void check_manifest(const char *path, GHashTable *files, Soundness *s, GString *failures)
{
    GError *error = NULL;
    json_t *root = json_load_file(path, 0, NULL);
    Manifest *mf = manifest_load(path, &error);
    if (!mf) {
        g_string_append_printf(failures, "%s: %s\n", path, error->message);
        g_clear_error(&error);
        json_decref(root);
        return;
    }
    RunOptions opt = {.config = NULL, .functional = true, .threads = 4};
    json_t *report = NULL;
    guint failed = 0;
    manifest_run(mf, &opt, &report, &failed, &error);
    g_clear_error(&error); /* a failed expectation or fault still reports what ran */
    s->manifests++;
    size_t k;
    json_t *launch;
    json_array_foreach(json_object_get(report, "launches"), k, launch) {
        char *ptx = launch_ptx(path, root, k);
        if (!ptx) {
            g_string_append_printf(failures, "%s: launch %zu has no ptx\n", path, k);
            continue;
        }
        Analysed *a = g_hash_table_lookup(files, ptx);
        if (!a && !g_hash_table_contains(files, ptx)) {
            a = analyse_file(ptx, s, failures);
            g_hash_table_insert(files, g_strdup(ptx), a);
        }
        const json_t *map = json_object_get(json_object_get(launch, "metrics"), "warpsim__divergence_map");
        if (a && !json_is_array(map))
            g_string_append_printf(failures, "%s: launch %zu has no divergence map\n", path, k);
        size_t e;
        json_t *entry;
        json_array_foreach(map, e, entry) {
            if (!a)
                break;
            const char *fname = json_string_value(json_object_get(entry, "function"));
            Divergence *d = fname ? g_hash_table_lookup(a->by_name, fname) : NULL;
            uint32_t fi = module_find_func(a->m, fname ? fname : "");
            json_int_t b = json_integer_value(json_object_get(entry, "block"));
            json_int_t splits = json_integer_value(json_object_get(entry, "splits"));
            if (!d || fi == NO_INDEX) {
                g_string_append_printf(failures, "%s: no analysis for function %s\n", path, fname ? fname : "?");
                continue;
            }
            const Cfg *c = module_func(a->m, fi)->cfg;
            if (b < 0 || (uint64_t)b >= c->nblocks) {
                g_string_append_printf(failures, "%s: %s has no block %lld\n", path, fname, (long long)b);
                continue;
            }
            uint32_t last = c->blocks[b].last;
            s->blocks_checked++;
            if (splits > 0) {
                s->splits_seen++;
                if (!divergence_branch_divergent(d, last))
                    g_string_append_printf(failures,
                                           "%s: %s line %u: branch classified uniform split the warp %lld times\n",
                                           path, fname, func_insn(module_func(a->m, fi), last)->line,
                                           (long long)splits);
            }
        }
        s->launches_checked++;
        g_free(ptx);
    }
    json_decref(report);
    manifest_free(mf);
    json_decref(root);
}

START_TEST(sound_on_every_workload)
{
    GPtrArray *manifests = g_ptr_array_new_with_free_func(g_free);
    collect(SOURCE_ROOT "/traces", true, manifests);
    collect(SOURCE_ROOT "/tests/gpu-probe", true, manifests);
    collect(SOURCE_ROOT "/tests/analyze", false, manifests); /* sync-dependent splits */
    GHashTable *files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, analysed_free);
    GString *failures = g_string_new(NULL);
    Soundness s = {0};
    for (guint i = 0; i < manifests->len; i++)
        check_manifest(manifests->pdata[i], files, &s, failures);
    fprintf(stderr,
            "soundness: %u manifests, %u launches, %u executed blocks checked, %u blocks whose branch split; "
            "%u PTX files: %u conditional branches (%u classified uniform), %u bra.uni all uniform\n",
            s.manifests, s.launches_checked, s.blocks_checked, s.splits_seen, g_hash_table_size(files),
            s.bra_conditional, s.bra_conditional_uniform, s.uni_marked);
    ck_assert_msg(failures->len == 0, "%s", failures->str);
    /* the test would be empty without workloads that split and bra.uni to check */
    ck_assert_uint_ge(s.manifests, 20);
    ck_assert_uint_gt(s.splits_seen, 5);
    ck_assert_uint_gt(s.uni_marked, 20);
    ck_assert_uint_gt(s.bra_conditional_uniform, 0);
    g_string_free(failures, TRUE);
    g_hash_table_destroy(files);
    g_ptr_array_free(manifests, TRUE);
}
END_TEST

/* ------------------------------------------------------ register pressure */

static RegPressure *pressure(const Module *m, const char *fname)
{
    GError *error = NULL;
    RegPressure *p = regpressure_analyze(m, func_named(m, fname), &error);
    ck_assert_msg(p, "%s", error ? error->message : "?");
    return p;
}

START_TEST(pressure_straight_line)
{
    Module *m = load(PRESSURE_CASES);
    RegPressure *p = pressure(m, "straight");
    const Function *f = module_func(m, p->func);
    /* live after each instruction, by hand: {rd1}=2, +r1, +r2, +r3, then
     * r1 r2 die into r4: {rd1 r3 r4}=4, {rd1 r4}=3, r5 is dead: still 3,
     * the store ends rd1 and r4, ret nothing */
    const uint32_t after[] = {2, 3, 4, 5, 4, 3, 3, 0, 0};
    /* in use: the larger of live-before and live-after plus dead results:
     * the first add needs its 5 inputs-and-survivors, the dead mov %r5 one
     * register beyond the 3 live */
    const uint32_t in_use[] = {2, 3, 4, 5, 5, 4, 4, 3, 0};
    ck_assert_uint_eq(func_ninsns(f), G_N_ELEMENTS(after));
    for (uint32_t i = 0; i < func_ninsns(f); i++) {
        ck_assert_msg(p->at[i].live_after == after[i], "line %u: live after %u, expected %u", func_insn(f, i)->line,
                      p->at[i].live_after, after[i]);
        ck_assert_msg(p->at[i].in_use == in_use[i], "line %u: in use %u, expected %u", func_insn(f, i)->line,
                      p->at[i].in_use, in_use[i]);
    }
    ck_assert_uint_eq(p->peak, 5);
    ck_assert_uint_eq(p->peak_insn, 3); /* mov.u32 %r3, 3: the first to reach 5 */
    ck_assert(regpressure_peak_has(p, reg_named(f, "%r1")) && regpressure_peak_has(p, reg_named(f, "%r3")) &&
              regpressure_peak_has(p, reg_named(f, "%rd1")) && !regpressure_peak_has(p, reg_named(f, "%r4")));
    ck_assert_uint_eq(p->peak_preds, 0);
    /* the same peak as the CFG's liveness, and the estimate adds the reserve */
    ck_assert_uint_eq(f->cfg->max_live_regs, 5);
    ck_assert_uint_eq(cfg_estimate_registers(m, p->func), 5 + CFG_REG_OVERHEAD);
    regpressure_free(p);
    module_free(m);
}
END_TEST

START_TEST(pressure_branches_and_predicates)
{
    Module *m = load(PRESSURE_CASES);
    RegPressure *p = pressure(m, "branchy");
    const Function *f = module_func(m, p->func);
    /* rd1 (2) and n (%r1, used after SKIP) live throughout; %r2 on the
     * fall-through path: 4 at most.  Predicates: %p1 and %p2 both live
     * until the bra, %p2 until the guarded mov. */
    const uint32_t in_use[] = {2, 3, 3, 3, 3, 4, 4, 4, 3, 0};
    const uint32_t preds[] = {0, 0, 1, 2, 2, 1, 1, 0, 0, 0};
    ck_assert_uint_eq(func_ninsns(f), G_N_ELEMENTS(in_use));
    for (uint32_t i = 0; i < func_ninsns(f); i++) {
        ck_assert_msg(p->at[i].in_use == in_use[i], "line %u: in use %u, expected %u", func_insn(f, i)->line,
                      p->at[i].in_use, in_use[i]);
        ck_assert_msg(p->at[i].preds_in_use == preds[i], "line %u: predicates %u, expected %u",
                      func_insn(f, i)->line, p->at[i].preds_in_use, preds[i]);
    }
    /* the guarded mov does not end %r2's first value: live before it */
    ck_assert(p->at[6].live_before == 4);
    ck_assert_uint_eq(p->peak, 4);
    ck_assert_uint_eq(p->peak_preds, 2);
    ck_assert_uint_eq(f->cfg->max_live_regs, p->peak);
    regpressure_free(p);
    module_free(m);
}
END_TEST

START_TEST(pressure_matches_cfg_on_workloads)
{
    /* the per-instruction walk and cfg.c's block peak agree everywhere */
    const char *files[] = {"/traces/matmul/matmul.ptx", "/traces/bitonic/bitonic.ptx", "/traces/stencil/stencil.ptx",
                           "/tests/gpu-probe/lib/lib_kernels.ptx", "/traces/scan/scan.ptx"};
    for (size_t k = 0; k < G_N_ELEMENTS(files); k++) {
        char *path = g_strconcat(SOURCE_ROOT, files[k], NULL);
        if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
            g_free(path);
            continue;
        }
        Module *m = load(path);
        for (uint32_t fi = 0; fi < m->funcs->len; fi++) {
            const Function *f = module_func(m, fi);
            if (!f->is_defined)
                continue;
            RegPressure *p = regpressure_analyze(m, fi, NULL);
            ck_assert(p);
            ck_assert_msg(p->peak == f->cfg->max_live_regs, "%s %s: peak %u, cfg %u", path, f->name, p->peak,
                          f->cfg->max_live_regs);
            regpressure_free(p);
        }
        module_free(m);
        g_free(path);
    }
}
END_TEST

START_TEST(estimate_keeps_the_ptx_order)
{
    /* the list schedule hoists the 31 loads of the radius-5 stencil ahead
     * of their FMAs: its order's peak is far above the PTX's, and the
     * estimate keeps the PTX's (schedule.h, cfg.h) */
    const char *path = SOURCE_ROOT "/traces/stencil/stencil.ptx";
    GError *error = NULL;
    Module *plain = load(path);
    Module *sched = ptx_parse_file(path, &error);
    ck_assert_msg(sched, "%s", error ? error->message : "?");
    schedule_module(sched);
    ck_assert_msg(cfg_build_all(sched, &error), "%s", error ? error->message : "?");
    uint32_t fp = func_named(plain, "stencilBase_r5"), fs = func_named(sched, "stencilBase_r5");
    uint32_t ptx_peak = module_func(plain, fp)->cfg->max_live_regs;
    ck_assert_uint_gt(module_func(sched, fs)->cfg->max_live_regs, ptx_peak + 16);
    ck_assert_uint_eq(cfg_estimate_registers(sched, fs), ptx_peak + CFG_REG_OVERHEAD);
    ck_assert_uint_eq(cfg_estimate_registers(sched, fs), cfg_estimate_registers(plain, fp));
    module_free(plain);
    module_free(sched);
}
END_TEST

START_TEST(static_shared_bytes)
{
    static const char ptx[] =
        ".version 7.8\n.target sm_70\n.address_size 64\n"
        ".shared .align 4 .b8 a[100];\n"
        ".shared .align 16 .b8 b[32];\n"
        ".shared .align 4 .b8 unused[4096];\n"
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".func f()\n{\n.reg .b32 %r<2>;\nld.shared.u32 %r1, [b];\nret;\n}\n"
        ".visible .entry k()\n{\n.reg .b32 %r<2>;\nld.shared.u32 %r1, [a];\nld.shared.u32 %r1, [dyn];\n"
        "call f, ();\nret;\n}\n";
    GError *error = NULL;
    Module *m = ptx_parse_string(ptx, "shared.ptx", &error);
    ck_assert_msg(m, "%s", error ? error->message : "?");
    /* a: 100 bytes at 0; b (via the callee) aligned to 16: 112 + 32 = 144;
     * unused and the dynamic array cost nothing */
    ck_assert_uint_eq(regpressure_static_shared_bytes(m, func_named(m, "k")), 144);
    module_free(m);
}
END_TEST

/* `warpsim analyze --registers --json` on the hand-written kernel: the
 * estimate is peak + 2 = 7; on h200 with 256-thread blocks each warp takes
 * 7 x 32 = 224 -> 256 registers, 8 warps 2048 per block, so registers allow
 * 65536 / 2048 = 32 blocks, warps 64 / 8 = 8: 8 blocks, limited by warps. */
START_TEST(command_reports_estimate_and_occupancy)
{
    char *out = NULL, *err = NULL;
    int status = 0;
    const char *argv[] = {WARPSIM_BIN, "analyze", "--registers", "--divergence", "--json", "--kernel", "straight",
                          PRESSURE_CASES, NULL};
    ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "%s", err);
    json_t *doc = json_loads(out, 0, NULL);
    ck_assert(doc);
    json_t *funcs = json_object_get(doc, "functions");
    ck_assert_uint_eq(json_array_size(funcs), 1);
    json_t *r = json_object_get(json_array_get(funcs, 0), "registers");
    ck_assert_int_eq(json_integer_value(json_object_get(r, "peak")), 5);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "peak_line")), 14);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "estimate")), 7);
    json_t *occ = json_object_get(r, "occupancy");
    ck_assert_int_eq(json_integer_value(json_object_get(occ, "block")), 256);
    ck_assert_int_eq(json_integer_value(json_object_get(occ, "launch__occupancy_limit_registers")), 32);
    ck_assert_int_eq(json_integer_value(json_object_get(occ, "blocks_per_sm")), 8);
    ck_assert_str_eq(json_string_value(json_object_get(occ, "limiter")), "warps");
    json_t *div = json_object_get(json_array_get(funcs, 0), "divergence");
    ck_assert_int_eq(json_integer_value(json_object_get(div, "divergent_registers")), 0);
    json_decref(doc);
    g_free(out);
    g_free(err);

    /* usage errors exit 2 with a message */
    const char *bad[] = {WARPSIM_BIN, "analyze", PRESSURE_CASES, NULL};
    ck_assert(g_spawn_sync(NULL, (char **)bad, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    ck_assert(strstr(err, "--divergence"));
    g_free(out);
    g_free(err);
    /* --block 0 is refused, not taken for "not given" (then 256) */
    const char *zero[] = {WARPSIM_BIN, "analyze", "--registers", "--block", "0", PRESSURE_CASES, NULL};
    ck_assert(g_spawn_sync(NULL, (char **)zero, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2 && strstr(err, "--block must be positive"), "%s",
                  err);
    g_free(out);
    g_free(err);
}
END_TEST

static Suite *analyze_suite(void)
{
    Suite *s = suite_create("analyze");
    TCase *div = tcase_create("divergence");
    tcase_add_test(div, special_registers);
    tcase_add_test(div, uniform_loop_counter);
    tcase_add_test(div, divergent_loop_exit);
    tcase_add_test(div, values_at_the_join);
    tcase_add_test(div, other_seeds);
    tcase_add_test(div, calls_and_parameters);
    tcase_add_test(div, seed_nonshared1_rotating_values);
    tcase_add_test(div, elect_and_redux);
    tcase_add_test(div, needs_a_cfg);
    suite_add_tcase(s, div);
    TCase *sound = tcase_create("soundness");
    tcase_set_timeout(sound, 600);
    tcase_add_test(sound, sound_on_every_workload);
    suite_add_tcase(s, sound);
    TCase *reg = tcase_create("registers");
    tcase_set_timeout(reg, 60);
    tcase_add_test(reg, pressure_straight_line);
    tcase_add_test(reg, pressure_branches_and_predicates);
    tcase_add_test(reg, pressure_matches_cfg_on_workloads);
    tcase_add_test(reg, estimate_keeps_the_ptx_order);
    tcase_add_test(reg, static_shared_bytes);
    tcase_add_test(reg, command_reports_estimate_and_occupancy);
    suite_add_tcase(s, reg);
    return s;
}

int main(void)
{
    return tu_run_suite(analyze_suite());
}
