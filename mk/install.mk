# Install and uninstall (included by the top-level Makefile).
#
#   make install [PREFIX=/usr/local] [DESTDIR=]   loomc, libloom (static and
#                                    shared), loom.h, pkg-config and CMake files
#   make uninstall [PREFIX=...] [DESTDIR=]        removes exactly those files
#   make shared                      only build the shared libloom (and
#                                    libloom_petsc)
#
# Installed tree (PREFIX/...):
#   bin/loomc
#   include/loom.h                   found by bin/loomc as ../include
#   include/loom_gen.h               the generated code's interface (loom.h
#                                    brings it in for generated code)
#   lib/libloom.a
#   lib/libloom.so.X.Y.Z, libloom.so.X (soname), libloom.so
#   lib/pkgconfig/loom.pc
#   lib/cmake/Loom/LoomConfig.cmake, LoomConfigVersion.cmake
#   when built with PETSc (HAVE_PETSC, Makefile), matrices:
#   include/loom_petsc.h
#   lib/libloom_petsc.a, lib/libloom_petsc.so.X.Y.Z (+ .so.X, .so)
#   lib/pkgconfig/loom-petsc.pc
#   (and with mpicc, mk/mpi.mk: libloom_mpi_petsc, loom-mpi-petsc.pc)
#
# PREFIX must be absolute: it is written into loom.pc. DESTDIR is prepended
# to every installed path but never written into a file (staged installs).
# The CMake files locate the tree relative to themselves, so a staged or
# moved tree works as long as its layout is kept.

LOOM_SOVERSION := $(word 1,$(subst ., ,$(VERSION)))
LOOM_SONAME    := libloom.so.$(LOOM_SOVERSION)
LIBLOOM_SO     := $(BUILD)/lib/libloom.so.$(VERSION)
RT_PIC_OBJ     := $(RT_SRC:runtime/src/%.c=$(BUILD)/obj/runtime-pic/%.o)
LOOM_PETSC_SONAME := libloom_petsc.so.$(LOOM_SOVERSION)
LIBLOOM_PETSC_SO  := $(BUILD)/lib/libloom_petsc.so.$(VERSION)
RT_MAT_PIC_OBJ    := $(RT_MAT_SRC:runtime/src/%.c=$(BUILD)/obj/runtime-pic/%.o)

INSTALL      ?= install
LOOM_DEST    = $(DESTDIR)$(PREFIX)
LOOM_PC_IN   := cmake/loom.pc.in
LOOM_CMAKE_IN := cmake/LoomConfig.cmake.in cmake/LoomConfigVersion.cmake.in

.PHONY: install uninstall shared
shared: $(LIBLOOM_SO) $(LIBLOOM_PETSC_SO)

# ---- shared libloom: position-independent objects in their own directory ----
$(BUILD)/obj/runtime-pic/%.o: runtime/src/%.c $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) -fPIC -c $< -o $@

$(BUILD)/obj/runtime-pic/mat/%.o: CFLAGS_RT += $(PETSC_CFLAGS)

# --no-undefined: a symbol missing from libloom is an error here, not in
# the programs that link it.  libloom.so needs no PETSc; libloom_petsc.so
# (mat/) needs libloom.so and PETSc.
$(LIBLOOM_SO): $(RT_PIC_OBJ) mk/install.mk
	@mkdir -p $(@D)
	$(CC) $(OPT) -shared -Wl,-soname,$(LOOM_SONAME) -Wl,--no-undefined -o $@ $(RT_PIC_OBJ) -lm
	ln -sf $(@F) $(BUILD)/lib/$(LOOM_SONAME)
	ln -sf $(LOOM_SONAME) $(BUILD)/lib/libloom.so

$(LIBLOOM_PETSC_SO): $(RT_MAT_PIC_OBJ) $(LIBLOOM_SO) mk/install.mk
	$(CC) $(OPT) -shared -Wl,-soname,$(LOOM_PETSC_SONAME) -Wl,--no-undefined -o $@ \
	    $(RT_MAT_PIC_OBJ) $(LIBLOOM_SO) $(PETSC_LIBS) -lm
	ln -sf $(@F) $(BUILD)/lib/$(LOOM_PETSC_SONAME)
	ln -sf $(LOOM_PETSC_SONAME) $(BUILD)/lib/libloom_petsc.so

# ---- install ------------------------------------------------------------------
# `sed` fills the templates: @PREFIX@ (loom.pc only: the CMake files find the
# tree relative to themselves), @VERSION@, @SOVERSION@, @SIZEOF_VOID_P@.
LOOM_SIZEOF_VOID_P = $(shell $(CC) -dM -E -x c /dev/null | sed -n 's/^\#define __SIZEOF_POINTER__ //p')
LOOM_SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
                 -e 's|@SOVERSION@|$(LOOM_SOVERSION)|g' -e 's|@SIZEOF_VOID_P@|$(LOOM_SIZEOF_VOID_P)|g'

install: $(LOOMC) $(LIBLOOM) $(LIBLOOM_SO) runtime/include/loom.h runtime/include/loom_gen.h \
         $(LOOM_PC_IN) $(LOOM_CMAKE_IN)
	$(if $(filter /%,$(PREFIX)),,$(error PREFIX must be an absolute path, got '$(PREFIX)'))
	$(INSTALL) -d $(LOOM_DEST)/bin $(LOOM_DEST)/include $(LOOM_DEST)/lib/pkgconfig \
	    $(LOOM_DEST)/lib/cmake/Loom
	$(INSTALL) -m 755 $(LOOMC) $(LOOM_DEST)/bin/loomc
	$(INSTALL) -m 644 runtime/include/loom.h $(LOOM_DEST)/include/loom.h
	$(INSTALL) -m 644 runtime/include/loom_gen.h $(LOOM_DEST)/include/loom_gen.h
	$(INSTALL) -m 644 $(LIBLOOM) $(LOOM_DEST)/lib/libloom.a
	$(INSTALL) -m 755 $(LIBLOOM_SO) $(LOOM_DEST)/lib/libloom.so.$(VERSION)
	ln -sf libloom.so.$(VERSION) $(LOOM_DEST)/lib/$(LOOM_SONAME)
	ln -sf $(LOOM_SONAME) $(LOOM_DEST)/lib/libloom.so
	$(LOOM_SUBST) $(LOOM_PC_IN) >$(LOOM_DEST)/lib/pkgconfig/loom.pc
	$(LOOM_SUBST) -e 's|@LOOM_MPI_LIBS@|$(LOOM_MPI_LIBS)|g' cmake/LoomConfig.cmake.in >$(LOOM_DEST)/lib/cmake/Loom/LoomConfig.cmake
	$(LOOM_SUBST) cmake/LoomConfigVersion.cmake.in >$(LOOM_DEST)/lib/cmake/Loom/LoomConfigVersion.cmake
	chmod 644 $(LOOM_DEST)/lib/pkgconfig/loom.pc $(LOOM_DEST)/lib/cmake/Loom/*.cmake

# Matrices (PETSc): libloom_petsc, the header of the PETSc objects and
# loom-petsc.pc.  The .pc files of matrices carry PETSc's own -I, -L and
# -l (PETSC_PC_*) instead of `Requires: petsc`: Debian's petsc.pc lists
# static dependencies that are not installed (-lhdf5 of HDF5's serial
# build, ...), so that `pkg-config --static` through it fails; libloom_petsc
# links the shared PETSc it was built with either way.
PETSC_PC_CFLAGS = $(filter -I%,$(shell pkg-config --cflags petsc 2>/dev/null))
PETSC_PC_LIBS   = $(shell pkg-config --libs petsc 2>/dev/null)
LOOM_PETSC_SUBST = -e 's|@PETSC_CFLAGS@|$(PETSC_PC_CFLAGS)|g' -e 's|@PETSC_LIBS@|$(PETSC_PC_LIBS)|g'
.PHONY: install-petsc
ifeq ($(HAVE_PETSC),1)
install: install-petsc
endif
install-petsc: $(LIBLOOM_PETSC) $(LIBLOOM_PETSC_SO) runtime/include/loom_petsc.h cmake/loom-petsc.pc.in
	$(if $(filter /%,$(PREFIX)),,$(error PREFIX must be an absolute path, got '$(PREFIX)'))
	$(INSTALL) -d $(LOOM_DEST)/include $(LOOM_DEST)/lib/pkgconfig
	$(INSTALL) -m 644 runtime/include/loom_petsc.h $(LOOM_DEST)/include/loom_petsc.h
	$(INSTALL) -m 644 $(LIBLOOM_PETSC) $(LOOM_DEST)/lib/libloom_petsc.a
	$(INSTALL) -m 755 $(LIBLOOM_PETSC_SO) $(LOOM_DEST)/lib/libloom_petsc.so.$(VERSION)
	ln -sf libloom_petsc.so.$(VERSION) $(LOOM_DEST)/lib/$(LOOM_PETSC_SONAME)
	ln -sf $(LOOM_PETSC_SONAME) $(LOOM_DEST)/lib/libloom_petsc.so
	$(LOOM_SUBST) $(LOOM_PETSC_SUBST) cmake/loom-petsc.pc.in >$(LOOM_DEST)/lib/pkgconfig/loom-petsc.pc
	chmod 644 $(LOOM_DEST)/lib/pkgconfig/loom-petsc.pc

uninstall:
	$(if $(filter /%,$(PREFIX)),,$(error PREFIX must be an absolute path, got '$(PREFIX)'))
	rm -f $(LOOM_DEST)/include/loom_petsc.h $(LOOM_DEST)/lib/pkgconfig/loom-petsc.pc \
	    $(LOOM_DEST)/lib/libloom_petsc.a $(LOOM_DEST)/lib/libloom_petsc.so.$(VERSION) \
	    $(LOOM_DEST)/lib/$(LOOM_PETSC_SONAME) $(LOOM_DEST)/lib/libloom_petsc.so
	rm -f $(LOOM_DEST)/bin/loomc $(LOOM_DEST)/include/loom.h $(LOOM_DEST)/include/loom_gen.h \
	    $(LOOM_DEST)/lib/libloom.a $(LOOM_DEST)/lib/libloom.so.$(VERSION) \
	    $(LOOM_DEST)/lib/$(LOOM_SONAME) $(LOOM_DEST)/lib/libloom.so \
	    $(LOOM_DEST)/lib/pkgconfig/loom.pc \
	    $(LOOM_DEST)/lib/cmake/Loom/LoomConfig.cmake \
	    $(LOOM_DEST)/lib/cmake/Loom/LoomConfigVersion.cmake
	rmdir $(LOOM_DEST)/lib/cmake/Loom 2>/dev/null || true
