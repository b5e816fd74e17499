#!/bin/sh
# `ptypes` (the genus of each P-type's least position, read partly off
# quotients with nim heaps adjoined, src/lib/misere/mqgenus.c) against the
# independent oracle tests/oracle/genus_brute.c (no shared code; it searches
# P + k*2 by the definition, ONAG ch. 12): every type of Q(9), Q(24) and
# Q(25) of 0.07 and of Q(12) of 0.137 and 0.4 whose least position has at
# most 40 tokens; in the slow tier also Q(27) and Q(30) of 0.07, up to 56
# tokens.  And the note's genera of the five types of Q(24) of 0.07.  In
# the slow tier, the 109 rows of Q(33) of 0.07, Q(32) of 0.137 and Q(34) of
# 0.4 (about 6 s of CPU each) against tests/data/ptypes-0.07-33.out, the
# rows of the earlier search that found each γk on its own (a regression
# check: the oracle reaches only the smaller types; the three quotients
# have the same types, and each gets the same genus).
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
O=$B/oracle/genus_brute
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-ptypes.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$O" ] || fail "no $O (make all builds it)"

cases="0.07:9 0.07:24 0.07:25 0.137:12 0.4:12"
max=40
if [ -n "${CGT_SLOW:-}" ]; then
    cases="$cases 0.07:27 0.07:30"
    max=56
fi
n=0
for c in $cases; do
    code=${c%%:*} heap=${c#*:}
    $CGT --format=json -e "game g = octal $code; quotient q = g to $heap; ptypes q;" >"$T/json" ||
        fail "cgt ptypes $code to $heap"
    # one line per type: genus, then the heaps of its least position
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["types"]:
    if sum(t["position"]) <= int(sys.argv[2]):
        print(t["genus"], " ".join(str(h) for h in t["position"]))
' "$T/json" "$max" >"$T/rows" || fail "reading the JSON of $code to $heap"
    [ -s "$T/rows" ] || fail "$code to $heap: no type to check"
    cut -d' ' -f2- "$T/rows" | sed 's/^[^0-9]*$/0/' >"$T/pos"
    "$O" "$code" <"$T/pos" >"$T/want" || fail "oracle on the types of $code to $heap"
    cut -d' ' -f1 "$T/rows" >"$T/got"
    if ! cmp -s "$T/want" "$T/got"; then
        line=$(paste "$T/want" "$T/got" | awk '$1 != $2 { print NR; exit }')
        fail "$code to $heap [$(sed -n "${line}p" "$T/pos")]: oracle $(sed -n "${line}p" "$T/want"), ptypes $(sed -n "${line}p" "$T/got")"
    fi
    n=$((n + $(wc -l <"$T/rows")))
done

# the note: the types of Q(24) of 0.07 and their genera
$CGT -e 'game dk = octal 0.07; quotient q = dk to 24 names "x z w v"; ptypes q;' >"$T/note" ||
    fail "cgt on the note's Q(24)"
cat >"$T/note_want" <<'OUT'
P-position types of Q(24) of 0.07 (5):
  x          genus 1^031
  z^2        genus 0^02
  xw         genus 2^0520
  xv         genus 5^057
  xwv        genus 6^064
OUT
cmp -s "$T/note" "$T/note_want" || fail "the note's genera of Q(24): $(cat "$T/note")"
large=
if [ -n "${CGT_SLOW:-}" ]; then
    for c in 0.07:33 0.137:32 0.4:34; do
        code=${c%%:*} heap=${c#*:}
        $CGT -e "game g = octal $code; quotient q = g to $heap; ptypes q;" >"$T/large" ||
            fail "cgt ptypes $code to $heap"
        [ "$(head -n 1 "$T/large")" = "P-position types of Q($heap) of $code (109):" ] ||
            fail "$code to $heap: $(head -n 1 "$T/large")"
        tail -n +2 "$T/large" >"$T/large_rows"
        tail -n +2 tests/data/ptypes-0.07-33.out | cmp -s - "$T/large_rows" ||
            fail "$code to $heap: rows differ from tests/data/ptypes-0.07-33.out"
    done
    large="; the 109 rows of Q(33) of 0.07, Q(32) of 0.137, Q(34) of 0.4"
fi
echo "genus of $n P-type representatives agrees with tests/oracle/genus_brute; the note's Q(24) genera$large"
