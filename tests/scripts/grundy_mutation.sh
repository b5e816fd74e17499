#!/bin/sh
#@ timeout: 300
# A Grundy checkpoint is recomputed where that is cheap and labelled where
# it is read (docs/games.md "Checkpoints"): each file below gets one value
# changed and a valid seal again (the CRC-64/XZ is computed here, not by
# cgt), and is given to `grundy ... checkpoint` and `period(...)`.  Every
# change must be refused with a clear message and the file left as it
# was, or lie past the recomputed prefix G(0..T-1), where the result must
# print exactly the values the file holds with the line
# "from checkpoint 'F': G(T..N-1) read, not recomputed" and the period
# record must name the same values.  The files: 0.07 with 6,000 values
# (short: recomputed whole, every change refused) and Officers (0.6) with
# 40,000 (T = 23,167), their values first compared with the independent
# oracle tests/oracle/octal_values.  EDITS changes per file (default 100),
# a quarter of them within 40 heaps of T for 0.6.
set -u
CGT=${CGT:-build/cgt}
# the re-sealing helpers import tests/scripts/crc64.py
PYTHONPATH=$PWD/tests/scripts${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMP:-/tmp}/gmut.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
O=$PWD/$BUILD/oracle/octal_values
[ -x "$O" ] || fail "no $O (make all builds it)"
cd "$T" || exit 1
for spec in 0.07:6000:0 0.6:40000:1ee; do
    code=${spec%%:*} rest=${spec#*:}
    n=${rest%%:*} mask=${rest#*:}
    "$O" "$code" "$n" "$mask" >oracle.b 2>/dev/null || fail "oracle $code"
    rm -f base.ck
    "$CGT" -e "game g = octal $code; x = grundy(g, $n - 1, {checkpoint: \"base.ck\"});" ||
        fail "$code: setup"
    python3 - "$CGT" "$code" "$n" "${EDITS:-100}" <<'PY' || exit 1
import os, random, re, subprocess, sys
cgt, code, n, edits = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def die(msg):
    print('FAIL: %s: %s' % (code, msg))
    sys.exit(1)
from crc64 import crc64  # tests/scripts/crc64.py
raw = open('base.ck', 'rb').read()
head = b'cgt-grundy 3\ngame %s\ncount %d\n' % (code.encode(), n)
if not raw.startswith(head):
    die('unexpected header %r' % raw[:60])
w = int(raw[len(head):].split(b'\n')[0].split()[1])
start = len(head) + len(b'width %d\n' % w)
vals = [int.from_bytes(raw[start + w * i:start + w * (i + 1)], 'little') for i in range(n)]
if raw[start + w * n:] != b'end\n' + b'crc64 %016x\n' % crc64(raw[:start + w * n + 4]):
    die('unexpected end of the file')
oracle = [int(l.split()[1]) for l in open('oracle.b')]
if vals != oracle:
    die('the checkpoint differs from the oracle at heap %d'
        % next(i for i in range(n) if vals[i] != oracle[i]))
def run(path):
    src = ('game g = octal %s; grundy g 0..%d checkpoint "%s"; '
           'print period(g, {limit: %d}).from_checkpoint;' % (code, n - 1, path, n))
    p = subprocess.run([cgt, '-e', src], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr
def printed(out):
    got = []
    for l in out.split('\n')[1:]:
        m = re.match(r'^ *\d+:((?: +\d+)+)$', l)
        if m:
            got += [int(x) for x in m.group(1).split()]
    return got
# the recomputed prefix: T from the label of the intact file (none: all)
rc, out, err = run('base.ck')
if rc != 0 or printed(out) != vals:
    die('the intact file: exit %d, %s' % (rc, err))
m = re.search(r"^  from checkpoint 'base.ck': G\((\d+)\.\.(\d+)\) read, not recomputed$", out, re.M)
t = int(m.group(1)) if m else n
if m and int(m.group(2)) != n - 1:
    die('the label names G(%s..%s)' % m.groups())
print('%s: %d values, G(0..%d) recomputed when read' % (code, n, t - 1))
rng = random.Random(20261209 + n)
maxv = (1 << 8 * w) - 1
stats = {'refused': 0, 'labelled': 0}
for i in range(edits):
    if t < n and i % 4 == 0:
        h = max(1, min(n - 1, t + rng.randrange(-40, 40)))
    else:
        h = rng.randrange(1, n)
    span = 1
    while span <= max(vals[:h]):
        span *= 2
    # within the domain (G(h) at most 2^b when every earlier value is below
    # 2^b), or past it (when the width can hold such a value)
    inside = rng.randrange(4) > 0 or span >= maxv
    v = rng.choice([x for x in range(span + 1) if x != vals[h]]) if inside else \
        rng.randrange(span + 1, maxv + 1)
    e = list(vals)
    e[h] = v
    body = head + b'width %d\n' % w + b''.join(x.to_bytes(w, 'little') for x in e) + b'end\n'
    data = body + b'crc64 %016x\n' % crc64(body)
    open('e.ck', 'wb').write(data)
    rc, out, err = run('e.ck')
    if open('e.ck', 'rb').read() != data:
        die('G(%d) = %d: the file was changed' % (h, v))
    if rc == 1:
        # a value outside its domain; one within it that is not the game's
        # (below T); past T, a later value that the change put outside its
        # domain (lowering the largest value so far)
        if not inside:
            want = "holds G(%d) = %d, which is impossible there" % (h, v)
        elif h < t:
            want = "holds G(%d) = %d, but G(%d) = %d: the file was altered" % (h, v, h, vals[h])
        else:
            m = re.search(r"holds G\((\d+)\) = (\d+), which is impossible there", err)
            want = m.group(0) if m and int(m.group(1)) > h and \
                int(m.group(2)) == vals[int(m.group(1))] else '(no reason)'
        if "error: checkpoint 'e.ck' " + want not in err:
            die('G(%d) = %d: refused with %r' % (h, v, err))
        stats['refused'] += 1
        continue
    if rc != 0:
        die('G(%d) = %d: exit %d: %s' % (h, v, rc, err))
    if h < t:
        die('G(%d) = %d was accepted, though G(0..%d) are recomputed' % (h, v, t - 1))
    label = "  from checkpoint 'e.ck': G(%d..%d) read, not recomputed" % (t, n - 1)
    if label not in out.split('\n'):
        die('G(%d) = %d: accepted without the label: %r' % (h, v, out[-300:]))
    if printed(out) != e:
        die('G(%d) = %d: the values printed are not the file\'s' % (h, v))
    if '{file: "e.ck", from: %d, to: %d}' % (t, n - 1) not in out:
        die('G(%d) = %d: the period record does not name the values read' % (h, v))
    stats['labelled'] += 1
print('%s: %d changes: %d refused, %d past G(%d) accepted with the label'
      % (code, edits, stats['refused'], stats['labelled'], t - 1))
if code == '0.07' and stats['labelled']:
    die('a change of a short file was accepted')
PY
done
# without the checkpoint the values are the oracle's (a refused file
# leaves no trace in the run)
"$CGT" -e 'game g = octal 0.6; grundy g [39999]; write g to "fresh.b" as bfile;' >/dev/null ||
    fail "fresh run"
cmp -s fresh.b oracle.b || fail "0.6: a fresh run differs from the oracle"
echo ok
