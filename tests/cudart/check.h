/* check.h — what every tests/cudart program shares: a CUDA call that must
 * succeed, and a condition that must hold; either failing prints where and
 * exits 1, so the runner sees no PASS line. */
#ifndef CUDART_TEST_CHECK_H
#define CUDART_TEST_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                                       \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,     \
                         cudaGetErrorName(err_), cudaGetErrorString(err_));                    \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

#define EXPECT(cond)                                                                           \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);           \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

#endif
