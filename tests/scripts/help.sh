#!/bin/sh
# help: every keyword has help; `help` lists one line per builtin
# grouped by module; help text is wrapped to the width ($COLUMNS when stdout
# is not a terminal); documents named in help texts exist.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-help.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }

# every keyword of the lexer
kws=$(sed -n 's/^"\([a-z]*\)" *{ return [A-Z]*; }$/\1/p' src/lang/lexer.l)
[ -n "$kws" ] || fail "no keywords found in src/lang/lexer.l"
for k in $kws; do
    out=$($CGT -e "help $k" 2>&1) || fail "help $k: $out"
    printf '%s\n' "$out" | head -1 | grep -q "^$k (keyword)$" || fail "help $k: $out"
done
# a keyword after help in the middle of a script, and help as a statement in a block
out=$($CGT -e 'x = 1; if x == 1 { help for; }' 2>&1) || fail "help in a block: $out"
printf '%s\n' "$out" | grep -q "^for (keyword)" || fail "help in a block: $out"

# one line per builtin, under its module's heading
$CGT --builtins-markdown >"$T/bm.md"
nb=$(grep -c '^### ' "$T/bm.md")
$CGT -e help >"$T/help.out" || fail "help exit"
for name in $(sed -n 's/^### `\(.*\)`$/\1/p' "$T/bm.md"); do
    [ "$(grep -c "^  $name  " "$T/help.out")" = 1 ] || fail "help: no single line for $name"
done
nl=$(sed "/^Keywords/,\$d" "$T/help.out" | grep -c "^  [a-z]")
[ "$nl" -eq "$nb" ] || fail "help: $nl builtin lines, $nb builtins"
for h in $(sed -n 's/^## //p' "$T/bm.md" | tr ' ' '_'); do
    grep -qx "$(echo "$h" | tr '_' ' ')" "$T/help.out" || fail "help: no heading '$h'"
done

# wrapped to the width
for w in 60 100; do
    for name in quotient verify help mnk kb; do
        COLUMNS=$w $CGT -e "help $name" >"$T/h.out" || fail "help $name exit"
        long=$(awk -v w="$w" 'length($0) > w && $0 !~ /^    / { print }' "$T/h.out" | head -3)
        [ -z "$long" ] || fail "help $name at width $w: $long"
    done
    COLUMNS=$w $CGT -e help >"$T/h.out"
    long=$(awk -v w="$w" 'length($0) > w { print }' "$T/h.out" | head -3)
    [ -z "$long" ] || fail "help list at width $w: $long"
done

# documents named in help texts are real files of the repository
for name in $(sed -n 's/^### `\(.*\)`$/\1/p' "$T/bm.md"); do
    for ref in $($CGT -e "help $name" | grep -o '[A-Za-z_/.-]*\.md' | sort -u); do
        [ -f "$ref" ] || fail "help $name names $ref, which does not exist"
    done
done

# a summary is the doc's first sentence: an abbreviation's period ("ONAG
# ch. 12", "e.g. 16x16", "Hsu et al.") ends no sentence
$CGT --format=json -e help >"$T/help.json" || fail "help json exit"
python3 - "$T/help.json" <<'PY' || fail "help summaries cut at an abbreviation"
import json, re, sys
r = json.load(open(sys.argv[1]))
bad = [b["name"] + ": " + b["summary"] for b in r["builtins"]
       if re.search(r"(\bch|e\.g|i\.e|\bal|\bcf|\bvol)$", b["summary"])]
s = {b["name"]: b["summary"] for b in r["builtins"]}
if "ONAG ch. 12" not in s["misere_value"]:
    bad.append("misere_value: " + s["misere_value"])
for line in bad:
    print(line)
sys.exit(1 if bad else 0)
PY
echo ok
