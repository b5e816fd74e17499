#!/bin/sh
# The version-2 path of the independent proof checker tests/oracle/mnk_check.c
# on small hand-written proofs (3,3,3 boards).  Every accepted proof below is
# derived by hand in the comments; every rejected one changes one thing and
# must fail with the reason named.
#
# Cells of the 3x3 board (index = column + 3 * row, row 0 = bottom):
#     6 7 8
#     3 4 5
#     0 1 2
# Lines (k = 3): H0 012  H1 345  H2 678  V0 036  V1 147  V2 258  D 048  A 246.
# Potential P = sum over lines without O of 2^(X on the line); 2^k = 8.
# Symmetries (as the checker's find()): s bit 0 mirrors columns (c -> 2-c),
# bit 1 rows (r -> 2-r), bit 2 then swaps the two coordinates.  Used below:
#   s=1: 0<->2, 6<->8, 4 fixed.     s=2: 0<->6, 2<->8.     s=3: 0<->8, 2<->6.
#   s=5: cell (r,c) -> index 3*(2-c) + r: 7 -> 5, 6 -> 8, 4 -> 4.
set -u
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/cgt-mnk-check-v2.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
CHK=$B/oracle/mnk_check
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$CHK" ] || fail "no $CHK"

# Proof A, root X.
# Node 1  R X...OX..O 1-2 3-6 7 >0   (X 0,5; O 4,8; empty 1,2,3,6,7)
#   Lines without O: H0 (012) and V0 (036) only (H1,V1,D,A hold 4; H2,V2
#   hold 8).  V = {1,2,3,6,7}: H0 meets V and holds the pair 1-2, V0 holds
#   the pair 3-6; 7 (a single) lies only on H2 and V1, both dead.  POS + O on
#   V: H0 holds O 1, V0 holds O 3, the rest already had O, and X 0,5 is no
#   line, so Covered(.., 0) holds.
# Node 2  M ....O.... (O 4; empty 0,1,2,3,5,6,7,8), each Maker move:
#   8@1:0  -> X0 O4,8: identity, X {0} within node 1's {0,5} (node 1 has
#          MORE X: monotonicity), O {4,8} = node 1's.
#   8@1:5  -> X5 O4,8: identity, X {5} within {0,5}.
#   6@1:2  -> X2 O4,6: s=1 gives X0 O4,8.
#   6@1:7  -> X7 O4,6: s=1 fixes 7 (fails); s=5 gives X5 O4,8 (the checker
#          must fall back from the symmetry that served the previous move).
#   *:1    -> lines without O: H0 H2 V0 V2; X on 1 doubles H0: 2+1+1+1 = 5 < 8.
#   *:8    -> H2 and V2 double (D holds O 4): 1+2+1+2 = 6 < 8.
#   <0:3   -> 0 is a move of an earlier group; the lines through 3 are H1
#          (holds O 4) and V0 = 036, which contains 0 (Theorem 2).
#   2@1:6  -> X6 O4,2: s=2 gives X0 O4,8.
#   Every empty cell 0,1,2,3,5,6,7,8 is listed exactly once; no move makes
#   three X in a line (one X only).
# Node 3  M O.O.XOO.O 7@0:1,3 1@0:7  (X 4; O 0,2,5,6,8; empty 1,3,7)
#   Only V1 = 147 has no O.  After X1 or X3 and O7, or X7 and O1, every line
#   holds an O and X {4,1}, {4,3}, {4,7} is no complete line: ID 0.
# top 2: the root ..O.O.... (O 2,4) has no X and its O contain node 2's O 4.
cat >"$T/v2a" <<'P'
mnk-proof 2
game 3 3 3
claim breaker
root X ..O.O....
R X...OX..O 1-2 3-6 7 >0
M ....O.... 8@1:0,5 6@1:2,7 *:1,8 <0:3 2@1:6
M O.O.XOO.O 7@0:1,3 1@0:7
top 2
end
P
# Proof B, root O (Breaker to move on the empty board): B ......... 4@2 is
# Breaker's O 4, giving node 2's position exactly; it is the top node and
# its position is the root's.
cat >"$T/v2b" <<'P'
mnk-proof 2
game 3 3 3
claim breaker
root O .........
R X...OX..O 1-2 3-6 7 >0
M ....O.... 8@1:0,5 6@1:2,7 *:1,8 <0:3 2@1:6
B ......... 4@2
top 3
end
P
# Proof C, root O O........ and its image under s=1 as the B node:
# B ..O...... * : O 2 kills H0, V2, A; the other five lines have no X, so
# P = 5 < 8 with Breaker to move (Property 1).
printf 'mnk-proof 2\ngame 3 3 3\nclaim breaker\nroot O O........\nB ..O...... *\ntop 1\nend\n' \
    >"$T/v2c"
# Proof D, no nodes: root X O...O...O, every line holds O 0, 4 or 8 (H0 V0 D:
# 0; H1 V1 A: 4; H2 V2: 8) and there is no X, so top 0.
printf 'mnk-proof 2\ngame 3 3 3\nclaim breaker\nroot X O...O...O\ntop 0\nend\n' >"$T/v2d"

for p in v2a v2b v2c v2d; do
    out=$("$CHK" "$T/$p") || fail "$p rejected: $out"
    case $out in "ok: "*) ;; *) fail "$p: $out" ;; esac
done
out=$("$CHK" - <"$T/v2a") || fail "stdin: $out"
case $out in *"; 3 nodes
root: X to move, position ..O.O.... (cell-index order)") ;; *) fail "node count or root: $out" ;; esac

# bad NAME REASON-SUBSTRING: $T/bad must be rejected (exit 1) with that reason
bad() {
    out=$("$CHK" "$T/bad")
    rc=$?
    [ $rc -eq 1 ] || fail "$1: exit $rc, expected 1 ($out)"
    case $out in "FAIL: line "*"$2"*) ;; *) fail "$1: '$out', expected '$2'" ;; esac
}
# sub FILE OLD NEW: FILE with the (fixed) string OLD replaced by NEW -> $T/bad
sub() {
    awk -v o="$2" -v n="$3" '{ i = index($0, o); if (i) $0 = substr($0, 1, i - 1) n \
        substr($0, i + length(o)); print }' "$T/$1" >"$T/bad"
    cmp -s "$T/$1" "$T/bad" && fail "sub $2: no change"
}
L6='M ....O.... 8@1:0,5 6@1:2,7 *:1,8 <0:3 2@1:6'

sub v2a '8@1:0,5' '8@2:0,5'; bad "self reference" "forward reference"
sub v2a '8@1:0,5' '8@7:0,5'; bad "ID too large" "forward reference"
sub v2a '7 >0' '7 >1'; bad "R forward reference" "forward reference"
sub v2a '8@1:0,5' '8@99999999999999999999:0,5'; bad "ID overflow" "too large"
# X1 O4,8: no symmetry fixes 8 and maps the edge 1 into X {0,5} (only the
# identity and s=4, which maps 1 to 3, fix 8 and 4)
sub v2a "$L6" 'M ....O.... 8@1:0,5,1 6@1:2,7 *:8 <0:3 2@1:6'; bad "X not a subset" "not covered"
# X6 O4,1: only s=2 and s=6 map 6 to 0, and they map 1 to 7 and 5, not 8
sub v2a '2@1:6' '1@1:6'; bad "O not a superset" "not covered"
sub v2a 'root X ..O.O....' 'root X .........'; bad "root O not a superset" "root position"
# without 3-6, V0 = 036 keeps no O after the reduction (the pairing condition
# still holds: V0 does not meet V = {1,2,7})
sub v2a '1-2 3-6 7' '1-2 7'; bad "ID 0 with a line without O" "reduced position"
sub v2a '1-2 3-6 7' '1-3 2-6 7'; bad "pair condition" "without holding a pair"
sub v2a '1-2 3-6 7' '1-2 2-6 7'; bad "R cell twice" "listed twice"
sub v2a '1-2 3-6 7' '1-2 3-6 7 4'; bad "R cell not empty" "not empty"
# P(X4) = 4 lines through 4 at 2 + the other 4 at 1 = 12
sub v2a "$L6" 'M ......... *:4'; bad "potential" "not below 2^k"
sub v2a '<0:3' '<2:3'; bad "domination" "misses the dominating cell"
sub v2a "$L6" 'M ....O.... <0:3 8@1:0,5 6@1:2,7 *:1,8 2@1:6'; bad "dominator later" \
    "not a move of an earlier group"
sub v2a ' 2@1:6' ''; bad "missing empty cell" "not listed"
sub v2a '*:1,8' '*:1,8,0'; bad "cell twice" "listed twice"
sub v2a '*:1,8' '*:1,8,4'; bad "move on O" "non-empty"
sub v2a '8@1:0,5' '8@1:0,5,8'; bad "reply equals move" "equals"
sub v2a '8@1:0,5' '4@1:0,5'; bad "reply on O" "non-empty"
# X0,1 + X2 is line H0
sub v2a "$L6" 'M XX..O.... 8@0:2'; bad "move completes a line" "completes a line"
sub v2a 'R X...OX..O 1-2 3-6 7 >0' 'R XXX.O...O >0'; bad "complete line in POS" \
    "complete Maker line"
sub v2a "$L6" 'M XOXOOXXXO'; bad "M without empty cell" "no empty cell"
sub v2a 'top 2' 'top 4'; bad "top too large" "top ID"
sub v2a 'top 2' 'top 3'; bad "top not covering" "root position"
sub v2a 'top 2' 'B ......... 4@2'; bad "B in a root-X proof" "B node in a root-X"
sub v2a 'claim breaker' 'claim maker'; bad "claim" "claim"
sub v2a '*:1,8' '*:1,8 junk'; bad "junk" "expected a cell"
sub v2a 'R X...OX..O' 'R X...OX..'; bad "short position" "bad position"
sub v2b 'top 3' 'top 2'; bad "root O top not B" "not the B node"
sub v2b 'root O .........' 'root O O........'; bad "root O other position" \
    "not the root position"
sub v2b 'B ......... 4@2' 'B ......... *'; bad "B potential 8" "not below 2^k"
sub v2b 'B ......... 4@2' 'B ......... 4@2
B ......... 4@2'; bad "second B" "second B node"
sub v2b 'B ......... 4@2' 'B ......... 4@0'; bad "B not covered" "not covered"
sub v2c 'top 1' 'top 1
end'; bad "text after end" "after the end"
sub v2c 'root O O........' 'root O X........'; bad "root O image" "not the root position"
sed '$d' "$T/v2a" >"$T/bad"; bad "missing end" "missing end"
sed '$d' "$T/v2a" | sed '$d' >"$T/bad"; bad "missing top" "truncated"
sub v2a 'top 2' 'end'; bad "end before top" "end before"

# A line far longer than 64 KB (tokens may be separated by several spaces).
awk '{ if ($1 == "R") { sp = " "; while (length(sp) < 100000) sp = sp sp
    sub(/ 7 /, sp "7" sp) } print }' \
    "$T/v2a" >"$T/v2long"
out=$("$CHK" "$T/v2long") || fail "long line: $out"

# A 3x2 board (3 columns, 2 rows; cells 0 1 2 / 3 4 5 from the bottom), k = 3:
# the lines are the rows 012 and 345 only, and there are 4 symmetries.
# root O O.....: B ..O...: is its column mirror (0 <-> 2); O 2 kills row 012,
# row 345 has no X, so P = 1 < 8.  root O .....O: the row mirror (5 -> 2).
printf 'mnk-proof 2\ngame 3 2 3\nclaim breaker\nroot O O.....\nB ..O... *\ntop 1\nend\n' \
    >"$T/v2r"
out=$("$CHK" "$T/v2r") || fail "rectangle: $out"
sub v2r 'root O O.....' 'root O .....O'
out=$("$CHK" "$T/bad") || fail "rectangle, row mirror: $out"
# no symmetry of the rectangle maps cell 0 to cell 1
sub v2r 'root O O.....' 'root O .O....'; bad "rectangle, no symmetry" "not the root position"

"$CHK" >/dev/null 2>&1; [ $? -eq 2 ] || fail "usage: exit status not 2"
echo ok
