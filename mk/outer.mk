# Lappy's diamond on affine loops (samples/outer/; included by the top-level
# Makefile, which defines BUILD, CC, CSTD, LOOMC).
#
#   make outer   build/samples/outer/: outer_seq (no hint: loomc chooses),
#                outer_pin (-DOUTER_PIN), outer_pin_cse (-DOUTER_PIN_CSE),
#                outer_openmp (no hint, --target=openmp) and outer_ref (plain
#                C); also built by `make` (all)
#
# The generated C of each is kept beside it (outer_*.c); tests/e2e/outer.sh
# compares the programs and inspects that code.  Affine loops call no
# runtime function: the programs do not link libloom.

OUTER        := $(BUILD)/samples/outer
CFLAGS_OUTER := $(CSTD) -Wall -Wextra -Werror -O3 -g -Isamples/outer -Isamples/common
OUTER_HDRS   := $(wildcard samples/outer/*.h samples/common/*.h)
OUTER_PROGS  := $(OUTER)/outer_seq $(OUTER)/outer_pin $(OUTER)/outer_pin_cse \
                $(OUTER)/outer_openmp $(OUTER)/outer_ref

.PHONY: outer
outer: $(OUTER_PROGS)
all: outer

$(OUTER)/outer_seq.c: OUTER_FLAGS := --target=seq
$(OUTER)/outer_pin.c: OUTER_FLAGS := --target=seq -DOUTER_PIN
$(OUTER)/outer_pin_cse.c: OUTER_FLAGS := --target=seq -DOUTER_PIN_CSE
$(OUTER)/outer_openmp.c: OUTER_FLAGS := --target=openmp
$(OUTER)/outer_%.c: samples/outer/outer.c $(OUTER_HDRS) $(LOOMC)
	@mkdir -p $(@D)
	$(LOOMC) $(OUTER_FLAGS) -Isamples/outer -Isamples/common $< -o $@

$(OUTER)/outer_openmp: $(OUTER)/outer_openmp.c
	$(CC) $(CFLAGS_OUTER) -fopenmp -o $@ $< -lm

$(OUTER)/outer_ref: samples/outer/outer_ref.c $(OUTER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_OUTER) -o $@ $< -lm

$(OUTER)/outer_%: $(OUTER)/outer_%.c
	$(CC) $(CFLAGS_OUTER) -o $@ $< -lm
