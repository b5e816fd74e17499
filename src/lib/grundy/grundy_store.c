/* Compressed store of Grundy values (src/lib/grundy/grundy_store.h): chunks coded
 * with canonical Huffman codes (Huffman 1952; canonical code assignment as
 * in RFC 1951 §3.2.2), length-limited to GS_MAXLEN bits by halving the
 * counts until the code fits, decoded by one table lookup per value. */
#include "lib/grundy/grundy_store.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/util/xalloc.h"

#define GS_MAXLEN 12
#define GS_CACHE 8

typedef struct {
    uint64_t start;
    uint32_t count, nsym;
    uint8_t *len;     /* code length of symbol v < nsym (0: absent) */
    uint32_t *boff;   /* bit offset of block b, one more at the end */
    uint64_t *bits;   /* the code, LSB first, one zero word of padding */
    size_t nwords;
    bool spilled;     /* bits is a read-only mapping of the spill file */
} GChunk;

/* Decode tables of the chunks used last: 2^GS_MAXLEN entries each, symbol |
 * length << 12 (0: a hole of the code). */
#define GS_DECS 4
typedef struct {
    size_t chunk; /* SIZE_MAX: none */
    uint16_t t[1u << GS_MAXLEN];
} GDec;

typedef struct {
    uint64_t key; /* chunk << 32 | block, or UINT64_MAX */
    uint16_t v[GS_BLOCK];
} GCache;

struct GStore {
    uint64_t begin, end;
    int spill_fd;       /* the spill file (unlinked), -1: chunks stay in memory */
    uint64_t spill_off; /* its length so far (page aligned) */
    GChunk *ch;
    size_t nch, cap;
    GCache cache[GS_CACHE];
    GDec dec[GS_DECS];
    unsigned dec_next;
    size_t last; /* the chunk decoded last (SIZE_MAX: none) */
};

GStore *gs_new(uint64_t begin)
{
    GStore *gs = xcalloc(1, sizeof *gs);
    gs->begin = gs->end = begin;
    gs->spill_fd = -1;
    for (size_t i = 0; i < GS_CACHE; i++)
        gs->cache[i].key = UINT64_MAX;
    for (size_t i = 0; i < GS_DECS; i++)
        gs->dec[i].chunk = SIZE_MAX;
    gs->last = SIZE_MAX;
    return gs;
}

static void chunk_free(GChunk *c)
{
    free(c->len);
    free(c->boff);
    if (c->spilled)
        munmap(c->bits, c->nwords * sizeof *c->bits);
    else
        free(c->bits);
}

void gs_free(GStore *gs)
{
    if (!gs)
        return;
    for (size_t i = 0; i < gs->nch; i++)
        chunk_free(&gs->ch[i]);
    if (gs->spill_fd >= 0)
        close(gs->spill_fd);
    free(gs->ch);
    free(gs);
}

bool gs_spill(GStore *gs, const char *dir)
{
    if (gs->spill_fd >= 0 || !dir || !*dir)
        return gs->spill_fd >= 0;
    size_t n = strlen(dir) + sizeof "/cgt-grundy-spill.XXXXXX";
    char *path = xmalloc(n);
    snprintf(path, n, "%s/cgt-grundy-spill.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd >= 0) {
        unlink(path); /* gone with the process, whatever ends it */
        /* not inherited: a child (the m,n,k checker) would keep it alive */
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    free(path);
    gs->spill_fd = fd;
    return fd >= 0;
}

/* Move chunk c's code words to the end of the spill file and map them
 * back read-only: they then take no memory of the process until read
 * (a deep scan reads a few blocks).  Kept in memory when the file cannot
 * grow (a full disk) or be mapped. */
static void spill_chunk(GStore *gs, GChunk *c)
{
    if (gs->spill_fd < 0 || c->spilled)
        return;
    size_t bytes = c->nwords * sizeof *c->bits;
    const char *p = (const char *)c->bits;
    for (size_t done = 0; done < bytes;) {
        ssize_t k = pwrite(gs->spill_fd, p + done, bytes - done, (off_t)(gs->spill_off + done));
        if (k <= 0)
            return;
        done += (size_t)k;
    }
    void *m = mmap(NULL, bytes, PROT_READ, MAP_SHARED, gs->spill_fd, (off_t)gs->spill_off);
    if (m == MAP_FAILED)
        return;
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
    gs->spill_off += (bytes + pg - 1) / pg * pg;
    free(c->bits);
    c->bits = m;
    c->spilled = true;
}

/* After a pass over a spilled chunk's words (gs_write): give the pages
 * back to the page cache, so that a checkpoint does not hold the whole
 * file in the process's memory. */
static void spill_release(const GChunk *c)
{
    if (c->spilled)
        madvise(c->bits, c->nwords * sizeof *c->bits, MADV_DONTNEED);
}

void gs_release(GStore *gs)
{
    for (size_t i = 0; i < gs->nch; i++)
        spill_release(&gs->ch[i]);
}

uint64_t gs_spilled_bytes(const GStore *gs)
{
    return gs->spill_fd >= 0 ? gs->spill_off : 0;
}

uint64_t gs_begin(const GStore *gs)
{
    return gs->begin;
}

uint64_t gs_end(const GStore *gs)
{
    return gs->end;
}

size_t gs_bytes(const GStore *gs)
{
    size_t b = gs->cap * sizeof *gs->ch;
    for (size_t i = 0; i < gs->nch; i++) {
        const GChunk *c = &gs->ch[i];
        b += sizeof *c + c->nsym + ((size_t)(c->count + GS_BLOCK - 1) / GS_BLOCK + 1) * 4 +
             (c->spilled ? 0 : c->nwords * 8);
    }
    return b;
}

/* Huffman code lengths of the symbols with cnt[v] > 0 (v < nsym), at most
 * GS_MAXLEN bits: the two-queue construction over the leaves sorted by
 * count; when the longest code is too long the counts are halved (kept
 * >= 1) and the code rebuilt, which flattens it (at most 12 rounds, since
 * equal counts give a code of ceil(log2 nsym) <= 12 bits). */
static void huff_lengths(const uint64_t *cnt0, uint32_t nsym, uint8_t *len)
{
    uint64_t *cnt = xmalloc(nsym * sizeof *cnt);
    uint32_t *leaf = xmalloc(nsym * sizeof *leaf);
    uint64_t *w = xmalloc(2 * (size_t)nsym * sizeof *w);
    uint32_t *par = xmalloc(2 * (size_t)nsym * sizeof *par);
    uint32_t *dep = xmalloc(2 * (size_t)nsym * sizeof *dep);
    memcpy(cnt, cnt0, nsym * sizeof *cnt);
    for (;;) {
        uint32_t m = 0;
        for (uint32_t v = 0; v < nsym; v++)
            if (cnt[v])
                leaf[m++] = v;
        /* insertion sort is enough for a few hundred symbols; a shell
         * pass keeps 4096 of them cheap */
        for (uint32_t gap = m / 2; gap > 0; gap /= 2)
            for (uint32_t i = gap; i < m; i++) {
                uint32_t x = leaf[i], j = i;
                while (j >= gap && cnt[leaf[j - gap]] > cnt[x]) {
                    leaf[j] = leaf[j - gap];
                    j -= gap;
                }
                leaf[j] = x;
            }
        memset(len, 0, nsym);
        if (m == 1) {
            len[leaf[0]] = 1;
            break;
        }
        /* nodes 0..m-1 leaves (ascending), m.. internal (created in
         * ascending weight order) */
        for (uint32_t i = 0; i < m; i++)
            w[i] = cnt[leaf[i]];
        uint32_t li = 0, ii = m, nn = m;
        for (uint32_t k = 0; k + 1 < m; k++) {
            uint32_t pick[2];
            for (int t = 0; t < 2; t++) {
                if (li < m && (ii >= nn || w[li] <= w[ii]))
                    pick[t] = li++;
                else
                    pick[t] = ii++;
            }
            w[nn] = w[pick[0]] + w[pick[1]];
            par[pick[0]] = par[pick[1]] = nn;
            nn++;
        }
        dep[nn - 1] = 0;
        unsigned maxd = 0;
        for (uint32_t i = nn - 1; i-- > 0;) {
            dep[i] = dep[par[i]] + 1;
            if (i < m && dep[i] > maxd)
                maxd = dep[i];
        }
        if (maxd <= GS_MAXLEN) {
            for (uint32_t i = 0; i < m; i++)
                len[leaf[i]] = (uint8_t)dep[i];
            break;
        }
        for (uint32_t v = 0; v < nsym; v++)
            if (cnt[v])
                cnt[v] = (cnt[v] >> 1) | 1;
    }
    free(cnt);
    free(leaf);
    free(w);
    free(par);
    free(dep);
}

static uint32_t reverse_bits(uint32_t x, unsigned n)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < n; i++)
        r |= ((x >> i) & 1) << (n - 1 - i);
    return r;
}

/* Canonical codes from the lengths (RFC 1951 §3.2.2), bit-reversed for an
 * LSB-first stream.  False when the lengths over-subscribe the code space
 * (a damaged chunk). */
static bool canon_codes(const uint8_t *len, uint32_t nsym, uint32_t *code)
{
    uint32_t bl[GS_MAXLEN + 1] = {0}, next[GS_MAXLEN + 2] = {0};
    for (uint32_t v = 0; v < nsym; v++)
        bl[len[v]]++;
    bl[0] = 0;
    uint64_t kraft = 0;
    for (unsigned l = 1; l <= GS_MAXLEN; l++)
        kraft += (uint64_t)bl[l] << (GS_MAXLEN - l);
    if (kraft > (1u << GS_MAXLEN))
        return false;
    uint32_t c = 0;
    for (unsigned l = 1; l <= GS_MAXLEN; l++) {
        c = (c + bl[l - 1]) << 1;
        next[l] = c;
    }
    for (uint32_t v = 0; v < nsym; v++)
        if (len[v])
            code[v] = reverse_bits(next[len[v]]++, len[v]);
    return true;
}

/* The decode table of chunk c into dec; false for over-subscribed lengths. */
static bool build_dec(const GChunk *c, uint16_t *dec)
{
    uint32_t *code = xmalloc((c->nsym ? c->nsym : 1) * sizeof *code);
    if (!canon_codes(c->len, c->nsym, code)) {
        free(code);
        return false;
    }
    memset(dec, 0, sizeof(uint16_t) << GS_MAXLEN);
    for (uint32_t v = 0; v < c->nsym; v++) {
        unsigned l = c->len[v];
        if (!l)
            continue;
        for (uint32_t x = code[v]; x < (1u << GS_MAXLEN); x += 1u << l)
            dec[x] = (uint16_t)(v | (uint32_t)l << 12);
    }
    free(code);
    return true;
}

/* The decode table of chunk ci (every stored chunk's code was checked). */
static const uint16_t *dec_for(GStore *gs, size_t ci)
{
    for (unsigned i = 0; i < GS_DECS; i++)
        if (gs->dec[i].chunk == ci)
            return gs->dec[i].t;
    GDec *d = &gs->dec[gs->dec_next++ % GS_DECS];
    d->chunk = ci;
    (void)build_dec(&gs->ch[ci], d->t);
    return d->t;
}

/* Append G(gs_end .. gs_end+count-1), given as `count` w-byte values at
 * raw (w = 1, 2 or 4).  False (store unchanged) when a value is >=
 * GS_MAXSYM or count is 0 or above 2^31. */
static bool gs_append(GStore *gs, const void *raw, unsigned w, uint64_t count)
{
    if (count == 0 || count > (1u << 31))
        return false;
    uint64_t *hist = xcalloc(GS_MAXSYM, sizeof *hist);
    uint32_t nsym = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint32_t v = w == 1 ? ((const uint8_t *)raw)[i]
                   : w == 2 ? ((const uint16_t *)raw)[i] : ((const uint32_t *)raw)[i];
        if (v >= GS_MAXSYM) {
            free(hist);
            return false;
        }
        hist[v]++;
        if (v + 1 > nsym)
            nsym = v + 1;
    }
    GChunk c = {.start = gs->end, .count = (uint32_t)count, .nsym = nsym};
    c.len = xmalloc(nsym);
    huff_lengths(hist, nsym, c.len);
    uint64_t total = 0;
    for (uint32_t v = 0; v < nsym; v++)
        total += hist[v] * c.len[v];
    free(hist);
    uint32_t *code = xmalloc(nsym * sizeof *code);
    canon_codes(c.len, nsym, code);
    c.nwords = (size_t)(total / 64) + 2;
    c.bits = xcalloc(c.nwords, sizeof *c.bits);
    uint32_t nb = (uint32_t)((count + GS_BLOCK - 1) / GS_BLOCK);
    c.boff = xmalloc(((size_t)nb + 1) * sizeof *c.boff);
    uint64_t pos = 0;
    for (uint64_t i = 0; i < count; i++) {
        if (i % GS_BLOCK == 0)
            c.boff[i / GS_BLOCK] = (uint32_t)pos;
        uint32_t v = w == 1 ? ((const uint8_t *)raw)[i]
                   : w == 2 ? ((const uint16_t *)raw)[i] : ((const uint32_t *)raw)[i];
        uint64_t x = code[v];
        c.bits[pos >> 6] |= x << (pos & 63);
        if ((pos & 63) + c.len[v] > 64)
            c.bits[(pos >> 6) + 1] |= x >> (64 - (pos & 63));
        pos += c.len[v];
    }
    c.boff[nb] = (uint32_t)pos;
    free(code);
    spill_chunk(gs, &c);
    if (gs->nch == gs->cap) {
        gs->cap = gs->cap ? 2 * gs->cap : 16;
        gs->ch = xrealloc(gs->ch, gs->cap * sizeof *gs->ch);
    }
    gs->ch[gs->nch++] = c;
    gs->end += count;
    return true;
}

/* Decode block b of chunk c into out; false when the block's code runs
 * past its end or meets a hole (damaged data). */
static bool decode_block(const GChunk *c, const uint16_t *dec, uint32_t b, uint16_t *out)
{
    uint64_t pos = c->boff[b], stop = c->boff[b + 1];
    uint32_t m = c->count - b * GS_BLOCK < GS_BLOCK ? c->count - b * GS_BLOCK : GS_BLOCK;
    for (uint32_t i = 0; i < m; i++) {
        uint64_t wi = pos >> 6, sh = pos & 63;
        uint64_t x = c->bits[wi] >> sh;
        if (sh)
            x |= c->bits[wi + 1] << (64 - sh);
        uint16_t e = dec[x & ((1u << GS_MAXLEN) - 1)];
        if (!e)
            return false;
        out[i] = e & 0xfff;
        pos += e >> 12;
        if (pos > stop)
            return false;
    }
    return pos == stop;
}

static size_t find_chunk(const GStore *gs, uint64_t i)
{
    size_t lo = 0, hi = gs->nch;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (gs->ch[mid].start <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Block b of chunk ci, decoded (through the cache). */
static const uint16_t *cached_block(GStore *gs, size_t ci, uint32_t b)
{
    GChunk *c = &gs->ch[ci];
    uint64_t key = (uint64_t)ci << 32 | b;
    GCache *slot = &gs->cache[(key ^ (key >> 29)) % GS_CACHE];
    if (slot->key != key) {
        /* a read moving on to another chunk gives the last one's spilled
         * pages back: a pass over the middle (grundy_copy, the period
         * search) holds one chunk's pages at a time */
        if (gs->last != ci && gs->last < gs->nch)
            spill_release(&gs->ch[gs->last]);
        gs->last = ci;
        /* every block was checked when it was written or read back */
        (void)decode_block(c, dec_for(gs, ci), b, slot->v);
        slot->key = key;
    }
    return slot->v;
}

uint32_t gs_get(GStore *gs, uint64_t i)
{
    size_t ci = find_chunk(gs, i);
    uint32_t off = (uint32_t)(i - gs->ch[ci].start);
    return cached_block(gs, ci, off / GS_BLOCK)[off % GS_BLOCK];
}

void gs_copy(GStore *gs, uint64_t from, uint64_t count, uint32_t *out)
{
    size_t ci = count ? find_chunk(gs, from) : 0;
    while (count) {
        const GChunk *c = &gs->ch[ci];
        uint32_t off = (uint32_t)(from - c->start), b = off / GS_BLOCK, o = off % GS_BLOCK;
        const uint16_t *v = cached_block(gs, ci, b);
        uint64_t bend = (uint64_t)(b + 1) * GS_BLOCK < c->count ? (uint64_t)(b + 1) * GS_BLOCK
                                                                  : c->count;
        uint64_t m = bend - off < count ? bend - off : count;
        for (uint64_t q = 0; q < m; q++)
            out[q] = v[o + q];
        out += m;
        from += m;
        count -= m;
        if (from == c->start + c->count)
            ci++;
    }
}

static void put_le(unsigned char *p, uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, unsigned n)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < n; i++)
        x |= (uint64_t)p[i] << (8 * i);
    return x;
}

/* Chunk record: start (8 bytes), count (4), nsym (4), nwords (8), then
 * nsym code lengths (1 byte each), nblocks+1 bit offsets (4 each), nwords
 * code words (8 each), all little-endian. */
void gs_write(const GStore *gs, AtomicFile *af)
{
    unsigned char h[24], buf[8 * 512];
    for (size_t k = 0; k < gs->nch && !af->failed; k++) {
        const GChunk *c = &gs->ch[k];
        put_le(h, c->start, 8);
        put_le(h + 8, c->count, 4);
        put_le(h + 12, c->nsym, 4);
        put_le(h + 16, c->nwords, 8);
        af_write(af, h, sizeof h);
        af_write(af, c->len, c->nsym);
        uint32_t nb = (c->count + GS_BLOCK - 1) / GS_BLOCK;
        for (uint32_t b = 0; b <= nb; b += 512) {
            uint32_t m = nb + 1 - b < 512 ? nb + 1 - b : 512;
            for (uint32_t q = 0; q < m; q++)
                put_le(buf + 4 * q, c->boff[b + q], 4);
            af_write(af, buf, 4 * (size_t)m);
        }
        for (size_t i = 0; i < c->nwords; i += 512) {
            size_t m = c->nwords - i < 512 ? c->nwords - i : 512;
            for (size_t q = 0; q < m; q++)
                put_le(buf + 8 * q, c->bits[i + q], 8);
            af_write(af, buf, 8 * m);
        }
        spill_release(c);
    }
}

static CgtStatus bad_chunk(const char *path, size_t k, const char *why, CgtError *err)
{
    return cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s': compressed chunk %zu %s", path,
                         k, why);
}

CgtStatus gs_read(GStore *gs, SealedFile *sf, uint64_t end, const char *path, CgtError *err)
{
    unsigned char h[24];
    uint16_t *tmp = xmalloc(GS_BLOCK * sizeof *tmp);
    uint16_t *dec = xmalloc(sizeof(uint16_t) << GS_MAXLEN);
    CgtStatus st = CGT_OK;
    for (uint64_t k = 0; gs->end < end && st == CGT_OK; k++) {
        if (fread(h, 1, sizeof h, sf->f) != sizeof h) {
            st = cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' is truncated", path);
            break;
        }
        GChunk c = {.start = get_le(h, 8), .count = (uint32_t)get_le(h + 8, 4),
                    .nsym = (uint32_t)get_le(h + 12, 4), .nwords = (size_t)get_le(h + 16, 8)};
        uint32_t nb = (c.count + GS_BLOCK - 1) / GS_BLOCK;
        if (c.start != gs->end || c.count == 0 || c.count > (1u << 31) ||
            c.start + c.count > end || c.nsym == 0 || c.nsym > GS_MAXSYM || c.nwords < 2 ||
            sf_remaining(sf) < c.nsym + 4 * ((uint64_t)nb + 1) + 8 * (uint64_t)c.nwords ||
            c.nwords > (uint64_t)c.count * GS_MAXLEN / 64 + 2) {
            st = bad_chunk(path, (size_t)k, "has a bad header", err);
            break;
        }
        c.len = xmalloc(c.nsym);
        c.boff = xmalloc(((size_t)nb + 1) * sizeof *c.boff);
        c.bits = xmalloc(c.nwords * sizeof *c.bits);
        bool ok = fread(c.len, 1, c.nsym, sf->f) == c.nsym;
        for (uint32_t b = 0; ok && b <= nb; b++) {
            unsigned char x[4];
            ok = fread(x, 1, 4, sf->f) == 4;
            c.boff[b] = (uint32_t)get_le(x, 4);
        }
        for (size_t i = 0; ok && i < c.nwords; i++) {
            unsigned char x[8];
            ok = fread(x, 1, 8, sf->f) == 8;
            c.bits[i] = get_le(x, 8);
        }
        if (!ok) {
            chunk_free(&c);
            st = cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' is truncated", path);
            break;
        }
        for (uint32_t v = 0; v < c.nsym && ok; v++)
            ok = c.len[v] <= GS_MAXLEN;
        ok = ok && c.boff[0] == 0 && (uint64_t)c.boff[nb] <= 64 * ((uint64_t)c.nwords - 1);
        for (uint32_t b = 0; ok && b < nb; b++)
            ok = c.boff[b] <= c.boff[b + 1];
        if (!ok || !build_dec(&c, dec)) {
            chunk_free(&c);
            st = bad_chunk(path, (size_t)k, "has a bad code table or block offsets", err);
            break;
        }
        for (uint32_t b = 0; ok && b < nb; b++)
            ok = decode_block(&c, dec, b, tmp);
        if (!ok) {
            chunk_free(&c);
            st = bad_chunk(path, (size_t)k, "does not decode", err);
            break;
        }
        spill_chunk(gs, &c);
        if (gs->nch == gs->cap) {
            gs->cap = gs->cap ? 2 * gs->cap : 16;
            gs->ch = xrealloc(gs->ch, gs->cap * sizeof *gs->ch);
        }
        gs->ch[gs->nch++] = c;
        gs->end += c.count;
    }
    free(tmp);
    free(dec);
    return st;
}

/* ---- mapped flat tables ---------------------------------------------------- */

void *gs_map(unsigned w)
{
    void *p = mmap(NULL, (size_t)(GS_MAP_VALUES * w), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void gs_unmap(void *gv, unsigned w)
{
    if (gv)
        munmap(gv, (size_t)(GS_MAP_VALUES * w));
}

/* The whole pages inside bytes [lo, hi) of gv: *a .. *a + *len. */
static bool inner_pages(void *gv, uint64_t lo, uint64_t hi, char **a, size_t *len)
{
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t l = (lo + pg - 1) / pg * pg, h = hi / pg * pg;
    if (h <= l)
        return false;
    *a = (char *)gv + l;
    *len = (size_t)(h - l);
    return true;
}

bool gs_compact(GStore *gs, void *gv, unsigned w, uint64_t count)
{
    uint64_t from = gs->end;
    if (!gs_append(gs, (const char *)gv + from * w, w, count))
        return false;
    char *a;
    size_t len;
    if (inner_pages(gv, from * w, (from + count) * w, &a, &len)) {
        madvise(a, len, MADV_DONTNEED);
        mprotect(a, len, PROT_NONE);
    }
    return true;
}

void gs_restore(GStore *gs, void *gv, unsigned w)
{
    char *a;
    size_t len;
    if (inner_pages(gv, gs->begin * w, gs->end * w, &a, &len))
        mprotect(a, len, PROT_READ | PROT_WRITE);
    uint32_t buf[GS_BLOCK];
    for (uint64_t i0 = gs->begin; i0 < gs->end; i0 += GS_BLOCK) {
        uint64_t m = gs->end - i0 < GS_BLOCK ? gs->end - i0 : GS_BLOCK;
        gs_copy(gs, i0, m, buf);
        for (uint64_t q = 0; q < m; q++) {
            uint64_t i = i0 + q;
            if (w == 1)
                ((uint8_t *)gv)[i] = (uint8_t)buf[q];
            else if (w == 2)
                ((uint16_t *)gv)[i] = (uint16_t)buf[q];
            else
                ((uint32_t *)gv)[i] = buf[q];
        }
    }
}

void *gs_widen(const GStore *gs, void *gv, unsigned w, unsigned w2, uint64_t n)
{
    void *p = gs_map(w2);
    if (!p)
        return NULL;
    uint64_t lo = gs ? gs->begin : n, hi = gs ? gs->end : n;
    for (uint64_t i = 0; i < n; i++) {
        if (i == lo)
            i = hi;
        if (i >= n)
            break;
        uint32_t v = w == 1 ? ((uint8_t *)gv)[i] : w == 2 ? ((uint16_t *)gv)[i] : ((uint32_t *)gv)[i];
        if (w2 == 2)
            ((uint16_t *)p)[i] = (uint16_t)v;
        else
            ((uint32_t *)p)[i] = v;
    }
    gs_unmap(gv, w);
    return p;
}
