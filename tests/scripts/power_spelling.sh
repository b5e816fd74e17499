#!/bin/sh
# `**` is not an operator (docs/language.md "Lexical rules": powers are
# `^`, as in PARI/GP): with any blanks around or inside it, between
# numbers or names, it is the syntax error "there is no ** operator" whose
# hint names `^` (exit 3, nothing runs), never a type error about games;
# `2 * (*3)`, a product with a parenthesised nim heap, stays the evaluator's
# type error.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-power.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }

for code in '2**3' '2 ** 3' '2 **3' '2** 3' 'a ** b' '2 * *3' '2 * * 3' 'a	*  *b' \
            'a *
*b'; do
    printf 'print "ran";\na = 2;\nb = 3;\nprint %s;\n' "$code" >"$T/p.cgt"
    $CGT "$T/p.cgt" >"$T/out" 2>"$T/err"
    rc=$?
    [ $rc -eq 3 ] || fail "'$code': exit $rc, expected 3"
    [ -s "$T/out" ] && fail "'$code': something ran: $(cat "$T/out")"
    grep -q "error: there is no \*\* operator" "$T/err" || fail "'$code': message: $(cat "$T/err")"
    grep -q "^hint: powers are written ^, as in 2^3" "$T/err" || fail "'$code': hint: $(cat "$T/err")"
    grep -q "games can only" "$T/err" && fail "'$code': a game error: $(cat "$T/err")"
done
out=$($CGT -e 'print 2^3, 2 * 3, 2 *3, *2 + *2 == 0' 2>&1) || fail "plain products: $out"
[ "$out" = "8 6 6 false" ] || fail "plain products: $out"
$CGT -e 'print 2 * (*3)' >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "2 * (*3) exit"
grep -q "games can only be added" "$T/err" || fail "2 * (*3): $(cat "$T/err")"
echo "power spelling: ok"
