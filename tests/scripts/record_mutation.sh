#!/bin/sh
# The record of quotient(g, N), saved and loaded back, answers from its
# quotient q, and its other fields are derived from q, so load checks them
# against q instead of reading them (docs/language.md "Saving results").
# Each field of a saved record of 0.07 to heap 20 and of 0.77 to heap 14
# gets other values (or is removed, or another key is added) under a
# recomputed seal (the CRC-64/XZ is computed here, not by cgt).  A changed
# field must be refused, naming the field ("certified" is recomputed: a
# record saved uncertified loads certified); a record whose keys are not
# the quotient record's is data and loads as the file holds it.  Every
# record that loads must give, through its q, the outcomes of the
# brute-force search tests/oracle/mq_brute on every position of at most
# three heaps.
set -u
CGT=${CGT:-build/cgt}
# the re-sealing helpers import tests/scripts/crc64.py
PYTHONPATH=$PWD/tests/scripts${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMP:-/tmp}/rmut.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
BRUTE=$PWD/$BUILD/oracle/mq_brute
[ -x "$BRUTE" ] || fail "no $BRUTE"
cd "$T" || exit 1
for spec in 0.07:20 0.77:14; do
    code=${spec%:*} n=${spec#*:}
    "$CGT" -e "game g = octal $code; r = quotient(g, $n); save r \"base.json\";
               u = quotient(g, {to: $n, certify: \"off\"}); save u \"uncert.json\";" ||
        fail "$code: setup"
    python3 - "$code" "$n" <<'PY' || exit 1
import json, sys
code, n = sys.argv[1], int(sys.argv[2])
from crc64 import crc64  # tests/scripts/crc64.py
def seal(v, path):
    b = json.dumps(v).encode()
    open(path, 'wb').write(b'{"format": "cgt-result", "version": 1, "kind": "record",\n'
                           b' "crc64": "%016x",\n "value": ' % crc64(b) + b + b'}\n')
raw = open('base.json', 'rb').read()
base = json.loads(raw[raw.index(b'"value": ') + 9:-2])
others = {'game': ['0.7', '0.077', 5], 'heap': [n - 1, n + 1, None], 'order': [base['order'] + 1, 0, None],
          'pcount': [base['pcount'] - 1, base['pcount'] + 1], 'certified': [False],
          'infinite': [True], 'tame': [not base['tame']], 'partial': [True],
          'period': [34, 2, 0], 'preperiod': [1, 53, 0]}
cases = []  # (file, expectation): 'refused FIELD', 'loaded'
for k, vals in others.items():
    for v in vals:
        if v == base[k]:
            continue
        e = dict(base)
        e[k] = v
        f = 'f%d.json' % len(cases)
        seal(e, f)
        cases.append((f, 'loaded' if k == 'certified' else 'refused ' + k))
# other keys: data, loaded as they are (q answers)
e = dict(base)
del e['order']
seal(e, 'f%d.json' % len(cases))
cases.append(('f%d.json' % len(cases), 'loaded'))
e = dict(base)
e['note'] = 'mine'
e['order'] = 12345
seal(e, 'f%d.json' % len(cases))
cases.append(('f%d.json' % len(cases), 'loaded'))
cases.append(('uncert.json', 'loaded'))
def positions(m):
    out = []
    for a in range(1, m + 1):
        out.append([a])
        for b in range(a, m + 1):
            out.append([a, b])
            for c in range(b, m + 1):
                out.append([a, b, c])
    return out
with open('pos.txt', 'w') as f:
    for p in positions(n):
        f.write(' '.join(map(str, p)) + '\n')
with open('run.cgt', 'w') as f:
    f.write('pos = %s;\n' % json.dumps(positions(n)))
    f.write('fn answers(x) { s = ""; for p in pos { s = s + outcome(x, p).misere; } return s; }\n')
    for fn, _ in cases:
        f.write('try { x = load("%s"); print "%s", answers(x), certified(x), x.certified; } '
                'catch (e) { print "%s refused", e.category, e.message; }\n' % (fn, fn, fn))
with open('cases.txt', 'w') as f:
    for fn, want in cases:
        f.write('%s %s\n' % (fn, want))
PY
    "$BRUTE" "$code" <pos.txt | tr -d '\n' >want || fail "$code: mq_brute"
    [ -s want ] || fail "$code: no brute-force outcomes"
    "$CGT" run.cgt >got 2>err || fail "$code: the run stopped: $(tail -3 err)"
    python3 - "$code" <<'PY' || exit 1
import sys
code = sys.argv[1]
want = open('want').read()
got = {}
for line in open('got'):
    w = line.split(' ', 3)
    got[w[0]] = w[1:]
nref = nload = 0
for line in open('cases.txt'):
    fn, exp = line.split(' ', 1)
    exp = exp.strip()
    g = got.get(fn)
    if not g:
        sys.exit('FAIL: %s %s: no answer' % (code, fn))
    if exp.startswith('refused'):
        field = exp.split()[1]
        if g[0] != 'refused' or g[1] != 'io' or \
                ('the record\'s "%s" is ' % field) not in g[2] or 'the file was altered' not in g[2]:
            sys.exit('FAIL: %s %s: expected a refusal naming "%s", got %s' % (code, fn, field, g))
        nref += 1
    else:
        if g[0] == 'refused':
            sys.exit('FAIL: %s %s: refused: %s' % (code, fn, g))
        if g[0] != want or g[1:] != ['true', 'true\n']:
            sys.exit('FAIL: %s %s: loaded with wrong outcomes or uncertified: %s'
                     % (code, fn, ' '.join(g[1:]).strip()))
        nload += 1
print('%s: %d changed fields refused, %d records loaded with the true outcomes' % (code, nref, nload))
PY
    rm -f ./*.json got want pos.txt run.cgt cases.txt
done
echo ok
