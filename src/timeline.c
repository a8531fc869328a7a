/* timeline.c — trace-event JSON of timed launches (contract in timeline.h).
 *
 * Events are buffered per SM for the launch under way and written at its
 * end, sorted by content; the file is streamed launch by launch, so memory
 * holds one launch's events at most (bounded by the limit).
 */
#include "timeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "errors.h"

/* event kinds, in the order they sort at equal times */
enum { EV_CTA, EV_STALL, EV_ISSUE, EV_MEM };

#define TID_CTA_BASE 1000u
#define TID_MEM_BASE 2000u

typedef struct {
    uint64_t ts, dur;
    uint64_t id;      /* issue, CTA: the CTA's linear id */
    uint32_t tid;     /* warp slot (memory: the issuing slot until lanes are assigned) */
    uint32_t a, b, c; /* issue: instructions, warp; CTA: x, y, z; memory: sectors, bytes, line */
    uint8_t kind, sub; /* EV_*; stall: state; memory: TimelineMemKind */
} TlEvent;

typedef struct {
    uint64_t start, end, cta, n;
    uint32_t warp;
    bool open;
} OpenIssue;

struct TimelineSm {
    GArray *ev;          /* TlEvent */
    OpenIssue *issue;    /* per warp slot */
    uint32_t nslots;
    uint64_t quota;      /* events this SM may keep in this launch */
    uint64_t recorded;
    bool cut_valid;      /* ev was trimmed: events after `cut` can no longer be kept */
    uint64_t cut;
};

struct Timeline {
    char *path;
    FILE *out;
    uint64_t limit, written, dropped;
    uint64_t offset;     /* where the next launch starts */
    uint32_t launches;
    bool first_event;
    GHashTable *named;   /* (pid << 32 | tid) + 1 of tracks already named */
    /* the launch under way */
    char *kernel;
    TimelineSm *sms;
    uint32_t nsms;
    const char *const *state_names;
    uint32_t nstates;
};

static const char *const mem_kind_names[TL_MEM_KINDS] = {
    [TL_MEM_LD_GLOBAL] = "ld.global", [TL_MEM_ST_GLOBAL] = "st.global", [TL_MEM_ATOM_GLOBAL] = "atom.global",
    [TL_MEM_LD_LOCAL] = "ld.local",   [TL_MEM_ST_LOCAL] = "st.local",
};

/* ------------------------------------------------------------ ordering */

static int cmp_u64(uint64_t x, uint64_t y)
{
    return x < y ? -1 : x > y;
}

/* A total order on an event's content: the file never depends on the order
 * events were recorded in. */
static int event_order(const void *pa, const void *pb)
{
    const TlEvent *x = pa, *y = pb;
    int r;
    if ((r = cmp_u64(x->ts, y->ts)) || (r = cmp_u64(x->kind, y->kind)) || (r = cmp_u64(x->tid, y->tid)) ||
        (r = cmp_u64(x->dur, y->dur)) || (r = cmp_u64(x->sub, y->sub)) || (r = cmp_u64(x->id, y->id)) ||
        (r = cmp_u64(x->a, y->a)) || (r = cmp_u64(x->b, y->b)))
        return r;
    return cmp_u64(x->c, y->c);
}

/* Keeps the quota earliest events; later ones are refused from now on. */
static void trim(TimelineSm *s)
{
    g_array_sort(s->ev, (GCompareFunc)event_order);
    if (s->ev->len > s->quota) {
        g_array_set_size(s->ev, (guint)s->quota);
        s->cut_valid = true;
        s->cut = g_array_index(s->ev, TlEvent, s->ev->len - 1).ts;
    }
}

static void push(TimelineSm *s, const TlEvent *e)
{
    s->recorded++;
    if (s->quota == 0 || (s->cut_valid && e->ts > s->cut))
        return;
    g_array_append_vals(s->ev, e, 1);
    if (s->ev->len >= 2 * s->quota)
        trim(s);
}

/* ------------------------------------------------------------ recording */

static void close_issue(TimelineSm *s, uint32_t slot)
{
    OpenIssue *o = &s->issue[slot];
    if (!o->open)
        return;
    TlEvent e = {.ts = o->start, .dur = o->end - o->start, .id = o->cta, .tid = slot,
                 .a = (uint32_t)MIN(o->n, UINT32_MAX), .b = o->warp, .kind = EV_ISSUE};
    o->open = false;
    push(s, &e);
}

void timeline_issue(TimelineSm *s, uint32_t slot, uint64_t t, uint64_t cta, uint32_t warp)
{
    if (slot >= s->nslots)
        return;
    OpenIssue *o = &s->issue[slot];
    if (o->open && o->cta == cta && o->warp == warp && t + 1 >= o->end && t <= o->end) {
        o->end = t + 1; /* the next cycle, or the same one again (issue width > 1) */
        o->n++;
        return;
    }
    close_issue(s, slot);
    *o = (OpenIssue){.start = t, .end = t + 1, .cta = cta, .n = 1, .warp = warp, .open = true};
}

void timeline_warp_end(TimelineSm *s, uint32_t slot)
{
    if (slot < s->nslots)
        close_issue(s, slot);
}

void timeline_stall(TimelineSm *s, uint32_t slot, uint32_t state, uint64_t from, uint64_t to)
{
    if (to <= from)
        return;
    TlEvent e = {.ts = from, .dur = to - from, .tid = slot, .kind = EV_STALL, .sub = (uint8_t)state};
    push(s, &e);
}

void timeline_cta(TimelineSm *s, uint32_t cta_slot, uint64_t cta, uint32_t x, uint32_t y, uint32_t z,
                  uint64_t from, uint64_t to)
{
    TlEvent e = {.ts = from, .dur = to > from ? to - from : 0, .id = cta, .tid = TID_CTA_BASE + cta_slot,
                 .a = x, .b = y, .c = z, .kind = EV_CTA};
    push(s, &e);
}

void timeline_mem(TimelineSm *s, uint32_t slot, TimelineMemKind kind, uint64_t from, uint64_t to,
                  uint32_t sectors, uint32_t bytes, uint32_t line)
{
    TlEvent e = {.ts = from, .dur = to > from ? to - from : 0, .tid = slot, .a = sectors, .b = bytes,
                 .c = line, .kind = EV_MEM, .sub = (uint8_t)kind};
    push(s, &e);
}

/* ------------------------------------------------------------ writing */

static void write_json_string(FILE *out, const char *s)
{
    json_t *j = json_string(s ? s : "");
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "\"\"", out);
    free(text);
    json_decref(j);
}

static void begin_event(Timeline *tl)
{
    fputs(tl->first_event ? "\n" : ",\n", tl->out);
    tl->first_event = false;
}

/* "M" events naming a process or thread once per file. */
static void name_track(Timeline *tl, uint32_t pid, int64_t tid, const char *name, int64_t sort)
{
    uint64_t key = ((uint64_t)pid << 32 | (uint32_t)(tid < 0 ? 0xffffffffu : (uint32_t)tid)) + 1;
    if (g_hash_table_contains(tl->named, &key))
        return;
    uint64_t *k = g_new(uint64_t, 1);
    *k = key;
    g_hash_table_add(tl->named, k);
    const char *what = tid < 0 ? "process" : "thread";
    begin_event(tl);
    fprintf(tl->out, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%" PRId64 ",\"ts\":0,\"name\":\"%s_name\",\"args\":{\"name\":",
            pid, tid < 0 ? 0 : tid, what);
    write_json_string(tl->out, name);
    fputs("}}", tl->out);
    begin_event(tl);
    fprintf(tl->out,
            "{\"ph\":\"M\",\"pid\":%u,\"tid\":%" PRId64 ",\"ts\":0,\"name\":\"%s_sort_index\",\"args\":{\"sort_index\":%" PRId64 "}}",
            pid, tid < 0 ? 0 : tid, what, sort);
}

static void write_event(Timeline *tl, uint32_t pid, const TlEvent *e)
{
    FILE *out = tl->out;
    char name[64];
    uint32_t tid = e->tid;
    int64_t sort = 0;
    const char *cat = "stall";
    switch (e->kind) {
    case EV_CTA:
        snprintf(name, sizeof name, "CTA slot %u", tid - TID_CTA_BASE);
        sort = tid - TID_CTA_BASE;
        break;
    case EV_MEM:
        snprintf(name, sizeof name, "memory lane %u", tid - TID_MEM_BASE);
        sort = 2 * TID_MEM_BASE + (int64_t)tid;
        break;
    default:
        snprintf(name, sizeof name, "warp slot %u", tid);
        sort = TID_CTA_BASE + (int64_t)tid;
        break;
    }
    name_track(tl, pid, tid, name, sort);
    begin_event(tl);
    fprintf(out, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 ",", pid, tid,
            tl->offset + e->ts, e->dur);
    switch (e->kind) {
    case EV_CTA:
        fprintf(out, "\"name\":\"CTA %" PRIu64 "\",\"cat\":\"cta\",\"args\":{\"cta\":%" PRIu64 ",\"ctaid\":[%u,%u,%u]}}",
                e->id, e->id, e->a, e->b, e->c);
        break;
    case EV_ISSUE: /* instructions issued: the span's cycles unless said otherwise */
        if (e->a == e->dur)
            fputs("\"name\":\"issue\",\"cat\":\"issue\"}", out);
        else
            fprintf(out, "\"name\":\"issue\",\"cat\":\"issue\",\"args\":{\"n\":%u}}", e->a);
        break;
    case EV_STALL: {
        const char *state = e->sub < tl->nstates ? tl->state_names[e->sub] : "stall";
        if (strcmp(state, "barrier") == 0)
            cat = "barrier";
        fprintf(out, "\"name\":\"%s\",\"cat\":\"%s\"}", state, cat);
        break;
    }
    case EV_MEM:
        fprintf(out,
                "\"name\":\"%s\",\"cat\":\"memory\",\"args\":{\"sectors\":%u,\"bytes\":%u,\"line\":%u}}",
                mem_kind_names[e->sub < TL_MEM_KINDS ? e->sub : 0], e->a, e->b, e->c);
        break;
    }
}

/* Memory requests overlap: each goes to the lowest-numbered lane free at
 * its start (events are in time order). */
static void assign_lanes(GArray *ev)
{
    GArray *lane_end = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (guint i = 0; i < ev->len; i++) {
        TlEvent *e = &g_array_index(ev, TlEvent, i);
        if (e->kind != EV_MEM)
            continue;
        guint l = 0;
        while (l < lane_end->len && g_array_index(lane_end, uint64_t, l) > e->ts)
            l++;
        uint64_t end = e->ts + MAX(e->dur, 1u);
        if (l == lane_end->len)
            g_array_append_val(lane_end, end);
        else
            g_array_index(lane_end, uint64_t, l) = end;
        e->tid = TID_MEM_BASE + l;
    }
    g_array_free(lane_end, TRUE);
}

/* ------------------------------------------------------------ lifecycle */

static guint key_hash(gconstpointer p)
{
    uint64_t v = *(const uint64_t *)p;
    return (guint)(v ^ (v >> 32));
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
    return *(const uint64_t *)a == *(const uint64_t *)b;
}

Timeline *timeline_open(const char *path, uint64_t limit, GError **error)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: cannot write the timeline: %s", path,
                    g_strerror(errno));
        return NULL;
    }
    Timeline *tl = g_new0(Timeline, 1);
    tl->path = g_strdup(path);
    tl->out = out;
    tl->limit = limit ? limit : TIMELINE_DEFAULT_LIMIT;
    tl->first_event = true;
    tl->named = g_hash_table_new_full(key_hash, key_equal, g_free, NULL);
    fputs("{\"traceEvents\":[", out);
    name_track(tl, 0, -1, "GPU", -1);
    name_track(tl, 0, 0, "launches", 0);
    return tl;
}

static void free_launch(Timeline *tl)
{
    for (uint32_t i = 0; i < tl->nsms && tl->sms; i++) {
        g_array_free(tl->sms[i].ev, TRUE);
        g_free(tl->sms[i].issue);
    }
    g_free(tl->sms);
    tl->sms = NULL;
    tl->nsms = 0;
    g_free(tl->kernel);
    tl->kernel = NULL;
}

void timeline_launch_begin(Timeline *tl, const char *kernel, uint32_t nsms, uint32_t sms_in_use,
                           uint32_t slots_per_sm, uint32_t ctas_per_sm, const char *const *state_names,
                           uint32_t nstates)
{
    (void)ctas_per_sm;
    free_launch(tl);
    tl->kernel = g_strdup(kernel);
    tl->nsms = nsms;
    tl->state_names = state_names;
    tl->nstates = nstates;
    tl->sms = g_new0(TimelineSm, MAX(nsms, 1u));
    uint64_t left = tl->limit > tl->written ? tl->limit - tl->written : 0;
    left = left > 0 ? left - 1 : 0; /* the launch's own span */
    uint64_t quota = left / MAX(sms_in_use, 1u);
    for (uint32_t i = 0; i < nsms; i++) {
        TimelineSm *s = &tl->sms[i];
        s->ev = g_array_new(FALSE, FALSE, sizeof(TlEvent));
        s->issue = g_new0(OpenIssue, MAX(slots_per_sm, 1u));
        s->nslots = slots_per_sm;
        s->quota = quota;
    }
}

TimelineSm *timeline_sm(Timeline *tl, uint32_t sm)
{
    return sm < tl->nsms ? &tl->sms[sm] : NULL;
}

void timeline_launch_end(Timeline *tl, uint64_t cycles)
{
    for (uint32_t i = 0; i < tl->nsms; i++) {
        TimelineSm *s = &tl->sms[i];
        for (uint32_t k = 0; k < s->nslots; k++)
            close_issue(s, k);
        trim(s);
        assign_lanes(s->ev);
        tl->dropped += s->recorded - s->ev->len;
        if (!s->ev->len)
            continue;
        char name[32];
        snprintf(name, sizeof name, "SM %u", i);
        name_track(tl, i + 1, -1, name, i + 1);
        for (guint k = 0; k < s->ev->len; k++)
            write_event(tl, i + 1, &g_array_index(s->ev, TlEvent, k));
        tl->written += s->ev->len;
    }
    if (tl->written < tl->limit) {
        begin_event(tl);
        fprintf(tl->out, "{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 ",\"name\":",
                tl->offset, cycles);
        write_json_string(tl->out, tl->kernel);
        fprintf(tl->out, ",\"cat\":\"launch\",\"args\":{\"launch\":%u}}", tl->launches);
        tl->written++;
    } else {
        tl->dropped++;
    }
    tl->offset += cycles;
    tl->launches++;
    free_launch(tl);
}

void timeline_abandon(Timeline *tl)
{
    if (!tl)
        return;
    free_launch(tl);
    if (tl->out)
        fclose(tl->out);
    g_hash_table_destroy(tl->named);
    g_free(tl->path);
    g_free(tl);
}

bool timeline_close(Timeline *tl, GError **error)
{
    FILE *out = tl->out;
    fprintf(out,
            "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"producer\":\"warpsim\",\"time_unit\":\"cycle\","
            "\"launches\":%u,\"cycles\":%" PRIu64 ",\"events\":%" PRIu64 ",\"limit\":%" PRIu64
            ",\"truncated\":%s,\"dropped_events\":%" PRIu64 "}}\n",
            tl->launches, tl->offset, tl->written, tl->limit, tl->dropped ? "true" : "false", tl->dropped);
    bool ok = !ferror(out);
    ok = fclose(out) == 0 && ok;
    tl->out = NULL;
    if (!ok)
        g_set_error(error, WARPSIM_ERROR, WS_ERR_IO, "%s: error: cannot write the timeline", tl->path);
    timeline_abandon(tl);
    return ok;
}
