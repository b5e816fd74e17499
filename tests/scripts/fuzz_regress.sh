#!/bin/sh
#@ timeout: 300
# The loader targets' seeds and the inputs the fuzzers found (tests/fuzz/:
# corpus_ckpt, corpus_load, regress) replayed through cgt, so that the fast
# tier (and `make check-asan`, whose cgt has the sanitizers) keeps each of
# them fixed without clang or libFuzzer.  An input is what the target
# reads: for fuzz_ckpt one selector byte and the file, for fuzz_load the
# file.  As the targets do, a file that ends in a seal line (a checkpoint)
# or has a "crc64" member (a result file) gets its checksum recomputed
# here (CRC-64/XZ in Python, not cgt's), and the selector picks the
# statement that reads it: 0, 1 `grundy` of 0.6, 0.07; 2, 3 `quotient` of
# 0.07, 0.77; 4 to 7 `mnk` 5,5,4, 4,4,3 strong, a 9,8,4 position, 5,5,4
# with a proof.  Every input must end with a result or an error
# (exit 0, 1 or 4), never a crash, an internal error (70) or a sanitizer
# report; every seed must be accepted (exit 0).  With FUZZ_BIN=1 the
# inputs also go through build-fuzz/fuzz_ckpt and fuzz_load (-runs=0).
set -u
CGT=${CGT:-build/cgt}
# the re-sealing helpers import tests/scripts/crc64.py
PYTHONPATH=$PWD/tests/scripts${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
case $CGT in /*) ;; *) CGT=$PWD/$CGT ;; esac
R=$PWD
T=$(mktemp -d "${TMP:-/tmp}/fregress.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
n=0
# replay FILE KIND SEED: KIND ckpt or load; SEED 1 when it must be accepted
replay() {
    python3 - "$1" "$2" <<'PY' || exit 1
import json, sys
src, kind = sys.argv[1], sys.argv[2]
from crc64 import crc64  # tests/scripts/crc64.py
b = open(src, 'rb').read()
if kind == 'ckpt':
    sel, b = (b[0] % 8 if b else 0), bytearray(b[1:])
    n = len(b)
    if n >= 23 and b[n - 23:n - 17] == b'crc64 ' and b[-1:] == b'\n':
        b[n - 17:n - 1] = b'%016x' % crc64(bytes(b[:n - 23]))
    open('sel', 'w').write(str(sel))
else:
    # the member "crc64" as fuzz_load finds it: reseal the bytes of
    # "value" (from its first byte to the end of the root object)
    import re
    b = bytearray(b)
    try:
        t = b.decode('utf-8')
        j = json.loads(t)
        c = re.search(r'"crc64"\s*:\s*"([^"]{16})"', t)
        v = re.search(r'"value"\s*:\s*', t)
        r = t.rstrip()
        if isinstance(j, dict) and c and v and r.endswith('}'):
            vb = r[:-1].rstrip()[v.end():].encode()
            at = len(t[:c.start(1)].encode())
            b[at:at + 16] = b'%016x' % crc64(vb)
    except (ValueError, UnicodeDecodeError):
        pass
open('input', 'wb').write(bytes(b))
PY
    if [ "$2" = load ]; then
        src='x = load("input");'
    else
        case $(cat sel) in
        0) src='game g = octal 0.6; x = grundy(g, 30000, {checkpoint: "input"});' ;;
        1) src='game g = octal 0.07; x = grundy(g, 30000, {checkpoint: "input"});' ;;
        2) src='game g = octal 0.07; quotient q = g to 16 checkpoint "input";' ;;
        3) src='game g = octal 0.77; quotient q = g to 12 checkpoint "input";' ;;
        4) src='mnk 5 5 4 nodes 20000 checkpoint "input";' ;;
        5) src='mnk 4 4 3 strong nodes 20000 checkpoint "input";' ;;
        6) src='mnk 9 8 4 board ["XXOOXXOOX", "OOXXOOXXO", "XXOOXXOOX", "OOXXOOXXO", ".........", ".........", "XXOOXXOOX", "OOXXOOXXO"] to_move "X" nodes 20000 checkpoint "input";' ;;
        *) src='mnk 5 5 4 nodes 20000 checkpoint "input" proof "proof";' ;;
        esac
    fi
    "$CGT" -e "$src" >out 2>err
    rc=$?
    case $rc in
    0 | 1 | 4) ;;
    *) fail "$(basename "$1"): exit $rc: $(tail -n 3 err)" ;;
    esac
    grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' err &&
        fail "$(basename "$1"): sanitizer report: $(head -n 5 err)"
    [ "$3" = 1 ] && [ $rc -ne 0 ] && fail "$(basename "$1"): a seed was refused: $(head -n 3 err)"
    n=$((n + 1))
    rm -f input input.lock proof
}
for f in "$R"/tests/fuzz/corpus_ckpt/*; do replay "$f" ckpt 1; done
for f in "$R"/tests/fuzz/corpus_load/*; do replay "$f" load 1; done
for f in "$R"/tests/fuzz/regress/ckpt-* "$R"/tests/fuzz/regress/load-*; do
    [ -f "$f" ] || continue
    case $(basename "$f") in ckpt-*) replay "$f" ckpt 0 ;; *) replay "$f" load 0 ;; esac
done
if [ -n "${FUZZ_BIN:-}" ]; then
    for t in ckpt load; do
        mkdir -p "in-$t"
        cp "$R"/tests/fuzz/corpus_$t/* "in-$t/"
        cp "$R"/tests/fuzz/regress/$t-* "in-$t/" 2>/dev/null
        "$R/build-fuzz/fuzz_$t" -runs=0 -max_len=65536 "in-$t" >fz.log 2>&1 ||
            fail "fuzz_$t: $(tail -n 5 fz.log)"
    done
fi
echo "$n inputs replayed"
