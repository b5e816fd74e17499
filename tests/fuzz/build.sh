#!/bin/sh
# Build the libFuzzer targets into build-fuzz/ (clang required):
#   fuzz_parser  the lexer and parser alone (fast, deep syntax coverage)
#   fuzz_eval    parse and run whole scripts (every builtin, 0.5 s each)
#   fuzz_load    any bytes as a result file for `load`
#   fuzz_ckpt    any bytes as a Grundy, misère or m,n,k checkpoint (the
#                library's loaders alone)
set -e
B=build-fuzz
mkdir -p $B/gen
bison -Wall -Werror -o $B/gen/grammar.c --defines=$B/gen/grammar.h src/lang/grammar.y
flex -o $B/gen/lexer.c --header-file=$B/gen/lexer.h src/lang/lexer.l
# -fno-sanitize-recover=all: every UBSan report stops the run
FLAGS="-std=c11 -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc -I. -I$B/gen"
clang $FLAGS -Wno-unused-function \
    -o $B/fuzz_parser tests/fuzz/fuzz_parser.c src/lang/*.c $B/gen/*.c \
    src/lib/util/xalloc.c src/lib/util/error.c -lgmp
echo "built $B/fuzz_parser"
# the m,n,k solver's wide instances (the Makefile's MNK_WIDE_OBJ)
WIDE=""
for w in 1 2; do
    for f in mnk_geo mnk_pair mnk_search mnk_proof mnk_ckpt mnk mnk_par; do
        clang $FLAGS -Wno-unused-function -pthread -DMNK_WIDE=$w -c \
            -o $B/wide${w}_$f.o src/lib/mnk/$f.c
        WIDE="$WIDE $B/wide${w}_$f.o"
    done
done
clang $FLAGS -Wno-unused-function -pthread \
    -o $B/fuzz_eval tests/fuzz/fuzz_eval.c src/lang/*.c $B/gen/*.c src/runtime/*.c src/modules/*.c src/modules/*/*.c \
    src/lib/*/*.c $WIDE -lgmp -lm
echo "built $B/fuzz_eval"
clang $FLAGS -Wno-unused-function -pthread \
    -o $B/fuzz_load tests/fuzz/fuzz_load.c src/lang/*.c $B/gen/*.c src/runtime/*.c src/modules/*.c src/modules/*/*.c \
    src/lib/*/*.c $WIDE -lgmp -lm
echo "built $B/fuzz_load"
clang $FLAGS -Wno-unused-function -pthread \
    -o $B/fuzz_ckpt tests/fuzz/fuzz_ckpt.c src/lib/*/*.c $WIDE -lgmp -lm
echo "built $B/fuzz_ckpt"
