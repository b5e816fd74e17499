#!/bin/sh
# Build the libFuzzer targets into build-fuzz/ (clang required):
#   fuzz_parser  the lexer and parser alone (fast, deep syntax coverage)
#   fuzz_eval    parse and run whole scripts (every builtin, 0.5 s each)
#   fuzz_load    any bytes as a result file for `load`
set -e
B=build-fuzz
mkdir -p $B/gen
bison -Wall -Werror -o $B/gen/grammar.c --defines=$B/gen/grammar.h src/lang/grammar.y
flex -o $B/gen/lexer.c --header-file=$B/gen/lexer.h src/lang/lexer.l
# -fno-sanitize-recover=all: every UBSan report stops the run (issue 14)
FLAGS="-std=c11 -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc -I. -I$B/gen"
clang $FLAGS -Wno-unused-function \
    -o $B/fuzz_parser tests/fuzz/fuzz_parser.c src/lang/*.c $B/gen/*.c \
    src/lib/util/xalloc.c src/lib/util/error.c -lgmp
echo "built $B/fuzz_parser"
clang $FLAGS -Wno-unused-function -pthread \
    -o $B/fuzz_eval tests/fuzz/fuzz_eval.c src/lang/*.c $B/gen/*.c src/runtime/*.c src/modules/*/*.c \
    src/lib/*/*.c -lgmp -lm
echo "built $B/fuzz_eval"
clang $FLAGS -Wno-unused-function -pthread \
    -o $B/fuzz_load tests/fuzz/fuzz_load.c src/lang/*.c $B/gen/*.c src/runtime/*.c src/modules/*/*.c \
    src/lib/*/*.c -lgmp -lm
echo "built $B/fuzz_load"
