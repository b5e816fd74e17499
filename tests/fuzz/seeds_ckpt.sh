#!/bin/sh
# Write the seed corpus of fuzz_ckpt (tests/fuzz/fuzz_ckpt.c) into DIR
# (default tests/fuzz/corpus_ckpt): checkpoints that cgt writes, each
# behind the selector byte of its loader, and the older formats the
# loaders still read (misère format 2, mnk format 2), converted here from
# the current ones.  Run from the repository root with CGT=build/cgt.
set -eu
CGT=${CGT:-build/cgt}
# the re-sealing helpers import tests/scripts/crc64.py
PYTHONPATH=$PWD/tests/scripts${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
DIR=${1:-tests/fuzz/corpus_ckpt}
case $DIR in /*) ;; *) DIR=$PWD/$DIR ;; esac
mkdir -p "$DIR"
W=$(mktemp -d "${TMPDIR:-/tmp}/seeds.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"
# seed FILE SELECTOR NAME: the selector byte, then the file
seed() { { printf "\\$(printf %03o "$2")"; cat "$1"; } >"$DIR/$3"; }
"$CGT" -e 'game o = octal 0.6; x = grundy(o, 2999, {checkpoint: "g1"});
           x = grundy(o, 24999, {checkpoint: "g2"});
           game d = octal 0.07; x = grundy(d, 299, {checkpoint: "g3"});
           quotient q = d to 12 checkpoint "q1";
           game k = octal 0.77; quotient r = k to 9 checkpoint "q2";' >/dev/null
seed g1 0 grundy-0.6-3000
seed g2 0 grundy-0.6-25000
seed g3 1 grundy-0.07-300
seed q1 2 misere-0.07-q12
seed q2 3 misere-0.77-q9
"$CGT" -e 'mnk 5 5 4 checkpoint "m1"; mnk 4 4 3 strong checkpoint "m2";
           mnk 9 8 4 board ["XXOOXXOOX", "OOXXOOXXO", "XXOOXXOOX", "OOXXOOXXO", ".........",
                            ".........", "XXOOXXOOX", "OOXXOOXXO"] to_move "X" checkpoint "m3";' \
    >/dev/null
seed m1 4 mnk-554
seed m2 5 mnk-443-strong
seed m3 6 mnk-984-wide
seed m1 7 mnk-554-proof
# the older formats: misère format 2 (the letter tables of the engine, P
# flags, a least-game tree and expansions, no longer written) and mnk
# format 2 (no seal)
python3 - <<'PY'
from crc64 import crc64  # tests/scripts/crc64.py
lines = open('q1').read().split('\n')
kv = {l.split()[0]: l.split()[1:] for l in lines if l}
game, nh, n = ' '.join(kv['game']), int(kv['heaps'][0]), int(kv['elements'][0])
acts = [list(map(int, l.split()[1:])) for l in lines if l.startswith('act ')]
phi = list(map(int, kv['phi']))
pe = set(map(int, kv['p'][1:]))
# the product by an element: along a path of generators from 1
par = {0: None}
queue = [0]
for y in queue:
    for g, a in enumerate(acts):
        if a[y] not in par:
            par[a[y]] = (y, g)
            queue.append(a[y])
def mul(x, y):
    while par[y] is not None:
        y, g = par[y]
        x = acts[g][x]
    return x
letters, hl = [], []
for h in range(nh):
    if phi[h] == 0:
        hl.append(-1)
        continue
    if phi[h] not in letters:
        letters.append(phi[h])
    hl.append(letters.index(phi[h]))
out = ['cgt-misere-checkpoint 2', 'game ' + game, 'heaps %d' % nh, 'elements %d' % n,
       'letters %d' % len(letters), 'hl ' + ' '.join(map(str, hl))]
out += ['act ' + ' '.join(str(mul(x, y)) for x in range(n)) for y in letters]
out += ['p ' + ' '.join('1' if x in pe else '0' for x in range(n)),
        'pred ' + ' '.join('0' for _ in range(2 * n)), 'expansions 1 2 2', 'end']
body = ('\n'.join(out) + '\n').encode()
open('q3', 'wb').write(body + b'crc64 %016x\n' % crc64(body))
m = open('m1').read().split('\n')
m = [l for l in m if l and not l.startswith('crc64 ')]
m[0] = 'cgt-mnk-tt 2'
open('m4', 'w').write('\n'.join(m) + '\n')
PY
seed q3 2 misere-0.07-q12-v2
seed m4 4 mnk-554-v2
ls "$DIR" | wc -l
