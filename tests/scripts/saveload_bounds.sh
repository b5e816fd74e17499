#!/bin/sh
# What `save` writes, `load` reads back; what load would refuse, save
# refuses first, with a limit error (exit 4) and no file written
# (docs/language.md "Saving results").  The bounds: nesting of 512 levels
# of JSON in the file (its own object is one; each list or record one more,
# a record whose first key is "$cgt" two, as {"$cgt": "map", "entries":
# {...}}), integers of 20 million digits, files of 512 MB, explicit games of
# 10^6 positions; no bound of their own on names, presentations or rules.
set -u
CGT=${CGT:-build/cgt}
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-saveload-bounds.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# ---- round trips of values at and inside the bounds ----
long=S$(printf 'x%.0s' $(seq 1 80))
rules=$(for i in $(seq 1 70); do printf 'take %d; ' "$i"; done)
cat >rt.cgt <<CGT
# integers of any length up to the bound (10^200000 has 200001 digits)
x = 10^200000;
save x "big.json";
check load("big.json") == x;
y = -(7^250000) - 1;
save y "neg.json";
check load("neg.json") == y;
# 510 nested lists: 511 levels of JSON in the value, 512 in the file
l = [];
for i in 1..510 { l = [l]; }
save l "deep.json";
check load("deep.json") == l;
# 255 nested records whose first key is "\$cgt": 2 * 255 + 1 levels, 512 in the file
r = {};
for i in 1..255 { r = {"\$cgt": r}; }
save r "deeprec.json";
check str(load("deeprec.json")) == str(r);
# a semigroup with a long name, and one whose presentation has a comment
semigroup $long = < x | x^2 = 1 >;
save $long "name.json";
check str(load("name.json")) == str($long);
semigroup C = < x, # a comment; with a semicolon
  z | x^2 = 1, z^3 = z > with P = {x};
save C "comment.json";
check str(load("comment.json")) == str(C);
# a game of 70 rules
game g = rules { $rules };
save g "rules.json";
check str(load("rules.json")) == str(g);
check grundy(load("rules.json"), 0..80) == grundy(g, 0..80);
print "done";
CGT
out=$($CGT rt.cgt 2>&1) || fail "round trips: $out"
[ "$out" = done ] || fail "round trips printed: $out"

# ---- past the bounds: save refuses, exit 4, nothing written ----
refuse() { # refuse NAME CODE MESSAGE
    $CGT -e "$2" >out 2>err
    rc=$?
    [ $rc -eq 4 ] || fail "$1: save exit $rc, expected 4 (limit): $(cat err)"
    grep -q "error: $3" err || fail "$1: message: $(cat err)"
    [ -e "$1.json" ] && fail "$1: a file was written"
    ls ./*.tmp 2>/dev/null && fail "$1: a temporary file was left"
    return 0
}
deep_msg="cannot save this list: the value is nested too deeply to save: its file would nest more than 512 levels of JSON arrays and objects, the most load reads"
refuse deep1 'l = []; for i in 1..511 { l = [l]; } save l "deep1.json";' "$deep_msg"
refuse deep2 'l = []; for i in 1..5000 { l = [l]; } save l "deep2.json";' "$deep_msg"
refuse deeprec2 'r = {}; for i in 1..256 { r = {"$cgt": r}; } save r "deeprec2.json";' \
    "cannot save this record: the value is nested too deeply to save"
# the catchable category of a refused save is limit
$CGT -e 'l = []; for i in 1..600 { l = [l]; } try { save l "x.json"; } catch (e) { print e.category; }' \
    >out 2>&1
[ "$(cat out)" = limit ] || fail "category: $(cat out)"
# a kind that cannot be saved stays a type error (exit 1)
$CGT -e 'fn f(x) { return x; } save f "f.json";' >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "function: exit $rc"
grep -q "cannot save this function" err || fail "function: $(cat err)"
echo ok
