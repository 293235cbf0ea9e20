# ref/ref.mk - the reference library, its command-line tool and its tests.
REF_SRC  := $(filter-out ref/bcast_shape.c,$(wildcard ref/*.c))
REF_OBJ  := $(REF_SRC:%.c=$(BUILD)/%.o)
REF_LIB  := $(BUILD)/libbcastref.a
REF_HDRS := $(patsubst include/%,$(BUILD)/include/%,$(wildcard include/*.h))
BCAST_SHAPE := $(BUILD)/bcast-shape
REF_TEST := $(BUILD)/test-ref

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(REF_LIB): $(REF_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The public headers, so users build against $(BUILD)/include only.
$(BUILD)/include/%.h: include/%.h
	@mkdir -p $(dir $@)
	cp $< $@

$(BCAST_SHAPE): $(BUILD)/ref/bcast_shape.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)

$(REF_TEST): $(BUILD)/ref/tests/test_ref.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)

$(BUILD)/ref/tests/test_ref.o: ALL_CFLAGS += -Iref -Itests

# The backward pass (grad mode, B23-B31) has its own test binary.
REF_GRAD_TEST := $(BUILD)/test-ref-grad
$(REF_GRAD_TEST): $(BUILD)/ref/tests/test_grad.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)
$(BUILD)/ref/tests/test_grad.o: ALL_CFLAGS += -Itests
ALL_TARGETS += $(REF_GRAD_TEST)
TESTS += $(REF_GRAD_TEST)
-include $(BUILD)/ref/tests/test_grad.d

# Weak scalars (B34) per profile.
REF_WEAK_TEST := $(BUILD)/test-ref-weak
$(REF_WEAK_TEST): $(BUILD)/ref/tests/test_weak.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)
$(BUILD)/ref/tests/test_weak.o: ALL_CFLAGS += -Itests
ALL_TARGETS += $(REF_WEAK_TEST)
TESTS += $(REF_WEAK_TEST)
-include $(BUILD)/ref/tests/test_weak.d

# ops.c's typed row loops are the hot path. At -O2 gcc 12 vectorizes none of
# them: its very-cheap cost model refuses the runtime alias check a row needs
# (out may be an input: in-place), so in-place add f32 ran ~2x NumPy. -O3 (a
# later -O wins; gcc and clang both take it) lets the compiler version each
# contiguous loop for aliasing. Set REF_OPS_OPT= to build ops.c like the rest.
REF_OPS_OPT ?= -O3
$(BUILD)/ref/ops.o: ALL_CFLAGS += $(REF_OPS_OPT)
# grad.c's row sums (B23) likewise: -O3 vectorizes the eight partial sums.
$(BUILD)/ref/grad.o: ALL_CFLAGS += $(REF_OPS_OPT)

ALL_TARGETS += $(REF_LIB) $(REF_HDRS) $(BCAST_SHAPE) $(REF_TEST)
TESTS += $(REF_TEST)
TESTS += "sh ref/tests/test_bcast_shape.sh $(BCAST_SHAPE)"
TESTS += "BCAST_SHAPE=$(BCAST_SHAPE) sh tests/run-pytest.sh ref/tests/test_bcast_shape_oracle.py"
-include $(REF_OBJ:.o=.d) $(BUILD)/ref/bcast_shape.d $(BUILD)/ref/tests/test_ref.d

# The value driver for test_ref_values.py (ref held against NumPy and torch).
REF_EVAL := $(BUILD)/ref-eval
$(REF_EVAL): $(BUILD)/ref/tests/ref_eval.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)
ALL_TARGETS += $(REF_EVAL)
TESTS += "REF_EVAL=$(REF_EVAL) sh tests/run-pytest.sh ref/tests/test_ref_values.py"
-include $(BUILD)/ref/tests/ref_eval.d
