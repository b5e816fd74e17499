#!/bin/sh
# A certified quotient answers only from data its certificate checked,
# whether it was saved and loaded or resumed from a checkpoint
# (docs/misere.md "What a certificate covers").  Each file below gets one
# random single-entry edit of its data and a valid seal again; every
# edited file must be refused, or give on every position of at most three
# heaps the outcomes of the brute-force search tests/oracle/mq_brute
# (which shares no code with cgt).  1,080 edits over two games (0.07 to
# heap 20, 0.77 to heap 14): 270 each of a saved result file and of a
# checkpoint resumed two heaps further, plus edits of a result file in the
# format of earlier versions (letter tables).  The CRC-64/XZ of the seals
# is computed here in Python, not by cgt.
set -u
CGT=${CGT:-build/cgt}
# the re-sealing helpers import tests/scripts/crc64.py
PYTHONPATH=$PWD/tests/scripts${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/qmut.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
BRUTE=$PWD/$BUILD/oracle/mq_brute
[ -x "$BRUTE" ] || fail "no $BRUTE"
cd "$T" || exit 1
EDITS=${EDITS:-270}

for spec in ${GAMES:-0.07:20 0.77:14}; do
    code=${spec%:*} n=${spec#*:}
    n2=$((n + 2))
    "$CGT" -e "game g = octal $code; quotient q = g to $n; save q \"base.json\";
               quotient c = g to $n checkpoint \"base.ckpt\";" >/dev/null ||
        fail "$code: setup"
    python3 - "$code" "$n" "$n2" "$EDITS" <<'PY' || exit 1
import json, random, sys, os
code, n, n2, edits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
from crc64 import crc64  # tests/scripts/crc64.py
def seal_result(v, path):
    b = json.dumps(v).encode()
    open(path, 'wb').write(b'{"format": "cgt-result", "version": 1, "kind": "quotient",\n'
                           b' "crc64": "%016x",\n "value": ' % crc64(b) + b + b'}\n')
def seal_ckpt(lines, path):
    body = ('\n'.join(lines) + '\n').encode()
    open(path, 'wb').write(body + b'crc64 %016x\n' % crc64(body))
rng = random.Random(20261207 + int(n))
raw = open('base.json', 'rb').read()
base = json.loads(raw[raw.index(b'"value": ') + 9:-2])
order = base['order']
def mutate_p(p, size):
    p = list(p)
    k = rng.randrange(3)
    if k == 0 and p:
        del p[rng.randrange(len(p))]
    elif k == 1:
        free = [x for x in range(size) if x not in p]
        if free:
            p.append(rng.choice(free))
    elif p:
        i = rng.randrange(len(p))
        p[i] = rng.choice([x for x in range(size) if x != p[i]])
    return sorted(set(p))
def other(v, size):
    return rng.choice([x for x in range(size) if x != v])
# ---- result files ----
files = []
for i in range(edits):
    v = json.loads(json.dumps(base))
    t = v['tables']
    k = rng.randrange(3)
    if k == 0:
        row = rng.randrange(len(t['gen_act']))
        x = rng.randrange(order)
        t['gen_act'][row][x] = other(t['gen_act'][row][x], order)
    elif k == 1:
        h = rng.randrange(1, n + 1)
        t['phi'][h] = other(t['phi'][h], order)
    else:
        t['p_elements'] = mutate_p(t['p_elements'], order)
    seal_result(v, 'r%d.json' % i)
    files.append('r%d.json' % i)
# ---- the same data in the format of earlier versions: one action table
# per distinct heap image ("letter"), hl the letter of each heap, P flags ----
acts, phi, pe = base['tables']['gen_act'], base['tables']['phi'], base['tables']['p_elements']
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
for h in range(n + 1):
    if phi[h] == 0:
        hl.append(-1)
        continue
    if phi[h] not in letters:
        letters.append(phi[h])
    hl.append(letters.index(phi[h]))
old = {k: base[k] for k in base if k != 'tables'}
old['tables'] = {'hl': hl, 'act': [[mul(x, y) for x in range(order)] for y in letters],
                 'p': [1 if x in pe else 0 for x in range(order)],
                 'pred': [0] * order, 'predh': [0] * order, 'expansions': [[2, 2]]}
seal_result(old, 'old.json')
for i in range(edits // 3):
    v = json.loads(json.dumps(old))
    t = v['tables']
    k = rng.randrange(4)
    if k == 0:
        row = rng.randrange(len(t['act']))
        x = rng.randrange(order)
        t['act'][row][x] = other(t['act'][row][x], order)
    elif k == 1:
        h = rng.randrange(1, n + 1)
        t['hl'][h] = rng.choice([l for l in range(-1, len(t['act'])) if l != t['hl'][h]])
    elif k == 2:
        x = rng.randrange(order)
        t['p'][x] ^= 1
    else:  # derived data: never read, so never trusted
        t['expansions'] = [[rng.randrange(n + 1), rng.randrange(order + 1)]]
        t['pred'][rng.randrange(order)] = rng.randrange(order)
    seal_result(v, 'o%d.json' % i)
    files.append('o%d.json' % i)
# ---- checkpoints ----
lines = open('base.ckpt').read().split('\n')
lines = [l for l in lines if l and not l.startswith('crc64 ')]
ckpts = []
for i in range(edits):
    ls = list(lines)
    acti = [j for j, l in enumerate(ls) if l.startswith('act ')]
    phii = [j for j, l in enumerate(ls) if l.startswith('phi ')][0]
    pi = [j for j, l in enumerate(ls) if l.startswith('p ')][0]
    k = rng.randrange(3)
    if k == 0:
        j = rng.choice(acti)
        w = ls[j].split()
        x = 1 + rng.randrange(order)
        w[x] = str(other(int(w[x]), order))
        ls[j] = ' '.join(w)
    elif k == 1:
        w = ls[phii].split()
        h = 1 + rng.randrange(1, n + 1)
        w[h] = str(other(int(w[h]), order))
        ls[phii] = ' '.join(w)
    else:
        w = ls[pi].split()
        p = mutate_p([int(x) for x in w[2:]], order)
        ls[pi] = ' '.join(['p', str(len(p))] + [str(x) for x in p])
    seal_ckpt(ls, 'c%d.ckpt' % i)
    ckpts.append('c%d.ckpt' % i)
# ---- the script that loads every file, and the positions ----
def positions(m):
    out = []
    for a in range(1, m + 1):
        out.append([a])
        for b in range(a, m + 1):
            out.append([a, b])
            for c in range(b, m + 1):
                out.append([a, b, c])
    return out
for m in (n, n2):
    with open('pos%d.txt' % m, 'w') as f:
        for p in positions(m):
            f.write(' '.join(map(str, p)) + '\n')
with open('run.cgt', 'w') as f:
    f.write('game g = octal %s;\n' % code)
    for m in (n, n2):
        f.write('pos%d = %s;\n' % (m, json.dumps(positions(m))))
        f.write('fn answers%d(x) { s = ""; for p in pos%d { s = s + outcome(x, p).misere; } '
                'return s; }\n' % (m, m))
    for fn in ['base.json', 'old.json'] + files:
        f.write('try { x = load("%s"); print "%s", answers%d(x), pretend(x) == pretend(load("base.json")); } '
                'catch (e) { print "%s refused", e.category; }\n' % (fn, fn, n, fn))
    for fn in ckpts:
        f.write('try { quotient q = g to %d checkpoint "%s"; print "%s", answers%d(q), certified(q); } '
                'catch (e) { print "%s refused", e.category; }\n' % (n2, fn, fn, n2, fn))
PY
    "$BRUTE" "$code" <pos$n.txt | tr -d '\n' >want$n || fail "$code: mq_brute"
    "$BRUTE" "$code" <pos$n2.txt | tr -d '\n' >want$n2 || fail "$code: mq_brute"
    [ -s want$n ] || fail "$code: no brute-force outcomes"
    "$CGT" run.cgt >got 2>err || fail "$code: the run stopped: $(tail -3 err)"
    python3 - "$code" "$n" "$n2" <<'PY' || exit 1
import sys
code, n, n2 = sys.argv[1], sys.argv[2], sys.argv[3]
want = {n: open('want' + n).read(), n2: open('want' + n2).read()}
acc = ref = 0
kinds = {'r': 'result file', 'o': 'earlier format', 'c': 'checkpoint'}
count = {}
for line in open('got'):
    w = line.split()
    name = w[0]
    k = 'base' if name in ('base.json', 'old.json') else kinds[name[0]]
    count.setdefault(k, [0, 0])
    if w[1] == 'refused':
        if w[2] not in ('io',):
            sys.exit('FAIL: %s %s refused with category %s, expected io' % (code, name, w[2]))
        ref += 1
        count[k][0] += 1
        continue
    count[k][1] += 1
    m = n2 if name.endswith('.ckpt') else n
    if w[1] != want[m]:
        sys.exit('FAIL: %s %s accepted with wrong outcomes' % (code, name))
    if w[2] != 'true':
        sys.exit('FAIL: %s %s accepted but prints differently or uncertified' % (code, name))
    acc += 1
for must in ('base.json', 'old.json'):
    if not any(l.split()[0] == must and l.split()[1] != 'refused' for l in open('got')):
        sys.exit('FAIL: %s %s was not loaded' % (code, must))
print('%s: %d edited files refused, %d accepted with the true outcomes (%s)' % (code, ref, acc - 2,
      ', '.join('%s %d/%d' % (k, v[0], v[1]) for k, v in sorted(count.items()) if k != 'base')))
PY
    rm -f ./*.json ./*.ckpt got want* pos*.txt run.cgt
done
echo ok
