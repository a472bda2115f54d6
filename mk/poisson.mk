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

$(foreach t,seq openmp mpi mpi+openmp,$(eval $(call loom_petsc_program,\
  $(POISSON)/poisson_$(subst +,_,$(t)),samples/poisson/poisson.c,$(t),$$(CFLAGS_POISSON),\
  -Isamples/poisson,$(POISSON_HDRS))))

# bench/assembly.sh (make bench): the sample's assembly through Loom (seq,
# openmp) against the same assembly written against PETSc by hand.
ASSEMBLY_PROGS := $(POISSON)/assembly_seq $(POISSON)/assembly_openmp $(POISSON)/assembly_petsc
ifeq ($(HAVE_PETSC),1)
bench: $(ASSEMBLY_PROGS)
endif

$(foreach t,seq openmp,$(eval $(call loom_petsc_program,$(POISSON)/assembly_$(t),\
  samples/poisson/assembly.c,$(t),$$(CFLAGS_POISSON),-Isamples/poisson,$(POISSON_HDRS))))

$(POISSON)/assembly_petsc: samples/poisson/assembly_petsc.c $(POISSON_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_POISSON) $(PETSC_CFLAGS) -o $@ $< $(PETSC_LIBS) -lm
