# targets/targets.mk - the bundled reference target, the broken test targets and the runner's e2e tests.
#
#   $(BUILD)/targets/ref.so          bcast-ref: bc_eval behind the target ABI
#   $(BUILD)/targets/test/*.so       deliberately broken/hostile targets (tests only)
#   $(BUILD)/targets/test/tiny.so    the minimal adapter of docs/target-abi.md, extracted
#   make targets-and-tests           build all of the above and run tests/runner/e2e.sh
#
# Test targets (targets/broken/, one flaw each; all others run ref correctly).
# Triggers are by op/mode so tests/runner/e2e.sh knows which fixture ids fail:
#   wrong_shape          add, value: drops the dim where x is stretched    -> fail
#   wrong_strides        reads inputs as C-contiguous                       -> fail (layouts)
#   ignores_zero_size    zero-size operands: result extents 0 become 1      -> fail
#   no_inplace_check     in-place inplace-shape errors reported as OK       -> fail
#   write_past_end       sub, value: one element past the output           -> violation
#   write_input          mul: stores into x                                 -> violation
#   crash                mul: null store (SIGSEGV); sub: abort()           -> crash
#   hang / exit          mul: infinite loop / exit(3)                       -> timeout / crash
#   fixed_profile        ignores call->profile (always NumPy)               -> fail under --profile torch
#   assert_abort         sub: an assertion message on stderr, then abort()  -> crash with its stderr
#   read_past_input      add: reads one element past y; sub: one before x    -> violation (guard page;
#                        the one before x under the default --guard both, and --guard start)
#   out_resized_on_error out=: inplace-shape errors after resizing out (alloc_output) -> fail, out-metadata
#   out_written_on_error out=: any error after flipping out's first byte   -> violation, out-modified-after-error
#   cxx_mangled/guarded  C++: entry point mangled / extern "C" via the header
#   hostile_*            SIGBUS, page-long overrun, one-element underrun, self
#                        written before an error, stdout/stderr noise, absurd
#                        alloc_output requests, bad return values, a leak of
#                        512 MiB per call, an 8 GiB malloc (tests/hardening/)
#   raise_then_crash     mul: raises other, but crashes as its worker's first call -> fail; crash on re-run
#   needs_arg            init() wants --target-arg magic
#   bad_abi / no_entry   abi_version 99 / no bcast_target_v1                -> exit 2
# Grad mode (tests/runner/grad.sh, on tests/runner/fixtures/grad):
#   grad_not_reduced     add: gradients keep the result's shape (no sum_to_size) -> fail, not reduced
#   grad_drops_ones      mul: stretched size-1 dims dropped, not kept           -> fail, ones dropped
#   grad_averaged        sub: a mean over the stretched dims, not a sum         -> fail, averaged
#   grad_missing_y       maximum: y's gradient never handed back               -> fail, y missing
#   grad_overrun         div: one element past x's gradient                     -> violation (guard page)
#   abi_v1               an ABI-1 descriptor ending at a guard page: loads, grad cases skipped

TGT_DIR     := $(BUILD)/targets
# Static libraries stay private to each .so: ref linked into a target must not
# interpose on the runner's copy of ref, nor the other way round.
TGT_LDFLAGS := -shared -Wl,--exclude-libs,ALL

TGT_REF_OBJ    := $(BUILD)/targets/ref/ref_target.o
TGT_BROKEN     := wrong_shape wrong_strides ignores_zero_size no_inplace_check \
                  write_past_end write_input crash hang exit fixed_profile \
                  hostile_sigbus hostile_oob_page hostile_self_partial \
                  hostile_noisy hostile_alloc hostile_bad_return hostile_underrun \
                  hostile_leak hostile_bigalloc assert_abort read_past_input \
                  out_resized_on_error out_written_on_error \
                  needs_arg bad_abi no_entry poison_after raise_then_crash \
                  grad_not_reduced grad_drops_ones grad_averaged grad_missing_y grad_overrun abi_v1
TGT_BROKEN_OBJ := $(TGT_BROKEN:%=$(BUILD)/targets/broken/%.o) $(BUILD)/targets/broken/broken.o
TGT_CXX_TESTS  := cxx_mangled cxx_guarded
TGT_TEST_SOS   := $(TGT_BROKEN:%=$(TGT_DIR)/test/%.so) $(TGT_DIR)/test/tiny.so $(TGT_DIR)/test/tiny_grad.so $(TGT_CXX_TESTS:%=$(TGT_DIR)/test/%.so)
CXX ?= c++

$(TGT_DIR)/ref.so: $(TGT_REF_OBJ) $(REF_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(TGT_LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)

$(TGT_DIR)/test/%.so: $(BUILD)/targets/broken/%.o $(BUILD)/targets/broken/broken.o $(REF_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(TGT_LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)

# C++ adapters (tests of the header's extern "C" and of the runner's message
# for a mangled entry point), built with the C++ compiler and the same warnings.
$(TGT_DIR)/test/cxx_%.so: targets/broken/cxx_%.cpp include/bcast_target.h
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -O2 -fPIC -Iinclude $(EXTRA_CFLAGS) \
	  $(TGT_LDFLAGS) -o $@ $< $(EXTRA_LDFLAGS)

# The doc's adapter is compiled from the doc itself (the last ```c block), with
# the project's warnings and only bcast_target.h, so the doc cannot rot.
$(BUILD)/targets/tiny/tiny_target.c: docs/target-abi.md
	@mkdir -p $(dir $@)
	awk '/^```c$$/ { n++; buf = ""; inblk = 1; next } /^```$$/ && inblk { last = buf; inblk = 0; next } inblk { buf = buf $$0 "\n" } END { printf "%s", last }' $< > $@.tmp
	@test -s $@.tmp || { echo "docs/target-abi.md: no \`\`\`c block found" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

$(TGT_DIR)/test/tiny.so: $(BUILD)/targets/tiny/tiny_target.c include/bcast_target.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC $(TGT_LDFLAGS) -o $@ $< $(EXTRA_LDFLAGS)

# The doc's adapter with gradients: the ```c block whose first line names tiny_grad_target.c.
$(BUILD)/targets/tiny/tiny_grad_target.c: docs/target-abi.md
	@mkdir -p $(dir $@)
	awk '/^```c$$/ { inblk = 1; buf = ""; hit = 0; n = 0; next } /^```$$/ && inblk { if (hit) out = buf; inblk = 0; next } inblk { if (n++ == 0 && index($$0, "tiny_grad_target.c")) hit = 1; buf = buf $$0 "\n" } END { printf "%s", out }' $< > $@.tmp
	@test -s $@.tmp || { echo "docs/target-abi.md: no \`\`\`c block opening with tiny_grad_target.c" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

$(TGT_DIR)/test/tiny_grad.so: $(BUILD)/targets/tiny/tiny_grad_target.c include/bcast_target.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC $(TGT_LDFLAGS) -o $@ $< $(EXTRA_LDFLAGS)

ALL_TARGETS += $(TGT_DIR)/ref.so
test: $(TGT_TEST_SOS)

# One quoted word: tests/run-tests.sh runs each argument as one command.
TESTS += "sh tests/runner/e2e.sh $(BUILD)"
TESTS += "sh tests/runner/grad.sh $(BUILD)"

test-targets: $(TGT_DIR)/ref.so $(TGT_TEST_SOS)
targets-and-tests: all test-targets
	@sh tests/runner/e2e.sh $(BUILD)

.PHONY: test-targets targets-and-tests
-include $(TGT_REF_OBJ:.o=.d) $(TGT_BROKEN_OBJ:.o=.d)
