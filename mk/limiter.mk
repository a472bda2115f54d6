# The vertex-based slope limiter (samples/limiter/; included by the
# top-level Makefile, which defines BUILD, CC, CSTD, CFLAGS_APP, LOOMC and
# LIBLOOM): min and max on dats through a map.
#
#   make limiter   build/samples/limiter/: limiter_seq and limiter_openmp
#                  (limiter.c through loomc) and limiter_ref (plain C);
#                  also built by `make` (all); the MPI builds are in
#                  mk/mpi_samples.mk
#
# tests/e2e/limiter.sh compares them.

LIMITER        := $(BUILD)/samples/limiter
CFLAGS_LIMITER := $(CFLAGS_APP) -Isamples/limiter
LIMITER_HDRS   := $(wildcard samples/limiter/*.h) samples/common/tri_mesh.h

.PHONY: limiter
limiter: $(LIMITER)/limiter_seq $(LIMITER)/limiter_openmp $(LIMITER)/limiter_ref
all: limiter

$(eval $(call loom_program,$(LIMITER)/limiter_seq,samples/limiter/limiter.c,seq,\
  $$(CFLAGS_LIMITER),-Isamples/limiter))
$(eval $(call loom_program,$(LIMITER)/limiter_openmp,samples/limiter/limiter.c,openmp,\
  $$(CFLAGS_LIMITER) -fopenmp,-Isamples/limiter))

$(LIMITER)/limiter_ref: samples/limiter/limiter_ref.c $(LIMITER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LIMITER) -o $@ $< -lm
