/* test_hostpool.c — host worker threads kept across launches (hostpool.c):
 * every item of a job runs once, on a thread of its own; later jobs reuse
 * the threads; jobs started together run together; a job without a pool
 * makes and ends its own threads; idle workers go to sleep; workers
 * started without a job serve the jobs after (polling for the first one
 * longer), and sleeping ones roused poll again; and a worker a job pinned
 * to one CPU gets its CPUs back once it has gone to sleep.
 */
#include <check.h>
#include <glib.h>
#include <sched.h>
#include <stdlib.h>

#include "hostpool.h"
#include "launch.h"
#include "testutil.h"

typedef struct {
    gint runs;
    GThread *thread;
} Item;

static gpointer note_run(gpointer data)
{
    Item *it = data;
    g_atomic_int_inc(&it->runs);
    it->thread = g_thread_self();
    return NULL;
}

static void run_job(HostPool *pool, Item *items, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        items[k] = (Item){0};
    host_job_wait(host_pool_run(pool, n, note_run, items, sizeof *items));
    for (uint32_t k = 0; k < n; k++) {
        ck_assert_int_eq(g_atomic_int_get(&items[k].runs), 1);
        for (uint32_t j = 0; j < k; j++)
            ck_assert_ptr_ne(items[j].thread, items[k].thread);
        ck_assert_ptr_ne(items[k].thread, g_thread_self());
    }
}

START_TEST(jobs_run_each_item_once_and_reuse_threads)
{
    HostPool *pool = host_pool_new();
    ck_assert_uint_eq(host_pool_threads(pool), 0);
    Item items[4];
    run_job(pool, items, 3);
    ck_assert_uint_eq(host_pool_threads(pool), 3);
    GThread *first = items[0].thread;
    for (int round = 0; round < 20; round++)
        run_job(pool, items, 2);
    ck_assert_uint_eq(host_pool_threads(pool), 3);
    bool reused = false;
    run_job(pool, items, 3);
    for (int k = 0; k < 3; k++)
        reused |= items[k].thread == first;
    ck_assert(reused);
    run_job(pool, items, 4);
    ck_assert_uint_eq(host_pool_threads(pool), 4);
    host_pool_free(pool);
}
END_TEST

/* Job A's items wait for every item of job B, started after it: a pool
 * that ran one job at a time would never finish A (the wait gives up
 * after 10 s and the test fails). */
typedef struct {
    gint *b_done;
    gint b_total;
    gint ok;
} Waiting;

static gpointer wait_for_b(gpointer data)
{
    Waiting *w = data;
    gint64 until = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
    while (g_atomic_int_get(w->b_done) < w->b_total && g_get_monotonic_time() < until)
        g_usleep(100);
    g_atomic_int_set(&w->ok, g_atomic_int_get(w->b_done) == w->b_total);
    return NULL;
}

static gpointer count_b(gpointer data)
{
    g_atomic_int_inc((gint *)data);
    return NULL;
}

START_TEST(jobs_started_together_run_together)
{
    HostPool *pool = host_pool_new();
    gint b_done = 0;
    Waiting a[2] = {{&b_done, 3, 0}, {&b_done, 3, 0}};
    HostJob *ja = host_pool_run(pool, 2, wait_for_b, a, sizeof *a);
    /* items of size 0: B's three all get the counter */
    HostJob *jb = host_pool_run(pool, 3, count_b, &b_done, 0);
    host_job_wait(jb);
    host_job_wait(ja);
    ck_assert_int_eq(b_done, 3);
    ck_assert(a[0].ok && a[1].ok);
    ck_assert_uint_eq(host_pool_threads(pool), 5);
    host_pool_free(pool);
}
END_TEST

START_TEST(a_job_without_a_pool_has_threads_of_its_own)
{
    Item items[3];
    run_job(NULL, items, 3);
    run_job(NULL, items, 1);
}
END_TEST

/* Waits up to 20 s for the pool's sleeping workers to number n.  (It
 * polls gently: a loop that takes the pool's lock without a pause can keep
 * a worker that wakes from ever getting it.) */
static bool sleeping_reaches(HostPool *pool, uint32_t n)
{
    gint64 until = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
    while (host_pool_sleeping(pool) != n && g_get_monotonic_time() < until)
        g_usleep(100);
    return host_pool_sleeping(pool) == n;
}

/* Waits up to 20 s for the pool's workers to have woken `n` times. */
static bool wakes_reach(HostPool *pool, uint64_t n)
{
    gint64 until = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
    while (host_pool_wakes(pool) < n && g_get_monotonic_time() < until)
        g_usleep(100);
    return host_pool_wakes(pool) >= n;
}

START_TEST(started_workers_serve_later_jobs_and_wake_when_roused)
{
    HostPool *pool = host_pool_new();
    host_pool_start(pool, 3);
    ck_assert_uint_eq(host_pool_threads(pool), 3);
    host_pool_start(pool, 2); /* it has them already */
    ck_assert_uint_eq(host_pool_threads(pool), 3);
    ck_assert(sleeping_reaches(pool, 3));
    uint64_t woken = host_pool_wakes(pool);
    host_pool_rouse(pool);
    /* each wakes and polls (for half a millisecond), then sleeps again */
    ck_assert(wakes_reach(pool, woken + 3));
    ck_assert(sleeping_reaches(pool, 3));
    Item items[3];
    run_job(pool, items, 3);
    ck_assert_uint_eq(host_pool_threads(pool), 3);
    host_pool_rouse(NULL);
    host_pool_free(pool);
}
END_TEST

/* A worker that host_pool_start() made, on a host with a CPU to spare for
 * it, polls through what is left of the run's set-up instead of sleeping
 * after half a millisecond (its first job would wait for it to wake). */
START_TEST(a_started_worker_polls_for_its_first_job)
{
    if (launch_host_cores() < 2)
        return;
    HostPool *pool = host_pool_new();
    gint64 started = g_get_monotonic_time();
    host_pool_start(pool, 1);
    g_usleep(5000); /* ten times what a worker polls between jobs */
    uint32_t sleeping = host_pool_sleeping(pool);
    /* a host so busy that the pause lasted most of the 50 ms proves nothing */
    if (g_get_monotonic_time() - started < 40000)
        ck_assert_uint_eq(sleeping, 0);
    ck_assert_uint_eq(host_pool_wakes(pool), 0);
    Item items[1];
    run_job(pool, items, 1);
    /* after a job, it sleeps after the short poll again */
    ck_assert(sleeping_reaches(pool, 1));
    host_pool_free(pool);
}
END_TEST

#ifdef CPU_COUNT
static gpointer pin_to_one(gpointer data)
{
    cpu_set_t *before = data, one;
    ck_assert_int_eq(sched_getaffinity(0, sizeof *before, before), 0);
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
    return NULL;
}

static gpointer read_affinity(gpointer data)
{
    ck_assert_int_eq(sched_getaffinity(0, sizeof(cpu_set_t), data), 0);
    return NULL;
}
#endif

START_TEST(a_pinned_worker_gets_its_cpus_back)
{
#ifdef CPU_COUNT
    if (launch_host_cores() < 2)
        return;
    HostPool *pool = host_pool_new();
    cpu_set_t before, after;
    host_job_wait(host_pool_run(pool, 1, pin_to_one, &before, sizeof before));
    ck_assert_int_ge(CPU_COUNT(&before), 2);
    /* it polls for half a millisecond, then sleeps */
    gint64 until = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
    while (host_pool_sleeping(pool) < 1 && g_get_monotonic_time() < until)
        g_usleep(1000);
    ck_assert_uint_eq(host_pool_sleeping(pool), 1);
    host_job_wait(host_pool_run(pool, 1, read_affinity, &after, sizeof after));
    ck_assert_uint_eq(host_pool_threads(pool), 1);
    ck_assert(CPU_EQUAL(&before, &after));
    host_pool_free(pool);
#endif
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hostpool");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, jobs_run_each_item_once_and_reuse_threads);
    tcase_add_test(t, jobs_started_together_run_together);
    tcase_add_test(t, a_job_without_a_pool_has_threads_of_its_own);
    tcase_add_test(t, started_workers_serve_later_jobs_and_wake_when_roused);
    tcase_add_test(t, a_started_worker_polls_for_its_first_job);
    tcase_add_test(t, a_pinned_worker_gets_its_cpus_back);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
