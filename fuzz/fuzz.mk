# fuzz/fuzz.mk - libFuzzer harnesses for the case reader, ref's shape rules and
# the runner's message normaliser, their seed corpora, and the replay of
# fuzz/regressions/ in `make test`.
#
#   make fuzz FUZZ_SECONDS=N     build with clang -fsanitize=fuzzer,address,undefined
#                                and run the reader and the rules N seconds each
#                                (default 60), the normaliser N/4 (fuzz/run.sh);
#                                crashes land in $(BUILD)/fuzz/artifacts/
#   $(BUILD)/fuzz/replay-*       the harnesses without libFuzzer, built with $(CC);
#                                `make test` replays fuzz/regressions/*/ through them
#
# Also includes tests/hardening/hardening.mk (malformed input, CLI, signals,
# valgrind), which has no makefile hook of its own.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_FLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Iinclude -Irunner \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_HDRS    := $(wildcard include/*.h runner/*/*.h ref/*.h)
FUZZ_CASEIO_SRC := fuzz/fuzz_caseio.c runner/case/caseio.c runner/base/util.c
FUZZ_MESSAGES_SRC := fuzz/fuzz_messages.c runner/judge/message_norm.c

$(FUZZ_DIR)/fuzz-caseio: $(FUZZ_CASEIO_SRC) $(REF_SRC) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_CASEIO_SRC) $(REF_SRC) -ldl -lm

$(FUZZ_DIR)/fuzz-shapes: fuzz/fuzz_shapes.c $(REF_SRC) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_shapes.c $(REF_SRC) -lm

# The message normaliser needs nothing else of the runner; its seeds are the
# library messages committed in fuzz/regressions/messages/.
$(FUZZ_DIR)/fuzz-messages: $(FUZZ_MESSAGES_SRC) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_MESSAGES_SRC)

# Seeds: every record of cases/ and the runner fixtures, split one per file.
$(FUZZ_DIR)/seeds/.stamp: fuzz/seeds.sh $(wildcard cases/*.cases tests/runner/fixtures/*/*.cases)
	sh fuzz/seeds.sh $(FUZZ_DIR)/seeds $(wildcard cases/*.cases tests/runner/fixtures/*/*.cases)
	touch $@

fuzz-build: $(FUZZ_DIR)/fuzz-caseio $(FUZZ_DIR)/fuzz-shapes $(FUZZ_DIR)/fuzz-messages $(FUZZ_DIR)/seeds/.stamp
fuzz: fuzz-build
	sh fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# Replay: the same entry points, linked to a plain main() (fuzz/replay.c).
$(BUILD)/fuzz/fuzz_caseio.o: ALL_CFLAGS += -Irunner
$(FUZZ_DIR)/replay-caseio: $(BUILD)/fuzz/replay.o $(BUILD)/fuzz/fuzz_caseio.o \
                           $(BUILD)/runner/case/caseio.o $(BUILD)/runner/base/util.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) -ldl $(LDLIBS_M)
$(FUZZ_DIR)/replay-shapes: $(BUILD)/fuzz/replay.o $(BUILD)/fuzz/fuzz_shapes.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)
$(BUILD)/fuzz/fuzz_messages.o: ALL_CFLAGS += -Irunner
$(FUZZ_DIR)/replay-messages: $(BUILD)/fuzz/replay.o $(BUILD)/fuzz/fuzz_messages.o $(BUILD)/runner/judge/message_norm.o
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS)

ALL_TARGETS += $(FUZZ_DIR)/replay-caseio $(FUZZ_DIR)/replay-shapes $(FUZZ_DIR)/replay-messages
TESTS += "$(FUZZ_DIR)/replay-caseio $(sort $(wildcard fuzz/regressions/caseio/*))"
TESTS += "$(FUZZ_DIR)/replay-shapes $(sort $(wildcard fuzz/regressions/shapes/*))"
TESTS += "$(FUZZ_DIR)/replay-messages $(sort $(wildcard fuzz/regressions/messages/*))"
-include $(BUILD)/fuzz/replay.d $(BUILD)/fuzz/fuzz_caseio.d $(BUILD)/fuzz/fuzz_shapes.d $(BUILD)/fuzz/fuzz_messages.d

-include tests/hardening/hardening.mk

.PHONY: fuzz fuzz-build
