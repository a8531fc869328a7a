/* faultlog.h — kernel faults recorded instead of stopping the launch
 * (`--keep-going`).
 *
 * Contract: the executor offers each recoverable fault (memcheck: an
 * out-of-bounds or misaligned access; racecheck and initcheck reports) with
 * a key that places it in launch order: block (linear id), warp, the warp's
 * instruction count, lane.  The log keeps the FAULT_LOG_SHOWN reports with
 * the smallest keys and counts all of them, so what it shows is the same
 * for any number of host threads and any interleaving of CTAs.  It is safe
 * to use from several threads.  Whoever creates the log owns it.
 */
#ifndef WARPSIM_FAULTLOG_H
#define WARPSIM_FAULTLOG_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define FAULT_LOG_SHOWN 100

typedef struct {
    uint64_t cta;      /* linear block id */
    uint64_t step;     /* instructions the warp had executed */
    uint32_t warp;
    uint32_t lane;
} FaultKey;

typedef struct FaultLog FaultLog;

FaultLog *fault_log_new(void);
void fault_log_free(FaultLog *log);

/* Counts the fault; returns true when its report would be shown, so the
 * caller formats the text only then and passes it to fault_log_add. */
bool fault_log_count(FaultLog *log, const FaultKey *key);
/* Keeps `message` (taken over) if its key is still among the shown ones. */
void fault_log_add(FaultLog *log, const FaultKey *key, char *message);

/* Faults counted so far. */
uint64_t fault_log_total(FaultLog *log);

/* Sets a WS_ERR_FAULT error holding the shown reports in launch order and
 * a summary line (`what` names the launch), and empties the log.  Returns
 * false when nothing was recorded (no error set). */
bool fault_log_take(FaultLog *log, const char *what, GError **error);

#endif
