/* Minimal unit-test harness: CHECK(cond), CHECK_EQ_INT(a,b), CHECK_EQ_STR(a,b);
 * UNIT_MAIN() ends with the line "N passed, N failed" and exit status 1 on
 * failure.  Each test binary is one file tests/unit/test_*.c.  Files a test
 * writes go in its own directory, unit_tmp_dir() (docs/testing.md). */
#ifndef CGT_TESTS_UNIT_H
#define CGT_TESTS_UNIT_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The test's own directory, made by mkdtemp under $TMPDIR (else /tmp) at
 * the first call and removed with everything in it at exit: no fixed name
 * in a shared folder, so that two runs at once never meet.  tests/run gives
 * every test its own $TMPDIR as well. */
static char unit_dir[200]; /* a longer $TMPDIR is refused */

static inline void unit_rm_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            char sub[4096];
            if (snprintf(sub, sizeof sub, "%s/%s", path, de->d_name) < (int)sizeof sub)
                unit_rm_tree(sub);
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static inline void unit_tmp_cleanup(void)
{
    if (unit_dir[0])
        unit_rm_tree(unit_dir);
}

static inline const char *unit_tmp_dir(void)
{
    if (unit_dir[0])
        return unit_dir;
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    if (snprintf(unit_dir, sizeof unit_dir, "%s/cgt-unit.XXXXXX", base) >= (int)sizeof unit_dir ||
        !mkdtemp(unit_dir)) {
        fprintf(stderr, "cannot make a temporary directory under %s\n", base);
        exit(1);
    }
    atexit(unit_tmp_cleanup);
    return unit_dir;
}

/* buf = unit_tmp_dir()/name */
static inline void unit_tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", unit_tmp_dir(), name);
}

#define UNIT_MAIN_END()                                                                           \
    do {                                                                                          \
        printf("%d passed, %d failed\n", unit_passed, unit_failed);                               \
        return unit_failed ? 1 : 0;                                                               \
    } while (0)

#endif
