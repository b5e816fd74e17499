/* Minimal unit-test harness: CHECK(cond), CHECK_EQ_INT(a,b), CHECK_EQ_STR(a,b);
 * UNIT_MAIN() ends with the line "N passed, N failed" and exit status 1 on
 * failure.  Each test binary is one file tests/unit/test_*.c. */
#ifndef CGT_TESTS_UNIT_H
#define CGT_TESTS_UNIT_H
#include <stdio.h>
#include <string.h>

static int unit_passed, unit_failed;

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (c)                                                                                    \
            unit_passed++;                                                                        \
        else {                                                                                    \
            unit_failed++;                                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);                 \
        }                                                                                         \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                        \
    do {                                                                                          \
        long long a_ = (long long)(a), b_ = (long long)(b);                                       \
        if (a_ == b_)                                                                             \
            unit_passed++;                                                                        \
        else {                                                                                    \
            unit_failed++;                                                                        \
            fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a,   \
                    a_, #b, b_);                                                                  \
        }                                                                                         \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                        \
    do {                                                                                          \
        const char *a_ = (a), *b_ = (b);                                                          \
        if (a_ && b_ && strcmp(a_, b_) == 0)                                                      \
            unit_passed++;                                                                        \
        else {                                                                                    \
            unit_failed++;                                                                        \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a,     \
                    a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                      \
        }                                                                                         \
    } while (0)

#define UNIT_MAIN_END()                                                                           \
    do {                                                                                          \
        printf("%d passed, %d failed\n", unit_passed, unit_failed);                               \
        return unit_failed ? 1 : 0;                                                               \
    } while (0)

#endif
