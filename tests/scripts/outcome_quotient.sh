#!/bin/sh
# `outcome G [...]` through quotients (docs/misere.md, "Outcomes through
# the quotient"): the misère outcomes of every route against the
# brute-force search tests/oracle/mq_brute, which shares no code with cgt:
# - Q(m) computed on the spot and kept: every position of 0.07 with at
#   most 20 tokens (2713 positions), in one fresh script;
# - a trial below its least failure: positions with heap 34 of 0.07 (whose
#   Q(34) is infinite) and with heap 14 of 0.127 (whose expansion of heap
#   14 does not close), each in a fresh script, and one position past the
#   budget, searched;
# - a proved infinite description: Q(12) of 0.76 in the script, every
#   position with heaps up to 12 and at most 22 tokens;
# - a loaded quotient: Q(20) of 0.77 saved, loaded in another run;
# and the acceptance position [25, 34, 34, 30, 30] of 0.07 in a fresh
# script within 10 s of CPU and 1 GB (ulimit), where the search alone
# does not end.  Each run's misere_by says which route answered.
set -u
CGT=${CGT:-build/cgt}
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-oq.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
here=$(pwd)
case $CGT in /*) ;; *) CGT=$here/$CGT ;; esac
BRUTE=$here/$BUILD/oracle/mq_brute
cd "$T" || exit 1

# positions as lines of heap sizes: every multiset of heaps 1..maxh with
# at most tot tokens (the empty position left out)
parts() {
    python3 - "$1" "$2" <<'PY'
import sys
maxh, tot = int(sys.argv[1]), int(sys.argv[2])
def gen(rest, top):
    yield []
    for h in range(min(top, rest), 0, -1):
        for p in gen(rest - h, h):
            yield [h] + p
for p in gen(tot, maxh):
    if p:
        print(" ".join(map(str, p)))
PY
}

# run CODE SETUP FILE: outcome of every position of FILE in one script;
# prints misere and misere_by per line
run() {
    {
        echo "game g = octal $1; $2"
        sed 's/ /, /g; s/^/r = outcome(g, [/; s/$/]); print r.misere, r.misere_by;/' "$3"
    } >run.cgt
    "$CGT" run.cgt >run.out 2>run.err || fail "$1: cgt: $(head -3 run.err)"
    cut -d' ' -f1 run.out >run.res
    "$BRUTE" "$1" <"$3" >run.bf || fail "$1: brute force failed"
    [ "$(wc -l <run.res)" -eq "$(wc -l <"$3")" ] || fail "$1: $(wc -l <run.res) answers"
    if ! cmp -s run.res run.bf; then
        paste -d' ' "$3" run.res run.bf | awk '$(NF-1) != $NF' | head -5
        fail "$1 ($2): outcomes disagree with the brute force"
    fi
}

# Q(m) on the spot, then kept
parts 20 20 >p07.pos
[ "$(wc -l <p07.pos)" -eq 2713 ] || fail "expected 2713 positions, got $(wc -l <p07.pos)"
run 0.07 "" p07.pos
grep -q ' Q(20) of 0.07$' run.out || fail "0.07: no answer from Q(20): $(sort -u -k2 run.out | head -3)"
grep -q ' search$' run.out && fail "0.07: a position was searched"

# trials below their least failure, fresh scripts
for code_pos in "0.07:34" "0.07:34 1" "0.07:34 2" "0.07:34 34" "0.07:34 4 4" "0.07:34 30" \
    "0.07:34 25" "0.07:34 34 2" "0.127:14" "0.127:14 3" "0.127:14 11 2"; do
    code=${code_pos%%:*}
    echo "${code_pos#*:}" >one.pos
    run "$code" "" one.pos
    grep -q ' the trial of heap [0-9]*, correct below its least failure ' run.out ||
        fail "$code ${code_pos#*:}: not from a trial: $(cat run.out)"
done

# past the budget (trials of heap 14 of 0.127 pass 16,384 elements before
# a least failure with two heaps 14): searched
echo "14 14" >one.pos
run 0.127 "" one.pos
grep -q ' search$' run.out || fail "0.127 14 14: not searched: $(cat run.out)"

# the proved description of an infinite quotient in the script
parts 12 22 >p76.pos
run 0.76 "quotient q = g to 12;" p76.pos
grep -q ' the proved description of the infinite Q(12) of 0.76$' run.out ||
    fail "0.76: not from the description: $(sort -u -k2 run.out | head -3)"
grep -vq ' the proved description of the infinite Q(12) of 0.76$' run.out &&
    fail "0.76: some positions not from the description"

# a loaded quotient
"$CGT" -e 'game g = octal 0.77; quotient q = g to 20; save q "q77.json";' >/dev/null 2>&1 ||
    fail "save"
parts 20 16 >p77.pos
run 0.77 'q = load("q77.json");' p77.pos
grep -vq ' Q(20) of 0.77$' run.out && fail "0.77: not from the loaded Q(20)"

# the acceptance position, fresh, within 10 s of CPU and 1 GB
(ulimit -v 1048576 -t 10; "$CGT" --format=json -e 'game dk = octal 0.07;
print outcome(dk, [25, 34, 34, 30, 30]);') >acc.json 2>acc.err ||
    fail "acceptance position: $(head -3 acc.err)"
python3 - acc.json <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
if r.get("misere") not in ("P", "N") or "trial of heap 34" not in (r.get("misere_by") or ""):
    print("FAIL: acceptance record %s" % r)
    sys.exit(1)
PY
echo ok
