/* hostpool.c — host worker threads kept across launches (contract in
 * hostpool.h).
 *
 * One lock guards the pool: its idle workers, each worker's assignment and
 * each job's count of workers still running.  A worker sleeps on a
 * condition of its own, so that a job wakes only the workers it takes; a
 * job's waiter sleeps on the pool's `done`, broadcast as jobs end (jobs
 * are few and short-lived, the broadcasts cheap).
 *
 * Waking a sleeping thread took 0.1-0.6 ms on a 2-vCPU guest (measured:
 * its vCPU had halted), more than many launches' work.  So a worker polls
 * for its next job for POOL_SPIN_US before it sleeps, and the waiter of a
 * job polls as long for its end: launches in a row find their workers
 * awake, and an idle pool costs at most that much CPU per job.  A worker
 * that a job pinned to a CPU (timing.c) polls there, away from the CPU its
 * caller was pinned to; set free to poll anywhere, it was found on the
 * caller's CPU and slowed launches in a row 2.5x (measured).  It gets the
 * CPUs it was allowed when it started back before it sleeps, so that what
 * a job did to it is gone by the time a job that does not pin finds it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity */
#endif
#include "hostpool.h"

#include <sched.h>

#include "launch.h"

#define POOL_SPIN_US 500
/* How long a worker that host_pool_start() made polls for its first job:
 * through the run's set-up (buffers, checks' copies), which takes a few
 * milliseconds for most manifests, so that the first launch finds it awake.
 * Woken from sleep instead, it started its share of a 2 ms launch 0.8-2 ms
 * late in about a third of the runs (transcendentals on 2 threads,
 * measured), after its vCPU had halted. */
#define POOL_START_SPIN_US 50000

typedef struct {
    HostPool *pool;
    GThread *thread;
    GCond wake;
    GThreadFunc fn;         /* the assignment (under pool->lock), NULL while idle */
    void *data;
    HostJob *job;
    gint called;            /* set with an assignment (or, fn NULL, to quit), cleared
                               as the worker takes it: polled without the lock */
    bool roused;            /* (under pool->lock) poll again: a job is coming */
    bool asleep;            /* (under pool->lock) waiting on `wake` */
    uint32_t first_poll_us; /* how long it polls before its first sleep */
} PoolWorker;

struct HostPool {
    GMutex lock;
    GCond done;             /* some job's last worker returned */
    GPtrArray *workers;     /* PoolWorker *, owned: every thread made */
    GPtrArray *idle;        /* PoolWorker *, borrowed: those without a job */
    uint32_t sleeping;      /* workers done polling, waiting on their condition */
    uint32_t waiters;       /* job waiters done polling, waiting on `done` */
    uint64_t wakes;         /* times a sleeping worker woke */
};

struct HostJob {
    HostPool *pool;
    gint running;           /* workers still on it: changed under pool->lock, polled */
    bool own_pool;          /* made for this job: freed by host_job_wait */
};

/* Polls, for `us` microseconds at most, until *word is zero (want_zero) or
 * not. */
static void poll_briefly(gint *word, bool want_zero, uint32_t us)
{
    gint64 until = g_get_monotonic_time() + us;
    for (uint32_t polls = 0;; polls++) {
        if ((g_atomic_int_get(word) == 0) == want_zero)
            return;
        if (polls % 64 == 63 && g_get_monotonic_time() >= until)
            return;
        host_cpu_relax();
    }
}

/* The pool's lock, polled for a while when another thread holds it: the
 * holders keep it for a few instructions, and GLib's mutex sleeps at once
 * when it finds the lock taken, leaving it to the holder to wake the thread
 * (a system call, and on a VM a halted vCPU to start) at the unlock. */
static void pool_lock(HostPool *pool)
{
    for (uint32_t polls = 0; polls < 4096; polls++) {
        if (g_mutex_trylock(&pool->lock))
            return;
        host_cpu_relax();
    }
    g_mutex_lock(&pool->lock);
}

static gpointer worker_main(gpointer p)
{
    PoolWorker *w = p;
    HostPool *pool = w->pool;
#ifdef CPU_COUNT
    cpu_set_t allowed;
    bool restore = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
#endif
    g_mutex_lock(&pool->lock);
    uint32_t poll_us = MAX(w->first_poll_us, POOL_SPIN_US);
    for (;;) {
        if (!g_atomic_int_get(&w->called)) {
            g_mutex_unlock(&pool->lock);
            poll_briefly(&w->called, false, poll_us);
            poll_us = POOL_SPIN_US;
#ifdef CPU_COUNT
            if (restore && !g_atomic_int_get(&w->called))
                (void)sched_setaffinity(0, sizeof allowed, &allowed);
#endif
            pool_lock(pool);
        }
        if (!g_atomic_int_get(&w->called)) {
            pool->sleeping++;
            w->asleep = true;
            while (!g_atomic_int_get(&w->called) && !w->roused)
                g_cond_wait(&w->wake, &pool->lock);
            w->asleep = false;
            pool->sleeping--;
            pool->wakes++;
            if (!g_atomic_int_get(&w->called)) { /* roused: poll for the job */
                w->roused = false;
                continue;
            }
        }
        g_atomic_int_set(&w->called, 0);
        if (!w->fn) /* quit with no job left */
            break;
        GThreadFunc fn = w->fn;
        void *data = w->data;
        HostJob *job = w->job;
        g_mutex_unlock(&pool->lock);
        (void)fn(data);
        pool_lock(pool);
        w->fn = NULL;
        w->job = NULL;
        g_ptr_array_add(pool->idle, w);
        /* the job's last touch: its waiter may free it once it reads 0 */
        if (g_atomic_int_dec_and_test(&job->running) && pool->waiters)
            g_cond_broadcast(&pool->done);
    }
    g_mutex_unlock(&pool->lock);
    return NULL;
}

HostPool *host_pool_new(void)
{
    HostPool *pool = g_new0(HostPool, 1);
    g_mutex_init(&pool->lock);
    g_cond_init(&pool->done);
    pool->workers = g_ptr_array_new();
    pool->idle = g_ptr_array_new();
    return pool;
}

void host_pool_free(HostPool *pool)
{
    if (!pool)
        return;
    g_mutex_lock(&pool->lock);
    for (guint i = 0; i < pool->workers->len; i++) {
        PoolWorker *w = g_ptr_array_index(pool->workers, i);
        g_atomic_int_set(&w->called, 1); /* with no fn: quit */
        g_cond_signal(&w->wake);
    }
    g_mutex_unlock(&pool->lock);
    for (guint i = 0; i < pool->workers->len; i++) {
        PoolWorker *w = g_ptr_array_index(pool->workers, i);
        g_thread_join(w->thread);
        g_cond_clear(&w->wake);
        g_free(w);
    }
    g_ptr_array_free(pool->workers, TRUE);
    g_ptr_array_free(pool->idle, TRUE);
    g_cond_clear(&pool->done);
    g_mutex_clear(&pool->lock);
    g_free(pool);
}

/* A worker made without a job: it polls, then sleeps, as after a job. */
static PoolWorker *worker_new(HostPool *pool)
{
    PoolWorker *w = g_new0(PoolWorker, 1);
    w->pool = pool;
    g_cond_init(&w->wake);
    return w;
}

void host_pool_start(HostPool *pool, uint32_t n)
{
    g_mutex_lock(&pool->lock);
    uint32_t have = pool->workers->len;
    g_mutex_unlock(&pool->lock);
    /* polling threads that share a CPU with the caller would slow its
     * set-up down instead */
    bool poll_long = n < launch_host_cores();
    for (uint32_t k = have; k < n; k++) {
        PoolWorker *w = worker_new(pool);
        w->first_poll_us = poll_long ? POOL_START_SPIN_US : 0;
        g_mutex_lock(&pool->lock);
        g_ptr_array_add(pool->workers, w);
        g_ptr_array_add(pool->idle, w);
        g_mutex_unlock(&pool->lock);
        /* it takes the lock before it looks at its state */
        w->thread = launch_host_thread_new("warpsim-host", worker_main, w);
    }
}

void host_pool_rouse(HostPool *pool)
{
    if (!pool)
        return;
    pool_lock(pool);
    for (guint i = 0; pool->sleeping && i < pool->idle->len; i++) {
        PoolWorker *w = g_ptr_array_index(pool->idle, i);
        w->roused = true;
        if (w->asleep)
            g_cond_signal(&w->wake);
    }
    g_mutex_unlock(&pool->lock);
}

uint32_t host_pool_threads(HostPool *pool)
{
    g_mutex_lock(&pool->lock); /* a job elsewhere may be adding threads */
    uint32_t n = pool->workers->len;
    g_mutex_unlock(&pool->lock);
    return n;
}

uint32_t host_pool_sleeping(HostPool *pool)
{
    g_mutex_lock(&pool->lock);
    uint32_t n = pool->sleeping;
    g_mutex_unlock(&pool->lock);
    return n;
}

uint64_t host_pool_wakes(HostPool *pool)
{
    g_mutex_lock(&pool->lock);
    uint64_t n = pool->wakes;
    g_mutex_unlock(&pool->lock);
    return n;
}

HostJob *host_pool_run(HostPool *pool, uint32_t n, GThreadFunc fn, void *data, size_t size)
{
    HostJob *job = g_new0(HostJob, 1);
    if (!pool) {
        pool = host_pool_new();
        job->own_pool = true;
    }
    job->pool = pool;
    job->running = (gint)n;
    /* the idle workers take their items at once, under one lock, so that
     * none comes back for a second: the items run side by side */
    uint32_t k = 0;
    pool_lock(pool);
    for (; k < n && pool->idle->len; k++) {
        PoolWorker *w = g_ptr_array_steal_index_fast(pool->idle, pool->idle->len - 1);
        w->fn = fn;
        w->data = (uint8_t *)data + k * size;
        w->job = job;
        w->roused = false;
        g_atomic_int_set(&w->called, 1);
        if (w->asleep) /* a polling worker sees `called` */
            g_cond_signal(&w->wake);
    }
    /* new threads, given their items before they start: they never wait */
    PoolWorker **fresh = g_new(PoolWorker *, n - k);
    for (uint32_t j = k; j < n; j++) {
        PoolWorker *w = worker_new(pool);
        w->fn = fn;
        w->data = (uint8_t *)data + j * size;
        w->job = job;
        w->called = 1;
        g_ptr_array_add(pool->workers, w);
        fresh[j - k] = w;
    }
    g_mutex_unlock(&pool->lock);
    for (uint32_t j = k; j < n; j++)
        fresh[j - k]->thread = launch_host_thread_new("warpsim-host", worker_main, fresh[j - k]);
    g_free(fresh);
    return job;
}

void host_job_wait(HostJob *job)
{
    HostPool *pool = job->pool;
    poll_briefly(&job->running, true, POOL_SPIN_US);
    if (g_atomic_int_get(&job->running)) {
        pool_lock(pool);
        pool->waiters++;
        while (g_atomic_int_get(&job->running))
            g_cond_wait(&pool->done, &pool->lock);
        pool->waiters--;
        g_mutex_unlock(&pool->lock);
    }
    if (job->own_pool)
        host_pool_free(pool);
    g_free(job);
}
