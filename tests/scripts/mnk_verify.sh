#!/bin/sh
# `mnk ... proof FILE verify`: one statement solves, writes the
# proof and has the independent checker tests/oracle/mnk_check verify it for
# the stated game, claim and root; the SHA-256 it prints is compared with
# coreutils' sha256sum.  The checker refuses a valid proof of another root,
# game or claim.  6,6,5 and 7,7,5 here; 8,7,5 in the slow tier (CGT_SLOW=1);
# each also after a search on 2 or 3 threads; with threads, the proof
# written by the threads per root class and merged (the merged file checked,
# sealed, no part files left; a stop while writing leaves no proof).
set -u
CGT=${CGT:-build/cgt}
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-mnk-verify.XXXXXX") || exit 1
trap 'exit 1' INT TERM HUP
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

verify() { # m n k [options [sha256 [sha256 unsealed]]] -> proof at $T/p.$m$n$k, output in $T/out
    $CGT -e "mnk $1 $2 $3 ${4:-} proof \"$T/p.$1$2$3\" verify;" >"$T/out" 2>&1 ||
        fail "mnk $1 $2 $3 verify: $(cat "$T/out")"
    grep -qx "check: ok: claim breaker verified for the $1,$2,$3-game from the root (format 2); [0-9]* nodes" "$T/out" ||
        fail "$1,$2,$3: no checker verdict: $(cat "$T/out")"
    grep -qx "check: root: the empty $1x$2 board, X (Maker, first player) to move" "$T/out" ||
        fail "$1,$2,$3: root not reported: $(cat "$T/out")"
    want=$(sha256sum "$T/p.$1$2$3" | cut -d' ' -f1)
    got=$(sed -n 's/^proof: .* sha256 \([0-9a-f]*\))$/\1/p' "$T/out")
    [ "$got" = "$want" ] || fail "$1,$2,$3: sha256 $got, sha256sum $want"
    # one thread is deterministic: the SHA-256 recorded in docs/mnk.md (the
    # sealed proof; without its seal line, the proof of before the seal)
    [ $# -lt 5 ] || [ "$got" = "$5" ] || fail "$1,$2,$3: sha256 $got, docs/mnk.md has $5"
    tail -n 1 "$T/p.$1$2$3" | grep -qx 'crc64 [0-9a-f]\{16\}' || fail "$1,$2,$3: proof not sealed"
    [ $# -lt 6 ] || [ "$(head -n -1 "$T/p.$1$2$3" | sha256sum | cut -d' ' -f1)" = "$6" ] ||
        fail "$1,$2,$3: the proof without its seal is not the one of before"
}

verify 6 6 5 "threads 2"
verify 7 7 5 "threads 3"
# threads and the empty board: the proof is written by the threads as one
# job proof per root class (part files next to it) and merged; the merged
# file is what the checker accepts and the SHA-256 names, the parts are gone
verify 7 7 5 "threads 2 checkpoint \"$T/c775\""
ls "$T"/p.775.part.* >/dev/null 2>&1 && fail "7,7,5 threads 2: part files left: $(ls "$T")"
grep -q '^check: ok:' "$T/out" || fail "7,7,5 threads 2: $(cat "$T/out")"
# resumed from the checkpoint (the search is all table hits), again checked
cp "$T/c775" "$T/c775b"
verify 7 7 5 "threads 2 checkpoint \"$T/c775b\""
# a changed byte of the merged file is refused by its seal
sed '100s/X/./' "$T/p.775" >"$T/p.flip2"
cmp -s "$T/p.775" "$T/p.flip2" && fail "line 100 of the merged proof has no X"
$B/oracle/mnk_check --game 7 7 5 --root X empty "$T/p.flip2" >"$T/chk" &&
    fail "checker accepted a merged proof with a changed byte"
grep -q '^FAIL: the proof file is damaged: its CRC-64 seal does not match' "$T/chk" ||
    fail "merged, changed byte: $(cat "$T/chk")"
# a stop while the threads write: no proof file, the parts written so far
# kept with a message.  The signal is raised by the writer itself once two
# root classes are written ($CGT_TEST_STOP_AFTER_PARTS, src/modules/mnk/bi_mnk.c):
# a SIGTERM sent from here at the first progress line came after the
# whole 7,7,5 proof on fast machines (it is written in under 20 ms).
rm -f "$T/p.stop"*
cp "$T/c775" "$T/c775s"
CGT_TEST_STOP_AFTER_PARTS=2 $CGT -v -e \
    "mnk 7 7 5 threads 2 table_mb 1 proof \"$T/p.stop\" checkpoint \"$T/c775s\";" \
    >"$T/out" 2>"$T/err"
rc=$?
[ $rc != 0 ] || fail "a stop while writing: exit 0: $(tail -3 "$T/err")"
[ -e "$T/p.stop" ] && fail "a proof file after a stop while writing"
ls "$T"/p.stop.tmp* >/dev/null 2>&1 && fail "a temporary proof file after a stop"
grep -q 'proof writing' "$T/err" || fail "stop while writing: $(tail -3 "$T/err")"
# the same statement again: the kept parts are used again (not rewritten),
# the rest written, all merged and checked, no part left
kept=$(ls "$T"/p.stop.part.* 2>/dev/null | wc -l)
# two classes, and perhaps the one the other thread was writing
[ "$kept" -ge 2 ] && [ "$kept" -le 3 ] || fail "a stop after two classes kept $kept parts"
$CGT -v -e "mnk 7 7 5 threads 2 table_mb 1 proof \"$T/p.stop\" checkpoint \"$T/c775s\" verify;" \
    >"$T/out" 2>"$T/err" || fail "rerun after a stop: $(tail -3 "$T/err")"
grep -q '^check: ok:' "$T/out" || fail "rerun after a stop: $(cat "$T/out")"
[ "$(grep -c 'of an earlier run is used again' "$T/err")" = "$kept" ] ||
    fail "rerun after a stop: $kept parts were kept, used again: $(grep -c 'used again' "$T/err")"
ls "$T"/p.stop.part.* >/dev/null 2>&1 && fail "rerun after a stop: part files left"
# a part whose seal does not hold (here: a made-up one for the first class,
# Maker on cell 0) is written again, not used
{ printf 'mnk-proof 2\ngame 7 7 5\nclaim breaker\nroot O X'
  printf '%048d\n' 0 | tr 0 .
  printf 'B x\ntop 1\nend\ncrc64 0123456789abcdef\n'; } >"$T/p.fake.part.1"
$CGT -v -e "mnk 7 7 5 threads 2 proof \"$T/p.fake\" checkpoint \"$T/c775s\" verify;" \
    >"$T/out" 2>"$T/err" || fail "a damaged part: $(tail -3 "$T/err")"
grep -q '^check: ok:' "$T/out" || fail "a damaged part: $(cat "$T/out")"
grep -q 'used again' "$T/err" && fail "a damaged part was used again"
ls "$T"/p.fake.part.* >/dev/null 2>&1 && fail "a damaged part: part files left"
# (the one-thread proofs last: p.665 and p.775 are used below)
verify 6 6 5
verify 7 7 5 "" e1a5581b9754b08386fd1ad4982fdcce10db00df0da3c0eb5ac2231f9d80d4c1 \
    cefeeaf316b82bb9006c7a2ea34441c524933b2b0c9080757cba55d92d3aa927
grep -qx 'check: seal: crc64 [0-9a-f]\{16\} verified' "$T/out" || fail "seal not reported: $(cat "$T/out")"
# a changed byte is refused by the seal, with its own reason
sed '6s/X/./' "$T/p.775" >"$T/p.flip"
$B/oracle/mnk_check "$T/p.flip" >"$T/chk" && fail "checker accepted a proof with a changed byte"
grep -q '^FAIL: the proof file is damaged: its CRC-64 seal does not match' "$T/chk" ||
    fail "changed byte: $(cat "$T/chk")"
# a proof without its seal line (as written before seals) is accepted, with a warning
head -n -1 "$T/p.775" >"$T/p.old"
$B/oracle/mnk_check --game 7 7 5 --root X empty "$T/p.old" >"$T/chk" 2>"$T/warn" ||
    fail "unsealed proof refused: $(cat "$T/chk")"
grep -q 'warning: the proof has no CRC-64 seal' "$T/warn" || fail "no warning: $(cat "$T/warn")"
# the same proof, checked for another root, game or claim, is refused
C=$B/oracle/mnk_check
$C --game 6 6 5 --claim breaker --root X empty "$T/p.665" >/dev/null || fail "checker refuses 6,6,5"
$CGT -e 'mnk 6 6 5 board ["......","......","......","..X...","...O..","......"] proof "'"$T"'/p.mid" verify;' \
    >"$T/out" 2>&1 || fail "middle game verify: $(cat "$T/out")"
grep -q '^check: root: X to move, position \.\{9\}O\.\{4\}X\.\{21\} (cell-index order)$' "$T/out" ||
    fail "middle game root: $(cat "$T/out")"
for bad in "--root X empty" "--root O .........O....X....................." "--game 6 6 4" \
           "--claim maker" "--game 7 6 5"; do
    # shellcheck disable=SC2086
    if $C $bad "$T/p.mid" >"$T/chk"; then fail "checker accepted the middle-game proof with $bad"; fi
    grep -q '^FAIL: line [0-9]*: .*claimed' "$T/chk" || fail "no reason for $bad: $(cat "$T/chk")"
done
$C --root X .........O....X..................... "$T/p.mid" >/dev/null || fail "the right root refused"
# a proof whose root line was changed to another position is refused too
sed '4s/^root X \.\{9\}O/root X ..X......O/' "$T/p.mid" >"$T/p.bad"
if $C --root X .........O....X..................... "$T/p.bad" >/dev/null; then
    fail "checker accepted a proof with a changed root"
fi
# verify without proof, and a missing checker, are clear errors
$CGT -e 'mnk 4 4 4 verify;' >"$T/out" 2>&1 && fail "verify without proof accepted"
grep -q 'give proof' "$T/out" || fail "verify without proof: $(cat "$T/out")"
CGT_MNK_CHECK=/nonexistent/mnk_check $CGT -e "mnk 4 4 4 proof \"$T/p\" verify;" >"$T/out" 2>&1 &&
    fail "missing checker accepted"
grep -q 'mnk_check was not found' "$T/out" || fail "missing checker: $(cat "$T/out")"
# a checker that rejects: the statement fails with its verdict
printf '#!/bin/sh\necho "FAIL: line 9: made up"\nexit 1\n' >"$T/nochk"
chmod +x "$T/nochk"
CGT_MNK_CHECK=$T/nochk $CGT -e "mnk 6 6 5 proof \"$T/p\" verify;" >"$T/out" 2>&1 && fail "rejection ignored"
grep -q 'rejected the proof: FAIL: line 9: made up' "$T/out" || fail "rejection: $(cat "$T/out")"
if [ -n "${CGT_SLOW:-}" ]; then
    verify 8 7 5 "" 66f823c73fbe99efe10c6cfd272688ce5965784a6ae310bac84517db3ecb6508 \
        76aad96279a77b05a67b279ad0305f0ca68a1afd6c4ddca395620504259b285f
    # a proof written after a search on two threads (the shared table then
    # holds other positions, so the proof may differ) is checked as well
    verify 8 7 5 "threads 2"
fi
echo ok
