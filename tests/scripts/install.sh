#!/bin/sh
# make install / make uninstall: the binary, the man page
# cgt.1 generated from the builtin table, the docs and the examples under
# PREFIX; `man -l` renders the page (man-db comes from scripts/deps.sh; where
# man is absent the page's structure is checked instead, and this says so).
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-install.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
case "$CGT" in *valgrind*) echo "skipped under valgrind"; exit 0 ;; esac
P="$T/prefix"
rm -rf "$P"
# -o: install what the tier built; never rebuild it here (a relink without the
# tier's sanitizer flags would replace the binary the other tests run)
make -s --no-print-directory -o "$B/cgt" -o "$B/oracle/mnk_check" -o "$B/oracle/mq_infcheck" \
    install PREFIX="$P" BUILD="$B" \
    >"$T/inst.log" 2>&1 ||
    fail "make install: $(tail -5 "$T/inst.log")"
[ -x "$P/bin/cgt" ] || fail "no $P/bin/cgt"
# the two independent checkers: mnk_check (run by `mnk ... verify`) and
# mq_infcheck (named by an infinite quotient's output), and the installed
# mq_infcheck accepts the proof file the installed cgt writes
for x in mnk_check mq_infcheck; do
    [ -x "$P/libexec/cgt/$x" ] || fail "no $P/libexec/cgt/$x"
done
(cd "$T" && "$P/bin/cgt" -e 'game g = octal 0.76; quotient q = g to 12 proof "q.proof"; print q;') \
    >"$T/inf.out" 2>&1 || fail "infinite quotient: $(cat "$T/inf.out")"
grep -q "check it with \`mq_infcheck q.proof\`: PREFIX/libexec/cgt/mq_infcheck beside an installed cgt" "$T/inf.out" ||
    fail "the output does not name the installed checker: $(cat "$T/inf.out")"
"$P/libexec/cgt/mq_infcheck" "$T/q.proof" >"$T/chk.out" 2>&1 ||
    fail "installed mq_infcheck rejects the proof: $(cat "$T/chk.out")"
"$P/bin/cgt" --version | grep -q '^cgt ' || fail "installed cgt does not run"
man1="$P/share/man/man1/cgt.1"
[ -f "$man1" ] || fail "no $man1"
$CGT --man | cmp -s - "$man1" || fail "installed cgt.1 is not the one cgt --man prints"
for d in README.md docs/language.md docs/builtins.md docs/errors.md; do
    [ -f "$P/share/doc/cgt/$(basename "$d")" ] || fail "doc $d not installed"
done
for e in examples/*.cgt; do
    [ -f "$P/share/doc/cgt/examples/$(basename "$e")" ] || fail "example $e not installed"
done

# the page: every builtin and keyword has an entry
$CGT --builtins-markdown | sed -n 's/^### `\(.*\)`$/\1/p' >"$T/names"
while read -r n; do
    grep -q "^\.BR $n \" (" "$man1" || fail "cgt.1 has no entry for $n"
done <"$T/names"
for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" BUILTINS KEYWORDS; do
    grep -q "^\.SH $s\$" "$man1" || fail "cgt.1 has no section $s"
done
head -1 "$man1" | grep -q '^\.TH CGT 1 ' || fail "cgt.1 does not start with .TH"
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man --warnings -l "$man1" >"$T/man.out" 2>"$T/man.err" || fail "man -l: $(head -5 "$T/man.err")"
    [ -s "$T/man.err" ] && fail "man -l warns: $(head -5 "$T/man.err")"
    grep -q '^NAME' "$T/man.out" || fail "man -l output has no NAME"
    grep -q '^ *quotient (declaration' "$T/man.out" || fail "man -l output lacks the quotient entry"
    grep -q -- '--format=text|json' "$T/man.out" || fail "man -l output lacks the options"
else
    echo "man is not installed: the page's structure was checked, not its rendering"
fi

make -s --no-print-directory uninstall PREFIX="$P" BUILD="$B" >"$T/inst.log" 2>&1 ||
    fail "make uninstall: $(tail -5 "$T/inst.log")"
left=$(find "$P" -type f | head -5)
[ -z "$left" ] || fail "make uninstall left: $left"
[ -d "$P/share/doc/cgt" ] && fail "make uninstall left $P/share/doc/cgt"
rm -rf "$P"
echo ok
