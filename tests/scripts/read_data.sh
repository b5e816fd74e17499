#!/bin/sh
# read_json and read_csv against Python's json and csv modules on
# generated files, and their refusals (tests/scripts/read_data.py).
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-read-data.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
case $CGT in /*) ;; *) CGT=$(pwd)/$CGT ;; esac
mkdir "$T/work" && python3 tests/scripts/read_data.py "$CGT" "$T/work"
