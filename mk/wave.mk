# The explicit wave example (samples/wave/; included by the top-level
# Makefile, which defines BUILD, CC, CSTD, CFLAGS_APP, LOOMC and LIBLOOM).
#
#   make wave    build/samples/wave/: wave_mesh (the mesh generator),
#                wave_seq and wave_openmp (wave.c through loomc), wave_ref
#                (the plain-C baseline); also built by `make` (all)
#
# tests/e2e/wave.sh compares them.

WAVE        := $(BUILD)/samples/wave
CFLAGS_WAVE := $(CFLAGS_APP) -Isamples/wave
WAVE_HDRS   := $(wildcard samples/wave/*.h samples/common/*.h)

.PHONY: wave
wave: $(WAVE)/wave_mesh $(WAVE)/wave_seq $(WAVE)/wave_openmp $(WAVE)/wave_ref
all: wave

$(WAVE)/wave_mesh: samples/wave/wave_mesh.c samples/wave/wave_host.h
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 -Wall -Wextra -Werror -Isamples/wave -o $@ $< -lm

$(eval $(call loom_program,$(WAVE)/wave_seq,samples/wave/wave.c,seq,$$(CFLAGS_WAVE),\
  -Isamples/wave))
$(eval $(call loom_program,$(WAVE)/wave_openmp,samples/wave/wave.c,openmp,\
  $$(CFLAGS_WAVE) -fopenmp,-Isamples/wave))

$(WAVE)/wave_ref: samples/wave/wave_ref.c $(WAVE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_WAVE) -o $@ $< -lm

# The benchmark's variants (bench/wave.sh, make bench): the same program
# translated with each of loomc's transformations across iterations
# turned off in turn.
WAVE_BENCH_VARIANTS := nofuse norotate
LOOMC_OPTS_wave_nofuse   := --no-fuse
LOOMC_OPTS_wave_norotate := --no-rotate

$(foreach v,$(WAVE_BENCH_VARIANTS),$(eval $(call loom_program,$(WAVE)/wave_$(v),\
  samples/wave/wave.c,seq,$$(CFLAGS_WAVE),$(LOOMC_OPTS_wave_$(v)) -Isamples/wave)))

bench: $(WAVE_BENCH_VARIANTS:%=$(WAVE)/wave_%)
