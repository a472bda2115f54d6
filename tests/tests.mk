# Test suite (included by the top-level Makefile).
#
#   unit    Criterion tests of the compiler stages and the runtime
#   golden  input .c -> expected generated .c / expected diagnostics .err
#   e2e     Airfoil seq vs ref bitwise, generated code -Werror, mesh generator

CRITERION_CFLAGS := $(shell pkg-config --cflags criterion 2>/dev/null)
CRITERION_LIBS   := $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)
TESTBIN := $(BUILD)/tests

LOOMC_LIB_OBJ := $(filter-out $(BUILD)/obj/compiler/main.o,$(LOOMC_OBJ))

$(TESTBIN)/test_compiler: $(wildcard tests/unit/test_compiler*.c tests/unit/*.h) $(LOOMC_LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LOOMC) $(CRITERION_CFLAGS) -Icompiler -o $@ $(wildcard tests/unit/test_compiler*.c) \
	    $(LOOMC_LIB_OBJ) $(CRITERION_LIBS) $(LDLIBS_LOOMC)

$(TESTBIN)/test_runtime: tests/unit/test_runtime.c $(LIBLOOM)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_RT) $(CRITERION_CFLAGS) -o $@ $< $(LIBLOOM) $(CRITERION_LIBS)

unit: $(TESTBIN)/test_compiler $(TESTBIN)/test_runtime
	$(TESTBIN)/test_compiler
	$(TESTBIN)/test_runtime

golden: $(LOOMC) $(LIBLOOM)
	tests/golden/run.sh $(LOOMC)

e2e: all
	tests/e2e/run.sh

test: deps
	$(MAKE) all
	$(MAKE) unit golden e2e
	@echo "all test groups passed"
