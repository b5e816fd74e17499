/* Atomic, sealed writes and verified reads (see atomicfile.h).  The write
 * protocol is the usual one for crash-safe replacement on POSIX file
 * systems: write a temporary file in the same directory, fsync it, rename
 * it over the target, fsync the directory (rename(2) is atomic within one
 * file system; the fsyncs order the data before the name). */
#define _POSIX_C_SOURCE 200809L
#include "lib/util/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util/crc64.h"
#include "lib/util/xalloc.h"

static void fail_errno(AtomicFile *af)
{
    if (!af->failed) {
        af->failed = true;
        af->errno_at_fail = errno ? errno : EIO;
    }
}

CgtStatus af_open(AtomicFile *af, const char *path, const char *what, bool seal,
                  CgtError *err)
{
    memset(af, 0, sizeof *af);
    af->what = what;
    af->seal = seal;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cgt_error_set(err, CGT_ERR_IO, "cannot write %s '%s': not a regular file", what,
                             path);
    char *tmp = xasprintf("%s.tmp", path);
    /* a stale temporary file of an earlier run that was killed: remove it
     * (O_EXCL below then never follows a link or opens a FIFO) */
    if (lstat(tmp, &st) == 0 && !S_ISDIR(st.st_mode))
        unlink(tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return cgt_error_set(err, CGT_ERR_IO, "cannot write %s '%s': %s", what, path,
                             strerror(e));
    }
    af->f = fdopen(fd, "wb");
    if (!af->f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        return cgt_error_set(err, CGT_ERR_IO, "cannot write %s '%s': %s", what, path,
                             strerror(e));
    }
    af->tmp = tmp;
    af->path = xstrdup(path);
    return CGT_OK;
}

void af_write(AtomicFile *af, const void *data, size_t len)
{
    if (af->failed || len == 0)
        return;
    if (af->seal)
        af->crc = crc64_update(af->crc, data, len);
    errno = 0;
    if (fwrite(data, 1, len, af->f) != len)
        fail_errno(af);
}

void af_printf(AtomicFile *af, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fail_errno(af);
        return;
    }
    if ((size_t)n < sizeof small) {
        af_write(af, small, (size_t)n);
        return;
    }
    char *big = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    af_write(af, big, (size_t)n);
    free(big);
}

static void release(AtomicFile *af)
{
    free(af->tmp);
    free(af->path);
    af->tmp = af->path = NULL;
    af->f = NULL;
}

void af_abort(AtomicFile *af)
{
    if (af->f) {
        fclose(af->f);
        unlink(af->tmp);
    }
    release(af);
}

CgtStatus af_probe(const char *path, const char *what, CgtError *err)
{
    AtomicFile af;
    CgtStatus st = af_open(&af, path, what, false, err);
    if (st == CGT_OK)
        af_abort(&af);
    return st;
}

/* fsync the directory holding path, so that the rename is durable.  File
 * systems that cannot sync a directory (EINVAL) are not an error. */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
                      : xstrdup(".");
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

void af_crc_from_file(AtomicFile *af)
{
    if (af->failed || !af->seal)
        return;
    errno = 0;
    if (fflush(af->f) != 0 || ferror(af->f)) {
        fail_errno(af);
        return;
    }
    FILE *r = fopen(af->tmp, "rb");
    if (!r) {
        fail_errno(af);
        return;
    }
    char buf[1 << 16];
    size_t n;
    uint64_t crc = 0;
    while ((n = fread(buf, 1, sizeof buf, r)) > 0)
        crc = crc64_update(crc, buf, n);
    if (ferror(r))
        fail_errno(af);
    fclose(r);
    af->crc = crc;
}

CgtStatus af_commit(AtomicFile *af, CgtError *err)
{
    if (af->seal && !af->failed) {
        char line[AF_SEAL_LEN + 1];
        snprintf(line, sizeof line, "crc64 %016llx\n", (unsigned long long)af->crc);
        errno = 0;
        if (fwrite(line, 1, AF_SEAL_LEN, af->f) != AF_SEAL_LEN)
            fail_errno(af);
    }
    errno = 0;
    if (!af->failed && (fflush(af->f) != 0 || ferror(af->f)))
        fail_errno(af);
    if (!af->failed && fsync(fileno(af->f)) != 0)
        fail_errno(af);
    errno = 0;
    if (fclose(af->f) != 0)
        fail_errno(af);
    af->f = NULL;
    if (!af->failed && rename(af->tmp, af->path) != 0)
        fail_errno(af);
    if (af->failed) {
        unlink(af->tmp);
        cgt_error_set(err, CGT_ERR_IO, "cannot write %s '%s': %s", af->what, af->path,
                      strerror(af->errno_at_fail));
        cgt_error_hint(err, "the previous file at that path, if any, is unchanged");
        release(af);
        return CGT_ERR_IO;
    }
    sync_dir(af->path);
    release(af);
    return CGT_OK;
}

/* ---- reading ---- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* The first line of the file (for a message about a file without a seal),
 * printable characters only; true when it ends in CR LF. */
static bool first_line(FILE *f, char *out, size_t cap)
{
    size_t n = 0;
    rewind(f);
    int c = EOF;
    while (n + 1 < cap && (c = getc(f)) != EOF && c != '\n' && c != '\r')
        out[n++] = (c >= 32 && c < 127) ? (char)c : '?';
    out[n] = '\0';
    return c == '\r' && getc(f) == '\n';
}

static const char old_hint[] =
    "the file is left untouched; a file written by a cgt without checksums cannot be "
    "loaded: move it away to start afresh";
static const char crlf_hint[] =
    "the file is left untouched; its lines end in CR LF: it was converted to Windows text "
    "(copy it again in binary mode)";

CgtStatus pf_read(const char *path, const char *what, uint64_t max, char **text, size_t *len,
                  CgtError *err)
{
    *text = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cgt_error_set(err, CGT_ERR_IO, "cannot read %s '%s': %s", what, path,
                             errno == ENOENT ? "no such file" : strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return cgt_error_set(err, CGT_ERR_IO, "cannot read %s '%s': not a regular file", what,
                             path);
    }
    if ((uint64_t)st.st_size > max) {
        close(fd);
        return cgt_error_set(err, CGT_ERR_LIMIT,
                             "cannot read %s '%s': %llu bytes, more than the limit of %llu",
                             what, path, (unsigned long long)st.st_size,
                             (unsigned long long)max);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            if (n > max) {
                free(buf);
                close(fd);
                return cgt_error_set(err, CGT_ERR_LIMIT,
                                     "cannot read %s '%s': more than the limit of %llu bytes",
                                     what, path, (unsigned long long)max);
            }
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return cgt_error_set(err, CGT_ERR_IO, "cannot read %s '%s': %s", what, path,
                                 strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return CGT_OK;
}

CgtStatus sf_open(SealedFile *sf, const char *path, const char *what, bool allow_unsealed,
                  CgtError *err)
{
    memset(sf, 0, sizeof *sf);
    /* O_NONBLOCK: a FIFO at the path must not block the open; it is
     * refused below as not a regular file */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) {
            sf->absent = true;
            return CGT_OK;
        }
        cgt_error_set(err, CGT_ERR_IO, "cannot read %s '%s': %s", what, path, strerror(errno));
        cgt_error_hint(err, "the file is left untouched; make it readable or choose another path");
        return CGT_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        cgt_error_set(err, CGT_ERR_IO, "cannot read %s '%s': not a regular file", what, path);
        cgt_error_hint(err, "the file is left untouched; choose another path");
        return CGT_ERR_IO;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        return cgt_error_set(err, CGT_ERR_IO, "cannot read %s '%s': %s", what, path,
                             strerror(e));
    }
    unsigned char seal[AF_SEAL_LEN];
    bool sealed = st.st_size >= AF_SEAL_LEN &&
                  fseeko(f, st.st_size - AF_SEAL_LEN, SEEK_SET) == 0 &&
                  fread(seal, 1, AF_SEAL_LEN, f) == AF_SEAL_LEN &&
                  memcmp(seal, "crc64 ", 6) == 0 && seal[AF_SEAL_LEN - 1] == '\n';
    uint64_t want = 0;
    for (int i = 6; sealed && i < 22; i++) {
        int h = hexval(seal[i]);
        if (h < 0)
            sealed = false;
        want = want << 4 | (uint64_t)h;
    }
    if (!sealed && allow_unsealed) {
        rewind(f);
        sf->f = f;
        sf->len = (uint64_t)st.st_size;
        sf->unsealed = true;
        return CGT_OK;
    }
    if (!sealed) {
        char head[64];
        bool crlf = first_line(f, head, sizeof head);
        fclose(f);
        cgt_error_set(err, CGT_ERR_IO,
                      "%s '%s' has no checksum line at its end (it starts with \"%s\"): it is "
                      "truncated, damaged, not a cgt %s or from an older cgt",
                      what, path, head, what);
        cgt_error_hint(err, "%s", crlf ? crlf_hint : old_hint);
        return CGT_ERR_IO;
    }
    uint64_t len = (uint64_t)st.st_size - AF_SEAL_LEN, crc = 0, done = 0;
    rewind(f);
    unsigned char *buf = xmalloc(1 << 16);
    while (done < len) {
        size_t want_n = len - done < (1 << 16) ? (size_t)(len - done) : (1 << 16);
        size_t got = fread(buf, 1, want_n, f);
        if (got == 0)
            break;
        crc = crc64_update(crc, buf, got);
        done += got;
    }
    free(buf);
    if (done != len || ferror(f)) {
        fclose(f);
        cgt_error_set(err, CGT_ERR_IO, "cannot read %s '%s': read error", what, path);
        return CGT_ERR_IO;
    }
    if (crc != want) {
        char head[64];
        bool crlf = first_line(f, head, sizeof head);
        fclose(f);
        cgt_error_set(err, CGT_ERR_IO, "%s '%s' is damaged: its checksum does not match its "
                      "contents", what, path);
        cgt_error_hint(err, "%s", crlf ? crlf_hint
                                       : "the file is left untouched; move it away to start "
                                         "afresh");
        return CGT_ERR_IO;
    }
    rewind(f);
    sf->f = f;
    sf->len = len;
    return CGT_OK;
}

uint64_t sf_remaining(SealedFile *sf)
{
    off_t p = ftello(sf->f);
    if (p < 0 || (uint64_t)p >= sf->len)
        return 0;
    return sf->len - (uint64_t)p;
}

void sf_close(SealedFile *sf)
{
    if (sf->f)
        fclose(sf->f);
    sf->f = NULL;
}

/* ---- one writer per checkpoint ---- */

CgtStatus af_lock(AfLock *lk, const char *path, const char *what, CgtError *err)
{
    lk->fd = -1;
    lk->lock = xasprintf("%s.lock", path);
    CgtStatus st = CGT_OK;
    /* The lock file is removed on release, so a process may lock a file
     * that another has just unlinked: after locking, the path must still
     * name the locked file, else the lock is taken again on the new one. */
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(lk->lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
        if (fd < 0) {
            int e = errno;
            if (e == EACCES || e == EPERM || e == EROFS || e == ENOENT || e == ENOTDIR)
                break; /* cannot be created here: nothing held (see atomicfile.h) */
            st = cgt_error_set(err, CGT_ERR_IO, "cannot lock %s '%s': %s: %s", what, path,
                          lk->lock, strerror(e));
            cgt_error_hint(err, "the %s is left untouched; remove %s or choose another path",
                           what, lk->lock);
            break;
        }
        struct stat fst, pst;
        if (fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode)) {
            close(fd);
            st = cgt_error_set(err, CGT_ERR_IO, "cannot lock %s '%s': %s is not a regular file",
                          what, path, lk->lock);
            cgt_error_hint(err, "the %s is left untouched; remove %s or choose another path",
                           what, lk->lock);
            break;
        }
        struct flock fl;
        memset(&fl, 0, sizeof fl);
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        if (fcntl(fd, F_SETLK, &fl) != 0) {
            int e = errno;
            if (e != EACCES && e != EAGAIN) {
                /* a file system without locks (ENOLCK): go on without one */
                close(fd);
                break;
            }
            memset(&fl, 0, sizeof fl);
            fl.l_type = F_WRLCK;
            fl.l_whence = SEEK_SET;
            long pid = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK ? (long)fl.l_pid : 0;
            close(fd);
            if (pid > 0)
                st = cgt_error_set(err, CGT_ERR_IO, "%s '%s' is in use by another run of cgt "
                              "(process %ld)", what, path, pid);
            else
                st = cgt_error_set(err, CGT_ERR_IO, "%s '%s' is in use by another run of cgt",
                              what, path);
            cgt_error_hint(err, "two runs cannot share a %s: wait for the other run to end, or "
                                "give this one another path",
                           what);
            break;
        }
        if (stat(lk->lock, &pst) == 0 && pst.st_dev == fst.st_dev && pst.st_ino == fst.st_ino) {
            lk->fd = fd;
            return CGT_OK;
        }
        close(fd); /* released and unlinked meanwhile: lock the new file */
    }
    free(lk->lock);
    lk->lock = NULL;
    return st;
}

void af_unlock(AfLock *lk)
{
    if (lk->fd >= 0) {
        /* removed while still locked, so that no one locks the old file
         * after it is gone (af_lock checks the path again) */
        unlink(lk->lock);
        close(lk->fd);
    }
    lk->fd = -1;
    free(lk->lock);
    lk->lock = NULL;
}
