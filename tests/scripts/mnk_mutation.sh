#!/bin/sh
#@ timeout: 300
# An m,n,k search resumed from a checkpoint takes the file's positions as
# proven without searching them again, so a result that rests on them says
# so (docs/mnk.md "Checkpoints, limits, progress").  Each checkpoint below
# gets one entry changed (its value, its relevance zone or its work byte)
# under a recomputed seal (the CRC-64/XZ is computed here, not by cgt), and
# is resumed twice.  Plain: the change is refused with a clear message and
# the file left as it was, or the result carries the line "from checkpoint
# 'F': N proven positions read, not searched again" (a changed entry can
# change the result: the count of those is printed).  With `proof "P"
# verify`: refused (the entry, the proof writer or the independent checker
# tests/oracle/mnk_check naming the checkpoint, exit 1), or the game's true
# result, labelled, with the checker's "ok".  The true results come from
# outside cgt: 4,4,3 strong (first player) from the plain minimax
# tests/oracle/mnk_minimax; 7,6,5 (Breaker), 5,5,4 (Maker) and 5,5,4
# strong (draw) from Hsu et al. (docs/mnk.md).  EDITS changes per file
# (default 40).
set -u
CGT=${CGT:-build/cgt}
# the re-sealing helpers import tests/scripts/crc64.py
PYTHONPATH=$PWD/tests/scripts${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMP:-/tmp}/mmut.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
MINIMAX=$PWD/$BUILD/oracle/mnk_minimax
[ -x "$MINIMAX" ] || fail "no $MINIMAX"
[ -x "$PWD/$BUILD/oracle/mnk_check" ] || fail "no mnk_check"
cd "$T" || exit 1
[ "$("$MINIMAX" 4 4 3 strong)" = first ] || fail "minimax 4 4 3 strong"
python3 - "$CGT" "${EDITS:-40}" <<'PY' || exit 1
import os, random, re, subprocess, sys
cgt, edits = sys.argv[1], int(sys.argv[2])
from crc64 import crc64  # tests/scripts/crc64.py
# game and the words of its true result in the first line
GAMES = [('7 6 5', 'breaker wins'), ('4 4 3 strong', 'first player wins'),
         ('5 5 4', 'maker wins'), ('5 5 4 strong', 'draw')]
rng = random.Random(20261209)
for game, want in GAMES:
    m, n = (int(x) for x in game.split()[:2])
    def run(path, verify):
        opts = ' proof "e.proof" verify' if verify else ''
        p = subprocess.run([cgt, '-e', 'mnk %s checkpoint "%s"%s;' % (game, path, opts)],
                           capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr
    for f in ('base.ck', 'e.ck'):
        if os.path.exists(f):
            os.remove(f)
    subprocess.run([cgt, '-e', 'mnk %s checkpoint "base.ck";' % game], check=True,
                   capture_output=True)
    lines = [l for l in open('base.ck').read().split('\n') if l and not l.startswith('crc64 ')]
    ent = [i for i, l in enumerate(lines) if re.match(r'^[0-9a-f]{16} [12] [0-9a-f]+ \d+$', l)]
    if not ent:
        sys.exit('FAIL: %s: no entries in its checkpoint' % game)
    rc, out, err = run('base.ck', True)
    if rc != 0 or want not in out.split('\n')[0] or 'check: ok: claim' not in out:
        sys.exit('FAIL: %s: the intact file gave %r %r' % (game, out[:80], err))
    label = "from checkpoint 'e.ck': %d proven positions read, not searched again" % len(ent)
    count = {}
    for k in range(edits):
        ls = list(lines)
        i = rng.choice(ent)
        w = ls[i].split()
        kind = k % 3
        if kind == 0:  # the value: the other player wins, or out of its domain
            w[1] = rng.choice(['1' if w[1] == '2' else '2'] * 3 + ['0', '3'])
        elif kind == 1:  # the zone: any cells, sometimes off the board
            w[2] = '%x' % rng.randrange(1, 1 << (m * n + (1 if rng.randrange(5) == 0 else 0)))
        else:  # the work byte
            w[3] = str(rng.randrange(0, 300))
        ls[i] = ' '.join(w)
        if ls[i] == lines[i]:
            continue
        body = ('\n'.join(ls) + '\n').encode()
        data = body + b'crc64 %016x\n' % crc64(body)
        for verify in (False, True):
            open('e.ck', 'wb').write(data)
            rc, out, err = run('e.ck', verify)
            what = '%s%s: %r' % (game, ' verify' if verify else '', ls[i])
            if open('e.ck', 'rb').read() != data and rc != 0:
                sys.exit('FAIL: %s: the refused file was changed' % what)
            if rc == 1:
                ok = "checkpoint 'e.ck' is damaged at entry %d" % (i - 2) in err or \
                    (verify and "checkpoint 'e.ck' as proven" in err and
                     ('the file is damaged or was altered' in err or
                      'the independent checker rejected the proof' in err))
                if not ok:
                    sys.exit('FAIL: %s refused with %r' % (what, err))
                key = 'refused'
            elif rc != 0:
                sys.exit('FAIL: %s: exit %d: %s' % (what, rc, err))
            else:
                if label not in out.split('\n'):
                    sys.exit('FAIL: %s: a resumed result without the label: %r' % (what, out))
                right = want in out.split('\n')[0]
                if verify and not (right and 'check: ok: claim' in out):
                    sys.exit('FAIL: %s: accepted with a wrong result or no verdict: %r'
                             % (what, out[:300]))
                key = 'true, labelled' if right else 'WRONG, labelled'
            key = ('verify ' if verify else 'plain ') + key
            count[key] = count.get(key, 0) + 1
    print('mnk %s: %d entries; %s' % (game, len(ent), ', '.join(
        '%s %d' % kv for kv in sorted(count.items()))))
PY
echo ok
