# Loom — build, test and benchmark.
#
#   make            loomc, libloom, the Airfoil programs
#   make run        the packages (make deps), everything `all` builds with
#                   them (the MPI and HDF5 programs too), then the Airfoil
#                   sample on the reference mesh (generated)
#   make test       the whole test suite
#   make bench      Airfoil seq and OpenMP vs the plain-C reference, loomc
#                   translation time (against clang; against the number of loops),
#                   staged loops against element by element in four builds
#                   of Airfoil seq (-O3, -march=native, 512-bit vectors,
#                   -mavx2; bench/vector.sh) and what the run-time tuner chose,
#                   Airfoil seq, OpenMP and MPI built with -march=native
#                   against the default build (bench/native.sh),
#                   wave with each transformation across its time loop off,
#                   the multi-file Airfoil against the single-file one,
#                   each loop's GB/s and GFLOP/s against the roof of its
#                   working set (the triad over L2, the last-level cache or
#                   memory) and the peak rate measured in the same run, and
#                   the chart build/bench/roofline.svg (bench/roofline.sh),
#                   matrix assembly against PETSc's MatSetValues by hand,
#                   OP2's aero on its default mesh (OP2's check on every
#                   target; spMV and res_calc vector against scalar); a
#                   summary last: the peak memory per rank of bench/scale.sh
#                   at 4 ranks against 1 on its smallest mesh
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

# SANITIZE=1: everything built with AddressSanitizer and UndefinedBehavior-
# Sanitizer (any UB report is fatal), in build/san/ so that its objects never
# mix with the normal ones; `make test SANITIZE=1` runs the whole suite on
# them (.ci/run does, before `make test`).  The flags go into CC, so every
# compile and every link of every rule gets them.
SANITIZE ?= 0
ifeq ($(SANITIZE),1)
BUILD    := build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=undefined
CC_PLAIN := $(CC)
override CC := $(CC) $(SANFLAGS)
# LeakSanitizer stays on (in Criterion's test processes too); libclang is not
# instrumented, and fuzz/lsan.supp may name its frames, never loomc's.
export ASAN_OPTIONS  := detect_leaks=1:detect_stack_use_after_return=1
export LSAN_OPTIONS  := suppressions=$(abspath fuzz/lsan.supp):print_suppressions=0
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
# The 720,000-cell Airfoil run takes too long instrumented; the small mesh runs.
export LOOM_E2E_QUICK := 1
# ... and the CMake package test installs the normal build.
export LOOM_E2E_SANITIZE := 1
endif

CFLAGS_LOOMC := $(CSTD) $(WARN) $(OPT) -Icompiler -I$(LLVM)/include -DLOOM_VERSION='"$(VERSION)"' \
                -DLOOM_DEFAULT_INCLUDE_DIR='"$(abspath runtime/include)"'
LDLIBS_LOOMC := -L$(LLVM)/lib -lclang -Wl,-rpath,$(LLVM)/lib -lisl -lgmp
# libloom's sources (and the unit tests that include them) call the API's
# functions themselves: no call-site macros (loom.h, "call sites").
CFLAGS_RT    := $(CSTD) $(WARN) $(OPT) -Iruntime/include -Iruntime/src -DLOOM_NO_CALL_SITES
# The Airfoil programs: the same flags for the Loom build and the baseline.
# -fno-math-errno: sqrt needs no errno check, so loops calling it keep no
# call path to libm (results are unchanged: sqrt is correctly rounded
# either way).  It made the fused Airfoil loops no slower than their parts
# in short runs; the larger cause of their slowdown was 4K aliasing between
# dats, which libloom now avoids (runtime/src/core/dat.c).
CFLAGS_APP   := $(CSTD) -Wall -Wextra -Werror -O3 -fno-math-errno -g -Iruntime/include \
                -Isamples/airfoil

# loomc: compiler/main.c and a folder per layer (compiler/README.md).
LOOMC_SRC := $(wildcard compiler/*.c compiler/*/*.c)
LOOMC_OBJ := $(LOOMC_SRC:compiler/%.c=$(BUILD)/obj/compiler/%.o)
LOOMC_HDR := $(wildcard compiler/*/*.h)
# PETSc, for matrices (runtime/src/mat/), found with pkg-config like HDF5
# (mk/mpi.mk).  Matrices are a library of their own, libloom_petsc.a
# (mk/mpi.mk: libloom_mpi_petsc.a), linked ahead of libloom.a by the
# programs that declare them: libloom and libloom_mpi (static or shared)
# hold no matrix code and need no PETSc.  With PETSc, libloom_petsc is
# mat/'s files but nopetsc.c, compiled with PETSc's and MPI's flags
# (PETSc's headers include mpi.h); without it, mat/nopetsc.c alone, which
# reports the missing PETSc at every matrix call.  A program that calls a
# matrix function without libloom_petsc fails to link, on an undefined
# reference naming that function (loom.h, "matrices").
HAVE_PETSC := $(shell pkg-config --exists petsc mpi-c 2>/dev/null && echo 1)
ifeq ($(HAVE_PETSC),1)
PETSC_CFLAGS := $(shell pkg-config --cflags petsc mpi-c)
PETSC_LIBS   := $(shell pkg-config --libs petsc mpi-c)
RT_MAT_SRC   := $(filter-out runtime/src/mat/nopetsc.c,$(wildcard runtime/src/mat/*.c))
else
RT_MAT_SRC   := runtime/src/mat/nopetsc.c
endif

# libloom.a: runtime/src/core/ and plan/ (core/nompi.c stands in for MPI
# and I/O); libloom_petsc.a: mat/ (above).  mk/mpi.mk builds libloom_mpi.a
# from core, plan, mpi and io without core/nompi.c, and libloom_mpi_petsc.a
# from mat/ with -DLOOM_MPI: runtime/README.md.
RT_SRC    := $(wildcard runtime/src/core/*.c runtime/src/plan/*.c)
RT_OBJ    := $(RT_SRC:runtime/src/%.c=$(BUILD)/obj/runtime/%.o)
RT_MAT_OBJ := $(RT_MAT_SRC:runtime/src/%.c=$(BUILD)/obj/runtime/%.o)
RT_HDR    := runtime/include/loom.h runtime/include/loom_gen.h runtime/include/loom_petsc.h $(wildcard runtime/src/*/*.h)

LOOMC   := $(BUILD)/bin/loomc
LIBLOOM := $(BUILD)/lib/libloom.a

# A sample's rules, one template for every makefile in mk/:
# $(call loom_c,OUT,SOURCE,TARGET,LOOMC_ARGS): OUT.c, SOURCE through loomc
# for TARGET, with its depfile (a header's change translates it again).
define loom_c
$(1).c: $(2) $$(LOOMC)
	@mkdir -p $$(@D)
	$$(LOOMC) -MMD --target=$(strip $(3)) $(strip $(4)) $$< -o $$@
-include $(1).d
endef
# $(call loom_program,PROGRAM,SOURCE,TARGET,CFLAGS,LOOMC_ARGS): that C
# compiled with CFLAGS and linked with libloom (seq, openmp).
define loom_program
$(call loom_c,$(1),$(2),$(3),$(5))

$(1): $(1).c $$(LIBLOOM)
	$$(CC) $(strip $(4)) -o $$@ $$< $$(LIBLOOM) -lm
endef
LIBLOOM_PETSC := $(BUILD)/lib/libloom_petsc.a
# $(call loom_petsc_program,PROGRAM,SOURCE,TARGET,CFLAGS,LOOMC_ARGS,HEADERS):
# a program with matrices, for any target: SOURCE through loomc (with
# PETSc's -I and -D), compiled with CFLAGS and PETSc's, linked as the
# README says (libloom_petsc; under MPI, libloom_mpi_petsc by mpicc,
# mk/mpi.mk's variables, read when the recipe runs).
loom_if_mpi = $(if $(findstring mpi,$(1)),$(2),$(3))
define loom_petsc_program
$(call loom_c,$(1),$(2),$(3),$(5) $$(filter -I% -D%,$$(PETSC_CFLAGS)))

$(1): $(1).c $(call loom_if_mpi,$(3),$(BUILD)/lib/libloom_mpi_petsc.a $(BUILD)/lib/libloom_mpi.a,\
    $$(LIBLOOM_PETSC) $$(LIBLOOM)) $(6)
	$(call loom_if_mpi,$(3),$$(MPICC_CMD),$$(CC)) $(strip $(4)) $$(PETSC_CFLAGS) \
	  $(if $(findstring openmp,$(3)),-fopenmp )-o $$@ $$< \
	  $(call loom_if_mpi,$(3),$$(LOOM_MPI_PETSC_LINK),$$(LOOM_PETSC_LINK))
endef
# What a program with matrices links after its objects (the README's line).
LOOM_PETSC_LINK = $(LIBLOOM_PETSC) $(LIBLOOM) $(PETSC_LIBS) -lm
AIRFOIL := $(BUILD)/samples/airfoil
MESHGEN := $(AIRFOIL)/naca0012
REFMESH := $(AIRFOIL)/new_grid.dat
# Airfoil seq with loomc's transformations turned off: the baselines of
# the fusion benchmark (bench/fusion.sh); and `unrolled`, OP2's k loop
# written out as its two stages (bench/unroll_k.py), the form the sample
# had before loomc rotated loops.
AIRFOIL_VARIANTS := nofuse novec plain
LOOMC_OPTS_nofuse := --no-fuse
LOOMC_OPTS_novec  := --no-vectorize
LOOMC_OPTS_plain  := --no-fuse --no-vectorize

.PHONY: all deps run test unit golden e2e regress bench clean
all: $(LOOMC) $(LIBLOOM) $(LIBLOOM_PETSC) $(MESHGEN) $(AIRFOIL)/airfoil_seq $(AIRFOIL)/airfoil_ref \
     $(AIRFOIL)/airfoil_openmp $(AIRFOIL_VARIANTS:%=$(AIRFOIL)/airfoil_%) \
     $(AIRFOIL)/airfoil_unrolled

deps:
	@scripts/install-deps.sh

# ---- loomc -------------------------------------------------------------------
$(BUILD)/obj/compiler/%.o: compiler/%.c $(LOOMC_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LOOMC) -c $< -o $@

$(LOOMC): $(LOOMC_OBJ)
	@mkdir -p $(@D)
	$(CC) $(OPT) -o $@ $^ $(LDLIBS_LOOMC)

# ---- libloom -----------------------------------------------------------------
$(BUILD)/obj/runtime/%.o: runtime/src/%.c $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) -c $< -o $@

$(BUILD)/obj/runtime/mat/%.o: CFLAGS_RT += $(PETSC_CFLAGS)

$(LIBLOOM): $(RT_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(LIBLOOM_PETSC): $(RT_MAT_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# An archive holding a member its list no longer has (one made by an older
# Makefile: libloom.a held mat/ before libloom_petsc.a did) is removed
# here, so that it is made again; `ar t` costs a few milliseconds.
LOOM_STALE_ARCHIVE = $(if $(wildcard $(1)),$(if $(filter-out $(notdir $(2)),$(shell ar t $(1) 2>/dev/null)),$(shell rm -f $(1))))
$(call LOOM_STALE_ARCHIVE,$(LIBLOOM),$(RT_OBJ))
$(call LOOM_STALE_ARCHIVE,$(LIBLOOM_PETSC),$(RT_MAT_OBJ))

# ---- Airfoil -----------------------------------------------------------------
$(MESHGEN): samples/airfoil/naca0012.c samples/common/naca_grid.h
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 -Wall -Wextra -Werror -Isamples/common -o $@ $< -lm

$(eval $(call loom_program,$(AIRFOIL)/airfoil_seq,samples/airfoil/airfoil.c,seq,\
  $$(CFLAGS_APP),-Isamples/airfoil))

# The same generated C compiled for this machine's vector instructions,
# with GCC's default vector width and with 512 bits, and for AVX2 (which
# keeps the AVX-512 twins) (bench/vector.sh; make bench only: the binaries
# run on this machine alone).
AIRFOIL_BUILDS = $(AIRFOIL)/airfoil_native $(AIRFOIL)/airfoil_native512 $(AIRFOIL)/airfoil_avx2 \
                 $(AIRFOIL)/airfoil_openmp_native
$(AIRFOIL)/airfoil_native: $(AIRFOIL)/airfoil_seq.c $(LIBLOOM)
	$(CC) $(CFLAGS_APP) -march=native -o $@ $< $(LIBLOOM) -lm
$(AIRFOIL)/airfoil_native512: $(AIRFOIL)/airfoil_seq.c $(LIBLOOM)
	$(CC) $(CFLAGS_APP) -march=native -mprefer-vector-width=512 -o $@ $< $(LIBLOOM) -lm
$(AIRFOIL)/airfoil_avx2: $(AIRFOIL)/airfoil_seq.c $(LIBLOOM)
	$(CC) $(CFLAGS_APP) -mavx2 -mfma -o $@ $< $(LIBLOOM) -lm
# OpenMP's and MPI's generated C for this machine too (bench/native.sh;
# airfoil_mpi_native: mk/mpi_samples.mk).
$(AIRFOIL)/airfoil_openmp_native: $(AIRFOIL)/airfoil_openmp.c $(LIBLOOM)
	$(CC) $(CFLAGS_APP) -march=native -fopenmp -o $@ $< $(LIBLOOM) -lm

# The same program with transformations turned off (AIRFOIL_VARIANTS).
$(foreach v,$(AIRFOIL_VARIANTS),$(eval $(call loom_program,$(AIRFOIL)/airfoil_$(v),\
  samples/airfoil/airfoil.c,seq,$$(CFLAGS_APP),$(LOOMC_OPTS_$(v)) -Isamples/airfoil)))

$(AIRFOIL)/airfoil_unrolled.c: samples/airfoil/airfoil.c bench/unroll_k.py $(LOOMC)
	@mkdir -p $(@D)
	python3 bench/unroll_k.py $< $(AIRFOIL)/airfoil_unrolled.in.c
	$(LOOMC) --target=seq -Isamples/airfoil $(AIRFOIL)/airfoil_unrolled.in.c -o $@

$(AIRFOIL)/airfoil_unrolled: $(AIRFOIL)/airfoil_unrolled.c $(LIBLOOM)
	$(CC) $(CFLAGS_APP) -o $@ $< $(LIBLOOM) -lm

$(eval $(call loom_program,$(AIRFOIL)/airfoil_openmp,samples/airfoil/airfoil.c,openmp,\
  $$(CFLAGS_APP) -fopenmp,-Isamples/airfoil))

$(AIRFOIL)/airfoil_ref: samples/airfoil/airfoil_ref.c samples/airfoil/*.h samples/common/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_APP) -o $@ $< -lm

$(REFMESH): $(MESHGEN)
	$(MESHGEN) -I 400 -J 600 $@

# The packages first, then a new make: it decides what MPI, HDF5 and PETSc
# allow only once they are installed (so `all` builds the MPI programs the
# README's distributed example runs).
run:
	@scripts/install-deps.sh
	@$(MAKE) --no-print-directory all $(REFMESH)
	$(AIRFOIL)/airfoil_seq $(REFMESH) 1000

# ---- tests -------------------------------------------------------------------
include tests/tests.mk

# ---- benchmarks --------------------------------------------------------------
# BENCH_ITERS (default 300) iterations on the reference mesh, BENCH_REPEAT
# (default 3) interleaved runs per program; prints ratios to the baseline.
bench: all $(REFMESH) $(AIRFOIL_BUILDS)
	mkdir -p $(BUILD)/bench && rm -f $(BUILD)/bench/summary.txt
	bench/translate.sh $(LOOMC) samples/airfoil/airfoil.c -Isamples/airfoil
	bench/vector.sh $(REFMESH) $${VECTOR_ITERS:-50} $(AIRFOIL)
	bench/native.sh $(REFMESH) $${VECTOR_ITERS:-50} $(AIRFOIL)
	bench/scaling.sh $(LOOMC)
	bench/fusion.sh $(REFMESH) $${BENCH_ITERS:-300} $(AIRFOIL)
	bench/openmp.sh $(REFMESH) $${BENCH_ITERS:-300} $(AIRFOIL)
	bench/roofline.sh $(REFMESH) $${ROOFLINE_ITERS:-50} $(AIRFOIL) $(BUILD)/bench/roofline.svg
	if [ -x $(AIRFOIL)/airfoil_mpi ]; then bench/mpi.sh $(REFMESH) $${BENCH_ITERS:-300} $(AIRFOIL); fi
	if [ -x $(AIRFOIL)/airfoil_hdf5_mpi ]; then bench/scale.sh $(BUILD); fi
	bench/wave.sh $(BUILD)/samples/wave $${WAVE_N:-800} $${BENCH_ITERS:-300}
	bench/modular.sh $(REFMESH) $${BENCH_ITERS:-300} $(AIRFOIL) $(BUILD)/samples/airfoil-modular
	if [ "$(HAVE_PETSC)" = 1 ]; then bench/assembly.sh $(BUILD)/samples/poisson; fi
	bench/aero.sh $(AERO) $${AERO_ITERS:-20}
	bench/extruded.sh $(BUILD)
	@echo; echo "bench summary:"; cat $(BUILD)/bench/summary.txt 2>/dev/null || \
	  echo "scale: not run (no airfoil_hdf5_mpi: MPI and HDF5 build)"

clean:
	rm -rf $(BUILD)

# Further rules (install, fuzzing, ...) live in mk/*.mk; mk/modular.mk
# last, as it uses mk/mpi.mk's variables in its rules' prerequisites.
include $(filter-out mk/modular.mk,$(wildcard mk/*.mk))
include mk/modular.mk
