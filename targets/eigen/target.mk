# targets/eigen/target.mk - $(BUILD)/targets/eigen.so and eigen-ndebug.so (Eigen 3.4's Tensor module, NumPy profile) when libeigen3-dev is installed.
#
# Two targets from one adapter source, differing only in -DNDEBUG:
#   eigen         as most users compile: eigen_assert on (an assert aborts)
#   eigen-ndebug  as release builds compile: -DNDEBUG turns eigen_assert off
# Built by `make`, `make targets` and `make test`; without the package both
# are skipped with a message and their smoke tests count as skipped.
#
# Eigen's Tensor rank is a template parameter: eigen_rank.cpp is compiled once
# per rank 0..EIGEN_MAX_RANK (one object each, so -j2 overlaps them). Compile
# time grows linearly with EIGEN_MAX_RANK (see FINDINGS.md for measurements);
# -O1 without -g (EIGEN_OPT) keeps CI time down, as for xtensor. Eigen's
# headers are -isystem: the project's warnings apply to the adapter's code.

EIGEN_DIR      := $(BUILD)/targets/eigen
EIGEN_SO       := $(BUILD)/targets/eigen.so
EIGEN_ND_SO    := $(BUILD)/targets/eigen-ndebug.so
EIGEN_VERSION  := $(shell dpkg-query -W -f='$${Version}' libeigen3-dev 2>/dev/null || echo unknown)
EIGEN_MAX_RANK ?= 4
EIGEN_OPT      ?= -O1
EIGEN_CXXFLAGS := -std=c++17 $(filter-out -Wstrict-prototypes,$(WARN)) $(EIGEN_OPT) -fPIC -Iinclude \
                  -isystem /usr/include/eigen3 -DBCT_EIGEN_MAX_RANK=$(EIGEN_MAX_RANK) $(EXTRA_CFLAGS)
EIGEN_HDRS     := $(wildcard targets/eigen/*.hpp) include/bcast_target.h
EIGEN_RANKS    := $(shell seq 0 $(EIGEN_MAX_RANK))

ifneq ($(wildcard /usr/include/eigen3/unsupported/Eigen/CXX11/Tensor),)
TARGETS_THIRDPARTY += $(EIGEN_SO) $(EIGEN_ND_SO)
ALL_TARGETS += $(EIGEN_SO) $(EIGEN_ND_SO)

# $(1): assert or ndebug; $(2): extra flags; $(3): the target's name.
define EIGEN_BUILD
$(EIGEN_DIR)/$(1)/rank%.o: targets/eigen/eigen_rank.cpp $(EIGEN_HDRS)
	@mkdir -p $$(dir $$@)
	$(CXX) $(EIGEN_CXXFLAGS) $(2) -DBCT_EIGEN_RANK=$$* -c -o $$@ $$<

$(EIGEN_DIR)/$(1)/target.o: targets/eigen/eigen_target.cpp $(EIGEN_HDRS)
	@mkdir -p $$(dir $$@)
	$(CXX) $(EIGEN_CXXFLAGS) $(2) -DBCT_EIGEN_NAME='"$(3)"' \
	  -DBCT_LIB_VERSION='"$(EIGEN_VERSION)"' -c -o $$@ $$<

$(BUILD)/targets/$(3).so: $(EIGEN_DIR)/$(1)/target.o $(EIGEN_RANKS:%=$(EIGEN_DIR)/$(1)/rank%.o)
	$(CXX) -shared -Wl,--exclude-libs,ALL -o $$@ $$^ $(EXTRA_LDFLAGS)
endef
$(eval $(call EIGEN_BUILD,assert,,eigen))
$(eval $(call EIGEN_BUILD,ndebug,-DNDEBUG,eigen-ndebug))

targets: $(EIGEN_SO) $(EIGEN_ND_SO)
TESTS += "$(BUILD)/bcast-run --target $(EIGEN_SO) --expectations targets/eigen/expectations cases/seeds.cases"
TESTS += "$(BUILD)/bcast-run --target $(EIGEN_ND_SO) --expectations targets/eigen/expectations-ndebug cases/seeds.cases"
else
targets: targets-skip-eigen
targets-skip-eigen:
	@echo "targets: eigen, eigen-ndebug skipped: libeigen3-dev not installed (apt-get install libeigen3-dev)"
TESTS += "echo 'eigen smoke test skipped: libeigen3-dev not installed (apt-get install libeigen3-dev)'; echo '0 passed, 0 failed, 1 skipped'"
TESTS += "echo 'eigen-ndebug smoke test skipped: libeigen3-dev not installed (apt-get install libeigen3-dev)'; echo '0 passed, 0 failed, 1 skipped'"
.PHONY: targets-skip-eigen
endif
.PHONY: targets
