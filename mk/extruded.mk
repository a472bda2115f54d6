# The extruded-mesh sample (samples/extruded/; included by the top-level
# Makefile, which defines BUILD, CC, CSTD, CFLAGS_APP, LOOMC and LIBLOOM):
# the heat equation in the unit cube on prisms over a triangle mesh.
#
#   make extruded  build/samples/extruded/: extruded_seq and extruded_openmp
#                  (extruded.c through loomc) and extruded_ref (plain C);
#                  also built by `make` (all); the MPI builds are in
#                  mk/mpi_samples.mk
#
# tests/e2e/extruded.sh compares them; bench/extruded.sh times xcol (below).

EXTRUDED        := $(BUILD)/samples/extruded
CFLAGS_EXTRUDED := $(CFLAGS_APP) -Isamples/extruded
EXTRUDED_HDRS   := samples/extruded/prism_kernels.h samples/common/tri_mesh.h

.PHONY: extruded
extruded: $(EXTRUDED)/extruded_seq $(EXTRUDED)/extruded_openmp $(EXTRUDED)/extruded_ref
all: extruded

$(eval $(call loom_program,$(EXTRUDED)/extruded_seq,samples/extruded/extruded.c,seq,\
  $$(CFLAGS_EXTRUDED),-Isamples/extruded))
$(eval $(call loom_program,$(EXTRUDED)/extruded_openmp,samples/extruded/extruded.c,openmp,\
  $$(CFLAGS_EXTRUDED) -fopenmp,-Isamples/extruded))

$(EXTRUDED)/extruded_ref: samples/extruded/extruded_ref.c $(EXTRUDED_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_EXTRUDED) -o $@ $< -lm

# bench/extruded.sh: a loop over an extruded set, through loomc and by hand
XCOL := $(BUILD)/bench/extruded
XCOL_HDRS := bench/extruded/xcol_kernel.h samples/common/tri_mesh.h
bench: $(XCOL)/xcol $(XCOL)/xcol_columns $(XCOL)/xcol_hand

$(eval $(call loom_program,$(XCOL)/xcol,bench/extruded/xcol.c,seq,\
  $$(CFLAGS_APP) -Ibench/extruded,-Ibench/extruded))
$(eval $(call loom_program,$(XCOL)/xcol_columns,bench/extruded/xcol.c,seq,\
  $$(CFLAGS_APP) -Ibench/extruded -DXCOL_COLUMNS,-Ibench/extruded -DXCOL_COLUMNS))

$(XCOL)/xcol_hand: bench/extruded/xcol_hand.c $(XCOL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_APP) -Ibench/extruded -o $@ $< -lm
