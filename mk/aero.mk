# OP2's aero benchmark (samples/aero/; included by the top-level Makefile,
# which defines BUILD, CC, CSTD, CFLAGS_APP, LOOMC and LIBLOOM).
#
#   make aero    build/samples/aero/: naca_fem (the mesh generator), aero_seq
#                and aero_openmp (aero.c through loomc), aero_novec and
#                aero_wide (the same with --no-vectorize, with --no-narrow:
#                p_K stored whole), aero_ref (the plain-C baseline); also
#                built by `make` (all).  mk/mpi_samples.mk adds aero_mpi and
#                aero_mpi_openmp.
#   make aero-run  the default mesh (720,000 cells, FE_grid.dat) generated,
#                then aero_seq's 20 iterations and OP2's check of the rms
#
# tests/e2e/aero.sh compares the programs on a small mesh; bench/aero.sh
# (make bench) times them on the default one and applies OP2's check.

AERO        := $(BUILD)/samples/aero
AERO_MESH   := $(AERO)/FE_grid.dat
CFLAGS_AERO := $(CFLAGS_APP) -Isamples/aero -Isamples/common
AERO_HDRS   := $(wildcard samples/aero/*.h samples/common/*.h)

.PHONY: aero aero-run
aero: $(AERO)/naca_fem $(AERO)/aero_seq $(AERO)/aero_openmp $(AERO)/aero_novec \
      $(AERO)/aero_wide $(AERO)/aero_ref
all: aero

$(AERO)/naca_fem: samples/aero/naca_fem.c samples/common/naca_grid.h
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 -Wall -Wextra -Werror -Isamples/common -o $@ $< -lm

$(AERO_MESH): $(AERO)/naca_fem
	$(AERO)/naca_fem -I 400 -J 600 $@

AERO_LOOMC := -Isamples/aero -Isamples/common
$(eval $(call loom_program,$(AERO)/aero_seq,samples/aero/aero.c,seq,$$(CFLAGS_AERO),\
  $(AERO_LOOMC)))
$(eval $(call loom_program,$(AERO)/aero_novec,samples/aero/aero.c,seq,$$(CFLAGS_AERO),\
  --no-vectorize $(AERO_LOOMC)))
$(eval $(call loom_program,$(AERO)/aero_wide,samples/aero/aero.c,seq,$$(CFLAGS_AERO),\
  --no-narrow $(AERO_LOOMC)))
$(eval $(call loom_program,$(AERO)/aero_openmp,samples/aero/aero.c,openmp,\
  $$(CFLAGS_AERO) -fopenmp,$(AERO_LOOMC)))

$(AERO)/aero_ref: samples/aero/aero_ref.c $(AERO_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_AERO) -o $@ $< -lm

aero-run: aero $(AERO_MESH)
	$(AERO)/aero_seq $(AERO_MESH)
