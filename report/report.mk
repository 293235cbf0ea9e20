# report/report.mk - conformance reports per target, the cross-target index and the edge-case catalogue.
#
#   make report TARGET=name              a registered target: reports/<name>/{index.md,index.html,
#                                        summary.json} (committed) and results.json (git-ignored: every
#                                        case in full), then reports/index.*
#   make report TARGET=path/to.so        any other target (your library, a bridge through pipe.so):
#                                        $(BUILD)/reports/<NAME>/ and $(BUILD)/reports/index.*, never
#                                        reports/; NAME= names it (default: the target's describe() name,
#                                        a bridge's handshake `name`)
#                                        optional, both: TARGET_ARG=..., EXPECT=file,
#                                        TIMEOUT=seconds (else the registry's timeout column), PROBE=1
#                                        (run --probe-limits too; else the registry's probe column),
#                                        NOTES=FINDINGS.md (else the registry's notes column)
#   make reports                         every target in targets/registry.tsv (unbuilt ones skipped,
#                                        with a message) and the index; fails when a target has
#                                        failures its expectations file does not list (the gate)
#   make docs                            reports/edge-cases.md|html from cases/ and docs/semantics.md;
#                                        reports/findings-vs-hand.md (automatic findings against the
#                                        hand-written families, from the committed reports)
#   make reports REPORTS_SAMPLE=targets/ci-sample.tsv
#                                        CI's form: the targets listed there are gated on a deterministic
#                                        sample of the suite (--shard 1/N) and their reports left as they
#                                        are (report/ci_sample.py); every other target as `make reports`
#   make reports-check                   regenerate the committed reports (ref, index, edge cases)
#                                        in a temp dir and fail on any difference
# The generator is report/bcast_report.py (Python standard library only).

REPORT_PY   := $(PYTHON) report/bcast_report.py
REPORT_JOBS ?= 2
REPORT_RUN  := --runner $(BUILD)/bcast-run --build $(BUILD) --python $(PYTHON) --jobs $(REPORT_JOBS)
# pipe.so too: `make report TARGET=$(BUILD)/targets/pipe.so TARGET_ARG=...` is how a bridge is reported
REPORT_DEPS := $(BUILD)/bcast-run $(BUILD)/targets/ref.so $(BUILD)/targets/pipe.so

report: $(REPORT_DEPS)
	@test -n "$(TARGET)" || { echo "make report: set TARGET=name (a line of targets/registry.tsv) or TARGET=path/to.so" >&2; exit 2; }
	$(REPORT_PY) target $(REPORT_RUN) --target '$(TARGET)' \
	  $(if $(TARGET_ARG),--target-arg '$(TARGET_ARG)') $(if $(EXPECT),--expectations '$(EXPECT)') \
	  $(if $(TIMEOUT),--timeout '$(TIMEOUT)') $(if $(PROBE),--probe) $(if $(NOTES),--notes '$(NOTES)') \
	  $(if $(NAME),--name '$(NAME)')

reports: $(REPORT_DEPS)
	$(REPORT_PY) all $(REPORT_RUN) $(if $(REPORTS_SAMPLE),--sample '$(REPORTS_SAMPLE)')

docs:
	$(REPORT_PY) edge-cases
	$(REPORT_PY) findings-check

reports-check: $(REPORT_DEPS)
	$(REPORT_PY) check $(REPORT_RUN)

# The tests need the broken test targets (built by `make test` via targets.mk).
TESTS += "$(PYTHON) report/tests/test_report.py $(BUILD)"
# every FINDINGS.md family count and expectations block size in step (report/counts_check.py)
TESTS += "$(PYTHON) report/counts_check.py"

.PHONY: report reports docs reports-check
