/* per_thread_stream.c — the per-thread-default-stream entry points
 * (per_thread_stream.def): each is a jump to the function of the same
 * meaning, so the program's arguments, in registers and on the stack,
 * arrive untouched whatever their number.  warpsim runs work in issue order
 * on one device, so the per-thread default stream and the legacy one order
 * work alike (docs/cudart.md).  x86-64 only, as the rest of the ABI. */

#define PER_THREAD(name, target)                                                                     \
    __asm__(".text\n"                                                                                \
            ".globl " #name "\n"                                                                     \
            ".type " #name ", @function\n" #name ":\n"                                               \
            "    jmp " #target "@PLT\n"                                                              \
            ".size " #name ", . - " #name "\n");
#include "per_thread_stream.def"
#undef PER_THREAD
