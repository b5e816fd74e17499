#!/bin/sh
#@ tier: slow
#@ timeout: 3600
# The independent oracle at full size: tests/scripts/octal_values.sh with the
# first 10^7 values of each of its thirteen codes (about 90 MB of b-file
# per code in a temporary directory; docs/games.md §6 gives the hashes).
# All thirteen took 947 + 11 s of user+sys, 16:07 wall, 179 MB peak RSS
# (Zen 5, 6 December 2026, a survey run on the other core), most of it
# the reference (cgt takes a few seconds per code).
N=10000000 exec sh "$(dirname "$0")/octal_values.sh"
