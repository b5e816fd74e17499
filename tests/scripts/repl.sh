#!/bin/sh
# The REPL on a pseudo-terminal (tests/scripts/repl_pty.py; python3 comes
# from scripts/deps.sh).
set -u
CGT=${CGT:-build/cgt}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-repl.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$T/repl-home"
case "$CGT" in *valgrind*) echo "skipped under valgrind"; exit 0 ;; esac
. tests/scripts/stop_lib
cpu_limit 120 python3 tests/scripts/repl_pty.py "$CGT" "$T/repl-home"
