# The samples built for --target=mpi and --target=mpi+openmp (included by
# the top-level Makefile, after mk/mpi.mk):
#   build/samples/airfoil/airfoil_mpi, airfoil_mpi_openmp
#   build/samples/wave/wave_mpi, wave_mpi_openmp
#   build/samples/limiter/limiter_mpi, limiter_mpi_openmp
#   build/samples/aero/aero_mpi, aero_mpi_openmp
#   build/samples/extruded/extruded_mpi, extruded_mpi_openmp
#   build/samples/airfoil/airfoil_hdf5_mpi, airfoil_hdf5_mpi_openmp (the
#     mesh from HDF5, distributed), build/bin/loom-mesh (OP2's text mesh
#     to HDF5) and build/bin/loom-naca0012 (the mesh generator, writing
#     an OUT.h5 directly)
# run with mpirun -np N (and OMP_NUM_THREADS for the threaded ones) and the
# same arguments as their seq builds.

MPI_SAMPLES := $(AIRFOIL)/airfoil_mpi $(AIRFOIL)/airfoil_mpi_openmp \
               $(BUILD)/samples/wave/wave_mpi $(BUILD)/samples/wave/wave_mpi_openmp \
               $(BUILD)/samples/limiter/limiter_mpi $(BUILD)/samples/limiter/limiter_mpi_openmp \
               $(AIRFOIL)/airfoil_hdf5_mpi $(AIRFOIL)/airfoil_hdf5_mpi_openmp \
               $(BUILD)/samples/aero/aero_mpi $(BUILD)/samples/aero/aero_mpi_openmp \
               $(BUILD)/samples/extruded/extruded_mpi $(BUILD)/samples/extruded/extruded_mpi_openmp \
               $(BUILD)/bin/loom-mesh $(BUILD)/bin/loom-naca0012

# every MPI and HDF5 program and tool of the samples (README)
.PHONY: mpi-samples
mpi-samples: $(MPI_SAMPLES)

ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
all: $(MPI_SAMPLES)
bench: $(BUILD)/samples/wave/wave_mpi_nohoist $(AIRFOIL)/airfoil_mpi_native
endif

# $(call mpi_program,PROGRAM,SOURCE,TARGET,CFLAGS,LOOMC_INCLUDES)
define mpi_program
$(call loom_c,$(1),$(2),$(3),$(5))

$(1): $(1).c $$(LIBLOOM_MPI)
	$$(MPICC_CMD) $(4) -o $$@ $$< $$(LIBLOOM_MPI) $$(LOOM_MPI_LIBS)
endef

$(eval $(call mpi_program,$(AIRFOIL)/airfoil_mpi,samples/airfoil/airfoil.c,mpi,\
  $$(CFLAGS_APP),-Isamples/airfoil))
# for bench/native.sh: the same generated C for this machine
$(AIRFOIL)/airfoil_mpi_native: $(AIRFOIL)/airfoil_mpi.c $(LIBLOOM_MPI)
	$(MPICC_CMD) $(CFLAGS_APP) -march=native -o $@ $< $(LIBLOOM_MPI) $(LOOM_MPI_LIBS)
$(eval $(call mpi_program,$(AIRFOIL)/airfoil_mpi_openmp,samples/airfoil/airfoil.c,mpi+openmp,\
  $$(CFLAGS_APP) -fopenmp,-Isamples/airfoil))
$(eval $(call mpi_program,$(BUILD)/samples/wave/wave_mpi,samples/wave/wave.c,mpi,\
  $$(CFLAGS_WAVE),-Isamples/wave -Isamples/airfoil))
# for bench/wave.sh: exchanges left in the time loop
$(eval $(call mpi_program,$(BUILD)/samples/wave/wave_mpi_nohoist,samples/wave/wave.c,mpi,\
  $$(CFLAGS_WAVE),--no-hoist -Isamples/wave -Isamples/airfoil))
$(eval $(call mpi_program,$(BUILD)/samples/wave/wave_mpi_openmp,samples/wave/wave.c,mpi+openmp,\
  $$(CFLAGS_WAVE) -fopenmp,-Isamples/wave -Isamples/airfoil))
$(eval $(call mpi_program,$(BUILD)/samples/limiter/limiter_mpi,samples/limiter/limiter.c,mpi,\
  $$(CFLAGS_LIMITER),-Isamples/limiter))
$(eval $(call mpi_program,$(BUILD)/samples/limiter/limiter_mpi_openmp,\
  samples/limiter/limiter.c,mpi+openmp,$$(CFLAGS_LIMITER) -fopenmp,-Isamples/limiter))
$(eval $(call mpi_program,$(BUILD)/samples/aero/aero_mpi,samples/aero/aero.c,mpi,\
  $$(CFLAGS_AERO),-Isamples/aero -Isamples/common))
$(eval $(call mpi_program,$(BUILD)/samples/aero/aero_mpi_openmp,samples/aero/aero.c,mpi+openmp,\
  $$(CFLAGS_AERO) -fopenmp,-Isamples/aero -Isamples/common))
$(eval $(call mpi_program,$(AIRFOIL)/airfoil_hdf5_mpi,samples/airfoil/airfoil_hdf5.c,mpi,\
  $$(CFLAGS_APP),-Isamples/airfoil))
$(eval $(call mpi_program,$(AIRFOIL)/airfoil_hdf5_mpi_openmp,samples/airfoil/airfoil_hdf5.c,mpi+openmp,\
  $$(CFLAGS_APP) -fopenmp,-Isamples/airfoil))

$(BUILD)/bin/loom-mesh: samples/airfoil/loom_mesh.c samples/airfoil/airfoil_mesh.h samples/airfoil/airfoil_h5.h
	@mkdir -p $(@D)
	$(MPICC_CMD) $(CFLAGS_APP) $(HDF5_CFLAGS) -o $@ $< $(HDF5_LIBS) -lm

$(BUILD)/bin/loom-naca0012: samples/airfoil/naca0012.c samples/airfoil/airfoil_h5.h \
    samples/airfoil/airfoil_mesh.h samples/common/naca_grid.h
	@mkdir -p $(@D)
	$(MPICC_CMD) $(CSTD) -O2 -Wall -Wextra -Werror -DNACA0012_HDF5 -Isamples/airfoil -Isamples/common \
	  $(HDF5_CFLAGS) -o $@ $< $(HDF5_LIBS) -lm
$(eval $(call mpi_program,$(BUILD)/samples/extruded/extruded_mpi,samples/extruded/extruded.c,mpi,\
  $$(CFLAGS_EXTRUDED),-Isamples/extruded))
$(eval $(call mpi_program,$(BUILD)/samples/extruded/extruded_mpi_openmp,\
  samples/extruded/extruded.c,mpi+openmp,$$(CFLAGS_EXTRUDED) -fopenmp,-Isamples/extruded))
