# targets/rust/target.mk - the Rust adapters (cdylibs through the C ABI) and the bindings' tests, when cargo is present.
#
#   targets/rust/bcast-target/   the bindings of include/bcast_target.h (no dependencies);
#                                its tests/layout.rs checks them against the header
#   targets/rust/example/        the minimal adapter docs/target-abi.md quotes (doc-check.sh
#                                keeps the two identical)
#   targets/rust/<name>/         one adapter per library (RUST_ADAPTERS), each its own
#                                package with its own committed Cargo.lock, depending on
#                                bcast-target by path; its cdylib is libbcast_<name>.so
#
# Each adapter is built with `cargo build --release --locked` into one shared
# CARGO_TARGET_DIR (build/rust, whatever BUILD is: the Rust code does not
# depend on CC or the sanitizer flags, so CI's gcc, clang and sanitizer builds
# share one Rust build instead of three), so common dependencies compile once, and
# copied to $(BUILD)/targets/<name>.so for targets/registry.tsv. To add an
# adapter, add its folder name to RUST_ADAPTERS. make always asks cargo (it
# knows what changed); the .so is replaced only when it differs.
# Without cargo, the builds and tests are skipped with a message saying so.

RUST_ADAPTERS    := ndarray burn candle
RUST_TEST_CRATES := bcast-target
CARGO            ?= $(shell command -v cargo 2>/dev/null || { test -x "$$HOME/.cargo/bin/cargo" && echo "$$HOME/.cargo/bin/cargo"; })
RUST_TARGET_DIR  ?= $(CURDIR)/build/rust
RUST_JOBS        ?= 2
RUST_SOS         := $(RUST_ADAPTERS:%=$(BUILD)/targets/%.so)
RUST_EXAMPLE_SO  := $(BUILD)/targets/test/rust_example.so
RUST_CARGO       := CARGO_TARGET_DIR=$(RUST_TARGET_DIR) $(CARGO)
RUST_SKIP        := cargo not found (install a Rust toolchain, e.g. with rustup, and re-run make)

ifneq ($(CARGO),)
ALL_TARGETS += $(RUST_SOS) $(RUST_EXAMPLE_SO)
TARGETS_THIRDPARTY += $(RUST_SOS)
targets: $(RUST_SOS)

# One cdylib per adapter folder: cargo decides what to rebuild.
$(RUST_SOS) $(RUST_EXAMPLE_SO): rust-force
	@mkdir -p $(dir $@)
	cd targets/rust/$(RUST_CRATE_DIR) && $(RUST_CARGO) build --release --locked -j$(RUST_JOBS) --quiet
	@cmp -s $(RUST_TARGET_DIR)/release/libbcast_$(subst -,_,$(RUST_CRATE_DIR)).so $@ || \
	  cp $(RUST_TARGET_DIR)/release/libbcast_$(subst -,_,$(RUST_CRATE_DIR)).so $@
$(RUST_SOS): RUST_CRATE_DIR = $(basename $(notdir $@))
$(RUST_EXAMPLE_SO): RUST_CRATE_DIR = example

# The crates' own tests (release profile: the adapters' dependencies are built once).
TESTS += $(foreach c,$(RUST_TEST_CRATES) $(RUST_ADAPTERS),"CARGO_TARGET_DIR=$(RUST_TARGET_DIR) sh targets/rust/cargo-test.sh $(CARGO) targets/rust/$(c) --release")
# The doc's Rust adapter against real cases: its add/sub/mul f32 cases pass, the rest are skipped.
TESTS += "$(BUILD)/bcast-run --target $(RUST_EXAMPLE_SO) --no-color --jobs 2 cases/ops.cases cases/layouts.cases cases/zero-size.cases"
TESTS += $(foreach a,$(RUST_ADAPTERS),"$(BUILD)/bcast-run --target $(BUILD)/targets/$(a).so --expectations targets/rust/$(a)/expectations cases/seeds.cases")
else
targets: rust-skip
rust-skip:
	@echo "targets: Rust adapters ($(RUST_ADAPTERS)) skipped: $(RUST_SKIP)"
all: rust-skip
TESTS += "echo 'rust: bindings layout test, crate tests and adapters skipped: $(RUST_SKIP)'; echo '0 passed, 0 failed, 1 skipped'"
.PHONY: rust-skip
endif

# The doc's Rust adapter is this crate, byte for byte (no cargo needed to check that).
TESTS += "sh targets/rust/doc-check.sh"

rust-force:
.PHONY: rust-force targets
