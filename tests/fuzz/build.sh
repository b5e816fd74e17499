#!/bin/sh
# Build the libFuzzer parser target into build-fuzz/ (clang required).
set -e
B=build-fuzz
mkdir -p $B/gen
bison -Wall -Werror -o $B/gen/grammar.c --defines=$B/gen/grammar.h parser/grammar.y
flex -o $B/gen/lexer.c --header-file=$B/gen/lexer.h parser/lexer.l
clang -std=c11 -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
    -I. -I$B/gen -Wno-unused-function \
    -o $B/fuzz_parser tests/fuzz/fuzz_parser.c parser/*.c $B/gen/*.c \
    util/xalloc.c util/error.c -lgmp
echo "built $B/fuzz_parser"
