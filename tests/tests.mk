# Test suite (included by the top-level Makefile).
#
#   layers  every include of compiler/ and runtime/src/ points down a layer,
#           no include circle (scripts/check-layers.py, scripts/layers.conf;
#           tests/layers/run.sh)
#   unit    Criterion tests of the compiler stages and the runtime (its
#           matrices with PETSc when pkg-config finds it)
#   golden  input .c -> expected generated .c / expected diagnostics .err
#   e2e     Airfoil seq vs ref bitwise, generated code -Werror, mesh generator
#   regress programs Loom once got wrong, on every target (tests/regress)
#   mpi-test  libloom_mpi under mpirun at 1-4 ranks (mk/mpi.mk)
#   difftest-ci  random programs against their plain-C references on 42
#           configurations (tests/difftest, mk/difftest.mk)

CRITERION_CFLAGS := $(shell pkg-config --cflags criterion 2>/dev/null)
CRITERION_LIBS   := $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)
TESTBIN := $(BUILD)/tests

LOOMC_LIB_OBJ := $(filter-out $(BUILD)/obj/compiler/main.o,$(LOOMC_OBJ))

# tests/e2e/*.sh find loomc and the programs under <root>/build/.  With
# SANITIZE=1 they run from $(BUILD)/e2e-root: links to this tree's files, and
# a build/ whose bin, samples and tests are the sanitized ones and whose lib
# is the normal libloom and libloom_mpi (the scripts that build generated code with their own
# compilers cannot link instrumented objects).
ifeq ($(SANITIZE),1)
E2E_ROOT  := $(BUILD)/e2e-root
E2E_SETUP := e2e-root
E2E_RUN   := $(E2E_ROOT)/tests/e2e/run.sh
.PHONY: e2e-root
e2e-root:
	$(MAKE) SANITIZE=0 CC='$(CC_PLAIN)' build/lib/libloom.a build/lib/libloom_petsc.a \
	    $(if $(shell command -v $(MPICC) 2>/dev/null),build/lib/libloom_mpi.a \
	    build/lib/libloom_mpi_petsc.a)
	rm -rf $(E2E_ROOT)
	mkdir -p $(E2E_ROOT)/build
	for f in $(filter-out build,$(wildcard *)); do ln -s $(CURDIR)/$$f $(E2E_ROOT)/$$f; done
	for d in bin samples tests; do ln -s $(abspath $(BUILD))/$$d $(E2E_ROOT)/build/$$d; done
	ln -s $(CURDIR)/build/lib $(E2E_ROOT)/build/lib
	if [ -d ../shared ]; then ln -sfn $(abspath ../shared) $(BUILD)/shared; fi
# Criterion counts a test whose process reports a leak only at its exit as
# passed (the report is printed, the exit status ignored): in `unit` the
# sanitizers write their reports to files in $(BUILD)/san-logs/, and any
# error report fails it (after a failed test, look there).
SAN_LOGS := $(abspath $(BUILD))/san-logs
unit: export ASAN_OPTIONS := $(ASAN_OPTIONS):log_path=$(SAN_LOGS)/unit
unit: export UBSAN_OPTIONS := $(UBSAN_OPTIONS):log_path=$(SAN_LOGS)/unit
unit: unit-san-logs
.PHONY: unit-san-logs
unit-san-logs:
	@rm -rf $(SAN_LOGS) && mkdir -p $(SAN_LOGS)
UNIT_SAN_CHECK = @if grep -qs 'ERROR: \|runtime error\|^SUMMARY: ' $(SAN_LOGS)/unit.*; then \
                   cat $(SAN_LOGS)/unit.*; echo "unit: sanitizer reports (above)"; exit 1; fi
else
E2E_SETUP :=
E2E_RUN   := tests/e2e/run.sh
UNIT_SAN_CHECK :=
endif

# The compiler's unit tests, one binary: tests/unit/compiler/<layer>/test_<stage>.c
# (the layers of compiler/, README.md).
COMPILER_TESTS := $(wildcard tests/unit/compiler/*/test_*.c)
$(TESTBIN)/test_compiler: $(COMPILER_TESTS) $(wildcard tests/unit/compiler/*.h) $(LOOMC_LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LOOMC) $(CRITERION_CFLAGS) -Itests/unit/compiler -o $@ $(COMPILER_TESTS) \
	    $(LOOMC_LIB_OBJ) $(CRITERION_LIBS) $(LDLIBS_LOOMC)

$(TESTBIN)/test_runtime: tests/unit/runtime/test_core.c $(LIBLOOM)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) $(CRITERION_CFLAGS) -o $@ $< $(LIBLOOM) $(CRITERION_LIBS)

# LOOM__ADD_ROW and loom__rows8_* (loom.h) as built by default, with rows
# taken one by one, and as the plain loop.
$(TESTBIN)/test_rows: tests/unit/runtime/test_rows.c runtime/include/loom.h runtime/include/loom_gen.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) $(CRITERION_CFLAGS) -o $@ $< $(CRITERION_LIBS)
$(TESTBIN)/test_rows_plain: tests/unit/runtime/test_rows.c runtime/include/loom.h runtime/include/loom_gen.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) -DLOOM_NO_VECTOR_ROWS $(CRITERION_CFLAGS) -o $@ $< $(CRITERION_LIBS)
$(TESTBIN)/test_rows_noshuffle: tests/unit/runtime/test_rows.c runtime/include/loom.h runtime/include/loom_gen.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) -DLOOM_NO_ROW_SHUFFLES $(CRITERION_CFLAGS) -o $@ $< $(CRITERION_LIBS)

$(TESTBIN)/test_plan: tests/unit/runtime/test_plan.c $(LIBLOOM)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) $(CRITERION_CFLAGS) -o $@ $< $(LIBLOOM) $(CRITERION_LIBS) -lm

# Matrices (runtime/src/mat/): test_mat with PETSc (Makefile HAVE_PETSC),
# linked as the README says (libloom_petsc.a, libloom.a, PETSc);
# test_nopetsc, always, links mat/nopetsc.c ahead of libloom.a, without
# PETSc (libloom_petsc.a as built without it).  With SANITIZE=1, test_mat runs with fast_unwind_on_malloc=0:
# the leaks Open MPI keeps from MPI_Init are suppressed by its libraries'
# names (fuzz/lsan.supp), which only whole stacks show.
ifeq ($(HAVE_PETSC),1)
$(TESTBIN)/test_mat: tests/unit/runtime/test_mat.c $(LIBLOOM_PETSC) $(LIBLOOM)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) $(PETSC_CFLAGS) $(CRITERION_CFLAGS) -o $@ $< $(LOOM_PETSC_LINK) \
	    $(CRITERION_LIBS)
UNIT_MAT := $(TESTBIN)/test_mat
endif

$(TESTBIN)/test_nopetsc: tests/unit/runtime/test_nopetsc.c runtime/src/mat/nopetsc.c $(LIBLOOM)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) $(CRITERION_CFLAGS) -o $@ $< runtime/src/mat/nopetsc.c \
	    $(LIBLOOM) $(CRITERION_LIBS) -lm

$(TESTBIN)/qdiff: tests/e2e/qdiff.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -o $@ $< -lm

unit: $(TESTBIN)/test_compiler $(TESTBIN)/test_runtime $(TESTBIN)/test_plan \
      $(UNIT_MAT) $(TESTBIN)/test_nopetsc $(TESTBIN)/test_rows $(TESTBIN)/test_rows_plain \
      $(TESTBIN)/test_rows_noshuffle
	$(TESTBIN)/test_compiler
	$(TESTBIN)/test_runtime
	$(TESTBIN)/test_rows
	$(TESTBIN)/test_rows_plain
	$(TESTBIN)/test_rows_noshuffle
	$(TESTBIN)/test_plan
	$(if $(UNIT_MAT),ASAN_OPTIONS="$$ASAN_OPTIONS:fast_unwind_on_malloc=0" $(UNIT_MAT),@echo "unit: test_mat skipped: no PETSc (pkg-config petsc)")
	$(TESTBIN)/test_nopetsc
	$(UNIT_SAN_CHECK)

.PHONY: layers
layers:
	tests/layers/run.sh

golden: $(LOOMC) $(LIBLOOM)
	tests/golden/run.sh $(LOOMC)
	tests/dag/run.sh $(LOOMC)

e2e: all $(TESTBIN)/qdiff $(E2E_SETUP)
	$(E2E_RUN)

# With SANITIZE=1 through the e2e root: the instrumented loomc, the normal
# runtime libraries (the generated programs are built with cc and mpicc).
regress: all $(E2E_SETUP)
	tests/regress/run.sh $(if $(filter 1,$(SANITIZE)),$(E2E_ROOT))

test: deps
	$(MAKE) all
	$(MAKE) layers unit golden e2e regress mpi-test difftest-ci
	@echo "all test groups passed"
