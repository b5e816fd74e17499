/* Plain minimax for small m,n,k-games, sharing no code with src/lib/mnk/: tries
 * every move, remembers finished positions in a hash table, nothing else.
 * Usage: mnk_minimax m n k mb|strong [X|O [ROW...]]  (rows top row first)
 * Prints "maker"/"breaker" (mb) or "first"/"second"/"draw" (strong). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int M, N, K, C, strong;
static char board[64];
static uint64_t *hkey;
static signed char *hval;
static size_t hcap, hused;

static int has_line(char who)
{
    int d[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int r = 0; r < N; r++)
        for (int c = 0; c < M; c++)
            for (int i = 0; i < 4; i++) {
                int j = 0;
                for (; j < K; j++) {
                    int rr = r + d[i][1] * j, cc = c + d[i][0] * j;
                    if (rr < 0 || rr >= N || cc >= M || board[rr * M + cc] != who)
                        break;
                }
                if (j == K)
                    return 1;
            }
    return 0;
}

static uint64_t code(int xmove)
{
    uint64_t h = (uint64_t)xmove;
    for (int i = 0; i < C; i++)
        h = h * 3 + (board[i] == '.' ? 0 : board[i] == 'X' ? 1 : 2);
    return h + 1;
}

static void store(uint64_t key, int v)
{
    if (2 * (hused + 1) > hcap) {
        uint64_t *ok = hkey;
        signed char *ov = hval;
        size_t oc = hcap;
        hcap = hcap ? 2 * hcap : 1 << 20;
        hkey = calloc(hcap, sizeof *hkey);
        hval = calloc(hcap, 1);
        hused = 0;
        for (size_t i = 0; i < oc; i++)
            if (ok[i])
                store(ok[i], ov[i]);
        free(ok);
        free(ov);
    }
    size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (hcap - 1);
    while (hkey[i] && hkey[i] != key)
        i = (i + 1) & (hcap - 1);
    if (!hkey[i])
        hused++;
    hkey[i] = key;
    hval[i] = (signed char)v;
}

static int lookup(uint64_t key, int *v)
{
    if (!hcap)
        return 0;
    size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (hcap - 1);
    while (hkey[i]) {
        if (hkey[i] == key) {
            *v = hval[i];
            return 1;
        }
        i = (i + 1) & (hcap - 1);
    }
    return 0;
}

/* Value for X: +1 X wins (Maker), -1 O wins (Breaker in mb), 0 draw. */
static int value(int xmove)
{
    if (has_line('X'))
        return 1;
    if (strong && has_line('O'))
        return -1;
    int empty = 0;
    for (int i = 0; i < C; i++)
        empty += board[i] == '.';
    if (!empty)
        return strong ? 0 : -1;
    uint64_t key = code(xmove);
    int v;
    if (lookup(key, &v))
        return v;
    int best = xmove ? -2 : 2;
    for (int i = 0; i < C; i++) {
        if (board[i] != '.')
            continue;
        board[i] = xmove ? 'X' : 'O';
        int r = value(!xmove);
        board[i] = '.';
        if (xmove && r > best)
            best = r;
        if (!xmove && r < best)
            best = r;
        if ((xmove && best == 1) || (!xmove && best == -1))
            break;
    }
    store(key, best);
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: mnk_minimax m n k mb|strong [X|O [ROW...]]\n");
        return 2;
    }
    M = atoi(argv[1]);
    N = atoi(argv[2]);
    K = atoi(argv[3]);
    strong = strcmp(argv[4], "strong") == 0;
    C = M * N;
    if (M < 1 || N < 1 || K < 1 || C > 40) {
        fprintf(stderr, "mnk_minimax: board too large\n");
        return 2;
    }
    memset(board, '.', sizeof board);
    int xmove = argc < 6 || argv[5][0] == 'X';
    if (argc > 6) {
        if (argc - 6 != N) {
            fprintf(stderr, "mnk_minimax: need %d rows\n", N);
            return 2;
        }
        for (int i = 0; i < N; i++)
            for (int c = 0; c < M; c++)
                board[(N - 1 - i) * M + c] = argv[6 + i][c];
    }
    int v = value(xmove);
    if (strong)
        puts(v > 0 ? "first" : v < 0 ? "second" : "draw");
    else
        puts(v > 0 ? "maker" : "breaker");
    free(hkey);
    free(hval);
    return 0;
}
