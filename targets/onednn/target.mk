# targets/onednn/target.mk - $(BUILD)/targets/onednn.so (oneDNN's binary, PReLU and matmul primitives, C API) when libdnnl-dev is installed.
#
# Built by `make`, `make targets` and `make test`; without the package the
# target is skipped with a message and the smoke test counts as skipped.

ONEDNN_SO      := $(BUILD)/targets/onednn.so
ONEDNN_VERSION := $(shell dpkg-query -W -f='$${Version}' libdnnl-dev 2>/dev/null || echo unknown)

ifneq ($(wildcard /usr/include/oneapi/dnnl/dnnl.h),)
TARGETS_THIRDPARTY += $(ONEDNN_SO)
ALL_TARGETS += $(ONEDNN_SO)

ONEDNN_SRCS    := targets/onednn/onednn_target.c targets/onednn/onednn_memory.c targets/onednn/onednn_fused.c

$(ONEDNN_SO): $(ONEDNN_SRCS) targets/onednn/onednn_common.h include/bcast_target.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -DBCT_LIB_VERSION='"$(ONEDNN_VERSION)"' -shared -o $@ $(ONEDNN_SRCS) \
	  $(EXTRA_LDFLAGS) -ldnnl

targets: $(ONEDNN_SO)
TESTS += "$(BUILD)/bcast-run --target $(ONEDNN_SO) --expectations targets/onednn/expectations cases/seeds.cases"
else
targets: targets-skip-onednn
targets-skip-onednn:
	@echo "targets: onednn skipped: libdnnl-dev not installed (apt-get install libdnnl-dev)"
TESTS += "echo 'onednn smoke test skipped: libdnnl-dev not installed (apt-get install libdnnl-dev)'; echo '0 passed, 0 failed, 1 skipped'"
.PHONY: targets-skip-onednn
endif
.PHONY: targets
