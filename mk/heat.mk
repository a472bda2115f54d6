# The heat-equation sample (samples/heat/; included by the top-level
# Makefile): built when PETSc is found (HAVE_PETSC, Makefile).
#
#   make heat      build/samples/heat/: heat_seq, heat_openmp and, with MPI,
#                  heat_mpi and heat_mpi_openmp (heat.c through loomc),
#                  linked with PETSc; also built by `make` (all).  Under MPI
#                  a run solves one mesh (LEVELS 1).
#
# tests/e2e/heat.sh runs them.

# mk/*.mk are included in name order, this file before mk/mpi.mk: the MPI
# programs name libloom_mpi_petsc.a and libloom_mpi.a by their paths in
# their prerequisites (expanded as this file is read), and their recipes
# use mk/mpi.mk's variables (expanded when they run).
MPICC       ?= mpicc
HEAT_LIBMPI := $(BUILD)/lib/libloom_mpi_petsc.a $(BUILD)/lib/libloom_mpi.a

HEAT        := $(BUILD)/samples/heat
CFLAGS_HEAT := $(CFLAGS_APP) -Isamples/heat
HEAT_PROGS  := $(HEAT)/heat_seq $(HEAT)/heat_openmp
HEAT_HDRS   := samples/heat/heat_kernels.h samples/common/p1.h samples/common/tri_mesh.h

ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
HEAT_PROGS  += $(HEAT)/heat_mpi $(HEAT)/heat_mpi_openmp
endif

.PHONY: heat
ifeq ($(HAVE_PETSC),1)
heat: $(HEAT_PROGS)
all: heat
else
heat:
	@echo "heat: PETSc not found (pkg-config petsc): install petsc-dev (make deps)" >&2
	@false
endif

$(foreach t,seq openmp mpi mpi+openmp,$(eval $(call loom_petsc_program,\
  $(HEAT)/heat_$(subst +,_,$(t)),samples/heat/heat.c,$(t),$$(CFLAGS_HEAT),-Isamples/heat,\
  $(HEAT_HDRS))))
