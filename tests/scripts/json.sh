#!/bin/sh
# --format=json: every stdout line of every example and of the golden
# scripts is one JSON object with a "kind" (checked by the standalone
# validator tests/oracle/jsonlines.c); slow-tier scripts are skipped.
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
T=${TMP:-/tmp}
for f in examples/*.cgt tests/golden/*/*.cgt; do
    # the slow tier's scripts (examples/survey.cgt: half a minute) are left out
    grep -q '^#@ tier: slow' "$f" && continue
    $CGT --format=json "$f" >"$T/j.out" 2>/dev/null
    $B/oracle/jsonlines <"$T/j.out" >"$T/j.res" || { echo "$f: $(cat "$T/j.res")"; exit 1; }
done
echo ok
