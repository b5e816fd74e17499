#!/bin/sh
# Run the fuzzers on a working copy of the seed corpus (tests/fuzz/corpus
# plus every .cgt in the tree): the parser for $1 seconds (default 60),
# then the evaluator for $2 seconds (default: the same).  The evaluator
# runs in a scratch directory, because scripts may write checkpoint files.
set -e
secs=${1:-60}
esecs=${2:-$secs}
root=$(pwd)
work=$root/tests/fuzz/corpus-work
mkdir -p "$work"
cp tests/fuzz/corpus/* "$work/" 2>/dev/null || true
for f in $(find examples tests/golden tests/errors -name '*.cgt'); do
    cp "$f" "$work/$(echo "$f" | tr / _)"
done
build-fuzz/fuzz_parser -max_total_time="$secs" -max_len=4096 -timeout=10 \
    -rss_limit_mb=2048 "$work"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cgt-fuzz.XXXXXX")
cd "$scratch"
"$root/build-fuzz/fuzz_eval" -max_total_time="$esecs" -max_len=2048 \
    -rss_limit_mb=4096 -close_fd_mask=3 -artifact_prefix="$root/" "$work"
cd "$root"
rm -rf "$scratch"
