#!/bin/sh
# One notation for words (docs/language.md): the same element is written
# `ab^2` by print q (Phi table), elements, pretend, product, outcome,
# rewriting, kb and reduce of the presentation print q shows (typed back),
# in text and JSON; the identity is `1` everywhere; every printed word
# reads back as itself (print -> parse round trip); the older spellings
# (`a b^2`, `ab2`, `e`) still read.  The oracle for the element is the
# quotient's own table read through a second route: the presentation that
# print q shows, typed back and completed by Knuth-Bendix, must have the
# same elements (as a set) and put `ab^2` where the quotient does.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-words.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
. tests/scripts/stop_lib

Q='game g = octal 0.75; quotient q = g to 12;'
"$CGT" -e "$Q print q; elements q; pretend q; rewriting q; product q \"ab\" \"b\"; outcome q [9];" \
    >"$T/text" 2>&1 || fail "text run: $(cat "$T/text")"
"$CGT" --format=json -e "$Q print q; elements q; rewriting q; product q \"ab\" \"b\";" \
    >"$T/json" 2>&1 || fail "json run: $(cat "$T/json")"

# the element phi(9) = ab^2 in every text form
grep -q '^     0: 1 .* ab^2$' "$T/text" || fail "print q Phi row 0: $(cat "$T/text")"
grep -q '^  1 a\* b ab b^2\* ab^2 c ac$' "$T/text" || fail "elements q"
grep -q '^   0: 1 a b a b c b c b ab^2$' "$T/text" || fail "pretend q"
grep -q '^ab \* b = ab^2$' "$T/text" || fail "product"
grep -q 'element ab^2 of Q(12)' "$T/text" || fail "outcome"
grep -q '^  P = {a, b^2}$' "$T/text" || fail "P-portion"
grep -q '^  a^2 -> 1$' "$T/text" || fail "rewriting rule with identity 1"
# JSON strings use the same words
grep -q '"phi":\["1","a","b","a","b","c","b","c","b","ab^2","b","ab^2","b"\]' "$T/json" ||
    fail "json phi: $(cat "$T/json")"
grep -qF '["1","a","b","ab","b^2","ab^2","c","ac"]' "$T/json" || fail "json elements"
grep -q '"value":"ab^2"' "$T/json" || fail "json product"
grep -q '\["a^2","1"\]' "$T/json" || fail "json rule"
# no other notation anywhere: no blank inside a word, no old [lhs,rhs] or e
if grep -q '"[a-z^0-9]* [a-z^0-9 ]*"' "$T/json"; then fail "json word with a blank"; fi
if grep -q '\[[a-z0-9]*,[a-z0-9]*\]\|\be\b\|[a-z][2-9]' "$T/text"; then
    fail "old notation in: $(grep '\[[a-z0-9]*,[a-z0-9]*\]\|\be\b\|[a-z][2-9]' "$T/text")"
fi

# print -> parse: the presentation print q shows, typed back as a semigroup
pres=$(sed -n 's/^  \(< .* >\)$/\1/p' "$T/text")
[ "$pres" = "< a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2 >" ] || fail "presentation: $pres"
cat >"$T/s.cgt" <<CGT
$Q
semigroup S = $pres;
kb S;
elements S;
reduce S "ab^2";
reduce S "a b^2";
reduce S "ab2";
reduce S "b a b";
reduce S "a^2";
reduce S "e";
# every element of q and of S reads back as itself
for w in elements(q) { check product(q, w, "1") == w; check reduce(S, w) == w; }
for w in elements(S) { check reduce(S, w) == w; }
check sort(elements(S)) == sort(elements(q));
check pretend(q)[9] == "ab^2" and reduce(S, pretend(q)[9]) == "ab^2";
check pretend(q)[0] == "1" and elements(q)[0] == "1" and reduce(S, "a^2") == "1";
check kb(S).rules == [["a^2", "1"], ["bc", "ab"], ["c^2", "b^2"], ["b^3", "b"]];
CGT
"$CGT" "$T/s.cgt" >"$T/s.out" 2>&1 || fail "semigroup round trip: $(cat "$T/s.out")"
cat >"$T/want" <<'OUT'
rewriting system of S: shortlex a<b<c, 4 rules, confluent
  a^2 -> 1
  bc -> ab
  c^2 -> b^2
  b^3 -> b
8 elements of S:
  1, a, b, c, ab, ac, b^2, ab^2
ab^2 -> ab^2
ab^2 -> ab^2
ab^2 -> ab^2
ab^2 -> ab^2
a^2 -> 1
1 -> 1
OUT
d=$(diff "$T/want" "$T/s.out") || fail "kb / elements / reduce of the typed-back presentation:
$d"
# the rules of kb S are those of rewriting q (same system, same notation)
sed -n '/^rewriting system of Q/,/^P\|^ab \*/p' "$T/text" | grep '^  .* -> ' >"$T/r1"
grep '^  .* -> ' "$T/s.out" >"$T/r2"
cmp -s "$T/r1" "$T/r2" || fail "rewriting q and kb S differ: $(cat "$T/r1") / $(cat "$T/r2")"

# the exponent binds to the generator before it (ab^2 is a b^2, not
# (ab)^2), in string rewriting and in commutative presentations alike
cpu_limit 20 $CGT -e 'monoid M = < a, b | ab^2 = ba, b^3 = 1 >; print kb(M).rules;
semigroup C = < a, b | ab^2 = 1 >; semigroup C2 = < a, b | a b b = 1 >;
semigroup C3 = < a, b | a b a b = 1 >;
print kb(C).rules == kb(C2).rules, kb(C).rules == kb(C3).rules;' >"$T/nc" 2>&1 ||
    fail "monoid: $(cat "$T/nc")"
grep -q '^\[\["ab^2", "ba"\], \["ba^2", "a^2b"\], \["bab", "a"\], \["b^2a", "ab"\], \["b^3", "1"\]\]$' \
    "$T/nc" || fail "monoid rules: $(cat "$T/nc")"
grep -q '^true false$' "$T/nc" || fail "ab^2 in a semigroup: $(cat "$T/nc")"
exit 0
