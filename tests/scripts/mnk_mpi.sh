#!/bin/sh
# The distributed m,n,k solver (mpi/mnk_mpi.c) with 3 ranks on this machine
# (`mpirun --oversubscribe -np 3`), slow tier only: 6,6,5 and 7,7,5 must
# give the single-process result (cgt's `mnk`), and their merged proofs are
# accepted by the independent checker for the empty board; a run stopped
# by a node limit resumes from its job store and gives the same proof; a
# job store with a damaged and a torn line, and a job proof with a changed
# byte, are detected on resume (those jobs run again, same proof).
# Skipped, with a message, when Open MPI or the program is absent.
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
[ -n "${CGT_SLOW:-}" ] || { echo "ok (slow tier only)"; exit 0; }
if [ ! -x "$B/mnk_mpi" ] || ! command -v mpirun >/dev/null 2>&1; then
    echo "ok (skipped: Open MPI not installed; scripts/deps.sh --mpi installs it)"
    exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-mnk-mpi.XXXXXX") || exit 1
trap 'exit 1' INT TERM HUP
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. tests/scripts/stop_lib
# mpirun refuses to run as root unless told
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() { cpu_limit 600 mpirun --oversubscribe -np 3 "$B/mnk_mpi" "$@"; }
for g in "6 6 5" "7 7 5"; do
    set -- $g
    single=$($CGT --format=json -e "mnk $1 $2 $3;" | sed -n 's/.*"result":"\([a-z]*\)".*/\1/p')
    [ "$single" = breaker ] || fail "single-process $g: $single"
    run "$1" "$2" "$3" "$T/d$1$2$3" >"$T/out" 2>&1 || fail "mnk_mpi $g: $(cat "$T/out")"
    grep -q '^mnk_mpi: breaker wins; ' "$T/out" || fail "mnk_mpi $g: $(cat "$T/out")"
    $B/oracle/mnk_check --game "$1" "$2" "$3" --claim breaker --root X empty "$T/d$1$2$3/proof" \
        >"$T/chk" || fail "merged $g proof rejected: $(cat "$T/chk")"
    want=$(sha256sum "$T/d$1$2$3/proof" | cut -d' ' -f1)
    grep -q "sha256 $want)" "$T/out" || fail "mnk_mpi $g: sha256 is not $want"
done
# a node limit stops the jobs (exit 4, job store kept); the rerun resumes
run 7 7 5 "$T/r775" 300 >"$T/out" 2>&1
[ $? -ne 0 ] || fail "7,7,5 with a node limit of 300 reported success"
grep -q 'limit' "$T/r775/jobs" || fail "no limited job in the store: $(cat "$T/r775/jobs")"
run 7 7 5 "$T/r775" >"$T/out" 2>&1 || fail "resumed 7,7,5: $(cat "$T/out")"
cmp -s "$T/r775/proof" "$T/d775/proof" || fail "resumed 7,7,5 proof differs from the fresh one"
# damage the 6,6,5 store: a changed node count on line 1 (its checksum no
# longer matches), the last line cut short, and one byte of another job's
# proof changed; the rerun reports each and gives the same proof
D=$T/d665
cp "$D/proof" "$T/p665.fresh"
[ "$(grep -c ' crc64=[0-9a-f]\{16\}$' "$D/jobs")" -ge 3 ] || fail "job store without checksums: $(cat "$D/jobs")"
sed -i '1s/^\(done [0-9]* breaker \)\([0-9]\)/\19\2/' "$D/jobs"
head -c -5 "$D/jobs" >"$T/jobs" && cat "$T/jobs" >"$D/jobs"
job=$(sed -n '2s/^done \([0-9]*\) .*/\1/p' "$D/jobs")
printf 'X' | dd of="$D/job_$job.proof" bs=1 seek=40 conv=notrunc 2>/dev/null
run 6 6 5 "$D" >"$T/out" 2>&1 || fail "6,6,5 after damage: $(cat "$T/out")"
grep -q 'job store line 1 is damaged' "$T/out" || fail "damaged line not reported: $(cat "$T/out")"
grep -q 'is torn' "$T/out" || fail "torn line not reported: $(cat "$T/out")"
grep -q "job_$job.proof.*run again" "$T/out" || fail "damaged job proof not reported: $(cat "$T/out")"
cmp -s "$D/proof" "$T/p665.fresh" || fail "6,6,5 proof after the damage differs"
$B/oracle/mnk_check --game 6 6 5 --claim breaker --root X empty "$D/proof" >/dev/null ||
    fail "6,6,5 proof after the damage rejected"
echo ok
