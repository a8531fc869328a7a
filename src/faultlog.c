/* faultlog.c — the bounded, ordered record of faults behind --keep-going. */
#include "faultlog.h"

#include "errors.h"

typedef struct {
    FaultKey key;
    char *message;
} Entry;

struct FaultLog {
    GMutex lock;
    uint64_t total;
    Entry shown[FAULT_LOG_SHOWN];
    uint32_t nshown;
};

static int key_cmp(const FaultKey *a, const FaultKey *b)
{
    if (a->cta != b->cta)
        return a->cta < b->cta ? -1 : 1;
    if (a->warp != b->warp)
        return a->warp < b->warp ? -1 : 1;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    if (a->lane != b->lane)
        return a->lane < b->lane ? -1 : 1;
    return 0;
}

FaultLog *fault_log_new(void)
{
    FaultLog *log = g_new0(FaultLog, 1);
    g_mutex_init(&log->lock);
    return log;
}

static void clear_shown(FaultLog *log)
{
    for (uint32_t i = 0; i < log->nshown; i++)
        g_free(log->shown[i].message);
    log->nshown = 0;
}

void fault_log_free(FaultLog *log)
{
    if (!log)
        return;
    clear_shown(log);
    g_mutex_clear(&log->lock);
    g_free(log);
}

/* Index of the largest key shown (the one a smaller key displaces). */
static uint32_t largest(const FaultLog *log)
{
    uint32_t at = 0;
    for (uint32_t i = 1; i < log->nshown; i++)
        if (key_cmp(&log->shown[i].key, &log->shown[at].key) > 0)
            at = i;
    return at;
}

static bool would_show(const FaultLog *log, const FaultKey *key)
{
    return log->nshown < FAULT_LOG_SHOWN || key_cmp(key, &log->shown[largest(log)].key) < 0;
}

bool fault_log_count(FaultLog *log, const FaultKey *key)
{
    g_mutex_lock(&log->lock);
    log->total++;
    bool show = would_show(log, key);
    g_mutex_unlock(&log->lock);
    return show;
}

void fault_log_add(FaultLog *log, const FaultKey *key, char *message)
{
    g_mutex_lock(&log->lock);
    if (log->nshown < FAULT_LOG_SHOWN) {
        log->shown[log->nshown++] = (Entry){*key, message};
        message = NULL;
    } else {
        uint32_t at = largest(log);
        if (key_cmp(key, &log->shown[at].key) < 0) {
            g_free(log->shown[at].message);
            log->shown[at] = (Entry){*key, message};
            message = NULL;
        }
    }
    g_mutex_unlock(&log->lock);
    g_free(message);
}

uint64_t fault_log_total(FaultLog *log)
{
    g_mutex_lock(&log->lock);
    uint64_t n = log->total;
    g_mutex_unlock(&log->lock);
    return n;
}

static int entry_cmp(const void *a, const void *b)
{
    return key_cmp(&((const Entry *)a)->key, &((const Entry *)b)->key);
}

bool fault_log_take(FaultLog *log, const char *what, GError **error)
{
    g_mutex_lock(&log->lock);
    uint64_t total = log->total;
    if (total == 0) {
        g_mutex_unlock(&log->lock);
        return false;
    }
    qsort(log->shown, log->nshown, sizeof log->shown[0], entry_cmp);
    GString *s = g_string_new(NULL);
    for (uint32_t i = 0; i < log->nshown; i++)
        g_string_append_printf(s, "%s\n", log->shown[i].message);
    g_string_append_printf(s, "%s: %" G_GUINT64_FORMAT " error%s", what, total, total == 1 ? "" : "s");
    if (total > log->nshown)
        g_string_append_printf(s, " (the first %u in launch order shown)", log->nshown);
    clear_shown(log);
    log->total = 0;
    g_mutex_unlock(&log->lock);
    g_set_error_literal(error, WARPSIM_ERROR, WS_ERR_FAULT, s->str);
    g_string_free(s, TRUE);
    return true;
}
