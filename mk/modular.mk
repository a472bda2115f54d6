# The multi-file Airfoil (samples/airfoil-modular/; included by the
# top-level Makefile after mk/mpi.mk, whose MPICC_CMD, LIBLOOM_MPI and
# LOOM_MPI_LIBS it uses).
#
#   make airfoil-modular   build/samples/airfoil-modular/airfoil_modular_seq,
#                          _openmp and, when mpicc exists, _mpi and
#                          _mpi_openmp; also built by `make` (all)
#
# solver.c, the only file with par_loops, goes through loomc once per
# target (build/samples/airfoil-modular/solver_<target>.c, kept beside the
# programs); main.c and mesh.c have no loops and are compiled by the C
# compiler once, the same objects for every target.  Each program links
# its solver with them and its runtime: libloom (seq, openmp with
# -fopenmp) or libloom_mpi (mpi, mpi+openmp with mpicc).
# tests/e2e/airfoil_modular.sh runs them.

MODULAR        := $(BUILD)/samples/airfoil-modular
MODULAR_SRC    := samples/airfoil-modular
CFLAGS_MODULAR := $(CFLAGS_APP) -I$(MODULAR_SRC)
MODULAR_HDRS   := $(wildcard $(MODULAR_SRC)/*.h) samples/airfoil/airfoil_mesh.h \
                  samples/airfoil/airfoil_kernels.h \
                  $(wildcard samples/common/*.h) runtime/include/loom.h runtime/include/loom_gen.h
MODULAR_OBJ    := $(MODULAR)/main.o $(MODULAR)/mesh.o
MODULAR_PROGS  := $(MODULAR)/airfoil_modular_seq $(MODULAR)/airfoil_modular_openmp
MODULAR_MPI_PROGS := $(MODULAR)/airfoil_modular_mpi $(MODULAR)/airfoil_modular_mpi_openmp

ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
MODULAR_PROGS += $(MODULAR_MPI_PROGS)
endif

.PHONY: airfoil-modular
airfoil-modular: $(MODULAR_PROGS)
all: $(MODULAR_PROGS)

# ---- the files without loops: plain C, one object for every target ----------
$(MODULAR)/%.o: $(MODULAR_SRC)/%.c $(MODULAR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_MODULAR) -c $< -o $@

# ---- solver.c through loomc, once per target -----------------------------------
# $(call modular_solver,SUFFIX,TARGET): build/.../solver_SUFFIX.c
define modular_solver
$(MODULAR)/solver_$(1).c: $(MODULAR_SRC)/solver.c $$(LOOMC)
	@mkdir -p $$(@D)
	$$(LOOMC) -MMD --target=$(2) -I$(MODULAR_SRC) -Isamples/airfoil $$< -o $$@
-include $(MODULAR)/solver_$(1).d
endef
$(eval $(call modular_solver,seq,seq))
$(eval $(call modular_solver,openmp,openmp))
$(eval $(call modular_solver,mpi,mpi))
$(eval $(call modular_solver,mpi_openmp,mpi+openmp))

# ---- the programs ----------------------------------------------------------------
$(MODULAR)/airfoil_modular_seq: $(MODULAR)/solver_seq.c $(MODULAR_OBJ) $(LIBLOOM)
	$(CC) $(CFLAGS_MODULAR) -o $@ $< $(MODULAR_OBJ) $(LIBLOOM) -lm

$(MODULAR)/airfoil_modular_openmp: $(MODULAR)/solver_openmp.c $(MODULAR_OBJ) $(LIBLOOM)
	$(CC) $(CFLAGS_MODULAR) -fopenmp -o $@ $< $(MODULAR_OBJ) $(LIBLOOM) -lm

$(MODULAR)/airfoil_modular_mpi: $(MODULAR)/solver_mpi.c $(MODULAR_OBJ) $(LIBLOOM_MPI)
	$(MPICC_CMD) $(CFLAGS_MODULAR) -o $@ $< $(MODULAR_OBJ) $(LIBLOOM_MPI) $(LOOM_MPI_LIBS)

$(MODULAR)/airfoil_modular_mpi_openmp: $(MODULAR)/solver_mpi_openmp.c $(MODULAR_OBJ) $(LIBLOOM_MPI)
	$(MPICC_CMD) $(CFLAGS_MODULAR) -fopenmp -o $@ $< $(MODULAR_OBJ) $(LIBLOOM_MPI) $(LOOM_MPI_LIBS)

# ---- benchmark variants (make bench, bench/modular.sh) ------------------------
# _calls: loomc --no-inline --no-version, each call of the solver a call and
# its handles one dat to loomc (the modular sample as loomc translated it
# before calls were seen through); _noversion: calls seen through, the
# handles still one dat.
MODULAR_BENCH_VARIANTS := calls noversion
LOOMC_OPTS_modular_calls     := --no-inline --no-version
LOOMC_OPTS_modular_noversion := --no-version

$(MODULAR_BENCH_VARIANTS:%=$(MODULAR)/solver_%.c): $(MODULAR)/solver_%.c: $(MODULAR_SRC)/solver.c $(LOOMC)
	@mkdir -p $(@D)
	$(LOOMC) --target=seq $(LOOMC_OPTS_modular_$*) -I$(MODULAR_SRC) -Isamples/airfoil $< -o $@

$(MODULAR_BENCH_VARIANTS:%=$(MODULAR)/airfoil_modular_%): $(MODULAR)/airfoil_modular_%: $(MODULAR)/solver_%.c $(MODULAR_OBJ) $(LIBLOOM)
	$(CC) $(CFLAGS_MODULAR) -o $@ $< $(MODULAR_OBJ) $(LIBLOOM) -lm

bench: $(MODULAR_BENCH_VARIANTS:%=$(MODULAR)/airfoil_modular_%)
