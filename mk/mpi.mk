# libloom_mpi and its tests (included by the top-level Makefile).
#
#   make mpi            build/lib/libloom_mpi.a: libloom's objects of core/
#                       and plan/ but core/nompi.c (libloom.a stays
#                       MPI-free; runtime/README.md), plus runtime/src/mpi/
#                       and io/ compiled with mpicc -DLOOM_MPI, and
#                       build/lib/libloom_mpi_petsc.a: mat/ as in
#                       libloom_petsc.a (PETSc's, or mat/nopetsc.c), with
#                       -DLOOM_MPI
#   make mpi-test       tests/unit/runtime/test_mpi.c under mpirun at 1, 2, 3 and 4
#                       ranks, each partitioner, and a failing rank, and with
#                       PETSc tests/mpi/test_mat_mpi.c at 1-4 ranks with each
#                       partitioner, renumbered, and with OpenMP threads
#                       (tests/mpi/run.sh; part of `make test`)
#
#   make mpi-shared     build/lib/libloom_mpi.so.X.Y.Z (soname libloom_mpi.so.X),
#                       linked with MPI, METIS and Scotch, and
#                       libloom_mpi_petsc.so.X.Y.Z, linked with it and PETSc
#                       (installed by `make install` with the static
#                       libraries, loom-mpi.pc and loom-mpi-petsc.pc)
#
# Programs link:  mpicc ... build/lib/libloom_mpi.a $(LOOM_MPI_LIBS), with
# matrices build/lib/libloom_mpi_petsc.a before libloom_mpi.a and PETSc's
# libraries (dsl-spec/mpi.md).  `make all` builds both archives when mpicc
# exists.

MPICC         ?= mpicc
HDF5_CFLAGS   := $(shell pkg-config --cflags hdf5-openmpi 2>/dev/null)
HDF5_LIBS     := $(shell pkg-config --libs hdf5-openmpi 2>/dev/null)
LOOM_MPI_LIBS := $(HDF5_LIBS) -lmetis -lptscotch -lscotch -lptscotcherr -lm
ifeq ($(SANITIZE),1)
MPICC_CMD     := $(MPICC) $(SANFLAGS)
else
MPICC_CMD     := $(MPICC)
endif
CFLAGS_RT_MPI := $(CFLAGS_RT) -DLOOM_MPI -I/usr/include/scotch $(HDF5_CFLAGS)

# core/ and plan/ are compiled once, for both libraries (core/ calls the
# distribution through core/dist.h's table, which core/nompi.c defines for
# libloom and mpi/session.c for libloom_mpi): libloom_mpi.a takes libloom's
# objects of them, but nompi.o, and adds mpi/ and io/, compiled with mpicc.
RT_MPI_SRC := $(wildcard runtime/src/mpi/*.c runtime/src/io/*.c)
RT_SHARED_SRC := $(filter-out runtime/src/core/nompi.c,$(RT_SRC))
RT_MPI_OBJ := $(RT_SHARED_SRC:runtime/src/%.c=$(BUILD)/obj/runtime/%.o) \
              $(RT_MPI_SRC:runtime/src/%.c=$(BUILD)/obj/runtime-mpi/%.o)
LIBLOOM_MPI := $(BUILD)/lib/libloom_mpi.a
RT_MPI_PIC_OBJ := $(RT_SHARED_SRC:runtime/src/%.c=$(BUILD)/obj/runtime-pic/%.o) \
                  $(RT_MPI_SRC:runtime/src/%.c=$(BUILD)/obj/runtime-mpi-pic/%.o)
LIBLOOM_MPI_SONAME := libloom_mpi.so.$(word 1,$(subst ., ,$(VERSION)))
LIBLOOM_MPI_SO := $(BUILD)/lib/libloom_mpi.so.$(VERSION)
# Matrices under MPI: mat/ (Makefile RT_MAT_SRC) with -DLOOM_MPI.
RT_MPI_MAT_OBJ := $(RT_MAT_SRC:runtime/src/%.c=$(BUILD)/obj/runtime-mpi/%.o)
RT_MPI_MAT_PIC_OBJ := $(RT_MAT_SRC:runtime/src/%.c=$(BUILD)/obj/runtime-mpi-pic/%.o)
LIBLOOM_MPI_PETSC := $(BUILD)/lib/libloom_mpi_petsc.a
LIBLOOM_MPI_PETSC_SONAME := libloom_mpi_petsc.so.$(word 1,$(subst ., ,$(VERSION)))
LIBLOOM_MPI_PETSC_SO := $(BUILD)/lib/libloom_mpi_petsc.so.$(VERSION)
# What an MPI program with matrices links after its objects (dsl-spec/mpi.md).
LOOM_MPI_PETSC_LINK = $(LIBLOOM_MPI_PETSC) $(LIBLOOM_MPI) $(LOOM_MPI_LIBS) $(PETSC_LIBS)

.PHONY: mpi mpi-shared mpi-test
mpi: $(LIBLOOM_MPI) $(LIBLOOM_MPI_PETSC)
mpi-shared: $(LIBLOOM_MPI_SO) $(LIBLOOM_MPI_PETSC_SO)

ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
all: $(LIBLOOM_MPI) $(LIBLOOM_MPI_PETSC)
install: install-mpi
uninstall: uninstall-mpi
ifeq ($(HAVE_PETSC),1)
install: install-mpi-petsc
endif
endif

# ---- install (with `make install` when mpicc exists; see mk/install.mk) ----
#   lib/libloom_mpi.a, lib/libloom_mpi.so.X.Y.Z (+ .so.X, .so), lib/pkgconfig/loom-mpi.pc
.PHONY: install-mpi uninstall-mpi
install-mpi: $(LIBLOOM_MPI) $(LIBLOOM_MPI_SO) cmake/loom-mpi.pc.in
	$(if $(filter /%,$(PREFIX)),,$(error PREFIX must be an absolute path, got '$(PREFIX)'))
	$(INSTALL) -d $(LOOM_DEST)/lib/pkgconfig
	$(INSTALL) -m 644 $(LIBLOOM_MPI) $(LOOM_DEST)/lib/libloom_mpi.a
	$(INSTALL) -m 755 $(LIBLOOM_MPI_SO) $(LOOM_DEST)/lib/libloom_mpi.so.$(VERSION)
	ln -sf libloom_mpi.so.$(VERSION) $(LOOM_DEST)/lib/$(LIBLOOM_MPI_SONAME)
	ln -sf $(LIBLOOM_MPI_SONAME) $(LOOM_DEST)/lib/libloom_mpi.so
	$(LOOM_SUBST) -e 's|@LOOM_MPI_LIBS@|$(LOOM_MPI_LIBS)|g' cmake/loom-mpi.pc.in \
	    >$(LOOM_DEST)/lib/pkgconfig/loom-mpi.pc
	chmod 644 $(LOOM_DEST)/lib/pkgconfig/loom-mpi.pc

# Matrices under MPI (with PETSc): lib/libloom_mpi_petsc.a,
# lib/libloom_mpi_petsc.so.X.Y.Z (+ .so.X, .so), lib/pkgconfig/loom-mpi-petsc.pc
# (PETSc's flags written in: mk/install.mk, install-petsc).
.PHONY: install-mpi-petsc
install-mpi-petsc: install-mpi $(LIBLOOM_MPI_PETSC) $(LIBLOOM_MPI_PETSC_SO) cmake/loom-mpi-petsc.pc.in
	$(INSTALL) -m 644 $(LIBLOOM_MPI_PETSC) $(LOOM_DEST)/lib/libloom_mpi_petsc.a
	$(INSTALL) -m 755 $(LIBLOOM_MPI_PETSC_SO) $(LOOM_DEST)/lib/libloom_mpi_petsc.so.$(VERSION)
	ln -sf libloom_mpi_petsc.so.$(VERSION) $(LOOM_DEST)/lib/$(LIBLOOM_MPI_PETSC_SONAME)
	ln -sf $(LIBLOOM_MPI_PETSC_SONAME) $(LOOM_DEST)/lib/libloom_mpi_petsc.so
	$(LOOM_SUBST) $(LOOM_PETSC_SUBST) cmake/loom-mpi-petsc.pc.in \
	    >$(LOOM_DEST)/lib/pkgconfig/loom-mpi-petsc.pc
	chmod 644 $(LOOM_DEST)/lib/pkgconfig/loom-mpi-petsc.pc

uninstall-mpi:
	$(if $(filter /%,$(PREFIX)),,$(error PREFIX must be an absolute path, got '$(PREFIX)'))
	rm -f $(LOOM_DEST)/lib/libloom_mpi.a $(LOOM_DEST)/lib/libloom_mpi.so.$(VERSION) \
	    $(LOOM_DEST)/lib/$(LIBLOOM_MPI_SONAME) $(LOOM_DEST)/lib/libloom_mpi.so \
	    $(LOOM_DEST)/lib/pkgconfig/loom-mpi.pc
	rm -f $(LOOM_DEST)/lib/libloom_mpi_petsc.a $(LOOM_DEST)/lib/libloom_mpi_petsc.so.$(VERSION) \
	    $(LOOM_DEST)/lib/$(LIBLOOM_MPI_PETSC_SONAME) $(LOOM_DEST)/lib/libloom_mpi_petsc.so \
	    $(LOOM_DEST)/lib/pkgconfig/loom-mpi-petsc.pc

$(BUILD)/obj/runtime-mpi/%.o: runtime/src/%.c $(RT_HDR)
	@mkdir -p $(@D)
	$(MPICC_CMD) $(CFLAGS_RT_MPI) -c $< -o $@

$(BUILD)/obj/runtime-mpi-pic/%.o: runtime/src/%.c $(RT_HDR)
	@mkdir -p $(@D)
	$(MPICC_CMD) $(CFLAGS_RT_MPI) -fPIC -c $< -o $@

# mat/ (matrices): PETSc's flags (Makefile, HAVE_PETSC)
$(BUILD)/obj/runtime-mpi/mat/%.o $(BUILD)/obj/runtime-mpi-pic/mat/%.o: CFLAGS_RT_MPI += $(PETSC_CFLAGS)

# --no-undefined: MPI, METIS and Scotch are dependencies of the library
# itself (a program links only -lloom_mpi and MPI); PETSc is not one.
$(LIBLOOM_MPI_SO): $(RT_MPI_PIC_OBJ) mk/mpi.mk
	@mkdir -p $(@D)
	$(MPICC_CMD) $(OPT) -shared -Wl,-soname,$(LIBLOOM_MPI_SONAME) -Wl,--no-undefined \
	    -o $@ $(RT_MPI_PIC_OBJ) $(LOOM_MPI_LIBS)
	ln -sf $(@F) $(BUILD)/lib/$(LIBLOOM_MPI_SONAME)
	ln -sf $(LIBLOOM_MPI_SONAME) $(BUILD)/lib/libloom_mpi.so

# The matrices' shared library: depends on libloom_mpi.so and PETSc.
$(LIBLOOM_MPI_PETSC_SO): $(RT_MPI_MAT_PIC_OBJ) $(LIBLOOM_MPI_SO) mk/mpi.mk
	$(MPICC_CMD) $(OPT) -shared -Wl,-soname,$(LIBLOOM_MPI_PETSC_SONAME) -Wl,--no-undefined \
	    -o $@ $(RT_MPI_MAT_PIC_OBJ) $(LIBLOOM_MPI_SO) $(PETSC_LIBS) -lm
	ln -sf $(@F) $(BUILD)/lib/$(LIBLOOM_MPI_PETSC_SONAME)
	ln -sf $(LIBLOOM_MPI_PETSC_SONAME) $(BUILD)/lib/libloom_mpi_petsc.so

$(LIBLOOM_MPI): $(RT_MPI_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(LIBLOOM_MPI_PETSC): $(RT_MPI_MAT_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# (Makefile, LOOM_STALE_ARCHIVE: libloom_mpi.a held mat/ too, once.)
$(call LOOM_STALE_ARCHIVE,$(LIBLOOM_MPI),$(RT_MPI_OBJ))
$(call LOOM_STALE_ARCHIVE,$(LIBLOOM_MPI_PETSC),$(RT_MPI_MAT_OBJ))

$(TESTBIN)/test_mpi: tests/unit/runtime/test_mpi.c $(LIBLOOM_MPI)
	@mkdir -p $(@D)
	$(MPICC_CMD) $(CSTD) $(WARN) $(OPT) -Iruntime/include -o $@ $< $(LIBLOOM_MPI) $(LOOM_MPI_LIBS)

# Matrices under libloom_mpi, with PETSc (Makefile HAVE_PETSC); with
# OpenMP, as an mpi+openmp program (its assembly loops are parallel).
ifeq ($(HAVE_PETSC),1)
$(TESTBIN)/test_mat_mpi: tests/mpi/test_mat_mpi.c $(LIBLOOM_MPI_PETSC) $(LIBLOOM_MPI)
	@mkdir -p $(@D)
	$(MPICC_CMD) $(CSTD) $(WARN) $(OPT) -fopenmp -Iruntime/include $(PETSC_CFLAGS) -o $@ $< \
	    $(LOOM_MPI_PETSC_LINK)
MAT_MPI_TEST := $(TESTBIN)/test_mat_mpi
endif

mpi-test: $(TESTBIN)/test_mpi $(MAT_MPI_TEST)
	tests/mpi/run.sh $(TESTBIN)/test_mpi $(MAT_MPI_TEST)

# The libraries an MPI program links after libloom_mpi.a (tests use it).
.PHONY: print-mpi-libs
print-mpi-libs:
	@echo $(LOOM_MPI_LIBS)
