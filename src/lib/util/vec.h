/* Growable arrays by macro: `VEC(int) v = {0}; VEC_PUSH(v, 3); free(v.data);`
 * Elements live in v.data[0 .. v.len-1]; v.cap is the allocated count. */
#ifndef CGT_UTIL_VEC_H
#define CGT_UTIL_VEC_H
#include <stddef.h>
#include <stdint.h>

#include "lib/util/xalloc.h"

#define VEC(T)                                                                                    \
    struct {                                                                                      \
        T *data;                                                                                  \
        size_t len, cap;                                                                          \
    }

#define VEC_RESERVE(v, n)                                                                         \
    do {                                                                                          \
        if ((n) > (v).cap) {                                                                      \
            size_t nc_ = (v).cap ? (v).cap : 8;                                                   \
            while (nc_ < (n))                                                                     \
                nc_ *= 2;                                                                         \
            (v).data = xrealloc((v).data, nc_ * sizeof *(v).data);                                \
            (v).cap = nc_;                                                                        \
        }                                                                                         \
    } while (0)

#define VEC_PUSH(v, x)                                                                            \
    do {                                                                                          \
        VEC_RESERVE(v, (v).len + 1);                                                              \
        (v).data[(v).len++] = (x);                                                                \
    } while (0)

#define VEC_FREE(v)                                                                               \
    do {                                                                                          \
        free((v).data);                                                                           \
        (v).data = NULL;                                                                          \
        (v).len = (v).cap = 0;                                                                    \
    } while (0)

typedef VEC(uint32_t) VEC_U32;

#endif
