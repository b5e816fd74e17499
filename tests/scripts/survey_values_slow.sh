#!/bin/sh
#@ tier: slow
#@ timeout: 3600
# Rows of the survey of unsolved octal codes (docs/games.md §6; per-code
# tables in docs/dev/games-notes.md) against an independent oracle: the first 2^22 values of the
# sixteen codes whose values stay below 1024 there, of 0.564 (values to
# 1414) and of the six codes with a leading 4 that reach 2^32 (4.007,
# 4.045, 4.367, 4.404, 4.324, 4.044), cgt's b-file against tests/oracle/
# octal_values' (tests/scripts/octal_values.sh with SURVEY=1; on 5 December
# 2026 7.3 minutes of CPU for the first eleven, nearly all of it the
# oracle, and 34-84 s of wall time each for the next five; 0.564 on 6
# December, 110 s for the oracle, and the six 4.xxx codes 160 s; all
# twenty-three in one run: 1075 + 9 s of user+sys, 18:10 wall, 6 December).
N=4194304 SURVEY=1 exec sh "$(dirname "$0")/octal_values.sh"
