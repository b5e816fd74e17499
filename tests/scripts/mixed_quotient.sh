#!/bin/sh
# Mixed and explicit-set quotients (docs/misere.md, "Mixed and
# explicit-set quotients") against the brute-force search
# tests/oracle/mix_brute, which shares no code with cgt: the misère
# outcome of every position with at most T tokens (heap games: 0.07 with
# 0.77, 0.07 with nim, 0.77 with 0.137) or at most K games of the closure
# (explicit sets), read off the certified quotient with `outcome q [...]`.
# T = 14 and K = 4 here, 20 and 6 in the slow tier (CGT_SLOW).  Also: a
# quotient of [0.07] alone is isomorphic to Q(n) of 0.07; nim heaps *1..*7
# as a ruleset and as explicit games give the same tame quotient of order
# 10 with |P| = 2; save and load give an equal quotient, and edited files
# are refused; JSON; errors.
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-mix.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
here=$(pwd)
case $CGT in /*) ;; *) CGT=$here/$CGT ;; esac
BRUTE=$here/$BUILD/oracle/mix_brute
cd "$T" || exit 1
TOK=14
NG=4
if [ -n "${CGT_SLOW:-}" ]; then TOK=20; NG=6; fi

# check NAME DECL ORACLE-ARGS...: the quotient DECL (binding q), then the
# outcome of every position the oracle lists, compared line by line
check() {
    name=$1 decl=$2
    shift 2
    "$BRUTE" "$@" > "$name.brute" || fail "$name: oracle"
    {
        echo 'game dk = octal 0.07; game kayles = octal 0.77; game dc = octal 0.137;'
        echo 'game nim = subtraction allbut {};'
        echo "$decl"
        echo 'print certified(q);'
        sed 's/^\(.*\) [PN]$/print outcome(q, \1).misere;/' "$name.brute"
    } > "$name.cgt"
    "$CGT" "$name.cgt" > "$name.out" 2> "$name.err" || fail "$name: cgt: $(head -3 "$name.err")"
    [ "$(head -1 "$name.out")" = true ] || fail "$name: not certified"
    sed 's/^.* \([PN]\)$/\1/' "$name.brute" > "$name.want"
    tail -n +2 "$name.out" > "$name.got"
    cmp -s "$name.want" "$name.got" || fail "$name: outcomes differ from mix_brute ($(diff "$name.want" "$name.got" | head -4))"
    echo "ok $name: $(wc -l < "$name.want") positions agree with mix_brute"
}

check dk_kayles 'quotient q = [dk, kayles] to [12, 9];' heaps "$TOK" 0.07:12 0.77:9
check dk_nim 'quotient q = [dk, nim] to [14, 5];' heaps "$TOK" 0.07:14 nim:5
check kayles_dc 'quotient q = [kayles, dc] to 8;' heaps "$TOK" 0.77:8 0.137:8
check set1 'quotient q = [*2, {0, {*}}, *2 + *3];' games "$NG" '*2' '{0, {*}}' '*2 + *3'
check set2 'quotient q = [{*2, {*}}, *3 + *1, {{*2}, 0}];' games "$NG" '{*2, {*}}' '*3 + *1' '{{*2}, 0}'

# one ruleset as a list is the ruleset's quotient; nim both ways
cat > alg.cgt <<'EOS'
game dk = octal 0.07;
game nim = subtraction allbut {};
quotient a = [dk] to 20;
quotient b = dk to 20;
print order(a) == order(b), pcount(a) == pcount(b), isomorphic(a, b) != false;
game kayles = octal 0.77;
c = quotient([dk, kayles], [20, 0]).q;
print order(c) == order(b), isomorphic(c, b) != false, [pretend(b)[h] for h in 1..20] == [outcome(c, [[h], []]).element for h in 1..20];
quotient n1 = [nim] to 7;
quotient n2 = [*7];
print order(n1), pcount(n1), order(n2), pcount(n2), isomorphic(n1, n2) != false;
save n2 "n2.json";
quotient m = [dk, nim] to [9, 3];
save m "m.json";
print load("m.json") == m, load("n2.json") == n2;
print outcome(load("m.json"), [[2], [1, 1]]).misere;
EOS
"$CGT" alg.cgt > alg.out 2> alg.err || fail "alg: $(cat alg.err)"
printf 'true true true\ntrue true true\n10 2 10 2 true\ntrue true\nP\n' > alg.want
cmp -s alg.want alg.out || fail "alg: $(cat alg.out)"
echo "ok [0.07] and [0.07, 0.77] to [20, 0] = Q(20) of 0.07, nim *1..*7 tame of order 10 both ways, save/load"

# edited files, re-sealed with the checksum of tests/scripts/crc64.py:
# every edit of the games, the bounds or the data is refused
"$CGT" -e 'game dk = octal 0.07; game k = octal 0.77; quotient q = [dk, k] to [6, 5];
           save q "m.json"; quotient e = [*2 + *2, {*3}]; save e "e.json";' > /dev/null ||
    fail "mutation setup"
PYTHONPATH=$here/tests/scripts python3 - <<'PY' || fail "mutation files"
import json
from crc64 import crc64
def load(path):
    raw = open(path, 'rb').read()
    return json.loads(raw[raw.index(b'"value": ') + 9:-2])
def seal(v, path):
    b = json.dumps(v).encode()
    open(path, 'wb').write(b'{"format": "cgt-result", "version": 1, "kind": "quotient",\n'
                           b' "crc64": "%016x",\n "value": ' % crc64(b) + b + b'}\n')
m, e = load('m.json'), load('e.json')
edits = []
x = json.loads(json.dumps(m)); x['to'] = [5, 6]; edits.append(x)
x = json.loads(json.dumps(m)); x['to'] = [6, 4]; edits.append(x)
x = json.loads(json.dumps(m)); del x['to']; edits.append(x)
x = json.loads(json.dumps(m)); x['game'] = x['game'][::-1]; edits.append(x)
x = json.loads(json.dumps(m)); x['game'][1]['code'] = '0.07'; x['game'][1]['name'] = '0.07'; edits.append(x)
x = json.loads(json.dumps(m)); x['game'] = []; x['to'] = []; edits.append(x)
x = json.loads(json.dumps(e)); x['to'] = [3]; edits.append(x)
x = json.loads(json.dumps(e)); x['game'] = x['game'][:1]; edits.append(x)
x = json.loads(json.dumps(e)); x['game'][0] = x['game'][1]; edits.append(x)
for v in (m, e):
    t = v['tables']
    for g in range(len(t['gen_act'])):
        for i in range(len(t['gen_act'][g])):
            x = json.loads(json.dumps(v))
            x['tables']['gen_act'][g][i] = (x['tables']['gen_act'][g][i] + 1) % v['order']
            edits.append(x)
    for i in range(len(t['phi'])):
        x = json.loads(json.dumps(v))
        x['tables']['phi'][i] = (x['tables']['phi'][i] + 1) % v['order']
        edits.append(x)
for i, x in enumerate(edits):
    seal(x, 'edit%d.json' % i)
PY
n=0 bad=0
for f in edit*.json; do
    n=$((n + 1))
    "$CGT" -e "x = load(\"$f\");" > /dev/null 2> l.err && { bad=$((bad + 1)); echo "loaded: $f"; }
done
[ $bad = 0 ] || fail "$bad of $n edited files loaded"
"$CGT" -e 'x = load("m.json"); y = load("e.json");' || fail "unedited files"
echo "ok $n edited files of a mixed and an explicit-set quotient refused"

# JSON of a mixed quotient lists its parts
"$CGT" --format=json -e 'game dk = octal 0.07; game k = octal 0.77; quotient [dk, k] to [4, 3];' > j.out ||
    fail "json"
grep -q '"parts":\[{"game":"0.07","heaps":4},{"game":"0.77","heaps":3}\]' j.out ||
    fail "json: $(cat j.out)"
echo "ok json"

# errors: file:line:col, exit 1
err() {
    "$CGT" -e "$1" > e.out 2> e.err
    rc=$?
    [ $rc = 1 ] || fail "exit $rc for: $1"
    grep -q "^<expr>:1:[0-9]*: error: $2" e.err || fail "message for: $1: $(cat e.err)"
}
err 'game dk = octal 0.07; quotient q = [dk, 3] to 4;' 'item 2 of the list is not a heap game (integer)'
err 'game dk = octal 0.07; quotient q = [dk, dk];' 'a quotient of several heap games needs a heap bound'
err 'game dk = octal 0.07; quotient q = [dk, dk] to [3];' '1 heap bounds for 2 games'
err 'quotient q = [*2] to 3;' 'a quotient of explicit games has no heap bound'
err 'game dk = octal 0.07; quotient q = [dk, dk] to 3; outcome q [1, 2, 3];' 'a position of a quotient of 2 heap games'
err 'game dk = octal 0.07; quotient q = [dk, dk] to 3; outcome q [1, 2];' 'item 1 of the position is not a list of heaps'
err 'game dk = octal 0.07; quotient q = [dk, dk] to 3; outcome q [[4], []];' ''
err 'quotient q = [*2]; outcome q [*3];' '\*3 is not a game of the closure'
err 'game dk = octal 0.07; quotient q = [dk, dk] to 3; ptypes q;' 'ptypes needs the quotient of one heap game'
err 'game dk = octal 0.07; quotient q = [dk] to 3 checkpoint "c";' '`checkpoint` is for the quotient of one heap game'
echo "ok errors"
