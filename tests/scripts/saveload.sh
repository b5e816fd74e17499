#!/bin/sh
# save / load: every kind of value round-trips (what
# `print` shows before and after is the same); damaged files are refused
# (bit flips by the checksum; altered quotient tables with a recomputed
# checksum by the certificate, which load runs again); malformed files of
# every sort end with an io error, never a crash.  The CRC-64/XZ used to
# re-seal altered files is computed here in Python, not by cgt.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-saveload.XXXXXX") || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
case $CGT in /*) ;; *) CGT=$OLDPWD/$CGT ;; esac

# ---- round trips ----
cat >rt.cgt <<'CGT'
game g = octal 0.07;
quotient q = g to 14;
game s = subtraction {1, 3, 4};
game a = subtraction allbut {2, 5};
game r = rules { take 1..2 leave {0, 1, 2}; split 2 unequal; take 1..inf half min 2; };
game p = ga2;
quotient qs = s to 8;
semigroup S = < x, z | x^2 = 1, z^3 = z > with P = {x, z^2};
monoid M = < a, b | a b = b a, a^2 = 1 >;
pr = period(g);
qr = quotient(g, 10);
# shaped like the JSON of mnk and gp results (not yet values of their own)
mk = {kind: "mnk", m: 4, n: 4, k: 4, result: "breaker", nodes: 0,
      replies: [{move: "A1", reply: null}, {move: "B2", reply: "C3"}]};
gpr = {formula: "MOD(ADD(h1,ADD(h2,1)),3)", infix: "(h1 + h2 + 1) mod 3", accuracy: [64, 64]};
game kay = octal 0.77;
ig = {0, *2, {*1, *3}};
ig2 = kay(7) + *3;
values = [ig, ig2, pr, qr, mk, gpr, q, qs, g, s, a, r, p, S, M, 0, -7, 2^200, -(3^90), "text \"quoted\" \\ é", "",
          true, false, null, [], [[1], [2, [3]]], 3..9, {}, {period: 34, preperiod: 53},
          {"$cgt": 1, "b": [1..2]}, {"key with space": {"nested": [null]}}];
i = 0;
for v in values {
    f = "v" + str(i) + ".json";
    save v f;
    w = load(f);
    check str(w) == str(v);
    check type(w) == type(v);
    i = i + 1;
}
save(values, "all.json");
check str(load("all.json")) == str(values);
check load("v0.json") == ig and load("v1.json") == ig2;
w = load("v6.json");
check outcome(w, [2, 3]) == outcome(q, [2, 3]);
check load("v2.json").period == 34 and load("v2.json").preperiod == 53;
check load("v3.json").order == qr.order and outcome(load("v3.json"), [4, 6]) == outcome(qr, [4, 6]);
print i;
CGT
out=$("$CGT" rt.cgt 2>&1) || fail "round trips: $out"
[ "$out" = 31 ] || fail "round trips printed: $out"

# a quotient outcome from the loaded file agrees with the original
cat >oc.cgt <<'CGT'
game g = octal 0.07;
quotient q = g to 14;
save q "q.json";
p = load("q.json");
for h in 0..14 { check str(p) == str(q); }
print p;
CGT
"$CGT" oc.cgt >oc.out 2>&1 || fail "quotient reload: $(cat oc.out)"
grep -q '^Q(14) of 0.07: |Q| = ' oc.out || fail "loaded quotient prints: $(head -3 oc.out)"

# ---- damaged and altered files ----
cat >crc.py <<'PY'
import sys
POLY = 0xC96C5795D7870F42
def crc64(data):
    crc = 0xFFFFFFFFFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ POLY if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFFFFFFFFFF
assert crc64(b"123456789") == 0x995dc9bbdf1939fa
def reseal(src, dst, edit):
    d = open(src, "rb").read()
    i = d.index(b'"value": ') + 9
    body = edit(d[i:-2])
    head = d[:i].replace(d[d.index(b'"crc64": "') + 10:d.index(b'"crc64": "') + 26],
                         b"%016x" % crc64(body))
    open(dst, "wb").write(head + body + d[-2:])
PY
loads() { # file expected-exit message-part
    printf 'x = load("%s");\nprint "loaded";\n' "$1" >l.cgt
    "$CGT" l.cgt >l.out 2>l.err
    rc=$?
    [ "$rc" = "$2" ] || fail "$1: exit $rc, expected $2: $(cat l.err l.out)"
    grep -q -- "$3" l.err || fail "$1: no '$3' in: $(cat l.err)"
    grep -q loaded l.out && fail "$1 was loaded"
    return 0
}
cp q.json base.json
# the checksum test: a reseal that changes nothing loads
python3 -c "
exec(open('crc.py').read())
reseal('base.json', 'same.json', lambda b: b)" || fail python
printf 'x = load("same.json");\nprint x;\n' >s.cgt
"$CGT" s.cgt >s.out 2>&1 || fail "resealed unchanged file refused: $(cat s.out)"
# one flipped bit in the value
python3 -c "
d = bytearray(open('base.json','rb').read()); i = d.index(b'\"order\": ') + 9; d[i] ^= 1
open('flip.json','wb').write(d)"
loads flip.json 1 "checksum mismatch"
# the P-portion changed (its first element dropped), checksum recomputed:
# the certificate refuses it
python3 -c "
exec(open('crc.py').read())
def edit(b):
    i = b.index(b'\"p_elements\": [') + 15
    j = b.index(b', ', i)
    return b[:i] + b[j+2:]
reseal('base.json', 'ptamper.json', edit)"
loads ptamper.json 1 "not the misere quotient of 0.07"
# the same tables claimed for another game
python3 -c "
exec(open('crc.py').read())
reseal('base.json', 'gtamper.json',
       lambda b: b.replace(b'\"name\": \"0.07\", \"code\": \"0.07\"', b'\"name\": \"0.17\", \"code\": \"0.17\"'))"
loads gtamper.json 1 "not the misere quotient of 0.17"
# an action entry changed (the generator a maps 1 to b instead of a): not a
# quotient, or not the quotient of the game
python3 -c "
exec(open('crc.py').read())
def edit(b):
    assert b'\"gen_act\": [[1, 0' in b
    return b.replace(b'\"gen_act\": [[1, 0', b'\"gen_act\": [[2, 0')
reseal('base.json', 'atamper.json', edit)"
loads atamper.json 1 "not a quotient\|not the misere quotient"
# the readable order disagrees with the tables
python3 -c "
exec(open('crc.py').read())
import re
reseal('base.json', 'otamper.json', lambda b: b.replace(b'\"p_count\": ', b'\"p_count\": 1', 1))"
loads otamper.json 1 "|P|"
# structure
printf '{"format": "cgt-result", "version": 2, "kind": "integer", "crc64": "0", "value": 1}\n' >v2.json
loads v2.json 1 "version 2"
printf '{"format": "other", "version": 1}\n' >fmt.json
loads fmt.json 1 'format "other"'
printf '[1, 2' >trunc.json
loads trunc.json 1 "trunc.json:1:6: unterminated array"
printf '{"format": "cgt-result",\n  "version": 01}' >lz.json
loads lz.json 1 "lz.json:2:15: invalid number (leading zero)"
: >empty.json
loads empty.json 1 "end of input"
mkdir dir.json
loads dir.json 1 "dir.json"
loads missing.json 1 "no such file"
mkfifo fifo.json 2>/dev/null && loads fifo.json 1 "fifo.json"
python3 -c "
exec(open('crc.py').read())
reseal('base.json', 'frac.json', lambda b: b'1.5')"
loads frac.json 1 "not an integer"
python3 -c "
exec(open('crc.py').read())
reseal('base.json', 'tag.json', lambda b: b'{\"\$cgt\": \"rocket\"}')"
loads tag.json 1 'unknown kind of value "rocket"'
python3 -c "
exec(open('crc.py').read())
reseal('base.json', 'kind.json', lambda b: b'[1]')"
loads kind.json 1 "holds a list"

# an explicit game whose option refers forward (a cycle) is refused
python3 -c "
exec(open('crc.py').read())
reseal('base.json', 'cyc.json', lambda b: b'{\"\$cgt\": \"impgame\", \"positions\": 2, \"nodes\": [[1], []]}')"
loads cyc.json 1 "out of range 0..-1"

# ---- files saved by the previous version (words with blanks) ----
# tests/data/old_words_*.json were written by cgt before the one word
# notation: the quotient's JSON words read "a b^2", the presentations were
# typed with blanks.  They load, and print in the new notation; the loaded
# quotient agrees with one computed afresh.
D=$OLDPWD/tests/data
grep -q '"a b^2"' "$D/old_words_quotient.json" || fail "old_words_quotient.json is not old-format"
cat >old.cgt <<CGT
q = load("$D/old_words_quotient.json");
S = load("$D/old_words_semigroup.json");
M = load("$D/old_words_monoid.json");
game g = octal 0.75;
quotient q2 = g to 12;
check elements(q) == elements(q2) and pretend(q) == pretend(q2);
check pretend(q)[9] == "ab^2";
check elements(S) == ["1", "a", "b", "a^2", "ab", "a^2b"];
check reduce(S, "a b^2") == "a" and reduce(S, "ab^2") == "a";
check kb(M).rules == [["a^2", "1"], ["ba", "ab"]];
print q;
CGT
out=$("$CGT" old.cgt 2>&1) || fail "loading old-format files: $out"
printf '%s\n' "$out" | grep -q '^  < a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2 >$' ||
    fail "old quotient printed: $out"
printf '%s\n' "$out" | grep -q '^     0: 1    a    b    a    b    c    b    c    b    ab^2$' ||
    fail "old quotient Phi: $out"

# ---- save refuses what it cannot write ----
printf 'fn f(x) { return x; }\nsave f "f.json";\n' >sf.cgt
"$CGT" sf.cgt >sf.out 2>&1
[ $? = 1 ] && grep -q "a function cannot be saved" sf.out || fail "save of a function: $(cat sf.out)"
printf 'save 1 "nodir/x.json";\n' >sd.cgt
"$CGT" sd.cgt >sd.out 2>&1
[ $? = 1 ] || fail "save into a missing directory: $(cat sd.out)"

# ---- mutations: random byte edits of a saved quotient never crash load ----
CGT_BIN=$CGT python3 - <<'PY' || fail "mutation driver"
import random, subprocess, os
random.seed(11)
base = open("base.json", "rb").read()
bad = 0
for k in range(60):
    d = bytearray(base)
    for _ in range(random.randint(1, 3)):
        i = random.randrange(len(d))
        d[i] = random.choice(b'{}[]",:0123456789-nulltrue \\\x00\xff')
    open("m.json", "wb").write(d)
    r = subprocess.run([os.environ.get("CGT_BIN"), "-e", 'x = load("m.json");'],
                       capture_output=True)
    if r.returncode not in (0, 1, 4) or b"error" not in r.stderr and r.returncode:
        print("mutation", k, "exit", r.returncode, r.stderr[:300])
        bad += 1
raise SystemExit(1 if bad else 0)
PY
echo ok
