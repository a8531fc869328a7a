/* stream_event_api.c — streams, events and host work in streams.  Work
 * runs synchronously in issue order, so a stream is only a validated handle
 * (with its flags and priority) and every query says "done"; an event
 * records the simulated device clock, and cudaEventElapsedTime returns
 * simulated milliseconds; a host function enqueued in a stream runs at once,
 * which is after everything enqueued before it. */
#include "cudart_internal.h"

bool cudart_stream_ok(CudartDevice *d, cudaStream_t s)
{
    return s == NULL || s == CUDART_STREAM_LEGACY || s == CUDART_STREAM_PER_THREAD ||
           g_hash_table_contains(d->streams, s);
}

/* CUDA clamps a priority outside the device's range to the nearest end. */
CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    CudartDevice *d = cudart_enter();
    if (!pStream || flags > 1)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartStream *s = g_new0(CudartStream, 1);
    s->magic = CUDART_STREAM_MAGIC;
    s->flags = flags;
    s->priority = CLAMP(priority, CUDART_PRIORITY_GREATEST, CUDART_PRIORITY_LEAST);
    g_hash_table_add(d->streams, s);
    *pStream = (cudaStream_t)s;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, CUDART_PRIORITY_LEAST);
}

CUDART_API cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithPriority(pStream, 0, CUDART_PRIORITY_LEAST);
}

/* The stream's record, NULL for the default streams. */
static const CudartStream *stream_record(CudartDevice *d, cudaStream_t stream)
{
    return stream && g_hash_table_contains(d->streams, stream) ? (const CudartStream *)stream : NULL;
}

CUDART_API cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    CudartDevice *d = cudart_enter();
    if (!priority)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, hStream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    const CudartStream *s = stream_record(d, hStream);
    *priority = s ? s->priority : CUDART_PRIORITY_LEAST;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    CudartDevice *d = cudart_enter();
    if (!flags)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, hStream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    const CudartStream *s = stream_record(d, hStream);
    *flags = s ? s->flags : 0;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    CudartDevice *d = cudart_enter();
    if (!device)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, hStream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    *device = 0;
    return cudart_leave(d, cudaSuccess);
}

/* A stream's id: unique while it lives (its handle); the default streams
 * have the small ids of their handles. */
CUDART_API cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    CudartDevice *d = cudart_enter();
    if (!streamId)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, hStream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    *streamId = (unsigned long long)(uintptr_t)hStream;
    return cudart_leave(d, cudaSuccess);
}

typedef void (*HostFn)(void *userData);
typedef void (*StreamCallback)(cudaStream_t stream, cudaError_t status, void *userData);

/* Host work runs without the lock: it may call back into the runtime. */
CUDART_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, HostFn fn, void *userData)
{
    CudartDevice *d = cudart_enter();
    if (!fn)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    cudaError_t err = cudart_unusable(d);
    if (err)
        return cudart_leave(d, err);
    g_mutex_unlock(&d->lock);
    fn(userData);
    return cudaSuccess;
}

/* The callback learns the stream's status: a kernel fault, else success. */
CUDART_API cudaError_t cudaStreamAddCallback(cudaStream_t stream, StreamCallback callback, void *userData,
                                             unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (!callback || flags != 0)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    cudaError_t status = cudart_unusable(d);
    g_mutex_unlock(&d->lock);
    callback(stream, status, userData);
    return cudaSuccess;
}

CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!stream || !g_hash_table_remove(d->streams, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, cudaSuccess);
}

static cudaError_t stream_done(cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, cudart_unusable(d));
}

CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    return stream_done(stream);
}

CUDART_API cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return stream_done(stream);
}

/* Every earlier event has happened already: nothing to wait for. */
CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream) || !g_hash_table_contains(d->events, event) || flags > 1)
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaDeviceSynchronize(void)
{
    CudartDevice *d = cudart_enter();
    return cudart_leave(d, cudart_unusable(d));
}

CUDART_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (!event || (flags & ~0xfu))
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartEvent *e = g_new0(CudartEvent, 1);
    e->magic = CUDART_EVENT_MAGIC;
    e->flags = flags;
    g_hash_table_add(d->events, e);
    *event = (cudaEvent_t)e;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}

CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    CudartDevice *d = cudart_enter();
    if (!event || !g_hash_table_remove(d->events, event))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    CudartEvent *e = (CudartEvent *)event;
    if (!e || !g_hash_table_contains(d->events, e) || !cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    e->recorded = true;
    e->at_ns = d->clock_ns;
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    (void)flags;
    return cudaEventRecord(event, stream);
}

static cudaError_t event_done(cudaEvent_t event)
{
    CudartDevice *d = cudart_enter();
    if (!event || !g_hash_table_contains(d->events, event))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    return cudart_leave(d, cudart_unusable(d));
}

CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return event_done(event);
}

CUDART_API cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return event_done(event);
}

CUDART_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    CudartDevice *d = cudart_enter();
    CudartEvent *a = (CudartEvent *)start, *b = (CudartEvent *)end;
    if (!ms)
        return cudart_leave(d, cudaErrorInvalidValue);
    if (!a || !b || !g_hash_table_contains(d->events, a) || !g_hash_table_contains(d->events, b))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if ((a->flags | b->flags) & 0x2) /* cudaEventDisableTiming */
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded)
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    *ms = (float)((b->at_ns - a->at_ns) / 1e6);
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaEventElapsedTime_v2(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    return cudaEventElapsedTime(ms, start, end);
}
