#!/bin/sh
#@ timeout: 300
# Two threads (docs/games.md §2): the parallel stretches of the Grundy engine against the
# oracle of tests/scripts/octal_values.sh (its thirteen codes, 10^5 values,
# b-file hashes), with `grundy g [N-1] threads 2` and `threads 3` (three
# threads keep two heaps in flight like two, but every heap's owner and
# the order of the commits change).  0.6, 0.14 and 0.56, 0.354, 0.376
# (once their values pass 63) run in stretches; the codes with values
# below 64 stay on one thread and must still agree.
THREADS="2 3" exec sh "$(dirname "$0")/octal_values.sh"
