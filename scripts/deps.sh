#!/bin/sh
# Check (and, as root with apt-get, install) what cgt needs to build:
# bison, flex, GMP headers, readline headers, xz, python3 and man (tests).  With --fuzz also clang's
# libFuzzer runtime.  Prints the exact install command when it cannot act.
set -u
need=""
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_hdr() { printf '#include <%s>\nint main(void){return 0;}\n' "$1" |
    ${CC:-cc} -x c -o /dev/null - >/dev/null 2>&1; }

have_cmd bison || need="$need bison"
have_cmd flex || need="$need flex"
have_cmd ${CC:-cc} || need="$need gcc"
have_cmd make || need="$need make"
have_cmd xz || need="$need xz-utils"   # tests: an independent CRC-64 (mq_infcheck.sh)
have_cmd python3 || need="$need python3"   # tests: the REPL on a pseudo-terminal (repl.sh)
have_cmd man || need="$need man-db"       # tests: the installed man page renders (install.sh)
have_hdr gmp.h || need="$need libgmp-dev"
printf '#include <stdio.h>\n#include <readline/readline.h>\nint main(void){return 0;}\n' |
    ${CC:-cc} -x c -o /dev/null - >/dev/null 2>&1 || need="$need libreadline-dev"
if [ "${1:-}" = "--fuzz" ]; then
    have_cmd clang || need="$need clang"
    printf 'int LLVMFuzzerTestOneInput(const unsigned char*d,unsigned long n){(void)d;(void)n;return 0;}\n' |
        clang -fsanitize=fuzzer -x c -o /dev/null - >/dev/null 2>&1 ||
        need="$need libclang-rt-14-dev"
fi

[ -z "$need" ] && exit 0
echo "deps: missing:$need" >&2
if [ "$(id -u)" = 0 ] && have_cmd apt-get; then
    echo "deps: installing with apt-get:$need" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null 2>&1 || true
    # shellcheck disable=SC2086
    if apt-get install -y -qq --no-install-recommends $need >/dev/null; then
        exit 0
    fi
    echo "deps: apt-get install failed" >&2
    exit 1
fi
echo "deps: install them with:  sudo apt-get install$need" >&2
exit 1
