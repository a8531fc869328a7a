/* sfu_ref.h — the reference values the SFU tables (isa/sfu/) are stored
 * against: each table entry is the GPU's result minus its reference, in
 * units of the last place (bit patterns subtracted), so the tables hold
 * small numbers that compress well.
 *
 * Contract: the same function on every machine, bit for bit, so that
 * tools/sfu-tables (which writes the tables on the GPU's host) and sfu.c
 * (which reads them) agree.  Hence only IEEE-754 basic operations in
 * double (each correctly rounded), each in its own statement (no fused
 * multiply-add can be contracted across statements in ISO C mode), and no
 * libm function but sqrt, which IEEE-754 also defines exactly.  A
 * reference need only be close to the GPU's result (within two units),
 * not correct.  Header-only: the CUDA tool compiles it as host C++.
 */
#ifndef WARPSIM_SFU_REF_H
#define WARPSIM_SFU_REF_H

#include <math.h>
#include <stdint.h>

/* Entries per table: one per 23-bit mantissa (rcp, rsqrt) or 23-bit
 * fraction of the fixed-point input (ex2). */
#define SFU_TABLE_ENTRIES (1u << 23)

static inline float sfu_ref_rcp(double m) /* m in [1, 2) */
{
    return (float)(1.0 / m);
}

static inline float sfu_ref_sqrt(double m) /* m in [1, 4) */
{
    return (float)sqrt(m);
}

static inline float sfu_ref_rsqrt(double m) /* m in [1, 4) */
{
    double s = sqrt(m);
    return (float)(1.0 / s);
}

/* e^u by its Taylor series to the `terms`-th power. */
static inline double sfu_ref_exp_series(double u, int terms)
{
    double sum = 1.0, term = 1.0;
    for (int k = 1; k <= terms; k++) {
        double next = term * u;
        term = next / (double)k;
        sum = sum + term;
    }
    return sum;
}

/* 2^(k/1024) and 2^(-k/1024) for k = 0..1023, from the series to the
 * 20th power (|u| < 0.7: the remainder is below 2^-60). */
#define SFU_EX2_STEPS 1024

typedef struct {
    double pos[SFU_EX2_STEPS], neg[SFU_EX2_STEPS];
} SfuEx2Steps;

#define SFU_LN2 0.69314718055994530942

static inline void sfu_ref_ex2_steps(SfuEx2Steps *s)
{
    /* 2^(+-k/1024) = 2^(+-(k/32)/32) 2^(+-(k%32)/1024): 128 series, not 2048 */
    double coarse[2][32], fine[2][32];
    for (int k = 0; k < 32; k++) {
        double tc = (double)k / 32.0, tf = (double)k / SFU_EX2_STEPS;
        coarse[0][k] = sfu_ref_exp_series(tc * SFU_LN2, 20);
        coarse[1][k] = sfu_ref_exp_series(-tc * SFU_LN2, 20);
        fine[0][k] = sfu_ref_exp_series(tf * SFU_LN2, 20);
        fine[1][k] = sfu_ref_exp_series(-tf * SFU_LN2, 20);
    }
    for (int k = 0; k < SFU_EX2_STEPS; k++) {
        s->pos[k] = coarse[0][k / 32] * fine[0][k % 32];
        s->neg[k] = coarse[1][k / 32] * fine[1][k % 32];
    }
}

/* 2^(+-i / 2^23) for i < 2^23: 2^(+-k/1024) (k, the top 10 bits of i)
 * times e^u, u = +-r ln 2 (r, the rest: below 2^-10, so |u| < 2^-10 and
 * the series to the 4th power, in Horner's form, leaves less than
 * 2^-59). */
static inline float sfu_ref_ex2(const SfuEx2Steps *s, uint32_t i, int negative)
{
    double r = (double)(i & 0x1fffu) / 8388608.0;
    double u = r * SFU_LN2;
    if (negative)
        u = -u;
    double p = u / 24.0;
    p = p + 1.0 / 6.0;
    p = p * u;
    p = p + 0.5;
    p = p * u;
    p = p + 1.0;
    p = p * u;
    p = p + 1.0;
    double step = negative ? s->neg[i >> 13] : s->pos[i >> 13];
    return (float)(step * p);
}

#endif
