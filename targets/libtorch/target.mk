# targets/libtorch/target.mk - $(BUILD)/targets/libtorch.so (the ATen C++ API, torch profile) when libtorch-dev is installed.
#
# Built by `make`, `make targets` and `make test`; without the package the
# target is skipped with a message and the smoke test counts as skipped.
# C++17 (libtorch 1.13 needs C++14 at least), one translation unit. The torch
# message table targets/torch_errors.tsv (shared with the Python torch bridge)
# is compiled in: awk turns each CLASS<tab>REGEX line into a C++ initializer.

LIBTORCH_SO       := $(BUILD)/targets/libtorch.so
LIBTORCH_VERSION  := $(shell dpkg-query -W -f='$${Version}' libtorch-dev 2>/dev/null || echo unknown)
LIBTORCH_INC      := $(BUILD)/targets/libtorch/torch_errors.inc
LIBTORCH_CXXFLAGS := -std=c++17 -Wall -Wextra $(OPT) -fPIC -Iinclude -I$(dir $(LIBTORCH_INC)) $(EXTRA_CFLAGS)

ifneq ($(wildcard /usr/include/ATen/ATen.h),)
TARGETS_THIRDPARTY += $(LIBTORCH_SO)
ALL_TARGETS += $(LIBTORCH_SO)

$(LIBTORCH_INC): targets/torch_errors.tsv
	@mkdir -p $(dir $@)
	awk -F'\t' '/^#/ || NF == 0 { next } \
	  NF != 2 { print FILENAME ":" FNR ": expected CLASS<tab>REGEX" > "/dev/stderr"; exit 1 } \
	  { c = toupper($$1); gsub("-", "_", c); printf "    {BCT_ERR_%s, R\"re(%s)re\"},\n", c, $$2 }' $< > $@.tmp
	mv $@.tmp $@

$(LIBTORCH_SO): targets/libtorch/libtorch_target.cpp include/bcast_target.h $(LIBTORCH_INC)
	@mkdir -p $(dir $@)
	$(CXX) $(LIBTORCH_CXXFLAGS) -DBCT_LIB_VERSION='"$(LIBTORCH_VERSION)"' -shared -o $@ $< \
	  $(EXTRA_LDFLAGS) -ltorch_cpu -lc10

targets: $(LIBTORCH_SO)
TESTS += "$(BUILD)/bcast-run --target $(LIBTORCH_SO) --expectations targets/libtorch/expectations cases/seeds.cases"
# issue #25's ops (value mode): every mathops case passes or is listed, prelu (not claimed) skipped
TESTS += "$(BUILD)/bcast-run --target $(LIBTORCH_SO) --jobs 1 --expectations targets/libtorch/expectations --suite mathops cases/mathops.cases"
else
targets: targets-skip-libtorch
targets-skip-libtorch:
	@echo "targets: libtorch skipped: libtorch-dev not installed (apt-get install libtorch-dev)"
TESTS += "echo 'libtorch smoke test skipped: libtorch-dev not installed (apt-get install libtorch-dev)'; echo '0 passed, 0 failed, 1 skipped'"
.PHONY: targets-skip-libtorch
endif
.PHONY: targets
