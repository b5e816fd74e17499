#!/bin/sh
#@ tier: slow
# The two longer periods of the survey of unsolved codes (docs/games.md §6),
# 4.064 and 4.406, checked by split_periods.sh --slow against
# tests/oracle/octal_period (about 5 minutes).
exec sh "$(dirname "$0")/split_periods.sh" --slow
