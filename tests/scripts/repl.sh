#!/bin/sh
# The REPL on a pseudo-terminal (tests/scripts/repl_pty.py; python3 comes
# from scripts/deps.sh).
set -u
CGT=${CGT:-build/cgt}
T=${TMP:-/tmp}
mkdir -p "$T/repl-home"
case "$CGT" in *valgrind*) echo "skipped under valgrind"; exit 0 ;; esac
timeout 120 python3 tests/scripts/repl_pty.py "$CGT" "$T/repl-home"
