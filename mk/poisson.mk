# The P1 finite-element sample with a matrix (samples/poisson/; included by
# the top-level Makefile after mk/mpi.mk): built when PETSc is found
# (HAVE_PETSC, Makefile).
#
#   make poisson   build/samples/poisson/: poisson_seq, poisson_openmp and,
#                  with MPI, poisson_mpi and poisson_mpi_openmp (poisson.c
#                  through loomc), linked
#                  with PETSc; also built by `make` (all).  Under MPI a run
#                  solves one mesh (LEVELS 1): every set is declared before
#                  the first loop partitions the mesh.
#
# tests/e2e/poisson.sh runs them.

POISSON        := $(BUILD)/samples/poisson
CFLAGS_POISSON := $(CFLAGS_APP) -Isamples/poisson
POISSON_PROGS  := $(POISSON)/poisson_seq $(POISSON)/poisson_openmp
POISSON_HDRS   := samples/poisson/poisson_kernels.h samples/common/tri_mesh.h \
                  samples/common/p1.h

ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
POISSON_PROGS  += $(POISSON)/poisson_mpi $(POISSON)/poisson_mpi_openmp
endif

.PHONY: poisson
ifeq ($(HAVE_PETSC),1)
poisson: $(POISSON_PROGS)
all: poisson
else
poisson:
	@echo "poisson: PETSc not found (pkg-config petsc): install petsc-dev (make deps)" >&2
	@false
endif

$(POISSON)/poisson_seq.c $(POISSON)/poisson_openmp.c $(POISSON)/poisson_mpi.c \
    $(POISSON)/poisson_mpi+openmp.c: \
    samples/poisson/poisson.c $(LOOMC)
	@mkdir -p $(@D)
	$(LOOMC) -MMD --target=$(patsubst poisson_%.c,%,$(@F)) -Isamples/poisson \
	    $(filter -I% -D%,$(PETSC_CFLAGS)) $< -o $@
-include $(POISSON)/poisson_seq.d $(POISSON)/poisson_openmp.d $(POISSON)/poisson_mpi.d \
    $(POISSON)/poisson_mpi+openmp.d

$(POISSON)/poisson_seq: $(POISSON)/poisson_seq.c $(LIBLOOM_PETSC) $(LIBLOOM) $(POISSON_HDRS)
	$(CC) $(CFLAGS_POISSON) $(PETSC_CFLAGS) -o $@ $< $(LOOM_PETSC_LINK)

$(POISSON)/poisson_openmp: $(POISSON)/poisson_openmp.c $(LIBLOOM_PETSC) $(LIBLOOM) $(POISSON_HDRS)
	$(CC) $(CFLAGS_POISSON) $(PETSC_CFLAGS) -fopenmp -o $@ $< $(LOOM_PETSC_LINK)

$(POISSON)/poisson_mpi: $(POISSON)/poisson_mpi.c $(LIBLOOM_MPI_PETSC) $(LIBLOOM_MPI) $(POISSON_HDRS)
	$(MPICC_CMD) $(CFLAGS_POISSON) $(PETSC_CFLAGS) -o $@ $< $(LOOM_MPI_PETSC_LINK)

$(POISSON)/poisson_mpi_openmp: $(POISSON)/poisson_mpi+openmp.c $(LIBLOOM_MPI_PETSC) $(LIBLOOM_MPI) \
    $(POISSON_HDRS)
	$(MPICC_CMD) $(CFLAGS_POISSON) $(PETSC_CFLAGS) -fopenmp -o $@ $< $(LOOM_MPI_PETSC_LINK)

# bench/assembly.sh (make bench): the sample's assembly through Loom (seq,
# openmp) against the same assembly written against PETSc by hand.
ASSEMBLY_PROGS := $(POISSON)/assembly_seq $(POISSON)/assembly_openmp $(POISSON)/assembly_petsc
ifeq ($(HAVE_PETSC),1)
bench: $(ASSEMBLY_PROGS)
endif

$(POISSON)/assembly_seq.c $(POISSON)/assembly_openmp.c: samples/poisson/assembly.c $(LOOMC)
	@mkdir -p $(@D)
	$(LOOMC) -MMD --target=$(patsubst assembly_%.c,%,$(@F)) -Isamples/poisson \
	    $(filter -I% -D%,$(PETSC_CFLAGS)) $< -o $@
-include $(POISSON)/assembly_seq.d $(POISSON)/assembly_openmp.d

$(POISSON)/assembly_seq: $(POISSON)/assembly_seq.c $(LIBLOOM_PETSC) $(LIBLOOM) $(POISSON_HDRS)
	$(CC) $(CFLAGS_POISSON) $(PETSC_CFLAGS) -o $@ $< $(LOOM_PETSC_LINK)

$(POISSON)/assembly_openmp: $(POISSON)/assembly_openmp.c $(LIBLOOM_PETSC) $(LIBLOOM) $(POISSON_HDRS)
	$(CC) $(CFLAGS_POISSON) $(PETSC_CFLAGS) -fopenmp -o $@ $< $(LOOM_PETSC_LINK)

$(POISSON)/assembly_petsc: samples/poisson/assembly_petsc.c $(POISSON_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_POISSON) $(PETSC_CFLAGS) -o $@ $< $(PETSC_LIBS) -lm
