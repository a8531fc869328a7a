/* hostpool.h — host worker threads kept from one launch to the next.
 *
 * Contract: host_pool_run(pool, n, fn, data, size) hands fn(data + k * size),
 * k < n, to n idle workers of the pool (making the threads it lacks, with
 * launch_host_thread_new) and returns at once; host_job_wait() returns when
 * every one of them has returned, and frees the job.  Between jobs the
 * workers poll for half a millisecond, then sleep (they use no CPU).
 * Several jobs may run at once (sampling runs the functional rest of a
 * grid beside its timed waves); one job is waited for by one thread.  A
 * job may pin its worker to a CPU (timing.c does): the worker keeps it
 * while it polls, and gets its first CPUs back before it sleeps.
 *
 * A pool saves a launch the start and end of its threads (about 0.1 ms each
 * on a 2-vCPU guest, measured): a manifest run or a CUDA program keeps one
 * for all its launches.  With a NULL pool, host_pool_run makes a pool for
 * that job alone, which host_job_wait frees: what launches did before.
 *
 * host_pool_start(pool, n) makes the pool's workers up to n before any
 * job: a run starts its threads when it starts, and its first launch finds
 * them made, and awake: where the host has a CPU beside the caller for
 * each, they poll for their first job for up to 50 ms (the run's set-up)
 * before they first sleep.  host_pool_rouse() sets the sleeping idle
 * workers polling again and returns at once: a launch calls it as its
 * set-up begins, so that its job finds them awake (waking one takes
 * 0.1-0.6 ms, hostpool.c).
 *
 * host_pool_free() ends the workers; no job may be running.
 */
#ifndef WARPSIM_HOSTPOOL_H
#define WARPSIM_HOSTPOOL_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

typedef struct HostPool HostPool;
typedef struct HostJob HostJob;

HostPool *host_pool_new(void);
void host_pool_free(HostPool *pool);

void host_pool_start(HostPool *pool, uint32_t n);
/* pool may be NULL: nothing to rouse */
void host_pool_rouse(HostPool *pool);

/* The threads the pool holds now, busy or idle; of them, those asleep
 * (done polling: their CPUs given back). */
uint32_t host_pool_threads(HostPool *pool);
uint32_t host_pool_sleeping(HostPool *pool);
/* Times so far that a sleeping worker woke (roused, given a job or told
 * to quit). */
uint64_t host_pool_wakes(HostPool *pool);

/* n >= 1; fn's return value is ignored. */
HostJob *host_pool_run(HostPool *pool, uint32_t n, GThreadFunc fn, void *data, size_t size);
void host_job_wait(HostJob *job);

/* One pause of a spinning waiter: tells the CPU (and a hypervisor) that
 * this thread only polls. */
static inline void host_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
