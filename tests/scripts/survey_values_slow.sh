#!/bin/sh
#@ tier: slow
#@ timeout: 2400
# Issue 18's survey rows (docs/games.md §6, "The codes of the 2^20 budget,
# to 2^28") against an independent oracle: the first 2^22 values of the
# eleven codes whose values stay below 512 there, cgt's b-file against
# tests/oracle/octal_values' (tests/scripts/octal_values.sh with SURVEY=1;
# 7.3 minutes of CPU on 5 December 2026, nearly all of it the oracle).
N=4194304 SURVEY=1 exec sh "$(dirname "$0")/octal_values.sh"
