# targets/xtensor/target.mk - $(BUILD)/targets/xtensor.so (header-only xtensor, NumPy profile) when xtensor-dev is installed.
#
# Built by `make`, `make targets` and `make test`; without the package the
# target is skipped with a message and the smoke test counts as skipped.
# C++17, one translation unit; xtensor's templates are slow to compile, so
# -O1 without -g (XTENSOR_OPT) keeps CI time down.

XTENSOR_SO       := $(BUILD)/targets/xtensor.so
XTENSOR_VERSION  := $(shell dpkg-query -W -f='$${Version}' xtensor-dev 2>/dev/null || echo unknown)
XTENSOR_OPT      ?= -O1
XTENSOR_CXXFLAGS := -std=c++17 -Wall -Wextra $(XTENSOR_OPT) -fPIC -Iinclude $(EXTRA_CFLAGS)

ifneq ($(wildcard /usr/include/xtensor/xarray.hpp),)
TARGETS_THIRDPARTY += $(XTENSOR_SO)
ALL_TARGETS += $(XTENSOR_SO)

$(XTENSOR_SO): targets/xtensor/xtensor_target.cpp include/bcast_target.h
	@mkdir -p $(dir $@)
	$(CXX) $(XTENSOR_CXXFLAGS) -DBCT_LIB_VERSION='"$(XTENSOR_VERSION)"' -shared -o $@ $< $(EXTRA_LDFLAGS)

targets: $(XTENSOR_SO)
TESTS += "$(BUILD)/bcast-run --target $(XTENSOR_SO) --expectations targets/xtensor/expectations cases/seeds.cases"
else
targets: targets-skip-xtensor
targets-skip-xtensor:
	@echo "targets: xtensor skipped: xtensor-dev not installed (apt-get install xtensor-dev)"
TESTS += "echo 'xtensor smoke test skipped: xtensor-dev not installed (apt-get install xtensor-dev)'; echo '0 passed, 0 failed, 1 skipped'"
.PHONY: targets-skip-xtensor
endif
.PHONY: targets
