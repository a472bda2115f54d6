# The samples built for --target=mpi (included by the top-level Makefile,
# after mk/mpi.mk): build/samples/airfoil/airfoil_mpi and
# build/samples/wave/wave_mpi, run with mpirun -np N and the same
# arguments as their seq builds.

ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
all: $(AIRFOIL)/airfoil_mpi $(BUILD)/samples/wave/wave_mpi
endif

$(AIRFOIL)/airfoil_mpi.c: samples/airfoil/airfoil.c $(LOOMC)
	@mkdir -p $(@D)
	$(LOOMC) -MMD --target=mpi -Isamples/airfoil $< -o $@
-include $(AIRFOIL)/airfoil_mpi.d

$(AIRFOIL)/airfoil_mpi: $(AIRFOIL)/airfoil_mpi.c $(LIBLOOM_MPI)
	$(MPICC_CMD) $(CFLAGS_APP) -o $@ $< $(LIBLOOM_MPI) $(LOOM_MPI_LIBS)

$(BUILD)/samples/wave/wave_mpi.c: samples/wave/wave.c $(LOOMC)
	@mkdir -p $(@D)
	$(LOOMC) -MMD --target=mpi -Isamples/wave -Isamples/airfoil $< -o $@
-include $(BUILD)/samples/wave/wave_mpi.d

$(BUILD)/samples/wave/wave_mpi: $(BUILD)/samples/wave/wave_mpi.c $(LIBLOOM_MPI)
	$(MPICC_CMD) $(CFLAGS_WAVE) -o $@ $< $(LIBLOOM_MPI) $(LOOM_MPI_LIBS)
