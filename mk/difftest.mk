# Differential testing with random programs (tests/difftest/README.md;
# included by the top-level Makefile).
#
#   make difftest N=1000 SEED=1 J=2   programs SEED .. SEED+N-1, every configuration,
#                                     J batches at a time; failures are saved in
#                                     $(DIFFTEST_OUT)/failures/ (reduce one with
#                                     tests/difftest/reduce.py DIR)
#   make difftest-ci                  the fixed slice that `make test` runs
#                                     (DIFFTEST_CI_N programs from seed DIFFTEST_CI_SEED)
#
# DIFFTEST_FLAGS passes more options to run.py: --configs omp,mpi-n2 (a subset
# of the configurations, see --list-configs), --avoid known (no programs of
# the shapes of known bugs), --batch, --keep, --opt.
#
# The tester needs the normal build (loomc, libloom, libloom_mpi and their
# matrices' libraries) and the sanitized one (build/san: loomc, libloom and
# libloom_petsc); difftest-deps makes both, also
# from a `make SANITIZE=1` invocation, as e2e-root does.

PYTHON3          ?= python3
DIFFTEST_RUN     := PYTHONDONTWRITEBYTECODE=1 $(PYTHON3) tests/difftest/run.py
DIFFTEST_OUT     ?= build/difftest
DIFFTEST_CI_N    ?= 200
DIFFTEST_CI_SEED ?= 1
N    ?= 100
SEED ?= 1
J    ?= 2

.PHONY: difftest difftest-ci difftest-deps
difftest-deps:
	$(MAKE) SANITIZE=0 CC='$(or $(CC_PLAIN),$(CC))' build/bin/loomc build/lib/libloom.a \
	    build/lib/libloom_petsc.a build/lib/libloom_mpi.a build/lib/libloom_mpi_petsc.a
	$(MAKE) SANITIZE=1 CC='$(or $(CC_PLAIN),$(CC))' build/san/bin/loomc build/san/lib/libloom.a \
	    build/san/lib/libloom_petsc.a

difftest: difftest-deps
	$(DIFFTEST_RUN) -n $(N) --seed $(SEED) -j $(J) --out $(DIFFTEST_OUT) $(DIFFTEST_FLAGS)

difftest-ci: difftest-deps
	rm -rf $(DIFFTEST_OUT)/ci
	$(DIFFTEST_RUN) -n $(DIFFTEST_CI_N) --seed $(DIFFTEST_CI_SEED) -j 2 --quiet \
	    --out $(DIFFTEST_OUT)/ci $(DIFFTEST_FLAGS)
