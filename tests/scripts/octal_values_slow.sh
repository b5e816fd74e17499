#!/bin/sh
#@ tier: slow
#@ timeout: 3600
# Issue 18's oracle at full size: tests/scripts/octal_values.sh with the
# first 10^7 values of each of its thirteen codes (about 90 MB of b-file
# per code in a temporary directory; docs/games.md §6 gives the hashes and
# the CPU time of the first ten: about 10 minutes of CPU, most of it the
# reference on 0.14 and 0.6; 0.416, 0.564 and 4.007, added later, take the
# reference longer, 4.007 about 25 s per 10^6 values).
N=10000000 exec sh "$(dirname "$0")/octal_values.sh"
