#!/bin/sh
# Run the parser fuzzer for $1 seconds (default 60) on a working copy of
# the seed corpus (tests/fuzz/corpus plus every .cgt in the tree).
set -e
secs=${1:-60}
work=tests/fuzz/corpus-work
mkdir -p $work
cp tests/fuzz/corpus/* $work/ 2>/dev/null || true
for f in $(find examples tests/golden tests/errors -name '*.cgt'); do
    cp "$f" "$work/$(echo "$f" | tr / _)"
done
build-fuzz/fuzz_parser -max_total_time="$secs" -max_len=4096 -timeout=10 \
    -rss_limit_mb=2048 $work
