#!/bin/sh
# --format=json: every stdout line of every example and of the golden
# scripts is one JSON object with a "kind" (checked by the standalone
# validator tests/oracle/jsonlines.c); slow-tier scripts are skipped.
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-json.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
root=$(pwd)
case $CGT in /*) ;; *) CGT=$root/$CGT ;; esac
i=0
for f in examples/*.cgt tests/golden/*/*.cgt; do
    # the slow tier's scripts (examples/survey.cgt: half a minute) are left out
    grep -q '^#@ tier: slow' "$f" && continue
    # each in a directory of its own, as tests/run runs them (the files a
    # script writes go there; the tree's folders are seen through links)
    i=$((i + 1))
    d=$T/run.$i
    mkdir "$d" && for l in tests examples docs; do ln -s "$root/$l" "$d/$l"; done
    (cd "$d" && $CGT --format=json "$f") >"$T/j.out" 2>/dev/null
    rm -rf "$d"
    $B/oracle/jsonlines <"$T/j.out" >"$T/j.res" || { echo "$f: $(cat "$T/j.res")"; exit 1; }
done
echo ok
