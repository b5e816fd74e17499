#!/bin/sh
# The dependency rule of docs/architecture.md, checked over the #include
# lines of src/ and tests/unit/ (run by `make check-layers`, part of
# `make check`):
#   src/lib/NAME     includes only src/lib/
#   src/lang         includes only src/lang/ and src/lib/util/
#   src/runtime      includes only src/runtime/, src/lang/ and src/lib/
#   src/modules/NAME includes src/modules/, src/lang/, src/lib/ and of the
#                    runtime only its API (runtime/interp.h, runtime/value.h)
#   src/cli          includes anything; nothing includes src/cli/
#   tests/unit       includes only src/lib/ (unit tests link libcore.a)
# and no two folders include each other through any chain (no circle).
# Prints each violation and exits 1 if there is one.
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX")
trap 'rm -rf "$T"' EXIT
bad=0
: >"$T/edges"
folder() { # the folder of a path under src/, as lib/util, runtime, modules/games, ...
    case $1 in
    lib/*/*) echo "$1" | cut -d/ -f1-2 ;;
    modules/*/*) echo "$1" | cut -d/ -f1-2 ;;
    modules/*) echo modules ;;
    */*) echo "$1" | cut -d/ -f1 ;;
    grammar.h | lexer.h) echo lang ;;
    *) echo "?" ;;
    esac
}
for f in $(find src tests/unit -name '*.[chly]' -o -name '*.def' | sort); do
    case $f in
    src/*) from=$(folder "${f#src/}") ;;
    tests/unit/*) from=tests/unit ;;
    esac
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        case $inc in tests/* | bench/*) continue ;; esac
        # a header beside the file (tests/unit/unit.h)
        [ -f "$(dirname "$f")/$inc" ] && continue
        to=$(folder "$inc")
        ok=1
        case $from in
        lib/*) case $to in lib/*) ;; *) ok=0 ;; esac ;;
        lang) case $to in lang | lib/util) ;; *) ok=0 ;; esac ;;
        runtime) case $to in runtime | lang | lib/*) ;; *) ok=0 ;; esac ;;
        modules | modules/*) case $to in modules | modules/* | runtime | lang | lib/*) ;; *) ok=0 ;; esac ;;
        cli) ;;
        tests/unit) case $to in lib/*) ;; *) ok=0 ;; esac ;;
        esac
        [ "$to" = cli ] && [ "$from" != cli ] && ok=0
        # builtins see the runtime through its API (interp.h, value.h)
        case $from:$inc in
        modules*:runtime/interp.h | modules*:runtime/value.h) ;;
        modules*:runtime/*) ok=0 ;;
        esac
        if [ $ok -eq 0 ]; then
            echo "layers: $f includes $inc ($from may not use $to)"
            bad=1
        fi
        [ "$from" != "$to" ] && echo "$from $to" >>"$T/edges"
    done
done
# a circle between folders: tsort reports a loop
sort -u "$T/edges" >"$T/e"
if ! tsort "$T/e" >/dev/null 2>"$T/loop"; then
    echo "layers: folders that include each other (a circle):"
    sed 's/^/  /' "$T/loop"
    bad=1
fi
[ $bad -eq 0 ] && echo "layers: ok ($(wc -l <"$T/e") folder dependencies, no circle)"
exit $bad
