#!/bin/sh
#@ tier: slow
#@ timeout: 1800
# Issue 18's oracle at full size: tests/scripts/octal_values.sh with the
# first 10^7 values of each of its ten codes (about 90 MB of b-file per
# code in a temporary directory; docs/games.md §6 gives the hashes and the
# CPU time; about 10 minutes of CPU in all, most of it the reference on
# 0.14 and 0.6).
N=10000000 exec sh "$(dirname "$0")/octal_values.sh"
