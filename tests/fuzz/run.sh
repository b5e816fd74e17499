#!/bin/sh
# Run the fuzzers on a working copy of the seed corpus (tests/fuzz/corpus
# plus every .cgt in the tree): the parser for $1 seconds (default 60),
# then the evaluator, `load` and the checkpoint loaders for $2 seconds each
# (default: the same), one after the other.  The evaluator runs in a
# scratch directory, because scripts may write checkpoint files.
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
# seeds: every builtin's example in docs/builtins.md (the corpus alone
# reached only 25 of 43 builtins); dictionary: builtin, option and keyword
# names taken from the synopses there, plus the language's tokens
awk -v dir="$work" '
    /^```cgt/ { n++; f = sprintf("%s/doc_builtin_%02d.cgt", dir, n); m = 1; next }
    /^```/ && m { close(f); m = 0; next }
    m { print > f }' docs/builtins.md
dict=$work.dict
{
    grep '^`' docs/builtins.md | tr -c 'A-Za-z_\n' ' ' | tr ' ' '\n' | grep -E '^[a-z_]{2,}$'
    for w in if else for in while fn return break continue true false null and or not take leave \
        print check assert with ".." "==" "!=" "<=" ">=" "^" "<" ">" "|" "{" "}" "[" "]" "->" "(x) ->"; do
        echo "$w"
    done
} | sort -u | sed 's/.*/"&"/' >"$dict"
build-fuzz/fuzz_parser -max_total_time="$secs" -max_len=4096 -timeout=10 \
    -rss_limit_mb=2048 -dict="$dict" "$work"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cgt-fuzz.XXXXXX")
cd "$scratch"
"$root/build-fuzz/fuzz_eval" -max_total_time="$esecs" -max_len=2048 \
    -rss_limit_mb=4096 -close_fd_mask=3 -dict="$dict" -artifact_prefix="$root/" "$work"
# load: seeded with the files save writes, in the same scratch directory
mkdir -p "$work-load"
cp tests/fuzz/corpus_load/* "$work-load/"
"$root/build-fuzz/fuzz_load" -max_total_time="$esecs" -max_len=65536 \
    -rss_limit_mb=4096 -close_fd_mask=3 -artifact_prefix="$root/" "$work-load"
# the checkpoint loaders: seeded with the checkpoints cgt writes
mkdir -p "$work-ckpt"
cp tests/fuzz/corpus_ckpt/* "$work-ckpt/"
"$root/build-fuzz/fuzz_ckpt" -max_total_time="$esecs" -max_len=65536 -timeout=30 \
    -rss_limit_mb=4096 -close_fd_mask=3 -artifact_prefix="$root/" "$work-ckpt"
cd "$root"
rm -rf "$scratch"
