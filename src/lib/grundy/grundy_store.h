/* Compressed store of the middle of a Grundy table (src/lib/grundy/grundy.c): the
 * values of heaps [gs_begin, gs_end) in chunks, each coded with a canonical
 * Huffman code of its own value histogram (length-limited to 12 bits), in
 * blocks of GS_BLOCK values with their bit offsets, so that any value is
 * found by decoding one block (a small cache of decoded blocks makes
 * sequential reads, forwards or backwards, cost one decode per block).
 * Internal to games/grundy*.c; format of the chunks in docs/games.md §2. */
#ifndef CGT_GAMES_GRUNDY_STORE_H
#define CGT_GAMES_GRUNDY_STORE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util/atomicfile.h"
#include "lib/util/error.h"

#define GS_BLOCK 4096u
/* Values the code can hold: 0 .. GS_MAXSYM-1. */
#define GS_MAXSYM 4096u

typedef struct GStore GStore;

/* New empty store whose first value will be heap `begin`. */
GStore *gs_new(uint64_t begin);
void gs_free(GStore *gs);
uint64_t gs_begin(const GStore *gs);
/* One past the last heap held. */
uint64_t gs_end(const GStore *gs);
/* Bytes held in memory (codes, offsets, tables; not the decode cache nor
 * the spilled codes). */
size_t gs_bytes(const GStore *gs);

/* From now on, keep the code words of each chunk in a spill file in
 * directory dir (created there and unlinked at once, so it goes with the
 * process) and map them back read-only: the store's memory is then its
 * offsets and tables only, about 1/4096 of a byte per value, and a read of
 * the middle (rare: a deep pair scan, a checkpoint, the period search)
 * pages in what it reads.  A chunk stays in memory when the file cannot
 * grow or be mapped.  Returns whether chunks now spill (false: the file
 * could not be made). */
bool gs_spill(GStore *gs, const char *dir);
/* Give the pages of the spilled chunks read so far back to the page cache
 * (after a pass over the whole middle). */
void gs_release(GStore *gs);
/* Bytes of the spill file (0 without one). */
uint64_t gs_spilled_bytes(const GStore *gs);

/* G(i), gs_begin <= i < gs_end.  Not thread-safe (the decode cache). */
uint32_t gs_get(GStore *gs, uint64_t i);
/* G(from .. from+count-1) into out, all inside [gs_begin, gs_end): block
 * by block (a pass over the middle costs one decode per value, not a
 * chunk search and a cache probe each).  Not thread-safe. */
void gs_copy(GStore *gs, uint64_t from, uint64_t count, uint32_t *out);

/* Serialise every chunk (binary, little-endian; docs/games.md §3) to af;
 * read them back from sf (positioned at the first chunk) into an empty
 * store whose begin is the file's, until it reaches heap `end` (no chunk
 * may pass it).  gs_read checks every code, offset and block length by
 * decoding every block; errors name `path`: CGT_ERR_DOMAIN for a malformed
 * chunk, CGT_ERR_IO for a short file. */
void gs_write(const GStore *gs, AtomicFile *af);
CgtStatus gs_read(GStore *gs, SealedFile *sf, uint64_t end, const char *path, CgtError *err);

/* Flat tables whose middle is compressed: an anonymous mapping with room
 * for GS_MAP_VALUES values of w bytes (address space only: pages are
 * backed only when written; NULL when the mapping fails), freed by
 * gs_unmap.  GRUNDY_TABLE_BOUND (src/lib/grundy/grundy.h) is the same number. */
#define GS_MAP_VALUES ((uint64_t)1 << 40)
void *gs_map(unsigned w);
void gs_unmap(void *gv, unsigned w);
/* Move heaps [gs_end, gs_end+count) of the mapped table gv into the store
 * and give their pages back (made inaccessible, so a read of the middle
 * through the flat table faults instead of seeing zeros).  False (nothing
 * changed) when a value is >= GS_MAXSYM or count is 0 or above 2^31. */
bool gs_compact(GStore *gs, void *gv, unsigned w, uint64_t count);
/* Make the middle of gv accessible again and decode it back into gv. */
void gs_restore(GStore *gs, void *gv, unsigned w);
/* A new mapped table of width w2 > w holding gv's values of [0, n) outside
 * the store (the middle is not copied); gv is unmapped.  NULL (gv kept)
 * when the mapping fails. */
void *gs_widen(const GStore *gs, void *gv, unsigned w, unsigned w2, uint64_t n);

#endif
