#!/bin/sh
# --format=json: every error (each script of tests/errors/, bad calls of
# every builtin `help` lists, errors of the command line) and every partial
# result is one JSON object on a line of stdout, of the schema of
# docs/errors.md ("Errors under --format=json"), and the human text stays on
# stderr; checked with Python's json module (tests/scripts/json_errors.py).
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-json-errors.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
case $CGT in /*) ;; *) CGT=$(pwd)/$CGT ;; esac
python3 tests/scripts/json_errors.py "$CGT" "$T/work"
