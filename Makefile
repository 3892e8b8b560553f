# gemmtop — see README.md.  `make run` and `make test` are all a user needs.
# Plain `make` builds the program (build/gemmtop), as `make all` does.
.DEFAULT_GOAL := all
PREFIX   ?= /usr/local
BUILD    ?= build
CC       ?= cc
PKG      := pkg-config
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN     := -Wall -Wextra -Wno-format-truncation -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
OPT      ?= -O2 -g
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) -DCL_TARGET_OPENCL_VERSION=120 $(EXTRA_CFLAGS) -Isrc \
             $(shell $(PKG) --cflags ncursesw 2>/dev/null) $(shell $(PKG) --cflags sqlite3 2>/dev/null) \
             $(shell $(PKG) --cflags libcjson 2>/dev/null || echo -I/usr/include/cjson)
BASE_LIBS = $(shell $(PKG) --libs ncursesw 2>/dev/null || echo -lncursesw) \
            $(shell $(PKG) --libs sqlite3 2>/dev/null || echo -lsqlite3) \
            $(shell $(PKG) --libs libcjson 2>/dev/null || echo -lcjson) -lOpenCL -lpthread -ldl -lm $(EXTRA_LIBS)
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.1.0)

# MPI (gemmtop sweep --mpi, docs/mpi.md) is optional: found with pkg-config (Open MPI's
# ompi-c, MPICH's mpich) or Open MPI's mpicc; MPI=0 builds without it. Only
# src/cli/mpisweep.c differs between the two builds; without MPI, --mpi says how to get it.
MPI ?= auto
ifneq ($(MPI),0)
  MPI_PC := $(firstword $(foreach p,ompi-c mpich,$(if $(shell $(PKG) --exists $(p) 2>/dev/null && echo y),$(p))))
  ifneq ($(MPI_PC),)
    MPI_CFLAGS := -DGEMMTOP_MPI $(shell $(PKG) --cflags $(MPI_PC))
    MPI_LIBS := $(shell $(PKG) --libs $(MPI_PC))
  else ifneq ($(shell mpicc --showme:compile 2>/dev/null),)
    MPI_CFLAGS := -DGEMMTOP_MPI $(shell mpicc --showme:compile)
    MPI_LIBS := $(shell mpicc --showme:link)
  endif
endif
LIBS = $(BASE_LIBS) $(MPI_LIBS)

# Every module but main (src/main.c, the composition root); tests link against these.
# The folders are the layers (docs/architecture.md): tui -> explorer -> core <- cli,
# core -> backend, and base under them all; src/core's sub-folders are its floors.
CORE_SRC := $(wildcard src/*/*.c src/core/*/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

FORCE:

.PHONY: FORCE search-table all run test test-unit test-e2e test-ui test-sanitize sanitize deps deps-test install uninstall clean bench fuzz

all: $(BUILD)/gemmtop

deps:
	@sh scripts/deps.sh build

deps-test:
	@sh scripts/deps.sh test

# The build's dependencies (the compiler, each library's header and the library) checked
# once per build folder before anything compiles (scripts/checkdeps.sh): what is missing is
# said in one line with what installs it, not met as a compiler error halfway through.
$(BUILD)/deps.checked: scripts/checkdeps.sh
	@mkdir -p $(BUILD)
	@sh scripts/checkdeps.sh '$(CC)' '$(CFLAGS_ALL)' '$(BASE_LIBS)'
	@touch $@
$(CORE_OBJ) $(BUILD)/src/main.o $(BUILD)/nompi/mpisweep.o: | $(BUILD)/deps.checked

# -MMD -MP: each object depends on the headers it includes (the .d files below), and
# only the files that print the version depend on VERSION.
DEPFLAGS = -MMD -MP
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(DEPFLAGS) -DGEMMTOP_VERSION='"$(VERSION)"' -c $< -o $@

# The loops that make the inputs and verify C run over every element of large matrices:
# at -O3 GCC vectorises them (at -O2 its cheapest cost model leaves most of them scalar).
HOT_OBJ := $(BUILD)/src/base/philox.o $(BUILD)/src/core/model/inputs.o $(BUILD)/src/core/run/verify.o
$(HOT_OBJ): CFLAGS_ALL += -O3

VERSIONED_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(shell grep -l GEMMTOP_VERSION src/*.c src/*/*.c src/core/*/*.c))
$(VERSIONED_OBJ): VERSION

# The one file that speaks MPI; its build without MPI explains how to get it. Its flags
# are kept in a stamp, so that switching MPI on or off rebuilds it.
$(BUILD)/src/cli/mpisweep.o: CFLAGS_ALL += $(MPI_CFLAGS)
$(BUILD)/src/cli/mpisweep.o: $(BUILD)/mpi.flags
$(BUILD)/mpi.flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(MPI_CFLAGS)' | cmp -s - $@ || echo '$(MPI_CFLAGS)' >$@

# gemmtop as a build without MPI makes it (tests/e2e/cli_mpi.sh): one file compiled
# again, the rest shared.
$(BUILD)/nompi/mpisweep.o: src/cli/mpisweep.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(DEPFLAGS) -c $< -o $@
$(BUILD)/gemmtop-nompi: $(filter-out $(BUILD)/src/cli/mpisweep.o,$(CORE_OBJ)) $(BUILD)/src/main.o $(BUILD)/nompi/mpisweep.o
	$(CC) $(OPT) $(EXTRA_CFLAGS) -o $@.tmp $^ $(BASE_LIBS)
	mv -f $@.tmp $@

# Linked beside and renamed, so that a running gemmtop is never overwritten in place.
$(BUILD)/gemmtop: $(CORE_OBJ) $(BUILD)/src/main.o
	$(CC) $(OPT) $(EXTRA_CFLAGS) -o $@.tmp $^ $(LIBS)
	mv -f $@.tmp $@

$(BUILD)/tests/%: tests/unit/%.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(DEPFLAGS) -DGEMMTOP_SOURCE_DIR='"$(CURDIR)"' -o $@ $< $(CORE_OBJ) $(LIBS) -lcmocka

# test_observe loads a made-up NVML (tests/unit/fake_nvml.c) from beside itself.
$(BUILD)/tests/libfake_nvml.so: tests/unit/fake_nvml.c tests/unit/fake_nvml.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -shared -o $@ $<
$(BUILD)/tests/test_observe: $(BUILD)/tests/libfake_nvml.so
# test_cublaslt loads a made-up cuBLASLt (tests/unit/fake_cublaslt.c) from beside itself.
$(BUILD)/tests/libfake_cublaslt.so: tests/unit/fake_cublaslt.c tests/unit/fake_cublaslt.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -shared -o $@ $< -lm
$(BUILD)/tests/test_cublaslt: $(BUILD)/tests/libfake_cublaslt.so

-include $(wildcard $(BUILD)/src/*.d $(BUILD)/src/*/*.d $(BUILD)/src/core/*/*.d $(BUILD)/tests/*.d $(BUILD)/nompi/*.d)

run: deps
	@$(MAKE) --no-print-directory all
	./$(BUILD)/gemmtop

# The builds of the test targets use every core (BUILD_JOBS, unless make was given -j
# itself): a file compiles on one core, and the suites that follow run their own work in
# parallel.
BUILD_JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
SUBMAKE_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(BUILD_JOBS))

test: deps-test
	@$(MAKE) --no-print-directory $(SUBMAKE_JOBS) all $(UNIT_BIN) $(BUILD)/gemmtop-nompi
	@BUILD=$(BUILD) sh tests/run_all.sh

# The same suite, built with AddressSanitizer and UndefinedBehaviorSanitizer.
test-sanitize sanitize: deps-test
	@$(MAKE) --no-print-directory $(SUBMAKE_JOBS) BUILD=build-asan OPT='-O1 -g -fno-omit-frame-pointer' \
	   EXTRA_CFLAGS='-fsanitize=address,undefined -fno-sanitize-recover=undefined' all \
	   $(UNIT_SRC:tests/unit/%.c=build-asan/tests/%) build-asan/gemmtop-nompi
	@BUILD=build-asan GEMMTOP_SANITIZE=1 sh tests/run_all.sh

# Fuzzing (docs/fuzzing.md): the libFuzzer harnesses of tests/fuzz/, built with clang,
# ASan and UBSan in build-fuzz/, each run for FUZZ_SECONDS. A crash fails the target and is
# kept in tests/fuzz/regressions/, which the ordinary suite replays (test_fuzz_replay).
FUZZ_HARNESSES := expr metadata preset npy tuners serve roster merge shapes
FUZZ_SECONDS ?= 60
fuzz: deps-test
	@$(MAKE) --no-print-directory $(SUBMAKE_JOBS) BUILD=build-fuzz CC=clang OPT='-O1 -g -fno-omit-frame-pointer' \
	   EXTRA_CFLAGS='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -Wno-unknown-warning-option' \
	   $(FUZZ_HARNESSES:%=build-fuzz/fuzz/fuzz_%)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_BUILD=build-fuzz sh tests/fuzz/run.sh

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.c tests/fuzz/fuzz.h $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DFUZZ_LIBFUZZER -fsanitize=fuzzer -o $@ $< tests/fuzz/fuzz_util.c $(CORE_OBJ) $(LIBS)

# docs/search.md's table: every strategy replayed on recorded spaces (SPACES: files that
# 'gemmtop sweep --exhaustive --save' wrote; by default the one shipped with the tests).
SPACES ?= tests/data/space-*.csv
search-table: all
	@GEMMTOP_BIN=$(BUILD)/gemmtop python3 tools/search_table.py $(SPACES)

# The standard benchmark: every shipped preset and the vendor BLAS, on the best device.
bench: deps
	@$(MAKE) --no-print-directory all
	./$(BUILD)/gemmtop bench --sizes $${SIZES:-1024,2048,4096} --rounds $${ROUNDS:-3} --save bench-results.csv

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/gemmtop/kernels/helpers \
	   $(DESTDIR)$(PREFIX)/share/gemmtop/presets $(DESTDIR)$(PREFIX)/share/gemmtop/lessons \
	   $(DESTDIR)$(PREFIX)/share/gemmtop/shapes \
	   $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/doc/gemmtop
	install -m 755 $(BUILD)/gemmtop $(DESTDIR)$(PREFIX)/bin/gemmtop
	install -m 644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/gemmtop/LICENSE
	install -m 644 kernels/*.cl $(DESTDIR)$(PREFIX)/share/gemmtop/kernels/
	install -m 644 kernels/helpers/* $(DESTDIR)$(PREFIX)/share/gemmtop/kernels/helpers/
	for f in presets/*.preset; do [ -e "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/gemmtop/presets/; done; true
	install -m 644 lessons/*.lesson $(DESTDIR)$(PREFIX)/share/gemmtop/lessons/
	install -m 644 shapes/*.shapes $(DESTDIR)$(PREFIX)/share/gemmtop/shapes/
	install -m 644 docs/gemmtop.1 $(DESTDIR)$(PREFIX)/share/man/man1/gemmtop.1

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/gemmtop $(DESTDIR)$(PREFIX)/share/gemmtop $(DESTDIR)$(PREFIX)/share/man/man1/gemmtop.1 \
	   $(DESTDIR)$(PREFIX)/share/doc/gemmtop

clean:
	rm -rf build build-asan build-fuzz
