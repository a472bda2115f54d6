# libloom_mpi and its tests (included by the top-level Makefile).
#
#   make mpi            build/lib/libloom_mpi.a: the runtime's sources with
#                       mpicc -DLOOM_MPI, plus runtime/src/mpi_*.c, minus
#                       runtime/src/nompi.c (libloom.a stays MPI-free)
#   make mpi-test       tests/unit/test_mpi.c under mpirun at 1, 2, 3 and 4
#                       ranks, each partitioner, and a failing rank
#                       (tests/mpi/run.sh; part of `make test`)
#
# Programs link:  mpicc ... build/lib/libloom_mpi.a $(LOOM_MPI_LIBS)
# (dsl-spec/mpi.md).  `make all` builds libloom_mpi.a when mpicc exists.

MPICC         ?= mpicc
LOOM_MPI_LIBS := -lmetis -lptscotch -lscotch -lptscotcherr -lm
ifeq ($(SANITIZE),1)
MPICC_CMD     := $(MPICC) $(SANFLAGS)
else
MPICC_CMD     := $(MPICC)
endif
CFLAGS_RT_MPI := $(CFLAGS_RT) -DLOOM_MPI -I/usr/include/scotch

RT_MPI_SRC := $(filter-out runtime/src/nompi.c,$(wildcard runtime/src/*.c))
RT_MPI_OBJ := $(RT_MPI_SRC:runtime/src/%.c=$(BUILD)/obj/runtime-mpi/%.o)
LIBLOOM_MPI := $(BUILD)/lib/libloom_mpi.a

.PHONY: mpi mpi-test
mpi: $(LIBLOOM_MPI)

ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
all: $(LIBLOOM_MPI)
endif

$(BUILD)/obj/runtime-mpi/%.o: runtime/src/%.c runtime/include/loom.h $(wildcard runtime/src/*.h)
	@mkdir -p $(@D)
	$(MPICC_CMD) $(CFLAGS_RT_MPI) -c $< -o $@

$(LIBLOOM_MPI): $(RT_MPI_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(TESTBIN)/test_mpi: tests/unit/test_mpi.c $(LIBLOOM_MPI)
	@mkdir -p $(@D)
	$(MPICC_CMD) $(CSTD) $(WARN) $(OPT) -Iruntime/include -o $@ $< $(LIBLOOM_MPI) $(LOOM_MPI_LIBS)

mpi-test: $(TESTBIN)/test_mpi
	tests/mpi/run.sh $(TESTBIN)/test_mpi
