#!/bin/sh
#@ tier: slow
# The caps of docs/language.md and docs/misere.md are reached and give
# limit errors (exit 4), not "out of memory": the text of one value stops
# at 1 GiB, a save file at 512 MB (the most load reads), and the store of
# explicit games at 2^28 option entries.  Each case needs about 1 GB of
# memory and 5-20 s.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-value-caps.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
. tests/scripts/stop_lib

lim=3000000
[ -n "${SANITIZED:-}" ] && lim=unlimited # ASan reserves terabytes of address space
capped() { # what message code
    (ulimit -v $lim; cpu_exec 300 $CGT -e "$3") >/dev/null 2>"$T/e"; rc=$?
    [ $rc -eq 4 ] || fail "$1: exit $rc, expected 4 ($(head -c 300 "$T/e"))"
    grep -q "$2" "$T/e" || fail "$1: $(head -c 300 "$T/e")"
}

mk='r = [0]; i = 0; while i < 40 { r = [r, r]; i += 1; }'
capped "str" "the text would pass 1073741824 bytes" "$mk x = str(r);"
capped "save" "its file would take more than the 512 MB load reads" "$mk save r \"$T/r.json\";"
[ ! -e "$T/r.json" ] || fail "a refused save wrote its file"
capped "explicit sum" "more than 268435456 options in all" 'x = *100000 + *1;'
echo ok
