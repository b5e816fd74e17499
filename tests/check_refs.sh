#!/bin/sh
# Code, docs, tests and benchmarks name only what a reader of the
# repository has: papers (by author, title and section), the repository's
# own files, or nothing.  This check fails on
#   - files of a planning folder outside the tree (MISERE.md, ALGORITHMS.md,
#     DESIGN.md, STYLE.md, unless the repository has such a file), paths into
#     it (shared/...) or into the machine's work area (/work/...);
#   - the source texts by their local numbers (seed 004, seeds/001, ...):
#     cite the paper instead;
#   - numbered tickets of a tracker that is not in the tree (issue 14,
#     issues 7 and 13, issue #5, issue-12, issue13.sh): say what the code
#     guards against, or name the docs/ section.
# Run from the repository root (tests/run's docs tier does); prints each
# offending line and exits 1, or exits 0 silently.
# Usage: sh tests/check_refs.sh [FILE-OR-DIR...]   (default: the tree)

[ $# -gt 0 ] || set -- src tests bench docs examples scripts mpi README.md Makefile
self=tests/check_refs.sh

# the patterns are assembled so that this file does not match itself
planning='\b(MISE''RE|ALGORI''THMS|DES''IGN|STY''LE)\.md\b'
paths='(^|[^A-Za-z0-9_.-])(\.\./)?sha''red/|/wo''rk/'
texts='\bseeds?[ /_]?0[0-9][0-9]'
tickets='\b[Ii]ss''ues? #?[0-9]|\b[Ii]ss''ue-?[0-9]'

# files: tracked ones when git knows the tree, else every regular file
# below the arguments outside build directories
list_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard -- "$@"
    else
        find "$@" -type f ! -path '*/build*' 2>/dev/null
    fi
}

hits=$(list_files "$@" | grep -vxF "$self" | tr '\n' '\0' |
    xargs -0 grep -naHE "$planning|$paths|$texts|$tickets" 2>/dev/null)
out=$(printf '%s\n' "$hits" | while IFS= read -r line; do
    [ -n "$line" ] || continue
    # a planning file name is fine once the repository has the file
    name=$(printf '%s\n' "$line" | grep -oE "$planning" | head -n 1)
    if [ -n "$name" ] && [ -e "$name" ] &&
        ! printf '%s\n' "$line" | grep -qE "$paths|$texts|$tickets"; then
        continue
    fi
    printf '%s\n' "$line"
done)
if [ -n "$out" ]; then
    printf '%s\n' "$out" | cut -c1-200
    echo "references outside the repository or to numbered issues: cite the paper," >&2
    echo "name a file or docs/ section of the repository, or say what the code guards against" >&2
    exit 1
fi
exit 0
