#!/bin/sh
# The peers' table measured side by side: cgt's bench driver against the two
# public octal solvers built on this machine, outside the repository (how:
# docs/dev/performance-rounds.md, "Side by side with the peers"):
#   TZ=DIR   T. Czajka's octal-games, the "old" C++ analyze: DIR/analyze (runs
#            until it proves a period at a power of two) and DIR/analyze_1e6,
#            DIR/analyze_1e7 (the same source with maxn = 10^6, 10^7);
#   RG=FILE  T. Rogalski's octal (Rust, default features): `octal CODE N 0`
#            computes G(0..N) and checks for a period once, at the end, so a
#            period row gives it the least N that proves the known period,
#            2 * preperiod + 2 * period + digits (its own condition).
# Usage: TZ=... RG=... sh bench/games/peers.sh [BUILD]
#   ROUNDS=R  rounds (default 3): the solvers of a row run one after the
#             other, round after round, and the table gives each one's least
#             user+sys CPU time (the machine's speed drifts by 20-40% from
#             minute to minute, so only runs close in time are compared);
#   QUICK=1   only the rows under a few seconds; TIMEOUT=S per run (600).
# Either peer may be missing (its column then says "-").  The last column is
# cgt / fastest peer; the goal is at most 0.33.
set -u
B=${1:-${BUILD:-build}}
ROUNDS=${ROUNDS:-3}
TIMEOUT=${TIMEOUT:-600}
TZ=${TZ:-}
RG=${RG:-}
X="$B/grundy_bench"
[ -x "$X" ] || cc -std=c11 -O2 -Isrc -I. -o "$X" bench/games/grundy_bench.c "$B/libcore.a" -lgmp -lm -lpthread
tf=$(mktemp "${TMPDIR:-/tmp}/cgt-peers.XXXXXX")
trap 'rm -f "$tf"' EXIT

# CPU seconds (user + sys) of one run, "timeout" or "failed"
cpu() {
    /usr/bin/time -f '%U %S' -o "$tf" timeout "$TIMEOUT" "$@" >/dev/null 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
        awk 'END { printf "%.2f", $1 + $2 }' "$tf"
    elif [ $rc -eq 124 ]; then
        echo timeout
    else
        echo failed
    fi
}

# least of a list of times (words "timeout"/"failed" lose to any number)
least() {
    printf '%s\n' "$@" | awk '$1 ~ /^[0-9.]+$/ { if (b == "" || $1 < b) b = $1 }
        $1 !~ /^[0-9.]+$/ && w == "" { w = $1 }
        END { if (b != "") print b; else if (w != "") print w; else print "-" }'
}

# row LABEL CGTARGS TZCMD RGCMD (a command "-": that peer skips the row)
row() {
    label=$1 cargs=$2 tzc=$3 rgc=$4
    c="" t="" r=""
    i=0
    while [ $i -lt "$ROUNDS" ]; do
        # shellcheck disable=SC2086
        c="$c $(cpu "$X" $cargs)"
        if [ -n "$TZ" ] && [ "$tzc" != - ]; then
            # shellcheck disable=SC2086
            t="$t $(cpu $tzc)"
        fi
        if [ -n "$RG" ] && [ "$rgc" != - ]; then
            # shellcheck disable=SC2086
            r="$r $(cpu $rgc)"
        fi
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    cb=$(least $c) tb=$(least $t) rb=$(least $r)
    awk -v l="$label" -v c="$cb" -v t="$tb" -v r="$rb" 'BEGIN {
        f = ""
        if (t ~ /^[0-9.]+$/) f = t
        if (r ~ /^[0-9.]+$/ && (f == "" || r + 0 < f + 0)) f = r
        q = (f != "" && c ~ /^[0-9.]+$/ && f > 0) ? sprintf("%.2f", c / f) : "-"
        printf "| %s | %s | %s | %s | %s |\n", l, t, r, c, q }'
}

echo "side by side, least user+sys CPU seconds of $ROUNDS rounds (tz: ${TZ:-none}, rg: ${RG:-none})"
echo "| run | tz | rg | cgt | cgt / fastest |"
echo "|---|---|---|---|---|"
row "period 0.56" "period 0.56 10000000" "$TZ/analyze 0.56" "$RG 0.56 653570 0"
row "period 0.16" "period 0.16 10000000" "$TZ/analyze 0.16" "$RG 0.16 509622 0"
row "0.6 to 10^6" "values 0.6 1000000" "$TZ/analyze_1e6 0.6" "$RG 0.6 1000000 0"
row "0.106 to 10^7" "values 0.106 10000000" "$TZ/analyze_1e7 0.106" -
if [ -z "${QUICK:-}" ]; then
    ROUNDS=1
    row "period 0.354" "period 0.354 100000000" "$TZ/analyze 0.354" "$RG 0.354 20126195 0"
    row "period 0.376" "period 0.376 100000000" "$TZ/analyze 0.376" "$RG 0.376 4536507 0"
    row "0.6 to 10^7" "values 0.6 10000000" "$TZ/analyze_1e7 0.6" "$RG 0.6 10000000 0"
    row "0.14 to 10^7" "values 0.14 10000000" "$TZ/analyze_1e7 0.14" "$RG 0.14 10000000 0"
fi
echo "(rg is not run on 0.106: it does not fold heap parity into its classes, half of"
echo " 0.106's values are then rare, and it runs in about quadratic time)"
