/* stream_event_api.c — streams, events and host work in streams.  Work
 * runs synchronously in issue order, so a stream is only a validated handle
 * (with its flags and priority) and every query says "done"; an event
 * records the simulated device clock, and cudaEventElapsedTime returns
 * simulated milliseconds; a host function enqueued in a stream runs at once,
 * which is after everything enqueued before it.  In a capturing stream
 * (graph_api.c) host functions become nodes, events mark the capture's
 * position and waiting on such an event joins the capture; stream
 * attributes are kept. */
#include <string.h>

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
    s->sync_policy = 1; /* cudaSyncPolicyAuto */
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
    bool record = false;
    if ((err = cudart_capture_begin_op(d, stream, &record)))
        return cudart_leave(d, err);
    CudartOp op = {.kind = CUDART_OP_HOST};
    op.u.host.fn = fn;
    op.u.host.data = userData;
    if (record)
        return cudart_leave(d, cudart_capture_add(d, stream, &op));
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
    /* a legacy callback cannot be captured (cudaLaunchHostFunc can) */
    cudaError_t err = cudart_capture_sync_check(d, stream, false);
    if (err)
        return cudart_leave(d, err);
    cudaError_t status = cudart_unusable(d);
    g_mutex_unlock(&d->lock);
    callback(stream, status, userData);
    return cudaSuccess;
}

/* A stream destroyed while capturing leaves the capture (invalidated when
 * it began it, as its end can no longer be called). */
CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!stream || !g_hash_table_contains(d->streams, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    cudart_stream_forget_capture(d, (CudartStream *)stream);
    g_hash_table_remove(d->streams, stream);
    return cudart_leave(d, cudaSuccess);
}

/* Synchronising with a capturing stream is refused (and ends the capture's
 * validity), as in CUDA. */
static cudaError_t stream_done(cudaStream_t stream)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    cudaError_t err = cudart_capture_sync_check(d, stream, false);
    return cudart_leave(d, err ? err : cudart_unusable(d));
}

CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    return stream_done(stream);
}

CUDART_API cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return stream_done(stream);
}

/* Every earlier event has happened already: nothing to wait for, unless
 * the event was recorded in a capture, which the stream then joins. */
CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (!cudart_stream_ok(d, stream) || !g_hash_table_contains(d->events, event))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if (flags > 1) /* cudaEventWaitDefault, cudaEventWaitExternal */
        return cudart_leave(d, cudaErrorInvalidValue);
    cudaError_t err = cudart_capture_event_wait(d, stream, (CudartEvent *)event);
    if (err)
        return cudart_leave(d, err);
    bool record = false;
    if ((err = cudart_capture_begin_op(d, stream, &record)))
        return cudart_leave(d, err);
    if (record && flags == 1) { /* an external wait is a node of its own */
        CudartOp op = {.kind = CUDART_OP_EVENT_WAIT};
        op.u.event = event;
        err = cudart_capture_add(d, stream, &op);
    }
    return cudart_leave(d, err);
}

CUDART_API cudaError_t cudaDeviceSynchronize(void)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err = cudart_capture_sync_check(d, NULL, true);
    return cudart_leave(d, err ? err : cudart_unusable(d));
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
    bool record = false;
    cudaError_t err = cudart_capture_begin_op(d, stream, &record);
    if (err)
        return cudart_leave(d, err);
    if (record) {
        cudart_capture_event_record(d, stream, e);
        return cudart_leave(d, cudaSuccess);
    }
    e->capture = NULL;
    e->recorded = true;
    e->at_ns = d->clock_ns;
    return cudart_leave(d, cudaSuccess);
}

/* cudaEventRecordExternal (1) in a capture: a record node of its own. */
CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    CudartDevice *d = cudart_enter();
    if (flags > 1)
        return cudart_leave(d, cudaErrorInvalidValue);
    bool record = false;
    cudaError_t err = cudart_stream_ok(d, stream) && g_hash_table_contains(d->events, event)
                          ? cudart_capture_begin_op(d, stream, &record) : cudaSuccess;
    if (err)
        return cudart_leave(d, err);
    if (record && flags == 1) {
        CudartOp op = {.kind = CUDART_OP_EVENT_RECORD};
        op.u.event = event;
        return cudart_leave(d, cudart_capture_add(d, stream, &op));
    }
    g_mutex_unlock(&d->lock);
    return cudaEventRecord(event, stream);
}

/* An event last recorded in a capture is not work that can be waited
 * for (cudaErrorCapturedEvent). */
static cudaError_t event_done(cudaEvent_t event)
{
    CudartDevice *d = cudart_enter();
    if (!event || !g_hash_table_contains(d->events, event))
        return cudart_leave(d, cudaErrorInvalidResourceHandle);
    if (((CudartEvent *)event)->capture)
        return cudart_leave(d, cudaErrorCapturedEvent);
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

/* Stream attributes (cudaLaunchAttributeValue, a 64-byte union): the
 * priority is the stream's own; the synchronization policy and the L2
 * access-policy window are kept as given and change nothing, as the
 * simulator neither blocks nor persists lines.  Other ids are not stream
 * attributes. */
enum { ATTR_ACCESS_POLICY_WINDOW = 1, ATTR_SYNC_POLICY = 3, ATTR_PRIORITY = 8 };

static CudartStream *attribute_stream(CudartDevice *d, cudaStream_t stream, cudaError_t *err)
{
    *err = cudart_stream_ok(d, stream) ? cudaSuccess : cudaErrorInvalidResourceHandle;
    if (*err || !stream || !g_hash_table_contains(d->streams, stream)) {
        if (!*err)
            *err = cudaErrorInvalidResourceHandle; /* the default streams have no settable attributes */
        return NULL;
    }
    return (CudartStream *)stream;
}

CUDART_API cudaError_t cudaStreamGetAttribute(cudaStream_t stream, int attr, void *value)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err;
    if (!value)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartStream defaults = {.priority = CUDART_PRIORITY_LEAST, .sync_policy = 1};
    CudartStream *s = attribute_stream(d, stream, &err);
    if (!s && cudart_stream_ok(d, stream))
        s = &defaults; /* a default stream: its attributes as created */
    if (!s)
        return cudart_leave(d, err);
    memset(value, 0, CUDART_STREAM_ATTR_BYTES);
    switch (attr) {
    case ATTR_PRIORITY: *(int *)value = s->priority; break;
    case ATTR_ACCESS_POLICY_WINDOW: memcpy(value, s->access_policy, CUDART_STREAM_ATTR_BYTES); break;
    case ATTR_SYNC_POLICY: *(int *)value = s->sync_policy; break;
    default: return cudart_leave(d, cudaErrorInvalidValue);
    }
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaStreamSetAttribute(cudaStream_t stream, int attr, const void *value)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err;
    if (!value)
        return cudart_leave(d, cudaErrorInvalidValue);
    CudartStream *s = attribute_stream(d, stream, &err);
    if (!s)
        return cudart_leave(d, err);
    switch (attr) {
    case ATTR_PRIORITY:
        s->priority = CLAMP(*(const int *)value, CUDART_PRIORITY_GREATEST, CUDART_PRIORITY_LEAST);
        break;
    case ATTR_ACCESS_POLICY_WINDOW: memcpy(s->access_policy, value, CUDART_STREAM_ATTR_BYTES); break;
    case ATTR_SYNC_POLICY:
        if (*(const int *)value < 1 || *(const int *)value > 4) /* cudaSyncPolicyAuto .. BlockingSync */
            return cudart_leave(d, cudaErrorInvalidValue);
        s->sync_policy = *(const int *)value;
        break;
    default: return cudart_leave(d, cudaErrorInvalidValue);
    }
    return cudart_leave(d, cudaSuccess);
}

CUDART_API cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    CudartDevice *d = cudart_enter();
    cudaError_t err;
    CudartStream *to = attribute_stream(d, dst, &err), *from = to ? attribute_stream(d, src, &err) : NULL;
    if (!to || !from)
        return cudart_leave(d, err);
    to->priority = from->priority;
    to->sync_policy = from->sync_policy;
    memcpy(to->access_policy, from->access_policy, CUDART_STREAM_ATTR_BYTES);
    return cudart_leave(d, cudaSuccess);
}
