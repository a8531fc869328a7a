/* popcount.h — counting the set bits of a sector or lane mask.
 *
 * Contract: popcount32(x) is the number of 1 bits in x.  The project builds
 * without -mpopcnt (one binary for every x86-64), where __builtin_popcount
 * is a library call; masks of the four sectors of one 128 B line, the
 * commonest case in the memory model, come from a table of nibbles.
 */
#ifndef WARPSIM_POPCOUNT_H
#define WARPSIM_POPCOUNT_H

#include <stdint.h>

static inline uint32_t popcount32(uint32_t x)
{
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcount(x);
#else
    if (x < 16)
        return (uint32_t)(0x4332322132212110ull >> (4 * x)) & 0xF;
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
#endif
}

#endif
