/* Independent oracle for misère outcomes of octal games (shares no code
 * with cgt): memoised search over positions, a position being the counts
 * of heaps 1..63.  Usage: mq_brute CODE < positions, one position per line
 * as heap sizes separated by spaces; prints P or N per line (P = the
 * player to move loses; misère: a player with no move wins).  Octal digit
 * d_k (Winning Ways ch. 4): bit 1 = remove k tokens leaving nothing (k = the
 * whole heap), bit 2 = leave one heap, bit 4 = leave two heaps. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXH = 40, MAXD = 16 };

static int dig[MAXD], ndig;

typedef struct Ent {
    uint8_t c[MAXH];
    int8_t v; /* -1 empty, 0 N, 1 P */
} Ent;

static Ent *tab;
static size_t cap = (size_t)1 << 22, used;

static uint64_t hsh(const uint8_t *c)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < MAXH; i++)
        h = (h ^ c[i]) * 1099511628211ULL;
    return h ^ (h >> 32);
}

static int is_p(uint8_t *c);

/* Try position c after a move; returns 1 if it is P. */
static int child_p(uint8_t *c)
{
    return is_p(c);
}

static int is_p(uint8_t *c)
{
    size_t i = hsh(c) & (cap - 1);
    while (tab[i].v >= 0) {
        if (memcmp(tab[i].c, c, MAXH) == 0)
            return tab[i].v;
        i = (i + 1) & (cap - 1);
    }
    int moved = 0, win = 0;
    for (int h = 1; h < MAXH && !win; h++) {
        if (!c[h])
            continue;
        for (int k = 1; k <= ndig && k <= h && !win; k++) {
            int d = dig[k], r = h - k;
            c[h]--;
            if ((d & 1) && r == 0) {
                moved = 1;
                win = child_p(c);
            }
            if (!win && (d & 2) && r > 0) {
                moved = 1;
                c[r]++;
                win = child_p(c);
                c[r]--;
            }
            for (int x = 1; !win && (d & 4) && 2 * x <= r; x++) {
                moved = 1;
                c[x]++;
                c[r - x]++;
                win = child_p(c);
                c[x]--;
                c[r - x]--;
            }
            c[h]++;
        }
    }
    int v = moved && !win;
    if (used * 2 < cap) {
        i = hsh(c) & (cap - 1);
        while (tab[i].v >= 0)
            i = (i + 1) & (cap - 1);
        memcpy(tab[i].c, c, MAXH);
        tab[i].v = (int8_t)v;
        used++;
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 2 || strncmp(argv[1], "0.", 2) != 0) {
        fprintf(stderr, "usage: mq_brute 0.DIGITS < positions\n");
        return 2;
    }
    for (const char *s = argv[1] + 2; *s && ndig + 1 < MAXD; s++) {
        if (*s < '0' || *s > '7') {
            fprintf(stderr, "mq_brute: octal digits only\n");
            return 2;
        }
        dig[++ndig] = *s - '0';
    }
    tab = malloc(cap * sizeof *tab);
    if (!tab)
        return 2;
    for (size_t i = 0; i < cap; i++)
        tab[i].v = -1;
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        uint8_t c[MAXH] = {0};
        char *p = line, *e;
        for (;;) {
            long h = strtol(p, &e, 10);
            if (e == p)
                break;
            if (h < 0 || h >= MAXH || c[h] == 255) {
                fprintf(stderr, "mq_brute: heap out of range\n");
                return 2;
            }
            if (h > 0)
                c[h]++;
            p = e;
        }
        puts(is_p(c) ? "P" : "N");
    }
    free(tab);
    return 0;
}
