#!/bin/bash
# Writes the proof of an m,n,k Maker-Breaker result and checks it while it
# is written: the writer's output goes through a FIFO to gzip (the file kept)
# and to the independent checker (one streaming pass), so the check ends a
# moment after the writer.  A checkpoint of a finished (or unfinished) search
# is resumed first.  docs/mnk.md "Results" (8,8,5), docs/dev/mnk-notes.md.
# Usage: bench/mnk/prove.sh BUILD OUTDIR CHECKPOINT M N K [mnk_bench options...]
# e.g.   bench/mnk/prove.sh build-mnk OUT OUT/mnk885.ckpt 8 8 5 -M 3000
# Results: OUTDIR/proof.gz, OUTDIR/writer.{out,err}, OUTDIR/check.{out,err}.
set -eu
[ $# -ge 6 ] || { echo "usage: $0 BUILD OUTDIR CHECKPOINT M N K [options]" >&2; exit 2; }
B=$1 OUT=$2 CK=$3 m=$4 n=$5 k=$6
shift 6
mkdir -p "$OUT"
rm -f "$OUT/proof.tmp" "$OUT/proof.gz"
mkfifo "$OUT/proof.tmp"
tee >(gzip -1 >"$OUT/proof.gz") <"$OUT/proof.tmp" |
    MNK_CHECK_PROGRESS=1 /usr/bin/time -v "$B/oracle/mnk_check" - >"$OUT/check.out" \
        2>"$OUT/check.err" &
chk=$!
/usr/bin/time -v "$B/mnk_bench" -v -c "$CK" -e 900 "$@" -p "$OUT/proof" "$m" "$n" "$k" \
    >"$OUT/writer.out" 2>"$OUT/writer.err" || true
# a writer that stopped before opening the FIFO leaves the reader waiting
[ -p "$OUT/proof.tmp" ] && timeout 5 sh -c ": >'$OUT/proof.tmp'" || true
wait $chk || true
rm -f "$OUT/proof" "$OUT/proof.tmp" # the FIFO (renamed by a writer that finished)
cat "$OUT/writer.out" "$OUT/check.out"
grep -q '^ok:' "$OUT/check.out"
