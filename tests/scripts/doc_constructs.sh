#!/bin/sh
# Every construct of the language has a tested example in docs/language.md
# (its promise, and README.md's): the examples that `make check` runs (a
# ```cgt block followed by an ```output block) are parsed with the census
# hook CGT_TEST_CONSTRUCTS (docs/testing.md), and every form the census
# names (CGT_TEST_CONSTRUCTS=all: each statement, operator, assignment
# target and op=, literal, call and command shape) must occur in one of
# them, and so must every builtin the page writes as `NAME(` or `NAME ...`
# in its text as a call `NAME(` or a statement `NAME ARG`.  A few uses that the page promises by name are required
# with their arity (sort with a key, count with a function) and pages
# other than language.md must show their own statements (docs/gp.md:
# `ga`).  The census itself names no form outside its catalogue on any
# script of tests/golden and examples.  Prints what is missing.
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-doc-constructs.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
case $CGT in /*) ;; *) CGT=$(pwd)/$CGT ;; esac

# the tested examples of a page, one file each (as tests/run splits them)
tested() {
    rm -rf "$T/ex" && mkdir "$T/ex"
    awk -v dir="$T/ex" '
        /^```cgt[ ]*$/      { n++; f = dir "/doc." n ".cgt"; mode = 1; printf "" > f; next }
        /^```output[ ]*$/   { f = dir "/doc." n ".exp"; mode = 2; printf "" > f; next }
        /^```/ && mode      { close(f); mode = 0; next }
        mode                { print >> f }
    ' "$1"
    for ex in "$T"/ex/doc.*.cgt; do
        [ -f "${ex%.cgt}.exp" ] && echo "$ex"
    done
}

census() {
    # shellcheck disable=SC2046
    CGT_TEST_CONSTRUCTS=1 "$CGT" --check $(tested "$1") 2>"$T/census.raw" >/dev/null ||
        { echo "FAIL: the tested examples of $1 do not parse"; cat "$T/census.raw"; exit 1; }
    sed -n 's/^construct: //p' "$T/census.raw" | sort -u
}

CGT_TEST_CONSTRUCTS=all "$CGT" --check -e '' 2>"$T/all.raw" >/dev/null ||
    { echo "FAIL: catalogue"; exit 1; }
sed -n 's/^construct: //p' "$T/all.raw" >"$T/all"
[ "$(wc -l <"$T/all")" -ge 60 ] || { echo "FAIL: the catalogue is too short"; exit 1; }
census docs/language.md >"$T/lang"
"$CGT" --format=json -e 'help;' >"$T/help.json" || { echo "FAIL: help"; exit 1; }
census docs/gp.md >"$T/gp"
# the census names nothing outside its catalogue on any script of the tree
# shellcheck disable=SC2046
CGT_TEST_CONSTRUCTS=1 "$CGT" --check $(find tests/golden examples -name '*.cgt' | sort) \
    2>"$T/tree.raw" >/dev/null || { echo "FAIL: the tree's scripts do not parse"; exit 1; }
sed -n 's/^construct: //p' "$T/tree.raw" | sort -u |
    grep -v -e '^call ' -e '^command ' -e '^declaration ' >"$T/tree"
if ! sort -u "$T/all" | comm -23 "$T/tree" - >"$T/stray" || [ -s "$T/stray" ]; then
    echo "FAIL: the census names forms that its catalogue lacks:"
    cat "$T/stray"
    exit 1
fi

python3 - "$T/all" "$T/lang" "$T/help.json" docs/language.md "$T/gp" <<'PY'
import json, re, sys
catalogue = [l.rstrip("\n") for l in open(sys.argv[1])]
have = set(l.rstrip("\n") for l in open(sys.argv[2]))
builtins = [b["name"] for b in json.load(open(sys.argv[3]))["builtins"]]
page = open(sys.argv[4], encoding="utf-8").read()
gp = set(l.rstrip("\n") for l in open(sys.argv[5]))
# the prose, without the code blocks
prose = re.sub(r"```.*?```", "", page, flags=re.S)
missing = [c for c in catalogue if c not in have]
used = set()
for c in have:
    m = re.match(r"(call|command|declaration) ([A-Za-z_0-9]+)", c)
    if m:
        used.add(m.group(2))
named = []
for b in builtins:
    # written as a call `NAME(...)` or as a statement `NAME ARG ...`
    if re.search(r"`%s\(" % re.escape(b), prose) or re.search(r"`%s [^`]+`" % re.escape(b), prose):
        named.append(b)
        if b not in used:
            missing.append("builtin " + b)
for c in ("call sort/2", "call count/2"):
    if c not in have:
        missing.append(c)
gp_missing = [c for c in ("call ga/2",) if c not in gp]
for c in missing:
    print("docs/language.md has no tested example of: %s" % c)
for c in gp_missing:
    print("docs/gp.md has no tested example of: %s" % c)
if missing or gp_missing:
    sys.exit(1)
print("ok: %d forms and %d builtins named in docs/language.md have tested examples"
      % (len(catalogue), len(named)))
PY
