#!/bin/sh
# The statement and the function form of a builtin give the same value
# (docs/language.md "Results as records"): for every builtin that has both
# forms in the builtin table (as `help` lists it under --format=json),
# tests/forms/cases holds at least one call, and under --format=json the
# statement prints what `print` prints for the function's value, but for
# the wall-clock fields (mnk's seconds and ms)
# (a statement whose value is null prints nothing).  A case whose function
# call is `-` is a statement without a function form, whose record's
# fields are checked alone.
set -u
CGT=${CGT:-build/cgt}
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
CASES=$PWD/tests/forms/cases
DOCS=$PWD/docs/language.md
T=$(mktemp -d "${TMPDIR:-/tmp}/forms.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
bad=0
"$CGT" --format=json -e 'help;' >help.json || { echo "FAIL: help"; exit 1; }
python3 - help.json >both <<'PY' || { echo "FAIL: help JSON"; exit 1; }
import json, sys
for b in json.load(open(sys.argv[1]))["builtins"]:
    if b["statement"] and b["function"]:
        print(b["name"])
PY
[ -s both ] || { echo "FAIL: no builtin has both forms"; exit 1; }
for name in $(cat both); do
    grep -q "^$name :: " "$CASES" || { echo "FAIL: $name has both forms but no case in tests/forms/cases"; bad=1; }
done
n=0
while IFS= read -r line; do
    case $line in '#'* | '') continue ;; esac
    name=${line%% :: *}
    rest=${line#* :: }
    setup=${rest%% :: *}
    rest=${rest#* :: }
    stmt=${rest%% :: *}
    func=${rest#* :: }
    d=$T/case$n
    n=$((n + 1))
    mkdir -p "$d/s" "$d/f"
    setup=$(printf '%s' "$setup" | sed "s|\\\$TMP|$d/s|g")
    s=$(printf '%s' "$stmt" | sed "s|\\\$TMP|$d/s|g")
    fsetup=$(printf '%s' "${line#* :: }" | sed 's/ :: .*//' | sed "s|\\\$TMP|$d/f|g")
    f=$(printf '%s' "$func" | sed "s|\\\$TMP|$d/f|g")
    "$CGT" --format=json -e "$setup $s" >"$d/stmt.out" 2>"$d/stmt.err"
    rs=$?
    if [ "$func" = "-" ]; then
        # a statement without a function form: only its record's fields
        # are checked (below)
        "$CGT" --format=json -e "$setup $s" >"$d/stmt.out" 2>"$d/stmt.err" ||
            { echo "FAIL: $name: exit $?"; bad=1; }
        continue
    fi
    "$CGT" --format=json -e "$fsetup print $f;" >"$d/func.out" 2>"$d/func.err"
    rf=$?
    if [ $rs -ne 0 ] || [ $rf -ne 0 ]; then
        echo "FAIL: $name: exit $rs (statement) and $rf (function)"
        cat "$d/stmt.err" "$d/func.err" | head -5
        bad=1
    elif [ ! -s "$d/stmt.out" ]; then
        # a statement whose value is null prints nothing
        if [ "$(cat "$d/func.out")" != '{"kind":"null"}' ]; then
            echo "FAIL: $name: the statement printed nothing, the function gave $(head -c 200 "$d/func.out")"
            bad=1
        fi
    elif ! python3 -c '
import json, sys
# the wall-clock fields of a record (mnk: seconds, ms) differ from run to
# run; every other field must be the same
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in ("seconds", "ms")}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
a, b = ([strip(json.loads(l)) for l in open(f) if l.strip()] for f in sys.argv[1:3])
sys.exit(a != b)' "$d/stmt.out" "$d/func.out"; then
        echo "FAIL: $name: '$stmt' and 'print $func' differ under --format=json"
        echo "  statement: $(head -c 400 "$d/stmt.out")"
        echo "  function:  $(head -c 400 "$d/func.out")"
        bad=1
    fi
done <"$CASES"
[ $n -gt 0 ] || { echo "FAIL: no cases"; exit 1; }
# the fields of every result record are those the table of
# docs/language.md ("Results as records") gives for its kind, in order
cat "$T"/case*/stmt.out >all.json
python3 - "$DOCS" all.json <<'PY' || bad=1
import json, re, sys
table = {}
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"\| `([a-z_]+)` \| [^|]* \| (.*) \|$", line.strip())
    if m:
        variants = []
        for part in m.group(2).split(";"):
            variants.append(re.findall(r"`([a-z_0-9]+)`", part))
        table[m.group(1)] = variants
if not table:
    print("FAIL: no kinds table in docs/language.md")
    sys.exit(1)
seen, ok = set(), True
for line in open(sys.argv[2], encoding="utf-8"):
    obj = json.loads(line)
    kind = obj.get("kind")
    if kind not in table:
        continue
    seen.add(kind)
    keys = list(obj)[1:]
    if keys not in table[kind]:
        print("FAIL: a %s record has the fields %s, docs/language.md says %s" % (kind, keys, table[kind]))
        ok = False
sys.exit(0 if ok else 1)
PY
[ $bad -eq 0 ] && echo ok
exit $bad
