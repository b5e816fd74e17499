#!/bin/sh
# m,n,k results through the cgt statement, against the plain minimax solver
# tests/oracle/mnk_minimax.c (no shared code) and the published results
# (Hsu et al., docs/mnk.md); Breaker-win proofs written by `mnk ... proof` are verified by
# the independent checker tests/oracle/mnk_check.c.  7,7,5 runs in the slow
# tier only (CGT_SLOW=1).
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-mnk.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }

result() { # m n k [strong] -> maker|breaker|first|draw
    $CGT --format=json -e "mnk $*;" | sed -n 's/.*"result":"\([a-z]*\)".*/\1/p'
}

# published (Hsu et al.) and minimax
# (the plain minimax takes 6 minutes on 5,4,4 and 40 s on 4,4,4 strong, so
# those two are compared with it in the slow tier only)
for c in "3 3 3 maker" "4 3 3 maker" "4 4 3 maker" "4 4 4 breaker"; do
    set -- $c
    r=$(result "$1 $2 $3")
    [ "$r" = "$4" ] || fail "mnk $1 $2 $3: $r, published $4"
    o=$($B/oracle/mnk_minimax "$1" "$2" "$3" mb)
    [ "$o" = "$4" ] || fail "minimax $1 $2 $3: $o, published $4"
done
for c in "5 4 4 breaker" "5 5 4 maker" "5 5 5 breaker" "6 6 5 breaker"; do
    set -- $c
    r=$(result "$1 $2 $3")
    [ "$r" = "$4" ] || fail "mnk $1 $2 $3: $r, published $4"
done
for c in "3 3 3 draw" "4 3 3 first" "4 4 3 first" "4 4 4 draw" "5 4 4 draw" "5 5 4 draw" \
         "6 5 4 first"; do
    set -- $c
    r=$(result "$1 $2 $3 strong")
    [ "$r" = "$4" ] || fail "mnk $1 $2 $3 strong: $r, published $4"
    if [ "$1$2$3" = 333 ] || [ "$1$2$3" = 433 ] || [ "$1$2$3" = 443 ]; then
        o=$($B/oracle/mnk_minimax "$1" "$2" "$3" strong)
        [ "$o" = "$4" ] || fail "minimax strong $1 $2 $3: $o, published $4"
    fi
done

# proofs, checked independently
for c in "4 4 4" "5 4 4" "5 5 5" "6 6 5"; do
    $CGT -e "mnk $c proof \"$T/mnk.proof\";" >/dev/null || fail "mnk $c proof"
    $B/oracle/mnk_check "$T/mnk.proof" >"$T/chk" || fail "checker rejects the $c proof: $(cat "$T/chk")"
done
# a corrupted proof must be rejected: drop one line from the middle
$CGT -e "mnk 6 6 5 proof \"$T/mnk.proof\";" >/dev/null
n=$(wc -l <"$T/mnk.proof")
sed "$((n / 2))d" "$T/mnk.proof" >"$T/bad.proof"
if $B/oracle/mnk_check "$T/bad.proof" >/dev/null 2>&1; then fail "checker accepted a damaged proof"; fi

if [ -n "${CGT_SLOW:-}" ]; then
    [ "$($B/oracle/mnk_minimax 5 4 4 mb)" = breaker ] || fail "minimax 5 4 4"
    [ "$($B/oracle/mnk_minimax 4 4 4 strong)" = draw ] || fail "minimax strong 4 4 4"
    $CGT -e "mnk 7 7 5 proof \"$T/mnk775.proof\";" | grep -q 'breaker wins' || fail "7,7,5"
    $B/oracle/mnk_check "$T/mnk775.proof" >"$T/chk" || fail "7,7,5 proof: $(cat "$T/chk")"
fi
echo ok
