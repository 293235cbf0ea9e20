# targets/xnnpack/target.mk - $(BUILD)/targets/xnnpack.so (XNNPACK's *_nd_f32 binary operators) when libxnnpack-dev and libpthreadpool-dev are installed.
#
# Built by `make`, `make targets` and `make test`; without the packages the
# target is skipped with a message and the smoke test counts as skipped.

XNNPACK_SO      := $(BUILD)/targets/xnnpack.so
XNNPACK_VERSION := $(shell dpkg-query -W -f='$${Version}' libxnnpack-dev 2>/dev/null || echo unknown)

ifneq ($(wildcard /usr/include/xnnpack.h),)
ifneq ($(wildcard /usr/include/pthreadpool.h),)
XNNPACK_PRESENT := 1
endif
endif

ifdef XNNPACK_PRESENT
TARGETS_THIRDPARTY += $(XNNPACK_SO)
ALL_TARGETS += $(XNNPACK_SO)

$(XNNPACK_SO): targets/xnnpack/xnnpack_target.c include/bcast_target.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -DBCT_LIB_VERSION='"$(XNNPACK_VERSION)"' -shared -o $@ $< \
	  $(EXTRA_LDFLAGS) -lXNNPACK -lpthreadpool -lm

targets: $(XNNPACK_SO)
TESTS += "$(BUILD)/bcast-run --target $(XNNPACK_SO) --expectations targets/xnnpack/expectations cases/seeds.cases"
else
targets: targets-skip-xnnpack
targets-skip-xnnpack:
	@echo "targets: xnnpack skipped: libxnnpack-dev or libpthreadpool-dev not installed (apt-get install libxnnpack-dev libpthreadpool-dev)"
TESTS += "echo 'xnnpack smoke test skipped: libxnnpack-dev or libpthreadpool-dev not installed (apt-get install libxnnpack-dev libpthreadpool-dev)'; echo '0 passed, 0 failed, 1 skipped'"
.PHONY: targets-skip-xnnpack
endif
.PHONY: targets
