#!/bin/sh
#@ tier: slow
# Damaged files, slow part (docs/testing.md): kill -9 during checkpoint writes, 20 times per kind
# (grundy, quotient, mnk), each after a delay and then as soon as a save has
# begun (its temporary file appeared): the file left is always a complete one (the old
# or the new: it passes its checksum and loads, and its grundy values equal
# a fresh computation); F22 (a small table_mb must not shrink an mnk
# checkpoint) and F18 for mnk (SIGTERM saves the table).  Prints how many
# kills landed while a temporary file was being written.
set -u
CGT=${CGT:-build/cgt}
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-reliability-kill.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
. tests/scripts/stop_lib
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
KILLS=${KILLS:-20}

# a delay in 0.2 .. 2.1 s, different for each kill, the same on every run:
# it only spreads the kills over the run (how many land in a write is
# printed, not tested); the verdict is that every file left loads
delay() { awk -v s="$1" 'BEGIN { srand(s); printf "%.2f", 0.2 + 1.9 * rand() }'; }

run_kills() { # kind script check-command
    kind=$1
    script=$2
    hits=0
    i=0
    while [ $i -lt "$KILLS" ]; do
        i=$((i + 1))
        $CGT -e "$script" >/dev/null 2>&1 &
        p=$!
        sleep "$(delay $((i * 7919 + ${#kind})))"
        # then aim at a write: wait (at most about 5 s) for the temporary file
        n=0
        while [ ! -f F.tmp ] && [ $n -lt 200000 ] && kill -0 $p 2>/dev/null; do
            n=$((n + 1))
        done
        kill -9 $p 2>/dev/null
        wait $p 2>/dev/null
        # the temporary file exists only between the start of a save and its
        # rename: if it is there, this kill interrupted a write
        [ -f F.tmp ] && hits=$((hits + 1))
        rm -f F.tmp
        [ -f F ] || continue # killed before the first save
        sh -c "$3" >/dev/null 2>err || fail "$kind: after kill $i the checkpoint does not load: $(cat err)"
    done
    echo "$kind: $KILLS kills -9, $hits of them during a write; every checkpoint left loads"
}

# grundy: each statement extends the table and saves it (up to 16 MB)
rm -f F F.tmp
$CGT -e 'game s = octal 0.14; grundy s 0..99999;' >ref
run_kills grundy 'game s = octal 0.14; for n in 1..200 { grundy s (n*20000) checkpoint "F"; }' \
    "$CGT -e 'game s = octal 0.14; grundy s 0..99999 checkpoint \"F\";' > out &&
     grep -v '^  from checkpoint ' out | cmp -s - ref"

# quotient: each statement extends Q(h) and saves it
rm -f F F.tmp
run_kills quotient 'game d = octal 0.07; for h in 5..33 { quotient q = d to h checkpoint "F"; }' \
    "$CGT -e 'game d = octal 0.07; quotient q = d to 33 checkpoint \"F\"; print maxheap(q);'"

# mnk: the table is saved every second (a few MB)
rm -f F F.tmp
run_kills mnk 'mnk 8 8 5 checkpoint "F" checkpoint_every 1;' \
    "$CGT -e 'mnk 8 8 5 checkpoint \"F\" nodes 1;'; [ \$? -eq 4 ]"

# F22: a table_mb too small for the checkpoint is refused, the file kept
rm -f F F.tmp
$CGT -e 'mnk 8 8 5 checkpoint "F" nodes 250000;' >/dev/null 2>&1
n0=$(sed -n 3p F)
[ "${n0#entries }" -gt 16383 ] || fail "F22 setup: $n0"
s=$(cksum <F)
$CGT -e 'mnk 8 8 5 checkpoint "F" nodes 1 table_mb 1;' >/dev/null 2>err
rc=$?
[ $rc -eq 4 ] || fail "F22: exit $rc: $(cat err)"
grep -q "more than table_mb allows" err || fail "F22: $(cat err)"
[ "$(cksum <F)" = "$s" ] || fail "F22: the checkpoint changed: $(sed -n 3p F) (was $n0)"

# F18 for mnk: SIGTERM leaves a checkpoint (none before the fix); sent at
# the first progress line (a run that ignores it ends by its CPU limit)
rm -f F F.tmp e18
(cpu_exec 600 $CGT -v -e 'mnk 8 8 5 checkpoint "F";') >/dev/null 2>e18 &
p=$!
wait_for e18 '^\[mnk\] [0-9]+ nodes' $p || fail "F18 mnk: no progress: $(cat e18)"
kill -TERM $p
wait $p
rc=$?
[ $rc -eq 143 ] || fail "F18 mnk: exit $rc"
[ -s F ] || fail "F18 mnk: no checkpoint after SIGTERM"
$CGT -e 'mnk 8 8 5 checkpoint "F" nodes 1;' >/dev/null 2>&1
[ $? -eq 4 ] || fail "F18 mnk: the checkpoint does not load"
echo ok
