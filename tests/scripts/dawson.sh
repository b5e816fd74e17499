#!/bin/sh
# Dawson's claims computed two independent ways must agree row by row:
# outcomes read off the certified quotient Q(30) of 0.137, and outcomes
# from the direct memoised search alone (quotient 0).  Also the published
# refutations (Plambeck's note, 2005): n = 32, pawns 5 and 11 lose; n = 43, the central
# pawn (22) wins.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-dawson.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
$CGT -e 'dawson 1..44;' | grep -E '^ +[0-9]+  [PN]' >"$T/dq" || exit 1
$CGT -e 'dawson 1..44 quotient 0;' | grep -E '^ +[0-9]+  [PN]' >"$T/ds" || exit 1
[ "$(wc -l <"$T/dq")" -eq 44 ] || { echo "expected 44 rows"; exit 1; }
diff "$T/dq" "$T/ds" || { echo "quotient and search disagree"; exit 1; }
grep -q '^ *32  N\*     N     REFUTED (claim 2): losing pawns 5, 11, 22, 28$' "$T/dq" ||
    { echo "n = 32 refutation missing"; exit 1; }
grep -q '^ *43  P      N     REFUTED: winning pawn 22$' "$T/dq" ||
    { echo "n = 43 refutation missing"; exit 1; }
echo ok
