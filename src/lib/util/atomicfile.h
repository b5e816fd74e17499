/* Files cgt writes and reads back (checkpoints, proofs): written atomically
 * and sealed with a CRC-64 trailer; read back only when they are regular
 * files whose seal is intact.
 *
 * Writing: af_open creates PATH.tmp in the same directory (never following
 * a link, never blocking on a FIFO); af_write / af_printf append to it (and,
 * for a sealed file, to its CRC-64); af_commit appends the seal line
 * "crc64 <16 hex digits>\n" (CRC-64/XZ of every byte before it), flushes,
 * fsyncs, renames over PATH and fsyncs the directory, so that PATH is
 * always either the old file or the complete new one, even after a crash or
 * kill -9; af_abort removes the temporary file and leaves PATH alone.
 *
 * Reading: sf_open opens PATH without blocking, refuses anything but a
 * regular file, checks the seal line and the CRC of the body in one pass,
 * then rewinds: the caller parses the body (sf->len bytes from the start of
 * sf->f) and every value in it against its domain, and calls sf_close.
 * The rules are in docs/errors.md ("Files cgt writes"). */
#ifndef CGT_UTIL_ATOMICFILE_H
#define CGT_UTIL_ATOMICFILE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util/error.h"

/* Length of the seal line "crc64 0123456789abcdef\n". */
#define AF_SEAL_LEN 23

typedef struct AtomicFile {
    FILE *f;
    char *path, *tmp;
    const char *what; /* "checkpoint", "proof file": used in messages */
    bool seal;
    bool failed;      /* a write failed; errno_at_fail says why */
    int errno_at_fail;
    uint64_t crc;
} AtomicFile;

/* Start writing `path` (borrowed) through a temporary file.  `what` names
 * the file in messages ("checkpoint").  Refuses (CGT_ERR_IO) when the
 * directory is not writable or `path` exists and is not a regular file.
 * On success the caller must end with af_commit or af_abort. */
CgtStatus af_open(AtomicFile *af, const char *path, const char *what, bool seal,
                  CgtError *err);
/* Append bytes; errors are remembered and reported by af_commit. */
void af_write(AtomicFile *af, const void *data, size_t len);
void af_printf(AtomicFile *af, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For a writer that wrote to af->f directly (fprintf) rather than through
 * af_write: recompute the CRC from what the temporary file holds (read
 * back), so that af_commit seals exactly those bytes. */
void af_crc_from_file(AtomicFile *af);
/* Seal (if asked), flush, fsync, rename over the path, fsync the directory.
 * CGT_ERR_IO with the reason (strerror) on any failure; the old file at the
 * path is then untouched and the temporary file removed. */
CgtStatus af_commit(AtomicFile *af, CgtError *err);
/* Drop the temporary file; the path is untouched. */
void af_abort(AtomicFile *af);
/* Check that `path` can be written (af_open then af_abort), so that a long
 * computation with an unwritable checkpoint fails at its start. */
CgtStatus af_probe(const char *path, const char *what, CgtError *err);

/* One writer per checkpoint (docs/errors.md, rule 8): a statement that
 * reads and saves a checkpoint holds an advisory lock on it from before
 * it reads the file until after its last save, so that a second cgt given
 * the same path is refused at its start instead of both writing PATH.tmp.
 * The lock is an fcntl write lock on PATH.lock, a file created for the
 * purpose and removed when the lock is released (a run killed by -9 leaves
 * it behind, unlocked: the next run takes it over). */
typedef struct AfLock {
    int fd;     /* -1: no lock held */
    char *lock; /* PATH.lock */
} AfLock;

/* Take the lock of the checkpoint `path` (`what` names it in messages).
 * CGT_ERR_IO when another process holds it ("checkpoint 'F' is in use by
 * process N"), or when PATH.lock exists and is not a regular file.  When
 * PATH.lock cannot be created at all (the directory is missing, read-only
 * or not writable by this user) nothing is held and CGT_OK is returned:
 * the statement's own check that it can write the path (af_probe) then
 * reports the reason if it needs to save.  Release with af_unlock. */
CgtStatus af_lock(AfLock *lk, const char *path, const char *what, CgtError *err);
void af_unlock(AfLock *lk);

typedef struct SealedFile {
    FILE *f;       /* positioned at the start of the body */
    uint64_t len;  /* body length (the file without its seal line) */
    bool absent;   /* sf_open returned CGT_OK but there is no file at the path */
    bool unsealed; /* allow_unsealed and the file has no seal line: nothing verified */
} SealedFile;

/* Open and verify a sealed file.  CGT_OK with sf->absent = true when
 * nothing exists at the path (ENOENT); CGT_ERR_IO when it exists but
 * cannot be read, is not a regular file, has no valid seal or a wrong
 * checksum (the message names `what` and the path; the file is never
 * modified).  With allow_unsealed, a file without a seal line is opened
 * whole with sf->unsealed set (for reading an older format, which the caller
 * must then recognise by its version line).  On CGT_OK without absent, the
 * caller reads the body and calls sf_close. */
CgtStatus sf_open(SealedFile *sf, const char *path, const char *what, bool allow_unsealed,
                  CgtError *err);
void sf_close(SealedFile *sf);

/* Read a plain data file (read_json, read_csv) whole, with the hygiene of
 * sf_open: opened without blocking, refused unless it is a regular file,
 * refused when larger than max bytes; no seal is looked for.  On CGT_OK
 * *text (owned, NUL-terminated after *len bytes) holds the file; on
 * CGT_ERR_IO (no such file, unreadable, not regular) or CGT_ERR_LIMIT (too
 * large) err names `what` and the path. */
CgtStatus pf_read(const char *path, const char *what, uint64_t max, char **text, size_t *len,
                  CgtError *err);

/* Remaining body bytes from the current position (0 at or beyond the
 * seal line): parsers use it to refuse counts larger than the file. */
uint64_t sf_remaining(SealedFile *sf);

#endif
