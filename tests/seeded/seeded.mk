# tests/seeded/seeded.mk - seeded-bug variants of ref (issue #25 item 6).
#
# Each record of tests/seeded/variants.txt is ref with one line changed; it is
# built as $(BUILD)/seeded/NAME.so (the changed file compiled as make compiles
# it, linked with ref's other objects and the ref target), and `make test`
# checks that the default suite fails each one (tests/seeded/check.py).

SEEDED_DIR   := $(BUILD)/seeded
SEEDED_NAMES := $(shell sed -n 's/^name //p' tests/seeded/variants.txt)
SEEDED_SOS   := $(SEEDED_NAMES:%=$(SEEDED_DIR)/%.so)

$(SEEDED_DIR)/%.so: tests/seeded/variants.txt tests/seeded/patch.py $(REF_OBJ) $(TGT_REF_OBJ)
	@mkdir -p $(SEEDED_DIR)/$*
	@src=$$($(PYTHON) tests/seeded/patch.py $* $(SEEDED_DIR)/$*) || exit 1; \
	opt=; case $$src in ref/ops.c|ref/grad.c) opt="$(REF_OPS_OPT)";; esac; \
	$(CC) $(ALL_CFLAGS) $$opt -Iref -fPIC -w -c $(SEEDED_DIR)/$*/$${src##*/} -o $(SEEDED_DIR)/$*/patched.o && \
	objs=$$(for o in $(REF_OBJ); do [ "$$o" = "$(BUILD)/$${src%.c}.o" ] || echo "$$o"; done) && \
	$(CC) $(TGT_LDFLAGS) -o $@ $(TGT_REF_OBJ) $(SEEDED_DIR)/$*/patched.o $$objs $(EXTRA_LDFLAGS) $(LDLIBS_M)

seeded: $(SEEDED_SOS) $(RUNNER_BIN)
	$(PYTHON) tests/seeded/check.py $(RUNNER_BIN) $(SEEDED_DIR)

test: $(SEEDED_SOS)
TESTS += "$(PYTHON) tests/seeded/check.py $(RUNNER_BIN) $(SEEDED_DIR)"

.PHONY: seeded
