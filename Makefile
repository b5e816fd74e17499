# cgt: one non-recursive Makefile.  Objects and generated sources go under
# $(BUILD) (build/ by default; build-asan/ for the sanitizer variant).
# `make help` lists the targets.

BUILD   ?= build
CC      ?= cc
WERROR  ?=
V       ?= 0
SAN     ?=
OPT     ?= -O2

WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wold-style-definition -Wwrite-strings -Wvla -Wformat=2
ifeq ($(WERROR),1)
WARN    += -Werror
endif
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) $(SAN) -Isrc -I$(BUILD)/gen -pthread
LDLIBS  := -lgmp -lreadline -lm -pthread

ifeq ($(V),0)
Q := @
else
Q :=
endif

# core = the mathematics (no parser, no runtime): unit tests link only this.
CORE_SRC := $(sort $(wildcard src/lib/*/*.c))
# The m,n,k solver's files are compiled three times: with 64-bit bitboards,
# and for larger boards with 128-bit (MNK_WIDE=1, functions mnkw_*) and
# 256-bit ones (MNK_WIDE=2, mnkx_*), src/lib/mnk/mnk_int.h.
MNK_VARIANT := mnk_geo mnk_pair mnk_search mnk_proof mnk_ckpt mnk mnk_par
MNK_WIDE_OBJ := $(foreach w,1 2,$(patsubst %,$(BUILD)/obj/src/lib/mnk/wide$(w)/%.o,$(MNK_VARIANT)))
RT_SRC   := $(sort $(wildcard src/runtime/*.c src/lang/*.c src/modules/*.c src/modules/*/*.c src/cli/*.c))
CORE_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRC)) $(MNK_WIDE_OBJ)
RT_OBJ   := $(patsubst %.c,$(BUILD)/obj/%.o,$(RT_SRC)) \
            $(BUILD)/obj/gen/lexer.o $(BUILD)/obj/gen/grammar.o
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
ORACLE_SRC := $(sort $(wildcard tests/oracle/*.c))
ORACLE_BIN := $(patsubst tests/oracle/%.c,$(BUILD)/oracle/%,$(ORACLE_SRC))

CGT := $(BUILD)/cgt

# The distributed m,n,k solver (mpi/mnk_mpi.c, docs/mnk.md) is built only
# when Open MPI's mpicc is installed (scripts/deps.sh --mpi) and not in the
# sanitizer builds; cgt itself never needs MPI.
MPICC   ?= mpicc
MPI_BIN := $(if $(SAN),,$(if $(shell command -v $(MPICC) 2>/dev/null),$(BUILD)/mnk_mpi))

.PHONY: all core deps demo check check-layers check-unit check-golden check-slow check-docs check-asan \
        check-valgrind check-asan-clang check-tsan check-hostile fuzz bench docs golden-update format clean install \
        uninstall help

all: $(CGT) $(UNIT_BIN) $(ORACLE_BIN) $(MPI_BIN)

core: $(BUILD)/libcore.a $(UNIT_BIN) $(ORACLE_BIN)

deps:
	$(Q)sh scripts/deps.sh

$(BUILD)/gen/grammar.c $(BUILD)/gen/grammar.h: src/lang/grammar.y
	@mkdir -p $(BUILD)/gen
	@echo "  BISON   $<"
	$(Q)bison -Wall -Werror -o $(BUILD)/gen/grammar.c --defines=$(BUILD)/gen/grammar.h $<

$(BUILD)/gen/lexer.c $(BUILD)/gen/lexer.h: src/lang/lexer.l $(BUILD)/gen/grammar.h
	@mkdir -p $(BUILD)/gen
	@echo "  FLEX    $<"
	$(Q)flex -o $(BUILD)/gen/lexer.c --header-file=$(BUILD)/gen/lexer.h $<

# Generated code is compiled without the pedantic warning set it was not
# written for.
$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(BUILD)/gen/grammar.h $(BUILD)/gen/lexer.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 -D_DEFAULT_SOURCE $(CFLAGS) $(SAN) -Isrc -I$(BUILD)/gen -Wno-unused-function -c -o $@ $<

$(RT_OBJ): | $(BUILD)/gen/grammar.h $(BUILD)/gen/lexer.h

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/src/lib/mnk/wide1/%.o: src/lib/mnk/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (MNK_WIDE=1)"
	$(Q)$(CC) $(ALL_CFLAGS) -DMNK_WIDE=1 -MMD -MP -c -o $@ $<

$(BUILD)/obj/src/lib/mnk/wide2/%.o: src/lib/mnk/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (MNK_WIDE=2)"
	$(Q)$(CC) $(ALL_CFLAGS) -DMNK_WIDE=2 -MMD -MP -c -o $@ $<

$(BUILD)/libcore.a: $(CORE_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(CGT): $(RT_OBJ) $(BUILD)/libcore.a
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libcore.a tests/unit/unit.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -I. -Itests/unit -o $@ $< $(BUILD)/libcore.a $(LDLIBS)

$(BUILD)/mnk_mpi: mpi/mnk_mpi.c $(BUILD)/libcore.a
	@echo "  MPICC   $<"
	$(Q)$(MPICC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libcore.a $(LDLIBS)

# Independent oracles: standalone programs that share no code with cgt.
$(BUILD)/oracle/%: tests/oracle/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 -D_DEFAULT_SOURCE -O2 -g $(SAN) -o $@ $< -lm

# The m,n,k proof checker has its parts in tests/oracle/mnk_check/.
$(BUILD)/oracle/mnk_check: tests/oracle/mnk_check.c $(wildcard tests/oracle/mnk_check/*.c) \
		tests/oracle/mnk_check/common.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 -D_DEFAULT_SOURCE -O2 -g $(SAN) -Itests/oracle -o $@ $(filter %.c,$^) -lm

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

check: deps check-layers
	$(Q)$(MAKE) --no-print-directory -j2 all
	$(Q)CGT=$(CGT) BUILD=$(BUILD) sh tests/run

# The dependency rule of docs/architecture.md over the #include lines.
check-layers:
	$(Q)sh scripts/check-layers.sh

check-slow: deps
	-$(Q)sh scripts/deps.sh --mpi
	$(Q)$(MAKE) --no-print-directory all
	$(Q)CGT=$(CGT) BUILD=$(BUILD) TIER=slow sh tests/run

check-unit: all
	$(Q)CGT=$(CGT) BUILD=$(BUILD) ONLY=unit sh tests/run

check-golden: all
	$(Q)CGT=$(CGT) BUILD=$(BUILD) ONLY=golden sh tests/run

check-docs: all
	$(Q)CGT=$(CGT) BUILD=$(BUILD) ONLY=docs sh tests/run

check-asan: deps
	$(Q)$(MAKE) --no-print-directory -j2 BUILD=build-asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" all
	$(Q)ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    CGT=build-asan/cgt BUILD=build-asan SANITIZED=1 sh tests/run

# The same tier built by clang, whose UBSan has checks gcc's lacks (e.g.
# pointer-overflow: a zero offset applied to NULL).
check-asan-clang: deps
	$(Q)$(MAKE) --no-print-directory -j2 BUILD=build-asan-clang CC=clang OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" all
	$(Q)ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    CGT=build-asan-clang/cgt BUILD=build-asan-clang SANITIZED=1 sh tests/run

# The misère quotient's threads under ThreadSanitizer (docs/testing.md):
# the engine's unit test and the 1-against-2-threads comparison of `save`
# files, about 40 times slower than a normal build, so not in make check.
check-tsan: deps
	$(Q)$(MAKE) --no-print-directory -j2 BUILD=build-tsan OPT=-O1 SAN=-fsanitize=thread \
	    build-tsan/cgt build-tsan/tests/test_misere build-tsan/oracle/mq_infcheck
	$(Q)TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/test_misere
	$(Q)TSAN_OPTIONS="halt_on_error=1 exitcode=66" CGT=build-tsan/cgt \
	    sh tests/scripts/quotient_threads.sh

# Hostile-input tier (docs/testing.md): adversarial scripts with their expected
# clear errors and the --timeout/SIGINT latency of every long statement,
# under gcc's and clang's ASan+UBSan (clang's tier only when clang exists).
HOSTILE_SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-hostile: deps
	$(Q)$(MAKE) --no-print-directory -j2 BUILD=build-asan OPT=-O1 SAN="$(HOSTILE_SAN)" all
	$(Q)ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 CGT=build-asan/cgt \
	    BUILD=build-asan SANITIZED=1 ONLY=hostile sh tests/run
	$(Q)if command -v clang >/dev/null; then \
	    $(MAKE) --no-print-directory -j2 BUILD=build-asan-clang CC=clang OPT=-O1 \
	        SAN="$(HOSTILE_SAN)" all && \
	    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	        CGT=build-asan-clang/cgt BUILD=build-asan-clang SANITIZED=1 ONLY=hostile \
	        sh tests/run; fi

check-valgrind: all
	$(Q)CGT="valgrind -q --leak-check=full --error-exitcode=99 $(CGT)" BUILD=$(BUILD) \
	    ONLY=golden sh tests/run

FUZZ_SECONDS ?= 60
fuzz:
	$(Q)sh scripts/deps.sh --fuzz
	$(Q)sh tests/fuzz/build.sh
	$(Q)sh tests/fuzz/run.sh $(FUZZ_SECONDS)

bench: all
	$(Q)sh bench/run.sh

docs: all
	$(Q)$(CGT) --builtins-markdown > docs/builtins.md
	$(Q)$(CGT) --man > docs/cgt.1

golden-update: all
	$(Q)CGT=$(CGT) BUILD=$(BUILD) ONLY=golden UPDATE=1 sh tests/run

demo: deps
	$(Q)$(MAKE) --no-print-directory $(CGT)
	$(Q)$(CGT) examples/demo.cgt

# clang-format with the style of .clang-format (docs/testing.md "Code style")
# over the C sources, unit tests and oracles; generated code is left alone.
FORMAT_SRC = $(shell find src tests/unit tests/oracle -name '*.[ch]')
format:
	$(Q)clang-format -i $(FORMAT_SRC)

# make install [PREFIX=DIR] [DESTDIR=STAGE]: the binary, the m,n,k proof
# checker (libexec/cgt/mnk_check, which `mnk ... verify` runs), the checker
# of infinite-quotient proof files (libexec/cgt/mq_infcheck), the man page
# (docs/cgt.1, generated from the builtin table by `make docs`), the docs
# and the examples; make uninstall removes exactly these.
PREFIX  ?= /usr/local
BINDIR  := $(DESTDIR)$(PREFIX)/bin
MAN1DIR := $(DESTDIR)$(PREFIX)/share/man/man1
DOCDIR  := $(DESTDIR)$(PREFIX)/share/doc/cgt
LIBEXECDIR := $(DESTDIR)$(PREFIX)/libexec/cgt
INSTALL_DOCS := README.md $(sort $(wildcard docs/*.md))
INSTALL_EXAMPLES := $(sort $(wildcard examples/*.cgt examples/*.out))
install: $(CGT) $(BUILD)/oracle/mnk_check $(BUILD)/oracle/mq_infcheck
	install -d $(BINDIR) $(LIBEXECDIR) $(MAN1DIR) $(DOCDIR) $(DOCDIR)/examples
	install -m 755 $(CGT) $(BINDIR)/cgt
	install -m 755 $(BUILD)/oracle/mnk_check $(LIBEXECDIR)/mnk_check
	install -m 755 $(BUILD)/oracle/mq_infcheck $(LIBEXECDIR)/mq_infcheck
	install -m 644 docs/cgt.1 $(MAN1DIR)/cgt.1
	install -m 644 $(INSTALL_DOCS) $(DOCDIR)/
	install -m 644 $(INSTALL_EXAMPLES) $(DOCDIR)/examples/

uninstall:
	rm -f $(BINDIR)/cgt $(LIBEXECDIR)/mnk_check $(LIBEXECDIR)/mq_infcheck $(MAN1DIR)/cgt.1
	rm -f $(addprefix $(DOCDIR)/,$(notdir $(INSTALL_DOCS)))
	rm -f $(addprefix $(DOCDIR)/examples/,$(notdir $(INSTALL_EXAMPLES)))
	rmdir $(DOCDIR)/examples $(DOCDIR) $(LIBEXECDIR) 2>/dev/null || true

clean:
	rm -rf build build-asan build-asan-clang build-tsan build-cov build-fuzz

help:
	@echo "make            build build/cgt, unit tests and oracles"
	@echo "make core       only the mathematics (libcore.a), unit tests and oracles"
	@echo "make demo       install deps if needed, build, run examples/demo.cgt"
	@echo "make check      install deps if needed, build, run the fast test tier"
	@echo "make check-slow the slow tier (large quotients, 7,7,5, GP seeds)"
	@echo "make check-unit | check-golden | check-docs   one part of the suite"
	@echo "make check-layers  the include rule of docs/architecture.md (part of make check)"
	@echo "make check-asan the fast tier under AddressSanitizer + UBSan (build-asan/)"
	@echo "make check-asan-clang  the same under clang's sanitizers (build-asan-clang/)"
	@echo "make check-tsan the misère quotient's threads under ThreadSanitizer (build-tsan/)"
	@echo "make check-hostile  adversarial scripts and timeout latency under both sanitizers"
	@echo "make check-valgrind  golden scripts under valgrind"
	@echo "make fuzz       libFuzzer on the parser, the evaluator, load and the checkpoint loaders (FUZZ_SECONDS=60 each)"
	@echo "make bench      benchmarks (QUICK=1 shorter, LONG=1 adds the runs of tens of minutes); results go to docs/performance.md by hand"
	@echo "make docs       regenerate docs/builtins.md and the man page docs/cgt.1 from the builtin table"
	@echo "make install PREFIX=DIR  bin/cgt, share/man/man1/cgt.1, share/doc/cgt (docs, examples)"
	@echo "make uninstall PREFIX=DIR  removes what make install put there"
	@echo "make golden-update  rewrite golden .out files (review the diff!)"
	@echo "make format | clean    (V=1 shows commands, WERROR=1 -Werror)"
