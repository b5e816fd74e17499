#!/bin/sh
#@ tier: slow
#@ timeout: 1800
# The comparison of tests/scripts/quotient_threads.sh on larger heaps
# (0.57 to 100, 0.26 to 80, 4.7 to 50, 0.145 to 200, 0.54 to 150): the
# quotient on 2 and 3 threads saved byte for byte as on one.
SLOW=1 exec sh "$(dirname "$0")/quotient_threads.sh"
