/* builtins.h — the device library functions the driver would supply
 * (vprintf, __assertfail), called when PTX calls an extern .func. */
#ifndef WARPSIM_BUILTINS_H
#define WARPSIM_BUILTINS_H

#include "exec_internal.h"

/* If callee is a known builtin, run it for the executing lanes and set
 * *handled; returns false with a fault error when it fails or asserts. */
bool builtin_call(ExecCtx *x, const Function *callee, const CallSite *cs, bool *handled);

#endif
