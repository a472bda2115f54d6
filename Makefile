# Loom — build, test and benchmark.
#
#   make            loomc, libloom, the Airfoil programs
#   make run        the Airfoil sample on the reference mesh (generated)
#   make test       the whole test suite
#   make bench      Airfoil seq vs the plain-C reference
#
# `make deps` installs the Debian packages the project needs (as root);
# `run` and `test` call it first, and it does nothing when all are present.

CC       ?= cc
BUILD    := build
LLVM     ?= /usr/lib/llvm-14
PREFIX   ?= /usr/local
# -std=c11 (not gnu11): no floating-point contraction across statements,
# so results are bit-identical between programs built from the same kernels.
CSTD     := -std=c11
WARN     := -Wall -Wextra -Werror=implicit-function-declaration
OPT      ?= -O2 -g
VERSION  := 0.1.0

CFLAGS_LOOMC := $(CSTD) $(WARN) $(OPT) -I$(LLVM)/include -DLOOM_VERSION='"$(VERSION)"' \
                -DLOOM_DEFAULT_INCLUDE_DIR='"$(abspath runtime/include)"'
LDLIBS_LOOMC := -L$(LLVM)/lib -lclang -Wl,-rpath,$(LLVM)/lib
CFLAGS_RT    := $(CSTD) $(WARN) $(OPT) -Iruntime/include
# The Airfoil programs: the same flags for the Loom build and the baseline.
CFLAGS_APP   := $(CSTD) -Wall -Wextra -Werror -O3 -g -Iruntime/include -Isamples/airfoil

LOOMC_SRC := $(wildcard compiler/*.c)
LOOMC_OBJ := $(LOOMC_SRC:compiler/%.c=$(BUILD)/obj/compiler/%.o)
RT_SRC    := $(wildcard runtime/src/*.c)
RT_OBJ    := $(RT_SRC:runtime/src/%.c=$(BUILD)/obj/runtime/%.o)

LOOMC   := $(BUILD)/bin/loomc
LIBLOOM := $(BUILD)/lib/libloom.a
AIRFOIL := $(BUILD)/samples/airfoil
MESHGEN := $(AIRFOIL)/naca0012
REFMESH := $(AIRFOIL)/new_grid.dat

.PHONY: all deps run test unit golden e2e bench clean
all: $(LOOMC) $(LIBLOOM) $(MESHGEN) $(AIRFOIL)/airfoil_seq $(AIRFOIL)/airfoil_ref

deps:
	@scripts/install-deps.sh

# ---- loomc -------------------------------------------------------------------
$(BUILD)/obj/compiler/%.o: compiler/%.c $(wildcard compiler/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LOOMC) -c $< -o $@

$(LOOMC): $(LOOMC_OBJ)
	@mkdir -p $(@D)
	$(CC) $(OPT) -o $@ $^ $(LDLIBS_LOOMC)

# ---- libloom -----------------------------------------------------------------
$(BUILD)/obj/runtime/%.o: runtime/src/%.c runtime/include/loom.h $(wildcard runtime/src/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) -c $< -o $@

$(LIBLOOM): $(RT_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# ---- Airfoil -----------------------------------------------------------------
$(MESHGEN): samples/airfoil/naca0012.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 -Wall -Wextra -Werror -o $@ $< -lm

$(AIRFOIL)/airfoil_seq.c: samples/airfoil/airfoil.c $(LOOMC)
	@mkdir -p $(@D)
	$(LOOMC) -MMD --target=seq -Isamples/airfoil $< -o $@
-include $(AIRFOIL)/airfoil_seq.d

$(AIRFOIL)/airfoil_seq: $(AIRFOIL)/airfoil_seq.c $(LIBLOOM)
	$(CC) $(CFLAGS_APP) -o $@ $< $(LIBLOOM) -lm

$(AIRFOIL)/airfoil_ref: samples/airfoil/airfoil_ref.c samples/airfoil/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_APP) -o $@ $< -lm

$(REFMESH): $(MESHGEN)
	$(MESHGEN) -I 400 -J 600 $@

run: deps all $(REFMESH)
	$(AIRFOIL)/airfoil_seq $(REFMESH) 1000

# ---- tests -------------------------------------------------------------------
include tests/tests.mk

# ---- benchmarks --------------------------------------------------------------
# BENCH_ITERS (default 300) iterations on the reference mesh, BENCH_REPEAT
# (default 3) interleaved runs per program; prints ratios to the baseline.
bench: all $(REFMESH)
	bench/translate.sh $(LOOMC) samples/airfoil/airfoil.c -Isamples/airfoil
	bench/airfoil.sh $(REFMESH) $${BENCH_ITERS:-300} $(AIRFOIL)/airfoil_ref $(AIRFOIL)/airfoil_seq

clean:
	rm -rf $(BUILD)

# Further rules (install, fuzzing, ...) live in mk/*.mk.
include $(wildcard mk/*.mk)
